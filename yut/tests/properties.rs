//! Property tests: random games (2–4 players individual, 4/6/8 team, random options) driven
//! by random legal actions mixed with random illegal ones, timeouts, disconnections and
//! concedes. After every step the invariants hold, a refused action changes nothing, a
//! save/restore round trip continues identically, and the whole run replays exactly.

use game_core::GameExt;
use game_core::GameState;
use game_core::{Game, Millis, Viewer};
use proptest::prelude::*;
use serde_json::Value;
use yut::graph::NODE_COUNT;
use yut::testing::players;
use yut::{Mode, Origin, Phase, PieceStatus, Ranking, Yut, YutAction, YutOptions, YutState};

/// One thing done to the game, recorded for the replay.
#[derive(Clone, Debug)]
enum Op {
    Apply(String, YutAction, Millis),
    Tick(Millis),
    Connect(String, bool, Millis),
}

/// Every invariant a state must keep between actions.
fn invariants(game: &Yut, state: &YutState<yut::Standard>, done_before: &mut [usize]) {
    game.check_state(state).expect("check_state");
    let board = &state.board();
    // One side per node.
    let mut owner = [None; NODE_COUNT];
    for (i, side) in board.sides().iter().enumerate() {
        for p in side.pieces().filter(|p| p.status == PieceStatus::Board) {
            let n = usize::from(p.node.unwrap());
            assert!(owner[n].is_none_or(|o| o == i), "node {n} holds two sides");
            owner[n] = Some(i);
        }
    }
    // Pieces conserved: every side keeps its pieces; finished ones never come back.
    for (i, side) in board.sides().iter().enumerate() {
        assert_eq!(side.pieces().len(), usize::from(board.options().pieces));
        let (home, on, done) = side
            .pieces()
            .fold((0, 0, 0), |(h, b, d), p| match p.status {
                PieceStatus::Home => (h + 1, b, d),
                PieceStatus::Board => (h, b + 1, d),
                PieceStatus::Done => (h, b, d + 1),
            });
        assert_eq!(home + on + done, side.pieces().len());
        assert!(done >= done_before[i], "side {i} lost a finished piece");
        done_before[i] = done;
        if side.conceded.is_some() {
            assert_eq!(on, 0, "a conceded side has pieces on the board");
        }
    }
    // Pending consistent with the phase.
    let seat = board.current_seat();
    match board.phase() {
        Phase::Throw => {
            assert!(board.throws_owed() > 0);
            assert_eq!(game.legal_actions(state, seat), vec![YutAction::Throw]);
        }
        Phase::Move => {
            assert!(!board.pending().is_empty() && board.throws_owed() == 0);
            assert!(
                !game.legal_moves(state).is_empty(),
                "move phase without a legal move"
            );
        }
        Phase::Finished => {
            assert!(board.pending().is_empty() && board.throws_owed() == 0);
            assert!(game.outcome(state).is_some());
            assert!(game.to_act(state).is_empty());
            assert_eq!(board.deadline(), None);
        }
        phase => panic!("the standard rules never wait in phase {phase:?}"),
    }
    assert_eq!(game.is_over(state), board.phase() == Phase::Finished);
}

/// No key or word of the RNG in any viewer's view.
fn views_hide_the_rng(game: &Yut, state: &YutState<yut::Standard>, step: usize) {
    let ids = &state.table().players();
    // Every viewer now and then, otherwise one in turn (the spectator among them).
    let all: Vec<Viewer> = ids
        .iter()
        .map(|p| Viewer::Player(p))
        .chain([Viewer::Spectator])
        .collect();
    let viewers: Vec<Viewer> = if step.is_multiple_of(32) {
        all
    } else {
        vec![all[step % all.len()]]
    };
    for viewer in viewers {
        let value = serde_json::to_value(game.view(state, viewer)).unwrap();
        no_rng_keys(&value);
        let text = value.to_string().to_lowercase();
        for word in ["rng", "seed", "chacha", "stream", "word_pos"] {
            assert!(!text.contains(word), "the view mentions {word}");
        }
    }
}

fn no_rng_keys(v: &Value) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                let k = k.to_lowercase();
                assert!(k != "rng" && k != "seed", "view key {k}");
                no_rng_keys(v);
            }
        }
        Value::Array(items) => items.iter().for_each(no_rng_keys),
        _ => {}
    }
}

/// An action that is probably illegal: random seat (or a spectator), random kind and
/// arguments.
fn wild(x: u32, n: usize) -> (Option<usize>, YutAction) {
    let seat = (x as usize >> 4) % (n + 1);
    let seat = (seat < n).then_some(seat);
    let action = if (x >> 8).is_multiple_of(3) {
        YutAction::Throw
    } else {
        let from = if (x >> 16).is_multiple_of(6) {
            Origin::HOME
        } else {
            Origin::Node(((x >> 19) % 32) as u8)
        };
        YutAction::Move {
            throw_index: (x >> 12) % 5,
            from,
        }
    };
    (seat, action)
}

/// Runs one random game; returns the final state and the operations done.
fn run(
    options: &YutOptions,
    n: usize,
    seed: u64,
    steps: &[u32],
) -> (YutState<yut::Standard>, Vec<Op>) {
    let game = Yut::standard();
    let ids = players(n);
    let mut state = game.setup(options, &ids, seed, 0).unwrap();
    let mut ops = Vec::new();
    let mut done_before = vec![0; state.board().sides().len()];
    let mut now: Millis = 0;
    invariants(&game, &state, &mut done_before);
    for (step, &x) in steps.iter().enumerate() {
        if game.is_over(&state) {
            break;
        }
        now += 250;
        let json = serde_json::to_string(&state).unwrap();
        // Save and restore: the restored state is the same and goes on the same way.
        let mut restored = game.restore(&json).expect("restore");
        assert_eq!(restored, state);
        let seat = game.to_act(&state)[0];
        match x % 32 {
            // A random illegal (or, by chance, legal) action.
            0..=5 => {
                let (who, action) = wild(x, n);
                let player = who.map_or("watcher".to_owned(), |s| ids[s].clone());
                let apply = |state: &mut YutState<yut::Standard>| {
                    let seat = game.seat(state, &player)?;
                    game.apply(state, seat, &action, now)
                };
                match apply(&mut state) {
                    Ok(events) => {
                        let again = apply(&mut restored).unwrap();
                        assert_eq!(events, again);
                        ops.push(Op::Apply(player, action, now));
                    }
                    Err(_) => {
                        assert_eq!(
                            serde_json::to_string(&state).unwrap(),
                            json,
                            "refused {action:?} changed the state"
                        );
                        assert!(apply(&mut restored).is_err());
                    }
                }
            }
            // A stale or future turnSeq.
            6 => {
                let seq = game.turn_seq(&state);
                let wrong = if x & 64 == 0 {
                    seq.wrapping_sub(1)
                } else {
                    seq + 1
                };
                let action = game.legal_actions(&state, seat)[0];
                let err = game
                    .play(&mut state, seat, &action, Some(wrong), now, &mut Vec::new())
                    .result
                    .unwrap_err();
                assert_eq!(game_core::GameError::code(&err), "STALE_TURN_SEQ");
                assert_eq!(serde_json::to_string(&state).unwrap(), json);
            }
            // Time runs out (or, without a time limit, the player drops and the grace ends).
            7 | 8 => {
                if state.board().options().turn_seconds.is_none() {
                    game.set_connected(&mut state, &ids[seat], false, now)
                        .unwrap();
                    game.set_connected(&mut restored, &ids[seat], false, now)
                        .unwrap();
                    ops.push(Op::Connect(ids[seat].clone(), false, now));
                    now += game.grace_ms();
                } else {
                    now = now.max(state.table().deadline_at().unwrap());
                }
                let done = game.tick(&mut state, now);
                assert_eq!(done.len(), 1, "one timeout is due");
                assert_eq!(done, game.tick(&mut restored, now));
                ops.push(Op::Tick(now));
                if state.board().options().turn_seconds.is_none() {
                    game.set_connected(&mut state, &ids[seat], true, now)
                        .unwrap();
                    game.set_connected(&mut restored, &ids[seat], true, now)
                        .unwrap();
                    ops.push(Op::Connect(ids[seat].clone(), true, now));
                }
            }
            // Rarely, someone concedes.
            9 if (x >> 8).is_multiple_of(12) => {
                let who_seat = (x as usize >> 12) % n;
                let who = ids[who_seat].clone();
                if game
                    .apply(&mut state, who_seat, &YutAction::Concede, now)
                    .is_ok()
                {
                    game.apply(&mut restored, who_seat, &YutAction::Concede, now)
                        .unwrap();
                    ops.push(Op::Apply(who, YutAction::Concede, now));
                } else {
                    assert_eq!(serde_json::to_string(&state).unwrap(), json);
                }
            }
            // Otherwise a random legal action of the player to act.
            _ => {
                let legal = game.legal_actions(&state, seat);
                let action = legal[(x as usize >> 8) % legal.len()];
                let events = game
                    .apply(&mut state, seat, &action, now)
                    .expect("a legal action");
                assert_eq!(
                    events,
                    game.apply(&mut restored, seat, &action, now).unwrap()
                );
                ops.push(Op::Apply(ids[seat].clone(), action, now));
            }
        }
        assert_eq!(restored, state, "the restored game went another way");
        invariants(&game, &state, &mut done_before);
        views_hide_the_rng(&game, &state, step);
    }
    (state, ops)
}

/// Plays `ops` on a fresh game.
fn replay(options: &YutOptions, n: usize, seed: u64, ops: &[Op]) -> YutState<yut::Standard> {
    let game = Yut::standard();
    let mut state = game.setup(options, &players(n), seed, 0).unwrap();
    for op in ops {
        match op {
            Op::Apply(p, a, now) => {
                let seat = game.seat(&state, p).unwrap();
                game.apply(&mut state, seat, a, *now).unwrap();
            }
            Op::Tick(now) => {
                game.tick(&mut state, *now);
            }
            Op::Connect(p, c, now) => drop(game.set_connected(&mut state, p, *c, *now).unwrap()),
        }
    }
    state
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(
        (options, n) in yut::testing::arb_options(),
        seed in any::<u64>(),
        steps in prop::collection::vec(any::<u32>(), 50..350),
    ) {
        let (state, ops) = run(&options, n, seed, &steps);
        // Same seed and the same actions: the same final state.
        let again = replay(&options, n, seed, &ops);
        prop_assert_eq!(&again, &state);
        prop_assert_eq!(serde_json::to_string(&again).unwrap(), serde_json::to_string(&state).unwrap());
    }
}

#[test]
fn long_random_games_reach_the_end() {
    // A few whole games (legal actions only), so the end of the game is covered too.
    for seed in 0..6u64 {
        let n = [2, 3, 4, 4, 6, 8][seed as usize];
        let options = YutOptions {
            mode: if n > 4 || seed == 3 {
                Mode::Team
            } else {
                Mode::Individual
            },
            ranking: if seed.is_multiple_of(2) {
                Ranking::All
            } else {
                Ranking::First
            },
            pieces: 2 + (seed % 2) as u8,
            ..YutOptions::default()
        };
        let steps: Vec<u32> = (0..4000u32)
            .map(|i| 10 + (i.wrapping_mul(2_654_435_761) >> 5) % 22)
            .collect();
        let (state, ops) = run(&options, n, seed, &steps);
        assert!(
            Yut::standard().is_over(&state),
            "seed {seed} did not finish"
        );
        assert_eq!(replay(&options, n, seed, &ops), state);
    }
}
