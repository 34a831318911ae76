//! The binding's logic, free of Node: the built-in registry and its matches behind
//! methods that take and give JSON text, every error an [`ErrorBody`] in the JSON host's
//! wire format (with the timeouts taken before a refusal), and no panic escaping (a match
//! whose call panicked is dropped and answers `INTERNAL_ERROR` from then on).

#![forbid(unsafe_code)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use game_core::{AppliedJson, DynMatch, GameError, MatchRecord, Registry};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`):
/// the bound of every seed, time and `turnSeq` that crosses.
pub const MAX_SAFE: u64 = game_core::MAX_SAFE_INTEGER;

/// A refused call: the error body and the timeouts taken before it was refused — the
/// JSON host's own refusal type, so both answer alike.
pub use game_host::reply::Fail;
use game_host::reply::fail;

/// The text JavaScript reads back for a refusal: `{"error": {code, message, reason},
/// "applied": [...]}`.
pub fn fail_text(f: &Fail) -> String {
    // Written by hand for the key order: index.js recognizes the text by its start.
    format!(
        "{{\"error\":{},\"applied\":{}}}",
        text(&f.error),
        text(&f.applied)
    )
}

/// `BAD_REQUEST`, as the JSON host sends it: a value of the wrong type or range.
pub fn bad_request(field: &str, detail: impl Into<String>) -> Fail {
    game_host::reply::bad_request(Some(field), detail)
}

/// `INTERNAL_ERROR`: the engine panicked (a bug); the match it was in is dropped.
pub fn internal(detail: impl Into<String>) -> Fail {
    fail(
        "INTERNAL_ERROR",
        "엔진 내부 오류가 생겼어요. 게임을 다시 시작해 주세요.",
        json!({ "detail": detail.into() }),
    )
}

/// A non-negative integer given as a JavaScript number: refused unless it is one, up to
/// [`MAX_SAFE`].
pub fn count(field: &str, value: Option<f64>) -> Result<Option<u64>, Fail> {
    match value {
        None => Ok(None),
        Some(v) if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= MAX_SAFE as f64 => {
            // In range and integral: the cast is exact.
            Ok(Some(v as u64))
        }
        Some(v) => Err(bad_request(
            field,
            format!("`{field}` must be an integer from 0 to 2^53 - 1, not {v}"),
        )),
    }
}

/// Runs `f`, turning a panic into `INTERNAL_ERROR` (a panic must not unwind into Node).
pub fn guard<T>(f: impl FnOnce() -> Result<T, Fail>) -> Result<T, Fail> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| Err(internal(panic_text(&panic))))
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned())
}

fn text<T: Serialize + ?Sized>(value: &T) -> String {
    // The engine's wire values serialize without failure (string keys, no NaN).
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

fn parse_object(field: &str, text: &str) -> Result<Value, Fail> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(bad_request(
            field,
            format!("`{field}` must be a JSON object"),
        )),
        Err(e) => Err(bad_request(field, format!("`{field}` is not JSON: {e}"))),
    }
}

/// The built-in games (`game_host::registry()`).
#[derive(Debug)]
pub struct Engine {
    registry: Registry,
}

impl Default for Engine {
    fn default() -> Self {
        Self {
            registry: game_host::registry(),
        }
    }
}

impl Engine {
    /// The registered ids, as a JSON array.
    pub fn games(&self) -> String {
        text(&self.registry.ids().collect::<Vec<_>>())
    }

    /// `{options, action, view, event, outcome, error}`: the game's JSON Schemas.
    pub fn schemas(&self, game: &str) -> Result<String, Fail> {
        let schemas = self.registry.get(game)?.schemas();
        let map: Map<String, Value> = schemas
            .entries()
            .into_iter()
            .map(|(name, schema)| (name.to_owned(), schema.clone()))
            .collect();
        Ok(text(&map))
    }

    /// The JSON Schema of a match record (the JSON host's `record` schema).
    pub fn record_schema(&self) -> String {
        let schemas = game_host::schemas();
        let record = schemas.iter().find(|(name, _)| *name == "record");
        text(&record.map(|(_, schema)| schema))
    }

    /// The game's default options, as JSON.
    pub fn default_options(&self, game: &str) -> Result<String, Fail> {
        Ok(text(&self.registry.get(game)?.default_options()))
    }

    /// A new match; no options are the game's defaults, no seed one from the OS, no
    /// `now` 0.
    pub fn create(
        &self,
        game: &str,
        players: Vec<String>,
        options: Option<&str>,
        seed: Option<f64>,
        now: Option<f64>,
    ) -> Result<Session, Fail> {
        let seed = count("seed", seed)?;
        let now = count("now", now)?.unwrap_or(0);
        let options = match options {
            Some(text) => parse_object("options", text)?,
            None => self.registry.get(game)?.default_options(),
        };
        // Without a seed the registry draws one from the operating system, below 2^53.
        let m = self.registry.create(game, &options, players, seed, now)?;
        Ok(Session::new(m))
    }

    /// The match a record replays to; a tampered record is refused.
    pub fn load(&self, record: &str) -> Result<Session, Fail> {
        let record: MatchRecord = serde_json::from_str(record)
            .map_err(|e| bad_request("record", format!("`record` must be a match record: {e}")))?;
        Ok(Session::new(self.registry.replay(&record)?))
    }

    /// The match a stored state (`stateJson`) restores to, validated.
    pub fn restore(&self, game: &str, state: &str) -> Result<Session, Fail> {
        Ok(Session::new(self.registry.restore(game, state)?))
    }
}

/// Where a match stands: the JSON host's status without the match id.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status<'a> {
    game: &'a str,
    turn_seq: u64,
    to_act: Vec<String>,
    deadline: Option<u64>,
    next_tick_at: Option<u64>,
    clock: u64,
    over: bool,
}

/// An action's result: its events and the timeouts taken before it.
#[derive(Serialize)]
struct Played<'a> {
    events: &'a [Value],
    applied: &'a [AppliedJson],
}

/// One match; `None` once a call into it panicked.
#[derive(Debug)]
pub struct Session {
    m: Option<Box<dyn DynMatch>>,
}

impl Session {
    fn new(m: Box<dyn DynMatch>) -> Self {
        Self { m: Some(m) }
    }

    /// Runs `f` on the match; a panic drops the match.
    fn with<T>(&mut self, f: impl FnOnce(&mut dyn DynMatch) -> Result<T, Fail>) -> Result<T, Fail> {
        let Some(m) = self.m.as_mut() else {
            return Err(internal("this match was dropped after an internal error"));
        };
        match catch_unwind(AssertUnwindSafe(|| f(m.as_mut()))) {
            Ok(result) => result,
            Err(panic) => {
                self.m = None;
                Err(internal(panic_text(&panic)))
            }
        }
    }

    /// The status, as JSON.
    pub fn status(&mut self) -> Result<String, Fail> {
        self.with(|m| {
            Ok(text(&Status {
                game: m.game_id(),
                turn_seq: m.turn_seq(),
                to_act: m.to_act(),
                deadline: m.deadline(),
                next_tick_at: m.next_tick_at(),
                clock: m.clock(),
                over: m.outcome().is_some(),
            }))
        })
    }

    /// A player's view (`None`: the spectator's), as JSON.
    pub fn view(&mut self, player: Option<&str>) -> Result<String, Fail> {
        self.with(|m| Ok(m.view_text(player)?))
    }

    /// A player's legal actions, as a JSON array.
    pub fn legal(&mut self, player: &str) -> Result<String, Fail> {
        self.with(|m| Ok(text(&m.legal_actions(player)?)))
    }

    /// Acts: `{"events", "applied"}`, or the refusal with the timeouts taken before it.
    pub fn act(
        &mut self,
        player: &str,
        action: &str,
        turn_seq: Option<f64>,
        now: Option<f64>,
    ) -> Result<String, Fail> {
        let turn_seq = count("turnSeq", turn_seq)?;
        let now = count("now", now)?;
        let action = parse_object("action", action)?;
        self.with(|m| {
            let now = now.unwrap_or_else(|| m.clock());
            played(m.act(player, action, turn_seq, now))
        })
    }

    /// Takes the timeouts due at `now`: a JSON array of `{player, action, events, auto}`.
    pub fn tick(&mut self, now: f64) -> Result<String, Fail> {
        let now = count("now", Some(now))?.unwrap_or(0);
        self.with(|m| Ok(text(&m.tick(now))))
    }

    /// Marks a player (dis)connected: `{"events", "applied"}` as for `act`.
    pub fn set_connected(
        &mut self,
        player: &str,
        connected: bool,
        now: Option<f64>,
    ) -> Result<String, Fail> {
        let now = count("now", now)?;
        self.with(|m| {
            let now = now.unwrap_or_else(|| m.clock());
            played(m.set_connected(player, connected, now))
        })
    }

    /// The match record, as JSON.
    pub fn record(&mut self) -> Result<String, Fail> {
        self.with(|m| Ok(text(m.record())))
    }

    /// The full state for storage (RNG included), as JSON text.
    pub fn state_json(&mut self) -> Result<String, Fail> {
        self.with(|m| Ok(m.state_json().to_string()))
    }

    /// The outcome (`null` until over), as JSON.
    pub fn outcome(&mut self) -> Result<String, Fail> {
        self.with(|m| Ok(text(&m.outcome())))
    }
}

fn played(played: game_core::PlayedJson) -> Result<String, Fail> {
    match played.result {
        Ok(events) => Ok(text(&Played {
            events: &events,
            applied: &played.applied,
        })),
        Err(e) => Err(Fail {
            error: e.body(),
            applied: played.applied,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_safe_integers() {
        assert_eq!(count("now", Some(0.0)).unwrap(), Some(0));
        assert_eq!(count("now", Some(MAX_SAFE as f64)).unwrap(), Some(MAX_SAFE));
        for bad in [-1.0, 0.5, f64::NAN, f64::INFINITY, 2f64.powi(53)] {
            let e = count("now", Some(bad)).unwrap_err();
            assert_eq!(e.error.code, "BAD_REQUEST");
            assert_eq!(e.error.reason["field"], "now");
        }
    }

    #[test]
    fn a_game_plays_and_refusals_keep_their_codes() {
        let engine = Engine::default();
        let players = vec!["a".to_owned(), "b".to_owned()];
        let mut s = engine
            .create("rps", players, None, Some(1.0), None)
            .unwrap();
        let e = s
            .act("zed", r#"{"type":"RANDOM"}"#, None, None)
            .unwrap_err();
        assert_eq!(e.error.code, "NOT_SEATED");
        let e = s
            .act("a", r#"{"type":"RANDOM"}"#, Some(7.0), None)
            .unwrap_err();
        assert_eq!(e.error.code, "STALE_TURN_SEQ");
        assert!(s.act("a", r#"{"type":"RANDOM"}"#, None, None).is_ok());
        let e = s.act("a", "[]", None, None).unwrap_err();
        assert_eq!(e.error.reason["field"], "action");
        let back = engine.load(&s.record().unwrap()).unwrap().state_json();
        assert_eq!(back.unwrap(), s.state_json().unwrap());
    }

    #[test]
    fn os_seeds_stay_below_2_pow_53() {
        let engine = Engine::default();
        for _ in 0..20 {
            let mut s = engine
                .create("rps", vec!["a".into(), "b".into()], None, None, None)
                .unwrap();
            let record: Value = serde_json::from_str(&s.record().unwrap()).unwrap();
            assert!(record["seed"].as_u64().unwrap() <= MAX_SAFE);
        }
    }

    #[test]
    fn a_panic_becomes_internal_error() {
        let e = guard::<()>(|| panic!("boom")).unwrap_err();
        assert_eq!(e.error.code, "INTERNAL_ERROR");
        assert_eq!(e.error.reason["detail"], "boom");
    }
}
