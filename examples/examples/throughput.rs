//! `cargo run --release --example throughput -- --games N [--players K] [--preset standard|app] [--seed S]`
//! — plays N uniform-random games on one thread and prints, as its last line,
//! `games/s: G decisions/s: D decisions/game: M` (see `examples::throughput`).
//!
//! ```text
//! cargo run --release --example throughput -- --games 100000 --players 2 --preset app --seed 1
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
