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
pub use error::{ErrorBody, GameError, Rejection, cap_detail};
pub use game::{Applied, Game, Played, Viewer, restored};
pub use presence::{AWAY_AFTER_TIMEOUTS, Presence, PresenceChanged};
pub use record::{Match, MatchRecord, RecordEntry, RecordError};
pub use rng::{GameRng, Odds};
pub use schema::GameSchemas;
pub use table::Table;

/// Host time in milliseconds. The engine never reads a clock; the host passes `now`.
/// A `now` past [`MAX_TIME`] is read as [`MAX_TIME`].
pub type Millis = u64;

/// The latest time the engine reads: a `u32` of seconds before [`MAX_SAFE_INTEGER`] (2^53 −
/// 1, the largest integer a JavaScript number holds exactly), a clock about 285,000 years
/// after 1970. A later `now` is read as this one, and the clock stops there. So every time
/// the engine gives, a deadline of any turn limit included, is an exact JavaScript number
/// and a real later time: at the end of `u64` a deadline saturated onto its own decision's
/// start and fired again at every input, and a match did not replay as it was played.
///
/// ```
/// let t = game_core::Table::new(&["a".into()], 1, u64::MAX).unwrap();
/// assert_eq!(t.clock, game_core::MAX_TIME);
/// assert_eq!(t.time(u64::MAX), game_core::MAX_TIME);
/// assert!(game_core::MAX_TIME + u64::from(u32::MAX) * 1000 <= game_core::MAX_SAFE_INTEGER);
/// ```
pub const MAX_TIME: Millis = MAX_SAFE_INTEGER - u32::MAX as u64 * 1000;

/// A player's id, as the host knows them.
pub type PlayerId = String;
