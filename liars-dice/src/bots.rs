//! A bot for Liar's Dice that plays from its seat's view alone: [`PolicyBot`]. The
//! framework's fair searches ([`game_core::search::Pimc`], [`game_core::search::Ismcts`])
//! play the game too, through [`LiarsDice`]'s `resample_from_infostate` and `payoff`.
//!
//! ```
//! use game_core::{Bot, Fair, Game, GameExt, search::Ismcts};
//! use liars_dice::{LiarsDice, LiarsDiceOptions, PolicyBot};
//!
//! let players = vec!["searcher".to_string(), "policy".to_string()];
//! let options = LiarsDiceOptions { dice: 2, ..Default::default() };
//! let mut state = LiarsDice.setup(&options, &players, 3, 0).unwrap();
//! let mut bots: [Box<dyn Bot<LiarsDice>>; 2] =
//!     [Box::new(Fair::new(Ismcts::new(1, 100), 1)), Box::new(PolicyBot::default())];
//! while let Some(seat) = LiarsDice.first_to_act(&state) {
//!     let action = bots[seat].choose(&LiarsDice, &state, seat).unwrap();
//!     LiarsDice.apply(&mut state, seat, &action, 0).unwrap();
//! }
//! assert!(LiarsDice.outcome(&state).is_some());
//! ```

use game_core::{Bot, Game, GameState, Viewer};

use crate::{Bid, LiarsDice, LiarsDiceAction, LiarsDiceState, LiarsDiceView, bid_odds};

/// Bids and challenges by the odds its own dice give ([`bid_odds`]): it raises to the
/// boldest bid it believes (one at least [`PolicyBot::confidence`] likely to hold), or if
/// it believes none, to the likeliest; and it challenges instead when the last bid is
/// likelier false than that raise is true. It decides from its seat's view only (its own
/// dice, the counts, the bids), so it plays the same on the true state and on any world
/// its seat cannot tell from it, and needs no [`Fair`](game_core::Fair) to be fair. No
/// randomness: the same view, the same move.
///
/// ```
/// use game_core::{Bot, Game, GameExt};
/// use liars_dice::{LiarsDice, LiarsDiceAction, LiarsDiceOptions, PolicyBot};
/// let options = LiarsDiceOptions { dice: 2, ..Default::default() };
/// let mut state = LiarsDice.setup(&options, &["a".into(), "b".into()], 1, 0).unwrap();
/// state.board.cups = vec![vec![2, 3], vec![5, 6]];
/// // Four 6s among four dice, from a seat holding a 5 and a 6: surely false.
/// LiarsDice.apply(&mut state, 0, &LiarsDiceAction::Bid { quantity: 4, face: 6 }, 0).unwrap();
/// assert_eq!(PolicyBot::default().choose(&LiarsDice, &state, 1), Some(LiarsDiceAction::Challenge));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyBot {
    /// How likely to hold a bid must be for the bot to make it while a likelier one is at
    /// hand (0.5 by default: a bid it believes more than it doubts).
    pub confidence: f64,
}

impl Default for PolicyBot {
    fn default() -> Self {
        Self { confidence: 0.5 }
    }
}

impl PolicyBot {
    /// Its choice for the viewer of `view` (`None` when the viewer has nothing to do).
    pub fn pick(&self, view: &LiarsDiceView) -> Option<LiarsDiceAction> {
        let (own, seat) = (view.your_dice.as_deref()?, view.table.you?);
        let dice = u32::try_from(view.dice_counts.iter().sum::<usize>()).unwrap_or(u32::MAX);
        let raises: Vec<(LiarsDiceAction, f64)> = view
            .legal_actions
            .iter()
            .filter_map(|&action| match action {
                LiarsDiceAction::Bid { quantity, face } => {
                    let bid = Bid {
                        seat,
                        quantity,
                        face,
                    };
                    Some((action, bid_odds(own, dice, &bid)))
                }
                LiarsDiceAction::Challenge => None,
            })
            .collect();
        // The likeliest raise, the lowest among equals (the list is lowest first).
        let likeliest = raises
            .iter()
            .copied()
            .reduce(|best, r| if r.1 > best.1 { r } else { best });
        let boldest = raises.iter().rev().find(|r| r.1 >= self.confidence);
        let raise = boldest.copied().or(likeliest);
        let doubt = view.bids.last().map(|last| 1.0 - bid_odds(own, dice, last));
        match (doubt, raise, likeliest) {
            (Some(doubt), _, Some((_, best))) if doubt > best => Some(LiarsDiceAction::Challenge),
            (Some(_), None, _) => Some(LiarsDiceAction::Challenge),
            (_, raise, _) => raise.map(|r| r.0),
        }
    }
}

impl Bot<LiarsDice> for PolicyBot {
    /// [`PolicyBot::pick`] on the seat's view: the state's hidden dice never reach it.
    fn choose(
        &mut self,
        game: &LiarsDice,
        state: &LiarsDiceState,
        seat: usize,
    ) -> Option<LiarsDiceAction> {
        let player = state.table().players().get(seat)?;
        let view = game.view(state, Viewer::Player(player));
        self.pick(&view).filter(|a| view.legal_actions.contains(a))
    }
}
