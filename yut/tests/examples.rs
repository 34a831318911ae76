//! Four worked examples, each played as written: 윷, 모 and 걸 finish a piece in one turn;
//! passing 방 goes straight on; a backdo capture, then the shortcut; a piece waiting on 참먹이.

mod common;

use common::*;
use yut::testing::{Script, thrown};
use yut::{Phase, Throw, ThrowChance, To, YutOptions};

#[test]
fn example1_yut_mo_geol_finishes_a_piece_in_one_turn() {
    let mut s = Script::new(YutOptions::default(), 2);
    let side = s.side();
    // Only waiting pieces; 윷, 모, 걸 are thrown.
    let ev = s.throws(&[ThrowChance::Yut, ThrowChance::Mo, ThrowChance::Geol]);
    assert_eq!(
        thrown(&ev),
        vec![Some(Throw::Yut), Some(Throw::Mo), Some(Throw::Geol)]
    );
    assert_eq!(s.pending(), &[Throw::Yut, Throw::Mo, Throw::Geol]);
    // 모 enters a new piece: it stops on 5 (모).
    let ev = s.play_result(Throw::Mo, HOME);
    assert_eq!(
        moves(&ev),
        vec![(HOME, To::Node(5), vec![1, 2, 3, 4, 5], 1)]
    );
    // 걸 from 5: the shortcut 20 → 21 → 22, stopping on 방.
    let ev = s.play_result(Throw::Geol, at(5));
    assert_eq!(
        moves(&ev),
        vec![(at(5), To::Node(22), vec![5, 20, 21, 22], 1)]
    );
    // 윷 from 22: 27 → 28 → 0 → out on the 4th step (pass).
    let ev = s.play_result(Throw::Yut, at(22));
    assert_eq!(moves(&ev), vec![(at(22), To::GOAL, vec![22, 27, 28, 0], 1)]);
    assert_eq!(finished(&ev), Some(1));
    assert_eq!(s.done(side), 1);
    assert!(turn_changed(&ev).is_some(), "one turn, one piece home");
    s.check();
}

#[test]
fn example2_passing_bang_goes_straight() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 20, 1, &[])
        .set_move(&[Throw::Geol])
        .check();
    let legal = s.legal();
    assert!(
        legal
            .iter()
            .any(|m| m.from == at(20) && m.to == To::Node(23))
    );
    let ev = s.play(0, at(20));
    assert_eq!(
        moves(&ev)[0].2,
        vec![20, 21, 22, 23],
        "through 방 toward 찌모"
    );
    assert_eq!(s.trail(0, 23), vec![1, 2, 3, 4, 5, 20, 21, 22, 23]);
}

#[test]
fn example3_backdo_capture_then_shortcut() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 6, 1, &[1, 2, 3, 4, 5, 6])
        .place(1, 5, 1, &[])
        .set_move(&[Throw::Backdo])
        .check();
    let legal = s.legal();
    assert_eq!(legal.len(), 1);
    assert_eq!((legal[0].to, legal[0].captures), (To::Node(5), 1));
    let ev = s.play(0, at(6));
    assert_eq!(captures(&ev), vec![(0, 1, 5, 1)]);
    assert_eq!(s.home(1), 4);
    // backdoCaptureBonus = true: throw again.
    assert_eq!((s.phase(), s.owed(), s.seat()), (Phase::Throw, 1, 0));
    // A now stands on 5: its next move takes the shortcut.
    s.throw(ThrowChance::Gae);
    let ev = s.play(0, at(5));
    assert_eq!(moves(&ev)[0].2, vec![5, 20, 21]);
}

#[test]
fn example4_waiting_on_chammeogi() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 28, 1, &[])
        .place(1, 27, 1, &[])
        .place(1, 9, 1, &[])
        .set_move(&[Throw::Do]);
    let ev = s.play(0, at(28));
    assert_eq!(moves(&ev)[0].1, To::Node(0));
    assert_eq!(
        (s.done(0), s.stack(0, 0)),
        (0, 1),
        "on 참먹이, not out yet (pass)"
    );
    assert_eq!(s.seat(), 1);

    // Either the opponent stops on 0 and captures it ...
    let mut capture = s.clone();
    capture.throw(ThrowChance::Gae);
    let ev = capture.play(0, at(27));
    assert_eq!(captures(&ev), vec![(1, 0, 0, 1)]);
    assert_eq!(capture.home(0), 4);

    // ... or, if it survives, any forward result on the next turn takes it out.
    for next in [ThrowChance::Do, ThrowChance::Gae, ThrowChance::Geol] {
        let mut out = s.clone();
        out.throw(ThrowChance::Do);
        out.play(0, at(9));
        assert_eq!(out.seat(), 0);
        out.throw(next);
        let m = out.legal().into_iter().find(|m| m.from == at(0)).unwrap();
        assert!(m.finishes);
        let ev = out.play(m.throw_index, at(0));
        assert_eq!(finished(&ev), Some(1));
    }
}
