//! Every typed error of a rejected action (RULES.md, Views, events and errors): its stable
//! code, its Korean message, and that the state is left exactly as it was.

mod common;

use common::*;
use game_core::GameError;
use game_core::GameExt;
use yut::testing::Script;
use yut::{Mode, Phase, Throw, ThrowChance, YutAction, YutError, YutOptions};

/// Applies `action` as `player`, expects a refusal with `code` and `message`, and checks
/// that nothing changed (compared as serialized state, RNG included).
#[track_caller]
fn refused(s: &mut Script, player: &str, action: YutAction, code: &str, message: &str) -> YutError {
    let before = s.json();
    let clone = s.state.clone();
    let err = s
        .game
        .seat(&s.state, player)
        .and_then(|seat| s.game.apply(&mut s.state, seat, &action, s.now))
        .unwrap_err();
    assert_error(&err, code, message);
    assert_eq!(s.json(), before, "a refused {action:?} changed the state");
    assert_eq!(s.state, clone);
    err
}

const THROW: YutAction = YutAction::Throw;

const fn mv(throw_index: u32, from: yut::Origin) -> YutAction {
    YutAction::Move { throw_index, from }
}

#[test]
fn error_wrong_turn() {
    let mut s = Script::new(YutOptions::default(), 3);
    s.set_turn(0);
    for p in ["p1", "p2"] {
        refused(
            &mut s,
            p,
            THROW,
            "NOT_YOUR_TURN",
            "지금은 다른 사람 차례예요.",
        );
        refused(
            &mut s,
            p,
            mv(0, HOME),
            "NOT_YOUR_TURN",
            "지금은 다른 사람 차례예요.",
        );
    }
}

#[test]
fn error_wrong_phase() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0);
    refused(
        &mut s,
        "p0",
        mv(0, HOME),
        "NOT_MOVE_PHASE",
        "지금은 말을 움직일 차례가 아니에요.",
    );
    s.throw(ThrowChance::Gae);
    assert_eq!(s.phase(), Phase::Move);
    refused(
        &mut s,
        "p0",
        THROW,
        "NOT_THROW_PHASE",
        "지금은 윷을 던질 차례가 아니에요.",
    );
    // After a 윷 the player must throw again before moving.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0);
    s.throw(ThrowChance::Yut);
    refused(
        &mut s,
        "p0",
        mv(0, HOME),
        "NOT_MOVE_PHASE",
        "지금은 말을 움직일 차례가 아니에요.",
    );
}

#[test]
fn error_unknown_throw_index() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0).set_move(&[Throw::Gae, Throw::Do]);
    let err = refused(
        &mut s,
        "p0",
        mv(2, HOME),
        "UNKNOWN_THROW_INDEX",
        "그런 윷 결과는 없어요.",
    );
    assert_eq!(
        err.reason(),
        Some(serde_json::json!({ "throwIndex": 2, "pending": 2 }))
    );
    refused(
        &mut s,
        "p0",
        mv(u32::MAX, HOME),
        "UNKNOWN_THROW_INDEX",
        "그런 윷 결과는 없어요.",
    );
}

#[test]
fn error_piece_that_cannot_move() {
    let mut s = Script::new(opts(|o| o.pieces = 2), 2);
    s.set_turn(0)
        .place(0, 3, 1, &[])
        .place(1, 7, 1, &[])
        .set_move(&[Throw::Gae]);
    // An empty node, the opponent's stack, a node off the board.
    for node in [4, 7, 200] {
        let err = refused(
            &mut s,
            "p0",
            mv(0, at(node)),
            "CANNOT_MOVE",
            "그 말은 움직일 수 없어요.",
        );
        assert_eq!(err.reason(), Some(serde_json::json!({ "from": node })));
    }
    // Home with no piece waiting.
    s.place(0, 3, 1, &[]);
    assert_eq!(s.home(0), 0);
    let err = refused(
        &mut s,
        "p0",
        mv(0, HOME),
        "CANNOT_MOVE",
        "그 말은 움직일 수 없어요.",
    );
    assert_eq!(err.reason(), Some(serde_json::json!({ "from": "home" })));
}

#[test]
fn error_backdo_from_home() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0).place(0, 3, 1, &[]).set_move(&[Throw::Backdo]);
    refused(
        &mut s,
        "p0",
        mv(0, HOME),
        "BACKDO_FROM_HOME",
        "빽도로는 대기 말을 올릴 수 없어요.",
    );
}

#[test]
fn error_team_member_out_of_turn() {
    let mut s = Script::new(opts(|o| o.mode = Mode::Team), 4);
    s.set_turn(1);
    // Seat 3 is on the same team (홍) as seat 1, whose turn it is.
    refused(
        &mut s,
        "p3",
        THROW,
        "NOT_YOUR_TURN",
        "지금은 다른 사람 차례예요.",
    );
    s.throw(ThrowChance::Gae);
    refused(
        &mut s,
        "p3",
        mv(0, HOME),
        "NOT_YOUR_TURN",
        "지금은 다른 사람 차례예요.",
    );
    refused(
        &mut s,
        "p2",
        mv(0, HOME),
        "NOT_YOUR_TURN",
        "지금은 다른 사람 차례예요.",
    );
}

#[test]
fn error_spectator() {
    let mut s = Script::new(YutOptions::default(), 2);
    for a in [THROW, mv(0, HOME), YutAction::Concede] {
        let err = refused(
            &mut s,
            "watcher",
            a,
            "NOT_SEATED",
            "관전 중에는 행동할 수 없어요.",
        );
        assert_eq!(
            err.reason(),
            Some(serde_json::json!({ "player": "watcher" }))
        );
    }
}

#[test]
fn error_stale_turn_seq() {
    let mut s = Script::new(YutOptions::default(), 2);
    let seat = s.seat();
    let seq = s.game.turn_seq(&s.state);
    s.throw(ThrowChance::Yut);
    let now_seq = s.game.turn_seq(&s.state);
    assert_eq!(now_seq, seq + 1);
    for stale in [seq, now_seq + 1] {
        let before = s.json();
        let err = s
            .game
            .play(&mut s.state, seat, &THROW, Some(stale), 0, &mut Vec::new())
            .result
            .unwrap_err();
        assert_error(
            &err,
            "STALE_TURN_SEQ",
            "화면이 최신 상태가 아니에요. 다시 시도해 주세요.",
        );
        assert_eq!(
            err.reason(),
            Some(serde_json::json!({ "got": stale, "expected": now_seq }))
        );
        assert_eq!(s.json(), before);
    }
    // The same request with the current number goes through.
    s.game
        .play(
            &mut s.state,
            seat,
            &THROW,
            Some(now_seq),
            0,
            &mut Vec::new(),
        )
        .result
        .unwrap();
}

#[test]
fn error_game_over() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .set_done(0, 3)
        .place(0, 0, 1, &[])
        .set_move(&[Throw::Do]);
    assert!(game_over(&s.play(0, at(0))));
    for p in ["p0", "p1"] {
        for a in [THROW, mv(0, HOME), YutAction::Concede] {
            refused(&mut s, p, a, "GAME_OVER", "이미 끝난 게임이에요.");
        }
    }
}

#[test]
fn error_already_conceded() {
    let mut s = Script::new(YutOptions::default(), 3);
    s.set_turn(0);
    s.act(2, YutAction::Concede);
    for a in [THROW, YutAction::Concede] {
        refused(&mut s, "p2", a, "ALREADY_CONCEDED", "이미 기권했어요.");
    }
}

#[test]
fn error_impossible_forced_outcome() {
    // The testing seam: an outcome the options rule out is refused, state untouched.
    let mut s = Script::new(YutOptions::default(), 2);
    let before = s.json();
    let err = s.try_throw(ThrowChance::Nak).unwrap_err();
    assert_error(&err, "IMPOSSIBLE_OUTCOME", "그 결과는 지금 나올 수 없어요.");
    assert_eq!(s.json(), before);
}

#[test]
fn error_bodies_serialize_with_code_and_message() {
    let body = YutError::NotYourTurn.body();
    let json = serde_json::to_value(&body).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "code": "NOT_YOUR_TURN",
            "message": "지금은 다른 사람 차례예요.",
            "reason": {}
        })
    );
    let every = [
        (YutError::NotYourTurn, "NOT_YOUR_TURN"),
        (YutError::NotThrowPhase, "NOT_THROW_PHASE"),
        (YutError::NotMovePhase, "NOT_MOVE_PHASE"),
        (YutError::WrongPhase { phase: Phase::Move }, "WRONG_PHASE"),
        (
            YutError::UnknownThrowIndex {
                index: 1,
                pending: 0,
            },
            "UNKNOWN_THROW_INDEX",
        ),
        (YutError::CannotMove { from: None }, "CANNOT_MOVE"),
        (YutError::BackdoFromHome, "BACKDO_FROM_HOME"),
        (YutError::MoveForbidden, "MOVE_FORBIDDEN"),
        (YutError::AlreadyConceded, "ALREADY_CONCEDED"),
    ];
    for (err, code) in every {
        assert_eq!(err.code(), code);
        // Every body has all three fields, the reason always an object.
        let json = serde_json::to_value(err.body()).unwrap();
        assert!(json["reason"].is_object(), "{code}: {json}");
        let message = err.message();
        assert!(
            message.ends_with('.') && !message.is_ascii(),
            "{code}: {message}"
        );
    }
}
