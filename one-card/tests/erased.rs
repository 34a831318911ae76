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
