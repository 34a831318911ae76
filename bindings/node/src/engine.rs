//! The binding's logic, free of Node: the built-in registry and its matches behind
//! methods that take and give JSON text, every error an [`ErrorBody`](game_core::ErrorBody) in the JSON host's
//! wire format (with the timeouts taken before a refusal), and no panic escaping (a match
//! whose call panicked is dropped and answers `INTERNAL_ERROR` from then on).

#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};

use game_core::{
    AppliedJson, DynBot, DynMatch, GameError, HostError, MatchRecord, PlayedAs, PlayedText,
    Registry, Rejection,
};
use game_host::Change;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`):
/// the bound of every seed, time and `turnSeq` that crosses.
pub const MAX_SAFE: u64 = game_core::MAX_SAFE_INTEGER;

/// The most players `create` takes from JavaScript. No built-in game seats more than 4;
/// the bound is checked before a list is read, so that a hostile length (a sparse array of
/// 2^32 − 1) reserves nothing. index.js checks the same bound first.
pub const MAX_SEATS: usize = 256;

/// The longest string argument, in UTF-16 units (64 Mi, 128 MiB as JavaScript holds it):
/// far above any record or state a game makes, and a bound on what one call copies.
pub const MAX_TEXT: usize = 1 << 26;

/// The largest table [`Engine::is_options`] tries options with: above every built-in
/// game's (4), with room for an author's game of more seats.
pub const OPTIONS_TABLES: usize = 16;

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
/// [`MAX_SAFE`], with the JSON host's refusal of a count
/// ([`not_a_count`](game_host::reply::not_a_count)), so that both take one range.
pub fn count(field: &str, value: Option<f64>) -> Result<Option<u64>, Fail> {
    match value {
        None => Ok(None),
        // In range (NaN is not), then integral: the cast of a number in range truncates
        // exactly, so it comes back equal only if nothing was cut (`fract` would call the C
        // library's `trunc` on the baseline target, at every call).
        Some(v) if (0.0..=MAX_SAFE as f64).contains(&v) && (v as u64) as f64 == v => {
            Ok(Some(v as u64))
        }
        Some(v) => Err(game_host::reply::not_a_count(field, v)),
    }
}

/// What [`inspect`] finds in a JSON value: the first integer past [`MAX_SAFE`] either
/// way, one that JavaScript's `JSON.parse` would round. The engine writes a stored
/// integer back as it read it, so a record or a state holding one would reach JavaScript
/// changed (a record that replays to another match, a state that restores to another RNG
/// position). A number with a fraction or an exponent is a double already (exact in
/// JavaScript), and so is an integer past 64 bits (read as one).
struct Inexact(Option<String>);

impl<'de> serde::Deserialize<'de> for Inexact {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(InexactVisitor)
    }
}

struct InexactVisitor;

impl<'de> serde::de::Visitor<'de> for InexactVisitor {
    type Value = Inexact;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Inexact, E> {
        Ok(Inexact(None))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Inexact, E> {
        Ok(Inexact((v > MAX_SAFE).then(|| v.to_string())))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Inexact, E> {
        Ok(Inexact(
            (v.unsigned_abs() > MAX_SAFE).then(|| v.to_string()),
        ))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Inexact, E> {
        Ok(Inexact(None))
    }

    fn visit_str<E>(self, _: &str) -> Result<Inexact, E> {
        Ok(Inexact(None))
    }

    fn visit_unit<E>(self) -> Result<Inexact, E> {
        Ok(Inexact(None))
    }

    fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut seq: S) -> Result<Inexact, S::Error> {
        let mut first = None;
        while let Some(Inexact(found)) = seq.next_element()? {
            first = first.or(found);
        }
        Ok(Inexact(first))
    }

    fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Inexact, M::Error> {
        // A set, not a list: a record may hold many keys.
        let mut keys = std::collections::HashSet::new();
        let mut first = None;
        while let Some(key) = map.next_key::<String>()? {
            if keys.contains(&key) {
                // Refused as the JSON host refuses it: JSON leaves a repeated key to the
                // reader, and the engine's readers differ (a typed part refuses it, a
                // `Value` keeps the last).
                return Err(serde::de::Error::custom(format_args!(
                    "the key `{}` is given twice in one object",
                    game_core::cap_detail(key)
                )));
            }
            let Inexact(found) = map.next_value()?;
            keys.insert(key);
            first = first.or(found);
        }
        Ok(Inexact(first))
    }
}

/// Reads JSON `text` (a record or a state, named `field`) before the engine does: a key
/// given twice in one object is refused, as the JSON host refuses it; the first integer
/// JavaScript cannot hold exactly is answered, for [`exact`] to refuse once the engine
/// has judged the rest (its codes first). Text that is not JSON is left to the engine.
fn inspect(field: &str, text: &str) -> Result<Option<String>, Fail> {
    match serde_json::from_str::<Inexact>(text) {
        Ok(Inexact(found)) => Ok(found),
        Err(e) if e.is_data() => Err(bad_request(
            field,
            game_core::cap_detail(format!("`{field}`: {e}")),
        )),
        Err(_) => Ok(None),
    }
}

/// Refuses what [`inspect`] found: an integer past 2^53 - 1.
fn exact(field: &str, found: Option<String>) -> Result<(), Fail> {
    match found {
        None => Ok(()),
        Some(n) => Err(bad_request(
            field,
            format!(
                "`{field}` holds {n}, past 2^53 - 1: a JavaScript number does not hold it exactly"
            ),
        )),
    }
}

/// How many more acting calls the match can take before its `turnSeq` could pass
/// [`MAX_SAFE`], where the status would give it rounded (and no `turnSeq` could be sent
/// back): one call applies at most one timeout a seat and an action. Refused at 0. Only a
/// stored state starts that close (2^53 actions are not played), as the engine restores a
/// `turnSeq` up to [`MAX_SAFE`].
fn room(m: &dyn DynMatch) -> Result<u64, Fail> {
    let steps = m.players().len() as u64 + 1;
    let left = MAX_SAFE.saturating_sub(m.turn_seq()) / steps;
    if left > 0 {
        return Ok(left);
    }
    Err(Fail {
        error: Rejection::CorruptState {
            detail: format!("turnSeq {} leaves no room below 2^53 - 1", m.turn_seq()),
        }
        .body(),
        applied: Vec::new(),
    })
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

/// The games of a [`Registry`] and their matches, for JavaScript: by default the
/// built-in games (`game_host::registry()`); a game author's addon gives its own registry
/// ([`Engine::new`], or [`use_registry`] for the module's `NativeRegistry`).
#[derive(Debug)]
pub struct Engine {
    registry: Registry,
}

/// The registry [`Engine::default`] makes, once [`use_registry`] has set it.
static REGISTRY: std::sync::OnceLock<fn() -> Registry> = std::sync::OnceLock::new();

/// Makes every [`Engine::default`] (and so every `NativeRegistry` JavaScript creates)
/// hold the games of `make` instead of the built-in ones: what a game author's addon
/// crate calls, from its module's initializer, with its own registry (see the package's
/// README, *Your own game*). The first call decides: `false` if one was made before.
pub fn use_registry(make: fn() -> Registry) -> bool {
    REGISTRY.set(make).is_ok()
}

impl Default for Engine {
    fn default() -> Self {
        Self::new(
            REGISTRY
                .get()
                .map_or_else(game_host::registry, |make| make()),
        )
    }
}

impl Engine {
    /// An engine over `registry`'s games.
    pub fn new(registry: Registry) -> Self {
        Self { registry }
    }

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

    /// Whether `action` (JSON text) reads as an action of `game`, as a match would read it
    /// ([`game_core::DynGame::check_action`]): `false` where `act` would refuse its shape,
    /// `UNKNOWN_GAME` for a game the registry does not have. The shape only, not whether
    /// the action is legal now.
    pub fn is_action(&self, game: &str, action: &str) -> Result<bool, Fail> {
        let game = self.registry.get(game)?;
        Ok(serde_json::from_str::<Value>(action)
            .is_ok_and(|value| game.check_action(&value).is_ok()))
    }

    /// Whether `options` (JSON text) are options `create` takes for `game`, for some
    /// table of 1 to [`OPTIONS_TABLES`] players (the options of a game may ask for a
    /// number of players: Yut's teams for four): their shape and their values, as a match
    /// judges them. `UNKNOWN_GAME` for a game the registry does not have. Nothing is kept:
    /// each table is a match made and dropped (a set-up call, not a hot one).
    pub fn is_options(&self, game: &str, options: &str) -> Result<bool, Fail> {
        let game = self.registry.get(game)?;
        let Ok(options @ Value::Object(_)) = serde_json::from_str::<Value>(options) else {
            return Ok(false);
        };
        for n in 1..=OPTIONS_TABLES {
            let players = (1..=n).map(|i| format!("p{i}")).collect();
            match game.create(&options, players, 0, 0) {
                Ok(_) => return Ok(true),
                // A shape no table changes: the other tables would read it alike.
                Err(HostError::BadJson { .. }) => return Ok(false),
                Err(_) => {}
            }
        }
        Ok(false)
    }

    /// The kinds of bot that play `game` ([`game_core::DynGame::bot_kinds`]), the game's
    /// preferred first, as a JSON array: the kinds the server offers.
    pub fn bot_kinds(&self, game: &str) -> Result<String, Fail> {
        Ok(text(&self.registry.get(game)?.bot_kinds()))
    }

    /// A bot of `kind` for matches of `game` ([`game_core::DynGame::bot`]), seeded with
    /// `seed` (none: a seed from the OS, as the server seeds its bots); `UNKNOWN_BOT` for
    /// a kind the game does not offer.
    pub fn bot(&self, game: &str, kind: &str, seed: Option<f64>) -> Result<BotSession, Fail> {
        let seed = count("seed", seed)?;
        let game = self.registry.get(game)?;
        let seed = seed.unwrap_or_else(os_seed);
        Ok(BotSession {
            game: game.id(),
            bot: Some(game.bot(kind, seed)?),
        })
    }

    /// A new match; no options are the game's defaults, no seed one from the OS, no
    /// `now` 0, no `grace_ms` the game's grace ([`DynMatch::set_grace_ms`]).
    pub fn create(
        &self,
        game: &str,
        players: Vec<String>,
        options: Option<&str>,
        seed: Option<f64>,
        now: Option<f64>,
        grace_ms: Option<f64>,
    ) -> Result<Session, Fail> {
        let seed = count("seed", seed)?;
        let now = count("now", now)?.unwrap_or(0);
        let grace_ms = count("graceMs", grace_ms)?;
        let options = match options {
            Some(text) => parse_object("options", text)?,
            None => self.registry.get(game)?.default_options(),
        };
        // Without a seed the registry draws one from the operating system, below 2^53.
        let mut m = self.registry.create(game, &options, players, seed, now)?;
        if let Some(grace_ms) = grace_ms {
            m.set_grace_ms(grace_ms)?;
        }
        Ok(Session::new(m))
    }

    /// The match a record replays to; a tampered record is refused, and so is one with a
    /// key given twice in an object (first, as the JSON host refuses it) or holding an
    /// integer past 2^53 - 1 (after the engine's own checks, whose codes come first).
    pub fn load(&self, text: &str) -> Result<Session, Fail> {
        let found = inspect("record", text)?;
        let record: MatchRecord = serde_json::from_str(text)
            .map_err(|e| bad_request("record", format!("`record` must be a match record: {e}")))?;
        let m = self.registry.replay(&record)?;
        exact("record", found)?;
        Ok(Session::new(m))
    }

    /// The match a stored state (`stateJson`) restores to, validated; read as
    /// [`Engine::load`] reads a record.
    pub fn restore(&self, game: &str, state: &str) -> Result<Session, Fail> {
        let found = inspect("state", state)?;
        let m = self.registry.restore(game, state)?;
        exact("state", found)?;
        Ok(Session::new(m))
    }
}

/// 64 bits from the OS, for a bot made without a seed: std's hasher keys are drawn from
/// the OS once per process and advanced per hasher, which is all a bot's seed needs (its
/// choices are no secret and not part of a record: the record keeps the actions taken).
fn os_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::hash::RandomState::new().build_hasher().finish()
}

/// One bot ([`Engine::bot`]) and its game; `None` once a call into it panicked.
pub struct BotSession {
    game: &'static str,
    bot: Option<Box<dyn DynBot>>,
}

impl std::fmt::Debug for BotSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotSession")
            .field("game", &self.game)
            .finish_non_exhaustive()
    }
}

impl BotSession {
    /// The game the bot plays.
    pub fn game(&self) -> &'static str {
        self.game
    }
}

/// A player named by the JavaScript side: by seat for an id it knows to be seated (it
/// keeps the table's ids), by id for any other (then refused as the engine refuses it).
/// A seat crosses as a number, cheaper than a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who<'a> {
    /// The player at this seat.
    Seat(u32),
    /// The player with this id.
    Id(&'a str),
}

impl<'a> Who<'a> {
    /// The id when given, else the seat.
    pub fn of(seat: u32, id: Option<&'a str>) -> Self {
        id.map_or(Self::Seat(seat), Self::Id)
    }
}

/// The number of slots [`Session::status_into`] writes before the seats to act.
pub const STATUS_HEAD: usize = 7;

/// One match; `None` once a call into it panicked.
#[derive(Debug)]
pub struct Session {
    m: Option<Box<dyn DynMatch>>,
    /// Acting calls left before [`room`] must be asked again (asking costs more than
    /// the rest of an `advance`).
    room: u64,
    /// The timeouts the last [`Session::advance`] took first (nearly always none).
    advanced: Vec<AppliedJson>,
    /// The last change (an acting call, `set_connected` or a `tick` that took timeouts),
    /// for each viewer's projection ([`Session::events`]).
    last: Change,
}

impl Session {
    fn new(m: Box<dyn DynMatch>) -> Self {
        Self {
            m: Some(m),
            room: 0,
            advanced: Vec::new(),
            last: Change::default(),
        }
    }

    /// Counts an acting call against [`Session::room`], refusing it if the match has
    /// none left.
    #[inline]
    fn spend(&mut self) -> Result<(), Fail> {
        match self.room.checked_sub(1) {
            Some(left) => {
                self.room = left;
                Ok(())
            }
            None => self.measure_room(),
        }
    }

    /// [`Session::spend`] once the calls counted are spent. Out of line: once in 2^53
    /// calls over the number of seats, unless the match is near the end.
    #[inline(never)]
    fn measure_room(&mut self) -> Result<(), Fail> {
        self.room = self.with(|m| room(m))? - 1;
        Ok(())
    }

    /// Clears the last change at the start of a call that may change the match: one
    /// refused before it acts changed nothing, and `events` then answers nothing.
    #[inline]
    fn forget(&mut self) {
        // Tested first: clearing even an empty change is a call.
        if !is_empty(&self.last) {
            self.last = Change::default();
        }
    }

    /// Runs `f` on the match; a panic drops the match.
    fn with<T>(&mut self, f: impl FnOnce(&mut dyn DynMatch) -> Result<T, Fail>) -> Result<T, Fail> {
        with_match(&mut self.m, f)
    }

    /// [`Session::with`] for a call about a player: `f` gets the player's id.
    fn with_player<T>(
        &mut self,
        who: Who<'_>,
        f: impl FnOnce(&mut dyn DynMatch, &str) -> Result<T, Fail>,
    ) -> Result<T, Fail> {
        self.with(|m| {
            let id = player_id(m, who)?;
            f(m, &id)
        })
    }

    /// The game's id.
    pub fn game(&mut self) -> Result<String, Fail> {
        self.with(|m| Ok(m.game_id().to_owned()))
    }

    /// The seated players' ids, in seat order.
    pub fn players(&mut self) -> Result<Vec<String>, Fail> {
        self.with(|m| Ok(m.players().to_vec()))
    }

    /// The status as numbers, for the JavaScript side to read as a `Float64Array` over
    /// `out`'s bytes: `turnSeq`, `deadline`, `nextTickAt`, `clock`, `over` (0 or 1), the
    /// number of seats to act, the number of seats that may act besides them
    /// (`mayAct`), then the seats to act and those that may act; a time that is `null` is
    /// -1 (every real one is at least 0). Refused if `out` is too short for the seats.
    pub fn status_into(&mut self, out: &mut [u8]) -> Result<(), Fail> {
        self.with(|m| write_status(m, out))
    }

    /// A player's view (`None`: the spectator's), as JSON.
    pub fn view(&mut self, who: Option<Who<'_>>) -> Result<String, Fail> {
        match who {
            None => self.with(|m| Ok(m.view_text(None)?)),
            Some(who) => self.with_player(who, |m, id| Ok(m.view_text(Some(id))?)),
        }
    }

    /// A player's legal actions, as a JSON array.
    pub fn legal(&mut self, who: Who<'_>) -> Result<String, Fail> {
        self.with_player(who, |m, id| Ok(m.legal_text(id)?))
    }

    /// How many legal actions a player has.
    pub fn legal_count(&mut self, who: Who<'_>) -> Result<usize, Fail> {
        self.with_player(who, |m, id| Ok(m.legal_count(id)?))
    }

    /// Acts with `action` (a JSON object): the events as a JSON array, or
    /// `{"events", "applied"}` when timeouts were taken first; the refusal with the
    /// timeouts taken before it. With `status`, the status after it is written there as
    /// by [`Session::status_into`].
    pub fn act(
        &mut self,
        who: Who<'_>,
        action: &str,
        turn_seq: Option<f64>,
        now: Option<f64>,
        status: Option<&mut [u8]>,
    ) -> Result<String, Fail> {
        self.forget();
        let turn_seq = count("turnSeq", turn_seq)?;
        let now = count("now", now)?;
        if !starts_object(action) {
            // Not an object (or not JSON): refused as `parse_object` refuses it.
            parse_object("action", action)?;
        }
        self.spend()?;
        let Self { m, last, .. } = self;
        with_match(m, |m| {
            let id = player_id(m, who)?;
            let now = now.unwrap_or_else(|| m.clock());
            let played = m.act_text(&id, action, turn_seq, now);
            if let Err(HostError::BadJson { what: "action", .. }) = &played.result {
                // Text that is no JSON at all is the binding's BAD_REQUEST, as before it
                // reached the game; an object of the wrong shape the game's BAD_JSON.
                parse_object("action", action)?;
            }
            played_text(m, played, status, &id, last)
        })
    }

    /// Acts with the player's legal action at `index` (see [`DynMatch::act_legal`]): the
    /// answer of [`Session::act`].
    pub fn act_legal(
        &mut self,
        who: Who<'_>,
        index: f64,
        turn_seq: Option<f64>,
        now: Option<f64>,
        status: Option<&mut [u8]>,
    ) -> Result<String, Fail> {
        self.forget();
        let index = count("index", Some(index))?.unwrap_or(0);
        let turn_seq = count("turnSeq", turn_seq)?;
        let now = count("now", now)?;
        self.spend()?;
        let Self { m, last, .. } = self;
        with_match(m, |m| {
            let id = player_id(m, who)?;
            let now = now.unwrap_or_else(|| m.clock());
            let played = m.act_legal(&id, index, turn_seq, now);
            played_text(m, played, status, &id, last)
        })
    }

    /// The first seat to act plays its legal action at `index`, writing no events (see
    /// [`DynMatch::advance`]): how many legal actions the seat to act next has. The
    /// timeouts taken first are then [`Session::advanced`]; a refusal carries them, as
    /// [`Session::act_legal`]'s does.
    pub fn advance(&mut self, index: f64) -> Result<usize, Fail> {
        // Tested first: clearing even an empty list is a call.
        if !self.advanced.is_empty() {
            self.advanced.clear();
        }
        // It writes no events: the change before it is no longer the last.
        self.forget();
        let index = count("index", Some(index))?.unwrap_or(0);
        self.spend()?;
        let Self { m, advanced, .. } = self;
        with_match(m, |m| {
            // `DynMatch::advance` takes the timeouts due but does not say which: when
            // any are, the call is played as `act_legal` (the same checks in the same
            // order, the same record), which says.
            if m.timeouts_due() {
                return advance_after_timeouts(m, index, advanced);
            }
            Ok(m.advance(index)?)
        })
    }

    /// The timeouts the last [`Session::advance`] took before its action.
    pub fn advanced(&self) -> &[AppliedJson] {
        &self.advanced
    }

    /// Takes the timeouts due at `now`: a JSON array of `{player, action, events, auto}`,
    /// the events as `viewer` sees them (`None`: a spectator; an id that is not seated is
    /// refused first, `NOT_SEATED`).
    pub fn tick(&mut self, now: f64, viewer: Option<Who<'_>>) -> Result<String, Fail> {
        self.forget();
        let now = count("now", Some(now))?.unwrap_or(0);
        self.spend()?;
        let Self { m, last, .. } = self;
        with_match(m, |m| {
            let viewer = viewer.map(|who| viewer_id(m, who)).transpose()?;
            let applied = m.tick(now);
            if applied.is_empty() {
                return Ok("[]".to_owned());
            }
            *last = Change {
                applied,
                events: Default::default(),
            };
            Ok(text(&last.applied_for(viewer.as_deref())))
        })
    }

    /// The last change (made by the last acting call, `set_connected` or `tick`: none
    /// after one that changed nothing, nor after an `advance`) as `viewer` sees it (`None`: a spectator):
    /// `{"events", "applied"}`, as the JSON host's `events` answers them.
    pub fn events(&mut self, viewer: Option<Who<'_>>) -> Result<String, Fail> {
        let Self { m, last, .. } = self;
        with_match(m, |m| {
            let viewer = viewer.map(|who| viewer_id(m, who)).transpose()?;
            let viewer = viewer.as_deref();
            Ok(with_applied(
                &text(&last.events_for(viewer)),
                &last.applied_for(viewer),
            ))
        })
    }

    /// Marks a player (dis)connected: `{"events", "applied"}`.
    pub fn set_connected(
        &mut self,
        who: Who<'_>,
        connected: bool,
        now: Option<f64>,
    ) -> Result<String, Fail> {
        self.forget();
        let now = count("now", now)?;
        self.spend()?;
        let Self { m, last, .. } = self;
        with_match(m, |m| {
            let id = player_id(m, who)?;
            let now = now.unwrap_or_else(|| m.clock());
            let played = m.set_connected(&id, connected, now);
            let applied = remember(last, &played, &id);
            match played.result {
                Ok(events) => Ok(with_applied(&text(&events), &applied)),
                Err(e) => Err(Fail {
                    error: e.body(),
                    applied,
                }),
            }
        })
    }

    /// The action `bot` picks for `who` now, as JSON (the game's wire action), or `null`
    /// when the player has none (not to act, the match over). It reads the match without
    /// changing it: the caller acts with it (`act`), as a timeout or as a bot's seat. A bot
    /// of another game is `BAD_REQUEST` (field `match`), a player who is not seated
    /// `NOT_SEATED`. A panic in the bot drops the bot (`INTERNAL_ERROR` from then on),
    /// not the match, which it only read.
    pub fn bot_choose(&mut self, bot: &mut BotSession, who: Who<'_>) -> Result<String, Fail> {
        self.with(|m| {
            if m.game_id() != bot.game {
                return Err(bad_request(
                    "match",
                    format!(
                        "a bot of `{}` cannot play a match of `{}`",
                        bot.game,
                        m.game_id()
                    ),
                ));
            }
            let id = viewer_id(m, who)?;
            let Some(mut b) = bot.bot.take() else {
                return Err(internal("this bot was dropped after an internal error"));
            };
            let m: &dyn DynMatch = m;
            let chosen = catch_unwind(AssertUnwindSafe(|| b.choose(m, &id)))
                .map_err(|panic| internal(panic_text(&panic)))?;
            bot.bot = Some(b);
            Ok(chosen.map_or_else(|| "null".to_owned(), |action| text(&action)))
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
        self.with(|m| Ok(m.outcome_text().unwrap_or_else(|| "null".to_owned())))
    }
}

/// The id of the player `who` names: a seat's id, or the id given (judged by the call
/// it is given to, in its own order).
fn player_id<'a>(m: &dyn DynMatch, who: Who<'a>) -> Result<Cow<'a, str>, Fail> {
    match who {
        Who::Id(id) => Ok(Cow::Borrowed(id)),
        Who::Seat(seat) => match m.players().get(seat as usize) {
            Some(id) => Ok(Cow::Owned(id.clone())),
            None => Err(bad_request("player", format!("no seat {seat}"))),
        },
    }
}

/// The id of a viewer of events: a seated player, refused otherwise (`NOT_SEATED`, as the
/// JSON host refuses it, before anything changes) rather than shown what a player sees.
fn viewer_id<'a>(m: &dyn DynMatch, who: Who<'a>) -> Result<Cow<'a, str>, Fail> {
    let id = player_id(m, who)?;
    if !m.players().iter().any(|p| *p == *id) {
        return Err(Fail {
            error: Rejection::NotSeated {
                player: game_core::cap_detail(id.into_owned()),
            }
            .body(),
            applied: Vec::new(),
        });
    }
    Ok(id)
}

/// Whether nothing changed.
fn is_empty(change: &Change) -> bool {
    change.applied.is_empty() && change.events.is_empty()
}

/// Keeps a request's change as the session's last, empty when nothing changed (a refusal
/// that took no timeout, a presence already as said): `events` then answers nothing, not
/// the change before, which a host has sent already. Answers the timeouts taken first as
/// `player` sees them.
fn remember<E>(last: &mut Change, played: &PlayedAs<E>, player: &str) -> Vec<AppliedJson> {
    *last = Change {
        applied: played.applied.clone(),
        events: played.events().clone(),
    };
    if played.applied.is_empty() {
        return Vec::new();
    }
    played.applied_for(Some(player))
}

/// [`Session::with`] on the match slot alone, so that the closure may borrow the
/// session's other fields.
fn with_match<T>(
    slot: &mut Option<Box<dyn DynMatch>>,
    f: impl FnOnce(&mut dyn DynMatch) -> Result<T, Fail>,
) -> Result<T, Fail> {
    let Some(m) = slot.as_mut() else {
        return Err(internal("this match was dropped after an internal error"));
    };
    match catch_unwind(AssertUnwindSafe(|| f(m.as_mut()))) {
        Ok(result) => result,
        Err(panic) => {
            *slot = None;
            Err(internal(panic_text(&panic)))
        }
    }
}

/// [`Session::advance`] with timeouts due at the clock: the first seat to act plays the
/// index as `act_legal` plays it, whose answer lists the timeouts taken first (into
/// `taken` when the action is then accepted). Out of line: only a stored state, or a
/// disconnected player's grace, gets here.
#[inline(never)]
fn advance_after_timeouts(
    m: &mut dyn DynMatch,
    index: u64,
    taken: &mut Vec<AppliedJson>,
) -> Result<usize, Fail> {
    let first = |m: &dyn DynMatch| {
        let seat = *m.status().to_act.first()?;
        m.players().get(seat).cloned()
    };
    let Some(player) = first(m) else {
        // No one to act: nothing is due either (a timeout acts for a seat to act).
        return Ok(m.advance(index)?);
    };
    let now = m.clock();
    let played = m.act_legal(&player, index, None, now);
    match played.result {
        Ok(_) => {
            let count = match first(m) {
                Some(next) => m.legal_count(&next)?,
                None => 0,
            };
            *taken = played.applied;
            Ok(count)
        }
        Err(e) => Err(Fail {
            error: e.body(),
            applied: played.applied,
        }),
    }
}

/// `{"count", "applied"}`: an `advance` that took timeouts, for JavaScript to parse.
pub fn advanced_text(count: usize, applied: &[AppliedJson]) -> String {
    format!("{{\"count\":{count},\"applied\":{}}}", text(applied))
}

/// Whether JSON text is an object, judged by its first character after whitespace (for
/// text that parses, exactly whether it is an object).
fn starts_object(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('{')
}

/// `{"events", "applied"}`: an action's events (JSON text) and the timeouts taken before
/// it. Written by hand, the events as the engine wrote them.
fn with_applied(events: &str, applied: &[AppliedJson]) -> String {
    format!("{{\"events\":{events},\"applied\":{}}}", text(applied))
}

/// The text of an action's result: its events (the JSON array as the engine wrote it),
/// wrapped as `{"events", "applied"}` only when timeouts were taken first; the status
/// after it written to `status` when given.
fn played_text(
    m: &dyn DynMatch,
    played: PlayedText,
    status: Option<&mut [u8]>,
    player: &str,
    last: &mut Change,
) -> Result<String, Fail> {
    let applied = remember(last, &played, player);
    match played.result {
        Ok(events) => {
            if let Some(out) = status {
                write_status(m, out)?;
            }
            if applied.is_empty() {
                Ok(events)
            } else {
                Ok(with_applied(&events, &applied))
            }
        }
        Err(e) => Err(Fail {
            error: e.body(),
            applied,
        }),
    }
}

/// [`Session::status_into`]'s layout, written to `out`.
fn write_status(m: &dyn DynMatch, out: &mut [u8]) -> Result<(), Fail> {
    let s = m.status();
    let time = |t: Option<u64>| t.map_or(-1.0, |t| t as f64);
    let head = [
        s.turn_seq as f64,
        time(s.deadline),
        time(s.next_tick_at),
        s.clock as f64,
        f64::from(u8::from(s.over)),
        s.to_act.len() as f64,
        s.may_act.len() as f64,
    ];
    let values = head
        .into_iter()
        .chain(s.to_act.iter().chain(&s.may_act).map(|&seat| seat as f64));
    let mut slots = out.chunks_exact_mut(8);
    for v in values {
        let Some(slot) = slots.next() else {
            return Err(bad_request(
                "status",
                "the status buffer is too short for the seats to act and that may act",
            ));
        };
        slot.copy_from_slice(&v.to_ne_bytes());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The package never hands a bot the true match: a bot that would play the hand
    /// beating the other seat's hidden pick (`testing::CounterBot`, as rps's `policy` in
    /// an author's registry) chooses the same whatever that pick is, as every kind does.
    #[test]
    fn a_bot_chooses_the_same_whatever_the_hidden_pick() {
        let mut registry = Registry::new();
        registry
            .register(
                game_core::Erased(game_core::rps::Rps)
                    .with_bot("policy", |_| game_core::testing::CounterBot),
            )
            .unwrap();
        let engine = Engine::new(registry);
        for kind in ["policy", "random", "pimc", "ismcts"] {
            let mut chosen = Vec::new();
            for hand in ["rock", "paper", "scissors"] {
                let players = vec!["ann".to_string(), "bo".to_string()];
                let mut s = engine
                    .create("rps", players, None, Some(5.0), None, None)
                    .unwrap();
                let pick = format!(r#"{{"type":"PICK","hand":"{hand}"}}"#);
                s.act(Who::Id("bo"), &pick, None, None, None).unwrap();
                let mut bot = engine.bot("rps", kind, Some(9.0)).unwrap();
                chosen.push(s.bot_choose(&mut bot, Who::Id("ann")).unwrap());
            }
            // Handed the truth, `policy` would name three hands.
            assert!(chosen.iter().all(|c| *c == chosen[0]), "{kind}: {chosen:?}");
        }
    }

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
        let mut s = rps(&engine, 1.0);
        let random = r#"{"type":"RANDOM"}"#;
        let e = s.act(Who::Id("zed"), random, None, None, None).unwrap_err();
        assert_eq!(e.error.code, "NOT_SEATED");
        assert_eq!(e.error.reason["player"], "zed");
        let e = s
            .act(Who::Id("a"), random, Some(7.0), None, None)
            .unwrap_err();
        assert_eq!(e.error.code, "STALE_TURN_SEQ");
        assert!(s.act(Who::Seat(0), random, None, None, None).is_ok());
        let back = engine.load(&s.record().unwrap()).unwrap().state_json();
        assert_eq!(back.unwrap(), s.state_json().unwrap());
    }

    /// A 2-player rps match of `seed`, players `a` and `b`.
    fn rps(engine: &Engine, seed: f64) -> Session {
        let players = vec!["a".to_owned(), "b".to_owned()];
        engine
            .create("rps", players, None, Some(seed), None, None)
            .unwrap()
    }

    #[test]
    fn an_action_that_is_not_an_object_is_bad_request_and_one_of_the_wrong_shape_bad_json() {
        let engine = Engine::default();
        let mut s = rps(&engine, 1.0);
        // Not JSON, or not an object: the binding's BAD_REQUEST naming the field, whoever
        // the player (as before the game is asked).
        for (text, detail) in [
            ("[]", "must be a JSON object"),
            ("\"RANDOM\"", "must be a JSON object"),
            ("  7", "must be a JSON object"),
            ("{", "is not JSON"),
            ("{\"type\":\"RANDOM\"} x", "is not JSON"),
            ("", "is not JSON"),
        ] {
            for who in [Who::Seat(0), Who::Id("zed")] {
                let e = s.act(who, text, None, None, None).unwrap_err();
                assert_eq!(e.error.code, "BAD_REQUEST", "{text}");
                assert_eq!(e.error.reason["field"], "action");
                let got = e.error.reason["detail"].as_str().unwrap();
                assert!(got.contains(detail), "{text}: {got}");
            }
        }
        // An object of the wrong shape: the game's BAD_JSON, before the seat is checked.
        let e = s
            .act(Who::Id("zed"), r#"{"type":"PIKC"}"#, None, None, None)
            .unwrap_err();
        assert_eq!(e.error.code, "BAD_JSON");
        assert_eq!(e.error.reason["part"], "action");
        assert_eq!(
            s.record().unwrap(),
            engine.load(&s.record().unwrap()).unwrap().record().unwrap()
        );
    }

    /// The status slots as numbers.
    fn slots(out: &[u8]) -> Vec<f64> {
        out.chunks_exact(8)
            .map(|c| f64::from_ne_bytes(c.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn the_status_is_written_as_numbers_and_acts_answer_as_text() {
        let engine = Engine::default();
        let players = vec!["a".to_owned(), "b".to_owned()];
        let mut s = engine
            .create("yut", players, None, Some(1.0), Some(1000.0), None)
            .unwrap();
        let mut out = vec![0u8; 8 * (STATUS_HEAD + 2)];
        s.status_into(&mut out).unwrap();
        let first = slots(&out)[STATUS_HEAD];
        // Yut: 30 s a decision from 1000, one seat to act.
        assert_eq!(
            slots(&out)[..STATUS_HEAD],
            [0.0, 31_000.0, 31_000.0, 1000.0, 0.0, 1.0, 0.0]
        );
        let who = Who::Seat(first as u32);
        assert_eq!(s.legal_count(who).unwrap(), 1);
        assert_eq!(s.legal(who).unwrap(), r#"[{"type":"THROW"}]"#);
        let events = s
            .act_legal(who, 0.0, Some(0.0), None, Some(&mut out))
            .unwrap();
        assert!(events.starts_with("[{\"type\":\"thrown\""), "{events}");
        assert_eq!(slots(&out)[0], 1.0, "the status after it");
        // Refused: the index's own code, nothing written.
        let e = s.act_legal(who, 5.0, None, None, None).unwrap_err();
        assert_eq!(e.error.code, "UNKNOWN_ACTION_INDEX");
        assert_eq!(e.error.reason["index"], 5);
        let e = s.act_legal(who, -1.0, None, None, None).unwrap_err();
        assert_eq!(e.error.reason["field"], "index");
        // Late: the timeouts due are taken first and stand; the action is then refused.
        let e = s
            .act_legal(who, 0.0, None, Some(99_000.0), None)
            .unwrap_err();
        assert!(!e.applied.is_empty(), "{e:?}");
        let mut short = vec![0u8; 8 * STATUS_HEAD];
        let e = s.status_into(&mut short).unwrap_err();
        assert_eq!(e.error.reason["field"], "status");
        // A seat past the table is refused, not read.
        let e = s.legal_count(Who::Seat(7)).unwrap_err();
        assert_eq!(e.error.reason["field"], "player");
        let e = s.legal_count(Who::Id("zed")).unwrap_err();
        assert_eq!(e.error.code, "NOT_SEATED");
    }

    #[test]
    fn timeouts_before_an_accepted_act_wrap_its_events() {
        let engine = Engine::default();
        let mut s = rps(&engine, 3.0);
        // 15 s a round: at 16 s both were picked for; the next round's pick is accepted.
        let text = s
            .act(
                Who::Seat(0),
                r#"{"type":"RANDOM"}"#,
                None,
                Some(16_000.0),
                None,
            )
            .unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["applied"].as_array().unwrap().len(), 2, "{text}");
        assert!(v["events"].is_array(), "{text}");
    }

    #[test]
    fn os_seeds_stay_below_2_pow_53() {
        let engine = Engine::default();
        for _ in 0..20 {
            let mut s = engine
                .create("rps", vec!["a".into(), "b".into()], None, None, None, None)
                .unwrap();
            let record: Value = serde_json::from_str(&s.record().unwrap()).unwrap();
            assert!(record["seed"].as_u64().unwrap() <= MAX_SAFE);
        }
    }

    #[test]
    fn inspect_refuses_a_repeated_key_and_finds_integers_javascript_rounds() {
        let found = |text: &str| inspect("state", text).unwrap();
        assert_eq!(
            found(r#"{"a":[1,-2,9007199254740991,-9007199254740991]}"#),
            None
        );
        assert_eq!(
            found("[0, 9007199254740992]").as_deref(),
            Some("9007199254740992")
        );
        assert_eq!(
            found("-9007199254740992").as_deref(),
            Some("-9007199254740992")
        );
        assert_eq!(
            found(r#"{"a":{"b":[18446744073709551615]},"c":9007199254740993}"#).as_deref(),
            Some("18446744073709551615"),
            "the first in the text"
        );
        // Doubles are exact in JavaScript already, whatever their size; digits in a
        // string are text.
        for text in [
            "1e300",
            "9007199254740993.0",
            "18446744073709551616",
            r#"{"k":"9007199254740993"}"#,
            r#"["\"9007199254740993"]"#,
        ] {
            assert_eq!(found(text), None, "{text}");
        }
        for text in [
            r#"{"a":1,"a":1}"#,
            r#"[{"x":{"b":1,"b":2}}]"#,
            r#"{"\u0061":1,"a":2}"#,
        ] {
            let e = inspect("record", text).unwrap_err();
            assert_eq!(e.error.code, "BAD_REQUEST", "{text}");
            assert_eq!(e.error.reason["field"], "record");
            let detail = e.error.reason["detail"].as_str().unwrap();
            assert!(detail.contains("given twice"), "{detail}");
        }
        // Not JSON: left for the engine's reader to name.
        assert_eq!(found("{"), None);
    }

    /// A 2-player rps state of `seed` with `from` replaced by `to` in its text.
    fn rps_state(engine: &Engine, from: &str, to: &str) -> String {
        let text = rps(engine, 2.0).state_json().unwrap();
        assert!(text.contains(from), "{text}");
        text.replacen(from, to, 1)
    }

    #[test]
    fn a_stored_integer_past_2_pow_53_is_refused_after_the_engine_judged() {
        let engine = Engine::default();
        let e = engine
            .restore(
                "rps",
                &rps_state(&engine, "\"word_pos\":0", "\"word_pos\":9007199254740992"),
            )
            .unwrap_err();
        assert_eq!(e.error.reason["field"], "state", "{e:?}");
        // The engine's own refusal comes first.
        let past = format!("\"turnSeq\":{}", MAX_SAFE + 1);
        let e = engine
            .restore("rps", &rps_state(&engine, "\"turnSeq\":0", &past))
            .unwrap_err();
        assert_eq!(e.error.code, "CORRUPT_STATE");
        let mut s = rps(&engine, 2.0);
        s.act(
            Who::Seat(0),
            r#"{"type":"RANDOM"}"#,
            None,
            Some(1000.0),
            None,
        )
        .unwrap();
        let record = s.record().unwrap();
        assert!(record.contains("\"at\":1000"), "{record}");
        // A time no live operation takes: the engine's record check refuses it first.
        let e = engine
            .load(&record.replacen("\"at\":1000", "\"at\":18446744073709551615", 1))
            .unwrap_err();
        assert_eq!(e.error.code, "RECORD_MALFORMED", "{e:?}");
        assert_eq!(e.error.reason["part"], "at", "{e:?}");
        assert!(engine.load(&record).is_ok());
    }

    #[test]
    fn no_call_takes_turn_seq_past_2_pow_53() {
        let engine = Engine::default();
        // Two seats: a call takes at most 3 steps (a timeout each, then the action).
        let near = format!("\"turnSeq\":{}", MAX_SAFE - 3);
        let mut s = engine
            .restore("rps", &rps_state(&engine, "\"turnSeq\":0", &near))
            .unwrap();
        let random = r#"{"type":"RANDOM"}"#;
        s.act(Who::Seat(0), random, None, None, None).unwrap();
        let e = s.act(Who::Seat(1), random, None, None, None).unwrap_err();
        assert_eq!(e.error.code, "CORRUPT_STATE", "{e:?}");
        let mut out = vec![0u8; 8 * (STATUS_HEAD + 2)];
        s.status_into(&mut out).unwrap();
        assert_eq!(
            slots(&out)[0],
            (MAX_SAFE - 2) as f64,
            "refused, nothing changed"
        );
        for e in [
            s.tick(1e9, None).unwrap_err(),
            s.advance(0.0).unwrap_err(),
            s.set_connected(Who::Seat(1), false, None).unwrap_err(),
            s.act_legal(Who::Seat(1), 0.0, None, None, None)
                .unwrap_err(),
        ] {
            assert_eq!(e.error.code, "CORRUPT_STATE", "{e:?}");
        }
    }

    #[test]
    fn advance_with_timeouts_due_answers_them_as_act_legal_does() {
        let engine = Engine::default();
        // Stored at its deadline: both timeouts are due at the clock.
        let due = rps_state(&engine, "\"clock\":0", "\"clock\":15000");
        let mut a = engine.restore("rps", &due).unwrap();
        let mut b = engine.restore("rps", &due).unwrap();
        let n = a.advance(0.0).unwrap();
        assert_eq!(a.advanced().len(), 2, "{:?}", a.advanced());
        let text = b.act_legal(Who::Seat(0), 0.0, None, None, None).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_value(a.advanced()).unwrap(), v["applied"]);
        assert_eq!(a.state_json().unwrap(), b.state_json().unwrap());
        assert_eq!(a.record().unwrap(), b.record().unwrap());
        // `a` picked in the round the timeouts began: `b` is to act next.
        assert_eq!(n, b.legal_count(Who::Seat(1)).unwrap());
        // The next one took none: the list is cleared.
        a.advance(0.0).unwrap();
        assert!(a.advanced().is_empty());
    }

    #[test]
    fn each_viewer_gets_their_projection_of_the_last_change() {
        let engine = Engine::default();
        let players = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let mut s = engine
            .create("one-card", players, None, Some(4.0), None, None)
            .unwrap();
        assert_eq!(s.events(None).unwrap(), r#"{"events":[],"applied":[]}"#);
        let mut out = vec![0u8; 8 * (STATUS_HEAD + 6)];
        s.status_into(&mut out).unwrap();
        let mover = Who::Seat(slots(&out)[STATUS_HEAD] as u32);
        let mine: Value = serde_json::from_str(
            &s.act(mover, r#"{"type":"DRAW"}"#, None, None, None)
                .unwrap(),
        )
        .unwrap();
        assert!(
            mine[0]["cards"].is_array(),
            "the drawer sees the card: {mine}"
        );
        let change = |s: &mut Session, who| -> Value {
            serde_json::from_str(&s.events(who).unwrap()).unwrap()
        };
        assert_eq!(change(&mut s, Some(mover))["events"], mine);
        let other = Who::Seat((slots(&out)[STATUS_HEAD] as u32 + 1) % 3);
        for viewer in [Some(other), None] {
            let seen = change(&mut s, viewer);
            assert_eq!(seen["events"][0]["count"], 1, "{seen}");
            assert!(seen["events"][0].get("cards").is_none(), "{seen}");
        }
        let e = s.events(Some(Who::Id("zed"))).unwrap_err();
        assert_eq!(e.error.code, "NOT_SEATED");
        // A timeout's draw: the drawer's projection to them, the count to the others.
        let e = s.tick(1e6, Some(Who::Id("zed"))).unwrap_err();
        assert_eq!(e.error.code, "NOT_SEATED", "refused before the clock moved");
        s.status_into(&mut out).unwrap();
        let late = Who::Seat(slots(&out)[STATUS_HEAD] as u32);
        let applied: Value = serde_json::from_str(&s.tick(1e6, Some(late)).unwrap()).unwrap();
        assert!(applied[0]["events"][0]["cards"].is_array(), "{applied}");
        let seen = change(&mut s, None);
        assert!(seen["events"].as_array().unwrap().is_empty());
        assert_eq!(seen["applied"][0]["events"][0]["count"], 1, "{seen}");
        // `advance` writes no events: the change before it is no longer the last.
        s.advance(0.0).unwrap();
        assert_eq!(s.events(None).unwrap(), r#"{"events":[],"applied":[]}"#);
    }

    #[test]
    fn an_engine_serves_the_registry_it_is_given() {
        let mut registry = Registry::new();
        registry
            .register(game_core::Erased(game_core::rps::Rps))
            .unwrap();
        let engine = Engine::new(registry);
        assert_eq!(engine.games(), r#"["rps"]"#);
        let e = engine
            .create("yut", vec!["a".into(), "b".into()], None, None, None, None)
            .unwrap_err();
        assert_eq!(e.error.code, "UNKNOWN_GAME");
        assert!(
            rps(&engine, 1.0)
                .act(Who::Seat(0), r#"{"type":"RANDOM"}"#, None, None, None)
                .is_ok()
        );
    }

    #[test]
    fn a_bot_reads_its_games_matches_and_answers_null_when_it_has_no_action() {
        let engine = Engine::default();
        assert_eq!(
            engine.bot_kinds("rps").unwrap(),
            r#"["random","pimc","ismcts"]"#
        );
        let mut bot = engine.bot("rps", "random", Some(1.0)).unwrap();
        assert_eq!(bot.game(), "rps");
        let mut s = rps(&engine, 1.0);
        let action = s.bot_choose(&mut bot, Who::Seat(0)).unwrap();
        s.act(Who::Seat(0), &action, None, None, None).unwrap();
        let e = s.bot_choose(&mut bot, Who::Id("zed")).unwrap_err();
        assert_eq!(e.error.code, "NOT_SEATED");
        let mut yut_bot = engine.bot("yut", "policy", None).unwrap();
        let e = s.bot_choose(&mut yut_bot, Who::Seat(0)).unwrap_err();
        assert_eq!(e.error.reason["field"], "match");
        // Yut's player not to act has no action.
        let players = vec!["a".to_owned(), "b".to_owned()];
        let mut yut = engine
            .create("yut", players, None, Some(1.0), None, None)
            .unwrap();
        let answers =
            [Who::Seat(0), Who::Seat(1)].map(|who| yut.bot_choose(&mut yut_bot, who).unwrap());
        assert_eq!(
            answers.iter().filter(|a| *a == "null").count(),
            1,
            "{answers:?}"
        );
        assert!(answers.contains(&r#"{"type":"THROW"}"#.to_owned()));
        let e = engine.bot("rps", "policy", None).unwrap_err();
        assert_eq!(e.error.code, "UNKNOWN_BOT");
    }

    #[test]
    fn options_are_judged_as_create_judges_them_for_some_table() {
        let engine = Engine::default();
        assert!(engine.is_options("yut", "{}").unwrap());
        assert!(engine.is_options("yut", r#"{"mode":"team"}"#).unwrap());
        assert!(!engine.is_options("yut", r#"{"nakPercent":7}"#).unwrap());
        assert!(!engine.is_options("yut", r#"{"nakPercnt":5}"#).unwrap());
        assert!(!engine.is_options("yut", "[]").unwrap());
        assert!(!engine.is_options("yut", "not json").unwrap());
        let e = engine.is_options("chess", "{}").unwrap_err();
        assert_eq!(e.error.code, "UNKNOWN_GAME");
    }

    #[test]
    fn a_call_that_changed_nothing_leaves_no_last_change() {
        let engine = Engine::default();
        let mut s = rps(&engine, 2.0);
        let none = r#"{"events":[],"applied":[]}"#;
        s.act(Who::Seat(0), r#"{"type":"RANDOM"}"#, None, None, None)
            .unwrap();
        assert_ne!(s.events(None).unwrap(), none);
        s.act(Who::Seat(0), r#"{"type":"RANDOM"}"#, None, None, None)
            .unwrap_err();
        assert_eq!(s.events(None).unwrap(), none);
        s.set_connected(Who::Seat(1), false, None).unwrap();
        assert_ne!(s.events(None).unwrap(), none);
        s.set_connected(Who::Seat(1), false, None).unwrap();
        assert_eq!(s.events(None).unwrap(), none);
        s.tick(0.0, None).unwrap();
        assert_eq!(s.events(None).unwrap(), none);
    }

    #[test]
    fn a_panic_becomes_internal_error() {
        let e = guard::<()>(|| panic!("boom")).unwrap_err();
        assert_eq!(e.error.code, "INTERNAL_ERROR");
        assert_eq!(e.error.reason["detail"], "boom");
    }
}
