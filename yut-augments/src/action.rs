//! The layer's one action, `CHOOSE_AUGMENT {index}`, and its errors.

use game_core::{CodeSchemas, ErrorCodes, GameError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use yut::YutError;

/// What a player can do in the augment layer. Tagged by `type` like the base actions.
///
/// ```
/// use yut_augments::AugmentAction;
/// let a: yut::YutAction<AugmentAction> =
///     serde_json::from_str(r#"{"type":"CHOOSE_AUGMENT","index":2}"#).unwrap();
/// assert_eq!(a, yut::YutAction::Rule(AugmentAction::ChooseAugment { index: 2 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
#[non_exhaustive]
pub enum AugmentAction {
    /// Take the candidate at `index` of the draft in progress.
    ChooseAugment {
        /// Index into the draft's candidates.
        index: u32,
    },
}

/// `NO_DRAFT`: a `CHOOSE_AUGMENT` while no draft waits.
pub const NO_DRAFT: &str = "NO_DRAFT";
/// `UNKNOWN_CANDIDATE`: the index names no candidate.
pub const UNKNOWN_CANDIDATE: &str = "UNKNOWN_CANDIDATE";

/// The layer's refusals, carried in [`YutError::Rule`] (get them back with
/// [`yut::RuleError::downcast_ref`]).
///
/// ```
/// use game_core::GameError;
/// use yut_augments::AugmentError;
/// let e = yut_augments::unknown_candidate(5, 3);
/// assert_eq!(e.code(), "UNKNOWN_CANDIDATE");
/// let yut::YutError::Rule(rule) = &e else { panic!() };
/// assert_eq!(
///     rule.downcast_ref::<AugmentError>(),
///     Some(&AugmentError::UnknownCandidate { index: 5, candidates: 3 })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AugmentError {
    /// [`NO_DRAFT`]: a choice while no draft waits.
    #[error("지금은 증강을 고를 때가 아니에요.")]
    NoDraft,
    /// [`UNKNOWN_CANDIDATE`]: the index names no candidate.
    #[error(
        "그런 증강 후보는 없어요. 0부터 {}번 중에서 골라요 ({index}번은 없어요).",
        candidates.saturating_sub(1)
    )]
    UnknownCandidate {
        /// The index sent.
        index: u32,
        /// How many candidates the draft has.
        candidates: usize,
    },
}

impl AugmentError {
    /// Every code an [`AugmentError`] can carry (the enum is `#[non_exhaustive]`).
    ///
    /// ```
    /// assert_eq!(yut_augments::AugmentError::CODES, ["NO_DRAFT", "UNKNOWN_CANDIDATE"]);
    /// ```
    pub const CODES: [&'static str; 2] = [NO_DRAFT, UNKNOWN_CANDIDATE];
}

impl GameError for AugmentError {
    fn code(&self) -> &'static str {
        match self {
            Self::NoDraft => NO_DRAFT,
            Self::UnknownCandidate { .. } => UNKNOWN_CANDIDATE,
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        game_core::reason_of(&match self {
            Self::NoDraft => AugmentErrorWire::NoDraft {},
            Self::UnknownCandidate { .. } => AugmentErrorWire::UnknownCandidate {},
        })
    }
}

/// The wire form of the layer's refusals: their codes, and reasons without fields (the
/// message says which candidates there are).
#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", content = "reason", rename_all = "SCREAMING_SNAKE_CASE")]
enum AugmentErrorWire {
    /// A choice while no draft waits.
    NoDraft {},
    /// The index names no candidate.
    UnknownCandidate {},
}

/// The layer's codes, which a host registers with the game so that its error schema
/// lists them (`game_core::Erased::with_errors`): [`YutError`] carries them type-erased.
///
/// ```
/// use game_core::{CodeSchemas, ErrorCodes};
/// use yut_augments::AugmentError;
/// assert_eq!(CodeSchemas::of::<AugmentError>().codes(), AugmentError::CODES);
/// ```
impl ErrorCodes for AugmentError {
    fn codes(codes: &mut CodeSchemas) {
        codes.tagged::<AugmentErrorWire>();
    }
}

/// The error for a choice while no draft waits.
pub fn no_draft() -> YutError {
    YutError::rule(AugmentError::NoDraft)
}

/// The error for an index outside the candidates.
pub fn unknown_candidate(index: u32, count: usize) -> YutError {
    YutError::rule(AugmentError::UnknownCandidate {
        index,
        candidates: count,
    })
}
