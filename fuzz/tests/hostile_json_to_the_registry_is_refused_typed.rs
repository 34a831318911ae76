//! The type-erased registry with arbitrary JSON, for all three games: actions of wrong
//! types, unknown kinds, unknown fields, oversized strings, the deepest nesting a parsed document can have,
//! huge and negative numbers, and thousands of generated documents; ids of anyone; every
//! request of the `DynMatch` interface in every phase. A refusal is a typed `{code,
//! message}` body and changes nothing: not the state, not the record, not the `turnSeq`.

mod common;

use common::{play, setups};
use fuzz::{Bytes, assert_valid, json_value};
use game_core::testing::{assert_code, assert_no_rng_keys};
use game_core::{DynMatch, GameError};
use game_host::registry;
use serde_json::{Value, json};

/// Action documents no game accepts, or accepts only by chance.
fn hostile_actions() -> Vec<Value> {
    let deepest: Value = serde_json::from_str(&("[".repeat(127) + &"]".repeat(127))).unwrap();
    let big = "x".repeat(1 << 16);
    vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(u64::MAX),
        json!(1e300),
        json!("THROW"),
        json!(big),
        json!([]),
        json!({}),
        json!({ "type": null }),
        json!({ "type": 1 }),
        json!({ "type": "" }),
        json!({ "type": "throw" }),
        json!({ "type": "JUMP" }),
        json!({ "type": big }),
        json!({ "type": "MOVE" }),
        json!({ "type": "MOVE", "throwIndex": -1, "from": "home" }),
        json!({ "type": "MOVE", "throwIndex": u64::MAX, "from": "home" }),
        json!({ "type": "MOVE", "throwIndex": 0.5, "from": "home" }),
        json!({ "type": "MOVE", "throwIndex": 0, "from": -1 }),
        json!({ "type": "MOVE", "throwIndex": 0, "from": 256 }),
        json!({ "type": "MOVE", "throwIndex": 0, "from": "goal" }),
        json!({ "type": "MOVE", "throwIndex": 0, "from": [1] }),
        json!({ "type": "MOVE", "throwIndex": "0", "from": "home" }),
        json!({ "type": "CHOOSE_AUGMENT" }),
        json!({ "type": "CHOOSE_AUGMENT", "index": -3 }),
        json!({ "type": "CHOOSE_AUGMENT", "index": u64::MAX }),
        json!({ "type": "PICK", "hand": "lizard" }),
        json!({ "type": "PICK", "hand": big }),
        json!({ "type": "PICK", "hand": ["rock"] }),
        // Unknown fields, on actions with fields and without, and the array form.
        json!({ "type": "THROW", "force": "mo" }),
        json!({ "type": "CONCEDE", "seat": 0 }),
        json!({ "type": "RANDOM", "hand": "rock" }),
        json!({ "type": "MOVE", "throwIndex": 0, "from": "home", "count": 5 }),
        json!({ "type": "CHOOSE_AUGMENT", "index": 0, "augment": "yut-leap" }),
        json!({ "type": "PICK", "hand": "rock", "peek": true }),
        json!(["THROW"]),
        json!(["CONCEDE"]),
        json!({ "type": deepest.clone() }),
        deepest,
    ]
}

/// Sends `action` from `player`, without a `turnSeq` and with a stale one: accepted (the
/// state then passes the check) or refused with a typed body and nothing changed.
fn send(m: &mut dyn DynMatch, player: &str, action: Value) -> bool {
    for seq in [None, Some(u64::MAX)] {
        let (state, entries, turn_seq) = (m.state_json(), m.record().entries.len(), m.turn_seq());
        match m.act(player, action.clone(), seq, 10_000).result {
            Ok(events) => {
                assert_ne!(seq, Some(u64::MAX), "a stale turnSeq was accepted");
                for e in &events {
                    assert_no_rng_keys(e);
                }
                assert_valid(m);
                return true;
            }
            Err(e) => {
                let body = e.body();
                game_core::testing::assert_typed(&body);
                let size = serde_json::to_string(&body).unwrap().len();
                assert!(
                    size < 2_048,
                    "an error echoes its oversized input: {size} bytes"
                );
                assert_eq!(
                    m.state_json(),
                    state,
                    "refused {} changed the state",
                    body.code
                );
                assert_eq!(m.record().entries.len(), entries);
                assert_eq!(m.turn_seq(), turn_seq);
            }
        }
    }
    false
}

/// Matches of every set-up early in their games and at the end.
fn matches() -> Vec<Box<dyn DynMatch>> {
    let r = registry();
    let mut out = Vec::new();
    for setup in setups() {
        for steps in [7, 10_000] {
            out.push(play(&r, setup.clone(), 3, steps, |_, _| {}));
        }
    }
    out
}

#[test]
fn hostile_action_documents_are_refused_typed() {
    for mut m in matches() {
        let ids = m.record().players.clone();
        for action in hostile_actions() {
            for p in ids.iter().map(String::as_str).chain(["watcher", ""]) {
                // None of these is a real action of the game, except by luck a bare type.
                let accepted = send(m.as_mut(), p, action.clone());
                assert!(!accepted, "{}: {p} accepted {action}", m.game_id());
            }
        }
    }
}

#[test]
fn generated_documents_and_tampered_legal_actions() {
    let mut accepted = 0;
    let mut refused = 0;
    for (k, mut m) in matches().into_iter().enumerate() {
        let ids = m.record().players.clone();
        for i in 0..50u64 {
            let seed = (k as u64) << 32 | i;
            let bytes: Vec<u8> = (0..48u64)
                .map(|j| (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> (j % 57)) as u8 ^ j as u8)
                .collect();
            let mut b = Bytes::new(&bytes);
            let player = m
                .to_act()
                .first()
                .cloned()
                .unwrap_or_else(|| ids[0].clone());
            let action = match (b.below(2), m.legal_actions(&player).unwrap()) {
                (0, legal) if !legal.is_empty() => {
                    let mut a = legal[b.below(legal.len())].clone();
                    fuzz::tamper(&mut b, &mut a);
                    a
                }
                _ => json_value(&mut b, 0),
            };
            if send(m.as_mut(), &player, action) {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
    }
    assert!(refused > accepted, "accepted {accepted}, refused {refused}");
}

#[test]
fn every_other_request_with_any_id() {
    let long = "x".repeat(1 << 16);
    for mut m in matches() {
        let ids = m.record().players.clone();
        let before = m.state_json();
        for p in ["watcher", "", "P0", long.as_str(), "p0\u{0}"] {
            assert_code(&m.legal_actions(p).unwrap_err(), &["NOT_SEATED"]);
            assert_code(
                &m.set_connected(p, false, 1).result.unwrap_err(),
                &["NOT_SEATED"],
            );
            // An id that is not seated is refused, not shown the spectator's view.
            assert_code(&m.view(Some(p)).unwrap_err(), &["NOT_SEATED"]);
            assert_code(&m.view_text(Some(p)).unwrap_err(), &["NOT_SEATED"]);
            assert_no_rng_keys(&m.view(None).unwrap());
        }
        assert_eq!(m.state_json(), before);
        for p in &ids {
            assert_no_rng_keys(&m.view(Some(p)).unwrap());
            m.legal_actions(p).unwrap();
        }
        // Presence changes and the clock at its extremes are accepted and keep the state
        // valid.
        for p in &ids {
            m.set_connected(p, false, u64::MAX).result.unwrap();
            m.set_connected(p, true, 0).result.unwrap();
        }
        for applied in m.tick(u64::MAX) {
            assert!(applied.auto);
        }
        assert_valid(m.as_ref());
    }
}

#[test]
fn unknown_games_and_hostile_ids_at_the_registry() {
    let r = registry();
    let players = vec!["a".to_string(), "b".to_string()];
    for id in ["", "YUT", "yut ", "chess", &"y".repeat(1 << 16), "yut\u{0}"] {
        let err = r
            .create(id, &json!({}), players.clone(), Some(1), 0)
            .err()
            .unwrap();
        assert_code(&err, &["UNKNOWN_GAME"]);
        assert_code(&r.get(id).err().unwrap(), &["UNKNOWN_GAME"]);
    }
    assert_eq!(
        r.ids().collect::<Vec<_>>(),
        ["one-card", "rps", "yut", "yut-augments"]
    );
    for id in r.ids() {
        let g = r.get(id).unwrap();
        // The defaults create a game, and every schema is an object.
        let m = g
            .create(&g.default_options(), players.clone(), 1, 0)
            .unwrap();
        assert_valid(m.as_ref());
        for (name, schema) in g.schemas().entries() {
            assert!(schema.is_object(), "{id} {name}");
        }
    }
}

/// What parsing bounds: a host reads requests with `serde_json`, whose parser refuses
/// documents nested deeper than 128 levels, so the engine never sees deeper JSON (deeper
/// `Value`s built by hand overflow the stack in `serde_json` itself, clone and drop
/// included, whatever the engine does).
#[test]
fn the_parser_bounds_nesting() {
    let deep = "[".repeat(128) + &"]".repeat(128);
    assert!(serde_json::from_str::<Value>(&deep).is_err());
    let ok = "[".repeat(127) + &"]".repeat(127);
    assert!(serde_json::from_str::<Value>(&ok).is_ok());
    // An action is an object: serde's array form of a tagged enum (`["THROW"]`) is refused.
    let mut m = registry()
        .create("yut", &json!({}), vec!["a".into(), "b".into()], Some(1), 0)
        .unwrap();
    let p = m.to_act()[0].clone();
    let err = m.act(&p, json!(["THROW"]), None, 0).result.unwrap_err();
    assert_eq!(err.code(), "BAD_JSON", "{err:?}");
    // Errors from the game (not the host layer) keep their own codes through the registry.
    let mut m = registry()
        .create("yut", &json!({}), vec!["a".into(), "b".into()], Some(1), 0)
        .unwrap();
    let to_act = m.to_act()[0].clone();
    let other = if to_act == "a" { "b" } else { "a" };
    let err = m
        .act(other, json!({ "type": "THROW" }), None, 0)
        .result
        .unwrap_err();
    assert_eq!(err.code(), "GAME_ERROR");
    assert_eq!(err.body().code, "NOT_YOUR_TURN");
}
