//! [`Augments`]: the layer as one rule set on the `yut` seam. Every effect is a hook that
//! adjusts the standard outcome at a fixed point of the turn (the crate README, The augments).

use yut::graph::{DWIMO, FIRST, JJIMO, MO, Node};
use yut::rules::{CaptureTo, Cx, Hook, MoveDone, MoveInfo, OnResult, TurnStart};
use yut::{Board, Origin, Rules, Side, SideId, Throw, To, YutError, YutOptions};

use crate::action::{no_draft, unknown_candidate};
use crate::{
    Augment, AugmentAction, AugmentConfig, AugmentEvent, AugmentOptions, AugmentState, AugmentView,
    Candidates, Draft, Effect, HouseRule, SideAugments, Slot, Source,
};

/// The augment layer of the app's rules: the draft, the eighteen augments, the cushion and
/// the truce, each switchable through [`AugmentConfig`]. Play it as
/// `yut::Yut::new(Augments)`, or compose it with rules of your own as
/// `yut::Yut::new((Augments, Mine))` (hooks fold left to right).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Augments;

/// Whether `node` is a corner for 모서리 박수: 5, 10 or 15.
#[inline(always)]
const fn is_corner(node: Node) -> bool {
    matches!(node, MO | DWIMO | JJIMO)
}

/// `list` as a bit set of augments.
const fn bits(list: &[Augment]) -> u32 {
    let mut b = 0;
    let mut i = 0;
    while i < list.len() {
        b |= list[i].bit();
        i += 1;
    }
    b
}

/// What `on_result` can use: without one of these, every result is kept as thrown.
const ON_RESULT: u32 = bits(&[
    Augment::SecondLook,
    Augment::EraseBackdo,
    Augment::ComebackWind,
    Augment::OneLineWind,
]);

/// What `after_result` can use.
const AFTER_RESULT: u32 = bits(&[Augment::DoEcho, Augment::MoBonus]);

/// The step bonuses ([`step_bonuses`]).
const STEP_BONUSES: u32 = bits(&[
    Augment::FirstStep,
    Augment::WalkTogether,
    Augment::PiggybackDash,
    Augment::YutLeap,
]);

/// The throws for where a move ends: 모서리 박수 and 골인 환호.
const CLAPS: u32 = bits(&[Augment::CornerClap, Augment::GoalCheer]);

/// What `after_move` can use (besides keeping the marks up to date).
const AFTER_MOVE: u32 = STEP_BONUSES
    | bits(&[
        Augment::TwinEntry,
        Augment::LowThreshold,
        Augment::CornerClap,
        Augment::GoalCheer,
    ]);

/// Whether `side` has finished fewer pieces than the side that has finished the most
/// (every other side counts, finished and conceded ones included).
fn behind(board: &Board, side: SideId) -> bool {
    let Some(mine) = board.sides().of(side).map(Side::finished) else {
        return false;
    };
    board
        .sides()
        .iter()
        .enumerate()
        .any(|(i, s)| i != usize::from(side) && s.finished() > mine)
}

/// Whether every piece of `side` has finished: then nothing fires for it.
fn all_done(board: &Board, side: SideId) -> bool {
    board.sides().of(side).is_some_and(Side::all_done)
}

/// The step bonuses of a forward move, in table order: 첫걸음 한 칸 (entering),
/// 함께 걷는 힘 (a stack of two or more), 업고 달리기 (a marked stack), 윷 도약 (윷).
fn step_bonuses(mine: &SideAugments, info: &MoveInfo) -> [Option<Augment>; 4] {
    let owned = mine.owned.owned_bits();
    if owned & STEP_BONUSES == 0 {
        // Asked for every walk the engine tries: most sides own none for most of a game.
        return [None; 4];
    }
    let owns = |a: Augment| owned & a.bit() != 0;
    let marked = info.from.node().is_some_and(|n| mine.marks.contains(n));
    [
        (info.from.node().is_none() && owns(Augment::FirstStep)).then_some(Augment::FirstStep),
        (info.count >= 2 && owns(Augment::WalkTogether)).then_some(Augment::WalkTogether),
        (marked && owns(Augment::PiggybackDash)).then_some(Augment::PiggybackDash),
        (info.result == Throw::Yut && owns(Augment::YutLeap)).then_some(Augment::YutLeap),
    ]
}

/// How many steps the step bonuses add to a forward move: as many as [`step_bonuses`]
/// lists, counted without listing them (asked for every walk the engine tries).
// Inline: a call costs as much as the count.
#[inline]
fn step_count(mine: &SideAugments, info: &MoveInfo) -> u8 {
    let owned = mine.owned.owned_bits();
    let owns = |a: Augment| owned & a.bit() != 0;
    let from = info.from.node();
    u8::from(from.is_none() && owns(Augment::FirstStep))
        + u8::from(info.count >= 2 && owns(Augment::WalkTogether))
        + u8::from(owns(Augment::PiggybackDash) && from.is_some_and(|n| mine.marks.contains(n)))
        + u8::from(info.result == Throw::Yut && owns(Augment::YutLeap))
}

/// The augments of [`AFTER_MOVE`] that `done` could set off, judged from the move alone (a
/// superset: `move_done` decides). 업고 달리기's spent or carried mark is not here: a mark
/// is looked for on its own.
#[inline(always)]
fn triggers(done: &MoveDone) -> u32 {
    let info = &done.info;
    let home = info.from.node().is_none();
    let two = info.count >= 2;
    let mut t = 0;
    if home {
        t |= Augment::FirstStep.bit();
        if two {
            t |= Augment::TwinEntry.bit();
        }
    }
    if two {
        t |= Augment::WalkTogether.bit();
    }
    if info.result == Throw::Yut {
        t |= Augment::YutLeap.bit();
    }
    match done.to {
        To::Node(n) => {
            if done.stacked {
                t |= Augment::PiggybackDash.bit();
            }
            if is_corner(n) {
                t |= Augment::CornerClap.bit();
            }
        }
        To::GOAL => t |= Augment::LowThreshold.bit() | Augment::GoalCheer.bit(),
        To::Off(_) => {}
    }
    t
}

// The per-side look-ups below read a side id past the sides (which the engine never
// passes: its board and this state have the same sides, as `AugmentState::check` holds a
// stored state to) as a side that owns nothing, never a panic.

/// Whether `side` can use `a` now.
#[inline(always)]
fn can_use(state: &AugmentState, side: SideId, a: Augment) -> bool {
    state.side(side).is_some_and(|m| m.can_use(a))
}

/// Whether `side` owns `a`, used up or not.
#[inline(always)]
fn owns(state: &AugmentState, side: SideId, a: Augment) -> bool {
    state.side(side).is_some_and(|m| m.owns(a))
}

/// Spends one use of `a` of `side`.
#[inline(always)]
fn spend(state: &mut AugmentState, side: SideId, a: Augment) {
    if let Some(m) = state.side_mut(side) {
        m.spend(a);
    }
}

/// Whether the side to act can use one of `augments` now (`on_result` and `after_result`
/// do nothing otherwise).
#[inline(always)]
fn can_use_any(board: &Board, state: &AugmentState, augments: u32) -> bool {
    state
        .side(board.current_side())
        .is_some_and(|m| m.owned.usable_bits() & augments != 0)
}

/// Whether this turn's start has anything to do besides lifting a truce: a draft left
/// open, a truce or 되갚을 손 owed to the side, or a drafting turn with a pack. Most turns
/// have none (nor does any turn of a pack without augments).
#[inline(always)]
fn turn_busy(board: &Board, state: &AugmentState, config: &AugmentConfig) -> bool {
    let side = board.current_side();
    let owed = |m: &SideAugments| m.truce_owed | m.payback_owed;
    let drafts = |s: &Side| Slot::at_turn(s.turns).is_some();
    // The two flags at once, and the pack before the board.
    state.draft.is_some()
        || state.side(side).is_some_and(owed)
        || (!config.augments.is_empty() && board.sides().of(side).is_some_and(drafts))
}

/// Whether `done` may set something off or leaves a 업고 달리기 mark to keep up to date
/// (`after_move` does nothing otherwise).
#[inline(always)]
fn move_sets_off(state: &AugmentState, done: &MoveDone) -> bool {
    let Some(mine) = state.side(done.info.side) else {
        return false;
    };
    // Everything needs an augment of the mover that this move can set off, or a mark to
    // keep up to date. The step bonuses and 문턱 낮추기 go by what the side owns, the
    // rest by what it can still use.
    let owned = mine.owned.owned_bits();
    // What it owns, tested alone first: without augments (an empty pack, an early turn)
    // the move is not looked at.
    let can = || mine.owned.usable_bits() | owned & (STEP_BONUSES | Augment::LowThreshold.bit());
    (owned & AFTER_MOVE != 0 && can() & triggers(done) != 0) || any_marks(&state.sides)
}

/// Whether some side has a 업고 달리기 mark (asked after every move).
#[inline(always)]
fn any_marks(sides: &[SideAugments]) -> bool {
    // Two sides in most games: both at once, without a loop.
    match sides {
        [a, b] => a.marks.any() | b.marks.any(),
        sides => sides.iter().any(|s| s.marks.any()),
    }
}

/// Whether `side` has a stack of three or more pieces (철벽 업기).
fn tall_stack(side: &Side) -> bool {
    // Pieces on the board beyond one per held node: a stack of three makes two of them.
    let on_board = side.pieces().len() - side.at_home() - side.finished();
    if on_board < 3 || on_board < side.stacks() + 2 {
        return false;
    }
    let mut held = side.held();
    while held != 0 {
        let node = held.trailing_zeros() as Node;
        if side.stack_on(node) >= 3 {
            return true;
        }
        held &= held - 1;
    }
    false
}

/// Announces that `id` of `side` did `effect`.
// Always inlined, like every function the inlined hooks hand their `Cx` to: a `Cx` passed
// out of line has to be built in memory on every call of the hook, the fast path too (a
// trade made for the rest of `on_result` and `after_result`: see there).
#[inline(always)]
fn fire(cx: &mut Cx<'_, Augments>, side: SideId, id: Source, effect: Effect) {
    cx.emit(AugmentEvent::AugmentFired { side, id, effect });
}

/// Uses up one use of augment `a` of `side` for one more throw, and announces it.
#[inline(always)]
fn extra_throw(cx: &mut Cx<'_, Augments>, side: SideId, a: Augment) {
    spend(cx.state, side, a);
    cx.grant_throw();
    fired(cx, side, a, Effect::ExtraThrows { throws: 1 });
}

/// Announces that augment `a` of `side` did `effect`.
#[inline(always)]
fn fired(cx: &mut Cx<'_, Augments>, side: SideId, a: Augment, effect: Effect) {
    fire(cx, side, Source::Augment(a), effect);
}

impl Augments {
    /// Draws the candidates of `slot` for the current side: `min(3, n)` of the slot's `n`
    /// enabled augments without replacement (a partial Fisher–Yates shuffle of the pool in
    /// table order, with the game RNG). Empty if the slot has none enabled.
    fn draw(cx: &mut Cx<'_, Self>, slot: Slot) -> Candidates {
        let enabled = cx.config.bits() & slot.bits();
        let mut pool = slot.augments();
        let mut n = 0;
        for k in 0..pool.len() {
            if enabled & pool[k].bit() != 0 {
                pool[n] = pool[k];
                n += 1;
            }
        }
        let mut out = Candidates::new();
        for i in 0..n.min(Candidates::MAX) {
            let j = i + cx.below((n - i) as u32) as usize;
            pool.swap(i, j);
            out.push(pool[i]);
        }
        out
    }

    /// A draft left open when its chooser left the game mid-draft: the side takes the
    /// first candidate, as on a timeout (if it still plays).
    fn close_abandoned(cx: &mut Cx<'_, Self>) {
        let Some(draft) = cx.state.draft.take() else {
            return;
        };
        let side = usize::from(draft.side);
        let Some(&first) = draft.candidates.first() else {
            return;
        };
        if cx.board().sides().get(side).is_some_and(|s| s.active())
            && let Some(mine) = cx.state.sides.get_mut(side)
        {
            mine.grant(first);
            cx.emit(AugmentEvent::AugmentChosen {
                side: draft.side,
                seat: None,
                id: first,
                index: 0,
            });
        }
    }
}

impl Augments {
    /// Whether a side that owns 철벽 업기, other than the side to act, has a stack of three
    /// or more (the side to act never captures its own stacks, so its wall forbids nothing).
    fn iron_wall(board: &Board, state: &AugmentState) -> bool {
        let me = usize::from(board.current_side());
        state
            .sides
            .iter()
            .zip(board.sides())
            .enumerate()
            .any(|(i, (mine, side))| i != me && mine.owns(Augment::IronStack) && tall_stack(side))
    }

    /// `forbids_moves` past the truce for other than two sides: whether a side owns 철벽
    /// 업기 and [`Augments::iron_wall`] holds.
    #[inline(never)]
    fn any_wall(board: &Board, state: &AugmentState) -> bool {
        state.sides.iter().any(|mine| mine.owns(Augment::IronStack))
            && Self::iron_wall(board, state)
    }

    /// The rest of `turn_start`, for a side that is owed something or drafts, or with a
    /// draft left open: one call from the hook.
    fn start_turn(cx: &mut Cx<'_, Self>) -> TurnStart {
        if cx.state.draft.is_some() {
            Self::close_abandoned(cx);
        }
        cx.state.barred = None;
        let side = cx.board().current_side();
        let i = usize::from(side);
        if i >= cx.state.sides.len() {
            return TurnStart::Throw;
        }
        if std::mem::take(&mut cx.state.sides[i].truce_owed) {
            cx.state.barred = Some(side);
            fire(
                cx,
                side,
                Source::House(HouseRule::Truce),
                Effect::TruceInForce,
            );
        }
        if std::mem::take(&mut cx.state.sides[i].payback_owed)
            && cx.state.sides[i].can_use(Augment::Payback)
        {
            extra_throw(cx, side, Augment::Payback);
        }
        let Some(slot) = Slot::at_turn(cx.board().sides()[i].turns) else {
            return TurnStart::Throw;
        };
        if cx.state.sides[i].owned.owned_bits() & slot.bits() != 0 {
            return TurnStart::Throw;
        }
        let candidates = Self::draw(cx, slot);
        if candidates.is_empty() {
            return TurnStart::Throw;
        }
        let seat = cx.board().current_seat() as u8;
        cx.emit(AugmentEvent::AugmentOffered {
            side,
            seat,
            slot,
            candidates,
        });
        cx.state.draft = Some(Draft {
            side,
            slot,
            candidates,
        });
        TurnStart::Wait
    }

    /// What `on_result` does: nothing for a side that can use none of [`ON_RESULT`]
    /// (`listens` skips the hook then; a composition may call it anyway).
    // Out of line, like `result_bonus`: inlined, their events' code grows the
    // engine's step past what the compiler inlines into the play-out loop, which costs
    // more than building the `Cx` in memory for the call (see [`fire`]).
    #[inline(never)]
    fn change_result(cx: &mut Cx<'_, Self>, result: &mut Throw) -> OnResult {
        let side = cx.board().current_side();
        if matches!(*result, Throw::Do | Throw::Backdo)
            && can_use(cx.state, side, Augment::SecondLook)
        {
            spend(cx.state, side, Augment::SecondLook);
            fired(
                cx,
                side,
                Augment::SecondLook,
                Effect::Rethrow { result: *result },
            );
            return OnResult::Rethrow;
        }
        let substitute = |cx: &mut Cx<'_, Self>, a: Augment, to: Throw, result: &mut Throw| {
            fired(cx, side, a, Effect::Substituted { from: *result, to });
            *result = to;
        };
        if *result == Throw::Backdo && can_use(cx.state, side, Augment::EraseBackdo) {
            substitute(cx, Augment::EraseBackdo, Throw::Do, result);
        }
        if can_use(cx.state, side, Augment::ComebackWind) && behind(cx.board(), side) {
            match *result {
                Throw::Do => substitute(cx, Augment::ComebackWind, Throw::Gae, result),
                Throw::Backdo => substitute(cx, Augment::ComebackWind, Throw::Do, result),
                _ => {}
            }
        }
        if matches!(*result, Throw::Do | Throw::Gae)
            && can_use(cx.state, side, Augment::OneLineWind)
        {
            spend(cx.state, side, Augment::OneLineWind);
            substitute(cx, Augment::OneLineWind, Throw::Geol, result);
        }
        OnResult::Keep
    }

    /// What `after_result` does: nothing for a side that can use none of
    /// [`AFTER_RESULT`].
    #[inline(never)]
    fn result_bonus(cx: &mut Cx<'_, Self>, result: Throw) {
        let side = cx.board().current_side();
        let Some(mine) = cx.state.side_mut(side) else {
            return;
        };
        if result == Throw::Do && mine.can_use(Augment::DoEcho) {
            extra_throw(cx, side, Augment::DoEcho);
        } else if result == Throw::Mo && mine.can_use(Augment::MoBonus) {
            mine.spend(Augment::MoBonus);
            cx.add_result(Throw::Do);
            fired(
                cx,
                side,
                Augment::MoBonus,
                Effect::ExtraResult { result: Throw::Do },
            );
        }
    }

    /// What `after_move` does: nothing unless the mover can use one of [`AFTER_MOVE`] that
    /// the move sets off, or some side has a mark.
    // `done` by value: the hook's copy then stays in registers on the fast path (by
    // reference, every move stores it field by field for this rare call).
    fn move_done(cx: &mut Cx<'_, Self>, done: MoveDone) {
        let side = done.info.side;
        // A rule's carry is no move of the player's: it sets off no augment, and only the
        // marks follow it.
        let usable = if done.carried {
            0
        } else {
            cx.state.side(side).map_or(0, |m| m.owned.usable_bits())
        };
        let forward = !done.info.result.is_backdo() && !done.carried;
        let finished_all = all_done(cx.board(), side);
        // What shaped the move itself is announced even when it finished the side's last
        // piece; what it would give afterwards (throws, marks) is not.
        if usable & Augment::TwinEntry.bit() != 0
            && done.info.from.node().is_none()
            && done.info.count >= 2
            && can_use(cx.state, side, Augment::TwinEntry)
        {
            spend(cx.state, side, Augment::TwinEntry);
            fired(
                cx,
                side,
                Augment::TwinEntry,
                Effect::TwinEntry {
                    count: done.info.count,
                },
            );
        }
        if forward && usable & (STEP_BONUSES | Augment::LowThreshold.bit()) != 0 {
            let bonuses = cx
                .state
                .side(side)
                .map_or([None; 4], |m| step_bonuses(m, &done.info));
            for a in bonuses.into_iter().flatten() {
                fired(
                    cx,
                    side,
                    a,
                    Effect::ExtraSteps {
                        steps: 1,
                        from: done.info.from,
                    },
                );
            }
            if done.to == To::GOAL && owns(cx.state, side, Augment::LowThreshold) {
                // Where the move would have stopped without 문턱 낮추기 (the end of a
                // forward walk does not depend on the trail).
                let steps = done.info.result.steps() as u8 + bonuses.iter().flatten().count() as u8;
                let walk = yut::movement::forward(cx.board().options(), done.info.from, steps);
                if let To::Node(n) = walk.to
                    && yut::movement::one_short(cx.board().options(), n)
                {
                    fired(
                        cx,
                        side,
                        Augment::LowThreshold,
                        Effect::FinishedShort { node: n },
                    );
                }
            }
        }
        if !finished_all && usable & CLAPS != 0 {
            if let To::Node(n) = done.to
                && is_corner(n)
                && can_use(cx.state, side, Augment::CornerClap)
            {
                extra_throw(cx, side, Augment::CornerClap);
            }
            if done.to == To::GOAL && can_use(cx.state, side, Augment::GoalCheer) {
                extra_throw(cx, side, Augment::GoalCheer);
            }
        }
        // 업고 달리기: a forward move spends the mark, a backdo or a rule's carry takes it
        // along.
        if let Some(from) = done.info.from.node()
            && let Some(m) = cx.state.side_mut(side)
            && m.marks.contains(from)
        {
            let marks = &mut m.marks;
            if marks.remove(from)
                && let (false, To::Node(to)) = (forward, done.to)
            {
                marks.insert(to);
            }
        }
        if let (true, To::Node(to), false) = (done.stacked, done.to, finished_all)
            && usable & Augment::PiggybackDash.bit() != 0
        {
            if let Some(m) = cx.state.side_mut(side) {
                m.marks.insert(to);
            }
            fired(
                cx,
                side,
                Augment::PiggybackDash,
                Effect::Marked { node: to },
            );
        }
        // A mark lives only as long as its stack (captured stacks lose theirs).
        if any_marks(&cx.state.sides) {
            let (board, state) = cx.parts();
            for (s, mine) in state.sides.iter_mut().enumerate() {
                // Marks all on held nodes stay as they are: no need to rebuild them.
                if let Some(board_side) = board.sides().get(s)
                    && !mine.marks.all_held(board_side.held())
                {
                    mine.marks.retain(|m| board_side.holds(m));
                }
            }
        }
    }
}

/// A side's part of the layer in a new game: nothing owned, the house rules' cushion and
/// truce as configured.
#[inline(always)]
fn new_side(config: &AugmentConfig) -> SideAugments {
    SideAugments {
        cushion: config.cushion,
        truce: config.truce,
        ..SideAugments::default()
    }
}

impl Rules for Augments {
    type Config = AugmentConfig;
    type Options = AugmentOptions;
    type State = AugmentState;
    type Action = AugmentAction;
    type Event = AugmentEvent;
    type View = AugmentView;

    fn id(&self) -> &'static str {
        "yut-augments"
    }

    fn validate_config(&self, config: &AugmentConfig, _base: &YutOptions) -> Result<(), YutError> {
        config.validate()
    }

    fn setup(&self, config: &AugmentConfig, board: &Board) -> AugmentState {
        let mut state = AugmentState::default();
        self.setup_into(config, board, &mut state);
        state
    }

    /// The same state, its per-side list refilled in its buffer.
    fn setup_into(&self, config: &AugmentConfig, board: &Board, state: &mut AugmentState) {
        // Every field by name: one added to the state must be set here too.
        let AugmentState {
            sides,
            draft,
            barred,
        } = state;
        sides.refill(board.sides().len(), |_, side| *side = new_side(config));
        *draft = None;
        *barred = None;
    }

    fn check_state(
        &self,
        config: &AugmentConfig,
        state: &AugmentState,
        board: &Board,
    ) -> Result<(), String> {
        state.check(config, board)
    }

    /// The hooks' own first tests, asked before their context is made: in most turns and
    /// moves of most games no augment has anything to do.
    #[inline(always)]
    fn listens(
        &self,
        board: &Board,
        state: &AugmentState,
        config: &AugmentConfig,
        hook: Hook<'_>,
    ) -> bool {
        match hook {
            // Starting a turn always lifts the truce of the last.
            Hook::TurnStart => state.barred.is_some() || turn_busy(board, state, config),
            Hook::OnResult(_) => can_use_any(board, state, ON_RESULT),
            Hook::AfterResult(_) => can_use_any(board, state, AFTER_RESULT),
            Hook::AfterMove(done) => move_sets_off(state, done),
            // The capture hooks (a capture is rare) and any hook added later: called, to
            // make their own tests.
            _ => true,
        }
    }

    /// In order: a draft left open by a chooser who left is closed; the truce owed to this
    /// side takes force for this whole turn; 되갚을 손 adds its throw; then the draft of the
    /// side's 1st, 6th or 12th turn waits for `CHOOSE_AUGMENT`.
    #[inline]
    fn turn_start(&self, cx: &mut Cx<'_, Self>) -> TurnStart {
        if turn_busy(cx.board(), cx.state, cx.config) {
            return Self::start_turn(cx);
        }
        cx.state.barred = None;
        TurnStart::Throw
    }

    fn validate_action(
        &self,
        board: &Board,
        state: &AugmentState,
        _seat: usize,
        action: &AugmentAction,
    ) -> Result<(), YutError> {
        let AugmentAction::ChooseAugment { index } = *action;
        let Some(draft) = state
            .draft
            .as_ref()
            .filter(|d| d.side == board.current_side())
        else {
            return Err(no_draft());
        };
        if index as usize >= draft.candidates.len() {
            return Err(unknown_candidate(index, draft.candidates.len()));
        }
        Ok(())
    }

    fn waiting(&self, _board: &Board, state: &AugmentState) -> bool {
        state.draft.is_some()
    }

    fn apply_action(
        &self,
        cx: &mut Cx<'_, Self>,
        seat: usize,
        action: &AugmentAction,
    ) -> TurnStart {
        let AugmentAction::ChooseAugment { index } = *action;
        let Some(draft) = cx.state.draft.take() else {
            return TurnStart::Throw;
        };
        let Some(&id) = draft.candidates.get(index as usize) else {
            cx.state.draft = Some(draft);
            return TurnStart::Wait;
        };
        if let Some(mine) = cx.state.sides.get_mut(usize::from(draft.side)) {
            mine.grant(id);
        }
        cx.emit(AugmentEvent::AugmentChosen {
            side: draft.side,
            seat: Some(seat as u8),
            id,
            index: index as u8,
        });
        TurnStart::Throw
    }

    fn legal_actions(
        &self,
        _board: &Board,
        state: &AugmentState,
        _seat: usize,
    ) -> Vec<AugmentAction> {
        state.draft.as_ref().map_or_else(Vec::new, |d| {
            (0..d.candidates.len() as u32)
                .map(|index| AugmentAction::ChooseAugment { index })
                .collect()
        })
    }

    /// One choice a candidate, without the list.
    fn legal_action_count(&self, _board: &Board, state: &AugmentState, _seat: usize) -> usize {
        state.draft.as_ref().map_or(0, |d| d.candidates.len())
    }

    fn legal_action(
        &self,
        _board: &Board,
        state: &AugmentState,
        _seat: usize,
        index: usize,
    ) -> Option<AugmentAction> {
        let d = state.draft.as_ref()?;
        let index = u32::try_from(index)
            .ok()
            .filter(|&i| (i as usize) < d.candidates.len())?;
        Some(AugmentAction::ChooseAugment { index })
    }

    /// The first candidate (the crate README, The draft).
    fn timeout_action(
        &self,
        _board: &Board,
        state: &AugmentState,
        _seat: usize,
    ) -> Option<AugmentAction> {
        state
            .draft
            .as_ref()
            .map(|_| AugmentAction::ChooseAugment { index: 0 })
    }

    /// The fixed order: the rethrow (다시 보기) first; then the substitutions, each at most
    /// once per result and chaining: 뒷길 지우기 (빽도 → 도), 뒤집기 바람 (도 → 개,
    /// 빽도 → 도), 한 줄 바람 (도 or 개 → 걸).
    // No test of its own: `listens` asked `can_use_any` just before, and where a
    // composition calls it anyway, `change_result` tests each augment itself.
    #[inline]
    fn on_result(&self, cx: &mut Cx<'_, Self>, result: &mut Throw) -> OnResult {
        Self::change_result(cx, result)
    }

    /// The bonuses on the final result: 도의 메아리 (one more throw), 모의 덤 (an extra 도
    /// in the pending results, which is not a throw and triggers nothing).
    // No test of its own, as `on_result`: `result_bonus` tests each augment itself.
    #[inline]
    fn after_result(&self, cx: &mut Cx<'_, Self>, result: Throw) {
        Self::result_bonus(cx, result);
    }

    /// 철벽 업기 (an opponent's stack of three or more that owns it cannot be stopped on)
    /// and the truce (the barred side cannot stop on another side's piece).
    /// Only a truce in force or a 철벽 업기 stack of three can forbid a move.
    // Always inlined: asked before every listing and check of moves, and answered from a
    // few loads in most games.
    #[inline(always)]
    fn forbids_moves(&self, board: &Board, state: &AugmentState) -> bool {
        if state.barred.is_some() {
            return true;
        }
        // Two sides in most games: their bits without a loop (a fold over the slice costs
        // three times as much). Other counts out of line: the engine asks this in four
        // places, and the loop's code in each costs the play-out more than the call.
        match state.sides.as_slice() {
            [a, b] => {
                (a.owned.owned_bits() | b.owned.owned_bits()) & Augment::IronStack.bit() != 0
                    && Self::iron_wall(board, state)
            }
            _ => Self::any_wall(board, state),
        }
    }

    // Inline: asked for every move listed or checked while a truce or a 철벽 업기 may
    // forbid one.
    #[inline]
    fn allows_move(&self, board: &Board, state: &AugmentState, info: &MoveInfo, to: To) -> bool {
        let Some(node) = to.node() else {
            return true;
        };
        let Some(victim) = board.occupant(node).filter(|&v| v != info.side) else {
            return true;
        };
        if state.barred == Some(info.side) {
            return false;
        }
        let iron = owns(state, victim, Augment::IronStack);
        let tall = |s: &Side| s.stack_on(node) >= 3;
        !(iron && board.sides().of(victim).is_some_and(tall))
    }

    /// 쌍둥이 입장: two enter together while two or more wait and a use is left.
    #[inline]
    fn enter_count(&self, board: &Board, state: &AugmentState, side: SideId) -> u8 {
        let twin = can_use(state, side, Augment::TwinEntry);
        let waiting = |s: &Side| s.at_home() >= 2;
        if twin && board.sides().of(side).is_some_and(waiting) {
            2
        } else {
            1
        }
    }

    // Always inlined, like `finishes_short`: asked for every walk the engine tries.
    #[inline(always)]
    fn extra_steps(&self, _board: &Board, state: &AugmentState, info: &MoveInfo) -> u8 {
        match state.side(info.side) {
            Some(m) if m.owned.owned_bits() & STEP_BONUSES != 0 => step_count(m, info),
            _ => 0,
        }
    }

    /// 문턱 낮추기.
    #[inline(always)]
    fn finishes_short(
        &self,
        _board: &Board,
        state: &AugmentState,
        info: &MoveInfo,
        _node: Node,
    ) -> bool {
        owns(state, info.side, Augment::LowThreshold)
    }

    /// The truce and 되갚을 손 are armed by the capture; then a cushion (the house rule's
    /// first, then 푹신한 깔개's) sends the stack to node 1, and is spent even if another
    /// side holds node 1 (then the engine sends the stack home).
    // Always inlined whole, events and all: out of line (or with only a fast exit inline),
    // the engine's capture step shrinks enough to be inlined into the move, and the step
    // then outgrows what the compiler inlines into the play-out loop.
    #[inline(always)]
    fn capture_to(&self, cx: &mut Cx<'_, Self>, victim: SideId, count: u8) -> CaptureTo {
        let capturer = cx.board().current_side();
        let v = usize::from(victim);
        if v >= cx.state.sides.len() || usize::from(capturer) >= cx.state.sides.len() {
            return CaptureTo::Home;
        }
        if cx.state.sides[v].can_use(Augment::Payback) && !cx.state.sides[v].payback_owed {
            cx.state.sides[v].payback_owed = true;
            fired(cx, victim, Augment::Payback, Effect::Armed);
        }
        if cx.state.sides[v].truce && cx.board().sides()[v].lost >= 2 {
            cx.state.sides[v].truce = false;
            cx.state.sides[usize::from(capturer)].truce_owed = true;
            fire(
                cx,
                victim,
                Source::House(HouseRule::Truce),
                Effect::TruceCalled { barred: capturer },
            );
        }
        let mine = &mut cx.state.sides[v];
        let source = if mine.cushion {
            mine.cushion = false;
            Source::House(HouseRule::Cushion)
        } else if mine.can_use(Augment::SoftLanding) {
            mine.spend(Augment::SoftLanding);
            Source::Augment(Augment::SoftLanding)
        } else {
            return CaptureTo::Home;
        };
        // The engine's test, with the capturer already landed.
        let blocked = cx
            .board()
            .sides()
            .iter()
            .enumerate()
            .any(|(i, s)| i != v && s.holds(FIRST));
        let to = if blocked { To::HOME } else { To::Node(FIRST) };
        fire(cx, victim, source, Effect::Cushioned { to, count, blocked });
        CaptureTo::Node(FIRST)
    }

    /// 사냥 두 번: one more throw, only where the capture earns a bonus at all.
    #[inline(always)]
    fn capture_bonus(&self, cx: &mut Cx<'_, Self>, info: &MoveInfo, base: u8) -> u8 {
        let side = info.side;
        match cx.state.side_mut(side) {
            Some(mine) if base > 0 && mine.can_use(Augment::DoubleHunt) => {
                mine.spend(Augment::DoubleHunt);
                fired(
                    cx,
                    side,
                    Augment::DoubleHunt,
                    Effect::ExtraThrows { throws: 1 },
                );
                base.saturating_add(1)
            }
            _ => base,
        }
    }

    /// What a move set off: 쌍둥이 입장 spent, the step bonuses announced, 문턱 낮추기,
    /// 모서리 박수 and 골인 환호, and the 업고 달리기 marks kept up to date.
    // No test of its own, as `on_result`: `move_done` tests each augment and mark itself.
    #[inline]
    fn after_move(&self, cx: &mut Cx<'_, Self>, done: &MoveDone) {
        Self::move_done(cx, *done);
    }

    fn view(&self, board: &Board, state: &AugmentState) -> AugmentView {
        AugmentView::of(board, state)
    }
}

/// Where a forward move of `side`'s stack at `from` with `result` goes under the layer's
/// step bonuses, for hosts that preview moves outside the move phase. The engine's
/// `legalMoves` already include the bonuses.
///
/// ```
/// use yut_augments::{Augment, AugmentState, SideAugments};
/// let sides = yut::SideList::from_vec(vec![SideAugments::default(); 2]).unwrap();
/// let mut state = AugmentState { sides, ..Default::default() };
/// state.sides[0].grant(Augment::YutLeap);
/// assert_eq!(yut_augments::bonus_steps(&state, 0, yut::Origin::Node(3), 1, yut::Throw::Yut), 1);
/// assert_eq!(yut_augments::bonus_steps(&state, 1, yut::Origin::Node(3), 1, yut::Throw::Yut), 0);
/// ```
pub fn bonus_steps(
    state: &AugmentState,
    side: SideId,
    from: Origin,
    count: u8,
    result: Throw,
) -> u8 {
    if result.is_backdo() {
        return 0;
    }
    let info = MoveInfo {
        side,
        result,
        from,
        count,
    };
    state.side(side).map_or(0, |mine| step_count(mine, &info))
}
