//! Events in their wire format: objects tagged by `type`, camelCase fields (RULES.md, Views,
//! events and errors).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::graph::Node;
use crate::state::SideId;
use crate::{Origin, PackedThrows, Path, Sticks, Throw, To};

/// Something that happened. Tagged by `type`; rule extensions add their own events (`X`),
/// which appear untagged by this enum (they carry their own `type`).
#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    deny_unknown_fields,
    bound(
        serialize = "X: Serialize",
        deserialize = "X: serde::de::DeserializeOwned"
    )
)]
#[non_exhaustive]
pub enum YutEvent<X = NoEvent> {
    /// The sticks landed.
    #[serde(rename_all = "camelCase")]
    Thrown {
        /// Who threw.
        side: SideId,
        /// The four sticks (`true` = flat side up, stick 0 marked).
        sticks: Sticks,
        /// What they show.
        result: Throw,
    },
    /// The sticks fell off the mat: no result.
    #[serde(rename_all = "camelCase")]
    Nak {
        /// Who threw.
        side: SideId,
    },
    /// A stack moved.
    #[serde(rename_all = "camelCase")]
    Moved {
        /// Whose stack.
        side: SideId,
        /// The result used.
        result: Throw,
        /// Where it started.
        from: Origin,
        /// Where it ended.
        to: To,
        /// Every node stepped on, the start (if on the board) first.
        path: Path,
        /// Pieces moved together.
        count: u8,
    },
    /// A rule carried the stack that had just moved further on
    /// ([`Cx::carry`](crate::rules::Cx::carry)); stacking, a capture and finishing follow
    /// as they follow a move.
    #[serde(rename_all = "camelCase")]
    Carried {
        /// Whose stack.
        side: SideId,
        /// Where it started: where the move (or the last carry) ended.
        from: Node,
        /// Where it ended.
        to: To,
        /// Every node stepped on, the start first.
        path: Path,
        /// Pieces carried together.
        count: u8,
    },
    /// The moving stack joined the side's own stack (업기).
    #[serde(rename_all = "camelCase")]
    Stacked {
        /// Whose pieces.
        side: SideId,
        /// Where.
        node: Node,
        /// The size of the stack now.
        count: u8,
    },
    /// A stack of another side was captured and sent home.
    #[serde(rename_all = "camelCase")]
    Captured {
        /// Who captured.
        side: SideId,
        /// Whose pieces were captured.
        victim_side: SideId,
        /// Where.
        node: Node,
        /// How many pieces.
        count: u8,
    },
    /// Pieces finished (남).
    #[serde(rename_all = "camelCase")]
    FinishedPieces {
        /// Whose.
        side: SideId,
        /// How many with this move.
        count: u8,
    },
    /// Results that fit nowhere were dropped.
    #[serde(rename_all = "camelCase")]
    Discarded {
        /// Whose.
        side: SideId,
        /// The dropped results.
        throws: PackedThrows,
    },
    /// The turn passed.
    #[serde(rename_all = "camelCase")]
    TurnChanged {
        /// The seat whose turn it is now.
        seat: u8,
        /// Their side.
        side: SideId,
    },
    /// A side finished all its pieces.
    #[serde(rename_all = "camelCase")]
    SideFinished {
        /// Which.
        side: SideId,
        /// Its place.
        rank: u8,
    },
    /// A player conceded (in team play the team leaves when all members have).
    #[serde(rename_all = "camelCase")]
    Conceded {
        /// The seat that conceded.
        seat: u8,
        /// Their side.
        side: SideId,
        /// Whether the side has left the game with it.
        side_out: bool,
    },
    /// The game ended.
    #[serde(rename_all = "camelCase")]
    GameOver {
        /// The winning players.
        winners: Vec<String>,
    },
    /// A player's presence changed: connected or not, away (three timeouts in a row) or
    /// back.
    #[serde(rename_all = "camelCase")]
    PresenceChanged {
        /// Whose.
        player: String,
        /// Connected now?
        connected: bool,
        /// Away now?
        away: bool,
    },
    /// An event of a rule extension.
    #[serde(untagged)]
    Rule(X),
}

// By hand rather than derived, to be inlined: the recent-event log copies every event of
// every step, and the derived `clone` is a call of its own.
impl<X: Clone> Clone for YutEvent<X> {
    #[inline(always)]
    fn clone(&self) -> Self {
        match self {
            &Self::Thrown {
                side,
                sticks,
                result,
            } => Self::Thrown {
                side,
                sticks,
                result,
            },
            &Self::Nak { side } => Self::Nak { side },
            &Self::Moved {
                side,
                result,
                from,
                to,
                path,
                count,
            } => Self::Moved {
                side,
                result,
                from,
                to,
                path,
                count,
            },
            &Self::Carried {
                side,
                from,
                to,
                path,
                count,
            } => Self::Carried {
                side,
                from,
                to,
                path,
                count,
            },
            &Self::Stacked { side, node, count } => Self::Stacked { side, node, count },
            &Self::Captured {
                side,
                victim_side,
                node,
                count,
            } => Self::Captured {
                side,
                victim_side,
                node,
                count,
            },
            &Self::FinishedPieces { side, count } => Self::FinishedPieces { side, count },
            &Self::Discarded { side, throws } => Self::Discarded { side, throws },
            &Self::TurnChanged { seat, side } => Self::TurnChanged { seat, side },
            &Self::SideFinished { side, rank } => Self::SideFinished { side, rank },
            &Self::Conceded {
                seat,
                side,
                side_out,
            } => Self::Conceded {
                seat,
                side,
                side_out,
            },
            Self::GameOver { winners } => Self::GameOver {
                winners: winners.clone(),
            },
            Self::PresenceChanged {
                player,
                connected,
                away,
            } => Self::PresenceChanged {
                player: player.clone(),
                connected: *connected,
                away: *away,
            },
            Self::Rule(x) => Self::Rule(x.clone()),
        }
    }
}

impl<X> From<game_core::PresenceChanged> for YutEvent<X> {
    fn from(p: game_core::PresenceChanged) -> Self {
        YutEvent::PresenceChanged {
            player: p.player,
            connected: p.connected,
            away: p.away,
        }
    }
}

/// The event type of the standard rules: there are none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum NoEvent {}
