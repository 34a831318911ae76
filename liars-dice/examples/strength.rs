//! The fair search against the policy: two-player games of five dice each, seats
//! alternated, seeds fixed. `Fair(Ismcts)` at the default budget (1,000 iterations) plays
//! [`PolicyBot`]; then the same search given the true state
//! ([`Ismcts::sees_everything`]), the cheating bound no seat may use. Prints each one's
//! win rate, its 95 % Wilson interval and the search's time per decision.
//!
//! ```text
//! cargo run --release -p liars-dice --example strength [GAMES] [SEED] [ITERATIONS]
//! ```
//! (defaults: 200 games from seed 1, 1,000 iterations).

use std::time::{Duration, Instant};

use game_core::search::Ismcts;
use game_core::{Bot, Fair, Game, GameExt};
use liars_dice::{LiarsDice, LiarsDiceOptions, PolicyBot};

/// What one side won, and the time it took to decide.
#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    decisions: u32,
    thinking: Duration,
}

/// Plays `games` games from `seed` between the bot `first` makes from a game's seed and
/// [`PolicyBot`], the first bot in seat 0 in even games and seat 1 in odd ones.
fn duel(games: u32, seed: u64, first: impl Fn(u64) -> Box<dyn Bot<LiarsDice>>) -> Tally {
    let players = ["one".to_string(), "two".to_string()];
    let mut tally = Tally::default();
    for i in 0..games {
        let game_seed = seed.wrapping_add(u64::from(i));
        let mine = usize::from(i % 2 == 1);
        let mut bots = [
            first(game_seed),
            Box::new(PolicyBot::default()) as Box<dyn Bot<_>>,
        ];
        bots.swap(0, mine);
        let options = LiarsDiceOptions::default();
        let mut state = LiarsDice.setup(&options, &players, game_seed, 0).unwrap();
        while let Some(seat) = LiarsDice.first_to_act(&state) {
            let start = Instant::now();
            let action = bots[seat].choose(&LiarsDice, &state, seat).unwrap();
            if seat == mine {
                tally.thinking += start.elapsed();
                tally.decisions += 1;
            }
            LiarsDice.apply(&mut state, seat, &action, 0).unwrap();
        }
        tally.games += 1;
        tally.wins += u32::from(LiarsDice.outcome(&state).is_some_and(|o| o.winner == mine));
    }
    tally
}

/// The Wilson score interval of `wins` out of `games` at 95 %.
fn wilson(wins: u32, games: u32) -> (f64, f64) {
    let (n, z) = (f64::from(games.max(1)), 1.96f64);
    let p = f64::from(wins) / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - half, centre + half)
}

fn report(name: &str, t: &Tally) {
    let (low, high) = wilson(t.wins, t.games);
    let ms = t.thinking.as_secs_f64() * 1e3 / f64::from(t.decisions.max(1));
    println!(
        "{name} vs policy: {} of {} won, {:.1} % (95 % {:.1} % to {:.1} %), {ms:.2} ms a decision ({} decisions)",
        t.wins,
        t.games,
        100.0 * f64::from(t.wins) / f64::from(t.games.max(1)),
        100.0 * low,
        100.0 * high,
        t.decisions,
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut arg = |default: u64| {
        args.next()
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (games, seed, iterations) = (arg(200) as u32, arg(1), arg(1_000) as u32);
    let fair = duel(games, seed, |s| {
        Box::new(Fair::new(Ismcts::new(s, iterations), s))
    });
    report("fair ismcts", &fair);
    let cheat = duel(games, seed, |s| {
        Box::new(Ismcts::new(s, iterations).sees_everything())
    });
    report("ismcts seeing everything", &cheat);
}
