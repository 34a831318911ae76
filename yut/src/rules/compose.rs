//! Composition: tuples of rule sets fold left to right, and the option and view types that
//! carry several rule sets' parts side by side, flat on the wire.

use std::sync::{Mutex, PoisonError};

use schemars::JsonSchema;
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::{
    CaptureTo, Cx, Emit, Hook, MoveDone, MoveInfo, OnResult, RuleOptions, Rules, TurnStart,
};
use crate::graph::Node;
use crate::state::{Board, SideId};
use crate::{Throw, To, YutError, YutOptions};

/// One of two rule sets' actions or events. Untagged: each side's values carry their own
/// `type`, so the wire shows just the inner value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Either<A, B> {
    /// The first rule set's.
    Left(A),
    /// The second rule set's.
    Right(B),
}

/// Two rule sets' configurations or view parts, side by side in one flat JSON object.
///
/// On input the fields are split by the first part's JSON Schema: its properties go to
/// `first`, everything else to `second` (which refuses what it does not know).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Both<A, B> {
    /// The first rule set's part.
    #[serde(flatten)]
    pub first: A,
    /// The second rule set's part.
    #[serde(flatten)]
    pub second: B,
}

/// The property names of `T`'s JSON Schema.
fn fields_of<T: JsonSchema>() -> Vec<String> {
    schemars::schema_for!(T)
        .get("properties")
        .and_then(Value::as_object)
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

/// Splits `map` into `T`'s fields and the rest, and reads `T` from its part.
fn take<T: JsonSchema + DeserializeOwned, E: serde::de::Error>(
    map: &mut Map<String, Value>,
) -> Result<T, E> {
    let mut mine = Map::new();
    for key in fields_of::<T>() {
        if let Some(v) = map.remove(&key) {
            mine.insert(key, v);
        }
    }
    serde_json::from_value(Value::Object(mine)).map_err(E::custom)
}

impl<'de, A, B> Deserialize<'de> for Both<A, B>
where
    A: JsonSchema + DeserializeOwned,
    B: DeserializeOwned,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut map = Map::<String, Value>::deserialize(d)?;
        let first = take::<A, D::Error>(&mut map)?;
        let second = serde_json::from_value(Value::Object(map)).map_err(D::Error::custom)?;
        Ok(Self { first, second })
    }
}

/// Options of a game under rules with a configuration: the base options and the
/// configuration in one flat JSON object. Unknown fields are refused.
///
/// ```
/// use yut::rules::{Both, WithRules};
/// use yut::NoConfig;
/// let o: WithRules<NoConfig> = serde_json::from_str(r#"{"pieces":3}"#).unwrap();
/// assert_eq!(o.base.pieces, 3);
/// assert!(serde_json::from_str::<WithRules<NoConfig>>(r#"{"wings":3}"#).is_err());
/// ```
#[derive(Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WithRules<C> {
    /// The base options.
    #[serde(flatten)]
    pub base: YutOptions,
    /// The rules' configuration.
    #[serde(flatten)]
    pub rules: C,
}

// By hand, for `clone_from`: the derived one makes a whole new copy and drops the old, and a
// state reset for a new game (`Game::reset`) copies its options into the last game's with
// it.
impl<C: Clone> Clone for WithRules<C> {
    fn clone(&self) -> Self {
        Self {
            base: self.base.clone(),
            rules: self.rules.clone(),
        }
    }

    /// Field by field, so that a configuration's buffers are kept.
    fn clone_from(&mut self, source: &Self) {
        let Self { base, rules } = source;
        self.base.clone_from(base);
        self.rules.clone_from(rules);
    }
}

impl<'de, C: DeserializeOwned> Deserialize<'de> for WithRules<C> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut map = Map::<String, Value>::deserialize(d)?;
        let base = take::<YutOptions, D::Error>(&mut map)?;
        let rules = serde_json::from_value(Value::Object(map)).map_err(D::Error::custom)?;
        Ok(Self { base, rules })
    }
}

impl<C> RuleOptions for WithRules<C>
where
    C: Clone + std::fmt::Debug + PartialEq + Default + Serialize + DeserializeOwned + JsonSchema,
    C: Send + Sync,
{
    type Config = C;

    fn base(&self) -> &YutOptions {
        &self.base
    }

    fn config(&self) -> &C {
        &self.rules
    }
}

/// Passes the first rule set's events on as [`Either::Left`].
struct Lefts<'a, A, B>(&'a mut dyn Emit<Either<A, B>>);

impl<A, B> Emit<A> for Lefts<'_, A, B> {
    fn emit(&mut self, event: A) {
        self.0.emit(Either::Left(event));
    }
}

/// Passes the second rule set's events on as [`Either::Right`].
struct Rights<'a, A, B>(&'a mut dyn Emit<Either<A, B>>);

impl<A, B> Emit<B> for Rights<'_, A, B> {
    fn emit(&mut self, event: B) {
        self.0.emit(Either::Right(event));
    }
}

/// Runs `f` with the first rule set's view of a composed context.
fn left<A: Rules, B: Rules, T>(cx: &mut Cx<'_, (A, B)>, f: impl FnOnce(&mut Cx<'_, A>) -> T) -> T {
    let mut out = Lefts(&mut *cx.out);
    f(&mut Cx {
        board: &mut *cx.board,
        state: &mut cx.state.0,
        config: &cx.config.first,
        out: &mut out,
        carry: cx.carry.as_deref_mut(),
    })
}

/// Runs `f` with the second rule set's view of a composed context.
fn right<A: Rules, B: Rules, T>(cx: &mut Cx<'_, (A, B)>, f: impl FnOnce(&mut Cx<'_, B>) -> T) -> T {
    let mut out = Rights(&mut *cx.out);
    f(&mut Cx {
        board: &mut *cx.board,
        state: &mut cx.state.1,
        config: &cx.config.second,
        out: &mut out,
        carry: cx.carry.as_deref_mut(),
    })
}

/// `"{a}+{b}"` as a `&'static str`, as ids are. Each distinct pair is built once and kept
/// for the life of the process (a handful of strings: one per composition the program
/// names), so asking for the id again costs a lookup, not an allocation.
fn joined_id(a: &'static str, b: &'static str) -> &'static str {
    type Ids = Vec<(&'static str, &'static str, &'static str)>;
    static IDS: Mutex<Ids> = Mutex::new(Vec::new());
    // A panic elsewhere while the lock was held cannot leave the list half-written.
    let mut ids = IDS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(_, _, id)) = ids.iter().find(|&&(x, y, _)| x == a && y == b) {
        return id;
    }
    let id: &'static str = Box::leak(format!("{a}+{b}").into_boxed_str());
    ids.push((a, b, id));
    id
}

/// The format version of a composition whose parts have versions `a` and `b`: the first's
/// in the high 16 bits and the second's in the low when both fit there (every single rule
/// set's version does, and the records stored so far carry that number), else a stable
/// hash of both (32-bit FNV-1a of their little-endian bytes). A nested composition's
/// version no longer fits, so packing it would drop bits of a part: the hash keeps every
/// part's version in play, nested either way.
///
/// ```
/// use yut::rules::composed_version;
/// assert_eq!(composed_version(1, 2), 0x0001_0002);
/// let nested = composed_version(1, 1);
/// assert_ne!(composed_version(nested, 1), composed_version(nested, 2));
/// assert_ne!(composed_version(1, nested), composed_version(2, nested));
/// ```
pub const fn composed_version(a: u32, b: u32) -> u32 {
    if a <= 0xFFFF && b <= 0xFFFF {
        return (a << 16) | b;
    }
    const OFFSET: u32 = 0x811C_9DC5;
    const PRIME: u32 = 0x0100_0193;
    let a = a.to_le_bytes();
    let b = b.to_le_bytes();
    let mut hash = OFFSET;
    let mut i = 0;
    while i < 8 {
        let byte = if i < 4 { a[i] } else { b[i - 4] };
        hash = (hash ^ byte as u32).wrapping_mul(PRIME);
        i += 1;
    }
    hash
}

/// Two rule sets played together; every hook folds left to right:
///
/// - checks, setup, `turn_start`, `after_result`, `after_move`: both, first then second;
///   a turn waits if either waits;
/// - `on_result`: the first may change the result or ask for a rethrow (then the second is
///   not asked); otherwise the second sees the first's result;
/// - `allows_move`: both must allow; `finishes_short`: either may finish;
/// - `extra_steps`: the sum; `enter_count`: the larger;
/// - `capture_to`: the first answer that is not [`CaptureTo::Home`];
/// - `capture_bonus`: the second adjusts the first's count;
/// - rule actions go to the rule set they belong to; while the first waits, its actions
///   are the legal ones, then the second's;
/// - `listens`: either. Exact, though the second is asked before the first has run: a first
///   that does not listen changes nothing the second's answer reads, and one that does
///   calls the second anyway.
impl<A: Rules, B: Rules> Rules for (A, B) {
    type Config = Both<A::Config, B::Config>;
    type Options = WithRules<Both<A::Config, B::Config>>;
    type State = (A::State, B::State);
    type Action = Either<A::Action, B::Action>;
    type Event = Either<A::Event, B::Event>;
    type View = Both<A::View, B::View>;

    /// `"{a}+{b}"`: a composition plays differently from either part, so its records must
    /// not pass for theirs. [`Named`](super::Named) gives it a name of its own instead.
    fn id(&self) -> &'static str {
        joined_id(self.0.id(), self.1.id())
    }

    /// Both parts' versions together ([`composed_version`]), so that a change to either
    /// changes the composition's, however deeply it is nested.
    fn format_version(&self) -> u32 {
        composed_version(self.0.format_version(), self.1.format_version())
    }

    fn validate_config(&self, config: &Self::Config, base: &YutOptions) -> Result<(), YutError> {
        self.0.validate_config(&config.first, base)?;
        self.1.validate_config(&config.second, base)
    }

    fn setup(&self, config: &Self::Config, board: &Board) -> Self::State {
        (
            self.0.setup(&config.first, board),
            self.1.setup(&config.second, board),
        )
    }

    fn setup_into(&self, config: &Self::Config, board: &Board, state: &mut Self::State) {
        self.0.setup_into(&config.first, board, &mut state.0);
        self.1.setup_into(&config.second, board, &mut state.1);
    }

    fn check_state(
        &self,
        config: &Self::Config,
        state: &Self::State,
        board: &Board,
    ) -> Result<(), String> {
        self.0.check_state(&config.first, &state.0, board)?;
        self.1.check_state(&config.second, &state.1, board)
    }

    #[inline(always)]
    fn listens(
        &self,
        board: &Board,
        state: &Self::State,
        config: &Self::Config,
        hook: Hook<'_>,
    ) -> bool {
        self.0.listens(board, &state.0, &config.first, hook)
            || self.1.listens(board, &state.1, &config.second, hook)
    }

    fn turn_start(&self, cx: &mut Cx<'_, Self>) -> TurnStart {
        let a = left(cx, |c| self.0.turn_start(c));
        let b = right(cx, |c| self.1.turn_start(c));
        if a == TurnStart::Wait || b == TurnStart::Wait {
            TurnStart::Wait
        } else {
            TurnStart::Throw
        }
    }

    fn waiting(&self, board: &Board, state: &Self::State) -> bool {
        self.0.waiting(board, &state.0) || self.1.waiting(board, &state.1)
    }

    fn validate_action(
        &self,
        board: &Board,
        state: &Self::State,
        seat: usize,
        action: &Self::Action,
    ) -> Result<(), YutError> {
        match action {
            Either::Left(a) => self.0.validate_action(board, &state.0, seat, a),
            Either::Right(b) => self.1.validate_action(board, &state.1, seat, b),
        }
    }

    fn apply_action(&self, cx: &mut Cx<'_, Self>, seat: usize, action: &Self::Action) -> TurnStart {
        match action {
            Either::Left(a) => left(cx, |c| self.0.apply_action(c, seat, a)),
            Either::Right(b) => right(cx, |c| self.1.apply_action(c, seat, b)),
        };
        if self.waiting(cx.board, cx.state) {
            TurnStart::Wait
        } else {
            TurnStart::Throw
        }
    }

    fn legal_actions(&self, board: &Board, state: &Self::State, seat: usize) -> Vec<Self::Action> {
        if self.0.waiting(board, &state.0) {
            let list = self.0.legal_actions(board, &state.0, seat);
            list.into_iter().map(Either::Left).collect()
        } else {
            let list = self.1.legal_actions(board, &state.1, seat);
            list.into_iter().map(Either::Right).collect()
        }
    }

    fn legal_action_count(&self, board: &Board, state: &Self::State, seat: usize) -> usize {
        if self.0.waiting(board, &state.0) {
            self.0.legal_action_count(board, &state.0, seat)
        } else {
            self.1.legal_action_count(board, &state.1, seat)
        }
    }

    fn legal_action(
        &self,
        board: &Board,
        state: &Self::State,
        seat: usize,
        index: usize,
    ) -> Option<Self::Action> {
        if self.0.waiting(board, &state.0) {
            let action = self.0.legal_action(board, &state.0, seat, index);
            action.map(Either::Left)
        } else {
            let action = self.1.legal_action(board, &state.1, seat, index);
            action.map(Either::Right)
        }
    }

    fn timeout_action(
        &self,
        board: &Board,
        state: &Self::State,
        seat: usize,
    ) -> Option<Self::Action> {
        if self.0.waiting(board, &state.0) {
            self.0
                .timeout_action(board, &state.0, seat)
                .map(Either::Left)
        } else {
            self.1
                .timeout_action(board, &state.1, seat)
                .map(Either::Right)
        }
    }

    fn on_result(&self, cx: &mut Cx<'_, Self>, result: &mut Throw) -> OnResult {
        if left(cx, |c| self.0.on_result(c, result)) == OnResult::Rethrow {
            return OnResult::Rethrow;
        }
        right(cx, |c| self.1.on_result(c, result))
    }

    fn after_result(&self, cx: &mut Cx<'_, Self>, result: Throw) {
        left(cx, |c| self.0.after_result(c, result));
        right(cx, |c| self.1.after_result(c, result));
    }

    fn forbids_moves(&self, board: &Board, state: &Self::State) -> bool {
        self.0.forbids_moves(board, &state.0) || self.1.forbids_moves(board, &state.1)
    }

    fn allows_move(&self, board: &Board, state: &Self::State, info: &MoveInfo, to: To) -> bool {
        self.0.allows_move(board, &state.0, info, to)
            && self.1.allows_move(board, &state.1, info, to)
    }

    fn enter_count(&self, board: &Board, state: &Self::State, side: SideId) -> u8 {
        self.0
            .enter_count(board, &state.0, side)
            .max(self.1.enter_count(board, &state.1, side))
    }

    fn extra_steps(&self, board: &Board, state: &Self::State, info: &MoveInfo) -> u8 {
        self.0
            .extra_steps(board, &state.0, info)
            .saturating_add(self.1.extra_steps(board, &state.1, info))
    }

    fn finishes_short(
        &self,
        board: &Board,
        state: &Self::State,
        info: &MoveInfo,
        node: Node,
    ) -> bool {
        self.0.finishes_short(board, &state.0, info, node)
            || self.1.finishes_short(board, &state.1, info, node)
    }

    fn capture_to(&self, cx: &mut Cx<'_, Self>, victim: SideId, count: u8) -> CaptureTo {
        match left(cx, |c| self.0.capture_to(c, victim, count)) {
            CaptureTo::Home => right(cx, |c| self.1.capture_to(c, victim, count)),
            to => to,
        }
    }

    fn capture_bonus(&self, cx: &mut Cx<'_, Self>, info: &MoveInfo, base: u8) -> u8 {
        let first = left(cx, |c| self.0.capture_bonus(c, info, base));
        right(cx, |c| self.1.capture_bonus(c, info, first))
    }

    fn after_move(&self, cx: &mut Cx<'_, Self>, done: &MoveDone) {
        left(cx, |c| self.0.after_move(c, done));
        right(cx, |c| self.1.after_move(c, done));
    }

    fn view(&self, board: &Board, state: &Self::State) -> Self::View {
        Both {
            first: self.0.view(board, &state.0),
            second: self.1.view(board, &state.1),
        }
    }
}
