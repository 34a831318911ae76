//! The paths a play-out takes besides the checked step with events: a quiet step
//! (`Game::apply_seat_quiet`, what `Playout::quiet` play-outs use) leaves the state exactly as
//! the step with events does, recent-event log included, and builds no events at all; and the
//! legal actions by index (`Game::legal_action_count`, `Game::legal_action`, what
//! `Choice::Legal` plays) are exactly those the list holds. Under every kind of option set.

mod common;

use game_core::Game;
use game_core::testing::{assert_legal_index_agrees, assert_quiet_agrees};
use yut::{Yut, YutOptions};

#[test]
fn quiet_steps_leave_the_state_as_steps_with_events_do() {
    for (options, n) in common::option_sets() {
        assert_quiet_agrees(&Yut::standard(), &options, n, 0..12);
    }
}

#[test]
fn legal_actions_by_index_are_those_of_the_list() {
    for (options, n) in common::option_sets() {
        assert_legal_index_agrees(&Yut::standard(), &options, n);
    }
}

#[test]
fn a_quiet_step_builds_no_events() {
    let game = Yut::standard();
    let players = yut::testing::players(3);
    let mut scratch = Vec::new();
    for seed in 0..20 {
        let mut state = game
            .setup(&YutOptions::default(), &players, seed, 0)
            .unwrap();
        let mut k = seed;
        while let Some(seat) = game.first_to_act(&state) {
            let legal = game.legal_actions(&state, seat);
            k = k.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let action = legal[(k >> 33) as usize % legal.len()];
            game.apply_seat_quiet(&mut state, seat, &action, 0, &mut scratch)
                .unwrap();
            assert!(scratch.is_empty(), "seed {seed}: {scratch:?}");
        }
        // The log was written all the same: the game's end is in it.
        let last = state.log.iter().last().unwrap();
        assert!(matches!(last, yut::YutEvent::GameOver { .. }), "{last:?}");
    }
}
