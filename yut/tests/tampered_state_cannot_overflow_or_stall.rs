//! Regressions of tampered states that used to load and then panic or stall the game. Each
//! came from the hostile-input work (the augmented tampered-state sweep and the fuzz
//! harnesses); a debug build panicked on the overflow, a release build wrapped silently.
//!
//! - a counter at its maximum (`stats`, `lost`, `captures`) overflowed on the next throw or
//!   capture: the counters saturate now;
//! - `concedes` at 255 overflowed on the next concede: the check now requires it to equal
//!   the number of sides that conceded;
//! - a move phase without any legal move, or a rule phase while the rules wait for nothing,
//!   or a rule phase with no throw owed, loaded and left the player to act with no legal
//!   action and no timeout action (stuck for good), or broke the check one action later:
//!   the check refuses them now;
//! - a finished game with a deadline loaded, and showed a countdown after the end (found
//!   by the `restore_json` fuzz target): the check refuses it now;
//! - a running game whose deadline was moved (or removed, or added without a turn limit)
//!   loaded, and its timeout fired at the wrong time or never: the check now requires the
//!   deadline to be the decision start plus `turnSeconds`.

use game_core::GameExt;
use game_core::{Game, GameError};
use serde_json::Value;
use yut::testing::Script;
use yut::{Origin, Phase, Throw, ThrowChance, YutAction, YutOptions};

type State = yut::YutState<yut::Standard>;

/// The script's state as JSON, changed by `f`, restored.
fn restore_with(s: &Script, f: impl FnOnce(&mut Value)) -> Result<State, yut::YutError> {
    let mut v: Value = serde_json::from_str(&s.json()).unwrap();
    f(&mut v);
    s.game.restore(&v.to_string())
}

#[track_caller]
fn assert_corrupt(r: Result<State, yut::YutError>, detail: &str) {
    let err = r.unwrap_err();
    assert_eq!(err.code(), "CORRUPT_STATE", "{err:?}");
    // The developer's detail is the reason's; the Korean message stays generic.
    let body = err.body();
    let said = body.reason["detail"].as_str().unwrap_or_default();
    assert!(said.contains(detail), "{body:?}");
}

#[test]
fn counters_at_their_maximum_saturate() {
    // Throw counts.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0);
    let state = restore_with(&s, |v| {
        for k in ["do", "gae", "geol", "yut", "mo", "backdo", "nak"] {
            v["board"]["stats"][k] = u32::MAX.into();
        }
    })
    .expect("any count is a valid statistic");
    s.state = state;
    s.throw(ThrowChance::Gae);
    assert_eq!(s.state.board().stats().gae, u32::MAX);
    s.check();

    // Captures and losses.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 3, 1, &[])
        .place(1, 5, 1, &[])
        .set_move(&[Throw::Gae]);
    let state = restore_with(&s, |v| {
        v["board"]["sides"][0]["captures"] = u16::MAX.into();
        v["board"]["sides"][1]["lost"] = u16::MAX.into();
    })
    .expect("any count is a valid statistic");
    s.state = state;
    s.play(0, Origin::Node(3));
    assert_eq!(s.state.board().sides()[0].captures, u16::MAX);
    assert_eq!(s.state.board().sides()[1].lost, u16::MAX);
    s.check();
}

#[test]
fn a_concede_count_that_does_not_match_the_sides_is_refused() {
    let mut s = Script::new(YutOptions::default(), 3);
    s.set_turn(0);
    for n in [1, 3, 255] {
        assert_corrupt(
            restore_with(&s, |v| v["board"]["concedes"] = n.into()),
            "concedes counted",
        );
    }
    // The real thing loads, and the next concede counts on.
    s.act(2, YutAction::Concede);
    let state = s.game.restore(&s.json()).unwrap();
    assert_eq!(
        serde_json::to_value(&state).unwrap()["board"]["concedes"],
        1
    );
    s.act(1, YutAction::Concede);
    assert!(s.game.is_over(&s.state));
    s.check();
}

#[test]
fn a_move_phase_without_a_legal_move_is_refused() {
    // A backdo pending with every piece at home: nothing can move.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0).set_move(&[Throw::Backdo]);
    assert!(s.legal().is_empty());
    assert_corrupt(s.game.restore(&s.json()), "move phase without a legal move");
    // The same with a piece on the board is a real position.
    s.place(0, 3, 1, &[]).set_move(&[Throw::Backdo]);
    assert!(s.game.restore(&s.json()).is_ok());
}

#[test]
fn a_rule_phase_is_refused_when_the_rules_wait_for_nothing_or_no_throw_is_owed() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0);
    // The standard rules never wait for a rule action.
    assert_corrupt(
        restore_with(&s, |v| v["board"]["phase"] = "rule".into()),
        "rule phase while the rules wait for no action",
    );
    assert_corrupt(
        restore_with(&s, |v| v["board"]["throwsOwed"] = 0.into()),
        "no throw owed",
    );
    assert_eq!(s.phase(), Phase::Throw);
}

#[test]
fn a_finished_game_with_a_deadline_is_refused() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .set_done(0, 3)
        .place(0, 0, 1, &[])
        .set_move(&[Throw::Do]);
    s.play(0, Origin::Node(0));
    assert_eq!(s.phase(), Phase::Finished);
    assert!(s.game.restore(&s.json()).is_ok());
    assert_corrupt(
        restore_with(&s, |v| v["board"]["table"]["deadlineAt"] = 30_000.into()),
        "a deadline after the end",
    );
}

#[test]
fn a_deadline_that_does_not_match_the_turn_limit_is_refused() {
    let timed = YutOptions {
        turn_seconds: Some(30),
        ..YutOptions::default()
    };
    let s = Script::new(timed, 2);
    let v: Value = serde_json::from_str(&s.json()).unwrap();
    let since = v["board"]["table"]["decisionSince"].as_u64().unwrap();
    assert_eq!(v["board"]["table"]["deadlineAt"], since + 30_000);
    assert!(s.game.restore(&s.json()).is_ok());
    for tampered in [Value::from(since + 29_999), Value::Null] {
        assert_corrupt(
            restore_with(&s, |v| v["board"]["table"]["deadlineAt"] = tampered),
            "the deadline does not match turnSeconds",
        );
    }
    // At the end of `u64`: no decision's deadline (the table's own check).
    assert_corrupt(
        restore_with(&s, |v| v["board"]["table"]["deadlineAt"] = u64::MAX.into()),
        "a time past",
    );
    // Moving the decision start without the deadline is the same tampering.
    assert_corrupt(
        restore_with(&s, |v| {
            v["board"]["table"]["decisionSince"] = (since + 1).into()
        }),
        "the deadline does not match turnSeconds",
    );
    // Without a turn limit there is no deadline to have.
    let untimed = Script::new(YutOptions::default(), 2);
    assert!(untimed.game.restore(&untimed.json()).is_ok());
    assert_corrupt(
        restore_with(&untimed, |v| {
            v["board"]["table"]["deadlineAt"] = 5_000.into()
        }),
        "the deadline does not match turnSeconds",
    );
}

#[test]
fn pending_results_and_owed_throws_stay_within_64_together() {
    // 63 results pending and one throw owed: a 윷 is kept but earns no 65th.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .set_throw(1, &[Throw::Do; 63])
        .restart_clock()
        .check();
    s.throw(ThrowChance::Yut);
    assert_eq!(s.state.board().pending().len(), yut::MAX_PENDING);
    assert_eq!(s.state.board().throws_owed(), 0);
    assert_eq!(s.phase(), Phase::Move);
    s.check();

    // A stored state beyond the bound together (each part within it) is refused.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .set_throw(30, &[Throw::Do; 40])
        .restart_clock();
    assert_corrupt(
        s.game.restore(&s.json()),
        "too many pending results and owed throws",
    );
}

/// A stored state is read with no field its form does not have, at every level: a typo
/// (`"Clock"` beside `"clock"`) must not be dropped in silence and the value it meant
/// replaced by a default.
#[test]
fn a_field_the_stored_form_does_not_have_is_refused_at_every_level() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.throw(ThrowChance::Gae);
    s.play(0, Origin::HOME);
    let v: Value = serde_json::from_str(&s.json()).unwrap();
    assert!(s.game.restore(&s.json()).is_ok());
    assert!(v["board"]["lastThrow"].is_object() && !v["log"].as_array().unwrap().is_empty());
    let paths: [&[&str]; 9] = [
        &[],
        &["board"],
        &["board", "table"],
        &["board", "table", "rng"],
        &["board", "lastThrow"],
        &["board", "stats"],
        &["board", "sides", "0"],
        &["board", "sides", "0", "pieces", "0"],
        &["log", "0"],
    ];
    for path in paths {
        let tampered = restore_with(&s, |v| {
            let mut at = v;
            for key in path {
                at = match key.parse::<usize>() {
                    Ok(i) => &mut at[i],
                    Err(_) => &mut at[*key],
                };
            }
            at.as_object_mut().unwrap().insert("extra".into(), 1.into());
        });
        // An event is one of the base game's or a rule's (untagged): none has the field.
        let detail = if path.first() == Some(&"log") {
            "did not match any variant of untagged enum YutEvent"
        } else {
            "unknown field `extra`"
        };
        assert_corrupt(tampered, detail);
    }
}
