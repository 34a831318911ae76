//! The one extension seam: [`Rules`], whose hooks adjust the standard outcome.
//!
//! Every hook has a default that does nothing, so [`Standard`] is an empty
//! implementation and costs nothing at run time. Hooks never reimplement movement: the
//! engine walks the board, and a hook adjusts a number, a destination or a yes/no answer
//! at a fixed point of the turn (RULES.md, Turns), or asks the engine to carry the stack
//! that moved further on ([`Cx::carry`]). Rule-owned state (`Rules::State`) lives
//! inside the game state, so it serializes, replays and compares with it.
//!
//! The points, in the order the engine reaches them in a turn:
//! [`Rules::turn_start`] → ([`Rules::validate_action`] / [`Rules::apply_action`] while the
//! phase is [`Phase::Rule`]) → for each throw [`Rules::on_result`] then
//! [`Rules::after_result`] → for each move [`Rules::allows_move`] (legality),
//! [`Rules::extra_steps`], [`Rules::finishes_short`], [`Rules::capture_to`],
//! [`Rules::capture_bonus`], then [`Rules::after_move`].
//!
//! Before each hook that takes a [`Cx`], the engine asks [`Rules::listens`] whether the
//! hook has anything to do in this state, and skips it (context and all) when not.

use std::fmt::Debug;

use schemars::JsonSchema;
use serde::{Serialize, de::DeserializeOwned};

use crate::graph::Node;
use crate::state::{Board, Phase, SideId};
use crate::{Origin, Throw, To, YutError, YutEvent, YutOptions};

mod compose;
mod named;

pub use compose::{Both, Either, WithRules, composed_version};
pub use named::{Named, RuleName};

/// The whole options of a game under some rules: the base options plus the rules' own
/// configuration. [`YutOptions`] is the standard rules' (with no configuration);
/// [`WithRules`] carries any configuration beside the base options, flat on the wire.
pub trait RuleOptions:
    Clone + Debug + PartialEq + Default + Serialize + DeserializeOwned + JsonSchema + Send + Sync
{
    /// The rules' own configuration.
    type Config;

    /// The base game's options.
    fn base(&self) -> &YutOptions;

    /// The rules' own configuration.
    fn config(&self) -> &Self::Config;
}

/// The configuration of rules that have none: an empty JSON object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoConfig {}

impl RuleOptions for YutOptions {
    type Config = NoConfig;

    fn base(&self) -> &YutOptions {
        self
    }

    fn config(&self) -> &NoConfig {
        &NoConfig {}
    }
}

/// Receives the events a hook announces.
pub trait Emit<E> {
    /// Announces one event.
    fn emit(&mut self, event: E);
}

impl<E> Emit<E> for Vec<YutEvent<E>> {
    fn emit(&mut self, event: E) {
        self.push(YutEvent::Rule(event));
    }
}

/// What the hooks of one call may touch: the rules' own state and configuration, a
/// read-only view of the base game, and the few changes to it that rules may make.
///
/// The base [`Board`] is not handed out mutably: every change a hook may make goes
/// through a method that keeps the board's invariants (the ones a restored state is
/// checked against), so no rule set can leave the engine in a state it would refuse to
/// load. The rules' own state is theirs, and theirs to keep consistent
/// ([`Rules::check_state`]).
///
/// ```
/// use yut::rules::{Cx, MoveDone, Rules};
/// use yut::{Board, NoAction, NoConfig, NoView, To, YutOptions};
///
/// /// A stack that stops on node 7 throws once more.
/// #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
/// struct LuckySeven;
///
/// impl Rules for LuckySeven {
///     type Config = NoConfig;
///     type Options = YutOptions;
///     type State = ();
///     type Action = NoAction;
///     type Event = yut::NoEvent;
///     type View = NoView;
///
///     fn id(&self) -> &'static str { "lucky-seven" }
///
///     fn after_move(&self, cx: &mut Cx<'_, Self>, done: &MoveDone) {
///         // Reads go through `board()`; the bonus through `grant_throw`, which refuses
///         // past the engine's bound instead of overflowing it.
///         if done.to == To::Node(7) && cx.board().phase() != yut::Phase::Finished {
///             cx.grant_throw();
///         }
///     }
///
///     fn view(&self, _board: &Board, _state: &()) -> NoView { NoView {} }
/// }
/// # let _ = LuckySeven;
/// ```
pub struct Cx<'a, R: Rules> {
    /// The base game: private, so that it changes only through the methods below.
    pub(crate) board: &'a mut Board,
    /// The rules' own state.
    pub state: &'a mut R::State,
    /// The rules' configuration for this game.
    pub config: &'a R::Config,
    /// Where rule events go (they appear in the action's events, in order).
    pub(crate) out: &'a mut dyn Emit<R::Event>,
    /// The carry asked for, in [`Rules::after_move`] only (`None` in every other hook).
    pub(crate) carry: Option<&'a mut Carry>,
}

/// A carry of the mover's stack asked for in [`Rules::after_move`] ([`Cx::carry`]), which
/// the engine makes once the hook has returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Carry {
    /// Where the stack that moved ended: off the board (finished, or sent home by a
    /// backdo) leaves nothing to carry.
    pub(crate) to: To,
    /// The steps asked for, summed over the rule sets that asked.
    pub(crate) steps: u8,
}

impl<R: Rules> Cx<'_, R> {
    /// Announces a rule event.
    pub fn emit(&mut self, event: R::Event) {
        self.out.emit(event);
    }

    /// The base game, read-only.
    #[inline]
    pub fn board(&self) -> &Board {
        self.board
    }

    /// The base game read-only and the rules' own state mutably at once, for hooks that
    /// update their state from the board (borrowing both through `self` would not do).
    #[inline]
    pub fn parts(&mut self) -> (&Board, &mut R::State) {
        (self.board, self.state)
    }

    /// Grants the player to act one more throw this turn. Returns `false`, granting
    /// nothing, when [`MAX_PENDING`](crate::MAX_PENDING) results are already pending and
    /// owed together: a state beyond that bound is refused on restore, so no rule may
    /// create one.
    pub fn grant_throw(&mut self) -> bool {
        self.board.owe_throws(1) == 1
    }

    /// Adds `result` to the pending results, as if it had been thrown (it is not a throw:
    /// it counts in no statistics and triggers no hook). Returns `false`, adding nothing,
    /// when [`MAX_PENDING`](crate::MAX_PENDING) results are already pending and owed
    /// together.
    pub fn add_result(&mut self, result: Throw) -> bool {
        if self.board.pending.len() + usize::from(self.board.throws_owed) >= crate::MAX_PENDING {
            return false;
        }
        self.board.pending.push(result)
    }

    /// Carries the stack that has just moved `steps` nodes further on its way, in
    /// [`Rules::after_move`]: once the hook returns, the engine walks it on from where it
    /// stands as a move from there would go (shortcuts, and finishing short as
    /// [`Rules::finishes_short`] says), and lands it as it lands a move: it stacks with the
    /// side's own pieces, captures another side's stack (with [`Rules::capture_to`] and the
    /// capture bonus through [`Rules::capture_bonus`]), or finishes, and the whole game
    /// follows (the side's place, the end of the game). A `carried` event announces it, and
    /// [`Rules::after_move`] is asked again about the carry ([`MoveDone::carried`]), so a
    /// carry may carry on. Steps asked by several rule sets add up.
    ///
    /// Returns `false`, asking nothing, in any other hook, when `steps` is 0, or when the
    /// stack is no longer on the board (it finished or went home).
    ///
    /// ```
    /// use yut::rules::{Cx, MoveDone, Rules};
    /// use yut::{Board, NoAction, NoConfig, NoView, YutOptions};
    ///
    /// /// A capture also carries the capturer one node on.
    /// #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    /// struct CarryOn;
    ///
    /// impl Rules for CarryOn {
    ///     type Config = NoConfig;
    ///     type Options = YutOptions;
    ///     type State = ();
    ///     type Action = NoAction;
    ///     type Event = yut::NoEvent;
    ///     type View = NoView;
    ///
    ///     fn id(&self) -> &'static str { "carry-on" }
    ///
    ///     fn after_move(&self, cx: &mut Cx<'_, Self>, done: &MoveDone) {
    ///         if done.captured > 0 {
    ///             cx.carry(1);
    ///         }
    ///     }
    ///
    ///     fn view(&self, _board: &Board, _state: &()) -> NoView { NoView {} }
    /// }
    /// # let _ = CarryOn;
    /// ```
    pub fn carry(&mut self, steps: u8) -> bool {
        match &mut self.carry {
            Some(carry) if carry.to.node().is_some() && steps > 0 => {
                carry.steps = carry.steps.saturating_add(steps);
                true
            }
            _ => false,
        }
    }

    /// A uniform draw from `0..n` with the game's RNG (0 when `n` is 0 or 1), so that rule
    /// randomness replays with the game. The only way rules reach the RNG: they cannot
    /// reseed or rewind it.
    pub fn below(&mut self, n: u32) -> u32 {
        self.board.table.rng_mut().below(n)
    }
}

/// What `turn_start` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnStart {
    /// Throw as usual.
    Throw,
    /// Wait for a rule action of the current player (phase [`Phase::Rule`]).
    Wait,
}

/// What `on_result` decides about a fresh throw result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnResult {
    /// Keep the (possibly changed) result.
    Keep,
    /// Throw again in its place (the new throw runs through the hooks again).
    Rethrow,
}

/// Where a captured stack goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureTo {
    /// Home, the standard rule (RULES.md, Movement).
    Home,
    /// Onto a node, as a stack with the trail `[node]`. If another side holds the node
    /// then, or the number is no node of the board, the stack goes home; if the victim's
    /// side holds it, they stack.
    Node(Node),
}

/// A hook that takes a [`Cx`], with its arguments, as [`Rules::listens`] is asked about
/// it. More may be added: a match on it needs a catch-all arm, and `true` is the answer
/// for a hook a rule set does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Hook<'a> {
    /// [`Rules::turn_start`]; skipped, the turn starts with a throw.
    TurnStart,
    /// [`Rules::on_result`] with the result thrown; skipped, it is kept.
    OnResult(Throw),
    /// [`Rules::after_result`] with the final result; skipped, nothing is added.
    AfterResult(Throw),
    /// [`Rules::capture_to`]; skipped, the stack goes home.
    CaptureTo {
        /// Whose stack is captured.
        victim: SideId,
        /// How many pieces.
        count: u8,
    },
    /// [`Rules::capture_bonus`]; skipped, the capture earns `base`.
    CaptureBonus {
        /// The capturing move.
        info: &'a MoveInfo,
        /// The standard count.
        base: u8,
    },
    /// [`Rules::after_move`] with what the move did; skipped, nothing follows it.
    AfterMove(&'a MoveDone),
}

/// A move as the hooks see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// The moving side.
    pub side: SideId,
    /// The result used.
    pub result: Throw,
    /// Where it starts.
    pub from: Origin,
    /// Pieces moving together.
    pub count: u8,
}

/// What a move did, for `after_move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveDone {
    /// The move.
    pub info: MoveInfo,
    /// Where it ended.
    pub to: To,
    /// Pieces of other sides captured.
    pub captured: u8,
    /// Whether it joined the side's own stack.
    pub stacked: bool,
    /// Whether a rule carried the stack ([`Cx::carry`]) rather than the player moving it:
    /// `info.from` is then where the carry started and `info.result` the result of the
    /// move it followed.
    pub carried: bool,
}

/// Rule hooks. Every hook defaults to the standard rules; implement only what changes.
///
/// The game `Yut<R>` holds one value of `R` (usually zero-sized); its configuration for a
/// given game comes from `R::Options` and lives in `R::State` after setup.
pub trait Rules: Clone + Debug + Default + PartialEq + Send + Sync + 'static {
    /// The rules' own configuration, chosen with the options.
    type Config: Clone
        + Debug
        + PartialEq
        + Default
        + Serialize
        + DeserializeOwned
        + JsonSchema
        + Send
        + Sync;
    /// The whole options type: the base options plus [`Rules::Config`].
    type Options: RuleOptions<Config = Self::Config>;
    /// The rules' own state, kept in the game state.
    type State: Clone + Debug + PartialEq + Default + Serialize + DeserializeOwned + Send + Sync;
    /// Extra actions (tagged by `type` like the base ones).
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema + Send + Sync;
    /// Extra events.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema + Send + Sync;
    /// Extra view fields, flattened into the view.
    type View: Clone + Debug + Serialize + JsonSchema;

    /// The game id under which this rule set registers (`"yut"` for the standard rules).
    /// Records carry it, and a record of another id is refused: rule sets that play
    /// differently need different ids (a composition `(A, B)` is `"{a}+{b}"`; name one
    /// yourself with [`Named`]).
    fn id(&self) -> &'static str;

    /// The version of the saved formats (states, records) under this rule set, reported as
    /// the game's `format_version`. Raise it when a change makes old records replay
    /// differently or fail to load. A composition's version is made of both parts'
    /// ([`composed_version`]).
    fn format_version(&self) -> u32 {
        1
    }

    /// Checks the rules' own configuration against the (already valid) base options.
    fn validate_config(&self, _config: &Self::Config, _base: &YutOptions) -> Result<(), YutError> {
        Ok(())
    }

    /// The rules' state for a new game (the first turn has not started yet).
    fn setup(&self, _config: &Self::Config, _board: &Board) -> Self::State {
        Self::State::default()
    }

    /// [`Rules::setup`] written into `state`, the rules' state of the last game, for
    /// `Game::reset` (a new game started in a used state): `state` must end exactly as
    /// `setup` returns it. The default assigns that; rules whose state holds buffers
    /// override it to keep them.
    fn setup_into(&self, config: &Self::Config, board: &Board, state: &mut Self::State) {
        *state = self.setup(config, board);
    }

    /// Checks the rules' state of a restored game against the game's configuration and
    /// board (for example: nothing outside the configured pack, no bookkeeping of a rule
    /// switched off).
    fn check_state(
        &self,
        _config: &Self::Config,
        _state: &Self::State,
        _board: &Board,
    ) -> Result<(), String> {
        Ok(())
    }

    /// Whether `hook` may do anything in this state: when it says `false`, the engine does
    /// not call the hook and goes on as the hook's variant of [`Hook`] says (a kept
    /// result, a throw, home, the base count), without making the hook's [`Cx`] at all.
    /// Building a context costs a play-out more than most hooks' own first test, so a rule
    /// set whose hooks are mostly idle (an augment no one owns) answers here from a few
    /// loads. `false` must mean that the hook, called, would change nothing, announce
    /// nothing, draw nothing and return that neutral value; the default, `true`, is
    /// always correct.
    ///
    /// ```
    /// use game_core::{Game, GameExt};
    /// use yut::rules::{Hook, Rules};
    /// use yut::{NoConfig, Standard, Throw, Yut, YutOptions};
    /// let players = ["a".into(), "b".into()];
    /// let state = Yut::standard().setup(&YutOptions::default(), &players, 1, 0).unwrap();
    /// let hook = Hook::OnResult(Throw::Do);
    /// assert!(Standard.listens(state.board(), &(), &NoConfig {}, hook));
    /// ```
    #[inline(always)]
    fn listens(
        &self,
        _board: &Board,
        _state: &Self::State,
        _config: &Self::Config,
        _hook: Hook<'_>,
    ) -> bool {
        true
    }

    /// A turn begins (after `turns` of the side was counted, before any throw).
    fn turn_start(&self, _cx: &mut Cx<'_, Self>) -> TurnStart {
        TurnStart::Throw
    }

    /// May `seat` take the rule action now? Only asked in [`Phase::Rule`].
    fn validate_action(
        &self,
        _board: &Board,
        _state: &Self::State,
        _seat: usize,
        _action: &Self::Action,
    ) -> Result<(), YutError> {
        Err(YutError::WrongPhase { phase: Phase::Rule })
    }

    /// Whether the rules wait for a rule action of the player to act.
    fn waiting(&self, _board: &Board, _state: &Self::State) -> bool {
        false
    }

    /// Carries out a validated rule action. Return [`TurnStart::Throw`] to go on with the
    /// turn, or [`TurnStart::Wait`] to wait for another rule action.
    fn apply_action(
        &self,
        _cx: &mut Cx<'_, Self>,
        _seat: usize,
        _action: &Self::Action,
    ) -> TurnStart {
        TurnStart::Throw
    }

    /// The rule actions `seat` could take now (in [`Phase::Rule`]).
    fn legal_actions(
        &self,
        _board: &Board,
        _state: &Self::State,
        _seat: usize,
    ) -> Vec<Self::Action> {
        Vec::new()
    }

    /// How many actions [`Rules::legal_actions`] lists, without listing them (what
    /// [`Game::legal_action_count`](game_core::Game::legal_action_count) asks in
    /// [`Phase::Rule`]). The default lists them; rules with a cheap count override it and
    /// [`Rules::legal_action`] together.
    fn legal_action_count(&self, board: &Board, state: &Self::State, seat: usize) -> usize {
        self.legal_actions(board, state, seat).len()
    }

    /// The `index`-th action of [`Rules::legal_actions`], in the list's order, without
    /// listing the others; `None` past the end. The default lists them.
    fn legal_action(
        &self,
        board: &Board,
        state: &Self::State,
        seat: usize,
        index: usize,
    ) -> Option<Self::Action> {
        self.legal_actions(board, state, seat)
            .into_iter()
            .nth(index)
    }

    /// The rule action taken when the deadline passes in [`Phase::Rule`].
    fn timeout_action(
        &self,
        _board: &Board,
        _state: &Self::State,
        _seat: usize,
    ) -> Option<Self::Action> {
        None
    }

    /// A fresh result (already announced by a `thrown` event) may be changed or thrown
    /// again.
    fn on_result(&self, _cx: &mut Cx<'_, Self>, _result: &mut Throw) -> OnResult {
        OnResult::Keep
    }

    /// The final result was added to the pending list; rules may add results or throws.
    fn after_result(&self, _cx: &mut Cx<'_, Self>, _result: Throw) {}

    /// Whether [`Rules::allows_move`] could refuse any move of the player to act now. When
    /// it says `false`, the engine decides legality without computing destinations (the
    /// standard rules refuse only a backdo from home), which keeps play-outs fast. The
    /// default, `true`, is always correct.
    fn forbids_moves(&self, _board: &Board, _state: &Self::State) -> bool {
        true
    }

    /// Whether a move the base rules allow is legal (never makes an illegal move legal).
    fn allows_move(&self, _board: &Board, _state: &Self::State, _info: &MoveInfo, _to: To) -> bool {
        true
    }

    /// How many waiting pieces enter together with one entering move (at least 1; the
    /// engine never lifts more than wait at home).
    fn enter_count(&self, _board: &Board, _state: &Self::State, _side: SideId) -> u8 {
        1
    }

    /// Steps added to a forward move (never asked for a backdo).
    fn extra_steps(&self, _board: &Board, _state: &Self::State, _info: &MoveInfo) -> u8 {
        0
    }

    /// Whether a forward move that ends on `node` — one step short of finishing — finishes.
    fn finishes_short(
        &self,
        _board: &Board,
        _state: &Self::State,
        _info: &MoveInfo,
        _node: Node,
    ) -> bool {
        false
    }

    /// Where the captured stack of `victim` goes.
    fn capture_to(&self, _cx: &mut Cx<'_, Self>, _victim: SideId, _count: u8) -> CaptureTo {
        CaptureTo::Home
    }

    /// Throws earned by a capturing move; `base` is the standard count (1, or 0 for a
    /// backdo capture with `backdoCaptureBonus = false`).
    fn capture_bonus(&self, _cx: &mut Cx<'_, Self>, _info: &MoveInfo, base: u8) -> u8 {
        base
    }

    /// A move was made (captures, stacking and finishing done), or a rule carried the
    /// stack on after one ([`MoveDone::carried`]). The only hook that may carry the stack
    /// on ([`Cx::carry`]).
    fn after_move(&self, _cx: &mut Cx<'_, Self>, _done: &MoveDone) {}

    /// The rules' part of the view.
    fn view(&self, board: &Board, state: &Self::State) -> Self::View;
}

/// The standard rules (`yut/RULES.md`), with nothing added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standard;

/// No extra actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema)]
pub enum NoAction {}

/// No extra view fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct NoView {}

impl Rules for Standard {
    type Config = NoConfig;
    type Options = YutOptions;
    type State = ();
    type Action = NoAction;
    type Event = crate::NoEvent;
    type View = NoView;

    fn id(&self) -> &'static str {
        "yut"
    }

    fn forbids_moves(&self, _board: &Board, _state: &()) -> bool {
        false
    }

    fn view(&self, _board: &Board, _state: &()) -> NoView {
        NoView {}
    }
}
