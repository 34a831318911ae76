//! The type-erased layer: many kinds of games behind one JSON interface.

use crate::GameExt;
use crate::GameState;
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{
    ErrorBody, Game, GameError, GameSchemas, Match, MatchRecord, Millis, Played, PlayerId,
    Rejection, Viewer,
};

/// An error of the erased layer: the game's own error, or a host-level problem. On the wire
/// every one is an [`ErrorBody`] with a stable code; the Korean message names the part at
/// fault, and the parser's own words are in `reason.detail`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// The game refused (its code and Korean message are kept).
    #[error("{}", .0.message)]
    Game(ErrorBody),
    /// No game is registered under this id. (The message, shown to players, never holds
    /// the request's text: the id is in the reason.)
    #[error("등록되지 않은 게임이에요.")]
    UnknownGame(String),
    /// The JSON does not have the shape the game expects.
    #[error("{what} 형식이 올바르지 않아요.")]
    BadJson {
        /// Which part of the request (`action`, `options`, `state`).
        what: &'static str,
        /// The parser's message.
        detail: String,
    },
    /// An option has a value the game does not take (wrong type, unknown value, out of
    /// range) or is not an option of the game at all. (The message, shown to players,
    /// never holds the request's text, which an unknown option's name is: the name is in
    /// the reason.)
    #[error("게임 설정 가운데 올바르지 않은 값이 있어요.")]
    InvalidOption {
        /// The option's wire name.
        option: String,
        /// The parser's message.
        detail: String,
    },
    /// No seed was given and the operating system gave none.
    #[error("게임을 시작할 난수를 얻지 못했어요. 잠시 후 다시 시도해 주세요.")]
    NoSeed {
        /// The operating system's error.
        detail: String,
    },
    /// An action named by its index into the player's legal actions
    /// ([`DynMatch::act_legal`]), past the end of that list.
    #[error("지금 고를 수 있는 행동 가운데 그 번호는 없어요.")]
    UnknownActionIndex {
        /// The index given.
        index: u64,
        /// How many legal actions the player has now.
        count: usize,
    },
    /// No bot of this kind plays the game ([`DynGame::bot`]). (The message never holds
    /// the request's text: the kind is in the reason.)
    #[error("이 게임에는 그런 봇이 없어요.")]
    UnknownBot {
        /// The kind asked for.
        kind: String,
        /// The kinds the game offers ([`DynGame::bot_kinds`]).
        kinds: Vec<&'static str>,
    },
}

impl GameError for HostError {
    fn code(&self) -> &'static str {
        match self {
            Self::Game(_) => "GAME_ERROR",
            Self::UnknownGame(_) => "UNKNOWN_GAME",
            Self::BadJson { .. } => "BAD_JSON",
            Self::InvalidOption { .. } => "INVALID_OPTION",
            Self::NoSeed { .. } => "NO_SEED",
            Self::UnknownActionIndex { .. } => "UNKNOWN_ACTION_INDEX",
            Self::UnknownBot { .. } => "UNKNOWN_BOT",
        }
    }

    fn reason(&self) -> Option<Value> {
        use HostErrorWire as W;
        let wire = match self {
            Self::Game(body) => return Some(Value::Object(body.reason.clone())),
            Self::BadJson { what, detail } => W::BadJson { part: what, detail },
            Self::InvalidOption { option, detail } => W::InvalidOption { option, detail },
            Self::UnknownGame(game) => W::UnknownGame { game },
            Self::NoSeed { detail } => W::NoSeed { detail },
            Self::UnknownActionIndex { index, count } => W::UnknownActionIndex {
                index: *index,
                count: *count,
            },
            Self::UnknownBot { kind, kinds } => W::UnknownBot {
                bot: kind,
                bots: kinds,
            },
        };
        crate::reason_of(&wire)
    }

    fn body(&self) -> ErrorBody {
        match self {
            Self::Game(body) => body.clone(),
            other => ErrorBody {
                code: other.code().to_owned(),
                message: other.to_string(),
                reason: crate::error::reason_object(other.reason()),
            },
        }
    }
}

/// The wire form of the host layer's own refusals (a game's are its own): one definition
/// writes the reason and lists the codes with their reasons' schemas.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", content = "reason", rename_all = "SCREAMING_SNAKE_CASE")]
enum HostErrorWire<'a> {
    /// No game is registered under this id.
    UnknownGame {
        /// The id asked for.
        game: &'a str,
    },
    /// The JSON does not have the shape the game expects.
    BadJson {
        /// Which part of the request (`action`, `options`, `state`).
        part: &'a str,
        /// The parser's message.
        detail: &'a str,
    },
    /// An option the game does not take, or a match setting out of range (`graceMs`).
    InvalidOption {
        /// The option's wire name.
        option: &'a str,
        /// What is wrong.
        detail: &'a str,
    },
    /// No seed was given and the operating system gave none.
    NoSeed {
        /// The operating system's error.
        detail: &'a str,
    },
    /// An action index past the end of the player's legal actions.
    UnknownActionIndex {
        /// The index given.
        index: u64,
        /// How many legal actions the player has now.
        count: usize,
    },
    /// No bot of this kind plays the game.
    UnknownBot {
        /// The kind asked for.
        bot: &'a str,
        /// The kinds the game offers.
        bots: &'a [&'static str],
    },
}

/// The host layer's own codes (a game's refusal keeps the game's code and reason).
impl crate::ErrorCodes for HostError {
    fn codes(codes: &mut crate::CodeSchemas) {
        codes.tagged::<HostErrorWire<'_>>();
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

/// [`to_json`] as text, written straight from the typed value without a [`Value`] tree
/// (null, rather than a panic, for a value that fails to serialize).
fn to_text<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_owned())
}

/// An action given as JSON text: read as a [`Value`], then as [`DynMatch::act`] reads a
/// value, so that both ways are strict alike ([`crate::wire::read_action`]) and refuse in
/// the same words.
fn action_from_text<A: Serialize + serde::de::DeserializeOwned>(
    text: &str,
) -> Result<A, HostError> {
    let value = serde_json::from_str::<Value>(text).map_err(|e| HostError::BadJson {
        what: "action",
        detail: crate::error::parse_detail(&e),
    })?;
    action_from_value(value)
}

/// A game's action read strictly from JSON ([`crate::wire::read_action`]).
fn action_from_value<A: Serialize + serde::de::DeserializeOwned>(
    value: Value,
) -> Result<A, HostError> {
    crate::wire::read_action(value).map_err(|detail| HostError::BadJson {
        what: "action",
        detail: crate::cap_detail(detail),
    })
}

/// Reads a game's options from JSON as strictly for every game: an object (when the
/// game's options are one), and any bad value is `INVALID_OPTION` naming the option.
///
/// serde's derived structs also read a JSON array, field by field in order, hence the
/// object check; and serde's error does not say which field failed, so the culprit is
/// found by trying each given field alone on top of the defaults.
fn read_options<G: Game>(value: &Value) -> Result<G::Options, HostError>
where
    G::Options: Default,
{
    // An object that reads is the common case: answered before the defaults are written.
    if value.is_object()
        && let Ok(options) = G::Options::deserialize(value)
    {
        return Ok(options);
    }
    let defaults = to_json(&G::Options::default());
    let (Value::Object(given), Value::Object(base)) = (value, &defaults) else {
        if defaults.is_object() {
            return Err(HostError::BadJson {
                what: "options",
                detail: "the options are a JSON object".into(),
            });
        }
        return parse("options", value.clone());
    };
    let whole = match G::Options::deserialize(value) {
        Ok(options) => return Ok(options),
        Err(e) => e,
    };
    for (key, v) in given {
        let mut probe = base.clone();
        probe.insert(key.clone(), v.clone());
        if let Err(e) = G::Options::deserialize(&Value::Object(probe)) {
            return Err(HostError::InvalidOption {
                option: crate::error::cap_detail(key.clone()),
                detail: crate::error::parse_detail(&e),
            });
        }
    }
    Err(HostError::BadJson {
        what: "options",
        detail: crate::error::parse_detail(&whole),
    })
}

/// The largest integer a JavaScript number holds exactly (2^53 − 1).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A seed from the operating system, for a match created without one: a constant default
/// would deal every such match the same sticks. Kept to 53 bits, so that a record (which
/// holds the seed) survives a TypeScript host's `JSON.parse`; 53 random bits are still
/// unguessable for the life of a match.
fn os_seed() -> Result<u64, HostError> {
    getrandom::u64()
        .map(|s| s & MAX_SAFE_INTEGER)
        .map_err(|e| HostError::NoSeed {
            detail: e.to_string(),
        })
}

/// The events of one change, kept typed inside: each viewer gets the game's projection
/// of them ([`Game::event_for`]), never the events themselves. A host sends each player,
/// socket or caller [`DynEvents::for_viewer`] with their own id, and a spectator `None`.
///
/// ```
/// use game_core::{Erased, Registry, rps::Rps};
/// let mut r = Registry::new();
/// r.register(Erased(Rps)).unwrap();
/// let mut m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
/// let played = m.act("a", serde_json::json!({"type": "PICK", "hand": "rock"}), None, 0);
/// // Rock-paper-scissors shows everyone the same events.
/// assert_eq!(played.events().for_viewer(Some("b")), played.events().for_viewer(None));
/// assert_eq!(played.events().len(), 1);
/// ```
#[derive(Clone, Default)]
pub struct DynEvents(Option<Arc<dyn ProjectEvents>>);

/// Typed events and the game that projects them, behind [`DynEvents`].
trait ProjectEvents: Send + Sync {
    fn values(&self, viewer: Viewer<'_>) -> Vec<Value>;
    fn text(&self, viewer: Viewer<'_>) -> String;
    fn len(&self) -> usize;
    /// The events themselves, as JSON text: only to compare two changes.
    fn whole(&self) -> String;
}

/// A game's own events of one change, with the game (usually zero-sized) to project them.
struct Typed<G: Game> {
    game: G,
    events: Vec<G::Event>,
}

impl<G: Game> Typed<G> {
    fn projected(&self, viewer: Viewer<'_>) -> Vec<G::Event> {
        project(&self.game, &self.events, viewer)
    }
}

/// `events` as `viewer` sees them.
fn project<G: Game>(game: &G, events: &[G::Event], viewer: Viewer<'_>) -> Vec<G::Event> {
    events.iter().map(|e| game.event_for(e, viewer)).collect()
}

impl<G: Game> ProjectEvents for Typed<G> {
    fn values(&self, viewer: Viewer<'_>) -> Vec<Value> {
        self.projected(viewer).iter().map(to_json).collect()
    }

    fn text(&self, viewer: Viewer<'_>) -> String {
        to_text(&self.projected(viewer))
    }

    fn len(&self) -> usize {
        self.events.len()
    }

    fn whole(&self) -> String {
        to_text(&self.events)
    }
}

/// The viewer a host names: a player by id, or the spectator (`None`).
fn viewer_of(player: Option<&str>) -> Viewer<'_> {
    player.map_or(Viewer::Spectator, Viewer::Player)
}

impl DynEvents {
    fn of<G: Game + Clone>(game: &G, events: Vec<G::Event>) -> Self {
        if events.is_empty() {
            return Self(None);
        }
        Self(Some(Arc::new(Typed {
            game: game.clone(),
            events,
        })))
    }

    /// The events as `viewer` sees them: a player by id (`Some`), or a spectator (`None`).
    /// An id that is not seated sees what the game shows a player the events do not
    /// concern.
    pub fn for_viewer(&self, viewer: Option<&str>) -> Vec<Value> {
        self.0
            .as_ref()
            .map_or_else(Vec::new, |e| e.values(viewer_of(viewer)))
    }

    /// [`DynEvents::for_viewer`] as the text of a JSON array, written straight from the
    /// game's typed events.
    pub fn text_for(&self, viewer: Option<&str>) -> String {
        self.0
            .as_ref()
            .map_or_else(|| "[]".to_owned(), |e| e.text(viewer_of(viewer)))
    }

    /// How many events there are.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |e| e.len())
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::fmt::Debug for DynEvents {
    /// How many events, never what they hold (they may be private to a player).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynEvents")
            .field("len", &self.len())
            .finish()
    }
}

impl PartialEq for DynEvents {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => a.whole() == b.whole(),
            _ => false,
        }
    }
}

/// An action applied through the erased layer, in JSON. Two are equal when their wire
/// forms are.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppliedJson {
    /// Who acted.
    pub player: PlayerId,
    /// The action.
    pub action: Value,
    /// What happened, as a spectator sees it ([`AppliedJson::for_viewer`] gives a
    /// player's own projection).
    pub events: Vec<Value>,
    /// Whether the engine took it on the player's behalf.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto: bool,
    /// The events, typed, for each viewer's projection (not on the wire).
    #[serde(skip)]
    #[schemars(skip)]
    typed: DynEvents,
}

impl PartialEq for AppliedJson {
    fn eq(&self, other: &Self) -> bool {
        (&self.player, &self.action, &self.events, self.auto)
            == (&other.player, &other.action, &other.events, other.auto)
    }
}

impl AppliedJson {
    /// The events as `viewer` sees them (see [`DynEvents::for_viewer`]).
    pub fn events_for(&self, viewer: Option<&str>) -> Vec<Value> {
        if self.typed.is_empty() {
            // Read from the wire or built by hand: the events are all there is.
            return self.events.clone();
        }
        self.typed.for_viewer(viewer)
    }

    /// This action with its `events` as `viewer` sees them: what a host sends that viewer.
    ///
    /// ```
    /// use game_core::{Erased, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let mut m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// let applied = m.tick(20_000); // both timed out
    /// assert_eq!(applied[0].for_viewer(Some("a")).events, applied[0].events);
    /// ```
    pub fn for_viewer(&self, viewer: Option<&str>) -> AppliedJson {
        AppliedJson {
            events: self.events_for(viewer),
            ..self.clone()
        }
    }
}

/// A request judged through the erased layer: the timeouts taken first, then the
/// request's own events (written as `E`) or why it was refused (see [`GameExt::play`]).
///
/// `result` holds the events as the requester sees them (an action's player, a presence
/// change's player); [`PlayedAs::events`] and [`PlayedAs::applied_for`] give any other
/// viewer's projection. The timeouts in `applied` carry the spectator's.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedAs<E> {
    /// The timeout actions taken before the request was judged (usually none).
    pub applied: Vec<AppliedJson>,
    /// The request's events as the requester sees them, or its error.
    pub result: Result<E, HostError>,
    /// The request's events, typed (none when refused).
    events: DynEvents,
}

/// A request judged through the erased layer, its events as JSON values.
pub type PlayedJson = PlayedAs<Vec<Value>>;

/// A request judged through the erased layer, its events as the text of a JSON array,
/// written straight from the game's typed events.
pub type PlayedText = PlayedAs<String>;

impl<E> PlayedAs<E> {
    /// A request refused before anything was judged (its action did not parse, its index
    /// named no legal action).
    fn refused(error: HostError) -> Self {
        Self {
            applied: Vec::new(),
            result: Err(error),
            events: DynEvents::default(),
        }
    }

    /// The request's events, for each viewer's projection (none when it was refused).
    pub fn events(&self) -> &DynEvents {
        &self.events
    }

    /// The request's events as `viewer` sees them (empty when it was refused).
    pub fn events_for(&self, viewer: Option<&str>) -> Vec<Value> {
        self.events.for_viewer(viewer)
    }

    /// The timeouts taken first, their events as `viewer` sees them.
    pub fn applied_for(&self, viewer: Option<&str>) -> Vec<AppliedJson> {
        self.applied.iter().map(|a| a.for_viewer(viewer)).collect()
    }
}

/// Where a match stands: what a host sends with every change. The players to act are
/// seats (indices into [`DynMatch::players`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStatus {
    /// The action sequence number ([`DynMatch::turn_seq`]).
    pub turn_seq: u64,
    /// The seats whose move is awaited ([`DynMatch::to_act`] gives their ids).
    pub to_act: Vec<usize>,
    /// The seats that may act now besides those of `to_act`, waited for by no one
    /// ([`Game::may_act`]; One Card's calls): empty for most games.
    pub may_act: Vec<usize>,
    /// The current decision's deadline ([`DynMatch::deadline`]).
    pub deadline: Option<Millis>,
    /// When [`DynMatch::tick`] would act ([`DynMatch::next_tick_at`]).
    pub next_tick_at: Option<Millis>,
    /// The match's clock ([`DynMatch::clock`]).
    pub clock: Millis,
    /// Whether the match is over (it has an outcome).
    pub over: bool,
}

/// A game kind behind the erased interface.
pub trait DynGame: Send + Sync {
    /// The game's id.
    fn id(&self) -> &'static str;
    /// The JSON Schemas of its wire types.
    fn schemas(&self) -> GameSchemas;
    /// The default options, in JSON.
    fn default_options(&self) -> Value;
    /// Starts a match from JSON options (see [`Registry::create`]).
    fn create(
        &self,
        options: &Value,
        players: Vec<PlayerId>,
        seed: u64,
        now: Millis,
    ) -> Result<Box<dyn DynMatch>, HostError>;
    /// Rebuilds a match from its record; its options are read as strictly as `create`'s.
    fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynMatch>, HostError>;
    /// Restores a match from a stored state ([`DynMatch::state_json`]), validated like
    /// [`Game::restore`]: a tampered state is refused.
    fn restore(&self, state_json: &str) -> Result<Box<dyn DynMatch>, HostError>;
    /// Checks that `value` reads as an action of this game, with the strict reader every
    /// match reads actions with ([`crate::wire::read_action`]): an unknown `type`, an
    /// unknown field or a value of the wrong type is refused with the `BAD_JSON` that
    /// [`DynMatch::act`] would answer. The shape only: whether the action is legal now
    /// is for a match to judge.
    ///
    /// ```
    /// use game_core::{Erased, GameError, Registry, rps::Rps};
    /// use serde_json::json;
    /// let mut registry = Registry::new();
    /// registry.register(Erased(Rps)).unwrap();
    /// let rps = registry.get("rps").unwrap();
    /// assert!(rps.check_action(&json!({"type": "PICK", "hand": "rock"})).is_ok());
    /// for bad in [
    ///     json!({"type": "PICK", "hand": "rook"}),
    ///     json!({"type": "PICK", "hand": "rock", "speed": 2}),
    ///     json!({"type": "PICK", "hand": 3}),
    ///     json!(["PICK"]),
    /// ] {
    ///     assert_eq!(rps.check_action(&bad).unwrap_err().code(), "BAD_JSON");
    /// }
    /// ```
    fn check_action(&self, value: &Value) -> Result<(), HostError>;
    /// The kinds of bot that play this game, the game's preferred first; `random` (a
    /// uniform pick among the legal actions) is always one of them. A typed game
    /// ([`Erased`]) offers its own kinds, then [`SHARED_BOTS`]; the default, for a game
    /// written on this trait directly, is `random` alone.
    fn bot_kinds(&self) -> Vec<&'static str> {
        vec![RANDOM_BOT]
    }
    /// A new bot of `kind`, seeded with `seed`, to play matches of this game
    /// ([`DynBot::choose`]); `UNKNOWN_BOT` for a kind not in [`DynGame::bot_kinds`]. The
    /// default offers `random`, over the erased match's legal actions.
    fn bot(&self, kind: &str, seed: u64) -> Result<Box<dyn DynBot>, HostError> {
        match kind {
            RANDOM_BOT => Ok(Box::new(ErasedRandomBot(crate::GameRng::from_seed(seed)))),
            _ => Err(unknown_bot(kind, self.bot_kinds())),
        }
    }
}

/// The bot kind every game offers: uniformly among the legal actions.
pub const RANDOM_BOT: &str = "random";

fn unknown_bot(kind: &str, kinds: Vec<&'static str>) -> HostError {
    HostError::UnknownBot {
        kind: crate::error::cap_detail(kind.to_owned()),
        kinds,
    }
}

/// A bot behind the erased interface: it plays a seat of a live match, reading the
/// match's typed state where it is (no state is restored from text for a move). Made by
/// [`DynGame::bot`]; a game offers its own bots with [`Erased::with_bot`].
///
/// ```
/// use game_core::{Erased, Registry, rps::Rps};
/// let mut r = Registry::new();
/// r.register(Erased(Rps)).unwrap();
/// let game = r.get("rps").unwrap();
/// assert_eq!(game.bot_kinds(), ["random", "pimc", "ismcts"]);
/// let mut bot = game.bot("random", 7).unwrap();
/// let mut m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
/// let action = bot.choose(m.as_ref(), "a").unwrap();
/// assert!(m.act("a", action, None, 0).result.is_ok());
/// assert!(bot.choose(m.as_ref(), "zed").is_none()); // not seated
/// let e = game.bot("clever", 7).err().unwrap();
/// assert_eq!(game_core::GameError::code(&e), "UNKNOWN_BOT");
/// ```
pub trait DynBot: Send {
    /// The action for `player` in `m`, as the game's wire JSON, or `None` when there is
    /// none: the player has no legal action, is not seated, or `m` is a match of another
    /// game than the bot's.
    fn choose(&mut self, m: &dyn DynMatch, player: &str) -> Option<Value>;
}

/// [`DynGame::bot`]'s default `random`: uniformly among the erased match's legal actions.
struct ErasedRandomBot(crate::GameRng);

impl DynBot for ErasedRandomBot {
    fn choose(&mut self, m: &dyn DynMatch, player: &str) -> Option<Value> {
        let legal = m.legal_actions(player).ok()?;
        let n = u32::try_from(legal.len()).ok().filter(|&n| n > 0)?;
        legal.into_iter().nth(self.0.below(n) as usize)
    }
}

/// A typed [`Bot`](crate::Bot) of game `G` as a [`DynBot`]: it plays matches of `G`
/// only, and never on their true state: [`Fair`](crate::Fair) hands it a world of its
/// seat's information set for each decision.
struct TypedBot<G, B> {
    bot: crate::Fair<B>,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G, B> TypedBot<G, B> {
    /// `bot`, fair, drawing its worlds from `seed`.
    fn new(bot: B, seed: u64) -> Self {
        Self {
            bot: crate::Fair::new(bot, seed),
            game: std::marker::PhantomData,
        }
    }
}

impl<G: Game, B: crate::Bot<G> + Send> DynBot for TypedBot<G, B> {
    fn choose(&mut self, m: &dyn DynMatch, player: &str) -> Option<Value> {
        let m = m.as_any().downcast_ref::<Match<G>>()?;
        let seat = m.game.seat(&m.state, player).ok()?;
        let action = crate::Bot::choose(&mut self.bot, &m.game, &m.state, seat)?;
        Some(to_json(&action))
    }
}

/// The bot kinds every game offers, after its own: `random`, and the two searches that
/// know only what their seat knows ([`search::Pimc`](crate::search::Pimc),
/// [`search::Ismcts`](crate::search::Ismcts)).
pub const SHARED_BOTS: [&str; 3] = [RANDOM_BOT, PIMC_BOT, ISMCTS_BOT];

/// The bot kind of determinized search ([`search::Pimc`](crate::search::Pimc)).
pub const PIMC_BOT: &str = "pimc";

/// The bot kind of information-set MCTS ([`search::Ismcts`](crate::search::Ismcts)).
pub const ISMCTS_BOT: &str = "ismcts";

/// The shared bot of `kind` for game `G`, if `kind` is one ([`SHARED_BOTS`]).
fn shared_bot<G: Game>(kind: &str, seed: u64) -> Option<Box<dyn DynBot>> {
    Some(match kind {
        // The typed random bot: the same draws as `RandomBot` in a typed loop.
        RANDOM_BOT => Box::new(TypedBot::<G, _>::new(crate::RandomBot::new(seed), seed)),
        PIMC_BOT => Box::new(TypedBot::<G, _>::new(
            crate::search::Pimc::with_seed(seed),
            seed,
        )),
        ISMCTS_BOT => Box::new(TypedBot::<G, _>::new(
            crate::search::Ismcts::with_seed(seed),
            seed,
        )),
        _ => return None,
    })
}

/// A match behind the erased interface: JSON in, JSON out, the game's errors kept.
pub trait DynMatch: Send + Sync {
    /// The game's id.
    fn game_id(&self) -> &'static str;
    /// A player's action given as JSON, at `now` ([`Match::play`]): the timeouts due at
    /// `now` first, then the action, refused if stale when `turn_seq` is given.
    fn act(
        &mut self,
        player: &str,
        action: Value,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> PlayedJson;
    /// [`DynMatch::act`] with the action as JSON text, read straight into the game's type,
    /// and the events written as text straight from the game's events: no [`Value`] tree
    /// on the way. Every answer is the value path's (an action that does not parse is
    /// refused with the very error [`DynMatch::act`] gives); text that is not JSON at all
    /// is `BAD_JSON` too.
    ///
    /// ```
    /// use game_core::{Erased, GameError, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let mut m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// let events = m.act_text("a", r#"{"type":"PICK","hand":"rock"}"#, None, 0).result.unwrap();
    /// assert!(events.starts_with('['));
    /// let bad = m.act_text("b", r#"{"type":"PIKC"}"#, None, 0).result.unwrap_err();
    /// let same = m.act("b", serde_json::json!({"type": "PIKC"}), None, 0).result.unwrap_err();
    /// assert_eq!(bad, same);
    /// assert_eq!(bad.body().code, "BAD_JSON");
    /// ```
    fn act_text(
        &mut self,
        player: &str,
        action: &str,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> PlayedText;
    /// Acts with the player's legal action at `index` in [`DynMatch::legal_actions`], at
    /// `now`: the same as [`DynMatch::act_text`] with that action, the events as text.
    /// The index is judged against the list as it stands before the timeouts due at `now`
    /// (the list the player chose from), after the checks that no timeout can change: not
    /// seated is `NOT_SEATED`, a stale `turn_seq` `STALE_TURN_SEQ`, a match that is over
    /// `GAME_OVER`, and an index past the end `UNKNOWN_ACTION_INDEX`; each changes nothing.
    ///
    /// ```
    /// use game_core::{Erased, GameError, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let mut m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// assert!(m.act_legal("a", 0, Some(0), 0).result.is_ok());
    /// let e = m.act_legal("b", 99, None, 0).result.unwrap_err();
    /// assert_eq!(e.body().code, "UNKNOWN_ACTION_INDEX");
    /// assert_eq!(e.body().reason["count"], m.legal_count("b").unwrap());
    /// ```
    fn act_legal(
        &mut self,
        player: &str,
        index: u64,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> PlayedText;
    /// For bots, simulations and benchmarks that need only the position: the first seat to
    /// act ([`MatchStatus::to_act`]) plays its legal action at `index`, at the match's
    /// clock, as [`DynMatch::act_legal`] plays and records it, but without writing its
    /// events. Answers how many legal actions the seat to act next has: the bound of the
    /// next call's index, 0 when no seat is to act (so always once the match is over). A
    /// match that is over is `GAME_OVER`, an index past the list's end
    /// `UNKNOWN_ACTION_INDEX`; each changes nothing. (Timeouts are due at the clock only
    /// when a deadline falls on it; they are then taken first, as for any action.)
    ///
    /// ```
    /// use game_core::{Erased, GameError, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let mut m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// let next = m.advance(0).unwrap(); // a's first legal action
    /// assert_eq!(next, m.legal_count(&m.to_act()[0]).unwrap()); // b's
    /// assert_eq!(m.record().entries.len(), 1);
    /// let e = m.advance(next as u64).unwrap_err();
    /// assert_eq!(e.body().code, "UNKNOWN_ACTION_INDEX");
    /// assert_eq!(m.record().entries.len(), 1);
    /// ```
    fn advance(&mut self, index: u64) -> Result<usize, HostError>;
    /// The view of a player (`Some(id)`) or a spectator (`None`); `NOT_SEATED` for an id
    /// that is not seated.
    fn view(&self, player: Option<&str>) -> Result<Value, HostError>;
    /// The same view as JSON text, ready to send: written straight from the game's typed
    /// view, without the `Value` tree [`DynMatch::view`] builds (several times faster for a
    /// host that only forwards it).
    ///
    /// ```
    /// use game_core::{Erased, GameError, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// let text = m.view_text(Some("a")).unwrap();
    /// assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), m.view(Some("a")).unwrap());
    /// assert_eq!(m.view_text(Some("zed")).unwrap_err().body().code, "NOT_SEATED");
    /// ```
    fn view_text(&self, player: Option<&str>) -> Result<String, HostError>;
    /// Moves the clock: takes due timeouts.
    fn tick(&mut self, now: Millis) -> Vec<AppliedJson>;
    /// Marks a player connected or disconnected at `now`, after the timeouts due then;
    /// the events are the `presenceChanged` (none when nothing changed).
    fn set_connected(&mut self, player: &str, connected: bool, now: Millis) -> PlayedJson;
    /// Sets how long a disconnected player is waited for in this match
    /// ([`Match::set_grace_ms`]: kept in the state, recorded); a grace past
    /// [`MAX_TIME`](crate::MAX_TIME) is `INVALID_OPTION` (`reason.option`: `graceMs`), and
    /// nothing changes.
    ///
    /// ```
    /// use game_core::{Erased, GameError, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let options = serde_json::json!({ "turnSeconds": null });
    /// let mut m = r.create("rps", &options, vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// assert_eq!(m.grace_ms(), 5_000); // the game's
    /// m.set_grace_ms(1_000).unwrap();
    /// m.set_connected("b", false, 0);
    /// assert_eq!(m.next_tick_at(), Some(1_000));
    /// let err = m.set_grace_ms(u64::MAX).unwrap_err();
    /// assert_eq!(err.body().code, "INVALID_OPTION");
    /// assert_eq!(err.body().reason["option"], "graceMs");
    /// // Stored and restored, or replayed, the match keeps it.
    /// let back = r.restore("rps", &m.state_json().to_string()).unwrap();
    /// assert_eq!(back.grace_ms(), 1_000);
    /// assert_eq!(r.replay(m.record()).unwrap().next_tick_at(), Some(1_000));
    /// ```
    fn set_grace_ms(&mut self, grace_ms: Millis) -> Result<(), HostError>;
    /// How long a disconnected player is waited for in this match: the host's setting
    /// ([`DynMatch::set_grace_ms`]) or the game's [`Game::grace_ms`].
    fn grace_ms(&self) -> Millis;
    /// The players whose move is awaited, as ids.
    fn to_act(&self) -> Vec<PlayerId>;
    /// Whether `player` may act now ([`Game::may_act`]): one of [`DynMatch::to_act`], or a
    /// player the game lets act without waiting for them (One Card's calls). `false` for
    /// an id that is not seated.
    ///
    /// ```
    /// use game_core::{Erased, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// assert!(m.may_act("a") && !m.may_act("zed"));
    /// assert!(m.status().may_act.is_empty()); // no one besides those to act
    /// ```
    fn may_act(&self, player: &str) -> bool;
    /// Legal actions of a player, as JSON.
    fn legal_actions(&self, player: &str) -> Result<Vec<Value>, HostError>;
    /// [`DynMatch::legal_actions`] as the text of a JSON array, written straight from the
    /// game's typed actions.
    fn legal_text(&self, player: &str) -> Result<String, HostError>;
    /// How many legal actions the player has: the length of [`DynMatch::legal_actions`],
    /// without writing them (the bound of an index for [`DynMatch::act_legal`]).
    fn legal_count(&self, player: &str) -> Result<usize, HostError>;
    /// The current decision's deadline, the countdown players see (`deadlineAt`).
    fn deadline(&self) -> Option<Millis>;
    /// The earliest time at which [`DynMatch::tick`] would act ([`GameExt::next_tick_at`]):
    /// when to arm the match's timer.
    fn next_tick_at(&self) -> Option<Millis>;
    /// Whether a timeout is due at the match's clock: what an input at the clock (such as
    /// [`DynMatch::advance`]) would take first. Cheap when nothing is due (no deadline
    /// passed, nobody disconnected), the case of nearly every call.
    ///
    /// ```
    /// use game_core::{Erased, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let mut m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// assert!(!m.timeouts_due());
    /// m.set_connected("b", false, 1_000).result.unwrap();
    /// assert!(!m.timeouts_due()); // b's grace runs until 6 s
    /// // Stored, and restored with its clock at the end of the grace: b's turn is due.
    /// let text = m.state_json().to_string().replace("\"clock\":1000", "\"clock\":6000");
    /// let restored = r.restore("rps", &text).unwrap();
    /// assert!(restored.timeouts_due());
    /// assert_eq!(restored.next_tick_at(), Some(6_000));
    /// ```
    fn timeouts_due(&self) -> bool {
        self.next_tick_at().is_some_and(|at| at <= self.clock())
    }
    /// The match's clock: the latest time of an input that changed it. An earlier `now`
    /// is read as this.
    fn clock(&self) -> Millis;
    /// The action sequence number.
    fn turn_seq(&self) -> u64;
    /// The outcome, once over.
    fn outcome(&self) -> Option<Value>;
    /// [`DynMatch::outcome`] as JSON text, written straight from the game's typed outcome.
    fn outcome_text(&self) -> Option<String>;
    /// Where the match stands, all at once.
    ///
    /// ```
    /// use game_core::{Erased, Registry, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps)).unwrap();
    /// let m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// let s = m.status();
    /// assert_eq!((s.turn_seq, s.over), (0, false));
    /// let ids: Vec<&str> = s.to_act.iter().map(|&seat| m.players()[seat].as_str()).collect();
    /// assert_eq!(ids, m.to_act());
    /// ```
    fn status(&self) -> MatchStatus;
    /// The seated players' ids, in seat order.
    fn players(&self) -> &[PlayerId];
    /// The match record (it holds the seed: keep it on the server while the match runs).
    /// `&mut self`: the actions accepted since the last call are written as JSON here
    /// ([`Match::record`]).
    fn record(&mut self) -> &MatchRecord;
    /// The full state (with RNG) for storage. Never send it to a client.
    fn state_json(&self) -> Value;
    /// The match itself, for a [`DynBot`] of its game to read its typed state.
    fn as_any(&self) -> &dyn Any;
}

impl std::fmt::Debug for dyn DynMatch {
    /// The game and where it stands; never the state (it holds the RNG).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynMatch")
            .field("game", &self.game_id())
            .field("turn_seq", &self.turn_seq())
            .field("to_act", &self.to_act())
            .finish_non_exhaustive()
    }
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
        options: &Value,
        players: Vec<PlayerId>,
        seed: u64,
        now: Millis,
    ) -> Result<Box<dyn DynMatch>, HostError> {
        let options = read_options::<G>(options)?;
        let m = Match::new(self.0.clone(), options, players, seed, now).map_err(game_err)?;
        Ok(Box::new(m))
    }

    fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynMatch>, HostError> {
        if record.base.is_none() && record.game == self.id() {
            read_options::<G>(&record.options)?;
        }
        let m = Match::replay(self.0.clone(), record).map_err(game_err)?;
        Ok(Box::new(m))
    }

    fn restore(&self, state_json: &str) -> Result<Box<dyn DynMatch>, HostError> {
        let m = Match::restore(self.0.clone(), state_json).map_err(game_err)?;
        Ok(Box::new(m))
    }

    fn check_action(&self, value: &Value) -> Result<(), HostError> {
        action_from_value::<G::Action>(value.clone()).map(drop)
    }

    fn bot_kinds(&self) -> Vec<&'static str> {
        SHARED_BOTS.to_vec()
    }

    fn bot(&self, kind: &str, seed: u64) -> Result<Box<dyn DynBot>, HostError> {
        shared_bot::<G>(kind, seed).ok_or_else(|| unknown_bot(kind, self.bot_kinds()))
    }
}

impl<G: Game + Clone> Erased<G>
where
    G::Options: Default,
{
    /// This game with a named bot: [`DynGame::bot`] of `kind` gives `make(seed)`, which
    /// plays matches of this game on their typed state. Chain it for more kinds; a kind
    /// named `random` replaces the default one.
    ///
    /// ```
    /// use game_core::{Erased, Registry, TimeoutBot, rps::Rps};
    /// let mut r = Registry::new();
    /// r.register(Erased(Rps).with_bot("timeout", |_seed| TimeoutBot)).unwrap();
    /// let game = r.get("rps").unwrap();
    /// assert_eq!(game.bot_kinds(), ["timeout", "random", "pimc", "ismcts"]);
    /// let mut m = r.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// let mut bot = game.bot("timeout", 0).unwrap();
    /// let action = bot.choose(m.as_ref(), "b").unwrap();
    /// assert!(m.act("b", action, None, 0).result.is_ok());
    /// ```
    pub fn with_bot<B, F>(self, kind: &'static str, make: F) -> WithBots<G>
    where
        B: crate::Bot<G> + Send + 'static,
        F: Fn(u64) -> B + Send + Sync + 'static,
    {
        WithBots {
            game: self,
            bots: Vec::new(),
            errors: Vec::new(),
        }
        .with_bot(kind, make)
    }

    /// This game with the codes of `E` in its error schema ([`DynGame::schemas`]): the
    /// codes of a rule layer whose errors the game's error type carries type-erased (a
    /// Yut rule set's, inside `YutError::Rule`), which the game's own type cannot list.
    ///
    /// ```
    /// use game_core::{Erased, ErrorCodes, CodeSchemas, DynGame, rps::Rps};
    /// struct Extra;
    /// impl ErrorCodes for Extra {
    ///     fn codes(codes: &mut CodeSchemas) {
    ///         codes.code_schema("TOO_EARLY", "Not yet.", serde_json::json!({"type": "object"}));
    ///     }
    /// }
    /// let game = Erased(Rps).with_errors::<Extra>();
    /// let error = game.schemas().error;
    /// let codes: Vec<&str> = error["oneOf"].as_array().unwrap().iter()
    ///     .map(|b| b["properties"]["code"]["const"].as_str().unwrap()).collect();
    /// assert!(codes.contains(&"TOO_EARLY") && codes.contains(&"ALREADY_PICKED"));
    /// ```
    pub fn with_errors<E: crate::ErrorCodes>(self) -> WithBots<G> {
        WithBots {
            game: self,
            bots: Vec::new(),
            errors: Vec::new(),
        }
        .with_errors::<E>()
    }
}

/// Makes a bot of one kind from a seed.
type MakeBot = Box<dyn Fn(u64) -> Box<dyn DynBot> + Send + Sync>;

/// A typed [`Game`] for the erased layer with named bots ([`Erased::with_bot`]).
pub struct WithBots<G> {
    game: Erased<G>,
    bots: Vec<(&'static str, MakeBot)>,
    /// The codes of the game's rule layers ([`Erased::with_errors`]).
    errors: Vec<fn(&mut crate::CodeSchemas)>,
}

impl<G> std::fmt::Debug for WithBots<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds: Vec<&str> = self.bots.iter().map(|(kind, _)| *kind).collect();
        f.debug_struct("WithBots")
            .field("bots", &kinds)
            .finish_non_exhaustive()
    }
}

impl<G: Game + Clone> WithBots<G>
where
    G::Options: Default,
{
    /// [`Erased::with_errors`], chained.
    pub fn with_errors<E: crate::ErrorCodes>(mut self) -> Self {
        self.errors.push(E::codes);
        self
    }

    /// One more named bot (see [`Erased::with_bot`]); a kind given twice keeps the last.
    pub fn with_bot<B, F>(mut self, kind: &'static str, make: F) -> Self
    where
        B: crate::Bot<G> + Send + 'static,
        F: Fn(u64) -> B + Send + Sync + 'static,
    {
        self.bots.retain(|(k, _)| *k != kind);
        let make: MakeBot = Box::new(move |seed| Box::new(TypedBot::<G, B>::new(make(seed), seed)));
        self.bots.push((kind, make));
        self
    }
}

impl<G: Game + Clone> DynGame for WithBots<G>
where
    G::Options: Default,
{
    fn id(&self) -> &'static str {
        self.game.id()
    }

    fn schemas(&self) -> GameSchemas {
        GameSchemas::with_errors(&self.game.0, &self.errors)
    }

    fn default_options(&self) -> Value {
        self.game.default_options()
    }

    fn create(
        &self,
        options: &Value,
        players: Vec<PlayerId>,
        seed: u64,
        now: Millis,
    ) -> Result<Box<dyn DynMatch>, HostError> {
        self.game.create(options, players, seed, now)
    }

    fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynMatch>, HostError> {
        self.game.replay(record)
    }

    fn restore(&self, state_json: &str) -> Result<Box<dyn DynMatch>, HostError> {
        self.game.restore(state_json)
    }

    fn check_action(&self, value: &Value) -> Result<(), HostError> {
        self.game.check_action(value)
    }

    fn bot_kinds(&self) -> Vec<&'static str> {
        let mut kinds: Vec<&'static str> = self.bots.iter().map(|(kind, _)| *kind).collect();
        for shared in SHARED_BOTS {
            if !kinds.contains(&shared) {
                kinds.push(shared);
            }
        }
        kinds
    }

    fn bot(&self, kind: &str, seed: u64) -> Result<Box<dyn DynBot>, HostError> {
        match self.bots.iter().find(|(k, _)| *k == kind) {
            Some((_, make)) => Ok(make(seed)),
            None => self.game.bot(kind, seed),
        }
    }
}

impl<G: Game> Match<G> {
    /// The viewer named by a host: a seated player, or the spectator; an id that is not
    /// seated is refused rather than shown the spectator's view by mistake.
    fn viewer<'p>(&self, player: Option<&'p str>) -> Result<Viewer<'p>, HostError> {
        match player {
            None => Ok(Viewer::Spectator),
            Some(p) => {
                self.game.seat(&self.state, p).map_err(game_err)?;
                Ok(Viewer::Player(p))
            }
        }
    }
}

impl<G: Game + Clone> Match<G> {
    /// A request with its action read (or refused) first: judged by [`Match::play`], its
    /// events written by `events`.
    fn judge<E>(
        &mut self,
        player: &str,
        action: Result<G::Action, HostError>,
        turn_seq: Option<u64>,
        now: Millis,
        events: impl FnOnce(&[G::Event]) -> E,
    ) -> PlayedAs<E> {
        let action = match action {
            Ok(action) => action,
            Err(e) => return PlayedAs::refused(e),
        };
        let played = self.play(player, &action, turn_seq, now);
        self.played_as(player, played, events)
    }

    /// A judged request for the erased layer: the requester's projection of its events
    /// written by `write`, the typed events kept for every other viewer.
    fn played_as<E>(
        &self,
        player: &str,
        played: Played<G>,
        write: impl FnOnce(&[G::Event]) -> E,
    ) -> PlayedAs<E> {
        let (result, events) = match played.result {
            Ok(events) => {
                let mine = project(&self.game, &events, Viewer::Player(player));
                (Ok(write(&mine)), DynEvents::of(&self.game, events))
            }
            Err(e) => (Err(game_err(e)), DynEvents::default()),
        };
        PlayedAs {
            applied: applied_json(&self.game, played.applied),
            result,
            events,
        }
    }

    /// A player's legal actions, typed (`NOT_SEATED` for an id that is not seated).
    fn legal(&self, player: &str) -> Result<Vec<G::Action>, HostError> {
        let seat = self.game.seat(&self.state, player).map_err(game_err)?;
        Ok(self.game.legal_actions(&self.state, seat))
    }

    /// The legal action at `index` for a request of `player` (see [`DynMatch::act_legal`]).
    fn legal_at(
        &self,
        player: &str,
        index: u64,
        turn_seq: Option<u64>,
    ) -> Result<G::Action, HostError> {
        let seat = self.game.seat(&self.state, player).map_err(game_err)?;
        crate::game::admit(&self.game, &self.state, seat, turn_seq).map_err(game_err)?;
        if self.game.is_over(&self.state) {
            return Err(game_err(G::Error::from(Rejection::GameOver)));
        }
        // The action of the index without the list; the count only for the refusal.
        let action = usize::try_from(index)
            .ok()
            .and_then(|i| self.game.legal_action(&self.state, seat, i));
        action.ok_or_else(|| HostError::UnknownActionIndex {
            index,
            count: self.game.legal_action_count(&self.state, seat),
        })
    }
}

/// The timeouts taken, their `events` the spectator's projection, the typed events kept
/// for each player's.
fn applied_json<G: Game + Clone>(game: &G, applied: Vec<crate::Applied<G>>) -> Vec<AppliedJson> {
    applied
        .into_iter()
        .map(|a| {
            let seen = project(game, &a.events, Viewer::Spectator);
            AppliedJson {
                player: a.player,
                action: to_json(&a.action),
                events: seen.iter().map(to_json).collect(),
                auto: a.auto,
                typed: DynEvents::of(game, a.events),
            }
        })
        .collect()
}

fn events_json<G: Game>(events: &[G::Event]) -> Vec<Value> {
    events.iter().map(to_json).collect()
}

impl<G: Game + Clone> DynMatch for Match<G> {
    fn game_id(&self) -> &'static str {
        self.game.id()
    }

    fn act(
        &mut self,
        player: &str,
        action: Value,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> PlayedJson {
        let action = action_from_value(action);
        self.judge(player, action, turn_seq, now, events_json::<G>)
    }

    fn act_text(
        &mut self,
        player: &str,
        action: &str,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> PlayedText {
        let action = action_from_text(action);
        self.judge(player, action, turn_seq, now, to_text)
    }

    fn act_legal(
        &mut self,
        player: &str,
        index: u64,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> PlayedText {
        let action = self.legal_at(player, index, turn_seq);
        self.judge(player, action, turn_seq, now, to_text)
    }

    fn advance(&mut self, index: u64) -> Result<usize, HostError> {
        if self.game.is_over(&self.state) {
            return Err(game_err(G::Error::from(Rejection::GameOver)));
        }
        let now = self.state.table().time(0);
        let mut events = std::mem::take(&mut self.scratch);
        // The action of the index and the next count, without listing the actions.
        let seat = self.game.first_to_act(&self.state);
        let chosen = seat.and_then(|seat| {
            let action = self
                .game
                .legal_action(&self.state, seat, usize::try_from(index).ok()?);
            Some((seat, action?))
        });
        let chosen = chosen.ok_or_else(|| HostError::UnknownActionIndex {
            index,
            count: seat.map_or(0, |seat| self.game.legal_action_count(&self.state, seat)),
        });
        let answer = chosen.and_then(|(seat, action)| {
            self.play_picked(seat, &action, now, &mut events)
                .map_err(game_err)?;
            let next = self.game.first_to_act(&self.state);
            Ok(next.map_or(0, |next| self.game.legal_action_count(&self.state, next)))
        });
        self.scratch = events;
        answer
    }

    fn view(&self, player: Option<&str>) -> Result<Value, HostError> {
        let viewer = self.viewer(player)?;
        Ok(to_json(&self.game.view(&self.state, viewer)))
    }

    fn view_text(&self, player: Option<&str>) -> Result<String, HostError> {
        let viewer = self.viewer(player)?;
        Ok(to_text(&self.game.view(&self.state, viewer)))
    }

    fn tick(&mut self, now: Millis) -> Vec<AppliedJson> {
        let applied = Match::tick(self, now);
        applied_json(&self.game, applied)
    }

    fn set_connected(&mut self, player: &str, connected: bool, now: Millis) -> PlayedJson {
        let played = Match::set_connected(self, player, connected, now);
        self.played_as(player, played, events_json::<G>)
    }

    fn set_grace_ms(&mut self, grace_ms: Millis) -> Result<(), HostError> {
        Match::set_grace_ms(self, grace_ms).map_err(|e| HostError::InvalidOption {
            option: "graceMs".into(),
            detail: e.to_string(),
        })
    }

    fn grace_ms(&self) -> Millis {
        crate::game::grace_of(&self.game, self.state.table())
    }

    fn may_act(&self, player: &str) -> bool {
        self.game
            .seat(&self.state, player)
            .is_ok_and(|seat| self.game.may_act(&self.state, seat))
    }

    fn to_act(&self) -> Vec<PlayerId> {
        let players = DynMatch::players(self);
        self.game
            .to_act(&self.state)
            .into_iter()
            .map(|s| players[s].clone())
            .collect()
    }

    fn legal_actions(&self, player: &str) -> Result<Vec<Value>, HostError> {
        Ok(self.legal(player)?.iter().map(to_json).collect())
    }

    fn legal_text(&self, player: &str) -> Result<String, HostError> {
        Ok(to_text(&self.legal(player)?))
    }

    fn legal_count(&self, player: &str) -> Result<usize, HostError> {
        let seat = self.game.seat(&self.state, player).map_err(game_err)?;
        Ok(self.game.legal_action_count(&self.state, seat))
    }

    fn deadline(&self) -> Option<Millis> {
        self.game.deadline(&self.state)
    }

    fn next_tick_at(&self) -> Option<Millis> {
        Match::next_tick_at(self)
    }

    fn timeouts_due(&self) -> bool {
        let table = self.state.table();
        let clock = table.time(0);
        !crate::game::nothing_due(table, clock)
            && Match::next_tick_at(self).is_some_and(|at| at <= clock)
    }

    fn clock(&self) -> Millis {
        self.state.table().time(0)
    }

    fn turn_seq(&self) -> u64 {
        self.game.turn_seq(&self.state)
    }

    fn outcome(&self) -> Option<Value> {
        self.game.outcome(&self.state).as_ref().map(to_json)
    }

    fn outcome_text(&self) -> Option<String> {
        self.game.outcome(&self.state).as_ref().map(to_text)
    }

    fn status(&self) -> MatchStatus {
        let to_act = self.game.to_act(&self.state);
        let seats = self.state.table().players.len();
        let may_act = (0..seats)
            .filter(|seat| !to_act.contains(seat) && self.game.may_act(&self.state, *seat))
            .collect();
        MatchStatus {
            turn_seq: DynMatch::turn_seq(self),
            to_act,
            may_act,
            deadline: DynMatch::deadline(self),
            next_tick_at: DynMatch::next_tick_at(self),
            clock: DynMatch::clock(self),
            over: self.game.is_over(&self.state),
        }
    }

    fn players(&self) -> &[PlayerId] {
        &self.state.table().players
    }

    fn record(&mut self) -> &MatchRecord {
        Match::record(self)
    }

    fn state_json(&self) -> Value {
        to_json(&self.state)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Game kinds by id: what a host consults to create, replay or restore any match.
///
/// ```
/// use game_core::{Erased, GameError, Registry, rps::Rps};
/// let mut registry = Registry::new();
/// registry.register(Erased(Rps)).unwrap();
/// let m = registry
///     .create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0)
///     .unwrap();
/// assert_eq!(m.game_id(), "rps");
/// assert!(registry.create("chess", &serde_json::json!({}), vec![], None, 0).is_err());
/// // One id, one game.
/// assert_eq!(registry.register(Erased(Rps)).unwrap_err().code(), "GAME_EXISTS");
/// ```
#[derive(Default)]
pub struct Registry {
    games: BTreeMap<&'static str, Box<dyn DynGame>>,
}

/// A second game registered under an id already taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("이미 등록된 게임 id예요: {id}")]
pub struct GameExists {
    /// The id.
    pub id: &'static str,
}

impl GameError for GameExists {
    fn code(&self) -> &'static str {
        "GAME_EXISTS"
    }

    fn reason(&self) -> Option<Value> {
        Some(serde_json::json!({ "game": self.id }))
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.ids()).finish()
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a game kind; a second game with an id already taken is refused (records name
    /// their game by id, so two games under one id would replay each other's records).
    pub fn register(&mut self, game: impl DynGame + 'static) -> Result<&mut Self, GameExists> {
        let id = game.id();
        if self.games.contains_key(id) {
            return Err(GameExists { id });
        }
        self.games.insert(id, Box::new(game));
        Ok(self)
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
            .ok_or_else(|| HostError::UnknownGame(crate::error::cap_detail(id.to_owned())))
    }

    /// Starts a match of game `id`. Without a seed, one is drawn from the operating
    /// system (below 2^53, exact in JavaScript): a seed is a secret (it predicts every
    /// random step), and a constant default would give every match the same one.
    pub fn create(
        &self,
        id: &str,
        options: &Value,
        players: Vec<PlayerId>,
        seed: Option<u64>,
        now: Millis,
    ) -> Result<Box<dyn DynMatch>, HostError> {
        let game = self.get(id)?;
        let seed = match seed {
            Some(seed) => seed,
            None => os_seed()?,
        };
        game.create(options, players, seed, now)
    }

    /// Rebuilds a match from a record of any registered game.
    pub fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynMatch>, HostError> {
        self.get(&record.game)?.replay(record)
    }

    /// Restores a match of game `id` from its stored state, validated: a tampered state is
    /// refused exactly as [`Game::restore`] refuses it.
    ///
    /// ```
    /// use game_core::{Erased, GameError, Registry, rps::Rps};
    /// let mut registry = Registry::new();
    /// registry.register(Erased(Rps)).unwrap();
    /// let m = registry.create("rps", &serde_json::json!({}), vec!["a".into(), "b".into()], Some(1), 0).unwrap();
    /// let stored = m.state_json().to_string();
    /// let back = registry.restore("rps", &stored).unwrap();
    /// assert_eq!(back.state_json(), m.state_json());
    /// let err = registry.restore("rps", "{\"table\":1}").unwrap_err();
    /// assert_eq!(err.body().code, "CORRUPT_STATE");
    /// ```
    pub fn restore(&self, id: &str, state_json: &str) -> Result<Box<dyn DynMatch>, HostError> {
        self.get(id)?.restore(state_json)
    }
}
