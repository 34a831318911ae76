//! Player-facing errors for every rejected action or setting.

use std::sync::Arc;

use game_core::{CodeSchemas, ErrorCodes, GameError, Rejection, reason_of};
use schemars::JsonSchema;
use serde::Serialize;

use crate::graph::Node;
use crate::state::{Origin, Phase};

/// Why an action or an option was refused. A refused action changes nothing.
///
/// Non-exhaustive: a later version may refuse for a new reason; a host's match needs a
/// `_` arm (branch on [`GameError::code`] for what it does not know).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum YutError {
    /// Another player (or in team play, another team member) is to act.
    #[error("지금은 다른 사람 차례예요.")]
    NotYourTurn,
    /// A throw when no throw is owed.
    #[error("지금은 윷을 던질 차례가 아니에요.")]
    NotThrowPhase,
    /// A move outside the move phase.
    #[error("지금은 말을 움직일 차례가 아니에요.")]
    NotMovePhase,
    /// An action the current phase does not take (for example a rule action).
    #[error("지금은 그 행동을 할 수 없어요.")]
    WrongPhase {
        /// The phase the game is in.
        phase: Phase,
    },
    /// `throwIndex` names no pending result.
    #[error("그런 윷 결과는 없어요.")]
    UnknownThrowIndex {
        /// The index sent.
        index: u32,
        /// How many results are pending.
        pending: usize,
    },
    /// No piece of the player's side can move from there.
    #[error("그 말은 움직일 수 없어요.")]
    CannotMove {
        /// The node sent (`None` for home).
        from: Option<Node>,
    },
    /// A backdo cannot bring a waiting piece onto the board.
    #[error("빽도로는 대기 말을 올릴 수 없어요.")]
    BackdoFromHome,
    /// The rules in force forbid this move (for example a truce or a protected stack).
    #[error("지금은 그 자리로 갈 수 없어요.")]
    MoveForbidden,
    /// The player has already conceded.
    #[error("이미 기권했어요.")]
    AlreadyConceded,
    /// An option is out of range or does not fit the seated players.
    #[error("{detail}")]
    InvalidOption {
        /// The option's wire name (`mode`, `pieces`, ...).
        option: &'static str,
        /// What is wrong, for the player.
        detail: String,
    },
    /// A rule extension refused the action, with its own typed error (its code, message
    /// and reason are the extension's).
    #[error("{0}")]
    Rule(RuleError),
    /// A refusal of the framework (stale request, spectator, game over, corrupt state).
    #[error(transparent)]
    Core(#[from] Rejection),
}

impl YutError {
    /// The codes of Yut's own refusals (a rule set's come from its error type, the
    /// framework's are [`game_core::Rejection::CODES`]): what a host that glosses or maps
    /// codes must cover, since the enum is `#[non_exhaustive]`.
    ///
    /// ```
    /// use game_core::GameError;
    /// assert!(yut::YutError::CODES.contains(&yut::YutError::NotYourTurn.code()));
    /// ```
    pub const CODES: [&'static str; 10] = [
        "NOT_YOUR_TURN",
        "NOT_THROW_PHASE",
        "NOT_MOVE_PHASE",
        "WRONG_PHASE",
        "UNKNOWN_THROW_INDEX",
        "CANNOT_MOVE",
        "BACKDO_FROM_HOME",
        "MOVE_FORBIDDEN",
        "ALREADY_CONCEDED",
        "INVALID_OPTION",
    ];
}

impl GameError for YutError {
    fn code(&self) -> &'static str {
        match self {
            Self::NotYourTurn => "NOT_YOUR_TURN",
            Self::NotThrowPhase => "NOT_THROW_PHASE",
            Self::NotMovePhase => "NOT_MOVE_PHASE",
            Self::WrongPhase { .. } => "WRONG_PHASE",
            Self::UnknownThrowIndex { .. } => "UNKNOWN_THROW_INDEX",
            Self::CannotMove { .. } => "CANNOT_MOVE",
            Self::BackdoFromHome => "BACKDO_FROM_HOME",
            Self::MoveForbidden => "MOVE_FORBIDDEN",
            Self::AlreadyConceded => "ALREADY_CONCEDED",
            Self::InvalidOption { .. } => "INVALID_OPTION",
            Self::Rule(e) => e.code(),
            Self::Core(r) => r.code(),
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        match self {
            Self::Core(r) => r.reason(),
            Self::Rule(e) => e.reason(),
            own => own.wire().as_ref().and_then(reason_of),
        }
    }
}

/// The wire form of Yut's own refusals: the code, and the reason's fields. One definition
/// writes the reason and lists the codes with their reasons' schemas ([`ErrorCodes`]).
#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", content = "reason", rename_all = "SCREAMING_SNAKE_CASE")]
enum YutErrorWire<'a> {
    /// Another player (or team member) is to act.
    NotYourTurn {},
    /// A throw when no throw is owed.
    NotThrowPhase {},
    /// A move outside the move phase.
    NotMovePhase {},
    /// An action the current phase does not take.
    WrongPhase {
        /// The phase the game is in.
        phase: Phase,
    },
    /// `throwIndex` names no pending result.
    UnknownThrowIndex {
        /// The index sent.
        #[serde(rename = "throwIndex")]
        throw_index: u32,
        /// How many results are pending.
        pending: usize,
    },
    /// No piece of the player's side can move from there.
    CannotMove {
        /// Where the move was to start.
        from: Origin,
    },
    /// A backdo cannot bring a waiting piece onto the board.
    BackdoFromHome {},
    /// The rules in force forbid this move.
    MoveForbidden {},
    /// The player has already conceded.
    AlreadyConceded {},
    /// An option is out of range or does not fit the seated players.
    InvalidOption {
        /// The option's wire name.
        option: &'a str,
    },
}

impl YutError {
    /// The wire form of Yut's own refusals (`None` for a rule's or the framework's, whose
    /// types have their own): a match without a wildcard, so a new refusal has one.
    fn wire(&self) -> Option<YutErrorWire<'_>> {
        Some(match self {
            Self::NotYourTurn => YutErrorWire::NotYourTurn {},
            Self::NotThrowPhase => YutErrorWire::NotThrowPhase {},
            Self::NotMovePhase => YutErrorWire::NotMovePhase {},
            Self::WrongPhase { phase } => YutErrorWire::WrongPhase { phase: *phase },
            Self::UnknownThrowIndex { index, pending } => YutErrorWire::UnknownThrowIndex {
                throw_index: *index,
                pending: *pending,
            },
            Self::CannotMove { from } => YutErrorWire::CannotMove {
                from: from.map_or(Origin::HOME, Origin::Node),
            },
            Self::BackdoFromHome => YutErrorWire::BackdoFromHome {},
            Self::MoveForbidden => YutErrorWire::MoveForbidden {},
            Self::AlreadyConceded => YutErrorWire::AlreadyConceded {},
            Self::InvalidOption { option, .. } => YutErrorWire::InvalidOption { option },
            Self::Rule(_) | Self::Core(_) => return None,
        })
    }
}

/// Yut's own codes and the framework's. A rule set's codes come from its own error type,
/// which [`YutError::Rule`] carries type-erased: a host registers them with the game
/// (`game_core::Erased::with_errors`).
impl ErrorCodes for YutError {
    fn codes(codes: &mut CodeSchemas) {
        codes.tagged::<YutErrorWire<'_>>();
        Rejection::codes(codes);
    }
}

impl YutError {
    /// A rule extension's refusal.
    ///
    /// ```
    /// use game_core::GameError;
    ///
    /// #[derive(Debug, thiserror::Error)]
    /// #[error("아직은 안 돼요.")]
    /// struct TooEarly;
    ///
    /// impl GameError for TooEarly {
    ///     fn code(&self) -> &'static str { "TOO_EARLY" }
    /// }
    ///
    /// let e = yut::YutError::rule(TooEarly);
    /// assert_eq!(e.code(), "TOO_EARLY");
    /// assert_eq!(e.to_string(), "아직은 안 돼요.");
    /// ```
    pub fn rule(error: impl GameError) -> Self {
        Self::Rule(RuleError::new(error))
    }
}

/// A rule extension's typed error, inside [`YutError::Rule`].
///
/// The extension's error type stays its own (an enum of its refusals, say); this keeps
/// [`YutError`] one type for every rule set, so hosts need not be generic over the rules
/// to handle errors. A host that knows the extension gets its type back with
/// [`RuleError::downcast_ref`]. Cheap to clone (shared). Two rule errors are equal when
/// their code, message and reason are.
///
/// ```
/// use game_core::GameError;
///
/// #[derive(Debug, PartialEq, thiserror::Error)]
/// #[error("{n}번 후보는 없어요.")]
/// struct NoSuchCandidate { n: u32 }
///
/// impl GameError for NoSuchCandidate {
///     fn code(&self) -> &'static str { "NO_SUCH_CANDIDATE" }
/// }
///
/// let e = yut::RuleError::new(NoSuchCandidate { n: 4 });
/// assert_eq!(e.code(), "NO_SUCH_CANDIDATE");
/// assert_eq!(e.downcast_ref::<NoSuchCandidate>(), Some(&NoSuchCandidate { n: 4 }));
/// ```
#[derive(Clone)]
pub struct RuleError(Arc<dyn GameError>);

impl RuleError {
    /// Wraps an extension's error.
    pub fn new(error: impl GameError) -> Self {
        Self(Arc::new(error))
    }

    /// The extension's stable code.
    pub fn code(&self) -> &'static str {
        self.0.code()
    }

    /// The extension's player-facing message.
    pub fn message(&self) -> String {
        self.0.message()
    }

    /// The extension's machine-readable reason, if any.
    pub fn reason(&self) -> Option<serde_json::Value> {
        self.0.reason()
    }

    /// The extension's error as its own type, if it is an `E`.
    pub fn downcast_ref<E: GameError>(&self) -> Option<&E> {
        let error: &dyn std::error::Error = &*self.0;
        error.downcast_ref()
    }
}

impl std::fmt::Debug for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&*self.0, f)
    }
}

impl std::error::Error for RuleError {}

impl PartialEq for RuleError {
    fn eq(&self, other: &Self) -> bool {
        // The wire form is what a host sees, so it is what equality means.
        self.code() == other.code()
            && self.message() == other.message()
            && self.reason() == other.reason()
    }
}

impl Eq for RuleError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The match has no wildcard: a new refusal fails to compile here until its code is in
    /// [`YutError::CODES`].
    #[test]
    fn codes_lists_every_refusal_of_its_own() {
        let all = [
            YutError::NotYourTurn,
            YutError::NotThrowPhase,
            YutError::NotMovePhase,
            YutError::WrongPhase {
                phase: Phase::Throw,
            },
            YutError::UnknownThrowIndex {
                index: 0,
                pending: 0,
            },
            YutError::CannotMove { from: None },
            YutError::BackdoFromHome,
            YutError::MoveForbidden,
            YutError::AlreadyConceded,
            YutError::InvalidOption {
                option: "pieces",
                detail: String::new(),
            },
        ];
        for e in &all {
            match e {
                YutError::NotYourTurn
                | YutError::NotThrowPhase
                | YutError::NotMovePhase
                | YutError::WrongPhase { .. }
                | YutError::UnknownThrowIndex { .. }
                | YutError::CannotMove { .. }
                | YutError::BackdoFromHome
                | YutError::MoveForbidden
                | YutError::AlreadyConceded
                | YutError::InvalidOption { .. }
                // Not Yut's own: their codes are listed by their own types.
                | YutError::Rule(_)
                | YutError::Core(_) => {}
            }
        }
        let codes: Vec<&str> = all.iter().map(GameError::code).collect();
        assert_eq!(codes, YutError::CODES);
        // The wire form names the same code, and the schema lists Yut's codes first.
        for e in &all {
            let wire = serde_json::to_value(e.wire()).unwrap();
            assert_eq!(wire["code"], e.code());
        }
        let listed = CodeSchemas::of::<YutError>();
        let mut all: Vec<&str> = YutError::CODES.to_vec();
        all.extend(
            Rejection::CODES
                .iter()
                .filter(|c| !YutError::CODES.contains(c)),
        );
        assert_eq!(listed.codes(), all);
    }
}
