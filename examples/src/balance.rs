//! The balance report behind `cargo run --release --example balance`: many seeded games
//! per configuration, played in parallel, summed up in Markdown and an SVG chart.
//!
//! A report is built from a list of [`Config`]s, each a name, a [`Kind`] and a closure
//! that plays one game from a [`GameSpec`] (its seed, and which seat the configuration's
//! subject sits in). The built-in list ([`configs`]) has
//!
//! - `standard` and `app`: the two presets with the 8.5 policy bot at every seat, for the
//!   first-seat advantage, the game length and the throw frequencies;
//! - `app + augments`: the `app` preset with the whole augment layer
//!   (`yut_augments::app_options()`), the policy bot at every seat (it drafts the first
//!   candidate, the engine's timeout choice);
//! - `strong vs policy`: [`StrongBot`] against [`PolicyBot`] under the standard preset,
//!   seats swapped every other game;
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

use std::cell::Cell;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use game_core::{Bot, Game};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use yut::rules::{RuleOptions, WithRules};
use yut::{
    PolicyBot, Preset, Rules, StrongBot, StrongParams, Throw, ThrowStats, Yut, YutAction, YutEvent,
    YutOptions, YutState,
};
use yut_augments::{Augment, AugmentConfig, AugmentEvent, Augments, HouseRule, Source};

/// Actions after which a game counts as stuck (no real game comes near it).
const MAX_ACTIONS: u32 = 100_000;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

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

/// What a configuration measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The same player at every seat: first-seat advantage, length, throw frequencies.
    Baseline,
    /// The subject (a bot) against the rest.
    HeadToHead {
        /// What the subject is, for the report ("strong bot").
        subject: String,
        /// What it plays against ("policy bot").
        opponent: String,
    },
    /// The side that holds an augment or a house rule against the side that does not,
    /// the policy bot at both seats; the holder is the subject.
    Holder {
        /// What the holder holds.
        held: Held,
    },
}

impl Kind {
    /// Whether the games come in pairs with the subject in seat 0, then seat 1.
    pub fn paired(&self) -> bool {
        !matches!(self, Kind::Baseline)
    }
}

/// What the holder of a [`Kind::Holder`] row holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// An augment, from the side's turn where the draft would offer it.
    Augment(Augment),
    /// A house rule, from the start.
    House(HouseRule),
}

impl Held {
    /// The eighteen augments in table order, then the cushion and the truce.
    pub fn all() -> Vec<Held> {
        Augment::ALL
            .into_iter()
            .map(Held::Augment)
            .chain([HouseRule::Cushion, HouseRule::Truce].map(Held::House))
            .collect()
    }

    /// The id (`first-step`, `cushion`, ...).
    pub fn id(self) -> &'static str {
        match self {
            Held::Augment(a) => a.id(),
            Held::House(HouseRule::Cushion) => "cushion",
            Held::House(HouseRule::Truce) => "truce",
        }
    }

    /// The Korean name.
    pub fn name(self) -> &'static str {
        match self {
            Held::Augment(a) => a.name(),
            Held::House(h) => h.name(),
        }
    }

    /// What it is, for the report: `start (turn 1), unlimited`, `house rule`.
    pub fn what(self) -> String {
        match self {
            Held::Augment(a) => {
                let uses = match a.uses() {
                    None => "unlimited".to_owned(),
                    Some(1) => "once".to_owned(),
                    Some(n) => format!("{n} uses"),
                };
                format!("{} (turn {}), {uses}", a.slot().wire(), a.slot().turn())
            }
            Held::House(_) => "house rule (from the start)".to_owned(),
        }
    }

    /// The `augmentFired` source it is announced as.
    fn source(self) -> Source {
        match self {
            Held::Augment(a) => Source::Augment(a),
            Held::House(h) => Source::House(h),
        }
    }
}

/// Plays one game of a configuration.
pub type PlayFn = dyn Fn(&GameSpec) -> Result<GameSummary, String> + Send + Sync;

/// One row of the report: a named way to play games.
#[derive(Clone)]
pub struct Config {
    /// Name, unique in the list (it also seeds the games).
    pub name: String,
    /// What it measures.
    pub kind: Kind,
    /// The base options, for the exact throw table and the report.
    pub options: YutOptions,
    /// Plays one game.
    pub play: Arc<PlayFn>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
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

/// Plays one game of `game` under `options`, one bot per seat, from `seed`.
pub fn play_game<R: Rules>(
    game: &Yut<R>,
    options: &R::Options,
    seed: u64,
    bots: &mut [&mut dyn Bot<Yut<R>>],
) -> Result<GameSummary, String> {
    play_game_with(game, options, seed, bots, &mut |_| {}, &mut |_| {})
}

/// What [`play_game_with`] shows each action's events to.
pub type EventHook<'a, R> = dyn FnMut(&[YutEvent<<R as Rules>::Event>]) + 'a;

/// [`play_game`] with two hooks: `before` may change the state before every decision
/// (the holder rows grant an augment there), `after` sees each action's events.
pub fn play_game_with<R: Rules>(
    game: &Yut<R>,
    options: &R::Options,
    seed: u64,
    bots: &mut [&mut dyn Bot<Yut<R>>],
    before: &mut dyn FnMut(&mut YutState<R>),
    after: &mut EventHook<'_, R>,
) -> Result<GameSummary, String> {
    let players: Vec<String> = (1..=bots.len()).map(|i| format!("p{i}")).collect();
    let mut state: YutState<R> = game
        .setup(options, &players, seed, 0)
        .map_err(|e| format!("setup: {e}"))?;
    let first_seat = state.board.current_seat();
    let mut decisions = 0;
    let mut events = Vec::new();
    loop {
        before(&mut state);
        let Some(&seat) = game.to_act(&state).first() else {
            break;
        };
        decisions += 1;
        if decisions > MAX_ACTIONS {
            return Err(format!("seed {seed}: no end after {MAX_ACTIONS} actions"));
        }
        let action = bots[seat]
            .choose(game, &state, seat)
            .unwrap_or(YutAction::Throw);
        game.apply_seat_into(&mut state, seat, &action, 0, &mut events)
            .map_err(|e| format!("seed {seed}: seat {seat} {action:?}: {e}"))?;
        after(&events);
    }
    let outcome = game
        .outcome(&state)
        .ok_or_else(|| format!("seed {seed}: no outcome"))?;
    let winners = outcome
        .winners
        .iter()
        .filter_map(|p| players.iter().position(|q| q == p))
        .collect();
    Ok(GameSummary {
        seats: players.len(),
        first_seat,
        winners,
        subject_seat: 0,
        turns: state.board.sides.iter().map(|s| u32::from(s.turns)).sum(),
        decisions,
        throws: state.board.stats.clone(),
        fired: 0,
        searches: 0,
        search_time: Duration::ZERO,
    })
}

/// [`StrongBot`] with a stopwatch on the decisions it searches.
struct Timed {
    bot: StrongBot,
    time: Duration,
}

impl<R: Rules> Bot<Yut<R>> for Timed {
    fn choose(
        &mut self,
        game: &Yut<R>,
        state: &YutState<R>,
        seat: usize,
    ) -> Option<YutAction<R::Action>> {
        let before = self.bot.stats().searched;
        let start = Instant::now();
        let action = self.bot.choose(game, state, seat);
        if self.bot.stats().searched > before {
            self.time += start.elapsed();
        }
        action
    }
}

/// A two-player baseline: the policy bot at both seats, under the rules `game` and
/// `options`.
pub fn baseline<R: Rules>(name: &str, game: Yut<R>, options: R::Options) -> Config {
    let base = options.base().clone();
    Config {
        name: name.to_owned(),
        kind: Kind::Baseline,
        options: base,
        play: Arc::new(move |spec: &GameSpec| {
            let (mut a, mut b) = (PolicyBot::default(), PolicyBot::default());
            play_game(&game, &options, spec.seed, &mut [&mut a, &mut b])
        }),
    }
}

/// The strong bot against the policy bot, two players, seats swapped by `spec`.
pub fn strong_vs_policy<R: Rules>(name: &str, game: Yut<R>, options: R::Options) -> Config {
    strong_vs_policy_with(name, game, options, StrongParams::default())
}

/// [`strong_vs_policy`] with the strong bot's parameters given.
pub fn strong_vs_policy_with<R: Rules>(
    name: &str,
    game: Yut<R>,
    options: R::Options,
    params: StrongParams,
) -> Config {
    let base = options.base().clone();
    Config {
        name: name.to_owned(),
        kind: Kind::HeadToHead {
            subject: "strong bot".to_owned(),
            opponent: "policy bot".to_owned(),
        },
        options: base,
        play: Arc::new(move |spec: &GameSpec| {
            let mut strong = Timed {
                bot: StrongBot::with_params(spec.seed ^ 0x5EED_0F57_A0B0_7000, params),
                time: Duration::ZERO,
            };
            let mut policy = PolicyBot::default();
            let mut seats: [&mut dyn Bot<Yut<R>>; 2] = if spec.subject_seat == 0 {
                [&mut strong, &mut policy]
            } else {
                [&mut policy, &mut strong]
            };
            let mut summary = play_game(&game, &options, spec.seed, &mut seats)?;
            summary.subject_seat = spec.subject_seat;
            summary.searches = strong.bot.stats().searched;
            summary.search_time = strong.time;
            Ok(summary)
        }),
    }
}

/// The row of `held`: the app base rules under `yut-augments` with the empty pack, the
/// policy bot at both seats, the holder's side (the one of seat `spec.subject_seat`)
/// holding `held` and the other side not (see the module documentation). Named
/// `augment ID` or `house ID`.
///
/// ```
/// use examples::balance::{Held, GameSpec, holder};
/// let config = holder(Held::Augment(yut_augments::Augment::YutLeap));
/// assert_eq!(config.name, "augment yut-leap");
/// let a = (config.play)(&GameSpec { index: 0, seed: 9, subject_seat: 0 }).unwrap();
/// let b = (config.play)(&GameSpec { index: 1, seed: 9, subject_seat: 1 }).unwrap();
/// assert_eq!((a.subject_seat, b.subject_seat), (0, 1));
/// assert_eq!(a.first_seat, b.first_seat); // one seed, the seats swapped
/// ```
pub fn holder(held: Held) -> Config {
    let game = yut_augments::game();
    let options = WithRules {
        base: Preset::App.options(),
        rules: AugmentConfig::none(),
    };
    let base = options.base.clone();
    let name = match held {
        Held::Augment(_) => format!("augment {}", held.id()),
        Held::House(_) => format!("house {}", held.id()),
    };
    Config {
        name,
        kind: Kind::Holder { held },
        options: base,
        play: Arc::new(move |spec: &GameSpec| {
            let (mut a, mut b) = (PolicyBot::default(), PolicyBot::default());
            let seat = spec.subject_seat as u8;
            let side: Cell<Option<usize>> = Cell::new(None);
            let mut given = false;
            let mut fired = 0u32;
            let mut before = |state: &mut YutState<Augments>| {
                if given {
                    return;
                }
                let s = side.get().unwrap_or_else(|| {
                    state
                        .board
                        .sides
                        .iter()
                        .position(|s| s.members.contains(&seat))
                        .unwrap_or(0)
                });
                side.set(Some(s));
                let (Some(board_side), Some(mine)) =
                    (state.board.sides.get(s), state.rules.sides.get_mut(s))
                else {
                    return;
                };
                match held {
                    Held::Augment(a) if board_side.turns >= a.slot().turn() => mine.grant(a),
                    Held::Augment(_) => return,
                    Held::House(HouseRule::Cushion) => mine.cushion = true,
                    Held::House(HouseRule::Truce) => mine.truce = true,
                }
                given = true;
            };
            let source = held.source();
            let mut after = |events: &[YutEvent<AugmentEvent>]| {
                for e in events {
                    if let YutEvent::Rule(AugmentEvent::AugmentFired { side: s, id, .. }) = e
                        && *id == source
                        && side.get() == Some(usize::from(*s))
                    {
                        fired += 1;
                    }
                }
            };
            let mut summary = play_game_with(
                &game,
                &options,
                spec.seed,
                &mut [&mut a, &mut b],
                &mut before,
                &mut after,
            )?;
            summary.subject_seat = spec.subject_seat;
            summary.fired = fired;
            Ok(summary)
        }),
    }
}

/// The built-in configurations (see the module documentation).
pub fn configs() -> Vec<Config> {
    let mut list = vec![
        baseline("standard", Yut::standard(), Preset::Standard.options()),
        baseline("app", Yut::standard(), Preset::App.options()),
        baseline(
            "app + augments",
            yut_augments::game(),
            yut_augments::app_options(),
        ),
        strong_vs_policy(
            "strong vs policy",
            Yut::standard(),
            Preset::Standard.options(),
        ),
    ];
    list.extend(Held::all().into_iter().map(holder));
    list
}

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

/// Plays every configuration of [`configs`] and writes the report.
pub fn run(args: &BalanceArgs) -> Result<Report, String> {
    run_configs(args, &configs())
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

/// A share with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Successes.
    pub wins: u64,
    /// Trials.
    pub games: u64,
}

impl Rate {
    /// The share, 0 for no trials.
    pub fn value(self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// The 95% Wilson score interval (good at small counts and near 0 or 1).
    ///
    /// ```
    /// let r = examples::balance::Rate { wins: 60, games: 100 };
    /// let (lo, hi) = r.interval();
    /// assert!((lo - 0.502).abs() < 0.001 && (hi - 0.691).abs() < 0.001);
    /// ```
    pub fn interval(self) -> (f64, f64) {
        if self.games == 0 {
            return (0.0, 1.0);
        }
        let n = self.games as f64;
        let p = self.value();
        let z2 = Z95 * Z95;
        let center = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        ((center - half).max(0.0), (center + half).min(1.0))
    }
}

/// How often the seat that moved first won.
pub fn first_seat_rate(games: &[GameSummary]) -> Rate {
    Rate {
        wins: games
            .iter()
            .filter(|g| g.winners.contains(&g.first_seat))
            .count() as u64,
        games: games.len() as u64,
    }
}

/// How often the subject won.
pub fn subject_rate(games: &[GameSummary]) -> Rate {
    Rate {
        wins: games
            .iter()
            .filter(|g| g.winners.contains(&g.subject_seat))
            .count() as u64,
        games: games.len() as u64,
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn interval_text(rate: Rate) -> String {
    let (lo, hi) = rate.interval();
    format!("{} – {}", pct(lo), pct(hi))
}

fn throw_count(stats: &ThrowStats, t: Option<Throw>) -> u64 {
    u64::from(match t {
        None => stats.nak,
        Some(Throw::Do) => stats.r#do,
        Some(Throw::Gae) => stats.gae,
        Some(Throw::Geol) => stats.geol,
        Some(Throw::Yut) => stats.yut,
        Some(Throw::Mo) => stats.mo,
        Some(Throw::Backdo) => stats.backdo,
    })
}

fn add_throws(sum: &mut ThrowStats, more: &ThrowStats) {
    sum.r#do += more.r#do;
    sum.gae += more.gae;
    sum.geol += more.geol;
    sum.yut += more.yut;
    sum.mo += more.mo;
    sum.backdo += more.backdo;
    sum.nak += more.nak;
}

fn describe_options(o: &YutOptions) -> String {
    let sticks = match o.stick_model {
        yut::StickModel::Realistic => "realistic sticks (p = 0.6)",
        yut::StickModel::Fair => "fair sticks (p = 0.5)",
    };
    let backdo_from_do = match o.backdo_from_do {
        yut::BackdoFromDo::Chammeogi => "chammeogi",
        yut::BackdoFromDo::Finish => "finish",
        yut::BackdoFromDo::Home => "home",
    };
    format!(
        "{sticks}, {} pieces, backdo {}, backdoFromDo {backdo_from_do}, nak {}%",
        o.pieces,
        if o.backdo { "on" } else { "off" },
        o.nak_percent
    )
}

/// The Markdown report.
fn markdown(
    args: &BalanceArgs,
    configs: &[Config],
    results: &[(String, Vec<GameSummary>)],
) -> String {
    let mut md = String::new();
    let w = &mut md;
    let _ = writeln!(w, "# Balance report\n");
    let holders: Vec<(&Config, &[GameSummary])> = configs
        .iter()
        .zip(results)
        .filter(|(c, _)| matches!(c.kind, Kind::Holder { .. }))
        .map(|(c, (_, games))| (c, games.as_slice()))
        .collect();
    let _ = writeln!(
        w,
        "Seed {}, {} games per configuration and {} per augment and house-rule row \
         (head-to-head and holder rows: rounded up to an even number, each seed played with \
         the seats both ways). Two players. 95% intervals are Wilson score intervals. \
         Regenerate with \
         `cargo run --release --example balance -- --games {} --augment-games {} --seed {}`.\n",
        args.seed, args.games, args.augment_games, args.games, args.augment_games, args.seed
    );
    let _ = writeln!(w, "| configuration | rules | players |\n|---|---|---|");
    for c in configs {
        let players = match &c.kind {
            Kind::Baseline => "policy bot × 2".to_owned(),
            Kind::HeadToHead { subject, opponent } => format!("{subject} vs {opponent}"),
            Kind::Holder { .. } => continue,
        };
        let _ = writeln!(
            w,
            "| {} | {} | {players} |",
            c.name,
            describe_options(&c.options)
        );
    }
    if let Some((c, _)) = holders.first() {
        let _ = writeln!(
            w,
            "| augment … / house … ({} rows) | {}; `yut-augments` with no draft | policy bot × 2, one side holding the augment or house rule |",
            holders.len(),
            describe_options(&c.options)
        );
    }

    let _ = writeln!(w, "\n## First-seat advantage\n");
    let _ = writeln!(
        w,
        "Win rate of the seat that moves first (the engine draws it at setup), with the \
         8.5 policy bot at both seats.\n"
    );
    let _ = writeln!(
        w,
        "| configuration | games | first seat won | win rate | 95% interval |\n|---|---:|---:|---:|---|"
    );
    for (c, (_, games)) in configs.iter().zip(results) {
        if c.kind != Kind::Baseline {
            continue;
        }
        let r = first_seat_rate(games);
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} |",
            c.name,
            r.games,
            r.wins,
            pct(r.value()),
            interval_text(r)
        );
    }

    let _ = writeln!(w, "\n## Game length\n");
    let _ = writeln!(
        w,
        "Turns are turns started by all sides together; decisions are all actions applied \
         (throws and moves).\n"
    );
    let _ = writeln!(
        w,
        "| configuration | games | mean turns | min | max | mean decisions |\n|---|---:|---:|---:|---:|---:|"
    );
    for (c, (_, games)) in configs.iter().zip(results) {
        if matches!(c.kind, Kind::Holder { .. }) {
            continue;
        }
        let n = games.len().max(1) as f64;
        let turns: u64 = games.iter().map(|g| u64::from(g.turns)).sum();
        let decisions: u64 = games.iter().map(|g| u64::from(g.decisions)).sum();
        let min = games.iter().map(|g| g.turns).min().unwrap_or(0);
        let max = games.iter().map(|g| g.turns).max().unwrap_or(0);
        let _ = writeln!(
            w,
            "| {} | {} | {:.1} | {min} | {max} | {:.1} |",
            c.name,
            games.len(),
            turns as f64 / n,
            decisions as f64 / n
        );
    }

    let _ = writeln!(w, "\n## Throw frequencies\n");
    let _ = writeln!(
        w,
        "Every throw of every game of the baseline configurations (independent seeds; the \
         head-to-head pairs share their seeds, so their throws are not independent), \
         against the exact table of section 5.1 (`yut::Throw::probability`). z is \
         (observed − expected) / standard error; |z| > 3 would point at a bias.\n"
    );
    for (c, (_, games)) in configs.iter().zip(results) {
        if c.kind != Kind::Baseline {
            continue;
        }
        let mut stats = ThrowStats::default();
        for g in games {
            add_throws(&mut stats, &g.throws);
        }
        let total: u64 = [None]
            .into_iter()
            .chain(Throw::ALL.into_iter().map(Some))
            .map(|t| throw_count(&stats, t))
            .sum();
        let _ = writeln!(
            w,
            "### {} ({total} throws; {})\n",
            c.name,
            describe_options(&c.options)
        );
        let _ = writeln!(
            w,
            "| result | count | observed | exact | difference | z |\n|---|---:|---:|---:|---:|---:|"
        );
        let nak = f64::from(c.options.nak_percent) / 100.0;
        let rows = Throw::ALL
            .into_iter()
            .map(|t| {
                (
                    format!("{} ({})", t.wire(), t.name()),
                    Some(t),
                    (1.0 - nak) * t.probability(c.options.stick_model, c.options.backdo),
                )
            })
            .chain((nak > 0.0).then(|| ("nak (낙)".to_owned(), None, nak)));
        for (label, t, exact) in rows {
            let count = throw_count(&stats, t);
            let observed = if total == 0 {
                0.0
            } else {
                count as f64 / total as f64
            };
            let se = (exact * (1.0 - exact) / total.max(1) as f64).sqrt();
            let z = if se > 0.0 {
                (observed - exact) / se
            } else {
                0.0
            };
            let _ = writeln!(
                w,
                "| {label} | {count} | {:.4} | {exact:.4} | {:+.2} pp | {z:+.2} |",
                observed,
                100.0 * (observed - exact)
            );
        }
        let _ = writeln!(w);
    }

    let _ = writeln!(w, "## Head to head\n");
    let _ = writeln!(
        w,
        "Win rate of the subject, seats swapped every other game (each seed played both \
         ways). The interval excludes 50% when the difference is significant at 5%.\n"
    );
    let _ = writeln!(
        w,
        "| configuration | subject | opponent | games | subject won | win rate | 95% interval | excludes 50% |\n|---|---|---|---:|---:|---:|---|---|"
    );
    for (c, (_, games)) in configs.iter().zip(results) {
        let Kind::HeadToHead { subject, opponent } = &c.kind else {
            continue;
        };
        let r = subject_rate(games);
        let (lo, hi) = r.interval();
        let excludes = if lo > 0.5 || hi < 0.5 { "yes" } else { "no" };
        let _ = writeln!(
            w,
            "| {} | {subject} | {opponent} | {} | {} | {} | {} | {excludes} |",
            c.name,
            r.games,
            r.wins,
            pct(r.value()),
            interval_text(r)
        );
    }
    if !holders.is_empty() {
        let _ = writeln!(w, "\n## Augments and house rules\n");
        let _ = writeln!(
            w,
            "Win rate of the side that holds the augment or the house rule against the side \
             that does not: the app base rules under `yut-augments` with no draft \
             (`AugmentConfig::none()`), the 8.5 policy bot at both seats, each seed played \
             with the holder in seat 0 and then in seat 1. An augment is given at the start \
             of the holder's own turn where the draft would offer it (turn 1, 6 or 12: a \
             game that ends earlier never gives it); a house rule holds from the start. \
             *Fired* is the mean number of `augmentFired` events of the held rule for the \
             holder per game (`iron-stack` never fires an event; the truce counts its \
             calling). Excludes 50%: the advantage (or disadvantage) is significant at 5%; \
             with 20 rows, about one may exclude 50% by chance.\n"
        );
        let _ = writeln!(
            w,
            "| rule | 이름 | kind | games | holder won | win rate | 95% interval | excludes 50% | fired / game | mean turns |\n|---|---|---|---:|---:|---:|---|---|---:|---:|"
        );
        for (c, games) in &holders {
            let Kind::Holder { held } = c.kind else {
                continue;
            };
            let r = subject_rate(games);
            let (lo, hi) = r.interval();
            let excludes = if lo > 0.5 {
                "yes (+)"
            } else if hi < 0.5 {
                "yes (−)"
            } else {
                "no"
            };
            let n = games.len().max(1) as f64;
            let fired: u64 = games.iter().map(|g| u64::from(g.fired)).sum();
            let turns: u64 = games.iter().map(|g| u64::from(g.turns)).sum();
            let _ = writeln!(
                w,
                "| `{}` | {} | {} | {} | {} | {} | {} | {excludes} | {:.2} | {:.1} |",
                held.id(),
                held.name(),
                held.what(),
                r.games,
                r.wins,
                pct(r.value()),
                interval_text(r),
                fired as f64 / n,
                turns as f64 / n
            );
        }
    }
    let _ = writeln!(
        w,
        "\nThe chart `balance.svg` shows every win rate above with its interval.\n"
    );
    md
}

/// The rows of the chart: a label and a rate.
fn chart_rows(configs: &[Config], results: &[(String, Vec<GameSummary>)]) -> Vec<(String, Rate)> {
    configs
        .iter()
        .zip(results)
        .map(|(c, (_, games))| match &c.kind {
            Kind::Baseline => (format!("{}: first seat", c.name), first_seat_rate(games)),
            Kind::HeadToHead { subject, .. } => {
                (format!("{}: {subject}", c.name), subject_rate(games))
            }
            // Ids only: the chart's text is laid out without fonts, so it stays ASCII.
            Kind::Holder { held } => {
                let what = match held {
                    Held::Augment(a) => a.slot().wire(),
                    Held::House(_) => "house rule",
                };
                (
                    format!("{} ({what}): holder", held.id()),
                    subject_rate(games),
                )
            }
        })
        .collect()
}

/// The SVG chart: one horizontal bar per win rate, from the 50% line to the rate (blue
/// above, orange below), its 95% interval as a whisker, and the 50% line. The x axis is
/// centred on 50% and zoomed to the widest interval (so that a few points of advantage
/// show). Drawn with plotters' SVG backend (text is laid out by its built-in estimate, so
/// no system fonts are needed).
fn chart(configs: &[Config], results: &[(String, Vec<GameSummary>)]) -> Result<String, String> {
    use plotters::prelude::*;

    let rows = chart_rows(configs, results);
    let n = rows.len();
    let row_px = if n > 8 { 30 } else { 46 };
    let height = 90 + row_px * n as u32;
    // Half the axis: the furthest whisker end from 50%, plus room for the label, in 5% steps.
    let reach = rows
        .iter()
        .map(|(_, r)| {
            let (lo, hi) = r.interval();
            (0.5 - lo).max(hi - 0.5)
        })
        .fold(0.0f64, f64::max);
    let half = ((reach + 0.06) / 0.05).ceil().clamp(2.0, 10.0) * 0.05;
    let (x0, x1) = (0.5 - half, 0.5 + half);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (820, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Win rates with 95% intervals", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(290)
            .build_cartesian_2d(x0..x1, 0.0f64..n as f64)
            .map_err(|e| e.to_string())?;
        let labels: Vec<String> = rows.iter().map(|(l, _)| l.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .x_labels((2.0 * half / 0.05).round() as usize + 1)
            .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
            .x_desc("win rate")
            .y_labels(n * 2 + 1)
            .y_label_formatter(&|y| {
                // Labels sit at the middle of each bar (row i spans n-i-1 .. n-i).
                let k = (n as f64 - y - 0.5).round();
                if (n as f64 - y - 0.5 - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < n {
                    labels[k as usize].clone()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(|e| e.to_string())?;
        let blue = RGBColor(70, 110, 190);
        let orange = RGBColor(220, 130, 50);
        for (i, (_, rate)) in rows.iter().enumerate() {
            let top = n as f64 - i as f64 - 0.2;
            let bottom = n as f64 - i as f64 - 0.8;
            let middle = n as f64 - i as f64 - 0.5;
            let (lo, hi) = rate.interval();
            let value = rate.value().clamp(x0, x1);
            let colour = if value >= 0.5 { blue } else { orange };
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(0.5, bottom), (value, top)],
                    colour.mix(0.75).filled(),
                )))
                .map_err(|e| e.to_string())?;
            let (lo, hi) = (lo.max(x0), hi.min(x1));
            let whisker = [
                vec![(lo, middle), (hi, middle)],
                vec![(lo, middle - 0.15), (lo, middle + 0.15)],
                vec![(hi, middle - 0.15), (hi, middle + 0.15)],
            ];
            for line in whisker {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        line,
                        BLACK.stroke_width(2),
                    )))
                    .map_err(|e| e.to_string())?;
            }
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{:.1}%", rate.value() * 100.0),
                    ((hi + 0.01).min(x1 - 0.045), middle + 0.1),
                    ("sans-serif", 13),
                )))
                .map_err(|e| e.to_string())?;
        }
        chart
            .draw_series(LineSeries::new(
                [(0.5, 0.0), (0.5, n as f64)],
                RED.stroke_width(1),
            ))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
