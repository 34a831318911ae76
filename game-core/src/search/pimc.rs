//! Determinized search (perfect-information Monte Carlo): the decision averaged over
//! worlds drawn from the seat's information set.

use crate::game::apply_quiet;
use crate::{Bot, Game, GameExt, GameRng};

use super::rollout::{play_out, score, seed};

/// A search bot for games of hidden information: it draws `worlds` worlds of its seat's
/// information set ([`GameExt::determinize`]), scores each legal action in each world by
/// `playouts` random play-outs to the end ([`Game::payoff`] for its seat), and plays the
/// action with the best average over all worlds (the first listed, among equals).
///
/// It never reads what its seat cannot see: every world is a resample, so handed the true
/// state or any state its seat cannot tell apart from it, with the same seed it makes the
/// same choice. Generic over any game; a game that does not implement
/// [`Game::resample_from_infostate`] is searched as it stands (perfect information), and
/// one without [`Game::payoff`] finds every move worth the same.
///
/// ```
/// use game_core::search::Pimc;
/// use game_core::{Bot, Game, GameExt, rps::{Rps, RpsOptions}};
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
/// let mut bot = Pimc::new(7, 4, 8);
/// let action = bot.choose(&Rps, &state, 0).unwrap();
/// assert!(Rps.legal_actions(&state, 0).contains(&action));
/// ```
#[derive(Clone, Debug)]
pub struct Pimc {
    rng: GameRng,
    worlds: u32,
    playouts: u32,
}

impl Pimc {
    /// Worlds drawn per decision by default.
    pub const WORLDS: u32 = 16;
    /// Play-outs per legal action in each world by default.
    pub const PLAYOUTS: u32 = 8;

    /// A bot with its own `seed`, drawing `worlds` worlds per decision and scoring each
    /// action in each by `playouts` play-outs (each at least 1).
    pub fn new(seed: u64, worlds: u32, playouts: u32) -> Self {
        Self {
            rng: GameRng::from_seed(seed),
            worlds: worlds.max(1),
            playouts: playouts.max(1),
        }
    }

    /// The default budget ([`Pimc::WORLDS`], [`Pimc::PLAYOUTS`]): how every host's `pimc`
    /// bot plays.
    ///
    /// ```
    /// let _bot = game_core::search::Pimc::with_seed(3);
    /// ```
    pub fn with_seed(seed: u64) -> Self {
        Self::new(seed, Self::WORLDS, Self::PLAYOUTS)
    }
}

impl<G: Game> Bot<G> for Pimc {
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action> {
        if !game.may_act(state, seat) {
            return None;
        }
        let moves = game.legal_actions(state, seat);
        if moves.len() <= 1 {
            return moves.into_iter().next();
        }
        let now = crate::GameState::table(state).clock();
        let mut totals = vec![0.0; moves.len()];
        let mut scratch = Vec::new();
        for _ in 0..self.worlds {
            let world = game.determinize(state, seat, &mut self.rng);
            for (action, total) in moves.iter().zip(&mut totals) {
                for _ in 0..self.playouts {
                    let mut sim = game.fork(&world, seed(&mut self.rng));
                    // The seat's own actions are the same in every world of its
                    // information set; a game whose resample breaks that loses the move.
                    if apply_quiet(game, &mut sim, seat, action, now, &mut scratch).is_err() {
                        continue;
                    }
                    let rng = &mut self.rng;
                    let random = |w: &G::State, s| game.random_legal_action(w, s, rng);
                    play_out(game, &mut sim, random, &mut scratch);
                    *total += score(game, &sim, seat);
                }
            }
        }
        let best = totals
            .iter()
            .enumerate()
            .fold(0, |best, (i, t)| if *t > totals[best] { i } else { best });
        moves.into_iter().nth(best)
    }
}
