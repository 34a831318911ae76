//! Bots for Yut Nori: the timeout policy, a random bot, and [`StrongBot`], which searches
//! over the exact throw probabilities to win, and [`SeatBot`] to pick one by [`BotKind`].
//!
//! Every bot here is a [`game_core::Bot`] for [`Yut<R>`](crate::Yut) under any rules
//! `R`, so the same bots play the standard game, the `app` preset and rule extensions.
//!
//! | bot | what it does |
//! |---|---|
//! | [`PolicyBot`] | the engine's own timeout action (`yut/RULES.md`, "The timeout policy"): throw when a throw is owed, else capture > finish > stack > advance the furthest-behind stack > enter |
//! | [`RandomBot`] | uniformly among the legal actions, with its own seeded RNG |
//! | [`StrongBot`] | expectimax over the exact throw table through the rest of its turn and the next side's turn, with a race-and-risk evaluation |
//!
//! None of them reads the future from the RNG stored in the state: the policy and the
//! random bot never simulate, and the strong bot searches a [`GameExt::fork`] copy
//! (re-seeded from its own RNG) and enumerates [`Game::chances`] with
//! [`GameExt::apply_chance`], so the stored RNG is never drawn from or looked at.
//!
//! [`GameExt::fork`]: game_core::GameExt::fork
//! [`Game::chances`]: game_core::Game::chances
//! [`GameExt::apply_chance`]: game_core::GameExt::apply_chance

mod eval;
mod kind;
mod strong;

pub use game_core::RandomBot;
pub use game_core::search::SearchStats;
pub use kind::{BotKind, SeatBot};
pub use strong::{StrongBot, StrongModel, StrongParams};

/// The timeout policy as a bot: exactly what the engine plays for a player whose time ran
/// out ([`Game::timeout_action`](game_core::Game::timeout_action): a throw when one is
/// owed, [`Yut::policy_move`](crate::Yut::policy_move) in the move phase, the rules' own
/// timeout action in a rule phase; `yut/RULES.md`, "The timeout policy"). It is
/// [`game_core::TimeoutBot`] itself, not a copy, so the bot, the timeout and the hint can
/// never disagree.
///
/// ```
/// use game_core::{Bot, Game, GameExt};
/// let game = yut::Yut::standard();
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
/// let seat = game.to_act(&state)[0];
/// let action = yut::PolicyBot::default().choose(&game, &state, seat);
/// assert_eq!(action, game.timeout_action(&state, seat));
/// ```
pub type PolicyBot = game_core::TimeoutBot;
