//! `Yut<R>` on the `Game` trait: setup, validation, the turn step (RULES.md, Turns), the view
//! and the timeout policy.

use game_core::{Game, GameRng, Millis, PlayerId, Rejection, Table, Viewer};

use crate::graph::Node;
use crate::options::Mode;
use crate::rules::{RuleOptions, TurnStart};
use crate::state::{Board, Phase, Side, SideId, ThrowStats};
use crate::turn::{Quiet, Sink};
use crate::{
    EventLog, Origin, Rules, SeatList, SideList, Standard, Throw, ThrowChance, ThrowList,
    YutAction, YutError, YutEvent, YutOptions, YutResult, YutState, YutView,
};

/// Yut Nori under the rules `R` (the standard rules by default).
///
/// ```
/// use game_core::{Game, GameExt};
/// let game = yut::Yut::standard();
/// assert_eq!(game.id(), "yut");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Yut<R: Rules = Standard> {
    /// The rule set.
    pub rules: R,
}

impl Yut<Standard> {
    /// The game with the standard rules, nothing added.
    pub const fn standard() -> Self {
        Self { rules: Standard }
    }
}

impl<R: Rules> Yut<R> {
    /// The game under `rules`.
    pub const fn new(rules: R) -> Self {
        Self { rules }
    }

    /// Carries out a validated action, appending its events (also kept in the log).
    fn run(
        &self,
        state: &mut YutState<R>,
        seat: usize,
        action: &YutAction<R::Action>,
        chance: Option<&ThrowChance>,
        now: Millis,
        events: &mut impl Sink<YutEvent<R::Event>>,
    ) {
        match action {
            YutAction::Throw => self.throw(state, chance.copied(), events),
            YutAction::Move { throw_index, from } => {
                self.play_move(state, *throw_index as usize, *from, events)
            }
            YutAction::Concede => self.concede(state, seat, events),
            YutAction::Rule(a) => {
                let next = Self::hook(state, events, |cx| self.rules.apply_action(cx, seat, a));
                if next == TurnStart::Throw && state.board.phase == Phase::Rule {
                    state.board.phase = Phase::Throw;
                }
            }
        }
        self.after_action(state, now);
    }

    /// The checks of a new game's options against its seat count, in the order `setup`
    /// makes them (the table's checks of the ids come after these): returns the base
    /// options.
    #[inline(always)]
    fn check_options<'o>(
        &self,
        options: &'o R::Options,
        seats: usize,
    ) -> Result<&'o YutOptions, YutError> {
        let base = options.base();
        base.validate(seats)?;
        self.rules.validate_config(options.config(), base)?;
        Ok(base)
    }

    /// A new game's start once its board is seated, shared by `setup` and `reset`: the
    /// first turn drawn, the rules' state set up from the board, the first turn started
    /// and its decision asked.
    #[inline(always)]
    fn begin(&self, state: &mut YutState<R>, options: &R::Options, now: Millis) {
        self.first_turn(&mut state.board);
        // Into the state's own (the default for a new game): a rule state held in place
        // is not built aside and copied in.
        self.rules
            .setup_into(options.config(), &state.board, &mut state.rules);
        // The first turn's events (rule events of its start) go to the log only.
        self.start_turn(state, &mut Quiet);
        self.after_action(state, now);
    }

    /// Sets the next deadline (the events are in the log already: they go there as they
    /// happen).
    #[inline(always)]
    fn after_action(&self, state: &mut YutState<R>, now: Millis) {
        let board = &mut state.board;
        if board.phase == Phase::Finished {
            board.table.close();
        } else {
            board.table.ask(now, board.options.turn_seconds);
        }
    }
}

/// A board's seat lists: `side_of`, `sides`, `seat_conceded`.
type SeatLists<'b> = (
    &'b mut SeatList<SideId>,
    &'b mut SideList,
    &'b mut SeatList<bool>,
);

/// Fills a board's seat lists for a new game of `seats` seats under `base` (checked against
/// it): each seat's side (the seat itself in individual play, its parity in team play),
/// each side with its members and all its pieces waiting, no one conceded. Each side's
/// slot keeps the buffer of its `members`.
#[inline(always)]
fn seat_lists(base: &YutOptions, seats: usize, (side_of, sides, seat_conceded): SeatLists<'_>) {
    // The options seat at most `MAX_SEATS` (checked before): every seat fits.
    let filled = side_of.refill((0..seats).map(|seat| match base.mode {
        Mode::Individual => seat as SideId,
        Mode::Team => (seat % 2) as SideId,
    }));
    // The seats of side `s` by the rule of `side_of`, without a search.
    sides.refill(base.sides(seats), |s, side| {
        // The slot's member list, emptied, its buffer kept.
        let mut members = std::mem::take(&mut side.members);
        members.clear();
        match base.mode {
            Mode::Individual => members.push(s as u8),
            Mode::Team => members.extend((s..seats).step_by(2).map(|m| m as u8)),
        }
        *side = Side::new(members, base.pieces);
    });
    let filled = filled && seat_conceded.refill(std::iter::repeat_n(false, seats));
    debug_assert!(filled, "the options seat at most MAX_SEATS");
}

impl<R: Rules> Game for Yut<R> {
    type Options = R::Options;
    type State = YutState<R>;
    type Action = YutAction<R::Action>;
    type View = YutView<R::View, R::Event, YutAction<R::Action>>;
    type Event = YutEvent<R::Event>;
    type Outcome = YutResult;
    type Chance = ThrowChance;
    type Error = YutError;

    fn id(&self) -> &'static str {
        self.rules.id()
    }

    fn format_version(&self) -> u32 {
        self.rules.format_version()
    }

    // Out of line: one call a game, kept out of the loops that play many games (inlined
    // there, it costs their every step more than the call costs).
    #[inline(never)]
    fn setup(
        &self,
        options: &R::Options,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<YutState<R>, YutError> {
        let base = self.check_options(options, players.len())?;
        // The seat lists before the table: its checks come after the options' (the order
        // of the errors), its allocations after the sides' member lists' (the other order
        // costs the allocator more).
        let (mut side_of, mut sides, mut seat_conceded) =
            (SeatList::new(), SideList::new(), SeatList::new());
        let new_lists = (&mut side_of, &mut sides, &mut seat_conceded);
        seat_lists(base, players.len(), new_lists);
        // The board last, built in place: a field after it would make it a temporary,
        // copied into the state (600 bytes, the table's RNG most of them).
        let mut state = YutState {
            log: EventLog::new(),
            options: options.clone(),
            // Replaced by `begin`, once the board is set up: the rules' setup reads it.
            rules: R::State::default(),
            board: Board {
                options: base.clone(),
                side_of,
                sides,
                seat_conceded,
                table: Table::new(players, seed, now)?,
                // Drawn by `begin`.
                turn_order: SeatList::new(),
                turn_index: 0,
                phase: Phase::Throw,
                throws_owed: 1,
                pending: ThrowList::new(),
                last_throw: None,
                stats: ThrowStats::default(),
                concedes: 0,
                seat_to_act: 0,
                side_to_act: 0,
            },
        };
        self.begin(&mut state, options, now);
        Ok(state)
    }

    /// Every field rebuilt where it is, as `setup` builds it: the lists cleared and refilled
    /// (the ids into their old `String`s, each side into its old `members`), the log
    /// emptied into its old slots. Out of line, as `setup` is.
    #[inline(never)]
    fn reset(
        &self,
        state: &mut YutState<R>,
        options: &R::Options,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<(), YutError> {
        // The checks of `setup` in its order, before anything changes.
        let base = self.check_options(options, players.len())?;
        state.board.table.reset(players, seed, now)?;
        // Every field by name (no `..`): a field added to the state or the board must be
        // reset here too, or this does not compile.
        let YutState {
            board,
            options: kept_options,
            rules: _, // Set by `begin`, from the new board.
            log,
        } = state;
        log.clear_for_next_game();
        kept_options.clone_from(options);
        let Board {
            options: board_options,
            table: _, // Reset above, with its checks.
            side_of,
            sides,
            turn_order: _, // Drawn by `begin`, in place.
            turn_index,
            seat_conceded,
            phase,
            throws_owed,
            pending,
            last_throw,
            stats,
            concedes,
            seat_to_act,
            side_to_act,
        } = board;
        board_options.clone_from(base);
        seat_lists(base, players.len(), (side_of, sides, seat_conceded));
        *turn_index = 0;
        *phase = Phase::Throw;
        *throws_owed = 1;
        *pending = ThrowList::new();
        *last_throw = None;
        *stats = ThrowStats::default();
        *concedes = 0;
        *seat_to_act = 0;
        *side_to_act = 0;
        self.begin(state, options, now);
        Ok(())
    }

    fn validate(
        &self,
        state: &YutState<R>,
        seat: usize,
        action: &Self::Action,
    ) -> Result<(), YutError> {
        let board = &state.board;
        if board.phase == Phase::Finished {
            return Err(Rejection::GameOver.into());
        }
        if seat >= board.seat_conceded.len() {
            return Err(Rejection::NotSeated {
                player: format!("seat {seat}"),
            }
            .into());
        }
        if board.seat_conceded[seat] {
            return Err(YutError::AlreadyConceded);
        }
        if matches!(action, YutAction::Concede) {
            return Ok(());
        }
        if board.current_seat() != seat {
            return Err(YutError::NotYourTurn);
        }
        match action {
            YutAction::Throw if board.phase == Phase::Throw && board.throws_owed > 0 => Ok(()),
            YutAction::Throw => Err(YutError::NotThrowPhase),
            YutAction::Move { .. } if board.phase != Phase::Move => Err(YutError::NotMovePhase),
            YutAction::Move { throw_index, from } => {
                let index = *throw_index as usize;
                let Some(&result) = board.pending.get(index) else {
                    return Err(YutError::UnknownThrowIndex {
                        index: *throw_index,
                        pending: board.pending.len(),
                    });
                };
                let side = board.current_side();
                if let Origin::Node(n) = from
                    && !board.sides[usize::from(side)].holds(*n)
                {
                    return Err(YutError::CannotMove { from: Some(*n) });
                }
                if from.node().is_none() {
                    if result.is_backdo() {
                        return Err(YutError::BackdoFromHome);
                    }
                    if board.sides[usize::from(side)].at_home() == 0 {
                        return Err(YutError::CannotMove { from: None });
                    }
                }
                // The stack exists and a backdo does not enter (checked above): the base
                // rules allow the move, so only rules that may forbid it need the walk.
                if !self.rules.forbids_moves(board, &state.rules)
                    || self.is_legal_move(state, side, index, *from)
                {
                    Ok(())
                } else {
                    Err(YutError::MoveForbidden)
                }
            }
            YutAction::Rule(a) if board.phase == Phase::Rule => {
                self.rules.validate_action(board, &state.rules, seat, a)
            }
            YutAction::Rule(_) => Err(YutError::WrongPhase { phase: board.phase }),
            YutAction::Concede => Ok(()),
        }
    }

    fn step_into(
        &self,
        state: &mut YutState<R>,
        seat: usize,
        action: &Self::Action,
        chance: Option<&ThrowChance>,
        now: Millis,
        events: &mut Vec<Self::Event>,
    ) {
        self.run(state, seat, action, chance, now, events);
    }

    /// The same step with the log written and the events left out.
    fn step_quiet(
        &self,
        state: &mut YutState<R>,
        seat: usize,
        action: &Self::Action,
        chance: Option<&ThrowChance>,
        now: Millis,
        _scratch: &mut Vec<Self::Event>,
    ) {
        self.run(state, seat, action, chance, now, &mut Quiet);
    }

    fn view(&self, state: &YutState<R>, viewer: Viewer<'_>) -> Self::View {
        let seat = match viewer {
            Viewer::Player(p) => state.board.table.seat_of(p),
            Viewer::Spectator => None,
        };
        self.build_view(state, seat)
    }

    fn timeout_action(&self, state: &YutState<R>, seat: usize) -> Option<Self::Action> {
        let board = &state.board;
        if board.phase == Phase::Finished || board.current_seat() != seat {
            return None;
        }
        match board.phase {
            Phase::Throw => Some(YutAction::Throw),
            Phase::Move => self.policy_move(state).map(|m| YutAction::Move {
                throw_index: m.throw_index,
                from: m.from,
            }),
            Phase::Rule => self
                .rules
                .timeout_action(board, &state.rules, seat)
                .map(YutAction::Rule),
            Phase::Finished => None,
        }
    }

    /// Without working out the policy's move: in the move phase some move is always legal
    /// (the turn passes otherwise), and the policy plays one of them.
    fn times_out(&self, state: &YutState<R>, seat: usize) -> bool {
        let board = &state.board;
        if board.phase == Phase::Finished || board.current_seat() != seat {
            return false;
        }
        match board.phase {
            Phase::Throw => true,
            Phase::Move => self.any_legal_move(state),
            Phase::Rule => self
                .rules
                .timeout_action(board, &state.rules, seat)
                .is_some(),
            Phase::Finished => false,
        }
    }

    fn to_act(&self, state: &YutState<R>) -> Vec<usize> {
        self.first_to_act(state).into_iter().collect()
    }

    /// From the board, without a list: one seat acts at a time.
    #[inline]
    fn first_to_act(&self, state: &YutState<R>) -> Option<usize> {
        (state.board.phase != Phase::Finished).then(|| state.board.current_seat())
    }

    /// Concede is always possible and is not listed: bots should not pick it at random.
    fn legal_actions(&self, state: &YutState<R>, seat: usize) -> Vec<Self::Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(state, seat, &mut actions);
        actions
    }

    /// Moves are listed without computing destinations unless the rules may forbid some,
    /// so a random play-out pays for the walk only of the move it plays.
    // Inline: a bot's loop asks for the list before every decision, and the throw phase's
    // list of one is cheaper than the call.
    #[inline]
    fn legal_actions_into(&self, state: &YutState<R>, seat: usize, out: &mut Vec<Self::Action>) {
        out.clear();
        let board = &state.board;
        if board.phase == Phase::Finished || board.current_seat() != seat {
            return;
        }
        match board.phase {
            Phase::Throw => out.push(YutAction::Throw),
            Phase::Move if !self.rules.forbids_moves(board, &state.rules) => {
                // Every stack can use every result, a waiting piece every forward one: the
                // list straight from the side's bit set of held nodes, in the order of
                // `find_legal` (throw index, then node, home last).
                let side = board.sides.slot(board.current_side());
                let home = side.at_home() > 0;
                for (i, result) in board.pending.iter().enumerate() {
                    let throw_index = i as u32;
                    let mut nodes = side.held();
                    while nodes != 0 {
                        let from = Origin::Node(nodes.trailing_zeros() as Node);
                        out.push(YutAction::Move { throw_index, from });
                        nodes &= nodes - 1;
                    }
                    if home && !result.is_backdo() {
                        out.push(YutAction::Move {
                            throw_index,
                            from: Origin::HOME,
                        });
                    }
                }
            }
            Phase::Move => {
                self.find_legal(state, |throw_index, from| {
                    out.push(YutAction::Move { throw_index, from });
                    false
                });
            }
            Phase::Rule => out.extend(
                self.rules
                    .legal_actions(board, &state.rules, seat)
                    .into_iter()
                    .map(YutAction::Rule),
            ),
            Phase::Finished => {}
        }
    }

    /// Counted as [`Game::legal_actions_into`] lists them: from the side's bit set of held
    /// nodes unless the rules may forbid moves.
    #[inline]
    fn legal_action_count(&self, state: &YutState<R>, seat: usize) -> usize {
        let board = &state.board;
        if board.phase == Phase::Finished || board.current_seat() != seat {
            return 0;
        }
        match board.phase {
            Phase::Throw => 1,
            Phase::Move if !self.rules.forbids_moves(board, &state.rules) => free_move_count(board),
            Phase::Move => {
                let mut n = 0;
                self.find_legal(state, |_, _| {
                    n += 1;
                    false
                });
                n
            }
            Phase::Rule => self.rules.legal_action_count(board, &state.rules, seat),
            Phase::Finished => 0,
        }
    }

    /// Found as [`Game::legal_actions_into`] lists them, without the list: a move from the
    /// result's share of the count (its stacks in node order, then home).
    #[inline]
    fn legal_action(&self, state: &YutState<R>, seat: usize, index: usize) -> Option<Self::Action> {
        let board = &state.board;
        if board.phase == Phase::Finished || board.current_seat() != seat {
            return None;
        }
        match board.phase {
            Phase::Throw => (index == 0).then_some(YutAction::Throw),
            Phase::Move if !self.rules.forbids_moves(board, &state.rules) => {
                free_move(board, index)
            }
            Phase::Move => {
                let (mut k, mut found) = (index, None);
                self.find_legal(state, |throw_index, from| {
                    if k == 0 {
                        found = Some(YutAction::Move { throw_index, from });
                        return true;
                    }
                    k -= 1;
                    false
                });
                found
            }
            Phase::Rule => self
                .rules
                .legal_action(board, &state.rules, seat, index)
                .map(YutAction::Rule),
            Phase::Finished => None,
        }
    }

    /// Counted and found in one pass: the phase, the side and its stacks looked up once
    /// (the same draw and the same action as the count and the index).
    #[inline]
    fn random_legal_action(
        &self,
        state: &YutState<R>,
        seat: usize,
        rng: &mut GameRng,
    ) -> Option<Self::Action> {
        let board = &state.board;
        if board.current_seat() != seat {
            return None;
        }
        // The finished phase among the others: the loop asked for the seat to act just
        // before, so it is seldom tested on its own.
        match board.phase {
            // One action: a draw among one takes no word.
            Phase::Throw => Some(YutAction::Throw),
            Phase::Finished => None,
            Phase::Move if !self.rules.forbids_moves(board, &state.rules) => {
                if let Some(result) = board.pending.single() {
                    return one_result_move(board, *result, rng);
                }
                several_results_move(board, rng)
            }
            Phase::Move => self.random_checked_move(state, seat, rng),
            _ => {
                let n = self.legal_action_count(state, seat);
                if n == 0 {
                    return None;
                }
                self.legal_action(state, seat, rng.below(n as u32) as usize)
            }
        }
    }

    fn outcome(&self, state: &YutState<R>) -> Option<YutResult> {
        (state.board.phase == Phase::Finished).then(|| crate::outcome::result(&state.board))
    }

    /// By the side's place among the sides ranked: 1.0 for first, 0.0 for last and evenly
    /// between (tied sides share a place); every member of a team alike.
    fn payoff(&self, state: &YutState<R>, seat: usize) -> Option<f64> {
        let result = self.outcome(state)?;
        let side = *state.board.side_of().get(seat)?;
        let rank = result.ranking.iter().find(|p| p.side == side)?.rank;
        let last = result.ranking.len().saturating_sub(1);
        if last == 0 {
            return Some(1.0);
        }
        let behind = last.saturating_sub(usize::from(rank.saturating_sub(1)));
        Some(behind as f64 / last as f64)
    }

    fn restore(&self, json: &str) -> Result<YutState<R>, YutError> {
        let parsed = serde_json::from_str::<crate::state::StoredState<R>>(json);
        game_core::restored(self, parsed.map(YutState::from))
    }

    fn check_state(&self, state: &YutState<R>) -> Result<(), YutError> {
        self.check(state)
            .map_err(|detail| Rejection::CorruptState { detail }.into())
    }

    fn chances(
        &self,
        state: &YutState<R>,
        _seat: usize,
        action: &Self::Action,
    ) -> Option<Vec<(ThrowChance, f64)>> {
        match action {
            YutAction::Throw if state.board.phase == Phase::Throw => {
                Some(ThrowChance::distribution(&state.board.options))
            }
            _ => None,
        }
    }
}

impl<R: Rules> Yut<R> {
    /// [`Game::random_legal_action`] when the rules may forbid moves, so that each must be
    /// checked: the legal moves found in one pass into a buffer and one drawn among them
    /// (the same draw and move as the count and the index, which take a pass each). Past
    /// the buffer's room, the count and the index after all.
    #[inline(never)]
    fn random_checked_move(
        &self,
        state: &YutState<R>,
        seat: usize,
        rng: &mut GameRng,
    ) -> Option<YutAction<R::Action>> {
        const ROOM: usize = 24;
        let mut found = [(0u32, Origin::HOME); ROOM];
        let mut n = 0;
        let full = self.find_legal_with(state, true, |throw_index, from| {
            let Some(slot) = found.get_mut(n) else {
                return true;
            };
            *slot = (throw_index, from);
            n += 1;
            false
        });
        if full {
            let count = self.legal_action_count(state, seat);
            return self.legal_action(state, seat, rng.below(count as u32) as usize);
        }
        let (throw_index, from) = *found[..n].get(rng.below(n as u32) as usize)?;
        Some(YutAction::Move { throw_index, from })
    }
}

/// How many moves the player to act has when the rules forbid none: every stack can use
/// every result, a waiting piece every forward one ([`Game::legal_actions_into`]'s list).
#[inline(always)]
fn free_move_count(board: &Board) -> usize {
    let side = board.sides.slot(board.current_side());
    let every = side.stacks() * board.pending.len();
    if side.at_home() == 0 {
        return every;
    }
    every + board.pending.iter().filter(|r| !r.is_backdo()).count()
}

/// A uniform draw among those moves when one result is pending (most moves): the same
/// count, the same draw and the same move as [`free_move_count`] and [`free_move`], without
/// their passes over the results.
#[inline(always)]
fn one_result_move<A>(board: &Board, result: Throw, rng: &mut GameRng) -> Option<YutAction<A>> {
    let side = board.sides.slot(board.current_side());
    let stacks = side.stacks();
    let home = usize::from(side.at_home() > 0 && !result.is_backdo());
    let n = stacks + home;
    if n == 0 {
        return None;
    }
    let k = rng.below(n as u32) as usize;
    let from = if k < stacks {
        let mut nodes = side.held();
        for _ in 0..k {
            nodes &= nodes - 1;
        }
        Origin::Node(nodes.trailing_zeros() as Node)
    } else {
        Origin::HOME
    };
    Some(YutAction::Move {
        throw_index: 0,
        from,
    })
}

/// A uniform draw among those moves when several results are pending: out of line, since
/// few moves have more than one result to choose from.
#[inline(never)]
fn several_results_move<A>(board: &Board, rng: &mut GameRng) -> Option<YutAction<A>> {
    let n = free_move_count(board);
    if n == 0 {
        return None;
    }
    free_move(board, rng.below(n as u32) as usize)
}

/// The `index`-th of those moves, in the list's order (throw index, then the stacks in node
/// order, home last), from the result's share of the count.
#[inline(always)]
fn free_move<A>(board: &Board, index: usize) -> Option<YutAction<A>> {
    let side = board.sides.slot(board.current_side());
    let held = side.held();
    let stacks = side.stacks();
    let home = side.at_home() > 0;
    let mut k = index;
    for (i, result) in board.pending.iter().enumerate() {
        let throw_index = i as u32;
        if k < stacks {
            let mut nodes = held;
            for _ in 0..k {
                nodes &= nodes - 1;
            }
            let from = Origin::Node(nodes.trailing_zeros() as Node);
            return Some(YutAction::Move { throw_index, from });
        }
        k -= stacks;
        if home && !result.is_backdo() {
            if k == 0 {
                let from = Origin::HOME;
                return Some(YutAction::Move { throw_index, from });
            }
            k -= 1;
        }
    }
    None
}
