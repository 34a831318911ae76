//! The layer's options: which augments are in the draft, and the two house rules.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use yut::rules::WithRules;
use yut::{Preset, YutError};

use crate::{Augment, Slot};

/// The augment layer's configuration, flat beside the base options on the wire
/// (the crate README, Playing).
///
/// - `augments`: the ids in the draft (`[]` switches the draft off);
/// - `cushion`: the first-capture cushion (첫 잡힘 완충);
/// - `truce`: the truce (쉼 약속).
///
/// Missing fields take their [`Default`], which is the whole pack (every augment, both
/// house rules): a host that plays this layer at all gets the app's added rules
/// unless it switches parts off. Unknown fields are refused.
///
/// ```
/// use yut_augments::{Augment, AugmentConfig, AugmentOptions};
/// let o: AugmentOptions =
///     serde_json::from_str(r#"{"pieces":3,"augments":["first-step","yut-leap"],"truce":false}"#).unwrap();
/// assert_eq!(o.base.pieces, 3);
/// assert_eq!(o.rules.augments, vec![Augment::FirstStep, Augment::YutLeap]);
/// assert!(o.rules.cushion && !o.rules.truce);
/// assert!(serde_json::from_str::<AugmentOptions>(r#"{"augments":["wings"]}"#).is_err());
/// assert!(serde_json::from_str::<AugmentOptions>(r#"{"cushions":true}"#).is_err());
/// ```
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct AugmentConfig {
    /// The augments that can be offered in the draft, by id. `[]` switches the draft off.
    // `validate` refuses an augment listed twice; the schema says so too.
    #[schemars(extend("uniqueItems" = true))]
    pub augments: Vec<Augment>,
    /// The first-capture cushion (첫 잡힘 완충).
    pub cushion: bool,
    /// The truce (쉼 약속).
    pub truce: bool,
}

// By hand, for `clone_from`: a state reset for a new game (`Game::reset`) copies the
// options into the last game's, and the pack's list then keeps its buffer.
impl Clone for AugmentConfig {
    fn clone(&self) -> Self {
        Self {
            augments: self.augments.clone(),
            cushion: self.cushion,
            truce: self.truce,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Self {
            augments,
            cushion,
            truce,
        } = source;
        self.augments.clone_from(augments);
        self.cushion = *cushion;
        self.truce = *truce;
    }
}

impl Default for AugmentConfig {
    fn default() -> Self {
        Self::app()
    }
}

/// The options of a game with the augment layer: the base options and
/// [`AugmentConfig`], in one flat JSON object.
pub type AugmentOptions = WithRules<AugmentConfig>;

impl AugmentConfig {
    /// The whole pack of the app's rules: all eighteen augments, the cushion and the truce.
    pub fn app() -> Self {
        Self {
            augments: Augment::ALL.to_vec(),
            cushion: true,
            truce: true,
        }
    }

    /// The empty pack: no draft, no house rule. The game plays exactly as the base game.
    pub fn none() -> Self {
        Self {
            augments: Vec::new(),
            cushion: false,
            truce: false,
        }
    }

    /// The augments in the draft as a bit set (see [`Augment::bit`]).
    ///
    /// ```
    /// use yut_augments::{Augment, AugmentConfig};
    /// assert_eq!(AugmentConfig::none().bits(), 0);
    /// assert_eq!(AugmentConfig::app().bits().count_ones(), 18);
    /// ```
    pub fn bits(&self) -> u32 {
        self.augments.iter().fold(0, |b, a| b | a.bit())
    }

    /// Whether `augment` is in the draft.
    pub fn enabled(&self, augment: Augment) -> bool {
        self.augments.contains(&augment)
    }

    /// The enabled augments of `slot`, in table order (whatever
    /// order the configuration lists them in).
    ///
    /// ```
    /// use yut_augments::{Augment, AugmentConfig, Slot};
    /// let c = AugmentConfig { augments: vec![Augment::MoBonus, Augment::FirstStep, Augment::YutLeap], ..AugmentConfig::none() };
    /// assert_eq!(c.pool(Slot::Start), vec![Augment::FirstStep, Augment::MoBonus]);
    /// ```
    pub fn pool(&self, slot: Slot) -> Vec<Augment> {
        slot.augments()
            .into_iter()
            .filter(|a| self.enabled(*a))
            .collect()
    }

    /// Checks the configuration: an augment may be listed once only.
    ///
    /// ```
    /// use yut_augments::{Augment, AugmentConfig};
    /// let twice = AugmentConfig { augments: vec![Augment::DoEcho, Augment::DoEcho], ..AugmentConfig::none() };
    /// assert!(twice.validate().is_err());
    /// assert!(AugmentConfig::app().validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), YutError> {
        let mut seen = 0u32;
        for a in &self.augments {
            if seen & a.bit() != 0 {
                return Err(YutError::InvalidOption {
                    option: "augments",
                    detail: format!(
                        "증강은 한 번씩만 넣을 수 있어요 ({}이(가) 두 번 있어요).",
                        a.name()
                    ),
                });
            }
            seen |= a.bit();
        }
        Ok(())
    }
}

/// The `app` preset with the whole augment layer: the app's base rules
/// ([`Preset::App`]: fair sticks, a backdo from node 1 goes home), all eighteen augments,
/// the cushion and the truce.
///
/// ```
/// let o = yut_augments::app_options();
/// assert_eq!(o.base, yut::Preset::App.options());
/// assert_eq!(o.rules, yut_augments::AugmentConfig::app());
/// ```
pub fn app_options() -> AugmentOptions {
    WithRules {
        base: Preset::App.options(),
        rules: AugmentConfig::app(),
    }
}

/// Base options of `preset` with the empty pack: the layer switched off.
///
/// ```
/// let o = yut_augments::plain_options(yut::Preset::Standard);
/// assert!(o.rules.augments.is_empty() && !o.rules.cushion && !o.rules.truce);
/// ```
pub fn plain_options(preset: Preset) -> AugmentOptions {
    WithRules {
        base: preset.options(),
        rules: AugmentConfig::none(),
    }
}
