//! Test support, only built with the `testing` feature (off by default): seated player
//! ids, checks of error bodies and views, a walker over JSON documents for tamper tests,
//! and the hostile-action sweep that every game's tests run ([`hammer`] over
//! [`states_by_phase`]).
//!
//! Nothing here exists in a normal build. The crates of this workspace enable it in their
//! dev-dependencies (`game-core = { workspace = true, features = ["testing"] }`).

use crate::GameExt;
use crate::GameState;
use crate::game::{apply_into, apply_quiet};
use serde_json::Value;

mod leaks;

pub use leaks::{CounterBot, assert_bot_is_fair, assert_no_leaks, assert_payoffs};

use crate::rps::{Hand, RpsAction};
use crate::{Bot, ErrorBody, Game, GameError, PlayerId, RandomBot};

/// Player ids `"p0"`, `"p1"`, … for `n` seats.
///
/// ```
/// assert_eq!(game_core::testing::players(2), vec!["p0".to_string(), "p1".to_string()]);
/// ```
pub fn players(n: usize) -> Vec<PlayerId> {
    (0..n).map(|i| format!("p{i}")).collect()
}

/// Panics unless `body` is a typed error: a stable `SCREAMING_SNAKE_CASE` code and a
/// message to show.
#[track_caller]
pub fn assert_typed(body: &ErrorBody) {
    assert!(
        !body.code.is_empty()
            && body
                .code
                .bytes()
                .all(|c| c.is_ascii_uppercase() || c == b'_'),
        "untyped error code {body:?}"
    );
    assert!(!body.message.is_empty(), "error without a message {body:?}");
    serde_json::to_string(body).expect("error bodies serialize");
}

/// Panics unless `err` is typed ([`assert_typed`]) with one of `codes`.
#[track_caller]
pub fn assert_code(err: &impl GameError, codes: &[&str]) {
    let body = err.body();
    assert_typed(&body);
    assert!(
        codes.contains(&body.code.as_str()),
        "code {} not among {codes:?}: {body:?}",
        body.code
    );
}

/// Panics if any object key anywhere in `v` names the RNG or the seed.
#[track_caller]
pub fn assert_no_rng_keys(v: &Value) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let k = k.to_ascii_lowercase();
                assert!(
                    !k.contains("rng") && k != "seed" && k != "word_pos" && k != "stream",
                    "a view or event holds the key {k:?}"
                );
                assert_no_rng_keys(child);
            }
        }
        Value::Array(items) => items.iter().for_each(assert_no_rng_keys),
        _ => {}
    }
}

/// One step of a path into a JSON document: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonStep {
    /// An object's field.
    Key(String),
    /// An array's element.
    Index(usize),
}

/// The path of every node of a JSON document (the root first, then depth first), for tests
/// that tamper with stored states field by field.
///
/// ```
/// let doc = serde_json::json!({ "a": [1, 2] });
/// assert_eq!(game_core::testing::json_paths(&doc).len(), 4);
/// ```
pub fn json_paths(doc: &Value) -> Vec<Vec<JsonStep>> {
    fn walk(v: &Value, prefix: &mut Vec<JsonStep>, out: &mut Vec<Vec<JsonStep>>) {
        out.push(prefix.clone());
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    prefix.push(JsonStep::Key(k.clone()));
                    walk(child, prefix, out);
                    prefix.pop();
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    prefix.push(JsonStep::Index(i));
                    walk(child, prefix, out);
                    prefix.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(doc, &mut Vec::new(), &mut out);
    out
}

/// The node of `doc` at `path` (see [`json_paths`]), mutably.
///
/// ```
/// use game_core::testing::{JsonStep, json_at};
/// let mut doc = serde_json::json!({ "a": [1, 2] });
/// *json_at(&mut doc, &[JsonStep::Key("a".into()), JsonStep::Index(1)]) = 5.into();
/// assert_eq!(doc["a"][1], 5);
/// ```
pub fn json_at<'a>(doc: &'a mut Value, path: &[JsonStep]) -> &'a mut Value {
    path.iter().fold(doc, |v, step| match step {
        JsonStep::Key(k) => &mut v[k.as_str()],
        JsonStep::Index(i) => &mut v[*i],
    })
}

/// Whether `path` passes through the field `key`.
///
/// ```
/// let path = [game_core::testing::JsonStep::Key("rng".into())];
/// assert!(game_core::testing::json_under(&path, "rng"));
/// ```
pub fn json_under(path: &[JsonStep], key: &str) -> bool {
    path.iter()
        .any(|s| matches!(s, JsonStep::Key(k) if k == key))
}

/// Every action of rock-paper-scissors (its action space is finite).
pub const RPS_ACTIONS: [RpsAction; 5] = [
    RpsAction::Pick { hand: Hand::Rock },
    RpsAction::Pick { hand: Hand::Paper },
    RpsAction::Pick {
        hand: Hand::Scissors,
    },
    RpsAction::Random,
    RpsAction::Concede,
];

/// Ids that are not seated: a spectator, the empty id, near misses of `p0`, an oversized
/// id.
pub fn strangers() -> Vec<String> {
    vec![
        "watcher".into(),
        String::new(),
        "P0".into(),
        "p0 ".into(),
        "p0\u{0}".into(),
        "x".repeat(4_096),
    ]
}

/// What [`hammer`] found: how many inputs were accepted and how many refused.
#[derive(Debug, Default)]
pub struct Tally {
    /// Inputs accepted (the state then passed the check).
    pub accepted: usize,
    /// Inputs refused (with a typed error, the state unchanged).
    pub refused: usize,
}

/// Tries every input on copies of `state`: each action from every seated player (also
/// with stale and future `turnSeq`s), from [`strangers`], by seat numbers past the table,
/// with every chance outcome forced; presence changes of strangers; and a tick at the end
/// of time. Panics if a refusal is untyped or changed the state, if an accepted input
/// leaves a state that fails the check, or if a seat `may_act` forbids acted.
pub fn hammer<G: Game>(
    game: &G,
    state: &G::State,
    actions: &[G::Action],
    chances: &[G::Chance],
    may_act: impl Fn(&G::State, usize, &G::Action) -> bool,
    tally: &mut Tally,
) {
    let players = state.table().players.clone();
    let seq = game.turn_seq(state);
    let mut check = |r: Result<Vec<G::Event>, G::Error>, copy: &G::State, what: &str| match r {
        Ok(_) => {
            tally.accepted += 1;
            game.check_state(copy)
                .unwrap_or_else(|e| panic!("{what}: accepted into an invalid state: {e:?}"));
        }
        Err(e) => {
            tally.refused += 1;
            assert_typed(&e.body());
            assert!(
                copy == state,
                "{what}: refused ({}) but changed the state",
                e.code()
            );
        }
    };
    for action in actions {
        let mut events = Vec::new();
        for (seat, p) in players.iter().enumerate() {
            let mut copy = state.clone();
            let r = game.apply(&mut copy, seat, action, 5_000);
            if r.is_ok() {
                assert!(
                    may_act(state, seat, action),
                    "seat {seat} acted out of turn: {action:?}"
                );
            }
            check(r, &copy, &format!("{p} {action:?}"));
            for stale in [seq.wrapping_sub(1), seq.wrapping_add(1), u64::MAX] {
                let mut copy = state.clone();
                let played = game.play(&mut copy, seat, action, Some(stale), 5_000, &mut events);
                assert!(played.applied.is_empty(), "a stale request took timeouts");
                let err = played.result.unwrap_err();
                assert_eq!(err.code(), "STALE_TURN_SEQ");
                check(Err(err), &copy, "stale");
            }
        }
        for p in strangers() {
            let err = game.seat(state, &p).unwrap_err();
            assert_eq!(err.code(), "NOT_SEATED", "{p:?} {action:?}");
        }
        for seat in [players.len(), players.len() + 1, 255, usize::MAX] {
            let mut copy = state.clone();
            let err = game.apply(&mut copy, seat, action, 5_000).unwrap_err();
            // Yut Nori answers the end of the game first.
            assert!(
                ["NOT_SEATED", "GAME_OVER"].contains(&err.code()),
                "seat {seat} {action:?}: {err:?}"
            );
            check(Err(err), &copy, "seat past the table");
            let mut copy = state.clone();
            let played = game.play(&mut copy, seat, action, Some(seq), 5_000, &mut events);
            assert!(
                played.applied.is_empty(),
                "a stranger's request took timeouts"
            );
            let err = played.result.unwrap_err();
            assert_eq!(err.code(), "NOT_SEATED");
            check(Err(err), &copy, "seat past the table at seq");
        }
        for chance in chances {
            for seat in 0..=players.len() {
                let mut copy = state.clone();
                let r = game.apply_chance(&mut copy, seat, action, chance, 5_000);
                if r.is_ok() {
                    assert!(may_act(state, seat, action), "chance out of turn");
                }
                check(r, &copy, &format!("chance {chance:?} {action:?}"));
            }
        }
    }
    for p in strangers() {
        let mut copy = state.clone();
        let err = game.set_connected(&mut copy, &p, false, 0).unwrap_err();
        assert_eq!(err.code(), "NOT_SEATED");
        check(Err(err), &copy, "presence of a stranger");
    }
    // The clock at the end of time takes due timeouts without overflowing anywhere.
    let mut copy = state.clone();
    for applied in game.tick(&mut copy, u64::MAX) {
        assert!(applied.auto);
    }
    game.check_state(&copy).unwrap();
}

/// [`hammer`] over every state of `states`, one tally for them all.
pub fn hammer_all<G: Game>(
    game: &G,
    states: &[G::State],
    actions: &[G::Action],
    chances: &[G::Chance],
    may_act: impl Fn(&G::State, usize, &G::Action) -> bool,
) -> Tally {
    let mut tally = Tally::default();
    for state in states {
        hammer(game, state, actions, chances, &may_act, &mut tally);
    }
    tally
}

/// States of a game in every phase it has (`phase` names a state's phase), from seeded
/// random play of [`players`]`(n)`: two games, so that the end is reached by points, plus
/// a game ended by concessions where the game has a `CONCEDE` action ([`conceded`]).
pub fn states_by_phase<G: Game>(
    game: &G,
    options: &G::Options,
    n: usize,
    phase: impl Fn(&G::State) -> String,
) -> Vec<G::State> {
    let ids = players(n);
    let mut out: Vec<G::State> = Vec::new();
    let mut seen = Vec::new();
    for seed in [1u64, 2] {
        let mut state = game.setup(options, &ids, seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..5_000u64 {
            let key = phase(&state);
            if !seen.contains(&key) {
                seen.push(key);
                out.push(state.clone());
            }
            let Some(&seat) = game.to_act(&state).first() else {
                break;
            };
            let action = bot.choose(game, &state, seat).unwrap();
            game.apply(&mut state, seat, &action, step).unwrap();
        }
        if seed == 2 {
            // A game ended by a concession.
            let mut state = game.setup(options, &ids, seed, 0).unwrap();
            let concede = conceded(game, &mut state);
            if concede {
                out.push(state);
            }
        }
    }
    out
}

/// Concedes for every seat but the last until the game is over, where the game lists a
/// legal action whose JSON `type` is `CONCEDE` (a game without one is left as it is);
/// whether the game is over.
pub fn conceded<G: Game>(game: &G, state: &mut G::State) -> bool {
    let n = state.table().players.len();
    for seat in 0..n.saturating_sub(1) {
        let concede = game
            .legal_actions(state, seat)
            .into_iter()
            .find(|a| serde_json::to_value(a).is_ok_and(|v| v["type"] == "CONCEDE"));
        if let Some(a) = concede {
            game.apply(state, seat, &a, 0).unwrap();
        }
    }
    game.is_over(state)
}

/// The stored state JSON of a seeded random game, at every `every`-th decision and at its
/// end: what a frozen-state test compares against the lines recorded by an earlier build
/// ([`check_frozen`]). The game is played by a [`RandomBot`] seeded with `seed`; every
/// 11th decision the player to act disconnects and the clock runs to
/// [`GameExt::next_tick_at`], so timeouts, presence and away flags are in the states too.
pub fn stored_states<G: Game>(
    game: &G,
    options: &G::Options,
    n: usize,
    seed: u64,
    every: usize,
) -> Vec<String> {
    let ids = players(n);
    let mut state = game.setup(options, &ids, seed, 0).unwrap();
    let mut bot = RandomBot::new(seed ^ 0xf00d);
    let mut out = Vec::new();
    let mut now = 0;
    for step in 0..5_000usize {
        if step % every == 0 {
            out.push(serde_json::to_string(&state).unwrap());
        }
        let Some(&seat) = game.to_act(&state).first() else {
            break;
        };
        now += 1_000;
        if step % 11 == 10 {
            let player = ids[seat].clone();
            game.set_connected(&mut state, &player, false, now).unwrap();
            if let Some(at) = game.next_tick_at(&state) {
                now = now.max(at);
                game.tick(&mut state, now);
            }
            game.set_connected(&mut state, &player, true, now).unwrap();
            continue;
        }
        let action = bot.choose(game, &state, seat).unwrap();
        game.apply(&mut state, seat, &action, now).unwrap();
    }
    out.push(serde_json::to_string(&state).unwrap());
    out
}

/// Compares `lines` with the file at `path`, line for line, naming the first that differs;
/// restores each recorded line with `game` and checks that it serializes back to the same
/// text. With the environment variable `RECORD_FROZEN=1` and no file at `path`, records
/// the lines instead: recordings are made once, by the build whose format they freeze,
/// and never re-recorded (a difference is a format change: a version bump and a
/// migration, not a new recording).
pub fn check_frozen<G: Game>(game: &G, path: &std::path::Path, lines: &[String]) {
    if std::env::var_os("RECORD_FROZEN").is_some() && !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
        return;
    }
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (record it with RECORD_FROZEN=1)", path.display()));
    let recorded: Vec<&str> = text.lines().collect();
    assert_eq!(
        recorded.len(),
        lines.len(),
        "{}: line count",
        path.display()
    );
    for (i, (old, new)) in recorded.iter().zip(lines).enumerate() {
        assert!(
            old == new,
            "{} line {}: the state differs",
            path.display(),
            i + 1
        );
        let restored = game
            .restore(old)
            .unwrap_or_else(|e| panic!("{} line {}: refused: {e}", path.display(), i + 1));
        let again = serde_json::to_string(&restored).unwrap();
        assert!(
            &again == old,
            "{} line {}: restored differently",
            path.display(),
            i + 1
        );
    }
}

/// Calls `check(state, seed, decision)` on the state before every decision of two seeded
/// random games of `n` players, and once the game is over.
fn each_seeded_state<G: Game>(
    game: &G,
    options: &G::Options,
    n: usize,
    mut check: impl FnMut(&G::State, u64, u64),
) {
    let ids = players(n);
    for seed in [3u64, 4] {
        let mut state = game.setup(options, &ids, seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..5_000u64 {
            check(&state, seed, step);
            let Some(&seat) = game.to_act(&state).first() else {
                break;
            };
            let action = bot.choose(game, &state, seat).unwrap();
            game.apply(&mut state, seat, &action, step).unwrap();
        }
    }
}

/// Checks, over the states of seeded random games of `n` players (every decision of two
/// games), that [`Game::times_out`] answers for every seat exactly as
/// `timeout_action(..).is_some()` does; panics naming the first state where it does not.
pub fn assert_times_out_agrees<G: Game>(game: &G, options: &G::Options, n: usize) {
    each_seeded_state(game, options, n, |state, seed, step| {
        for seat in 0..n {
            assert_eq!(
                game.times_out(state, seat),
                game.timeout_action(state, seat).is_some(),
                "seed {seed}, decision {step}, seat {seat}"
            );
        }
    });
}

/// Checks, over the states of seeded random games of `n` players (every decision of two
/// games, and the end), that [`Game::first_to_act`] is the first of [`Game::to_act`];
/// panics naming the first state where it is not.
pub fn assert_first_to_act_agrees<G: Game>(game: &G, options: &G::Options, n: usize) {
    each_seeded_state(game, options, n, |state, seed, step| {
        assert_eq!(
            game.first_to_act(state),
            game.to_act(state).first().copied(),
            "seed {seed}, decision {step}"
        );
    });
}

/// Checks, over the states of seeded random games of `n` players (every decision of two
/// games, and the end), that [`Game::legal_action_count`] and [`Game::legal_action`]
/// answer for every seat exactly as [`Game::legal_actions`] lists (the count, each index,
/// nothing past the end), that [`Game::random_legal_action`] draws and answers exactly as
/// an index drawn among the count does (from several generators), and that a
/// play-out drawing indices ([`Choice::Legal`]) and one drawing random legal actions
/// ([`Playout::run_random`]) play the same game as one picking from the list; panics
/// naming the first state where not.
///
/// [`Choice::Legal`]: crate::playout::Choice::Legal
/// [`Playout::run_random`]: crate::playout::Playout::run_random
///
/// ```
/// use game_core::rps::{Rps, RpsOptions};
/// game_core::testing::assert_legal_index_agrees(&Rps, &RpsOptions::default(), 2);
/// ```
pub fn assert_legal_index_agrees<G: Game>(game: &G, options: &G::Options, n: usize) {
    each_seeded_state(game, options, n, |state, seed, step| {
        for seat in 0..n {
            let at = format!("seed {seed}, decision {step}, seat {seat}");
            let listed = game.legal_actions(state, seat);
            assert_eq!(game.legal_action_count(state, seat), listed.len(), "{at}");
            for (i, action) in listed.iter().enumerate() {
                assert_eq!(
                    game.legal_action(state, seat, i).as_ref(),
                    Some(action),
                    "{at}, index {i}"
                );
            }
            assert_eq!(
                game.legal_action(state, seat, listed.len()),
                None,
                "{at}, past the end"
            );
            for draw in 0..8u64 {
                let mut picker = crate::GameRng::from_seed(seed ^ (draw << 32) ^ step);
                let mut drawer = picker.clone();
                let picked = game.random_legal_action(state, seat, &mut picker);
                let drawn = match listed.len() {
                    0 => None,
                    n => listed.get(drawer.below(n as u32) as usize).cloned(),
                };
                assert_eq!(picked, drawn, "{at}, draw {draw}");
                assert!(picker == drawer, "{at}, draw {draw}: other words drawn");
            }
        }
    });
    // The same seeded draws through both choosers: the same games, to the byte.
    let ids = players(n);
    for seed in [3u64, 4] {
        let mut by_index = game.setup(options, &ids, seed, 0).unwrap();
        let mut by_list = by_index.clone();
        let (mut a, mut b) = (
            crate::GameRng::from_seed(seed),
            crate::GameRng::from_seed(seed),
        );
        let indexed = crate::playout::Playout::new(0)
            .run(
                game,
                &mut by_index,
                |s: &G::State, seat| {
                    let n = game.legal_action_count(s, seat);
                    crate::playout::Choice::<_, ()>::Legal(a.below(n as u32) as usize)
                },
                |_: &mut _, _| std::ops::ControlFlow::Continue(()),
            )
            .unwrap_or_else(|r| panic!("seed {seed}: refused {:?}", r.error));
        let listed = crate::playout::Playout::new(0)
            .run(
                game,
                &mut by_list,
                |s: &G::State, seat| {
                    let mut all = game.legal_actions(s, seat);
                    if all.is_empty() {
                        return crate::playout::Choice::Nothing;
                    }
                    let i = b.below(all.len() as u32) as usize;
                    crate::playout::Choice::<_, ()>::Act(all.swap_remove(i))
                },
                |_: &mut _, _| std::ops::ControlFlow::Continue(()),
            )
            .unwrap_or_else(|r| panic!("seed {seed}: refused {:?}", r.error));
        assert_eq!(
            indexed, listed,
            "seed {seed}: the play-outs ended differently"
        );
        assert!(by_index == by_list, "seed {seed}: the games differ");
        let mut by_random = game.setup(options, &ids, seed, 0).unwrap();
        let random = crate::playout::Playout::new(0)
            .run_random(
                game,
                &mut by_random,
                &mut crate::GameRng::from_seed(seed),
                |_: &mut _, _| std::ops::ControlFlow::<()>::Continue(()),
            )
            .unwrap_or_else(|r| panic!("seed {seed}: refused {:?}", r.error));
        assert_eq!(
            random, listed,
            "seed {seed}: the random play-out ended differently"
        );
        assert!(
            by_random == by_list,
            "seed {seed}: the random play-out's game differs"
        );
    }
}

/// Checks, over seeded random games of `n` players (seeds `seeds`, every decision), that
/// a quiet play-out's step ([`Playout::quiet`](crate::playout::Playout::quiet), the game's
/// [`Game::step_quiet`] after [`GameExt::apply`]'s checks) leaves the state exactly as
/// [`GameExt::apply`] does
/// (equal, and equal as stored JSON), and refuses what it refuses with the same error
/// (the action played for a seat not to act, where there is one); panics naming the
/// first decision where they differ.
///
/// ```
/// use game_core::rps::{Rps, RpsOptions};
/// game_core::testing::assert_quiet_agrees(&Rps, &RpsOptions::default(), 2, 0..3);
/// ```
pub fn assert_quiet_agrees<G: Game>(
    game: &G,
    options: &G::Options,
    n: usize,
    seeds: std::ops::Range<u64>,
) {
    let ids = players(n);
    let (mut events, mut scratch) = (Vec::new(), Vec::new());
    for seed in seeds {
        let mut quiet = game.setup(options, &ids, seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..5_000u64 {
            let Some(seat) = game.first_to_act(&quiet) else {
                break;
            };
            let action = bot.choose(game, &quiet, seat).unwrap();
            let at = format!("seed {seed}, decision {step}");
            if n > 1 {
                // Another seat's try, on copies: refused alike (or, in a game of
                // simultaneous moves, accepted alike).
                let other = (seat + 1) % n;
                let (mut loud, mut still) = (quiet.clone(), quiet.clone());
                let refused = apply_into(game, &mut loud, other, &action, step, &mut events);
                let quietly = apply_quiet(game, &mut still, other, &action, step, &mut scratch);
                match (&refused, &quietly) {
                    (Err(a), Err(b)) => {
                        assert_eq!(a.code(), b.code(), "{at}: refused differently");
                        assert!(
                            still == quiet,
                            "{at}: a refused quiet action changed the state"
                        );
                    }
                    _ => assert_eq!(
                        refused.is_ok(),
                        quietly.is_ok(),
                        "{at}: accepted differently"
                    ),
                }
                assert!(loud == still, "{at}: seat {other}'s action");
            }
            let mut loud = quiet.clone();
            apply_into(game, &mut loud, seat, &action, step, &mut events).unwrap();
            apply_quiet(game, &mut quiet, seat, &action, step, &mut scratch).unwrap();
            assert!(loud == quiet, "{at}: the states differ");
            assert_eq!(
                serde_json::to_string(&loud).unwrap(),
                serde_json::to_string(&quiet).unwrap(),
                "{at}: the stored states differ"
            );
        }
        assert!(game.is_over(&quiet), "seed {seed}: no end");
    }
}

/// The frozen-state test of one configuration: the stored states of seeded games 5 and 77
/// ([`stored_states`], every `every`-th decision) checked against, or with
/// `RECORD_FROZEN=1` recorded into, `DIR/tests/data/frozen_states/NAME.jsonl`, where `DIR`
/// is the calling crate's manifest directory ([`check_frozen`]).
pub fn check_frozen_games<G: Game>(
    game: &G,
    options: &G::Options,
    players: usize,
    every: usize,
    manifest_dir: &str,
    name: &str,
) {
    let lines: Vec<String> = [5u64, 77]
        .into_iter()
        .flat_map(|seed| stored_states(game, options, players, seed, every))
        .collect();
    let path = std::path::Path::new(manifest_dir)
        .join("tests/data/frozen_states")
        .join(format!("{name}.jsonl"));
    check_frozen(game, &path, &lines);
}

/// Checks [`Game::reset`] against [`Game::setup`] for each case `(options, n)` of `cases`
/// (options and a player count they accept). Seeded random games of each case are played
/// by a [`RandomBot`] (the player to act now and then disconnected and timed out, so that
/// presence and deadlines vary too), and one ended by concessions where the game allows it
/// ([`conceded`]). From the start, the middle and the end of each, the state is reset into
/// every case (with two seeds, times and id lists) and must be what `setup` makes of the
/// same arguments: equal, and equal as stored JSON. Each reset game is then played on to
/// its end beside the set-up one, and the two must stay equal. A refused reset (a player
/// count the options refuse, an id seated twice, an empty or oversized id) must return
/// `setup`'s error and leave the state unchanged. Panics naming the first difference.
///
/// ```
/// use game_core::rps::{Rps, RpsOptions};
/// let quick = RpsOptions { wins_needed: 1, turn_seconds: None };
/// game_core::testing::assert_reset_agrees(&Rps, &[(RpsOptions::default(), 2), (quick, 2)]);
/// ```
pub fn assert_reset_agrees<G: Game>(game: &G, cases: &[(G::Options, usize)]) {
    let starts = sample_states(game, cases);
    for (from, start) in &starts {
        for (c, (options, n)) in cases.iter().enumerate() {
            for k in 0..2u64 {
                // Other ids than the last game's, longer and shorter: the buffers kept must
                // not show through.
                let ids: Vec<PlayerId> = if k == 0 {
                    players(*n)
                } else {
                    (0..*n)
                        .map(|i| format!("guest-{i}-{}", "x".repeat(i)))
                        .collect()
                };
                let (seed, now) = (100 + 10 * c as u64 + k, 7 + 5_000 * k);
                let at = format!("{from}, reset into case {c} ({k})");
                let mut state = start.clone();
                if let Err(e) = game.reset(&mut state, options, &ids, seed, now) {
                    panic!("{at}: refused: {}", e.code());
                }
                let fresh = game.setup(options, &ids, seed, now).unwrap();
                assert_same_state(&state, &fresh, &at);
                play_on_alike(game, state, fresh, seed, now, &at);
            }
            assert_refused_resets_agree(game, start, options, *n, &format!("{from}, case {c}"));
        }
    }
}

/// Checks `Clone::clone_from` of the game's state, which a search copies its positions
/// with (into used ones, to keep their buffers), for the cases `(options, n)` of `cases`:
/// states from the start, the middle and the end of seeded random games of each case (with
/// disconnections and timeouts, as for [`assert_reset_agrees`]) and one ended by
/// concessions where the game allows it, each copied into every other. The copy must
/// equal its source, as a value and as stored JSON, and play on to the end the same.
/// Panics naming the first difference.
///
/// ```
/// use game_core::rps::{Rps, RpsOptions};
/// let quick = RpsOptions { wins_needed: 1, turn_seconds: None };
/// game_core::testing::assert_clone_from_agrees(&Rps, &[(RpsOptions::default(), 2), (quick, 2)]);
/// ```
pub fn assert_clone_from_agrees<G: Game>(game: &G, cases: &[(G::Options, usize)]) {
    let states = sample_states(game, cases);
    for (from, source) in &states {
        for (into, used) in &states {
            let at = format!("{from} copied into {into}");
            let mut copy = used.clone();
            copy.clone_from(source);
            assert_same_state(&copy, source, &at);
            play_on_alike(game, copy, source.clone(), 9, 1_000_000, &at);
        }
    }
}

/// States of every case, named: the start, the middle and the end of two seeded random
/// games ([`played_with_timeouts`]), and one ended by concessions where the game allows it.
fn sample_states<G: Game>(game: &G, cases: &[(G::Options, usize)]) -> Vec<(String, G::State)> {
    let mut starts: Vec<(String, G::State)> = Vec::new();
    for (c, (options, n)) in cases.iter().enumerate() {
        for seed in [1u64, 2] {
            let states = played_with_timeouts(game, options, *n, seed);
            let last = states.len() - 1;
            for (at, i) in [("start", 0), ("middle", last / 2), ("end", last)] {
                let from = format!("case {c} seed {seed} at its {at} (decision {i})");
                starts.push((from, states[i].clone()));
            }
        }
        let mut state = game.setup(options, &players(*n), 3, 0).unwrap();
        if conceded(game, &mut state) {
            starts.push((format!("case {c} ended by concessions"), state));
        }
    }
    starts
}

/// The states of a seeded random game of `n` players, from its setup to its end, one a
/// decision: every 11th decision the player to act disconnects and the clock runs to
/// [`GameExt::next_tick_at`], and only every other time do they come back.
fn played_with_timeouts<G: Game>(
    game: &G,
    options: &G::Options,
    n: usize,
    seed: u64,
) -> Vec<G::State> {
    let ids = players(n);
    let mut state = game.setup(options, &ids, seed, 0).unwrap();
    let mut bot = RandomBot::new(seed);
    let mut out = vec![state.clone()];
    let mut now = 0;
    for step in 0..5_000u64 {
        let Some(seat) = game.first_to_act(&state) else {
            break;
        };
        now += 1_000;
        if step % 11 == 10 {
            game.set_connected(&mut state, &ids[seat], false, now)
                .unwrap();
            if let Some(at) = game.next_tick_at(&state) {
                now = now.max(at);
                game.tick(&mut state, now);
            }
            if step % 22 == 10 {
                game.set_connected(&mut state, &ids[seat], true, now)
                    .unwrap();
            }
        } else {
            let action = bot.choose(game, &state, seat).unwrap();
            game.apply(&mut state, seat, &action, now).unwrap();
        }
        out.push(state.clone());
    }
    out
}

/// Panics unless `a` and `b` are equal, and equal as stored JSON.
#[track_caller]
fn assert_same_state<S: PartialEq + serde::Serialize>(a: &S, b: &S, at: &str) {
    assert!(a == b, "{at}: the states differ");
    assert_eq!(
        serde_json::to_string(a).unwrap(),
        serde_json::to_string(b).unwrap(),
        "{at}: the stored states differ"
    );
}

/// Plays `a` and `b` on to their end with the same seeded [`RandomBot`] draws, and panics
/// unless they take the same actions, with the same events, into equal states.
fn play_on_alike<G: Game>(
    game: &G,
    mut a: G::State,
    mut b: G::State,
    seed: u64,
    now: crate::Millis,
    at: &str,
) {
    let (mut bot_a, mut bot_b) = (RandomBot::new(seed), RandomBot::new(seed));
    for step in 0..5_000u64 {
        let seat = game.first_to_act(&a);
        assert_eq!(
            seat,
            game.first_to_act(&b),
            "{at}: decision {step}: who acts"
        );
        let Some(seat) = seat else {
            break;
        };
        let action = bot_a.choose(game, &a, seat).unwrap();
        let other = bot_b.choose(game, &b, seat).unwrap();
        assert_eq!(action, other, "{at}: decision {step}: the actions differ");
        let t = now + 1_000 * step;
        let events = game.apply(&mut a, seat, &action, t).unwrap();
        let others = game.apply(&mut b, seat, &other, t).unwrap();
        assert_eq!(events, others, "{at}: decision {step}: the events differ");
        assert!(a == b, "{at}: decision {step}: the states differ");
    }
    assert!(game.is_over(&a), "{at}: the game does not end");
    assert_same_state(&a, &b, &format!("{at}, at the end"));
}

/// Resets that `setup` refuses from the same arguments (player counts that `options` may
/// refuse, an id seated twice, an empty id, an oversized one), tried on a copy of `start`:
/// each must be refused with `setup`'s error and change nothing. (A count the options
/// accept must be accepted alike.)
fn assert_refused_resets_agree<G: Game>(
    game: &G,
    start: &G::State,
    options: &G::Options,
    n: usize,
    at: &str,
) {
    let mut tries: Vec<Vec<PlayerId>> = [0, 1, 3, 5, 7, 9, 64].map(players).into();
    let mut twice = players(n);
    if let [first, .., last] = twice.as_mut_slice() {
        last.clone_from(first);
        tries.push(twice);
    }
    for bad in [String::new(), "x".repeat(129)] {
        let mut ids = players(n);
        if let Some(id) = ids.last_mut() {
            *id = bad;
        }
        tries.push(ids);
    }
    for ids in tries {
        let at = format!("{at}, reset to {} ids {:?}", ids.len(), ids.first());
        let mut state = start.clone();
        match (
            game.setup(options, &ids, 9, 9),
            game.reset(&mut state, options, &ids, 9, 9),
        ) {
            (Err(refused), Err(e)) => {
                assert_eq!(e.body(), refused.body(), "{at}: refused differently");
                assert_same_state(&state, start, &format!("{at}: refused but changed"));
            }
            (Ok(fresh), Ok(())) => assert_same_state(&state, &fresh, &at),
            (setup, reset) => panic!(
                "{at}: setup {} but reset {}",
                if setup.is_ok() { "accepts" } else { "refuses" },
                if reset.is_ok() { "accepts" } else { "refuses" },
            ),
        }
    }
}

/// Checks every promise the framework makes of a game, for each case `(options, n)` of
/// `cases` (options and a player count they accept), assuming no action's name: a game's
/// own tests call it once. Panics naming the first broken promise. It checks that:
///
/// - a refused action changes nothing and is refused with a typed error, from every seat,
///   from strangers, with stale `turnSeq`s and with every chance outcome forced, in
///   states drawn by random play ([`hammer`]; the actions tried are every action the game
///   listed as legal in those games), and an accepted one leaves a state the game's check
///   accepts;
/// - [`Game::reset`] agrees with [`Game::setup`] ([`assert_reset_agrees`]);
/// - `clone_from` of a state agrees with `clone` ([`assert_clone_from_agrees`]);
/// - [`Game::may_act`] holds for every seat to act, and a seat that may act besides them
///   has a legal action ([`assert_may_act_covers`]); an accepted action comes from a seat
///   that may act or is legal for its seat;
/// - [`Game::first_to_act`], [`Game::times_out`], [`Game::legal_action`],
///   [`Game::legal_action_count`] and [`Game::random_legal_action`] agree with the lists
///   ([`assert_first_to_act_agrees`], [`assert_times_out_agrees`],
///   [`assert_legal_index_agrees`]);
/// - quiet steps leave the state exactly as loud ones ([`assert_quiet_agrees`]);
/// - [`Game::restore`] of a stored state gives it back (equal, and stored the same), and
///   refuses tampering: broken JSON, an unknown field, and every field of the stored
///   state replaced by a value of another type are refused with `CORRUPT_STATE`, and a
///   field set to an out-of-range number is refused the same way or loads a state that
///   the game's check accepts and that stores back as it was given;
/// - a [`Match`](crate::Match) record (actions, refused actions, disconnections and
///   timeouts) replays byte for byte: the same state as stored JSON, the same record;
/// - timeouts always end a game: with every player gone, ticking at each
///   [`GameExt::next_tick_at`] finishes it from the start and from the middle of a game,
///   each tick acting;
/// - no view (of each player and of a spectator) and no event holds a key naming the RNG
///   or its seed ([`assert_no_rng_keys`]);
/// - every finished game has a [`Game::payoff`] in `0..=1` for every seat, a win (1.0) for
///   at least one, and no game in progress has one ([`assert_payoffs`]);
/// - nothing hidden from a seat reaches it: its view, its legal actions, its projection of
///   every event and a fair bot's choice are the same in every world of its information
///   set ([`assert_no_leaks`], [`assert_bot_is_fair`] with [`RandomBot`] and
///   [`Pimc`](crate::search::Pimc)); chance outcomes that [`Game::sample_chance`] draws
///   are forced in the refusal sweep too.
///
/// ```
/// use game_core::rps::{Rps, RpsOptions};
/// let quick = RpsOptions { wins_needed: 1, turn_seconds: None };
/// game_core::testing::conformance(&Rps, &[(RpsOptions::default(), 2), (quick, 2)]);
/// ```
pub fn conformance<G: Game + Clone>(game: &G, cases: &[(G::Options, usize)]) {
    for (c, (options, n)) in cases.iter().enumerate() {
        let at = format!("case {c}");
        let states = random_states(game, options, *n, &at);
        assert_refusals_change_nothing(game, &states);
        assert_validate_agrees(game, &states);
        assert_may_act_covers(game, &states);
        assert_first_to_act_agrees(game, options, *n);
        assert_times_out_agrees(game, options, *n);
        assert_legal_index_agrees(game, options, *n);
        assert_quiet_agrees(game, options, *n, 0..3);
        assert_restore_round_trips(game, &states, &at);
        assert_replays_alike(game, options, *n, &at);
        assert_timeouts_end_games(game, options, *n, &at);
        assert_payoffs(game, options, *n, &at);
        assert_no_leaks(game, &states);
        assert_bot_is_fair(game, &states, RandomBot::new);
        assert_bot_is_fair(game, &states, |seed| crate::search::Pimc::new(seed, 2, 1));
    }
    assert_reset_agrees(game, cases);
    assert_clone_from_agrees(game, cases);
}

/// States of two seeded random games of `n` players, with disconnections and timeouts
/// ([`played_with_timeouts`]): about twenty from each, its end included. Checks the views
/// of every state and the events of every step for RNG keys on the way.
fn random_states<G: Game>(game: &G, options: &G::Options, n: usize, at: &str) -> Vec<G::State> {
    let mut out = Vec::new();
    for seed in [11u64, 12] {
        let states = played_with_timeouts(game, options, n, seed);
        let every = (states.len() / 20).max(1);
        for (i, state) in states.iter().enumerate() {
            let ids = state.table().players.clone();
            let viewers = ids.iter().map(|id| crate::Viewer::Player(id));
            for viewer in viewers.chain([crate::Viewer::Spectator]) {
                assert_no_rng_keys(&serde_json::to_value(game.view(state, viewer)).unwrap());
            }
            if i % every == 0 || i + 1 == states.len() {
                out.push(state.clone());
            }
        }
        // The events of the same game, step by step.
        let mut state = game.setup(options, &players(n), seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..5_000u64 {
            let Some(seat) = game.first_to_act(&state) else {
                break;
            };
            let action = bot.choose(game, &state, seat).unwrap();
            let events = game.apply(&mut state, seat, &action, step * 1_000);
            let events = events.unwrap_or_else(|e| panic!("{at}: {action:?} refused: {e:?}"));
            assert_no_rng_keys(&serde_json::to_value(&events).unwrap());
        }
    }
    out
}

/// [`hammer_all`] over `states` with every action legal in one of them and every outcome
/// of their chances; an accepted action must be legal for its seat or come from a seat to
/// act (a game may accept what it does not list, such as a seat's equivalent move).
fn assert_refusals_change_nothing<G: Game>(game: &G, states: &[G::State]) {
    let mut actions: Vec<G::Action> = Vec::new();
    let mut chances: Vec<G::Chance> = Vec::new();
    for state in states {
        for seat in 0..state.table().players.len() {
            for action in game.legal_actions(state, seat) {
                for (chance, _) in game.chances(state, seat, &action).unwrap_or_default() {
                    if !chances.contains(&chance) {
                        chances.push(chance);
                    }
                }
                // Outcomes too many to list are drawn instead, and forced the same way.
                let mut rng = crate::GameRng::from_seed(chances.len() as u64);
                if let Some(chance) = game.sample_chance(state, seat, &action, &mut rng) {
                    assert!(
                        game.chance_possible(state, seat, &action, &chance),
                        "sample_chance drew {chance:?} for {action:?}, which chance_possible refuses"
                    );
                    if !chances.contains(&chance) {
                        chances.push(chance);
                    }
                }
                if !actions.contains(&action) {
                    actions.push(action);
                }
            }
        }
    }
    // Enough of each to reach every rule, few enough for a debug build.
    actions.truncate(24);
    chances.truncate(8);
    let may_act = |state: &G::State, seat: usize, action: &G::Action| {
        game.may_act(state, seat) || game.legal_actions(state, seat).contains(action)
    };
    let tally = hammer_all(game, states, &actions, &chances, may_act);
    assert!(tally.refused > 0, "nothing was refused: {tally:?}");
}

/// [`Game::validate`] against [`Game::legal_actions`] in every state of `states`, for
/// every seat and every action legal in any of them: an action validates exactly when the
/// seat's list holds it (what the provided `validate` does, and what an override must
/// keep).
///
/// ```
/// use game_core::{Game, rps::{Rps, RpsOptions}};
/// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
/// game_core::testing::assert_validate_agrees(&Rps, &[state]);
/// ```
pub fn assert_validate_agrees<G: Game>(game: &G, states: &[G::State]) {
    let mut pool: Vec<G::Action> = Vec::new();
    for state in states {
        for seat in 0..state.table().players.len() {
            for action in game.legal_actions(state, seat) {
                if pool.len() < 64 && !pool.contains(&action) {
                    pool.push(action);
                }
            }
        }
    }
    for (i, state) in states.iter().enumerate() {
        for seat in 0..state.table().players.len() {
            let legal = game.legal_actions(state, seat);
            for action in &pool {
                let valid = game.validate(state, seat, action).is_ok();
                assert_eq!(
                    valid,
                    legal.contains(action),
                    "state {i}, seat {seat}, {action:?}: validate and legal_actions disagree"
                );
            }
        }
    }
}

/// [`Game::may_act`] in every state of `states`: `true` for every seat of
/// [`Game::to_act`]; a seat that may act besides them has a legal action (something to
/// offer it); no seat may act once the game is over, nor a seat past the table.
///
/// ```
/// use game_core::{Game, GameExt, rps::{Rps, RpsOptions}};
/// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
/// game_core::testing::assert_may_act_covers(&Rps, &[state]);
/// ```
pub fn assert_may_act_covers<G: Game>(game: &G, states: &[G::State]) {
    for (i, state) in states.iter().enumerate() {
        let seats = state.table().players.len();
        let to_act = game.to_act(state);
        for &seat in &to_act {
            assert!(
                game.may_act(state, seat),
                "state {i}: seat {seat} is to act"
            );
        }
        for seat in (0..seats).filter(|s| !to_act.contains(s)) {
            if game.may_act(state, seat) {
                assert!(
                    !game.is_over(state) && game.legal_action_count(state, seat) > 0,
                    "state {i}: seat {seat} may act with nothing to do"
                );
            }
        }
        assert!(
            !game.may_act(state, seats),
            "state {i}: a seat past the table"
        );
    }
}

/// Every state of `states` stored and restored: equal, and stored the same. Then tampered
/// copies of a few of them, refused or loaded into states the game accepts.
fn assert_restore_round_trips<G: Game>(game: &G, states: &[G::State], at: &str) {
    for (i, state) in states.iter().enumerate() {
        let json = serde_json::to_string(state).unwrap();
        let back = game
            .restore(&json)
            .unwrap_or_else(|e| panic!("{at}, state {i}: its own stored form refused: {e:?}"));
        assert_same_state(&back, state, &format!("{at}, state {i} restored"));
    }
    let refused = |json: &str, what: &str| match game.restore(json) {
        Ok(_) => panic!("{at}: {what}: loaded"),
        Err(e) => assert_code(&e, &["CORRUPT_STATE"]),
    };
    let picks = [0, states.len() / 2, states.len().saturating_sub(1)];
    for state in picks.iter().filter_map(|&i| states.get(i)) {
        let doc = serde_json::to_value(state).unwrap();
        let json = doc.to_string();
        refused(&json[..json.len() / 2], "half a stored state");
        let mut extra = doc.clone();
        if let Value::Object(map) = &mut extra {
            map.insert("tampered".into(), Value::Bool(true));
            refused(&extra.to_string(), "an unknown field");
        }
        for path in json_paths(&doc).into_iter().skip(1) {
            let mut tampered = doc.clone();
            let node = json_at(&mut tampered, &path);
            let other_type = match node {
                Value::String(_) => Value::Array(Vec::new()),
                _ => Value::String("tampered".into()),
            };
            let original = node.clone();
            *node = other_type;
            // `null` may be a field's absent value, and a string may stand for anything
            // (an id, an enum), so those are not wrong types for every field.
            if !original.is_null() {
                refused(&tampered.to_string(), &format!("{path:?} of another type"));
            }
            if original.is_number() {
                for big in [
                    Value::from(u64::MAX),
                    Value::from(-1),
                    Value::from(1u64 << 53),
                ] {
                    let mut tampered = doc.clone();
                    *json_at(&mut tampered, &path) = big;
                    let text = tampered.to_string();
                    if let Ok(loaded) = game.restore(&text) {
                        game.check_state(&loaded).unwrap();
                        let stored = serde_json::to_value(&loaded).unwrap();
                        assert_eq!(stored, tampered, "{at}: {path:?} loaded differently");
                    }
                }
            }
        }
    }
}

/// A seeded random match of `n` players through [`Match`](crate::Match): actions, a
/// refused action now and then, disconnections and the timeouts they bring. Its record,
/// stored and read back, replays into the same state (stored the same) and the same
/// record; so does a match restored from its middle.
fn assert_replays_alike<G: Game + Clone>(game: &G, options: &G::Options, n: usize, at: &str) {
    let ids = players(n);
    let mut m = crate::Match::new(game.clone(), options.clone(), ids.clone(), 21, 0).unwrap();
    let mut bot = RandomBot::new(21);
    let mut now = 0;
    let mut middle = None;
    for step in 0..5_000u64 {
        let Some(seat) = game.first_to_act(m.state()) else {
            break;
        };
        now += 700;
        if step == 40 {
            middle = Some(serde_json::to_string(m.state()).unwrap());
        }
        match step % 13 {
            5 => {
                m.set_connected(&ids[seat], false, now);
                if let Some(t) = m.next_tick_at() {
                    now = now.max(t);
                    m.tick(now);
                }
                m.set_connected(&ids[seat], true, now);
            }
            9 => {
                // Another seat's try: refused or not, the record says what happened.
                let action = bot.choose(game, m.state(), seat).unwrap();
                let _ = m.act(&ids[(seat + 1) % n], &action, now);
            }
            _ => {
                let action = bot.choose(game, m.state(), seat).unwrap();
                m.act(&ids[seat], &action, now).unwrap();
            }
        }
    }
    let check = |m: &mut crate::Match<G>, what: &str| {
        let record = serde_json::to_string(m.record()).unwrap();
        let read: crate::MatchRecord = serde_json::from_str(&record).unwrap();
        let mut again = crate::Match::replay(game.clone(), &read)
            .unwrap_or_else(|e| panic!("{at}: {what}: the record does not replay: {e:?}"));
        assert_eq!(
            serde_json::to_string(again.state()).unwrap(),
            serde_json::to_string(m.state()).unwrap(),
            "{at}: {what}: the replayed state differs"
        );
        assert_eq!(
            serde_json::to_string(again.record()).unwrap(),
            record,
            "{at}: {what}: the replayed record differs"
        );
    };
    check(&mut m, "a whole match");
    if let Some(json) = middle {
        let mut restored = crate::Match::restore(game.clone(), &json).unwrap();
        let mut bot = RandomBot::new(22);
        let mut now = restored.state().table().clock;
        for _ in 0..50 {
            let Some(seat) = game.first_to_act(restored.state()) else {
                break;
            };
            let action = bot.choose(game, restored.state(), seat).unwrap();
            // In time: no timeout comes before the action.
            now += 100;
            restored.act(&ids[seat], &action, now).unwrap();
        }
        check(&mut restored, "a match restored from its middle");
    }
}

/// From the start and the middle of a seeded random game, with every player
/// disconnected: ticking at each [`GameExt::next_tick_at`] ends the game, every tick acting.
fn assert_timeouts_end_games<G: Game>(game: &G, options: &G::Options, n: usize, at: &str) {
    let states = played_with_timeouts(game, options, n, 31);
    for (from, start) in [("start", &states[0]), ("middle", &states[states.len() / 2])] {
        let mut state = start.clone();
        let mut now = state.table().clock;
        for id in players(n) {
            game.set_connected(&mut state, &id, false, now).unwrap();
        }
        let mut ticks = 0u32;
        while let Some(t) = game.next_tick_at(&state) {
            assert!(
                ticks < 100_000,
                "{at}, from the {from}: no end after {ticks} ticks"
            );
            now = now.max(t);
            let applied = game.tick(&mut state, now);
            assert!(
                !applied.is_empty(),
                "{at}, from the {from}: a tick at {t} took nothing"
            );
            ticks += 1;
        }
        assert!(
            game.is_over(&state),
            "{at}, from the {from}: waits with nothing timed"
        );
    }
}
