//! `cargo run --release -p party-games-node --example erased -- GAMES`: the benchmark of
//! `npm run bench` without Node: uniform-random 2-player Yut games through the binding's
//! own calls (`status`, `legal`, `act`, JSON text in and out), so that the package's
//! figure minus this one is the cost of crossing into JavaScript (and of `JSON.parse`).
//! Prints the time per call of each kind, then `games/s: G decisions/s: D` last.

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use party_games_node::engine::Engine;
use serde_json::Value;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let engine = Engine::default();
    // xorshift64*: the choices only need to be uniform and repeatable.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut pick = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    };
    let start = Instant::now();
    let mut decisions = 0u64;
    // Time in `status`, `legal` and `act` (with their JSON reading here).
    let mut spent = [Duration::ZERO; 3];
    for g in 0..games {
        let players = vec!["p1".to_owned(), "p2".to_owned()];
        let mut m = engine
            .create("yut", players, None, Some((1 + g) as f64), None)
            .expect("a yut match");
        loop {
            let t = Instant::now();
            let status: Value = serde_json::from_str(&m.status().expect("status")).expect("JSON");
            spent[0] += t.elapsed();
            if status["over"] == true {
                break;
            }
            let player = status["toAct"][0].as_str().expect("a player").to_owned();
            let t = Instant::now();
            let legal: Vec<Value> =
                serde_json::from_str(&m.legal(&player).expect("legal")).expect("JSON");
            spent[1] += t.elapsed();
            let action = legal[pick(legal.len())].to_string();
            let t = Instant::now();
            m.act(&player, &action, None, None).expect("a legal action");
            spent[2] += t.elapsed();
            decisions += 1;
        }
    }
    let s = start.elapsed().as_secs_f64();
    let per = |d: Duration| d.as_secs_f64() * 1e6 / decisions as f64;
    println!(
        "per call: status {:.2} µs, legal {:.2} µs, act {:.2} µs",
        per(spent[0]),
        per(spent[1]),
        per(spent[2])
    );
    println!(
        "games/s: {:.0} decisions/s: {:.0}",
        games as f64 / s,
        decisions as f64 / s
    );
}
