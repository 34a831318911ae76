//! Bots for One Card. [`PolicyBot`] plays a heuristic from its player's view alone; the
//! framework's [`RandomBot`](game_core::RandomBot) plays One Card as any game.

use game_core::{Bot, Game, GameRng, Viewer};

use crate::{Card, Direction, OneCard, OneCardAction, OneCardState, OneCardView, SeatStatus, Suit};

/// The iterations of One Card's `ismcts` bot ([`ismcts`]): One Card is so much luck that a
/// single uniform play-out names the real winner about half the time, and the search needs
/// this many to tell its moves apart (at 1,000 it loses to [`PolicyBot`]; the figures are in
/// `docs/performance.md`, Bots).
pub const ISMCTS_ITERATIONS: u32 = 4_000;

/// One Card's information-set search, as every host offers it (`ismcts`): game-core's
/// [`Ismcts`](game_core::search::Ismcts) with uniform play-outs and
/// [`ISMCTS_ITERATIONS`] iterations a decision. It knows only what its seat knows (each
/// iteration is a world of its seat's information set).
///
/// ```
/// use game_core::{Bot, Fair, Game};
/// use one_card::{OneCard, OneCardOptions, bots};
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = OneCard.setup(&OneCardOptions::default(), &players, 1, 0).unwrap();
/// let mut bot = Fair::new(bots::ismcts(3), 3);
/// # let mut bot = Fair::new(game_core::search::Ismcts::new(3, 50), 3); // quick in a doc test
/// assert!(OneCard.validate(&state, 0, &bot.choose(&OneCard, &state, 0).unwrap()).is_ok());
/// ```
pub fn ismcts(seed: u64) -> game_core::search::Ismcts {
    game_core::search::Ismcts::new(seed, ISMCTS_ITERATIONS)
}

/// A heuristic player, as a careful person plays:
///
/// - it calls `ONE_CARD` the moment it may, and `CATCH`es whenever it can;
/// - under an attack it answers whenever it holds an answer, with the weakest one (the
///   stronger ones stay in hand for the next attack), and draws only when it cannot;
/// - otherwise it plays a card rather than draw: a K, J or Q first (they move play on in
///   its favour), then a plain card, keeping its 7s and attack cards for when nothing
///   else fits, except that it attacks a next player close to going out; among equal
///   cards it plays one of the suit it holds most, so that it can follow again;
/// - a 7 declares the suit it holds most after the 7.
///
/// It decides from its player's [`OneCardView`] only ([`PolicyBot::decide`]): never
/// another hand, the draw pile's order or the RNG. Exact ties are broken with its own
/// seeded RNG.
///
/// ```
/// use game_core::{Bot, Game};
/// use one_card::{OneCard, OneCardOptions, bots::PolicyBot};
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = OneCard.setup(&OneCardOptions::default(), &players, 1, 0).unwrap();
/// let action = PolicyBot::new(9).choose(&OneCard, &state, 0).unwrap();
/// assert!(OneCard.validate(&state, 0, &action).is_ok());
/// assert_eq!(PolicyBot::new(9).choose(&OneCard, &state, 1), None); // not to move
/// ```
#[derive(Clone, Debug)]
pub struct PolicyBot {
    rng: GameRng,
}

impl PolicyBot {
    /// A policy bot whose ties are broken by its own `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: GameRng::from_seed(seed),
        }
    }

    /// The action for the player whose view this is, or `None` when they have none.
    ///
    /// ```
    /// use game_core::{Game, Viewer};
    /// use one_card::{OneCard, OneCardAction, OneCardOptions, bots::PolicyBot};
    /// let players = vec!["a".to_string(), "b".to_string()];
    /// let state = OneCard.setup(&OneCardOptions::default(), &players, 1, 0).unwrap();
    /// let view = OneCard.view(&state, Viewer::Player("a"));
    /// let action = PolicyBot::new(9).decide(&view).unwrap();
    /// assert!(view.legal_actions.contains(&action));
    /// ```
    pub fn decide(&mut self, view: &OneCardView) -> Option<OneCardAction> {
        let legal = &view.legal_actions;
        // A call closes with the next move: made first, or never.
        let call = legal
            .iter()
            .find(|a| matches!(a, OneCardAction::OneCard | OneCardAction::Catch { .. }));
        if let Some(call) = call {
            return Some(call.clone());
        }
        let hand = view.hand.as_deref().unwrap_or_default();
        let next_close_to_out = next_seat(view)
            .and_then(|s| view.hand_counts.get(s))
            .is_some_and(|&n| n <= 2);
        let mut best: Vec<&OneCardAction> = Vec::new();
        let mut best_cost = i32::MAX;
        for action in legal {
            let OneCardAction::Play { card, suit } = action else {
                continue;
            };
            // A 7 is weighed once, with the suit it should declare.
            if suit.is_some() && *suit != Some(declared_suit(hand, *card)) {
                continue;
            }
            let cost = if view.attack > 0 {
                // The weakest answer.
                i32::try_from(card.attack()).unwrap_or(i32::MAX)
            } else {
                play_cost(hand, *card, next_close_to_out)
            };
            if cost < best_cost {
                best_cost = cost;
                best.clear();
            }
            if cost == best_cost {
                best.push(action);
            }
        }
        if best.is_empty() {
            return legal.iter().find(|a| **a == OneCardAction::Draw).cloned();
        }
        let pick = self
            .rng
            .below(u32::try_from(best.len()).unwrap_or(u32::MAX)) as usize;
        best.get(pick).map(|a| (*a).clone())
    }
}

impl Bot<OneCard> for PolicyBot {
    /// [`PolicyBot::decide`] on `seat`'s view of `state`.
    fn choose(
        &mut self,
        game: &OneCard,
        state: &OneCardState,
        seat: usize,
    ) -> Option<OneCardAction> {
        let id = state.table.players().get(seat)?;
        self.decide(&game.view(state, Viewer::Player(id)))
    }
}

/// How much playing `card` from `hand` (no attack pending) gives away: the lowest is
/// played. A K (a move more) goes first, then a J or a Q (play moves on in the player's
/// favour), then plain cards; a 7 costs more (it fits anywhere its rank or suit does and
/// steers the suit), an attack card most (it answers attacks), unless the next player is
/// close to going out, when an attack is the best card there is. Among cards of one
/// cost, those of the suit the hand holds most go first.
fn play_cost(hand: &[Card], card: Card, next_close_to_out: bool) -> i32 {
    let kind = match (card.attack(), card.rank()) {
        (0, Some(7)) => 2,
        (0, Some(13)) => -2,
        (0, Some(11 | 12)) => -1,
        (0, _) => 0,
        _ if next_close_to_out => -1,
        _ => 3,
    };
    let same_suit = card.suit().map_or(0, |s| suit_count(hand, s));
    kind * 100 - i32::try_from(same_suit).unwrap_or(0)
}

/// How many cards of `suit` `hand` holds.
fn suit_count(hand: &[Card], suit: Suit) -> usize {
    hand.iter().filter(|c| c.suit() == Some(suit)).count()
}

/// The suit a 7 declares: the one the hand holds most once the 7 is played (the first in
/// [`Suit::ALL`] order among equals).
fn declared_suit(hand: &[Card], seven: Card) -> Suit {
    let mut best = (Suit::ALL[0], 0);
    for suit in Suit::ALL {
        let n = hand
            .iter()
            .filter(|&&c| c != seven && c.suit() == Some(suit))
            .count();
        if n > best.1 {
            best = (suit, n);
        }
    }
    best.0
}

/// The seat after the viewer's in the view's direction, among those still playing.
fn next_seat(view: &OneCardView) -> Option<usize> {
    let me = view.you?;
    let n = view.status.len();
    let mut s = me;
    for _ in 0..n {
        s = match view.direction {
            Direction::Forward => (s + 1) % n,
            Direction::Backward => (s + n - 1) % n,
        };
        if view.status.get(s) == Some(&SeatStatus::Playing) && s != me {
            return Some(s);
        }
    }
    None
}
