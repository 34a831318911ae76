//! `cargo run --release --example throughput -- --games N [--game yut|one-card] [--players K] [--preset standard|app] [--seed S] [--threads T]`
//! — plays N uniform-random games on T threads (default 1), prints a line per thread and,
//! as its last line, the whole run's `games/s: G decisions/s: D decisions/game: M` (see
//! `examples::throughput`). The games played do not depend on T.
//!
//! ```text
//! cargo run --release --example throughput -- --games 100000 --players 2 --preset app --seed 1
//! cargo run --release --example throughput -- --games 200000 --threads 2
//! ```

#![forbid(unsafe_code)]

use std::io;
use std::process::ExitCode;

use clap::Parser;
use examples::throughput::{ReportError, ThroughputArgs, report};

fn main() -> ExitCode {
    let args = ThroughputArgs::parse();
    match report(&args, &mut io::stdout().lock()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(ReportError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e @ ReportError::Engine(_)) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
