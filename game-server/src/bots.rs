//! The server's bots: a seat the server plays, by kind (`random`, `policy`, `strong`).

use game_core::{Bot, DynMatch};
use serde_json::Value;
use yut::{BotKind, SeatBot, Yut, YutState};

/// The bot of one seat.
pub struct ServerBot {
    kind: BotKind,
    seat_bot: SeatBot,
}

/// Whether `kind` can play `game`: `random` plays any game (uniformly among the legal
/// actions), `policy` and `strong` play the Yut games, whose typed state they read.
pub fn plays(kind: BotKind, game: &str) -> bool {
    kind == BotKind::Random || matches!(game, "yut" | "yut-augments")
}

impl ServerBot {
    /// A bot of `kind`, seeded from the OS (its choices are not part of the record's
    /// determinism: the record keeps the actions it took).
    pub fn new(kind: BotKind) -> Self {
        Self {
            kind,
            seat_bot: SeatBot::new(kind, random_u64()),
        }
    }

    /// The bot's kind.
    pub fn kind(&self) -> BotKind {
        self.kind
    }

    /// The action for `player` in `m`, as wire JSON, or `None` if it has none.
    pub fn choose(&mut self, m: &dyn DynMatch, player: &str) -> Option<Value> {
        let seat = m.record().players.iter().position(|p| p == player)?;
        match (self.kind, m.game_id()) {
            (BotKind::Policy | BotKind::Strong, "yut") => {
                typed(&mut self.seat_bot, &Yut::standard(), m, seat)
            }
            (BotKind::Policy | BotKind::Strong, "yut-augments") => {
                typed(&mut self.seat_bot, &yut_augments::game(), m, seat)
            }
            _ => {
                let legal = m.legal_actions(player).ok()?;
                if legal.is_empty() {
                    return None;
                }
                let i = (random_u64() % legal.len() as u64) as usize;
                legal.into_iter().nth(i)
            }
        }
    }
}

/// A Yut bot's choice from the match's stored state, read back into the typed state.
fn typed<R: yut::Rules>(
    bot: &mut SeatBot,
    game: &Yut<R>,
    m: &dyn DynMatch,
    seat: usize,
) -> Option<Value> {
    let state: YutState<R> = serde_json::from_value(m.state_json()).ok()?;
    let action = bot.choose(game, &state, seat)?;
    serde_json::to_value(action).ok()
}

/// 64 random bits from the OS (0 if it fails: a bot's choice, never a secret).
pub(crate) fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    let _ = getrandom::fill(&mut b);
    u64::from_le_bytes(b)
}
