//! One type-erased registry runs yut and rock-paper-scissors from JSON alone, to the end,
//! and their records replay to the same state.

use game_core::{Erased, GameError, GameRng, Registry};
use serde_json::{Value, json};

fn registry() -> Registry {
    let mut r = Registry::new();
    r.register(Erased(yut::Yut::standard())).unwrap();
    r.register(Erased(game_core::rps::Rps)).unwrap();
    r
}

fn play_to_end(registry: &Registry, game: &str, options: Value, players: usize, seed: u64) {
    let ids = yut::testing::players(players);
    let mut m = registry.create(game, &options, ids, Some(seed), 0).unwrap();
    let mut rng = GameRng::from_seed(seed);
    let mut now = 0;
    let mut steps = 0;
    while m.outcome().is_none() {
        let player = m.to_act()[0].clone();
        let legal = m.legal_actions(&player).unwrap();
        // Never concede at random: it would end games before they show anything.
        let choices: Vec<&Value> = legal.iter().filter(|a| a["type"] != "CONCEDE").collect();
        let action = choices[rng.below(choices.len() as u32) as usize].clone();
        let seq = m.turn_seq();
        let events = m.act(&player, action, Some(seq), now).result.unwrap();
        assert!(!events.is_empty());
        let view = serde_json::to_string(&m.view(None).unwrap()).unwrap();
        assert!(!view.contains("\"rng\"") && !view.contains("\"seed\""));
        // The text form is the same view, for the spectator and the player who acted (every
        // eighth step keeps the test quick).
        for who in [None, Some(player.as_str())]
            .into_iter()
            .filter(|_| steps % 8 == 0)
        {
            let text: Value = serde_json::from_str(&m.view_text(who).unwrap()).unwrap();
            assert_eq!(text, m.view(who).unwrap());
        }
        now += 250;
        steps += 1;
        assert!(steps < 5_000, "{game} did not end");
    }
    let record = m.record().clone();
    let again = registry.replay(&record).unwrap();
    assert_eq!(again.state_json(), m.state_json());
    assert_eq!(again.outcome(), m.outcome());
}

#[test]
fn erased_layer_runs_yut_and_rps_from_json() {
    let r = registry();
    assert_eq!(r.ids().collect::<Vec<_>>(), vec!["rps", "yut"]);
    for seed in 0..20 {
        play_to_end(&r, "yut", json!({}), 2 + (seed as usize % 3), seed);
        play_to_end(
            &r,
            "yut",
            json!({"mode": "team", "nakPercent": 10}),
            4,
            seed,
        );
        play_to_end(&r, "rps", json!({"winsNeeded": 3}), 2, seed);
    }
}

#[test]
fn erased_layer_errors_are_typed() {
    let r = registry();
    let players = vec!["a".to_string(), "b".to_string()];
    let bad = r.create("yut", &json!({"mode": "team"}), players.clone(), Some(1), 0);
    assert_eq!(bad.err().unwrap().body().code, "BAD_PLAYER_COUNT");
    // Every bad option value is INVALID_OPTION naming the option, whatever is wrong.
    for (options, option) in [
        (json!({"pieces": "four"}), "pieces"),
        (json!({"pieces": 300}), "pieces"),
        (json!({"pieces": 9}), "pieces"),
        (json!({"nakPercent": 7}), "nakPercent"),
        (json!({"stickModel": "heavy"}), "stickModel"),
        (json!({"turnSeconds": 45}), "turnSeconds"),
        (json!({"wings": 2}), "wings"),
    ] {
        let body = r
            .create("yut", &options, players.clone(), Some(1), 0)
            .err()
            .unwrap()
            .body();
        assert_eq!(body.code, "INVALID_OPTION", "{options}");
        assert_eq!(body.reason["option"], option, "{options}");
    }
    let bad = r.create("go", &json!({}), players.clone(), Some(1), 0);
    assert_eq!(bad.err().unwrap().body().code, "UNKNOWN_GAME");
    let mut m = r.create("yut", &json!({}), players, Some(1), 0).unwrap();
    let before = m.state_json();
    for action in [
        json!(null),
        json!({"type": "MOVE", "throwIndex": -1, "from": 3}),
        json!({"type": "MOVE", "throwIndex": 0, "from": "nowhere"}),
        json!([1, 2]),
    ] {
        let err = m.act("a", action, None, 0).result.unwrap_err();
        assert_eq!(err.body().code, "BAD_JSON");
    }
    let err = m
        .act("zed", json!({"type": "THROW"}), None, 0)
        .result
        .unwrap_err();
    assert_eq!(err.body().code, "NOT_SEATED");
    assert_eq!(m.state_json(), before);
}
