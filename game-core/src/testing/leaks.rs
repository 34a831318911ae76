//! The leak check: what a seat may learn is what its information set holds, so nothing a
//! seat is shown may change between the worlds of that set
//! ([`Game::resample_from_infostate`]). A difference names the JSON field that carried the
//! hidden information.

use serde_json::Value;

use crate::{Bot, Fair, Game, GameExt, GameRng, GameState, Viewer};

/// Worlds drawn for each seat of each state.
const WORLDS: u64 = 3;
/// Actions of a seat tried against each other, at most (enough for every kind of move).
const ACTIONS: usize = 10;

/// Checks, for every state of `states` and every seat, that nothing hidden from the seat
/// reaches it; panics naming the state, the seat and the first JSON field that differs.
/// In each of a few worlds of the seat's information set
/// ([`Game::resample_from_infostate`]):
///
/// - the world is a state the game accepts ([`Game::check_state`]);
/// - the seat's view and its legal actions are the state's;
/// - the sample depends only on what the seat knows: a world drawn from the world, and one
///   drawn from the state, with the same seed, are the same world;
/// - every action of another seat that may act, taken in the state and in the world alike
///   (the same RNG), shows the seat the same events ([`Game::event_for`]) wherever it
///   leaves the seat's view the same. (The seat's own actions are left out: what its own
///   draw shows it is a chance outcome, which it may see though its view afterwards no
///   longer does, as when the draw makes it go bankrupt.)
///
/// And in the state itself, two actions of another seat that leave this seat's view the
/// same show it the same events: what another player chose is learnt from the view or not
/// at all. (So a reveal belongs in the view as well as in its event: a player who reloads
/// sees it too.)
///
/// A game of perfect information passes at once (its worlds are the state). A game that
/// hides something without implementing the resample passes too, unchecked: the kit can
/// only compare worlds the game draws.
///
/// ```
/// use game_core::{Game, rps::{Rps, RpsOptions}};
/// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
/// game_core::testing::assert_no_leaks(&Rps, &[state]);
/// ```
pub fn assert_no_leaks<G: Game>(game: &G, states: &[G::State]) {
    for (i, state) in states.iter().enumerate() {
        let ids = state.table().players.clone();
        for (seat, id) in ids.iter().enumerate() {
            let viewer = Viewer::Player(id);
            let view = json(&game.view(state, viewer));
            let legal = game.legal_actions(state, seat);
            for k in 0..WORLDS {
                let at = format!("state {i}, seat {seat} ({id}), world {k}");
                let world = game.resample_from_infostate(state, seat, &mut GameRng::from_seed(k));
                if let Err(e) = world.table().check() {
                    panic!("{at}: resample_from_infostate drew a world with a broken table: {e}");
                }
                if let Err(e) = game.check_state(&world) {
                    panic!("{at}: resample_from_infostate drew a world the game refuses: {e:?}");
                }
                same(
                    &view,
                    &json(&game.view(&world, viewer)),
                    &format!(
                        "{at}: the seat's view differs between the state and a world of its \
                         information set (the view shows what the seat cannot know, or the \
                         resample changed what it sees)"
                    ),
                );
                assert!(
                    legal == game.legal_actions(&world, seat)
                        && game.may_act(state, seat) == game.may_act(&world, seat),
                    "{at}: the seat's legal actions differ between the state and a world of \
                     its information set: {legal:?} against {:?}",
                    game.legal_actions(&world, seat)
                );
                let seed = 1_000 + k;
                let from_state = game.determinize(state, seat, &mut GameRng::from_seed(seed));
                let from_world = game.determinize(&world, seat, &mut GameRng::from_seed(seed));
                same(
                    &json(&from_state),
                    &json(&from_world),
                    &format!(
                        "{at}: resample_from_infostate draws another world from a state the \
                         seat cannot tell apart: the sample depends on what the seat cannot see"
                    ),
                );
                same_events_across_worlds(game, state, &world, seat, &at);
            }
            same_events_across_actions(game, state, seat, &format!("state {i}, seat {seat}"));
        }
    }
}

/// Every action of another seat that may act, in `state` and in `world` alike: where the
/// step leaves `seat`'s view the same, it must show `seat` the same events.
fn same_events_across_worlds<G: Game>(
    game: &G,
    state: &G::State,
    world: &G::State,
    seat: usize,
    at: &str,
) {
    let viewer = Viewer::Player(&state.table().players[seat]);
    // The seat's own actions are left out: what its own draw shows it is a chance outcome
    // (the pile differs between the worlds), which it may see though its view afterwards
    // no longer does (a player who goes bankrupt on that draw).
    for actor in (0..state.table().players.len()).filter(|&a| a != seat) {
        if !game.may_act(state, actor) {
            continue;
        }
        for action in game.legal_actions(state, actor).into_iter().take(ACTIONS) {
            if game.validate(world, actor, &action).is_err() {
                continue;
            }
            let Some((after, shown)) = step(game, state, actor, &action, viewer) else {
                continue;
            };
            let Some((world_after, world_shown)) = step(game, world, actor, &action, viewer) else {
                continue;
            };
            if after == world_after {
                same(
                    &shown,
                    &world_shown,
                    &format!(
                        "{at}: seat {actor}'s {action:?} shows the seat other events in a world \
                         of its information set, though its view afterwards is the same: an \
                         event shows what the seat cannot know"
                    ),
                );
            }
        }
    }
}

/// Two actions of another seat, in `state`: where both leave `seat`'s view the same, they
/// must show `seat` the same events.
fn same_events_across_actions<G: Game>(game: &G, state: &G::State, seat: usize, at: &str) {
    let viewer = Viewer::Player(&state.table().players[seat]);
    for actor in (0..state.table().players.len()).filter(|&a| a != seat) {
        if !game.may_act(state, actor) {
            continue;
        }
        let results: Vec<_> = game
            .legal_actions(state, actor)
            .into_iter()
            .take(ACTIONS)
            .filter_map(|a| step(game, state, actor, &a, viewer).map(|r| (a, r)))
            .collect();
        for (i, (a, (view_a, shown_a))) in results.iter().enumerate() {
            for (b, (view_b, shown_b)) in results.iter().skip(i + 1).map(|(b, r)| (b, (&r.0, &r.1)))
            {
                if view_a == view_b {
                    same(
                        shown_a,
                        shown_b,
                        &format!(
                            "{at}: seat {actor}'s {a:?} and {b:?} leave the seat's view the \
                             same but show it other events: an event tells the seat what \
                             another seat chose"
                        ),
                    );
                }
            }
        }
    }
}

/// `action` of `actor` on a copy of `state` (a fixed RNG, at the state's clock): the
/// viewer's view afterwards and its projection of the events, or `None` if refused.
fn step<G: Game>(
    game: &G,
    state: &G::State,
    actor: usize,
    action: &G::Action,
    viewer: Viewer<'_>,
) -> Option<(Value, Value)> {
    let mut copy = game.fork(state, 0x5eed);
    let now = state.table().clock();
    let events = game.apply(&mut copy, actor, action, now).ok()?;
    let shown: Vec<G::Event> = events.iter().map(|e| game.event_for(e, viewer)).collect();
    Some((json(&game.view(&copy, viewer)), json(&shown)))
}

/// Checks, for every state of `states` and every seat that may act, that the bot `make`
/// builds, wrapped in [`Fair`] as every host runs it, chooses the same action on the
/// state and on worlds of the seat's information set (the same seeds): a choice that
/// differs reveals hidden information. Panics naming the state, the seat and both choices.
///
/// ```
/// use game_core::{Game, RandomBot, rps::{Rps, RpsOptions}};
/// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
/// game_core::testing::assert_bot_is_fair(&Rps, &[state], RandomBot::new);
/// ```
pub fn assert_bot_is_fair<G: Game, B: Bot<G>>(
    game: &G,
    states: &[G::State],
    make: impl Fn(u64) -> B,
) {
    for (i, state) in states.iter().enumerate() {
        for seat in 0..state.table().players.len() {
            if !game.may_act(state, seat) {
                continue;
            }
            let truth = Fair::new(make(7), 11).choose(game, state, seat);
            for k in 0..WORLDS {
                let world = game.resample_from_infostate(state, seat, &mut GameRng::from_seed(k));
                let chosen = Fair::new(make(7), 11).choose(game, &world, seat);
                assert!(
                    chosen == truth,
                    "state {i}, seat {seat}, world {k}: a fair bot chose {truth:?} on the state \
                     and {chosen:?} on a world of the seat's information set: its choice \
                     depends on what the seat cannot see"
                );
            }
        }
    }
}

/// Checks over seeded random games of `n` players that [`Game::payoff`] is `None` while a
/// game goes on and, once it is over, a value in `0..=1` for every seat, with a win (1.0)
/// for at least one; panics naming the first state where it is not (`at` prefixes the
/// message).
pub fn assert_payoffs<G: Game>(game: &G, options: &G::Options, n: usize, at: &str) {
    super::each_seeded_state(game, options, n, |state, seed, step| {
        let over = game.is_over(state);
        let payoffs: Vec<Option<f64>> = (0..n).map(|seat| game.payoff(state, seat)).collect();
        let at = format!("{at}, seed {seed}, decision {step}");
        if !over {
            assert!(
                payoffs.iter().all(Option::is_none),
                "{at}: a payoff before the end: {payoffs:?}"
            );
            return;
        }
        for (seat, p) in payoffs.iter().enumerate() {
            let p = p.unwrap_or_else(|| {
                panic!(
                    "{at}: the finished game has no payoff for seat {seat}: implement Game::payoff"
                )
            });
            assert!(
                (0.0..=1.0).contains(&p),
                "{at}: seat {seat}'s payoff {p} is not in 0..=1"
            );
        }
        assert!(
            payoffs.contains(&Some(1.0)),
            "{at}: no seat has a win (1.0): {payoffs:?}"
        );
    });
}

fn json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("serializes")
}

/// Panics with `what`, the first differing field's JSON pointer and both values, unless
/// `a` and `b` are equal.
#[track_caller]
fn same(a: &Value, b: &Value, what: &str) {
    if let Some((path, x, y)) = first_difference(a, b, String::new()) {
        panic!("{what}: at `{path}`: {x} against {y}");
    }
}

/// The JSON pointer of the first place where `a` and `b` differ, with the two values there.
fn first_difference(a: &Value, b: &Value, path: String) -> Option<(String, Value, Value)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                let at = format!("{path}/{key}");
                match y.get(key) {
                    Some(other) => {
                        if let Some(d) = first_difference(value, other, at) {
                            return Some(d);
                        }
                    }
                    None => return Some((at, value.clone(), Value::Null)),
                }
            }
            y.iter()
                .find(|(key, _)| !x.contains_key(*key))
                .map(|(key, value)| (format!("{path}/{key}"), Value::Null, value.clone()))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, format!("{path}/{i}"))),
        _ => (a != b).then(|| {
            (
                if path.is_empty() { "/".into() } else { path },
                a.clone(),
                b.clone(),
            )
        }),
    }
}

/// A bot that cheats at rock-paper-scissors: it plays the hand that beats the other
/// seat's pick when it can read one in the state it is handed, and rock otherwise. What a
/// host must never let see the true state: the hosts' tests register it (as `policy`, so
/// that `hint` asks it too) and check that its choice does not follow the other's hidden
/// pick, since every host hands a bot a world of its seat's information set.
///
/// ```
/// use game_core::rps::{Hand, Rps, RpsAction, RpsOptions};
/// use game_core::{Bot, Fair, Game, GameExt, testing::CounterBot};
/// let mut state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
/// Rps.apply(&mut state, 1, &RpsAction::Pick { hand: Hand::Scissors }, 10).unwrap();
/// // Handed the true state, it cheats.
/// assert_eq!(CounterBot.choose(&Rps, &state, 0), Some(RpsAction::Pick { hand: Hand::Rock }));
/// let paper = { let mut s = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
///     Rps.apply(&mut s, 1, &RpsAction::Pick { hand: Hand::Paper }, 10).unwrap(); s };
/// assert_eq!(CounterBot.choose(&Rps, &paper, 0), Some(RpsAction::Pick { hand: Hand::Scissors }));
/// // Behind `Fair` its choice no longer depends on the hidden pick.
/// assert_eq!(Fair::new(CounterBot, 3).choose(&Rps, &state, 0), Fair::new(CounterBot, 3).choose(&Rps, &paper, 0));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct CounterBot;

impl Bot<crate::rps::Rps> for CounterBot {
    fn choose(
        &mut self,
        game: &crate::rps::Rps,
        state: &crate::rps::RpsState,
        seat: usize,
    ) -> Option<crate::rps::RpsAction> {
        use crate::rps::{Hand, RpsAction};
        if !game
            .legal_actions(state, seat)
            .iter()
            .any(|a| matches!(a, RpsAction::Pick { .. }))
        {
            return None;
        }
        let hand = match state.picks().get(1 - seat.min(1)).copied().flatten() {
            Some(Hand::Rock) => Hand::Paper,
            Some(Hand::Paper) => Hand::Scissors,
            Some(Hand::Scissors) | None => Hand::Rock,
        };
        Some(RpsAction::Pick { hand })
    }
}
