//! Turn flow (RULES.md, Turns): throwing, moving, bonuses, discarding, passing the turn,
//! and the end of the game (RULES.md, Ending and ranking).

use crate::graph::Node;
use crate::movement::{self, Walk};
use crate::options::{Mode, Ranking};
use crate::rules::{
    CaptureTo, Carry, Cx, Emit, Hook, MoveDone, MoveInfo, OnResult, RuleOptions, TurnStart,
};
use crate::state::{Board, Landing, Phase, SideId, Start};
use crate::{
    EventLog, Origin, PackedThrows, Rules, Throw, ThrowChance, ThrowDraw, To, Trail, Yut, YutEvent,
    YutState,
};

/// Where a step's events go besides the log: the caller's list ([`Game::step_into`]), or
/// nowhere in a quiet step ([`Game::step_quiet`]), which writes the log alone. A type
/// rather than a flag, so that the quiet step's code has no trace of the list.
///
/// [`Game::step_into`]: game_core::Game::step_into
/// [`Game::step_quiet`]: game_core::Game::step_quiet
pub(crate) trait Sink<E> {
    /// Takes a copy of `event`.
    fn take(&mut self, event: &E);
}

impl<E: Clone> Sink<E> for Vec<E> {
    #[inline(always)]
    fn take(&mut self, event: &E) {
        self.push(event.clone());
    }
}

/// The sink of a quiet step: the events go to the log only.
pub(crate) struct Quiet;

impl<E> Sink<E> for Quiet {
    #[inline(always)]
    fn take(&mut self, _: &E) {}
}

/// Announces an engine event: into the action's events and the state's recent-event log
/// at once, each built in place (copying every event into the log after the step costs
/// a second pass over them).
#[inline(always)]
fn emit<X: Clone>(
    log: &mut EventLog<YutEvent<X>>,
    events: &mut impl Sink<YutEvent<X>>,
    event: YutEvent<X>,
) {
    // The copy to the events first and the event itself into the log: the other way round
    // costs more (the log's write is the larger).
    events.take(&event);
    log.put(event);
}

/// Where the hooks' events go: the action's events and the log, as [`emit`] puts them.
struct Logged<'a, X, S> {
    events: &'a mut S,
    log: &'a mut EventLog<YutEvent<X>>,
}

impl<X: Clone, S: Sink<YutEvent<X>>> Emit<X> for Logged<'_, X, S> {
    fn emit(&mut self, event: X) {
        emit(self.log, self.events, YutEvent::Rule(event));
    }
}

impl<R: Rules> Yut<R> {
    /// Where `side`'s stack at `from` would go with `result`, hooks included; `None` if the
    /// base rules forbid it (backdo from home). `stack` is the stack's size and trail as
    /// [`movement::stack_at`] gives them (callers trying several results look it up once).
    // Always: for rule sets with hooks the compiler would call it, and every legal-move
    // listing and move pays the call.
    #[inline(always)]
    pub(crate) fn walk(
        &self,
        state: &YutState<R>,
        side: SideId,
        from: Origin,
        (stack, trail): (u8, Trail),
        result: Throw,
    ) -> Option<(Walk, MoveInfo)> {
        let board = &state.board;
        let count = match from {
            Origin::Home(_) => self.rules.enter_count(board, &state.rules, side).max(1),
            Origin::Node(_) => stack,
        };
        let info = MoveInfo {
            side,
            result,
            from,
            count,
        };
        let walk = if result.is_backdo() {
            movement::backdo(&board.options, from, trail)?
        } else {
            let steps = result.steps() as u8 + self.rules.extra_steps(board, &state.rules, &info);
            self.forward_walk(state, &info, steps)
        };
        Some((walk, info))
    }

    /// The walk of `steps` forward from `info.from`, finished short where the rules say
    /// ([`Rules::finishes_short`](crate::Rules::finishes_short)): a move's, and a carry's.
    #[inline(always)]
    fn forward_walk(&self, state: &YutState<R>, info: &MoveInfo, steps: u8) -> Walk {
        let board = &state.board;
        let mut walk = movement::forward(&board.options, info.from, steps);
        if let To::Node(n) = walk.to
            && movement::one_short(&board.options, n)
            && self.rules.finishes_short(board, &state.rules, info, n)
        {
            walk.finish();
        }
        walk
    }

    /// Runs a hook with the rules' view of `state`; the events it announces go into
    /// `events` and the log, like the engine's own (see [`emit`]).
    #[inline(always)]
    pub(crate) fn hook<T>(
        state: &mut YutState<R>,
        events: &mut impl Sink<YutEvent<R::Event>>,
        f: impl FnOnce(&mut Cx<'_, R>) -> T,
    ) -> T {
        Self::hook_with(state, events, None, f)
    }

    /// [`Yut::hook`] with the carry `after_move` may ask for ([`Cx::carry`]).
    #[inline(always)]
    fn hook_with<T>(
        state: &mut YutState<R>,
        events: &mut impl Sink<YutEvent<R::Event>>,
        carry: Option<&mut Carry>,
        f: impl FnOnce(&mut Cx<'_, R>) -> T,
    ) -> T {
        let YutState {
            board,
            rules,
            options,
            log,
        } = state;
        let options: &R::Options = options;
        let mut out = Logged { events, log };
        f(&mut Cx {
            board,
            state: rules,
            config: options.config(),
            out: &mut out,
            carry,
        })
    }

    /// Whether the rules have anything to do at `hook` in `state` ([`Rules::listens`]):
    /// each hook's call is made only then, its context too.
    ///
    /// [`Rules::listens`]: crate::Rules::listens
    #[inline(always)]
    pub(crate) fn listens(&self, state: &YutState<R>, hook: Hook<'_>) -> bool {
        let config = state.options.config();
        self.rules.listens(&state.board, &state.rules, config, hook)
    }

    /// Carries out a throw (RULES.md, Turns, step 1); `forced` replaces the draw.
    pub(crate) fn throw(
        &self,
        state: &mut YutState<R>,
        forced: Option<ThrowChance>,
        events: &mut impl Sink<YutEvent<R::Event>>,
    ) {
        let board = &mut state.board;
        board.throws_owed = board.throws_owed.saturating_sub(1);
        let side = board.current_side();
        let mut forced = forced;
        let result = loop {
            let board = &mut state.board;
            let draw = match forced.take() {
                Some(chance) => chance.draw(),
                None => ThrowDraw::draw(&board.options, board.table.rng_mut()),
            };
            board.stats.count(draw.chance());
            board.last_throw = Some(draw);
            let (Some(sticks), Some(result)) = (draw.sticks, draw.result) else {
                emit(&mut state.log, events, YutEvent::Nak { side });
                break None;
            };
            emit(
                &mut state.log,
                events,
                YutEvent::Thrown {
                    side,
                    sticks,
                    result,
                },
            );
            let mut result = result;
            if !self.listens(state, Hook::OnResult(result)) {
                break Some(result);
            }
            match Self::hook(state, events, |cx| self.rules.on_result(cx, &mut result)) {
                OnResult::Keep => break Some(result),
                OnResult::Rethrow => continue,
            }
        };
        if let Some(result) = result {
            let board = &mut state.board;
            board.pending.push(result);
            if result.throws_again() {
                board.owe_throws(1);
            }
            if self.listens(state, Hook::AfterResult(result)) {
                Self::hook(state, events, |cx| self.rules.after_result(cx, result));
            }
        }
        if state.board.throws_owed == 0 {
            // Settle's common outcome here without its call: a fresh result to move with.
            if !state.board.pending.is_empty() && self.any_legal_move(state) {
                state.board.phase = Phase::Move;
            } else {
                self.settle(state, events);
            }
        }
    }

    /// Moves a stack with a pending result (RULES.md, Turns, step 2, and Movement). Validated
    /// before.
    pub(crate) fn play_move(
        &self,
        state: &mut YutState<R>,
        throw_index: usize,
        from: Origin,
        events: &mut impl Sink<YutEvent<R::Event>>,
    ) {
        let side = state.board.current_side();
        let Some(&result) = state.board.pending.get(throw_index) else {
            return;
        };
        let mover = state.board.sides.slot(side);
        let start = mover.start(from);
        let at = start.set;
        if at == 0 {
            return;
        }
        // The stack's size and its trail (home: one piece, no trail).
        let stack = match from {
            Origin::Home(_) => (1, Trail::EMPTY),
            Origin::Node(_) => (mover.stack_size(at), mover.trail_of(at)),
        };
        let Some((walk, info)) = self.walk(state, side, from, stack, result) else {
            return;
        };
        state.board.pending.remove(throw_index);
        let mut done = self.land(state, events, start, info, &walk, false);
        if self.listens(state, Hook::AfterMove(&done)) {
            let mut carry = Carry {
                to: done.to,
                steps: 0,
            };
            Self::hook_with(state, events, Some(&mut carry), |cx| {
                self.rules.after_move(cx, &done)
            });
            if carry.steps > 0 {
                done = self.carry_on(state, events, done, carry);
            }
        }

        // Only a move or a carry to the goal finishes a side.
        let side_ref = state.board.sides.slot(side);
        if done.to == To::GOAL && side_ref.finished_rank.is_none() && side_ref.all_done() {
            self.side_finished(state, side, events);
            if state.board.phase == Phase::Finished {
                return;
            }
            self.discard(state, events);
            self.end_turn(state, events);
            return;
        }
        if state.board.throws_owed > 0 {
            state.board.phase = Phase::Throw;
        } else if state.board.pending.is_empty() {
            // Settle's common outcome here without its call: every result used, the turn
            // passes.
            self.end_turn(state, events);
        } else {
            self.settle(state, events);
        }
    }

    /// Lands the stack lifted from `start` at the end of `walk`, for a move (`carried`
    /// false: a `moved` event with the result used) or a rule's carry (a `carried` event):
    /// it stacks, captures or finishes (RULES.md, Movement), and a capture owes its bonus.
    /// Returns what it did, for `after_move`.
    #[inline(always)]
    fn land(
        &self,
        state: &mut YutState<R>,
        events: &mut impl Sink<YutEvent<R::Event>>,
        start: Start,
        info: MoveInfo,
        walk: &Walk,
        carried: bool,
    ) -> MoveDone {
        let side = info.side;
        let result = info.result;
        // Whom the stack meets where it lands, judged before it lands.
        let (victim, stacked) = match walk.to {
            To::Node(node) => {
                // One side at most holds a node: where the mover stands, no one else does.
                let board = &state.board;
                let stacked = board.sides.slot(side).holds(node);
                let victim = if stacked { None } else { board.occupant(node) };
                (victim, stacked)
            }
            To::Off(_) => (None, false),
        };
        // Land first (the trail updated where the side keeps it): where a captured stack
        // may go is judged with the mover in place.
        let count = state
            .board
            .sides
            .slot_mut(side)
            .move_walked(start, info.count, walk);
        let announced = match (carried, info.from) {
            (true, Origin::Node(from)) => YutEvent::Carried {
                side,
                from,
                to: walk.to,
                path: walk.path,
                count,
            },
            (_, from) => YutEvent::Moved {
                side,
                result,
                from,
                to: walk.to,
                path: walk.path,
                count,
            },
        };
        emit(&mut state.log, events, announced);

        let mut captured = 0u8;
        match walk.to {
            To::Node(node) => {
                if stacked {
                    // The stack took the trail of the pieces that moved in (RULES.md,
                    // Movement) as they landed.
                    let size = state.board.sides.slot(side).stack_on(node) as u8;
                    emit(
                        &mut state.log,
                        events,
                        YutEvent::Stacked {
                            side,
                            node,
                            count: size,
                        },
                    );
                }
                if let Some(victim) = victim {
                    captured = self.capture(state, events, side, victim, node);
                }
            }
            To::Off(_) => {
                if walk.to == To::GOAL {
                    emit(
                        &mut state.log,
                        events,
                        YutEvent::FinishedPieces { side, count },
                    );
                }
            }
        }
        if captured > 0 {
            // A carry goes forward: its capture earns what a forward move's does.
            let back = result.is_backdo() && !carried;
            let base = u8::from(!back || state.board.options.backdo_capture_bonus);
            let hook = Hook::CaptureBonus { info: &info, base };
            let bonus = if self.listens(state, hook) {
                Self::hook(state, events, |cx| {
                    self.rules.capture_bonus(cx, &info, base)
                })
            } else {
                base
            };
            state.board.owe_throws(bonus);
        }
        MoveDone {
            info: MoveInfo { count, ..info },
            to: walk.to,
            captured,
            stacked,
            carried,
        }
    }

    /// Makes the carry `after_move` asked for after `done` ([`Cx::carry`]), and every
    /// carry the hook asks for after that one; returns what the last did. Each carry walks
    /// at least one step towards the goal, so a chain of them ends.
    ///
    /// [`Cx::carry`]: crate::rules::Cx::carry
    // Out of line: only rules that carry reach it.
    #[inline(never)]
    fn carry_on(
        &self,
        state: &mut YutState<R>,
        events: &mut impl Sink<YutEvent<R::Event>>,
        mut done: MoveDone,
        mut carry: Carry,
    ) -> MoveDone {
        let side = done.info.side;
        while let (To::Node(node), 1..) = (carry.to, carry.steps) {
            let from = Origin::Node(node);
            let start = state.board.sides.slot(side).start(from);
            let count = state.board.sides.slot(side).stack_size(start.set);
            if count == 0 {
                break;
            }
            let info = MoveInfo {
                from,
                count,
                ..done.info
            };
            let walk = self.forward_walk(state, &info, carry.steps);
            done = self.land(state, events, start, info, &walk, true);
            carry = Carry {
                to: done.to,
                steps: 0,
            };
            if self.listens(state, Hook::AfterMove(&done)) {
                Self::hook_with(state, events, Some(&mut carry), |cx| {
                    self.rules.after_move(cx, &done)
                });
            }
        }
        done
    }

    /// Sends the stack of `victim` on `node` home (or where the rules say); returns how
    /// many pieces were captured.
    // Always: a move's landing and a carry's both call it, and left to itself the compiler
    // then keeps it out of line, a call on every capture of every play-out.
    #[inline(always)]
    fn capture(
        &self,
        state: &mut YutState<R>,
        events: &mut impl Sink<YutEvent<R::Event>>,
        side: SideId,
        victim: SideId,
        node: Node,
    ) -> u8 {
        let board = &mut state.board;
        let count = board.sides[usize::from(victim)].stack_on(node) as u8;
        // Saturating: a restored state may hold any count; real games never get near.
        let lost = &mut board.sides[usize::from(victim)].lost;
        *lost = lost.saturating_add(u16::from(count));
        let captures = &mut board.sides[usize::from(side)].captures;
        *captures = captures.saturating_add(u16::from(count));
        emit(
            &mut state.log,
            events,
            YutEvent::Captured {
                side,
                victim_side: victim,
                node,
                count,
            },
        );
        let to = if self.listens(state, Hook::CaptureTo { victim, count }) {
            Self::hook(state, events, |cx| self.rules.capture_to(cx, victim, count))
        } else {
            CaptureTo::Home
        };
        let target = match to {
            CaptureTo::Home => None,
            // Blocked when another side holds the node (the capturer has landed already,
            // so a capture on that very node always sends the victims home); a number that
            // is no node of the board sends them home too.
            CaptureTo::Node(n) if usize::from(n) >= crate::graph::NODE_COUNT => None,
            CaptureTo::Node(n) => {
                let blocked = state
                    .board
                    .sides
                    .iter()
                    .enumerate()
                    .any(|(i, s)| i != usize::from(victim) && s.holds(n));
                (!blocked).then_some(n)
            }
        };
        let vside = &mut state.board.sides[usize::from(victim)];
        let start = vside.start(Origin::Node(node));
        // Pieces already on a cushion's node stack with the cushioned ones, all with the
        // trail of the node alone.
        let to = match target {
            Some(n) => Landing::Node(n, Trail::one(n)),
            None => Landing::Home,
        };
        vside.move_stack(start, vside.stack_size(start.set), to);
        count
    }

    /// After the throws are done: move if any result can be used, otherwise drop them all
    /// and pass the turn (RULES.md, Turns, step 4). Re-run after every move.
    fn settle(&self, state: &mut YutState<R>, events: &mut impl Sink<YutEvent<R::Event>>) {
        if state.board.pending.is_empty() {
            self.end_turn(state, events);
        } else if self.any_legal_move(state) {
            state.board.phase = Phase::Move;
        } else {
            self.discard(state, events);
            self.end_turn(state, events);
        }
    }

    /// Drops every pending result (and owed throw) with a `discarded` event.
    // Out of line, as `concede` is: a few times a game (a nak, no legal move).
    #[inline(never)]
    fn discard(&self, state: &mut YutState<R>, events: &mut impl Sink<YutEvent<R::Event>>) {
        state.board.throws_owed = 0;
        if !state.board.pending.is_empty() {
            let throws = PackedThrows::from(&state.board.pending);
            state.board.pending.clear();
            let side = state.board.current_side();
            emit(&mut state.log, events, YutEvent::Discarded { side, throws });
        }
    }

    /// A side has finished all its pieces: give it its place and see if the game is over.
    fn side_finished(
        &self,
        state: &mut YutState<R>,
        side: SideId,
        events: &mut impl Sink<YutEvent<R::Event>>,
    ) {
        let board = &mut state.board;
        let rank = board
            .sides
            .iter()
            .filter(|s| s.finished_rank.is_some())
            .count() as u8
            + 1;
        board.sides[usize::from(side)].finished_rank = Some(rank);
        emit(
            &mut state.log,
            events,
            YutEvent::SideFinished { side, rank },
        );
        let over = match board.options.mode {
            Mode::Team => true,
            Mode::Individual => {
                board.options.ranking == Ranking::First || board.active_sides() <= 1
            }
        };
        if over {
            self.game_over(state, events);
        }
    }

    /// Ends the game: no more actions, no deadline.
    // Out of line: once a game, and inlined into the step it would cost every step more
    // than the call costs.
    #[inline(never)]
    pub(crate) fn game_over(
        &self,
        state: &mut YutState<R>,
        events: &mut impl Sink<YutEvent<R::Event>>,
    ) {
        let board = &mut state.board;
        board.phase = Phase::Finished;
        board.throws_owed = 0;
        board.pending.clear();
        board.table.close();
        // Into the last game's list when the state was reset from a finished game.
        let mut winners = state.log.spare_winners();
        crate::outcome::winners_into(board, &mut winners);
        emit(&mut state.log, events, YutEvent::GameOver { winners });
    }

    /// Passes the turn to the next seat still playing and starts its turn.
    #[inline(always)]
    pub(crate) fn end_turn(
        &self,
        state: &mut YutState<R>,
        events: &mut impl Sink<YutEvent<R::Event>>,
    ) {
        // The pending results and owed throws are the next turn's from `start_turn` on,
        // which sets both: nothing between reads them.
        let board = &mut state.board;
        let n = board.turn_order.len();
        let mut index = usize::from(board.turn_index);
        // The seat found and its side, which the turn fields then take without looking
        // them up again.
        let mut found = None;
        for _ in 0..n {
            // A branch, not `%`: a division costs more than the whole check.
            index = if index + 1 >= n { 0 } else { index + 1 };
            // Indices below the seat count: each slot read without a bounds check.
            let seat = board.turn_order.slot(index);
            let side = board.side_of.slot(usize::from(seat));
            if !board.seat_conceded.slot(usize::from(seat)) && board.sides.slot(side).active() {
                found = Some((seat, side));
                break;
            }
        }
        if board.options.mode == Mode::Team {
            (index, found) = team_turn(board, index, found);
        }
        board.turn_index = index as u8;
        match found {
            Some((seat, side)) => (board.seat_to_act, board.side_to_act) = (seat, side),
            None => board.sync_turn(),
        }
        let seat = board.current_seat() as u8;
        let side = board.current_side();
        emit(&mut state.log, events, YutEvent::TurnChanged { seat, side });
        self.start_turn(state, events);
    }

    /// Starts the turn of the current seat: one throw owed, then the rules' turn start.
    #[inline(always)]
    pub(crate) fn start_turn(
        &self,
        state: &mut YutState<R>,
        events: &mut impl Sink<YutEvent<R::Event>>,
    ) {
        let board = &mut state.board;
        // The side to act: a valid id.
        let turns = &mut board.sides.slot_mut(board.current_side()).turns;
        *turns = turns.saturating_add(1);
        board.phase = Phase::Throw;
        board.throws_owed = 1;
        board.pending.clear();
        if self.listens(state, Hook::TurnStart)
            && Self::hook(state, events, |cx| self.rules.turn_start(cx)) == TurnStart::Wait
        {
            state.board.phase = Phase::Rule;
        }
    }

    /// A seat concedes (RULES.md, Ending and ranking).
    // Out of line: at most a few times a game, and never in a random play-out. Together
    // with `discard`, which is out of line too: either alone helps one rule set and costs
    // the other.
    #[inline(never)]
    pub(crate) fn concede(
        &self,
        state: &mut YutState<R>,
        seat: usize,
        events: &mut impl Sink<YutEvent<R::Event>>,
    ) {
        let board = &mut state.board;
        board.seat_conceded.as_mut_slice()[seat] = true;
        let side = board.side_of[seat];
        let side_out = board.sides[usize::from(side)]
            .members
            .iter()
            .all(|&m| board.seat_conceded[usize::from(m)]);
        let conceded = YutEvent::Conceded {
            seat: seat as u8,
            side,
            side_out,
        };
        emit(&mut state.log, events, conceded);
        let was_current = board.current_seat() == seat;
        if side_out {
            board.concedes += 1;
            let s = &mut board.sides[usize::from(side)];
            s.conceded = Some(board.concedes);
            s.send_all_home();
        }
        if board.active_sides() <= 1 {
            self.game_over(state, events);
        } else if was_current {
            self.end_turn(state, events);
        }
    }

    /// Seats the players, picks the first side with the RNG and starts its turn
    /// (RULES.md, Setting up).
    #[inline(always)]
    pub(crate) fn first_turn(&self, board: &mut Board) {
        let seats = board.side_of.len();
        let sides = board.sides.len();
        let first = board.table.rng_mut().below(sides as u32) as usize;
        let order = &mut board.turn_order;
        // Every seat fits: the seat lists were filled for these seats.
        let filled = match board.options.mode {
            // From the first seat round the table, without a division a seat.
            Mode::Individual => order.refill((first..seats).chain(0..first).map(|s| s as u8)),
            Mode::Team => {
                let per_team = seats / 2;
                let sides = &board.sides;
                order.refill((0..seats).map(|i| {
                    let team = (first + i) % 2;
                    let member = i / 2;
                    sides[team].members[member.min(per_team - 1)]
                }))
            }
        };
        debug_assert!(filled, "the options seat at most MAX_SEATS");
        board.turn_index = 0;
        board.sync_turn();
    }
}

/// The slot of the turn order whose seat plays next in team play, and that seat and side if
/// they are the ones `end_turn`'s search found (`found`, at `index`): the teams alternate,
/// each team's members still playing in seat order (RULES.md, Ending and ranking), so a
/// team's k-th turn goes to its (k mod m)-th such member. Without concedes this is the next
/// slot of the turn order; with one, the conceded member's turns go to the team-mates, not
/// to the other team.
#[inline(always)]
fn team_turn(
    board: &Board,
    mut index: usize,
    found: Option<(u8, SideId)>,
) -> (usize, Option<(u8, SideId)>) {
    let team = board.sides.slot(SideId::from(board.current_side() == 0));
    let conceded = &board.seat_conceded;
    // A team's members are seats of the game (the state checks refuse others): each
    // slot read without a bounds check.
    let playing = || {
        team.members
            .iter()
            .copied()
            .filter(|&m| !conceded.slot(usize::from(m)))
    };
    let k = usize::from(team.turns) % playing().count().max(1);
    match playing().nth(k) {
        // The seat of the slot found, as in every turn without concedes: it stands.
        Some(seat) if found.is_some_and(|(s, _)| s == seat) => (index, found),
        next => {
            if let Some(seat) = next
                && let Some(i) = board.turn_order.iter().position(|&s| s == seat)
            {
                index = i;
            }
            // The slot may have changed: the turn fields are looked up from it.
            (index, None)
        }
    }
}
