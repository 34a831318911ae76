//! Playing the report's games: a seed per game, the games in parallel (rayon), the
//! results in index order, a progress bar.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::chart::chart;
use super::report::markdown;
use super::{BalanceArgs, Config, GameSpec, GameSummary, Kind, Report};

/// FNV-1a: a fixed hash of a configuration's name (std's hasher may change between
/// releases; this one never does).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64's output function: spreads nearby inputs over all 64 bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The spec of game `index` of a configuration. Head-to-head games come in pairs with one
/// seed and the subject in seat 0, then seat 1.
pub fn spec(seed: u64, config: &Config, index: u64) -> GameSpec {
    let base = mix(seed ^ fnv1a(&config.name));
    if config.kind.paired() {
        GameSpec {
            index,
            seed: mix(base.wrapping_add(index / 2)),
            subject_seat: (index % 2) as usize,
        }
    } else {
        GameSpec {
            index,
            seed: mix(base.wrapping_add(index)),
            subject_seat: 0,
        }
    }
}

/// Games to play for `config`: head-to-head and holder counts are made even.
pub fn game_count(args: &BalanceArgs, config: &Config) -> u64 {
    let even = |n: u64| n + n % 2;
    match config.kind {
        Kind::Baseline => args.games,
        Kind::HeadToHead { .. } => even(args.games),
        Kind::Holder { .. } => even(args.augment_games),
    }
}

/// Plays every configuration of `configs` and writes the report.
pub fn run_configs(args: &BalanceArgs, configs: &[Config]) -> Result<Report, String> {
    if args.games == 0 {
        return Err("--games must be at least 1".to_owned());
    }
    if args.augment_games == 0
        && configs
            .iter()
            .any(|c| matches!(c.kind, Kind::Holder { .. }))
    {
        return Err("--augment-games must be at least 1".to_owned());
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t.max(1));
    }
    let pool = builder.build().map_err(|e| e.to_string())?;
    let total: u64 = configs.iter().map(|c| game_count(args, c)).sum();
    let bar = if args.progress {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>16} [{bar:40}] {pos}/{len} games {elapsed_precise} (eta {eta})",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    let mut results = Vec::with_capacity(configs.len());
    for config in configs {
        bar.set_prefix(config.name.clone());
        let n = game_count(args, config);
        let games: Result<Vec<GameSummary>, String> = pool.install(|| {
            (0..n)
                .into_par_iter()
                .map(|i| {
                    let summary = (config.play)(&spec(args.seed, config, i))
                        .map_err(|e| format!("{}: {e}", config.name));
                    bar.inc(1);
                    summary
                })
                .collect()
        });
        results.push((config.name.clone(), games?));
    }
    bar.finish_and_clear();
    let markdown = markdown(args, configs, &results);
    let svg = chart(configs, &results)?;
    Ok(Report {
        markdown,
        svg,
        results,
    })
}
