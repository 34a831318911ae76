//! Properties over random games mixing legal and illegal inputs: after every step the state
//! passes `check_state`, a refused input changes nothing, legal actions are exactly what
//! `validate` accepts, views hide what they must, and a state saved and restored at any
//! point continues exactly like the original.

use game_core::GameExt;
use game_core::{
    Game, GameError, Viewer,
    rps::{Hand, Rps, RpsAction, RpsOptions, RpsState},
};
use proptest::prelude::*;

const PLAYERS: [&str; 2] = ["ann", "bo"];

// Every action there is (the action space is finite).
use game_core::testing::RPS_ACTIONS as ALL_ACTIONS;

/// One input to the game.
#[derive(Clone, Debug)]
enum Op {
    /// `who` 0 and 1 are the seats, 2 a spectator; the action may well be illegal.
    Act { who: usize, action: usize },
    /// With the `turnSeq` the sender saw, possibly stale.
    ActAt {
        who: usize,
        action: usize,
        stale: bool,
    },
    /// A legal action for a seat that may act (keeps games moving forward).
    Legal { pick: usize },
    /// A forced chance outcome, for any seat and action.
    Chance {
        seat: usize,
        action: usize,
        hand: usize,
    },
    /// The clock moves forward, maybe past a deadline.
    Tick { advance: u64 },
    /// A player (or a stranger) connects or disconnects.
    Presence { who: usize, connected: bool },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..3usize, 0..5usize).prop_map(|(who, action)| Op::Act { who, action }),
        1 => (0..3usize, 0..5usize, any::<bool>())
            .prop_map(|(who, action, stale)| Op::ActAt { who, action, stale }),
        4 => (0..1000usize).prop_map(|pick| Op::Legal { pick }),
        1 => (0..3usize, 0..5usize, 0..3usize)
            .prop_map(|(seat, action, hand)| Op::Chance { seat, action, hand }),
        2 => (0..40_000u64).prop_map(|advance| Op::Tick { advance }),
        1 => (0..3usize, any::<bool>()).prop_map(|(who, connected)| Op::Presence { who, connected }),
    ]
}

fn who(i: usize) -> &'static str {
    PLAYERS.get(i).copied().unwrap_or("spectator")
}

/// Applies `op` at `now`; returns a comparable summary of the result.
fn run(state: &mut RpsState, op: &Op, now: u64) -> Result<String, String> {
    let summary = |r: Result<Vec<_>, game_core::rps::RpsError>| {
        r.map(|events| serde_json::to_string(&events).unwrap())
            .map_err(|e| e.code().to_owned())
    };
    match *op {
        Op::Act { who: w, action } => summary(
            Rps.seat(state, who(w))
                .and_then(|seat| Rps.apply(state, seat, &ALL_ACTIONS[action], now)),
        ),
        Op::ActAt {
            who: w,
            action,
            stale,
        } => {
            let seq = Rps.turn_seq(state) + u64::from(stale);
            // A host's request: the timeouts due at `now` are taken first and stand even
            // when the request is then refused (stale after them), so it counts as a
            // change then; refused with nothing taken, it changed nothing.
            let mut events = Vec::new();
            let action = &ALL_ACTIONS[action];
            let seat = match Rps.seat(state, who(w)) {
                Ok(seat) => seat,
                Err(e) => return Err(e.code().to_owned()),
            };
            let played = Rps.play(state, seat, action, Some(seq), now, &mut events);
            match played.result {
                Err(e) if played.applied.is_empty() => Err(e.code().to_owned()),
                result => Ok(format!("{:?} {:?} {:?}", played.applied, result, events)),
            }
        }
        Op::Legal { pick } => {
            let to_act = Rps.to_act(state);
            if to_act.is_empty() {
                return Err("NOTHING_TO_DO".into());
            }
            let seat = to_act[pick % to_act.len()];
            // Conceding only rarely, so that games run long.
            let legal: Vec<_> = Rps
                .legal_actions(state, seat)
                .into_iter()
                .filter(|a| *a != RpsAction::Concede || pick % 50 == 0)
                .collect();
            summary(Rps.apply(state, seat, &legal[pick % legal.len()], now))
        }
        Op::Chance { seat, action, hand } => {
            summary(Rps.apply_chance(state, seat, &ALL_ACTIONS[action], &Hand::ALL[hand], now))
        }
        Op::Tick { .. } => {
            let done = Rps.tick(state, now);
            Ok(format!("{done:?}"))
        }
        Op::Presence { who: w, connected } => Rps
            .set_connected(state, who(w), connected, now)
            .map(|events| format!("{events:?}"))
            .map_err(|e| e.code().to_owned()),
    }
}

/// The invariants every reachable state keeps.
fn check_invariants(state: &RpsState) -> Result<(), TestCaseError> {
    prop_assert!(
        Rps.check_state(state).is_ok(),
        "{:?}",
        Rps.check_state(state)
    );
    let json = serde_json::to_string(state).unwrap();
    prop_assert_eq!(&Rps.restore(&json).unwrap(), state);

    let to_act = Rps.to_act(state);
    prop_assert_eq!(Rps.is_over(state), to_act.is_empty());
    for seat in 0..2 {
        let legal = Rps.legal_actions(state, seat);
        for action in &ALL_ACTIONS {
            prop_assert_eq!(
                Rps.validate(state, seat, action).is_ok(),
                legal.contains(action),
                "seat {} action {:?}",
                seat,
                action
            );
        }
        prop_assert_eq!(
            to_act.contains(&seat),
            Rps.timeout_action(state, seat).is_some()
        );
        if to_act.contains(&seat) {
            prop_assert!(legal.contains(&RpsAction::Random));
        }
        // No view but the picker's shows the pick.
        for viewer in [Viewer::Player(PLAYERS[1 - seat]), Viewer::Spectator] {
            let view = Rps.view(state, viewer);
            prop_assert_eq!(view.seats[seat].hand, None);
            prop_assert_eq!(view.seats[seat].picked, state.picks()[seat].is_some());
        }
        prop_assert_eq!(
            Rps.view(state, Viewer::Player(PLAYERS[seat])).seats[seat].hand,
            state.picks()[seat]
        );
    }
    prop_assert!(Rps.validate(state, 2, &RpsAction::Concede).is_err());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_the_invariants(
        seed in any::<u64>(),
        wins_needed in 1..=9u8,
        turn_seconds in prop_oneof![Just(None), (5..=600u32).prop_map(Some)],
        ops in prop::collection::vec(op(), 1..80),
    ) {
        let options = RpsOptions { wins_needed, turn_seconds };
        let players: Vec<String> = PLAYERS.iter().map(|&p| p.to_owned()).collect();
        let mut state = Rps.setup(&options, &players, seed, 0).unwrap();
        check_invariants(&state)?;
        let mut now = 0;
        for op in &ops {
            if let Op::Tick { advance } = op {
                now += advance;
            } else {
                now += 100;
            }
            // A copy saved and restored before the step must continue identically.
            let mut restored = Rps.restore(&serde_json::to_string(&state).unwrap()).unwrap();
            let before = state.clone();
            let result = run(&mut state, op, now);
            let again = run(&mut restored, op, now);
            prop_assert_eq!(&result, &again);
            prop_assert_eq!(&restored, &state);
            prop_assert_eq!(
                serde_json::to_string(&restored).unwrap(),
                serde_json::to_string(&state).unwrap()
            );
            match &result {
                Err(_) => prop_assert_eq!(&state, &before, "refused {:?} changed the state", op),
                Ok(_) if matches!(op, Op::ActAt { .. }) => {
                    prop_assert!(Rps.turn_seq(&state) > Rps.turn_seq(&before));
                }
                Ok(_) if !matches!(op, Op::Tick { .. } | Op::Presence { .. }) => {
                    prop_assert_eq!(Rps.turn_seq(&state), Rps.turn_seq(&before) + 1);
                }
                Ok(_) => {}
            }
            check_invariants(&state)?;
        }
    }

    #[test]
    fn a_random_round_reveals_both_hands(seed in any::<u64>(), a in 0..3usize) {
        let players: Vec<String> = PLAYERS.iter().map(|&p| p.to_owned()).collect();
        let mut state = Rps.setup(&RpsOptions::default(), &players, seed, 0).unwrap();
        Rps.apply(&mut state, 0, &RpsAction::Pick { hand: Hand::ALL[a] }, 1).unwrap();
        Rps.apply(&mut state, 1, &RpsAction::Random, 2).unwrap();
        let last = state.last_round().unwrap();
        prop_assert_eq!(last.hands[0], Hand::ALL[a]);
        prop_assert_eq!(last.winner, Hand::round_winner(last.hands));
        let total: u8 = state.scores().iter().sum();
        prop_assert_eq!(total, u8::from(last.winner.is_some()));
    }
}
