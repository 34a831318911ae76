//! The type-erased layer: many kinds of games behind one JSON interface.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{
    ErrorBody, Game, GameError, GameSchemas, Match, MatchRecord, Millis, PlayerId, Viewer,
};

/// An error of the erased layer: the game's own error, or a host-level problem. On the wire
/// every one is an [`ErrorBody`] with a stable code.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HostError {
    /// The game refused (its code and Korean message are kept).
    #[error("{}", .0.message)]
    Game(ErrorBody),
    /// No game is registered under this id.
    #[error("등록되지 않은 게임이에요: {0}")]
    UnknownGame(String),
    /// The JSON does not have the shape the game expects.
    #[error("요청 형식이 올바르지 않아요: {what}: {detail}")]
    BadJson {
        /// Which part of the request.
        what: &'static str,
        /// The parser's message.
        detail: String,
    },
}

impl GameError for HostError {
    fn code(&self) -> &'static str {
        match self {
            Self::Game(_) => "GAME_ERROR",
            Self::UnknownGame(_) => "UNKNOWN_GAME",
            Self::BadJson { .. } => "BAD_JSON",
        }
    }

    fn body(&self) -> ErrorBody {
        match self {
            Self::Game(body) => body.clone(),
            other => ErrorBody {
                code: other.code().to_owned(),
                message: other.to_string(),
                reason: match other {
                    Self::BadJson { what, detail } => {
                        Some(serde_json::json!({ "part": what, "detail": detail }))
                    }
                    Self::UnknownGame(id) => Some(serde_json::json!({ "game": id })),
                    Self::Game(_) => None,
                },
            },
        }
    }
}

fn game_err<E: GameError>(e: E) -> HostError {
    HostError::Game(e.body())
}

fn parse<T: serde::de::DeserializeOwned>(what: &'static str, v: Value) -> Result<T, HostError> {
    serde_json::from_value(v).map_err(|e| HostError::BadJson {
        what,
        detail: crate::error::parse_detail(&e),
    })
}

fn to_json<T: Serialize>(v: &T) -> Value {
    // Game types serialize to JSON without failure (no non-string map keys, no NaN floats);
    // a failure here would be a bug in a game, shown to the host as null rather than a panic.
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// An action applied through the erased layer, in JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppliedJson {
    /// Who acted.
    pub player: PlayerId,
    /// The action.
    pub action: Value,
    /// What happened.
    pub events: Vec<Value>,
    /// Whether the engine took it on the player's behalf.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto: bool,
}

/// A game kind behind the erased interface.
pub trait DynGame: Send + Sync {
    /// The game's id.
    fn id(&self) -> &'static str;
    /// The JSON Schemas of its wire types.
    fn schemas(&self) -> GameSchemas;
    /// The default options, in JSON.
    fn default_options(&self) -> Value;
    /// Starts a match from JSON options.
    fn create(
        &self,
        options: Value,
        players: Vec<PlayerId>,
        seed: u64,
        now: Millis,
    ) -> Result<Box<dyn DynMatch>, HostError>;
    /// Rebuilds a match from its record.
    fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynMatch>, HostError>;
}

/// A match behind the erased interface: JSON in, JSON out, the game's errors kept.
pub trait DynMatch: Send + Sync {
    /// The game's id.
    fn game_id(&self) -> &'static str;
    /// Applies an action given as JSON. With `turn_seq`, a stale request is refused.
    fn act(
        &mut self,
        player: &str,
        action: Value,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> Result<Vec<Value>, HostError>;
    /// The view of a player (`Some(id)`) or a spectator (`None`).
    fn view(&self, player: Option<&str>) -> Value;
    /// The same view as JSON text, ready to send: written straight from the game's typed
    /// view, without the `Value` tree [`DynMatch::view`] builds (several times faster for a
    /// host that only forwards it).
    ///
    /// ```
    /// use game_core::{Erased, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps));
    /// let m = r.create("rps", serde_json::json!({}), vec!["a".into(), "b".into()], 1, 0).unwrap();
    /// let text = m.view_text(Some("a"));
    /// assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), m.view(Some("a")));
    /// ```
    fn view_text(&self, player: Option<&str>) -> String;
    /// Moves the clock: takes due timeouts.
    fn tick(&mut self, now: Millis) -> Vec<AppliedJson>;
    /// Marks a player connected or disconnected.
    fn set_connected(
        &mut self,
        player: &str,
        connected: bool,
        now: Millis,
    ) -> Result<(), HostError>;
    /// Seats that may act now, as player ids.
    fn to_act(&self) -> Vec<PlayerId>;
    /// Legal actions of a player, as JSON.
    fn legal_actions(&self, player: &str) -> Result<Vec<Value>, HostError>;
    /// The current deadline.
    fn deadline(&self) -> Option<Millis>;
    /// The action sequence number.
    fn turn_seq(&self) -> u64;
    /// The outcome, once over.
    fn outcome(&self) -> Option<Value>;
    /// The match record.
    fn record(&self) -> &MatchRecord;
    /// The full state (with RNG) for storage. Never send it to a client.
    fn state_json(&self) -> Value;
}

/// Wraps a typed [`Game`] for the erased layer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Erased<G>(pub G);

impl<G: Game + Clone> DynGame for Erased<G>
where
    G::Options: Default,
{
    fn id(&self) -> &'static str {
        self.0.id()
    }

    fn schemas(&self) -> GameSchemas {
        GameSchemas::of(&self.0)
    }

    fn default_options(&self) -> Value {
        to_json(&G::Options::default())
    }

    fn create(
        &self,
        options: Value,
        players: Vec<PlayerId>,
        seed: u64,
        now: Millis,
    ) -> Result<Box<dyn DynMatch>, HostError> {
        // serde's derived structs also read from a JSON array, field by field in order: a
        // game whose options are an object takes them only as one.
        if !options.is_object() && self.default_options().is_object() {
            return Err(HostError::BadJson {
                what: "options",
                detail: "the options are a JSON object".into(),
            });
        }
        let options: G::Options = parse("options", options)?;
        let m = Match::new(self.0.clone(), options, players, seed, now).map_err(game_err)?;
        Ok(Box::new(m))
    }

    fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynMatch>, HostError> {
        let m = Match::replay(self.0.clone(), record).map_err(game_err)?;
        Ok(Box::new(m))
    }
}

impl<G: Game> DynMatch for Match<G> {
    fn game_id(&self) -> &'static str {
        self.game.id()
    }

    fn act(
        &mut self,
        player: &str,
        action: Value,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> Result<Vec<Value>, HostError> {
        let action: G::Action = parse("action", action)?;
        let events = match turn_seq {
            Some(seq) => self.act_at(player, &action, seq, now),
            None => Match::act(self, player, &action, now),
        }
        .map_err(game_err)?;
        Ok(events.iter().map(to_json).collect())
    }

    fn view(&self, player: Option<&str>) -> Value {
        let viewer = player.map_or(Viewer::Spectator, Viewer::Player);
        to_json(&self.game.view(&self.state, viewer))
    }

    fn view_text(&self, player: Option<&str>) -> String {
        let viewer = player.map_or(Viewer::Spectator, Viewer::Player);
        // As in `to_json`: game views serialize without failure; null rather than a panic.
        serde_json::to_string(&self.game.view(&self.state, viewer))
            .unwrap_or_else(|_| "null".to_owned())
    }

    fn tick(&mut self, now: Millis) -> Vec<AppliedJson> {
        Match::tick(self, now)
            .into_iter()
            .map(|a| AppliedJson {
                player: a.player,
                action: to_json(&a.action),
                events: a.events.iter().map(to_json).collect(),
                auto: a.auto,
            })
            .collect()
    }

    fn set_connected(
        &mut self,
        player: &str,
        connected: bool,
        now: Millis,
    ) -> Result<(), HostError> {
        Match::set_connected(self, player, connected, now).map_err(game_err)
    }

    fn to_act(&self) -> Vec<PlayerId> {
        let players = &self.game.table(&self.state).players;
        self.game
            .to_act(&self.state)
            .into_iter()
            .map(|s| players[s].clone())
            .collect()
    }

    fn legal_actions(&self, player: &str) -> Result<Vec<Value>, HostError> {
        let seat = self.game.seat(&self.state, player).map_err(game_err)?;
        Ok(self
            .game
            .legal_actions(&self.state, seat)
            .iter()
            .map(to_json)
            .collect())
    }

    fn deadline(&self) -> Option<Millis> {
        self.game.deadline(&self.state)
    }

    fn turn_seq(&self) -> u64 {
        self.game.turn_seq(&self.state)
    }

    fn outcome(&self) -> Option<Value> {
        self.game.outcome(&self.state).as_ref().map(to_json)
    }

    fn record(&self) -> &MatchRecord {
        &self.record
    }

    fn state_json(&self) -> Value {
        to_json(&self.state)
    }
}

/// Game kinds by id: what a host consults to create or replay any match.
///
/// ```
/// use game_core::{Erased, Registry, rps::Rps};
/// let mut registry = Registry::new();
/// registry.register(Erased(Rps));
/// let m = registry
///     .create("rps", serde_json::json!({}), vec!["a".into(), "b".into()], 1, 0)
///     .unwrap();
/// assert_eq!(m.game_id(), "rps");
/// assert!(registry.create("chess", serde_json::json!({}), vec![], 1, 0).is_err());
/// ```
#[derive(Default)]
pub struct Registry {
    games: BTreeMap<&'static str, Box<dyn DynGame>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a game kind (replacing one with the same id).
    pub fn register(&mut self, game: impl DynGame + 'static) -> &mut Self {
        self.games.insert(game.id(), Box::new(game));
        self
    }

    /// The registered ids, sorted.
    pub fn ids(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.games.keys().copied()
    }

    /// The game kind with this id.
    pub fn get(&self, id: &str) -> Result<&dyn DynGame, HostError> {
        self.games
            .get(id)
            .map(|g| g.as_ref())
            .ok_or_else(|| HostError::UnknownGame(id.to_owned()))
    }

    /// Starts a match of game `id`.
    pub fn create(
        &self,
        id: &str,
        options: Value,
        players: Vec<PlayerId>,
        seed: u64,
        now: Millis,
    ) -> Result<Box<dyn DynMatch>, HostError> {
        self.get(id)?.create(options, players, seed, now)
    }

    /// Rebuilds a match from a record of any registered game.
    pub fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynMatch>, HostError> {
        self.get(&record.game)?.replay(record)
    }
}
