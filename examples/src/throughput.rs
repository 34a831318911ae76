//! The throughput command behind
//! `cargo run --release --example throughput -- --games N [--players K] [--preset standard|app] [--seed S]`:
//! N uniform-random games on one thread, measured with the wall clock, printed as
//! `games/s: G decisions/s: D decisions/game: M` on the last line — the figure compared
//! with other Yut engines.
//!
//! - **Games.** Game `g` (0-based) is set up from seed `S + g` with players `p1`…`pK` in
//!   individual play: `--preset standard` is `yut` with the standard options, `--preset
//!   app` is `yut-augments` with `yut_augments::app_options()` (the app base rules, all
//!   eighteen augments, the cushion and the truce).
//! - **Decisions.** Every `THROW`, `MOVE` and `CHOOSE_AUGMENT` applied is a decision. Each
//!   is chosen uniformly among exactly the actions [`Game::legal_actions`] lists (concede
//!   is never listed), with one [`GameRng`] seeded from `S` for the whole run; throws come
//!   from the state's own seeded RNG. The same arguments play the same games.
//! - **No allocation per action.** Actions go through [`Game::apply_seat_into`] with one
//!   reused events buffer, and the legal list through [`Game::legal_actions_into`] with
//!   another (only a draft, three times per side and game at most, builds its list).
//!   Setting up a game allocates its state.
//! - **Timing.** [`std::time::Instant`] around the games only (setup of each game
//!   included, argument parsing not). The engine itself never reads a clock.
//!
//! ```
//! use clap::Parser;
//! use examples::throughput::{ThroughputArgs, run};
//! let args = ThroughputArgs::parse_from(["throughput", "--games", "20", "--preset", "app"]);
//! let t = run(&args).unwrap();
//! assert_eq!(t.games, 20);
//! assert!(t.decisions > 20 * 10);
//! assert!(t.summary().starts_with("games/s: "));
//! ```

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use clap::Parser;
use game_core::playout::{Choice, Ended, Playout};
use game_core::{Game, GameRng};
use yut::{Phase, Preset, Rules, Standard, Yut, YutAction, YutError, YutState};
use yut_augments::Augments;

/// The flags of `throughput`.
#[derive(Parser, Clone, Debug)]
#[command(
    name = "throughput",
    about = "Plays uniform-random Yut Nori games on one thread and prints games and decisions per second."
)]
pub struct ThroughputArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// Players per game (individual play, 2–4).
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// The rules: `standard` (game `yut`), or `app` with the whole augment layer (game
    /// `yut-augments`).
    #[arg(long, value_parser = crate::args::preset(), default_value_t = Preset::Standard)]
    pub preset: Preset,
    /// Seed of the first game (game `g` uses `seed + g`) and of the choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

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

    /// The last line of the command: `games/s: G decisions/s: D decisions/game: M`.
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
        match self.preset {
            Preset::Standard => Yut::standard().id(),
            Preset::App => yut_augments::game().id(),
        }
    }

    /// The line that says what is measured (printed before the figures).
    pub fn describe(&self) -> String {
        let preset = match self.preset {
            Preset::Standard => "standard",
            Preset::App => "app (all 18 augments, cushion, truce)",
        };
        format!(
            "throughput: {} uniform-random games · {} players · preset {preset} · game {} · seed {} · one thread",
            self.games,
            self.players,
            self.game_id(),
            self.seed
        )
    }
}

/// The whole command: writes the configuration, what was played, and as the last line
/// [`Throughput::summary`] to `out`.
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
    let t = run(args).map_err(ReportError::Engine)?;
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

/// Why [`report`] failed.
#[derive(Debug)]
pub enum ReportError {
    /// The engine refused the options (its typed error), or a game was stuck.
    Engine(YutError),
    /// Writing failed.
    Io(std::io::Error),
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use game_core::GameError;
        match self {
            ReportError::Engine(e) => write!(f, "오류 [{}]: {}", e.code(), e.message()),
            ReportError::Io(e) => write!(f, "출력 오류(output error): {e}"),
        }
    }
}

impl std::error::Error for ReportError {}

/// Plays the games of `args` and measures them. Refused options (for example 5 players)
/// are the engine's typed error.
pub fn run(args: &ThroughputArgs) -> Result<Throughput, YutError> {
    let players: Vec<String> = (1..=args.players).map(|i| format!("p{i}")).collect();
    let start = Instant::now();
    let decisions = match args.preset {
        Preset::Standard => play_games(
            &Yut::<Standard>::standard(),
            &yut::Preset::Standard.options(),
            &players,
            args.seed,
            args.games,
        )?,
        Preset::App => play_games(
            &Yut::new(Augments),
            &yut_augments::app_options(),
            &players,
            args.seed,
            args.games,
        )?,
    };
    Ok(Throughput {
        games: args.games,
        decisions,
        elapsed: start.elapsed(),
    })
}

/// Plays `games` uniform-random games of `game` (game `g` from seed `seed + g`) on this
/// thread and returns the decisions applied (see the module documentation).
pub fn play_games<R: Rules>(
    game: &Yut<R>,
    options: &R::Options,
    players: &[String],
    seed: u64,
    games: u64,
) -> Result<u64, YutError> {
    let mut rng = GameRng::from_seed(seed ^ 0x7468_726F_7567_6870);
    let mut actions: Vec<YutAction<R::Action>> = Vec::with_capacity(64);
    // `Yut::to_act` builds a list; the board knows the seat, and nothing is allocated.
    let mut playout = Playout::new(0)
        .next_with(|_, state: &YutState<R>| {
            (state.board.phase != Phase::Finished).then(|| state.board.current_seat())
        })
        .reserve(64);
    let mut decisions = 0u64;
    for g in 0..games {
        let mut state = game.setup(options, players, seed.wrapping_add(g), 0)?;
        let summary = playout
            .run(
                game,
                &mut state,
                |state: &YutState<R>, seat| {
                    game.legal_actions_into(state, seat, &mut actions);
                    // A forced decision draws nothing, so the choices stay those of the
                    // runs before.
                    match actions.len() {
                        0 => Choice::Nothing,
                        1 => Choice::Act(actions.swap_remove(0)),
                        n => Choice::Act(actions.swap_remove(rng.below(n as u32) as usize)),
                    }
                },
                |_: &mut YutState<R>, _| ControlFlow::<()>::Continue(()),
            )
            .map_err(|refused| refused.error)?;
        if summary.ended != Ended::Over {
            return Err(stuck(seed.wrapping_add(g)));
        }
        decisions += summary.decisions as u64;
    }
    Ok(decisions)
}
/// A game that offers no decision or does not end: a bug, reported as the engine's
/// corrupt-state error.
fn stuck(seed: u64) -> YutError {
    game_core::Rejection::CorruptState {
        detail: format!("throughput: the game of seed {seed} is stuck"),
    }
    .into()
}
