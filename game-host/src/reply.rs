//! Replies: the reply line, the status of a match, and one body type per operation, the
//! same types the host sends and its schemas describe.

use game_core::{AppliedJson, DynMatch, ErrorBody, GameError, MatchRecord, Millis};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// One reply line: `id` and `ok` first, then the operation's fields (or `error`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reply {
    /// The request's `id`, or `null`.
    pub id: Value,
    /// Whether the request succeeded.
    pub ok: bool,
    /// The operation's fields, or `error`.
    #[serde(flatten)]
    pub body: Map<String, Value>,
}

/// Where a match stands, in every reply that changes or creates one.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Status {
    /// The match id.
    #[serde(rename = "match")]
    pub match_id: String,
    /// The game id.
    pub game: String,
    /// The action sequence number a client sends back as `turnSeq`.
    pub turn_seq: u64,
    /// The players whose move is awaited.
    pub to_act: Vec<String>,
    /// The players who may act now besides those of `toAct`, waited for by no one (One
    /// Card's calls while the window is open); empty for most games.
    pub may_act: Vec<String>,
    /// When the current decision times out: the countdown players see.
    pub deadline: Option<Millis>,
    /// When `tick` would act (a deadline or a disconnected player's grace): arm the
    /// match's one timer here.
    pub next_tick_at: Option<Millis>,
    /// The match's clock: the latest time of an input that changed it.
    pub clock: Millis,
    /// Whether the match is over.
    pub over: bool,
}

impl Status {
    /// The status of match `id`.
    pub fn of(id: &str, m: &dyn DynMatch) -> Self {
        let status = m.status();
        let players = m.players();
        let ids = |seats: &[usize]| -> Vec<String> {
            seats
                .iter()
                .filter_map(|&s| players.get(s).cloned())
                .collect()
        };
        Self {
            match_id: id.to_owned(),
            game: m.game_id().to_owned(),
            turn_seq: status.turn_seq,
            to_act: ids(&status.to_act),
            may_act: ids(&status.may_act),
            deadline: status.deadline,
            next_tick_at: status.next_tick_at,
            clock: status.clock,
            over: status.over,
        }
    }
}

/// `games`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Games {
    /// The registered game ids, sorted.
    pub games: Vec<String>,
}

/// `schemas`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Schemas {
    /// The game id.
    pub game: String,
    /// The game's wire schemas by type: options, action, view, event, outcome, error.
    pub schemas: Map<String, Value>,
    /// The game's default options.
    pub default_options: Value,
}

/// `act`, `presence` and `events`: the status, the request's events and the timeouts
/// taken first, as one viewer sees them (`act`: the actor; `presence`: the player whose
/// connection changed; `events`: the `player` asked for, or a spectator).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Played {
    /// Where the match stands now.
    #[serde(flatten)]
    pub status: Status,
    /// What the request did.
    pub events: Vec<Value>,
    /// The timeouts that were due at the request's time, taken before it.
    pub applied: Vec<AppliedJson>,
}

/// `tick`: the timeouts taken, as the `player` asked for sees them (a spectator when
/// none is).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ticked {
    /// Where the match stands now.
    #[serde(flatten)]
    pub status: Status,
    /// The timeouts taken.
    pub applied: Vec<AppliedJson>,
}

/// `view`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// The game's view (its schema is the game's `view`).
    pub view: Value,
}

/// `legal`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Legal {
    /// The game's actions the player may take now.
    pub actions: Vec<Value>,
}

/// `record`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The match record (it holds the seed: keep it on the server while the match runs).
    pub record: MatchRecord,
}

/// `outcome`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Whether the match is over.
    pub over: bool,
    /// The game's outcome, `null` until over.
    pub outcome: Option<Value>,
}

/// `drop`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dropped {
    /// The match id dropped.
    #[serde(rename = "match")]
    pub match_id: String,
}

/// Any refused request.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Refused {
    /// The error.
    pub error: ErrorBody,
    /// For an `act` or `presence` after `nextTickAt`: the timeouts taken before the
    /// request was judged (left out when none were).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applied: Vec<AppliedJson>,
}

/// The reply body of a typed reply.
pub fn body<T: Serialize>(reply: &T) -> Map<String, Value> {
    match to_value(reply) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A refused request: the error body sent back, with the timeouts that were due and were
/// taken before the request was judged (an `act` or `presence` after `nextTickAt`).
#[derive(Clone, Debug, PartialEq)]
pub struct Fail {
    /// The error sent back.
    pub error: ErrorBody,
    /// The timeouts taken before the request was judged.
    pub applied: Vec<AppliedJson>,
}

impl<E: GameError> From<E> for Fail {
    fn from(e: E) -> Self {
        Fail {
            error: e.body(),
            applied: Vec::new(),
        }
    }
}

/// A refused request with the error `code`, the player-facing `message` and the `reason`
/// (an object; anything else is read as `{}`). A transport over [`crate::Host`] builds
/// its own errors (a server's `UNAUTHORIZED`) with it, in the host's shape.
pub fn fail(code: &str, message: &str, reason: Value) -> Fail {
    let reason = match reason {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    Fail {
        error: ErrorBody {
            code: code.to_owned(),
            message: message.to_owned(),
            reason,
        },
        applied: Vec::new(),
    }
}

/// `BAD_REQUEST`: the Korean message is generic; what is wrong, in English for the host's
/// developer, is `reason.detail`, and the field at fault `reason.field`.
pub fn bad_request(field: Option<&str>, detail: impl Into<String>) -> Fail {
    let detail = detail.into();
    let reason = match field {
        Some(field) => json!({ "field": field, "detail": detail }),
        None => json!({ "detail": detail }),
    };
    fail("BAD_REQUEST", "요청 형식이 올바르지 않아요.", reason)
}

/// `BAD_REQUEST` for a count field (`seed`, `turnSeq`, `now`) that is not an integer from
/// 0 to 2^53 − 1 ([`MAX_SAFE_INTEGER`](game_core::MAX_SAFE_INTEGER), the largest a
/// JavaScript number holds exactly): `given` is the value as sent. The Node package
/// answers with this very refusal, so that both hosts take one range.
///
/// ```
/// let f = game_host::reply::not_a_count("seed", 9007199254740992u64);
/// assert_eq!(f.error.code, "BAD_REQUEST");
/// assert_eq!(f.error.reason["field"], "seed");
/// assert_eq!(
///     f.error.reason["detail"],
///     "`seed` must be an integer from 0 to 2^53 - 1, not 9007199254740992"
/// );
/// ```
pub fn not_a_count(field: &str, given: impl std::fmt::Display) -> Fail {
    let detail = format!("`{field}` must be an integer from 0 to 2^53 - 1, not {given}");
    bad_request(Some(field), game_core::cap_detail(detail))
}

/// A reply body, or the refusal.
pub type Body = Result<Map<String, Value>, Fail>;

/// `MATCH_EXISTS`: a requested match id that is taken.
pub fn match_exists(id: &str) -> Fail {
    fail(
        "MATCH_EXISTS",
        "이미 있는 게임 id예요.",
        json!({ "match": id }),
    )
}

/// `UNKNOWN_MATCH`.
pub fn unknown_match(id: &str) -> Fail {
    fail("UNKNOWN_MATCH", "없는 게임이에요.", json!({ "match": id }))
}

pub(crate) fn to_value<T: Serialize + ?Sized>(v: &T) -> Value {
    // Every type here serializes without failure (string keys, no floats that are NaN).
    serde_json::to_value(v).unwrap_or(Value::Null)
}
