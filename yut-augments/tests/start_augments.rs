//! The six start augments (시작 증강): each one's effect with scripted throws, and where it
//! does not fire.

mod common;

use common::*;
use yut::testing::thrown;
use yut::{Origin, Phase, Throw, ThrowChance as C};
use yut_augments::{Augment as A, Effect};

// ---- 첫걸음 한 칸 (first-step) ----------------------------------------------------------

#[test]
fn first_step_enters_one_node_further_through_node_one() {
    let mut s = script(pack(&[A::FirstStep]));
    grant(&mut s, 0, A::FirstStep);
    s.throw(C::Do);
    let ev = s.play(0, Origin::HOME);
    assert_eq!(s.stack(0, 2), 1, "do enters on node 2");
    assert_eq!(s.trail(0, 2), vec![1, 2], "the entry steps on node 1");
    assert_eq!(
        fired_by(&ev, A::FirstStep),
        vec![(
            0,
            Effect::ExtraSteps {
                steps: 1,
                from: Origin::HOME
            }
        )]
    );
    check(&s);
}

#[test]
fn first_step_does_not_fire_for_a_board_piece_or_the_other_side() {
    let mut s = script(pack(&[A::FirstStep]));
    grant(&mut s, 0, A::FirstStep);
    s.place(0, 3, 1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(3));
    assert_eq!(s.stack(0, 4), 1);
    assert!(fired(&ev).is_empty());
    // Side 1 does not own it: do enters on node 1.
    assert_eq!(s.seat(), 1);
    s.throw(C::Do);
    let ev = s.play(0, Origin::HOME);
    assert_eq!(s.stack(1, 1), 1);
    assert!(fired(&ev).is_empty());
}

// ---- 쌍둥이 입장 (twin-entry) -------------------------------------------------------------

#[test]
fn twin_entry_brings_two_waiting_pieces_in_as_one_stack_once() {
    let mut s = script(pack(&[A::TwinEntry]));
    grant(&mut s, 0, A::TwinEntry);
    s.throw(C::Gae);
    let legal = s.legal();
    assert_eq!(legal.len(), 1);
    let ev = s.play(0, Origin::HOME);
    assert_eq!(s.stack(0, 2), 2, "two pieces on node 2 as one stack");
    assert_eq!(s.home(0), 2);
    assert_eq!(
        fired_by(&ev, A::TwinEntry),
        vec![(0, Effect::TwinEntry { count: 2 })]
    );
    assert_eq!(uses_left(&s, 0, A::TwinEntry), Some(0));
    // Used up: the next entry brings one piece.
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Geol);
    let ev = s.play_result(Throw::Geol, Origin::HOME);
    assert_eq!(s.stack(0, 3), 1);
    assert!(fired_by(&ev, A::TwinEntry).is_empty());
    check(&s);
}

#[test]
fn twin_entry_waits_until_two_pieces_wait_at_home() {
    let mut s = script(pack(&[A::TwinEntry]));
    grant(&mut s, 0, A::TwinEntry);
    s.place(0, 7, 2, &[]).set_done(0, 1); // one piece waits
    s.throw(C::Do);
    let ev = s.play(0, Origin::HOME);
    assert_eq!(s.stack(0, 1), 1);
    assert!(fired_by(&ev, A::TwinEntry).is_empty());
    assert_eq!(
        uses_left(&s, 0, A::TwinEntry),
        Some(1),
        "not used up: no effect took place"
    );
}

// ---- 도의 메아리 (do-echo) -----------------------------------------------------------------

#[test]
fn do_echo_gives_one_more_throw_on_a_do_once() {
    let mut s = script(pack(&[A::DoEcho]));
    grant(&mut s, 0, A::DoEcho);
    let ev = s.throw(C::Do);
    assert_eq!(
        fired_by(&ev, A::DoEcho),
        vec![(0, Effect::ExtraThrows { throws: 1 })]
    );
    assert_eq!(s.phase(), Phase::Throw);
    assert_eq!(s.owed(), 1);
    s.throw(C::Geol);
    assert_eq!(s.pending(), &[Throw::Do, Throw::Geol]);
    assert_eq!(uses_left(&s, 0, A::DoEcho), Some(0));
    // Spent: the next do of this side throws no more.
    s.set_turn(0).set_throw(1, &[]);
    let ev = s.throw(C::Do);
    assert!(fired(&ev).is_empty());
    assert_eq!(s.phase(), Phase::Move);
}

#[test]
fn do_echo_does_not_fire_on_other_results() {
    let mut s = script(pack(&[A::DoEcho]));
    grant(&mut s, 0, A::DoEcho);
    let ev = s.throw(C::Gae);
    assert!(fired(&ev).is_empty());
    assert_eq!(s.phase(), Phase::Move);
    assert_eq!(uses_left(&s, 0, A::DoEcho), Some(1));
}

// ---- 뒷길 지우기 (erase-backdo) ------------------------------------------------------------

#[test]
fn erase_backdo_counts_every_backdo_as_do() {
    let mut s = script(pack(&[A::EraseBackdo]));
    grant(&mut s, 0, A::EraseBackdo);
    s.place(0, 3, 1, &[]);
    let ev = s.throw(C::Backdo);
    assert_eq!(
        thrown(&ev),
        vec![Some(Throw::Backdo)],
        "the thrown event shows the sticks"
    );
    assert_eq!(
        fired_by(&ev, A::EraseBackdo),
        vec![(
            0,
            Effect::Substituted {
                from: Throw::Backdo,
                to: Throw::Do
            }
        )]
    );
    assert_eq!(s.pending(), &[Throw::Do]);
    s.play(0, Origin::Node(3));
    assert_eq!(s.stack(0, 4), 1);
    // Unlimited: the next backdo too.
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Backdo);
    assert_eq!(s.pending(), &[Throw::Do]);
}

#[test]
fn erase_backdo_does_not_fire_for_a_side_without_it() {
    let mut s = script(pack(&[A::EraseBackdo]));
    grant(&mut s, 1, A::EraseBackdo);
    s.place(0, 3, 1, &[]);
    let ev = s.throw(C::Backdo);
    assert!(fired(&ev).is_empty());
    assert_eq!(s.pending(), &[Throw::Backdo]);
}

// ---- 함께 걷는 힘 (walk-together) ----------------------------------------------------------

#[test]
fn walk_together_moves_a_stack_one_step_further() {
    let mut s = script(pack(&[A::WalkTogether]));
    grant(&mut s, 0, A::WalkTogether);
    s.place(0, 3, 2, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(3));
    assert_eq!(s.stack(0, 5), 2);
    assert_eq!(
        fired_by(&ev, A::WalkTogether),
        vec![(
            0,
            Effect::ExtraSteps {
                steps: 1,
                from: Origin::Node(3)
            }
        )]
    );
}

#[test]
fn walk_together_does_not_fire_for_a_single_piece_or_a_backdo() {
    let mut s = script(pack(&[A::WalkTogether]));
    grant(&mut s, 0, A::WalkTogether);
    s.place(0, 3, 1, &[]).place(0, 8, 2, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(3));
    assert_eq!(s.stack(0, 4), 1);
    assert!(fired(&ev).is_empty());
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Backdo);
    let ev = s.play(0, Origin::Node(8));
    assert_eq!(s.stack(0, 7), 2, "a backdo takes no bonus");
    assert!(fired(&ev).is_empty());
}

// ---- 모의 덤 (mo-bonus) --------------------------------------------------------------------

#[test]
fn mo_bonus_adds_a_do_to_the_pending_results_once() {
    let mut s = script(pack(&[A::MoBonus]));
    grant(&mut s, 0, A::MoBonus);
    let ev = s.throw(C::Mo);
    assert_eq!(
        fired_by(&ev, A::MoBonus),
        vec![(0, Effect::ExtraResult { result: Throw::Do })]
    );
    assert_eq!(s.pending(), &[Throw::Mo, Throw::Do]);
    assert_eq!(
        s.owed(),
        1,
        "the mo still throws again; the extra do is not a throw"
    );
    s.throw(C::Mo);
    assert_eq!(
        s.pending(),
        &[Throw::Mo, Throw::Do, Throw::Mo],
        "used up: the second mo brings nothing"
    );
    assert_eq!(uses_left(&s, 0, A::MoBonus), Some(0));
}

#[test]
fn mo_bonus_extra_do_triggers_nothing() {
    let mut s = script(pack(&[A::MoBonus, A::DoEcho]));
    grant(&mut s, 0, A::MoBonus);
    grant(&mut s, 0, A::DoEcho);
    let ev = s.throw(C::Mo);
    assert!(fired_by(&ev, A::DoEcho).is_empty());
    assert_eq!(uses_left(&s, 0, A::DoEcho), Some(1));
    assert_eq!(s.owed(), 1);
}

#[test]
fn mo_bonus_does_not_fire_on_a_yut() {
    let mut s = script(pack(&[A::MoBonus]));
    grant(&mut s, 0, A::MoBonus);
    let ev = s.throw(C::Yut);
    assert!(fired(&ev).is_empty());
    assert_eq!(s.pending(), &[Throw::Yut]);
}
