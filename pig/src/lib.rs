//! Pig, the dice game, on [`game_core::Game`]: the framework's guide game, small enough
//! to read in one sitting.
//!
//! Two to four players take turns. On your turn you roll a die as often as you like: a 2
//! to 6 adds to the turn's total, a 1 loses the turn's total and ends your turn. Holding
//! banks the turn's total into your score and ends your turn. The first to bank
//! [`PigOptions::target`] points (100 by default) wins. Holding needs something to bank,
//! so a turn starts with a roll. A player whose time runs out holds, or rolls when there
//! is nothing to hold yet ([`Game::timeout_action`]), so that a game of absent players
//! still ends.
//!
//! ```
//! use game_core::{Game, GameExt, Viewer};
//! use pig::{Pig, PigAction, PigOptions};
//!
//! let players = vec!["ann".to_string(), "bo".to_string()];
//! let mut state = Pig.setup(&PigOptions::default(), &players, 7, 0).unwrap();
//! // Search tools force a roll's outcome; a host just applies `ROLL`.
//! Pig.apply_chance(&mut state, 0, &PigAction::Roll, &5, 10).unwrap();
//! Pig.apply_chance(&mut state, 0, &PigAction::Roll, &4, 20).unwrap();
//! Pig.apply(&mut state, "ann", &PigAction::Hold, 30).unwrap();
//! assert_eq!(state.scores, [9, 0]);
//! // Bo's turn: a 1 loses what Bo rolled and passes the turn back.
//! Pig.apply_chance(&mut state, 1, &PigAction::Roll, &3, 40).unwrap();
//! Pig.apply_chance(&mut state, 1, &PigAction::Roll, &1, 50).unwrap();
//! let view = Pig.view(&state, Viewer::Player("ann"));
//! assert_eq!((view.turn, view.turn_total, view.scores), (0, 0, vec![9, 0]));
//! assert_eq!(view.legal_actions, [PigAction::Roll]);
//! ```
//!
//! The bots are in [`bots`]: [`HoldBot`] (the classic "hold at 20") and [`PigModel`], what
//! the framework's search bot ([`game_core::search::Expectimax`]) needs to play Pig.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bots;

use std::ops::RangeInclusive;

use game_core::{
    Game, GameError, Millis, PlayerId, PresenceChanged, Rejection, Table, Viewer, wire,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use bots::{HoldBot, PigModel};

/// How many players a game seats.
pub const PLAYERS: RangeInclusive<usize> = 2..=4;

/// The allowed range of [`PigOptions::target`].
pub const TARGET_RANGE: RangeInclusive<u32> = 10..=500;

/// The allowed range of [`PigOptions::turn_seconds`] when set.
pub const TURN_SECONDS_RANGE: RangeInclusive<u32> = 5..=600;

/// The game. It holds nothing: the rules are code, the game is in [`PigState`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pig;

/// Settings chosen before the game.
///
/// ```
/// let o: pig::PigOptions = serde_json::from_str(r#"{"target":50}"#).unwrap();
/// assert_eq!((o.target, o.turn_seconds), (50, Some(30)));
/// assert!(o.validate().is_ok());
/// assert!(serde_json::from_str::<pig::PigOptions>(r#"{"goal":50}"#).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct PigOptions {
    /// The score that wins (10 to 500, default 100).
    #[schemars(range(min = *TARGET_RANGE.start(), max = *TARGET_RANGE.end()))]
    pub target: u32,
    /// Seconds each decision may take before the engine acts (5 to 600, default 30), or
    /// `None` for no time limit.
    #[schemars(range(min = *TURN_SECONDS_RANGE.start(), max = *TURN_SECONDS_RANGE.end()))]
    pub turn_seconds: Option<u32>,
}

impl Default for PigOptions {
    fn default() -> Self {
        Self {
            target: 100,
            turn_seconds: Some(30),
        }
    }
}

impl PigOptions {
    /// Checks each option against its range; the error names the first one out of it.
    ///
    /// ```
    /// let bad = pig::PigOptions { target: 5, ..Default::default() };
    /// assert_eq!(game_core::GameError::code(&bad.validate().unwrap_err()), "INVALID_OPTION");
    /// ```
    pub fn validate(&self) -> Result<(), PigError> {
        let out_of = |option, got, range: &RangeInclusive<u32>| PigError::InvalidOption {
            option,
            got,
            min: *range.start(),
            max: *range.end(),
        };
        if !TARGET_RANGE.contains(&self.target) {
            return Err(out_of("target", self.target, &TARGET_RANGE));
        }
        match self.turn_seconds {
            Some(s) if !TURN_SECONDS_RANGE.contains(&s) => {
                Err(out_of("turnSeconds", s, &TURN_SECONDS_RANGE))
            }
            _ => Ok(()),
        }
    }
}

/// What a player can do: `{"type":"ROLL"}` or `{"type":"HOLD"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PigAction {
    /// Rolls the die.
    Roll,
    /// Banks the turn's total and ends the turn.
    Hold,
}

/// Strict reading ([`wire::tagged_object`]): no extra field, no array form.
impl<'de> Deserialize<'de> for PigAction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let value = serde_json::Value::deserialize(d)?;
        let (_, kind) = wire::tagged_object(value, &["ROLL", "HOLD"]).map_err(D::Error::custom)?;
        match kind.as_str() {
            "ROLL" => Ok(Self::Roll),
            "HOLD" => Ok(Self::Hold),
            _ => Err(D::Error::custom(format!("unknown action type `{kind}`"))),
        }
    }
}

/// What happened, shown to everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PigEvent {
    /// A seat rolled. On a 1 the turn's total is lost and the turn passes.
    Rolled {
        /// Who rolled.
        seat: usize,
        /// The die, 1 to 6.
        die: u8,
        /// The turn's total after the roll (0 after a 1).
        turn_total: u32,
    },
    /// A seat banked its turn's total.
    Held {
        /// Who held.
        seat: usize,
        /// The points banked.
        banked: u32,
        /// The seat's score now.
        score: u32,
    },
    /// The game is over.
    GameOver {
        /// The winning seat.
        winner: usize,
    },
    /// A player's presence changed (see [`PresenceChanged`]).
    PresenceChanged {
        /// Whose.
        player: PlayerId,
        /// Connected now?
        connected: bool,
        /// Away now?
        away: bool,
    },
}

impl From<PresenceChanged> for PigEvent {
    fn from(p: PresenceChanged) -> Self {
        let PresenceChanged {
            player,
            connected,
            away,
        } = p;
        Self::PresenceChanged {
            player,
            connected,
            away,
        }
    }
}

/// The final result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PigOutcome {
    /// The winner's player id.
    pub winner: PlayerId,
    /// The winner's seat.
    pub winner_seat: usize,
    /// The banked scores, in seat order.
    pub scores: Vec<u32>,
}

/// A game in progress. Holds the RNG, so it is never shown: players get a [`PigView`].
/// Not `Deserialize`: JSON becomes a state only through [`Game::restore`], checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PigState {
    /// Seats, RNG, clock and presence.
    pub table: Table,
    /// The options the game was set up with.
    pub options: PigOptions,
    /// The banked scores, in seat order.
    pub scores: Vec<u32>,
    /// The seat whose turn it is.
    pub turn: usize,
    /// The points rolled this turn, not yet banked.
    pub turn_total: u32,
    /// The last die rolled in the game, if any.
    pub last_roll: Option<u8>,
    /// The winning seat, once the game is over.
    pub winner: Option<usize>,
}

/// The stored form of a [`PigState`], read only by [`Game::restore`].
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Stored {
    table: Table,
    options: PigOptions,
    scores: Vec<u32>,
    turn: usize,
    turn_total: u32,
    last_roll: Option<u8>,
    winner: Option<usize>,
}

/// What a player (or a spectator) sees: everything but the RNG.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PigView {
    /// The viewer's seat, or `None` for a spectator.
    pub you: Option<usize>,
    /// The player ids, in seat order.
    pub players: Vec<PlayerId>,
    /// Whether each player is connected, in seat order.
    pub connected: Vec<bool>,
    /// Whether each player is away (timed out three times in a row), in seat order.
    pub away: Vec<bool>,
    /// The banked scores, in seat order.
    pub scores: Vec<u32>,
    /// The score that wins.
    pub target: u32,
    /// The seat whose turn it is.
    pub turn: usize,
    /// The points rolled this turn, not yet banked.
    pub turn_total: u32,
    /// The last die rolled, if any.
    pub last_roll: Option<u8>,
    /// The winning seat, once the game is over.
    pub winner: Option<usize>,
    /// The sequence number to send with the next action.
    pub turn_seq: u64,
    /// When the current decision times out, if it has a time limit.
    pub deadline_at: Option<Millis>,
    /// What the viewer may do now.
    pub legal_actions: Vec<PigAction>,
}

/// Why an action or a setting was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PigError {
    /// Another seat is to act.
    #[error("지금은 차례가 아니에요.")]
    NotYourTurn,
    /// `HOLD` with nothing rolled this turn.
    #[error("아직 모은 점수가 없어요. 먼저 굴려 주세요.")]
    NothingToHold,
    /// An option is out of its range.
    #[error("{option} 설정은 {min}부터 {max}까지 고를 수 있어요.")]
    InvalidOption {
        /// The option's wire name (`target`, `turnSeconds`).
        option: &'static str,
        /// The value given.
        got: u32,
        /// The smallest allowed value.
        min: u32,
        /// The largest allowed value.
        max: u32,
    },
    /// A framework rejection (not seated, stale request, game over, corrupt state, ...).
    #[error(transparent)]
    Core(#[from] Rejection),
}

impl GameError for PigError {
    fn code(&self) -> &'static str {
        match self {
            Self::NotYourTurn => "NOT_YOUR_TURN",
            Self::NothingToHold => "NOTHING_TO_HOLD",
            Self::InvalidOption { .. } => "INVALID_OPTION",
            Self::Core(r) => r.code(),
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        match self {
            Self::InvalidOption {
                option,
                got,
                min,
                max,
            } => Some(serde_json::json!({ "option": option, "got": got, "min": min, "max": max })),
            Self::Core(r) => r.reason(),
            _ => None,
        }
    }
}

/// A stored state that breaks a rule of the game.
fn corrupt(detail: &str) -> PigError {
    Rejection::CorruptState {
        detail: detail.into(),
    }
    .into()
}

impl PigState {
    /// Ends the turn: the next seat rolls first, with a fresh clock.
    fn pass_turn(&mut self, now: Millis) {
        self.turn = (self.turn + 1) % self.scores.len();
        self.turn_total = 0;
        self.table.ask(now, self.options.turn_seconds);
    }
}

impl Game for Pig {
    type Options = PigOptions;
    type State = PigState;
    type Action = PigAction;
    type View = PigView;
    type Event = PigEvent;
    type Outcome = PigOutcome;
    /// A roll's die, 1 to 6.
    type Chance = u8;
    type Error = PigError;

    fn id(&self) -> &'static str {
        "pig"
    }

    fn setup(
        &self,
        options: &PigOptions,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<PigState, PigError> {
        if !PLAYERS.contains(&players.len()) {
            return Err(Rejection::BadPlayerCount {
                players: players.len(),
                allowed: PLAYERS.collect(),
            }
            .into());
        }
        options.validate()?;
        let mut table = Table::new(players, seed, now)?;
        table.ask(now, options.turn_seconds);
        Ok(PigState {
            table,
            options: options.clone(),
            scores: vec![0; players.len()],
            turn: 0,
            turn_total: 0,
            last_roll: None,
            winner: None,
        })
    }

    fn table<'s>(&self, state: &'s PigState) -> &'s Table {
        &state.table
    }

    fn table_mut<'s>(&self, state: &'s mut PigState) -> &'s mut Table {
        &mut state.table
    }

    fn validate(&self, state: &PigState, seat: usize, action: &PigAction) -> Result<(), PigError> {
        if seat >= state.scores.len() {
            return Err(Rejection::NotSeated {
                player: format!("seat {seat}"),
            }
            .into());
        }
        if state.winner.is_some() {
            return Err(Rejection::GameOver.into());
        }
        if seat != state.turn {
            return Err(PigError::NotYourTurn);
        }
        if *action == PigAction::Hold && state.turn_total == 0 {
            return Err(PigError::NothingToHold);
        }
        Ok(())
    }

    fn step_into(
        &self,
        state: &mut PigState,
        seat: usize,
        action: &PigAction,
        chance: Option<&u8>,
        now: Millis,
        events: &mut Vec<PigEvent>,
    ) {
        match action {
            PigAction::Roll => {
                let die = match chance {
                    Some(&die) => die,
                    // `below(6)` is under 6: the cast cannot truncate.
                    None => state.table.rng.below(6) as u8 + 1,
                };
                state.last_roll = Some(die);
                if die == 1 {
                    state.pass_turn(now);
                } else {
                    state.turn_total = state.turn_total.saturating_add(u32::from(die));
                    state.table.ask(now, state.options.turn_seconds);
                }
                let turn_total = state.turn_total;
                events.push(PigEvent::Rolled {
                    seat,
                    die,
                    turn_total,
                });
            }
            PigAction::Hold => {
                let Some(score) = state.scores.get_mut(seat) else {
                    return;
                };
                let banked = state.turn_total;
                *score = score.saturating_add(banked);
                let score = *score;
                events.push(PigEvent::Held {
                    seat,
                    banked,
                    score,
                });
                if score >= state.options.target {
                    state.winner = Some(seat);
                    state.turn_total = 0;
                    state.table.close();
                    events.push(PigEvent::GameOver { winner: seat });
                } else {
                    state.pass_turn(now);
                }
            }
        }
    }

    fn view(&self, state: &PigState, viewer: Viewer<'_>) -> PigView {
        let table = &state.table;
        let you = match viewer {
            Viewer::Player(id) => table.seat_of(id),
            Viewer::Spectator => None,
        };
        PigView {
            you,
            players: table.players.clone(),
            connected: table.presence.iter().map(|p| p.connected()).collect(),
            away: table.presence.iter().map(|p| p.away).collect(),
            scores: state.scores.clone(),
            target: state.options.target,
            turn: state.turn,
            turn_total: state.turn_total,
            last_roll: state.last_roll,
            winner: state.winner,
            turn_seq: table.turn_seq,
            deadline_at: table.deadline_at,
            legal_actions: you.map_or_else(Vec::new, |s| self.legal_actions(state, s)),
        }
    }

    /// Hold what the turn has gathered; with nothing gathered yet, roll.
    fn timeout_action(&self, state: &PigState, seat: usize) -> Option<PigAction> {
        if state.winner.is_some() || seat != state.turn {
            return None;
        }
        Some(if state.turn_total > 0 {
            PigAction::Hold
        } else {
            PigAction::Roll
        })
    }

    fn to_act(&self, state: &PigState) -> Vec<usize> {
        self.first_to_act(state).into_iter().collect()
    }

    fn first_to_act(&self, state: &PigState) -> Option<usize> {
        state.winner.is_none().then_some(state.turn)
    }

    fn legal_actions(&self, state: &PigState, seat: usize) -> Vec<PigAction> {
        [PigAction::Roll, PigAction::Hold]
            .into_iter()
            .filter(|a| self.validate(state, seat, a).is_ok())
            .collect()
    }

    fn outcome(&self, state: &PigState) -> Option<PigOutcome> {
        let seat = state.winner?;
        Some(PigOutcome {
            winner: state.table.players.get(seat)?.clone(),
            winner_seat: seat,
            scores: state.scores.clone(),
        })
    }

    fn check_state(&self, state: &PigState) -> Result<(), PigError> {
        let table = &state.table;
        table.check()?;
        let n = table.players.len();
        if !PLAYERS.contains(&n) || state.scores.len() != n {
            return Err(corrupt("two to four seats, one score each"));
        }
        state
            .options
            .validate()
            .map_err(|e| corrupt(&format!("options: {e}")))?;
        if state.turn >= n {
            return Err(corrupt("the turn is not a seat"));
        }
        if state.turn_total == 1 || state.last_roll.is_some_and(|d| !(1..=6).contains(&d)) {
            return Err(corrupt("no roll gives that"));
        }
        let target = state.options.target;
        let reached: Vec<usize> = (0..n).filter(|&s| state.scores[s] >= target).collect();
        match state.winner {
            None if reached.is_empty() => {
                let expected = state
                    .options
                    .turn_seconds
                    .map(|s| table.decision_since.saturating_add(u64::from(s) * 1000));
                if table.deadline_at != expected {
                    return Err(corrupt("the deadline does not match turnSeconds"));
                }
                Ok(())
            }
            None => Err(corrupt("a seat reached the target but the game goes on")),
            Some(w) if reached != [w] => Err(corrupt("the winner alone must reach the target")),
            Some(_) if state.turn_total != 0 || table.deadline_at.is_some() => {
                Err(corrupt("a turn left open after the end"))
            }
            Some(_) => Ok(()),
        }
    }

    /// A roll's six faces, 1/6 each.
    fn chances(
        &self,
        _state: &PigState,
        _seat: usize,
        action: &PigAction,
    ) -> Option<Vec<(u8, f64)>> {
        (*action == PigAction::Roll).then(|| (1..=6).map(|die| (die, 1.0 / 6.0)).collect())
    }

    fn restore(&self, json: &str) -> Result<PigState, PigError> {
        let parsed = serde_json::from_str::<Stored>(json).map(|s| PigState {
            table: s.table,
            options: s.options,
            scores: s.scores,
            turn: s.turn,
            turn_total: s.turn_total,
            last_roll: s.last_roll,
            winner: s.winner,
        });
        game_core::restored(self, parsed)
    }
}
