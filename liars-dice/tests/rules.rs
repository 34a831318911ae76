//! Liar's Dice's rules, one by one: bids raise, ones are wild, a challenge costs whoever
//! was wrong a die, a player without dice is out, the last with dice wins; what is
//! refused, and why; the timeout's careful move; the reroll rigged; what each seat sees.

use game_core::testing::{self, players};
use game_core::{Game, GameError, GameExt, GameRng, Viewer};
use liars_dice::{
    Bid, LiarsDice, LiarsDiceAction, LiarsDiceError, LiarsDiceEvent, LiarsDiceOptions,
    LiarsDiceState, Reveal,
};

/// A game of `n` players with `dice` dice each, the cups set to `cups` (seat 0 opens).
fn start(n: usize, dice: u32, cups: &[&[u8]]) -> LiarsDiceState {
    let options = LiarsDiceOptions {
        dice,
        ..Default::default()
    };
    let mut state = LiarsDice.setup(&options, &players(n), 1, 0).unwrap();
    state.board.cups = cups.iter().map(|c| c.to_vec()).collect();
    LiarsDice.check_state(&state).unwrap();
    state
}

fn bid(quantity: u32, face: u8) -> LiarsDiceAction {
    LiarsDiceAction::Bid { quantity, face }
}

fn code(r: Result<Vec<LiarsDiceEvent>, LiarsDiceError>) -> &'static str {
    r.unwrap_err().code()
}

#[test]
fn each_bid_raises_the_last_and_the_turn_goes_round() {
    let mut state = start(3, 2, &[&[2, 3], &[4, 5], &[5, 6]]);
    let events = LiarsDice.apply(&mut state, 0, &bid(1, 5), 0).unwrap();
    assert_eq!(
        events,
        [LiarsDiceEvent::Bid(Bid {
            seat: 0,
            quantity: 1,
            face: 5
        })]
    );
    assert_eq!(state.board.turn, 1);
    // The same quantity of a higher face raises; of a lower face, or the same bid, not.
    assert_eq!(
        code(LiarsDice.apply(&mut state, 1, &bid(1, 4), 0)),
        "BID_TOO_LOW"
    );
    assert_eq!(
        code(LiarsDice.apply(&mut state, 1, &bid(1, 5), 0)),
        "BID_TOO_LOW"
    );
    LiarsDice.apply(&mut state, 1, &bid(1, 6), 0).unwrap();
    // A higher quantity of any face raises.
    LiarsDice.apply(&mut state, 2, &bid(2, 2), 0).unwrap();
    assert_eq!(state.board.turn, 0);
    let placed: Vec<_> = state
        .board
        .bids
        .iter()
        .map(|b| (b.seat, b.quantity, b.face))
        .collect();
    assert_eq!(placed, [(0, 1, 5), (1, 1, 6), (2, 2, 2)]);
    // The legal bids run from the next one up to every die showing a 6, then the challenge.
    let legal = LiarsDice.legal_actions(&state, 0);
    assert_eq!(legal.first(), Some(&bid(2, 3)));
    assert_eq!(
        legal[legal.len() - 2..],
        [bid(6, 6), LiarsDiceAction::Challenge]
    );
    assert_eq!(legal.len(), 4 + 4 * 5 + 1);
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let fresh = start(2, 5, &[&[1, 2, 3, 4, 5], &[2, 2, 3, 6, 6]]);
    let mut state = fresh.clone();
    let challenge = LiarsDiceAction::Challenge;
    assert_eq!(
        code(LiarsDice.apply(&mut state, 0, &challenge, 0)),
        "NOTHING_TO_CHALLENGE"
    );
    assert_eq!(
        code(LiarsDice.apply(&mut state, 1, &bid(1, 2), 0)),
        "NOT_YOUR_TURN"
    );
    assert_eq!(
        code(LiarsDice.apply(&mut state, 2, &bid(1, 2), 0)),
        "NOT_SEATED"
    );
    // Ones are wild and never bid; no face past 6; a quantity from 1 to the dice in play.
    for (quantity, face) in [(1, 1), (1, 7), (0, 3), (11, 2)] {
        let err = LiarsDice
            .apply(&mut state, 0, &bid(quantity, face), 0)
            .unwrap_err();
        assert_eq!(err.code(), "NO_SUCH_BID", "{quantity} {face}");
        assert_eq!(err.body().reason["diceInPlay"], 10);
    }
    assert_eq!(state, fresh, "refusals change nothing");
    LiarsDice.apply(&mut state, 0, &bid(3, 4), 0).unwrap();
    let err = LiarsDice.apply(&mut state, 1, &bid(3, 3), 0).unwrap_err();
    assert_eq!(
        (
            err.body().reason["overQuantity"].clone(),
            err.body().reason["overFace"].clone()
        ),
        (3.into(), 4.into())
    );
    // Players and options out of range.
    let err = LiarsDice
        .setup(&LiarsDiceOptions::default(), &players(7), 1, 0)
        .unwrap_err();
    assert_eq!(err.code(), "BAD_PLAYER_COUNT");
    for dice in [0, 7] {
        let options = LiarsDiceOptions {
            dice,
            ..Default::default()
        };
        let err = LiarsDice.setup(&options, &players(2), 1, 0).unwrap_err();
        assert_eq!(err.body().reason["option"], "dice", "{dice}");
    }
    // Every code the game gives is listed for the error schema.
    let codes = game_core::CodeSchemas::of::<LiarsDiceError>();
    for c in [
        "BID_TOO_LOW",
        "NO_SUCH_BID",
        "NOTHING_TO_CHALLENGE",
        "NOT_YOUR_TURN",
    ] {
        assert!(codes.codes().contains(&c), "{c}");
    }
}

#[test]
fn a_bid_that_holds_costs_the_challenger_a_die_ones_counting_wild() {
    let mut state = start(2, 3, &[&[1, 1, 3], &[4, 4, 6]]);
    LiarsDice.apply(&mut state, 0, &bid(4, 4), 0).unwrap();
    // Two 4s and two wild ones: four 4s, exactly the bid.
    let reroll = vec![vec![5, 2, 2], vec![3, 1]];
    let events = LiarsDice
        .apply_chance(&mut state, 1, &LiarsDiceAction::Challenge, &reroll, 0)
        .unwrap();
    let reveal = Reveal {
        bid: Bid {
            seat: 0,
            quantity: 4,
            face: 4,
        },
        challenger: 1,
        cups: vec![vec![1, 1, 3], vec![4, 4, 6]],
        count: 4,
        loser: 1,
    };
    assert_eq!(events[0], LiarsDiceEvent::Revealed(reveal.clone()));
    assert!(matches!(
        &events[1],
        LiarsDiceEvent::Rolled { starts: 1, .. }
    ));
    assert_eq!(events.len(), 2);
    // The rigged faces, each cup sorted; the loser opens the next round.
    assert_eq!(state.board.cups, [vec![2, 2, 5], vec![1, 3]]);
    assert_eq!((state.board.turn, state.board.bids.len()), (1, 0));
    assert_eq!(state.board.last_reveal, Some(reveal));
}

#[test]
fn a_bid_that_fails_costs_the_bidder_a_die() {
    let mut state = start(3, 2, &[&[2, 3], &[4, 5], &[1, 6]]);
    LiarsDice.apply(&mut state, 0, &bid(2, 2), 0).unwrap();
    LiarsDice.apply(&mut state, 1, &bid(3, 5), 0).unwrap();
    // One 5 and one wild one: two, not three. Seat 1 bid it and loses a die.
    let events = LiarsDice
        .apply(&mut state, 2, &LiarsDiceAction::Challenge, 0)
        .unwrap();
    assert!(matches!(&events[0], LiarsDiceEvent::Revealed(r) if r.count == 2 && r.loser == 1));
    assert_eq!(
        state.board.cups.iter().map(Vec::len).collect::<Vec<_>>(),
        [2, 1, 2]
    );
    assert_eq!(state.board.turn, 1);
}

#[test]
fn the_last_with_dice_wins_and_places_go_by_who_went_out_first() {
    let mut state = start(3, 1, &[&[2], &[3], &[4]]);
    let challenge = LiarsDiceAction::Challenge;
    LiarsDice.apply(&mut state, 0, &bid(2, 2), 0).unwrap();
    // Out of dice: no reroll follows a challenge that leaves one seat, and this one
    // leaves two: the shape is one die each for seats 0 and 2.
    assert!(!LiarsDice.chance_possible(&state, 1, &challenge, &vec![vec![5], vec![], vec![6]]));
    let events = LiarsDice.apply_chance(
        &mut state,
        1,
        &challenge,
        &vec![vec![5], vec![], vec![6]],
        0,
    );
    assert_eq!(code(events), "IMPOSSIBLE_OUTCOME");
    let events = LiarsDice
        .apply_chance(
            &mut state,
            1,
            &challenge,
            &vec![vec![], vec![5], vec![6]],
            0,
        )
        .unwrap();
    assert_eq!(events[1], LiarsDiceEvent::Out { seat: 0 });
    assert_eq!(state.board.out, [0]);
    // The loser is out: the next seat with dice opens.
    assert_eq!(state.board.turn, 1);
    LiarsDice.apply(&mut state, 1, &bid(1, 3), 0).unwrap();
    // A challenge that ends the game has no reroll to rig.
    let mut rng = GameRng::from_seed(1);
    assert_eq!(
        LiarsDice.sample_chance(&state, 2, &challenge, &mut rng),
        None
    );
    let events = LiarsDice.apply(&mut state, 2, &challenge, 0).unwrap();
    assert_eq!(
        events[1..],
        [
            LiarsDiceEvent::Out { seat: 1 },
            LiarsDiceEvent::Won { seat: 2 }
        ]
    );
    let outcome = LiarsDice.outcome(&state).unwrap();
    assert_eq!((outcome.winner, outcome.out), (2, vec![0, 1]));
    let payoffs: Vec<_> = (0..3).map(|s| LiarsDice.payoff(&state, s)).collect();
    assert_eq!(payoffs, [Some(0.0), Some(0.5), Some(1.0)]);
    assert_eq!(
        (LiarsDice.deadline(&state), LiarsDice.to_act(&state)),
        (None, vec![])
    );
    assert_eq!(
        code(LiarsDice.apply(&mut state, 2, &bid(1, 2), 0)),
        "GAME_OVER"
    );
}

#[test]
fn the_reroll_is_rigged_with_any_faces_of_its_shape_and_drawn_so() {
    let mut state = start(2, 2, &[&[2, 3], &[4, 5]]);
    LiarsDice.apply(&mut state, 0, &bid(1, 4), 0).unwrap();
    let challenge = LiarsDiceAction::Challenge;
    // The bid holds: seat 1 keeps one die, seat 0 two.
    assert_eq!(
        LiarsDice.chances(&state, 1, &challenge),
        None,
        "too many to list"
    );
    for (faces, possible) in [
        (vec![vec![6, 1], vec![3]], true),
        (vec![vec![6, 1], vec![3, 3]], false),
        (vec![vec![6], vec![3]], false),
        (vec![vec![6, 7], vec![3]], false),
        (vec![vec![6, 0], vec![3]], false),
        (vec![vec![6, 1]], false),
    ] {
        assert_eq!(
            LiarsDice.chance_possible(&state, 1, &challenge, &faces),
            possible,
            "{faces:?}"
        );
        assert!(
            !LiarsDice.chance_possible(&state, 1, &bid(2, 2), &faces),
            "a bid rolls nothing"
        );
    }
    let mut rng = GameRng::from_seed(9);
    for _ in 0..20 {
        let drawn = LiarsDice
            .sample_chance(&state, 1, &challenge, &mut rng)
            .unwrap();
        assert!(
            LiarsDice.chance_possible(&state, 1, &challenge, &drawn),
            "{drawn:?}"
        );
    }
    let before = state.clone();
    let bad = vec![vec![6, 1], vec![3, 3]];
    assert_eq!(
        code(LiarsDice.apply_chance(&mut state, 1, &challenge, &bad, 0)),
        "IMPOSSIBLE_OUTCOME"
    );
    assert_eq!(state, before);
    LiarsDice
        .apply_chance(&mut state, 1, &challenge, &vec![vec![6, 1], vec![3]], 0)
        .unwrap();
    assert_eq!(state.board.cups, [vec![1, 6], vec![3]]);
}

#[test]
fn a_timeout_makes_the_careful_move() {
    let mut state = start(2, 5, &[&[2, 2, 3, 4, 5], &[1, 3, 3, 6, 6]]);
    // Nothing bid yet: the lowest bid.
    assert_eq!(LiarsDice.timeout_action(&state, 0), Some(bid(1, 2)));
    assert_eq!(LiarsDice.timeout_action(&state, 1), None);
    LiarsDice.apply(&mut state, 0, &bid(3, 6), 0).unwrap();
    // Three 6s: seat 1 holds two and a one. The bid holds for sure: raise by the least.
    assert_eq!(LiarsDice.timeout_action(&state, 1), Some(bid(4, 2)));
    LiarsDice.apply(&mut state, 1, &bid(8, 5), 0).unwrap();
    // Eight 5s, seat 0 holding one: unlikely. 30 s a decision: the engine challenges.
    let applied = LiarsDice.tick(&mut state, 31_000);
    assert_eq!(applied.len(), 1);
    assert!(applied[0].auto && applied[0].action == LiarsDiceAction::Challenge);
    // At the top bid, nothing is left but the challenge.
    let mut state = start(2, 1, &[&[2], &[3]]);
    LiarsDice.apply(&mut state, 0, &bid(2, 6), 0).unwrap();
    assert_eq!(
        LiarsDice.legal_actions(&state, 1),
        [LiarsDiceAction::Challenge]
    );
    assert_eq!(
        LiarsDice.timeout_action(&state, 1),
        Some(LiarsDiceAction::Challenge)
    );
}

#[test]
fn a_seat_sees_its_own_dice_and_the_counts_a_spectator_no_dice() {
    let mut state = start(3, 2, &[&[2, 3], &[4, 5], &[1, 6]]);
    let view = LiarsDice.view(&state, Viewer::Player("p1"));
    assert_eq!(
        (view.table.you, view.your_dice.as_deref()),
        (Some(1), Some(&[4, 5][..]))
    );
    assert_eq!(view.dice_counts, [2, 2, 2]);
    assert!(view.legal_actions.is_empty(), "not p1's turn");
    let watcher = LiarsDice.view(&state, Viewer::Spectator);
    assert_eq!(
        (&watcher.your_dice, watcher.legal_actions.len()),
        (&None, 0)
    );
    let json = serde_json::to_value(&watcher).unwrap();
    assert!(
        !json.to_string().contains("cups"),
        "no cup in a view: {json}"
    );
    testing::assert_no_rng_keys(&json);
    // The roll after a challenge: each player sees its own cup, a spectator none; the reveal
    // before it is everyone's.
    LiarsDice.apply(&mut state, 0, &bid(1, 2), 0).unwrap();
    let events = LiarsDice
        .apply(&mut state, 1, &LiarsDiceAction::Challenge, 0)
        .unwrap();
    let json = serde_json::to_string(&events).unwrap();
    assert_eq!(
        serde_json::from_str::<Vec<LiarsDiceEvent>>(&json).unwrap(),
        events
    );
    let [revealed, rolled] = &events[..] else {
        panic!("{events:?}")
    };
    for viewer in [
        Viewer::Player("p0"),
        Viewer::Player("p2"),
        Viewer::Spectator,
    ] {
        assert_eq!(&LiarsDice.event_for(revealed, viewer), revealed);
    }
    let dice_seen = |viewer| match LiarsDice.event_for(rolled, viewer) {
        LiarsDiceEvent::Rolled { cups, .. } => cups
            .iter()
            .map(|c| (c.count, c.dice.clone()))
            .collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    let cups = &state.board.cups;
    assert_eq!(
        dice_seen(Viewer::Player("p2")),
        [(2, None), (1, None), (2, Some(cups[2].clone()))]
    );
    assert_eq!(
        dice_seen(Viewer::Spectator),
        [(2, None), (1, None), (2, None)]
    );
    let seen = serde_json::to_string(&LiarsDice.event_for(rolled, Viewer::Spectator)).unwrap();
    assert!(!seen.contains("dice"), "{seen}");
}

#[test]
fn actions_are_read_strictly() {
    let read =
        |s: &str| game_core::wire::read_action::<LiarsDiceAction>(serde_json::from_str(s).unwrap());
    assert_eq!(
        read(r#"{"type":"BID","quantity":3,"face":4}"#).unwrap(),
        bid(3, 4)
    );
    assert_eq!(
        read(r#"{"type":"CHALLENGE"}"#).unwrap(),
        LiarsDiceAction::Challenge
    );
    for bad in [
        r#"{"type":"BID","quantity":3}"#,
        r#"{"type":"BID","quantity":-1,"face":4}"#,
        r#"{"type":"CHALLENGE","bid":1}"#,
        r#"{"type":"LIAR"}"#,
    ] {
        assert!(read(bad).is_err(), "{bad}");
    }
}

/// A state's phase, for `states_by_phase`: the dice in play, whether a bid is open, over.
fn phase(state: &LiarsDiceState) -> String {
    let b = &state.board;
    format!("{} {} {:?}", b.dice_in_play(), b.bids.is_empty(), b.winner)
}

#[test]
fn refusals_change_nothing_in_any_phase() {
    let challenge = LiarsDiceAction::Challenge;
    let mut actions = vec![
        challenge,
        bid(1, 2),
        bid(1, 6),
        bid(2, 2),
        bid(4, 5),
        bid(0, 2),
        bid(1, 1),
        bid(1, 7),
        bid(40, 6),
    ];
    actions.push(bid(u32::MAX, 6));
    for (dice, n) in [(2, 2), (1, 3), (2, 6)] {
        let options = LiarsDiceOptions {
            dice,
            ..Default::default()
        };
        let states = testing::states_by_phase(&LiarsDice, &options, n, phase);
        assert!(states.len() > 3, "{n} players: {} phases", states.len());
        // A reroll of every shape these games reach, and faces no die shows.
        let chances = vec![
            vec![vec![2, 3], vec![4]],
            vec![vec![1], vec![], vec![6]],
            vec![vec![7], vec![2]],
        ];
        let may_act = |state: &LiarsDiceState, seat: usize, _: &LiarsDiceAction| {
            LiarsDice.first_to_act(state) == Some(seat)
        };
        let tally = testing::hammer_all(&LiarsDice, &states, &actions, &chances, may_act);
        assert!(
            tally.accepted > 0 && tally.refused > tally.accepted,
            "{tally:?}"
        );
    }
}
