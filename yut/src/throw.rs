//! The throw model (RULES.md, Throws): four sticks, one carrying the backdo mark, and nak.
//!
//! Three types, one idea each: [`Throw`] is a result (what a move uses; never nak),
//! [`ThrowChance`] is what a throw came to, a result or nak (the chance step of search and
//! of forced throws), and [`ThrowDraw`] is what the sticks showed (the stored and shown
//! form: sticks and result, both absent for nak). Code that asks "result or nak?" uses
//! [`ThrowChance`] ([`ThrowDraw::chance`]), not an `Option<Throw>`.

use game_core::GameRng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::options::{StickModel, YutOptions};

/// A throw result (결과).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Throw {
    /// 도: one flat side up (not the marked stick). Forward 1.
    Do,
    /// 개: two flat. Forward 2.
    Gae,
    /// 걸: three flat. Forward 3.
    Geol,
    /// 윷: four flat. Forward 4, throw again.
    Yut,
    /// 모: no flat side up. Forward 5, throw again.
    Mo,
    /// 빽도: only the marked stick flat. Back 1.
    Backdo,
}

impl Throw {
    /// Every result, in table order.
    pub const ALL: [Throw; 6] = [
        Throw::Do,
        Throw::Gae,
        Throw::Geol,
        Throw::Yut,
        Throw::Mo,
        Throw::Backdo,
    ];

    /// Signed steps: 1..=5 forward, -1 for backdo.
    ///
    /// ```
    /// assert_eq!(yut::Throw::Mo.steps(), 5);
    /// assert_eq!(yut::Throw::Backdo.steps(), -1);
    /// let all = yut::Throw::ALL.map(yut::Throw::steps);
    /// assert_eq!(all, [1, 2, 3, 4, 5, -1]);
    /// ```
    pub const fn steps(self) -> i8 {
        // 도 to 모 are declared in order of their steps: the steps are the declaration's
        // index plus one, worked out rather than matched, so that a move is not a jump on
        // a random result (mispredicted nearly every time).
        if self.is_backdo() { -1 } else { self as i8 + 1 }
    }

    /// Whether this result earns another throw (윷, 모).
    ///
    /// ```
    /// assert!(yut::Throw::Yut.throws_again());
    /// assert!(!yut::Throw::Geol.throws_again());
    /// ```
    pub const fn throws_again(self) -> bool {
        matches!(self, Throw::Yut | Throw::Mo)
    }

    /// Whether this is a backward result.
    ///
    /// ```
    /// assert!(yut::Throw::Backdo.is_backdo());
    /// ```
    pub const fn is_backdo(self) -> bool {
        matches!(self, Throw::Backdo)
    }

    /// The Korean name shown to players.
    ///
    /// ```
    /// assert_eq!(yut::Throw::Geol.name(), "걸");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Throw::Do => "도",
            Throw::Gae => "개",
            Throw::Geol => "걸",
            Throw::Yut => "윷",
            Throw::Mo => "모",
            Throw::Backdo => "빽도",
        }
    }

    /// The wire name (`do`, `gae`, ...).
    ///
    /// ```
    /// assert_eq!(yut::Throw::Backdo.wire(), "backdo");
    /// ```
    pub const fn wire(self) -> &'static str {
        match self {
            Throw::Do => "do",
            Throw::Gae => "gae",
            Throw::Geol => "geol",
            Throw::Yut => "yut",
            Throw::Mo => "mo",
            Throw::Backdo => "backdo",
        }
    }

    /// Reads the sticks (`true` = flat side up, stick 0 marked) (RULES.md, Throws);
    /// with `backdo` off the marked stick alone counts as 도.
    ///
    /// ```
    /// use yut::Throw;
    /// assert_eq!(Throw::from_sticks([true, false, false, false], true), Throw::Backdo);
    /// assert_eq!(Throw::from_sticks([true, false, false, false], false), Throw::Do);
    /// assert_eq!(Throw::from_sticks([false; 4], true), Throw::Mo);
    /// ```
    pub const fn from_sticks(sticks: Sticks, backdo: bool) -> Throw {
        let flat = sticks[0] as u8 + sticks[1] as u8 + sticks[2] as u8 + sticks[3] as u8;
        match flat {
            0 => Throw::Mo,
            1 if backdo && sticks[0] => Throw::Backdo,
            1 => Throw::Do,
            2 => Throw::Gae,
            3 => Throw::Geol,
            _ => Throw::Yut,
        }
    }

    /// A stick picture that shows this result, for outcomes chosen rather than thrown.
    ///
    /// ```
    /// use yut::Throw;
    /// for t in Throw::ALL {
    ///     assert_eq!(Throw::from_sticks(t.sticks(), true), t);
    /// }
    /// ```
    pub const fn sticks(self) -> Sticks {
        match self {
            Throw::Do => [false, true, false, false],
            Throw::Backdo => [true, false, false, false],
            Throw::Gae => [false, true, true, false],
            Throw::Geol => [false, true, true, true],
            Throw::Yut => [true; 4],
            Throw::Mo => [false; 4],
        }
    }

    /// The exact probability of this result with flat-side probability `p` and backdo on
    /// or off (no nak).
    ///
    /// ```
    /// use yut::{Throw, StickModel};
    /// let p = Throw::Do.probability(StickModel::Realistic, true);
    /// assert!((p - 0.1152).abs() < 1e-12);
    /// ```
    pub fn probability(self, model: StickModel, backdo: bool) -> f64 {
        let p = model.flat_probability();
        let q = 1.0 - p;
        let single = p * q * q * q;
        match self {
            Throw::Backdo if backdo => single,
            Throw::Backdo => 0.0,
            Throw::Do if backdo => 3.0 * single,
            Throw::Do => 4.0 * single,
            Throw::Gae => 6.0 * p * p * q * q,
            Throw::Geol => 4.0 * p * p * p * q,
            Throw::Yut => p * p * p * p,
            Throw::Mo => q * q * q * q,
        }
    }
}

/// The four sticks: `true` means the flat side (배) is up; stick 0 carries the backdo mark.
pub type Sticks = [bool; 4];

/// What one throw produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ThrowDraw {
    /// The sticks, or `None` for nak (they fell off the mat).
    pub sticks: Option<Sticks>,
    /// The result, or `None` for nak.
    pub result: Option<Throw>,
}

impl ThrowDraw {
    /// What the throw came to: its result, or nak.
    ///
    /// ```
    /// use yut::{Throw, ThrowChance};
    /// assert_eq!(ThrowChance::Nak.draw().chance(), ThrowChance::Nak);
    /// assert_eq!(ThrowChance::of(Throw::Yut).draw().chance(), ThrowChance::Yut);
    /// ```
    pub const fn chance(self) -> ThrowChance {
        match self.result {
            None => ThrowChance::Nak,
            Some(result) => ThrowChance::of(result),
        }
    }

    /// Draws one throw from the RNG: nak first when `nakPercent > 0`,
    /// then each stick in order, stick 0 first.
    ///
    /// ```
    /// use yut::{ThrowDraw, YutOptions};
    /// let mut rng = game_core::GameRng::from_seed(1);
    /// let draw = ThrowDraw::draw(&YutOptions::default(), &mut rng);
    /// assert!(draw.result.is_some()); // nak is off by default
    /// ```
    // Always: one call a throw, and its four draws are a handful of instructions each.
    #[inline(always)]
    pub fn draw(options: &YutOptions, rng: &mut GameRng) -> Self {
        if options.nak_percent > 0 && rng.odds(options.nak_odds()) {
            return Self {
                sticks: None,
                result: None,
            };
        }
        let flat = options.stick_model.flat_odds();
        let ([s0, s1], [s2, s3]) = (rng.odds_pair(flat), rng.odds_pair(flat));
        let sticks = [s0, s1, s2, s3];
        Self {
            sticks: Some(sticks),
            result: Some(Throw::from_sticks(sticks, options.backdo)),
        }
    }
}

/// The outcome of a throw's chance step, for search: a result or nak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ThrowChance {
    /// The sticks fell off the mat.
    Nak,
    /// 도.
    Do,
    /// 개.
    Gae,
    /// 걸.
    Geol,
    /// 윷.
    Yut,
    /// 모.
    Mo,
    /// 빽도.
    Backdo,
}

impl ThrowChance {
    /// Every outcome of a throw: nak, then the results in table order.
    ///
    /// ```
    /// assert_eq!(yut::ThrowChance::ALL.len(), 7);
    /// assert_eq!(yut::ThrowChance::ALL[0].result(), None);
    /// ```
    pub const ALL: [ThrowChance; 7] = [
        ThrowChance::Nak,
        ThrowChance::Do,
        ThrowChance::Gae,
        ThrowChance::Geol,
        ThrowChance::Yut,
        ThrowChance::Mo,
        ThrowChance::Backdo,
    ];

    /// The result, or `None` for nak.
    ///
    /// ```
    /// assert_eq!(yut::ThrowChance::Mo.result(), Some(yut::Throw::Mo));
    /// ```
    pub const fn result(self) -> Option<Throw> {
        match self {
            ThrowChance::Nak => None,
            ThrowChance::Do => Some(Throw::Do),
            ThrowChance::Gae => Some(Throw::Gae),
            ThrowChance::Geol => Some(Throw::Geol),
            ThrowChance::Yut => Some(Throw::Yut),
            ThrowChance::Mo => Some(Throw::Mo),
            ThrowChance::Backdo => Some(Throw::Backdo),
        }
    }

    /// The chance outcome of a result.
    ///
    /// ```
    /// assert_eq!(yut::ThrowChance::of(yut::Throw::Do), yut::ThrowChance::Do);
    /// ```
    pub const fn of(result: Throw) -> Self {
        match result {
            Throw::Do => ThrowChance::Do,
            Throw::Gae => ThrowChance::Gae,
            Throw::Geol => ThrowChance::Geol,
            Throw::Yut => ThrowChance::Yut,
            Throw::Mo => ThrowChance::Mo,
            Throw::Backdo => ThrowChance::Backdo,
        }
    }

    /// The draw this outcome stands for (with a canonical stick picture).
    ///
    /// ```
    /// assert_eq!(yut::ThrowChance::Nak.draw().result, None);
    /// ```
    pub const fn draw(self) -> ThrowDraw {
        match self.result() {
            None => ThrowDraw {
                sticks: None,
                result: None,
            },
            Some(r) => ThrowDraw {
                sticks: Some(r.sticks()),
                result: Some(r),
            },
        }
    }

    /// Every outcome with its exact probability under `options` (zero-probability outcomes
    /// left out). The probabilities sum to 1.
    ///
    /// ```
    /// let list = yut::ThrowChance::distribution(&yut::YutOptions::default());
    /// let total: f64 = list.iter().map(|(_, p)| p).sum();
    /// assert!((total - 1.0).abs() < 1e-12);
    /// ```
    pub fn distribution(options: &YutOptions) -> Vec<(ThrowChance, f64)> {
        let nak = f64::from(options.nak_percent) / 100.0;
        let mut list = Vec::with_capacity(7);
        if nak > 0.0 {
            list.push((ThrowChance::Nak, nak));
        }
        for t in Throw::ALL {
            let p = (1.0 - nak) * t.probability(options.stick_model, options.backdo);
            if p > 0.0 {
                list.push((ThrowChance::of(t), p));
            }
        }
        list
    }
}
