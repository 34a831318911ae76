//! The host protocol over any [`Registry`](game_core::Registry) of games ([`registry`] has
//! the built-in ones): one JSON request in, exactly one JSON reply out. [`Host`] holds the
//! matches in progress and answers request text with a [`Reply`]; it knows no transport,
//! so the JSON-lines host over stdin/stdout ([`serve_lines`]), a network server and an
//! in-process binding are thin layers over the same implementation.
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
//! | `act` | `match`, `player`, `action`, `turnSeq?`, `now?` | status, `events`, `applied` (as `player` sees them) |
//! | `view` | `match`, `player?` (none: spectator) | `view` |
//! | `legal` | `match`, `player` | `actions` |
//! | `tick` | `match`, `now`, `player?` (whose projection; none: spectator) | status, `applied` [{player, action, events, auto}] |
//! | `presence` | `match`, `player`, `connected`, `now?` | status, `events`, `applied` (as `player` sees them) |
//! | `events` | `match`, `player?` (none: spectator) | status, `events`, `applied`: the last change as `player` sees it |
//! | `record` | `match` | `record` (the `MatchRecord`) |
//! | `load` | `record`, `match?` | status (the record replayed into a new match) |
//! | `restore` | `game`, `state`, `match?` | status (a stored state, validated) |
//! | `outcome` | `match` | `over`, `outcome` (null until over) |
//! | `drop` | `match` | `match` |
//!
//! "status" is `match`, `game`, `turnSeq`, `toAct` (player ids whose move is awaited),
//! `mayAct` (player ids who may act besides them, waited for by no one: One Card's calls),
//! `deadline` (the countdown players see), `nextTickAt` (when `tick` would act: arm the
//! match's timer there), `clock` and `over`. Match ids default to `m1`, `m2`, ... A missing `now` means the
//! match's clock; a `now` earlier than the clock is read as the clock. An `act` or
//! `presence` at or past `nextTickAt` first takes the due timeouts (listed in `applied`, in
//! the error reply too when the request is then refused).
//!
//! Events are per viewer: a game with private events (One Card's `drew`, whose cards only
//! the drawer sees) gives each viewer their projection, and every reply carries only the
//! caller's. The events of the last change (the last `act`, `presence` or `tick` that took
//! a timeout or had events) are kept: `events` gives them as another player or a spectator
//! sees them, and a transport reads them with [`Host::last_change`]. Requests are judged in
//! the order they arrive: of two calls racing for one window (One Card's `ONE_CARD` and
//! `CATCH`), the first read wins and the second is refused (`NO_CALL_WINDOW`).
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
//! game_host::serve(input.as_bytes(), &mut out).unwrap();
//! let replies: Vec<serde_json::Value> = String::from_utf8(out).unwrap()
//!     .lines().map(|l| serde_json::from_str(l).unwrap()).collect();
//! assert_eq!(replies[0]["match"], "m1");
//! assert_eq!(replies[1]["ok"], true);
//! assert_eq!(replies[2]["error"]["code"], "BAD_REQUEST");
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "builtin")]
mod builtin;
mod host;
mod lines;
pub mod reply;
mod request;
mod schema;

#[cfg(feature = "builtin")]
pub use builtin::registry;
pub use host::{Change, Host};
pub use lines::{DEFAULT_MAX_LINE, serve_lines};
#[cfg(feature = "builtin")]
pub use lines::{serve, serve_with};
pub use reply::{Reply, Status};
pub use request::{Field, Kind, MAX_ID, OPS, Request};
pub use schema::schemas;
