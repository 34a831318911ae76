//! Bots: anything that picks an action for a seat.

use crate::{Game, GameRng};

/// Picks an action for a seat from a state.
///
/// A bot receives the whole state, RNG included. It must not use the stored RNG to see the
/// future: a bot that simulates ahead works on [`GameExt::fork`](crate::GameExt::fork) copies (re-seeded from its
/// own randomness) or enumerates [`Game::chances`].
pub trait Bot<G: Game> {
    /// The action to take for `seat`, or `None` if it has nothing to do.
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action>;
}

/// Picks uniformly among the legal actions, with its own seeded RNG.
///
/// ```
/// use game_core::{Bot, Game, GameExt, RandomBot, rps::{Rps, RpsOptions}};
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
/// let action = RandomBot::new(5).choose(&Rps, &state, 0).unwrap();
/// assert!(Rps.legal_actions(&state, 0).contains(&action));
/// ```
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: GameRng::from_seed(seed),
        }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    /// [`Game::random_legal_action`]: the index drawn among [`Game::legal_action_count`]
    /// actions and that one taken, the same draw and the same action as picking from
    /// [`Game::legal_actions`], without building the list.
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action> {
        game.random_legal_action(state, seat, &mut self.rng)
    }
}

/// Plays the engine's own timeout action: what a player gets when they do nothing.
///
/// ```
/// use game_core::{Bot, Game, GameExt, TimeoutBot, rps::{Rps, RpsOptions}};
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
/// assert_eq!(TimeoutBot.choose(&Rps, &state, 0), Rps.timeout_action(&state, 0));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct TimeoutBot;

impl<G: Game> Bot<G> for TimeoutBot {
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action> {
        game.timeout_action(state, seat)
    }
}
