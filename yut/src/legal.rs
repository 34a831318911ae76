//! Legal moves: every `{throwIndex, from, to, captures, finishes}` the player to act has,
//! with the path the UI previews.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::graph::Node;
use crate::movement::Walk;
use crate::state::SideId;
use crate::{Origin, Path, Rules, Throw, To, Trail, Yut, YutState};

/// One legal move, with its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegalMove {
    /// Index into the pending results.
    pub throw_index: u32,
    /// The stack's node, or `"home"`.
    pub from: Origin,
    /// Where it ends: a node, `"goal"`, or `"home"` (backdo with `backdoFromDo = home`).
    pub to: To,
    /// Opponent pieces captured (0 for none).
    pub captures: u8,
    /// Whether the stack finishes.
    pub finishes: bool,
    /// The start (if on the board) and every node stepped on.
    pub path: Path,
    /// The result used (for display).
    pub result: Throw,
    /// Whether it joins the side's own stack.
    pub stacks: bool,
}

impl<R: Rules> Yut<R> {
    /// Every origin of `side`: each node with a stack, in node order, then home if a piece
    /// waits. Written into a fixed buffer; returns how many.
    ///
    /// The side's index holds its nodes as a bit set (the board has 29), so the order
    /// comes from the bits, with no scan, sort or duplicate search.
    #[inline]
    fn origins(state: &YutState<R>, side: SideId, out: &mut [Origin; 6]) -> usize {
        let Some(s) = state.board.sides.get(usize::from(side)) else {
            return 0;
        };
        let mut nodes = s.held();
        let home = s.at_home() > 0;
        let mut k = 0;
        // At most five stacks fit (a side has at most five pieces), so out never overflows.
        while nodes != 0 && k < 5 {
            out[k] = Origin::Node(nodes.trailing_zeros() as Node);
            nodes &= nodes - 1;
            k += 1;
        }
        if home {
            out[k] = Origin::HOME;
            k += 1;
        }
        k
    }

    /// Whether the move of `side`'s stack at `from` with pending result `throw_index` is
    /// legal, without the fields a listing shows (whom it captures, whether it stacks):
    /// what a search for legal moves and the check of a move ask.
    #[inline]
    pub(crate) fn is_legal_move(
        &self,
        state: &YutState<R>,
        side: SideId,
        throw_index: usize,
        from: Origin,
    ) -> bool {
        crate::movement::stack_at(&state.board, side, from).is_some_and(|stack| {
            self.allowed_walk(state, side, throw_index, from, stack)
                .is_some()
        })
    }

    /// The walk and result of the move of a stack already found (`stack` as
    /// [`crate::movement::stack_at`] gives it), if the base rules and the rule set allow it.
    #[inline(always)]
    fn allowed_walk(
        &self,
        state: &YutState<R>,
        side: SideId,
        throw_index: usize,
        from: Origin,
        stack: (u8, Trail),
    ) -> Option<(Walk, Throw)> {
        let result = *state.board.pending.get(throw_index)?;
        if result.is_backdo() && from.node().is_none() {
            return None;
        }
        let (walk, info) = self.walk(state, side, from, stack, result)?;
        self.rules
            .allows_move(&state.board, &state.rules, &info, walk.to)
            .then_some((walk, result))
    }

    /// The legal move of a stack already found (`stack` as [`crate::movement::stack_at`]
    /// gives it), with what a listing shows, if the move is legal.
    #[inline]
    fn legal_move_of(
        &self,
        state: &YutState<R>,
        side: SideId,
        throw_index: usize,
        from: Origin,
        stack: (u8, Trail),
    ) -> Option<LegalMove> {
        let (walk, result) = self.allowed_walk(state, side, throw_index, from, stack)?;
        let board = &state.board;
        let (captures, stacks) = match walk.to.node() {
            Some(n) => match board.occupant(n) {
                Some(s) if s != side => (board.sides[usize::from(s)].stack_on(n) as u8, false),
                Some(_) => (0, true),
                None => (0, false),
            },
            None => (0, false),
        };
        Some(LegalMove {
            throw_index: throw_index as u32,
            from,
            to: walk.to,
            captures,
            finishes: walk.to == To::GOAL,
            path: walk.path,
            result,
            stacks,
        })
    }

    /// Writes the legal moves of the player to act into `out` (cleared first), ordered by
    /// throw index, then node, home last. Empty outside the move phase.
    ///
    /// ```
    /// use game_core::{Game, GameExt};
    /// let game = yut::Yut::standard();
    /// let state = game.setup(&yut::YutOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// let mut moves = Vec::new();
    /// game.legal_moves_into(&state, &mut moves);
    /// assert!(moves.is_empty()); // the first action is a throw
    /// ```
    pub fn legal_moves_into(&self, state: &YutState<R>, out: &mut Vec<LegalMove>) {
        out.clear();
        if state.board.phase != crate::Phase::Move {
            return;
        }
        let side = state.board.current_side();
        let mut origins = [Origin::HOME; 6];
        let k = Self::origins(state, side, &mut origins);
        // Each stack is looked up once, not once per result.
        let mut stacks = [(0u8, Trail::EMPTY); 6];
        for (stack, &from) in stacks.iter_mut().zip(&origins[..k]) {
            *stack = crate::movement::stack_at(&state.board, side, from).unwrap_or_default();
        }
        for i in 0..state.board.pending.len() {
            for (&from, &stack) in origins[..k].iter().zip(&stacks) {
                if let Some(m) = self.legal_move_of(state, side, i, from, stack) {
                    out.push(m);
                }
            }
        }
    }

    /// The legal moves of the player to act (see [`Yut::legal_moves_into`]).
    pub fn legal_moves(&self, state: &YutState<R>) -> Vec<LegalMove> {
        let mut out = Vec::new();
        self.legal_moves_into(state, &mut out);
        out
    }

    /// Calls `f` with every legal `(throwIndex, from)` of the player to act, in the order
    /// of [`Yut::legal_moves_into`], until `f` returns `true`; returns whether it did.
    #[inline]
    pub(crate) fn find_legal(
        &self,
        state: &YutState<R>,
        f: impl FnMut(u32, Origin) -> bool,
    ) -> bool {
        let forbids = self.rules.forbids_moves(&state.board, &state.rules);
        self.find_legal_with(state, forbids, f)
    }

    /// [`Yut::find_legal`] with [`Rules::forbids_moves`] of this state already asked.
    #[inline]
    pub(crate) fn find_legal_with(
        &self,
        state: &YutState<R>,
        forbids: bool,
        mut f: impl FnMut(u32, Origin) -> bool,
    ) -> bool {
        let side = state.board.current_side();
        let mut origins = [Origin::HOME; 6];
        let k = Self::origins(state, side, &mut origins);
        let origins = &origins[..k];
        if forbids {
            return (0..state.board.pending.len()).any(|i| {
                origins
                    .iter()
                    .any(|&from| self.is_legal_move(state, side, i, from) && f(i as u32, from))
            });
        }
        // Every origin holds a stack of the side, so only a backdo from home is illegal.
        state.board.pending.iter().enumerate().any(|(i, result)| {
            origins
                .iter()
                .filter(|from| !(result.is_backdo() && from.node().is_none()))
                .any(|&from| f(i as u32, from))
        })
    }

    /// Whether the player to act has any legal move with the pending results.
    // Always: under the augment layer the compiler kept it out of line, which cost the
    // augment packs' play-outs (not the standard rules').
    #[inline(always)]
    pub(crate) fn any_legal_move(&self, state: &YutState<R>) -> bool {
        let board = &state.board;
        if board.pending.is_empty() {
            return false;
        }
        if self.rules.forbids_moves(board, &state.rules) {
            return self.find_legal_with(state, true, |_, _| true);
        }
        // Without forbidding rules: any stack on the board can use any result (a backdo
        // steps back along its trail), and a waiting piece any forward result.
        let side = board.sides.slot(board.current_side());
        side.on_board() || (side.at_home() > 0 && board.pending.iter().any(|r| !r.is_backdo()))
    }
}
