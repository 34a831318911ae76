//! # Writing a game
//!
//! This guide writes Pig, the dice game, on [`Game`](crate::Game): two to four players take
//! turns; on your turn you roll a die as often as you like, a 2 to 6 adds to the turn's
//! total, a 1 loses it and ends your turn, and holding banks the total and ends your turn.
//! The first to bank the target wins. The complete game is listed at the end of the
//! chapter (it is also the workspace's `pig` crate, which adds bots); each step below shows
//! one part of it and runs it. The second chapter writes a game of hidden information,
//! Liar's Dice, on what is left: views and events for each viewer, and the seam that lets
//! bots play it without seeing what their seat cannot.
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
//!
//! ## Chapter 2: hidden information — Liar's Dice
//!
//! Each player has five dice under a cup and sees only their own. In turn, players bid on
//! all the dice under all the cups ("at least four 3s"), ones counting as any face, each
//! bid raising the last; or the player to act calls the last bid a lie. The cups are lifted:
//! if the bid holds the challenger loses a die, else the bidder does, and every die left
//! is rolled again for the next round, which the loser opens. Whoever keeps a die last
//! wins. The rules in full, and why they are these, are in the `liars-dice` crate's
//! documentation, which adds a bot; the game is listed at the end of this chapter.
//!
//! Pig needed nothing hidden: everyone saw the board. Here the state holds every cup, and
//! the framework must keep each player from the others' dice in three places: what a
//! player is shown (the view and the events), what a bot is given, and what the tests
//! check.
//!
//! ### What is hidden, and the view
//!
//! The state (`LiarsDiceState`) holds every cup and is never shown to a player: `view`
//! builds what one viewer may see. A seat sees its own dice, how many dice every seat
//! holds, the round's bids and the last reveal (those dice were rolled again since, so
//! showing them hides nothing); a spectator sees no cup. The view is a type of its own,
//! not the board with a field blanked: a field added to the board later is hidden until
//! someone decides to show it.
//!
//! ```
//! # mod liars_dice { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/liars_dice.rs")); }
//! use game_core::{Game, Viewer};
//! use liars_dice::{LiarsDice, LiarsDiceOptions};
//! let players = ["ann".to_string(), "bo".to_string()];
//! let state = LiarsDice.setup(&LiarsDiceOptions::default(), &players, 7, 0).unwrap();
//! let ann = LiarsDice.view(&state, Viewer::Player("ann"));
//! assert_eq!(ann.your_dice.as_ref(), Some(&state.board.cups[0]));
//! assert_eq!(ann.dice_counts, [5, 5]);
//! let json = serde_json::to_value(&ann).unwrap();
//! assert!(json.get("cups").is_none()); // bo's dice are nowhere in it
//! assert_eq!(LiarsDice.view(&state, Viewer::Spectator).your_dice, None);
//! ```
//!
//! ### Events for each viewer
//!
//! A step's events are what happened, all of it: the roll that starts a round holds every
//! cup. [`Game::event_for`](crate::Game::event_for) gives each viewer its projection, and
//! every host sends each player, socket or caller only that, never the event itself. Liar's
//! Dice shows each player its own new dice and the others' counts; the reveal is shown to
//! everyone as it is. An event that names whose dice it holds (the player's id, as the
//! viewer is named) can be projected without the state.
//!
//! ```
//! # mod liars_dice { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/liars_dice.rs")); }
//! use game_core::{Game, GameExt, Viewer};
//! use liars_dice::{LiarsDice, LiarsDiceAction, LiarsDiceEvent, LiarsDiceOptions};
//! let players = ["ann".to_string(), "bo".to_string()];
//! let mut state = LiarsDice.setup(&LiarsDiceOptions::default(), &players, 7, 0).unwrap();
//! LiarsDice.apply(&mut state, 0, &LiarsDiceAction::Bid { quantity: 2, face: 3 }, 10).unwrap();
//! let events = LiarsDice.apply(&mut state, 1, &LiarsDiceAction::Challenge, 20).unwrap();
//! // The reveal is everyone's: every cup as it lay.
//! assert!(matches!(&events[0], LiarsDiceEvent::Revealed(r) if r.cups.len() == 2));
//! let rolled = events.last().unwrap();
//! let LiarsDiceEvent::Rolled { cups, .. } = LiarsDice.event_for(rolled, Viewer::Player("bo"))
//! else {
//!     unreachable!("a new round is rolled");
//! };
//! assert_eq!(cups[1].dice.as_ref(), Some(&state.board.cups[1])); // bo's own new dice
//! assert_eq!((cups[0].dice.as_ref(), cups[0].count), (None, state.board.cups[0].len()));
//! ```
//!
//! ### The seam: a world the seat cannot tell apart
//!
//! A bot is handed a state, and a state holds every cup. So a game with hidden
//! information implements
//! [`Game::resample_from_infostate`](crate::Game::resample_from_infostate): given a state,
//! a seat and an RNG, a state that seat cannot tell apart from it, everything hidden from
//! the seat redrawn. What to redraw is what the seat has not seen: every other cup, as many
//! dice as it holds. What to keep is everything it has: its own dice, the counts, the bids,
//! the last reveal, whose turn it is.
//!
//! The sample must depend only on what the seat knows and on the RNG: two states the seat
//! cannot tell apart must give the same world from the same RNG. Otherwise a bot's choice
//! in the world would still tell hidden dice apart, and a bot that cannot see them would
//! play as if it could. So draw in an order the seat knows (seat by seat, by the counts),
//! never by walking the hidden dice. The game also says what a finished game is worth to
//! each seat, [`Game::payoff`](crate::Game::payoff) (by place: 1 for the winner, 0 for
//! the first out), which is what the searches play for.
//!
//! ```
//! # mod liars_dice { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/liars_dice.rs")); }
//! use game_core::{Game, GameRng, Viewer};
//! use liars_dice::{LiarsDice, LiarsDiceOptions, LiarsDiceState};
//! let players = ["ann".to_string(), "bo".to_string()];
//! let state = LiarsDice.setup(&LiarsDiceOptions::default(), &players, 7, 0).unwrap();
//! // Another game, bo's dice another roll, ann's the same: she cannot tell them apart.
//! let mut other = LiarsDice.setup(&LiarsDiceOptions::default(), &players, 8, 0).unwrap();
//! other.board.cups[0] = state.board.cups[0].clone();
//! let world = |s: &LiarsDiceState| LiarsDice.resample_from_infostate(s, 0, &mut GameRng::from_seed(1));
//! assert_eq!(world(&state).board, world(&other).board); // drawn from what ann knows alone
//! let ann = |s: &LiarsDiceState| LiarsDice.view(s, Viewer::Player("ann"));
//! assert_eq!(ann(&world(&state)), ann(&state)); // her dice and all she sees, kept
//! ```
//!
//! ### Fair bots
//!
//! The framework never hands a bot the true state of a match:
//! [`DynGame::bot`](crate::DynGame::bot), which every host runs its bots through, wraps
//! each in [`Fair`](crate::Fair), which gives the bot at each decision a world drawn by
//! [`GameExt::determinize`](crate::GameExt::determinize): the resample, with a fresh RNG
//! (the match's RNG foretells every roll). A typed loop wraps its bot in `Fair` itself.
//! Two searches play any game that implements the seam and `payoff`, with no model of the
//! game: [`search::Pimc`](crate::search::Pimc) averages each move over sampled worlds, and
//! [`search::Ismcts`](crate::search::Ismcts) grows one tree over the seat's information
//! sets; every host offers them as the bots `pimc` and `ismcts`. A game's own bot may still
//! decide from the seat's view alone (the `liars-dice` crate's `PolicyBot` does): then it
//! is fair on any state it is given.
//!
//! ```
//! # mod liars_dice { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/liars_dice.rs")); }
//! use game_core::search::{Ismcts, Pimc};
//! use game_core::{Bot, Fair, Game, GameExt};
//! use liars_dice::{LiarsDice, LiarsDiceOptions};
//! let players = ["ann".to_string(), "bo".to_string()];
//! let options = LiarsDiceOptions { dice: 2, ..Default::default() };
//! let mut state = LiarsDice.setup(&options, &players, 7, 0).unwrap();
//! let mut bots: [Box<dyn Bot<LiarsDice>>; 2] =
//!     [Box::new(Fair::new(Ismcts::new(1, 200), 1)), Box::new(Fair::new(Pimc::new(2, 4, 4), 2))];
//! while let Some(seat) = LiarsDice.first_to_act(&state) {
//!     let action = bots[seat].choose(&LiarsDice, &state, seat).unwrap();
//!     LiarsDice.apply(&mut state, seat, &action, 0).unwrap();
//! }
//! assert!(LiarsDice.payoff(&state, 0).is_some());
//! ```
//!
//! ### Chance you cannot list
//!
//! Pig's roll has six outcomes, listed by `chances`. A reroll of thirty dice has 6^30: the
//! game lists none (`chances` answers `None`) and instead answers two questions.
//! [`Game::chance_possible`](crate::Game::chance_possible): could the random step take
//! this outcome? Here, any faces of the reroll's shape (a cup per seat, as many dice as it
//! keeps, each 1 to 6). [`Game::sample_chance`](crate::Game::sample_chance): draw an
//! outcome with its true odds. With them, [`GameExt::apply_chance`](crate::GameExt::apply_chance)
//! rigs any outcome the game accepts, so tests and tools can force a reroll.
//!
//! ```
//! # mod liars_dice { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/liars_dice.rs")); }
//! use game_core::{Game, GameExt, GameRng};
//! use liars_dice::{LiarsDice, LiarsDiceAction, LiarsDiceOptions};
//! let players = ["ann".to_string(), "bo".to_string()];
//! let mut state = LiarsDice.setup(&LiarsDiceOptions::default(), &players, 7, 0).unwrap();
//! state.board.cups = vec![vec![2, 2, 3, 4, 5], vec![1, 3, 3, 6, 6]]; // as a test may set them
//! LiarsDice.apply(&mut state, 0, &LiarsDiceAction::Bid { quantity: 3, face: 2 }, 10).unwrap();
//! let challenge = LiarsDiceAction::Challenge;
//! assert_eq!(LiarsDice.chances(&state, 1, &challenge), None);
//! let drawn = LiarsDice.sample_chance(&state, 1, &challenge, &mut GameRng::from_seed(3)).unwrap();
//! assert!(LiarsDice.chance_possible(&state, 1, &challenge, &drawn));
//! // Three 2s hold (two and a wild one): bo loses a die, and the reroll is rigged.
//! let rigged = vec![vec![6; 5], vec![6; 4]];
//! LiarsDice.apply_chance(&mut state, 1, &challenge, &rigged, 20).unwrap();
//! assert_eq!(state.board.cups, rigged);
//! ```
//!
//! ### The leak check
//!
//! A leak is easy to write and invisible in play: a view that shows a field it should not,
//! an event sent whole, a bot that reads the state. `testing::conformance` checks for
//! them with `testing::assert_no_leaks`: in seeded states of every phase, for every seat,
//! it resamples the seat's information set and requires the seat's view, its projection of
//! each event, its legal actions and a fair bot's choice at a fixed seed to be the same in
//! every world (what differs names the field that leaks); and two moves of another seat
//! that leave the seat's view the same must show it the same events (so a reveal, like the
//! lifted cups above, belongs in the view as well as in its event). So the one line of the
//! `liars-dice` crate's conformance test, with two, three and six players, checks the
//! resample and every view and event of the game above against each other.
//!
//! ### The complete game: Liar's Dice
//!
#![doc = concat!("````\n", include_str!("guide/liars_dice.rs"), "\n# fn main() {}\n````")]
