//! Plays many uniform-random games in a loop, for profilers and instruction counts:
//! `profile_games [GAMES] [standard|twice|empty|app|one-card] [PLAYERS] [team]` (default
//! 20,000 standard games of 2 players in individual play).
//!
//! The Yut rule sets are those of the `seam` benchmarks: the standard rules, the standard
//! rules composed with themselves (every hook called twice, all no-ops), the augment layer
//! with an empty pack, and the full `app` pack; `one-card` is One Card with its default
//! options (2 to 5 players, `team` ignored). The harness (`benches::UniformGames`)
//! keeps its player ids, buffers and game state from one game to the next, as a loop over
//! many games would keep them: the first game is set up with `Game::setup`, every later one
//! started in place with `Game::reset` (the same game, in the last one's buffers). Under
//! `valgrind --tool=callgrind` the instruction counts are repeatable to the instruction,
//! which the shared machine's wall clock is not; `scripts/count-instructions` runs them
//! all and prints the instructions a decision:
//!
//! ```sh
//! cargo build --release -p benches --example profile_games
//! valgrind --tool=callgrind target/release/examples/profile_games 2000 app
//! ```

use game_core::Game;
use one_card::{OneCard, OneCardOptions};
use yut::rules::{Both, WithRules};
use yut::{Mode, Standard, Yut, YutOptions};
use yut_augments::{AugmentConfig, AugmentOptions, Augments};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let rules = args.next().unwrap_or_else(|| "standard".into());
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let mode = match args.next().as_deref() {
        Some("team") => Mode::Team,
        _ => Mode::Individual,
    };
    let base = YutOptions {
        mode,
        ..YutOptions::default()
    };
    // One harness for all the games (ids, buffers and state kept), each game after the
    // first reset in place.
    let decisions = match rules.as_str() {
        "standard" => games(&Yut::standard(), &base, players, n),
        "twice" => {
            let options = WithRules {
                base: base.clone(),
                rules: Both::default(),
            };
            games(&Yut::new((Standard, Standard)), &options, players, n)
        }
        "empty" | "app" => {
            let mut options = if rules == "app" {
                yut_augments::app_options()
            } else {
                AugmentOptions {
                    base: base.clone(),
                    rules: AugmentConfig::none(),
                }
            };
            options.base.mode = mode;
            games(&Yut::new(Augments), &options, players, n)
        }
        "one-card" => games(&OneCard, &OneCardOptions::default(), players, n),
        other => {
            eprintln!("unknown rule set {other}: standard, twice, empty, app or one-card");
            std::process::exit(2);
        }
    };
    println!("{n} games ({rules}, {players} players, {mode:?}), {decisions} decisions");
}

/// The decisions of the uniform-random games of seeds `0..n` (see `benches::UniformGames`).
fn games<G: Game>(game: &G, options: &G::Options, players: usize, n: u64) -> usize {
    let mut games = benches::UniformGames::new(players);
    (0..n).map(|seed| games.play(game, options, seed)).sum()
}
