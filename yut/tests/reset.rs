//! `Game::reset` starts a new game in a used state exactly as `Game::setup` starts one:
//! from a new game, one in progress, a finished one and one ended by concessions, of any
//! player count, mode and piece count, into any other, the state is the one `setup`
//! makes (equal, and equal as stored JSON) and plays on the same; a refused reset is
//! refused as `setup` refuses it and changes nothing.

mod common;

use game_core::Game;
use game_core::testing::{assert_clone_from_agrees, assert_reset_agrees, players};
use yut::{Mode, Standard, Yut, YutOptions, YutState};

#[test]
fn a_reset_state_is_the_state_setup_makes() {
    assert_reset_agrees(&Yut::standard(), &common::option_sets());
}

/// A state copied into a used one (`clone_from`, as the strong bot's search copies its
/// positions, keeping the buffers) is its source, whatever the used one held: other
/// player counts, modes, piece counts, a finished game.
#[test]
fn a_state_copied_into_a_used_one_is_its_source() {
    let sets = common::option_sets();
    let some: Vec<_> = [0, 3, 4, 5].iter().map(|&i| sets[i].clone()).collect();
    assert_clone_from_agrees(&Yut::standard(), &some);
}

/// The seat lists are rebuilt in place: a reset into fewer sides drops the extra ones, a
/// reset into more makes them, and each side's members are the new game's.
/// Each side's members, in side order.
fn members(state: &YutState<Standard>) -> Vec<&[u8]> {
    let sides = state.board().sides();
    sides.iter().map(|s| &s.members[..]).collect()
}

#[test]
fn a_reset_rebuilds_the_sides_and_members() {
    let game = Yut::standard();
    let team = YutOptions {
        mode: Mode::Team,
        ..YutOptions::default()
    };
    let mut state = game.setup(&team, &players(6), 1, 0).unwrap();
    game.reset(&mut state, &YutOptions::default(), &players(3), 2, 0)
        .unwrap();
    assert_eq!(members(&state), [&[0u8][..], &[1], &[2]]);
    game.reset(&mut state, &team, &players(8), 3, 0).unwrap();
    assert_eq!(members(&state), [&[0u8, 2, 4, 6][..], &[1, 3, 5, 7]]);
    assert_eq!(state, game.setup(&team, &players(8), 3, 0).unwrap());
}

/// A composition resets both parts' states (`Rules::setup_into` of each).
#[test]
fn a_composed_rule_set_resets_as_it_sets_up() {
    let options = yut::rules::WithRules {
        base: YutOptions::default(),
        rules: yut::rules::Both::default(),
    };
    let game = Yut::new((yut::Standard, yut::Standard));
    assert_reset_agrees(&game, &[(options.clone(), 2), (options, 4)]);
}
