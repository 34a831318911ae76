//! Match records: everything needed to replay a game, byte for byte.

use crate::GameExt;
use crate::GameState;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Applied, Game, Millis, Played, PlayerId};

/// One step of a record: an action a player took, or a clock tick, or a presence change,
/// or the host's setting of the match's grace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum RecordEntry {
    /// A player's action, at `at`.
    #[serde(rename_all = "camelCase")]
    Act {
        /// Host time of the action.
        at: Millis,
        /// Who acted.
        player: PlayerId,
        /// The action, in the game's wire format.
        action: serde_json::Value,
    },
    /// The host moved the clock; due timeouts were taken.
    Tick {
        /// Host time.
        at: Millis,
    },
    /// A player connected or disconnected.
    #[serde(rename_all = "camelCase")]
    Presence {
        /// Host time.
        at: Millis,
        /// Whose connection changed.
        player: PlayerId,
        /// Connected now?
        connected: bool,
    },
    /// The host set how long a disconnected player is waited for from here on
    /// ([`Match::set_grace_ms`]). Timeouts are recorded as ticks, which take what is due
    /// at their time under the grace in force, so a replay needs the grace as it was set.
    #[serde(rename_all = "camelCase")]
    Grace {
        /// The grace, in milliseconds (at most [`MAX_TIME`](crate::MAX_TIME)).
        grace_ms: Millis,
    },
}

/// A grace longer than the clock runs ([`MAX_TIME`](crate::MAX_TIME)), refused by
/// [`Match::set_grace_ms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the grace must be at most {max} ms, not {got}", max = crate::MAX_TIME)]
pub struct InvalidGrace {
    /// The grace asked for.
    pub got: Millis,
}

/// A whole match: game id, format version, options, players, seed, start time and every
/// input in order. Replaying it reproduces the state byte for byte.
///
/// A record holds the seed (and a restored match's record its stored state, RNG
/// included): whoever has it can predict every throw. Keep it on the server until the
/// match is over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchRecord {
    /// The game's id.
    pub game: String,
    /// The game's format version when recorded.
    pub version: u32,
    /// The options, in the game's wire format.
    pub options: serde_json::Value,
    /// Player ids in seat order.
    pub players: Vec<PlayerId>,
    /// The RNG seed.
    pub seed: u64,
    /// Host time of setup.
    pub started_at: Millis,
    /// For a match restored from a stored state ([`Match::restore`]): that state, which
    /// replaying restores (validated) instead of setting up from `options` and `seed`
    /// (then `null` and 0); `entries` continue from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<serde_json::Value>,
    /// Every input, in order.
    pub entries: Vec<RecordEntry>,
}

/// Why a record cannot be replayed. The Korean messages name the part; the parser's own
/// text is in the reason's `detail`.
///
/// Non-exhaustive: a later format may fail in new ways.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError<E> {
    /// The record is of another game.
    #[error("이 기록은 다른 게임({found})의 기록이에요.")]
    WrongGame {
        /// The game the record names.
        found: String,
    },
    /// The record's format version is not this game's.
    #[error("지원하지 않는 기록 버전이에요 ({found}, 지원: {supported}).")]
    UnsupportedVersion {
        /// The record's version.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// A JSON part of the record does not parse as the game's type.
    #[error("기록의 {what} 부분을 읽을 수 없어요.")]
    Malformed {
        /// Which part.
        what: &'static str,
        /// The parser's message.
        detail: String,
    },
    /// The game refused a recorded input.
    #[error("기록의 {}번째 입력이 거부되었어요: {error}", index + 1)]
    Refused {
        /// Position of the input in `entries`.
        index: usize,
        /// The game's error.
        error: E,
    },
}

impl<E: crate::GameError> crate::GameError for RecordError<E> {
    fn code(&self) -> &'static str {
        match self {
            Self::WrongGame { .. } => "RECORD_WRONG_GAME",
            Self::UnsupportedVersion { .. } => "RECORD_UNSUPPORTED_VERSION",
            Self::Malformed { .. } => "RECORD_MALFORMED",
            Self::Refused { error, .. } => error.code(),
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        match self {
            Self::Refused { index, error } => crate::reason_of(&RefusedWire::Refused {
                entry: *index,
                error: error.body(),
            }),
            Self::WrongGame { found } => crate::reason_of(&RecordErrorWire::WrongGame { found }),
            Self::UnsupportedVersion { found, supported } => {
                crate::reason_of(&RecordErrorWire::UnsupportedVersion {
                    found: *found,
                    supported: *supported,
                })
            }
            Self::Malformed { what, detail } => {
                crate::reason_of(&RecordErrorWire::Malformed { part: what, detail })
            }
        }
    }
}

/// The wire form of a record's own refusals: one definition writes the reason and lists
/// the codes with their reasons' schemas.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", content = "reason")]
enum RecordErrorWire<'a> {
    /// The record is of another game.
    #[serde(rename = "RECORD_WRONG_GAME")]
    WrongGame {
        /// The game the record names.
        found: &'a str,
    },
    /// The record's format version is not this game's.
    #[serde(rename = "RECORD_UNSUPPORTED_VERSION")]
    UnsupportedVersion {
        /// The record's version.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// A JSON part of the record does not parse as the game's type.
    #[serde(rename = "RECORD_MALFORMED")]
    Malformed {
        /// Which part.
        part: &'a str,
        /// The parser's message.
        detail: &'a str,
    },
}

/// The reason of a recorded input the game refused: its code is the game's.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", content = "reason")]
enum RefusedWire {
    /// A recorded input the game refused, under the game's code.
    Refused {
        /// The input's position in `entries`.
        entry: usize,
        /// The game's refusal.
        error: crate::ErrorBody,
    },
}

/// A record's own codes. A refused input carries the game's code, with the reason
/// `{entry, error}` (which a game's error schema lists beside each code's own).
impl<E> crate::ErrorCodes for RecordError<E> {
    fn codes(codes: &mut crate::CodeSchemas) {
        codes.tagged::<RecordErrorWire<'_>>();
    }
}

/// The reason of a refused recorded input, `{entry, error}`, beside the own reason of each
/// of the game's `codes`: all but `STALE_TURN_SEQ`, which a replay never gives (it sends
/// no `turnSeq`).
pub(crate) fn refused_codes(codes: &mut crate::CodeSchemas, game_codes: &[String]) {
    let refused = codes.reason_of_tagged::<RefusedWire>();
    for code in game_codes.iter().filter(|c| *c != "STALE_TURN_SEQ") {
        codes.code_schema(
            code,
            "A recorded input the game refused, under the game's code.",
            refused.clone(),
        );
    }
}

/// A game in progress together with its record: the unit a host stores and replays.
///
/// ```
/// use game_core::{Match, rps::{Rps, RpsAction, RpsOptions, Hand}};
/// let players = vec!["ann".to_string(), "bo".to_string()];
/// let mut m = Match::new(Rps, RpsOptions::default(), players, 7, 0).unwrap();
/// m.act("ann", &RpsAction::Pick { hand: Hand::Rock }, 10).unwrap();
/// let replayed = Match::replay(Rps, &m.record()).unwrap();
/// assert_eq!(replayed.state(), m.state());
/// ```
///
/// Every input goes through [`Match::play`], [`Match::tick`] or [`Match::set_connected`],
/// which take the timeouts due at the input's time first and record what changed the
/// state: replaying the record gives the same state.
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    // Private: the state changes only through the methods below, each of which records
    // what it did, so the record always replays to the state.
    pub(crate) game: G,
    pub(crate) state: G::State,
    // The entries written as JSON so far; `unwritten` holds the newer accepted actions,
    // typed (at, seat, action), which `record` writes after these. Writing an action as a
    // JSON value costs more than a random play-out's whole step, and most are never read
    // before the match is stored or over.
    record: MatchRecord,
    unwritten: Vec<(Millis, usize, G::Action)>,
    // The options of a new match, until `record` writes them into `record.options`.
    unwritten_options: Option<G::Options>,
    // The events buffer the erased layer reuses from one call to the next, so that a call
    // allocates nothing it does not give away (it finds legal actions by index, unlisted).
    pub(crate) scratch: Vec<G::Event>,
    // The time of the tick entry [`Match::apply_entry`] applied last, while it is the entry
    // just applied: an action or a presence change at that time is the rest of the input
    // whose timeouts that tick recorded. Only record loading reads or sets it.
    replay_tick: Option<Millis>,
}

impl<G: Game> Match<G> {
    /// The rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The current state.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// Everything that led to the state. Takes `&mut self` because the actions accepted
    /// since the last call are written as JSON here, once, rather than on every action.
    ///
    /// ```
    /// use game_core::{Match, RecordEntry, rps::{Rps, RpsAction, RpsOptions, Hand}};
    /// let mut m = Match::new(Rps, RpsOptions::default(), vec!["a".into(), "b".into()], 7, 0).unwrap();
    /// m.act("a", &RpsAction::Pick { hand: Hand::Rock }, 10).unwrap();
    /// let RecordEntry::Act { at, player, action } = &m.record().entries[0] else { panic!() };
    /// assert_eq!((*at, player.as_str()), (10, "a"));
    /// assert_eq!(action, &serde_json::json!({"type": "PICK", "hand": "rock"}));
    /// ```
    pub fn record(&mut self) -> &MatchRecord {
        self.write_record();
        &self.record
    }

    /// The state and the record, giving the match up.
    pub fn into_parts(mut self) -> (G::State, MatchRecord) {
        self.write_record();
        (self.state, self.record)
    }

    /// Writes the unwritten options and actions into the record, in order.
    fn write_record(&mut self) {
        if let Some(options) = self.unwritten_options.take() {
            self.record.options = serde_json::to_value(&options).unwrap_or(serde_json::Value::Null);
        }
        let players = &self.state.table().players;
        let written = self
            .unwritten
            .drain(..)
            .map(|(at, seat, action)| RecordEntry::Act {
                at,
                player: players[seat].clone(),
                action: serde_json::to_value(&action).unwrap_or(serde_json::Value::Null),
            });
        self.record.entries.extend(written);
    }

    /// Appends an entry other than an action, after the unwritten actions.
    fn push_entry(&mut self, entry: RecordEntry) {
        self.write_record();
        self.record.entries.push(entry);
    }

    /// Sets up a new match and starts its record.
    pub fn new(
        game: G,
        options: G::Options,
        players: Vec<PlayerId>,
        seed: u64,
        now: Millis,
    ) -> Result<Self, G::Error> {
        let state = game.setup(&options, &players, seed, now)?;
        let record = MatchRecord {
            game: game.id().to_owned(),
            version: game.format_version(),
            options: serde_json::Value::Null,
            players,
            seed,
            started_at: now,
            base: None,
            entries: Vec::new(),
        };
        Ok(Self {
            game,
            state,
            record,
            unwritten: Vec::new(),
            unwritten_options: Some(options),
            scratch: Vec::new(),
            replay_tick: None,
        })
    }

    /// Restores a match from a stored state ([`Game::restore`]: validated, a tampered
    /// state is refused). Its record starts from that state (`base`) and goes on from
    /// there, so it replays too.
    ///
    /// ```
    /// use game_core::{Match, rps::{Rps, RpsAction, RpsOptions, Hand}};
    /// let mut m = Match::new(Rps, RpsOptions::default(), vec!["a".into(), "b".into()], 7, 0).unwrap();
    /// m.act("a", &RpsAction::Pick { hand: Hand::Rock }, 10).unwrap();
    /// let stored = serde_json::to_string(&m.state()).unwrap();
    /// let mut back = Match::restore(Rps, &stored).unwrap();
    /// back.act("b", &RpsAction::Pick { hand: Hand::Paper }, 20).unwrap();
    /// assert_eq!(Match::replay(Rps, &back.record()).unwrap().state(), back.state());
    /// assert!(Match::restore(Rps, "{}").is_err());
    /// ```
    pub fn restore(game: G, json: &str) -> Result<Self, G::Error> {
        let state = game.restore(json)?;
        let table = state.table();
        let record = MatchRecord {
            game: game.id().to_owned(),
            version: game.format_version(),
            options: serde_json::Value::Null,
            players: table.players.clone(),
            seed: 0,
            started_at: table.time(0),
            base: Some(serde_json::to_value(&state).unwrap_or(serde_json::Value::Null)),
            entries: Vec::new(),
        };
        Ok(Self {
            game,
            state,
            record,
            unwritten: Vec::new(),
            unwritten_options: None,
            scratch: Vec::new(),
            replay_tick: None,
        })
    }

    /// A player's request at `now` ([`GameExt::play`]): the timeouts due at `now` first, then
    /// the action, checked against `turn_seq` when given. Records the timeouts (as a tick)
    /// and the action if accepted; a refused action is not recorded.
    ///
    /// ```
    /// use game_core::{Match, rps::{Rps, RpsAction, RpsOptions, Hand}};
    /// let mut m = Match::new(Rps, RpsOptions::default(), vec!["a".into(), "b".into()], 7, 0).unwrap();
    /// let rock = RpsAction::Pick { hand: Hand::Rock };
    /// assert!(m.play("b", &rock, None, 10).result.is_ok());
    /// assert!(m.play("c", &rock, None, 10).result.is_err());
    /// assert_eq!(m.record().entries.len(), 1);
    /// ```
    pub fn play(
        &mut self,
        player: &str,
        action: &G::Action,
        turn_seq: Option<u64>,
        now: Millis,
    ) -> Played<G> {
        let seat = match self.game.seat(&self.state, player) {
            Ok(seat) => seat,
            Err(e) => {
                return Played {
                    applied: Vec::new(),
                    result: Err(e),
                };
            }
        };
        let mut events = Vec::new();
        let played = self
            .game
            .play(&mut self.state, seat, action, turn_seq, now, &mut events);
        if !played.applied.is_empty() {
            self.push_entry(RecordEntry::Tick { at: now });
        }
        if played.result.is_ok() {
            self.unwritten.push((now, seat, action.clone()));
        }
        played.with_events(events)
    }

    /// [`Match::play`] by seat for an action the game itself picked from the legal
    /// actions of `seat` in this very state ([`Game::legal_action`]), without a `turnSeq`
    /// and without its events (`scratch` may be left with some or none): recorded the
    /// same, the state the same. Not validated again unless a timeout taken first changed
    /// the state; then it is, and may be refused.
    pub(crate) fn play_picked(
        &mut self,
        seat: usize,
        action: &G::Action,
        now: Millis,
        scratch: &mut Vec<G::Event>,
    ) -> Result<(), G::Error> {
        let applied = self.game.tick(&mut self.state, now);
        let result = if applied.is_empty() {
            crate::game::clear_events(scratch);
            let kept = crate::game::Events::Dropped;
            let game = &self.game;
            crate::game::apply_valid(
                game,
                &mut self.state,
                seat,
                action,
                None,
                now,
                scratch,
                kept,
            );
            Ok(())
        } else {
            self.push_entry(RecordEntry::Tick { at: now });
            let game = &self.game;
            crate::game::apply_quiet(game, &mut self.state, seat, action, now, scratch)
        };
        if result.is_ok() {
            self.unwritten.push((now, seat, action.clone()));
        }
        result
    }

    /// [`Match::play`] without a `turnSeq` check, for callers that only want the action's
    /// events (the timeouts it found due are in the state and the record all the same).
    pub fn act(
        &mut self,
        player: &str,
        action: &G::Action,
        now: Millis,
    ) -> Result<Vec<G::Event>, G::Error> {
        self.play(player, action, None, now).result
    }

    /// [`Match::act`] with the `turnSeq` the sender saw (see [`GameExt::play`]).
    pub fn act_at(
        &mut self,
        player: &str,
        action: &G::Action,
        turn_seq: u64,
        now: Millis,
    ) -> Result<Vec<G::Event>, G::Error> {
        self.play(player, action, Some(turn_seq), now).result
    }

    /// Moves the clock; records the tick only if a timeout was taken.
    pub fn tick(&mut self, now: Millis) -> Vec<Applied<G>> {
        let done = self.game.tick(&mut self.state, now);
        if !done.is_empty() {
            self.push_entry(RecordEntry::Tick { at: now });
        }
        done
    }

    /// Marks a player connected or disconnected at `now`, after the timeouts due then.
    /// Records the change; an update that changes nothing (already connected, already
    /// disconnected) is not recorded and returns no event.
    pub fn set_connected(&mut self, player: &str, connected: bool, now: Millis) -> Played<G> {
        // Someone not seated is refused before anything is taken (see [`GameExt::play`]).
        if let Err(e) = self.game.seat(&self.state, player) {
            return Played {
                applied: Vec::new(),
                result: Err(e),
            };
        }
        let applied = self.tick(now);
        let result = self
            .game
            .set_connected(&mut self.state, player, connected, now);
        if let Ok(events) = &result
            && !events.is_empty()
        {
            self.push_entry(RecordEntry::Presence {
                at: now,
                player: player.to_owned(),
                connected,
            });
        }
        Played { applied, result }
    }

    /// Sets how long a disconnected player is waited for in this match before the engine
    /// acts for them, instead of the game's [`Game::grace_ms`], from now on (a grace
    /// already running is measured by the new length). Kept in the state's table, so a
    /// stored state keeps it, and recorded, so a replay keeps it; setting the grace in
    /// force again changes and records nothing. A grace past
    /// [`MAX_TIME`](crate::MAX_TIME) is refused, and nothing changes.
    ///
    /// ```
    /// use game_core::{Match, rps::{Rps, RpsOptions}};
    /// let mut m = Match::new(Rps, RpsOptions { turn_seconds: None, ..Default::default() }, vec!["a".into(), "b".into()], 7, 0).unwrap();
    /// m.set_grace_ms(1_000).unwrap();
    /// m.set_connected("b", false, 0);
    /// assert_eq!(m.next_tick_at(), Some(1_000)); // not the game's 5 s
    /// let replayed = Match::replay(Rps, &m.record()).unwrap();
    /// assert_eq!(replayed.next_tick_at(), Some(1_000));
    /// assert!(m.set_grace_ms(u64::MAX).is_err());
    /// ```
    pub fn set_grace_ms(&mut self, grace_ms: Millis) -> Result<(), InvalidGrace> {
        if grace_ms > crate::MAX_TIME {
            return Err(InvalidGrace { got: grace_ms });
        }
        let table = self.state.table_mut(crate::TableKey::new());
        if table.grace_ms == Some(grace_ms) {
            return Ok(());
        }
        table.grace_ms = Some(grace_ms);
        self.push_entry(RecordEntry::Grace { grace_ms });
        Ok(())
    }

    /// The earliest time at which [`Match::tick`] would act ([`GameExt::next_tick_at`]).
    pub fn next_tick_at(&self) -> Option<Millis> {
        self.game.next_tick_at(&self.state)
    }

    /// Plays one record entry on this match, as [`Match::replay`] does for each; `index` is
    /// the entry's place in its record, for the error. A match restored from a stored state
    /// continues its record this way.
    ///
    /// An entry is judged by the rules of the live operation that would have written it,
    /// so that every record this accepts is one [`Match::play`], [`Match::tick`] and
    /// [`Match::set_connected`] could have written:
    ///
    /// - its time is at most [`MAX_SAFE_INTEGER`](crate::MAX_SAFE_INTEGER), as every
    ///   host's `now` is (`RECORD_MALFORMED`, part `at`);
    /// - an action or a presence change is applied as it was, without taking timeouts
    ///   first: those its input took are the `tick` entry at its time just before it
    ///   (taken again, they would be taken twice at the end of the clock, where a decision
    ///   is due as soon as it is asked: see [`MAX_TIME`](crate::MAX_TIME)). Without that
    ///   entry, the live operation took no timeout, so none may be due at its time: an
    ///   action after its deadline with no tick before it is refused (`RECORD_MALFORMED`,
    ///   part `entries`), since the live operation would have taken the timeout first and
    ///   recorded it.
    ///
    /// The judgement runs the live operation's own tick ([`GameExt::tick`]) on a copy of
    /// the state, and only when the table says a timeout may be due: a record the live
    /// operations wrote replays at the same cost as before.
    pub fn apply_entry(
        &mut self,
        index: usize,
        entry: &RecordEntry,
    ) -> Result<(), RecordError<G::Error>> {
        let tick_before = self.replay_tick.take();
        let at = match entry {
            RecordEntry::Act { at, .. }
            | RecordEntry::Tick { at }
            | RecordEntry::Presence { at, .. } => Some(*at),
            RecordEntry::Grace { .. } => None,
        };
        if let Some(at) = at {
            check_time("at", at, format_args!("entry {index}"))?;
        }
        if let RecordEntry::Act { at, .. } | RecordEntry::Presence { at, .. } = entry
            && tick_before != Some(*at)
            && self.timeout_due(*at)
        {
            return Err(RecordError::Malformed {
                what: "entries",
                detail: format!(
                    "entry {index}: a timeout is due at {at} and no tick at that time comes \
                     before it: the live operation takes the timeout first and records it"
                ),
            });
        }
        if let RecordEntry::Tick { at } = entry {
            self.replay_tick = Some(*at);
        }
        let refused = |error| RecordError::Refused { index, error };
        match entry {
            RecordEntry::Act { at, player, action } => {
                let action: G::Action =
                    crate::wire::read_action(action.clone()).map_err(|detail| {
                        RecordError::Malformed {
                            what: "action",
                            detail: crate::cap_detail(detail),
                        }
                    })?;
                let seat = self.game.seat(&self.state, player).map_err(refused)?;
                let mut events = std::mem::take(&mut self.scratch);
                let result = crate::game::apply_into(
                    &self.game,
                    &mut self.state,
                    seat,
                    &action,
                    *at,
                    &mut events,
                );
                self.scratch = events;
                result.map_err(refused)?;
                self.unwritten.push((*at, seat, action));
            }
            RecordEntry::Tick { at } => {
                self.tick(*at);
            }
            RecordEntry::Grace { grace_ms } => {
                self.set_grace_ms(*grace_ms)
                    .map_err(|e| RecordError::Malformed {
                        what: "grace",
                        detail: e.to_string(),
                    })?;
            }
            RecordEntry::Presence {
                at,
                player,
                connected,
            } => {
                let events = self
                    .game
                    .set_connected(&mut self.state, player, *connected, *at)
                    .map_err(refused)?;
                if !events.is_empty() {
                    self.push_entry(RecordEntry::Presence {
                        at: *at,
                        player: player.clone(),
                        connected: *connected,
                    });
                }
            }
        }
        Ok(())
    }

    /// Whether the live operation at `at` would take a timeout first: [`GameExt::tick`]
    /// itself, run on a copy, once the table alone cannot rule one out.
    fn timeout_due(&self, at: Millis) -> bool {
        let table = self.state.table();
        if crate::game::nothing_due(table, table.time(at)) {
            return false;
        }
        let mut copy = self.state.clone();
        !self.game.tick(&mut copy, at).is_empty()
    }

    /// Rebuilds a match from its record. Refuses records of another game or version, and
    /// records the live operations could not have written ([`Match::apply_entry`]): a
    /// `startedAt` past [`MAX_SAFE_INTEGER`](crate::MAX_SAFE_INTEGER) is
    /// `RECORD_MALFORMED` (part `startedAt`).
    pub fn replay(game: G, record: &MatchRecord) -> Result<Self, RecordError<G::Error>> {
        if record.game != game.id() {
            return Err(RecordError::WrongGame {
                found: record.game.clone(),
            });
        }
        if record.version != game.format_version() {
            return Err(RecordError::UnsupportedVersion {
                found: record.version,
                supported: game.format_version(),
            });
        }
        check_time("startedAt", record.started_at, "the match's start")?;
        let mut m =
            match &record.base {
                Some(base) => {
                    let m = Self::restore(game, &base.to_string())
                        .map_err(|error| RecordError::Refused { index: 0, error })?;
                    if m.state.table().players != record.players {
                        return Err(RecordError::Malformed {
                            what: "players",
                            detail: "the players are not those of the base state".into(),
                        });
                    }
                    m
                }
                None => {
                    let options: G::Options = serde_json::from_value(record.options.clone())
                        .map_err(|e| RecordError::Malformed {
                            what: "options",
                            detail: crate::error::parse_detail(&e),
                        })?;
                    Self::new(
                        game,
                        options,
                        record.players.clone(),
                        record.seed,
                        record.started_at,
                    )
                    .map_err(|error| RecordError::Refused { index: 0, error })?
                }
            };
        for (index, entry) in record.entries.iter().enumerate() {
            m.apply_entry(index, entry)?;
        }
        // The rebuilt record equals the given one except for ticks that took nothing: it
        // takes the given entries (the replayed actions need no writing), and the options.
        m.unwritten.clear();
        m.write_record();
        m.record.entries.clone_from(&record.entries);
        Ok(m)
    }
}

/// A record's time past what any host's `now` may be ([`MAX_SAFE_INTEGER`](crate::MAX_SAFE_INTEGER),
/// the bound of every `now` the live operations take): `RECORD_MALFORMED` naming `part`.
fn check_time<E>(
    part: &'static str,
    at: Millis,
    whose: impl std::fmt::Display,
) -> Result<(), RecordError<E>> {
    if at > crate::MAX_SAFE_INTEGER {
        return Err(RecordError::Malformed {
            what: part,
            detail: format!(
                "{whose}: the time {at} is past {}, the latest a live operation takes",
                crate::MAX_SAFE_INTEGER
            ),
        });
    }
    Ok(())
}
