//! `cargo run --release --example schema -- DIR` — writes the JSON Schemas of every game's
//! options, actions, views, events and outcomes into `DIR/GAME/TYPE.json`
//! (`DIR/yut/view.json`, `DIR/rps/action.json`, ...), so a host can generate its types.

#![forbid(unsafe_code)]

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Write the JSON Schemas of every registered game, one file per game and wire type.
#[derive(Parser, Debug)]
#[command(name = "schema")]
struct Cli {
    /// The directory to write into (created if needed).
    dir: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match examples::schema::write_schemas(&game_host::registry(), &cli.dir) {
        Ok(files) => {
            // The files are written; listing them is a courtesy (a closed pipe is fine).
            let mut out = io::stdout().lock();
            for f in files {
                if writeln!(out, "{}", f.display()).is_err() {
                    break;
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", cli.dir.display());
            ExitCode::FAILURE
        }
    }
}
