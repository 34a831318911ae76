//! Backdo (빽도) in every corner of RULES.md, Movement: `backdoFromDo`
//! under all three values and both finish rules, backdo from 참먹이 with and without a
//! trail, the trail-less fallback, and `backdo = false`.

mod common;

use common::*;
use game_core::Game;
use game_core::GameExt;
use yut::testing::Script;
use yut::{BackdoFromDo, FinishRule, OffBoard, Phase, Throw, ThrowChance, To, YutOptions};

fn with(from_do: BackdoFromDo, rule: FinishRule) -> YutOptions {
    opts(|o| {
        o.backdo_from_do = from_do;
        o.finish_rule = rule;
    })
}

/// A piece of side 0 that entered with 도 and stands on node 1 (trail `[1]`), 빽도 pending.
fn on_do(options: YutOptions) -> Script {
    let mut s = Script::new(options, 2);
    s.set_turn(0)
        .place(0, 1, 1, &[1])
        .set_move(&[Throw::Backdo, Throw::Gae])
        .check();
    s
}

#[test]
fn backdo_from_do_chammeogi_goes_round_under_pass() {
    let mut s = on_do(with(BackdoFromDo::Chammeogi, FinishRule::Pass));
    let m = s
        .legal()
        .into_iter()
        .find(|m| m.result == Throw::Backdo)
        .unwrap();
    assert_eq!(
        (m.to, m.finishes, m.path.to_list().as_slice().to_vec()),
        (To::Node(0), false, vec![1, 0])
    );
    let ev = s.play(0, at(1));
    assert_eq!(moves(&ev)[0].1, To::Node(0));
    assert_eq!(s.trail(0, 0), vec![0]);
    let view = s.view(None);
    assert!(
        view.sides[0]
            .pieces
            .iter()
            .any(|p| p.node == Some(0) && p.lapped)
    );
    // It has gone round: the next forward result, however small, finishes it.
    let ev = s.play(0, at(0));
    assert_eq!(finished(&ev), Some(1));
    s.check();
}

#[test]
fn backdo_from_do_chammeogi_finishes_at_once_under_reach() {
    let mut s = on_do(with(BackdoFromDo::Chammeogi, FinishRule::Reach));
    let m = s
        .legal()
        .into_iter()
        .find(|m| m.result == Throw::Backdo)
        .unwrap();
    assert_eq!((m.to, m.finishes), (To::GOAL, true));
    let ev = s.play(0, at(1));
    assert_eq!(moves(&ev)[0].1, To::GOAL);
    assert_eq!(finished(&ev), Some(1));
    assert_eq!(s.done(0), 1);
}

#[test]
fn backdo_from_do_finish_finishes_at_once() {
    for rule in [FinishRule::Pass, FinishRule::Reach] {
        let mut s = on_do(with(BackdoFromDo::Finish, rule));
        let ev = s.play(0, at(1));
        assert_eq!(moves(&ev)[0].1, To::GOAL, "{rule:?}");
        assert_eq!(finished(&ev), Some(1));
        assert_eq!(s.done(0), 1);
    }
}

#[test]
fn backdo_from_do_home_goes_back_to_waiting() {
    for rule in [FinishRule::Pass, FinishRule::Reach] {
        let mut s = on_do(with(BackdoFromDo::Home, rule));
        let m = s
            .legal()
            .into_iter()
            .find(|m| m.result == Throw::Backdo)
            .unwrap();
        assert_eq!(
            (m.to, m.finishes, m.captures),
            (To::Off(OffBoard::Home), false, 0)
        );
        let json = serde_json::to_value(m).unwrap();
        assert_eq!(json["to"], "home");
        assert_eq!(json["from"], 1);
        let ev = s.play(0, at(1));
        assert_eq!(moves(&ev)[0].1, To::HOME);
        assert_eq!(finished(&ev), None);
        assert_eq!((s.home(0), s.done(0), s.stack(0, 1)), (4, 0, 0));
        // The 개 still pending enters a piece again.
        assert_eq!(s.phase(), Phase::Move);
        assert_eq!(s.pending(), &[Throw::Gae]);
        s.check();
    }
}

#[test]
fn backdo_from_do_chammeogi_captures_or_stacks_on_chammeogi() {
    // An opponent waiting on 0 is captured by the piece arriving there.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 1, 1, &[1])
        .place(1, 0, 1, &[])
        .set_move(&[Throw::Backdo]);
    assert_eq!(s.legal()[0].captures, 1);
    let ev = s.play(0, at(1));
    assert_eq!(captures(&ev), vec![(0, 1, 0, 1)]);
    assert_eq!(s.phase(), Phase::Throw);
    // An own piece on 0: they stack, with the arriving piece's trail.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 1, 1, &[1])
        .place(0, 0, 1, &[])
        .set_move(&[Throw::Backdo]);
    let m = s.legal().into_iter().find(|m| m.from == at(1)).unwrap();
    assert!(m.stacks && m.to == To::Node(0));
    s.play(0, at(1));
    assert_eq!(s.stack(0, 0), 2);
    assert_eq!(s.trail(0, 0), vec![0]);
}

#[test]
fn backdo_from_chammeogi_follows_the_trail() {
    for (trail, back) in [
        ((1..=19).chain([0]).collect::<Vec<u8>>(), 19u8),
        (
            yut::testing::trail_to(28).into_iter().chain([0]).collect(),
            28,
        ),
    ] {
        let mut s = Script::new(YutOptions::default(), 2);
        s.set_turn(0)
            .place(0, 0, 1, &trail)
            .set_move(&[Throw::Backdo])
            .check();
        let ev = s.play(0, at(0));
        assert_eq!(moves(&ev)[0].1, To::Node(back));
        assert_eq!(s.trail(0, back), trail[..trail.len() - 1].to_vec());
    }
}

#[test]
fn backdo_from_chammeogi_without_trail_goes_to_19_then_back_along_the_ring() {
    // Only a 도-square backdo puts a piece on 0 without a trail to follow ([0]).
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0).place(0, 1, 1, &[1]).set_move(&[
        Throw::Backdo,
        Throw::Backdo,
        Throw::Backdo,
        Throw::Do,
    ]);
    s.play(0, at(1));
    assert_eq!(s.trail(0, 0), vec![0]);
    let ev = s.play(0, at(0));
    assert_eq!(moves(&ev)[0].1, To::Node(19), "no trail: 19");
    assert_eq!(s.trail(0, 19), vec![19]);
    // Again with no trail: the outer ring's previous node (RULES.md, Movement).
    let ev = s.play(0, at(19));
    assert_eq!(moves(&ev)[0].1, To::Node(18));
    assert_eq!(s.trail(0, 18), vec![18]);
    // Forward again from there as usual.
    let ev = s.play(0, at(18));
    assert_eq!(moves(&ev)[0].2, vec![18, 19]);
    assert_eq!(s.trail(0, 19), vec![18, 19]);
    s.check();
}

#[test]
fn backdo_moves_a_whole_stack_and_onto_a_corner_it_then_turns_from() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 20, 2, &[])
        .set_move(&[Throw::Backdo, Throw::Do]);
    let ev = s.play(0, at(20));
    assert_eq!(moves(&ev)[0].1, To::Node(5));
    assert_eq!(moves(&ev)[0].3, 2);
    assert_eq!(s.stack(0, 5), 2);
    let ev = s.play(0, at(5));
    assert_eq!(
        moves(&ev)[0].2,
        vec![5, 20],
        "stopped on 모: the shortcut again"
    );
}

#[test]
fn backdo_off_never_appears_and_cannot_be_forced() {
    let off = opts(|o| o.backdo = false);
    assert!(
        yut::ThrowChance::distribution(&off)
            .iter()
            .all(|(c, _)| *c != ThrowChance::Backdo)
    );
    let p_do = yut::ThrowChance::distribution(&off)
        .into_iter()
        .find(|(c, _)| *c == ThrowChance::Do)
        .unwrap()
        .1;
    assert!(
        (p_do - 4.0 * 0.6 * 0.4f64.powi(3)).abs() < 1e-12,
        "the marked stick alone is 도"
    );
    assert_eq!(
        Throw::from_sticks([true, false, false, false], false),
        Throw::Do
    );
    let mut s = Script::new(off, 2);
    let err = s.try_throw(ThrowChance::Backdo).unwrap_err();
    assert_eq!(game_core::GameError::code(&err), "IMPOSSIBLE_OUTCOME");
    // And real throws never show it.
    let game = yut::Yut::standard();
    let mut state = s.state.clone();
    for _ in 0..500 {
        let seat = game.to_act(&state)[0];
        let action = game.timeout_action(&state, seat).unwrap();
        for e in game.apply(&mut state, seat, &action, 0).unwrap() {
            if let yut::YutEvent::Thrown { result, .. } = e {
                assert_ne!(result, Throw::Backdo);
            }
        }
        if game.is_over(&state) {
            break;
        }
    }
}
