//! The paths a play-out takes besides the checked step with events: a quiet step
//! (`Game::step_quiet`, what `Playout::quiet` play-outs use) leaves the state exactly as
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
            game.step_quiet(&mut state, seat, &action, None, 0, &mut scratch);
            assert!(scratch.is_empty(), "seed {seed}: {scratch:?}");
        }
        // The log was written all the same: the game's end is in it.
        let last = state.log().iter().last().unwrap();
        assert!(matches!(last, yut::YutEvent::GameOver { .. }), "{last:?}");
    }
}

/// The standard rules under a rule set that keeps the default of asking for every move
/// to be checked (`Rules::forbids_moves` says it may forbid some; it forbids none).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Checked;

impl yut::Rules for Checked {
    type Config = yut::NoConfig;
    type Options = yut::YutOptions;
    type State = ();
    type Action = yut::NoAction;
    type Event = yut::NoEvent;
    type View = yut::NoView;

    fn id(&self) -> &'static str {
        "checked"
    }

    fn view(&self, _board: &yut::Board, _state: &()) -> yut::NoView {
        yut::NoView {}
    }
}

/// A random move among checked ones is drawn as an index among the listed moves is, with
/// few moves and with more than the one pass keeps (four stacks and a waiting piece with
/// eight results, one a backdo: 39 moves).
#[test]
fn a_random_checked_move_is_the_listed_move_at_a_drawn_index() {
    use yut::Throw::{Backdo, Do, Gae, Geol, Mo, Yut as YutThrow};
    use yut::testing::Script;
    let options = YutOptions {
        pieces: 5,
        ..YutOptions::default()
    };
    for pending in [
        &[Gae][..],
        &[Backdo, Gae],
        &[Do, Gae, Geol, YutThrow, Mo, Backdo, Do, Gae],
    ] {
        let mut s = Script::setup(Yut::new(Checked), &options, 2, 1).unwrap();
        s.set_turn(0)
            .place(0, 3, 1, &[])
            .place(0, 7, 1, &[])
            .place(0, 22, 1, &[1, 2, 3, 4, 5, 20, 21, 22])
            .place(0, 12, 1, &[])
            .set_move(pending);
        let listed = s.game.legal_actions(&s.state, 0);
        assert!(!listed.is_empty());
        for seed in 0..16 {
            let mut picker = game_core::GameRng::from_seed(seed);
            let mut drawer = picker.clone();
            let picked = s.game.random_legal_action(&s.state, 0, &mut picker);
            let drawn = listed[drawer.below(listed.len() as u32) as usize];
            assert_eq!(picked, Some(drawn), "{pending:?}, seed {seed}");
            assert!(
                picker == drawer,
                "{pending:?}, seed {seed}: other words drawn"
            );
        }
        if pending.len() == 8 {
            assert_eq!(
                listed.len(),
                4 * 8 + 7,
                "more moves than the one pass keeps"
            );
        }
    }
}
