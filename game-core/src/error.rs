//! Typed errors: every game's errors carry a stable machine code and a Korean message.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What every game error offers a host: a stable code to branch on, a message to show the
/// player, and an optional machine-readable reason.
pub trait GameError: std::error::Error + Send + Sync + 'static {
    /// A stable, machine-readable code in `SCREAMING_SNAKE_CASE` (never reworded).
    fn code(&self) -> &'static str;

    /// The player-facing message, in Korean.
    fn message(&self) -> String {
        self.to_string()
    }

    /// Extra data that helps a host react (for example the expected `turnSeq`): a JSON
    /// object, or `None` for an error that has nothing to add (its body then carries `{}`).
    fn reason(&self) -> Option<serde_json::Value> {
        None
    }

    /// The wire form of this error.
    fn body(&self) -> ErrorBody {
        ErrorBody {
            code: self.code().to_owned(),
            message: self.message(),
            reason: reason_object(self.reason()),
        }
    }
}

/// A reason as the object the wire promises: `None` is `{}`, and a game that returned
/// something other than an object (a logic slip, not a host's doing) has it kept under
/// `value` rather than breaking the shape.
pub(crate) fn reason_object(
    reason: Option<serde_json::Value>,
) -> serde_json::Map<String, serde_json::Value> {
    match reason {
        None => serde_json::Map::new(),
        Some(serde_json::Value::Object(map)) => map,
        Some(other) => std::iter::once(("value".to_owned(), other)).collect(),
    }
}

/// The serialized form of any error, the same for every game and for the host layer:
/// always all three fields.
///
/// ```
/// use game_core::{GameError, Rejection};
/// let body = Rejection::GameOver.body();
/// assert_eq!(body.code, "GAME_OVER");
/// assert!(body.reason.is_empty());
/// let stale = Rejection::StaleTurnSeq { got: 1, expected: 2 }.body();
/// assert_eq!(stale.reason["expected"], 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// Stable machine code (`SCREAMING_SNAKE_CASE`), the thing to branch on.
    pub code: String,
    /// Player-facing Korean message; it never carries parser text (see `reason.detail`).
    pub message: String,
    /// Machine-readable detail (the fields each code carries are listed in the error table
    /// of game-core's embedding guide); `{}` when the code says it all.
    pub reason: serde_json::Map<String, serde_json::Value>,
}

/// Rejections the framework itself decides, shared by every game. Each game's error type
/// converts from it, so a host sees one code whichever game it runs.
///
/// Non-exhaustive: the framework may learn new refusals; branch on the code for those.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Rejection {
    /// The request named an older (or future) action sequence number.
    #[error("화면이 최신 상태가 아니에요. 다시 시도해 주세요.")]
    StaleTurnSeq {
        /// The number the request carried.
        got: u64,
        /// The number the game is at.
        expected: u64,
    },
    /// The player id is not seated at this table (a spectator, or unknown).
    #[error("관전 중에는 행동할 수 없어요.")]
    NotSeated {
        /// The id that tried to act.
        player: String,
    },
    /// The game has ended; nothing more can be played.
    #[error("이미 끝난 게임이에요.")]
    GameOver,
    /// A chance outcome was supplied for an action that has none, or one that is not possible.
    #[error("그 결과는 지금 나올 수 없어요.")]
    ImpossibleOutcome,
    /// The seated players are not acceptable (duplicates or empty ids).
    #[error("참가자 목록이 올바르지 않아요.")]
    BadPlayers {
        /// What is wrong.
        detail: String,
    },
    /// The game (with these options) is not played by this many players.
    #[error(
        "이 게임은 {}명이 할 수 있어요 (지금 {players}명).",
        join_counts(allowed)
    )]
    BadPlayerCount {
        /// How many players were seated.
        players: usize,
        /// The player counts the game takes with these options, ascending.
        allowed: Vec<usize>,
    },
    /// A stored state failed validation.
    #[error("저장된 게임 상태가 올바르지 않아요.")]
    CorruptState {
        /// What is wrong, in terms a developer can act on.
        detail: String,
    },
    /// The seat is not one the game waits for now.
    #[error("지금은 차례가 아니에요.")]
    NotYourTurn,
    /// The action is not among the seat's legal actions now (what [`Game::validate`]'s
    /// default answers for any action [`Game::legal_actions`] does not list).
    ///
    /// [`Game::validate`]: crate::Game::validate
    /// [`Game::legal_actions`]: crate::Game::legal_actions
    #[error("지금은 그렇게 할 수 없어요.")]
    IllegalAction,
    /// An option is out of its range (see [`OptionRange`](crate::OptionRange)).
    #[error("{option} 설정은 {min}부터 {max}까지 고를 수 있어요.")]
    InvalidOption {
        /// The option's wire name.
        option: &'static str,
        /// The value given.
        got: u32,
        /// The smallest allowed value.
        min: u32,
        /// The largest allowed value.
        max: u32,
    },
}

impl Rejection {
    /// Every code a [`Rejection`] can carry: what a host that glosses or maps codes must
    /// cover (the enum is `#[non_exhaustive]`, so a host cannot match it exhaustively).
    ///
    /// ```
    /// use game_core::{GameError, Rejection};
    /// assert!(Rejection::CODES.contains(&Rejection::GameOver.code()));
    /// ```
    pub const CODES: [&'static str; 10] = [
        "STALE_TURN_SEQ",
        "NOT_SEATED",
        "GAME_OVER",
        "IMPOSSIBLE_OUTCOME",
        "BAD_PLAYERS",
        "BAD_PLAYER_COUNT",
        "CORRUPT_STATE",
        "NOT_YOUR_TURN",
        "ILLEGAL_ACTION",
        "INVALID_OPTION",
    ];
}

impl GameError for Rejection {
    fn code(&self) -> &'static str {
        match self {
            Self::StaleTurnSeq { .. } => "STALE_TURN_SEQ",
            Self::NotSeated { .. } => "NOT_SEATED",
            Self::GameOver => "GAME_OVER",
            Self::ImpossibleOutcome => "IMPOSSIBLE_OUTCOME",
            Self::BadPlayers { .. } => "BAD_PLAYERS",
            Self::BadPlayerCount { .. } => "BAD_PLAYER_COUNT",
            Self::CorruptState { .. } => "CORRUPT_STATE",
            Self::NotYourTurn => "NOT_YOUR_TURN",
            Self::IllegalAction => "ILLEGAL_ACTION",
            Self::InvalidOption { .. } => "INVALID_OPTION",
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        match self {
            Self::StaleTurnSeq { got, expected } => {
                Some(serde_json::json!({ "got": got, "expected": expected }))
            }
            Self::NotSeated { player } => Some(serde_json::json!({ "player": player })),
            Self::BadPlayers { detail } | Self::CorruptState { detail } => {
                Some(serde_json::json!({ "detail": detail }))
            }
            Self::BadPlayerCount { players, allowed } => {
                Some(serde_json::json!({ "players": players, "allowed": allowed }))
            }
            Self::InvalidOption {
                option,
                got,
                min,
                max,
            } => Some(serde_json::json!({ "option": option, "got": got, "min": min, "max": max })),
            Self::GameOver | Self::ImpossibleOutcome | Self::NotYourTurn | Self::IllegalAction => {
                None
            }
        }
    }
}

/// `2·3·4`: counts as the Korean messages list them.
fn join_counts(counts: &[usize]) -> String {
    let words: Vec<String> = counts.iter().map(usize::to_string).collect();
    words.join("·")
}

/// The longest parser message an error carries, in bytes.
pub(crate) const MAX_DETAIL: usize = 256;

/// A JSON parser's message, cut to [`MAX_DETAIL`] bytes: the message quotes the input
/// (an unknown variant, an oversized string), and a hostile document must not come back
/// whole, or twice, inside the error.
pub(crate) fn parse_detail(e: &serde_json::Error) -> String {
    cap_detail(e.to_string())
}

/// `text` cut to 256 bytes on a character boundary, marked with `…` if cut: for anything
/// of the input an error quotes back (a host's own errors too).
///
/// ```
/// let long = "가".repeat(200);
/// let cut = game_core::cap_detail(long);
/// assert!(cut.len() <= 256 + '…'.len_utf8() && cut.ends_with('…'));
/// assert_eq!(game_core::cap_detail("short".into()), "short");
/// ```
pub fn cap_detail(mut text: String) -> String {
    if text.len() > MAX_DETAIL {
        let mut cut = MAX_DETAIL;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The match has no wildcard: a new rejection fails to compile here until its code is
    /// in [`Rejection::CODES`].
    #[test]
    fn codes_lists_every_rejection() {
        let all = [
            Rejection::StaleTurnSeq {
                got: 0,
                expected: 1,
            },
            Rejection::NotSeated {
                player: String::new(),
            },
            Rejection::GameOver,
            Rejection::ImpossibleOutcome,
            Rejection::BadPlayers {
                detail: String::new(),
            },
            Rejection::BadPlayerCount {
                players: 0,
                allowed: Vec::new(),
            },
            Rejection::CorruptState {
                detail: String::new(),
            },
            Rejection::NotYourTurn,
            Rejection::IllegalAction,
            Rejection::InvalidOption {
                option: "",
                got: 0,
                min: 0,
                max: 0,
            },
        ];
        for r in &all {
            match r {
                Rejection::StaleTurnSeq { .. }
                | Rejection::NotSeated { .. }
                | Rejection::GameOver
                | Rejection::ImpossibleOutcome
                | Rejection::BadPlayers { .. }
                | Rejection::BadPlayerCount { .. }
                | Rejection::CorruptState { .. }
                | Rejection::NotYourTurn
                | Rejection::IllegalAction
                | Rejection::InvalidOption { .. } => {}
            }
        }
        let codes: Vec<&str> = all.iter().map(GameError::code).collect();
        assert_eq!(codes, Rejection::CODES);
    }
}
