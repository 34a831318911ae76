//! What a game tells the search: whose turn it is, what kind of position it is, what its
//! moves are, and what a position is worth.

use std::hash::Hash;

use crate::Game;

/// What the search does at a position, as a [`Model`] classifies it.
#[derive(Clone, Debug, PartialEq)]
pub enum Position<A, M> {
    /// The game is over: the position is worth its evaluation.
    Over,
    /// `seat` must take `action`, whose outcome is left to chance (a throw, a roll): the
    /// search averages over [`Game::chances`], each outcome applied with
    /// [`GameExt::apply_chance`](crate::GameExt::apply_chance) and weighted by its probability.
    Chance {
        /// Who acts.
        seat: usize,
        /// The action with a random step.
        action: A,
    },
    /// `seat` chooses among `moves`: in the searching side's own turn the best one for it,
    /// in the reply turn the one [`Model::policy`] picks.
    Choice {
        /// Who chooses.
        seat: usize,
        /// The moves worth trying (a model may leave out moves that lead to the same
        /// position as another).
        moves: Vec<M>,
    },
    /// `seat` takes `action` whatever the search thinks (`None`: nothing to do, the
    /// position is evaluated as it stands).
    Forced {
        /// Who acts.
        seat: usize,
        /// The action taken.
        action: Option<A>,
    },
}

/// A game's knowledge for [`Expectimax`](super::Expectimax): the search itself knows only
/// [`Game`].
///
/// The search looks ahead through two turns: the rest of the searching side's own turn
/// (its further choices maximise, its chance steps are averaged) and the turn of whoever
/// moves next (its chance steps averaged, its choices made by [`Model::policy`], a fair
/// model of any opponent). A turn is the run of positions with the same
/// [`Model::mover`], so a game where one turn holds several actions (bonus throws, extra
/// moves) says so by keeping the mover the same.
pub trait Model<G: Game> {
    /// Whose turn a position is in (a side, a team, a seat).
    type Mover: Copy + PartialEq;
    /// A move at a [`Position::Choice`], as the model lists it.
    type Move: Clone + PartialEq;
    /// A position reduced to what matters for play from it on: positions with equal keys
    /// must have equal values. Where the reply turn begins, each key is searched once.
    type Key: Hash + Eq;

    /// Called once before each search, with the position searched from: a model can build
    /// tables that depend on the game's options here. Does nothing by default.
    fn prepare(&mut self, _game: &G, _state: &G::State) {}

    /// Trims the search's root (the fork of the position searched from) of what the model
    /// never reads, before the search copies it into every node: a record of what
    /// happened, for example, which play never reads either. What it leaves must play on
    /// exactly as the position would. Does nothing by default.
    fn trim_root(&self, _game: &G, _root: &mut G::State) {}

    /// Whose turn `state` is in, or `None` once the game is over.
    fn mover(&self, game: &G, state: &G::State) -> Option<Self::Mover>;

    /// What kind of position `state` is.
    fn position(&self, game: &G, state: &G::State) -> Position<G::Action, Self::Move>;

    /// The action that plays `m`.
    fn action(&self, m: &Self::Move) -> G::Action;

    /// The move a plain player would make among `moves` in `state` (the position they are
    /// listed for, which a policy may weigh: a score to reach, a total at risk): the reply
    /// turn's choice, and the move tried first at the root (so that it wins ties).
    fn policy(&self, game: &G, state: &G::State, moves: &[Self::Move]) -> Option<Self::Move>;

    /// The value of `state` for `me`, higher is better; for a finished game, the value of
    /// the result.
    fn evaluate(&self, game: &G, state: &G::State, me: Self::Mover) -> f64;

    /// The lowest value a turn finished greedily (out of budget) can take: a lost game.
    fn floor(&self) -> f64;

    /// The key of `state` (see [`Model::Key`]).
    fn key(&self, state: &G::State) -> Self::Key;
}
