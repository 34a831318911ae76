//! Random games with random packs: after every step the base invariants
//! (`Game::check_state`, which includes the layer's own check) hold, every legal action is
//! accepted, the view serializes without the RNG; a state restored from JSON mid-game
//! continues identically, and the whole run replays exactly from the seed.

mod common;

use game_core::GameExt;
use game_core::{Game, GameError, Millis, Viewer};
use proptest::prelude::*;
use yut::rules::WithRules;
use yut::{Phase, Yut, YutAction, YutState};
use yut_augments::{AugmentAction, AugmentConfig, Augments, Slot};

type Action = YutAction<AugmentAction>;

/// One thing done to the game, recorded for the replay.
#[derive(Clone, Debug)]
enum Op {
    Apply(usize, Action, Millis),
    Tick(Millis),
}

fn run(game: &Yut<Augments>, state: &mut YutState<Augments>, ops: &[Op]) {
    for op in ops {
        match op {
            Op::Apply(seat, action, now) => {
                game.apply(state, *seat, action, *now)
                    .expect("replayed action");
            }
            Op::Tick(now) => {
                game.tick(state, *now);
            }
        }
    }
}

/// The layer's invariants beyond `check_state`.
fn layer_invariants(state: &YutState<Augments>, config: &AugmentConfig) {
    let board = &state.board();
    for (i, mine) in state.rules().sides.iter().enumerate() {
        for o in &mine.owned {
            assert!(
                config.enabled(o.id),
                "side {i} owns {} which is not enabled",
                o.id
            );
        }
        if !config.cushion {
            assert!(!mine.cushion);
        }
        if !config.truce {
            assert!(!mine.truce && !mine.truce_owed);
        }
        let drafted = Slot::ALL
            .iter()
            .filter(|s| board.sides()[i].turns >= s.turn() && !config.pool(**s).is_empty())
            .count();
        let open = state
            .rules()
            .draft
            .as_ref()
            .is_some_and(|d| usize::from(d.side) == i);
        assert!(
            mine.owned.len() + usize::from(open) <= drafted,
            "side {i} owns more than it drafted"
        );
    }
    if board.phase() == Phase::Rule {
        assert!(state.rules().draft.is_some());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_packs_keep_the_invariants_and_restore_identically(
        (base, n) in common::random::options(),
        config in common::random::pack(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 500),
        cut in 0usize..500,
    ) {
        let game = Yut::new(Augments);
        let players = yut::testing::players(n);
        let options = WithRules { base, rules: config.clone() };
        let start = game.setup(&options, &players, seed, 0).unwrap();
        let mut state = start.clone();
        game.check_state(&state).unwrap();
        let mut ops = Vec::new();
        let mut snapshot = None;
        let mut now: Millis = 0;
        for (step, &c) in choices.iter().enumerate() {
            if step == cut {
                snapshot = Some((serde_json::to_string(&state).unwrap(), ops.len()));
            }
            let Some(&seat) = game.to_act(&state).first() else { break };
            now += 700;
            if c % 9 == 0 {
                now = now.max(game.deadline(&state).unwrap_or(now));
                game.tick(&mut state, now);
                ops.push(Op::Tick(now));
            } else {
                let legal = game.legal_actions(&state, seat);
                prop_assert!(!legal.is_empty(), "nothing legal in {:?}", state.board().phase());
                // Now and then an out-of-range choice: refused, nothing changes.
                if c % 23 == 0 && state.board().phase() == Phase::Rule {
                    let before = state.clone();
                    let bad = YutAction::Rule(AugmentAction::ChooseAugment { index: 7 });
                    let err = game.apply(&mut state, seat, &bad, now).unwrap_err();
                    prop_assert_eq!(err.code(), "UNKNOWN_CANDIDATE");
                    prop_assert_eq!(&state, &before);
                }
                let action = legal[c as usize % legal.len()];
                game.apply(&mut state, seat, &action, now).unwrap();
                ops.push(Op::Apply(seat, action, now));
            }
            game.check_state(&state).unwrap();
            layer_invariants(&state, &config);
            let view = serde_json::to_string(&game.view(&state, Viewer::Spectator)).unwrap();
            prop_assert!(!view.contains("rng") && !view.contains("seed"));
        }
        // Restored from JSON mid-game, the game continues identically.
        if let Some((json, k)) = snapshot {
            let mut restored: YutState<Augments> = game.restore(&json).unwrap();
            game.check_state(&restored).unwrap();
            run(&game, &mut restored, &ops[k..]);
            prop_assert_eq!(&restored, &state);
        }
        // And the whole run replays from the seed.
        let mut replay = start;
        run(&game, &mut replay, &ops);
        prop_assert_eq!(&replay, &state);
    }
}

#[test]
fn a_tampered_layer_state_is_refused() {
    let game = Yut::new(Augments);
    let players = yut::testing::players(2);
    let mut state = game
        .setup(&yut_augments::app_options(), &players, 4, 0)
        .unwrap();
    let seat = game.to_act(&state)[0];
    game.apply(
        &mut state,
        seat,
        &YutAction::Rule(AugmentAction::ChooseAugment { index: 0 }),
        0,
    )
    .unwrap();
    let side = usize::from(state.board().current_side());
    let good = state.clone();
    let tamper = |f: &dyn Fn(&mut YutState<Augments>)| {
        let mut s = good.clone();
        f(&mut s);
        game.check_state(&s).unwrap_err().code()
    };
    assert_eq!(
        tamper(&|s| s.rules_mut().sides.pop().map(|_| ()).unwrap()),
        "CORRUPT_STATE"
    );
    assert_eq!(
        tamper(&|s| {
            let a = s.rules_mut().sides[side].owned[0].id;
            s.rules_mut().sides[side]
                .owned
                .set_uses_left(a, a.uses().map(|n| n + 1).or(Some(1)));
        }),
        "CORRUPT_STATE"
    );
    assert_eq!(
        tamper(&|s| s.rules_mut().sides[side].grant(yut_augments::Augment::YutLeap)),
        "CORRUPT_STATE",
        "a finish augment before the 12th turn"
    );
    assert_eq!(
        tamper(&|s| {
            s.rules_mut().sides[side].marks.push(40);
        }),
        "CORRUPT_STATE"
    );
    assert_eq!(
        tamper(&|s| s.rules_mut().sides[side].payback_owed = true),
        "CORRUPT_STATE"
    );
    assert_eq!(
        tamper(&|s| s.rules_mut().barred = Some(1 - side as u8)),
        "CORRUPT_STATE"
    );
    let err = game.restore(
        &serde_json::to_string(&good)
            .unwrap()
            .replace("\"cushion\":true", "\"cushion\":true,\"extra\":1"),
    );
    assert!(
        err.is_err(),
        "unknown fields in the layer's state are refused"
    );
}
