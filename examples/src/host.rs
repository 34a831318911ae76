//! A generic JSON-lines host: one request object per input line, exactly one reply line
//! per request, for every game in [`crate::registry`].
//!
//! Requests carry an `"op"` and an optional `"id"` (any JSON value), echoed back. Replies
//! are `{"id":..,"ok":true, ...}` or `{"id":..,"ok":false,"error":{"code","message","reason"}}`
//! where the error is the engine's typed error body (`NOT_YOUR_TURN`, `STALE_TURN_SEQ`, ...)
//! or one of the host's own: `BAD_REQUEST` (a line that is not a JSON object, an unknown,
//! missing, `null` or ill-typed field: `reason.field` names it), `TOO_LARGE` (a line over
//! the size cap), `UNKNOWN_OP`, `UNKNOWN_MATCH`, `MATCH_EXISTS`, and the erased layer's
//! `UNKNOWN_GAME`, `BAD_JSON` and `INVALID_OPTION`. Blank lines are skipped. Nothing a
//! client sends makes the host panic or stop.
//!
//! | op | fields | reply |
//! |---|---|---|
//! | `games` | | `games`: ids |
//! | `schemas` | `game` | `game`, `schemas` {options, action, view, event, outcome, error}, `defaultOptions` |
//! | `create` | `game`, `players`, `options?` (default: the game's), `seed?` (default: from the OS), `now?` (0), `match?` | status |
//! | `act` | `match`, `player`, `action`, `turnSeq?`, `now?` | status, `events`, `applied` |
//! | `view` | `match`, `player?` (none: spectator) | `view` |
//! | `legal` | `match`, `player` | `actions` |
//! | `tick` | `match`, `now` | status, `applied` [{player, action, events, auto}] |
//! | `presence` | `match`, `player`, `connected`, `now?` | status, `events`, `applied` |
//! | `record` | `match` | `record` (the `MatchRecord`) |
//! | `load` | `record`, `match?` | status (the record replayed into a new match) |
//! | `restore` | `game`, `state`, `match?` | status (a stored state, validated) |
//! | `outcome` | `match` | `over`, `outcome` (null until over) |
//! | `drop` | `match` | `match` |
//!
//! "status" is `match`, `game`, `turnSeq`, `toAct` (player ids), `deadline` (the countdown
//! players see), `nextTickAt` (when `tick` would act: arm the match's timer there),
//! `clock` and `over`. Match ids default to `m1`, `m2`, ... A missing `now` means the
//! match's clock; a `now` earlier than the clock is read as the clock. An `act` or
//! `presence` at or past `nextTickAt` first takes the due timeouts (listed in `applied`, in
//! the error reply too when the request is then refused).
//!
//! The `app` preset with the whole augment layer is game `yut-augments` with the options
//! of `yut_augments::app_options()` (`{"stickModel":"fair","backdoFromDo":"home"}` is
//! enough: the layer's fields default to the whole pack); its draft is acted as
//! `{"type":"CHOOSE_AUGMENT","index":n}`, and `legal` lists the candidates' indices.
//!
//! ```
//! let input = concat!(
//!     r#"{"id":1,"op":"create","game":"rps","players":["a","b"],"seed":3}"#, "\n",
//!     r#"{"id":2,"op":"act","match":"m1","player":"a","action":{"type":"PICK","hand":"rock"}}"#, "\n",
//!     "not json\n",
//! );
//! let mut out = Vec::new();
//! examples::host::serve(input.as_bytes(), &mut out).unwrap();
//! let replies: Vec<serde_json::Value> = String::from_utf8(out).unwrap()
//!     .lines().map(|l| serde_json::from_str(l).unwrap()).collect();
//! assert_eq!(replies[0]["match"], "m1");
//! assert_eq!(replies[1]["ok"], true);
//! assert_eq!(replies[2]["error"]["code"], "BAD_REQUEST");
//! ```

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

use game_core::{
    AppliedJson, DynMatch, ErrorBody, GameError, MatchRecord, Millis, PlayedJson, Registry,
};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

/// The longest request line served by default, in bytes (`--max-line` changes it).
pub const DEFAULT_MAX_LINE: usize = 1 << 20;

/// The longest match id, in bytes (as for player ids).
pub const MAX_ID: usize = 128;

/// What a request field holds; it decides how the field is read and its schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An id (game, match, player): a string of 1 to [`MAX_ID`] bytes.
    Id,
    /// Player ids in seat order.
    Players,
    /// A JSON object in a game's wire format (options, action).
    Object,
    /// A time or a number: a non-negative integer.
    Count,
    /// `true` or `false`.
    Flag,
    /// A [`MatchRecord`].
    Record,
    /// A stored state, as `state_json` gave it.
    State,
}

/// One request field: its name, what it holds, whether it must be there.
pub type Field = (&'static str, Kind, bool);

/// Every operation with its fields (besides `op` and `id`): the one list that the reader
/// checks requests against and that the request schema is made from.
pub const OPS: [(&str, &[Field]); 13] = [
    ("games", &[]),
    ("schemas", &[("game", Kind::Id, true)]),
    (
        "create",
        &[
            ("game", Kind::Id, true),
            ("players", Kind::Players, true),
            ("options", Kind::Object, false),
            ("seed", Kind::Count, false),
            ("now", Kind::Count, false),
            ("match", Kind::Id, false),
        ],
    ),
    (
        "act",
        &[
            ("match", Kind::Id, true),
            ("player", Kind::Id, true),
            ("action", Kind::Object, true),
            ("turnSeq", Kind::Count, false),
            ("now", Kind::Count, false),
        ],
    ),
    (
        "view",
        &[("match", Kind::Id, true), ("player", Kind::Id, false)],
    ),
    (
        "legal",
        &[("match", Kind::Id, true), ("player", Kind::Id, true)],
    ),
    (
        "tick",
        &[("match", Kind::Id, true), ("now", Kind::Count, true)],
    ),
    (
        "presence",
        &[
            ("match", Kind::Id, true),
            ("player", Kind::Id, true),
            ("connected", Kind::Flag, true),
            ("now", Kind::Count, false),
        ],
    ),
    ("record", &[("match", Kind::Id, true)]),
    (
        "load",
        &[("record", Kind::Record, true), ("match", Kind::Id, false)],
    ),
    (
        "restore",
        &[
            ("game", Kind::Id, true),
            ("state", Kind::State, true),
            ("match", Kind::Id, false),
        ],
    ),
    ("outcome", &[("match", Kind::Id, true)]),
    ("drop", &[("match", Kind::Id, true)]),
];

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
    /// The players who may act now.
    pub to_act: Vec<String>,
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
        Self {
            match_id: id.to_owned(),
            game: m.game_id().to_owned(),
            turn_seq: m.turn_seq(),
            to_act: m.to_act(),
            deadline: m.deadline(),
            next_tick_at: m.next_tick_at(),
            clock: m.clock(),
            over: m.outcome().is_some(),
        }
    }
}

/// The reply bodies, one type per operation: what the host sends and what its schema
/// (see [`schemas`]) describes, from the same types.
pub mod reply {
    use game_core::{AppliedJson, ErrorBody, MatchRecord};
    use schemars::JsonSchema;
    use serde::Serialize;
    use serde_json::{Map, Value};

    use super::Status;

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

    /// `act` and `presence`: the status, the request's events and the timeouts taken first.
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

    /// `tick`.
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
}

/// The reply body of a typed reply.
fn body<T: Serialize>(reply: &T) -> Map<String, Value> {
    match to_value(reply) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A refused request: the error body sent back, with the timeouts that were due and were
/// taken before the request was judged (an `act` or `presence` after `nextTickAt`).
#[derive(Clone, Debug, PartialEq)]
struct Fail {
    error: ErrorBody,
    applied: Vec<AppliedJson>,
}

impl<E: GameError> From<E> for Fail {
    fn from(e: E) -> Self {
        Fail {
            error: e.body(),
            applied: Vec::new(),
        }
    }
}

fn fail(code: &str, message: &str, reason: Value) -> Fail {
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
fn bad_request(field: Option<&str>, detail: impl Into<String>) -> Fail {
    let detail = detail.into();
    let reason = match field {
        Some(field) => json!({ "field": field, "detail": detail }),
        None => json!({ "detail": detail }),
    };
    fail("BAD_REQUEST", "요청 형식이 올바르지 않아요.", reason)
}

type Body = Result<Map<String, Value>, Fail>;

/// A request's fields, read against its operation's entry in [`OPS`]: unknown fields,
/// `null` and ill-typed values are refused naming the field.
struct Req<'a> {
    fields: BTreeMap<String, &'a RawValue>,
}

impl<'a> Req<'a> {
    /// Parses `line` into fields without building a JSON tree of the whole request (a
    /// `load` line holds a whole record).
    fn parse(line: &'a str) -> Result<Self, Fail> {
        let fields: BTreeMap<String, &'a RawValue> = serde_json::from_str(line).map_err(|e| {
            let detail = if e.is_data() {
                "a request must be a JSON object".to_owned()
            } else {
                format!("not JSON: {e}")
            };
            bad_request(None, detail)
        })?;
        Ok(Self { fields })
    }

    /// The request's `id`, echoed back (null if absent or not JSON we can echo).
    fn id(&self) -> Value {
        self.fields
            .get("id")
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .unwrap_or(Value::Null)
    }

    /// Checks the fields against the operation's list: every field known, none `null`,
    /// every required one there.
    fn check(&self, op: &str, spec: &[Field]) -> Result<(), Fail> {
        for (name, raw) in &self.fields {
            if name == "op" || name == "id" {
                continue;
            }
            if !spec.iter().any(|(n, _, _)| n == name) {
                return Err(bad_request(
                    Some(name),
                    format!("unknown field `{name}` for op `{op}`"),
                ));
            }
            if raw.get() == "null" {
                return Err(bad_request(
                    Some(name),
                    format!("`{name}` must not be null (leave it out instead)"),
                ));
            }
        }
        match spec
            .iter()
            .find(|(name, _, required)| *required && !self.fields.contains_key(*name))
        {
            Some((name, _, _)) => Err(bad_request(Some(name), format!("`{name}` is required"))),
            None => Ok(()),
        }
    }

    fn raw(&self, name: &str) -> Option<&'a RawValue> {
        self.fields.get(name).copied()
    }

    fn read<T: DeserializeOwned>(&self, name: &str, what: &str) -> Result<Option<T>, Fail> {
        self.raw(name)
            .map(|raw| {
                serde_json::from_str(raw.get())
                    .map_err(|_| bad_request(Some(name), format!("`{name}` must be {what}")))
            })
            .transpose()
    }

    fn need<T: DeserializeOwned>(&self, name: &str, what: &str) -> Result<T, Fail> {
        self.read(name, what)?
            .ok_or_else(|| bad_request(Some(name), format!("`{name}` is required")))
    }

    fn opt_id(&self, name: &str) -> Result<Option<String>, Fail> {
        let id: Option<String> = self.read(name, "a string")?;
        match id {
            Some(id) if id.is_empty() || id.len() > MAX_ID => Err(bad_request(
                Some(name),
                format!("`{name}` must be 1 to {MAX_ID} bytes"),
            )),
            id => Ok(id),
        }
    }

    fn id_field(&self, name: &str) -> Result<String, Fail> {
        self.opt_id(name)?
            .ok_or_else(|| bad_request(Some(name), format!("`{name}` is required")))
    }

    fn count(&self, name: &str) -> Result<Option<u64>, Fail> {
        self.read(name, "a non-negative integer")
    }

    fn object(&self, name: &str) -> Result<Option<Value>, Fail> {
        match self.read::<Value>(name, "a JSON object")? {
            Some(v) if !v.is_object() => Err(bad_request(
                Some(name),
                format!("`{name}` must be a JSON object"),
            )),
            v => Ok(v),
        }
    }
}

/// The host: a registry of games and the matches in progress.
pub struct Host {
    registry: Registry,
    matches: BTreeMap<String, Box<dyn DynMatch>>,
    counter: u64,
}

impl Default for Host {
    fn default() -> Self {
        Self::new(crate::registry())
    }
}

impl Host {
    /// A host over `registry`, with no matches.
    pub fn new(registry: Registry) -> Self {
        Self {
            registry,
            matches: BTreeMap::new(),
            counter: 0,
        }
    }

    /// Answers one input line (a JSON object). Never panics on any input.
    pub fn handle_line(&mut self, line: &str) -> Reply {
        let req = match Req::parse(line) {
            Ok(req) => req,
            Err(fail) => return Self::reply(Value::Null, Err(fail)),
        };
        let id = req.id();
        let body = self.handle(&req);
        Self::reply(id, body)
    }

    /// The reply to a line longer than the cap (read and dropped without being kept).
    pub fn too_large(len: usize, max: usize) -> Reply {
        Self::reply(
            Value::Null,
            Err(fail(
                "TOO_LARGE",
                "요청이 너무 커요.",
                json!({ "bytes": len, "max": max }),
            )),
        )
    }

    fn reply(id: Value, answer: Body) -> Reply {
        match answer {
            Ok(body) => Reply { id, ok: true, body },
            Err(Fail { error, applied }) => Reply {
                id,
                ok: false,
                body: body(&reply::Refused { error, applied }),
            },
        }
    }

    /// Dispatches a parsed request.
    fn handle(&mut self, req: &Req<'_>) -> Body {
        let op: String = req.need("op", "a string")?;
        let Some((op, spec)) = OPS.iter().find(|(name, _)| *name == op) else {
            return Err(fail(
                "UNKNOWN_OP",
                "알 수 없는 요청이에요.",
                json!({ "op": op, "ops": OPS.map(|(name, _)| name) }),
            ));
        };
        req.check(op, spec)?;
        match *op {
            "games" => Ok(body(&reply::Games {
                games: self.registry.ids().map(str::to_owned).collect(),
            })),
            "schemas" => {
                let game = self.registry.get(&req.id_field("game")?)?;
                let schemas = game.schemas();
                Ok(body(&reply::Schemas {
                    game: game.id().to_owned(),
                    schemas: schemas
                        .entries()
                        .into_iter()
                        .map(|(name, schema)| (name.to_owned(), schema.clone()))
                        .collect(),
                    default_options: game.default_options(),
                }))
            }
            "create" => self.create(req),
            "act" => {
                let id = req.id_field("match")?;
                let player = req.id_field("player")?;
                let action = req.object("action")?.unwrap_or_default();
                let turn_seq = req.count("turnSeq")?;
                let now = req.count("now")?;
                let m = self.get_mut(&id)?;
                let now = now.unwrap_or_else(|| m.clock());
                let result = m.act(&player, action, turn_seq, now);
                played(&id, m.as_ref(), result)
            }
            "view" => {
                let m = self.get(&req.id_field("match")?)?;
                let player = req.opt_id("player")?;
                Ok(body(&reply::View {
                    view: m.view(player.as_deref())?,
                }))
            }
            "legal" => {
                let m = self.get(&req.id_field("match")?)?;
                let actions = m.legal_actions(&req.id_field("player")?)?;
                Ok(body(&reply::Legal { actions }))
            }
            "tick" => {
                let id = req.id_field("match")?;
                let now = req.need("now", "a non-negative integer")?;
                let m = self.get_mut(&id)?;
                let applied = m.tick(now);
                Ok(body(&reply::Ticked {
                    status: Status::of(&id, m.as_ref()),
                    applied,
                }))
            }
            "presence" => {
                let id = req.id_field("match")?;
                let player = req.id_field("player")?;
                let connected = req.need("connected", "true or false")?;
                let now = req.count("now")?;
                let m = self.get_mut(&id)?;
                let now = now.unwrap_or_else(|| m.clock());
                let result = m.set_connected(&player, connected, now);
                played(&id, m.as_ref(), result)
            }
            "record" => {
                let m = self.get(&req.id_field("match")?)?;
                Ok(body(&reply::Record {
                    record: m.record().clone(),
                }))
            }
            "load" => {
                let record: MatchRecord = req.need("record", "a match record")?;
                let requested = req.opt_id("match")?;
                self.check_free(requested.as_deref())?;
                let m = self.registry.replay(&record)?;
                drop(record);
                Ok(self.insert(requested, m))
            }
            "restore" => {
                let game = req.id_field("game")?;
                let requested = req.opt_id("match")?;
                self.check_free(requested.as_deref())?;
                // The state as `state_json` gave it, or that JSON as one string (a host that
                // stored the text).
                let raw = req.raw("state").map(RawValue::get).unwrap_or_default();
                let text: Option<String> = match raw.starts_with('"') {
                    true => req.read("state", "a JSON object or its text")?,
                    false => None,
                };
                let m = self
                    .registry
                    .restore(&game, text.as_deref().unwrap_or(raw))?;
                Ok(self.insert(requested, m))
            }
            "outcome" => {
                let outcome = self.get(&req.id_field("match")?)?.outcome();
                Ok(body(&reply::Outcome {
                    over: outcome.is_some(),
                    outcome,
                }))
            }
            "drop" => {
                let id = req.id_field("match")?;
                self.matches.remove(&id).ok_or_else(|| unknown_match(&id))?;
                Ok(body(&reply::Dropped { match_id: id }))
            }
            other => Err(fail(
                "UNKNOWN_OP",
                "알 수 없는 요청이에요.",
                json!({ "op": other }),
            )),
        }
    }

    fn create(&mut self, req: &Req<'_>) -> Body {
        let game_id = req.id_field("game")?;
        let players: Vec<String> = req.need("players", "an array of strings")?;
        let seed = req.count("seed")?;
        let now = req.count("now")?.unwrap_or(0);
        let requested = req.opt_id("match")?;
        self.check_free(requested.as_deref())?;
        let options = match req.object("options")? {
            Some(o) => o,
            None => self.registry.get(&game_id)?.default_options(),
        };
        let m = self
            .registry
            .create(&game_id, &options, players, seed, now)?;
        Ok(self.insert(requested, m))
    }

    /// Refuses a requested match id that is taken.
    fn check_free(&self, requested: Option<&str>) -> Result<(), Fail> {
        match requested {
            Some(id) if self.matches.contains_key(id) => Err(fail(
                "MATCH_EXISTS",
                "이미 있는 게임 id예요.",
                json!({ "match": id }),
            )),
            _ => Ok(()),
        }
    }

    /// Stores a new match under the requested id (checked free) or the next free `m<N>`.
    fn insert(&mut self, requested: Option<String>, m: Box<dyn DynMatch>) -> Map<String, Value> {
        let id = requested.unwrap_or_else(|| {
            loop {
                self.counter += 1;
                let id = format!("m{}", self.counter);
                if !self.matches.contains_key(&id) {
                    break id;
                }
            }
        });
        let status = body(&Status::of(&id, m.as_ref()));
        self.matches.insert(id, m);
        status
    }

    fn get(&self, id: &str) -> Result<&dyn DynMatch, Fail> {
        self.matches
            .get(id)
            .map(|m| m.as_ref())
            .ok_or_else(|| unknown_match(id))
    }

    fn get_mut(&mut self, id: &str) -> Result<&mut Box<dyn DynMatch>, Fail> {
        self.matches.get_mut(id).ok_or_else(|| unknown_match(id))
    }
}

/// The reply to an `act` or `presence`: the status, the request's `events` and the due
/// timeouts taken first (`applied`); when refused, the error with those timeouts.
fn played(id: &str, m: &dyn DynMatch, played: PlayedJson) -> Body {
    match played.result {
        Ok(events) => Ok(body(&reply::Played {
            status: Status::of(id, m),
            events,
            applied: played.applied,
        })),
        Err(e) => Err(Fail {
            error: e.body(),
            applied: played.applied,
        }),
    }
}

fn unknown_match(id: &str) -> Fail {
    fail("UNKNOWN_MATCH", "없는 게임이에요.", json!({ "match": id }))
}

fn to_value<T: Serialize + ?Sized>(v: &T) -> Value {
    // Every type here serializes without failure (string keys, no floats that are NaN).
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// One line read with a cap on its length.
enum Line {
    /// The line's bytes (without the newline).
    Text,
    /// The line was longer than the cap; its bytes were read and dropped.
    TooLarge(usize),
}

/// Reads one line into `buf` (cleared first), keeping at most `max` bytes: a longer line
/// is consumed to its end without being kept, so one huge line costs no memory. `None` at
/// the end of the input.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<Option<Line>> {
    buf.clear();
    let mut len = 0usize;
    let mut started = false;
    loop {
        let chunk = input.fill_buf()?;
        // A newline ends the line, and so does the end of the input (an empty chunk).
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), chunk.is_empty()),
        };
        if used == 0 && !started {
            return Ok(None);
        }
        started = true;
        len = len.saturating_add(part.len());
        if len <= max {
            buf.extend_from_slice(part);
        } else {
            buf.clear();
        }
        input.consume(used);
        if ended {
            return Ok(Some(if len > max {
                Line::TooLarge(len)
            } else {
                Line::Text
            }));
        }
    }
}

/// [`serve_with`] with the default line cap ([`DEFAULT_MAX_LINE`]).
pub fn serve(input: impl BufRead, output: impl Write) -> io::Result<()> {
    serve_with(input, output, DEFAULT_MAX_LINE)
}

/// Serves requests from `input` until it ends, one reply line to `output` per request
/// (flushed at once, so a client can talk to the host through pipes). Lines that are not
/// UTF-8 or not JSON get a `BAD_REQUEST` reply, lines over `max_line` bytes `TOO_LARGE`;
/// only a failing `input` or `output` stops it.
pub fn serve_with(
    mut input: impl BufRead,
    mut output: impl Write,
    max_line: usize,
) -> io::Result<()> {
    let mut host = Host::default();
    let mut buf = Vec::new();
    while let Some(line) = read_line(&mut input, &mut buf, max_line)? {
        let reply = match line {
            Line::TooLarge(len) => Host::too_large(len, max_line),
            Line::Text => match std::str::from_utf8(&buf) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => host.handle_line(text),
                Err(e) => Host::reply(
                    Value::Null,
                    Err(bad_request(None, format!("the line is not UTF-8: {e}"))),
                ),
            },
        };
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// The JSON Schemas of the host protocol, as `(name, schema)` pairs: `request` (every
/// operation, a union tagged by `op`, made from [`OPS`]), `reply-OP` for each operation's
/// successful reply and `reply-error` for a refused one (each with `id` and `ok`),
/// `status`, `applied` (a timeout taken), `record` and `trace-line`. The games' own parts
/// (options, actions, views, events) are plain objects here; their schemas are the game's.
///
/// ```
/// let schemas = examples::host::schemas();
/// let names: Vec<&str> = schemas.iter().map(|(n, _)| *n).collect();
/// assert!(names.contains(&"request") && names.contains(&"reply-act"));
/// let request = &schemas[0].1;
/// assert_eq!(request["oneOf"].as_array().unwrap().len(), examples::host::OPS.len());
/// ```
pub fn schemas() -> Vec<(&'static str, Value)> {
    use game_core::schema::{Direction::Outgoing, wire_schema};
    let mut out = vec![("request", request_schema())];
    let replies: [(&'static str, Value); 13] = [
        (
            "reply-games",
            wire_schema::<reply::Games>(Outgoing, "GamesReply"),
        ),
        (
            "reply-schemas",
            wire_schema::<reply::Schemas>(Outgoing, "SchemasReply"),
        ),
        (
            "reply-create",
            wire_schema::<Status>(Outgoing, "CreateReply"),
        ),
        (
            "reply-act",
            wire_schema::<reply::Played>(Outgoing, "ActReply"),
        ),
        (
            "reply-view",
            wire_schema::<reply::View>(Outgoing, "ViewReply"),
        ),
        (
            "reply-legal",
            wire_schema::<reply::Legal>(Outgoing, "LegalReply"),
        ),
        (
            "reply-tick",
            wire_schema::<reply::Ticked>(Outgoing, "TickReply"),
        ),
        (
            "reply-presence",
            wire_schema::<reply::Played>(Outgoing, "PresenceReply"),
        ),
        (
            "reply-record",
            wire_schema::<reply::Record>(Outgoing, "RecordReply"),
        ),
        ("reply-load", wire_schema::<Status>(Outgoing, "LoadReply")),
        (
            "reply-restore",
            wire_schema::<Status>(Outgoing, "RestoreReply"),
        ),
        (
            "reply-outcome",
            wire_schema::<reply::Outcome>(Outgoing, "OutcomeReply"),
        ),
        (
            "reply-drop",
            wire_schema::<reply::Dropped>(Outgoing, "DropReply"),
        ),
    ];
    out.extend(
        replies
            .into_iter()
            .map(|(name, s)| (name, envelope(s, true))),
    );
    out.push((
        "reply-error",
        envelope(wire_schema::<reply::Refused>(Outgoing, "ErrorReply"), false),
    ));
    out.push(("status", wire_schema::<Status>(Outgoing, "Status")));
    out.push(("applied", wire_schema::<AppliedJson>(Outgoing, "Applied")));
    out.push((
        "record",
        wire_schema::<MatchRecord>(Outgoing, "MatchRecord"),
    ));
    out.push(("trace-line", crate::trace::line_schema()));
    out
}

/// A reply body's schema with the envelope every reply has: the request's `id` echoed and
/// `ok`.
fn envelope(mut schema: Value, ok: bool) -> Value {
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        props.insert(
            "id".into(),
            json!({
                "description": "The request's `id`, echoed (null without one).",
                "type": ANY_JSON,
            }),
        );
        props.insert(
            "ok".into(),
            json!({ "description": "Whether the request succeeded.", "type": "boolean", "const": ok }),
        );
    }
    if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
        required.splice(0..0, [json!("id"), json!("ok")]);
    } else {
        schema["required"] = json!(["id", "ok"]);
    }
    schema
}

/// Every JSON type, spelled out: a schema without `type` reads as an object to some code
/// generators.
const ANY_JSON: [&str; 6] = ["string", "number", "boolean", "null", "object", "array"];

/// The schema of one request field's value.
fn field_schema(kind: Kind) -> Value {
    let id = json!({ "type": "string", "minLength": 1, "maxLength": MAX_ID });
    match kind {
        Kind::Id => id,
        Kind::Players => json!({ "type": "array", "items": id }),
        Kind::Object => json!({
            "type": "object",
            "description": "In the game's wire format (see the game's schemas)."
        }),
        Kind::Count => json!({ "type": "integer", "minimum": 0 }),
        Kind::Flag => json!({ "type": "boolean" }),
        Kind::Record => json!({ "$ref": "#/$defs/MatchRecord" }),
        Kind::State => json!({
            "description": "A stored state as `state_json` gave it, or that JSON as text.",
            "anyOf": [{ "type": "object" }, { "type": "string" }]
        }),
    }
}

/// The request schema: one closed object per operation of [`OPS`], tagged by `op`.
fn request_schema() -> Value {
    use game_core::schema::{Direction::Incoming, wire_schema};
    let branches: Vec<Value> = OPS
        .iter()
        .map(|(op, fields)| {
            let mut properties = Map::new();
            properties.insert("op".into(), json!({ "type": "string", "const": op }));
            properties.insert(
                "id".into(),
                json!({ "description": "Any JSON value, echoed in the reply.", "type": ANY_JSON }),
            );
            let mut required = vec![json!("op")];
            for &(name, kind, needed) in *fields {
                properties.insert(name.into(), field_schema(kind));
                if needed {
                    required.push(json!(name));
                }
            }
            json!({
                "type": "object",
                "title": format!("{}Request", pascal(op)),
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            })
        })
        .collect();
    let mut record = wire_schema::<MatchRecord>(Incoming, "MatchRecord");
    let mut defs = record
        .as_object_mut()
        .and_then(|r| r.remove("$defs"))
        .unwrap_or_else(|| json!({}));
    if let Some(r) = record.as_object_mut() {
        r.remove("$schema");
    }
    defs["MatchRecord"] = record;
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "HostRequest",
        "description": "One request line of the JSON-lines host.",
        "oneOf": branches,
        "$defs": defs,
    })
}

/// `presence` → `Presence`.
fn pascal(op: &str) -> String {
    let mut chars = op.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}
