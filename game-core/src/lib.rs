#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod bot;
mod erased;
mod error;
mod game;
pub mod playout;
mod presence;
mod record;
mod rng;
pub mod rps;
pub mod schema;
pub mod search;
mod table;
#[cfg(feature = "testing")]
pub mod testing;
pub mod wire;

pub use bot::{Bot, RandomBot, TimeoutBot};
pub use erased::{
    AppliedJson, DynGame, DynMatch, Erased, GameExists, HostError, MAX_SAFE_INTEGER, MatchStatus,
    PlayedAs, PlayedJson, PlayedText, Registry,
};
pub use error::{ErrorBody, GameError, Rejection};
pub use game::{Applied, Game, Played, Viewer, restored};
pub use presence::{AWAY_AFTER_TIMEOUTS, Presence, PresenceChanged};
pub use record::{Match, MatchRecord, RecordEntry, RecordError};
pub use rng::GameRng;
pub use schema::GameSchemas;
pub use table::Table;

/// Host time in milliseconds. The engine never reads a clock; the host passes `now`.
pub type Millis = u64;

/// A player's id, as the host knows them.
pub type PlayerId = String;
