//! Pig's rules, one by one: a roll adds, a 1 busts and passes the turn, a hold banks and
//! passes it, the target wins; what is refused, and why; the timeout policy; the chances.

use game_core::GameExt;
use game_core::Rejection;
use game_core::{Game, GameError, Viewer};
use pig::{Pig, PigAction, PigEvent, PigOptions, PigState};

fn start(n: usize, target: u32) -> PigState {
    let options = PigOptions {
        target,
        ..PigOptions::default()
    };
    Pig.setup(&options, &game_core::testing::players(n), 1, 0)
        .unwrap()
}

fn roll(state: &mut PigState, seat: usize, die: u8) -> Vec<PigEvent> {
    Pig.apply_chance(state, seat, &PigAction::Roll, &die, 0)
        .unwrap()
}

#[test]
fn rolls_add_a_one_busts_and_a_hold_banks() {
    let mut state = start(3, 100);
    roll(&mut state, 0, 6);
    roll(&mut state, 0, 2);
    assert_eq!(state.board.turn_total, 8);
    let events = Pig.apply(&mut state, 0, &PigAction::Hold, 0).unwrap();
    assert_eq!(events, [PigEvent::Held { seat: 0, score: 8 }]);
    assert_eq!((state.board.turn, state.board.turn_total), (1, 0));
    roll(&mut state, 1, 5);
    let events = roll(&mut state, 1, 1);
    assert_eq!(
        events,
        [PigEvent::Rolled {
            seat: 1,
            die: 1,
            total: 0
        }]
    );
    assert_eq!(
        (state.board.scores.clone(), state.board.turn),
        (vec![8, 0, 0], 2)
    );
}

#[test]
fn the_first_to_bank_the_target_wins() {
    let mut state = start(2, 10);
    roll(&mut state, 0, 6);
    roll(&mut state, 0, 6);
    // Past the target, the turn's points still have to be banked.
    assert!(!Pig.is_over(&state));
    let events = Pig.apply(&mut state, 0, &PigAction::Hold, 0).unwrap();
    assert_eq!(events, [PigEvent::Held { seat: 0, score: 12 }]);
    assert_eq!(Pig.outcome(&state), Some(0));
    assert_eq!(Pig.deadline(&state), None, "the table is closed");
    assert_eq!(Pig.to_act(&state), Vec::<usize>::new());
    let err = Pig.apply(&mut state, 1, &PigAction::Roll, 0).unwrap_err();
    assert_eq!(err.code(), "GAME_OVER");
}

#[test]
fn refusals_say_why() {
    let mut state = start(2, 100);
    let code = |r: Result<Vec<PigEvent>, Rejection>| r.unwrap_err().code();
    assert_eq!(
        code(Pig.apply(&mut state, 1, &PigAction::Roll, 0)),
        "NOT_YOUR_TURN"
    );
    assert_eq!(
        code(Pig.apply(&mut state, 0, &PigAction::Hold, 0)),
        "ILLEGAL_ACTION"
    );
    assert_eq!(
        code(Pig.apply(&mut state, 2, &PigAction::Roll, 0)),
        "NOT_SEATED"
    );
    let impossible = Pig.apply_chance(&mut state, 0, &PigAction::Roll, &7, 0);
    assert_eq!(code(impossible), "IMPOSSIBLE_OUTCOME");
    assert_eq!(state, start(2, 100), "refusals change nothing");
    let ids = game_core::testing::players(5);
    let err = Pig.setup(&PigOptions::default(), &ids, 1, 0).unwrap_err();
    assert_eq!(err.code(), "BAD_PLAYER_COUNT");
    for target in [9, 501] {
        let options = PigOptions {
            target,
            ..PigOptions::default()
        };
        let err = Pig.setup(&options, &ids[..2], 1, 0).unwrap_err();
        assert_eq!(err.body().reason["option"], "target", "{target}");
    }
}

#[test]
fn actions_are_read_strictly() {
    // Every host reads actions through `read_action`, strict whatever the derive.
    let read =
        |s: &str| game_core::wire::read_action::<PigAction>(serde_json::from_str(s).unwrap());
    assert_eq!(read(r#"{"type":"ROLL"}"#).unwrap(), PigAction::Roll);
    assert_eq!(read(r#"{"type":"HOLD"}"#).unwrap(), PigAction::Hold);
    for bad in [
        r#"{"type":"HOLD","all":true}"#,
        r#"["ROLL"]"#,
        r#"{"type":"CONCEDE"}"#,
    ] {
        assert!(read(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_timeout_holds_what_there_is_or_rolls() {
    let mut state = start(2, 100);
    assert_eq!(Pig.timeout_action(&state, 0), Some(PigAction::Roll));
    assert_eq!(Pig.timeout_action(&state, 1), None);
    roll(&mut state, 0, 4);
    assert_eq!(Pig.timeout_action(&state, 0), Some(PigAction::Hold));
    // 30 s a decision by default: the engine holds for seat 0.
    let applied = Pig.tick(&mut state, 31_000);
    assert_eq!(applied.len(), 1);
    assert!(applied[0].auto && applied[0].action == PigAction::Hold);
    assert_eq!(state.board.scores, [4, 0]);
}

#[test]
fn a_roll_has_six_even_chances_and_a_hold_none() {
    let state = start(2, 100);
    let chances = Pig.chances(&state, 0, &PigAction::Roll).unwrap();
    assert_eq!(
        chances.iter().map(|c| c.0).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    assert!(chances.iter().all(|&(_, p)| (p - 1.0 / 6.0).abs() < 1e-15));
    assert_eq!(Pig.chances(&state, 0, &PigAction::Hold), None);
}

#[test]
fn views_show_the_game_but_not_the_dice_to_come() {
    let mut state = start(2, 100);
    roll(&mut state, 0, 3);
    let view = Pig.view(&state, Viewer::Player("p0"));
    assert_eq!((view.table.you, view.board.turn_total), (Some(0), 3));
    assert_eq!(view.legal_actions, [PigAction::Roll, PigAction::Hold]);
    let watcher = Pig.view(&state, Viewer::Spectator);
    assert!(watcher.table.you.is_none() && watcher.legal_actions.is_empty());
    game_core::testing::assert_no_rng_keys(&serde_json::to_value(&view).unwrap());
}
