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
//! runs under [`guard`], so no panic unwinds into Node.

use napi::bindgen_prelude::{BufferSlice, Either, External};
use napi::{Error, Result};
use napi_derive::napi;

use crate::engine::{self, Fail, Session, Who, guard};

fn js<T>(result: std::result::Result<T, Fail>) -> Result<T> {
    result.map_err(|fail| Error::from_reason(crate::engine::fail_text(&fail)))
}

/// A match, as JavaScript holds it.
type Match = External<Session>;

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
    /// Every built-in game: yut, yut-augments, rps.
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
    pub fn schemas(&self, game: String) -> Result<String> {
        js(guard(|| self.inner.schemas(&game)))
    }

    /// The JSON Schema of a match record, as JSON.
    #[napi]
    pub fn record_schema(&self) -> Result<String> {
        js(guard(|| Ok(self.inner.record_schema())))
    }

    /// The game's default options, as JSON.
    #[napi]
    pub fn default_options(&self, game: String) -> Result<String> {
        js(guard(|| self.inner.default_options(&game)))
    }

    /// A new match.
    #[napi]
    pub fn create(
        &self,
        game: String,
        players: Vec<String>,
        options: Option<String>,
        seed: Option<f64>,
        now: Option<f64>,
    ) -> Result<Match> {
        js(guard(|| {
            self.inner
                .create(&game, players, options.as_deref(), seed, now)
                .map(External::new)
        }))
    }

    /// The match a record (JSON text) replays to.
    #[napi]
    pub fn load(&self, record: String) -> Result<Match> {
        js(guard(|| self.inner.load(&record).map(External::new)))
    }

    /// The match a stored state (JSON text) restores to.
    #[napi]
    pub fn restore(&self, game: String, state: String) -> Result<Match> {
        js(guard(|| {
            self.inner.restore(&game, &state).map(External::new)
        }))
    }
}

/// The game's id.
#[napi]
pub fn match_game(m: &mut Match) -> Result<String> {
    js(guard(|| m.game()))
}

/// The seated players' ids, in seat order.
#[napi]
pub fn match_players(m: &mut Match) -> Result<Vec<String>> {
    js(guard(|| m.players()))
}

/// The status, written into `out` as `Float64Array` slots (see `Session::status_into`).
#[napi]
pub fn match_status(m: &mut Match, mut out: BufferSlice) -> Result<()> {
    js(guard(|| m.status_into(&mut out)))
}

/// A player's view (no seat and no id: the spectator's), as JSON.
#[napi]
pub fn match_view(m: &mut Match, seat: Option<u32>, id: Option<String>) -> Result<String> {
    js(guard(|| {
        let who = match (seat, id.as_deref()) {
            (None, None) => None,
            (seat, id) => Some(Who::of(seat.unwrap_or(u32::MAX), id)),
        };
        m.view(who)
    }))
}

/// A player's legal actions, as JSON.
#[napi]
pub fn match_legal(m: &mut Match, seat: u32, id: Option<String>) -> Result<String> {
    js(guard(|| m.legal(Who::of(seat, id.as_deref()))))
}

/// How many legal actions a player has.
#[napi]
pub fn match_legal_count(m: &mut Match, seat: u32, id: Option<String>) -> Result<u32> {
    js(guard(|| {
        let n = m.legal_count(Who::of(seat, id.as_deref()))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }))
}

/// Acts: the events as JSON (`{"events", "applied"}` after timeouts); with `status`, the
/// status after it written there.
#[napi]
pub fn match_act(
    m: &mut Match,
    seat: u32,
    id: Option<String>,
    action: String,
    turn_seq: Option<f64>,
    now: Option<f64>,
    status: Option<BufferSlice>,
) -> Result<String> {
    let mut status = status;
    js(guard(|| {
        let who = Who::of(seat, id.as_deref());
        m.act(who, &action, turn_seq, now, status.as_deref_mut())
    }))
}

/// Acts with the player's legal action at `index`: as `matchAct`.
#[napi]
pub fn match_act_legal(
    m: &mut Match,
    seat: u32,
    id: Option<String>,
    index: f64,
    turn_seq: Option<f64>,
    now: Option<f64>,
    status: Option<BufferSlice>,
) -> Result<String> {
    let mut status = status;
    js(guard(|| {
        let who = Who::of(seat, id.as_deref());
        m.act_legal(who, index, turn_seq, now, status.as_deref_mut())
    }))
}

/// The first seat to act plays its legal action at `index`, writing no events: how many
/// legal actions the seat to act next has, or `{"count", "applied"}` as JSON when
/// timeouts were taken first (a number is what nearly every call answers, and the
/// cheaper to cross).
#[napi]
pub fn match_advance(m: &mut Match, index: f64) -> Result<Either<u32, String>> {
    js(guard(|| {
        let count = m.advance(index)?;
        if m.advanced().is_empty() {
            Ok(Either::A(u32::try_from(count).unwrap_or(u32::MAX)))
        } else {
            Ok(Either::B(engine::advanced_text(count, m.advanced())))
        }
    }))
}

/// Takes the due timeouts, as JSON.
#[napi]
pub fn match_tick(m: &mut Match, now: f64) -> Result<String> {
    js(guard(|| m.tick(now)))
}

/// Marks a player (dis)connected: `{"events", "applied"}` as JSON.
#[napi]
pub fn match_set_connected(
    m: &mut Match,
    seat: u32,
    id: Option<String>,
    connected: bool,
    now: Option<f64>,
) -> Result<String> {
    js(guard(|| {
        m.set_connected(Who::of(seat, id.as_deref()), connected, now)
    }))
}

/// The record, as JSON.
#[napi]
pub fn match_record(m: &mut Match) -> Result<String> {
    js(guard(|| m.record()))
}

/// The stored state, as JSON text.
#[napi]
pub fn match_state_json(m: &mut Match) -> Result<String> {
    js(guard(|| m.state_json()))
}

/// The outcome (`null` until over), as JSON.
#[napi]
pub fn match_outcome(m: &mut Match) -> Result<String> {
    js(guard(|| m.outcome()))
}
