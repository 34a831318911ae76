//! Command-line values shared by `play` and `host --trace`, mapped onto the engine's types.
//!
//! The engine's enums do not depend on clap, so each gets a small mirror here that clap can
//! parse (`individual|team`, `standard|app`, ...). Numbers that the engine validates (player
//! count, pieces, nak percent, turn seconds) are passed through unchecked on purpose: an
//! out-of-range value reaches [`yut::YutOptions::validate`] and the user sees the engine's
//! own typed error, exactly as a host would.

use clap::ValueEnum;
use yut::{BackdoFromDo, FinishRule, Mode, Preset, Ranking, StickModel};

/// `--mode`: individual play or two teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// 개인전: 2–4 players, each a side.
    Individual,
    /// 팀전: 4, 6 or 8 players in two teams (even seats 청, odd seats 홍).
    Team,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Individual => Mode::Individual,
            ModeArg::Team => Mode::Team,
        }
    }
}

/// `--preset`: the named rule sets (`yut/RULES.md`, "Options", presets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum PresetArg {
    /// The standard rules: every option at its default.
    #[default]
    Standard,
    /// The app's base rules: fair sticks, a backdo from node 1 goes back to waiting (대기).
    App,
}

impl From<PresetArg> for Preset {
    fn from(p: PresetArg) -> Self {
        match p {
            PresetArg::Standard => Preset::Standard,
            PresetArg::App => Preset::App,
        }
    }
}

/// `--sticks`: the stick model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SticksArg {
    /// A stick lands flat side up with p = 0.6.
    Realistic,
    /// p = 0.5.
    Fair,
}

impl From<SticksArg> for StickModel {
    fn from(s: SticksArg) -> Self {
        match s {
            SticksArg::Realistic => StickModel::Realistic,
            SticksArg::Fair => StickModel::Fair,
        }
    }
}

/// `--backdo-from-do`: what a backdo does to a piece that has only stood on node 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackdoFromDoArg {
    /// Goes to 참먹이 (node 0) as a piece that has gone round.
    Chammeogi,
    /// Finishes (남) at once.
    Finish,
    /// Goes back to waiting (대기). The engine's wire name, `home`, is accepted too.
    #[value(name = "waiting", alias = "home")]
    Home,
}

impl From<BackdoFromDoArg> for BackdoFromDo {
    fn from(b: BackdoFromDoArg) -> Self {
        match b {
            BackdoFromDoArg::Chammeogi => BackdoFromDo::Chammeogi,
            BackdoFromDoArg::Finish => BackdoFromDo::Finish,
            BackdoFromDoArg::Home => BackdoFromDo::Home,
        }
    }
}

/// `--finish`: when a piece that has gone round finishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FinishArg {
    /// It must step past 참먹이; stopping on it is not finishing yet.
    Pass,
    /// Reaching 참먹이 finishes.
    Reach,
}

impl From<FinishArg> for FinishRule {
    fn from(f: FinishArg) -> Self {
        match f {
            FinishArg::Pass => FinishRule::Pass,
            FinishArg::Reach => FinishRule::Reach,
        }
    }
}

/// `--ranking`: how 3–4 player individual games end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RankingArg {
    /// The game ends with the first finisher.
    First,
    /// Play goes on until only the last side is left.
    All,
}

impl From<RankingArg> for Ranking {
    fn from(r: RankingArg) -> Self {
        match r {
            RankingArg::First => Ranking::First,
            RankingArg::All => Ranking::All,
        }
    }
}

/// `--bot`: how bot seats choose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum BotKind {
    /// Uniformly among the legal actions (game_core's RandomBot, seeded per seat).
    Random,
    /// The engine's own timeout policy (`yut/RULES.md`, "The timeout policy"; game_core's
    /// TimeoutBot): throw when a throw is owed, else capture > finish > stack > advance the
    /// furthest-behind stack > enter a waiting piece.
    #[default]
    Policy,
    /// Plays to win: expectimax over the exact throw probabilities
    /// (`examples::bots::StrongBot`).
    Strong,
}

/// `--turn-seconds`: a number of seconds, or `None` for no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnSeconds(pub Option<u32>);

/// Parses `--turn-seconds`: a number of seconds, or `none` for no limit. The number is not
/// range-checked here; the engine refuses anything but 15, 30 and 60.
///
/// ```
/// use examples::args::{TurnSeconds, parse_turn_seconds};
/// assert_eq!(parse_turn_seconds("none"), Ok(TurnSeconds(None)));
/// assert_eq!(parse_turn_seconds("30"), Ok(TurnSeconds(Some(30))));
/// assert!(parse_turn_seconds("soon").is_err());
/// ```
pub fn parse_turn_seconds(s: &str) -> Result<TurnSeconds, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "none" | "null" | "off" | "unlimited" => Ok(TurnSeconds(None)),
        n => n
            .parse::<u32>()
            .map(|n| TurnSeconds(Some(n)))
            .map_err(|_| format!("expected seconds (15, 30, 60) or `none`, got {s:?}")),
    }
}

/// The default number of players for a mode: 2 for individual play, 4 for teams.
///
/// ```
/// assert_eq!(examples::args::default_players(yut::Mode::Team), 4);
/// ```
pub fn default_players(mode: Mode) -> usize {
    match mode {
        Mode::Individual => 2,
        Mode::Team => 4,
    }
}

/// `--augments`: the augments in the draft.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AugmentList(pub Vec<yut_augments::Augment>);

/// Parses `--augments`: `all` (the eighteen), `none` (no draft), or ids separated by
/// commas (`first-step,yut-leap`). An id listed twice is passed on: the engine refuses it
/// with its own typed error.
///
/// ```
/// use examples::args::parse_augments;
/// use yut_augments::Augment;
/// assert_eq!(parse_augments("all").unwrap().0.len(), 18);
/// assert!(parse_augments("none").unwrap().0.is_empty());
/// assert_eq!(parse_augments("first-step, yut-leap").unwrap().0, [Augment::FirstStep, Augment::YutLeap]);
/// assert!(parse_augments("wings").unwrap_err().contains("first-step"));
/// ```
pub fn parse_augments(s: &str) -> Result<AugmentList, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "all" => return Ok(AugmentList(yut_augments::Augment::ALL.to_vec())),
        "none" | "" => return Ok(AugmentList(Vec::new())),
        _ => {}
    }
    s.split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(|id| {
            id.parse::<yut_augments::Augment>().map_err(|e| {
                let ids: Vec<&str> = yut_augments::Augment::ALL.iter().map(|a| a.id()).collect();
                format!(
                    "{e}; expected `all`, `none` or ids from: {}",
                    ids.join(", ")
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(AugmentList)
}

/// `--game` of `host --trace`: which registered Yut game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    /// `yut`: the engine's rules without a layer (the standard preset, or the app base
    /// rules with `--preset app`).
    Yut,
    /// `yut-augments`: the same base rules with the augment layer of `yut-augments`.
    YutAugments,
}
