//! `cargo run --release --example ladder -- --game G --games N --seed S [--players K]
//! [--bots a,b,...] [--iterations I] [--json]` — the bot ladder: every pair of the game's
//! bots on seeded deals, seats rotated and each deal played both ways (see
//! `examples::ladder`). Prints a table, or with `--json` one JSON object per pair (`bots`,
//! `games`, `wins`, `draws`, `winRate`, `ci95` as `[low, high]`, `msPerDecision`,
//! `opponentMsPerDecision`), one a line.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;
use examples::ladder::{self, LadderArgs};

/// The bot ladder: win rates of every pair of a game's bots.
#[derive(Parser)]
struct Args {
    /// The game: liars-dice, one-card, pig, rps or yut.
    #[arg(long)]
    game: String,
    /// Games per pair (each deal is played both ways, so an odd count gets one more).
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// The first deal's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// The bots to pair, comma-separated: random, policy, pimc, ismcts, ismcts-cheat
    /// (default: every one the game has).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// ISMCTS iterations per decision (for `ismcts` and `ismcts-cheat`; default: the
    /// game's own, as its hosts run it).
    #[arg(long)]
    iterations: Option<u32>,
    /// One JSON object per pair instead of the table.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let ladder_args = LadderArgs {
        game: args.game,
        games: args.games,
        seed: args.seed,
        players: args.players,
        bots: args.bots,
        iterations: args.iterations,
    };
    match ladder::run(&ladder_args) {
        Ok(results) if args.json => {
            for r in &results {
                println!("{}", r.to_json());
            }
            ExitCode::SUCCESS
        }
        Ok(results) => {
            print!("{}", ladder::table(&ladder_args.game, &results));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ladder: {e}");
            ExitCode::from(2)
        }
    }
}
