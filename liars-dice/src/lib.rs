//! Liar's Dice on [`game_core::Game`]: the guide's second game ([`game_core::guide`]), a
//! game of hidden dice, small enough to read in one sitting.
//!
//! # The rules
//!
//! - Two to six players, each with [`LiarsDiceOptions::dice`] dice (1 to 6, default 5)
//!   under a cup. Everyone rolls at once and sees only their own dice, and how many dice
//!   each player holds.
//! - In turn, starting with the first seat, players bid on all the dice under all the
//!   cups: "at least `quantity` dice show `face`". Each bid raises the last: a higher
//!   quantity of any face, or the same quantity of a higher face. A quantity is at most the
//!   dice in play.
//! - Ones are wild: a one counts as every face bid. So no bid names ones (faces 2 to 6):
//!   a bid on ones would need an order of its own (Perudo halves the quantity), and one
//!   order for every bid keeps the rule a sentence long.
//! - Instead of bidding, the player to act may call the last bid a lie ("liar!",
//!   [`LiarsDiceAction::Challenge`]). Every cup is lifted, for everyone to see: if the bid
//!   holds (at least `quantity` dice show its face or a one), the challenger loses a die,
//!   else the bidder does. A player with no dice left is out.
//! - The loser opens the next round (or, when that was their last die, the next player
//!   with dice), after every die left is rolled again.
//! - The last player with dice wins. Places go by the order players went out:
//!   [`Game::payoff`] is 1 for the winner, 0 for the first out, evenly spaced between.
//! - A player whose time runs out ([`LiarsDiceOptions::turn_seconds`], 30 s by default)
//!   plays the careful move ([`Game::timeout_action`]): a challenge if their own dice
//!   make the last bid less likely than not to hold, else the lowest raise. It only looks
//!   at what the player could see, and it always ends a round: each raise is higher.
//!
//! What each player sees is a [`LiarsDiceView`]: their own dice, everyone's dice count, the
//! round's bids and the last reveal; a spectator sees no cup. A roll's event shows each
//! player their own dice only ([`Game::event_for`]); a reveal shows everyone everything.
//!
//! ```
//! use game_core::{Game, GameExt};
//! use liars_dice::{LiarsDice, LiarsDiceAction, LiarsDiceOptions};
//! let players = ["ann".to_string(), "bo".to_string()];
//! let mut state = LiarsDice.setup(&LiarsDiceOptions::default(), &players, 7, 0).unwrap();
//! LiarsDice.apply(&mut state, 0, &LiarsDiceAction::Bid { quantity: 3, face: 4 }, 10).unwrap();
//! // bo doubts it: the cups are lifted, and one of the two loses a die.
//! LiarsDice.apply(&mut state, 1, &LiarsDiceAction::Challenge, 20).unwrap();
//! assert_eq!(state.board.dice_in_play(), 9);
//! ```
//!
//! The bot is in [`bots`]: [`PolicyBot`], which bids by the odds of its own dice. The
//! framework's fair searches ([`game_core::search::Pimc`], [`game_core::search::Ismcts`])
//! play it through the game's `resample_from_infostate`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bots;

pub use bots::PolicyBot;

// The game itself is the guide's, written once: the guide shows it and runs it.
include!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../game-core/src/guide/liars_dice.rs"
));
