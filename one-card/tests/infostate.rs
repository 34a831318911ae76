//! The information-set seam: `resample_from_infostate` gives worlds a seat cannot tell
//! apart from the truth, drawn from what it knows alone; `payoff` ranks a finished game;
//! and the bots every host runs decide the same on the truth and on any of its worlds.

mod common;

use common::ids;
use game_core::search::Ismcts;
use game_core::{Bot, Fair, Game, GameExt, GameRng, GameState, RandomBot, Viewer};
use one_card::bots::PolicyBot;
use one_card::{Card, DECK_SIZE, OneCard, OneCardAction, OneCardOptions, OneCardState, Ranking};

/// The option sets the states are drawn from: the default game; a long one, with every
/// rank played for and bankruptcy early (leavers' cards under the pile, refills); and one
/// without calls or bankruptcy (many refills).
fn option_sets() -> Vec<OneCardOptions> {
    vec![
        OneCardOptions::default(),
        OneCardOptions {
            hand_size: 8,
            bankrupt_at: Some(15),
            ranking: Ranking::All,
            ..OneCardOptions::default()
        },
        OneCardOptions {
            hand_size: 5,
            bankrupt_at: None,
            one_card_call: false,
            ranking: Ranking::All,
            ..OneCardOptions::default()
        },
    ]
}

/// Seeded games of 2 to 5 players under every option set, played by policy and random
/// bots (callers first, as a host lets them), with the states met every few steps and every state with
/// a one-card window open. In some games a seat concedes on the way, so that a leaver's
/// cards lie under the draw pile. Finished games included.
fn states() -> Vec<OneCardState> {
    let mut out = Vec::new();
    for (o, options) in option_sets().iter().enumerate() {
        for n in 2..=5usize {
            for seed in [3u64, 4] {
                let game_seed = seed * 100 + n as u64 * 10 + o as u64;
                let mut state = OneCard.setup(options, &ids(n), game_seed, 0).unwrap();
                // Random play draws often (refills, bankruptcies); the policy bot plays
                // hands down to one card (call windows, finishes).
                let mut random = RandomBot::new(game_seed);
                let mut policy = PolicyBot::new(game_seed);
                let policy_seats = if seed == 3 { n } else { 1 };
                let concede_at = (seed == 4 && n > 2).then_some(23 + game_seed % 17);
                for step in 0..600u64 {
                    if step % 5 == 0 || state.call().is_some() {
                        out.push(state.clone());
                    }
                    if Some(step) == concede_at {
                        let seat = OneCard.first_to_act(&state).map_or(0, |m| (m + 1) % n);
                        if state.status()[seat] == one_card::SeatStatus::Playing {
                            OneCard
                                .apply(&mut state, seat, &OneCardAction::Concede, step)
                                .unwrap();
                        }
                    }
                    let Some(mover) = OneCard.first_to_act(&state) else {
                        break;
                    };
                    let callers: Vec<usize> = (0..n)
                        .filter(|&s| s != mover && OneCard.may_act(&state, s))
                        .collect();
                    for seat in callers.into_iter().chain([mover]) {
                        if !OneCard.may_act(&state, seat) {
                            continue;
                        }
                        let action = if seat < policy_seats {
                            policy.choose(&OneCard, &state, seat)
                        } else {
                            random.choose(&OneCard, &state, seat)
                        };
                        OneCard
                            .apply(&mut state, seat, &action.unwrap(), step)
                            .unwrap();
                        if OneCard.is_over(&state) {
                            break;
                        }
                    }
                }
                out.push(state);
            }
        }
    }
    out
}

/// The player id of `seat`.
fn id(state: &OneCardState, seat: usize) -> &str {
    &state.table().players()[seat]
}

/// `seat`'s view of `state` as JSON: what a host sends that seat.
fn view_json(state: &OneCardState, seat: usize) -> serde_json::Value {
    serde_json::to_value(OneCard.view(state, Viewer::Player(id(state, seat)))).unwrap()
}

/// A world of `seat`'s information set in `state`, drawn from `seed`.
fn world(state: &OneCardState, seat: usize, seed: u64) -> OneCardState {
    OneCard.resample_from_infostate(state, seat, &mut GameRng::from_seed(seed))
}

/// Every card of `state`, sorted: the deck, if nothing was lost or invented.
fn all_cards(state: &OneCardState) -> Vec<Card> {
    let mut cards: Vec<Card> = state
        .hands()
        .iter()
        .flatten()
        .chain(state.draw_pile())
        .chain(state.discard())
        .copied()
        .collect();
    cards.sort();
    cards
}

#[test]
fn a_world_shows_its_seat_exactly_what_the_truth_shows() {
    let states = states();
    assert!(states.len() > 500, "{} states", states.len());
    let deck: Vec<Card> = Card::all().collect();
    let (mut with_leaver, mut refilled, mut windows) = (0, 0, 0);
    for (i, state) in states.iter().enumerate() {
        with_leaver += usize::from(!state.out().is_empty() && !state.over());
        refilled += usize::from(state.discard().len() < 8 && state.draw_pile().len() < 20);
        windows += usize::from(state.call().is_some());
        let n = state.table().players().len();
        for seat in 0..n {
            for k in 0..3u64 {
                let w = world(state, seat, i as u64 * 16 + k);
                let at = format!("state {i}, seat {seat}, sample {k}");
                assert_eq!(view_json(&w, seat), view_json(state, seat), "{at}");
                assert_eq!(
                    OneCard.legal_actions(&w, seat),
                    OneCard.legal_actions(state, seat),
                    "{at}"
                );
                assert_eq!(
                    OneCard.may_act(&w, seat),
                    OneCard.may_act(state, seat),
                    "{at}"
                );
                // What the seat has seen stays where it is.
                assert_eq!(w.hands()[seat], state.hands()[seat], "{at}");
                assert_eq!(w.discard(), state.discard(), "{at}");
                let counts = |s: &OneCardState| s.hands().iter().map(Vec::len).collect::<Vec<_>>();
                assert_eq!(counts(&w), counts(state), "{at}");
                assert_eq!(w.draw_pile().len(), state.draw_pile().len(), "{at}");
                // Every card once, a state play can reach, stored and loaded unchanged.
                assert_eq!(all_cards(&w), deck, "{at}");
                OneCard
                    .check_state(&w)
                    .unwrap_or_else(|e| panic!("{at}: {e:?}"));
                let json = serde_json::to_string(&w).unwrap();
                assert_eq!(OneCard.restore(&json).unwrap(), w, "{at}");
                // Nothing else of the state changes but the RNG.
                assert_eq!(OneCard.is_over(&w), OneCard.is_over(state), "{at}");
                assert_eq!(OneCard.outcome(&w), OneCard.outcome(state), "{at}");
                let draw = |s: &OneCardState| s.table().clone().rng_mut().next_u32();
                assert_ne!(draw(&w), draw(state), "{at}");
            }
        }
    }
    // The states cover what the seam must get right.
    assert!(
        with_leaver > 20 && refilled > 20 && windows > 20,
        "{with_leaver} {refilled} {windows}"
    );
}

#[test]
fn a_world_depends_only_on_what_its_seat_knows() {
    let states = states();
    let mut compared = 0;
    for (i, state) in states.iter().enumerate().step_by(3) {
        let n = state.table().players().len();
        for seat in 0..n {
            // A state the seat cannot tell apart from the truth, and one more from it.
            let other = world(state, seat, 7_000 + i as u64);
            let third = world(&other, seat, 9_000 + i as u64);
            for seed in [1u64, 2] {
                let from_truth = world(state, seat, seed);
                assert_eq!(
                    from_truth,
                    world(&other, seat, seed),
                    "state {i}, seat {seat}"
                );
                assert_eq!(
                    from_truth,
                    world(&third, seat, seed),
                    "state {i}, seat {seat}"
                );
                let mut a = GameRng::from_seed(seed);
                let mut b = GameRng::from_seed(seed);
                assert_eq!(
                    OneCard.determinize(state, seat, &mut a),
                    OneCard.determinize(&other, seat, &mut b)
                );
            }
            compared += 1;
        }
    }
    assert!(compared > 500, "{compared}");
}

/// For each unseen card of `seat` in `state`, how often `samples` worlds put it in each
/// place (each other seat's hand, then the draw pile), checked against a uniform deal:
/// every place whose expected count is at least 100 holds each card within ±40 % of it
/// (many standard deviations: the seeds are fixed, the bound is for a broken shuffle).
/// Returns how many worlds differ from the truth in the hidden cards.
fn assert_uniform(state: &OneCardState, seat: usize, samples: u64) -> u64 {
    let n = state.table().players().len();
    let unseen: Vec<Card> = state
        .hands()
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat)
        .flat_map(|(_, h)| h.iter().copied())
        .chain(state.draw_pile().iter().copied())
        .collect();
    // Places 0..n are the seats' hands, n the draw pile.
    let mut counts = vec![[0u64; 6]; DECK_SIZE];
    let mut differ = 0;
    for k in 0..samples {
        let w = world(state, seat, 50_000 + k);
        for (s, hand) in w.hands().iter().enumerate() {
            for card in hand {
                counts[card.index()][s] += 1;
            }
        }
        for card in w.draw_pile() {
            counts[card.index()][n] += 1;
        }
        let hidden = |x: &OneCardState| {
            let mut v: Vec<Vec<Card>> = x.hands().to_vec();
            v.push(x.draw_pile().to_vec());
            v
        };
        differ += u64::from(hidden(&w) != hidden(state));
    }
    let sizes: Vec<usize> = (0..n)
        .map(|s| if s == seat { 0 } else { state.hands()[s].len() })
        .chain([state.draw_pile().len()])
        .collect();
    let mut checked = 0;
    for card in &unseen {
        for (place, &size) in sizes.iter().enumerate() {
            let expected = samples as f64 * size as f64 / unseen.len() as f64;
            if expected < 100.0 {
                continue;
            }
            let got = counts[card.index()][place] as f64;
            assert!(
                (got - expected).abs() < 0.4 * expected,
                "{card} in place {place}: {got} times, {expected:.0} expected"
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
    differ
}

#[test]
fn the_hidden_cards_are_really_redrawn_uniformly() {
    // At the deal, 3 players: 46 cards unseen by seat 0, 7 in each other hand.
    let options = OneCardOptions::default();
    let deal = OneCard.setup(&options, &ids(3), 11, 0).unwrap();
    let samples = 2_000;
    let differ = assert_uniform(&deal, 0, samples);
    assert!(differ * 100 > samples * 99, "{differ} of {samples}");
    // Later positions: with a leaver's cards under the pile, after refills, for every seat.
    let states = states();
    let later = states
        .iter()
        .filter(|s| !s.over() && !s.out().is_empty() && s.draw_pile().len() > 10)
        .step_by(7)
        .take(4);
    let mut tried = 0;
    for state in later {
        for seat in 0..state.table().players().len() {
            let differ = assert_uniform(state, seat, 600);
            assert!(differ > 590, "{differ} of 600");
        }
        tried += 1;
    }
    assert_eq!(tried, 4);
}

/// The states a bot is asked about: every few states, the seats that may act.
fn decisions(states: &[OneCardState], every: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, state) in states.iter().enumerate().step_by(every) {
        for seat in 0..state.table().players().len() {
            if OneCard.may_act(state, seat) {
                out.push((i, seat));
            }
        }
    }
    out
}

#[test]
fn the_policy_bot_chooses_the_same_on_every_world_fair_or_not() {
    let states = states();
    let decisions = decisions(&states, 2);
    assert!(decisions.len() > 300, "{}", decisions.len());
    for &(i, seat) in &decisions {
        let state = &states[i];
        for k in 0..2u64 {
            let w = world(state, seat, 300 + k);
            for bot_seed in [5u64, 6] {
                // It reads its seat's view only: the world changes nothing.
                let plain = PolicyBot::new(bot_seed).choose(&OneCard, state, seat);
                assert_eq!(plain, PolicyBot::new(bot_seed).choose(&OneCard, &w, seat));
                // Behind `Fair`, as every host runs it, it decides on a world of its own.
                let fair =
                    Fair::new(PolicyBot::new(bot_seed), 40 + k).choose(&OneCard, state, seat);
                assert_eq!(
                    fair,
                    Fair::new(PolicyBot::new(bot_seed), 40 + k).choose(&OneCard, &w, seat)
                );
                assert!(OneCard.legal_actions(state, seat).contains(&fair.unwrap()));
            }
        }
    }
}

#[test]
fn the_registrys_bots_choose_the_same_on_the_truth_and_on_a_world() {
    let registry = game_host::registry();
    let game = registry.get("one-card").unwrap();
    let states = states();
    // The searches are slow unoptimised: a few states of each size and option set.
    let picked: Vec<(usize, usize)> = decisions(&states, 1)
        .into_iter()
        .filter(|&(i, _)| !states[i].over())
        .step_by(97)
        .take(6)
        .collect();
    assert_eq!(picked.len(), 6);
    for (i, seat) in picked {
        let state = &states[i];
        let player = id(state, seat);
        let truth = registry
            .restore("one-card", &serde_json::to_string(state).unwrap())
            .unwrap();
        let w = world(state, seat, 77 + i as u64);
        let other = registry
            .restore("one-card", &serde_json::to_string(&w).unwrap())
            .unwrap();
        for kind in game.bot_kinds() {
            let on_truth = game.bot(kind, 13).unwrap().choose(truth.as_ref(), player);
            let on_world = game.bot(kind, 13).unwrap().choose(other.as_ref(), player);
            assert_eq!(on_truth, on_world, "{kind}, state {i}, seat {seat}");
            let action: OneCardAction = serde_json::from_value(on_truth.unwrap()).unwrap();
            assert!(
                OneCard.legal_actions(state, seat).contains(&action),
                "{kind}"
            );
        }
    }
}

#[test]
fn fair_ismcts_plays_legal_moves_to_the_end() {
    for (n, options) in [
        (2, OneCardOptions::default()),
        (
            3,
            OneCardOptions {
                ranking: Ranking::All,
                ..OneCardOptions::default()
            },
        ),
    ] {
        let mut state = OneCard.setup(&options, &ids(n), 21, 0).unwrap();
        let mut bots: Vec<Ismcts> = (0..n as u64).map(|s| Ismcts::new(s, 48)).collect();
        let mut steps = 0u64;
        while !OneCard.is_over(&state) {
            steps += 1;
            assert!(steps < 3_000, "{n} players: no end");
            let mover = OneCard.first_to_act(&state).unwrap();
            let callers: Vec<usize> = (0..n)
                .filter(|&s| s != mover && OneCard.may_act(&state, s))
                .collect();
            for seat in callers.into_iter().chain([mover]) {
                if !OneCard.may_act(&state, seat) {
                    continue;
                }
                let action = bots[seat].choose(&OneCard, &state, seat).unwrap();
                assert!(OneCard.legal_actions(&state, seat).contains(&action));
                OneCard.apply(&mut state, seat, &action, steps).unwrap();
                if OneCard.is_over(&state) {
                    break;
                }
            }
        }
        let payoffs: Vec<f64> = (0..n).map(|s| OneCard.payoff(&state, s).unwrap()).collect();
        assert!(
            payoffs.contains(&1.0) && payoffs.contains(&0.0),
            "{payoffs:?}"
        );
    }
}

#[test]
fn the_payoff_places_each_rank_on_a_line_from_first_to_last() {
    let mut finished = 0;
    for state in states() {
        let n = state.table().players().len();
        let Some(outcome) = OneCard.outcome(&state) else {
            assert!((0..n).all(|s| OneCard.payoff(&state, s).is_none()));
            continue;
        };
        finished += 1;
        let last = *outcome.ranks.iter().max().unwrap();
        for (seat, &rank) in outcome.ranks.iter().enumerate() {
            let expected = f64::from(last - rank) / f64::from(last - 1);
            assert_eq!(OneCard.payoff(&state, seat), Some(expected), "seat {seat}");
        }
        assert_eq!(OneCard.payoff(&state, outcome.winner_seat), Some(1.0));
        if state.options().ranking == Ranking::First {
            let wins = (0..n)
                .filter(|&s| OneCard.payoff(&state, s) == Some(1.0))
                .count();
            assert_eq!(wins, 1);
        }
        assert_eq!(OneCard.payoff(&state, n), None);
    }
    assert!(finished >= 20, "{finished}");
}
