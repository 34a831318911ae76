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
    let state = OneCard.setup(&options, &ids(hands.len()), 1, 0).unwrap();
    rig(&state, |p| {
        p.hands = hands
            .iter()
            .map(|h| h.iter().map(|n| c(n)).collect())
            .collect();
        p.discard = vec![c(top)];
        p.refill_draw_pile();
    })
}

/// The parts of a position the tests change: read from a state by [`rig`], and written
/// back.
#[derive(Clone, Debug)]
pub struct Parts {
    /// Each seat's hand.
    pub hands: Vec<Vec<Card>>,
    /// The draw pile, the last card drawn first.
    pub draw_pile: Vec<Card>,
    /// The discard pile, the top last.
    pub discard: Vec<Card>,
    /// The pending attack.
    pub attack: u32,
    /// The seat to move.
    pub turn: usize,
}

impl Parts {
    /// Makes the draw pile every card not in a hand or on the discard pile, in deck order.
    pub fn refill_draw_pile(&mut self) {
        let used: Vec<Card> = self
            .hands
            .iter()
            .flatten()
            .chain(&self.discard)
            .copied()
            .collect();
        self.draw_pile = Card::all().filter(|x| !used.contains(x)).collect();
    }
}

/// `state` with `change` made to its [`Parts`], written into its stored form and loaded
/// back through [`Game::restore`]: a position a test needs is stored as a host would store
/// it, and checked as every stored state is.
///
/// # Panics
///
/// If the changed state is refused.
pub fn rig(state: &OneCardState, change: impl FnOnce(&mut Parts)) -> OneCardState {
    let mut p = Parts {
        hands: state.hands().to_vec(),
        draw_pile: state.draw_pile().to_vec(),
        discard: state.discard().to_vec(),
        attack: state.attack(),
        turn: state.turn(),
    };
    change(&mut p);
    let mut v = serde_json::to_value(state).unwrap();
    v["hands"] = serde_json::to_value(&p.hands).unwrap();
    v["drawPile"] = serde_json::to_value(&p.draw_pile).unwrap();
    v["discard"] = serde_json::to_value(&p.discard).unwrap();
    v["attack"] = p.attack.into();
    v["turn"] = p.turn.into();
    OneCard
        .restore(&v.to_string())
        .expect("a rigged state that loads")
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
