//! game-core's checks that apply to any game, run on One Card.

mod common;

use common::ids;
use game_core::GameExt;
use game_core::testing;
use game_core::{Game, GameError};
use one_card::{Card, OneCard, OneCardAction, OneCardOptions, OneCardState, Ranking, Suit};

fn cases() -> Vec<(OneCardOptions, usize)> {
    let mut out = Vec::new();
    for n in 2..=5 {
        out.push((OneCardOptions::default(), n));
        out.push((
            OneCardOptions {
                hand_size: 5,
                bankrupt_at: Some(15),
                ranking: Ranking::All,
                one_card_call: n % 2 == 0,
                turn_seconds: None,
            },
            n,
        ));
    }
    out
}

/// Every action any seat could send: each card without a suit, the 7s and a few others
/// with one, the calls on every seat and a stranger, DRAW and CONCEDE.
fn every_action(n: usize) -> Vec<OneCardAction> {
    let mut out = vec![
        OneCardAction::Draw,
        OneCardAction::OneCard,
        OneCardAction::Concede,
    ];
    for card in Card::all() {
        out.push(OneCardAction::Play { card, suit: None });
        if card.rank() == Some(7) || card.attack() > 0 {
            out.push(OneCardAction::Play {
                card,
                suit: Some(Suit::Hearts),
            });
        }
    }
    for p in ids(n).into_iter().chain(["stranger".to_string()]) {
        out.push(OneCardAction::Catch { player: p });
    }
    out
}

fn phase(state: &OneCardState) -> String {
    format!(
        "{} {} {} {} {:?} {}",
        state.over(),
        state.attack() > 0,
        state.call().is_some(),
        state.suit().is_some(),
        state.direction(),
        state.out().len() + state.finished().len(),
    )
}

/// Who may take `action` now: the mover for PLAY and DRAW, the seats `may_act` names for
/// the calls, anyone still in the game for CONCEDE.
fn may_act(state: &OneCardState, seat: usize, action: &OneCardAction) -> bool {
    match action {
        OneCardAction::OneCard | OneCardAction::Catch { .. } => {
            state.call().is_some() && OneCard.may_act(state, seat)
        }
        OneCardAction::Concede => !OneCard.is_over(state),
        _ => OneCard.to_act(state) == [seat],
    }
}

#[test]
fn hammer_every_phase() {
    for (options, n) in cases() {
        let states = testing::states_by_phase(&OneCard, &options, n, phase);
        assert!(
            states.len() > 5,
            "{n} players: only {} phases",
            states.len()
        );
        let tally = testing::hammer_all(&OneCard, &states, &every_action(n), &[()], may_act);
        assert!(tally.accepted > 0 && tally.refused > tally.accepted);
    }
}

#[test]
fn the_index_count_first_and_timeout_answers_agree_with_the_lists() {
    for (options, n) in cases() {
        testing::assert_legal_index_agrees(&OneCard, &options, n);
        testing::assert_first_to_act_agrees(&OneCard, &options, n);
        testing::assert_times_out_agrees(&OneCard, &options, n);
        testing::assert_quiet_agrees(&OneCard, &options, n, 0..3);
    }
}

#[test]
fn reset_and_clone_from_agree_with_setup_and_clone() {
    testing::assert_reset_agrees(&OneCard, &cases());
    testing::assert_clone_from_agrees(&OneCard, &cases());
}

#[test]
fn a_game_ends_by_concessions() {
    for n in 2..=5 {
        let mut state = OneCard
            .setup(&OneCardOptions::default(), &ids(n), 3, 0)
            .unwrap();
        // CONCEDE is open at any time but not listed among the legal actions (RULES.md),
        // so every seat but the last concedes by name.
        for seat in 0..n - 1 {
            OneCard
                .apply(&mut state, seat, &OneCardAction::Concede, 0)
                .unwrap();
        }
        assert!(OneCard.is_over(&state));
        let outcome = OneCard.outcome(&state).unwrap();
        assert_eq!(outcome.winner_seat, n - 1);
        let err = OneCard
            .apply(&mut state, n - 1, &OneCardAction::Concede, 0)
            .unwrap_err();
        assert_eq!(err.code(), "GAME_OVER");
    }
}

#[test]
fn errors_are_typed() {
    let mut state = OneCard
        .setup(&OneCardOptions::default(), &ids(3), 1, 0)
        .unwrap();
    for action in every_action(3) {
        for seat in 0..3 {
            if let Err(e) = OneCard.apply(&mut state.clone(), seat, &action, 0) {
                testing::assert_typed(&e.body());
            }
        }
    }
    let err = OneCard
        .apply(&mut state, 1, &OneCardAction::Draw, 0)
        .unwrap_err();
    testing::assert_code(&err, &["NOT_YOUR_TURN"]);
}
