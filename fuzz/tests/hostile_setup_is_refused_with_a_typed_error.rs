//! Setting a game up with any options, any players, any seed and any clock, for all three
//! games (standard Yut Nori, Yut Nori with augments, rock-paper-scissors), through the
//! registry's JSON and through the typed `Game::setup`: either a typed error with one of
//! the setup codes, or a game whose state passes the check and plays. Never a panic.

use fuzz::{Bytes, assert_valid, json_value};
use game_core::GameExt;
use game_core::GameState;
use game_core::rps::{Rps, RpsOptions};
use game_core::testing::{assert_code, players};
use game_core::{Game, GameError, Millis};
use game_host::registry;
use serde_json::{Value, json};
use yut::rules::WithRules;
use yut::{Yut, YutOptions};
use yut_augments::AugmentConfig;

const IDS: [&str; 3] = ["yut", "yut-augments", "rps"];

/// Every code a refused setup may carry, host-level or the game's.
const SETUP_CODES: &[&str] = &[
    "BAD_JSON",
    "UNKNOWN_GAME",
    "INVALID_OPTION",
    "BAD_PLAYER_COUNT",
    "BAD_PLAYERS",
];

/// Creates `id` with `options` and checks the answer: typed refusal, or a valid game in
/// which the player to act can act.
#[track_caller]
fn create(id: &str, options: Value, players: Vec<String>, seed: u64, now: Millis) -> bool {
    match registry().create(id, &options, players, Some(seed), now) {
        Err(e) => {
            assert_code(&e, SETUP_CODES);
            false
        }
        Ok(mut m) => {
            assert_valid(m.as_ref());
            let p = m.to_act()[0].clone();
            let a = m.legal_actions(&p).unwrap()[0].clone();
            // At the end of time the (saturated) deadline has come: the engine acts first,
            // and the move is then stale.
            let played = m.act(&p, a, Some(m.turn_seq()), now);
            assert!(played.result.is_ok() || !played.applied.is_empty());
            assert_valid(m.as_ref());
            true
        }
    }
}

/// A hostile value of every kind: huge, negative, fractional and non-finite-looking
/// numbers, wrong types, oversized strings, the deepest nesting a parsed document can have.
fn hostile_values() -> Vec<Value> {
    let deepest: Value = serde_json::from_str(&("[".repeat(126) + &"]".repeat(126))).unwrap();
    vec![
        json!(-1),
        json!(-128),
        json!(i64::MIN),
        json!(256),
        json!(65_536),
        json!(u32::MAX),
        json!(u64::MAX),
        json!(1e300),
        json!(0.5),
        json!(-0.0),
        json!("4"),
        json!(""),
        json!("x".repeat(1 << 16)),
        json!(true),
        json!(null),
        json!([]),
        json!([4]),
        json!({}),
        json!({ "pieces": 4 }),
        deepest,
    ]
}

/// Every option field of the three games: the keys of their default options.
fn fields() -> Vec<String> {
    let r = registry();
    let mut all: Vec<String> = r
        .ids()
        .flat_map(|id| match r.get(id).unwrap().default_options() {
            Value::Object(o) => o.keys().cloned().collect::<Vec<_>>(),
            _ => Vec::new(),
        })
        .collect();
    all.sort();
    all.dedup();
    assert!(all.len() >= 14, "{all:?}");
    all
}

#[test]
fn every_field_with_every_hostile_value() {
    let mut accepted = 0;
    for id in IDS {
        let n = if id == "rps" { 2 } else { 3 };
        for field in &fields() {
            for value in hostile_values() {
                let mut options = json!({});
                options[field.as_str()] = value;
                accepted += usize::from(create(id, options, players(n), 1, 0));
            }
        }
    }
    // `turnSeconds: null` (no limit) and a few booleans are fine; nearly all are refused.
    assert!((1..40).contains(&accepted), "accepted {accepted}");
}

#[test]
fn options_that_are_not_objects_or_have_unknown_fields() {
    for id in IDS {
        // Arrays are left out: serde reads a struct from a JSON array positionally, so `[]`
        // is the default options (see `arrays_are_read_positionally`).
        for options in hostile_values()
            .into_iter()
            .filter(|v| !v.is_object() && !v.is_array())
            .chain([
                json!({ "wings": 2 }),
                json!({ "pieces": 4, "Pieces": 4 }),
                json!({ "x".repeat(1 << 16): 1 }),
                json!({ "augments": ["first-step", "wings"] }),
                json!({ "augments": ["first-step", "first-step"] }),
                json!({ "augments": "first-step" }),
                json!({ "winsNeeded": 3, "turnSeconds": 4 }),
            ])
        {
            let text = options.to_string();
            let ok = create(id, options, players(2), 1, 0);
            assert!(!ok, "{id} accepted {}", &text[..60.min(text.len())]);
        }
    }
}

/// serde's derived `Deserialize` also reads a struct from a JSON array, field by field in
/// declaration order; the host layer refuses that for every game whose options are an
/// object, so `[]` or `["individual", 3]` is a typed `BAD_JSON`, not the defaults.
#[test]
fn options_that_are_arrays_are_refused() {
    for id in IDS {
        for options in [json!([]), json!(["individual", 3]), json!([5]), json!([{}])] {
            let err = registry()
                .create(id, &options.clone(), players(2), Some(1), 0)
                .err()
                .unwrap_or_else(|| panic!("{id} accepted {options}"));
            assert_eq!(err.code(), "BAD_JSON", "{id} {options}: {err:?}");
            let detail = err.body().reason["detail"].to_string();
            assert!(detail.contains("JSON object"), "{err:?}");
        }
    }
}

#[test]
fn random_json_objects_as_options() {
    let mut accepted = 0;
    let fields = fields();
    for seed in 0..300u64 {
        let bytes: Vec<u8> = (0..64u64)
            .map(|i| (seed.wrapping_mul(0x9E37_79B9).wrapping_add(i * 7919) >> 3) as u8)
            .collect();
        let mut b = Bytes::new(&bytes);
        let mut options = json!({});
        for _ in 0..1 + b.below(3) {
            options[fields[b.below(fields.len())].as_str()] = json_value(&mut b, 1);
        }
        let id = IDS[seed as usize % 3];
        accepted += usize::from(create(id, options, players(2), seed, seed));
    }
    assert!(accepted < 300);
}

#[test]
fn hostile_players_seeds_and_clocks() {
    let long = "p".repeat(129);
    let lists: Vec<Vec<String>> = vec![
        vec![],
        vec!["a".into()],
        vec!["a".into(), "a".into()],
        vec!["a".into(), String::new()],
        vec!["a".into(), long.clone()],
        vec!["a".into(), "x".repeat(1 << 20)],
        players(9),
        players(1_000),
        vec!["말".repeat(40), "🎲\u{0}\"\\".into()],
    ];
    for id in IDS {
        for list in &lists {
            for (seed, now) in [(0, 0), (u64::MAX, u64::MAX), (1, u64::MAX - 1)] {
                let ok = create(id, json!({}), list.clone(), seed, now);
                let fits = match id {
                    "rps" => list.len() == 2,
                    _ => (2..=4).contains(&list.len()),
                };
                let ids_ok = list.iter().all(|p| !p.is_empty() && p.len() <= 128)
                    && list.iter().enumerate().all(|(i, p)| !list[..i].contains(p));
                assert_eq!(ok, fits && ids_ok, "{id} with {} players", list.len());
            }
        }
    }
}

/// The typed entry point, without JSON: values no JSON parse would refuse but the
/// validation must.
#[test]
fn typed_setup_with_out_of_range_values() {
    let yut = Yut::standard();
    let augmented = yut_augments::game();
    let p = players(2);
    for f in [
        (|o: &mut YutOptions| o.pieces = 0) as fn(&mut YutOptions),
        |o| o.pieces = 1,
        |o| o.pieces = 6,
        |o| o.pieces = u8::MAX,
        |o| o.nak_percent = 1,
        |o| o.nak_percent = u8::MAX,
        |o| o.turn_seconds = Some(0),
        |o| o.turn_seconds = Some(u32::MAX),
        |o| o.mode = yut::Mode::Team,
    ] {
        let mut o = YutOptions::default();
        f(&mut o);
        // Two players in team play are a wrong player count, the rest bad values.
        let codes: &[&str] = match o.mode {
            yut::Mode::Team => &["BAD_PLAYER_COUNT"],
            _ => &["INVALID_OPTION"],
        };
        let err = yut.setup(&o, &p, 1, 0).unwrap_err();
        assert_code(&err, codes);
        let with = WithRules {
            base: o,
            rules: AugmentConfig::app(),
        };
        let err = augmented.setup(&with, &p, 1, 0).unwrap_err();
        assert_code(&err, codes);
    }
    for (wins, secs) in [
        (0, Some(15)),
        (10, Some(15)),
        (u8::MAX, None),
        (3, Some(4)),
        (3, Some(u32::MAX)),
    ] {
        let o = RpsOptions {
            wins_needed: wins,
            turn_seconds: secs,
        };
        assert_code(&Rps.setup(&o, &p, 1, 0).unwrap_err(), &["INVALID_OPTION"]);
    }
    // At the end of `u64` the time is read as `MAX_TIME`, where the clock stops: the
    // deadline falls due there (a later one would never come), tick acts at it, and the
    // state passes every check. Just below, the limit is cut to what is left of the clock.
    let o = RpsOptions {
        wins_needed: 1,
        turn_seconds: Some(600),
    };
    for (now, deadline) in [
        (u64::MAX, game_core::MAX_TIME),
        (game_core::MAX_SAFE_INTEGER, game_core::MAX_TIME),
        (game_core::MAX_TIME, game_core::MAX_TIME),
        (game_core::MAX_TIME - 1_000, game_core::MAX_TIME),
        (game_core::MAX_TIME - 600_000, game_core::MAX_TIME),
        (game_core::MAX_TIME - 600_001, game_core::MAX_TIME - 1),
    ] {
        let mut s = Rps.setup(&o, &p, 1, now).unwrap();
        assert_eq!(Rps.deadline(&s), Some(deadline), "now {now}");
        assert_eq!(Rps.next_tick_at(&s), Some(deadline), "now {now}");
        Rps.check_state(&s).unwrap();
        s.table().check().unwrap();
        assert_eq!(Rps.tick(&mut s, deadline).len(), 2, "now {now}");
    }
}

/// Every registered game, set up at the end of the clock or just before it, ends by
/// timeouts alone: each `tick` at `next_tick_at` takes something until the match is over
/// (at the end a `now` is read as `MAX_TIME`, and no deadline lies past it). The record
/// replays to the state played, and the stored state restores.
#[test]
fn every_game_at_the_end_of_the_clock_ends_by_timeouts() {
    let registry = game_host::registry();
    let max = game_core::MAX_TIME;
    for id in registry.ids() {
        for start in [
            u64::MAX,
            game_core::MAX_SAFE_INTEGER,
            max,
            max - 1_000,
            max - 100_000,
        ] {
            let mut m = registry
                .create(id, &serde_json::json!({}), players(2), Some(7), start)
                .unwrap();
            let mut ticks = 0;
            while let Some(at) = m.next_tick_at() {
                assert!(at <= max, "{id} from {start}: next tick at {at}");
                assert!(
                    !m.tick(at).is_empty(),
                    "{id} from {start}: tick {ticks} at {at}"
                );
                ticks += 1;
                assert!(
                    ticks < 10_000,
                    "{id} from {start}: no end after {ticks} ticks"
                );
            }
            assert!(
                m.status().over,
                "{id} from {start}: nothing timed, not over"
            );
            assert!(ticks > 0, "{id} from {start}");
            let state = m.state_json();
            if start > game_core::MAX_SAFE_INTEGER {
                // A record keeps the times a host sends (at most 2^53 − 1): one written
                // from a later `now` is not one the live operations could have written.
                let refused = registry.replay(m.record()).err().unwrap();
                assert_eq!(refused.body().code, "RECORD_MALFORMED", "{id}");
            } else {
                let replayed = registry.replay(m.record()).unwrap();
                assert_eq!(replayed.state_json(), state, "{id} from {start}");
            }
            let restored = registry.restore(id, &state.to_string()).unwrap();
            assert_eq!(restored.state_json(), state, "{id} from {start}");
        }
    }
}
