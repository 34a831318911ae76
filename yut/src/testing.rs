//! Test support, only built with the `testing` feature: script a position (stacks with
//! their trails, finished pieces, the seat to act, pending results and phase) and force
//! throw results, then play on through the ordinary [`Game`] entry points.
//!
//! Nothing here exists in a normal build. Scripting writes the state directly, so a test
//! can reach any position in a few lines; every action afterwards goes through
//! [`GameExt::apply`] (or [`GameExt::apply_chance`] for a forced throw) exactly as a host's
//! would, so validation, events and the turn flow are the real ones.
//!
//! ```
//! use yut::testing::Script;
//! use yut::{Origin, Phase, Throw, ThrowChance, YutOptions};
//!
//! let mut s = Script::new(YutOptions::default(), 2);
//! s.set_turn(0)
//!     .place(0, 4, 1, &[1, 2, 3, 4])
//!     .place(1, 9, 1, &[]);
//! s.throw(ThrowChance::Geol); // phase goes to move with pending [geol]
//! assert_eq!(s.pending(), &[Throw::Geol]);
//! s.play(0, Origin::Node(4)); // passes 모 (5) without turning
//! assert_eq!(s.stack(0, 7), 1);
//! assert_eq!(s.trail(0, 7), vec![1, 2, 3, 4, 5, 6, 7]);
//! assert_eq!(s.phase(), Phase::Throw); // and the turn passed to seat 1
//! assert_eq!(s.seat(), 1);
//! ```

use game_core::GameExt;
use game_core::{Game, Millis, Viewer};

use crate::ThrowList;
use crate::graph::{CHAMMEOGI, NODE_COUNT, Node};
use crate::state::{Phase, PieceStatus, SideId};
use crate::{
    LegalMove, NodeList, Origin, Piece, Rules, Standard, Throw, ThrowChance, Yut, YutAction,
    YutError, YutEvent, YutOptions, YutState, YutView,
};

/// Player ids `"p0"`, `"p1"`, … for `n` seats (game-core's test support, re-exported).
pub use game_core::testing::players;
/// The JSON walker of the tampered-state tests (game-core's test support, re-exported).
pub use game_core::testing::{JsonStep, json_at, json_paths, json_under};

/// Every `thrown` result in `events` (`None` for nak), in order.
///
/// ```
/// use yut::{Throw, YutEvent, testing::thrown};
/// let events: Vec<YutEvent> = vec![
///     YutEvent::Nak { side: 0 },
///     YutEvent::Thrown { side: 0, sticks: [true, true, false, false], result: Throw::Gae },
/// ];
/// assert_eq!(thrown(&events), vec![None, Some(Throw::Gae)]);
/// ```
pub fn thrown<X>(events: &[YutEvent<X>]) -> Vec<Option<Throw>> {
    events
        .iter()
        .filter_map(|e| match e {
            YutEvent::Thrown { result, .. } => Some(Some(*result)),
            YutEvent::Nak { .. } => Some(None),
            _ => None,
        })
        .collect()
}

/// The trail of a piece that walked from home to `node` along the usual way: the outer
/// ring for nodes 1–19, the 모 diagonal through 방 for 20–24 and 27–28, the 뒷모
/// diagonal for 25–26, and the whole ring for 참먹이 (0).
///
/// ```
/// use yut::testing::trail_to;
/// assert_eq!(trail_to(3), vec![1, 2, 3]);
/// assert_eq!(trail_to(22), vec![1, 2, 3, 4, 5, 20, 21, 22]);
/// assert_eq!(trail_to(26), vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 26]);
/// assert_eq!(trail_to(0).len(), 20);
/// ```
///
/// # Panics
///
/// If `node` is not on the board.
pub fn trail_to(node: Node) -> Vec<Node> {
    assert!(
        usize::from(node) < NODE_COUNT,
        "node {node} is not on the board"
    );
    let corner_mo: Vec<Node> = (1..=5).collect();
    let via_bang = |rest: &[Node]| {
        let mut t = corner_mo.clone();
        t.extend_from_slice(&[20, 21, 22]);
        t.extend_from_slice(rest);
        t
    };
    match node {
        CHAMMEOGI => (1..=19).chain([CHAMMEOGI]).collect(),
        1..=19 => (1..=node).collect(),
        20 => [corner_mo.as_slice(), &[20]].concat(),
        21 => [corner_mo.as_slice(), &[20, 21]].concat(),
        22 => via_bang(&[]),
        23 => via_bang(&[23]),
        24 => via_bang(&[23, 24]),
        25 => (1..=10).chain([25]).collect(),
        26 => (1..=10).chain([25, 26]).collect(),
        27 => via_bang(&[27]),
        _ => via_bang(&[27, 28]),
    }
}

/// Forces the next throw of the player at `seat` to `chance`: the player's own `THROW`
/// with the sticks rigged. Built on [`GameExt::apply_chance`], so the action is validated,
/// the RNG is not touched, `turnSeq` advances and the player counts as having acted.
///
/// Fails like a real throw would (`NOT_YOUR_TURN`, `NOT_THROW_PHASE`, …), and with
/// `IMPOSSIBLE_OUTCOME` for an outcome the options rule out (nak with `nakPercent = 0`,
/// backdo with `backdo = false`).
///
/// ```
/// use game_core::{Game, GameExt};
/// use yut::{Throw, ThrowChance, Yut, YutOptions};
/// let game = Yut::standard();
/// let mut state = game.setup(&YutOptions::default(), &yut::testing::players(2), 1, 0).unwrap();
/// let seat = game.to_act(&state)[0];
/// yut::testing::force_throw(&game, &mut state, seat, ThrowChance::Mo, 0).unwrap();
/// assert_eq!(&state.board().pending()[..], &[Throw::Mo]);
/// ```
pub fn force_throw<R: Rules>(
    game: &Yut<R>,
    state: &mut YutState<R>,
    seat: usize,
    chance: ThrowChance,
    now: Millis,
) -> Result<Vec<YutEvent<R::Event>>, YutError> {
    game.apply_chance(state, seat, &YutAction::Throw, &chance, now)
}

/// A game under test: the game, its state and the host clock, with helpers to script a
/// position and to play on from it.
///
/// Scripting methods (`place`, `set_turn`, `set_move`, …) write the state directly and
/// return `&mut Self` so they chain; they panic on a request that could never be a real
/// position (two sides on one node, more pieces than the side has). Acting methods go
/// through the [`Game`] trait; the plain ones panic on a rejection (with the error), the
/// `try_` ones return it.
#[derive(Clone, Debug)]
pub struct Script<R: Rules = Standard> {
    /// The game.
    pub game: Yut<R>,
    /// The state being scripted and played.
    pub state: YutState<R>,
    /// The host clock passed into every action (milliseconds).
    pub now: Millis,
}

impl Script<Standard> {
    /// A standard game with `players` seats named `p0`, `p1`, … and seed 0, at time 0.
    ///
    /// # Panics
    ///
    /// If the options do not fit the number of players.
    pub fn new(options: YutOptions, players: usize) -> Self {
        Self::with_seed(options, players, 0)
    }

    /// [`Script::new`] with a given seed.
    ///
    /// # Panics
    ///
    /// If the options do not fit the number of players.
    pub fn with_seed(options: YutOptions, players: usize, seed: u64) -> Self {
        Self::setup(Yut::standard(), &options, players, seed)
            .unwrap_or_else(|e| panic!("setup failed: {e:?}"))
    }
}

impl<R: Rules> Script<R> {
    /// Sets up `game` with `players` seats named `p0`, `p1`, … at time 0.
    pub fn setup(
        game: Yut<R>,
        options: &R::Options,
        players: usize,
        seed: u64,
    ) -> Result<Self, YutError> {
        let state = game.setup(options, &self::players(players), seed, 0)?;
        Ok(Self {
            game,
            state,
            now: 0,
        })
    }

    /// Wraps an existing state.
    pub fn from_state(game: Yut<R>, state: YutState<R>, now: Millis) -> Self {
        Self { game, state, now }
    }

    // ---- scripting ---------------------------------------------------------------------

    /// Sends every piece of every side home and clears finished places (concedes stay).
    pub fn clear(&mut self) -> &mut Self {
        for side in &mut self.state.board.sides {
            side.finished_rank = None;
            side.edit_pieces(|pieces| pieces.fill(Piece::HOME))
                .expect("waiting pieces are a side's");
        }
        self
    }

    /// Puts `count` waiting pieces of `side` on `node` as one stack with `trail` (which must
    /// end on `node`; an empty slice means [`trail_to`]`(node)`). Pieces of the side already
    /// on `node` join the stack and take the same trail.
    ///
    /// # Panics
    ///
    /// If another side holds `node`, the side has fewer than `count` waiting pieces, or the
    /// trail does not end on `node`.
    pub fn place(&mut self, side: SideId, node: Node, count: usize, trail: &[Node]) -> &mut Self {
        let trail_vec = if trail.is_empty() {
            trail_to(node)
        } else {
            trail.to_vec()
        };
        assert_eq!(
            trail_vec.last(),
            Some(&node),
            "the trail must end on node {node}"
        );
        assert!(
            self.state.board.occupant(node).is_none_or(|s| s == side),
            "node {node} is held by another side"
        );
        let mut nodes = NodeList::new();
        for &n in &trail_vec {
            assert!(usize::from(n) < NODE_COUNT, "node {n} is not on the board");
            nodes.push(n);
        }
        let mut left = count;
        self.state.board.sides[usize::from(side)]
            .edit_pieces(|pieces| {
                for p in pieces.iter_mut() {
                    if p.is_on(node) {
                        p.trail = nodes;
                    } else if left > 0 && p.status == PieceStatus::Home {
                        *p = Piece {
                            status: PieceStatus::Board,
                            node: Some(node),
                            trail: nodes,
                        };
                        left -= 1;
                    }
                }
            })
            .expect("a stack with one trail on a node of the board is a side's");
        assert_eq!(
            left, 0,
            "side {side} has too few waiting pieces to place {count} on {node}"
        );
        self
    }

    /// Marks `count` waiting pieces of `side` as finished (남).
    ///
    /// # Panics
    ///
    /// If the side has too few waiting pieces, or this would finish every piece of the side
    /// (finish a side with a real move, so that it gets its place).
    pub fn set_done(&mut self, side: SideId, count: usize) -> &mut Self {
        let s = &mut self.state.board.sides[usize::from(side)];
        let mut left = count;
        s.edit_pieces(|pieces| {
            for p in pieces.iter_mut().filter(|p| p.status == PieceStatus::Home) {
                if left == 0 {
                    break;
                }
                p.status = PieceStatus::Done;
                left -= 1;
            }
        })
        .expect("finished pieces are a side's");
        assert_eq!(
            left, 0,
            "side {side} has too few waiting pieces to finish {count}"
        );
        assert!(
            s.finished() < s.pieces().len(),
            "finish the last piece of a side with a move"
        );
        self
    }

    /// Finishes every piece of `side` and gives it the place `rank`, as a side that went
    /// out earlier in the game (the state's checks then want the ranks consistent).
    pub fn set_finished(&mut self, side: SideId, rank: u8) -> &mut Self {
        let s = &mut self.state.board.sides[usize::from(side)];
        s.edit_pieces(|pieces| {
            pieces.fill(Piece {
                status: PieceStatus::Done,
                node: None,
                trail: NodeList::new(),
            })
        })
        .expect("finished pieces are a side's");
        s.finished_rank = Some(rank);
        self
    }

    /// Sets how many turns `side` has started (rules that unlock by turn read it).
    ///
    /// # Panics
    ///
    /// If `side` is not a side of the game.
    pub fn set_turns(&mut self, side: SideId, turns: u16) -> &mut Self {
        self.state.board.sides[usize::from(side)].turns = turns;
        self
    }

    /// Sets how many pieces of `side` were captured so far.
    ///
    /// # Panics
    ///
    /// If `side` is not a side of the game.
    pub fn set_lost(&mut self, side: SideId, lost: u16) -> &mut Self {
        self.state.board.sides[usize::from(side)].lost = lost;
        self
    }

    /// Makes `seat` the seat to act (its place in the turn order; the order is kept).
    ///
    /// # Panics
    ///
    /// If `seat` is not seated.
    pub fn set_turn(&mut self, seat: usize) -> &mut Self {
        let board = &mut self.state.board;
        let index = board
            .turn_order
            .iter()
            .position(|&s| usize::from(s) == seat)
            .unwrap_or_else(|| panic!("seat {seat} is not in the turn order"));
        board.turn_index = index as u8;
        board.sync_turn();
        self
    }

    /// The move phase with `pending` results and no throw owed.
    ///
    /// # Panics
    ///
    /// If `pending` is empty (the move phase needs a result).
    pub fn set_move(&mut self, pending: &[Throw]) -> &mut Self {
        assert!(!pending.is_empty(), "the move phase needs pending results");
        let board = &mut self.state.board;
        board.phase = Phase::Move;
        board.throws_owed = 0;
        board.pending = ThrowList::from_slice(pending).expect("at most MAX_PENDING results");
        self
    }

    /// The throw phase owing `owed` throws, with `pending` results already kept.
    ///
    /// # Panics
    ///
    /// If `owed` is 0 (the throw phase needs a throw owed).
    pub fn set_throw(&mut self, owed: u8, pending: &[Throw]) -> &mut Self {
        assert!(owed > 0, "the throw phase needs a throw owed");
        let board = &mut self.state.board;
        board.phase = Phase::Throw;
        board.throws_owed = owed;
        board.pending = ThrowList::from_slice(pending).expect("at most MAX_PENDING results");
        self
    }

    /// Asks for the current decision again at the script's clock, so the deadline is
    /// `now + turnSeconds` (what every applied action does).
    pub fn restart_clock(&mut self) -> &mut Self {
        let seconds = self.state.board.options.turn_seconds;
        self.state.board.table.ask(self.now, seconds);
        self
    }

    /// Starts the game's RNG afresh from `seed`: the draws from here on are those of a
    /// game set up with it (for tests that need given throws the script cannot force, such
    /// as a rule's rethrow).
    pub fn reseed(&mut self, seed: u64) -> &mut Self {
        *self.state.board.table.rng_mut() = game_core::GameRng::from_seed(seed);
        self
    }

    /// The table to script by hand (a decision's start time, a seat's presence): rule
    /// hooks cannot reach it, a test may.
    pub fn table_mut(&mut self) -> &mut game_core::Table {
        &mut self.state.board.table
    }

    /// Panics unless the state passes [`Game::check_state`] (and the table's own check).
    pub fn check(&self) -> &Self {
        if let Err(e) = self.game.check_state(&self.state) {
            panic!("scripted state is invalid: {e:?}");
        }
        if let Err(e) = self.state.board.table.check() {
            panic!("scripted table is invalid: {e:?}");
        }
        self
    }

    // ---- acting ------------------------------------------------------------------------

    /// Applies `action` for `seat` at the script's clock ([`GameExt::apply`]).
    pub fn try_act(
        &mut self,
        seat: usize,
        action: YutAction<R::Action>,
    ) -> Result<Vec<YutEvent<R::Event>>, YutError> {
        self.game.apply(&mut self.state, seat, &action, self.now)
    }

    /// [`Script::try_act`], panicking on a rejection.
    pub fn act(&mut self, seat: usize, action: YutAction<R::Action>) -> Vec<YutEvent<R::Event>> {
        self.try_act(seat, action)
            .unwrap_or_else(|e| panic!("action refused for seat {seat}: {e:?}"))
    }

    /// The seat to act throws, with the result forced to `chance` (see [`force_throw`]).
    pub fn try_throw(&mut self, chance: ThrowChance) -> Result<Vec<YutEvent<R::Event>>, YutError> {
        let seat = self.seat();
        force_throw(&self.game, &mut self.state, seat, chance, self.now)
    }

    /// [`Script::try_throw`], panicking on a rejection.
    pub fn throw(&mut self, chance: ThrowChance) -> Vec<YutEvent<R::Event>> {
        self.try_throw(chance)
            .unwrap_or_else(|e| panic!("forced throw {chance:?} refused: {e:?}"))
    }

    /// Forces several throws in a row (each by whoever is to act then); all their events.
    pub fn throws(&mut self, chances: &[ThrowChance]) -> Vec<YutEvent<R::Event>> {
        chances.iter().flat_map(|&c| self.throw(c)).collect()
    }

    /// The seat to act moves the stack at `from` with pending result `throw_index`.
    pub fn try_play(
        &mut self,
        throw_index: u32,
        from: Origin,
    ) -> Result<Vec<YutEvent<R::Event>>, YutError> {
        let seat = self.seat();
        self.try_act(seat, YutAction::Move { throw_index, from })
    }

    /// [`Script::try_play`], panicking on a rejection.
    pub fn play(&mut self, throw_index: u32, from: Origin) -> Vec<YutEvent<R::Event>> {
        self.try_play(throw_index, from)
            .unwrap_or_else(|e| panic!("move {throw_index} from {from:?} refused: {e:?}"))
    }

    /// Plays the first pending `result` on the stack at `from`.
    ///
    /// # Panics
    ///
    /// If `result` is not pending or the move is refused.
    pub fn play_result(&mut self, result: Throw, from: Origin) -> Vec<YutEvent<R::Event>> {
        let index = self
            .state
            .board
            .pending
            .iter()
            .position(|&t| t == result)
            .unwrap_or_else(|| panic!("{result:?} is not pending: {:?}", self.state.board.pending));
        self.play(index as u32, from)
    }

    /// Moves the clock to `now` and takes every due timeout ([`GameExt::tick`]).
    pub fn tick(&mut self, now: Millis) -> Vec<game_core::Applied<Yut<R>>> {
        self.now = now;
        self.game.tick(&mut self.state, now)
    }

    // ---- looking -----------------------------------------------------------------------

    /// The seat to act.
    pub fn seat(&self) -> usize {
        self.state.board.current_seat()
    }

    /// The side to act.
    pub fn side(&self) -> SideId {
        self.state.board.current_side()
    }

    /// The player id of `seat`.
    pub fn player(&self, seat: usize) -> &str {
        &self.state.board.table.players()[seat]
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.state.board.phase
    }

    /// The pending results.
    pub fn pending(&self) -> &[Throw] {
        &self.state.board.pending
    }

    /// Throws still owed.
    pub fn owed(&self) -> u8 {
        self.state.board.throws_owed
    }

    /// The size of `side`'s stack on `node` (0 if none).
    pub fn stack(&self, side: SideId, node: Node) -> usize {
        self.state.board.sides[usize::from(side)].stack_on(node)
    }

    /// The trail of `side`'s stack on `node` (empty if none).
    pub fn trail(&self, side: SideId, node: Node) -> Vec<Node> {
        self.state.board.sides[usize::from(side)]
            .trail_on(node)
            .map(|t| t.to_list().as_slice().to_vec())
            .unwrap_or_default()
    }

    /// Pieces of `side` waiting at home.
    pub fn home(&self, side: SideId) -> usize {
        self.state.board.sides[usize::from(side)].at_home()
    }

    /// Pieces of `side` finished.
    pub fn done(&self, side: SideId) -> usize {
        self.state.board.sides[usize::from(side)].finished()
    }

    /// The legal moves of the player to act.
    pub fn legal(&self) -> Vec<LegalMove> {
        self.game.legal_moves(&self.state)
    }

    /// The view of the player at `seat` (`None`: a spectator).
    pub fn view(&self, seat: Option<usize>) -> YutView<R::View, R::Event, YutAction<R::Action>> {
        match seat {
            Some(s) => self.game.view(&self.state, Viewer::Player(self.player(s))),
            None => self.game.view(&self.state, Viewer::Spectator),
        }
    }

    /// The whole state as JSON (RNG included): compare two of these to see that nothing
    /// changed.
    pub fn json(&self) -> String {
        serde_json::to_string(&self.state)
            .unwrap_or_else(|e| panic!("state does not serialize: {e}"))
    }
}

/// The tamperings of one JSON leaf that the tampered-state tests try: numbers nudged,
/// made negative, huge, fractional-huge or a string; booleans flipped or nulled; strings
/// replaced by nonsense, a number, or every other word of the same group of `words` (the
/// subtle swap: another phase, status, result…); arrays shortened and lengthened; nulls
/// filled; objects emptied or nulled.
///
/// ```
/// use serde_json::json;
/// let m = yut::testing::json_mutations(&json!("move"), &[&["throw", "move"]]);
/// assert!(m.contains(&json!("throw")) && m.contains(&json!("nonsense")));
/// assert!(yut::testing::json_mutations(&json!(true), &[]).contains(&json!(false)));
/// ```
pub fn json_mutations(v: &serde_json::Value, words: &[&[&str]]) -> Vec<serde_json::Value> {
    use serde_json::Value;
    match v {
        Value::Number(n) => {
            let x = n.as_i64().unwrap_or(0);
            vec![
                Value::from(x.saturating_add(1)),
                Value::from(x.saturating_sub(1)),
                Value::from(-1),
                Value::from(u8::MAX),
                Value::from(u16::MAX),
                Value::from(u64::MAX),
                Value::from(1e300),
                Value::from("7"),
            ]
        }
        Value::Bool(b) => vec![Value::Bool(!b), Value::Null],
        Value::String(s) => {
            let mut out = vec![Value::from("nonsense"), Value::from(3)];
            for group in words.iter().filter(|g| g.contains(&s.as_str())) {
                out.extend(group.iter().filter(|w| *w != s).map(|&w| Value::from(w)));
            }
            out
        }
        Value::Null => vec![Value::from(0), Value::from(1), Value::from(true)],
        Value::Array(a) => {
            let mut shorter = a.clone();
            shorter.pop();
            let mut longer = a.clone();
            longer.push(a.first().cloned().unwrap_or(Value::from(1)));
            vec![Value::Array(shorter), Value::Array(longer), Value::Null]
        }
        Value::Object(_) => vec![Value::Null, Value::Object(Default::default())],
    }
}

/// A proptest strategy for random valid base options with a fitting number of players:
/// every mode, player count, piece count and option value (RULES.md, Options).
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// let mut runner = proptest::test_runner::TestRunner::deterministic();
/// let (options, players) = yut::testing::arb_options().new_tree(&mut runner).unwrap().current();
/// assert!(options.validate(players).is_ok());
/// ```
pub fn arb_options() -> impl proptest::strategy::Strategy<Value = (YutOptions, usize)> {
    use crate::{BackdoFromDo, FinishRule, Mode, Ranking, StickModel};
    use proptest::prelude::*;
    let mode_players = prop_oneof![
        (2usize..=4).prop_map(|n| (Mode::Individual, n)),
        prop::sample::select(vec![4usize, 6, 8]).prop_map(|n| (Mode::Team, n)),
    ];
    (
        mode_players,
        2u8..=5,
        any::<bool>(),
        any::<bool>(),
        0u8..3,
        any::<bool>(),
        prop::sample::select(vec![0u8, 3, 5, 10]),
        any::<bool>(),
        any::<bool>(),
        prop::sample::select(vec![Some(15u32), Some(30), Some(60), None]),
    )
        .prop_map(
            |((mode, n), pieces, fair, backdo, from_do, reach, nak, bonus, all, secs)| {
                let options = YutOptions {
                    mode,
                    pieces,
                    stick_model: if fair {
                        StickModel::Fair
                    } else {
                        StickModel::Realistic
                    },
                    backdo,
                    backdo_from_do: [
                        BackdoFromDo::Chammeogi,
                        BackdoFromDo::Finish,
                        BackdoFromDo::Home,
                    ][usize::from(from_do)],
                    finish_rule: if reach {
                        FinishRule::Reach
                    } else {
                        FinishRule::Pass
                    },
                    nak_percent: nak,
                    backdo_capture_bonus: bonus,
                    ranking: if all { Ranking::All } else { Ranking::First },
                    turn_seconds: secs,
                };
                (options, n)
            },
        )
}

/// Every action kind with every argument worth trying against any state (for
/// `game_core::testing::hammer`): throw, concede, moves with throw indices up to
/// `u32::MAX` from every node, nodes past the board (200, 255) and home, and `rule`'s
/// actions.
///
/// ```
/// let all = yut::testing::every_action::<()>(&[]);
/// assert_eq!(all.len(), 2 + 4 * 33);
/// ```
pub fn every_action<X: Clone>(rule: &[X]) -> Vec<YutAction<X>> {
    let mut out = vec![YutAction::Throw, YutAction::Concede];
    for throw_index in [0, 1, 3, u32::MAX] {
        for from in (0..=29u8)
            .chain([200, 255])
            .map(Origin::Node)
            .chain([Origin::HOME])
        {
            out.push(YutAction::Move { throw_index, from });
        }
    }
    out.extend(rule.iter().cloned().map(YutAction::Rule));
    out
}

/// Whether `seat` may take `action` in `state`: in Yut Nori only the seat to act acts;
/// anyone still playing may concede.
pub fn seat_may_act<R: Rules>(
    state: &YutState<R>,
    seat: usize,
    action: &YutAction<R::Action>,
) -> bool {
    matches!(action, YutAction::Concede) || state.board.current_seat() == seat
}

/// The phase of `state` as a key for `game_core::testing::states_by_phase`.
pub fn phase_key<R: Rules>(state: &YutState<R>) -> String {
    format!("{:?}", state.board.phase)
}
