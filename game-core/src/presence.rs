//! Presence: who is connected, who has been acted for, who is away.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Millis;

/// How many timeouts in a row mark a player away.
pub const AWAY_AFTER_TIMEOUTS: u8 = 3;

/// One seat's presence, kept in the state so it serializes and replays with it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
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
