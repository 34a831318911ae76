//! Actions of section 8.2, in the wire format of decisions.md 2.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "type",
    rename_all = "SCREAMING_SNAKE_CASE",
    bound(
        serialize = "X: Serialize",
        deserialize = "X: serde::de::DeserializeOwned"
    )
)]
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
