//! Bots for Yut Nori: the 8.5 timeout policy, a random bot, and [`StrongBot`], which
//! searches over the exact throw probabilities to win.
//!
//! Every bot here is a [`game_core::Bot`] for `yut::Yut<R>` under any rules `R`, so the
//! same bots play the standard game, the `app` preset and rule extensions.
//!
//! | bot | what it does |
//! |---|---|
//! | [`PolicyBot`] | the engine's own timeout action (section 8.5): throw when a throw is owed, else capture > finish > stack > advance the furthest-behind stack > enter |
//! | [`RandomBot`] | uniformly among the legal actions, with its own seeded RNG |
//! | [`StrongBot`] | expectimax over the exact throw table through the rest of its turn and the next side's turn, with a race-and-risk evaluation |
//!
//! None of them reads the future from the RNG stored in the state (decisions.md 4): the
//! policy and the random bot never simulate, and the strong bot searches a
//! [`Game::fork`] copy (re-seeded from its own RNG) and enumerates [`Game::chances`] with
//! [`Game::apply_chance`], so the stored RNG is never drawn from or looked at.
//!
//! ```
//! use game_core::{Bot, Game};
//! use examples::bots::StrongBot;
//! use yut::{Yut, YutAction, YutOptions};
//!
//! let game = Yut::standard();
//! let players = vec!["a".to_string(), "b".to_string()];
//! let mut state = game.setup(&YutOptions::default(), &players, 7, 0).unwrap();
//! let mut bot = StrongBot::new(1);
//! for _ in 0..40 {
//!     let Some(&seat) = game.to_act(&state).first() else { break };
//!     let before = state.clone();
//!     let action = bot.choose(&game, &state, seat).unwrap();
//!     assert_eq!(state, before); // the bot only looked
//!     game.apply_seat(&mut state, seat, &action, 0).unwrap();
//! }
//! ```

use std::collections::HashMap;

use game_core::{Bot, Game, GameRng, Millis};
use yut::graph::{NODE_COUNT, Node, remaining};
use yut::movement;
use yut::{
    LegalMove, Origin, Phase, PieceStatus, Rules, SideId, Throw, ThrowChance, To, Yut, YutAction,
    YutOptions, YutState,
};

pub use game_core::RandomBot;

use crate::args::BotKind;

/// The 8.5 timeout policy as a bot: exactly what the engine plays for a player whose time
/// ran out ([`Game::timeout_action`]: a throw when one is owed, [`Yut::policy_move`] in
/// the move phase, the rules' own timeout action in a rule phase). It is
/// [`game_core::TimeoutBot`] itself, not a copy, so the bot, the timeout and the hint can
/// never disagree.
///
/// ```
/// use game_core::{Bot, Game};
/// let game = yut::Yut::standard();
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
/// let seat = game.to_act(&state)[0];
/// let action = examples::bots::PolicyBot::default().choose(&game, &state, seat);
/// assert_eq!(action, game.timeout_action(&state, seat));
/// ```
pub type PolicyBot = game_core::TimeoutBot;

/// The bot of one seat, chosen at run time (`--bot random|policy|strong`).
///
/// ```
/// use game_core::{Bot, Game};
/// use examples::{args::BotKind, bots::SeatBot};
/// let game = yut::Yut::standard();
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
/// let seat = game.to_act(&state)[0];
/// for kind in [BotKind::Random, BotKind::Policy, BotKind::Strong] {
///     let action = SeatBot::new(kind, 9).choose(&game, &state, seat).unwrap();
///     assert!(game.validate(&state, seat, &action).is_ok());
/// }
/// ```
#[derive(Clone, Debug)]
pub enum SeatBot {
    /// [`PolicyBot`].
    Policy(PolicyBot),
    /// [`RandomBot`].
    Random(Box<RandomBot>),
    /// [`StrongBot`].
    Strong(Box<StrongBot>),
}

impl SeatBot {
    /// A bot of `kind` with its own `seed` (the policy bot has no randomness).
    pub fn new(kind: BotKind, seed: u64) -> Self {
        match kind {
            BotKind::Policy => SeatBot::Policy(PolicyBot::default()),
            BotKind::Random => SeatBot::Random(Box::new(RandomBot::new(seed))),
            BotKind::Strong => SeatBot::Strong(Box::new(StrongBot::new(seed))),
        }
    }
}

impl<R: Rules> Bot<Yut<R>> for SeatBot {
    fn choose(
        &mut self,
        game: &Yut<R>,
        state: &YutState<R>,
        seat: usize,
    ) -> Option<YutAction<R::Action>> {
        match self {
            SeatBot::Policy(bot) => bot.choose(game, state, seat),
            SeatBot::Random(bot) => bot.choose(game, state, seat),
            SeatBot::Strong(bot) => bot.choose(game, state, seat),
        }
    }
}

/// Weights and limits of [`StrongBot`]'s search. [`StrongParams::default`] is the tuned
/// set the balance report measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrongParams {
    /// Throws (chance nodes) searched in a row within the bot's own turn after the move it
    /// decides: the bonus throws earned by captures.
    pub own_throws: u8,
    /// Throws searched in a row within the opponent's following turn (its first throw,
    /// then 윷/모 rethrows and capture bonuses).
    pub opponent_throws: u8,
    /// Positions the search may create for one decision; past it, throws are no longer
    /// expanded and positions are evaluated as they stand. Keeps the worst case (long
    /// pending lists) fast and the search deterministic.
    pub budget: u32,
    /// Weight of a capture threat by the side that moves next (it can act on it at once).
    pub threat_next: f64,
    /// Weight of a capture threat by a side that moves later (the victim can react first).
    pub threat_later: f64,
    /// What each extra piece of a stack adds to the stack's remaining distance, as a share
    /// of it: 0 counts a stack once (it moves as one), 1 counts every piece.
    pub stack_extra: f64,
    /// Steps one owed throw is worth (the mean forward move per throw is about 2.5 with
    /// realistic sticks, a little more with fair ones).
    pub throw_value: f64,
}

impl Default for StrongParams {
    fn default() -> Self {
        Self {
            own_throws: 2,
            opponent_throws: 1,
            budget: 1_000,
            threat_next: 0.9,
            threat_later: 0.8,
            throw_value: 2.5,
            stack_extra: 0.0,
        }
    }
}

/// Counts of what the strong bot did, for reports and tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Decisions made (every call of `choose` that returned an action).
    pub decisions: u64,
    /// Decisions that needed a search (a real choice between moves).
    pub searched: u64,
    /// Positions created by all searches.
    pub nodes: u64,
}

/// A bot that plays to win: expectimax over the exact throw probabilities.
///
/// - **Throw phase**: throws (the only legal action).
/// - **Rule phase** (rule extensions): the rules' own timeout action.
/// - **Move phase**: every distinct legal move (a result and a stack) is tried on a
///   [`Game::fork`] of the state. The rest of the bot's turn is searched: further moves
///   maximise, and a bonus throw after a capture is a chance node over [`Game::chances`]
///   (each outcome applied with [`Game::apply_chance`], weighted by its exact
///   probability, section 5.1). Then the next side's turn is searched the same way, its
///   throws as chance nodes and its moves by the 8.5 policy (a fair model of any
///   opponent: captures first), and the position where the turn comes back is evaluated.
///   [`StrongParams`] bounds how many throws in a row are expanded (later ones are valued
///   at [`StrongParams::throw_value`] steps) and how many positions one decision may
///   create. Positions where the next side's turn begins are evaluated once, however
///   many move orders reach them.
///
/// The evaluation ([`StrongBot::evaluate`]) is a race estimate with risk: each side's
/// cost is the expected distance to finish of each of its stacks (a stack moves as one,
/// so it counts once) plus that of each waiting piece, where the expected distance of a
/// node is computed once per option set by value iteration over the exact throw table
/// (shortcuts, overshoot past corners, backdo and the finish rule included), results in
/// hand and throws owed counting for the side to act. The score is the leading
/// opponent's cost minus the bot's own, plus, for every stack that some side could hit
/// with one throw, the probability of that throw times what the capture would swing (the
/// victim's lost progress and the capturer's bonus throw), weighted more when the
/// capturer moves next. A won game scores +1000, a lost one −1000.
///
/// Over 2000 seeded standard games with the seats swapped it wins about 68% against
/// [`PolicyBot`] (the balance report measures it), at about a millisecond per searched
/// decision in a release build.
///
/// The search never touches the stored RNG: the state is taken by shared reference and
/// forked (re-seeded from the bot's own RNG) before anything is applied, and chance is
/// enumerated, not drawn. With the same seed, the bot makes the same choices.
#[derive(Clone, Debug)]
pub struct StrongBot {
    rng: GameRng,
    params: StrongParams,
    stats: SearchStats,
    /// The evaluation tables of the last options seen (they depend only on the options).
    evaluator: Option<(YutOptions, Evaluator)>,
}

impl StrongBot {
    /// A strong bot with the default parameters and its own seed (used only to re-seed
    /// the copies it searches on, for rules whose moves draw from the RNG).
    pub fn new(seed: u64) -> Self {
        Self::with_params(seed, StrongParams::default())
    }

    /// A strong bot with its own parameters.
    pub fn with_params(seed: u64, params: StrongParams) -> Self {
        Self {
            rng: GameRng::from_seed(seed),
            params,
            stats: SearchStats::default(),
            evaluator: None,
        }
    }

    /// What the bot did so far.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The evaluation of `state` for side `me` (higher is better), as described on
    /// [`StrongBot`]; `params` gives the threat weights.
    ///
    /// ```
    /// use game_core::Game;
    /// use examples::bots::{StrongBot, StrongParams};
    /// let game = yut::Yut::standard();
    /// let players = vec!["a".to_string(), "b".to_string()];
    /// let state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// // At the start both sides are level, up to who moves first.
    /// let v = StrongBot::evaluate(&game, &state, 0, &StrongParams::default());
    /// assert!(v.abs() < 5.0);
    /// ```
    pub fn evaluate<R: Rules>(
        game: &Yut<R>,
        state: &YutState<R>,
        me: SideId,
        params: &StrongParams,
    ) -> f64 {
        let dist = ThrowChance::distribution(&state.board.options);
        Evaluator::new(&state.board.options, &dist).evaluate(game, state, me, params)
    }
}

impl<R: Rules> Bot<Yut<R>> for StrongBot {
    fn choose(
        &mut self,
        game: &Yut<R>,
        state: &YutState<R>,
        seat: usize,
    ) -> Option<YutAction<R::Action>> {
        let board = &state.board;
        if board.phase != Phase::Move || board.current_seat() != seat {
            let action = game.timeout_action(state, seat);
            self.stats.decisions += u64::from(action.is_some());
            return action;
        }
        let moves = distinct(game.legal_moves(state));
        self.stats.decisions += 1;
        if moves.len() <= 1 {
            return moves.first().map(to_action);
        }
        self.stats.searched += 1;
        // Everything below works on a fork: a copy whose RNG is re-seeded from ours.
        let seed = u64::from(self.rng.next_u32()) << 32 | u64::from(self.rng.next_u32());
        let root = game.fork(state, seed);
        let dist = ThrowChance::distribution(&board.options);
        if self
            .evaluator
            .as_ref()
            .is_none_or(|(options, _)| *options != board.options)
        {
            self.evaluator = Some((board.options.clone(), Evaluator::new(&board.options, &dist)));
        }
        let Some((_, eval)) = &self.evaluator else {
            return game.timeout_action(state, seat);
        };
        let mut search = Search {
            game,
            me: board.current_side(),
            params: self.params,
            eval,
            dist: &dist,
            nodes: 0,
            memo: HashMap::new(),
        };
        let policy = Yut::<R>::policy_pick(&moves);
        // The policy's move is tried first, so that it wins ties.
        let order = policy
            .iter()
            .chain(moves.iter().filter(|m| Some(**m) != policy));
        let mut best: Option<(f64, LegalMove)> = None;
        for m in order {
            let Some(value) = search.after(&root, seat, &to_action(m)) else {
                continue;
            };
            if best.is_none_or(|(b, _)| value > b + 1e-9) {
                best = Some((value, *m));
            }
        }
        self.stats.nodes += u64::from(search.nodes);
        best.map(|(_, m)| to_action(&m))
            .or_else(|| game.timeout_action(state, seat))
    }
}

fn to_action<X>(m: &LegalMove) -> YutAction<X> {
    YutAction::Move {
        throw_index: m.throw_index,
        from: m.from,
    }
}

/// The legal moves with one move per (result, stack): two equal results on the same stack
/// lead to the same position, so only the first (lowest `throwIndex`) is kept.
fn distinct(moves: Vec<LegalMove>) -> Vec<LegalMove> {
    let mut out: Vec<LegalMove> = Vec::with_capacity(moves.len());
    for m in moves {
        if !out.iter().any(|o| o.result == m.result && o.from == m.from) {
            out.push(m);
        }
    }
    out
}

/// Where the search is: still in the bot's own turn, or in the turn of the side after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The bot's side is still to act in its turn.
    Mine { throws: u8 },
    /// The given side's turn, the one after the bot's.
    Theirs { side: SideId, throws: u8 },
}

/// One decision's search.
struct Search<'a, R: Rules> {
    game: &'a Yut<R>,
    me: SideId,
    params: StrongParams,
    eval: &'a Evaluator,
    dist: &'a [(ThrowChance, f64)],
    nodes: u32,
    /// Values of positions where the next side's turn begins, by position.
    memo: HashMap<Vec<u8>, f64>,
}

/// The host time passed to the engine while searching (deadlines do not matter there).
const NOW: Millis = 0;

const WIN: f64 = 1000.0;

impl<R: Rules> Search<'_, R> {
    /// The value of taking `action` (a move) for `seat` in `state`.
    fn after(
        &mut self,
        state: &YutState<R>,
        seat: usize,
        action: &YutAction<R::Action>,
    ) -> Option<f64> {
        let mut child = state.clone();
        self.nodes += 1;
        self.game.apply_seat(&mut child, seat, action, NOW).ok()?;
        Some(self.value(
            &child,
            Stage::Mine {
                throws: self.params.own_throws,
            },
        ))
    }

    fn over_budget(&self) -> bool {
        self.nodes >= self.params.budget
    }

    fn leaf(&self, state: &YutState<R>) -> f64 {
        self.eval.evaluate(self.game, state, self.me, &self.params)
    }

    fn value(&mut self, state: &YutState<R>, stage: Stage) -> f64 {
        let board = &state.board;
        if board.phase == Phase::Finished {
            return terminal(board, self.me);
        }
        let side = board.current_side();
        let stage = match stage {
            Stage::Mine { .. } if side != self.me => {
                // The bot's turn is over: search the next side's turn once per position.
                let key = position_key(state);
                if let Some(&v) = self.memo.get(&key) {
                    return v;
                }
                let v = self.value(
                    state,
                    Stage::Theirs {
                        side,
                        throws: self.params.opponent_throws,
                    },
                );
                self.memo.insert(key, v);
                return v;
            }
            Stage::Theirs { side: s, .. } if s != side => return self.leaf(state),
            stage => stage,
        };
        let seat = board.current_seat();
        match board.phase {
            Phase::Throw => {
                let left = match stage {
                    Stage::Mine { throws } | Stage::Theirs { throws, .. } => throws,
                };
                if left == 0 || self.over_budget() {
                    return self.leaf(state);
                }
                let next = match stage {
                    Stage::Mine { .. } => Stage::Mine { throws: left - 1 },
                    Stage::Theirs { side, .. } => Stage::Theirs {
                        side,
                        throws: left - 1,
                    },
                };
                let chances = self
                    .game
                    .chances(state, seat, &YutAction::Throw)
                    .unwrap_or_else(|| self.dist.to_vec());
                let mut total = 0.0;
                let mut weight = 0.0;
                for (chance, p) in chances {
                    let mut child = state.clone();
                    self.nodes += 1;
                    if self
                        .game
                        .apply_chance(&mut child, seat, &YutAction::Throw, &chance, NOW)
                        .is_ok()
                    {
                        total += p * self.value(&child, next);
                        weight += p;
                    }
                }
                if weight > 0.0 {
                    total / weight
                } else {
                    self.leaf(state)
                }
            }
            Phase::Move => {
                let moves = distinct(self.game.legal_moves(state));
                match stage {
                    Stage::Mine { .. } => {
                        if self.over_budget() {
                            // Out of budget: finish the turn greedily by the evaluation.
                            return moves
                                .iter()
                                .filter_map(|m| {
                                    let mut child = state.clone();
                                    self.nodes += 1;
                                    self.game
                                        .apply_seat(&mut child, seat, &to_action(m), NOW)
                                        .ok()?;
                                    Some(self.leaf(&child))
                                })
                                .fold(f64::NEG_INFINITY, f64::max)
                                .max(-WIN);
                        }
                        let mut best = f64::NEG_INFINITY;
                        for m in &moves {
                            let mut child = state.clone();
                            self.nodes += 1;
                            if self
                                .game
                                .apply_seat(&mut child, seat, &to_action(m), NOW)
                                .is_ok()
                            {
                                best = best.max(self.value(&child, stage));
                            }
                        }
                        if best.is_finite() {
                            best
                        } else {
                            self.leaf(state)
                        }
                    }
                    Stage::Theirs { .. } => {
                        let Some(m) = Yut::<R>::policy_pick(&moves) else {
                            return self.leaf(state);
                        };
                        let mut child = state.clone();
                        self.nodes += 1;
                        match self.game.apply_seat(&mut child, seat, &to_action(&m), NOW) {
                            Ok(_) => self.value(&child, stage),
                            Err(_) => self.leaf(state),
                        }
                    }
                }
            }
            Phase::Rule => {
                // Rule extensions: their own timeout action, on both sides.
                let Some(action) = self.game.timeout_action(state, seat) else {
                    return self.leaf(state);
                };
                if self.over_budget() {
                    return self.leaf(state);
                }
                let mut child = state.clone();
                self.nodes += 1;
                match self.game.apply_seat(&mut child, seat, &action, NOW) {
                    Ok(_) => self.value(&child, stage),
                    Err(_) => self.leaf(state),
                }
            }
            Phase::Finished => terminal(board, self.me),
        }
    }
}

/// ±[`WIN`] for a finished game, by whether `me` came first.
fn terminal(board: &yut::Board, me: SideId) -> f64 {
    let won = board.sides[usize::from(me)].finished_rank == Some(1)
        || (board.sides[usize::from(me)].active() && board.active_sides() == 1);
    if won { WIN } else { -WIN }
}

/// A position as bytes: whose turn and what they hold, every piece with its trail, and
/// the rules' own state. Two states with equal keys play on identically (the event log,
/// the clock and the sequence number do not matter to the search).
fn position_key<R: Rules>(state: &YutState<R>) -> Vec<u8> {
    let board = &state.board;
    let mut key = Vec::with_capacity(128);
    key.push(board.turn_index);
    key.push(board.phase as u8);
    key.push(board.throws_owed);
    key.extend(board.pending.iter().map(|t| *t as u8));
    key.push(u8::MAX);
    for side in &board.sides {
        key.push(side.finished_rank.unwrap_or(0));
        for p in &side.pieces {
            key.push(p.status as u8);
            key.push(p.node.unwrap_or(u8::MAX));
            key.extend_from_slice(p.trail.as_slice());
            key.push(u8::MAX);
        }
    }
    if let Ok(rules) = serde_json::to_vec(&state.rules) {
        key.extend(rules);
    }
    key
}

/// The expected distance to finish of a lone stack on each node and of a waiting piece,
/// in steps: the expected number of throws it needs on its own (by value iteration over
/// the exact throw table, shortcuts, overshoot, backdo and the finish rule included),
/// times the mean forward move of one throw. A better race measure than the shortest
/// distance of section 6, which assumes every corner is hit exactly.
fn distances(options: &YutOptions, dist: &[(ThrowChance, f64)]) -> ([f64; NODE_COUNT], f64) {
    // Where one throw takes a lone stack; `None` for finished, `Some(None)` for home.
    let dest = |from: Origin, result: Throw| -> Option<Option<Node>> {
        let to = if result.is_backdo() {
            let node = from.node()?;
            let trail = if node == yut::graph::FIRST {
                yut::NodeList::one(node)
            } else {
                let mut t = yut::NodeList::one(yut::graph::previous(node));
                t.push(node);
                t
            };
            movement::backdo(options, from, trail).map(|w| w.to)
        } else {
            let trail = from.node().map(yut::NodeList::one).unwrap_or_default();
            Some(movement::forward(options, from, trail, result.steps() as u8).to)
        };
        match to {
            None => Some(from.node()),
            Some(To::Node(n)) => Some(Some(n)),
            Some(To::Off(yut::OffBoard::Home)) => Some(None),
            Some(To::Off(yut::OffBoard::Goal)) => None,
        }
    };
    let mut throws = [0.0f64; NODE_COUNT];
    for (n, t) in throws.iter_mut().enumerate() {
        *t = f64::from(remaining(Some(n as Node))) / 2.5;
    }
    let mut home = 12.0 / 2.5;
    let at = |throws: &[f64; NODE_COUNT], home: f64, place: Option<Option<Node>>| match place {
        None => 0.0,
        Some(None) => home,
        Some(Some(n)) => throws[usize::from(n)],
    };
    for _ in 0..200 {
        let mut next = [0.0f64; NODE_COUNT];
        for (n, slot) in next.iter_mut().enumerate() {
            let from = Origin::Node(n as Node);
            *slot = 1.0
                + dist
                    .iter()
                    .map(|(c, p)| match c.result() {
                        None => p * throws[n],
                        Some(r) => p * at(&throws, home, dest(from, r)),
                    })
                    .sum::<f64>();
        }
        let next_home = 1.0
            + dist
                .iter()
                .map(|(c, p)| match c.result() {
                    Some(r) if !r.is_backdo() => p * at(&throws, home, dest(Origin::HOME, r)),
                    _ => p * home,
                })
                .sum::<f64>();
        let change = next
            .iter()
            .zip(&throws)
            .map(|(a, b)| (a - b).abs())
            .fold((next_home - home).abs(), f64::max);
        throws = next;
        home = next_home;
        if change < 1e-9 {
            break;
        }
    }
    let step: f64 = dist
        .iter()
        .filter_map(|(c, p)| Some(p * f64::from(c.result()?.steps().max(0))))
        .sum();
    (throws.map(|t| t * step), home * step)
}

/// A stack of one side: its node and its size.
#[derive(Clone, Copy)]
struct Stack {
    node: Node,
    count: u8,
}

/// The static evaluation (see [`StrongBot`]).
#[derive(Clone, Debug)]
struct Evaluator {
    /// Each throw result with its probability (nak left out: it lands nowhere).
    results: Vec<(Throw, f64)>,
    /// Expected distance to finish of a lone stack on each node, in steps.
    distance: [f64; NODE_COUNT],
    /// The same for a waiting piece.
    home: f64,
}

impl Evaluator {
    fn new(options: &YutOptions, dist: &[(ThrowChance, f64)]) -> Self {
        let results: Vec<(Throw, f64)> = dist
            .iter()
            .filter_map(|(c, p)| Some((c.result()?, *p)))
            .collect();
        let (distance, home) = distances(options, dist);
        Self {
            results,
            distance,
            home,
        }
    }

    /// The stacks of a side on the board, and how many of its pieces wait at home.
    fn stacks(side: &yut::Side) -> (Vec<Stack>, u32) {
        let mut stacks: Vec<Stack> = Vec::with_capacity(side.pieces.len());
        let mut home = 0;
        for p in &side.pieces {
            match (p.status, p.node) {
                (PieceStatus::Home, _) => home += 1,
                (PieceStatus::Board, Some(node)) => {
                    match stacks.iter_mut().find(|s| s.node == node) {
                        Some(s) => s.count += 1,
                        None => stacks.push(Stack { node, count: 1 }),
                    }
                }
                _ => {}
            }
        }
        (stacks, home)
    }

    /// The probability that `side` lands on each node with its next single throw, from
    /// any of its stacks or by entering.
    fn reach(&self, board: &yut::Board, side: SideId, home: bool) -> [f64; NODE_COUNT] {
        let options: &YutOptions = &board.options;
        let mut origins: Vec<Origin> = Vec::with_capacity(6);
        for p in &board.sides[usize::from(side)].pieces {
            if let (PieceStatus::Board, Some(n)) = (p.status, p.node)
                && !origins.contains(&Origin::Node(n))
            {
                origins.push(Origin::Node(n));
            }
        }
        if home {
            origins.push(Origin::HOME);
        }
        let mut reach = [0.0; NODE_COUNT];
        for &(result, p) in &self.results {
            let mut hit = [false; NODE_COUNT];
            for &from in &origins {
                let Some((_, trail)) = movement::stack_at(board, side, from) else {
                    continue;
                };
                let walk = if result.is_backdo() {
                    movement::backdo(options, from, trail)
                } else {
                    Some(movement::forward(
                        options,
                        from,
                        trail,
                        result.steps() as u8,
                    ))
                };
                if let Some(To::Node(n)) = walk.map(|w| w.to) {
                    hit[usize::from(n)] = true;
                }
            }
            for (r, h) in reach.iter_mut().zip(hit) {
                if h {
                    *r += p;
                }
            }
        }
        reach
    }

    fn evaluate<R: Rules>(
        &self,
        _game: &Yut<R>,
        state: &YutState<R>,
        me: SideId,
        params: &StrongParams,
    ) -> f64 {
        let board = &state.board;
        if board.phase == Phase::Finished {
            return terminal(board, me);
        }
        let sides = board.sides.len();
        let mover = board.current_side();
        let info: Vec<(Vec<Stack>, u32)> = board.sides.iter().map(Self::stacks).collect();
        // Race: the cost of each side, in steps.
        let mut cost: Vec<f64> = info
            .iter()
            .zip(&board.sides)
            .map(|((stacks, home), side)| {
                if !side.active() {
                    return if side.finished_rank.is_some() {
                        0.0
                    } else {
                        1e4
                    };
                }
                let on_board: f64 = stacks
                    .iter()
                    .map(|s| {
                        self.distance[usize::from(s.node)]
                            * (1.0 + params.stack_extra * f64::from(s.count - 1))
                    })
                    .sum();
                on_board + f64::from(*home) * self.home
            })
            .collect();
        // Results in hand and throws owed belong to the side to act.
        if matches!(board.phase, Phase::Throw | Phase::Move) {
            let pending: f64 = board
                .pending
                .iter()
                .map(|t| f64::from(t.steps().max(0)))
                .sum();
            cost[usize::from(mover)] -=
                0.9 * pending + params.throw_value * f64::from(board.throws_owed);
        }
        // Risk: every stack one side could hit with one throw of another.
        let mut swing = vec![0.0; sides];
        for attacker in 0..sides {
            if !board.sides[attacker].active() {
                continue;
            }
            let reach = self.reach(board, attacker as SideId, info[attacker].1 > 0);
            let weight = if attacker == usize::from(mover) {
                params.threat_next
            } else {
                params.threat_later
            };
            for (victim, (stacks, _)) in info.iter().enumerate() {
                if victim == attacker || !board.sides[victim].active() {
                    continue;
                }
                for s in stacks {
                    let p = reach[usize::from(s.node)];
                    if p == 0.0 {
                        continue;
                    }
                    let lost = f64::from(s.count) * self.home - self.distance[usize::from(s.node)];
                    // The victim loses its progress; the capturer gains a throw.
                    swing[victim] -= weight * p * lost;
                    swing[attacker] += weight * p * params.throw_value;
                }
            }
        }
        let me = usize::from(me);
        let own = -cost[me] + swing[me];
        let best_other = (0..sides)
            .filter(|&s| s != me)
            .map(|s| -cost[s] + swing[s])
            .fold(f64::NEG_INFINITY, f64::max);
        if best_other.is_finite() {
            own - best_other
        } else {
            own
        }
    }
}
