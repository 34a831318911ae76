//! Search bots for any [`Game`].
//!
//! - For games where what a seat may not see does not matter (Yut: everything is on the
//!   board, only the throws are to come), [`Expectimax`]: a chance-aware search over the
//!   exact probabilities of [`Game::chances`], on [`GameExt::fork`] copies, with a game's
//!   own [`Model`] for what a position is worth.
//! - For games of hidden information (hands, dice under a cup), two searches that know only
//!   what their seat knows, generic over any game that implements
//!   [`Game::resample_from_infostate`] and [`Game::payoff`]: [`Pimc`] (determinized
//!   search, the decision averaged over sampled worlds) and [`Ismcts`] (single-observer
//!   information-set Monte Carlo tree search). Every host offers them as the bots `pimc`
//!   and `ismcts`.
//!
//! [`Expectimax`] never draws from, or looks at, the RNG stored in the state: it forks the
//! state (re-seeded from the bot's own RNG) before applying anything, and enumerates
//! chance with [`GameExt::apply_chance`] instead of drawing it. With the same seed, the bot
//! makes the same choices.
//!
//! Every node is a copy of its parent: the search copies into positions it is done with
//! (`Clone::clone_from`, which a state implements field by field to keep its buffers:
//! checked by `testing::assert_clone_from_agrees` under the `testing` feature),
//! from a root the model may trim of what it never reads ([`Model::trim_root`]).

mod ismcts;
mod model;
mod pimc;
mod rollout;

use crate::GameExt;
use std::collections::HashMap;

pub use ismcts::{Ismcts, Uniform};
pub use model::{Model, Position};
pub use pimc::Pimc;

use crate::{Bot, Game, GameRng, Millis};

/// How far [`Expectimax`] looks and how much it may spend on one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Chance steps searched in a row in the searching side's own turn, after the move it
    /// decides (later ones are left to the evaluation).
    pub own_chances: u8,
    /// Chance steps searched in a row in the reply turn.
    pub reply_chances: u8,
    /// Positions one decision may create; past it, chance steps are no longer expanded
    /// and positions are evaluated as they stand. Keeps the worst case fast and the
    /// search deterministic (a count, not a clock).
    pub budget: u32,
}

/// Counts of what a search bot did, for reports and tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Decisions made (every call of `choose` that returned an action).
    pub decisions: u64,
    /// Decisions that needed a search (a real choice between moves).
    pub searched: u64,
    /// Positions created by all searches.
    pub nodes: u64,
}

/// A bot that plays by expectimax over a game's chance steps, with `M` as its knowledge
/// of the game.
///
/// At a [`Position::Choice`] of its own with more than one move, each move is tried on a
/// fork of the state: the rest of its own turn is searched (its choices maximise, its
/// chance steps are averaged over [`Game::chances`]), then the turn of the next mover
/// (chance steps averaged, choices by [`Model::policy`]), and the position where that turn
/// ends is evaluated by [`Model::evaluate`]. A chosen move that is itself random (a roll:
/// [`Game::chances`] lists its outcomes) is worth the average over its outcomes, each
/// applied with [`GameExt::apply_chance`] on a copy. [`Limits`] bounds the chance steps expanded
/// in a row and the positions created. Positions where the reply turn begins are searched
/// once, by [`Model::key`], however many move orders reach them. Anything else (a chance
/// step, a forced action, another seat's decision) gets [`Game::timeout_action`].
///
/// ```
/// use game_core::search::{Expectimax, Limits, Model, Position};
/// use game_core::{Bot, Game, GameExt, rps::{Rps, RpsAction, RpsOptions}};
///
/// /// Rock-paper-scissors has no chance and no turns: every choice is worth the same.
/// struct Flat;
/// impl Model<Rps> for Flat {
///     type Mover = ();
///     type Move = RpsAction;
///     type Key = ();
///     fn mover(&self, game: &Rps, state: &<Rps as Game>::State) -> Option<()> {
///         (!game.is_over(state)).then_some(())
///     }
///     fn position(&self, game: &Rps, state: &<Rps as Game>::State) -> Position<RpsAction, RpsAction> {
///         match game.to_act(state).first() {
///             Some(&seat) => Position::Choice { seat, moves: game.legal_actions(state, seat) },
///             None => Position::Over,
///         }
///     }
///     fn action(&self, m: &RpsAction) -> RpsAction { m.clone() }
///     fn policy(&self, _: &Rps, _: &<Rps as Game>::State, moves: &[RpsAction]) -> Option<RpsAction> {
///         moves.first().cloned()
///     }
///     fn evaluate(&self, _: &Rps, _: &<Rps as Game>::State, _: ()) -> f64 { 0.0 }
///     fn floor(&self) -> f64 { -1.0 }
///     fn key(&self, _: &<Rps as Game>::State) {}
/// }
///
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
/// let limits = Limits { own_chances: 1, reply_chances: 1, budget: 100 };
/// let mut bot = Expectimax::new(7, limits, Flat);
/// let action = bot.choose(&Rps, &state, 0).unwrap();
/// // All moves tie, so the policy's move, tried first, is kept.
/// assert_eq!(Some(action), Flat.policy(&Rps, &state, &Rps.legal_actions(&state, 0)));
/// assert_eq!(bot.stats().searched, 1);
/// ```
#[derive(Clone, Debug)]
pub struct Expectimax<M> {
    rng: GameRng,
    limits: Limits,
    stats: SearchStats,
    model: M,
}

impl<M> Expectimax<M> {
    /// A search bot with its own `seed` (used only to re-seed the copies it searches on,
    /// for games whose moves draw from the RNG), its limits and its model.
    ///
    /// ```
    /// use game_core::search::{Expectimax, Limits};
    /// let limits = Limits { own_chances: 2, reply_chances: 1, budget: 1_000 };
    /// let bot = Expectimax::new(1, limits, ());
    /// assert_eq!(bot.limits(), limits);
    /// ```
    pub fn new(seed: u64, limits: Limits, model: M) -> Self {
        Self {
            rng: GameRng::from_seed(seed),
            limits,
            stats: SearchStats::default(),
            model,
        }
    }

    /// What the bot did so far.
    ///
    /// ```
    /// use game_core::search::{Expectimax, Limits, SearchStats};
    /// let limits = Limits { own_chances: 2, reply_chances: 1, budget: 1_000 };
    /// assert_eq!(Expectimax::new(1, limits, ()).stats(), SearchStats::default());
    /// ```
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The limits it searches within.
    ///
    /// ```
    /// use game_core::search::{Expectimax, Limits};
    /// let limits = Limits { own_chances: 0, reply_chances: 0, budget: 10 };
    /// assert_eq!(Expectimax::new(1, limits, ()).limits().budget, 10);
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Its model of the game.
    ///
    /// ```
    /// use game_core::search::{Expectimax, Limits};
    /// let limits = Limits { own_chances: 0, reply_chances: 0, budget: 10 };
    /// assert_eq!(*Expectimax::new(1, limits, 5u8).model(), 5);
    /// ```
    pub fn model(&self) -> &M {
        &self.model
    }
}

impl<G: Game, M: Model<G>> Bot<G> for Expectimax<M> {
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action> {
        let moves = match self.model.position(game, state) {
            Position::Choice { seat: s, moves } if s == seat => moves,
            _ => {
                let action = game.timeout_action(state, seat);
                self.stats.decisions += u64::from(action.is_some());
                return action;
            }
        };
        self.stats.decisions += 1;
        if moves.len() <= 1 {
            return moves.first().map(|m| self.model.action(m));
        }
        let Some(me) = self.model.mover(game, state) else {
            return game.timeout_action(state, seat);
        };
        self.stats.searched += 1;
        // Everything below works on a fork: a copy whose RNG is re-seeded from ours.
        let seed = u64::from(self.rng.next_u32()) << 32 | u64::from(self.rng.next_u32());
        let mut root = game.fork(state, seed);
        self.model.prepare(game, state);
        self.model.trim_root(game, &mut root);
        let mut search = Search {
            game,
            model: &self.model,
            me,
            limits: self.limits,
            nodes: 0,
            memo: HashMap::new(),
            scratch: Vec::new(),
            spare: Vec::new(),
        };
        let policy = self.model.policy(game, state, &moves);
        // The policy's move is tried first, so that it wins ties.
        let order = policy
            .iter()
            .chain(moves.iter().filter(|m| Some(*m) != policy.as_ref()));
        let mut best: Option<(f64, &M::Move)> = None;
        let stage = Stage::Own {
            chances: self.limits.own_chances,
        };
        for m in order {
            let action = self.model.action(m);
            let Some(value) = search.after(&root, seat, &action, stage, Expand::Search) else {
                continue;
            };
            if best.is_none_or(|(b, _)| value > b + 1e-9) {
                best = Some((value, m));
            }
        }
        self.stats.nodes += u64::from(search.nodes);
        best.map(|(_, m)| self.model.action(m))
            .or_else(|| game.timeout_action(state, seat))
    }
}

/// Where the search is: still in the searching side's own turn, or in the reply turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage<T> {
    /// The searching side is still to act in its turn.
    Own { chances: u8 },
    /// The turn of `mover`, the one after the searching side's.
    Reply { mover: T, chances: u8 },
}

impl<T: Copy> Stage<T> {
    /// The chance steps still to be expanded in a row.
    fn chances(self) -> u8 {
        match self {
            Stage::Own { chances } | Stage::Reply { chances, .. } => chances,
        }
    }

    /// The same stage after one more chance step expanded.
    fn spend(self) -> Self {
        match self {
            Stage::Own { chances } => Stage::Own {
                chances: chances.saturating_sub(1),
            },
            Stage::Reply { mover, chances } => Stage::Reply {
                mover,
                chances: chances.saturating_sub(1),
            },
        }
    }
}

/// Whether the position after a chosen move is searched on or evaluated as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expand {
    /// Searched on, within the stage's limits.
    Search,
    /// Evaluated as it stands (the budget is spent).
    Evaluate,
}

/// One decision's search.
struct Search<'a, G: Game, M: Model<G>> {
    game: &'a G,
    model: &'a M,
    me: M::Mover,
    limits: Limits,
    nodes: u32,
    /// Values of positions where the reply turn begins, by key.
    memo: HashMap<M::Key, f64>,
    /// The buffer of the quiet steps: the search reads positions, never events.
    scratch: Vec<G::Event>,
    /// Positions done with, kept for the next children: a child is copied into one with
    /// `clone_from`, which keeps its buffers, instead of being allocated afresh and
    /// dropped (otherwise the allocator takes most of a decision of Yut's strong bot).
    /// Boxed, so that taking one out and putting it back moves a pointer, not a state.
    spare: Vec<Box<G::State>>,
}

/// The host time passed to the game while searching (deadlines do not matter there).
const NOW: Millis = 0;

impl<G: Game, M: Model<G>> Search<'_, G, M> {
    /// The value of a chosen `action` for `seat` in `state`, searched on at `stage` or
    /// evaluated as it lands (`expand`); `None` if the game refuses it. An action with a
    /// random step ([`Game::chances`] lists its outcomes) is worth the average over its
    /// outcomes, each applied on a copy: never one outcome drawn, which would judge a
    /// gamble (a roll that may lose the turn) by one lucky or unlucky draw. Its outcomes
    /// count as one of the stage's chance steps; with none left, or out of budget, each
    /// outcome is evaluated as it stands.
    fn after(
        &mut self,
        state: &G::State,
        seat: usize,
        action: &G::Action,
        stage: Stage<M::Mover>,
        expand: Expand,
    ) -> Option<f64> {
        if let Some(outcomes) = self.game.chances(state, seat, action) {
            let next = match expand {
                Expand::Search if stage.chances() > 0 && !self.over_budget() => Some(stage.spend()),
                _ => None,
            };
            return self.average(state, seat, action, outcomes, next);
        }
        let child = self.child(state, seat, action)?;
        Some(match expand {
            Expand::Search => self.value_of(child, stage),
            Expand::Evaluate => {
                let value = self.leaf(&child);
                self.spare.push(child);
                value
            }
        })
    }

    /// The probability-weighted mean over `outcomes` of `action`'s random step for `seat`
    /// in `state`: each outcome applied on a copy and searched on at `next`, or evaluated
    /// as it stands when `next` is `None`. `None` when no outcome could be applied.
    fn average(
        &mut self,
        state: &G::State,
        seat: usize,
        action: &G::Action,
        outcomes: Vec<(G::Chance, f64)>,
        next: Option<Stage<M::Mover>>,
    ) -> Option<f64> {
        let mut total = 0.0;
        let mut weight = 0.0;
        for (chance, p) in outcomes {
            let mut child = self.copy(state);
            self.nodes += 1;
            // An outcome of no chance is refused, as `GameExt::apply_chance` refuses it.
            let applied = p > 0.0
                && crate::game::apply_chance_quiet(
                    self.game,
                    &mut child,
                    seat,
                    action,
                    &chance,
                    NOW,
                    &mut self.scratch,
                )
                .is_ok();
            if applied {
                let value = match next {
                    Some(next) => self.value(&child, next),
                    None => self.leaf(&child),
                };
                total += p * value;
                weight += p;
            }
            self.spare.push(child);
        }
        (weight > 0.0).then(|| total / weight)
    }

    /// A copy of `state`, in a spare position's buffers when there is one.
    fn copy(&mut self, state: &G::State) -> Box<G::State> {
        match self.spare.pop() {
            Some(mut copy) => {
                copy.as_mut().clone_from(state);
                copy
            }
            None => Box::new(state.clone()),
        }
    }

    fn over_budget(&self) -> bool {
        self.nodes >= self.limits.budget
    }

    fn leaf(&self, state: &G::State) -> f64 {
        self.model.evaluate(self.game, state, self.me)
    }

    /// `state` after `action` by `seat`, counted as a created position; `None` if the
    /// game refuses the action. Give it back to `spare` when done with it.
    fn child(
        &mut self,
        state: &G::State,
        seat: usize,
        action: &G::Action,
    ) -> Option<Box<G::State>> {
        let mut child = self.copy(state);
        self.nodes += 1;
        let scratch = &mut self.scratch;
        if crate::game::apply_quiet(self.game, &mut child, seat, action, NOW, scratch).is_err() {
            self.spare.push(child);
            return None;
        }
        Some(child)
    }

    /// The value of `child`, given back to the spares afterwards.
    fn value_of(&mut self, child: Box<G::State>, stage: Stage<M::Mover>) -> f64 {
        let value = self.value(&child, stage);
        self.spare.push(child);
        value
    }

    fn value(&mut self, state: &G::State, stage: Stage<M::Mover>) -> f64 {
        let Some(mover) = self.model.mover(self.game, state) else {
            return self.leaf(state);
        };
        let stage = match stage {
            Stage::Own { .. } if mover != self.me => {
                // The own turn is over: search the reply turn once per position.
                let key = self.model.key(state);
                if let Some(&v) = self.memo.get(&key) {
                    return v;
                }
                let v = self.value(
                    state,
                    Stage::Reply {
                        mover,
                        chances: self.limits.reply_chances,
                    },
                );
                self.memo.insert(key, v);
                return v;
            }
            Stage::Reply { mover: m, .. } if m != mover => return self.leaf(state),
            stage => stage,
        };
        match self.model.position(self.game, state) {
            Position::Over => self.leaf(state),
            Position::Chance { seat, action } => {
                if stage.chances() == 0 || self.over_budget() {
                    return self.leaf(state);
                }
                let chances = self.game.chances(state, seat, &action).unwrap_or_default();
                self.average(state, seat, &action, chances, Some(stage.spend()))
                    .unwrap_or_else(|| self.leaf(state))
            }
            Position::Choice { seat, moves } => match stage {
                Stage::Own { .. } => {
                    if self.over_budget() {
                        // Out of budget: finish the turn greedily by the evaluation.
                        return moves
                            .iter()
                            .filter_map(|m| {
                                let action = self.model.action(m);
                                self.after(state, seat, &action, stage, Expand::Evaluate)
                            })
                            .fold(f64::NEG_INFINITY, f64::max)
                            .max(self.model.floor());
                    }
                    let mut best = f64::NEG_INFINITY;
                    for m in &moves {
                        let action = self.model.action(m);
                        if let Some(value) = self.after(state, seat, &action, stage, Expand::Search)
                        {
                            best = best.max(value);
                        }
                    }
                    if best.is_finite() {
                        best
                    } else {
                        self.leaf(state)
                    }
                }
                Stage::Reply { .. } => {
                    let Some(m) = self.model.policy(self.game, state, &moves) else {
                        return self.leaf(state);
                    };
                    let action = self.model.action(&m);
                    self.after(state, seat, &action, stage, Expand::Search)
                        .unwrap_or_else(|| self.leaf(state))
                }
            },
            Position::Forced { seat, action } => {
                let Some(action) = action else {
                    return self.leaf(state);
                };
                if self.over_budget() {
                    return self.leaf(state);
                }
                match self.child(state, seat, &action) {
                    Some(child) => self.value_of(child, stage),
                    None => self.leaf(state),
                }
            }
        }
    }
}
