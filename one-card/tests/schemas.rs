//! The JSON Schemas of One Card's wire types generate, name every card, action and event,
//! and the option value sets are exactly what `OneCardOptions::validate` accepts.

use game_core::GameSchemas;
use one_card::{OneCard, OneCardOptions};
use serde_json::{Value, json};

#[test]
fn schemas_generate_for_every_wire_type() {
    let s = GameSchemas::of(&OneCard);
    for (name, schema) in s.entries() {
        assert!(schema.is_object(), "{name}: {schema}");
    }
    let action = serde_json::to_string(&s.action).unwrap();
    for t in [
        "PLAY", "DRAW", "ONE_CARD", "CATCH", "CONCEDE", "\"10S\"", "\"BJ\"", "\"CJ\"",
    ] {
        assert!(action.contains(t), "action schema lacks {t}");
    }
    let event = serde_json::to_string(&s.event).unwrap();
    for t in [
        "played",
        "drew",
        "reshuffled",
        "skipped",
        "reversed",
        "oneCardCalled",
        "caught",
    ] {
        assert!(event.contains(t), "event schema lacks {t}");
    }
    let view = serde_json::to_string(&s.view).unwrap();
    for t in [
        "handCounts",
        "discardTop",
        "drawPileCount",
        "legalActions",
        "turnSeq",
    ] {
        assert!(view.contains(t), "view schema lacks {t}");
    }
    assert!(!view.contains("rng") && !view.contains("drawPile\""));
}

#[test]
fn option_value_sets_are_the_ones_validate_accepts() {
    let options = GameSchemas::of(&OneCard).options;
    let valid = |patch: Value| {
        serde_json::from_value::<OneCardOptions>(patch).is_ok_and(|o| o.validate().is_ok())
    };
    for (field, candidates) in [
        ("handSize", (0..=255).map(Value::from).collect::<Vec<_>>()),
        (
            "turnSeconds",
            (0..=3_600).map(Value::from).chain([Value::Null]).collect(),
        ),
    ] {
        let set = options["properties"][field]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{field} has no value set: {options}"))
            .clone();
        let accepted: Vec<Value> = candidates
            .into_iter()
            .filter(|v| valid(json!({ field: v })))
            .collect();
        assert_eq!(set, accepted, "{field}");
    }
    let accepted: Vec<u64> = (0..=255u64)
        .filter(|&v| valid(json!({ "bankruptAt": v })))
        .collect();
    assert_eq!(accepted, (15..=30).collect::<Vec<_>>());
    assert!(valid(json!({ "bankruptAt": null })));
    let bankrupt = options["properties"]["bankruptAt"].to_string();
    assert!(
        bankrupt.contains("15") && bankrupt.contains("30"),
        "{bankrupt}"
    );
}
