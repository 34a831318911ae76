//! A generic JSON-lines host: one request object per input line, exactly one reply line
//! per request, for every game in [`crate::registry`].
//!
//! Requests carry an `"op"` and an optional `"id"` (any JSON value), echoed back. Replies
//! are `{"id":..,"ok":true, ...}` or `{"id":..,"ok":false,"error":{"code","message","reason"}}`
//! where the error is the engine's typed error body (`NOT_YOUR_TURN`, `STALE_TURN_SEQ`, ...)
//! or one of the host's own: `BAD_REQUEST` (a line that is not a JSON object, a missing or
//! ill-typed field), `UNKNOWN_OP`, `UNKNOWN_MATCH`, `MATCH_EXISTS`, and the erased layer's
//! `UNKNOWN_GAME` and `BAD_JSON` (options or action of the wrong shape). Blank lines are
//! skipped. Nothing a client sends makes the host panic or stop.
//!
//! | op | fields | reply |
//! |---|---|---|
//! | `games` | | `games`: ids |
//! | `schemas` | `game` | `game`, `schemas` {options, action, view, event, outcome, error}, `defaultOptions` |
//! | `create` | `game`, `players`, `options?` (default: the game's), `seed?` (0), `now?` (0), `match?` | status |
//! | `act` | `match`, `player`, `action`, `turnSeq?`, `now?` | `events` + status |
//! | `view` | `match`, `player?` (none: spectator) | `view` |
//! | `legal` | `match`, `player` | `actions` |
//! | `tick` | `match`, `now` | `applied` [{player, action, events, auto}] + status |
//! | `presence` | `match`, `player`, `connected`, `now?` | status |
//! | `record` | `match` | `record` (the `MatchRecord`) |
//! | `load` | `record`, `match?` | status (the record replayed into a new match) |
//! | `outcome` | `match` | `over`, `outcome` (null until over) |
//! | `drop` | `match` | `match` |
//!
//! "status" is `match`, `turnSeq`, `toAct` (player ids), `deadline` and `over`. Match ids
//! default to `m1`, `m2`, ... A missing `now` means the match's last known time.
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

use game_core::{DynMatch, ErrorBody, GameError, MatchRecord, Millis, Registry};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The operations a host understands, in the order of the table above.
pub const OPS: [&str; 12] = [
    "games", "schemas", "create", "act", "view", "legal", "tick", "presence", "record", "load",
    "outcome", "drop",
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

/// A refused request: the error body sent back.
#[derive(Clone, Debug, PartialEq)]
struct Fail(ErrorBody);

impl<E: GameError> From<E> for Fail {
    fn from(e: E) -> Self {
        Fail(e.body())
    }
}

fn fail(code: &str, message: String, reason: Value) -> Fail {
    Fail(ErrorBody {
        code: code.to_owned(),
        message,
        reason: Some(reason),
    })
}

fn bad_request(detail: impl Into<String>) -> Fail {
    let detail = detail.into();
    fail(
        "BAD_REQUEST",
        format!("요청 형식이 올바르지 않아요: {detail}"),
        json!({ "detail": detail }),
    )
}

/// A match held by the host, with the last time it was told.
struct Slot {
    game: Box<dyn DynMatch>,
    now: Millis,
}

/// The host: a registry of games and the matches in progress.
pub struct Host {
    registry: Registry,
    matches: BTreeMap<String, Slot>,
    counter: u64,
}

impl Default for Host {
    fn default() -> Self {
        Self::new(crate::registry())
    }
}

type Body = Result<Map<String, Value>, Fail>;

/// Reads request fields with `BAD_REQUEST` errors that name the field.
struct Req<'a>(&'a Map<String, Value>);

impl<'a> Req<'a> {
    fn opt(&self, name: &str) -> Option<&'a Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    fn value(&self, name: &str) -> Result<&'a Value, Fail> {
        self.opt(name)
            .ok_or_else(|| bad_request(format!("`{name}` is required")))
    }

    fn str(&self, name: &str) -> Result<&'a str, Fail> {
        self.value(name)?
            .as_str()
            .ok_or_else(|| bad_request(format!("`{name}` must be a string")))
    }

    fn opt_str(&self, name: &str) -> Result<Option<&'a str>, Fail> {
        self.opt(name)
            .map(|v| {
                v.as_str()
                    .ok_or_else(|| bad_request(format!("`{name}` must be a string")))
            })
            .transpose()
    }

    fn opt_u64(&self, name: &str) -> Result<Option<u64>, Fail> {
        self.opt(name)
            .map(|v| {
                v.as_u64()
                    .ok_or_else(|| bad_request(format!("`{name}` must be a non-negative integer")))
            })
            .transpose()
    }

    fn bool(&self, name: &str) -> Result<bool, Fail> {
        self.value(name)?
            .as_bool()
            .ok_or_else(|| bad_request(format!("`{name}` must be true or false")))
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
        let request: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return Self::reply(Value::Null, Err(bad_request(format!("not JSON: {e}")))),
        };
        let Value::Object(map) = request else {
            return Self::reply(
                Value::Null,
                Err(bad_request("a request must be a JSON object")),
            );
        };
        let id = map.get("id").cloned().unwrap_or(Value::Null);
        let body = self.handle(&map);
        Self::reply(id, body)
    }

    fn reply(id: Value, body: Body) -> Reply {
        match body {
            Ok(body) => Reply { id, ok: true, body },
            Err(Fail(error)) => {
                let mut body = Map::new();
                body.insert(
                    "error".into(),
                    serde_json::to_value(error).unwrap_or(Value::Null),
                );
                Reply {
                    id,
                    ok: false,
                    body,
                }
            }
        }
    }

    /// Dispatches a parsed request.
    fn handle(&mut self, map: &Map<String, Value>) -> Body {
        let req = Req(map);
        let op = req.str("op")?;
        match op {
            "games" => Ok(obj([(
                "games",
                Value::from(self.registry.ids().collect::<Vec<_>>()),
            )])),
            "schemas" => {
                let game = self.registry.get(req.str("game")?)?;
                Ok(obj([
                    ("game", Value::from(game.id())),
                    (
                        "schemas",
                        serde_json::to_value(game.schemas()).unwrap_or(Value::Null),
                    ),
                    ("defaultOptions", game.default_options()),
                ]))
            }
            "create" => self.create(&req),
            "act" => {
                let id = req.str("match")?;
                let player = req.str("player")?;
                let action = req.value("action")?.clone();
                let turn_seq = req.opt_u64("turnSeq")?;
                let now = req.opt_u64("now")?;
                let slot = self.slot_mut(id)?;
                let now = now.unwrap_or(slot.now);
                slot.now = now;
                let events = slot.game.act(player, action, turn_seq, now)?;
                let mut body = status(id, slot);
                body.insert("events".into(), Value::from(events));
                Ok(body)
            }
            "view" => {
                let slot = self.slot(req.str("match")?)?;
                let player = req.opt_str("player")?;
                Ok(obj([("view", slot.game.view(player))]))
            }
            "legal" => {
                let slot = self.slot(req.str("match")?)?;
                let actions = slot.game.legal_actions(req.str("player")?)?;
                Ok(obj([("actions", Value::from(actions))]))
            }
            "tick" => {
                let id = req.str("match")?;
                let now = req
                    .opt_u64("now")?
                    .ok_or_else(|| bad_request("`now` is required"))?;
                let slot = self.slot_mut(id)?;
                slot.now = now;
                let applied = slot.game.tick(now);
                let mut body = status(id, slot);
                body.insert(
                    "applied".into(),
                    serde_json::to_value(applied).unwrap_or(Value::Null),
                );
                Ok(body)
            }
            "presence" => {
                let id = req.str("match")?;
                let player = req.str("player")?;
                let connected = req.bool("connected")?;
                let now = req.opt_u64("now")?;
                let slot = self.slot_mut(id)?;
                let now = now.unwrap_or(slot.now);
                slot.now = now;
                slot.game.set_connected(player, connected, now)?;
                Ok(status(id, slot))
            }
            "record" => {
                let slot = self.slot(req.str("match")?)?;
                Ok(obj([(
                    "record",
                    serde_json::to_value(slot.game.record()).unwrap_or(Value::Null),
                )]))
            }
            "load" => {
                let record: MatchRecord = serde_json::from_value(req.value("record")?.clone())
                    .map_err(|e| bad_request(format!("`record` is not a match record: {e}")))?;
                let requested = req.opt_str("match")?;
                let game = self.registry.replay(&record)?;
                let id = self.new_id(requested)?;
                let now = record
                    .entries
                    .iter()
                    .map(|e| match e {
                        game_core::RecordEntry::Act { at, .. }
                        | game_core::RecordEntry::Tick { at }
                        | game_core::RecordEntry::Presence { at, .. } => *at,
                    })
                    .max()
                    .unwrap_or(record.started_at)
                    .max(record.started_at);
                Ok(self.insert(id, Slot { game, now }))
            }
            "outcome" => {
                let slot = self.slot(req.str("match")?)?;
                let outcome = slot.game.outcome();
                Ok(obj([
                    ("over", Value::Bool(outcome.is_some())),
                    ("outcome", outcome.unwrap_or(Value::Null)),
                ]))
            }
            "drop" => {
                let id = req.str("match")?;
                self.matches.remove(id).ok_or_else(|| unknown_match(id))?;
                Ok(obj([("match", Value::from(id))]))
            }
            other => Err(fail(
                "UNKNOWN_OP",
                format!("알 수 없는 요청이에요: {other}"),
                json!({ "op": other, "ops": OPS }),
            )),
        }
    }

    fn create(&mut self, req: &Req<'_>) -> Body {
        let game_id = req.str("game")?;
        let players: Vec<String> = serde_json::from_value(req.value("players")?.clone())
            .map_err(|_| bad_request("`players` must be an array of strings"))?;
        let seed = req.opt_u64("seed")?.unwrap_or(0);
        let now = req.opt_u64("now")?.unwrap_or(0);
        let game = self.registry.get(game_id)?;
        let options = match req.opt("options") {
            Some(o) => o.clone(),
            None => game.default_options(),
        };
        let requested = req.opt_str("match")?;
        let game = game.create(options, players, seed, now)?;
        let id = self.new_id(requested)?;
        Ok(self.insert(id, Slot { game, now }))
    }

    /// The requested match id (refused if taken), or the next free `m<N>`.
    fn new_id(&mut self, requested: Option<&str>) -> Result<String, Fail> {
        if let Some(id) = requested {
            if id.is_empty() {
                return Err(bad_request("`match` must not be empty"));
            }
            if self.matches.contains_key(id) {
                return Err(fail(
                    "MATCH_EXISTS",
                    format!("이미 있는 게임 id예요: {id}"),
                    json!({ "match": id }),
                ));
            }
            return Ok(id.to_owned());
        }
        loop {
            self.counter += 1;
            let id = format!("m{}", self.counter);
            if !self.matches.contains_key(&id) {
                return Ok(id);
            }
        }
    }

    fn insert(&mut self, id: String, slot: Slot) -> Map<String, Value> {
        let body = status(&id, &slot);
        self.matches.insert(id, slot);
        body
    }

    fn slot(&self, id: &str) -> Result<&Slot, Fail> {
        self.matches.get(id).ok_or_else(|| unknown_match(id))
    }

    fn slot_mut(&mut self, id: &str) -> Result<&mut Slot, Fail> {
        self.matches.get_mut(id).ok_or_else(|| unknown_match(id))
    }
}

fn unknown_match(id: &str) -> Fail {
    fail(
        "UNKNOWN_MATCH",
        format!("없는 게임이에요: {id}"),
        json!({ "match": id }),
    )
}

fn obj<const N: usize>(fields: [(&str, Value); N]) -> Map<String, Value> {
    fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// Where a match stands: its id, `turnSeq`, who may act, the deadline, whether it is over.
fn status(id: &str, slot: &Slot) -> Map<String, Value> {
    let m = &slot.game;
    obj([
        ("match", Value::from(id)),
        ("game", Value::from(m.game_id())),
        ("turnSeq", Value::from(m.turn_seq())),
        ("toAct", Value::from(m.to_act())),
        ("deadline", m.deadline().map_or(Value::Null, Value::from)),
        ("over", Value::Bool(m.outcome().is_some())),
    ])
}

/// Serves requests from `input` until it ends, one reply line to `output` per request
/// (flushed at once, so a client can talk to the host through pipes). Lines that are not
/// UTF-8 or not JSON get a `BAD_REQUEST` reply; only a failing `input` or `output` stops it.
pub fn serve(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut host = Host::default();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let reply = match std::str::from_utf8(&buf) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => host.handle_line(line),
            Err(e) => Host::reply(
                Value::Null,
                Err(bad_request(format!("the line is not UTF-8: {e}"))),
            ),
        };
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
}
