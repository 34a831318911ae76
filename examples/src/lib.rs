//! Shared code of the runnable examples.
//!
//! - [`play`]: the terminal Yut Nori game (`cargo run --release --example play`): the
//!   29-node board drawn in the terminal, every throw with its sticks, every move with its
//!   path, captures, stacking and finishing called out, bots and people at the seats;
//!   `--preset app` with the whole augment layer (the draft on screen, each side's
//!   augments, every augment that fires).
//! - [`mod@trace`]: the seeded bot-vs-bot trace mode of the JSON-lines host (`cargo run
//!   --release --example host -- --trace`); the host itself is the `game-host` crate's,
//!   over its built-in games (`game_host::registry`).
//! - [`balance`]: the balance report (`cargo run --release --example balance`): seeded
//!   games in parallel, first-seat advantage (standard, app, app with the augment layer),
//!   game length, throw frequencies against the exact table, the strong bot against the
//!   policy bot, and the win rate of the side holding each of the 18 augments and each
//!   house rule, as Markdown and an SVG chart.
//! - [`ladder`]: the bot ladder (`cargo run --release --example ladder -- --game G`):
//!   every pair of a game's bots (`random`, `policy`, the fair searches `pimc` and
//!   `ismcts`, and the cheating bound `ismcts-cheat`) on seeded deals, win rates with
//!   their 95 % intervals and time per decision.
//! - [`schema`]: the JSON Schemas of every game's wire types and of the host protocol, one
//!   file each (`cargo run --release --example schema -- DIR`).
//! - [`throughput`]: the throughput command (`cargo run --release --example throughput`):
//!   uniform-random games on one thread, games and decisions per second.
//! - [`layer`]: what `play` and the trace need of a rule set (the standard rules, the
//!   augment layer): words for its events, its panel lines, its choices.
//!
//! The examples' `main` functions only parse flags and call into this library, so tests
//! drive the same code headless (see `examples/tests/`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod args;
pub mod balance;
pub mod board;
pub mod ladder;
pub mod layer;
pub mod narrate;
pub mod play;
pub mod schema;
pub mod style;
pub mod throughput;
pub mod trace;

pub use trace::trace;

/// The workspace README's embedding example, compiled and run as a doctest. It lives here,
/// in a crate that is never published, because it reads files outside the crate.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The simulation loop in `docs/performance.md`, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../docs/performance.md")]
pub struct PerformanceDoctests;
