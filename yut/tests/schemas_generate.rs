//! The JSON Schemas of yut's wire types generate, and the option schemas allow exactly the
//! values `YutOptions::validate` accepts.

use game_core::GameSchemas;
use serde_json::{Value, json};

#[test]
fn schemas_generate_for_every_wire_type() {
    let s = GameSchemas::of(&yut::Yut::standard());
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
}

/// The `enum` of option `field` in the options schema.
fn allowed(options: &Value, field: &str) -> Vec<Value> {
    options["properties"][field]["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{field} has no value set: {options}"))
        .clone()
}

#[test]
fn option_value_sets_are_the_ones_validate_accepts() {
    let options = GameSchemas::of(&yut::Yut::standard()).options;
    let valid = |patch: Value| {
        let o: yut::YutOptions = serde_json::from_value(patch).unwrap();
        o.validate(2).is_ok()
    };
    for (field, candidates) in [
        ("pieces", (0..=255).map(Value::from).collect::<Vec<_>>()),
        ("nakPercent", (0..=255).map(Value::from).collect()),
        (
            "turnSeconds",
            (0..=3_600).map(Value::from).chain([Value::Null]).collect(),
        ),
    ] {
        let set = allowed(&options, field);
        let accepted: Vec<Value> = candidates
            .into_iter()
            .filter(|v| valid(json!({ field: v })))
            .collect();
        assert_eq!(set, accepted, "{field}");
    }
}
