//! The Node-API surface: the registry as a class, and each match as an external value
//! (`External<Session>`, freed when JavaScript drops it) that the match functions take
//! first. Values cross as JSON text, the status as numbers written into a buffer the
//! caller passes, and a player as a seat number when index.js knows the id (a string
//! otherwise); index.js parses the text, reads the buffer and turns errors into
//! `GameError`. Every error crosses as a JavaScript `Error` whose message is
//! `{"error": {code, message, reason}, "applied": [...]}`.
//!
//! Functions rather than methods of a class: a method call pays for unwrapping its
//! receiver (a class-identity check under a lock), about twice the cost of the rest of a
//! call, and the hot calls are made once or twice per decision.
//!
//! This module holds the `#[napi]` items, whose macro expansion is `unsafe` glue (allowed
//! by the macros' own attributes); nothing here is written `unsafe` by hand. Every call
//! runs under [`guard`], so no panic unwinds into Node, and every argument is taken as
//! the raw value Node passed ([`Unknown`]) and converted inside the guard by the readers
//! below: a value of the wrong type is `BAD_REQUEST` naming the argument, never Node-API's
//! own error thrown before the call, and no conversion allocates more than its bound (the
//! macros' conversion of a `Vec` reserved an array's whole length first: a sparse array
//! of 2^32 − 1 aborted the process, out of reach of any guard).

use napi::bindgen_prelude::{Array, BufferSlice, Either, External, FromNapiValue, Unknown};
use napi::{Error, JsExternal, JsString, Result, ValueType};
use napi_derive::napi;

use crate::engine::{
    self, BotSession, Fail, MAX_SEATS, MAX_TEXT, Session, Who, bad_request, guard,
};

fn js<T>(result: std::result::Result<T, Fail>) -> Result<T> {
    result.map_err(|fail| Error::from_reason(crate::engine::fail_text(&fail)))
}

/// A match, as JavaScript holds it (what `create`, `load` and `restore` give).
type Match = External<Session>;

/// A bot, as JavaScript holds it (what `bot` gives).
type Bot = External<BotSession>;

type Read<T> = std::result::Result<T, Fail>;

/// The JavaScript type of argument `field`.
fn type_of(field: &str, v: &Unknown<'_>) -> Read<ValueType> {
    v.get_type()
        .map_err(|e| bad_request(field, format!("`{field}` could not be read: {}", e.reason)))
}

/// Whether an optional argument was left out (`undefined`, or `null` as index.js passes
/// none).
fn absent(field: &str, v: &Unknown<'_>) -> Read<bool> {
    Ok(matches!(
        type_of(field, v)?,
        ValueType::Undefined | ValueType::Null
    ))
}

/// A string argument of at most [`MAX_TEXT`] UTF-16 units, well-formed (Node-API's own
/// conversion turns a lone surrogate into U+FFFD, so that two ids would be one).
fn text(field: &str, v: Unknown<'_>) -> Read<String> {
    if type_of(field, &v)? != ValueType::String {
        return Err(bad_request(field, format!("`{field}` must be a string")));
    }
    let unreadable =
        |e: Error| bad_request(field, format!("`{field}` could not be read: {}", e.reason));
    let s = JsString::from_unknown(v).map_err(unreadable)?;
    let units = s.utf16_len().map_err(unreadable)?;
    if units > MAX_TEXT {
        return Err(bad_request(
            field,
            format!("`{field}` must be at most {MAX_TEXT} UTF-16 units, not {units}"),
        ));
    }
    let utf16 = s.into_utf16().map_err(unreadable)?;
    // The copy ends with the terminating NUL Node-API writes.
    let units = utf16.as_slice();
    let units = units.split_last().map_or(units, |(_, text)| text);
    String::from_utf16(units).map_err(|_| {
        bad_request(
            field,
            format!("`{field}` must be well-formed text (it holds a lone surrogate)"),
        )
    })
}

/// An optional string argument ([`text`]).
fn opt_text(field: &str, v: Unknown<'_>) -> Read<Option<String>> {
    if absent(field, &v)? {
        return Ok(None);
    }
    text(field, v).map(Some)
}

/// A number argument (its range is the engine's to judge).
fn number(field: &str, v: Unknown<'_>) -> Read<f64> {
    if type_of(field, &v)? != ValueType::Number {
        return Err(bad_request(field, format!("`{field}` must be a number")));
    }
    f64::from_unknown(v)
        .map_err(|e| bad_request(field, format!("`{field}` could not be read: {}", e.reason)))
}

/// An optional number argument ([`number`]).
fn opt_number(field: &str, v: Unknown<'_>) -> Read<Option<f64>> {
    if absent(field, &v)? {
        return Ok(None);
    }
    number(field, v).map(Some)
}

/// A seat number (index.js passes one for a player it knows): a number read as Node-API
/// reads a `u32`.
fn seat(v: Unknown<'_>) -> Read<u32> {
    if type_of("player", &v)? != ValueType::Number {
        return Err(bad_request("player", "the seat must be a number"));
    }
    u32::from_unknown(v).map_err(|e| {
        bad_request(
            "player",
            format!("the seat could not be read: {}", e.reason),
        )
    })
}

/// An optional seat number ([`seat`]).
fn opt_seat(v: Unknown<'_>) -> Read<Option<u32>> {
    if absent("player", &v)? {
        return Ok(None);
    }
    seat(v).map(Some)
}

/// A player given by seat and, when index.js does not know them, by id.
fn player(seat_arg: Unknown<'_>, id: Unknown<'_>) -> Read<(u32, Option<String>)> {
    Ok((seat(seat_arg)?, opt_text("player", id)?))
}

/// `true` or `false`.
fn flag(field: &str, v: Unknown<'_>) -> Read<bool> {
    if type_of(field, &v)? != ValueType::Boolean {
        return Err(bad_request(
            field,
            format!("`{field}` must be true or false"),
        ));
    }
    bool::from_unknown(v)
        .map_err(|e| bad_request(field, format!("`{field}` could not be read: {}", e.reason)))
}

/// `create`'s players: an array of at most [`MAX_SEATS`] strings, its length judged
/// before anything is reserved or read.
fn players(v: Unknown<'_>) -> Read<Vec<String>> {
    let field = "players";
    let not_a_list = || bad_request(field, "`players` must be an array of strings");
    if type_of(field, &v)? != ValueType::Object {
        return Err(not_a_list());
    }
    let list = Array::from_unknown(v).map_err(|_| not_a_list())?;
    let n = list.len();
    if usize::try_from(n).map_or(true, |n| n > MAX_SEATS) {
        return Err(bad_request(
            field,
            format!("`players` must list at most {MAX_SEATS} players, not {n}"),
        ));
    }
    (0..n)
        .map(|i| {
            let p = list
                .get::<Unknown<'_>>(i)
                .map_err(|e| {
                    bad_request(
                        field,
                        format!("`players[{i}]` could not be read: {}", e.reason),
                    )
                })?
                .ok_or_else(not_a_list)?;
            text(&format!("players[{i}]"), p).map_err(|mut f| {
                // The argument is `players`, whichever entry is at fault.
                f.error.reason.insert("field".into(), field.into());
                f
            })
        })
        .collect()
}

/// The status buffer index.js passes (a `Float64Array`).
fn buffer(v: Unknown<'_>) -> Read<BufferSlice<'_>> {
    let field = "status";
    let not_a_buffer = || bad_request(field, "`status` must be a typed array");
    if type_of(field, &v)? != ValueType::Object {
        return Err(not_a_buffer());
    }
    BufferSlice::from_unknown(v).map_err(|_| not_a_buffer())
}

/// An optional status buffer ([`buffer`]).
fn opt_buffer(v: Unknown<'_>) -> Read<Option<BufferSlice<'_>>> {
    if absent("status", &v)? {
        return Ok(None);
    }
    buffer(v).map(Some)
}

/// The match argument, as the external value it must be.
fn external(v: Unknown<'_>) -> Read<JsExternal<'_>> {
    external_of("match", v)
}

/// An external argument (`match` or `bot`), refused as not one otherwise.
fn external_of<'a>(field: &str, v: Unknown<'a>) -> Read<JsExternal<'a>> {
    let refused = || {
        if field == "bot" {
            not_a_bot()
        } else {
            not_a_match()
        }
    };
    if type_of(field, &v)? != ValueType::External {
        return Err(refused());
    }
    JsExternal::from_unknown(v).map_err(|_| refused())
}

fn not_a_bot() -> Fail {
    bad_request("bot", "`bot` must be a bot that Registry.bot gave")
}

/// The match inside [`external`]'s value; refused unless it is one this module made.
fn session<'a>(m: &'a JsExternal<'_>) -> Read<&'a mut Session> {
    m.get_value::<Session>().map_err(|_| not_a_match())
}

fn not_a_match() -> Fail {
    bad_request(
        "match",
        "`match` must be a match that create, load or restore gave",
    )
}

/// Runs `f` on the match argument `m`, everything inside the guard.
fn on_match<T>(m: Unknown<'_>, f: impl FnOnce(&mut Session) -> Read<T>) -> Result<T> {
    js(guard(|| {
        let m = external(m)?;
        f(session(&m)?)
    }))
}

/// The slots of the status buffer before the seats to act (`Session::status_into`).
#[napi]
pub const STATUS_HEAD: u32 = engine::STATUS_HEAD as u32;

/// The built-in games.
#[napi]
pub struct NativeRegistry {
    inner: engine::Engine,
}

#[napi]
impl NativeRegistry {
    /// The games of the registry the module was given (`use_registry`), by default every
    /// built-in game: one-card, rps, yut, yut-augments.
    #[napi(constructor)]
    pub fn new() -> Result<Self> {
        js(guard(|| {
            Ok(Self {
                inner: engine::Engine::default(),
            })
        }))
    }

    /// The ids, as a JSON array.
    #[napi]
    pub fn games(&self) -> Result<String> {
        js(guard(|| Ok(self.inner.games())))
    }

    /// The game's JSON Schemas, as JSON.
    #[napi]
    pub fn schemas(&self, game: Unknown<'_>) -> Result<String> {
        js(guard(|| self.inner.schemas(&text("game", game)?)))
    }

    /// The JSON Schema of a match record, as JSON.
    #[napi]
    pub fn record_schema(&self) -> Result<String> {
        js(guard(|| Ok(self.inner.record_schema())))
    }

    /// The game's default options, as JSON.
    #[napi]
    pub fn default_options(&self, game: Unknown<'_>) -> Result<String> {
        js(guard(|| self.inner.default_options(&text("game", game)?)))
    }

    /// Whether `action` (JSON text) reads as an action of `game`: the shape only.
    #[napi]
    pub fn is_action(&self, game: Unknown<'_>, action: Unknown<'_>) -> Result<bool> {
        js(guard(|| {
            let game = text("game", game)?;
            let action = text("action", action)?;
            self.inner.is_action(&game, &action)
        }))
    }

    /// Whether `options` (JSON text) are options `create` takes for `game`.
    #[napi]
    pub fn is_options(&self, game: Unknown<'_>, options: Unknown<'_>) -> Result<bool> {
        js(guard(|| {
            let game = text("game", game)?;
            let options = text("options", options)?;
            self.inner.is_options(&game, &options)
        }))
    }

    /// The kinds of bot that play `game`, the game's preferred first, as a JSON array.
    #[napi]
    pub fn bot_kinds(&self, game: Unknown<'_>) -> Result<String> {
        js(guard(|| self.inner.bot_kinds(&text("game", game)?)))
    }

    /// A bot of `kind` for matches of `game`; no seed: one from the OS.
    #[napi]
    pub fn bot(&self, game: Unknown<'_>, kind: Unknown<'_>, seed: Unknown<'_>) -> Result<Bot> {
        js(guard(|| {
            let game = text("game", game)?;
            let kind = text("kind", kind)?;
            let seed = opt_number("seed", seed)?;
            self.inner.bot(&game, &kind, seed).map(External::new)
        }))
    }

    /// A new match.
    #[napi]
    pub fn create(
        &self,
        game: Unknown<'_>,
        players_arg: Unknown<'_>,
        options: Unknown<'_>,
        seed: Unknown<'_>,
        now: Unknown<'_>,
        grace_ms: Unknown<'_>,
    ) -> Result<Match> {
        js(guard(|| {
            let game = text("game", game)?;
            let players = players(players_arg)?;
            let options = opt_text("options", options)?;
            let seed = opt_number("seed", seed)?;
            let now = opt_number("now", now)?;
            let grace_ms = opt_number("graceMs", grace_ms)?;
            self.inner
                .create(&game, players, options.as_deref(), seed, now, grace_ms)
                .map(External::new)
        }))
    }

    /// The match a record (JSON text) replays to.
    #[napi]
    pub fn load(&self, record: Unknown<'_>) -> Result<Match> {
        js(guard(|| {
            self.inner.load(&text("record", record)?).map(External::new)
        }))
    }

    /// The match a stored state (JSON text) restores to.
    #[napi]
    pub fn restore(&self, game: Unknown<'_>, state: Unknown<'_>) -> Result<Match> {
        js(guard(|| {
            let game = text("game", game)?;
            let state = text("state", state)?;
            self.inner.restore(&game, &state).map(External::new)
        }))
    }
}

/// The action `bot` picks for the player (by seat or id) in match `m` now, as JSON, or
/// `null` when they have none. Reads the match without changing it.
#[napi]
pub fn bot_choose(
    bot: Unknown<'_>,
    m: Unknown<'_>,
    seat_arg: Unknown<'_>,
    id: Unknown<'_>,
) -> Result<String> {
    js(guard(|| {
        let bot = external_of("bot", bot)?;
        let bot = bot.get_value::<BotSession>().map_err(|_| not_a_bot())?;
        let m = external(m)?;
        let (seat, id) = player(seat_arg, id)?;
        session(&m)?.bot_choose(bot, Who::of(seat, id.as_deref()))
    }))
}

/// The game's id.
#[napi]
pub fn match_game(m: Unknown<'_>) -> Result<String> {
    on_match(m, |m| m.game())
}

/// The seated players' ids, in seat order.
#[napi]
pub fn match_players(m: Unknown<'_>) -> Result<Vec<String>> {
    on_match(m, |m| m.players())
}

/// The status, written into `out` as `Float64Array` slots (see `Session::status_into`).
#[napi]
pub fn match_status(m: Unknown<'_>, out: Unknown<'_>) -> Result<()> {
    on_match(m, |m| m.status_into(&mut buffer(out)?))
}

/// A viewer given by seat or id, or neither (the spectator): `f` gets the player.
fn viewer<T>(
    seat: Unknown<'_>,
    id: Unknown<'_>,
    f: impl FnOnce(Option<Who<'_>>) -> Read<T>,
) -> Read<T> {
    let (seat, id) = (opt_seat(seat)?, opt_text("player", id)?);
    let who = match (seat, id.as_deref()) {
        (None, None) => None,
        (seat, id) => Some(Who::of(seat.unwrap_or(u32::MAX), id)),
    };
    f(who)
}

/// A player's view (no seat and no id: the spectator's), as JSON.
#[napi]
pub fn match_view(m: Unknown<'_>, seat: Unknown<'_>, id: Unknown<'_>) -> Result<String> {
    on_match(m, |m| viewer(seat, id, |who| m.view(who)))
}

/// The last change as a player (no seat and no id: a spectator) sees it:
/// `{"events", "applied"}` as JSON.
#[napi]
pub fn match_events(m: Unknown<'_>, seat: Unknown<'_>, id: Unknown<'_>) -> Result<String> {
    on_match(m, |m| viewer(seat, id, |who| m.events(who)))
}

/// A player's legal actions, as JSON.
#[napi]
pub fn match_legal(m: Unknown<'_>, seat: Unknown<'_>, id: Unknown<'_>) -> Result<String> {
    on_match(m, |m| {
        let (seat, id) = player(seat, id)?;
        m.legal(Who::of(seat, id.as_deref()))
    })
}

/// How many legal actions a player has.
#[napi]
pub fn match_legal_count(m: Unknown<'_>, seat: Unknown<'_>, id: Unknown<'_>) -> Result<u32> {
    on_match(m, |m| {
        let (seat, id) = player(seat, id)?;
        let n = m.legal_count(Who::of(seat, id.as_deref()))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    })
}

/// What every act call reads after its action: the `turnSeq` its sender saw, the time,
/// and the buffer the status after it is written to.
struct Acting<'a> {
    turn_seq: Option<f64>,
    now: Option<f64>,
    status: Option<BufferSlice<'a>>,
}

impl<'a> Acting<'a> {
    fn read(turn_seq: Unknown<'_>, now: Unknown<'_>, status: Unknown<'a>) -> Read<Self> {
        Ok(Self {
            turn_seq: opt_number("turnSeq", turn_seq)?,
            now: opt_number("now", now)?,
            status: opt_buffer(status)?,
        })
    }
}

/// Acts: the events as JSON (`{"events", "applied"}` after timeouts); with `status`, the
/// status after it written there.
#[napi]
pub fn match_act(
    m: Unknown<'_>,
    seat: Unknown<'_>,
    id: Unknown<'_>,
    action: Unknown<'_>,
    turn_seq: Unknown<'_>,
    now: Unknown<'_>,
    status: Unknown<'_>,
) -> Result<String> {
    on_match(m, |m| {
        let (seat, id) = player(seat, id)?;
        let action = text("action", action)?;
        let mut a = Acting::read(turn_seq, now, status)?;
        let who = Who::of(seat, id.as_deref());
        m.act(who, &action, a.turn_seq, a.now, a.status.as_deref_mut())
    })
}

/// Acts with the player's legal action at `index`: as `matchAct`.
#[napi]
pub fn match_act_legal(
    m: Unknown<'_>,
    seat: Unknown<'_>,
    id: Unknown<'_>,
    index: Unknown<'_>,
    turn_seq: Unknown<'_>,
    now: Unknown<'_>,
    status: Unknown<'_>,
) -> Result<String> {
    on_match(m, |m| {
        let (seat, id) = player(seat, id)?;
        let index = number("index", index)?;
        let mut a = Acting::read(turn_seq, now, status)?;
        let who = Who::of(seat, id.as_deref());
        m.act_legal(who, index, a.turn_seq, a.now, a.status.as_deref_mut())
    })
}

/// The first seat to act plays its legal action at `index`, writing no events: how many
/// legal actions the seat to act next has, or `{"count", "applied"}` as JSON when
/// timeouts were taken first (a number is what nearly every call answers, and the
/// cheaper to cross).
#[napi]
pub fn match_advance(m: Unknown<'_>, index: Unknown<'_>) -> Result<Either<u32, String>> {
    on_match(m, |m| {
        let count = m.advance(number("index", index)?)?;
        if m.advanced().is_empty() {
            Ok(Either::A(u32::try_from(count).unwrap_or(u32::MAX)))
        } else {
            Ok(Either::B(engine::advanced_text(count, m.advanced())))
        }
    })
}

/// Takes the due timeouts, as JSON, their events as a player (no seat and no id: a
/// spectator) sees them.
#[napi]
pub fn match_tick(
    m: Unknown<'_>,
    now: Unknown<'_>,
    seat: Unknown<'_>,
    id: Unknown<'_>,
) -> Result<String> {
    on_match(m, |m| {
        let now = number("now", now)?;
        viewer(seat, id, |who| m.tick(now, who))
    })
}

/// Marks a player (dis)connected: `{"events", "applied"}` as JSON.
#[napi]
pub fn match_set_connected(
    m: Unknown<'_>,
    seat: Unknown<'_>,
    id: Unknown<'_>,
    connected: Unknown<'_>,
    now: Unknown<'_>,
) -> Result<String> {
    on_match(m, |m| {
        let (seat, id) = player(seat, id)?;
        let connected = flag("connected", connected)?;
        let now = opt_number("now", now)?;
        m.set_connected(Who::of(seat, id.as_deref()), connected, now)
    })
}

/// The record, as JSON.
#[napi]
pub fn match_record(m: Unknown<'_>) -> Result<String> {
    on_match(m, |m| m.record())
}

/// The stored state, as JSON text.
#[napi]
pub fn match_state_json(m: Unknown<'_>) -> Result<String> {
    on_match(m, |m| m.state_json())
}

/// The outcome (`null` until over), as JSON.
#[napi]
pub fn match_outcome(m: Unknown<'_>) -> Result<String> {
    on_match(m, |m| m.outcome())
}
