//! `cargo run --release -p party-games-node --example erased -- GAMES [object|fast|advance]`: the
//! benchmark of `npm run bench` without Node: uniform-random 2-player Yut games through the
//! binding's own calls, so that the package's figure minus this one is the cost of
//! crossing into JavaScript (and of `JSON.parse` there).
//!
//! - `object` (the default): each decision `status`, `legal` (its JSON text read back
//!   here, as index.js parses it) and `act` with the text of the action picked.
//! - `fast`: each decision `legalCount`, then `playLegal` (`act_legal` writing the status
//!   after it), the events left as text, as the package's fast loop leaves them unread.
//! - `advance`: `legalCount` once a game, then each decision `advance`, whose answer is
//!   the next decision's number of legal actions (no events written, no status read).
//!
//! Prints the time per call of each kind (the timer's own cost taken off), then
//! `games/s: G decisions/s: D` last.

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use party_games_node::engine::{Engine, STATUS_HEAD, Session, Who};
use serde_json::Value;

/// The status the binding wrote: the seat to act first, or `None` once over.
fn first_to_act(slots: &[u8]) -> Option<u32> {
    let slot = |i: usize| f64::from_ne_bytes(slots[8 * i..8 * i + 8].try_into().expect("8 bytes"));
    (slot(4) == 0.0 && slot(5) > 0.0).then(|| slot(STATUS_HEAD) as u32)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let mode = args.next().unwrap_or_else(|| "object".into());
    let fast = mode == "fast";
    let advance = mode == "advance";
    let engine = Engine::default();

    // xorshift64*: the choices only need to be uniform and repeatable.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut pick = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    };
    let mut status = vec![0u8; 8 * (STATUS_HEAD + 2)];
    let start = Instant::now();
    let mut decisions = 0u64;
    // Time in each kind of call (with its JSON reading here), and in an empty timed region
    // (the timer's own cost, taken off each call's).
    let mut spent = [Duration::ZERO; 4];
    let mut timed = |i: usize, f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        spent[i] += t.elapsed();
    };
    for g in 0..games {
        let players = vec!["p1".to_owned(), "p2".to_owned()];
        let mut m: Session = engine
            .create("yut", players, None, Some((1 + g) as f64), None, None)
            .expect("a yut match");
        m.status_into(&mut status).expect("status");
        if advance {
            let seat = first_to_act(&status).expect("a seat to act");
            let mut n = m.legal_count(Who::Seat(seat)).expect("legalCount");
            while n > 0 {
                let i = pick(n) as f64;
                timed(1, &mut || n = m.advance(i).expect("a legal action"));
                timed(3, &mut || {});
                decisions += 1;
            }
            continue;
        }
        while let Some(seat) = first_to_act(&status) {
            let who = Who::Seat(seat);
            if fast {
                let mut n = 0;
                timed(0, &mut || n = m.legal_count(who).expect("legalCount"));
                let i = pick(n) as f64;
                timed(1, &mut || {
                    m.act_legal(who, i, None, None, Some(&mut status))
                        .expect("a legal action");
                });
            } else {
                let mut legal = Vec::new();
                timed(1, &mut || {
                    let text = m.legal(who).expect("legal");
                    legal = serde_json::from_str::<Vec<Value>>(&text).expect("JSON");
                });
                let action = legal[pick(legal.len())].to_string();
                timed(2, &mut || {
                    let events = m
                        .act(who, &action, None, None, None)
                        .expect("a legal action");
                    serde_json::from_str::<Value>(&events).expect("JSON");
                });
                timed(0, &mut || m.status_into(&mut status).expect("status"));
            }
            timed(3, &mut || {});
            decisions += 1;
        }
    }
    let s = start.elapsed().as_secs_f64();
    let per = |d: Duration| d.saturating_sub(spent[3]).as_secs_f64() * 1e6 / decisions as f64;
    if advance {
        println!("per call: advance {:.2} µs", per(spent[1]));
    } else if fast {
        println!(
            "per call: legalCount {:.2} µs, playLegal {:.2} µs",
            per(spent[0]),
            per(spent[1])
        );
    } else {
        println!(
            "per call: status {:.2} µs, legal {:.2} µs, act {:.2} µs",
            per(spent[0]),
            per(spent[1]),
            per(spent[2])
        );
    }
    println!(
        "games/s: {:.0} decisions/s: {:.0}",
        games as f64 / s,
        decisions as f64 / s
    );
}
