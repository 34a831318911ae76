//! Deadlines and presence: the engine acts for a slow or disconnected player, marks a player
//! away after three timeouts in a row, and never acts early.

use game_core::GameExt;
use game_core::GameState;
use game_core::testing::players;
use game_core::{
    AWAY_AFTER_TIMEOUTS, Game, GameError, Viewer,
    rps::{Hand, Rps, RpsAction, RpsEvent, RpsOptions, RpsState},
};

fn setup(turn_seconds: Option<u32>, now: u64) -> RpsState {
    let options = RpsOptions {
        wins_needed: 9,
        turn_seconds,
    };
    Rps.setup(&options, &players(2), 11, now).unwrap()
}

fn rock() -> RpsAction {
    RpsAction::Pick { hand: Hand::Rock }
}

#[test]
fn setup_asks_with_the_turn_limit() {
    let state = setup(Some(15), 1_000);
    assert_eq!(Rps.deadline(&state), Some(16_000));
    assert_eq!(
        Rps.view(&state, Viewer::Spectator).deadline_at,
        Some(16_000)
    );
    assert_eq!(Rps.deadline(&setup(None, 1_000)), None);
}

#[test]
fn tick_before_the_deadline_does_nothing() {
    let mut state = setup(Some(15), 0);
    Rps.apply(&mut state, 0, &rock(), 1_000).unwrap();
    let before = state.clone();
    for now in [0, 1_000, 14_999] {
        assert!(Rps.timeouts(&state, now).is_empty());
        assert!(Rps.tick(&mut state, now).is_empty());
        assert_eq!(state, before);
    }
}

#[test]
fn deadline_picks_for_the_slow_player_only() {
    let mut state = setup(Some(15), 0);
    Rps.apply(&mut state, 0, &rock(), 1_000).unwrap();
    assert_eq!(Rps.timeout_action(&state, 0), None);
    assert_eq!(Rps.timeout_action(&state, 1), Some(RpsAction::Random));
    assert_eq!(Rps.timeouts(&state, 15_000), vec![(1, RpsAction::Random)]);

    let done = Rps.tick(&mut state, 15_000);
    assert_eq!(done.len(), 1);
    let applied = &done[0];
    assert_eq!(applied.player, "p1");
    assert_eq!(applied.action, RpsAction::Random);
    assert!(applied.auto);
    assert_eq!(applied.events[0], RpsEvent::Picked { player: 1 });
    assert!(matches!(
        applied.events[1],
        RpsEvent::Revealed {
            hands: [Hand::Rock, _],
            ..
        }
    ));
    assert_eq!(Rps.turn_seq(&state), 2);
    assert_eq!(state.table().presence()[0].timeouts_in_row, 0);
    assert_eq!(state.table().presence()[1].timeouts_in_row, 1);
    // The next round has a fresh clock from the tick.
    assert_eq!(Rps.deadline(&state), Some(30_000));
    assert!(Rps.tick(&mut state, 29_999).is_empty());
}

#[test]
fn deadline_picks_for_both_when_nobody_picked() {
    let mut state = setup(Some(5), 0);
    let done = Rps.tick(&mut state, 7_000);
    assert_eq!(done.len(), 2);
    assert_eq!(
        done.iter().map(|a| a.player.as_str()).collect::<Vec<_>>(),
        ["p0", "p1"]
    );
    assert!(matches!(done[1].events[1], RpsEvent::Revealed { .. }));
    assert_eq!(state.last_round().map(|r| r.hands.len()), Some(2));
    assert_eq!(Rps.to_act(&state), [0, 1]);
    assert_eq!(Rps.deadline(&state), Some(12_000));
}

#[test]
fn disconnected_player_is_acted_for_after_grace_without_deadline() {
    let mut state = setup(None, 0);
    assert_eq!(Rps.grace_ms(), 5_000);
    // Nobody is ever acted for while connected, with no time limit.
    assert!(Rps.tick(&mut state, u64::MAX).is_empty());

    Rps.set_connected(&mut state, "p1", false, 2_000).unwrap();
    assert!(!Rps.view(&state, Viewer::Spectator).seats[1].connected);
    assert!(Rps.tick(&mut state, 6_999).is_empty());
    let done = Rps.tick(&mut state, 7_000);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].player, "p1");
    assert_eq!(done[0].action, RpsAction::Random);
    // p0, connected, is still waited for.
    assert!(Rps.tick(&mut state, u64::MAX).is_empty());
    assert_eq!(Rps.to_act(&state), [0]);

    // The next round: the grace counts from the start of the decision.
    Rps.apply(&mut state, 0, &rock(), 100_000).unwrap();
    assert!(Rps.tick(&mut state, 104_999).is_empty());
    assert_eq!(Rps.tick(&mut state, 105_000).len(), 1);
}

#[test]
fn disconnection_counts_grace_within_a_deadline() {
    let mut state = setup(Some(60), 0);
    Rps.set_connected(&mut state, "p0", false, 10_000).unwrap();
    // A second disconnection notice does not restart the grace period.
    Rps.set_connected(&mut state, "p0", false, 12_000).unwrap();
    assert!(Rps.tick(&mut state, 14_999).is_empty());
    let done = Rps.tick(&mut state, 15_000);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].player, "p0");
}

#[test]
fn reconnecting_cancels_the_grace_period() {
    let mut state = setup(None, 0);
    Rps.set_connected(&mut state, "p1", false, 1_000).unwrap();
    Rps.set_connected(&mut state, "p1", true, 3_000).unwrap();
    assert!(Rps.view(&state, Viewer::Spectator).seats[1].connected);
    assert!(Rps.tick(&mut state, 1_000_000).is_empty());
    assert_eq!(
        Rps.set_connected(&mut state, "zed", false, 0).unwrap_err(),
        game_core::Rejection::NotSeated {
            player: "zed".into()
        }
        .into()
    );
}

#[test]
fn three_timeouts_in_a_row_mark_away_and_an_action_clears_it() {
    let mut state = setup(Some(10), 0);
    let mut now = 0;
    for round in 1..=u32::from(AWAY_AFTER_TIMEOUTS) {
        assert!(!state.table().presence()[1].away, "round {round}");
        Rps.apply(&mut state, 0, &rock(), now + 1).unwrap();
        now = Rps.deadline(&state).unwrap();
        assert_eq!(Rps.tick(&mut state, now).len(), 1);
        assert_eq!(
            state.table().presence()[1].timeouts_in_row,
            u8::try_from(round).unwrap()
        );
    }
    assert!(state.table().presence()[1].away);
    assert!(!state.table().presence()[0].away);
    assert!(Rps.view(&state, Viewer::Player("p0")).seats[1].away);
    // Play goes on for an away player: a fourth timeout keeps them away.
    Rps.apply(&mut state, 0, &rock(), now + 1).unwrap();
    now = Rps.deadline(&state).unwrap();
    assert_eq!(Rps.tick(&mut state, now).len(), 1);
    assert!(state.table().presence()[1].away);

    // A manual action brings them back.
    Rps.apply(&mut state, 1, &RpsAction::Random, now + 1)
        .unwrap();
    assert!(!state.table().presence()[1].away);
    assert_eq!(state.table().presence()[1].timeouts_in_row, 0);
    assert!(!Rps.view(&state, Viewer::Spectator).seats[1].away);
}

#[test]
fn no_timeouts_after_the_game_is_over() {
    let mut state = setup(Some(5), 0);
    Rps.apply(&mut state, 1, &RpsAction::Concede, 1_000)
        .unwrap();
    assert_eq!(Rps.deadline(&state), None);
    Rps.set_connected(&mut state, "p0", false, 1_000).unwrap();
    assert!(Rps.tick(&mut state, u64::MAX).is_empty());
    assert_eq!(Rps.timeout_action(&state, 0), None);
    assert_eq!(Rps.timeout_action(&state, 1), None);
}

#[test]
fn a_restored_time_or_turn_seq_past_what_play_reaches_is_refused() {
    let state = setup(Some(15), 1_000);
    let json = serde_json::to_string(&state).unwrap();
    assert!(Rps.restore(&json).is_ok());
    let past = (game_core::MAX_TIME + 1).to_string();
    for (field, value) in [
        ("\"clock\":1000", format!("\"clock\":{past}")),
        (
            "\"decisionSince\":1000",
            format!("\"decisionSince\":{past}"),
        ),
        (
            "\"disconnectedAt\":null",
            format!("\"disconnectedAt\":{past}"),
        ),
        (
            "\"deadlineAt\":16000",
            format!("\"deadlineAt\":{}", u64::MAX),
        ),
        (
            "\"deadlineAt\":16000",
            format!("\"deadlineAt\":{}", game_core::MAX_SAFE_INTEGER + 1),
        ),
        (
            "\"turnSeq\":0",
            format!("\"turnSeq\":{}", game_core::MAX_SAFE_INTEGER + 1),
        ),
    ] {
        assert!(json.contains(field), "{field}");
        let tampered = json.replacen(field, &value, 1);
        let err = Rps.restore(&tampered).unwrap_err();
        assert_eq!(err.code(), "CORRUPT_STATE", "{field}: {err:?}");
    }
}

#[test]
fn a_restored_state_with_an_unknown_field_is_refused() {
    let state = setup(Some(15), 1_000);
    let json = serde_json::to_string(&state).unwrap();
    // Each a field no stored form has: at the top, in the table, a presence, the RNG.
    for (at, with) in [
        ("{", "{\"extra\":1,"),
        ("\"clock\":", "\"Clock\":5,\"clock\":"),
        ("\"away\":", "\"extra\":1,\"away\":"),
        ("\"word_pos\":", "\"extra\":1,\"word_pos\":"),
    ] {
        assert!(json.contains(at), "{at}");
        let tampered = json.replacen(at, with, 1);
        let err = Rps.restore(&tampered).unwrap_err();
        assert_eq!(err.code(), "CORRUPT_STATE", "{tampered}: {err:?}");
    }
}

#[test]
fn many_seats_are_judged_in_linear_time_with_the_same_answer() {
    // Pair by pair, 100,000 ids took 20 s; a set takes a blink. The first seat with an
    // earlier seat's id is named, as for a few seats.
    let mut ids: Vec<String> = (0..100_000).map(|i| format!("{i:06}z")).collect();
    assert!(game_core::Table::new(&ids, 1, 0).is_ok());
    ids[70_000] = ids[123].clone();
    ids[90_000] = ids[5].clone();
    match game_core::Table::new(&ids, 1, 0) {
        Err(game_core::Rejection::BadPlayers { detail }) => {
            assert!(detail.contains("000123z"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
    let few: Vec<String> = ["a", "b", "a"].map(String::from).into();
    assert!(game_core::Table::new(&few, 1, 0).is_err());
}
