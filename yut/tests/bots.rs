//! The bots: the strong bot only ever returns legal actions, never touches (or depends on)
//! the RNG stored in the state and is reproducible from its seed; the policy bot is the
//! engine's timeout action; [`SeatBot`] dispatches to each kind.

use game_core::GameExt;
use game_core::GameState;
use game_core::{Bot, Game};
use yut::{BotKind, Mode, PolicyBot, Preset, SeatBot, StrongBot, Yut, YutAction, YutOptions};

/// Option sets the strong bot must handle.
fn option_sets() -> Vec<(YutOptions, usize)> {
    let standard = Preset::Standard.options();
    vec![
        (standard.clone(), 2),
        (Preset::App.options(), 2),
        (standard.clone(), 3),
        (
            YutOptions {
                mode: Mode::Team,
                nak_percent: 10,
                ..standard.clone()
            },
            4,
        ),
        (
            YutOptions {
                pieces: 2,
                finish_rule: yut::FinishRule::Reach,
                backdo_from_do: yut::BackdoFromDo::Finish,
                backdo: true,
                ..standard.clone()
            },
            2,
        ),
        (
            YutOptions {
                pieces: 5,
                backdo: false,
                backdo_capture_bonus: false,
                ranking: yut::Ranking::All,
                ..standard
            },
            3,
        ),
    ]
}

#[test]
fn the_strong_bot_plays_only_legal_actions_and_never_touches_the_rng() {
    let game = Yut::standard();
    for (k, (options, count)) in option_sets().into_iter().enumerate() {
        let players: Vec<String> = (1..=count).map(|i| format!("p{i}")).collect();
        let seed = 40 + k as u64;
        let mut state = game.setup(&options, &players, seed, 0).unwrap();
        let mut bots: Vec<StrongBot> = (0..count).map(|s| StrongBot::new(s as u64)).collect();
        let mut moves = 0;
        for _ in 0..5_000 {
            let Some(&seat) = game.to_act(&state).first() else {
                break;
            };
            let before = state.clone();
            // The RNG is the game's alone: read here from the stored table.
            let rng_before = serde_json::to_value(state.table()).unwrap()["rng"].clone();
            let action = bots[seat].choose(&game, &state, seat).unwrap();
            let rng_after = serde_json::to_value(state.table()).unwrap()["rng"].clone();
            assert_eq!(rng_after, rng_before, "the stored RNG was touched");
            assert_eq!(state, before, "the state was changed");
            assert!(
                game.legal_actions(&state, seat).contains(&action),
                "{options:?} seed {seed}: {action:?} is not legal"
            );
            moves += usize::from(matches!(action, YutAction::Move { .. }));
            game.apply(&mut state, seat, &action, 0).unwrap();
        }
        assert!(game.is_over(&state), "{options:?}: no end");
        assert!(moves > 0);
        let searched: u64 = bots.iter().map(|b| b.stats().searched).sum();
        assert!(searched > 0, "{options:?}: never had a choice");
    }
}

#[test]
fn the_strong_bot_does_not_depend_on_the_stored_rng() {
    // The same position with differently seeded RNGs gets the same decision: the bot
    // cannot be reading the future from it.
    let game = Yut::standard();
    let players = vec!["a".to_string(), "b".to_string()];
    let mut state = game.setup(&YutOptions::default(), &players, 11, 0).unwrap();
    let mut policy = PolicyBot::default();
    let mut compared = 0;
    for _ in 0..400 {
        let Some(&seat) = game.to_act(&state).first() else {
            break;
        };
        if game.legal_actions(&state, seat).len() > 1 {
            let choices: Vec<_> = [1u64, 2, 3]
                .iter()
                .map(|&s| {
                    let copy = game.fork(&state, s);
                    StrongBot::new(5).choose(&game, &copy, seat)
                })
                .collect();
            assert!(choices.windows(2).all(|w| w[0] == w[1]), "{choices:?}");
            // And the same seed gives the same choice.
            assert_eq!(StrongBot::new(5).choose(&game, &state, seat), choices[0]);
            compared += 1;
        }
        let action = policy.choose(&game, &state, seat).unwrap();
        game.apply(&mut state, seat, &action, 0).unwrap();
    }
    assert!(compared > 5, "only {compared} real choices");
}

#[test]
fn the_policy_bot_is_the_engine_s_timeout_action() {
    let game = Yut::standard();
    let players = vec!["a".to_string(), "b".to_string()];
    let mut state = game.setup(&YutOptions::default(), &players, 3, 0).unwrap();
    let mut random = game_core::RandomBot::new(1);
    while let Some(&seat) = game.to_act(&state).first() {
        assert_eq!(
            PolicyBot::default().choose(&game, &state, seat),
            game.timeout_action(&state, seat)
        );
        let action = random.choose(&game, &state, seat).unwrap();
        game.apply(&mut state, seat, &action, 0).unwrap();
    }
}

#[test]
fn seat_bots_dispatch_to_each_bot() {
    // SeatBot dispatches to the three bots; each gives a legal action at a move decision.
    let game = Yut::standard();
    let players = vec!["a".to_string(), "b".to_string()];
    let mut state = game.setup(&YutOptions::default(), &players, 8, 0).unwrap();
    while state.board().phase() != yut::Phase::Move {
        let seat = game.to_act(&state)[0];
        game.apply(&mut state, seat, &YutAction::Throw, 0).unwrap();
    }
    let seat = game.to_act(&state)[0];
    for kind in [BotKind::Random, BotKind::Policy, BotKind::Strong] {
        let action = SeatBot::new(kind, 3).choose(&game, &state, seat).unwrap();
        assert!(game.validate(&state, seat, &action).is_ok(), "{kind:?}");
    }
}

#[test]
fn every_bot_chooses_the_same_behind_fair_as_on_the_state() {
    // Yut hides nothing but the throws to come: a world of a seat's information set is
    // the position with a fresh RNG, so the bots every host runs (behind `Fair`) lose
    // nothing. Whole games of each kind, each choice compared with the bare bot's.
    let game = Yut::standard();
    for (k, (options, count)) in option_sets().into_iter().take(4).enumerate() {
        let players: Vec<String> = (1..=count).map(|i| format!("p{i}")).collect();
        for kind in [BotKind::Policy, BotKind::Strong, BotKind::Random] {
            let mut state = game.setup(&options, &players, 70 + k as u64, 0).unwrap();
            let mut bare = SeatBot::new(kind, 9);
            let mut fair = game_core::Fair::new(SeatBot::new(kind, 9), 3);
            let mut compared = 0;
            for _ in 0..5_000 {
                let Some(&seat) = game.to_act(&state).first() else {
                    break;
                };
                let action = bare.choose(&game, &state, seat).unwrap();
                assert_eq!(fair.choose(&game, &state, seat), Some(action), "{kind:?}");
                compared += 1;
                game.apply(&mut state, seat, &action, 0).unwrap();
            }
            assert!(
                game.is_over(&state) && compared > 10,
                "{kind:?}: {compared}"
            );
        }
    }
}
