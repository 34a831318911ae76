//! [`Named`]: a rule set (usually a composition) under an id and format version of its own.

use std::fmt::Debug;

use super::{CaptureTo, Cx, Hook, MoveDone, MoveInfo, OnResult, Rules, TurnStart};
use crate::graph::Node;
use crate::state::{Board, SideId};
use crate::{Throw, To, YutError, YutOptions};

/// An id and format version for [`Named`], as constants of a (zero-sized) type, so that
/// the named rule set is still a plain `Default` value like every rule set.
pub trait RuleName: Clone + Copy + Debug + Default + PartialEq + Send + Sync + 'static {
    /// The id the rule set registers and records under.
    const ID: &'static str;
    /// The version of its saved formats ([`Rules::format_version`]).
    const FORMAT_VERSION: u32;
}

/// The rules `R` under the id and version of `N`: every hook is `R`'s.
///
/// A composition's id is otherwise made of its parts' (`"yut-augments+lucky-seven"`); a
/// modder who publishes one names it, and from then on raises its version on their own
/// schedule.
///
/// ```
/// use game_core::{Game, GameExt};
/// use yut::rules::{Named, RuleName};
/// use yut::{Standard, Yut};
///
/// #[derive(Clone, Copy, Debug, Default, PartialEq)]
/// struct HouseYut;
///
/// impl RuleName for HouseYut {
///     const ID: &'static str = "house-yut";
///     const FORMAT_VERSION: u32 = 3;
/// }
///
/// let game = Yut::new(Named::<(Standard, Standard), HouseYut>::default());
/// assert_eq!(game.id(), "house-yut");
/// assert_eq!(game.format_version(), 3);
/// assert_eq!(Yut::new((Standard, Standard)).id(), "yut+yut");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Named<R, N> {
    /// The rules played.
    pub rules: R,
    /// Their name.
    pub name: N,
}

/// Runs `f` with the inner rules' view of the context (the same parts: the types agree).
fn inner<R: Rules, N: RuleName, T>(
    cx: &mut Cx<'_, Named<R, N>>,
    f: impl FnOnce(&mut Cx<'_, R>) -> T,
) -> T {
    f(&mut Cx {
        board: &mut *cx.board,
        state: &mut *cx.state,
        config: cx.config,
        out: &mut *cx.out,
        carry: cx.carry.as_deref_mut(),
    })
}

impl<R: Rules, N: RuleName> Rules for Named<R, N> {
    type Config = R::Config;
    type Options = R::Options;
    type State = R::State;
    type Action = R::Action;
    type Event = R::Event;
    type View = R::View;

    fn id(&self) -> &'static str {
        N::ID
    }

    fn format_version(&self) -> u32 {
        N::FORMAT_VERSION
    }

    fn validate_config(&self, config: &R::Config, base: &YutOptions) -> Result<(), YutError> {
        self.rules.validate_config(config, base)
    }

    fn setup(&self, config: &R::Config, board: &Board) -> R::State {
        self.rules.setup(config, board)
    }

    fn setup_into(&self, config: &R::Config, board: &Board, state: &mut R::State) {
        self.rules.setup_into(config, board, state);
    }

    fn check_state(
        &self,
        config: &R::Config,
        state: &R::State,
        board: &Board,
    ) -> Result<(), String> {
        self.rules.check_state(config, state, board)
    }

    #[inline(always)]
    fn listens(&self, board: &Board, state: &R::State, config: &R::Config, hook: Hook<'_>) -> bool {
        self.rules.listens(board, state, config, hook)
    }

    fn turn_start(&self, cx: &mut Cx<'_, Self>) -> TurnStart {
        inner(cx, |c| self.rules.turn_start(c))
    }

    fn validate_action(
        &self,
        board: &Board,
        state: &R::State,
        seat: usize,
        action: &R::Action,
    ) -> Result<(), YutError> {
        self.rules.validate_action(board, state, seat, action)
    }

    fn waiting(&self, board: &Board, state: &R::State) -> bool {
        self.rules.waiting(board, state)
    }

    fn apply_action(&self, cx: &mut Cx<'_, Self>, seat: usize, action: &R::Action) -> TurnStart {
        inner(cx, |c| self.rules.apply_action(c, seat, action))
    }

    fn legal_actions(&self, board: &Board, state: &R::State, seat: usize) -> Vec<R::Action> {
        self.rules.legal_actions(board, state, seat)
    }

    fn legal_action_count(&self, board: &Board, state: &R::State, seat: usize) -> usize {
        self.rules.legal_action_count(board, state, seat)
    }

    fn legal_action(
        &self,
        board: &Board,
        state: &R::State,
        seat: usize,
        index: usize,
    ) -> Option<R::Action> {
        self.rules.legal_action(board, state, seat, index)
    }

    fn timeout_action(&self, board: &Board, state: &R::State, seat: usize) -> Option<R::Action> {
        self.rules.timeout_action(board, state, seat)
    }

    fn on_result(&self, cx: &mut Cx<'_, Self>, result: &mut Throw) -> OnResult {
        inner(cx, |c| self.rules.on_result(c, result))
    }

    fn after_result(&self, cx: &mut Cx<'_, Self>, result: Throw) {
        inner(cx, |c| self.rules.after_result(c, result));
    }

    fn forbids_moves(&self, board: &Board, state: &R::State) -> bool {
        self.rules.forbids_moves(board, state)
    }

    fn allows_move(&self, board: &Board, state: &R::State, info: &MoveInfo, to: To) -> bool {
        self.rules.allows_move(board, state, info, to)
    }

    fn enter_count(&self, board: &Board, state: &R::State, side: SideId) -> u8 {
        self.rules.enter_count(board, state, side)
    }

    fn extra_steps(&self, board: &Board, state: &R::State, info: &MoveInfo) -> u8 {
        self.rules.extra_steps(board, state, info)
    }

    fn finishes_short(&self, board: &Board, state: &R::State, info: &MoveInfo, node: Node) -> bool {
        self.rules.finishes_short(board, state, info, node)
    }

    fn capture_to(&self, cx: &mut Cx<'_, Self>, victim: SideId, count: u8) -> CaptureTo {
        inner(cx, |c| self.rules.capture_to(c, victim, count))
    }

    fn capture_bonus(&self, cx: &mut Cx<'_, Self>, info: &MoveInfo, base: u8) -> u8 {
        inner(cx, |c| self.rules.capture_bonus(c, info, base))
    }

    fn after_move(&self, cx: &mut Cx<'_, Self>, done: &MoveDone) {
        inner(cx, |c| self.rules.after_move(c, done));
    }

    fn view(&self, board: &Board, state: &R::State) -> R::View {
        self.rules.view(board, state)
    }
}
