//! A refused action changes nothing: not the state, not its serialized form, not the record.

use game_core::GameExt;
use game_core::testing::players;
use game_core::{
    Game, GameError, Match,
    rps::{Hand, Rps, RpsAction, RpsOptions, RpsState},
};

fn new_state() -> RpsState {
    Rps.setup(&RpsOptions::default(), &players(2), 42, 0)
        .unwrap()
}

fn pick(hand: Hand) -> RpsAction {
    RpsAction::Pick { hand }
}

/// Applies `action` for `player` and checks it is refused with `code` and changes nothing.
#[track_caller]
fn assert_refused(state: &mut RpsState, player: &str, action: RpsAction, code: &str) {
    let before = state.clone();
    let before_json = serde_json::to_string(&*state).unwrap();
    let err = Rps
        .seat(state, player)
        .and_then(|seat| Rps.apply(state, seat, &action, 1_000))
        .unwrap_err();
    assert_eq!(err.code(), code, "{action:?} by {player}: {err}");
    assert!(!err.message().is_empty());
    assert_eq!(*state, before);
    assert_eq!(serde_json::to_string(&*state).unwrap(), before_json);
}

#[test]
fn wrong_player_is_refused() {
    let mut state = new_state();
    assert_refused(&mut state, "zed", pick(Hand::Rock), "NOT_SEATED");
    assert_refused(&mut state, "", RpsAction::Random, "NOT_SEATED");
    assert_refused(&mut state, "ANN", RpsAction::Concede, "NOT_SEATED");
}

#[test]
fn spectator_cannot_act() {
    let mut state = new_state();
    for action in [pick(Hand::Paper), RpsAction::Random, RpsAction::Concede] {
        assert_refused(&mut state, "spectator", action, "NOT_SEATED");
    }
    // By seat, a seat that does not exist is refused the same way.
    let before = state.clone();
    let err = Rps.apply(&mut state, 2, &RpsAction::Random, 5).unwrap_err();
    assert_eq!(err.code(), "NOT_SEATED");
    assert_eq!(state, before);
}

#[test]
fn already_picked_is_refused() {
    let mut state = new_state();
    Rps.apply(&mut state, 0, &pick(Hand::Rock), 10).unwrap();
    assert_refused(&mut state, "p0", pick(Hand::Paper), "ALREADY_PICKED");
    assert_refused(&mut state, "p0", pick(Hand::Rock), "ALREADY_PICKED");
    assert_refused(&mut state, "p0", RpsAction::Random, "ALREADY_PICKED");
    // The message is the friendly Korean one.
    let err = Rps
        .apply(&mut state.clone(), 0, &RpsAction::Random, 0)
        .unwrap_err();
    assert_eq!(err.message(), "이미 골랐어요. 상대를 기다려 주세요.");
}

#[test]
fn actions_after_game_over_are_refused() {
    // Won on points.
    let options = RpsOptions {
        wins_needed: 1,
        ..RpsOptions::default()
    };
    let mut state = Rps.setup(&options, &players(2), 1, 0).unwrap();
    Rps.apply(&mut state, 0, &pick(Hand::Rock), 10).unwrap();
    Rps.apply(&mut state, 1, &pick(Hand::Scissors), 20).unwrap();
    assert!(Rps.is_over(&state));
    for player in ["p0", "p1"] {
        for action in [pick(Hand::Rock), RpsAction::Random, RpsAction::Concede] {
            assert_refused(&mut state, player, action, "GAME_OVER");
        }
    }
    assert_refused(&mut state, "zed", RpsAction::Random, "NOT_SEATED");

    // Ended by a concession.
    let mut state = new_state();
    Rps.apply(&mut state, 1, &RpsAction::Concede, 10).unwrap();
    assert_refused(&mut state, "p0", pick(Hand::Paper), "GAME_OVER");
    assert_refused(&mut state, "p1", RpsAction::Concede, "GAME_OVER");
}

#[test]
fn stale_turn_seq_is_refused() {
    let mut state = new_state();
    Rps.apply(&mut state, 0, &pick(Hand::Rock), 10).unwrap();
    let before = state.clone();
    for seq in [0, 2, u64::MAX] {
        let err = Rps
            .play(
                &mut state,
                1,
                &pick(Hand::Rock),
                Some(seq),
                20,
                &mut Vec::new(),
            )
            .result
            .unwrap_err();
        assert_eq!(err.code(), "STALE_TURN_SEQ");
        assert_eq!(
            err.reason().unwrap(),
            serde_json::json!({ "got": seq, "expected": 1 })
        );
        assert_eq!(state, before);
    }
    // The current number goes through.
    Rps.play(
        &mut state,
        1,
        &pick(Hand::Rock),
        Some(1),
        20,
        &mut Vec::new(),
    )
    .result
    .unwrap();
}

#[test]
fn impossible_chance_is_refused() {
    let mut state = new_state();
    let before = state.clone();
    // A pick involves no chance at all.
    let err = Rps
        .apply_chance(&mut state, 0, &pick(Hand::Rock), &Hand::Rock, 10)
        .unwrap_err();
    assert_eq!(err.code(), "IMPOSSIBLE_OUTCOME");
    assert_eq!(state, before);
    // A chance step is still validated first.
    Rps.apply(&mut state, 0, &pick(Hand::Rock), 10).unwrap();
    let before = state.clone();
    let err = Rps
        .apply_chance(&mut state, 0, &RpsAction::Random, &Hand::Paper, 20)
        .unwrap_err();
    assert_eq!(err.code(), "ALREADY_PICKED");
    assert_eq!(state, before);
}

#[test]
fn match_does_not_record_refused_actions() {
    let mut m = Match::new(Rps, RpsOptions::default(), players(2), 3, 0).unwrap();
    m.act("p0", &pick(Hand::Rock), 10).unwrap();
    let (state, record) = (m.state().clone(), m.record().clone());
    assert_eq!(
        m.act("p0", &pick(Hand::Rock), 20).unwrap_err().code(),
        "ALREADY_PICKED"
    );
    assert_eq!(
        m.act("zed", &RpsAction::Random, 20).unwrap_err().code(),
        "NOT_SEATED"
    );
    assert_eq!(
        m.act_at("p1", &RpsAction::Random, 0, 20)
            .unwrap_err()
            .code(),
        "STALE_TURN_SEQ"
    );
    assert_eq!(
        m.set_connected("zed", false, 20).result.unwrap_err().code(),
        "NOT_SEATED"
    );
    assert_eq!(m.state(), &state);
    assert_eq!(m.record(), &record);
}
