//! Strict reading of actions from JSON.
//!
//! Actions travel as objects tagged by `type` (`{"type":"PICK","hand":"rock"}`). serde's
//! derived reading of such enums is lenient in two ways a host should not inherit: a
//! variant without fields (`{"type":"CONCEDE"}`) accepts any extra field, and a JSON array
//! whose first element is the tag (`["CONCEDE"]`) reads as the variant. A client's typo or
//! junk then passes silently. [`tagged_object`] refuses both before the derived reading.

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
