//! The server's bots: a seat the server plays, by kind (`random`, `policy`, `strong`).

use game_core::{Bot, DynMatch};
use serde_json::Value;
use yut::{BotKind, SeatBot, Yut};

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
        let seat = m.players().iter().position(|p| p == player)?;
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

/// A Yut bot's choice from the match's stored state, read back (validated) into the typed
/// state: the bot sees what the match holds, never more.
fn typed<R: yut::Rules>(
    bot: &mut SeatBot,
    game: &Yut<R>,
    m: &dyn DynMatch,
    seat: usize,
) -> Option<Value> {
    let state = game_core::Game::restore(game, &m.state_json().to_string()).ok()?;
    let action = bot.choose(game, &state, seat)?;
    serde_json::to_value(action).ok()
}

/// 64 random bits from the OS (0 if it fails: a bot's choice, never a secret).
pub(crate) fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    let _ = getrandom::fill(&mut b);
    u64::from_le_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every kind plays every Yut game to its end through the erased match: it always has
    /// an action when it is to act, and the engine takes it.
    #[test]
    fn bots_always_have_an_action() {
        let registry = game_host::registry();
        let app = json!({"stickModel": "fair", "backdoFromDo": "home"});
        for (game, options) in [
            ("yut", json!({})),
            ("yut-augments", app),
            ("yut-augments", json!({})),
        ] {
            for kind in [BotKind::Random, BotKind::Policy, BotKind::Strong] {
                for seed in 0..4 {
                    let mut options = options.clone();
                    if options.as_object().is_some_and(|o| o.is_empty()) {
                        options = registry.get(game).unwrap().default_options();
                    }
                    let players = vec!["a".to_string(), "b".to_string()];
                    let mut m = registry
                        .create(game, &options, players, Some(seed), 0)
                        .unwrap();
                    let mut bot = ServerBot::new(kind);
                    for _ in 0..3_000 {
                        if m.outcome().is_some() {
                            break;
                        }
                        let p = m.to_act()[0].clone();
                        let action = bot.choose(m.as_ref(), &p);
                        let Some(action) = action else {
                            panic!(
                                "{game} {kind} seed {seed}: no action; state {}",
                                m.state_json()
                            );
                        };
                        let turn = m.turn_seq();
                        let played = m.act(&p, action.clone(), Some(turn), 0);
                        assert!(
                            played.result.is_ok(),
                            "{game} {kind}: {action} refused: {:?}",
                            played.result
                        );
                    }
                    assert!(
                        m.outcome().is_some(),
                        "{game} {kind} seed {seed} did not end"
                    );
                }
            }
        }
    }
}
