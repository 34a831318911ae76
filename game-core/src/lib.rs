#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod bot;
pub mod embedding;
mod erased;
mod error;
mod game;
pub mod guide;
mod option_range;
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

pub use bot::{Bot, Fair, RandomBot, TimeoutBot};
pub use erased::{
    AppliedJson, DynBot, DynEvents, DynGame, DynMatch, Erased, GameExists, HostError, ISMCTS_BOT,
    MAX_SAFE_INTEGER, MatchStatus, PIMC_BOT, PlayedAs, PlayedJson, PlayedText, RANDOM_BOT,
    Registry, SHARED_BOTS, WithBots,
};
pub use error::{CodeSchemas, ErrorBody, ErrorCodes, GameError, Rejection, cap_detail, reason_of};
pub use game::{Applied, Game, GameExt, Played, Viewer, restored};
pub use option_range::OptionRange;
pub use presence::{AWAY_AFTER_TIMEOUTS, Presence, PresenceChanged};
pub use record::{InvalidGrace, Match, MatchRecord, RecordEntry, RecordError};
pub use rng::{GameRng, Odds};
pub use schema::GameSchemas;
pub use table::{GameState, Table, TableKey, TableView};

/// Host time in milliseconds. The engine never reads a clock; the host passes `now`.
/// A `now` past [`MAX_TIME`] is read as [`MAX_TIME`], and no deadline falls due past it.
pub type Millis = u64;

/// The latest time the engine reads: a `u32` of seconds before [`MAX_SAFE_INTEGER`] (2^53 −
/// 1, the largest integer a JavaScript number holds exactly), a clock about 285,000 years
/// after 1970. A later `now` is read as this one, and the clock stops there. Every time
/// the engine gives is an exact JavaScript number.
///
/// No deadline falls due past it: a decision asked within its limit of `MAX_TIME` times
/// out at `MAX_TIME` ([`Table::deadline`]; its stored `deadlineAt` keeps the plain sum,
/// at most 2^53 − 1), and so does a grace period. So
/// [`GameExt::next_tick_at`] is always a time at which [`GameExt::tick`] acts, whatever the
/// clock, and a match can always be ended by timeouts. Once the clock is at `MAX_TIME`,
/// every decision is due as soon as it is asked: each input (a tick, an action, a
/// presence change) first takes one round of the timeouts due, as any input past a
/// deadline does, so a request carrying a `turnSeq` is then stale and only ticks move the
/// match on. Below `MAX_TIME` minus the turn limit nothing of this shows: a deadline
/// falls due at the decision's start plus its limit.
///
/// ```
/// use game_core::{Game, GameExt, MAX_TIME, rps::Rps};
/// let t = game_core::Table::new(&["a".into()], 1, u64::MAX).unwrap();
/// assert_eq!(t.clock(), MAX_TIME);
/// assert_eq!(t.time(u64::MAX), MAX_TIME);
/// assert!(MAX_TIME + u64::from(u32::MAX) * 1000 <= game_core::MAX_SAFE_INTEGER);
/// // A round asked at the end of the clock times out there.
/// let players = ["a".to_string(), "b".to_string()];
/// let mut state = Rps.setup(&Default::default(), &players, 1, u64::MAX).unwrap();
/// assert_eq!(Rps.next_tick_at(&state), Some(MAX_TIME));
/// assert!(!Rps.tick(&mut state, MAX_TIME).is_empty());
/// ```
pub const MAX_TIME: Millis = MAX_SAFE_INTEGER - u32::MAX as u64 * 1000;

/// A player's id, as the host knows them.
pub type PlayerId = String;
