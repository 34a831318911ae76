//! The search bot ([`PigModel`] with [`PigModel::LIMITS`]) against "hold at 20"
//! ([`HoldBot`]): two-player games to 100, seats alternated, seeds fixed. Prints the
//! search bot's win rate and its 95 % Wilson interval.
//!
//! ```text
//! cargo run --release -p pig --example search_vs_hold [GAMES] [SEED]
//! ```
//! (defaults: 2,000 games from seed 1).

use game_core::{Bot, search::Expectimax};
use pig::{HoldBot, Pig, PigModel, PigOptions, bots::duel};

fn main() {
    let mut args = std::env::args().skip(1);
    let games = args
        .next()
        .map_or(2_000, |a| a.parse().expect("GAMES: a number"));
    let seed = args
        .next()
        .map_or(1, |a| a.parse().expect("SEED: a number"));
    // One table for every game: the copies share it.
    let model = PigModel::for_target(PigOptions::default().target);
    let searcher = move |s: u64| {
        Box::new(Expectimax::new(s, PigModel::LIMITS, model.clone())) as Box<dyn Bot<Pig>>
    };
    let holder = |_| Box::new(HoldBot::default()) as Box<dyn Bot<Pig>>;
    let result = duel(&PigOptions::default(), games, seed, searcher, holder);
    let (low, high) = result.wilson(1.96);
    println!(
        "search vs hold at 20: {} of {} games won, {:.1} % (95 % Wilson interval {:.1} % to {:.1} %)",
        result.wins,
        result.games,
        100.0 * result.rate(),
        100.0 * low,
        100.0 * high
    );
}
