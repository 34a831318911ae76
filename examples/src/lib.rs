//! Shared code of the runnable examples.
//!
//! - [`play`]: the terminal Yut Nori game (`cargo run --release --example play`): the
//!   29-node board drawn in the terminal, every throw with its sticks, every move with its
//!   path, captures, stacking and finishing called out, bots and people at the seats;
//!   `--preset app` with the whole augment layer (the draft on screen, each side's
//!   augments, every augment that fires).
//! - [`host`]: a generic JSON-lines host over stdin/stdout for every registered game
//!   (`cargo run --release --example host`), and [`mod@trace`], its seeded bot-vs-bot trace
//!   mode (`host --trace`).
//! - [`balance`]: the balance report (`cargo run --release --example balance`): seeded
//!   games in parallel, first-seat advantage (standard, app, app with the augment layer),
//!   game length, throw frequencies against the exact table, the strong bot against the
//!   policy bot, and the win rate of the side holding each of the 18 augments and each
//!   house rule, as Markdown and an SVG chart.
//! - [`schema`]: the JSON Schemas of every game's wire types, one file each
//!   (`cargo run --release --example schema -- DIR`).
//! - [`throughput`]: the throughput command (`cargo run --release --example throughput`):
//!   uniform-random games on one thread, games and decisions per second.
//! - [`layer`]: what `play` and the trace need of a rule set (the standard rules, the
//!   augment layer): words for its events, its panel lines, its choices.
//! - [`registry`]: the one place where games are registered with the host.
//!
//! The examples' `main` functions only parse flags and call into this library, so tests
//! drive the same code headless (see `examples/tests/`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod args;
pub mod balance;
pub mod board;
pub mod host;
pub mod layer;
pub mod narrate;
pub mod play;
pub mod schema;
pub mod style;
pub mod throughput;
pub mod trace;

use game_core::{Erased, Registry};

pub use host::serve;
pub use trace::trace;

/// Every game the host serves, by id: `yut` (the engine's rules: the standard preset by
/// default, any preset's base options), `yut-augments` (the same with the augment layer of
/// `yut-augments`: its options add `augments`, `cushion` and `truce`, and default to the
/// whole pack; `yut_augments::app_options()` is the `app` preset) and `rps`. New games are
/// registered here, and nowhere else: the host, the schema export and the schema tests
/// pick them up from here.
///
/// ```
/// let ids: Vec<&str> = examples::registry().ids().collect();
/// assert_eq!(ids, ["rps", "yut", "yut-augments"]);
/// ```
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register(Erased(yut::Yut::standard()))
        .and_then(|r| r.register(Erased(yut_augments::game())))
        .and_then(|r| r.register(Erased(game_core::rps::Rps)))
        .expect("the built-in games have distinct ids");
    registry
}
