//! The timeout policy (RULES.md, The timeout policy): one test per priority step and
//! per tie-break. Side 0 (seat 0) is to act in every position.

mod common;

use common::*;
use game_core::Game;
use yut::testing::Script;
use yut::{Origin, Throw, YutAction, YutOptions};

fn script() -> Script {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0);
    s
}

/// What the engine plays on a timeout: `(throwIndex, from)`. Also checks that the hint
/// (`policy_move`), `timeout_action` and a real timeout agree.
fn pick(s: &Script) -> (u32, Origin) {
    s.check();
    let m = s.game.policy_move(&s.state).expect("a move");
    let action = s.game.timeout_action(&s.state, 0).unwrap();
    assert_eq!(
        action,
        YutAction::Move {
            throw_index: m.throw_index,
            from: m.from
        }
    );
    let mut timed_out = s.clone();
    timed_out.restart_clock();
    let done = timed_out.tick(30_000);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].action, action);
    (m.throw_index, m.from)
}

#[test]
fn policy_step1_capture_first_most_pieces_first() {
    let mut s = script();
    s.place(0, 2, 1, &[])
        .place(0, 6, 1, &[])
        .place(0, 28, 1, &[])
        .place(1, 4, 2, &[])
        .place(1, 8, 1, &[])
        .set_move(&[Throw::Geol, Throw::Gae]);
    // 28 + 걸 would finish (index 0), 6 + 개 captures one, 2 + 개 captures two.
    assert_eq!(pick(&s), (1, at(2)));
}

#[test]
fn policy_step1_backdo_capture_counts() {
    let mut s = script();
    s.place(0, 6, 1, &[1, 2, 3, 4, 5, 6])
        .place(0, 2, 1, &[])
        .place(1, 5, 1, &[]);
    s.set_move(&[Throw::Gae, Throw::Backdo]);
    assert_eq!(pick(&s), (1, at(6)));
}

#[test]
fn policy_step1_ties_lowest_throw_index_then_node_then_home() {
    // Same count: the lower throw index.
    let mut s = script();
    s.place(0, 2, 1, &[])
        .place(1, 5, 1, &[])
        .place(1, 4, 1, &[])
        .set_move(&[Throw::Geol, Throw::Gae]);
    assert_eq!(pick(&s), (0, at(2)));
    // Same count and index: the lower node.
    let mut s = script();
    s.place(0, 2, 1, &[])
        .place(0, 6, 1, &[])
        .place(1, 4, 1, &[])
        .place(1, 8, 1, &[])
        .set_move(&[Throw::Gae]);
    assert_eq!(pick(&s), (0, at(2)));
    // Same count and index, a node against home: home last.
    let mut s = script();
    s.place(0, 4, 1, &[])
        .place(1, 2, 1, &[])
        .place(1, 6, 1, &[])
        .set_move(&[Throw::Gae]);
    assert_eq!(pick(&s), (0, at(4)));
}

#[test]
fn policy_step2_finishing_before_stacking() {
    let mut s = script();
    s.place(0, 1, 1, &[])
        .place(0, 3, 1, &[])
        .place(0, 27, 1, &[])
        .set_move(&[Throw::Gae, Throw::Geol]);
    // 1 + 개 stacks (index 0); 27 + 개 stops on 0 (pass); 27 + 걸 finishes (index 1).
    assert_eq!(pick(&s), (1, at(27)));
    // A backdo that finishes (backdoFromDo = finish) is a finishing move too.
    let mut s = Script::new(opts(|o| o.backdo_from_do = yut::BackdoFromDo::Finish), 2);
    s.set_turn(0)
        .place(0, 1, 1, &[1])
        .place(0, 3, 1, &[])
        .set_move(&[Throw::Gae, Throw::Backdo]);
    assert_eq!(pick(&s), (1, at(1)));
}

#[test]
fn policy_step3_stacking_before_advancing() {
    let mut s = script();
    s.place(0, 1, 1, &[])
        .place(0, 3, 1, &[])
        .set_move(&[Throw::Mo, Throw::Gae]);
    // 모 moves further (index 0), but 1 + 개 stacks on 3.
    assert_eq!(pick(&s), (1, at(1)));
    // Ties: 2 + 개 stacks on 4 and home + 개 stacks on 2: the node before home.
    let mut s = script();
    s.place(0, 2, 1, &[])
        .place(0, 4, 1, &[])
        .set_move(&[Throw::Gae]);
    assert_eq!(pick(&s), (0, at(2)));
}

#[test]
fn policy_step4_furthest_behind_piece_with_the_largest_result() {
    // A stack of three on 22 (4 each, 12 in all) and one piece on 8 (9): one piece's
    // distance decides, so the piece on 8 moves, with the larger result 개.
    let mut s = script();
    s.place(0, 22, 3, &[])
        .place(0, 8, 1, &[])
        .set_move(&[Throw::Do, Throw::Gae]);
    assert_eq!(pick(&s), (1, at(8)));
    // Board stacks come before entering, even with a waiting piece and a bigger result.
    let mut s = script();
    s.place(0, 22, 1, &[]).set_move(&[Throw::Do, Throw::Mo]);
    assert_eq!(pick(&s), (1, at(22)));
}

#[test]
fn policy_step4_forward_results_only() {
    // The piece on 8 is furthest behind; its backdo is not a step-4 move, its 도 is.
    let mut s = script();
    s.place(0, 8, 1, &[])
        .place(0, 22, 1, &[])
        .set_move(&[Throw::Backdo, Throw::Do]);
    assert_eq!(pick(&s), (1, at(8)));
}

#[test]
fn policy_step4_ties_lowest_throw_index_then_node() {
    // 7 and 11 are both 10 from the goal: the lower node.
    let mut s = script();
    s.place(0, 7, 1, &[])
        .place(0, 11, 1, &[])
        .set_move(&[Throw::Gae]);
    assert_eq!(pick(&s), (0, at(7)));
    // The same result twice: the lower throw index.
    let mut s = script();
    s.place(0, 7, 1, &[]).set_move(&[Throw::Gae, Throw::Gae]);
    assert_eq!(pick(&s), (0, at(7)));
}

#[test]
fn policy_step5_entering_lowest_throw_index() {
    // Nothing on the board: enter, with the lowest throw index (not the largest result).
    let mut s = script();
    s.set_move(&[Throw::Do, Throw::Gae]);
    assert_eq!(pick(&s), (0, HOME));
    // The unusable backdo is skipped.
    let mut s = script();
    s.set_move(&[Throw::Backdo, Throw::Gae]);
    assert_eq!(pick(&s), (1, HOME));
}

#[test]
fn policy_plain_backdo_last_lowest_node() {
    let mut s = script();
    s.place(0, 3, 1, &[])
        .place(0, 7, 1, &[])
        .set_move(&[Throw::Backdo]);
    assert_eq!(pick(&s), (0, at(3)));
    // With backdoFromDo = home, the backdo sending a piece home is a plain backdo too.
    let mut s = Script::new(opts(|o| o.backdo_from_do = yut::BackdoFromDo::Home), 2);
    s.set_turn(0)
        .place(0, 1, 1, &[1])
        .place(0, 7, 1, &[])
        .set_move(&[Throw::Backdo]);
    assert_eq!(pick(&s), (0, at(1)));
}

#[test]
fn policy_throw_phase_throws_and_nobody_else_times_out() {
    let s = script();
    assert_eq!(s.game.timeout_action(&s.state, 0), Some(YutAction::Throw));
    assert_eq!(s.game.timeout_action(&s.state, 1), None);
}

/// The options and player counts the shortcuts of the `Game` trait are checked under: two
/// players, four, four in teams.
fn shortcut_setups() -> [(YutOptions, usize); 3] {
    [
        (YutOptions::default(), 2),
        (YutOptions::default(), 4),
        (serde_json::from_str(r#"{"mode":"team"}"#).unwrap(), 4),
    ]
}

#[test]
fn times_out_answers_like_the_timeout_action() {
    for (options, n) in shortcut_setups() {
        game_core::testing::assert_times_out_agrees(&yut::Yut::standard(), &options, n);
    }
}

#[test]
fn first_to_act_is_the_first_of_to_act() {
    for (options, n) in shortcut_setups() {
        game_core::testing::assert_first_to_act_agrees(&yut::Yut::standard(), &options, n);
    }
}
