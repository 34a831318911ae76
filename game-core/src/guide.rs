//! # Writing a game
//!
//! This guide writes Pig, the dice game, on [`Game`](crate::Game): two to four players take
//! turns; on your turn you roll a die as often as you like, a 2 to 6 adds to the turn's
//! total, a 1 loses it and ends your turn, and holding banks the total and ends your turn.
//! The first to bank the target wins. The complete game is listed at the end (it is also
//! the workspace's `pig` crate, which adds bots); each step below shows one part of it and
//! runs it.
//!
//! ## What a game writes
//!
//! The types: `Options` (read from the host's JSON, each range written once as an
//! [`OptionRange`](crate::OptionRange) that drives both the schema and the check), `Action`
//! (an enum tagged by `type`; derive `Deserialize`, every host reads actions strictly
//! through [`wire::read_action`](crate::wire::read_action)), `Event` (with one variant
//! holding a [`PresenceChanged`](crate::PresenceChanged)), `State` (the game's fields and a
//! [`Table`](crate::Table), tied together by [`game_state!`](crate::game_state)), `View`
//! (the board as a player sees it, with the table's [`TableView`](crate::TableView)
//! flattened in), `Outcome`, `Chance` and `Error` ([`Rejection`](crate::Rejection) is
//! enough until the game wants codes of its own; then its type lists them with their
//! reasons for the error schema, [`ErrorCodes`](crate::ErrorCodes), from the serde enum
//! that writes the reasons).
//!
//! Required: `id`, `setup`, `step_into`, `view`, `to_act`, `legal_actions`, `outcome`,
//! `restore`.
//!
//! Everything else is provided. Override `validate` for refusals with your own codes,
//! `timeout_action` for a better move than the first legal one, `check_state` for the
//! invariants a stored state must keep (do: the framework checks only the table), and
//! `chances` when an action has a random step, so that search can average over it.
//!
//! ## The table's duties
//!
//! The [`Table`](crate::Table) keeps the seats, the RNG, `turnSeq`, the clock and presence.
//! A game has three duties towards it: ask for every decision with
//! [`Table::ask`](crate::Table::ask) (that starts the decision's clock and sets its
//! deadline), close it with [`Table::close`](crate::Table::close) when the game ends, and
//! draw every random number from its RNG. The framework does the rest on every applied
//! action: `turnSeq`, the clock, presence, timeouts.
//!
//! ## Step 1: options and setup
//!
//! `setup` checks the options against their ranges, seats the players
//! ([`Table::for_counts`](crate::Table::for_counts) refuses a count the game is not played
//! by) and asks for the first decision.
//!
//! ```
//! # mod pig { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/pig.rs")); }
//! use game_core::{Game, GameError};
//! use pig::{Pig, PigOptions};
//! let players = ["ann".to_string(), "bo".to_string()];
//! let state = Pig.setup(&PigOptions::default(), &players, 7, 0).unwrap();
//! assert_eq!((state.board.turn, state.board.scores.clone()), (0, vec![0, 0]));
//! let refused = Pig.setup(&PigOptions { target: 5, ..Default::default() }, &players, 7, 0);
//! assert_eq!(refused.unwrap_err().reason().unwrap()["option"], "target");
//! assert_eq!(Pig.setup(&PigOptions::default(), &players[..1], 7, 0).unwrap_err().code(), "BAD_PLAYER_COUNT");
//! ```
//!
//! ## Step 2: whose turn, and what they may do
//!
//! `to_act` lists the seats awaited; `legal_actions` what a seat may do. The provided
//! `validate` refuses from these two: `NOT_YOUR_TURN`, `ILLEGAL_ACTION`, `GAME_OVER`,
//! `NOT_SEATED`.
//!
//! ```
//! # mod pig { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/pig.rs")); }
//! use game_core::{Game, GameError};
//! use pig::{Pig, PigAction, PigOptions};
//! let state = Pig.setup(&PigOptions::default(), &["ann".into(), "bo".into()], 7, 0).unwrap();
//! assert_eq!(Pig.to_act(&state), [0]);
//! assert_eq!(Pig.legal_actions(&state, 0), [PigAction::Roll]);
//! assert_eq!(Pig.validate(&state, 0, &PigAction::Hold).unwrap_err().code(), "ILLEGAL_ACTION");
//! assert_eq!(Pig.validate(&state, 1, &PigAction::Roll).unwrap_err().code(), "NOT_YOUR_TURN");
//! ```
//!
//! ## Step 3: the step
//!
//! `step_into` carries out an action the framework has already validated, appending what
//! happened to `events`. Its random step draws from the table's RNG, or takes `chance`
//! when a search tool forces one. Bots and tools act through the checked
//! [`GameExt::apply`](crate::GameExt::apply) (by seat), hosts through
//! [`GameExt::play`](crate::GameExt::play); both validate first and, on a refusal, change
//! nothing.
//!
//! ```
//! # mod pig { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/pig.rs")); }
//! use game_core::{Game, GameExt};
//! use pig::{Pig, PigAction, PigEvent, PigOptions};
//! let mut state = Pig.setup(&PigOptions::default(), &["ann".into(), "bo".into()], 7, 0).unwrap();
//! let events = Pig.apply_chance(&mut state, 0, &PigAction::Roll, &5, 10).unwrap();
//! assert_eq!(events, [PigEvent::Rolled { seat: 0, die: 5, total: 5 }]);
//! Pig.apply(&mut state, 0, &PigAction::Hold, 20).unwrap();
//! assert_eq!((state.board.scores.clone(), Pig.turn_seq(&state)), (vec![5, 0], 2));
//! let before = state.clone();
//! assert!(Pig.apply(&mut state, 0, &PigAction::Roll, 30).is_err());
//! assert_eq!(state, before);
//! ```
//!
//! ## Step 4: views and the end
//!
//! `view` shows a viewer the board, the table's public part and their legal actions, never
//! the RNG; `outcome` is the result once the game is over.
//!
//! ```
//! # mod pig { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/pig.rs")); }
//! use game_core::{Game, GameExt, Viewer};
//! use pig::{Pig, PigAction, PigOptions};
//! let options = PigOptions { target: 10, ..Default::default() };
//! let mut state = Pig.setup(&options, &["ann".into(), "bo".into()], 7, 0).unwrap();
//! Pig.apply_chance(&mut state, 0, &PigAction::Roll, &6, 10).unwrap();
//! Pig.apply_chance(&mut state, 0, &PigAction::Roll, &6, 20).unwrap();
//! let view = Pig.view(&state, Viewer::Player("ann"));
//! assert_eq!((view.table.you, view.board.turn_total), (Some(0), 12));
//! assert!(!serde_json::to_string(&view).unwrap().contains("rng"));
//! Pig.apply(&mut state, 0, &PigAction::Hold, 30).unwrap();
//! assert_eq!((Pig.outcome(&state), Pig.is_over(&state), Pig.deadline(&state)), (Some(0), true, None));
//! ```
//!
//! ## Step 5: time, storage, and the conformance kit
//!
//! A player whose time runs out gets the game's `timeout_action` (Pig holds what the turn
//! gathered). `restore` reads a stored state and hands it to
//! [`restored`](crate::restored), which checks the table and `check_state`: a tampered state
//! is refused, never loaded. With the `testing` feature, `testing::conformance` checks every
//! promise of the trait on any game, and each game of the workspace runs it.
//!
//! ```
//! # mod pig { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/pig.rs")); }
//! use game_core::{Game, GameError, GameExt};
//! use pig::{Pig, PigAction, PigOptions};
//! let mut state = Pig.setup(&PigOptions::default(), &["ann".into(), "bo".into()], 7, 0).unwrap();
//! Pig.apply_chance(&mut state, 0, &PigAction::Roll, &4, 10).unwrap();
//! let taken = Pig.tick(&mut state, 10 + 30_000); // 30 s a decision by default
//! assert!(taken[0].auto && taken[0].action == PigAction::Hold);
//! let json = serde_json::to_string(&state).unwrap();
//! assert_eq!(Pig.restore(&json).unwrap(), state);
//! let tampered = json.replace(r#""scores":[4,0]"#, r#""scores":[4,0,0]"#);
//! assert_eq!(Pig.restore(&tampered).unwrap_err().code(), "CORRUPT_STATE");
//! ```
//!
//! ## The complete game
//!
#![doc = concat!("```\n", include_str!("guide/pig.rs"), "\n# fn main() {}\n```")]
