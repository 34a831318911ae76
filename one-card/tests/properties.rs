//! Properties over random games of 2 to 5 players with random options, mixing legal
//! actions, refused ones, timeouts and presence changes: the 54 cards are conserved after
//! every input, a refused input changes nothing, `validate` accepts exactly the legal
//! actions, no player's view or projected event shows another player's card or the draw
//! pile, and a state saved and restored at any point continues identically.

mod common;

use game_core::GameExt;
use game_core::GameState;
use std::collections::BTreeSet;

use common::ids;
use game_core::{Game, GameError, Viewer};
use one_card::{
    Card, OneCard, OneCardAction, OneCardEvent, OneCardOptions, OneCardState, Ranking, Suit,
    TURN_SECONDS,
};
use proptest::prelude::*;
use serde_json::Value;

/// One input to the game.
#[derive(Clone, Debug)]
enum Op {
    /// A legal action of a seat that has one (the mover or a caller), by index.
    Legal { seat: usize, pick: usize },
    /// Any action from anyone (a seat, or a stranger at `who` past the table); mostly refused.
    Any { who: usize, action: usize },
    /// The clock moves forward, maybe past the move's deadline.
    Tick { advance: u64 },
    /// A seat connects or disconnects.
    Presence { who: usize, connected: bool },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0..5usize, 0..1000usize).prop_map(|(seat, pick)| Op::Legal { seat, pick }),
        3 => (0..6usize, 0..1000usize).prop_map(|(who, action)| Op::Any { who, action }),
        1 => (0..70_000u64).prop_map(|advance| Op::Tick { advance }),
        1 => (0..5usize, any::<bool>()).prop_map(|(who, connected)| Op::Presence { who, connected }),
    ]
}

fn options() -> impl Strategy<Value = OneCardOptions> {
    (
        5..=8u8,
        prop_oneof![Just(None), (15..=30u8).prop_map(Some)],
        any::<bool>(),
        any::<bool>(),
        0..TURN_SECONDS.len(),
    )
        .prop_map(
            |(hand_size, bankrupt_at, one_card_call, all, t)| OneCardOptions {
                hand_size,
                bankrupt_at,
                one_card_call,
                ranking: if all { Ranking::All } else { Ranking::First },
                turn_seconds: TURN_SECONDS[t],
            },
        )
}

/// Every action a seat could try: each card (a 7 with and without a suit, others with and
/// without), DRAW, the calls on each seat, and (rarely picked) CONCEDE.
fn pool(n: usize) -> Vec<OneCardAction> {
    let mut out = vec![OneCardAction::Draw, OneCardAction::OneCard];
    for card in Card::all() {
        out.push(OneCardAction::Play { card, suit: None });
        out.push(OneCardAction::Play {
            card,
            suit: Some(Suit::ALL[card.index() % 4]),
        });
    }
    for p in ids(n + 1) {
        out.push(OneCardAction::Catch { player: p });
    }
    out.push(OneCardAction::Concede);
    out
}

/// Applies `op` at `now`; returns the events of the accepted inputs (per acting player,
/// for the leak check) or the refusal's code.
fn run(
    state: &mut OneCardState,
    op: &Op,
    now: u64,
    pool: &[OneCardAction],
) -> Result<Vec<OneCardEvent>, String> {
    let n = state.table().players().len();
    let code = |e: one_card::OneCardError| e.code().to_owned();
    match *op {
        Op::Legal { seat, pick } => {
            let seat = seat % n;
            let legal = OneCard.legal_actions(state, seat);
            if legal.is_empty() {
                return Err("NOTHING_TO_DO".into());
            }
            let action = &legal[pick % legal.len()];
            let mut events = Vec::new();
            let played = OneCard.play(state, seat, action, None, now, &mut events);
            settled(played, events)
        }
        Op::Any { who, action } => {
            // Conceding rarely, so that games run long.
            let mut action = &pool[action % pool.len()];
            if *action == OneCardAction::Concede && who != 0 {
                action = &OneCardAction::Draw;
            }
            let id = if who < n {
                format!("p{who}")
            } else {
                "stranger".into()
            };
            let mut events = Vec::new();
            let played = match OneCard.seat(state, &id) {
                Ok(seat) => OneCard.play(state, seat, action, None, now, &mut events),
                Err(e) => game_core::Played {
                    applied: Vec::new(),
                    result: Err(e),
                },
            };
            // A refusal names no card but the one its actor tried to play.
            if let Err(e) = &played.result {
                let mut named = BTreeSet::new();
                cards_in(&serde_json::to_value(e.body()).unwrap(), &mut named);
                for word in e.message().split(|c: char| !c.is_ascii_alphanumeric()) {
                    named.extend(word.parse::<Card>().ok());
                }
                let own = match action {
                    OneCardAction::Play { card, .. } => Some(*card),
                    _ => None,
                };
                assert!(
                    named.iter().all(|c| Some(*c) == own),
                    "{e:?} names {named:?}"
                );
            }
            settled(played, events)
        }
        Op::Tick { .. } => Ok(OneCard
            .tick(state, now)
            .into_iter()
            .flat_map(|a| a.events)
            .collect()),
        Op::Presence { who, connected } => OneCard
            .set_connected(state, &format!("p{}", who % n), connected, now)
            .map_err(code),
    }
}

/// The events of a request: those of the timeouts taken first (which stand even when the
/// request is refused) and the request's own; the refusal's code when nothing happened.
fn settled(
    played: game_core::Played<OneCard, ()>,
    own: Vec<OneCardEvent>,
) -> Result<Vec<OneCardEvent>, String> {
    let mut events: Vec<_> = played.applied.into_iter().flat_map(|a| a.events).collect();
    match played.result {
        Ok(()) => events.extend(own),
        Err(e) if events.is_empty() => return Err(e.code().to_owned()),
        Err(_) => {}
    }
    Ok(events)
}

/// Each of the 54 cards exactly once in the hands and the two piles.
fn conserved(state: &OneCardState) -> Result<(), TestCaseError> {
    let mut count = [0u8; 54];
    let all = state
        .hands()
        .iter()
        .flatten()
        .chain(state.draw_pile())
        .chain(state.discard());
    for card in all {
        count[card.index()] += 1;
    }
    prop_assert!(
        count.iter().all(|&c| c == 1),
        "cards not conserved: {:?}",
        count
    );
    Ok(())
}

/// Every card named anywhere in a JSON document (any string that is a card name).
fn cards_in(value: &Value, out: &mut BTreeSet<Card>) {
    match value {
        Value::String(s) => out.extend(s.parse::<Card>().ok()),
        Value::Array(items) => items.iter().for_each(|v| cards_in(v, out)),
        Value::Object(map) => map.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

/// No player's view or projection of `events` shows a card another player holds now or a
/// card of the draw pile (but for the viewer's own cards: held before or drawn in this
/// input, gone under the pile with a bankruptcy); the spectator's shows only discarded cards.
fn no_leak(
    state: &OneCardState,
    before: &OneCardState,
    events: &[OneCardEvent],
) -> Result<(), TestCaseError> {
    let n = state.table().players().len();
    let ids = ids(n);
    for viewer in (0..=n).map(|i| ids.get(i).map(String::as_str)) {
        let as_viewer = viewer.map_or(Viewer::Spectator, Viewer::Player);
        let mut seen = BTreeSet::new();
        cards_in(
            &serde_json::to_value(OneCard.view(state, as_viewer)).unwrap(),
            &mut seen,
        );
        for e in events {
            cards_in(
                &serde_json::to_value(OneCard.event_for(e, as_viewer)).unwrap(),
                &mut seen,
            );
        }
        let own = viewer.map(|id| ids.iter().position(|p| p == id).unwrap());
        for card in seen {
            for (seat, hand) in state.hands().iter().enumerate() {
                prop_assert!(
                    Some(seat) == own || !hand.contains(&card),
                    "{:?} sees {} held by seat {}",
                    viewer,
                    card,
                    seat
                );
            }
            // What the viewer held before, or drew in this very input (their bankrupt hand
            // goes under the draw pile): their own cards, which they know.
            let drew_it = |s: usize| {
                events.iter().any(|e| {
                    matches!(e, OneCardEvent::Drew { player, cards: Some(cards), .. }
                        if *player == ids[s] && cards.contains(&card))
                })
            };
            let known = own.is_some_and(|s| before.hands()[s].contains(&card) || drew_it(s));
            prop_assert!(
                known || !state.draw_pile().contains(&card),
                "{:?} sees {} in the draw pile",
                viewer,
                card
            );
        }
    }
    Ok(())
}

/// The invariants every reachable state keeps.
fn invariants(state: &OneCardState, pool: &[OneCardAction]) -> Result<(), TestCaseError> {
    conserved(state)?;
    prop_assert!(
        OneCard.check_state(state).is_ok(),
        "{:?}",
        OneCard.check_state(state)
    );
    let json = serde_json::to_string(state).unwrap();
    let restored = OneCard.restore(&json).unwrap();
    prop_assert_eq!(&restored, state);
    prop_assert_eq!(serde_json::to_string(&restored).unwrap(), json);
    let to_act = OneCard.to_act(state);
    prop_assert_eq!(OneCard.is_over(state), to_act.is_empty());
    prop_assert!(to_act.len() <= 1);
    for seat in 0..state.table().players().len() {
        let legal = OneCard.legal_actions(state, seat);
        for action in pool {
            // CONCEDE is valid but deliberately not listed.
            let listed =
                legal.contains(action) || (*action == OneCardAction::Concede && !legal.is_empty());
            let valid = OneCard.validate(state, seat, action).is_ok();
            if *action != OneCardAction::Concede {
                prop_assert_eq!(valid, listed, "seat {} action {:?}", seat, action);
            }
            let is_call = matches!(action, OneCardAction::OneCard | OneCardAction::Catch { .. });
            if valid && is_call {
                prop_assert!((state.call().is_some() && OneCard.may_act(state, seat)));
            }
            if valid && !is_call && *action != OneCardAction::Concede {
                prop_assert_eq!(&to_act, &vec![seat]);
            }
        }
        prop_assert_eq!(
            to_act.contains(&seat),
            OneCard.timeout_action(state, seat) == Some(OneCardAction::Draw)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_games_conserve_the_cards_and_leak_nothing(
        seed in any::<u64>(),
        n in 2..=5usize,
        options in options(),
        ops in prop::collection::vec(op(), 1..250),
    ) {
        let pool = pool(n);
        let mut state = OneCard.setup(&options, &ids(n), seed, 0).unwrap();
        invariants(&state, &pool)?;
        no_leak(&state, &state, &[])?;
        let mut now = 0;
        for op in &ops {
            now += match op {
                Op::Tick { advance } => *advance,
                _ => 100,
            };
            // A copy saved and restored before the input must continue identically.
            let mut restored = OneCard.restore(&serde_json::to_string(&state).unwrap()).unwrap();
            let before = state.clone();
            let result = run(&mut state, op, now, &pool);
            let again = run(&mut restored, op, now, &pool);
            prop_assert_eq!(&result, &again);
            prop_assert_eq!(
                serde_json::to_string(&restored).unwrap(),
                serde_json::to_string(&state).unwrap()
            );
            match &result {
                Err(_) => prop_assert_eq!(&state, &before, "refused {:?} changed the state", op),
                Ok(events) => no_leak(&state, &before, events)?,
            }
            invariants(&state, &pool)?;
        }
    }
}

/// Random play by bots over many seeds reaches every rule: attacks taken, each special
/// card, calls and catches, refills, bankruptcies and both ends; the cards are conserved
/// throughout.
#[test]
fn random_play_reaches_every_rule() {
    let mut seen = BTreeSet::new();
    for seed in 0..200u64 {
        let n = 2 + seed as usize % 4;
        let options = OneCardOptions {
            bankrupt_at: [Some(15), Some(20), None][seed as usize % 3],
            ranking: if seed % 2 == 0 {
                Ranking::All
            } else {
                Ranking::First
            },
            ..OneCardOptions::default()
        };
        let mut state = OneCard.setup(&options, &ids(n), seed, 0).unwrap();
        let mut rng = game_core::GameRng::from_seed(seed);
        for step in 0..3_000u64 {
            let Some(mover) = OneCard.first_to_act(&state) else {
                break;
            };
            // Sometimes a caller acts first, as a fast player would.
            let callers: Vec<usize> = (0..n)
                .filter(|&s| state.call().is_some() && OneCard.may_act(&state, s))
                .collect();
            let seat = if !callers.is_empty() && rng.chance(1, 2) {
                callers[rng.below(callers.len() as u32) as usize]
            } else {
                mover
            };
            let action = OneCard.random_legal_action(&state, seat, &mut rng).unwrap();
            for event in OneCard.apply(&mut state, seat, &action, step).unwrap() {
                let kind = serde_json::to_value(&event).unwrap()["type"].clone();
                seen.insert(kind.as_str().unwrap().to_owned());
                if let OneCardEvent::Played { card, attack, .. } = event {
                    seen.insert(format!("rank {:?}", card.rank()));
                    if attack > 7 {
                        seen.insert("stacked attack".into());
                    }
                }
            }
            conserved(&state).unwrap();
        }
    }
    for kind in [
        "played",
        "drew",
        "reshuffled",
        "skipped",
        "reversed",
        "oneCardCalled",
        "caught",
        "finished",
        "bankrupt",
        "gameOver",
        "rank Some(7)",
        "rank Some(13)",
        "rank None",
        "stacked attack",
    ] {
        assert!(seen.contains(kind), "no {kind} in random play: {seen:?}");
    }
}
