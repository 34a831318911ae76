//! Typed errors: every game's errors carry a stable machine code and a Korean message.

use schemars::JsonSchema;
use schemars::generate::SchemaGenerator;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What every game error offers a host: a stable code to branch on, a message to show the
/// player, and an optional machine-readable reason.
pub trait GameError: std::error::Error + Send + Sync + 'static {
    /// A stable, machine-readable code in `SCREAMING_SNAKE_CASE` (never reworded).
    fn code(&self) -> &'static str;

    /// The player-facing message, in Korean.
    fn message(&self) -> String {
        self.to_string()
    }

    /// Extra data that helps a host react (for example the expected `turnSeq`): a JSON
    /// object, or `None` for an error that has nothing to add (its body then carries `{}`).
    /// Written with [`reason_of`] from the serde enum that also lists the type's codes
    /// ([`ErrorCodes`]), the reason and its schema cannot drift apart.
    fn reason(&self) -> Option<serde_json::Value> {
        None
    }

    /// The wire form of this error.
    fn body(&self) -> ErrorBody {
        ErrorBody {
            code: self.code().to_owned(),
            message: self.message(),
            reason: reason_object(self.reason()),
        }
    }
}

/// The codes an error type gives, each with the JSON Schema of its reason: what a game's
/// error schema ([`GameSchemas`](crate::GameSchemas)`::error`) is built from, a branch per
/// code, so that a host's generated types know each code's reason.
///
/// Every [`Game::Error`](crate::Game::Error) implements it. The way to keep the list and
/// the reasons from drifting apart is one serde enum, tagged `code` with its fields under
/// `reason`, that both writes the reason ([`reason_of`]) and lists the codes
/// ([`CodeSchemas::tagged`]): a field or a code added to it is in both.
///
/// ```
/// use game_core::{ErrorCodes, GameError, reason_of};
/// use schemars::JsonSchema;
/// use serde::Serialize;
///
/// #[derive(Debug, thiserror::Error)]
/// enum CoinError {
///     #[error("동전이 없어요.")]
///     NoCoin,
///     #[error("{got}번째 동전은 없어요.")]
///     UnknownCoin { got: u32, coins: u32 },
/// }
///
/// /// The wire form of a `CoinError`: its code, and its reason.
/// #[derive(Serialize, JsonSchema)]
/// #[serde(tag = "code", content = "reason", rename_all = "SCREAMING_SNAKE_CASE")]
/// enum CoinReason {
///     NoCoin {},
///     UnknownCoin { got: u32, coins: u32 },
/// }
///
/// impl CoinError {
///     fn wire(&self) -> CoinReason {
///         match *self {
///             Self::NoCoin => CoinReason::NoCoin {},
///             Self::UnknownCoin { got, coins } => CoinReason::UnknownCoin { got, coins },
///         }
///     }
/// }
///
/// impl GameError for CoinError {
///     fn code(&self) -> &'static str {
///         match self {
///             Self::NoCoin => "NO_COIN",
///             Self::UnknownCoin { .. } => "UNKNOWN_COIN",
///         }
///     }
///     fn reason(&self) -> Option<serde_json::Value> {
///         reason_of(&self.wire())
///     }
/// }
///
/// impl ErrorCodes for CoinError {
///     fn codes(codes: &mut game_core::CodeSchemas) {
///         codes.tagged::<CoinReason>();
///     }
/// }
///
/// let e = CoinError::UnknownCoin { got: 3, coins: 2 };
/// assert_eq!(e.body().reason["coins"], 2);
/// assert!(CoinError::NoCoin.body().reason.is_empty());
/// let codes = game_core::CodeSchemas::of::<CoinError>();
/// assert_eq!(codes.codes(), ["NO_COIN", "UNKNOWN_COIN"]);
/// ```
pub trait ErrorCodes {
    /// Adds each code this type gives, with its reason's schema, to `codes`.
    fn codes(codes: &mut CodeSchemas);
}

/// What [`ErrorCodes::codes`] fills: codes with their reasons' schemas, in one schema
/// generator (so the reasons' shared types are defined once). A code given twice with
/// two reasons (`INVALID_OPTION` from the game and from the host layer) keeps both.
#[derive(Debug)]
pub struct CodeSchemas {
    generator: SchemaGenerator,
    /// `(code, description, reason schema)`, in the order given.
    entries: Vec<(String, Option<String>, Value)>,
}

impl Default for CodeSchemas {
    fn default() -> Self {
        let settings = schemars::generate::SchemaSettings::draft2020_12().for_serialize();
        Self {
            generator: settings.into_generator(),
            entries: Vec::new(),
        }
    }
}

impl CodeSchemas {
    /// The codes of `E`.
    pub fn of<E: ErrorCodes + ?Sized>() -> Self {
        let mut codes = Self::default();
        E::codes(&mut codes);
        codes
    }

    /// Every variant of `W`, a serde enum tagged `code` with its fields under `reason`
    /// (`#[serde(tag = "code", content = "reason")]`): the type the error writes its
    /// reason with ([`reason_of`]). A variant's doc comment describes its code.
    pub fn tagged<W: JsonSchema + ?Sized>(&mut self) {
        let schema = self.generator.subschema_for::<W>().to_value();
        let schema = self.resolve(schema);
        let branches = ["oneOf", "anyOf"]
            .into_iter()
            .find_map(|k| schema.get(k).and_then(Value::as_array).cloned())
            .unwrap_or_else(|| vec![schema.clone()]);
        for branch in branches {
            let branch = self.resolve(branch);
            let code = branch
                .pointer("/properties/code/const")
                .or_else(|| branch.pointer("/properties/code/enum/0"))
                .and_then(Value::as_str);
            let Some(code) = code else {
                continue;
            };
            // A variant without fields writes no `reason`; the body then carries `{}`.
            let reason = branch
                .pointer("/properties/reason")
                .cloned()
                .unwrap_or_else(empty_object);
            let description = branch
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned);
            self.entries.push((code.to_owned(), description, reason));
        }
    }

    /// The reason schema of the first variant of `W` (tagged as for
    /// [`CodeSchemas::tagged`]), without adding its code: for a reason that goes with
    /// other types' codes ([`CodeSchemas::code_schema`]).
    pub fn reason_of_tagged<W: JsonSchema + ?Sized>(&mut self) -> Value {
        let mut scratch = std::mem::take(&mut self.entries);
        self.tagged::<W>();
        let reason = self
            .entries
            .first()
            .map_or_else(empty_object, |(_, _, r)| r.clone());
        std::mem::swap(&mut scratch, &mut self.entries);
        reason
    }

    /// One code whose reason is `reason`, a schema written out (its `$ref`s are to the
    /// definitions the other codes made).
    pub fn code_schema(&mut self, code: &str, description: &str, reason: Value) {
        self.entries
            .push((code.to_owned(), Some(description.to_owned()), reason));
    }

    /// The codes added so far, each once, in the order first given.
    pub fn codes(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for (code, _, _) in &self.entries {
            if !out.contains(&code.as_str()) {
                out.push(code);
            }
        }
        out
    }

    /// The schema of an error body of these codes: a `oneOf` with one branch per code,
    /// `{code: CODE, message: string, reason: <its reason>}` (a code with several reasons
    /// takes any of them), the reasons' shared types under `$defs`. Not yet normalised.
    pub(crate) fn body_schema(mut self) -> Value {
        let mut branches = Vec::new();
        for code in self.codes() {
            let mut reasons: Vec<&Value> = Vec::new();
            let mut description = None;
            for (c, d, reason) in &self.entries {
                if c == code && !reasons.contains(&reason) {
                    reasons.push(reason);
                    description = description.or(d.as_deref());
                }
            }
            let reason = match reasons.as_slice() {
                [one] => (*one).clone(),
                many => serde_json::json!({ "anyOf": many }),
            };
            let mut branch = serde_json::json!({
                "type": "object",
                "properties": {
                    "code": { "type": "string", "const": code },
                    "message": {
                        "type": "string",
                        "description": "The player-facing message, in Korean."
                    },
                    "reason": reason,
                },
                "required": ["code", "message", "reason"],
            });
            if let (Some(d), Value::Object(b)) = (description, &mut branch) {
                b.insert("description".into(), d.into());
            }
            branches.push(branch);
        }
        let defs = self.generator.take_definitions(true);
        let mut root = Map::new();
        root.insert("oneOf".into(), Value::Array(branches));
        if !defs.is_empty() {
            root.insert("$defs".into(), Value::Object(defs));
        }
        Value::Object(root)
    }

    /// `schema`, or the definition its `$ref` names.
    fn resolve(&self, schema: Value) -> Value {
        let target = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .and_then(|name| self.generator.definitions().get(name));
        match target {
            Some(def) => def.clone(),
            None => schema,
        }
    }
}

fn empty_object() -> Value {
    serde_json::json!({ "type": "object", "properties": {} })
}

/// The reason `wire` writes: `wire` is an error's wire form, a serde enum tagged `code`
/// with its fields under `reason` (see [`ErrorCodes`]). `None` when it has no fields (the
/// body then carries `{}`), or when it does not write an object with a `reason` object.
///
/// ```
/// #[derive(serde::Serialize)]
/// #[serde(tag = "code", content = "reason", rename_all = "SCREAMING_SNAKE_CASE")]
/// enum Wire { Late { by: u32 }, Gone {} }
/// assert_eq!(game_core::reason_of(&Wire::Late { by: 2 }), Some(serde_json::json!({ "by": 2 })));
/// assert_eq!(game_core::reason_of(&Wire::Gone {}), None);
/// ```
pub fn reason_of<W: Serialize + ?Sized>(wire: &W) -> Option<Value> {
    match serde_json::to_value(wire) {
        Ok(Value::Object(mut body)) => match body.remove("reason") {
            Some(Value::Object(reason)) if !reason.is_empty() => Some(Value::Object(reason)),
            _ => None,
        },
        _ => None,
    }
}

/// A reason as the object the wire promises: `None` is `{}`, and a game that returned
/// something other than an object (a logic slip, not a host's doing) has it kept under
/// `value` rather than breaking the shape.
pub(crate) fn reason_object(
    reason: Option<serde_json::Value>,
) -> serde_json::Map<String, serde_json::Value> {
    match reason {
        None => serde_json::Map::new(),
        Some(serde_json::Value::Object(map)) => map,
        Some(other) => std::iter::once(("value".to_owned(), other)).collect(),
    }
}

/// The serialized form of any error, the same for every game and for the host layer:
/// always all three fields.
///
/// ```
/// use game_core::{GameError, Rejection};
/// let body = Rejection::GameOver.body();
/// assert_eq!(body.code, "GAME_OVER");
/// assert!(body.reason.is_empty());
/// let stale = Rejection::StaleTurnSeq { got: 1, expected: 2 }.body();
/// assert_eq!(stale.reason["expected"], 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// Stable machine code (`SCREAMING_SNAKE_CASE`), the thing to branch on.
    pub code: String,
    /// Player-facing Korean message; it never carries parser text (see `reason.detail`).
    pub message: String,
    /// Machine-readable detail (the fields each code carries are listed in the error table
    /// of game-core's embedding guide); `{}` when the code says it all.
    pub reason: serde_json::Map<String, serde_json::Value>,
}

/// Rejections the framework itself decides, shared by every game. Each game's error type
/// converts from it, so a host sees one code whichever game it runs.
///
/// Non-exhaustive: the framework may learn new refusals; branch on the code for those.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Rejection {
    /// The request named an older (or future) action sequence number.
    #[error("화면이 최신 상태가 아니에요. 다시 시도해 주세요.")]
    StaleTurnSeq {
        /// The number the request carried.
        got: u64,
        /// The number the game is at.
        expected: u64,
    },
    /// The player id is not seated at this table (a spectator, or unknown).
    #[error("관전 중에는 행동할 수 없어요.")]
    NotSeated {
        /// The id that tried to act.
        player: String,
    },
    /// The game has ended; nothing more can be played.
    #[error("이미 끝난 게임이에요.")]
    GameOver,
    /// A chance outcome was supplied for an action that has none, or one that is not possible.
    #[error("그 결과는 지금 나올 수 없어요.")]
    ImpossibleOutcome,
    /// The seated players are not acceptable (duplicates or empty ids).
    #[error("참가자 목록이 올바르지 않아요.")]
    BadPlayers {
        /// What is wrong.
        detail: String,
    },
    /// The game (with these options) is not played by this many players.
    #[error(
        "이 게임은 {}명이 할 수 있어요 (지금 {players}명).",
        join_counts(allowed)
    )]
    BadPlayerCount {
        /// How many players were seated.
        players: usize,
        /// The player counts the game takes with these options, ascending.
        allowed: Vec<usize>,
    },
    /// A stored state failed validation.
    #[error("저장된 게임 상태가 올바르지 않아요.")]
    CorruptState {
        /// What is wrong, in terms a developer can act on.
        detail: String,
    },
    /// The seat is not one the game waits for now.
    #[error("지금은 차례가 아니에요.")]
    NotYourTurn,
    /// The action is not among the seat's legal actions now (what [`Game::validate`]'s
    /// default answers for any action [`Game::legal_actions`] does not list).
    ///
    /// [`Game::validate`]: crate::Game::validate
    /// [`Game::legal_actions`]: crate::Game::legal_actions
    #[error("지금은 그렇게 할 수 없어요.")]
    IllegalAction,
    /// An option is out of its range (see [`OptionRange`](crate::OptionRange)).
    #[error("{option} 설정은 {min}부터 {max}까지 고를 수 있어요.")]
    InvalidOption {
        /// The option's wire name.
        option: &'static str,
        /// The value given.
        got: u32,
        /// The smallest allowed value.
        min: u32,
        /// The largest allowed value.
        max: u32,
    },
}

impl Rejection {
    /// Every code a [`Rejection`] can carry: what a host that glosses or maps codes must
    /// cover (the enum is `#[non_exhaustive]`, so a host cannot match it exhaustively).
    ///
    /// ```
    /// use game_core::{GameError, Rejection};
    /// assert!(Rejection::CODES.contains(&Rejection::GameOver.code()));
    /// ```
    pub const CODES: [&'static str; 10] = [
        "STALE_TURN_SEQ",
        "NOT_SEATED",
        "GAME_OVER",
        "IMPOSSIBLE_OUTCOME",
        "BAD_PLAYERS",
        "BAD_PLAYER_COUNT",
        "CORRUPT_STATE",
        "NOT_YOUR_TURN",
        "ILLEGAL_ACTION",
        "INVALID_OPTION",
    ];
}

/// The wire form of a [`Rejection`]: its code, and its reason's fields. One definition
/// writes the reason ([`GameError::reason`]) and lists the codes with their reasons'
/// schemas ([`ErrorCodes`]).
#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", content = "reason", rename_all = "SCREAMING_SNAKE_CASE")]
enum RejectionWire<'a> {
    /// The request named an older (or future) action sequence number.
    StaleTurnSeq {
        /// The number the request carried.
        got: u64,
        /// The number the game is at.
        expected: u64,
    },
    /// The player id is not seated at this table.
    NotSeated {
        /// The id that tried to act.
        player: &'a str,
    },
    /// The game has ended.
    GameOver {},
    /// A chance outcome that the action has not, or that is not possible.
    ImpossibleOutcome {},
    /// The seated players are not acceptable.
    BadPlayers {
        /// What is wrong.
        detail: &'a str,
    },
    /// The game is not played by this many players.
    BadPlayerCount {
        /// How many players were seated.
        players: usize,
        /// The player counts the game takes with these options, ascending.
        allowed: &'a [usize],
    },
    /// A stored state failed validation.
    CorruptState {
        /// What is wrong, in terms a developer can act on.
        detail: &'a str,
    },
    /// The seat is not one the game waits for now.
    NotYourTurn {},
    /// The action is not among the seat's legal actions now.
    IllegalAction {},
    /// An option is out of its range.
    InvalidOption {
        /// The option's wire name.
        option: &'a str,
        /// The value given.
        got: u32,
        /// The smallest allowed value.
        min: u32,
        /// The largest allowed value.
        max: u32,
    },
}

impl Rejection {
    /// The wire form: a match without a wildcard, so a new rejection has one.
    fn wire(&self) -> RejectionWire<'_> {
        match self {
            Self::StaleTurnSeq { got, expected } => RejectionWire::StaleTurnSeq {
                got: *got,
                expected: *expected,
            },
            Self::NotSeated { player } => RejectionWire::NotSeated { player },
            Self::GameOver => RejectionWire::GameOver {},
            Self::ImpossibleOutcome => RejectionWire::ImpossibleOutcome {},
            Self::BadPlayers { detail } => RejectionWire::BadPlayers { detail },
            Self::BadPlayerCount { players, allowed } => RejectionWire::BadPlayerCount {
                players: *players,
                allowed,
            },
            Self::CorruptState { detail } => RejectionWire::CorruptState { detail },
            Self::NotYourTurn => RejectionWire::NotYourTurn {},
            Self::IllegalAction => RejectionWire::IllegalAction {},
            Self::InvalidOption {
                option,
                got,
                min,
                max,
            } => RejectionWire::InvalidOption {
                option,
                got: *got,
                min: *min,
                max: *max,
            },
        }
    }
}

impl ErrorCodes for Rejection {
    fn codes(codes: &mut CodeSchemas) {
        codes.tagged::<RejectionWire<'_>>();
    }
}

impl GameError for Rejection {
    fn code(&self) -> &'static str {
        match self {
            Self::StaleTurnSeq { .. } => "STALE_TURN_SEQ",
            Self::NotSeated { .. } => "NOT_SEATED",
            Self::GameOver => "GAME_OVER",
            Self::ImpossibleOutcome => "IMPOSSIBLE_OUTCOME",
            Self::BadPlayers { .. } => "BAD_PLAYERS",
            Self::BadPlayerCount { .. } => "BAD_PLAYER_COUNT",
            Self::CorruptState { .. } => "CORRUPT_STATE",
            Self::NotYourTurn => "NOT_YOUR_TURN",
            Self::IllegalAction => "ILLEGAL_ACTION",
            Self::InvalidOption { .. } => "INVALID_OPTION",
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        reason_of(&self.wire())
    }
}

/// `2·3·4`: counts as the Korean messages list them.
fn join_counts(counts: &[usize]) -> String {
    let words: Vec<String> = counts.iter().map(usize::to_string).collect();
    words.join("·")
}

/// The longest parser message an error carries, in bytes.
pub(crate) const MAX_DETAIL: usize = 256;

/// A JSON parser's message, cut to [`MAX_DETAIL`] bytes: the message quotes the input
/// (an unknown variant, an oversized string), and a hostile document must not come back
/// whole, or twice, inside the error.
pub(crate) fn parse_detail(e: &serde_json::Error) -> String {
    cap_detail(e.to_string())
}

/// `text` cut to 256 bytes on a character boundary, marked with `…` if cut: for anything
/// of the input an error quotes back (a host's own errors too).
///
/// ```
/// let long = "가".repeat(200);
/// let cut = game_core::cap_detail(long);
/// assert!(cut.len() <= 256 + '…'.len_utf8() && cut.ends_with('…'));
/// assert_eq!(game_core::cap_detail("short".into()), "short");
/// ```
pub fn cap_detail(mut text: String) -> String {
    if text.len() > MAX_DETAIL {
        let mut cut = MAX_DETAIL;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The match has no wildcard: a new rejection fails to compile here until its code is
    /// in [`Rejection::CODES`].
    #[test]
    fn codes_lists_every_rejection() {
        let all = [
            Rejection::StaleTurnSeq {
                got: 0,
                expected: 1,
            },
            Rejection::NotSeated {
                player: String::new(),
            },
            Rejection::GameOver,
            Rejection::ImpossibleOutcome,
            Rejection::BadPlayers {
                detail: String::new(),
            },
            Rejection::BadPlayerCount {
                players: 0,
                allowed: Vec::new(),
            },
            Rejection::CorruptState {
                detail: String::new(),
            },
            Rejection::NotYourTurn,
            Rejection::IllegalAction,
            Rejection::InvalidOption {
                option: "",
                got: 0,
                min: 0,
                max: 0,
            },
        ];
        for r in &all {
            match r {
                Rejection::StaleTurnSeq { .. }
                | Rejection::NotSeated { .. }
                | Rejection::GameOver
                | Rejection::ImpossibleOutcome
                | Rejection::BadPlayers { .. }
                | Rejection::BadPlayerCount { .. }
                | Rejection::CorruptState { .. }
                | Rejection::NotYourTurn
                | Rejection::IllegalAction
                | Rejection::InvalidOption { .. } => {}
            }
        }
        let codes: Vec<&str> = all.iter().map(GameError::code).collect();
        assert_eq!(codes, Rejection::CODES);
        // The wire form names the same code, and the schema lists every one.
        for r in &all {
            let wire = serde_json::to_value(r.wire()).unwrap();
            assert_eq!(wire["code"], r.code());
        }
        assert_eq!(CodeSchemas::of::<Rejection>().codes(), Rejection::CODES);
    }
}
