//! The two house rules: the first-capture cushion (첫 잡힘 완충) with node 1 empty, blocked
//! and held by the side itself, and the truce (쉼 약속) after the second lost piece.

mod common;

use common::*;
use game_core::GameError;
use yut::{Origin, Throw, ThrowChance as C, To, YutOptions};
use yut_augments::{AugmentConfig, Effect, HouseRule as H};

fn cushion_only() -> AugmentConfig {
    AugmentConfig {
        cushion: true,
        ..AugmentConfig::none()
    }
}

fn truce_only() -> AugmentConfig {
    AugmentConfig {
        truce: true,
        ..AugmentConfig::none()
    }
}

// ---- 첫 잡힘 완충 (cushion) ----------------------------------------------------------------

#[test]
fn cushion_sends_the_first_captured_stack_to_node_one_as_a_stack() {
    let mut s = script(cushion_only());
    s.place(0, 1, 1, &[]).place(1, 3, 2, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(1));
    assert_eq!(s.stack(1, 1), 2, "the whole stack, as a stack");
    assert_eq!(s.trail(1, 1), vec![1]);
    assert_eq!(
        fired_house(&ev, H::Cushion),
        vec![(
            1,
            Effect::Cushioned {
                to: To::Node(1),
                count: 2,
                blocked: false
            }
        )]
    );
    assert_eq!(
        s.state.board().sides()[1].lost,
        2,
        "cushioned pieces still count as lost"
    );
    assert!(!s.state.rules().sides[1].cushion);
    assert!(s.state.rules().sides[0].cushion, "each side has its own");
    check(&s);
    // The second capture goes home.
    s.throw(C::Do);
    s.play(0, Origin::HOME); // captures on node 1: home
    assert_eq!(s.home(1), 4);
}

#[test]
fn cushion_blocked_by_another_side_on_node_one_sends_home_and_is_spent() {
    let mut s = script(cushion_only());
    s.place(0, 1, 1, &[])
        .place(0, 2, 1, &[])
        .place(1, 3, 1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(2));
    assert_eq!(s.home(1), 4);
    assert_eq!(
        fired_house(&ev, H::Cushion),
        vec![(
            1,
            Effect::Cushioned {
                to: To::HOME,
                count: 1,
                blocked: true
            }
        )]
    );
    assert!(!s.state.rules().sides[1].cushion, "spent either way");
}

#[test]
fn cushion_capture_on_node_one_itself_always_sends_home() {
    let mut s = script(cushion_only());
    s.place(1, 1, 1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::HOME);
    assert_eq!(s.home(1), 4);
    assert_eq!(s.stack(0, 1), 1);
    assert_eq!(
        fired_house(&ev, H::Cushion),
        vec![(
            1,
            Effect::Cushioned {
                to: To::HOME,
                count: 1,
                blocked: true
            }
        )]
    );
}

#[test]
fn cushion_blocked_by_a_third_side() {
    let mut s = script_with(cushion_only(), YutOptions::default(), 3);
    s.place(2, 1, 1, &[])
        .place(0, 2, 1, &[])
        .place(1, 3, 1, &[]);
    s.throw(C::Do);
    s.play(0, Origin::Node(2));
    assert_eq!(s.home(1), 4);
    assert_eq!(s.stack(2, 1), 1);
    check(&s);
}

#[test]
fn cushion_onto_node_one_held_by_the_side_itself_stacks() {
    let mut s = script(cushion_only());
    s.place(1, 1, 1, &[])
        .place(1, 3, 1, &[])
        .place(0, 2, 1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(2));
    assert_eq!(s.stack(1, 1), 2, "they stack");
    assert_eq!(s.trail(1, 1), vec![1]);
    assert_eq!(
        fired_house(&ev, H::Cushion),
        vec![(
            1,
            Effect::Cushioned {
                to: To::Node(1),
                count: 1,
                blocked: false
            }
        )]
    );
    check(&s);
}

#[test]
fn cushion_off_sends_captures_home() {
    let mut s = script(AugmentConfig::none());
    s.place(0, 1, 1, &[]).place(1, 3, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(1));
    assert_eq!(s.home(1), 4);
    assert!(fired(&ev).is_empty());
    assert_eq!(s.state.rules().sides[1].cushions_left(), 0);
}

// ---- 쉼 약속 (truce) ----------------------------------------------------------------------

/// Side 0 on node 1 captures side 1's piece on 3 (side 1 has lost one piece before).
fn second_loss(s: &mut yut::testing::Script<yut_augments::Augments>) -> Vec<Event> {
    s.set_lost(1, 1);
    s.place(0, 1, 1, &[])
        .place(1, 3, 1, &[])
        .place(1, 5, 1, &[]);
    s.throw(C::Gae);
    s.play(0, Origin::Node(1))
}

#[test]
fn truce_bars_the_capturer_from_capturing_during_its_next_whole_turn() {
    let mut s = script(truce_only());
    let ev = second_loss(&mut s);
    assert_eq!(
        fired_house(&ev, H::Truce),
        vec![(1, Effect::TruceCalled { barred: 0 })]
    );
    assert!(!s.state.rules().sides[1].truce, "side 1 has had its truce");
    // Not the rest of this turn: the bonus throw may still capture.
    s.throw(C::Gae);
    let legal = s.legal();
    assert!(legal.iter().any(|m| m.captures > 0));
    let ev = s.play(0, Origin::Node(3));
    assert_eq!(s.home(1), 4);
    assert!(fired(&ev).is_empty(), "once per protected side");
    s.throw(C::Geol);
    let ev = s.play(0, Origin::Node(5)); // 5 → 20 → 21 → 22
    assert!(turn_passed(&ev));
    // Side 1 enters a piece on node 1.
    s.throw(C::Do);
    let ev = s.play(0, Origin::HOME);
    assert_eq!(
        fired_house(&ev, H::Truce),
        vec![(0, Effect::TruceInForce)],
        "announced at the start of side 0's turn"
    );
    assert_eq!(s.state.rules().barred, Some(0));
    let v = s.view(Some(0));
    assert!(v.rules.augment_sides[0].no_capture_now);
    check(&s);
    s.place(1, 27, 1, &[]);
    s.throw(C::Do);
    // Every move would stop on a piece of side 1 (22 → 27, home → 1): none is legal.
    // The result is dropped and the turn passes.
    assert!(s.pending().is_empty());
    assert_eq!(s.seat(), 1);
    assert_eq!(s.state.rules().barred, None, "one turn only");
    s.throw(C::Gae);
    s.play(0, Origin::Node(1));
    // Side 0 may capture again.
    s.throw(C::Do);
    assert!(s.legal().iter().any(|m| m.captures > 0));
}

#[test]
fn truce_refuses_a_capturing_move_with_a_typed_error() {
    let mut s = script(truce_only());
    s.state.rules_mut().barred = Some(0);
    s.place(0, 1, 1, &[]).place(1, 3, 1, &[]);
    s.throw(C::Gae);
    let before = s.json();
    let err = s.try_play(0, Origin::Node(1)).unwrap_err();
    assert_eq!(err.code(), "MOVE_FORBIDDEN");
    assert_eq!(err.message(), "지금은 그 자리로 갈 수 없어요.");
    assert_eq!(s.json(), before);
    s.play(0, Origin::HOME); // entering on 2 is fine
}

#[test]
fn truce_after_a_double_capture_and_with_cushioned_pieces() {
    let config = AugmentConfig {
        truce: true,
        cushion: true,
        ..AugmentConfig::none()
    };
    let mut s = script(config);
    s.place(0, 1, 1, &[]).place(1, 3, 2, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(1));
    assert_eq!(s.stack(1, 1), 2, "cushioned");
    assert_eq!(
        fired_house(&ev, H::Truce),
        vec![(1, Effect::TruceCalled { barred: 0 })],
        "two lost at once, cushioned or not"
    );
}

#[test]
fn truce_two_triggers_before_the_turn_bar_only_that_one_turn() {
    let mut s = script_with(truce_only(), YutOptions::default(), 3);
    s.set_lost(1, 1);
    s.set_lost(2, 1);
    s.place(0, 1, 1, &[])
        .place(1, 3, 1, &[])
        .place(2, 5, 1, &[]);
    s.throw(C::Gae);
    let mut ev = s.play(0, Origin::Node(1));
    s.throw(C::Gae);
    ev.extend(s.play(0, Origin::Node(3)));
    assert_eq!(fired_house(&ev, H::Truce).len(), 2);
    s.throw(C::Geol);
    s.play(0, Origin::Node(5));
    // Sides 1 and 2 take their turns (entering on 1 and 2).
    for c in [C::Do, C::Gae] {
        s.throw(c);
        s.play(0, Origin::HOME);
    }
    assert_eq!(s.seat(), 0);
    assert_eq!(s.state.rules().barred, Some(0));
    s.throw(C::Gae);
    s.play(0, Origin::Node(22));
    for c in [C::Do, C::Gae] {
        s.throw(c);
        s.play(0, Origin::HOME);
    }
    assert_eq!(s.seat(), 0);
    assert_eq!(s.state.rules().barred, None);
    check(&s);
}

#[test]
fn truce_does_not_fire_on_the_first_loss_or_with_the_rule_off() {
    let mut s = script(truce_only());
    s.place(0, 1, 1, &[]).place(1, 3, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(1));
    assert!(fired(&ev).is_empty(), "one piece lost");
    let mut s = script(AugmentConfig::none());
    let ev = second_loss(&mut s);
    assert!(fired(&ev).is_empty());
    assert!(!s.state.rules().sides[1].truce);
    assert_eq!(s.pending(), &[] as &[Throw]);
}
