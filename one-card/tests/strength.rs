//! Measurements, not checks (every test is ignored): how game-core's information-set
//! search plays One Card against the policy bot.
//!
//! `cargo test -p one-card --release --test strength -- --ignored --nocapture`

mod common;

use std::time::{Duration, Instant};

use common::ids;
use game_core::search::Ismcts;
use game_core::{Bot, Fair, Game, GameExt, GameRng};
use one_card::bots::PolicyBot;
use one_card::{OneCard, OneCardOptions, OneCardState};

/// Games per pairing: seats alternate from game to game.
const GAMES: u64 = 200;

/// Plays one 2-player game to its end as a host does: the seats that may call (besides
/// the mover) first, in an order left to `race`, then the mover. Returns the final state
/// and the time (wall, and on the CPU) and count of `timed`'s decisions.
fn duel(
    bots: &mut [Box<dyn Bot<OneCard>>; 2],
    timed: usize,
    seed: u64,
    race: &mut GameRng,
) -> (OneCardState, Duration, Duration, u64) {
    let options = OneCardOptions::default();
    let mut state = OneCard.setup(&options, &ids(2), seed, 0).unwrap();
    let (mut spent, mut on_cpu, mut decisions) = (Duration::ZERO, Duration::ZERO, 0);
    for step in 0..20_000u64 {
        let Some(mover) = OneCard.first_to_act(&state) else {
            break;
        };
        let mut seats: Vec<usize> = (0..2)
            .filter(|&s| s != mover && OneCard.may_act(&state, s))
            .collect();
        if seats.len() > 1 {
            let first = race.below(seats.len() as u32) as usize;
            seats.rotate_left(first);
        }
        seats.push(mover);
        for seat in seats {
            if !OneCard.may_act(&state, seat) {
                continue;
            }
            let start = Instant::now();
            let cpu = thread_cpu();
            let action = bots[seat].choose(&OneCard, &state, seat).unwrap();
            if seat == timed {
                spent += start.elapsed();
                on_cpu += thread_cpu().saturating_sub(cpu);
                decisions += 1;
            }
            OneCard.apply(&mut state, seat, &action, step).unwrap();
            if OneCard.is_over(&state) {
                return (state, spent, on_cpu, decisions);
            }
        }
    }
    panic!("game {seed} did not end");
}

/// The time this thread has spent on the CPU (Linux's `/proc/thread-self/schedstat`; zero
/// elsewhere): on a loaded machine, the wall clock times the neighbours too.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// Plays [`GAMES`] games of `make(seed)` against the policy bot, seats alternating, and
/// prints its wins with a 95 % interval and its time per decision.
fn against_policy(name: &str, make: impl Fn(u64) -> Box<dyn Bot<OneCard>>) {
    let mut race = GameRng::from_seed(99);
    let (mut wins, mut decisions) = (0u64, 0u64);
    let (mut spent, mut on_cpu) = (Duration::ZERO, Duration::ZERO);
    for game in 0..GAMES {
        let seat = (game % 2) as usize;
        let searcher = make(game * 2 + 1);
        let policy: Box<dyn Bot<OneCard>> = Box::new(PolicyBot::new(game * 2));
        let mut bots = if seat == 0 {
            [searcher, policy]
        } else {
            [policy, searcher]
        };
        let (state, t, c, d) = duel(&mut bots, seat, 5_000 + game, &mut race);
        wins += u64::from(OneCard.payoff(&state, seat) == Some(1.0));
        spent += t;
        on_cpu += c;
        decisions += d;
        if (game + 1) % 25 == 0 {
            println!("{name}: {wins} of {} games won so far", game + 1);
        }
    }
    let p = wins as f64 / GAMES as f64;
    let half = 1.96 * (p * (1.0 - p) / GAMES as f64).sqrt();
    println!(
        "{name} vs policy, 2 players, {GAMES} games: {wins} wins, {:.1} % ± {:.1} %, \
         {:.2} ms per decision on the CPU ({:.2} ms wall) over {decisions} decisions",
        p * 100.0,
        half * 100.0,
        on_cpu.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
        spent.as_secs_f64() * 1000.0 / decisions.max(1) as f64
    );
}

#[test]
#[ignore = "a measurement: 200 games at 1,000 iterations a decision"]
fn fair_ismcts_against_policy() {
    against_policy("Fair(Ismcts 1000)", |seed| {
        Box::new(Fair::new(Ismcts::new(seed, 1_000), seed))
    });
}

#[test]
#[ignore = "a measurement: 200 games at 1,000 iterations a decision"]
fn cheating_ismcts_against_policy() {
    against_policy("Ismcts 1000 sees_everything", |seed| {
        Box::new(Ismcts::new(seed, 1_000).sees_everything())
    });
}
