//! Concede in individual and team play and the ranking (RULES.md, Ending and ranking):
//! `first` with the remaining-distance table, shared places (1, 2, 2, 4).

mod common;

use common::*;
use game_core::Game;
use game_core::GameExt;
use game_core::GameState;
use yut::graph::{Node, remaining};
use yut::testing::{Script, players};
use yut::{
    FinishRule, Mode, Phase, Ranking, Throw, ThrowChance, Yut, YutAction, YutEvent, YutOptions,
};

/// The remaining-distance table, written out by hand: node → remaining distance under `pass`.
const TABLE: [(Node, u32); 29] = [
    (1, 11),
    (2, 10),
    (3, 9),
    (4, 8),
    (5, 7),
    (6, 11),
    (7, 10),
    (8, 9),
    (9, 8),
    (10, 7),
    (11, 10),
    (12, 9),
    (13, 8),
    (14, 7),
    (15, 6),
    (16, 5),
    (17, 4),
    (18, 3),
    (19, 2),
    (0, 1),
    (20, 6),
    (21, 5),
    (22, 4),
    (23, 8),
    (24, 7),
    (25, 6),
    (26, 5),
    (27, 3),
    (28, 2),
];

fn conceded(events: &[Event]) -> Vec<(u8, u8, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            YutEvent::Conceded {
                seat,
                side,
                side_out,
            } => Some((*seat, *side, *side_out)),
            _ => None,
        })
        .collect()
}

#[test]
fn concede_individual_pieces_leave_and_later_concede_ranks_higher() {
    let mut s = Script::new(YutOptions::default(), 3);
    s.set_turn(0)
        .set_done(1, 1)
        .place(1, 7, 2, &[])
        .place(0, 3, 1, &[])
        .check();
    // Seat 1 concedes while seat 0 is to act: its board pieces leave, seat 0 keeps the turn.
    let ev = s.act(1, YutAction::Concede);
    assert_eq!(conceded(&ev), vec![(1, 1, true)]);
    assert_eq!(s.stack(1, 7), 0);
    assert_eq!(s.done(1), 1, "finished pieces stay finished");
    assert_eq!((s.seat(), s.phase()), (0, Phase::Throw));
    assert!(s.view(None).sides[1].conceded);
    assert!(s.view(None).presence[1].conceded);
    s.check();
    // The conceded seat is skipped from now on.
    let mut seats = Vec::new();
    for _ in 0..6 {
        seats.push(s.seat());
        s.throw(ThrowChance::Backdo); // nothing of theirs can use it: discarded, turn passes
        if s.phase() == Phase::Move {
            let m = s.game.policy_move(&s.state).unwrap();
            s.play(m.throw_index, m.from);
        }
    }
    assert!(!seats.contains(&1), "{seats:?}");
    assert!(seats.contains(&0) && seats.contains(&2));
    // Seat 2 concedes on its own turn: one side is left, it ranks first and the game ends.
    s.set_turn(2);
    let ev = s.act(2, YutAction::Concede);
    assert_eq!(conceded(&ev), vec![(2, 2, true)]);
    assert!(game_over(&ev));
    assert_eq!(s.phase(), Phase::Finished);
    let result = s.game.outcome(&s.state).unwrap();
    let places: Vec<(u8, u8)> = result.ranking.iter().map(|p| (p.side, p.rank)).collect();
    assert_eq!(
        places,
        vec![(0, 1), (2, 2), (1, 3)],
        "a later concede ranks above an earlier one"
    );
    assert_eq!(result.winners, vec!["p0".to_string()]);
    assert_eq!(result.summary, "p0 승리! (상대 기권)");
    s.check();
}

#[test]
fn concede_two_players_ends_the_game() {
    let mut s = Script::new(YutOptions::default(), 2);
    let waiting = 1 - s.seat();
    let ev = s.act(waiting, YutAction::Concede);
    assert!(game_over(&ev));
    let result = s.game.outcome(&s.state).unwrap();
    assert_eq!(result.ranking[0].side as usize, 1 - waiting);
    assert_eq!(result.ranking[1].rank, 2);
    assert_eq!(s.state.table().deadline_at(), None);
}

#[test]
fn concede_by_the_player_to_act_passes_the_turn() {
    let mut s = Script::new(YutOptions::default(), 3);
    s.set_turn(1)
        .place(1, 4, 1, &[])
        .set_move(&[Throw::Gae, Throw::Do]);
    let ev = s.act(1, YutAction::Concede);
    assert!(turn_changed(&ev).is_some());
    assert_ne!(s.seat(), 1);
    assert_eq!((s.phase(), s.pending()), (Phase::Throw, &[][..]));
    assert_eq!(s.stack(1, 4), 0);
    s.check();
}

#[test]
fn concede_team_needs_every_member() {
    let mut s = Script::new(opts(|o| o.mode = Mode::Team), 4);
    s.set_turn(1).place(0, 6, 2, &[]).check();
    // One member of 청 leaves: the team plays on with its pieces.
    let ev = s.act(0, YutAction::Concede);
    assert_eq!(conceded(&ev), vec![(0, 0, false)]);
    assert_eq!(s.stack(0, 6), 2);
    assert!(!s.view(None).sides[0].conceded);
    assert_error(
        &s.try_act(0, YutAction::Throw).unwrap_err(),
        "ALREADY_CONCEDED",
        "이미 기권했어요.",
    );
    // The other member leaves too: the team is out, 홍 wins.
    let ev = s.act(2, YutAction::Concede);
    assert_eq!(conceded(&ev), vec![(2, 0, true)]);
    assert!(game_over(&ev));
    let result = s.game.outcome(&s.state).unwrap();
    assert_eq!(result.winners, vec!["p1".to_string(), "p3".to_string()]);
    assert_eq!(result.summary, "홍팀 승리! (상대 기권)");
    assert_eq!(s.stack(0, 6), 0);
}

/// Regression: a team with a conceded member keeps its turns. Before the fix the conceded
/// member's slot of the turn order was skipped, so the other team played twice in a row once
/// per round.
#[test]
fn concede_team_member_keeps_teams_alternating() {
    for (n, leaver) in [(4usize, 2usize), (4, 3), (6, 2), (8, 5), (6, 0)] {
        let team = opts(|o| o.mode = Mode::Team);
        let mut s = Script::new(team, n);
        s.act(leaver, YutAction::Concede);
        let mut seats = Vec::new();
        for _ in 0..4 * n {
            seats.push(s.seat());
            s.throw(ThrowChance::Backdo); // nothing on the board: discarded, the turn passes
            assert_eq!(s.phase(), Phase::Throw);
        }
        for pair in seats.windows(2) {
            assert_ne!(pair[0] % 2, pair[1] % 2, "teams alternate: {seats:?}");
        }
        assert!(!seats.contains(&leaver), "{seats:?}");
        for seat in (0..n).filter(|&m| m != leaver) {
            assert!(seats.contains(&seat), "seat {seat} never played: {seats:?}");
        }
        // The leaver's team-mates share its turns in seat order.
        let mates: Vec<usize> = seats
            .iter()
            .copied()
            .filter(|m| m % 2 == leaver % 2)
            .collect();
        let active: Vec<usize> = (0..n)
            .filter(|&m| m % 2 == leaver % 2 && m != leaver)
            .collect();
        for w in mates.windows(2) {
            let i = active.iter().position(|&m| m == w[0]).unwrap();
            assert_eq!(w[1], active[(i + 1) % active.len()], "{seats:?}");
        }
    }
}

#[test]
fn team_turns_without_concede_follow_the_seat_order() {
    for n in [4usize, 6, 8] {
        let game = Yut::standard();
        let team = opts(|o| o.mode = Mode::Team);
        let mut s = Script::from_state(game, game.setup(&team, &players(n), 7, 0).unwrap(), 0);
        let first = s.seat();
        let mut seats = Vec::new();
        for _ in 0..2 * n {
            seats.push(s.seat());
            s.throw(ThrowChance::Backdo);
        }
        // first team's member 1, other team's member 1, first team's member 2, ...
        let expected: Vec<usize> = (0..2 * n)
            .map(|i| (first % 2 + i) % 2 + 2 * ((i / 2) % (n / 2)))
            .collect();
        assert_eq!(seats, expected, "{n} players");
    }
}

#[test]
fn concede_with_ranking_all_after_a_side_finished() {
    let all = opts(|o| {
        o.ranking = Ranking::All;
        o.pieces = 2;
    });
    let mut s = Script::new(all, 3);
    s.set_turn(0)
        .set_done(0, 1)
        .place(0, 0, 1, &[])
        .set_move(&[Throw::Do]);
    s.play(0, at(0));
    assert_eq!(s.phase(), Phase::Throw);
    // Seat 1 concedes: only side 2 is left playing, the game ends; side 2 ranks above the
    // conceded side.
    let ev = s.act(1, YutAction::Concede);
    assert!(game_over(&ev));
    let result = s.game.outcome(&s.state).unwrap();
    let places: Vec<(u8, u8)> = result.ranking.iter().map(|p| (p.side, p.rank)).collect();
    assert_eq!(places, vec![(0, 1), (2, 2), (1, 3)]);
}

#[test]
fn ranking_first_uses_finished_then_remaining_and_shares_places() {
    let first = opts(|o| {
        o.pieces = 2;
        o.ranking = Ranking::First;
    });
    let mut s = Script::new(first, 4);
    s.set_turn(0)
        .set_done(0, 1)
        .place(0, 0, 1, &[])
        .set_done(1, 1) // 1 finished, 1 at home: 12
        .set_done(2, 1) // the same: tied with side 1
        .place(3, 27, 1, &[]) // nothing finished, but close: 3 + 2
        .place(3, 28, 1, &[])
        .set_move(&[Throw::Do])
        .check();
    let ev = s.play(0, at(0));
    assert!(game_over(&ev));
    let result = s.game.outcome(&s.state).unwrap();
    let places: Vec<(u8, u8, u8, u32)> = result
        .ranking
        .iter()
        .map(|p| (p.side, p.rank, p.finished_pieces, p.remaining_distance))
        .collect();
    assert_eq!(
        places,
        vec![(0, 1, 2, 0), (1, 2, 1, 12), (2, 2, 1, 12), (3, 4, 0, 5)]
    );
    assert_eq!(result.winners, vec!["p0".to_string()]);
    assert_eq!(result.summary, "p0 승리! (2개 모두 남)");

    // Equal finished counts: the smaller remaining distance ranks higher; stacks count per piece.
    let mut s = Script::new(YutOptions::default(), 3);
    s.set_turn(0)
        .set_done(0, 3)
        .place(0, 28, 1, &[])
        .place(1, 22, 2, &[]) // 4 + 4 + 12 + 12 = 32
        .place(2, 15, 1, &[]) // 6 + 12 + 12 + 12 = 42
        .set_move(&[Throw::Gae]);
    s.play(0, at(28));
    let result = s.game.outcome(&s.state).unwrap();
    let places: Vec<(u8, u8, u32)> = result
        .ranking
        .iter()
        .map(|p| (p.side, p.rank, p.remaining_distance))
        .collect();
    assert_eq!(places, vec![(0, 1, 0), (1, 2, 32), (2, 3, 42)]);
}

#[test]
fn remaining_distance_table_of_section_6() {
    for (node, distance) in TABLE {
        assert_eq!(remaining(Some(node)), distance, "node {node}");
        for (rule, minus) in [(FinishRule::Pass, 0), (FinishRule::Reach, 1)] {
            let mut s = Script::new(opts(|o| o.finish_rule = rule), 2);
            s.set_done(0, 2).place(0, node, 2, &[]);
            // Two pieces stacked: twice the table; under reach one less per piece.
            let side = &s.state.board().sides()[0];
            assert_eq!(
                side.remaining_distance(rule == FinishRule::Reach),
                2 * (distance - minus),
                "{node}"
            );
        }
    }
    assert_eq!(remaining(None), 12);
    let s = Script::new(YutOptions::default(), 2);
    assert_eq!(s.state.board().sides()[1].remaining_distance(false), 48);
    assert_eq!(s.state.board().sides()[1].remaining_distance(true), 44);
}

#[test]
fn ranking_first_ties_at_the_top_of_the_rest() {
    // Four players: winner, then a three-way tie: places 1, 2, 2, 2.
    let mut s = Script::new(opts(|o| o.pieces = 2), 4);
    s.set_turn(0)
        .set_done(0, 1)
        .place(0, 19, 1, &[])
        .set_move(&[Throw::Gae]);
    s.play(0, at(19));
    let ranks: Vec<u8> = s
        .game
        .outcome(&s.state)
        .unwrap()
        .ranking
        .iter()
        .map(|p| p.rank)
        .collect();
    assert_eq!(ranks, vec![1, 2, 2, 2]);
}

#[test]
fn game_over_refuses_everything() {
    let mut s = Script::new(YutOptions::default(), 2);
    s.act(0, YutAction::Concede);
    assert!(s.game.is_over(&s.state));
    assert!(s.game.to_act(&s.state).is_empty());
    assert!(s.game.legal_actions(&s.state, 1).is_empty());
    assert!(s.game.timeouts(&s.state, u64::MAX).is_empty());
    let before = s.json();
    for seat in 0..2 {
        for a in [
            YutAction::Throw,
            YutAction::Concede,
            YutAction::Move {
                throw_index: 0,
                from: HOME,
            },
        ] {
            assert_error(
                &s.try_act(seat, a).unwrap_err(),
                "GAME_OVER",
                "이미 끝난 게임이에요.",
            );
        }
    }
    assert_eq!(s.json(), before);
}

#[test]
fn the_winners_are_the_first_places_players() {
    // `gameOver` and the result name the winners from one function; it must agree with
    // the ranking's first places, ties and concessions included.
    let game = yut::Yut::standard();
    for (options, n) in [
        (YutOptions::default(), 2),
        (YutOptions::default(), 4),
        (serde_json::from_str(r#"{"mode":"team"}"#).unwrap(), 4),
        (serde_json::from_str(r#"{"ranking":"all"}"#).unwrap(), 3),
    ] {
        for seed in 0..20u64 {
            let players = game_core::testing::players(n);
            let mut state = game.setup(&options, &players, seed, 0).unwrap();
            let mut bot = game_core::RandomBot::new(seed);
            if seed % 5 == 0 {
                game_core::testing::conceded(&game, &mut state);
            }
            while let Some(&seat) = game.to_act(&state).first() {
                let action = game_core::Bot::choose(&mut bot, &game, &state, seat).unwrap();
                game.apply(&mut state, seat, &action, 0).unwrap();
            }
            let result = game.outcome(&state).unwrap();
            let first: Vec<String> = result
                .ranking
                .iter()
                .filter(|p| p.rank == 1)
                .flat_map(|p| p.players.clone())
                .collect();
            assert_eq!(result.winners, first, "seed {seed}, {n} players");
        }
    }
}
