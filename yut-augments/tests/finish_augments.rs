//! The six finish augments (마무리 증강): each one's effect with scripted throws, and where it
//! does not fire.

mod common;

use common::*;
use game_core::GameError;
use yut::testing::thrown;
use yut::{FinishRule, Origin, Phase, Throw, ThrowChance as C, To, YutEvent, YutOptions};
use yut_augments::{Augment as A, Effect};

// ---- 문턱 낮추기 (low-threshold) -----------------------------------------------------------

#[test]
fn low_threshold_finishes_a_move_ending_on_chammeogi_under_pass() {
    let mut s = script(pack(&[A::LowThreshold]));
    grant(&mut s, 0, A::LowThreshold);
    s.place(0, 28, 1, &[]);
    s.throw(C::Do);
    assert_eq!(s.legal()[0].to, To::GOAL);
    let ev = s.play(0, Origin::Node(28));
    assert_eq!(s.done(0), 1);
    assert_eq!(
        fired_by(&ev, A::LowThreshold),
        vec![(0, Effect::FinishedShort { node: 0 })]
    );
    check(&s);
}

#[test]
fn low_threshold_finishes_on_nineteen_or_twenty_eight_under_reach() {
    let base = YutOptions {
        finish_rule: FinishRule::Reach,
        ..YutOptions::default()
    };
    let mut s = script_with(pack(&[A::LowThreshold]), base, 2);
    grant(&mut s, 0, A::LowThreshold);
    s.place(0, 18, 1, &[]).place(0, 27, 1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(18));
    assert_eq!(
        fired_by(&ev, A::LowThreshold),
        vec![(0, Effect::FinishedShort { node: 19 })]
    );
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(27));
    assert_eq!(
        fired_by(&ev, A::LowThreshold),
        vec![(0, Effect::FinishedShort { node: 28 })]
    );
    assert_eq!(s.done(0), 2);
}

#[test]
fn low_threshold_does_not_fire_two_short_nor_without_it() {
    let mut s = script(pack(&[A::LowThreshold]));
    grant(&mut s, 0, A::LowThreshold);
    s.place(0, 22, 1, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(22));
    assert_eq!(s.stack(0, 27), 1, "two short stays on the board");
    assert!(fired(&ev).is_empty());
    // Side 1 without it stops on 참먹이.
    s.place(1, 28, 1, &[]);
    s.throw(C::Do);
    s.play(0, Origin::Node(28));
    assert_eq!(s.stack(1, 0), 1);
    // A move that finishes anyway is not its doing.
    s.set_turn(0).set_throw(1, &[]);
    s.place(0, 28, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(28));
    assert!(fired(&ev).is_empty());
}

// ---- 한 줄 바람 (one-line-wind) ------------------------------------------------------------

#[test]
fn one_line_wind_turns_the_first_do_or_gae_into_geol() {
    let mut s = script(pack(&[A::OneLineWind]));
    grant(&mut s, 0, A::OneLineWind);
    let ev = s.throw(C::Gae);
    assert_eq!(thrown(&ev), vec![Some(Throw::Gae)]);
    assert_eq!(
        fired_by(&ev, A::OneLineWind),
        vec![(
            0,
            Effect::Substituted {
                from: Throw::Gae,
                to: Throw::Geol
            }
        )]
    );
    assert_eq!(s.pending(), &[Throw::Geol]);
    assert_eq!(uses_left(&s, 0, A::OneLineWind), Some(0));
    s.set_turn(0).set_throw(1, &[]);
    let ev = s.throw(C::Do);
    assert!(fired(&ev).is_empty(), "used up");
    assert_eq!(s.pending(), &[Throw::Do]);
}

#[test]
fn one_line_wind_waits_past_other_results() {
    let mut s = script(pack(&[A::OneLineWind]));
    grant(&mut s, 0, A::OneLineWind);
    s.place(0, 5, 1, &[]);
    for c in [C::Yut, C::Mo, C::Backdo] {
        let ev = s.throw(c);
        assert!(fired(&ev).is_empty(), "{c:?}");
    }
    assert_eq!(uses_left(&s, 0, A::OneLineWind), Some(1));
}

// ---- 골인 환호 (goal-cheer) ----------------------------------------------------------------

#[test]
fn goal_cheer_gives_a_throw_per_finishing_move_twice() {
    let mut s = script(pack(&[A::GoalCheer]));
    grant(&mut s, 0, A::GoalCheer);
    s.place(0, 28, 2, &[]).place(0, 27, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(28));
    assert_eq!(s.done(0), 2);
    assert_eq!(
        fired_by(&ev, A::GoalCheer),
        vec![(0, Effect::ExtraThrows { throws: 1 })],
        "one throw for the move, whatever the stack's size"
    );
    assert_eq!(s.owed(), 1);
    s.throw(C::Geol);
    let ev = s.play(0, Origin::Node(27));
    assert_eq!(fired_by(&ev, A::GoalCheer).len(), 1);
    assert_eq!(uses_left(&s, 0, A::GoalCheer), Some(0));
    s.throw(C::Gae);
    assert_eq!(s.phase(), Phase::Move);
}

#[test]
fn goal_cheer_does_not_fire_when_the_last_piece_finishes() {
    let mut s = script(pack(&[A::GoalCheer]));
    grant(&mut s, 0, A::GoalCheer);
    s.set_done(0, 3).place(0, 28, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(28));
    assert!(ev.iter().any(|e| matches!(e, YutEvent::GameOver { .. })));
    assert!(fired(&ev).is_empty());
    assert_eq!(uses_left(&s, 0, A::GoalCheer), Some(2));
}

// ---- 철벽 업기 (iron-stack) ----------------------------------------------------------------

#[test]
fn iron_stack_makes_a_stack_of_three_uncapturable_and_never_fires() {
    let mut s = script(pack(&[A::IronStack]));
    grant(&mut s, 1, A::IronStack);
    s.place(1, 3, 3, &[]).place(0, 1, 1, &[]);
    let ev = s.throw(C::Gae);
    // 1 → 3 would capture: not legal. Entering on 2 is.
    let legal = s.legal();
    assert!(legal.iter().all(|m| m.captures == 0));
    assert!(!legal.iter().any(|m| m.from == Origin::Node(1)));
    let before = s.json();
    let err = s.try_play(0, Origin::Node(1)).unwrap_err();
    assert_eq!(err.code(), "MOVE_FORBIDDEN");
    assert_eq!(s.json(), before, "a refused move changes nothing");
    assert!(fired(&ev).is_empty());
    let ev = s.play(0, Origin::HOME);
    assert!(fired(&ev).is_empty(), "철벽 업기 never fires an event");
}

#[test]
fn iron_stack_without_a_legal_move_discards_the_result() {
    let mut s = script(pack(&[A::IronStack]));
    grant(&mut s, 1, A::IronStack);
    s.place(1, 3, 3, &[]).place(0, 4, 1, &[]).set_done(0, 3);
    let ev = s.throw(C::Backdo);
    assert!(ev.iter().any(|e| matches!(e, YutEvent::Discarded { .. })));
    assert_eq!(s.stack(0, 4), 1);
}

#[test]
fn iron_stack_does_not_protect_two_pieces_or_a_side_without_it() {
    let mut s = script(pack(&[A::IronStack]));
    grant(&mut s, 1, A::IronStack);
    s.place(1, 3, 2, &[]).place(0, 1, 1, &[]);
    s.throw(C::Gae);
    s.play(0, Origin::Node(1));
    assert_eq!(s.home(1), 4, "a stack of two is captured");
    // Side 0 owns nothing: its stack of three is captured by side 1, which owns it.
    let mut s = script(pack(&[A::IronStack]));
    grant(&mut s, 1, A::IronStack);
    s.place(1, 1, 1, &[]).place(0, 3, 3, &[]).set_turn(1);
    s.throw(C::Gae);
    s.play(0, Origin::Node(1));
    assert_eq!(
        s.home(0),
        4,
        "the capturer's own 철벽 업기 does not protect others"
    );
}

// ---- 뒤집기 바람 (comeback-wind) -----------------------------------------------------------

#[test]
fn comeback_wind_turns_do_into_gae_and_backdo_into_do_while_behind() {
    let mut s = script(pack(&[A::ComebackWind]));
    grant(&mut s, 0, A::ComebackWind);
    s.set_done(1, 1).place(0, 3, 1, &[]);
    let ev = s.throw(C::Do);
    assert_eq!(
        fired_by(&ev, A::ComebackWind),
        vec![(
            0,
            Effect::Substituted {
                from: Throw::Do,
                to: Throw::Gae
            }
        )]
    );
    assert_eq!(s.pending(), &[Throw::Gae]);
    s.set_turn(0).set_throw(1, &[]);
    let ev = s.throw(C::Backdo);
    assert_eq!(
        fired_by(&ev, A::ComebackWind),
        vec![(
            0,
            Effect::Substituted {
                from: Throw::Backdo,
                to: Throw::Do
            }
        )],
        "applied once per result: 빽도 → 도, not on to 개"
    );
    assert_eq!(s.pending(), &[Throw::Do]);
}

#[test]
fn comeback_wind_counts_finished_pieces_of_a_conceded_side() {
    let base = YutOptions::default();
    let mut s = script_with(pack(&[A::ComebackWind]), base, 3);
    grant(&mut s, 0, A::ComebackWind);
    s.set_done(2, 1);
    s.act(2, yut::YutAction::Concede);
    let ev = s.throw(C::Do);
    assert_eq!(fired_by(&ev, A::ComebackWind).len(), 1);
}

#[test]
fn comeback_wind_does_not_fire_when_level_or_ahead() {
    let mut s = script(pack(&[A::ComebackWind]));
    grant(&mut s, 0, A::ComebackWind);
    let ev = s.throw(C::Do);
    assert!(fired(&ev).is_empty(), "level: no change");
    s.set_turn(0).set_throw(1, &[]);
    s.set_done(0, 2).set_done(1, 1);
    let ev = s.throw(C::Do);
    assert!(fired(&ev).is_empty(), "ahead: no change");
}

// ---- 윷 도약 (yut-leap) --------------------------------------------------------------------

#[test]
fn yut_leap_moves_a_yut_five_steps() {
    let mut s = script(pack(&[A::YutLeap]));
    grant(&mut s, 0, A::YutLeap);
    s.throws(&[C::Yut, C::Gae]);
    let ev = s.play_result(Throw::Yut, Origin::HOME);
    assert_eq!(s.stack(0, 5), 1);
    assert_eq!(
        fired_by(&ev, A::YutLeap),
        vec![(
            0,
            Effect::ExtraSteps {
                steps: 1,
                from: Origin::HOME
            }
        )]
    );
    // 5 is a corner: the gae takes the shortcut.
    s.play_result(Throw::Gae, Origin::Node(5));
    assert_eq!(s.stack(0, 21), 1);
}

#[test]
fn yut_leap_does_not_touch_other_results_or_other_sides() {
    let mut s = script(pack(&[A::YutLeap]));
    grant(&mut s, 1, A::YutLeap);
    s.throws(&[C::Yut, C::Gae]);
    let ev = s.play_result(Throw::Yut, Origin::HOME);
    assert_eq!(s.stack(0, 4), 1);
    assert!(fired(&ev).is_empty());
    let ev = s.play_result(Throw::Gae, Origin::Node(4));
    assert!(fired(&ev).is_empty());
    assert_eq!(s.stack(0, 6), 1);
}
