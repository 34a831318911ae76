//! How many heap allocations the steady-state play-out path makes: a counting global
//! allocator around uniform-random games of the standard rules.
//!
//! (a) `ThrowDraw::draw` and `Yut::legal_moves_into` with a reused buffer: none at all.
//! (b) `GameExt::apply`'s checked step with a reused events buffer, as the shared play-out loop
//!     (`game_core::playout`) applies it: none for an ordinary decision; a discard (its
//!     event lists the dropped results) and the game's end (winners and result) allocate,
//!     measured and bounded. The loop itself, between decisions, allocates nothing.
//!
//! (c) `Game::reset` of a finished game into the next, as `benches::UniformGames` and the
//!     `throughput` example start every game after the first: none (the standard rules
//!     and the full augment pack, 2 and 4 players).
//! (d) A whole game of `benches::UniformGames` (a reset, then a quiet `Playout::run_random`
//!     to the end): none, the game's end included (its `gameOver` writes the winners into
//!     the list and ids the last game's left).
//!
//! Run with `cargo test -p benches --test no_alloc -- --nocapture` to see the figures.
//!
//! Everything is in one `#[test]`: counting is switched on per thread, but the counter is
//! global, so a second test counting on another thread at the same time would mix its
//! allocations into this one's.

// A `#[global_allocator]` needs `unsafe impl GlobalAlloc` (and calls into `System`'s unsafe
// methods). The workspace forbids unsafe code, and a command-line `forbid` cannot be
// relaxed in a file, so this package's Cargo.toml sets `unsafe_code = "deny"` and only this
// test file allows it. The unsafe here only forwards to `System`, unchanged.
#![allow(unsafe_code)]

use game_core::GameExt;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::hint::black_box;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

use game_core::playout::{Choice, Ended, Step};
use game_core::{Bot, Game, GameRng, RandomBot, TimeoutBot};
use yut::{
    LegalMove, MAX_PENDING, Phase, Standard, ThrowDraw, Yut, YutAction, YutEvent, YutOptions,
    YutState,
};

use benches::GAME;

/// Counts allocations (`alloc`, `alloc_zeroed`, `realloc`) of threads that switched
/// counting on; frees are not counted. Everything is forwarded to [`System`].
struct Counting;

/// Allocations counted so far.
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations are counted (const-initialized, no destructor, so
    /// reading it never allocates).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract holds exactly as it does for `System`; counting touches only an
// atomic and a const thread-local, neither of which allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: forwarded unchanged; `ptr` came from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged; `ptr` came from this allocator, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns its result with the allocations this thread made meanwhile. The
/// result is returned, not dropped, so frees of what `f` built fall outside.
fn counted<T>(f: impl FnOnce() -> T) -> (T, usize) {
    COUNTING.with(|c| c.set(true));
    let before = ALLOCS.load(Ordering::Relaxed);
    let out = f();
    let after = ALLOCS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(false));
    (out, after - before)
}

/// Calls and allocations of one operation.
#[derive(Default)]
struct Tally {
    calls: usize,
    allocs: usize,
    max: usize,
    /// Calls that allocated at all.
    allocating: usize,
}

impl Tally {
    fn add(&mut self, allocs: usize) {
        self.calls += 1;
        self.allocs += allocs;
        self.max = self.max.max(allocs);
        self.allocating += usize::from(allocs > 0);
    }

    fn mean(&self) -> f64 {
        self.allocs as f64 / self.calls.max(1) as f64
    }

    fn line(&self, name: &str) -> String {
        format!(
            "{name:<48} {:>7} calls {:>7} allocs  {:>5.2}/call  max {:>2}  allocating calls {:>5.1}%",
            self.calls,
            self.allocs,
            self.mean(),
            self.max,
            100.0 * self.allocating as f64 / self.calls.max(1) as f64,
        )
    }
}

/// Games played (2 players, seeds `0..GAMES`), after one uncounted warm-up game.
const GAMES: u64 = 300;

#[derive(Default)]
struct Report {
    draw: Tally,
    legal_reused: Tally,
    legal_fresh: Tally,
    apply_throw: Tally,
    apply_move: Tally,
    apply_all: Tally,
    /// Decisions without a discard or the game's end in them or just before them.
    apply_plain: Tally,
    /// Decisions that discard results, and the first throw after a discard.
    apply_discard: Tally,
    /// The decision that ends the game.
    apply_game_over: Tally,
    legal_actions: Tally,
    timeout_bot: Tally,
    /// The play-out loop between two decisions, and after the last one.
    between: Tally,
}

/// Switches counting on and returns the counter, for [`stop`].
fn start() -> usize {
    COUNTING.with(|c| c.set(true));
    ALLOCS.load(Ordering::Relaxed)
}

/// Switches counting off and returns the allocations since [`start`] returned `from`.
fn stop(from: usize) -> usize {
    let n = ALLOCS.load(Ordering::Relaxed) - from;
    COUNTING.with(|c| c.set(false));
    n
}

/// Plays uniform-random games of `seeds` through the shared play-out loop
/// ([`benches::playout`], as `benches::uniform_game` runs it), counting as it goes (nothing
/// is counted when `count` is false: the warm-up). Each action's allocations are counted
/// from the chooser's return to the step callback, so they include the loop's own
/// applying; the loop's part between two decisions (who acts next, the limit) is counted
/// from the callback's return to the next chooser call.
fn play(seeds: std::ops::Range<u64>, report: &mut Report, count: bool) {
    let options = YutOptions::default();
    // The reused buffer, sized once for the most legal moves there can be: every pending
    // result (at most MAX_PENDING) from every origin (home and up to five stacks).
    let mut moves: Vec<LegalMove> = Vec::with_capacity(MAX_PENDING * 6);
    // A buffer that starts empty and grows as it must, for comparison.
    let mut fresh: Vec<LegalMove> = Vec::new();
    let mut draw_rng = GameRng::from_seed(99);
    let mut pick_rng = GameRng::from_seed(7);
    let mut playout = benches::playout::<Yut>();
    // Shared by the chooser and the callback: the tallies, and where counting started.
    let report = RefCell::new(report);
    let counting_from: Cell<Option<usize>> = Cell::new(None);
    for seed in seeds {
        let mut state = benches::new_game(2, seed);
        // Whether the last decision discarded results: `discard` takes the pending Vec, so
        // the next result pushed has to allocate a new one.
        let mut after_discard = false;
        let choose = |state: &YutState<Standard>, seat: usize| {
            if let Some(from) = counting_from.take() {
                let n = stop(from);
                if count {
                    report.borrow_mut().between.add(n);
                }
            }
            let mut report = report.borrow_mut();
            // Informational: the allocating paths bots use.
            let (actions, n) = counted(|| GAME.legal_actions(state, seat));
            drop(actions);
            if count {
                report.legal_actions.add(n);
            }
            let (choice, n) = counted(|| TimeoutBot.choose(&GAME, state, seat));
            black_box(choice);
            if count {
                report.timeout_bot.add(n);
            }

            let action = match state.board().phase() {
                Phase::Throw => {
                    // A play-out draws throws itself (the engine draws its own in
                    // `apply`; this measures the bare draw).
                    let (draw, n) = counted(|| ThrowDraw::draw(&options, &mut draw_rng));
                    black_box(draw);
                    if count {
                        report.draw.add(n);
                    }
                    YutAction::Throw
                }
                Phase::Move => {
                    let ((), n) = counted(|| GAME.legal_moves_into(state, &mut moves));
                    if count {
                        report.legal_reused.add(n);
                    }
                    let ((), n) = counted(|| GAME.legal_moves_into(state, &mut fresh));
                    if count {
                        report.legal_fresh.add(n);
                    }
                    assert_eq!(moves, fresh);
                    let m = moves[pick_rng.below(moves.len() as u32) as usize];
                    YutAction::Move {
                        throw_index: m.throw_index,
                        from: m.from,
                    }
                }
                phase => panic!("the standard rules never enter {phase:?}"),
            };
            counting_from.set(Some(start()));
            Choice::<_, ()>::Act(action)
        };
        let stepped = |_: &mut YutState<Standard>, step: Step<'_, Yut>| {
            let n = stop(counting_from.take().expect("counting since the chooser"));
            let throw = *step.action == YutAction::Throw;
            let discards = step
                .events
                .iter()
                .any(|e| matches!(e, YutEvent::Discarded { .. }));
            let game_over = step
                .events
                .iter()
                .any(|e| matches!(e, YutEvent::GameOver { .. }));
            if count {
                let mut report = report.borrow_mut();
                report.apply_all.add(n);
                if throw {
                    report.apply_throw.add(n);
                } else {
                    report.apply_move.add(n);
                }
                if game_over {
                    report.apply_game_over.add(n);
                } else if discards || (throw && after_discard) {
                    report.apply_discard.add(n);
                } else {
                    report.apply_plain.add(n);
                }
            }
            if discards {
                after_discard = true;
            } else if throw {
                after_discard = false;
            }
            counting_from.set(Some(start()));
            ControlFlow::Continue(())
        };
        let summary = playout
            .run(&GAME, &mut state, choose, stepped)
            .expect("a legal action is accepted");
        if let Some(from) = counting_from.take() {
            let n = stop(from);
            if count {
                report.borrow_mut().between.add(n);
            }
        }
        assert_eq!(summary.ended, Ended::Over);
    }
}

#[test]
fn steady_state_playout_allocations() {
    // Sanity: the counter sees an allocation, and sees none when there is none.
    let (v, n) = counted(|| Vec::<u8>::with_capacity(1));
    drop(v);
    assert_eq!(n, 1, "the counting allocator counts");
    let ((), n) = counted(|| {});
    assert_eq!(n, 0);

    let mut report = Report::default();
    play(1_000..1_001, &mut report, false);
    play(0..GAMES, &mut report, true);

    println!("allocations per call over {GAMES} random 2-player standard games:");
    println!("{}", report.draw.line("(a) ThrowDraw::draw"));
    println!(
        "{}",
        report
            .legal_reused
            .line("(a) legal_moves_into, reused reserved Vec")
    );
    println!(
        "{}",
        report
            .legal_fresh
            .line("    legal_moves_into, Vec::new(), grows as needed")
    );
    println!("{}", report.apply_all.line("(b) apply, every decision"));
    println!("{}", report.apply_throw.line("    apply THROW"));
    println!("{}", report.apply_move.line("    apply MOVE"));
    println!(
        "{}",
        report
            .apply_plain
            .line("    apply, no discard and not the end")
    );
    println!(
        "{}",
        report
            .apply_discard
            .line("    apply discarding, or throw after one")
    );
    println!(
        "{}",
        report.apply_game_over.line("    apply ending the game")
    );
    println!(
        "{}",
        report
            .legal_actions
            .line("    Game::legal_actions (RandomBot's path)")
    );
    println!(
        "{}",
        report
            .timeout_bot
            .line("    TimeoutBot::choose (policy_move)")
    );
    println!(
        "{}",
        report
            .between
            .line("(b) the play-out loop between decisions")
    );

    // (a): the play-out primitives never allocate once their buffer exists.
    assert!(report.draw.calls > 1_000 && report.legal_reused.calls > 1_000);
    assert_eq!(report.draw.allocs, 0, "ThrowDraw::draw allocated");
    assert_eq!(
        report.legal_reused.allocs, 0,
        "legal_moves_into allocated with a reused buffer"
    );
    // A buffer that starts empty allocates only to grow: a handful of times in all.
    assert!(report.legal_fresh.allocs <= 8);
    assert!(report.between.calls > 20_000);
    assert_eq!(report.between.allocs, 0, "the play-out loop allocated");

    // (b): with a reused buffer an ordinary decision allocates nothing, nor does a discard
    // (the `discarded` event's list is inline); the game's end builds the winners. The bounds are what was measured (the games are seeded, so the figures
    // repeat exactly); tighten them when the engine improves.
    assert!(report.apply_all.calls > 20_000);
    assert_eq!(report.apply_game_over.calls, GAMES as usize);
    let bounds = [
        ("plain", &report.apply_plain, PLAIN_MAX),
        ("discard", &report.apply_discard, DISCARD_MAX),
        ("game over", &report.apply_game_over, GAME_OVER_MAX),
        ("all", &report.apply_all, GAME_OVER_MAX),
    ];
    for (name, tally, max) in bounds {
        assert!(tally.max <= max, "{name}: max {} > {max}", tally.max);
    }
    assert!(
        report.apply_all.mean() <= MEAN_MAX,
        "mean {} > {MEAN_MAX}",
        report.apply_all.mean()
    );

    // (c): a finished game reset into the next allocates nothing, under either rule set.
    let mut app_team = yut_augments::app_options();
    app_team.base.mode = yut::Mode::Team;
    let resets = [
        (
            "(c) reset, standard, 2 players",
            reset_allocations(&GAME, &options(), 2),
        ),
        (
            "    reset, standard, 4 players",
            reset_allocations(&GAME, &options(), 4),
        ),
        (
            "    reset, app pack, 2 players",
            reset_allocations(&augmented(), &yut_augments::app_options(), 2),
        ),
        (
            "    reset, app pack, 4 players in teams",
            reset_allocations(&augmented(), &app_team, 4),
        ),
    ];
    for (name, tally) in &resets {
        println!("{}", tally.line(name));
    }
    for (name, tally) in resets {
        assert!(tally.calls >= 20, "{name}: {} resets", tally.calls);
        assert_eq!(tally.allocs, 0, "{name}: a reset allocated");
    }

    // (d): a whole quiet random game in a series allocates nothing, its end included.
    let mut games = benches::UniformGames::new(2);
    games.play(&GAME, &options(), 0);
    let mut whole = Tally::default();
    for seed in 1..=GAMES {
        let (decisions, allocs) = counted(|| games.play(&GAME, &options(), seed));
        assert!(decisions > 0);
        whole.add(allocs);
    }
    println!("{}", whole.line("(d) a whole game of UniformGames"));
    assert_eq!(whole.allocs, 0, "a whole game in a series allocated");
}

/// The standard options.
fn options() -> YutOptions {
    YutOptions::default()
}

/// The game with the augment layer.
fn augmented() -> Yut<yut_augments::Augments> {
    Yut::new(yut_augments::Augments)
}

/// Plays seeded random games of `n` players one after the other in one state, as
/// `benches::UniformGames` does, counting the allocations of each `Game::reset` of a
/// finished game into the next (the first game, set up, is not counted).
fn reset_allocations<R: yut::Rules>(game: &Yut<R>, options: &R::Options, n: usize) -> Tally {
    let ids = benches::players(n);
    let mut tally = Tally::default();
    let mut state = game
        .setup(options, &ids, 0, 0)
        .expect("options accept the players");
    for seed in 1..=20 {
        let mut bot = RandomBot::new(seed);
        while let Some(seat) = game.first_to_act(&state) {
            let action = bot.choose(game, &state, seat).expect("a legal action");
            game.apply(&mut state, seat, &action, 0)
                .expect("a legal action is accepted");
        }
        let (reset, allocs) = counted(|| game.reset(&mut state, options, &ids, seed, 0));
        reset.expect("options accept the players");
        tally.add(allocs);
    }
    tally
}

/// Measured: allocations of an ordinary checked step with a reused buffer.
const PLAIN_MAX: usize = 0;
/// Measured: allocations of a discarding `apply`, or of the throw after one.
const DISCARD_MAX: usize = 0;
/// Measured: allocations of the `apply` that ends the game of a new state (each game
/// here is set up afresh): the winners' list and the winner's id of the log's `gameOver`,
/// and the same two in the copy the events get. (A state reset from a finished game reuses
/// the log's: (d).)
const GAME_OVER_MAX: usize = 4;
/// Measured mean over every decision of the seeded games (0.042: the games' ends), rounded up.
const MEAN_MAX: f64 = 0.05;
