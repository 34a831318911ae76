//! Positions built card by card, for the rules tests.

#![allow(dead_code)] // Each test file uses its own part of this.

use game_core::Game;
use one_card::{Card, OneCard, OneCardOptions, OneCardState};

/// A card by its wire name.
pub fn c(name: &str) -> Card {
    name.parse().unwrap()
}

/// Player ids `p0`, `p1`, ...
pub fn ids(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("p{i}")).collect()
}

/// A game of `hands.len()` players with exactly these hands and `top` on the discard pile;
/// every other card in the draw pile (in deck order, the last drawn first). Seat 0 moves.
pub fn position(options: OneCardOptions, hands: &[&[&str]], top: &str) -> OneCardState {
    let mut state = OneCard.setup(&options, &ids(hands.len()), 1, 0).unwrap();
    state.hands = hands
        .iter()
        .map(|h| h.iter().map(|n| c(n)).collect())
        .collect();
    state.discard = vec![c(top)];
    let used: Vec<Card> = state
        .hands
        .iter()
        .flatten()
        .copied()
        .chain([c(top)])
        .collect();
    state.draw_pile = Card::all().filter(|x| !used.contains(x)).collect();
    OneCard.check_state(&state).unwrap();
    state
}

/// [`position`] with the default options.
pub fn default_position(hands: &[&[&str]], top: &str) -> OneCardState {
    position(OneCardOptions::default(), hands, top)
}

/// A `PLAY` of `card` without a suit.
pub fn play(card: &str) -> one_card::OneCardAction {
    one_card::OneCardAction::Play {
        card: c(card),
        suit: None,
    }
}
