//! Any action from anyone at any phase, for all three games: every action kind with every
//! argument (throw indices up to `u32::MAX`, nodes up to 255, candidates out of range,
//! every hand), from every seated player, from spectators and unknown ids, by seat numbers
//! past the table, with stale and future `turnSeq`s, with forced chance outcomes, in every
//! phase including after the game ended. Each is accepted — and then the state passes the
//! check — or refused with a typed error and the state left exactly as it was. Only the
//! player whose turn it is acts (concede aside); spectators never do.

use benches::fuzz::assert_typed;
use game_core::rps::{Hand, Rps, RpsAction, RpsOptions};
use game_core::{Bot, Game, GameError, RandomBot};
use yut::{Origin, Phase, ThrowChance, Yut, YutAction, YutOptions};
use yut_augments::AugmentAction;

/// Ids that are not seated: a spectator, the empty id, near misses, an oversized id.
fn strangers() -> Vec<String> {
    vec![
        "watcher".into(),
        String::new(),
        "P0".into(),
        "p0 ".into(),
        "p0\u{0}".into(),
        "x".repeat(4_096),
    ]
}

/// What hammering one state found.
#[derive(Debug, Default)]
struct Tally {
    accepted: usize,
    refused: usize,
}

/// Tries every input on copies of `state`; panics if one is untyped, changes a state it
/// refused, leaves an accepted state invalid, or lets the wrong player act.
fn hammer<G: Game>(
    game: &G,
    state: &G::State,
    actions: &[G::Action],
    chances: &[G::Chance],
    may_act: impl Fn(&G::State, usize, &G::Action) -> bool,
    tally: &mut Tally,
) {
    let players = game.table(state).players.clone();
    let seq = game.turn_seq(state);
    let mut check = |r: Result<Vec<G::Event>, G::Error>, copy: &G::State, what: &str| match r {
        Ok(_) => {
            tally.accepted += 1;
            game.check_state(copy)
                .unwrap_or_else(|e| panic!("{what}: accepted into an invalid state: {e:?}"));
        }
        Err(e) => {
            tally.refused += 1;
            assert_typed(&e.body());
            assert!(
                copy == state,
                "{what}: refused ({}) but changed the state",
                e.code()
            );
        }
    };
    for action in actions {
        for (seat, p) in players.iter().enumerate() {
            let mut copy = state.clone();
            let r = game.apply(&mut copy, p, action, 5_000);
            if r.is_ok() {
                assert!(
                    may_act(state, seat, action),
                    "seat {seat} acted out of turn: {action:?}"
                );
            }
            check(r, &copy, &format!("{p} {action:?}"));
            for stale in [seq.wrapping_sub(1), seq.wrapping_add(1), u64::MAX] {
                let mut copy = state.clone();
                let err = game
                    .apply_at(&mut copy, p, action, stale, 5_000)
                    .unwrap_err();
                assert_eq!(err.code(), "STALE_TURN_SEQ");
                check(Err(err), &copy, "stale");
            }
        }
        for p in strangers() {
            let mut copy = state.clone();
            let err = game.apply(&mut copy, &p, action, 5_000).unwrap_err();
            assert_eq!(err.code(), "NOT_SEATED", "{p:?} {action:?}");
            check(Err(err), &copy, "stranger");
            let mut copy = state.clone();
            let err = game
                .apply_at(&mut copy, &p, action, seq, 5_000)
                .unwrap_err();
            assert_eq!(err.code(), "NOT_SEATED");
            check(Err(err), &copy, "stranger at seq");
        }
        for seat in [players.len(), players.len() + 1, 255, usize::MAX] {
            let mut copy = state.clone();
            let err = game.apply_seat(&mut copy, seat, action, 5_000).unwrap_err();
            // Yut Nori answers the end of the game first.
            assert!(
                ["NOT_SEATED", "GAME_OVER"].contains(&err.code()),
                "seat {seat} {action:?}: {err:?}"
            );
            check(Err(err), &copy, "seat past the table");
        }
        for chance in chances {
            for seat in 0..=players.len() {
                let mut copy = state.clone();
                let r = game.apply_chance(&mut copy, seat, action, chance, 5_000);
                if r.is_ok() {
                    assert!(may_act(state, seat, action), "chance out of turn");
                }
                check(r, &copy, &format!("chance {chance:?} {action:?}"));
            }
        }
    }
    for p in strangers() {
        let mut copy = state.clone();
        let err = game.set_connected(&mut copy, &p, false, 0).unwrap_err();
        assert_eq!(err.code(), "NOT_SEATED");
        check(Err(err), &copy, "presence of a stranger");
    }
    // The clock at the end of time takes due timeouts without overflowing anywhere.
    let mut copy = state.clone();
    for applied in game.tick(&mut copy, u64::MAX) {
        assert!(applied.auto);
    }
    game.check_state(&copy).unwrap();
}

/// States of a game in every phase it has, from seeded random play (two games, so that
/// the end is reached by points as well as by a concession where the game allows it).
fn states_by_phase<G: Game>(
    game: &G,
    options: &G::Options,
    n: usize,
    phase: impl Fn(&G::State) -> String,
) -> Vec<G::State> {
    let ids: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    let mut out: Vec<G::State> = Vec::new();
    let mut seen = Vec::new();
    for seed in [1u64, 2] {
        let mut state = game.setup(options, &ids, seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..5_000u64 {
            let key = phase(&state);
            if !seen.contains(&key) {
                seen.push(key);
                out.push(state.clone());
            }
            let Some(&seat) = game.to_act(&state).first() else {
                break;
            };
            let action = bot.choose(game, &state, seat).unwrap();
            game.apply_seat(&mut state, seat, &action, step).unwrap();
        }
        if seed == 2 {
            // A game ended by a concession.
            let mut state = game.setup(options, &ids, seed, 0).unwrap();
            let concede = conceded(game, &mut state);
            if concede {
                out.push(state);
            }
        }
    }
    out
}

/// Concedes for every seat but the last until the game is over; whether it worked.
fn conceded<G: Game>(game: &G, state: &mut G::State) -> bool {
    let n = game.table(state).players.len();
    for seat in 0..n - 1 {
        for a in game
            .legal_actions(state, seat)
            .into_iter()
            .chain(std::iter::once_with(|| {
                serde_json::from_value(serde_json::json!({ "type": "CONCEDE" })).unwrap()
            }))
        {
            if serde_json::to_value(&a).unwrap()["type"] == "CONCEDE" {
                game.apply_seat(state, seat, &a, 0).unwrap();
                break;
            }
        }
    }
    game.is_over(state)
}

fn yut_actions<X: Clone>(rule: &[X]) -> Vec<YutAction<X>> {
    let mut out = vec![YutAction::Throw, YutAction::Concede];
    for throw_index in [0, 1, 3, u32::MAX] {
        for from in (0..=29u8)
            .chain([200, 255])
            .map(Origin::Node)
            .chain([Origin::HOME])
        {
            out.push(YutAction::Move { throw_index, from });
        }
    }
    out.extend(rule.iter().cloned().map(YutAction::Rule));
    out
}

/// In Yut Nori only the seat to act acts; anyone still playing may concede.
fn yut_may_act<R: yut::Rules>(
    state: &yut::YutState<R>,
    seat: usize,
    action: &YutAction<R::Action>,
) -> bool {
    matches!(action, YutAction::Concede) || state.board.current_seat() == seat
}

fn yut_phase<R: yut::Rules>(state: &yut::YutState<R>) -> String {
    format!("{:?}", state.board.phase)
}

#[test]
fn standard_yut_in_every_phase() {
    let game = Yut::standard();
    let actions = yut_actions(&[]);
    // Individual play, and team play (where only the member whose turn it is acts).
    for (mode, n) in [(yut::Mode::Individual, 3), (yut::Mode::Team, 4)] {
        let options = YutOptions {
            mode,
            nak_percent: 10,
            ..YutOptions::default()
        };
        let states = states_by_phase(&game, &options, n, yut_phase);
        let phases: Vec<_> = states.iter().map(|s| s.board.phase).collect();
        for p in [Phase::Throw, Phase::Move, Phase::Finished] {
            assert!(phases.contains(&p), "{phases:?}");
        }
        let mut tally = Tally::default();
        for state in &states {
            hammer(
                &game,
                state,
                &actions,
                &ThrowChance::ALL,
                yut_may_act,
                &mut tally,
            );
        }
        assert!(
            tally.accepted > 0 && tally.refused > 10 * tally.accepted,
            "{tally:?}"
        );
    }
}

#[test]
fn augmented_yut_in_every_phase() {
    let game = yut_augments::game();
    let states = states_by_phase(&game, &yut_augments::app_options(), 2, yut_phase);
    let phases: Vec<_> = states.iter().map(|s| s.board.phase).collect();
    for p in [Phase::Rule, Phase::Throw, Phase::Move, Phase::Finished] {
        assert!(phases.contains(&p), "{phases:?}");
    }
    let rule: Vec<AugmentAction> = [0, 1, 2, 3, u32::MAX]
        .into_iter()
        .map(|index| AugmentAction::ChooseAugment { index })
        .collect();
    let actions = yut_actions(&rule);
    let mut tally = Tally::default();
    for state in &states {
        hammer(
            &game,
            state,
            &actions,
            &ThrowChance::ALL,
            yut_may_act,
            &mut tally,
        );
    }
    assert!(
        tally.accepted > 0 && tally.refused > 10 * tally.accepted,
        "{tally:?}"
    );
}

#[test]
fn rps_in_every_phase() {
    let options = RpsOptions {
        wins_needed: 2,
        ..RpsOptions::default()
    };
    let states = states_by_phase(&Rps, &options, 2, |s| {
        format!(
            "{:?} {:?}",
            s.picks.map(|p| p.is_some()),
            s.winner.is_some()
        )
    });
    assert!(states.len() >= 4, "{}", states.len());
    let actions = [
        RpsAction::Pick { hand: Hand::Rock },
        RpsAction::Pick { hand: Hand::Paper },
        RpsAction::Pick {
            hand: Hand::Scissors,
        },
        RpsAction::Random,
        RpsAction::Concede,
    ];
    let mut tally = Tally::default();
    for state in &states {
        // Both seats pick at the same time; each only for itself (checked by `picks`).
        hammer(
            &Rps,
            state,
            &actions,
            &Hand::ALL,
            |_, _, _| true,
            &mut tally,
        );
    }
    assert!(
        tally.accepted > 0 && tally.refused > tally.accepted,
        "{tally:?}"
    );
}
