//! `cargo run --release --example play` — a whole game of 윷놀이 (Yut Nori) in the terminal.
//!
//! With no arguments two bots play the standard rules from seed 1, paced so a person can
//! follow; `--fast` removes the pacing, `--humans 0` puts a person at seat 0, `--help`
//! lists every rule option. `--preset app` plays the app rules with the whole augment
//! layer (the draft at each side's 1st, 6th and 12th turns, the cushion, the truce);
//! `--no-augments` leaves the layer out, `--augments ID,ID,...`, `--cushion`/`--no-cushion`
//! and `--truce`/`--no-truce` choose a pack. Invalid option combinations print the engine's typed error
//! and exit with code 2.

#![forbid(unsafe_code)]

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use clap::Parser;
use examples::play::{PlayArgs, PlayError, run};

fn main() -> ExitCode {
    let args = PlayArgs::parse();
    let stdout = io::stdout();
    let terminal = stdout.is_terminal();
    match run(&args, terminal, io::stdin().lock(), stdout.lock()) {
        Ok(_) => ExitCode::SUCCESS,
        // The reader went away (`| head`): nothing more to say.
        Err(PlayError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(e.exit_code())
        }
    }
}
