//! Actions in their wire format: objects tagged by `type`, camelCase fields, read strictly
//! (RULES.md, Options).

use game_core::wire::tagged_object;
use schemars::JsonSchema;
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::{NoAction, Origin};

/// What a player can do. Tagged by `type`: `{"type":"THROW"}`,
/// `{"type":"MOVE","throwIndex":0,"from":"home"}`, `{"type":"CONCEDE"}`; rule extensions
/// add their own (`X`, carrying their own `type`).
///
/// ```
/// use yut::{Origin, YutAction};
/// let a: YutAction = serde_json::from_str(r#"{"type":"MOVE","throwIndex":1,"from":22}"#).unwrap();
/// assert_eq!(a, YutAction::Move { throw_index: 1, from: Origin::Node(22) });
/// assert_eq!(serde_json::to_string(&YutAction::<yut::NoAction>::Throw).unwrap(), r#"{"type":"THROW"}"#);
/// ```
///
/// Reading one is strict: only a JSON object, with a known `type` and exactly its fields.
///
/// ```
/// use yut::YutAction;
/// let err = |j: &str| serde_json::from_str::<YutAction>(j).unwrap_err().to_string();
/// assert!(err(r#"{"type":"THROW","force":"mo"}"#).contains("unknown field `force` in a THROW"));
/// assert!(err(r#"{"type":"MOVE","throwIndex":0,"form":"home"}"#).contains("unknown field `form`"));
/// assert!(err(r#"["THROW"]"#).contains("JSON object"));
/// assert!(err(r#"{"type":"JUMP"}"#).contains("unknown action type `JUMP`"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(
    tag = "type",
    rename_all = "SCREAMING_SNAKE_CASE",
    deny_unknown_fields,
    bound(
        serialize = "X: Serialize",
        deserialize = "X: serde::de::DeserializeOwned"
    )
)]
#[non_exhaustive]
pub enum YutAction<X = NoAction> {
    /// Throw the sticks.
    Throw,
    /// Move a stack (or enter a waiting piece) with a pending result.
    #[serde(rename_all = "camelCase")]
    Move {
        /// Index into the pending results.
        throw_index: u32,
        /// The stack's node, or `"home"`.
        from: Origin,
    },
    /// Leave the game.
    Concede,
    /// An action of a rule extension.
    #[serde(untagged)]
    Rule(X),
}

/// The fields of `MOVE` besides its `type`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MoveFields {
    #[serde(rename = "type")]
    _type: String,
    throw_index: u32,
    from: Origin,
}

impl<'de, X: DeserializeOwned> Deserialize<'de> for YutAction<X> {
    /// By hand rather than derived: see [`game_core::wire`] for what the derived reading
    /// lets through; it also names no culprit when nothing matches.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (object, kind) = tagged_object(Value::deserialize(d)?, &["THROW", "CONCEDE"])
            .map_err(D::Error::custom)?;
        match kind.as_str() {
            "THROW" => Ok(YutAction::Throw),
            "CONCEDE" => Ok(YutAction::Concede),
            "MOVE" => {
                let m = MoveFields::deserialize(Value::Object(object)).map_err(D::Error::custom)?;
                Ok(YutAction::Move {
                    throw_index: m.throw_index,
                    from: m.from,
                })
            }
            _ => match X::deserialize(Value::Object(object)) {
                Ok(x) => Ok(YutAction::Rule(x)),
                // A rule extension's complaint about its own action is the useful one; for
                // a type nobody knows, say so.
                Err(e) if e.to_string().starts_with("unknown variant") => {
                    Err(D::Error::custom(format!("unknown action type `{kind}`")))
                }
                Err(e) => Err(D::Error::custom(e)),
            },
        }
    }
}
