//! `cargo run --release --example host` — a JSON-lines game host over stdin/stdout.
//!
//! Without flags it serves requests, one JSON object per line (`{"id":1,"op":"games"}`),
//! and answers each with one line; see the `game-host` crate for the protocol. With `--trace`
//! it plays seeded games between bots and writes them as JSON lines instead:
//!
//! ```text
//! cargo run --release --example host -- --trace --games 10 --seed 1 --illegal 5 --timeouts 5
//! cargo run --release --example host -- --trace --preset app   # yut-augments, the whole layer
//! ```

#![forbid(unsafe_code)]

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser};
use examples::trace::TraceArgs;

/// The flags that only mean something with `--trace`.
const TRACE_FLAGS: [&str; 10] = [
    "games", "seed", "players", "mode", "preset", "game", "options", "timeouts", "illegal", "bot",
];

/// Serve JSON-lines requests on stdin/stdout, or write a trace of bot games (`--trace`).
#[derive(Parser, Debug)]
#[command(name = "host")]
struct Cli {
    /// Play seeded bot games and write them as JSON lines instead of serving requests.
    #[arg(long)]
    trace: bool,
    /// The longest request line served, in bytes; a longer one is answered `TOO_LARGE`
    /// (and read to its end without being kept).
    #[arg(long, value_name = "BYTES", default_value_t = game_host::DEFAULT_MAX_LINE)]
    max_line: usize,
    #[command(flatten)]
    args: TraceArgs,
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if !cli.trace
        && let Some(flag) = TRACE_FLAGS
            .iter()
            .find(|id| matches.value_source(id) == Some(ValueSource::CommandLine))
    {
        Cli::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                format!("--{flag} needs --trace"),
            )
            .exit();
    }
    let result = if cli.trace {
        examples::trace(&cli.args, BufWriter::new(io::stdout().lock())).map_err(|e| match e {
            examples::trace::TraceError::Io(e) => Err(e),
            other => Ok(other),
        })
    } else {
        game_host::serve_with(io::stdin().lock(), io::stdout().lock(), cli.max_line).map_err(Err)
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
