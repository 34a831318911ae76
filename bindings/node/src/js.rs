//! The Node-API surface: two classes whose methods take and give JSON text (index.js
//! parses it and turns errors into `GameError`). Every error crosses as a JavaScript
//! `Error` whose message is `{"error": {code, message, reason}, "applied": [...]}`.
//!
//! This module holds the `#[napi]` items, whose macro expansion is `unsafe` glue (allowed
//! by the macros' own attributes); nothing here is written `unsafe` by hand. Every call runs under [`guard`], so no panic unwinds
//! into Node.

use napi::{Error, Result};
use napi_derive::napi;

use crate::engine::{self, Fail, guard};

fn js<T>(result: std::result::Result<T, Fail>) -> Result<T> {
    result.map_err(|fail| Error::from_reason(crate::engine::fail_text(&fail)))
}

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
    ) -> Result<NativeMatch> {
        js(guard(|| {
            self.inner
                .create(&game, players, options.as_deref(), seed, now)
                .map(NativeMatch::from)
        }))
    }

    /// The match a record (JSON text) replays to.
    #[napi]
    pub fn load(&self, record: String) -> Result<NativeMatch> {
        js(guard(|| self.inner.load(&record).map(NativeMatch::from)))
    }

    /// The match a stored state (JSON text) restores to.
    #[napi]
    pub fn restore(&self, game: String, state: String) -> Result<NativeMatch> {
        js(guard(|| {
            self.inner.restore(&game, &state).map(NativeMatch::from)
        }))
    }
}

/// One match.
#[napi]
pub struct NativeMatch {
    inner: engine::Session,
}

impl From<engine::Session> for NativeMatch {
    fn from(inner: engine::Session) -> Self {
        Self { inner }
    }
}

#[napi]
impl NativeMatch {
    /// The status, as JSON.
    #[napi]
    pub fn status(&mut self) -> Result<String> {
        js(self.inner.status())
    }

    /// A player's view (none: the spectator's), as JSON.
    #[napi]
    pub fn view(&mut self, player: Option<String>) -> Result<String> {
        js(self.inner.view(player.as_deref()))
    }

    /// A player's legal actions, as JSON.
    #[napi]
    pub fn legal(&mut self, player: String) -> Result<String> {
        js(self.inner.legal(&player))
    }

    /// Acts: `{"events", "applied"}` as JSON.
    #[napi]
    pub fn act(
        &mut self,
        player: String,
        action: String,
        turn_seq: Option<f64>,
        now: Option<f64>,
    ) -> Result<String> {
        js(guard(|| self.inner.act(&player, &action, turn_seq, now)))
    }

    /// Takes the due timeouts, as JSON.
    #[napi]
    pub fn tick(&mut self, now: f64) -> Result<String> {
        js(guard(|| self.inner.tick(now)))
    }

    /// Marks a player (dis)connected: `{"events", "applied"}` as JSON.
    #[napi]
    pub fn set_connected(
        &mut self,
        player: String,
        connected: bool,
        now: Option<f64>,
    ) -> Result<String> {
        js(guard(|| self.inner.set_connected(&player, connected, now)))
    }

    /// The record, as JSON.
    #[napi]
    pub fn record(&mut self) -> Result<String> {
        js(self.inner.record())
    }

    /// The stored state, as JSON text.
    #[napi]
    pub fn state_json(&mut self) -> Result<String> {
        js(self.inner.state_json())
    }

    /// The outcome (`null` until over), as JSON.
    #[napi]
    pub fn outcome(&mut self) -> Result<String> {
        js(self.inner.outcome())
    }
}
