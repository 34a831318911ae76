//! Strict reading of actions from JSON.
//!
//! Actions travel as objects tagged by `type` (`{"type":"PICK","hand":"rock"}`). serde's
//! derived reading of such enums is lenient in two ways a host should not inherit: a
//! variant without fields (`{"type":"CONCEDE"}`) accepts any extra field, and a JSON array
//! whose first element is the tag (`["CONCEDE"]`) reads as the variant. A client's typo or
//! junk then passes silently. [`tagged_object`] refuses both before the derived reading.

use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Map, Value};

/// Checks that `value` is an action object: a JSON object with a string `type`, and, when
/// that type is one of `bare` (the variants without fields), no other field. Returns the
/// object and its type; an error says what is wrong in a sentence naming the culprit.
///
/// ```
/// use game_core::wire::tagged_object;
/// use serde_json::json;
/// let bare = ["THROW", "CONCEDE"];
/// assert!(tagged_object(json!({"type": "THROW"}), &bare).is_ok());
/// assert!(tagged_object(json!({"type": "MOVE", "from": 3}), &bare).is_ok());
/// assert_eq!(
///     tagged_object(json!({"type": "THROW", "force": 1}), &bare).unwrap_err(),
///     "unknown field `force` in a THROW action"
/// );
/// assert!(tagged_object(json!(["THROW"]), &bare).unwrap_err().contains("JSON object"));
/// assert!(tagged_object(json!({"kind": "THROW"}), &bare).unwrap_err().contains("`type`"));
/// ```
pub fn tagged_object(value: Value, bare: &[&str]) -> Result<(Map<String, Value>, String), String> {
    let Value::Object(object) = value else {
        return Err("an action is a JSON object with a `type`".into());
    };
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        Some(_) => return Err("the action's `type` is not a string".into()),
        None => return Err("an action needs a `type`".into()),
    };
    if bare.contains(&kind.as_str())
        && let Some(extra) = object.keys().find(|k| *k != "type")
    {
        return Err(format!("unknown field `{extra}` in a {kind} action"));
    }
    Ok((object, kind))
}

/// Reads a game's action from JSON strictly, whatever its `Deserialize`: an object with a
/// string `type` ([`tagged_object`]), read by the action's own reader, and refused if it
/// carries a field the action does not keep (serde's derived reading drops unknown fields
/// of a variant without fields, so a typo would pass). Every host reads actions through it,
/// so a game may derive `Deserialize` for its actions and still be read strictly.
///
/// ```
/// use game_core::wire::read_action;
/// use serde::{Deserialize, Serialize};
/// use serde_json::json;
/// #[derive(Debug, PartialEq, Serialize, Deserialize)]
/// #[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
/// enum Action { Roll, Bet { chips: u32 } }
/// assert_eq!(read_action::<Action>(json!({"type": "ROLL"})), Ok(Action::Roll));
/// assert_eq!(read_action::<Action>(json!({"type": "BET", "chips": 2})), Ok(Action::Bet { chips: 2 }));
/// assert_eq!(
///     read_action::<Action>(json!({"type": "ROLL", "times": 9})).unwrap_err(),
///     "unknown field `times` in a ROLL action"
/// );
/// assert!(read_action::<Action>(json!(["ROLL"])).is_err());
/// assert_eq!(read_action::<Action>(json!({"type": "ROLL", "note": null})), Ok(Action::Roll));
/// assert!(read_action::<Action>(json!({"type": "FOLD"})).is_err());
/// ```
pub fn read_action<A: Serialize + DeserializeOwned>(value: Value) -> Result<A, String> {
    let (object, kind) = tagged_object(value, &[])?;
    // A `null` stands for an option left out (which the action does not write back).
    let given: Vec<String> = object
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, _)| k.clone())
        .collect();
    let action: A = serde_json::from_value(Value::Object(object)).map_err(|e| e.to_string())?;
    // What the action keeps is what it writes back; anything else was dropped on reading.
    if let Ok(Value::Object(kept)) = serde_json::to_value(&action)
        && let Some(extra) = given.iter().find(|k| !kept.contains_key(*k))
    {
        return Err(format!("unknown field `{extra}` in a {kind} action"));
    }
    Ok(action)
}
