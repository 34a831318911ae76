//! Shared code of the runnable examples.
//!
//! - [`play`]: the terminal Yut Nori game (`cargo run --release --example play`): the
//!   29-node board drawn in the terminal, every throw with its sticks, every move with its
//!   path, captures, stacking and finishing called out, bots and people at the seats.
//! - [`host`]: a generic JSON-lines host over stdin/stdout for every registered game
//!   (`cargo run --release --example host`), and [`mod@trace`], its seeded bot-vs-bot trace
//!   mode (`host --trace`).
//! - [`registry`]: the one place where games are registered with the host.
//!
//! The examples' `main` functions only parse flags and call into this library, so tests
//! drive the same code headless (see `examples/tests/`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod args;
pub mod board;
pub mod bots;
pub mod host;
pub mod narrate;
pub mod play;
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
