//! Shared code of the runnable examples.
//!
//! - [`play`]: the terminal Yut Nori game (`cargo run --release --example play`): the
//!   29-node board drawn in the terminal, every throw with its sticks, every move with its
//!   path, captures, stacking and finishing called out, bots and people at the seats.
//! - [`host`]: a generic JSON-lines host over stdin/stdout for every registered game
//!   (`cargo run --release --example host`), and [`mod@trace`], its seeded bot-vs-bot trace
//!   mode (`host --trace`).
//! - [`bots`]: the 8.5 policy bot, the random bot and the strong bot (expectimax over the
//!   exact throw probabilities), for `play --bot` and `host --trace --bot`.
//! - [`balance`]: the balance report (`cargo run --release --example balance`): seeded
//!   games in parallel, first-seat advantage, game length, throw frequencies against the
//!   exact table, the strong bot against the policy bot, as Markdown and an SVG chart.
//! - [`schema`]: the JSON Schemas of every game's wire types, one file each
//!   (`cargo run --release --example schema -- DIR`).
//! - [`registry`]: the one place where games are registered with the host.
//!
//! The examples' `main` functions only parse flags and call into this library, so tests
//! drive the same code headless (see `examples/tests/`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod args;
pub mod balance;
pub mod board;
pub mod bots;
pub mod host;
pub mod narrate;
pub mod play;
pub mod schema;
pub mod style;
pub mod trace;

use game_core::{Erased, Registry};

pub use host::serve;
pub use trace::trace;

/// Every game the host serves, by id: `yut` (the standard rules) and `rps`. New games are
/// registered here, and nowhere else.
///
/// ```
/// let ids: Vec<&str> = examples::registry().ids().collect();
/// assert_eq!(ids, ["rps", "yut"]);
/// ```
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register(Erased(yut::Yut::standard()))
        .register(Erased(game_core::rps::Rps));
    registry
}
