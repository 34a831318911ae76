//! The throughput command behind
//! `cargo run --release --example throughput -- --games N [--game yut|one-card] [--players K] [--preset standard|app] [--seed S] [--threads T]`:
//! N uniform-random games on T threads (default 1), measured with the wall clock, printed
//! per thread and then, as the last line, for the whole run as
//! `games/s: G decisions/s: D decisions/game: M` — the figure compared with other Yut
//! engines.
//!
//! - **Games.** Game `g` (0-based) is set up from seed `S + g` with players `p1`…`pK` in
//!   individual play. `--game yut` (the default): `--preset standard` is `yut` with the
//!   standard options, `--preset app` is `yut-augments` with
//!   `yut_augments::app_options()` (the app base rules, all eighteen augments, the cushion
//!   and the truce). `--game one-card` is One Card with its default options (2 to 5
//!   players; `--preset` is Yut's only).
//! - **Decisions.** Every action applied is a decision (Yut's `THROW`, `MOVE` and
//!   `CHOOSE_AUGMENT`; One Card's `PLAY`, `DRAW` and the mover's `CATCH` or `ONE_CARD`: only
//!   the seat to move acts). Each is chosen uniformly among exactly the actions
//!   [`Game::legal_actions`] lists (concede is never listed), with a [`GameRng`] of the
//!   game's own, seeded from its seed `S + g` (a forced decision draws nothing); throws and
//!   shuffles come from the state's own seeded RNG. So a game depends only on its index and
//!   `S`: the same arguments play the same games, and the decisions played are the same
//!   whatever the thread count.
//! - **Threads.** Thread `t` of `T` (counted from 0) plays the consecutive games `t·N/T`
//!   up to `(t+1)·N/T` (see [`share`]), with its own buffers; nothing is shared while the
//!   games run. Each prints a line `thread t+1/T (games A..B): …` with its own figures.
//! - **No allocation per action.** Actions go through
//!   a quiet [`game_core::playout::Playout`] with one reused events buffer, and are drawn with [`Game::random_legal_action`] without
//!   building the legal list (only a Yut draft, three times per side and game at most,
//!   builds its list).
//!   Each thread keeps one game state: its first game is set up with [`Game::setup`],
//!   every later one started in that state with [`Game::reset`] (the same game as a
//!   setup, in the buffers of the last one).
//! - **Timing.** [`std::time::Instant`] around the games only (starting each game
//!   included, argument parsing not): for the whole run from before the threads start to
//!   after the last one ends, and for each thread around its own games. The engine itself
//!   never reads a clock.
//!
//! ```
//! use clap::Parser;
//! use examples::throughput::{ThroughputArgs, measure, run};
//! let args = ThroughputArgs::parse_from(["throughput", "--games", "20", "--preset", "app"]);
//! let t = run(&args).unwrap();
//! assert_eq!(t.games, 20);
//! assert!(t.decisions > 20 * 10);
//! assert!(t.summary().starts_with("games/s: "));
//! let two = ThroughputArgs::parse_from(["throughput", "--games", "20", "--preset", "app", "--threads", "2"]);
//! let m = measure(&two).unwrap();
//! assert_eq!((m.total.games, m.total.decisions), (20, t.decisions));
//! assert_eq!(m.per_thread.len(), 2);
//! // One Card, 4 players: the same games from the same arguments.
//! let one = ThroughputArgs::parse_from(["throughput", "--games", "20", "--game", "one-card", "--players", "4"]);
//! let t = run(&one).unwrap();
//! assert_eq!((one.game_id(), t.games), ("one-card", 20));
//! assert!(t.decisions > 20 * 20);
//! assert_eq!(run(&one).unwrap().decisions, t.decisions);
//! assert!(one.describe().starts_with("throughput: 20 uniform-random games · 4 players · game one-card · seed 1"));
//! ```

use std::ops::{ControlFlow, Range};
use std::time::{Duration, Instant};

use clap::builder::RangedU64ValueParser;
use clap::{Parser, ValueEnum};
use game_core::playout::{Ended, Playout};
use game_core::{Game, GameError, GameRng, Rejection};
use one_card::{OneCard, OneCardError, OneCardOptions};
use yut::{Preset, Standard, Yut, YutError};
use yut_augments::Augments;

/// The flags of `throughput`.
#[derive(Parser, Clone, Debug)]
#[command(
    name = "throughput",
    about = "Plays uniform-random Yut Nori (or One Card) games and prints games and decisions per second, per thread and for the whole run.",
    after_help = "Game g (from 0) of the N of --games is set up from seed S + g, S being --seed, and \
makes its choices with an RNG of its own seeded from that too: the games, and the decisions \
played, are the same whatever --threads is. Thread t of T (from 0) plays the games t·N/T up \
to (t+1)·N/T and prints a line of its own; the last line is the whole run: \
`games/s: G decisions/s: D decisions/game: M`."
)]
pub struct ThroughputArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// The game: `yut` (with `--preset`) or `one-card`.
    #[arg(long, value_enum, default_value_t = Played::Yut)]
    pub game: Played,
    /// Players per game (individual play, 2–4; One Card 2–5).
    #[arg(long, default_value_t = 2, value_parser = crate::args::player_count())]
    pub players: u8,
    /// Yut's rules: `standard` (game `yut`), or `app` with the whole augment layer (game
    /// `yut-augments`).
    #[arg(long, value_parser = crate::args::preset(), default_value_t = Preset::Standard)]
    pub preset: Preset,
    /// Seed of the first game (game `g` and its choices use `seed + g`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads playing the games (1 to 256), each a consecutive share of them; the
    /// games played do not depend on it.
    #[arg(long, default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS as u64))]
    pub threads: usize,
}

/// The game `--game` names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Played {
    /// Yut Nori, under `--preset`.
    #[default]
    Yut,
    /// One Card, with its default options.
    OneCard,
}

/// The most `--threads` accepted.
pub const MAX_THREADS: usize = 256;

/// What a run measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Throughput {
    /// Games played.
    pub games: u64,
    /// Decisions applied (throws, moves and draft choices).
    pub decisions: u64,
    /// Wall-clock time of the games.
    pub elapsed: Duration,
}

impl Throughput {
    /// Games per second.
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Decisions per second.
    pub fn decisions_per_second(&self) -> f64 {
        self.decisions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Decisions per game.
    pub fn decisions_per_game(&self) -> f64 {
        self.decisions as f64 / self.games.max(1) as f64
    }

    /// The last line of the command (the whole run): `games/s: G decisions/s: D
    /// decisions/game: M`.
    ///
    /// ```
    /// use std::time::Duration;
    /// let t = examples::throughput::Throughput { games: 10, decisions: 480, elapsed: Duration::from_millis(2) };
    /// assert_eq!(t.summary(), "games/s: 5000 decisions/s: 240000 decisions/game: 48.00");
    /// ```
    pub fn summary(&self) -> String {
        format!(
            "games/s: {:.0} decisions/s: {:.0} decisions/game: {:.2}",
            self.games_per_second(),
            self.decisions_per_second(),
            self.decisions_per_game()
        )
    }
}

impl ThroughputArgs {
    /// The game id these flags play.
    pub fn game_id(&self) -> &'static str {
        match (self.game, self.preset) {
            (Played::OneCard, _) => OneCard.id(),
            (Played::Yut, Preset::App) => yut_augments::game().id(),
            (Played::Yut, _) => Yut::standard().id(),
        }
    }

    /// The line that says what is measured (printed before the figures).
    pub fn describe(&self) -> String {
        let preset = match (self.game, self.preset) {
            (Played::OneCard, _) => String::new(),
            (Played::Yut, Preset::App) => {
                " · preset app (all 18 augments, cushion, truce)".to_owned()
            }
            (Played::Yut, other) => format!(" · preset {}", other.word()),
        };
        let threads = match self.threads.max(1) {
            1 => "one thread".to_owned(),
            n => format!("{n} threads"),
        };
        format!(
            "throughput: {} uniform-random games · {} players{preset} · game {} · seed {} · {threads}",
            self.games,
            self.players,
            self.game_id(),
            self.seed
        )
    }
}

/// The whole command: writes the configuration, a line per thread, what was played, and
/// as the last line [`Throughput::summary`] of the whole run to `out`.
///
/// ```
/// use clap::Parser;
/// let args = examples::throughput::ThroughputArgs::parse_from(["throughput", "--games", "3"]);
/// let mut out = Vec::new();
/// examples::throughput::report(&args, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.lines().last().unwrap().starts_with("games/s: "));
/// ```
pub fn report(
    args: &ThroughputArgs,
    out: &mut impl std::io::Write,
) -> Result<Throughput, ReportError> {
    writeln!(out, "{}", args.describe()).map_err(ReportError::Io)?;
    let measured = measure(args).map_err(ReportError::Engine)?;
    let count = measured.per_thread.len();
    for (i, t) in measured.per_thread.iter().enumerate() {
        let games = share(args.games, i, count);
        writeln!(
            out,
            "thread {}/{count} (games {}..{}): {} decisions in {:.3} s · games/s: {:.0} decisions/s: {:.0}",
            i + 1,
            games.start,
            games.end,
            t.decisions,
            t.elapsed.as_secs_f64(),
            t.games_per_second(),
            t.decisions_per_second()
        )
        .map_err(ReportError::Io)?;
    }
    let t = measured.total;
    writeln!(
        out,
        "played {} games, {} decisions in {:.3} s",
        t.games,
        t.decisions,
        t.elapsed.as_secs_f64()
    )
    .map_err(ReportError::Io)?;
    writeln!(out, "{}", t.summary()).map_err(ReportError::Io)?;
    out.flush().map_err(ReportError::Io)?;
    Ok(t)
}

/// The engine's typed error, of the game played.
#[derive(Debug)]
pub enum EngineError {
    /// Yut Nori's (or the augment layer's).
    Yut(YutError),
    /// One Card's.
    OneCard(OneCardError),
}

impl From<YutError> for EngineError {
    fn from(e: YutError) -> Self {
        EngineError::Yut(e)
    }
}

impl From<OneCardError> for EngineError {
    fn from(e: OneCardError) -> Self {
        EngineError::OneCard(e)
    }
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Yut(e) => e.fmt(f),
            EngineError::OneCard(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EngineError {}

impl GameError for EngineError {
    fn code(&self) -> &'static str {
        match self {
            EngineError::Yut(e) => e.code(),
            EngineError::OneCard(e) => e.code(),
        }
    }

    fn message(&self) -> String {
        match self {
            EngineError::Yut(e) => e.message(),
            EngineError::OneCard(e) => e.message(),
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        match self {
            EngineError::Yut(e) => e.reason(),
            EngineError::OneCard(e) => e.reason(),
        }
    }
}

/// Why [`report`] failed.
#[derive(Debug)]
pub enum ReportError {
    /// The engine refused the options (its typed error), or a game was stuck.
    Engine(EngineError),
    /// Writing failed.
    Io(std::io::Error),
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportError::Engine(e) => write!(f, "오류 [{}]: {}", e.code(), e.message()),
            ReportError::Io(e) => write!(f, "출력 오류(output error): {e}"),
        }
    }
}

impl std::error::Error for ReportError {}

/// A run measured as a whole and thread by thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The whole run: every game, the wall-clock time from before the threads started to
    /// after the last one ended.
    pub total: Throughput,
    /// Each thread's games and the time it took for them, in thread order.
    pub per_thread: Vec<Throughput>,
}

/// Plays the games of `args` and measures the whole run (see [`measure`]). Refused
/// options (for example 5 players) are the engine's typed error.
pub fn run(args: &ThroughputArgs) -> Result<Throughput, EngineError> {
    measure(args).map(|m| m.total)
}

/// Plays the games of `args` on `args.threads` threads and measures them, as a whole and
/// per thread. Refused options (for example 5 players) are the engine's typed error; if
/// several threads fail, the first thread's error is returned. (The flag parser keeps
/// `threads` from 1 to [`MAX_THREADS`]; flags built in code with 0 threads play on one.)
pub fn measure(args: &ThroughputArgs) -> Result<Measured, EngineError> {
    let players: Vec<String> = (1..=args.players).map(|i| format!("p{i}")).collect();
    match (args.game, args.preset) {
        (Played::Yut, Preset::App) => measure_games(
            &Yut::new(Augments),
            &yut_augments::app_options(),
            &players,
            args,
        ),
        (Played::OneCard, _) => measure_games(&OneCard, &OneCardOptions::default(), &players, args),
        (Played::Yut, _) => measure_games(
            &Yut::<Standard>::standard(),
            &yut::Preset::Standard.options(),
            &players,
            args,
        ),
    }
}

/// The games of thread `thread` of `threads` among `games`: a consecutive share, the
/// shares together exactly `0..games`.
///
/// ```
/// use examples::throughput::share;
/// assert_eq!([share(10, 0, 3), share(10, 1, 3), share(10, 2, 3)], [0..3, 3..6, 6..10]);
/// assert_eq!(share(1, 0, 2), 0..0);
/// ```
pub fn share(games: u64, thread: usize, threads: usize) -> Range<u64> {
    let at = |t: usize| (u128::from(games) * t as u128 / threads.max(1) as u128) as u64;
    at(thread)..at(thread + 1)
}

/// [`measure`] for one game and its options.
fn measure_games<G>(
    game: &G,
    options: &G::Options,
    players: &[String],
    args: &ThroughputArgs,
) -> Result<Measured, EngineError>
where
    G: Game + Sync,
    G::Options: Sync,
    EngineError: From<G::Error>,
{
    let threads = args.threads.max(1);
    let timed = |range: Range<u64>| {
        let games = range.end - range.start;
        let start = Instant::now();
        let decisions = play_game_range(game, options, players, args.seed, range)?;
        Ok(Throughput {
            games,
            decisions,
            elapsed: start.elapsed(),
        })
    };
    let start = Instant::now();
    let results: Vec<Result<Throughput, G::Error>> = if threads == 1 {
        vec![timed(0..args.games)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let range = share(args.games, t, threads);
                    scope.spawn(move || timed(range))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        })
    };
    let elapsed = start.elapsed();
    let per_thread = results
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(EngineError::from)?;
    Ok(Measured {
        total: Throughput {
            games: args.games,
            decisions: per_thread.iter().map(|t| t.decisions).sum(),
            elapsed,
        },
        per_thread,
    })
}

/// Plays `games` uniform-random games of `game` (game `g` from seed `seed + g`) on this
/// thread and returns the decisions applied (see the module documentation).
pub fn play_games<G: Game>(
    game: &G,
    options: &G::Options,
    players: &[String],
    seed: u64,
    games: u64,
) -> Result<u64, G::Error> {
    play_game_range(game, options, players, seed, 0..games)
}

/// Plays the games `range` of a run from `seed` on this thread (game `g` set up from seed
/// `seed + g`, its choices from its own [`GameRng`] seeded from that too) and returns the
/// decisions applied. A game plays the same in any range that holds it: the first is set
/// up with [`Game::setup`], each later one reset in the same state ([`Game::reset`]),
/// which makes the state a setup makes.
///
/// ```
/// use examples::throughput::{play_game_range, play_games};
/// let (game, options) = (yut::Yut::standard(), yut::YutOptions::default());
/// let players = ["p1".to_string(), "p2".to_string()];
/// let split = play_game_range(&game, &options, &players, 5, 0..3).unwrap()
///     + play_game_range(&game, &options, &players, 5, 3..8).unwrap();
/// assert_eq!(split, play_games(&game, &options, &players, 5, 8).unwrap());
/// ```
pub fn play_game_range<G: Game>(
    game: &G,
    options: &G::Options,
    players: &[String],
    seed: u64,
    range: Range<u64>,
) -> Result<u64, G::Error> {
    // The seat to act comes from `Game::first_to_act` (the board's own in Yut and One Card):
    // nothing is allocated.
    // Quiet: nothing here reads the events, so the engine need not build them.
    let mut playout = Playout::new(0).quiet();
    let mut decisions = 0u64;
    // One state for all the games: each after the first starts in the last one's buffers.
    let mut kept: Option<G::State> = None;
    for g in range {
        let game_seed = seed.wrapping_add(g);
        let state = if let Some(state) = kept.as_mut() {
            game.reset(state, options, players, game_seed, 0)?;
            state
        } else {
            kept.insert(game.setup(options, players, game_seed, 0)?)
        };
        let mut rng = GameRng::from_seed(game_seed ^ CHOICE_SEED);
        // Each decision's action drawn among the legal ones and played without listing
        // them (a forced one draws nothing): the same game as picking from the list.
        let summary = playout
            .run_random(game, state, &mut rng, |_: &mut G::State, _| {
                ControlFlow::<()>::Continue(())
            })
            .map_err(|refused| refused.error)?;
        if summary.ended != Ended::Over {
            return Err(stuck(game_seed));
        }
        decisions += summary.decisions as u64;
    }
    Ok(decisions)
}

/// What a game's seed is mixed with to seed its choices (`"throughp"` in ASCII), so that
/// the choices are not drawn from the same stream as the game's throws.
const CHOICE_SEED: u64 = 0x7468_726F_7567_6870;

/// A game that offers no decision or does not end: a bug, reported as the engine's
/// corrupt-state error.
fn stuck<E: From<Rejection>>(seed: u64) -> E {
    Rejection::CorruptState {
        detail: format!("throughput: the game of seed {seed} is stuck"),
    }
    .into()
}
