//! The rules of rock-paper-scissors to N wins: hidden simultaneous picks, draws replayed,
//! first to N wins, concessions, chance steps, options and state checks.

use game_core::GameExt;
use game_core::GameState;
use game_core::testing::players;
use game_core::{
    Game, GameError, Viewer,
    rps::{Hand, RevealedRound, Rps, RpsAction, RpsEvent, RpsOptions, RpsOutcome, RpsState},
};
use serde_json::json;

fn setup(wins_needed: u8) -> RpsState {
    let options = RpsOptions {
        wins_needed,
        ..RpsOptions::default()
    };
    Rps.setup(&options, &players(2), 1234, 0).unwrap()
}

fn pick(hand: Hand) -> RpsAction {
    RpsAction::Pick { hand }
}

/// Plays one round: p0 shows `a`, p1 shows `b`.
fn round(state: &mut RpsState, a: Hand, b: Hand, now: u64) -> Vec<RpsEvent> {
    let mut events = Rps.apply(state, 0, &pick(a), now).unwrap();
    events.extend(Rps.apply(state, 1, &pick(b), now + 1).unwrap());
    events
}

#[test]
fn hand_order() {
    use Hand::*;
    for (a, b, winner) in [
        (Rock, Scissors, Some(0)),
        (Scissors, Paper, Some(0)),
        (Paper, Rock, Some(0)),
        (Scissors, Rock, Some(1)),
        (Paper, Scissors, Some(1)),
        (Rock, Paper, Some(1)),
        (Rock, Rock, None),
        (Paper, Paper, None),
        (Scissors, Scissors, None),
    ] {
        assert_eq!(Hand::round_winner([a, b]), winner, "{a:?} vs {b:?}");
    }
}

#[test]
fn wire_formats() {
    let json = |a: &RpsAction| serde_json::to_value(a).unwrap();
    assert_eq!(
        json(&pick(Hand::Rock)),
        serde_json::json!({ "type": "PICK", "hand": "rock" })
    );
    assert_eq!(
        json(&RpsAction::Random),
        serde_json::json!({ "type": "RANDOM" })
    );
    assert_eq!(
        json(&RpsAction::Concede),
        serde_json::json!({ "type": "CONCEDE" })
    );
    assert_eq!(
        serde_json::from_str::<RpsAction>(r#"{"type":"PICK","hand":"scissors"}"#).unwrap(),
        pick(Hand::Scissors)
    );
    assert!(serde_json::from_str::<RpsAction>(r#"{"type":"PICK","hand":"Rock"}"#).is_err());
    let event = |e: &RpsEvent| serde_json::to_value(e).unwrap();
    assert_eq!(
        event(&RpsEvent::Revealed {
            hands: [Hand::Paper, Hand::Paper],
            winner: None
        }),
        serde_json::json!({ "type": "revealed", "hands": ["paper", "paper"], "winner": null })
    );
    assert_eq!(
        event(&RpsEvent::GameOver { winner: 1 }),
        serde_json::json!({ "type": "gameOver", "winner": 1 })
    );
    assert_eq!(
        event(&RpsEvent::Conceded { player: 0 }),
        serde_json::json!({ "type": "conceded", "player": 0 })
    );
}

#[test]
fn a_pick_is_hidden_until_the_reveal() {
    let mut state = setup(3);
    let events = Rps.apply(&mut state, 0, &pick(Hand::Scissors), 10).unwrap();
    // Events are broadcast: no hand in them.
    assert_eq!(events, vec![RpsEvent::Picked { player: 0 }]);
    assert!(!serde_json::to_string(&events).unwrap().contains("scissors"));

    let own = Rps.view(&state, Viewer::Player("p0"));
    assert_eq!(own.you, Some(0));
    assert_eq!(own.seats[0].hand, Some(Hand::Scissors));
    assert!(own.seats[0].picked);
    assert_eq!(own.legal_actions, vec![RpsAction::Concede]);
    for viewer in [
        Viewer::Player("p1"),
        Viewer::Spectator,
        Viewer::Player("zed"),
    ] {
        let view = Rps.view(&state, viewer);
        assert!(view.seats[0].picked);
        assert_eq!(view.seats[0].hand, None, "{viewer:?}");
        assert!(!view.seats[1].picked);
        assert_eq!(view.last_round, None);
    }
    assert_eq!(Rps.view(&state, Viewer::Spectator).you, None);
    assert!(Rps.view(&state, Viewer::Spectator).legal_actions.is_empty());
    assert_eq!(
        Rps.view(&state, Viewer::Player("p1")).legal_actions.len(),
        5
    );

    Rps.apply(&mut state, 1, &pick(Hand::Rock), 20).unwrap();
    for viewer in [
        Viewer::Player("p0"),
        Viewer::Player("p1"),
        Viewer::Spectator,
    ] {
        let view = Rps.view(&state, viewer);
        assert_eq!(
            view.last_round,
            Some(RevealedRound {
                hands: [Hand::Scissors, Hand::Rock],
                winner: Some(1)
            })
        );
        assert!(view.seats.iter().all(|s| !s.picked && s.hand.is_none()));
        assert_eq!(view.round, 2);
        assert_eq!(view.scores, [0, 1]);
    }
}

#[test]
fn picks_are_simultaneous_in_any_order() {
    for p0_first in [true, false] {
        let mut state = setup(3);
        assert_eq!(Rps.to_act(&state), [0, 1]);
        let (first, second) = if p0_first { (0, 1) } else { (1, 0) };
        Rps.apply(&mut state, first, &pick(Hand::Paper), 10)
            .unwrap();
        let waiting = usize::from(p0_first);
        assert_eq!(Rps.to_act(&state), [waiting]);
        let events = Rps
            .apply(&mut state, second, &pick(Hand::Rock), 20)
            .unwrap();
        let winner = usize::from(!p0_first);
        assert_eq!(events[0], RpsEvent::Picked { player: waiting });
        assert!(matches!(
            events[1],
            RpsEvent::Revealed { winner: Some(w), .. } if w == winner
        ));
        assert_eq!(state.scores()[winner], 1);
        assert_eq!(Rps.to_act(&state), [0, 1]);
    }
}

#[test]
fn a_draw_replays_the_round() {
    let mut state = setup(3);
    let events = round(&mut state, Hand::Rock, Hand::Rock, 1_000);
    assert_eq!(
        events[2],
        RpsEvent::Revealed {
            hands: [Hand::Rock, Hand::Rock],
            winner: None
        }
    );
    assert_eq!(events.len(), 3);
    assert_eq!(state.scores(), [0, 0]);
    assert_eq!(state.round(), 1);
    assert_eq!(Rps.to_act(&state), [0, 1]);
    assert_eq!(state.picks(), [None, None]);
    // A fresh clock for the replayed round.
    assert_eq!(Rps.deadline(&state), Some(16_001));
    assert_eq!(
        Rps.view(&state, Viewer::Spectator)
            .last_round
            .unwrap()
            .winner,
        None
    );
    round(&mut state, Hand::Paper, Hand::Rock, 2_000);
    assert_eq!(state.scores(), [1, 0]);
    assert_eq!(state.round(), 2);
}

#[test]
fn first_to_n_wins() {
    let mut state = setup(2);
    round(&mut state, Hand::Rock, Hand::Paper, 10);
    round(&mut state, Hand::Rock, Hand::Scissors, 20);
    assert!(!Rps.is_over(&state));
    round(&mut state, Hand::Rock, Hand::Rock, 30);
    let events = round(&mut state, Hand::Scissors, Hand::Paper, 40);
    assert_eq!(events.last(), Some(&RpsEvent::GameOver { winner: 0 }));
    assert_eq!(
        Rps.outcome(&state),
        Some(RpsOutcome {
            winner: "p0".into(),
            winner_seat: 0,
            scores: [2, 1],
            conceded: false
        })
    );
    assert!(Rps.is_over(&state));
    assert!(Rps.to_act(&state).is_empty());
    assert!(Rps.legal_actions(&state, 0).is_empty());
    assert!(Rps.legal_actions(&state, 1).is_empty());
    assert_eq!(Rps.deadline(&state), None);
    assert_eq!(Rps.view(&state, Viewer::Spectator).winner, Some(0));
    Rps.check_state(&state).unwrap();
}

#[test]
fn one_win_needed() {
    let mut state = setup(1);
    let events = round(&mut state, Hand::Paper, Hand::Scissors, 10);
    assert_eq!(events.last(), Some(&RpsEvent::GameOver { winner: 1 }));
    assert_eq!(Rps.outcome(&state).unwrap().winner, "p1");
}

#[test]
fn concede_ends_the_game() {
    let mut state = setup(3);
    round(&mut state, Hand::Paper, Hand::Rock, 10);
    // Conceding after one's own pick is allowed; the hidden pick is dropped unseen.
    Rps.apply(&mut state, 0, &pick(Hand::Rock), 20).unwrap();
    assert_eq!(Rps.legal_actions(&state, 0), vec![RpsAction::Concede]);
    let events = Rps.apply(&mut state, 0, &RpsAction::Concede, 30).unwrap();
    assert_eq!(
        events,
        vec![
            RpsEvent::Conceded { player: 0 },
            RpsEvent::GameOver { winner: 1 }
        ]
    );
    assert_eq!(
        Rps.outcome(&state),
        Some(RpsOutcome {
            winner: "p1".into(),
            winner_seat: 1,
            scores: [1, 0],
            conceded: true
        })
    );
    assert_eq!(state.picks(), [None, None]);
    assert_eq!(Rps.deadline(&state), None);
    assert_eq!(Rps.view(&state, Viewer::Spectator).conceded, Some(0));
    Rps.check_state(&state).unwrap();
}

#[test]
fn random_is_a_chance_step() {
    let state = setup(3);
    let chances = Rps.chances(&state, 0, &RpsAction::Random).unwrap();
    assert_eq!(
        chances.iter().map(|(h, _)| *h).collect::<Vec<_>>(),
        Hand::ALL
    );
    assert!(chances.iter().all(|(_, p)| (*p - 1.0 / 3.0).abs() < 1e-12));
    let total: f64 = chances.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert_eq!(Rps.chances(&state, 0, &pick(Hand::Rock)), None);
    assert_eq!(Rps.chances(&state, 0, &RpsAction::Concede), None);

    for hand in Hand::ALL {
        let mut forced = state.clone();
        let events = Rps
            .apply_chance(&mut forced, 1, &RpsAction::Random, &hand, 10)
            .unwrap();
        assert_eq!(events, vec![RpsEvent::Picked { player: 1 }]);
        assert_eq!(forced.picks(), [None, Some(hand)]);
        // The forced outcome does not draw from the RNG.
        assert_eq!(
            serde_json::to_value(forced.table()).unwrap()["rng"],
            serde_json::to_value(state.table()).unwrap()["rng"]
        );
        assert_eq!(Rps.turn_seq(&forced), 1);
    }
}

#[test]
fn random_draws_from_the_state_rng() {
    let state = setup(3);
    let mut a = state.clone();
    let mut b = state.clone();
    Rps.apply(&mut a, 0, &RpsAction::Random, 10).unwrap();
    Rps.apply(&mut b, 0, &RpsAction::Random, 10).unwrap();
    assert_eq!(a, b);
    assert!(a.picks()[0].is_some());
    assert_ne!(
        serde_json::to_value(a.table()).unwrap()["rng"],
        serde_json::to_value(state.table()).unwrap()["rng"]
    );

    // Over many seeds every hand comes up.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let mut s = Rps
            .setup(&RpsOptions::default(), &players(2), seed, 0)
            .unwrap();
        Rps.apply(&mut s, 1, &RpsAction::Random, 0).unwrap();
        seen.insert(s.picks()[1].unwrap());
    }
    assert_eq!(seen.len(), 3);

    // A fork re-seeds the RNG and nothing else.
    let fork = Rps.fork(&state, 99);
    assert_ne!(
        serde_json::to_value(fork.table()).unwrap()["rng"],
        serde_json::to_value(state.table()).unwrap()["rng"]
    );
    assert_eq!(fork.scores(), state.scores());
    assert_eq!(fork.table().players(), state.table().players());
}

#[test]
fn options_are_checked() {
    assert_eq!(
        RpsOptions::default(),
        RpsOptions {
            wins_needed: 3,
            turn_seconds: Some(15)
        }
    );
    let parse = |s: &str| serde_json::from_str::<RpsOptions>(s);
    assert_eq!(parse("{}").unwrap(), RpsOptions::default());
    assert_eq!(parse(r#"{"turnSeconds":null}"#).unwrap().turn_seconds, None);
    assert!(parse(r#"{"winsNeeded":3,"extra":1}"#).is_err());
    assert!(parse(r#"{"wins_needed":3}"#).is_err());

    for (wins_needed, turn_seconds, bad) in [
        (0, Some(15), Some("winsNeeded")),
        (10, Some(15), Some("winsNeeded")),
        (1, Some(4), Some("turnSeconds")),
        (9, Some(601), Some("turnSeconds")),
        (1, Some(0), Some("turnSeconds")),
        (1, Some(5), None),
        (9, Some(600), None),
        (5, None, None),
    ] {
        let options = RpsOptions {
            wins_needed,
            turn_seconds,
        };
        match (Rps.setup(&options, &players(2), 0, 0), bad) {
            (Ok(_), None) => {}
            (Err(e), Some(name)) => {
                assert_eq!(e.code(), "INVALID_OPTION");
                assert_eq!(e.reason().unwrap()["option"], name);
                assert!(e.message().contains(name));
            }
            (result, _) => panic!("{options:?}: {result:?}"),
        }
    }
}

#[test]
fn exactly_two_distinct_players() {
    for players in [
        vec![],
        vec!["a".to_string()],
        vec!["a".into(), "b".into(), "c".into()],
    ] {
        let err = Rps
            .setup(&RpsOptions::default(), &players, 0, 0)
            .unwrap_err();
        assert_eq!(err.code(), "BAD_PLAYER_COUNT");
        // The same code and reason as every game's wrong player count.
        assert_eq!(
            err.reason().unwrap(),
            serde_json::json!({ "players": players.len(), "allowed": [2] })
        );
        assert!(err.message().contains("2명이 할 수 있어요"));
    }
    let err = Rps
        .setup(&RpsOptions::default(), &["a".into(), "a".into()], 0, 0)
        .unwrap_err();
    assert_eq!(err.code(), "BAD_PLAYERS");
    let err = Rps
        .setup(&RpsOptions::default(), &["a".into(), String::new()], 0, 0)
        .unwrap_err();
    assert_eq!(err.code(), "BAD_PLAYERS");
}

#[test]
fn restore_round_trips_and_refuses_tampering() {
    let mut state = setup(3);
    round(&mut state, Hand::Paper, Hand::Rock, 10);
    Rps.apply(&mut state, 1, &pick(Hand::Scissors), 20).unwrap();
    let json = serde_json::to_string(&state).unwrap();
    assert_eq!(Rps.restore(&json).unwrap(), state);

    // Tampered as stored JSON: a state reaches the game only through `restore`, whose
    // checks (`check_state`) refuse every one.
    let value = serde_json::to_value(&state).unwrap();
    let tamper = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut bad = value.clone();
        f(&mut bad);
        let err = Rps.restore(&bad.to_string()).unwrap_err();
        assert_eq!(err.code(), "CORRUPT_STATE", "{bad}");
        err
    };
    tamper(&|s| s["scores"] = json!([4, 0]));
    tamper(&|s| s["scores"] = json!([0, 0]));
    tamper(&|s| s["scores"] = json!([1, 3]));
    tamper(&|s| s["picks"] = json!(["rock", "rock"]));
    tamper(&|s| s["winner"] = json!(1));
    tamper(&|s| s["winner"] = json!(7));
    tamper(&|s| s["conceded"] = json!(0));
    tamper(&|s| {
        s["winner"] = json!(0);
        s["conceded"] = json!(0);
        s["picks"] = json!([null, null]);
        s["table"]["deadlineAt"] = json!(null);
    });
    tamper(&|s| s["table"]["deadlineAt"] = json!(null));
    tamper(&|s| s["table"]["deadlineAt"] = json!(1));
    tamper(&|s| s["options"]["winsNeeded"] = json!(0));
    tamper(&|s| s["options"]["turnSeconds"] = json!(1));
    tamper(&|s| s["lastRound"] = json!({ "hands": ["rock", "paper"], "winner": 0 }));
    tamper(&|s| s["lastRound"] = json!(null));
    tamper(&|s| {
        s["table"]["players"]
            .as_array_mut()
            .unwrap()
            .push(json!("cy"))
    });
    tamper(&|s| s["table"]["players"][1] = json!("p0"));
    tamper(&|s| {
        s["table"]["presence"].as_array_mut().unwrap().pop();
    });
    tamper(&|s| s["table"]["presence"][0]["timeoutsInRow"] = json!(3));

    // A game over state is checked too.
    let mut over = setup(1);
    round(&mut over, Hand::Rock, Hand::Scissors, 10);
    Rps.check_state(&over).unwrap();
    let over = serde_json::to_value(&over).unwrap();
    let refused = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut bad = over.clone();
        f(&mut bad);
        assert_eq!(
            Rps.restore(&bad.to_string()).unwrap_err().code(),
            "CORRUPT_STATE"
        );
    };
    refused(&|s| s["picks"][0] = json!("rock"));
    refused(&|s| {
        s["table"]["decisionSince"] = json!(10);
        s["table"]["deadlineAt"] = json!(15_010);
    });
    refused(&|s| s["winner"] = json!(1));

    // JSON that does not even parse.
    assert_eq!(Rps.restore("{}").unwrap_err().code(), "CORRUPT_STATE");
    let bad = json.replace("\"scores\":[1,0]", "\"scores\":[1,300]");
    assert_ne!(bad, json);
    assert_eq!(Rps.restore(&bad).unwrap_err().code(), "CORRUPT_STATE");
}
