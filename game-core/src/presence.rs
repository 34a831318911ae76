//! Presence: who is connected, who has been acted for, who is away.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Millis, PlayerId};

/// How many timeouts in a row mark a player away.
pub const AWAY_AFTER_TIMEOUTS: u8 = 3;

/// One seat's presence, kept in the state so it serializes and replays with it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Presence {
    /// When the player disconnected, or `None` while connected.
    pub disconnected_at: Option<Millis>,
    /// Timeouts in a row; an action of the player's own resets it.
    pub timeouts_in_row: u8,
    /// Shown as "자리 비움" after [`AWAY_AFTER_TIMEOUTS`] timeouts in a row; play goes on.
    pub away: bool,
}

impl Presence {
    /// Whether the player is connected.
    ///
    /// ```
    /// assert!(game_core::Presence::default().connected());
    /// ```
    pub fn connected(&self) -> bool {
        self.disconnected_at.is_none()
    }

    /// Records a timeout taken for this player; the third in a row marks them away.
    ///
    /// ```
    /// let mut p = game_core::Presence::default();
    /// for _ in 0..3 { p.timed_out(); }
    /// assert!(p.away);
    /// ```
    pub fn timed_out(&mut self) {
        self.timeouts_in_row = self.timeouts_in_row.saturating_add(1);
        if self.timeouts_in_row >= AWAY_AFTER_TIMEOUTS {
            self.away = true;
        }
    }

    /// Records an action the player took themselves: they are back.
    ///
    /// ```
    /// let mut p = game_core::Presence { away: true, timeouts_in_row: 3, ..Default::default() };
    /// p.acted();
    /// assert!(!p.away);
    /// ```
    pub fn acted(&mut self) {
        self.timeouts_in_row = 0;
        self.away = false;
    }
}

/// A player's presence changed: they connected or disconnected, became away (three
/// timeouts in a row) or came back by acting. Every game's events can carry it
/// ([`Game::Event`](crate::Game::Event) converts from it), so a host pushes it to the table
/// like any other event; on the wire it is `{"type": "presenceChanged", "player",
/// "connected", "away"}`.
///
/// ```
/// use game_core::{Game, GameExt, Match, PresenceChanged, rps::{Rps, RpsEvent, RpsOptions}};
/// let mut m = Match::new(Rps, RpsOptions::default(), vec!["a".into(), "b".into()], 1, 0).unwrap();
/// let events = m.set_connected("b", false, 10).result.unwrap();
/// assert_eq!(
///     events,
///     [RpsEvent::from(PresenceChanged { player: "b".into(), connected: false, away: false })]
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PresenceChanged {
    /// Whose presence changed.
    pub player: PlayerId,
    /// Whether they are connected now.
    pub connected: bool,
    /// Whether they are away now (shown as "자리 비움"; play goes on).
    pub away: bool,
}
