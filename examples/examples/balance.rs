//! `cargo run --release --example balance -- [--games N] [--augment-games M] [--seed S] [--out DIR] [--threads T]`
//! — the balance report: plays many seeded games per configuration in parallel and writes
//! `DIR/balance.md` and the chart `DIR/balance.svg` (see `examples::balance`): first-seat
//! advantage (standard, app, app with the augment layer), game length, throw frequencies,
//! the strong bot against the policy bot, and for each of the 18 augments and the two
//! house rules the win rate of the side that holds it.
//!
//! The same `--games`, `--augment-games` and `--seed` give byte-identical files, whatever
//! `--threads`. The
//! console also gets the headline figures and the strong bot's time per decision (not
//! written to the report: it depends on the machine).

#![forbid(unsafe_code)]

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use examples::balance::{
    BalanceArgs, Kind, configs, first_seat_rate, game_count, run_configs, subject_rate,
};

/// The default games per augment and house-rule row (95% intervals of about ±0.45
/// points). The whole default report, 1,008,000 games, takes about 50 s of CPU time in a
/// release build (a policy-bot game takes about 40 µs; the strong bot's 2000 games about
/// 10 s): well under two minutes of wall-clock time on two cores, even shared.
const AUGMENT_GAMES: u64 = 50_000;

/// Simulate seeded games and write the balance report (Markdown and SVG).
#[derive(Parser, Debug)]
#[command(name = "balance")]
struct Cli {
    /// Games per configuration (head-to-head rows round up to an even number).
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Games per augment and house-rule row (rounded up to an even number).
    #[arg(long, default_value_t = AUGMENT_GAMES)]
    augment_games: u64,
    /// The report seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write balance.md and balance.svg (created if needed).
    #[arg(long, default_value = "target/balance")]
    out: PathBuf,
    /// Worker threads [default: one per core].
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let args = BalanceArgs {
        games: cli.games,
        augment_games: cli.augment_games,
        seed: cli.seed,
        threads: cli.threads,
        progress: !cli.quiet && io::stderr().is_terminal(),
    };
    let list = configs();
    let total: u64 = list.iter().map(|c| game_count(&args, c)).sum();
    println!(
        "balance: {} configurations, {total} games ({} per baseline and head-to-head row, {} per augment and house-rule row), seed {}",
        list.len(),
        game_count(&args, &list[0]),
        args.augment_games + args.augment_games % 2,
        args.seed
    );
    let started = std::time::Instant::now();
    let report = match run_configs(&args, &list) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("balance: {e}");
            return ExitCode::from(2);
        }
    };
    let elapsed = started.elapsed();
    let write = fs::create_dir_all(&cli.out)
        .and_then(|()| fs::write(cli.out.join("balance.md"), &report.markdown))
        .and_then(|()| fs::write(cli.out.join("balance.svg"), &report.svg));
    if let Err(e) = write {
        eprintln!("balance: {}: {e}", cli.out.display());
        return ExitCode::FAILURE;
    }
    // The files are written; the summary is a courtesy (a closed pipe is fine).
    let _ = summary(&mut io::stdout().lock(), &cli, &list, &report, elapsed);
    ExitCode::SUCCESS
}

/// The headline figures, the strong bot's time per searched decision, and where the
/// files went.
fn summary(
    out: &mut impl Write,
    cli: &Cli,
    list: &[examples::balance::Config],
    report: &examples::balance::Report,
    elapsed: std::time::Duration,
) -> io::Result<()> {
    for (config, (_, games)) in list.iter().zip(&report.results) {
        let (label, rate) = match &config.kind {
            Kind::Baseline => ("first seat wins", first_seat_rate(games)),
            Kind::HeadToHead { .. } => ("subject wins", subject_rate(games)),
            Kind::Holder { .. } => ("holder wins", subject_rate(games)),
        };
        let (lo, hi) = rate.interval();
        writeln!(
            out,
            "{:>22}: {label} {}/{} = {:.1}% (95% CI {:.1}% – {:.1}%)",
            config.name,
            rate.wins,
            rate.games,
            100.0 * rate.value(),
            100.0 * lo,
            100.0 * hi
        )?;
    }
    let (searches, mean) = report.search_timing();
    if searches > 0 {
        writeln!(
            out,
            "strong bot: {searches} searched decisions, {:.3} ms each on average",
            mean.as_secs_f64() * 1e3
        )?;
    }
    writeln!(
        out,
        "wrote {} and {} in {:.1} s",
        cli.out.join("balance.md").display(),
        cli.out.join("balance.svg").display(),
        elapsed.as_secs_f64()
    )?;
    Ok(())
}
