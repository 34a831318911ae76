//! Pig, the dice game, on [`game_core::Game`]: the guide's game ([`game_core::guide`]),
//! small enough to read in one sitting.
//!
//! Two to four players take turns. On your turn you roll a die as often as you like: a 2
//! to 6 adds to the turn's total, a 1 loses it and ends your turn. Holding banks the
//! turn's total and ends your turn; it needs something to bank, so a turn starts with a
//! roll. The first to bank [`PigOptions::target`] points wins. A player whose time runs
//! out holds, or rolls when there is nothing to hold ([`Game::timeout_action`]).
//!
//! ```
//! use game_core::{Game, GameExt};
//! use pig::{Pig, PigAction, PigOptions};
//! let mut state = Pig.setup(&PigOptions::default(), &["ann".into(), "bo".into()], 7, 0).unwrap();
//! Pig.apply_chance(&mut state, 0, &PigAction::Roll, &5, 10).unwrap(); // a forced 5
//! Pig.apply(&mut state, 0, &PigAction::Hold, 20).unwrap();
//! assert_eq!((state.board.scores.as_slice(), state.board.turn), (&[5, 0][..], 1));
//! ```
//!
//! The bots are in [`bots`]: [`HoldBot`] ("hold at 20") and [`PigModel`], what the
//! framework's search bot ([`game_core::search::Expectimax`]) needs to play Pig.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bots;

pub use bots::{HoldBot, PigModel};

// The game itself is the guide's, written once: the guide shows it and runs it.
include!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../game-core/src/guide/pig.rs"
));
