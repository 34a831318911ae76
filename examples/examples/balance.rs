//! `cargo run --release --example balance -- [--games N] [--seed S] [--out DIR] [--threads T]`
//! — the balance report: plays many seeded games per configuration in parallel and writes
//! `DIR/balance.md` and the chart `DIR/balance.svg` (see `examples::balance`).
//!
//! The same `--games` and `--seed` give byte-identical files, whatever `--threads`. The
//! console also gets the headline figures and the strong bot's time per decision (not
//! written to the report: it depends on the machine).

#![forbid(unsafe_code)]

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use examples::balance::{BalanceArgs, Kind, configs, first_seat_rate, run_configs, subject_rate};

/// Simulate seeded games and write the balance report (Markdown and SVG).
#[derive(Parser, Debug)]
#[command(name = "balance")]
struct Cli {
    /// Games per configuration (head-to-head rows round up to an even number).
    #[arg(long, default_value_t = 2000)]
    games: u64,
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
        seed: cli.seed,
        threads: cli.threads,
        progress: !cli.quiet && io::stderr().is_terminal(),
    };
    let list = configs();
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
        };
        let (lo, hi) = rate.interval();
        writeln!(
            out,
            "{:>18}: {label} {}/{} = {:.1}% (95% CI {:.1}% – {:.1}%)",
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
