//! Criterion benchmarks of the Yut Nori engine (standard rules, default options).
//!
//! `cargo bench -p benches` runs them all in about two minutes; add a filter to run some,
//! e.g. `cargo bench -p benches -- legal`. Positions come from `benches::mid_game_state`
//! and friends, so every run measures the same positions.

use game_core::GameExt;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use game_core::{Bot, DynMatch, Game, GameRng, RandomBot, TimeoutBot, Viewer};
use yut::{ThrowDraw, Yut, YutAction, YutOptions};

use benches::{GAME, NOW, YutState};

/// The seed of every position.
const SEED: u64 = 1;

/// How the benchmarks of one step get their fresh copies: by reference
/// (`iter_batched_ref`), in batches of 64 made just before each is timed. By value, the
/// timing would include moving each copy (about 700 bytes) into the step and out again into
/// criterion's list of outputs; in batches of a tenth of a sample (`SmallInput`), tens of
/// thousands of copies, each step would start with its position out of the caches. Neither
/// is part of a step. 64 copies stay in the second-level cache, and one batch's timer
/// costs under a nanosecond an iteration.
const BATCH: BatchSize = BatchSize::NumIterations(64);

/// The policy's move in a move position, as an action.
fn policy_action(state: &YutState) -> YutAction {
    let m = GAME
        .policy_move(state)
        .expect("a move position has a legal move");
    YutAction::Move {
        throw_index: m.throw_index,
        from: m.from,
    }
}

/// The player to act.
fn player_to_act(state: &YutState) -> String {
    state.board().players()[state.board().current_seat()].clone()
}

/// The seed in `0..100` whose game length (in decisions) is closest to the mean over those
/// seeds, so that "one game" is a typical one. Returns the seed and its decisions.
fn typical_seed(players: usize) -> (u64, usize) {
    let lengths: Vec<usize> = (0..100)
        .map(|s| benches::uniform_game(&GAME, &YutOptions::default(), players, s))
        .collect();
    let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
    let (seed, &len) = lengths
        .iter()
        .enumerate()
        .min_by(|a, b| {
            (*a.1 as f64 - mean)
                .abs()
                .total_cmp(&(*b.1 as f64 - mean).abs())
        })
        .expect("a hundred games");
    eprintln!(
        "{players}-player random games, seeds 0..100: mean {mean:.1} decisions, \
         min {}, max {}; benchmarking seed {seed} ({len} decisions)",
        lengths.iter().min().unwrap_or(&0),
        lengths.iter().max().unwrap_or(&0),
    );
    (seed as u64, len)
}

fn throw_and_legal(c: &mut Criterion) {
    let options = YutOptions::default();
    let mut rng = GameRng::from_seed(SEED);
    c.bench_function("throw/draw", |b| {
        b.iter(|| ThrowDraw::draw(black_box(&options), &mut rng))
    });

    let state = benches::mid_game_state(SEED);
    let mut buf = Vec::new();
    GAME.legal_moves_into(&state, &mut buf);
    eprintln!(
        "mid-game position: {} stacks, {} pending, {} legal moves",
        benches::board_stacks(&state),
        state.board().pending().len(),
        buf.len()
    );
    c.bench_function("legal/legal_moves_into (reused Vec)", |b| {
        b.iter(|| {
            GAME.legal_moves_into(black_box(&state), &mut buf);
            buf.len()
        })
    });
    let seat = state.board().current_seat();
    c.bench_function("legal/legal_actions (Game trait, new Vec)", |b| {
        b.iter(|| GAME.legal_actions(black_box(&state), seat))
    });
}

fn moves_and_actions(c: &mut Criterion) {
    let state = benches::mid_game_state(SEED);
    let seat = state.board().current_seat();
    let action = policy_action(&state);

    // Each iteration starts from a fresh copy of the position with an empty events buffer
    // of room enough (made outside the timing), as a play-out loop reuses its own: see
    // `BATCH` for how the copies are handed over.
    let fresh = |s: &YutState| (s.clone(), Vec::with_capacity(32));
    c.bench_function("move/step_into (unchecked, one move)", |b| {
        b.iter_batched_ref(
            || fresh(&state),
            |(s, events)| GAME.step_into(s, seat, &action, None, NOW, events),
            BATCH,
        )
    });
    c.bench_function("action/play move", |b| {
        b.iter_batched_ref(
            || fresh(&state),
            |(s, events)| GAME.play(s, seat, &action, None, NOW, events),
            BATCH,
        )
    });

    let throw_state = benches::mid_game_throw_state(SEED);
    let throw_seat = throw_state.board().current_seat();
    c.bench_function("action/play throw", |b| {
        b.iter_batched_ref(
            || fresh(&throw_state),
            |(s, events)| GAME.play(s, throw_seat, &YutAction::Throw, None, NOW, events),
            BATCH,
        )
    });
    c.bench_function("state/clone (mid-game)", |b| {
        b.iter(|| black_box(&state).clone())
    });
}

fn views(c: &mut Criterion) {
    let state = benches::mid_game_state(SEED);
    let player = player_to_act(&state);

    c.bench_function("view/build (player to act)", |b| {
        b.iter(|| GAME.view(black_box(&state), Viewer::Player(&player)))
    });
    c.bench_function("view/build + to_vec (player to act)", |b| {
        b.iter(|| {
            let view = GAME.view(black_box(&state), Viewer::Player(&player));
            serde_json::to_vec(&view).expect("views serialize")
        })
    });
    c.bench_function("view/build + to_vec (spectator)", |b| {
        b.iter(|| {
            let view = GAME.view(black_box(&state), Viewer::Spectator);
            serde_json::to_vec(&view).expect("views serialize")
        })
    });
}

fn erased(c: &mut Criterion) {
    let throw_match = benches::mid_game_throw_match(SEED);
    let player = player_to_act(throw_match.state());
    let seq = GAME.turn_seq(throw_match.state());

    c.bench_function("erased/act THROW (JSON)", |b| {
        b.iter_batched_ref(
            || throw_match.clone(),
            |m| {
                let dm: &mut dyn DynMatch = m;
                dm.act(
                    &player,
                    serde_json::json!({ "type": "THROW" }),
                    Some(seq),
                    NOW,
                )
            },
            BATCH,
        )
    });
    c.bench_function("erased/act THROW + view (JSON)", |b| {
        b.iter_batched_ref(
            || throw_match.clone(),
            |m| {
                let dm: &mut dyn DynMatch = m;
                let events = dm.act(
                    &player,
                    serde_json::json!({ "type": "THROW" }),
                    Some(seq),
                    NOW,
                );
                (events, dm.view(Some(&player)))
            },
            BATCH,
        )
    });

    let move_match = benches::find_match(2, SEED, benches::is_busy);
    let mover = player_to_act(move_match.state());
    let dm: &dyn DynMatch = &move_match;
    c.bench_function("erased/view (JSON Value, player to act)", |b| {
        b.iter(|| dm.view(Some(black_box(&mover))))
    });
    c.bench_function("erased/view_text (JSON text, player to act)", |b| {
        b.iter(|| dm.view_text(Some(black_box(&mover))))
    });
}

/// A whole uniform-random game of a typical seed, as a simulation plays it
/// ([`benches::uniform_game`]: set-up, then at every decision an index drawn among
/// `legal_action_count` actions and that action played in a quiet play-out), alone and
/// in a series ([`benches::UniformGames`], the state reset from game to game). Throughput
/// is in decisions.
fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("game");
    for players in [2, 4] {
        let (seed, decisions) = typical_seed(players);
        group.throughput(Throughput::Elements(decisions as u64));
        group.bench_function(format!("random {players}-player game"), |b| {
            b.iter(|| {
                benches::uniform_game(&GAME, &YutOptions::default(), players, black_box(seed))
            })
        });
        // The same game in a series, as a simulation plays many: the state of the last
        // game reset into the new one (`Game::reset`) rather than set up afresh.
        let mut series = benches::UniformGames::new(players);
        group.bench_function(format!("random {players}-player game, in a series"), |b| {
            b.iter(|| series.play(&GAME, &YutOptions::default(), black_box(seed)))
        });
    }
    group.finish();
}

/// The seam costs nothing: the same 16 seeded uniform-random 2-player games under the
/// standard rules, the standard rules composed with themselves (every hook called twice,
/// all no-ops), the augment layer with an empty pack (identical play), and the full `app`
/// pack (a different, longer game: compare per decision).
fn seam(c: &mut Criterion) {
    use yut_augments::{AugmentConfig, AugmentOptions, Augments};
    let mut group = c.benchmark_group("seam");
    let standard = Yut::standard();
    let base = yut::YutOptions::default();
    let twice = Yut::new((yut::Standard, yut::Standard));
    let twice_options = yut::rules::WithRules {
        base: base.clone(),
        rules: yut::rules::Both::default(),
    };
    let augmented = Yut::new(Augments);
    let empty = AugmentOptions {
        base: base.clone(),
        rules: AugmentConfig::none(),
    };
    let app = yut_augments::app_options();
    seam_case(&mut group, "standard", &standard, &base);
    seam_case(
        &mut group,
        "standard twice (no-op hooks)",
        &twice,
        &twice_options,
    );
    seam_case(&mut group, "augments, empty pack", &augmented, &empty);
    seam_case(&mut group, "augments, app pack", &augmented, &app);
    group.finish();
}

/// One case of [`seam`]: the seeded games under `game`, throughput in decisions.
fn seam_case<R: yut::Rules>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    game: &Yut<R>,
    options: &R::Options,
) {
    let games = || (0..SEAM_GAMES).map(|s| benches::uniform_game(game, options, 2, black_box(s)));
    group.throughput(Throughput::Elements(games().sum::<usize>() as u64));
    group.bench_function(name, |b| b.iter(|| games().sum::<usize>()));
}

/// Games per case of [`seam`].
const SEAM_GAMES: u64 = 16;

fn bots(c: &mut Criterion) {
    let state = benches::mid_game_state(SEED);
    let seat = state.board().current_seat();
    c.bench_function("bot/TimeoutBot decision (timeout policy)", |b| {
        b.iter(|| <TimeoutBot as Bot<Yut>>::choose(&mut TimeoutBot, &GAME, black_box(&state), seat))
    });
    let mut bot = RandomBot::new(SEED);
    c.bench_function("bot/RandomBot decision", |b| {
        b.iter(|| bot.choose(&GAME, black_box(&state), seat))
    });
    // The bot builds its evaluation tables on its first decision under given options and
    // reuses them after: one decision first, so this measures a searched decision.
    let mut strong = yut::StrongBot::new(SEED);
    strong.choose(&GAME, &state, seat);
    c.bench_function("bot/StrongBot decision (expectimax search)", |b| {
        b.iter(|| strong.choose(&GAME, black_box(&state), seat))
    });
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = engine;
    config = config();
    targets = throw_and_legal, moves_and_actions, views, erased, games, seam, bots
}
criterion_main!(engine);
