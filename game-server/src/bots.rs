//! The server's bots: a seat the server plays, of a kind its game offers through the
//! registry ([`DynGame::bot_kinds`]: `random` for every game, named ones per game).

use game_core::{DynBot, DynGame, DynMatch, HostError};
use serde_json::Value;

/// The bot of one seat: it plays on the live match (no state is read back from text for
/// a move).
pub struct ServerBot {
    kind: String,
    bot: Box<dyn DynBot>,
}

impl std::fmt::Debug for ServerBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerBot")
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl ServerBot {
    /// A bot of `kind` for matches of `game`, seeded from the OS (its choices are not part
    /// of the record's determinism: the record keeps the actions it took).
    /// `UNKNOWN_BOT` for a kind the game does not offer.
    pub fn new(game: &dyn DynGame, kind: &str) -> Result<Self, HostError> {
        Ok(Self {
            kind: kind.to_owned(),
            bot: game.bot(kind, random_u64())?,
        })
    }

    /// The bot's kind.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The action for `player` in `m`, as wire JSON, or `None` if it has none.
    pub fn choose(&mut self, m: &dyn DynMatch, player: &str) -> Option<Value> {
        self.bot.choose(m, player)
    }
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
    use game_core::GameError;
    use serde_json::json;

    /// Every kind every built-in game offers plays it to its end through the erased
    /// match: it always has an action when it is to act (or may act: One Card's calls),
    /// and the engine takes it.
    #[test]
    fn bots_always_have_an_action() {
        let registry = game_host::registry();
        let app = json!({"stickModel": "fair", "backdoFromDo": "home"});
        let mut games: Vec<(String, Value)> = registry
            .ids()
            .map(|id| (id.to_owned(), registry.get(id).unwrap().default_options()))
            .collect();
        games.push(("yut-augments".into(), app));
        for (game, options) in games {
            let kinds = registry.get(&game).unwrap().bot_kinds();
            assert!(kinds.contains(&"random"), "{game}: {kinds:?}");
            // The searches every game shares take their hosts' budgets, far too slow
            // unoptimised for whole games here: game-core and each game's own tests play
            // them to the end at small budgets, the Node suite at these (release).
            let searches = [game_core::PIMC_BOT, game_core::ISMCTS_BOT];
            for kind in kinds.into_iter().filter(|k| !searches.contains(k)) {
                for seed in 0..4 {
                    let players = vec!["a".to_string(), "b".to_string(), "c".to_string()];
                    let players =
                        match registry.create(&game, &options, players.clone(), Some(seed), 0) {
                            Ok(_) => players,
                            Err(_) => players[..2].to_vec(),
                        };
                    let mut m = registry
                        .create(&game, &options, players.clone(), Some(seed), 0)
                        .unwrap();
                    let mut bots: Vec<ServerBot> = players
                        .iter()
                        .map(|_| ServerBot::new(registry.get(&game).unwrap(), kind).unwrap())
                        .collect();
                    for _ in 0..5_000 {
                        if m.outcome().is_some() {
                            break;
                        }
                        let status = m.status();
                        let seat = status.to_act.first().or(status.may_act.first()).copied();
                        let Some(seat) = seat else {
                            panic!("{game} {kind} seed {seed}: nobody may act");
                        };
                        let p = players[seat].clone();
                        let Some(action) = bots[seat].choose(m.as_ref(), &p) else {
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

    /// A kind the game does not offer is refused with the erased layer's code.
    #[test]
    fn an_unknown_kind_is_refused() {
        let registry = game_host::registry();
        let e = ServerBot::new(registry.get("rps").unwrap(), "strong").unwrap_err();
        assert_eq!(e.code(), "UNKNOWN_BOT");
    }
}
