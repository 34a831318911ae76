//! The options, their validation, and the two presets (RULES.md, Options).

use game_core::Odds;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::YutError;

/// Individual play or two teams.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Mode {
    /// 개인전: 2–4 players, each a side.
    #[default]
    Individual,
    /// 팀전: 4, 6 or 8 players in two teams by seat parity (even seats 청, odd seats 홍).
    Team,
}

/// The stick model: how likely one stick lands flat side up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StickModel {
    /// p = 0.6, the measured shape of real sticks.
    #[default]
    Realistic,
    /// p = 0.5.
    Fair,
}

impl StickModel {
    /// The flat-side probability as an exact ratio.
    ///
    /// ```
    /// assert_eq!(yut::StickModel::Realistic.flat_ratio(), (3, 5));
    /// ```
    pub const fn flat_ratio(self) -> (u32, u32) {
        match self {
            StickModel::Realistic => (3, 5),
            StickModel::Fair => (1, 2),
        }
    }

    /// The flat-side odds of one stick's draw ([`StickModel::flat_ratio`] made once, at
    /// compile time: a stick is one comparison).
    ///
    /// ```
    /// use yut::StickModel;
    /// assert_eq!(StickModel::Fair.flat_odds(), game_core::Odds::new(1, 2));
    /// ```
    pub const fn flat_odds(self) -> Odds {
        const REALISTIC: Odds = ratio_odds(StickModel::Realistic);
        const FAIR: Odds = ratio_odds(StickModel::Fair);
        match self {
            StickModel::Realistic => REALISTIC,
            StickModel::Fair => FAIR,
        }
    }

    /// The flat-side probability.
    ///
    /// ```
    /// assert_eq!(yut::StickModel::Fair.flat_probability(), 0.5);
    /// ```
    pub fn flat_probability(self) -> f64 {
        let (n, d) = self.flat_ratio();
        f64::from(n) / f64::from(d)
    }
}

/// The odds of a model's ratio.
const fn ratio_odds(model: StickModel) -> Odds {
    let (numerator, denominator) = model.flat_ratio();
    Odds::new(numerator, denominator)
}

/// [`YutOptions::nak_odds`] of every `nakPercent` a `u8` holds (a restored state's
/// options are checked, but the table answers any value as the chance would).
const NAK_ODDS: [Odds; 256] = {
    let mut odds = [Odds::new(0, 100); 256];
    let mut p = 0;
    while p < odds.len() {
        odds[p] = Odds::new(p as u32, 100);
        p += 1;
    }
    odds
};

/// What a backdo does to a piece on node 1 that has only ever stood there (trail `[1]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BackdoFromDo {
    /// Goes to 참먹이 (0) as a piece that has gone round.
    #[default]
    Chammeogi,
    /// Finishes at once.
    Finish,
    /// Goes back to waiting at home (the `app` preset's rule).
    Home,
}

/// When a piece that has gone round finishes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FinishRule {
    /// It must pass 참먹이; stopping on it is not finishing yet.
    #[default]
    Pass,
    /// Reaching 참먹이 finishes.
    Reach,
}

/// What happens in 3–4 player individual play once a side has finished.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Ranking {
    /// The game ends with the first finisher; the rest are ranked by progress.
    #[default]
    First,
    /// Play goes on until only the last side is left.
    All,
}

/// The allowed values of [`YutOptions::pieces`].
pub const PIECES: [u8; 4] = [2, 3, 4, 5];

/// The allowed values of [`YutOptions::nak_percent`].
pub const NAK_PERCENTS: [u8; 4] = [0, 3, 5, 10];

/// The allowed values of [`YutOptions::turn_seconds`] (`None`: no time limit).
pub const TURN_SECONDS: [Option<u32>; 4] = [Some(15), Some(30), Some(60), None];

/// The options of a game, as `yut/RULES.md` describes them.
///
/// ```
/// let options: yut::YutOptions = serde_json::from_str(r#"{"mode":"team","nakPercent":5}"#).unwrap();
/// assert_eq!(options.nak_percent, 5);
/// assert_eq!(options.pieces, 4); // unspecified fields take their defaults
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct YutOptions {
    /// Individual or team play.
    pub mode: Mode,
    /// Pieces per side, 2–5.
    // The value sets go into the schema so that generated client types refuse the rest.
    #[schemars(extend("enum" = PIECES))]
    pub pieces: u8,
    /// The stick model.
    pub stick_model: StickModel,
    /// Whether the marked stick alone means 빽도 (otherwise it is 도).
    pub backdo: bool,
    /// What a backdo does to a piece on node 1 with trail `[1]`.
    pub backdo_from_do: BackdoFromDo,
    /// When a piece finishes.
    pub finish_rule: FinishRule,
    /// Chance of nak in percent: 0, 3, 5 or 10.
    #[schemars(extend("enum" = NAK_PERCENTS))]
    pub nak_percent: u8,
    /// Whether capturing with a backdo also earns a throw.
    pub backdo_capture_bonus: bool,
    /// How 3–4 player individual games end.
    pub ranking: Ranking,
    /// Seconds per action: 15, 30, 60, or `null` for no limit.
    #[schemars(extend("enum" = TURN_SECONDS))]
    pub turn_seconds: Option<u32>,
}

impl Default for YutOptions {
    fn default() -> Self {
        Self {
            mode: Mode::Individual,
            pieces: 4,
            stick_model: StickModel::Realistic,
            backdo: true,
            backdo_from_do: BackdoFromDo::Chammeogi,
            finish_rule: FinishRule::Pass,
            nak_percent: 0,
            backdo_capture_bonus: true,
            ranking: Ranking::First,
            turn_seconds: Some(30),
        }
    }
}

/// The named rule sets (RULES.md, Options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Preset {
    /// The default options.
    #[default]
    Standard,
    /// The app's base rules: fair sticks, a backdo from node 1 goes home.
    App,
}

impl Preset {
    /// The base options of this preset.
    ///
    /// ```
    /// use yut::{Preset, StickModel, BackdoFromDo};
    /// let app = Preset::App.options();
    /// assert_eq!(app.stick_model, StickModel::Fair);
    /// assert_eq!(app.backdo_from_do, BackdoFromDo::Home);
    /// assert_eq!(Preset::Standard.options(), yut::YutOptions::default());
    /// ```
    pub fn options(self) -> YutOptions {
        match self {
            Preset::Standard => YutOptions::default(),
            Preset::App => YutOptions {
                stick_model: StickModel::Fair,
                backdo_from_do: BackdoFromDo::Home,
                ..YutOptions::default()
            },
        }
    }
}

impl YutOptions {
    /// The odds of a nak (`nakPercent` in 100), worked out at compile time for every
    /// value: a throw's nak draw is one comparison, the same as
    /// [`GameRng::chance`](game_core::GameRng::chance)`(nakPercent, 100)`.
    ///
    /// ```
    /// let options = yut::YutOptions { nak_percent: 5, ..Default::default() };
    /// assert_eq!(options.nak_odds(), game_core::Odds::new(5, 100));
    /// ```
    #[inline]
    pub fn nak_odds(&self) -> Odds {
        NAK_ODDS[usize::from(self.nak_percent)]
    }

    /// Checks the options against the number of seated players (RULES.md, Options).
    ///
    /// ```
    /// use yut::{YutOptions, Mode};
    /// assert!(YutOptions::default().validate(4).is_ok());
    /// assert!(YutOptions::default().validate(5).is_err());
    /// let team = YutOptions { mode: Mode::Team, ..YutOptions::default() };
    /// assert!(team.validate(6).is_ok());
    /// assert!(team.validate(5).is_err());
    /// assert!(team.validate(2).is_err());
    /// ```
    pub fn validate(&self, players: usize) -> Result<(), YutError> {
        let bad =
            |option: &'static str, detail: String| Err(YutError::InvalidOption { option, detail });
        let allowed = self.player_counts();
        if !allowed.contains(&players) {
            return Err(game_core::Rejection::BadPlayerCount {
                players,
                allowed: allowed.to_vec(),
            }
            .into());
        }
        if !PIECES.contains(&self.pieces) {
            return bad(
                "pieces",
                format!("말 수는 2~5개예요 ({}개는 안 돼요).", self.pieces),
            );
        }
        if !NAK_PERCENTS.contains(&self.nak_percent) {
            return bad(
                "nakPercent",
                format!(
                    "낙 확률은 0·3·5·10% 중에서 골라요 ({}%는 안 돼요).",
                    self.nak_percent
                ),
            );
        }
        if let Some(s) = self.turn_seconds
            && !TURN_SECONDS.contains(&self.turn_seconds)
        {
            return bad(
                "turnSeconds",
                format!("제한 시간은 15·30·60초 또는 무제한이에요 ({s}초는 안 돼요)."),
            );
        }
        Ok(())
    }

    /// How many players this mode seats: 2–4 in individual play, 4, 6 or 8 in two teams.
    ///
    /// ```
    /// use yut::{YutOptions, Mode};
    /// assert_eq!(YutOptions::default().player_counts(), [2, 3, 4]);
    /// assert_eq!(YutOptions { mode: Mode::Team, ..Default::default() }.player_counts(), [4, 6, 8]);
    /// ```
    pub fn player_counts(&self) -> [usize; 3] {
        match self.mode {
            Mode::Individual => [2, 3, 4],
            Mode::Team => [4, 6, 8],
        }
    }

    /// The number of sides for `players` seated players.
    ///
    /// ```
    /// use yut::{YutOptions, Mode};
    /// assert_eq!(YutOptions::default().sides(3), 3);
    /// assert_eq!(YutOptions { mode: Mode::Team, ..Default::default() }.sides(8), 2);
    /// ```
    pub fn sides(&self, players: usize) -> usize {
        match self.mode {
            Mode::Individual => players,
            Mode::Team => 2,
        }
    }
}
