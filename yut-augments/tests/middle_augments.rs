//! The six middle augments (중간 증강): each one's effect with scripted throws, and where it
//! does not fire.

mod common;

use common::*;
use yut::testing::thrown;
use yut::{Origin, Phase, Throw, ThrowChance as C, To, YutOptions};
use yut_augments::{Augment as A, AugmentConfig, Effect, HouseRule};

/// Side 0 on node 1 (trail [1]) captures side 1's piece on node 3 with a 개.
fn capture_on_three(s: &mut yut::testing::Script<yut_augments::Augments>) -> Vec<Event> {
    s.place(0, 1, 1, &[]).place(1, 3, 1, &[]);
    let mut ev = s.throw(C::Gae);
    ev.extend(s.play(0, Origin::Node(1)));
    ev
}

// ---- 푹신한 깔개 (soft-landing) ------------------------------------------------------------

#[test]
fn soft_landing_cushions_one_capture_with_the_house_rule_off() {
    let mut s = script(pack(&[A::SoftLanding]));
    grant(&mut s, 1, A::SoftLanding);
    let ev = capture_on_three(&mut s);
    assert_eq!(s.stack(1, 1), 1, "the captured piece stands on node 1");
    assert_eq!(s.trail(1, 1), vec![1]);
    assert_eq!(
        fired_by(&ev, A::SoftLanding),
        vec![(
            1,
            Effect::Cushioned {
                to: To::Node(1),
                count: 1,
                blocked: false
            }
        )]
    );
    assert_eq!(uses_left(&s, 1, A::SoftLanding), Some(0));
    check(&s);
    // The next capture goes home.
    s.clear().set_turn(0).set_throw(1, &[]);
    let ev = capture_on_three(&mut s);
    assert_eq!(s.home(1), 4);
    assert!(fired(&ev).is_empty());
}

#[test]
fn soft_landing_is_the_second_cushion_after_the_house_rule() {
    let config = AugmentConfig {
        cushion: true,
        ..pack(&[A::SoftLanding])
    };
    let mut s = script(config);
    grant(&mut s, 1, A::SoftLanding);
    assert_eq!(s.state.rules().sides[1].cushions_left(), 2);
    let ev = capture_on_three(&mut s);
    assert_eq!(fired_house(&ev, HouseRule::Cushion).len(), 1);
    assert_eq!(
        uses_left(&s, 1, A::SoftLanding),
        Some(1),
        "the house cushion goes first"
    );
    s.clear().set_turn(0).set_throw(1, &[]);
    let ev = capture_on_three(&mut s);
    assert_eq!(fired_by(&ev, A::SoftLanding).len(), 1);
    assert_eq!(s.stack(1, 1), 1);
    s.clear().set_turn(0).set_throw(1, &[]);
    let ev = capture_on_three(&mut s);
    assert!(fired(&ev).is_empty(), "two in all");
    assert_eq!(s.home(1), 4);
}

#[test]
fn no_cushion_without_soft_landing_or_the_house_rule() {
    let mut s = script(pack(&[A::SoftLanding]));
    grant(&mut s, 0, A::SoftLanding); // the capturer's, not the victim's
    let ev = capture_on_three(&mut s);
    assert_eq!(s.home(1), 4);
    assert!(fired(&ev).is_empty());
}

// ---- 되갚을 손 (payback) -------------------------------------------------------------------

#[test]
fn payback_makes_the_next_turn_of_the_captured_side_owe_two_throws() {
    let mut s = script(pack(&[A::Payback]));
    grant(&mut s, 1, A::Payback);
    let ev = capture_on_three(&mut s);
    assert_eq!(fired_by(&ev, A::Payback), vec![(1, Effect::Armed)]);
    assert_eq!(uses_left(&s, 1, A::Payback), Some(1), "armed, not used yet");
    // The capturer's bonus throw, then its turn ends.
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(3));
    assert!(turn_passed(&ev));
    assert_eq!(s.seat(), 1);
    assert_eq!(
        fired_by(&ev, A::Payback),
        vec![(1, Effect::ExtraThrows { throws: 1 })]
    );
    assert_eq!(s.owed(), 2);
    assert_eq!(uses_left(&s, 1, A::Payback), Some(0));
    s.throw(C::Gae);
    assert_eq!(s.phase(), Phase::Throw, "the second throw is still owed");
    s.throw(C::Do);
    assert_eq!(s.pending(), &[Throw::Gae, Throw::Do]);
    check(&s);
}

#[test]
fn payback_does_not_fire_again_once_used_nor_for_the_capturer() {
    let mut s = script(pack(&[A::Payback]));
    grant(&mut s, 0, A::Payback);
    grant(&mut s, 1, A::Payback);
    s.state.rules_mut().sides[1]
        .owned
        .set_uses_left(A::Payback, Some(0));
    let ev = capture_on_three(&mut s);
    assert!(fired(&ev).is_empty());
    s.throw(C::Gae);
    s.play(0, Origin::Node(3));
    assert_eq!(s.seat(), 1);
    assert_eq!(s.owed(), 1);
}

// ---- 업고 달리기 (piggyback-dash) ----------------------------------------------------------

#[test]
fn piggyback_dash_marks_a_new_stack_and_its_next_forward_move_goes_further() {
    let mut s = script(pack(&[A::PiggybackDash]));
    grant(&mut s, 0, A::PiggybackDash);
    s.place(0, 2, 1, &[]).place(0, 3, 1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(2));
    assert_eq!(s.stack(0, 3), 2);
    assert_eq!(
        fired_by(&ev, A::PiggybackDash),
        vec![(0, Effect::Marked { node: 3 })]
    );
    assert_eq!(s.state.rules().sides[0].marks[..], [3]);
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(3));
    assert_eq!(s.stack(0, 5), 2, "do + 1");
    assert_eq!(
        fired_by(&ev, A::PiggybackDash),
        vec![(
            0,
            Effect::ExtraSteps {
                steps: 1,
                from: Origin::Node(3)
            }
        )]
    );
    assert!(
        s.state.rules().sides[0].marks.is_empty(),
        "the mark is gone"
    );
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(5));
    assert_eq!(s.stack(0, 20), 2);
    assert!(fired(&ev).is_empty());
    check(&s);
}

#[test]
fn piggyback_dash_mark_survives_a_backdo_and_a_twin_entry_sets_none() {
    let mut s = script(pack(&[A::PiggybackDash, A::TwinEntry]));
    grant(&mut s, 0, A::PiggybackDash);
    grant(&mut s, 0, A::TwinEntry);
    // The pair of a twin entry is not stacking.
    s.throw(C::Gae);
    let ev = s.play(0, Origin::HOME);
    assert_eq!(s.stack(0, 2), 2);
    assert!(fired_by(&ev, A::PiggybackDash).is_empty());
    assert!(s.state.rules().sides[0].marks.is_empty());
    // Stack a third piece on: marked. A backdo carries the mark without using it.
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Gae);
    s.play(0, Origin::HOME);
    assert_eq!(s.state.rules().sides[0].marks[..], [2]);
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Backdo);
    let ev = s.play(0, Origin::Node(2));
    assert_eq!(s.stack(0, 1), 3);
    assert!(fired(&ev).is_empty());
    assert_eq!(s.state.rules().sides[0].marks[..], [1]);
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Do);
    s.play(0, Origin::Node(1));
    assert_eq!(s.stack(0, 3), 3, "do + the mark");
}

#[test]
fn piggyback_dash_sets_no_mark_for_a_side_without_it() {
    let mut s = script(pack(&[A::PiggybackDash]));
    grant(&mut s, 1, A::PiggybackDash);
    s.place(0, 2, 1, &[]).place(0, 3, 1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(2));
    assert!(fired(&ev).is_empty());
    assert!(s.state.rules().sides[0].marks.is_empty());
}

#[test]
fn piggyback_mark_is_lost_with_a_captured_stack() {
    let mut s = script(pack(&[A::PiggybackDash]));
    grant(&mut s, 1, A::PiggybackDash);
    s.place(1, 3, 2, &[]).place(0, 1, 1, &[]);
    s.state.rules_mut().sides[1].marks.insert(3);
    s.throw(C::Gae);
    s.play(0, Origin::Node(1));
    assert!(s.state.rules().sides[1].marks.is_empty());
    check(&s);
}

// ---- 다시 보기 (second-look) ---------------------------------------------------------------

#[test]
fn second_look_throws_a_do_again_and_the_new_throw_can_fire_it_again() {
    let mut s = script(pack(&[A::SecondLook]));
    grant(&mut s, 0, A::SecondLook);
    rig(&mut s, &[C::Backdo, C::Geol]);
    let ev = s.throw(C::Do);
    assert_eq!(
        thrown(&ev),
        vec![Some(Throw::Do), Some(Throw::Backdo), Some(Throw::Geol)],
        "every throw is its own thrown event"
    );
    assert_eq!(
        fired_by(&ev, A::SecondLook),
        vec![
            (0, Effect::Rethrow { result: Throw::Do }),
            (
                0,
                Effect::Rethrow {
                    result: Throw::Backdo
                }
            ),
        ]
    );
    assert_eq!(s.pending(), &[Throw::Geol]);
    assert_eq!(uses_left(&s, 0, A::SecondLook), Some(0));
    assert_eq!(
        s.state.board().stats().r#do + s.state.board().stats().backdo,
        2
    );
    // Used up: a do stays.
    s.set_turn(0).set_throw(1, &[]);
    let ev = s.throw(C::Do);
    assert!(fired(&ev).is_empty());
    assert_eq!(s.pending(), &[Throw::Do]);
}

#[test]
fn second_look_rethrow_can_come_up_nak() {
    let base = YutOptions {
        nak_percent: 10,
        ..YutOptions::default()
    };
    let mut s = script_with(pack(&[A::SecondLook]), base, 2);
    grant(&mut s, 0, A::SecondLook);
    rig(&mut s, &[C::Nak]);
    let ev = s.throw(C::Backdo);
    assert_eq!(thrown(&ev), vec![Some(Throw::Backdo), None]);
    assert!(s.pending().is_empty());
    assert!(turn_passed(&ev), "nak used the one owed throw");
    assert_eq!(uses_left(&s, 0, A::SecondLook), Some(1));
}

#[test]
fn second_look_does_not_fire_on_gae_to_mo() {
    let mut s = script(pack(&[A::SecondLook]));
    grant(&mut s, 0, A::SecondLook);
    for c in [C::Gae, C::Geol] {
        s.set_turn(0).set_throw(1, &[]);
        let ev = s.throw(c);
        assert!(fired(&ev).is_empty());
    }
    assert_eq!(uses_left(&s, 0, A::SecondLook), Some(2));
}

// ---- 모서리 박수 (corner-clap) -------------------------------------------------------------

#[test]
fn corner_clap_gives_a_throw_for_stopping_on_a_corner_once() {
    let mut s = script(pack(&[A::CornerClap]));
    grant(&mut s, 0, A::CornerClap);
    s.place(0, 3, 1, &[]).place(0, 8, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(3));
    assert_eq!(s.stack(0, 5), 1);
    assert_eq!(
        fired_by(&ev, A::CornerClap),
        vec![(0, Effect::ExtraThrows { throws: 1 })]
    );
    assert_eq!(s.phase(), Phase::Throw);
    assert_eq!(s.owed(), 1);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(8));
    assert_eq!(s.stack(0, 10), 1);
    assert!(fired(&ev).is_empty(), "used up");
    assert!(turn_passed(&ev));
}

#[test]
fn corner_clap_does_not_fire_when_passing_a_corner() {
    let mut s = script(pack(&[A::CornerClap]));
    grant(&mut s, 0, A::CornerClap);
    s.place(0, 3, 1, &[]);
    s.throw(C::Geol);
    let ev = s.play(0, Origin::Node(3));
    assert_eq!(s.stack(0, 6), 1);
    assert!(fired(&ev).is_empty());
    assert_eq!(uses_left(&s, 0, A::CornerClap), Some(1));
}

#[test]
fn corner_clap_counts_node_fifteen() {
    let mut s = script(pack(&[A::CornerClap]));
    grant(&mut s, 0, A::CornerClap);
    s.place(0, 13, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(13));
    assert_eq!(fired_by(&ev, A::CornerClap).len(), 1);
}

// ---- 사냥 두 번 (double-hunt) --------------------------------------------------------------

#[test]
fn double_hunt_makes_a_capture_earn_two_throws_once() {
    let mut s = script(pack(&[A::DoubleHunt]));
    grant(&mut s, 0, A::DoubleHunt);
    let ev = capture_on_three(&mut s);
    assert_eq!(
        fired_by(&ev, A::DoubleHunt),
        vec![(0, Effect::ExtraThrows { throws: 1 })]
    );
    assert_eq!(s.owed(), 2);
    assert_eq!(uses_left(&s, 0, A::DoubleHunt), Some(0));
    s.throw(C::Gae);
    s.throw(C::Gae);
    assert_eq!(s.pending(), &[Throw::Gae, Throw::Gae]);
}

#[test]
fn double_hunt_does_not_fire_where_the_capture_earns_no_bonus() {
    let base = YutOptions {
        backdo_capture_bonus: false,
        ..YutOptions::default()
    };
    let mut s = script_with(pack(&[A::DoubleHunt]), base, 2);
    grant(&mut s, 0, A::DoubleHunt);
    s.place(0, 4, 1, &[]).place(1, 3, 1, &[]);
    s.throw(C::Backdo);
    let ev = s.play(0, Origin::Node(4));
    assert_eq!(s.home(1), 4, "captured");
    assert!(fired(&ev).is_empty());
    assert_eq!(uses_left(&s, 0, A::DoubleHunt), Some(1));
    assert!(turn_passed(&ev));
}

#[test]
fn payback_on_a_drafting_turn_still_owes_two_throws_after_the_choice() {
    let mut s = script(AugmentConfig {
        augments: vec![A::Payback, A::YutLeap, A::GoalCheer],
        ..AugmentConfig::none()
    });
    grant(&mut s, 1, A::Payback);
    s.set_turns(1, 11);
    capture_on_three(&mut s);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(3));
    assert_eq!(fired_by(&ev, A::Payback).len(), 1);
    assert_eq!(s.phase(), Phase::Rule, "the 12th turn drafts first");
    s.act(
        1,
        yut::YutAction::Rule(yut_augments::AugmentAction::ChooseAugment { index: 0 }),
    );
    assert_eq!(s.phase(), Phase::Throw);
    assert_eq!(s.owed(), 2);
    check(&s);
}
