//! The bot ladder (`cargo run --release --example ladder -- --game G --games N --seed S
//! [--players K] [--bots a,b,...] [--json]`): every pair of a game's bots plays `N` seeded
//! games, and a table (or one JSON object per pair) gives the first bot's wins, win rate
//! with its 95 % interval, and time per decision.
//!
//! The bots: `random`, `policy` (the game's own, where it has one), `pimc` and `ismcts`
//! (the searches that know only what their seat knows; a game's `ismcts` at the budget its
//! hosts give it, One Card's 4,000 iterations), each run as every host runs it,
//! behind [`Fair`] (handed a world of its seat's information set, never the true state);
//! and, here alone, `ismcts-cheat`: the same search handed the true state, the upper bound
//! no seat may use.
//!
//! Deals: game `g` is deal `g / 2` (seed `S + g / 2`), played both ways: the bots take the
//! seats alternately, the first bot in seat `d mod K` of deal `d` (the seats rotate), and
//! in the second game of the deal the bots swap seats. A game is a win for the bot whose
//! seat has a payoff of 1 ([`Game::payoff`]); a game with no winner (out of moves) or two
//! counts half. Before each move, a seat the game lets act out of turn (One Card's calls)
//! acts first, one drawn at random when several may (a race, as on a server); no clock
//! runs, so nothing times out.
//!
//! The same flags give the same results, whatever the number of threads (the games run
//! in parallel; each one is seeded on its own).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use game_core::search::{Ismcts, Pimc};
use game_core::{Bot, Fair, Game, GameExt, GameRng, RandomBot};
use rayon::prelude::*;
use serde_json::{Value, json};

/// The games the ladder knows, by id.
pub const GAMES: [&str; 5] = ["liars-dice", "one-card", "pig", "rps", "yut"];

/// Every bot name the ladder knows, in the order of its table.
pub const BOTS: [&str; 5] = ["random", "policy", "pimc", "ismcts", "ismcts-cheat"];

/// The most decisions a ladder game takes before it is scored as unfinished.
const MAX_DECISIONS: u32 = 20_000;

/// What to play.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderArgs {
    /// The game's id ([`GAMES`]).
    pub game: String,
    /// Games per pair of bots (rounded up to an even number: each deal is played both
    /// ways).
    pub games: u64,
    /// The first deal's seed.
    pub seed: u64,
    /// Players per game.
    pub players: usize,
    /// The bots to pair, by name; empty: every bot the game has.
    pub bots: Vec<String>,
    /// ISMCTS iterations per decision; `None`: the game's own (what its hosts' `ismcts`
    /// runs: One Card's `one_card::bots::ISMCTS_ITERATIONS`, else [`Ismcts::ITERATIONS`]).
    pub iterations: Option<u32>,
}

/// One pair's results, from the first bot's side.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    /// The two bots, the first one's results given.
    pub bots: [String; 2],
    /// Games played.
    pub games: u64,
    /// Games the first bot won (a shared win counts half: see [`PairResult::draws`]).
    pub wins: u64,
    /// Games won by both or by neither.
    pub draws: u64,
    /// The first bot's win rate, a draw counting half.
    pub win_rate: f64,
    /// The 95 % Wilson score interval of the win rate.
    pub ci95: [f64; 2],
    /// The first bot's mean time per decision, in milliseconds.
    pub ms_per_decision: f64,
    /// The second bot's mean time per decision, in milliseconds.
    pub opponent_ms_per_decision: f64,
}

impl PairResult {
    /// The JSON object of `--json`: `bots`, `games`, `wins`, `draws`, `winRate`, `ci95`
    /// (`[low, high]`), `msPerDecision` (the first bot's) and `opponentMsPerDecision`.
    pub fn to_json(&self) -> Value {
        json!({
            "bots": self.bots,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "winRate": self.win_rate,
            "ci95": self.ci95,
            "msPerDecision": self.ms_per_decision,
            "opponentMsPerDecision": self.opponent_ms_per_decision,
        })
    }
}

/// Runs the ladder: every pair of the chosen bots (in [`BOTS`] order), `games` games each.
/// An unknown game, an unknown bot, a bot the game does not have, fewer than two bots or a
/// player count the game refuses is an error naming it.
pub fn run(args: &LadderArgs) -> Result<Vec<PairResult>, String> {
    match args.game.as_str() {
        "liars-dice" => ladder(
            &liars_dice::LiarsDice,
            &liars_dice::LiarsDiceOptions::default(),
            Bots {
                policy: Some(|_| Box::new(liars_dice::PolicyBot::default())),
                ismcts: Ismcts::ITERATIONS,
            },
            args,
        ),
        "one-card" => ladder(
            &one_card::OneCard,
            &one_card::OneCardOptions::default(),
            Bots {
                policy: Some(|seed| Box::new(one_card::bots::PolicyBot::new(seed))),
                ismcts: one_card::bots::ISMCTS_ITERATIONS,
            },
            args,
        ),
        "pig" => ladder(
            &pig::Pig,
            &pig::PigOptions::default(),
            Bots {
                policy: Some(|_| Box::new(pig::HoldBot::default())),
                ismcts: Ismcts::ITERATIONS,
            },
            args,
        ),
        "rps" => ladder(
            &game_core::rps::Rps,
            &Default::default(),
            Bots {
                policy: None,
                ismcts: Ismcts::ITERATIONS,
            },
            args,
        ),
        "yut" => ladder(
            &yut::Yut::standard(),
            &yut::YutOptions::default(),
            Bots {
                policy: Some(|seed| Box::new(yut::SeatBot::new(yut::BotKind::Policy, seed))),
                ismcts: Ismcts::ITERATIONS,
            },
            args,
        ),
        other => Err(format!(
            "unknown game {other:?}: the ladder plays {}",
            GAMES.join(", ")
        )),
    }
}

/// A bot of the ladder for game `G`, from its seed.
type MakeBot<G> = fn(u64) -> Box<dyn Bot<G> + Send>;

/// A game's own bots for the ladder: its policy, if it has one, and the iterations its
/// hosts' `ismcts` runs.
struct Bots<G: Game> {
    policy: Option<MakeBot<G>>,
    ismcts: u32,
}

fn ladder<G: Game + Sync>(
    game: &G,
    options: &G::Options,
    own: Bots<G>,
    args: &LadderArgs,
) -> Result<Vec<PairResult>, String> {
    let policy = own.policy;
    let available: Vec<&str> = BOTS
        .iter()
        .copied()
        .filter(|b| *b != "policy" || policy.is_some())
        .collect();
    let chosen: Vec<&str> = if args.bots.is_empty() {
        available.clone()
    } else {
        let mut chosen = Vec::new();
        for b in &args.bots {
            let known = available
                .iter()
                .find(|k| **k == b.as_str())
                .ok_or_else(|| {
                    format!(
                        "no bot {b:?} for {}: its bots are {}",
                        args.game,
                        available.join(", ")
                    )
                })?;
            if !chosen.contains(known) {
                chosen.push(*known);
            }
        }
        chosen
    };
    if chosen.len() < 2 {
        return Err("a ladder needs two bots or more".into());
    }
    let players: Vec<String> = (0..args.players).map(|i| format!("p{i}")).collect();
    game.setup(options, &players, args.seed, 0)
        .map_err(|e| format!("{} refuses {} players: {e:?}", args.game, args.players))?;
    let games = args.games.div_ceil(2) * 2;
    let iterations = args.iterations.unwrap_or(own.ismcts);
    let make = |name: &str, seed: u64| -> Box<dyn Bot<G> + Send> {
        match name {
            "random" => Box::new(Fair::new(RandomBot::new(seed), seed)),
            "policy" => Box::new(Fair::new(policy.expect("listed")(seed), seed)),
            "pimc" => Box::new(Fair::new(Pimc::with_seed(seed), seed)),
            "ismcts" => Box::new(Fair::new(Ismcts::new(seed, iterations), seed)),
            // Unwrapped, and searching the state it is handed: the true one.
            _ => Box::new(Ismcts::new(seed, iterations).sees_everything()),
        }
    };
    let mut out = Vec::new();
    for (i, a) in chosen.iter().enumerate() {
        for b in &chosen[i + 1..] {
            let played: Vec<Game1> = (0..games)
                .into_par_iter()
                .map(|g| play_one(game, options, &players, args.seed, g, a, b, &make))
                .collect();
            out.push(tally([a, b], &played));
        }
    }
    Ok(out)
}

/// One game's result, from the first bot's side.
struct Game1 {
    /// 1 a win, 0.5 shared or none, 0 a loss.
    score: f64,
    /// Decisions and time, per bot (first, second).
    decisions: [u64; 2],
    time: [Duration; 2],
}

#[allow(clippy::too_many_arguments)] // One game: what it is, which deal, which bots.
fn play_one<G: Game>(
    game: &G,
    options: &G::Options,
    players: &[String],
    seed: u64,
    g: u64,
    a: &str,
    b: &str,
    make: &(dyn Fn(&str, u64) -> Box<dyn Bot<G> + Send> + Sync),
) -> Game1 {
    let deal = g / 2;
    let k = players.len();
    let first_seat = (deal % k as u64) as usize;
    // Which bot plays each seat: 0 the first, 1 the second, alternately from `first_seat`,
    // swapped in the deal's second game.
    let side = |seat: usize| ((seat + k - first_seat) % 2) ^ (g % 2) as usize;
    let deal_seed = seed.wrapping_add(deal);
    let mut bots: Vec<Box<dyn Bot<G> + Send>> = (0..k)
        .map(|seat| {
            let name = if side(seat) == 0 { a } else { b };
            make(name, deal_seed ^ (0x1000 * (seat as u64 + 1)))
        })
        .collect();
    let mut state = game
        .setup(options, players, deal_seed, 0)
        .expect("checked before the games");
    let mut decisions = [0u64; 2];
    let mut time = [Duration::ZERO; 2];
    // Who calls first when several may (One Card's ONE_CARD and CATCH): a race, as on a
    // server, drawn from the deal's own seed.
    let mut race = GameRng::from_seed(deal_seed ^ 0xca11);
    for _ in 0..MAX_DECISIONS {
        let Some(mover) = game.first_to_act(&state) else {
            break;
        };
        let callers: Vec<usize> = (0..k)
            .filter(|&s| s != mover && game.may_act(&state, s))
            .collect();
        let caller =
            (!callers.is_empty()).then(|| callers[race.below(callers.len() as u32) as usize]);
        let mut choose = |seat: usize| {
            let started = Instant::now();
            let action = bots[seat].choose(game, &state, seat);
            time[side(seat)] += started.elapsed();
            decisions[side(seat)] += 1;
            action.map(|a| (seat, a))
        };
        // A caller that lets the chance pass leaves the move to the mover.
        let Some((seat, action)) = caller.and_then(&mut choose).or_else(|| choose(mover)) else {
            break;
        };
        let now = game_core::GameState::table(&state).clock();
        if game.apply(&mut state, seat, &action, now).is_err() {
            break;
        }
    }
    let won = |who: usize| (0..k).any(|s| side(s) == who && game.payoff(&state, s) == Some(1.0));
    let score = match (won(0), won(1)) {
        (true, false) => 1.0,
        (false, true) => 0.0,
        _ => 0.5,
    };
    Game1 {
        score,
        decisions,
        time,
    }
}

fn tally(bots: [&str; 2], played: &[Game1]) -> PairResult {
    let games = played.len() as u64;
    let wins = played.iter().filter(|g| g.score == 1.0).count() as u64;
    let draws = played.iter().filter(|g| g.score == 0.5).count() as u64;
    let win_rate = if games == 0 {
        0.0
    } else {
        (wins as f64 + draws as f64 / 2.0) / games as f64
    };
    let ms = |i: usize| {
        let n: u64 = played.iter().map(|g| g.decisions[i]).sum();
        let t: Duration = played.iter().map(|g| g.time[i]).sum();
        if n == 0 {
            0.0
        } else {
            t.as_secs_f64() * 1e3 / n as f64
        }
    };
    PairResult {
        bots: bots.map(str::to_owned),
        games,
        wins,
        draws,
        win_rate,
        ci95: wilson(win_rate, games),
        ms_per_decision: ms(0),
        opponent_ms_per_decision: ms(1),
    }
}

/// The 95 % Wilson score interval of a rate `p` over `n` trials.
///
/// ```
/// let [low, high] = examples::ladder::wilson(0.5, 2_000);
/// assert!((low - 0.478).abs() < 0.001 && (high - 0.522).abs() < 0.001);
/// assert_eq!(examples::ladder::wilson(0.0, 0), [0.0, 1.0]);
/// ```
pub fn wilson(p: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The table of a ladder's results, one row a pair.
pub fn table(game: &str, results: &[PairResult]) -> String {
    let mut out = format!(
        "{game}: {:<28} {:>6} {:>6} {:>6} {:>8}  {:<17} {:>10} {:>10}\n",
        "bots (first's results)",
        "games",
        "wins",
        "draws",
        "win rate",
        "95% CI",
        "ms/dec",
        "opp ms"
    );
    for r in results {
        let _ = writeln!(
            out,
            "{:width$} {:<28} {:>6} {:>6} {:>6} {:>7.1}%  [{:>5.1}%, {:>5.1}%] {:>10.3} {:>10.3}",
            "",
            format!("{} vs {}", r.bots[0], r.bots[1]),
            r.games,
            r.wins,
            r.draws,
            r.win_rate * 100.0,
            r.ci95[0] * 100.0,
            r.ci95[1] * 100.0,
            r.ms_per_decision,
            r.opponent_ms_per_decision,
            width = game.len() + 1,
        );
    }
    out
}
