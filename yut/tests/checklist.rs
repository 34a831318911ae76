//! The test checklist: one test per item, each a rule the engine must get right. (The first item,
//! the throw frequencies, is `checklist_throw_frequencies` in `throw_frequencies.rs`.)

mod common;

use common::*;
use game_core::GameExt;
use game_core::GameState;
use game_core::{Bot, Game, RandomBot, Viewer};
use yut::testing::{Script, players, thrown, trail_to};
use yut::{
    FinishRule, Mode, Phase, Ranking, Throw, ThrowChance, To, Yut, YutAction, YutEvent, YutOptions,
};

#[test]
fn checklist_yut_mo_geol_pending_and_example1() {
    let mut s = Script::new(YutOptions::default(), 2);
    let seat = s.seat();
    let side = s.side();
    s.throw(ThrowChance::Yut);
    assert_eq!((s.phase(), s.owed()), (Phase::Throw, 1), "윷 throws again");
    s.throw(ThrowChance::Mo);
    assert_eq!((s.phase(), s.owed()), (Phase::Throw, 1), "모 throws again");
    s.throw(ThrowChance::Geol);
    assert_eq!(s.phase(), Phase::Move, "걸 stops the throwing");
    assert_eq!(s.pending(), &[Throw::Yut, Throw::Mo, Throw::Geol]);
    // Any order: every pending result can be used first.
    let legal = s.legal();
    for i in 0..3 {
        assert!(legal.iter().any(|m| m.throw_index == i && m.from == HOME));
    }
    // Example 1: 모 enters onto 5, 걸 turns onto the diagonal and stops on 방, 윷 finishes.
    let ev = s.play_result(Throw::Mo, HOME);
    assert_eq!(moves(&ev)[0].1, To::Node(5));
    let ev = s.play_result(Throw::Geol, at(5));
    assert_eq!(moves(&ev)[0].2, vec![5, 20, 21, 22]);
    let ev = s.play_result(Throw::Yut, at(22));
    assert_eq!(moves(&ev)[0].1, To::GOAL);
    assert_eq!(moves(&ev)[0].2, vec![22, 27, 28, 0]);
    assert_eq!(finished(&ev), Some(1));
    assert_eq!(s.done(side), 1);
    assert!(turn_changed(&ev).is_some());
    assert_ne!(s.seat(), seat);
    s.check();
}

#[test]
fn checklist_passing_mo_does_not_turn() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 4, 1, &[])
        .set_move(&[Throw::Geol])
        .check();
    let ev = s.play(0, at(4));
    assert_eq!(
        moves(&ev)[0].2,
        vec![4, 5, 6, 7],
        "passing 모 goes straight on"
    );
    assert_eq!(s.trail(0, 7), vec![1, 2, 3, 4, 5, 6, 7]);

    // Stopping on 5 with one move, then starting from it: the shortcut.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 3, 1, &[])
        .set_move(&[Throw::Gae, Throw::Do]);
    s.play_result(Throw::Gae, at(3));
    assert_eq!(s.stack(0, 5), 1);
    let legal = s.legal();
    assert_eq!(legal.len(), 2, "do from 5 and do from home: {legal:?}");
    assert!(
        legal
            .iter()
            .any(|m| m.from == at(5) && m.to == To::Node(20))
    );
    let ev = s.play_result(Throw::Do, at(5));
    assert_eq!(moves(&ev)[0].2, vec![5, 20]);
    // The same from 뒷모 (10): stopped there, the next move turns onto 25.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0).place(0, 10, 1, &[]).set_move(&[Throw::Gae]);
    assert_eq!(moves(&s.play(0, at(10)))[0].2, vec![10, 25, 26]);
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0).place(0, 9, 1, &[]).set_move(&[Throw::Gae]);
    assert_eq!(
        moves(&s.play(0, at(9)))[0].2,
        vec![9, 10, 11],
        "passing 뒷모 goes straight on"
    );
}

#[test]
fn checklist_bang_straight_and_turn() {
    let cases: [(u8, Throw, Vec<u8>); 5] = [
        (21, Throw::Gae, vec![21, 22, 23]), // passing from 21: straight to 23
        (21, Throw::Geol, vec![21, 22, 23, 24]),
        (26, Throw::Gae, vec![26, 22, 27]), // passing from 26: straight to 27
        (22, Throw::Do, vec![22, 27]),      // starting on 방: toward 참먹이
        (22, Throw::Geol, vec![22, 27, 28, 0]),
    ];
    for (from, result, path) in cases {
        let mut s = Script::new(YutOptions::default(), 2);
        s.set_turn(0)
            .place(0, from, 1, &[])
            .set_move(&[result])
            .check();
        let ev = s.play(0, at(from));
        assert_eq!(moves(&ev)[0].2, path, "{result:?} from {from}");
    }
    // A piece that came from 26 and stopped on 방 also leaves toward 27.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 22, 1, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 26, 22])
        .set_move(&[Throw::Do]);
    assert_eq!(moves(&s.play(0, at(22)))[0].2, vec![22, 27]);
    // Stopping on 방 with one move and leaving with the next (same turn): 27.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 21, 1, &[])
        .set_move(&[Throw::Do, Throw::Do]);
    assert_eq!(moves(&s.play(0, at(21)))[0].2, vec![21, 22]);
    assert_eq!(moves(&s.play(0, at(22)))[0].2, vec![22, 27]);
}

#[test]
fn checklist_jjimo_never_turns() {
    // Stopped on 찌모 (15), whichever way it came: 16.
    for trail in [trail_to(15), vec![1, 2, 3, 4, 5, 20, 21, 22, 23, 24, 15]] {
        let mut s = Script::new(YutOptions::default(), 2);
        s.set_turn(0)
            .place(0, 15, 1, &trail)
            .set_move(&[Throw::Gae])
            .check();
        assert_eq!(moves(&s.play(0, at(15)))[0].2, vec![15, 16, 17]);
    }
    // Passing it, from the ring or from the diagonal: 16 as well.
    for (from, result, path) in [
        (14, Throw::Gae, vec![14, 15, 16]),
        (24, Throw::Gae, vec![24, 15, 16]),
        (23, Throw::Geol, vec![23, 24, 15, 16]),
    ] {
        let mut s = Script::new(YutOptions::default(), 2);
        s.set_turn(0).place(0, from, 1, &[]).set_move(&[result]);
        assert_eq!(moves(&s.play(0, at(from)))[0].2, path);
    }
}

#[test]
fn checklist_pass_and_reach_at_chammeogi() {
    // pass: 28 + 도 stops on 0 and has not finished.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 28, 1, &[])
        .place(1, 27, 1, &[])
        .set_move(&[Throw::Do]);
    let ev = s.play(0, at(28));
    assert_eq!(moves(&ev)[0].1, To::Node(0));
    assert_eq!(finished(&ev), None);
    assert_eq!((s.stack(0, 0), s.done(0)), (1, 0));
    let view = s.view(None);
    assert!(
        view.sides[0]
            .pieces
            .iter()
            .any(|p| p.node == Some(0) && p.lapped)
    );
    // The opponent stops on 0 and captures it.
    assert_eq!(s.seat(), 1);
    s.throw(ThrowChance::Gae);
    let ev = s.play(0, at(27));
    assert_eq!(captures(&ev), vec![(1, 0, 0, 1)]);
    assert_eq!(s.home(0), 4);

    // pass: standing on 0, the next 도 finishes.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0).place(0, 28, 1, &[]).set_move(&[Throw::Do]);
    s.play(0, at(28));
    s.set_turn(0).set_move(&[Throw::Do]);
    let legal = s.legal();
    assert!(
        legal
            .iter()
            .any(|m| m.from == at(0) && m.finishes && m.to == To::GOAL)
    );
    let ev = s.play(0, at(0));
    assert_eq!(finished(&ev), Some(1));
    assert_eq!(moves(&ev)[0].2, vec![0]);

    // reach: 28 + 도 finishes at once.
    let reach = opts(|o| o.finish_rule = FinishRule::Reach);
    let mut s = Script::new(reach.clone(), 2);
    s.set_turn(0).place(0, 28, 1, &[]).set_move(&[Throw::Do]);
    let ev = s.play(0, at(28));
    assert_eq!(moves(&ev)[0].1, To::GOAL);
    assert_eq!(finished(&ev), Some(1));
    assert_eq!(s.stack(0, 0), 0);
    // reach: 19 + 도 as well.
    let mut s = Script::new(reach, 2);
    s.set_turn(0).place(0, 19, 1, &[]).set_move(&[Throw::Do]);
    assert_eq!(finished(&s.play(0, at(19))), Some(1));
}

#[test]
fn checklist_backdo_follows_trail() {
    // Came 21 → 22: back to 21.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 22, 1, &[])
        .set_move(&[Throw::Backdo, Throw::Gae]);
    let ev = s.play_result(Throw::Backdo, at(22));
    assert_eq!(moves(&ev)[0].1, To::Node(21));
    assert_eq!(s.trail(0, 21), vec![1, 2, 3, 4, 5, 20, 21]);
    // Then 개 from 21 passes 방 straight on to 23.
    let ev = s.play_result(Throw::Gae, at(21));
    assert_eq!(moves(&ev)[0].2, vec![21, 22, 23]);

    // Came 26 → 22: back to 26.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 22, 1, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 26, 22])
        .set_move(&[Throw::Backdo]);
    let ev = s.play(0, at(22));
    assert_eq!(moves(&ev)[0].1, To::Node(26));
}

#[test]
fn checklist_backdo_from_do() {
    // chammeogi: to 0 as a lapped piece; the next 개 finishes it.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 1, 1, &[1])
        .set_move(&[Throw::Backdo, Throw::Gae]);
    let ev = s.play_result(Throw::Backdo, at(1));
    assert_eq!(moves(&ev)[0].1, To::Node(0));
    assert!(s.view(None).sides[0].pieces.iter().any(|p| p.lapped));
    let ev = s.play_result(Throw::Gae, at(0));
    assert_eq!(finished(&ev), Some(1));
    assert_eq!(s.done(0), 1);

    // finish: out at once.
    let mut s = Script::new(opts(|o| o.backdo_from_do = yut::BackdoFromDo::Finish), 2);
    s.set_turn(0)
        .place(0, 1, 1, &[1])
        .set_move(&[Throw::Backdo]);
    assert!(s.legal()[0].finishes);
    let ev = s.play(0, at(1));
    assert_eq!(moves(&ev)[0].1, To::GOAL);
    assert_eq!(finished(&ev), Some(1));
}

#[test]
fn checklist_unusable_backdo_discarded() {
    // Nothing on the board and only a backdo: dropped, and the turn passes.
    let mut s = Script::new(YutOptions::default(), 2);
    let seat = s.seat();
    let ev = s.throw(ThrowChance::Backdo);
    assert_eq!(discarded(&ev), Some(vec![Throw::Backdo]));
    assert_eq!(turn_changed(&ev), Some((1 - seat) as u8));
    assert_eq!((s.phase(), s.pending()), (Phase::Throw, &[][..]));
    s.check();

    // [윷, 빽도] with nothing on the board: the 윷 enters, then the backdo applies to it.
    let mut s = Script::new(YutOptions::default(), 2);
    s.throws(&[ThrowChance::Yut, ThrowChance::Backdo]);
    assert_eq!(s.phase(), Phase::Move);

    // pending [빽도, 개]: the backdo cannot enter, the 개 can; afterwards the backdo can be used.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0).set_move(&[Throw::Backdo, Throw::Gae]).check();
    let legal = s.legal();
    assert_eq!(legal.len(), 1);
    assert_eq!((legal[0].throw_index, legal[0].from), (1, HOME));
    let before = s.json();
    let err = s.try_play(0, HOME).unwrap_err();
    assert_error(
        &err,
        "BACKDO_FROM_HOME",
        "빽도로는 대기 말을 올릴 수 없어요.",
    );
    assert_eq!(s.json(), before);
    s.play(1, HOME);
    assert_eq!(s.phase(), Phase::Move);
    assert_eq!(s.pending(), &[Throw::Backdo]);
    let ev = s.play(0, at(2));
    assert_eq!(moves(&ev)[0].1, To::Node(1));
    assert_eq!(s.trail(0, 1), vec![1]);
    assert_eq!(s.seat(), 1);
}

#[test]
fn checklist_stacking() {
    // Stopping on an own piece stacks.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 1, 1, &[])
        .place(0, 3, 1, &[])
        .set_move(&[Throw::Gae]);
    let ev = s.play(0, at(1));
    assert!(ev.iter().any(|e| matches!(
        e,
        YutEvent::Stacked {
            side: 0,
            node: 3,
            count: 2
        }
    )));
    assert_eq!(s.stack(0, 3), 2);
    assert_eq!(
        s.trail(0, 3),
        vec![1, 2, 3],
        "the stack keeps the moving piece's trail"
    );

    // The stack moves as one.
    s.set_turn(0).set_move(&[Throw::Gae]);
    assert_eq!(s.legal().len(), 2, "the stack and a waiting piece");
    let ev = s.play(0, at(3));
    assert_eq!(moves(&ev)[0].3, 2);
    assert_eq!(s.stack(0, 5), 2);

    // ... and finishes as one.
    s.set_turn(0).set_move(&[Throw::Geol]);
    s.play(0, at(5));
    s.set_turn(0).set_move(&[Throw::Yut]);
    let ev = s.play(0, at(22));
    assert_eq!(finished(&ev), Some(2));
    assert_eq!(s.done(0), 2);

    // A captured stack of two goes home whole; the capturer earns one throw.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(1)
        .place(0, 3, 2, &[])
        .place(1, 2, 1, &[])
        .set_move(&[Throw::Do])
        .check();
    let ev = s.play(0, at(2));
    assert_eq!(captures(&ev), vec![(1, 0, 3, 2)]);
    assert_eq!(s.home(0), 4);
    assert_eq!((s.phase(), s.owed(), s.seat()), (Phase::Throw, 1, 1));

    // Team play: team-mates' pieces stack (they are one side's pieces).
    let mut s = Script::new(opts(|o| o.mode = Mode::Team), 4);
    s.set_turn(2).place(0, 2, 1, &[]).set_move(&[Throw::Gae]);
    s.play(0, HOME);
    assert_eq!(s.stack(0, 2), 2);
}

#[test]
fn checklist_capture_bonus() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 2, 1, &[])
        .place(1, 4, 1, &[])
        .set_move(&[Throw::Gae, Throw::Geol]);
    let ev = s.play(0, at(2));
    assert_eq!(captures(&ev), vec![(0, 1, 4, 1)]);
    assert_eq!(s.phase(), Phase::Throw, "a capture earns a throw at once");
    assert_eq!(s.owed(), 1);
    assert_eq!(s.pending(), &[Throw::Geol], "the pending results stay");
    assert_eq!(s.seat(), 0);
    // A 윷 on the bonus throw throws again.
    s.throw(ThrowChance::Yut);
    assert_eq!((s.phase(), s.owed()), (Phase::Throw, 1));
    s.throw(ThrowChance::Do);
    assert_eq!(s.phase(), Phase::Move);
    assert_eq!(s.pending(), &[Throw::Geol, Throw::Yut, Throw::Do]);

    // Two captures in one turn: one bonus each.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 2, 1, &[])
        .place(0, 6, 1, &[])
        .place(1, 3, 1, &[])
        .place(1, 8, 1, &[])
        .set_move(&[Throw::Do, Throw::Gae]);
    s.play(0, at(2));
    s.throw(ThrowChance::Geol);
    assert_eq!(s.pending(), &[Throw::Gae, Throw::Geol]);
    let ev = s.play(0, at(6));
    assert_eq!(captures(&ev).len(), 1);
    assert_eq!((s.phase(), s.owed()), (Phase::Throw, 1));

    // backdoCaptureBonus: a backdo capture earns a throw only when it is on.
    for (bonus, phase) in [(true, Phase::Throw), (false, Phase::Move)] {
        let mut s = Script::new(opts(|o| o.backdo_capture_bonus = bonus), 2);
        s.set_turn(0)
            .place(0, 6, 1, &[])
            .place(1, 5, 1, &[])
            .set_move(&[Throw::Backdo, Throw::Do]);
        let ev = s.play(0, at(6));
        assert_eq!(captures(&ev), vec![(0, 1, 5, 1)]);
        assert_eq!(s.phase(), phase, "backdoCaptureBonus = {bonus}");
    }
}

#[test]
fn checklist_passing_does_not_capture() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 2, 1, &[])
        .place(1, 3, 1, &[])
        .place(1, 4, 1, &[])
        .set_move(&[Throw::Geol]);
    let legal = s.legal();
    let from_2 = legal.iter().find(|m| m.from == at(2)).unwrap();
    assert_eq!((from_2.to, from_2.captures), (To::Node(5), 0));
    let ev = s.play(0, at(2));
    assert!(captures(&ev).is_empty());
    assert_eq!((s.stack(1, 3), s.stack(1, 4), s.stack(0, 5)), (1, 1, 1));
    assert_eq!(s.seat(), 1, "no bonus throw");
    // Passing 0 does not capture a lapped piece either (pass: 28 + 개 goes through 0 and out).
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 28, 1, &[])
        .place(1, 0, 1, &[])
        .set_move(&[Throw::Gae]);
    let ev = s.play(0, at(28));
    assert!(captures(&ev).is_empty());
    assert_eq!((s.done(0), s.stack(1, 0)), (1, 1));
}

#[test]
fn checklist_nak() {
    let nak = opts(|o| o.nak_percent = 10);
    // A nak after a 윷: no result, the 윷 stays, on to the move phase.
    let mut s = Script::new(nak.clone(), 2);
    let seat = s.seat();
    s.throw(ThrowChance::Yut);
    let ev = s.throw(ThrowChance::Nak);
    assert_eq!(thrown(&ev), vec![None]);
    assert_eq!(s.phase(), Phase::Move);
    assert_eq!(s.pending(), &[Throw::Yut]);
    assert_eq!(s.seat(), seat);
    let view = s.view(None);
    assert_eq!(view.last_throw.unwrap().result, ThrowChance::Nak);
    assert_eq!(view.last_throw.unwrap().sticks, None);
    // A nak on the first throw: nothing to move, the turn passes (nothing is discarded).
    let mut s = Script::new(nak.clone(), 2);
    let ev = s.throw(ThrowChance::Nak);
    assert_eq!(discarded(&ev), None);
    assert_eq!(turn_changed(&ev), Some((1 - seat) as u8));
    // A nak on a capture's bonus throw keeps the pending results too.
    let mut s = Script::new(nak, 2);
    s.set_turn(0)
        .place(0, 1, 1, &[])
        .place(1, 2, 1, &[])
        .set_move(&[Throw::Do, Throw::Gae]);
    s.play(0, at(1));
    s.throw(ThrowChance::Nak);
    assert_eq!((s.phase(), s.pending()), (Phase::Move, &[Throw::Gae][..]));
    // Without nak in the options, a nak cannot be forced.
    let mut s = Script::new(YutOptions::default(), 2);
    assert_error(
        &s.try_throw(ThrowChance::Nak).unwrap_err(),
        "IMPOSSIBLE_OUTCOME",
        "그 결과는 지금 나올 수 없어요.",
    );
}

#[test]
fn checklist_team_turn_order_and_out_of_turn_error() {
    let game = Yut::standard();
    let team = opts(|o| o.mode = Mode::Team);
    let mut firsts = [false; 2];
    for seed in 0..40 {
        let state = game.setup(&team, &players(4), seed, 0).unwrap();
        let order = state.board().turn_order();
        let first = state.board().current_side();
        firsts[usize::from(first)] = true;
        // 청 = even seats (side 0), 홍 = odd seats (side 1); the first team's member 1 starts.
        let expected: Vec<u8> = if first == 0 {
            vec![0, 1, 2, 3]
        } else {
            vec![1, 0, 3, 2]
        };
        assert_eq!(order[..], expected[..], "seed {seed}");
        assert_eq!(usize::from(order[0]), state.board().current_seat());
    }
    assert_eq!(firsts, [true, true], "the RNG picks either team to start");

    // Play 청1 → 홍1 → 청2 → 홍2 → 청1 through real turns.
    let seed = (0..40)
        .find(|&s| {
            game.setup(&team, &players(4), s, 0)
                .unwrap()
                .board()
                .current_side()
                == 0
        })
        .unwrap();
    let mut s = Script::with_seed(team, 4, seed);
    let mut seen = Vec::new();
    // 청 enters on 3 and 홍 on 2, so no move captures and every turn is one throw.
    for chance in [
        ThrowChance::Geol,
        ThrowChance::Gae,
        ThrowChance::Geol,
        ThrowChance::Gae,
        ThrowChance::Geol,
    ] {
        seen.push(s.seat());
        s.throw(chance);
        s.play(0, HOME);
    }
    assert_eq!(seen, vec![0, 1, 2, 3, 0]);
    assert_eq!((s.stack(0, 3), s.stack(1, 2)), (3, 2));

    // 홍1's move phase: 청2's MOVE is refused, and so is 홍2's (the team-mate out of turn).
    assert_eq!(s.seat(), 1);
    s.throw(ThrowChance::Do);
    assert_eq!(s.phase(), Phase::Move);
    let before = s.json();
    let mv = YutAction::Move {
        throw_index: 0,
        from: HOME,
    };
    for seat in [2, 3, 0] {
        let err = s.try_act(seat, mv).unwrap_err();
        assert_error(&err, "NOT_YOUR_TURN", "지금은 다른 사람 차례예요.");
        let err = s.game.apply(&mut s.state, seat, &mv, 0).unwrap_err();
        assert_error(&err, "NOT_YOUR_TURN", "지금은 다른 사람 차례예요.");
    }
    assert_eq!(s.json(), before);
    s.act(1, mv);
}

#[test]
fn checklist_ranking_all_three_players() {
    let all = opts(|o| {
        o.ranking = Ranking::All;
        o.pieces = 2;
    });
    let mut s = Script::new(all.clone(), 3);
    s.set_turn(0)
        .set_done(0, 1)
        .place(0, 28, 1, &[])
        .set_move(&[Throw::Geol])
        .check();
    let ev = s.play(0, at(28));
    assert!(
        ev.iter()
            .any(|e| matches!(e, YutEvent::SideFinished { side: 0, rank: 1 }))
    );
    assert!(!game_over(&ev), "ranking = all goes on");
    assert_eq!(s.phase(), Phase::Throw);
    // Seat 0 never gets a turn again.
    for _ in 0..60 {
        assert_ne!(s.seat(), 0);
        match s.phase() {
            Phase::Throw => {
                s.throw(ThrowChance::Gae);
            }
            _ => {
                let m = s.game.policy_move(&s.state).unwrap();
                s.play(m.throw_index, m.from);
            }
        }
        if s.phase() == Phase::Finished {
            break;
        }
    }
    // Finish side 1: the game ends, side 2 is last.
    let mut s = Script::new(all.clone(), 3);
    s.set_turn(0)
        .set_done(0, 1)
        .place(0, 28, 1, &[])
        .set_move(&[Throw::Geol]);
    s.play(0, at(28));
    s.clear();
    s.set_done(1, 1)
        .place(1, 0, 1, &[])
        .place(2, 10, 1, &[])
        .set_turn(1)
        .set_move(&[Throw::Do]);
    s.set_finished(0, 1);
    s.check();
    let ev = s.play(0, at(0));
    assert!(
        ev.iter()
            .any(|e| matches!(e, YutEvent::SideFinished { side: 1, rank: 2 }))
    );
    assert!(game_over(&ev));
    let result = s.game.outcome(&s.state).unwrap();
    let ranks: Vec<(u8, u8)> = result.ranking.iter().map(|p| (p.side, p.rank)).collect();
    assert_eq!(ranks, vec![(0, 1), (1, 2), (2, 3)]);
    assert_eq!(result.winners, vec!["p0".to_string()]);

    // Whole random games: every side but the last gets its place, in order.
    let game = Yut::standard();
    for seed in 0..20 {
        let mut state = game.setup(&all, &players(3), seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        let mut finished_sides: Vec<u8> = Vec::new();
        while !game.is_over(&state) {
            let seat = game.to_act(&state)[0];
            assert!(!finished_sides.contains(&state.board().side_of()[seat]));
            let a = bot.choose(&game, &state, seat).unwrap();
            for e in game.apply(&mut state, seat, &a, 0).unwrap() {
                if let YutEvent::SideFinished { side, rank } = e {
                    finished_sides.push(side);
                    assert_eq!(usize::from(rank), finished_sides.len());
                }
            }
        }
        assert_eq!(finished_sides.len(), 2);
        let result = game.outcome(&state).unwrap();
        assert_eq!(
            result.ranking.iter().map(|p| p.rank).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        assert_eq!(result.ranking[0].side, finished_sides[0]);
        assert_eq!(result.ranking[1].side, finished_sides[1]);
    }
}

#[test]
fn checklist_timeouts() {
    // Throw phase: the engine throws.
    let mut s = Script::new(YutOptions::default(), 2);
    let seat = s.seat();
    assert_eq!(s.state.table().deadline_at(), Some(30_000));
    assert!(s.tick(29_999).is_empty());
    let done = s.tick(30_000);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].action, YutAction::Throw);
    assert_eq!(done[0].player, format!("p{seat}"));
    assert!(done[0].auto);
    assert_eq!(thrown(&done[0].events).len(), 1);
    assert_eq!(s.state.table().presence()[seat].timeouts_in_row, 1);
    assert_eq!(s.state.table().turn_seq(), 1);

    // Move phase: the capture is taken.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 2, 1, &[])
        .place(0, 10, 1, &[])
        .place(1, 4, 1, &[])
        .set_move(&[Throw::Gae])
        .restart_clock();
    let done = s.tick(30_000);
    assert_eq!(done.len(), 1);
    assert_eq!(
        done[0].action,
        YutAction::Move {
            throw_index: 0,
            from: at(2)
        }
    );
    assert_eq!(captures(&done[0].events), vec![(0, 1, 4, 1)]);
    // The capture's bonus throw gets a fresh deadline.
    assert_eq!(s.state.table().deadline_at(), Some(60_000));

    // Three timeouts in a row mark the player away; their own action brings them back.
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 2, 1, &[])
        .place(1, 12, 1, &[])
        .restart_clock();
    let mut now = 0;
    for _ in 0..3 {
        s.set_turn(0).set_move(&[Throw::Do]).restart_clock();
        now += 30_000;
        assert_eq!(s.tick(now).len(), 1);
        s.now = now;
    }
    assert!(s.state.table().presence()[0].away);
    assert!(s.view(None).presence[0].away);
    s.set_turn(0).set_throw(1, &[]);
    s.throw(ThrowChance::Gae);
    assert!(!s.state.table().presence()[0].away);
    assert_eq!(s.state.table().presence()[0].timeouts_in_row, 0);

    // turnSeconds = null: no deadline, no timeout.
    let mut s = Script::new(opts(|o| o.turn_seconds = None), 2);
    assert_eq!(s.state.table().deadline_at(), None);
    assert!(s.tick(10_000_000).is_empty());
}

#[test]
fn checklist_disconnect_grace_and_reconnect_view() {
    let game = Yut::standard();
    let unlimited = opts(|o| o.turn_seconds = None);
    let mut s = Script::new(unlimited, 2);
    let seat = s.seat();
    let other = 1 - seat;
    let me = format!("p{seat}");
    let them = format!("p{other}");
    // The player to act disconnects at 1000: acted for after the 5 s grace.
    game.set_connected(&mut s.state, &me, false, 1_000).unwrap();
    assert!(!s.view(None).presence[seat].connected);
    assert!(s.tick(5_999).is_empty());
    let done = s.tick(6_000);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].player, me);
    assert!(done[0].auto);

    // The other player disconnects before their turn: the grace runs from when it starts.
    let mut s = Script::new(opts(|o| o.turn_seconds = None), 2);
    game.set_connected(&mut s.state, &them, false, 0).unwrap();
    s.now = 10_000;
    s.throw(ThrowChance::Gae);
    s.play(0, HOME);
    assert_eq!(s.seat(), other);
    assert!(s.tick(14_999).is_empty());
    let done = s.tick(15_000);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].player, them);
    assert_eq!(done[0].action, YutAction::Throw);
    // Keep them in a move phase, then they reconnect: the view they get at once is current.
    s.set_turn(other).set_move(&[Throw::Geol]);
    let limit = s.state.board().options().turn_seconds;
    s.table_mut().ask(15_000, limit);
    game.set_connected(&mut s.state, &them, true, 15_500)
        .unwrap();
    let view = game.view(&s.state, Viewer::Player(&them));
    assert!(view.presence[other].connected);
    assert_eq!(view.turn.as_ref().unwrap().player, them);
    assert_eq!(view.turn_seq, s.state.table().turn_seq());
    assert_eq!(view.phase, Phase::Move);
    assert_eq!(view.pending, vec![Throw::Geol]);
    assert_eq!(view.legal_moves.as_deref(), Some(&s.legal()[..]));
    // Reconnected and no time limit: nobody acts for them any more.
    assert!(s.tick(1_000_000).is_empty());
    // The other player's view has no legal moves.
    assert!(
        game.view(&s.state, Viewer::Player(&me))
            .legal_moves
            .is_none()
    );
}

#[test]
fn checklist_view_has_no_rng() {
    let game = Yut::standard();
    for (seed, n, mode) in [
        (1u64, 2usize, Mode::Individual),
        (2, 4, Mode::Individual),
        (3, 6, Mode::Team),
    ] {
        let options = opts(|o| {
            o.mode = mode;
            o.nak_percent = 5;
        });
        let ids = players(n);
        let mut state = game.setup(&options, &ids, seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        let mut step = 0;
        loop {
            let state_json = serde_json::to_string(&state).unwrap();
            assert!(
                state_json.contains("\"rng\""),
                "the stored state keeps its RNG"
            );
            let rng_json = serde_json::to_value(state.table()).unwrap()["rng"].to_string();
            let forked = game.fork(&state, seed ^ 0xdead_beef);
            let viewers: Vec<Viewer> = ids
                .iter()
                .map(|p| Viewer::Player(p))
                .chain([Viewer::Spectator])
                .collect();
            for viewer in viewers {
                let json = serde_json::to_string(&game.view(&state, viewer)).unwrap();
                assert_no_rng(&json);
                assert!(!json.contains(&rng_json));
                // A different future gives the same view: nothing in it predicts a throw.
                let other = serde_json::to_string(&game.view(&forked, viewer)).unwrap();
                assert_eq!(json, other);
            }
            if game.is_over(&state) || step > 400 {
                break;
            }
            let seat = game.to_act(&state)[0];
            let a = bot.choose(&game, &state, seat).unwrap();
            game.apply(&mut state, seat, &a, step).unwrap();
            step += 1;
        }
    }
}

/// No key or word of the RNG anywhere in a serialized view.
fn assert_no_rng(json: &str) {
    let lower = json.to_lowercase();
    for word in [
        "rng", "seed", "chacha", "stream", "word_pos", "wordpos", "nonce", "counter",
    ] {
        assert!(!lower.contains(word), "view mentions {word:?}: {json}");
    }
}

#[test]
fn checklist_replay_determinism() {
    let game = Yut::standard();
    for seed in 0..30u64 {
        let options = opts(|o| {
            o.nak_percent = [0, 3, 5, 10][(seed % 4) as usize];
            o.mode = if seed.is_multiple_of(3) {
                Mode::Team
            } else {
                Mode::Individual
            };
        });
        let n = if options.mode == Mode::Team {
            4
        } else {
            2 + (seed % 3) as usize
        };
        let ids = players(n);
        let mut state = game.setup(&options, &ids, seed, 0).unwrap();
        let mut bot = RandomBot::new(seed + 100);
        let mut script = Vec::new();
        let mut all_events = Vec::new();
        let mut now = 0;
        while !game.is_over(&state) && script.len() < 3000 {
            let seat = game.to_act(&state)[0];
            let a = bot.choose(&game, &state, seat).unwrap();
            all_events.push(game.apply(&mut state, seat, &a, now).unwrap());
            script.push((ids[seat].clone(), a, now));
            now += 700;
        }
        let mut replay = game.setup(&options, &ids, seed, 0).unwrap();
        let mut replay_events = Vec::new();
        for (player, a, now) in &script {
            let seat = game.seat(&replay, player).unwrap();
            replay_events.push(game.apply(&mut replay, seat, a, *now).unwrap());
        }
        assert_eq!(replay, state, "seed {seed}");
        assert_eq!(replay_events, all_events);
        assert_eq!(
            serde_json::to_string(&replay).unwrap(),
            serde_json::to_string(&state).unwrap()
        );
    }
}

#[test]
fn checklist_option_validation() {
    let game = Yut::standard();
    let individual = YutOptions::default();
    let team = opts(|o| o.mode = Mode::Team);
    for (options, n, ok) in [
        (&individual, 1, false),
        (&individual, 2, true),
        (&individual, 4, true),
        (&individual, 5, false),
        (&team, 2, false),
        (&team, 3, false),
        (&team, 4, true),
        (&team, 5, false),
        (&team, 6, true),
        (&team, 7, false),
        (&team, 8, true),
        (&team, 9, false),
    ] {
        let r = game.setup(options, &players(n), 1, 0);
        assert_eq!(r.is_ok(), ok, "{:?} with {n}", options.mode);
        if let Err(e) = r {
            assert_eq!(game_core::GameError::code(&e), "BAD_PLAYER_COUNT");
        }
    }
    let err = game.setup(&individual, &players(5), 1, 0).unwrap_err();
    assert_error(
        &err,
        "BAD_PLAYER_COUNT",
        "이 게임은 2·3·4명이 할 수 있어요 (지금 5명).",
    );
    let err = game.setup(&team, &players(5), 1, 0).unwrap_err();
    assert_error(
        &err,
        "BAD_PLAYER_COUNT",
        "이 게임은 4·6·8명이 할 수 있어요 (지금 5명).",
    );
    for bad in [
        opts(|o| o.pieces = 1),
        opts(|o| o.pieces = 6),
        opts(|o| o.nak_percent = 7),
        opts(|o| o.turn_seconds = Some(20)),
    ] {
        let err = game.setup(&bad, &players(2), 1, 0).unwrap_err();
        assert_eq!(
            game_core::GameError::code(&err),
            "INVALID_OPTION",
            "{bad:?}"
        );
    }
    // Unknown option keys are refused when options are read from JSON.
    assert!(serde_json::from_str::<YutOptions>(r#"{"mode":"individual","jumps":true}"#).is_err());
    // The valid ranges are accepted.
    for pieces in 2..=5 {
        for nak in [0, 3, 5, 10] {
            for secs in [Some(15), Some(30), Some(60), None] {
                let o = opts(|o| {
                    o.pieces = pieces;
                    o.nak_percent = nak;
                    o.turn_seconds = secs;
                });
                assert!(game.setup(&o, &players(3), 1, 0).is_ok());
            }
        }
    }
}
