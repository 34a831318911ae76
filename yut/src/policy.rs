//! The timeout policy (RULES.md, The timeout policy): the move the engine makes for a
//! player whose time ran out. It also serves as the hint and as a simple bot.

use crate::{LegalMove, Origin, Rules, Yut, YutState};

/// Orders origins as the tie-break says: lower node first, home last.
fn origin_key(from: Origin) -> u16 {
    from.node().map_or(u16::MAX, u16::from)
}

impl<R: Rules> Yut<R> {
    /// The move the timeout policy picks among the legal moves, or `None` outside the move phase.
    ///
    /// In priority order: (1) the capture that captures the most pieces, (2) a finishing
    /// move, (3) stacking onto the side's own pieces, (4) the furthest-behind board stack
    /// (one piece's remaining distance) with the largest forward result, (5) entering a
    /// waiting piece; a plain backdo comes after all of these. Ties: lowest `throwIndex`,
    /// then lowest node, home last. Results are ranked by their nominal steps.
    ///
    /// ```
    /// use game_core::{Game, GameExt};
    /// use yut::{Yut, YutAction, YutOptions};
    /// let game = Yut::standard();
    /// let mut s = game.setup(&YutOptions::default(), &["a".into(), "b".into()], 3, 0).unwrap();
    /// let seat = game.to_act(&s)[0];
    /// game.apply(&mut s, seat, &YutAction::Throw, 0).unwrap();
    /// if let Some(m) = game.policy_move(&s) {
    ///     assert!(game.legal_moves(&s).contains(&m));
    /// }
    /// ```
    pub fn policy_move(&self, state: &YutState<R>) -> Option<LegalMove> {
        let mut moves = Vec::new();
        self.legal_moves_into(state, &mut moves);
        Self::policy_pick(&moves)
    }

    /// [`Yut::policy_move`] over a list of legal moves already computed.
    pub fn policy_pick(moves: &[LegalMove]) -> Option<LegalMove> {
        let tie = |m: &LegalMove| (m.throw_index, origin_key(m.from));
        let best = |pred: &dyn Fn(&LegalMove) -> bool| {
            moves
                .iter()
                .filter(|m| pred(m))
                .min_by_key(|m| tie(m))
                .copied()
        };
        // (1) captures, the most pieces first.
        if let Some(m) = moves
            .iter()
            .filter(|m| m.captures > 0)
            .min_by_key(|m| (std::cmp::Reverse(m.captures), tie(m)))
        {
            return Some(*m);
        }
        // (2) finishing, (3) stacking.
        if let Some(m) = best(&|m| m.finishes).or_else(|| best(&|m| m.stacks)) {
            return Some(m);
        }
        // (4) the furthest-behind board stack with the largest forward result.
        if let Some(m) = moves
            .iter()
            .filter(|m| m.from.node().is_some() && !m.result.is_backdo())
            .min_by_key(|m| {
                (
                    std::cmp::Reverse(crate::graph::remaining(m.from.node())),
                    std::cmp::Reverse(m.result.steps()),
                    tie(m),
                )
            })
        {
            return Some(*m);
        }
        // (5) entering, then whatever is left (plain backdo moves).
        best(&|m| m.from.node().is_none()).or_else(|| best(&|_| true))
    }
}
