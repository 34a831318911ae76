//! The JSON-lines host's command line over any registry (feature `cli`): requests on
//! stdin answered on stdout, or with `--trace` the [trace mode](crate::trace) of any of
//! the registry's games.
//!
//! An author's host is their registry and one call:
//!
//! ```no_run
//! use game_core::{Erased, Registry, rps::Rps};
//!
//! fn main() -> std::process::ExitCode {
//!     let mut games = Registry::new();
//!     games.register(Erased(Rps)).unwrap(); // and the author's own games
//!     game_host::cli::run(games)
//! }
//! ```
//!
//! `host --trace --game rps --games 10 --seed 1 --illegal 5 --timeouts 5` then writes the
//! trace of ten games; without `--trace` it serves requests. A binary with flags of its
//! own flattens [`TraceArgs`] into its parser and calls [`TraceArgs::config`] and
//! [`trace`](crate::trace::trace).

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser};
use game_core::Registry;

use crate::trace::{TraceConfig, TraceError};

/// The flags of trace mode, for any registry.
///
/// ```
/// use clap::Parser;
/// use game_host::cli::TraceArgs;
///
/// #[derive(Parser)]
/// struct Cli {
///     #[command(flatten)]
///     trace: TraceArgs,
/// }
/// let cli = Cli::parse_from(["host", "--game", "rps", "--games", "3", "--options", r#"{"winsNeeded":2}"#]);
/// let config = cli.trace.config(None).unwrap();
/// assert_eq!((config.game.as_str(), config.games), ("rps", 3));
/// assert_eq!(config.options.unwrap()["winsNeeded"], 2);
/// ```
#[derive(clap::Args, Clone, Debug)]
pub struct TraceArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Seed of the first game; game `g` uses `seed + g`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players per game [default: 2]; the game judges the count.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
    pub players: Option<u8>,
    /// The game's id in the registry [default: the registry's only game].
    #[arg(long)]
    pub game: Option<String>,
    /// A whole options object of the game in the wire format; fields left out take their
    /// defaults.
    #[arg(long)]
    pub options: Option<String>,
    /// Percentage of decisions left to the engine's timeout action.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub timeouts: u8,
    /// Percentage of decisions preceded by an action the engine refuses.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub illegal: u8,
    /// The game's bot kind every seat plays [default: the game's first].
    #[arg(long)]
    pub bot: Option<String>,
}

/// The ids of [`TraceArgs`]' flags: given without `--trace`, they are refused.
const TRACE_FLAGS: [&str; 8] = [
    "games", "seed", "players", "game", "options", "timeouts", "illegal", "bot",
];

impl TraceArgs {
    /// The trace these flags ask for; `default_game` is the game when `--game` is not
    /// given (a registry's only game). Fails when `--options` is not a JSON object or no
    /// game is named.
    pub fn config(&self, default_game: Option<&str>) -> Result<TraceConfig, TraceError> {
        let options = match &self.options {
            None => None,
            // serde's derived structs also read an array, field by field: only an object
            // is an options object.
            Some(json) => match serde_json::from_str::<serde_json::Value>(json) {
                Ok(v) if v.is_object() => Some(v),
                Ok(_) => return Err(TraceError::Options("not a JSON object".into())),
                Err(e) => return Err(TraceError::Options(e.to_string())),
            },
        };
        let Some(game) = self.game.as_deref().or(default_game) else {
            return Err(TraceError::Setup(game_core::GameError::body(
                &game_core::HostError::UnknownGame(String::new()),
            )));
        };
        Ok(TraceConfig {
            game: game.to_owned(),
            options,
            games: self.games,
            seed: self.seed,
            players: self.players.map_or(2, usize::from),
            timeouts: self.timeouts,
            illegal: self.illegal,
            bot: self.bot.clone(),
        })
    }
}

/// Serve JSON-lines requests on stdin/stdout, or write a trace of bot games (`--trace`).
#[derive(Parser, Clone, Debug)]
#[command(name = "host")]
pub struct Args {
    /// Play seeded bot games and write them as JSON lines instead of serving requests.
    #[arg(long)]
    pub trace: bool,
    /// The longest request line served, in bytes; a longer one is answered `TOO_LARGE`
    /// (and read to its end without being kept).
    #[arg(long, value_name = "BYTES", default_value_t = crate::DEFAULT_MAX_LINE)]
    pub max_line: usize,
    /// The flags of `--trace`.
    #[command(flatten)]
    pub trace_args: TraceArgs,
}

/// The host's command line over `registry`: parses the process's arguments (a trace flag
/// without `--trace` is refused), then serves requests or writes the trace. Returns the
/// exit code: 0, 1 for an I/O error or a bug, 2 for arguments the game refused.
pub fn run(registry: Registry) -> ExitCode {
    let matches = Args::command().get_matches();
    let args = Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if !args.trace
        && let Some(flag) = TRACE_FLAGS
            .iter()
            .find(|id| matches.value_source(id) == Some(ValueSource::CommandLine))
    {
        Args::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                format!("--{flag} needs --trace"),
            )
            .exit();
    }
    run_with(&args, registry)
}

/// [`run`] with arguments already parsed.
pub fn run_with(args: &Args, registry: Registry) -> ExitCode {
    let result = if args.trace {
        let ids: Vec<&str> = registry.ids().collect();
        let only = match ids.as_slice() {
            [one] => Some(*one),
            _ => None,
        };
        if only.is_none() && args.trace_args.game.is_none() {
            Args::command()
                .error(
                    clap::error::ErrorKind::MissingRequiredArgument,
                    format!("--trace needs --game, one of: {}", ids.join(", ")),
                )
                .exit();
        }
        args.trace_args
            .config(only)
            .and_then(|config| {
                crate::trace::trace(&registry, &config, BufWriter::new(io::stdout().lock()))
            })
            .map_err(|e| match e {
                TraceError::Io(e) => Err(e),
                other => Ok(other),
            })
    } else {
        let mut host = crate::Host::new(registry);
        crate::serve_lines(
            &mut host,
            io::stdin().lock(),
            io::stdout().lock(),
            args.max_line,
        )
        .map_err(Err)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Err(e)) => {
            eprintln!("io error: {e}");
            ExitCode::FAILURE
        }
        Err(Ok(e)) => {
            eprintln!("{e}");
            ExitCode::from(e.exit_code())
        }
    }
}
