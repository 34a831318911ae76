//! The documented order of result changes and how bonuses combine (README, The augments): the
//! rethrow first, then the substitutions in their chain, then the bonuses on the final
//! result; step bonuses add up.

mod common;

use common::*;
use yut::{Origin, Phase, Throw, ThrowChance as C, YutEvent};
use yut_augments::{Augment as A, AugmentEvent, Effect, Source};

/// The thrown results and the augment ids that fired, in event order.
fn trace(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            YutEvent::Thrown { result, .. } => Some(format!("thrown {}", result.wire())),
            YutEvent::Nak { .. } => Some("nak".to_string()),
            YutEvent::Rule(AugmentEvent::AugmentFired {
                id: Source::Augment(a),
                effect,
                ..
            }) => Some(match effect {
                Effect::Substituted { to, .. } => format!("{a} -> {}", to.wire()),
                _ => a.to_string(),
            }),
            _ => None,
        })
        .collect()
}

#[test]
fn rethrow_runs_before_substitution_and_the_new_throw_runs_the_whole_pipeline() {
    let mut s = script(pack(&[A::SecondLook, A::EraseBackdo]));
    grant(&mut s, 0, A::EraseBackdo);
    grant(&mut s, 0, A::SecondLook);
    s.place(0, 3, 1, &[]);
    rig(&mut s, &[C::Backdo, C::Backdo]);
    let ev = s.throw(C::Backdo);
    assert_eq!(
        trace(&ev),
        vec![
            "thrown backdo",
            "second-look",
            "thrown backdo",
            "second-look",
            "thrown backdo",
            "erase-backdo -> do",
        ]
    );
    assert_eq!(s.pending(), &[Throw::Do]);
}

#[test]
fn rethrow_then_one_line_wind_on_the_new_result() {
    let mut s = script(pack(&[A::SecondLook, A::OneLineWind]));
    grant(&mut s, 0, A::SecondLook);
    grant(&mut s, 0, A::OneLineWind);
    rig(&mut s, &[C::Gae]);
    let ev = s.throw(C::Do);
    assert_eq!(
        trace(&ev),
        vec![
            "thrown do",
            "second-look",
            "thrown gae",
            "one-line-wind -> geol"
        ]
    );
    assert_eq!(uses_left(&s, 0, A::OneLineWind), Some(0));
}

#[test]
fn substitutions_chain_backdo_do_gae_geol() {
    let mut s = script(pack(&[A::EraseBackdo, A::ComebackWind, A::OneLineWind]));
    grant(&mut s, 0, A::EraseBackdo);
    grant(&mut s, 0, A::ComebackWind);
    grant(&mut s, 0, A::OneLineWind);
    s.set_done(1, 1);
    let ev = s.throw(C::Backdo);
    assert_eq!(
        trace(&ev),
        vec![
            "thrown backdo",
            "erase-backdo -> do",
            "comeback-wind -> gae",
            "one-line-wind -> geol",
        ]
    );
    assert_eq!(s.pending(), &[Throw::Geol]);
}

#[test]
fn bonuses_look_at_the_final_result() {
    // 빽도 → 도 by 뒷길 지우기, and 도의 메아리 sees a 도.
    let mut s = script(pack(&[A::EraseBackdo, A::DoEcho]));
    grant(&mut s, 0, A::EraseBackdo);
    grant(&mut s, 0, A::DoEcho);
    let ev = s.throw(C::Backdo);
    assert_eq!(
        trace(&ev),
        vec!["thrown backdo", "erase-backdo -> do", "do-echo"]
    );
    assert_eq!(s.phase(), Phase::Throw);
    // 도 → 걸 by 한 줄 바람: 도의 메아리 sees a 걸 and waits.
    let mut s = script(pack(&[A::OneLineWind, A::DoEcho]));
    grant(&mut s, 0, A::OneLineWind);
    grant(&mut s, 0, A::DoEcho);
    let ev = s.throw(C::Do);
    assert_eq!(trace(&ev), vec!["thrown do", "one-line-wind -> geol"]);
    assert_eq!(uses_left(&s, 0, A::DoEcho), Some(1));
}

#[test]
fn step_bonuses_add_up_on_a_twin_entry() {
    let mut s = script(pack(&[A::FirstStep, A::TwinEntry, A::WalkTogether]));
    grant(&mut s, 0, A::FirstStep);
    grant(&mut s, 0, A::TwinEntry);
    grant(&mut s, 0, A::WalkTogether);
    s.throw(C::Do);
    let ev = s.play(0, Origin::HOME);
    assert_eq!(s.stack(0, 3), 2, "do 1 + first step 1 + walking together 1");
    assert_eq!(s.trail(0, 3), vec![1, 2, 3]);
    assert_eq!(
        trace(&ev),
        vec!["twin-entry", "first-step", "walk-together"],
        "the pair is a stack for walk-together"
    );
    assert!(s.state.rules().sides[0].marks.is_empty());
}

#[test]
fn step_bonuses_add_up_on_a_marked_stack_with_a_yut() {
    let mut s = script(pack(&[A::WalkTogether, A::PiggybackDash, A::YutLeap]));
    grant(&mut s, 0, A::WalkTogether);
    grant(&mut s, 0, A::PiggybackDash);
    grant(&mut s, 0, A::YutLeap);
    s.place(0, 1, 2, &[]);
    s.state.rules_mut().sides[0].marks.insert(1);
    s.throws(&[C::Yut, C::Gae]);
    s.play_result(Throw::Yut, Origin::Node(1));
    assert_eq!(s.stack(0, 8), 2, "4 + 1 + 1 + 1 from node 1");
}

#[test]
fn low_threshold_looks_where_the_move_ends_with_its_bonuses() {
    let mut s = script(pack(&[A::LowThreshold, A::WalkTogether]));
    grant(&mut s, 0, A::LowThreshold);
    grant(&mut s, 0, A::WalkTogether);
    s.place(0, 27, 2, &[]);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(27));
    assert_eq!(s.done(0), 2, "27 + 1 + 1 ends on 0: one short, finished");
    assert_eq!(trace(&ev), vec!["walk-together", "low-threshold"]);
}

#[test]
fn iron_stack_with_a_capture_attempt_under_the_truce_and_the_cushion() {
    let config = yut_augments::AugmentConfig {
        cushion: true,
        truce: true,
        ..pack(&[A::IronStack])
    };
    let mut s = script(config);
    grant(&mut s, 1, A::IronStack);
    s.place(1, 3, 3, &[])
        .place(1, 4, 1, &[])
        .place(0, 2, 1, &[]);
    s.throw(C::Do);
    // 2 → 3 is not legal; home → 1 is; the cushion and truce are untouched.
    assert!(s.try_play(0, Origin::Node(2)).is_err());
    let ev = s.play(0, Origin::HOME);
    assert!(fired(&ev).is_empty());
    assert_eq!(s.state.rules().sides[1].cushions_left(), 1);
    // A capture of the single piece on 4 is legal and uses the cushion.
    s.set_turn(0).set_throw(1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(2));
    assert_eq!(s.stack(1, 1), 0, "node 1 is held by side 0: blocked");
    assert_eq!(s.home(1), 1);
    assert_eq!(fired(&ev).len(), 1);
    check(&s);
}
