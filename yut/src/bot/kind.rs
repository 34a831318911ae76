//! Choosing a bot at run time: [`BotKind`] names one, [`SeatBot`] is one of them.

use game_core::Bot;

use super::{PolicyBot, RandomBot, StrongBot};
use crate::{Rules, Yut, YutAction, YutState};

/// A kind of bot, by its word: `random`, `policy` or `strong` (`FromStr` and `Display`
/// use these words).
///
/// ```
/// use yut::BotKind;
/// assert_eq!("strong".parse::<BotKind>(), Ok(BotKind::Strong));
/// assert_eq!(BotKind::default().to_string(), "policy");
/// assert!("clever".parse::<BotKind>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BotKind {
    /// [`RandomBot`]: uniformly among the legal actions, seeded per seat.
    Random,
    /// [`PolicyBot`]: the engine's own timeout policy (`yut/RULES.md`, "The timeout
    /// policy").
    #[default]
    Policy,
    /// [`StrongBot`]: plays to win, by expectimax over the exact throw probabilities.
    Strong,
}

words!(BotKind, "bot", [Random => "random", Policy => "policy", Strong => "strong"]);

/// The bot of one seat, chosen at run time by its [`BotKind`].
///
/// ```
/// use game_core::{Bot, Game, GameExt};
/// use yut::{BotKind, SeatBot};
/// let game = yut::Yut::standard();
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
/// let seat = game.to_act(&state)[0];
/// for kind in [BotKind::Random, BotKind::Policy, BotKind::Strong] {
///     let action = SeatBot::new(kind, 9).choose(&game, &state, seat).unwrap();
///     assert!(game.validate(&state, seat, &action).is_ok());
/// }
/// ```
#[derive(Clone, Debug)]
pub enum SeatBot {
    /// [`PolicyBot`].
    Policy(PolicyBot),
    /// [`RandomBot`].
    Random(Box<RandomBot>),
    /// [`StrongBot`].
    Strong(Box<StrongBot>),
}

impl SeatBot {
    /// A bot of `kind` with its own `seed` (the policy bot has no randomness).
    ///
    /// ```
    /// use yut::{BotKind, SeatBot};
    /// assert!(matches!(SeatBot::new(BotKind::Strong, 1), SeatBot::Strong(_)));
    /// ```
    pub fn new(kind: BotKind, seed: u64) -> Self {
        match kind {
            BotKind::Policy => SeatBot::Policy(PolicyBot::default()),
            BotKind::Random => SeatBot::Random(Box::new(RandomBot::new(seed))),
            BotKind::Strong => SeatBot::Strong(Box::new(StrongBot::new(seed))),
        }
    }
}

impl<R: Rules> Bot<Yut<R>> for SeatBot {
    fn choose(
        &mut self,
        game: &Yut<R>,
        state: &YutState<R>,
        seat: usize,
    ) -> Option<YutAction<R::Action>> {
        match self {
            SeatBot::Policy(bot) => bot.choose(game, state, seat),
            SeatBot::Random(bot) => bot.choose(game, state, seat),
            SeatBot::Strong(bot) => bot.choose(game, state, seat),
        }
    }
}
