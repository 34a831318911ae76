//! Information safety over many random games of all three games: every view (every player
//! and a spectator), every event and every error body is serialized and searched for
//! anything derived from the RNG — a key `rng` or `seed` (or the generator's `stream` and
//! `word_pos`), the seed itself as a number or as text, the generator's 32-byte key array.
//! And two states identical except for their RNG give identical views to every viewer, so
//! nothing a player sees predicts a throw, a random pick or a draft candidate.

mod common;

use common::{play, setups};
use game_core::GameExt;
use game_core::GameState;
use game_core::testing::assert_no_rng_keys;
use game_core::{DynMatch, Game, GameError, Viewer};
use game_host::registry;
use serde_json::{Value, json};

/// What the generator of a stored state looks like on the wire.
struct Secrets {
    seed: u64,
    key: Value,
}

impl Secrets {
    fn of(m: &mut dyn DynMatch) -> Self {
        let state = m.state_json();
        let table = if m.game_id() == "rps" {
            &state["table"]
        } else {
            &state["board"]["table"]
        };
        let key = table["rng"]["seed"].clone();
        assert_eq!(
            key.as_array().map(Vec::len),
            Some(32),
            "the generator's key"
        );
        Self {
            seed: m.record().seed,
            key,
        }
    }

    /// Panics if `v` holds any of the secrets.
    #[track_caller]
    fn assert_absent(&self, v: &Value, what: &str) {
        assert_no_rng_keys(v);
        let text = v.to_string();
        assert!(
            !text.contains(&self.seed.to_string()),
            "{what} holds the seed: {text}"
        );
        self.walk(v, what);
    }

    fn walk(&self, v: &Value, what: &str) {
        match v {
            Value::Number(n) => assert_ne!(n.as_u64(), Some(self.seed), "{what}"),
            Value::Array(items) => {
                assert!(v != &self.key, "{what} holds the generator's key");
                items.iter().for_each(|i| self.walk(i, what));
            }
            Value::Object(m) => m.values().for_each(|i| self.walk(i, what)),
            _ => {}
        }
    }
}

/// Large seeds, so that no ordinary number of a view (a node, a count, a clock) can equal
/// one by chance.
fn seeds() -> [u64; 2] {
    [0x5EED_0000_1234_5678, 0x7FFF_0000_DEAD_BEEF]
}

/// The views of every viewer of `state`, as JSON.
fn views<G: Game>(game: &G, state: &G::State) -> Vec<Value> {
    let players = state.table().players().to_vec();
    players
        .iter()
        .map(|p| Viewer::Player(p.as_str()))
        .chain([Viewer::Spectator])
        .map(|v| serde_json::to_value(game.view(state, v)).unwrap())
        .collect()
}

/// Re-seeds the stored state of `m` with other seeds: every viewer's view stays the same.
fn views_ignore_the_rng(m: &dyn DynMatch) {
    let json = m.state_json().to_string();
    fn same<G: Game>(game: &G, json: &str) {
        let state = game.restore(json).unwrap();
        let before = views(game, &state);
        for other in [0, 1, u64::MAX] {
            let forked = game.fork(&state, other);
            assert!(forked != state || other == 0, "fork changed nothing");
            assert_eq!(views(game, &forked), before, "a view depends on the RNG");
        }
    }
    match m.game_id() {
        "yut" => same(&yut::Yut::standard(), &json),
        "yut-augments" => same(&yut_augments::game(), &json),
        _ => same(&game_core::rps::Rps, &json),
    }
}

#[test]
fn views_and_events_of_random_games() {
    let r = registry();
    let (mut games, mut events_seen, mut views_seen) = (0, 0, 0);
    for setup in setups() {
        for seed in seeds() {
            let mut step = 0;
            let mut m = play(&r, setup.clone(), seed, 250, |m, events| {
                let secrets = Secrets::of(m);
                for e in events {
                    secrets.assert_absent(e, "an event");
                    events_seen += 1;
                }
                let ids = m.record().players.clone();
                for viewer in ids.iter().map(|p| Some(p.as_str())).chain([None]) {
                    secrets.assert_absent(&m.view(viewer).unwrap(), "a view");
                    views_seen += 1;
                }
                for p in &ids {
                    for a in m.legal_actions(p).unwrap() {
                        secrets.assert_absent(&a, "a legal action");
                    }
                }
                if step % 10 == 0 {
                    views_ignore_the_rng(m);
                }
                step += 1;
            });
            if let Some(outcome) = m.outcome() {
                Secrets::of(m.as_mut()).assert_absent(&outcome, "the outcome");
            }
            views_ignore_the_rng(m.as_ref());
            games += 1;
        }
    }
    assert_eq!(games, 10);
    assert!(
        events_seen > 1_000 && views_seen > 3_000,
        "{events_seen} {views_seen}"
    );
}

#[test]
fn error_bodies_of_every_kind() {
    let r = registry();
    for setup in setups() {
        for steps in [0, 5, 40, 10_000] {
            let mut m = play(&r, setup.clone(), seeds()[0], steps, |_, _| {});
            let secrets = Secrets::of(m.as_mut());
            let ids = m.record().players.clone();
            let seq = m.turn_seq();
            let current = m
                .to_act()
                .first()
                .cloned()
                .unwrap_or_else(|| ids[0].clone());
            let other = ids.iter().find(|p| **p != current).unwrap().clone();
            let attempts = [
                ("watcher", json!({ "type": "CONCEDE" }), None),
                (current.as_str(), json!({ "type": "THROW" }), Some(seq + 1)),
                (other.as_str(), json!({ "type": "THROW" }), None),
                (current.as_str(), json!({ "type": "JUMP" }), None),
                (
                    current.as_str(),
                    json!({ "type": "MOVE", "throwIndex": 9, "from": 4 }),
                    None,
                ),
                (
                    current.as_str(),
                    json!({ "type": "CHOOSE_AUGMENT", "index": 9 }),
                    None,
                ),
                (
                    current.as_str(),
                    json!({ "type": "PICK", "hand": "lizard" }),
                    None,
                ),
                (current.as_str(), json!({ "type": "RANDOM" }), None),
            ];
            let mut bodies = Vec::new();
            for (p, a, seq) in attempts {
                if let Err(e) = m.act(p, a, seq, 1).result {
                    bodies.push(e.body());
                }
            }
            bodies.extend(m.legal_actions("watcher").err().map(|e| e.body()));
            bodies.extend(
                m.set_connected("watcher", false, 1)
                    .result
                    .err()
                    .map(|e| e.body()),
            );
            let mut record = m.record().clone();
            record.version = 9;
            bodies.extend(r.replay(&record).err().map(|e| e.body()));
            assert!(bodies.len() >= 6, "{}", bodies.len());
            for body in bodies {
                secrets.assert_absent(&serde_json::to_value(&body).unwrap(), "an error");
            }
        }
    }
}

/// The typed errors of setup, too (no state exists yet, but the seed was given).
#[test]
fn setup_errors_do_not_echo_the_seed() {
    let r = registry();
    let seed = seeds()[1];
    let two = || vec!["a".to_string(), "b".to_string()];
    for (id, options, players) in [
        ("yut", json!({ "pieces": 9 }), two()),
        ("yut-augments", json!({ "augments": ["wings"] }), two()),
        ("rps", json!({ "winsNeeded": 0 }), two()),
        ("rps", json!({}), vec!["a".to_string()]),
    ] {
        let err = r
            .create(id, &options, players, Some(seed), 0)
            .err()
            .unwrap();
        let text = serde_json::to_string(&err.body()).unwrap();
        assert!(!text.contains(&seed.to_string()), "{text}");
        assert!(!err.code().is_empty() && !text.contains("rng"));
    }
}
