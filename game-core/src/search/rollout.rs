//! What the hidden-information searches share: a random play-out to the end, and what a
//! finished (or abandoned) play-out is worth to each seat.

use crate::game::apply_quiet;
use crate::{Game, GameRng};

/// The most actions one play-out takes before it is scored as it stands: a game whose
/// random play can go on for ever (players who never bank) still ends its search.
pub(crate) const MAX_PLAYOUT_STEPS: u32 = 2_000;

/// What a play-out that did not finish, or a finished game without a
/// [`Game::payoff`], is worth to every seat: neither a win nor a loss.
pub(crate) const NEUTRAL: f64 = 0.5;

/// Plays `world` on to the end, each action chosen by `choose` (for the seat to act in
/// the world as it stands), at most [`MAX_PLAYOUT_STEPS`] of them. Only the seats awaited
/// ([`Game::to_act`]) act: nothing is ever timed out (the clock stands still), and what a
/// game lets others do without waiting for them (calls) is left out.
pub(crate) fn play_out<G: Game>(
    game: &G,
    world: &mut G::State,
    mut choose: impl FnMut(&G::State, usize) -> Option<G::Action>,
    scratch: &mut Vec<G::Event>,
) {
    let now = crate::GameState::table(world).clock();
    for _ in 0..MAX_PLAYOUT_STEPS {
        let Some(seat) = game.first_to_act(world) else {
            return;
        };
        let Some(action) = choose(world, seat) else {
            return;
        };
        // A legal action for this very state (the game's own, or a bot's): refused only
        // by a game whose list and check disagree (conformance catches it), or a bot's
        // mistake; then the play-out ends.
        if apply_quiet(game, world, seat, &action, now, scratch).is_err() {
            return;
        }
    }
}

/// What `world` is worth to `seat`: its [`Game::payoff`] once over, else [`NEUTRAL`].
pub(crate) fn score<G: Game>(game: &G, world: &G::State, seat: usize) -> f64 {
    game.payoff(world, seat)
        .filter(|p| p.is_finite())
        .map_or(NEUTRAL, |p| p.clamp(0.0, 1.0))
}

/// A seed for a copy, drawn from the bot's own RNG.
pub(crate) fn seed(rng: &mut GameRng) -> u64 {
    u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32())
}
