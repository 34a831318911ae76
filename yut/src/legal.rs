//! Legal moves: every `{throwIndex, from, to, captures, finishes}` the player to act has,
//! with the path the UI previews.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::board::Node;
use crate::state::{PieceStatus, SideId};
use crate::{Nodes, Origin, Rules, Throw, To, Yut, YutState};

/// One legal move, as section 8.3 lists it, plus its path.
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
    pub path: Nodes,
    /// The result used (not on the wire list of 8.3, but convenient for display).
    pub result: Throw,
    /// Whether it joins the side's own stack.
    pub stacks: bool,
}

impl<R: Rules> Yut<R> {
    /// Every origin of `side`: home if a piece waits, then each node with a stack, in
    /// node order. Written into a fixed buffer; returns how many.
    #[inline]
    fn origins(state: &YutState<R>, side: SideId, out: &mut [Origin; 6]) -> usize {
        let pieces = &state.board.sides[usize::from(side)].pieces;
        let mut nodes: [Node; 5] = [u8::MAX; 5];
        let mut n = 0;
        let mut home = false;
        for p in pieces {
            match p.status {
                PieceStatus::Home => home = true,
                PieceStatus::Board => {
                    if let Some(node) = p.node
                        && !nodes[..n].contains(&node)
                        && n < 5
                    {
                        nodes[n] = node;
                        n += 1;
                    }
                }
                PieceStatus::Done => {}
            }
        }
        nodes[..n].sort_unstable();
        let mut k = 0;
        for &node in &nodes[..n] {
            out[k] = Origin::Node(node);
            k += 1;
        }
        if home {
            out[k] = Origin::HOME;
            k += 1;
        }
        k
    }

    /// The move of `side`'s stack at `from` with pending result `throw_index`, if legal.
    #[inline]
    pub(crate) fn legal_move(
        &self,
        state: &YutState<R>,
        side: SideId,
        throw_index: usize,
        from: Origin,
    ) -> Option<LegalMove> {
        let result = *state.board.pending.get(throw_index)?;
        if result.is_backdo() && from.node().is_none() {
            return None;
        }
        let (walk, info) = self.walk(state, side, from, result)?;
        if !self
            .rules
            .allows_move(&state.board, &state.rules, &info, walk.to)
        {
            return None;
        }
        let (captures, stacks) = match walk.to {
            To::Node(node) => match state.board.occupant(node) {
                Some(s) if s != side => (
                    state.board.sides[usize::from(s)].stack_on(node) as u8,
                    false,
                ),
                Some(_) => (0, true),
                None => (0, false),
            },
            To::Off(_) => (0, false),
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
    /// use game_core::Game;
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
        for i in 0..state.board.pending.len() {
            for &from in &origins[..k] {
                if let Some(m) = self.legal_move(state, side, i, from) {
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

    /// Whether `side` may move its stack at `from` with pending result `throw_index`;
    /// `forbids` is [`Rules::forbids_moves`] of this state. Without it this needs no walk:
    /// only a backdo from home (or a missing stack, or index) is illegal.
    #[inline]
    pub(crate) fn is_legal(
        &self,
        state: &YutState<R>,
        forbids: bool,
        side: SideId,
        throw_index: usize,
        from: Origin,
    ) -> bool {
        if forbids {
            return self.legal_move(state, side, throw_index, from).is_some();
        }
        let Some(result) = state.board.pending.get(throw_index) else {
            return false;
        };
        !(result.is_backdo() && from.node().is_none())
            && crate::movement::stack_at(&state.board, side, from).is_some()
    }

    /// Calls `f` with every legal `(throwIndex, from)` of the player to act, in the order
    /// of [`Yut::legal_moves_into`], until `f` returns `true`; returns whether it did.
    #[inline]
    pub(crate) fn find_legal(
        &self,
        state: &YutState<R>,
        mut f: impl FnMut(u32, Origin) -> bool,
    ) -> bool {
        let side = state.board.current_side();
        let mut origins = [Origin::HOME; 6];
        let k = Self::origins(state, side, &mut origins);
        let forbids = self.rules.forbids_moves(&state.board, &state.rules);
        (0..state.board.pending.len()).any(|i| {
            origins[..k]
                .iter()
                .any(|&from| self.is_legal(state, forbids, side, i, from) && f(i as u32, from))
        })
    }

    /// Whether the player to act has any legal move with the pending results.
    #[inline]
    pub(crate) fn any_legal_move(&self, state: &YutState<R>) -> bool {
        self.find_legal(state, |_, _| true)
    }
}
