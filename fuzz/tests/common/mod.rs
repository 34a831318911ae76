//! Helpers shared by the hostile-input, information-safety and determinism tests (each test
//! binary uses some of them). Player ids and error checks are `game_core::testing`'s.
#![allow(dead_code)]

use game_core::testing::players;
use game_core::{DynMatch, GameRng, Millis, Registry};
use serde_json::{Value, json};

/// The three games as `(registry id, options, players)` set-ups worth testing: standard
/// Yut Nori in individual and team play, Yut Nori with the whole augment pack (2 and 4
/// players), and rock-paper-scissors.
pub fn setups() -> Vec<(&'static str, Value, usize)> {
    vec![
        ("yut", json!({ "nakPercent": 5 }), 2),
        ("yut", json!({ "mode": "team", "turnSeconds": null }), 4),
        (
            "yut-augments",
            json!({ "stickModel": "fair", "backdoFromDo": "home" }),
            2,
        ),
        (
            "yut-augments",
            json!({ "ranking": "all", "turnSeconds": 15 }),
            3,
        ),
        ("rps", json!({ "winsNeeded": 3 }), 2),
    ]
}

/// Plays a registry match with random inputs: mostly legal actions of the player to act
/// (never a concede, except now and then), timeouts and presence changes, `steps` of them
/// at most. `each` sees the match after every step with the events of that step.
pub fn play(
    registry: &Registry,
    (id, options, n): (&str, Value, usize),
    seed: u64,
    steps: usize,
    mut each: impl FnMut(&mut dyn DynMatch, &[Value]),
) -> Box<dyn DynMatch> {
    let ids = players(n);
    let mut m = registry
        .create(id, &options, ids.clone(), Some(seed), 0)
        .unwrap();
    let mut rng = GameRng::from_seed(seed ^ 0xABCD);
    let mut now: Millis = 0;
    for _ in 0..steps {
        if m.outcome().is_some() {
            break;
        }
        now += Millis::from(rng.below(4_000));
        let events: Vec<Value> = match rng.below(20) {
            0 => m
                .tick(m.deadline().unwrap_or(now).max(now))
                .into_iter()
                .flat_map(|a| a.events)
                .collect(),
            1 => {
                let p = &ids[rng.below(n as u32) as usize];
                m.set_connected(p, rng.chance(1, 2), now).result.unwrap();
                Vec::new()
            }
            2 if rng.below(40) == 0 => {
                let p = &ids[rng.below(n as u32) as usize];
                m.act(p, json!({ "type": "CONCEDE" }), None, now)
                    .result
                    .unwrap_or_default()
            }
            _ => {
                // As a host does: the timeouts due by now first, then the player's move.
                let mut events: Vec<Value> =
                    m.tick(now).into_iter().flat_map(|a| a.events).collect();
                let to_act = m.to_act();
                if to_act.is_empty() {
                    each(m.as_mut(), &events);
                    continue;
                }
                let p = &to_act[rng.below(to_act.len() as u32) as usize];
                let legal: Vec<Value> = m
                    .legal_actions(p)
                    .unwrap()
                    .into_iter()
                    .filter(|a| a["type"] != "CONCEDE")
                    .collect();
                if !legal.is_empty() {
                    let a = legal[rng.below(legal.len() as u32) as usize].clone();
                    events.extend(m.act(p, a, Some(m.turn_seq()), now).result.unwrap());
                }
                events
            }
        };
        each(m.as_mut(), &events);
    }
    m
}
