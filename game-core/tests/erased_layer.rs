//! The type-erased JSON layer: games created, played, viewed and replayed by id, with every
//! error reaching the host as a stable code.

use game_core::testing::players;
use game_core::{DynMatch, Erased, GameError, HostError, Registry, rps::Rps};
use serde_json::{Value, json};

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.register(Erased(Rps)).unwrap();
    registry
}

fn new_match(options: Value) -> Box<dyn DynMatch> {
    registry()
        .create("rps", &options, players(2), Some(77), 0)
        .unwrap()
}

/// The wire code of a host error (for a game error, the game's own code).
fn code(err: &HostError) -> String {
    err.body().code
}

/// Every object key anywhere in `value`.
fn keys(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

fn assert_no_secret_keys(view: &Value) {
    let mut all = Vec::new();
    keys(view, &mut all);
    for key in all {
        let lower = key.to_lowercase();
        assert!(
            !lower.contains("rng") && !lower.contains("seed"),
            "view has key {key:?}: {view}"
        );
    }
}

#[test]
fn registry_lists_and_creates_by_id() {
    let registry = registry();
    assert_eq!(registry.ids().collect::<Vec<_>>(), ["rps"]);
    let game = registry.get("rps").unwrap();
    assert_eq!(
        game.default_options(),
        json!({ "winsNeeded": 3, "turnSeconds": 15 })
    );
    let schemas = game.schemas();
    for (name, schema) in schemas.entries() {
        assert!(schema.is_object(), "{name} schema");
    }
    let m = new_match(json!({ "winsNeeded": 2, "turnSeconds": null }));
    assert_eq!(m.game_id(), "rps");
    assert_eq!(m.deadline(), None);
    assert_eq!(m.to_act(), players(2));
    assert_eq!(m.turn_seq(), 0);
    assert_eq!(m.outcome(), None);
}

#[test]
fn unknown_game_is_refused() {
    let err = registry()
        .create("chess", &json!({}), players(2), Some(1), 0)
        .err()
        .unwrap();
    assert_eq!(code(&err), "UNKNOWN_GAME");
    assert_eq!(err.code(), "UNKNOWN_GAME");
    assert_eq!(Value::Object(err.body().reason), json!({ "game": "chess" }));
}

#[test]
fn bad_options_give_the_game_code() {
    let registry = registry();
    let create = |options: Value| {
        registry
            .create("rps", &options, players(2), Some(1), 0)
            .err()
            .unwrap()
    };

    let err = create(json!({ "winsNeeded": 10 }));
    assert_eq!(code(&err), "INVALID_OPTION");
    assert_eq!(err.body().reason["option"], "winsNeeded");

    let err = create(json!({ "turnSeconds": 4 }));
    assert_eq!(code(&err), "INVALID_OPTION");
    assert_eq!(err.body().reason["option"], "turnSeconds");

    // Values that do not even parse, and options the game does not have, are the same
    // code, naming the option; the parser's words are in `detail`, not in the message.
    for (options, option) in [
        (json!({ "winsNeeded": "many" }), "winsNeeded"),
        (json!({ "winsNeeded": 300 }), "winsNeeded"),
        (json!({ "winsNeeded": -1 }), "winsNeeded"),
        (json!({ "bestOf": 3 }), "bestOf"),
    ] {
        let body = create(options).body();
        assert_eq!(body.code, "INVALID_OPTION");
        assert_eq!(body.reason["option"], option);
        assert!(body.reason["detail"].is_string());
        assert!(!body.message.contains("invalid") && !body.message.contains("unknown"));
    }

    let err = registry
        .create("rps", &json!({}), vec!["solo".into()], Some(1), 0)
        .err()
        .unwrap();
    assert_eq!(code(&err), "BAD_PLAYER_COUNT");
}

#[test]
fn actions_from_json() {
    let mut m = new_match(json!({ "winsNeeded": 1 }));
    let events = m
        .act("p0", json!({ "type": "PICK", "hand": "rock" }), None, 10)
        .result
        .unwrap();
    assert_eq!(events, vec![json!({ "type": "picked", "player": 0 })]);
    assert_eq!(m.to_act(), ["p1"]);
    assert_eq!(
        m.legal_actions("p0").unwrap(),
        vec![json!({ "type": "CONCEDE" })]
    );
    assert_eq!(m.legal_actions("p1").unwrap().len(), 5);
    assert_eq!(code(&m.legal_actions("zed").unwrap_err()), "NOT_SEATED");

    let events = m
        .act(
            "p1",
            json!({ "type": "PICK", "hand": "scissors" }),
            Some(1),
            20,
        )
        .result
        .unwrap();
    assert_eq!(
        events,
        vec![
            json!({ "type": "picked", "player": 1 }),
            json!({ "type": "revealed", "hands": ["rock", "scissors"], "winner": 0 }),
            json!({ "type": "gameOver", "winner": 0 }),
        ]
    );
    assert_eq!(
        m.outcome(),
        Some(json!({ "winner": "p0", "winnerSeat": 0, "scores": [1, 0], "conceded": false }))
    );
    let err = m
        .act("p1", json!({ "type": "CONCEDE" }), None, 30)
        .result
        .unwrap_err();
    assert_eq!(code(&err), "GAME_OVER");
    assert_eq!(err.body().message, "이미 끝난 게임이에요.");
}

#[test]
fn bad_json_action_is_refused() {
    let mut m = new_match(json!({}));
    for bad in [
        json!({ "type": "PICK", "hand": "lizard" }),
        json!({ "type": "PICK" }),
        json!({ "type": "pick", "hand": "rock" }),
        json!({ "hand": "rock" }),
        json!("RANDOM"),
        Value::Null,
    ] {
        let err = m.act("p0", bad.clone(), None, 10).result.unwrap_err();
        assert_eq!(code(&err), "BAD_JSON", "{bad}");
        assert_eq!(err.body().reason["part"], "action");
    }
    assert_eq!(m.turn_seq(), 0);
    assert!(m.record().entries.is_empty());
}

#[test]
fn stale_turn_seq_is_refused() {
    let mut m = new_match(json!({}));
    m.act("p0", json!({ "type": "RANDOM" }), Some(0), 10)
        .result
        .unwrap();
    let err = m
        .act("p1", json!({ "type": "RANDOM" }), Some(0), 20)
        .result
        .unwrap_err();
    assert_eq!(code(&err), "STALE_TURN_SEQ");
    assert_eq!(
        Value::Object(err.body().reason),
        json!({ "got": 0, "expected": 1 })
    );
    assert_eq!(m.turn_seq(), 1);
    m.act("p1", json!({ "type": "RANDOM" }), Some(1), 20)
        .result
        .unwrap();
    assert_eq!(m.turn_seq(), 2);
}

#[test]
fn views_hide_the_other_hand_and_the_rng() {
    let mut spectator_views = Vec::new();
    let mut p1_views = Vec::new();
    for hand in ["rock", "paper", "scissors"] {
        let mut m = new_match(json!({}));
        m.act("p0", json!({ "type": "PICK", "hand": hand }), None, 10)
            .result
            .unwrap();
        let spectator = m.view(None).unwrap();
        let p1 = m.view(Some("p1")).unwrap();
        let p0 = m.view(Some("p0")).unwrap();
        // An id that is not seated is refused, not shown the spectator's view.
        assert_eq!(code(&m.view(Some("zed")).unwrap_err()), "NOT_SEATED");
        for view in [&spectator, &p1, &p0] {
            assert_no_secret_keys(view);
            assert_eq!(view["seats"][0]["picked"], true);
            assert_eq!(view["seats"][1]["picked"], false);
            assert_eq!(view["turnSeq"], 1);
            assert_eq!(view["deadlineAt"], 15_000);
            assert_eq!(view["round"], 1);
        }
        for view in [&spectator, &p1] {
            assert!(view["seats"][0].get("hand").is_none(), "{view}");
            // p1's own legal picks name every hand; nothing else may name any.
            let mut rest = view.clone();
            rest.as_object_mut().unwrap().remove("legalActions");
            assert!(!rest.to_string().contains(hand), "{view}");
        }
        assert_eq!(spectator["legalActions"], json!([]));
        assert_eq!(p1["legalActions"].as_array().unwrap().len(), 5);
        assert_eq!(p0["seats"][0]["hand"], hand);
        assert_eq!(p0["legalActions"], json!([{ "type": "CONCEDE" }]));
        spectator_views.push(spectator);
        p1_views.push(p1);
    }
    // Nothing in the other views depends on the hidden hand.
    assert!(spectator_views.windows(2).all(|w| w[0] == w[1]));
    assert!(p1_views.windows(2).all(|w| w[0] == w[1]));

    // The stored state does hold the RNG: it is for storage, never for clients.
    let m = new_match(json!({}));
    assert!(m.state_json()["table"].get("rng").is_some());
}

#[test]
fn revealed_round_is_public() {
    let mut m = new_match(json!({}));
    m.act("p0", json!({ "type": "PICK", "hand": "paper" }), None, 10)
        .result
        .unwrap();
    m.act("p1", json!({ "type": "PICK", "hand": "rock" }), None, 20)
        .result
        .unwrap();
    let view = m.view(None).unwrap();
    assert_no_secret_keys(&view);
    assert_eq!(
        view["lastRound"],
        json!({ "hands": ["paper", "rock"], "winner": 0 })
    );
    assert_eq!(view["scores"], json!([1, 0]));
    assert_eq!(view["round"], 2);
    assert_eq!(view["deadlineAt"], 15_020);
}

#[test]
fn tick_presence_and_replay_through_the_registry() {
    let registry = registry();
    let mut m = registry
        .create(
            "rps",
            &json!({ "turnSeconds": null }),
            players(2),
            Some(5),
            0,
        )
        .unwrap();
    assert!(m.tick(1_000_000).is_empty());
    m.set_connected("p1", false, 1_000).result.unwrap();
    assert_eq!(
        code(&m.set_connected("zed", false, 1_000).result.unwrap_err()),
        "NOT_SEATED"
    );
    let done = m.tick(6_000);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].player, "p1");
    assert!(done[0].auto);
    assert_eq!(done[0].action, json!({ "type": "RANDOM" }));
    assert_eq!(
        done[0].events,
        vec![json!({ "type": "picked", "player": 1 })]
    );
    assert_eq!(m.view(None).unwrap()["seats"][1]["connected"], false);
    m.act("p0", json!({ "type": "CONCEDE" }), None, 7_000)
        .result
        .unwrap();

    let replayed = registry.replay(m.record()).unwrap();
    assert_eq!(replayed.state_json(), m.state_json());
    assert_eq!(replayed.view(None).unwrap(), m.view(None).unwrap());
    assert_eq!(replayed.outcome(), m.outcome());

    let mut record = m.record().clone();
    record.game = "go".into();
    assert_eq!(
        code(&registry.replay(&record).err().unwrap()),
        "UNKNOWN_GAME"
    );
    record.game = "rps".into();
    record.version = 9;
    assert_eq!(
        code(&registry.replay(&record).err().unwrap()),
        "RECORD_UNSUPPORTED_VERSION"
    );
}
