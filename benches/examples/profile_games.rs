//! Plays many uniform-random 2-player games in a loop, for profilers and instruction
//! counts: `profile_games [GAMES] [standard|twice|empty|app]` (default 20,000 standard).
//!
//! The rule sets are those of the `seam` benchmarks: the standard rules, the standard
//! rules composed with themselves (every hook called twice, all no-ops), the augment layer
//! with an empty pack, and the full `app` pack. Under `valgrind --tool=callgrind` the
//! instruction counts are repeatable to the instruction, which the shared machine's wall
//! clock is not:
//!
//! ```sh
//! cargo build --release -p benches --example profile_games
//! valgrind --tool=callgrind target/release/examples/profile_games 2000 app
//! ```

use yut::rules::{Both, WithRules};
use yut::{Standard, Yut, YutOptions};
use yut_augments::{AugmentConfig, AugmentOptions, Augments};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let rules = args.next().unwrap_or_else(|| "standard".into());
    let base = YutOptions::default();
    let games = |play: &dyn Fn(u64) -> usize| (0..n).map(play).sum::<usize>();
    let decisions = match rules.as_str() {
        "standard" => games(&|s| benches::uniform_game(&Yut::standard(), &base, 2, s)),
        "twice" => {
            let options = WithRules {
                base: base.clone(),
                rules: Both::default(),
            };
            games(&|s| benches::uniform_game(&Yut::new((Standard, Standard)), &options, 2, s))
        }
        "empty" | "app" => {
            let options = if rules == "app" {
                yut_augments::app_options()
            } else {
                AugmentOptions {
                    base: base.clone(),
                    rules: AugmentConfig::none(),
                }
            };
            games(&|s| benches::uniform_game(&Yut::new(Augments), &options, 2, s))
        }
        other => {
            eprintln!("unknown rule set {other}: standard, twice, empty or app");
            std::process::exit(2);
        }
    };
    println!("{n} games ({rules}), {decisions} decisions");
}
