//! One Card runs in game-core's type-erased JSON layer like the built-in games: created,
//! played, viewed, restored and replayed by id.

use game_core::{Erased, GameError, Registry};
use serde_json::json;

#[test]
fn the_registry_hosts_one_card() {
    let mut registry = Registry::new();
    registry.register(Erased(one_card::OneCard)).unwrap();
    let game = registry.get("one-card").unwrap();
    assert_eq!(game.default_options()["handSize"], 7);
    let players = vec!["ann".to_string(), "bo".to_string(), "cy".to_string()];
    let mut m = registry
        .create(
            "one-card",
            &json!({ "ranking": "all" }),
            players,
            Some(9),
            0,
        )
        .unwrap();
    assert_eq!(m.to_act(), ["ann"]);
    let view = m.view(Some("bo")).unwrap();
    assert_eq!(view["hand"].as_array().unwrap().len(), 7);
    assert_eq!(view["handCounts"], json!([7, 7, 7]));
    assert!(m.view(None).unwrap().get("hand").is_none());
    let err = m
        .act("bo", json!({ "type": "DRAW" }), None, 10)
        .result
        .unwrap_err();
    assert_eq!(err.body().code, "NOT_YOUR_TURN");
    let err = m
        .act("ann", json!({ "type": "DRAW", "n": 2 }), None, 10)
        .result
        .unwrap_err();
    assert_eq!(err.body().code, "BAD_JSON");
    m.act("ann", json!({ "type": "DRAW" }), None, 10)
        .result
        .unwrap();
    assert_eq!(m.to_act(), ["bo"]);
    let restored = registry
        .restore("one-card", &m.state_json().to_string())
        .unwrap();
    assert_eq!(restored.state_json(), m.state_json());
    let replayed = registry.replay(m.record()).unwrap();
    assert_eq!(replayed.state_json(), m.state_json());
}

mod common;

/// A registry with One Card, and a match of it restored from `state`.
fn hosted(state: &one_card::OneCardState) -> (Registry, Box<dyn game_core::DynMatch>) {
    let mut registry = Registry::new();
    registry.register(Erased(one_card::OneCard)).unwrap();
    let text = serde_json::to_string(state).unwrap();
    let m = registry.restore("one-card", &text).unwrap();
    (registry, m)
}

#[test]
fn the_call_window_opens_acts_to_players_not_to_move() {
    let state = common::default_position(&[&["5H", "6H"], &["3C", "4C"], &["5C", "6C"]], "9H");
    let (_, mut m) = hosted(&state);
    // No window: only the mover may act, and the others are refused as before.
    assert!(m.may_act("p0") && !m.may_act("p1") && !m.may_act("p2"));
    assert!(m.status().may_act.is_empty());
    assert_eq!(
        m.legal_actions("p2").unwrap(),
        Vec::<serde_json::Value>::new()
    );
    let refused = |m: &mut Box<dyn game_core::DynMatch>, who: &str, action| {
        m.act(who, action, None, 0).result.unwrap_err().body().code
    };
    assert_eq!(
        refused(&mut m, "p2", json!({"type": "DRAW"})),
        "NOT_YOUR_TURN"
    );
    assert_eq!(
        refused(&mut m, "p2", json!({"type": "CATCH", "player": "p0"})),
        "NO_CALL_WINDOW"
    );
    m.act("p0", json!({"type": "PLAY", "card": "5H"}), None, 0)
        .result
        .unwrap();
    // p0 holds one card: p1 is to move, p0 and p2 may call besides.
    let status = m.status();
    assert_eq!((status.to_act, status.may_act), (vec![1], vec![0, 2]));
    assert!(["p0", "p1", "p2"].iter().all(|p| m.may_act(p)));
    assert_eq!(
        m.legal_actions("p0").unwrap(),
        [json!({"type": "ONE_CARD"})]
    );
    assert_eq!(
        m.legal_actions("p2").unwrap(),
        [json!({"type": "CATCH", "player": "p0"})]
    );
    // A seat that may act, but not this: the game's own refusal.
    assert_eq!(
        refused(&mut m, "p2", json!({"type": "DRAW"})),
        "NOT_YOUR_TURN"
    );
    m.act("p2", json!({"type": "CATCH", "player": "p0"}), None, 0)
        .result
        .unwrap();
    assert!(m.status().may_act.is_empty());
    assert!(!m.may_act("p0") && !m.may_act("p2") && !m.may_act("zed"));
}

#[test]
fn each_viewer_gets_their_projection_of_a_draw() {
    let state = common::default_position(&[&["5H", "6H"], &["3C", "4C"], &["5C", "6C"]], "9C");
    let (_, mut m) = hosted(&state);
    let drawn = state.draw_pile().last().unwrap().to_string();
    let played = m.act("p0", json!({"type": "DRAW"}), None, 0);
    let mine = json!([{"type": "drew", "player": "p0", "cards": [drawn]}]);
    let theirs = json!([{"type": "drew", "player": "p0", "count": 1}]);
    assert_eq!(json!(played.result.as_ref().unwrap()), mine);
    assert_eq!(json!(played.events_for(Some("p0"))), mine);
    assert_eq!(json!(played.events_for(Some("p1"))), theirs);
    assert_eq!(json!(played.events_for(None)), theirs);
    let text: serde_json::Value =
        serde_json::from_str(&played.events().text_for(Some("p2"))).unwrap();
    assert_eq!(text, theirs);
    // The text path: the actor's projection too.
    let played = m.act_text("p1", r#"{"type":"DRAW"}"#, None, 1);
    let mine: serde_json::Value = serde_json::from_str(played.result.as_ref().unwrap()).unwrap();
    assert!(mine[0]["cards"].is_array(), "{mine}");
    assert_eq!(played.events_for(Some("p0"))[0]["count"], 1);
    // A timeout's draw: the spectator's projection on the wire, the drawer's on asking.
    let applied = m.tick(1_000_000);
    assert_eq!(applied[0].player, "p2");
    assert_eq!(applied[0].events[0]["count"], 1);
    assert!(applied[0].events[0].get("cards").is_none());
    assert!(applied[0].for_viewer(Some("p2")).events[0]["cards"].is_array());
    assert_eq!(applied[0].events_for(Some("p1")), applied[0].events);
}

#[test]
fn a_random_bot_plays_the_live_match_to_its_end() {
    let mut registry = Registry::new();
    registry.register(Erased(one_card::OneCard)).unwrap();
    let game = registry.get("one-card").unwrap();
    assert_eq!(game.bot_kinds(), ["random", "pimc", "ismcts"]);
    assert_eq!(game.bot("policy", 1).err().unwrap().code(), "UNKNOWN_BOT");
    let players: Vec<String> = (0..4).map(|i| format!("p{i}")).collect();
    let mut m = registry
        .create("one-card", &json!({}), players, Some(3), 0)
        .unwrap();
    let mut bot = game.bot("random", 5).unwrap();
    for step in 0..5_000 {
        let Some(p) = m.to_act().first().cloned() else {
            break;
        };
        let action = bot.choose(m.as_ref(), &p).unwrap();
        m.act(&p, action, None, step).result.unwrap();
    }
    assert!(m.outcome().is_some());
    // A bot of another game has nothing to say about this match.
    let mut rps = Registry::new();
    rps.register(Erased(game_core::rps::Rps)).unwrap();
    let mut other = rps.get("rps").unwrap().bot("random", 1).unwrap();
    let fresh = registry
        .create(
            "one-card",
            &json!({}),
            vec!["a".into(), "b".into()],
            Some(1),
            0,
        )
        .unwrap();
    assert!(other.choose(fresh.as_ref(), "a").is_none());
}
