//! Player-facing errors for every rejected action or setting.

use game_core::{GameError, Rejection};

use crate::board::Node;
use crate::state::Phase;

/// Why an action or an option was refused. A refused action changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
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
    /// A rule extension refused the action.
    #[error("{message}")]
    Rule {
        /// The extension's stable code.
        code: &'static str,
        /// Player-facing message.
        message: String,
    },
    /// A refusal of the framework (stale request, spectator, game over, corrupt state).
    #[error(transparent)]
    Core(#[from] Rejection),
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
            Self::Rule { code, .. } => code,
            Self::Core(r) => r.code(),
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        use serde_json::json;
        match self {
            Self::WrongPhase { phase } => Some(json!({ "phase": phase })),
            Self::UnknownThrowIndex { index, pending } => {
                Some(json!({ "throwIndex": index, "pending": pending }))
            }
            Self::CannotMove { from } => {
                Some(json!({ "from": from.map_or(json!("home"), |n| json!(n)) }))
            }
            Self::InvalidOption { option, .. } => Some(json!({ "option": option })),
            Self::Core(r) => r.reason(),
            _ => None,
        }
    }
}
