//! Bots: anything that picks an action for a seat.

use crate::{Game, GameExt, GameRng};

/// Picks an action for a seat from a state.
///
/// A bot is handed a state, and reads anything in it: so the framework never hands a bot
/// the true state of a match. Every host runs bots through [`DynGame::bot`](crate::DynGame::bot),
/// which gives each decision a world of the seat's information set
/// ([`GameExt::determinize`]: what the seat cannot see redrawn, the RNG fresh), and a
/// typed loop does the same by wrapping its bot in [`Fair`]. A bot that calls `choose`
/// on a true state itself (a test, a tool that wants the cheating bound) sees everything.
///
/// A bot that simulates ahead works on [`GameExt::fork`] copies (re-seeded from its own
/// randomness) or enumerates [`Game::chances`], so that its choices are its own seed's.
pub trait Bot<G: Game> {
    /// The action to take for `seat`, or `None` if it has nothing to do.
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action>;
}

/// A boxed bot plays as the bot it holds: bots of several kinds in one list.
impl<G: Game, B: Bot<G> + ?Sized> Bot<G> for Box<B> {
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action> {
        (**self).choose(game, state, seat)
    }
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

/// A bot that cannot cheat: each decision, the inner bot is given a world of its seat's
/// information set ([`GameExt::determinize`], drawn from this wrapper's own seeded RNG),
/// never the state it is asked about. For a game of perfect information the world is the
/// state with a fresh RNG, so the inner bot plays exactly as it would on the state (as
/// long as it does not read the stored RNG, which no bot may). What
/// [`DynGame::bot`](crate::DynGame::bot) runs on every host.
///
/// ```
/// use game_core::{Bot, Fair, Game, GameExt, RandomBot, rps::{Rps, RpsOptions}};
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
/// let mut bot = Fair::new(RandomBot::new(5), 7);
/// let action = bot.choose(&Rps, &state, 0).unwrap();
/// assert!(Rps.legal_actions(&state, 0).contains(&action));
/// assert!(bot.inner().clone().choose(&Rps, &state, 0).is_some());
/// ```
#[derive(Clone, Debug)]
pub struct Fair<B> {
    bot: B,
    rng: GameRng,
}

impl<B> Fair<B> {
    /// `bot`, given worlds drawn from `seed`.
    pub fn new(bot: B, seed: u64) -> Self {
        Self {
            bot,
            // Its own stream, apart from whatever the bot draws from the same seed.
            rng: GameRng::from_seed(seed ^ 0x9e37_79b9_7f4a_7c15),
        }
    }

    /// The bot it wraps.
    ///
    /// ```
    /// use game_core::{Fair, TimeoutBot};
    /// let _: &TimeoutBot = Fair::new(TimeoutBot, 1).inner();
    /// ```
    pub fn inner(&self) -> &B {
        &self.bot
    }
}

impl<G: Game, B: Bot<G>> Bot<G> for Fair<B> {
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action> {
        // Nothing to decide for a seat that may not act: no world drawn.
        if !game.may_act(state, seat) {
            return None;
        }
        let world = game.determinize(state, seat, &mut self.rng);
        self.bot.choose(game, &world, seat)
    }
}
