//! Whole games with the `app` preset and the full pack, driven by random legal actions: every
//! game ends, the state stays valid (its sides as their pieces say), and every augment and house rule takes effect somewhere
//! (철벽 업기 never fires an event: it only removes moves).

use game_core::GameExt;
use std::collections::HashSet;

use game_core::Game;
use yut::{Yut, YutEvent};
use yut_augments::{Augment, AugmentEvent, Augments, HouseRule, Source, app_options};

#[test]
fn app_games_run_to_the_end_and_every_augment_takes_effect() {
    let game = Yut::new(Augments);
    let mut seen = HashSet::new();
    for seed in 0..200u64 {
        let players = yut::testing::players(2 + (seed % 3) as usize);
        let mut state = game.setup(&app_options(), &players, seed, 0).unwrap();
        let mut k = seed;
        let mut over = false;
        for _ in 0..3_000 {
            let Some(&seat) = game.to_act(&state).first() else {
                over = true;
                break;
            };
            let legal = game.legal_actions(&state, seat);
            k = k
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let action = legal[(k >> 33) as usize % legal.len()];
            for e in game.apply(&mut state, seat, &action, 0).unwrap() {
                if let YutEvent::Rule(AugmentEvent::AugmentFired { id, .. }) = e {
                    seen.insert(id);
                }
            }
            game.check_state(&state).unwrap();
            // A side read back from its pieces one by one is the side: the places the
            // augments' moves (twin entries, cushions) leave are those of the pieces.
            for side in state.board().sides() {
                let json = serde_json::to_value(side).unwrap();
                let again: yut::Side = serde_json::from_value(json).unwrap();
                assert_eq!(&again, side, "seed {seed}");
            }
        }
        assert!(over, "seed {seed}: the game did not end");
        assert!(game.outcome(&state).is_some());
    }
    for a in Augment::ALL
        .into_iter()
        .filter(|&a| a != Augment::IronStack)
    {
        assert!(seen.contains(&Source::Augment(a)), "{a} never took effect");
    }
    assert!(!seen.contains(&Source::Augment(Augment::IronStack)));
    for h in [HouseRule::Cushion, HouseRule::Truce] {
        assert!(seen.contains(&Source::House(h)), "{h:?} never took effect");
    }
}

/// Quiet steps (what `Playout::quiet` play-outs use) leave app games exactly as steps with
/// events do: the rule events go to the log all the same.
#[test]
fn quiet_app_games_are_the_same_games() {
    let game = Yut::new(Augments);
    for n in 2..=4 {
        game_core::testing::assert_quiet_agrees(&game, &app_options(), n, 0..15);
    }
    let mut team = app_options();
    team.base.mode = yut::Mode::Team;
    game_core::testing::assert_quiet_agrees(&game, &team, 4, 0..10);
}

/// The legal actions by index (what `Choice::Legal` plays) are those of the list in app
/// games too: draft choices, and moves that a truce or 철벽 업기 forbids.
#[test]
fn app_legal_actions_by_index_are_those_of_the_list() {
    let game = Yut::new(Augments);
    for n in 2..=4 {
        game_core::testing::assert_legal_index_agrees(&game, &app_options(), n);
    }
}
