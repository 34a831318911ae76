//! The balance report behind `cargo run --release --example balance`: many seeded games
//! per configuration, played in parallel, summed up in Markdown and an SVG chart.
//!
//! A report is built from a list of [`Config`]s, each a name, a [`Kind`] and a closure
//! that plays one game from a [`GameSpec`] (its seed, and which seat the configuration's
//! subject sits in). The built-in list ([`configs()`]) has
//!
//! - `standard` and `app`: the two presets with the policy bot (the engine's timeout policy, `yut/RULES.md`,
//!   *The timeout policy*) at every seat, for the
//!   first-seat advantage, the game length and the throw frequencies;
//! - `app + augments`: the `app` preset with the whole augment layer
//!   (`yut_augments::app_options()`), the policy bot at every seat (it drafts the first
//!   candidate, the engine's timeout choice);
//! - `strong vs policy`: [`StrongBot`](yut::StrongBot) against
//!   [`PolicyBot`](yut::PolicyBot) under the standard preset, seats swapped every
//!   other game;
//! - one [`Kind::Holder`] row per augment (18) and per house rule (cushion, truce): the
//!   app base rules under `yut-augments` with the empty pack (`AugmentConfig::none()`, so
//!   no draft), where one side holds the augment or the house rule and the other does not,
//!   the policy bot at both seats, each seed played with the holder in seat 0 and then in
//!   seat 1 ([`holder`]). An augment is granted (`SideAugments::grant`) at the start of the
//!   holder's own turn where the draft would offer it — its 1st turn for a start augment,
//!   its 6th for a middle one, its 12th for a finish one — so its value is measured as it
//!   would be held in play (and the state stays one `Game::check_state` accepts); a house
//!   rule (`cushion`, `truce` set for the holder's side only) holds from the start. These
//!   rows play [`BalanceArgs::augment_games`] games each.
//!
//! **Determinism.** Each game's seed is derived from the report seed, the configuration's
//! name and the game's index (never from the thread that plays it), results are collected
//! in index order, and nothing time- or machine-dependent is written, so the same seed and
//! game count give a byte-identical report on any number of threads. Head-to-head games
//! come in pairs that share a seed with the seats swapped (common random numbers: the
//! first-turn draw is the same, so each bot gets both roles).
//!
//! ```
//! use examples::balance::{BalanceArgs, run};
//! let args = BalanceArgs { games: 2, augment_games: 2, seed: 3, threads: Some(1), progress: false };
//! let report = run(&args).unwrap();
//! assert!(report.markdown.starts_with("# Balance report"));
//! assert!(report.svg.starts_with("<svg"));
//! assert_eq!(run(&args).unwrap().markdown, report.markdown);
//! ```
//!
//! The parts: `configs` (what each row plays, and how one game is played), `run` (the
//! seeds, the games in parallel, the progress bar), `stats` (win rates, intervals, throw
//! frequencies against the exact table), `report` (the Markdown) and `chart` (the SVG).

use std::time::Duration;

use yut::ThrowStats;

mod chart;
mod configs;
mod report;
mod run;
mod stats;

pub use configs::{
    Config, EventHook, Held, Kind, PlayFn, baseline, configs, holder, play_game, play_game_with,
    strong_vs_policy, strong_vs_policy_with,
};
pub use run::{game_count, run_configs, spec};
pub use stats::{Rate, first_seat_rate, subject_rate};

/// What one game produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSummary {
    /// Seats in the game.
    pub seats: usize,
    /// The seat that moved first (the engine draws it at setup).
    pub first_seat: usize,
    /// The seats of the winning side.
    pub winners: Vec<usize>,
    /// The seat of the configuration's subject (head-to-head), as asked.
    pub subject_seat: usize,
    /// Turns started, over all sides.
    pub turns: u32,
    /// Actions applied (throws and moves of every seat).
    pub decisions: u32,
    /// Every throw's result, nak included.
    pub throws: ThrowStats,
    /// Holder rows: `augmentFired` events of the held augment or house rule for the
    /// holder's side.
    pub fired: u32,
    /// Decisions of the subject that needed a search (strong bot only), and the time
    /// they took. Never written to the report (it depends on the machine).
    pub searches: u64,
    /// See `searches`.
    pub search_time: Duration,
}

/// What one game of a configuration is asked to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's index within its configuration.
    pub index: u64,
    /// The engine seed.
    pub seed: u64,
    /// The seat of the subject (head-to-head): 0 for even indices, 1 for odd ones.
    pub subject_seat: usize,
}

/// The arguments of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BalanceArgs {
    /// Games per configuration (head-to-head: rounded up to an even number, so that each
    /// seed is played with the seats both ways).
    pub games: u64,
    /// Games per augment and house-rule row ([`Kind::Holder`]), rounded up to an even
    /// number the same way.
    pub augment_games: u64,
    /// The report seed.
    pub seed: u64,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// Whether to draw a progress bar on stderr (only drawn on a terminal).
    pub progress: bool,
}

/// A finished report.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// `balance.md`.
    pub markdown: String,
    /// `balance.svg`.
    pub svg: String,
    /// Every configuration's games, in index order.
    pub results: Vec<(String, Vec<GameSummary>)>,
}

impl Report {
    /// Searched decisions of subjects over the whole report, and their mean time (for
    /// the console only: times are not reproducible).
    pub fn search_timing(&self) -> (u64, Duration) {
        let (n, t) = self
            .results
            .iter()
            .flat_map(|(_, games)| games)
            .fold((0u64, Duration::ZERO), |(n, t), g| {
                (n + g.searches, t + g.search_time)
            });
        (n, if n == 0 { Duration::ZERO } else { t / n as u32 })
    }
}

/// Plays every configuration of [`configs()`] and writes the report.
pub fn run(args: &BalanceArgs) -> Result<Report, String> {
    run_configs(args, &configs())
}
