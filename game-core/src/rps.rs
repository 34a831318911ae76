//! Rock-paper-scissors to N wins: a second, small game proving that [`Game`] is generic.
//!
//! Two players pick at the same time, in any order. A pick stays hidden (the opponent and
//! spectators only see *that* a pick was made) until both have picked; then the round is
//! revealed. A draw replays the round; the first player to reach
//! [`RpsOptions::wins_needed`] round wins takes the game. A player may concede at any time.
//!
//! ```
//! use game_core::{Game, GameExt, Viewer, rps::{Hand, Rps, RpsAction, RpsOptions}};
//! let players = vec!["ann".to_string(), "bo".to_string()];
//! let options = RpsOptions { wins_needed: 1, ..RpsOptions::default() };
//! let mut state = Rps.setup(&options, &players, 7, 0).unwrap();
//! Rps.apply(&mut state, 1, &RpsAction::Pick { hand: Hand::Rock }, 10).unwrap();
//! // Ann only sees that Bo picked.
//! let view = Rps.view(&state, Viewer::Player("ann"));
//! assert!(view.seats[1].picked && view.seats[1].hand.is_none());
//! Rps.apply(&mut state, 0, &RpsAction::Pick { hand: Hand::Paper }, 20).unwrap();
//! assert_eq!(Rps.outcome(&state).unwrap().winner, "ann");
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Game, GameError, Millis, PlayerId, PresenceChanged, Rejection, Table, Viewer};

/// The number of seats: rock-paper-scissors is played by exactly two.
pub const SEATS: usize = 2;

/// The allowed range of [`RpsOptions::wins_needed`].
pub const WINS_NEEDED_RANGE: std::ops::RangeInclusive<u8> = 1..=9;

/// The allowed range of [`RpsOptions::turn_seconds`] when set.
pub const TURN_SECONDS_RANGE: std::ops::RangeInclusive<u32> = 5..=600;

/// The game: rock-paper-scissors to N wins, with hidden simultaneous picks.
///
/// ```
/// use game_core::{Game, GameExt, rps::Rps};
/// assert_eq!(Rps.id(), "rps");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rps;

/// Settings chosen before the game.
///
/// ```
/// use game_core::rps::RpsOptions;
/// let o: RpsOptions = serde_json::from_str(r#"{"winsNeeded":5}"#).unwrap();
/// assert_eq!(o, RpsOptions { wins_needed: 5, turn_seconds: Some(15) });
/// assert!(serde_json::from_str::<RpsOptions>(r#"{"wins":5}"#).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct RpsOptions {
    /// Round wins needed to win the game (1 to 9, default 3).
    // The value sets go into the schema so that generated client types refuse the rest.
    #[schemars(extend("enum" = WINS_NEEDED_RANGE.collect::<Vec<u8>>()))]
    pub wins_needed: u8,
    /// Seconds each round may take before the engine picks at random for whoever has not
    /// picked (5 to 600, default 15), or `None` for no time limit.
    #[schemars(range(min = *TURN_SECONDS_RANGE.start(), max = *TURN_SECONDS_RANGE.end()))]
    pub turn_seconds: Option<u32>,
}

impl Default for RpsOptions {
    fn default() -> Self {
        Self {
            wins_needed: 3,
            turn_seconds: Some(15),
        }
    }
}

impl RpsOptions {
    /// Checks every option against its allowed range.
    ///
    /// ```
    /// use game_core::{GameError, rps::RpsOptions};
    /// assert!(RpsOptions::default().validate().is_ok());
    /// let bad = RpsOptions { wins_needed: 0, ..RpsOptions::default() };
    /// assert_eq!(bad.validate().unwrap_err().code(), "INVALID_OPTION");
    /// ```
    pub fn validate(&self) -> Result<(), RpsError> {
        if !WINS_NEEDED_RANGE.contains(&self.wins_needed) {
            return Err(RpsError::InvalidOption {
                option: "winsNeeded",
                got: self.wins_needed.into(),
                min: (*WINS_NEEDED_RANGE.start()).into(),
                max: (*WINS_NEEDED_RANGE.end()).into(),
            });
        }
        if let Some(s) = self.turn_seconds
            && !TURN_SECONDS_RANGE.contains(&s)
        {
            return Err(RpsError::InvalidOption {
                option: "turnSeconds",
                got: s,
                min: *TURN_SECONDS_RANGE.start(),
                max: *TURN_SECONDS_RANGE.end(),
            });
        }
        Ok(())
    }
}

/// A hand: what a player shows.
///
/// ```
/// use game_core::rps::Hand;
/// assert_eq!(serde_json::to_string(&Hand::Scissors).unwrap(), r#""scissors""#);
/// assert!(Hand::Rock.beats(Hand::Scissors));
/// ```
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Hand {
    /// Beats scissors.
    Rock,
    /// Beats rock.
    Paper,
    /// Beats paper.
    Scissors,
}

impl Hand {
    /// Every hand, in a fixed order (the order random picks index into).
    pub const ALL: [Hand; 3] = [Hand::Rock, Hand::Paper, Hand::Scissors];

    /// Whether this hand beats `other`.
    ///
    /// ```
    /// use game_core::rps::Hand;
    /// assert!(Hand::Paper.beats(Hand::Rock));
    /// assert!(!Hand::Paper.beats(Hand::Paper));
    /// assert!(!Hand::Paper.beats(Hand::Scissors));
    /// ```
    pub fn beats(self, other: Hand) -> bool {
        matches!(
            (self, other),
            (Hand::Rock, Hand::Scissors)
                | (Hand::Paper, Hand::Rock)
                | (Hand::Scissors, Hand::Paper)
        )
    }

    /// The winning seat of a round where seat 0 showed `hands[0]` and seat 1 `hands[1]`, or
    /// `None` for a draw.
    ///
    /// ```
    /// use game_core::rps::Hand;
    /// assert_eq!(Hand::round_winner([Hand::Rock, Hand::Paper]), Some(1));
    /// assert_eq!(Hand::round_winner([Hand::Rock, Hand::Rock]), None);
    /// ```
    pub fn round_winner(hands: [Hand; 2]) -> Option<usize> {
        if hands[0].beats(hands[1]) {
            Some(0)
        } else if hands[1].beats(hands[0]) {
            Some(1)
        } else {
            None
        }
    }
}

/// What a player can do.
///
/// ```
/// use game_core::rps::{Hand, RpsAction};
/// let a: RpsAction = serde_json::from_str(r#"{"type":"PICK","hand":"rock"}"#).unwrap();
/// assert_eq!(a, RpsAction::Pick { hand: Hand::Rock });
/// let r: RpsAction = serde_json::from_str(r#"{"type":"RANDOM"}"#).unwrap();
/// assert_eq!(r, RpsAction::Random);
/// // Strict: no extra fields, no array form (see `game_core::wire`).
/// assert!(serde_json::from_str::<RpsAction>(r#"{"type":"CONCEDE","x":1}"#).is_err());
/// assert!(serde_json::from_str::<RpsAction>(r#"["RANDOM"]"#).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(
    tag = "type",
    rename_all = "SCREAMING_SNAKE_CASE",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
#[non_exhaustive]
pub enum RpsAction {
    /// Picks a hand for the current round.
    Pick {
        /// The hand picked.
        hand: Hand,
    },
    /// Picks a hand drawn from the game's RNG when applied (also the timeout action).
    Random,
    /// Gives up: the opponent wins the game. Allowed at any time before the end.
    Concede,
}

/// The fields of `PICK` besides its `type`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PickFields {
    #[serde(rename = "type")]
    _type: String,
    hand: Hand,
}

impl<'de> Deserialize<'de> for RpsAction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let value = serde_json::Value::deserialize(d)?;
        let (object, kind) =
            crate::wire::tagged_object(value, &["RANDOM", "CONCEDE"]).map_err(D::Error::custom)?;
        match kind.as_str() {
            "RANDOM" => Ok(RpsAction::Random),
            "CONCEDE" => Ok(RpsAction::Concede),
            "PICK" => PickFields::deserialize(serde_json::Value::Object(object))
                .map(|p| RpsAction::Pick { hand: p.hand })
                .map_err(D::Error::custom),
            _ => Err(D::Error::custom(format!("unknown action type `{kind}`"))),
        }
    }
}

/// A revealed round: both hands and who won it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RevealedRound {
    /// The hands, in seat order.
    pub hands: [Hand; 2],
    /// The seat that won the round, or `None` for a draw.
    pub winner: Option<usize>,
}

/// What happened. Events are broadcast to everyone, so a pick's hand never appears in one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[non_exhaustive]
pub enum RpsEvent {
    /// A seat picked (the hand stays hidden).
    Picked {
        /// The seat that picked.
        player: usize,
    },
    /// Both seats picked: the hands are shown.
    Revealed {
        /// The hands, in seat order.
        hands: [Hand; 2],
        /// The seat that won the round, or `None` for a draw (the round is replayed).
        winner: Option<usize>,
    },
    /// A seat conceded.
    Conceded {
        /// The seat that gave up.
        player: usize,
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

impl From<PresenceChanged> for RpsEvent {
    fn from(p: PresenceChanged) -> Self {
        RpsEvent::PresenceChanged {
            player: p.player,
            connected: p.connected,
            away: p.away,
        }
    }
}

/// The final result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RpsOutcome {
    /// The winner's player id.
    pub winner: PlayerId,
    /// The winner's seat.
    pub winner_seat: usize,
    /// Round wins, in seat order.
    pub scores: [u8; 2],
    /// Whether the game ended by a concession rather than on points.
    pub conceded: bool,
}

/// Everything about a game in progress. Never shown to players (it holds the RNG and the
/// hidden picks); players get an [`RpsView`].
///
/// Not `Deserialize`: a stored state comes back only through [`Game::restore`], checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RpsState {
    /// Seats, RNG, clock and presence.
    pub(crate) table: Table,
    /// The options the game was set up with.
    pub(crate) options: RpsOptions,
    /// The current round's picks, in seat order (`None`: not picked yet).
    pub(crate) picks: [Option<Hand>; 2],
    /// Round wins, in seat order.
    pub(crate) scores: [u8; 2],
    /// The last revealed round (a draw included), if any.
    pub(crate) last_round: Option<RevealedRound>,
    /// The winning seat, once the game is over.
    pub(crate) winner: Option<usize>,
    /// The seat that conceded, if the game ended that way.
    pub(crate) conceded: Option<usize>,
}

crate::game_state!(RpsState, table);

/// Read access to a game in progress: the fields are the game's, changed only by its
/// rules through [`GameExt`](crate::GameExt) (the table through
/// [`GameState::table`](crate::GameState::table)).
impl RpsState {
    /// The options the game was set up with.
    pub fn options(&self) -> &RpsOptions {
        &self.options
    }

    /// The current round's picks, in seat order (`None`: not picked yet). Hidden from
    /// players: views show only whether each seat picked.
    pub fn picks(&self) -> [Option<Hand>; 2] {
        self.picks
    }

    /// Round wins, in seat order.
    pub fn scores(&self) -> [u8; 2] {
        self.scores
    }

    /// The last revealed round (a draw included), if any.
    pub fn last_round(&self) -> Option<&RevealedRound> {
        self.last_round.as_ref()
    }

    /// The winning seat, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// The seat that conceded, if the game ended that way.
    pub fn conceded(&self) -> Option<usize> {
        self.conceded
    }
}

/// How a stored [`RpsState`] is read, field for field (serde's remote derive: the reading
/// exists only here, so that JSON becomes a state only through [`Rps`]'s
/// [`Game::restore`] and its checks). Named like the state, so that parse errors read the
/// same. A field added to the state must be added here; the compiler says so.
#[derive(Deserialize)]
#[serde(
    remote = "RpsState",
    rename = "RpsState",
    rename_all = "camelCase",
    deny_unknown_fields
)]
struct StoredRps {
    table: Table,
    options: RpsOptions,
    picks: [Option<Hand>; 2],
    scores: [u8; 2],
    last_round: Option<RevealedRound>,
    winner: Option<usize>,
    conceded: Option<usize>,
}

/// A whole stored document read as an [`RpsState`] through [`StoredRps`].
#[derive(Deserialize)]
struct Stored(#[serde(with = "StoredRps")] RpsState);

impl RpsState {
    /// The current round number, from 1: a draw replays the same round.
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Rps, RpsOptions}};
    /// let players = vec!["a".to_string(), "b".to_string()];
    /// let state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.round(), 1);
    /// ```
    pub fn round(&self) -> u32 {
        u32::from(self.scores[0]) + u32::from(self.scores[1]) + 1
    }
}

/// One seat as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RpsSeatView {
    /// The player's id.
    pub player: PlayerId,
    /// Whether the player has picked in the current round.
    pub picked: bool,
    /// The picked hand: only in the picker's own view, before the reveal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Hand>,
    /// Whether the player is connected.
    pub connected: bool,
    /// Whether the player is away (timed out several times in a row).
    pub away: bool,
}

/// What one player (or a spectator) may see. It never holds the RNG, the seed, or a hand
/// that has not been revealed to the viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RpsView {
    /// The viewer's seat, or `None` for a spectator.
    pub you: Option<usize>,
    /// The seats, in order.
    pub seats: Vec<RpsSeatView>,
    /// Round wins, in seat order.
    pub scores: [u8; 2],
    /// Round wins needed to win the game.
    pub wins_needed: u8,
    /// The current round number, from 1.
    pub round: u32,
    /// The last revealed round, if any.
    pub last_round: Option<RevealedRound>,
    /// The winning seat, once the game is over.
    pub winner: Option<usize>,
    /// The seat that conceded, if the game ended that way.
    pub conceded: Option<usize>,
    /// The action sequence number to send with the next action.
    pub turn_seq: u64,
    /// When the current round times out, if it has a time limit.
    pub deadline_at: Option<Millis>,
    /// What the viewer can do now (empty for spectators and when waiting).
    pub legal_actions: Vec<RpsAction>,
}

/// Why an action or setting was refused.
///
/// Non-exhaustive, like every error enum here: new refusals must not break a host.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RpsError {
    /// The player already picked in this round.
    #[error("이미 골랐어요. 상대를 기다려 주세요.")]
    AlreadyPicked,
    /// An option is out of its allowed range.
    #[error("{option} 설정은 {min}부터 {max}까지 고를 수 있어요.")]
    InvalidOption {
        /// The option's wire name (`winsNeeded`, `turnSeconds`).
        option: &'static str,
        /// The value given.
        got: u32,
        /// The smallest allowed value.
        min: u32,
        /// The largest allowed value.
        max: u32,
    },
    /// A framework rejection (stale request, spectator, game over, corrupt state, ...).
    #[error(transparent)]
    Core(#[from] Rejection),
}

impl GameError for RpsError {
    fn code(&self) -> &'static str {
        match self {
            Self::AlreadyPicked => "ALREADY_PICKED",
            Self::InvalidOption { .. } => "INVALID_OPTION",
            Self::Core(r) => r.code(),
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        let wire = match self {
            Self::AlreadyPicked => RpsErrorWire::AlreadyPicked {},
            Self::InvalidOption {
                option,
                got,
                min,
                max,
            } => RpsErrorWire::InvalidOption {
                option,
                got: *got,
                min: *min,
                max: *max,
            },
            Self::Core(r) => return r.reason(),
        };
        crate::reason_of(&wire)
    }
}

/// The wire form of rps's own refusals: one definition for the reasons and their schemas.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", content = "reason", rename_all = "SCREAMING_SNAKE_CASE")]
enum RpsErrorWire<'a> {
    /// The player already picked in this round.
    AlreadyPicked {},
    /// An option is out of its allowed range.
    InvalidOption {
        /// The option's wire name.
        option: &'a str,
        /// The value given.
        got: u32,
        /// The smallest allowed value.
        min: u32,
        /// The largest allowed value.
        max: u32,
    },
}

impl crate::ErrorCodes for RpsError {
    fn codes(codes: &mut crate::CodeSchemas) {
        codes.tagged::<RpsErrorWire<'_>>();
        Rejection::codes(codes);
    }
}

fn corrupt(detail: &str) -> RpsError {
    Rejection::CorruptState {
        detail: detail.to_owned(),
    }
    .into()
}

impl Rps {
    /// Records `hand` for `seat`; reveals the round once both seats picked.
    fn pick(
        &self,
        state: &mut RpsState,
        seat: usize,
        hand: Hand,
        now: Millis,
        events: &mut Vec<RpsEvent>,
    ) {
        let Some(slot) = state.picks.get_mut(seat) else {
            return;
        };
        *slot = Some(hand);
        events.push(RpsEvent::Picked { player: seat });
        let [Some(a), Some(b)] = state.picks else {
            return;
        };
        let hands = [a, b];
        let winner = Hand::round_winner(hands);
        state.picks = [None, None];
        state.last_round = Some(RevealedRound { hands, winner });
        events.push(RpsEvent::Revealed { hands, winner });
        if let Some(w) = winner {
            state.scores[w] = state.scores[w].saturating_add(1);
            if state.scores[w] >= state.options.wins_needed {
                state.winner = Some(w);
                state.table.close();
                events.push(RpsEvent::GameOver { winner: w });
                return;
            }
        }
        // A new round (or the same round again after a draw): a fresh clock.
        state.table.ask(now, state.options.turn_seconds);
    }
}

impl Game for Rps {
    type Options = RpsOptions;
    type State = RpsState;
    type Action = RpsAction;
    type View = RpsView;
    type Event = RpsEvent;
    type Outcome = RpsOutcome;
    type Chance = Hand;
    type Error = RpsError;

    fn id(&self) -> &'static str {
        "rps"
    }

    fn setup(
        &self,
        options: &RpsOptions,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<RpsState, RpsError> {
        if players.len() != SEATS {
            return Err(Rejection::BadPlayerCount {
                players: players.len(),
                allowed: vec![SEATS],
            }
            .into());
        }
        options.validate()?;
        let mut table = Table::new(players, seed, now)?;
        table.ask(now, options.turn_seconds);
        Ok(RpsState {
            table,
            options: options.clone(),
            picks: [None, None],
            scores: [0, 0],
            last_round: None,
            winner: None,
            conceded: None,
        })
    }

    fn validate(&self, state: &RpsState, seat: usize, action: &RpsAction) -> Result<(), RpsError> {
        let Some(pick) = state.picks.get(seat) else {
            return Err(Rejection::NotSeated {
                player: format!("seat {seat}"),
            }
            .into());
        };
        if state.winner.is_some() {
            return Err(Rejection::GameOver.into());
        }
        match action {
            RpsAction::Concede => Ok(()),
            RpsAction::Pick { .. } | RpsAction::Random if pick.is_some() => {
                Err(RpsError::AlreadyPicked)
            }
            RpsAction::Pick { .. } | RpsAction::Random => Ok(()),
        }
    }

    fn step_into(
        &self,
        state: &mut RpsState,
        seat: usize,
        action: &RpsAction,
        chance: Option<&Hand>,
        now: Millis,
        events: &mut Vec<RpsEvent>,
    ) {
        match *action {
            RpsAction::Pick { hand } => self.pick(state, seat, hand, now, events),
            RpsAction::Random => {
                let hand = match chance {
                    Some(&hand) => hand,
                    None => Hand::ALL[state.table.rng.below(3) as usize],
                };
                self.pick(state, seat, hand, now, events);
            }
            RpsAction::Concede => {
                if seat >= SEATS {
                    return;
                }
                let winner = 1 - seat;
                state.winner = Some(winner);
                state.conceded = Some(seat);
                // The unrevealed pick of the round cut short is dropped, never shown.
                state.picks = [None, None];
                state.table.close();
                events.push(RpsEvent::Conceded { player: seat });
                events.push(RpsEvent::GameOver { winner });
            }
        }
    }

    fn view(&self, state: &RpsState, viewer: Viewer<'_>) -> RpsView {
        let you = match viewer {
            Viewer::Player(id) => state.table.seat_of(id),
            Viewer::Spectator => None,
        };
        let seats = (0..SEATS)
            .map(|i| {
                let presence = state.table.presence.get(i).cloned().unwrap_or_default();
                RpsSeatView {
                    player: state.table.players.get(i).cloned().unwrap_or_default(),
                    picked: state.picks[i].is_some(),
                    hand: if you == Some(i) { state.picks[i] } else { None },
                    connected: presence.connected(),
                    away: presence.away,
                }
            })
            .collect();
        RpsView {
            you,
            seats,
            scores: state.scores,
            wins_needed: state.options.wins_needed,
            round: state.round(),
            last_round: state.last_round,
            winner: state.winner,
            conceded: state.conceded,
            turn_seq: state.table.turn_seq,
            deadline_at: state.table.deadline(),
            legal_actions: you
                .map(|s| self.legal_actions(state, s))
                .unwrap_or_default(),
        }
    }

    fn timeout_action(&self, state: &RpsState, seat: usize) -> Option<RpsAction> {
        (state.winner.is_none() && state.picks.get(seat).is_some_and(Option::is_none))
            .then_some(RpsAction::Random)
    }

    /// Every seat that has not picked in the current round. A seat that has picked is
    /// waited for by nobody, though it may still concede.
    fn to_act(&self, state: &RpsState) -> Vec<usize> {
        if state.winner.is_some() {
            return Vec::new();
        }
        (0..SEATS).filter(|&s| state.picks[s].is_none()).collect()
    }

    fn legal_actions(&self, state: &RpsState, seat: usize) -> Vec<RpsAction> {
        if state.winner.is_some() {
            return Vec::new();
        }
        match state.picks.get(seat) {
            None => Vec::new(),
            Some(Some(_)) => vec![RpsAction::Concede],
            Some(None) => Hand::ALL
                .iter()
                .map(|&hand| RpsAction::Pick { hand })
                .chain([RpsAction::Random, RpsAction::Concede])
                .collect(),
        }
    }

    fn outcome(&self, state: &RpsState) -> Option<RpsOutcome> {
        let w = state.winner?;
        Some(RpsOutcome {
            winner: state.table.players.get(w)?.clone(),
            winner_seat: w,
            scores: state.scores,
            conceded: state.conceded.is_some(),
        })
    }

    fn restore(&self, json: &str) -> Result<RpsState, RpsError> {
        crate::restored(
            self,
            serde_json::from_str::<Stored>(json).map(|stored| stored.0),
        )
    }

    fn check_state(&self, state: &RpsState) -> Result<(), RpsError> {
        let table = &state.table;
        table.check()?;
        if table.players.len() != SEATS {
            return Err(corrupt("exactly two players must be seated"));
        }
        state
            .options
            .validate()
            .map_err(|e| corrupt(&format!("options: {e}")))?;
        let need = state.options.wins_needed;
        if state.scores.iter().any(|&s| s > need) {
            return Err(corrupt("a score is above winsNeeded"));
        }
        if state.scores.iter().all(|&s| s == need) {
            return Err(corrupt("both seats reached winsNeeded"));
        }
        match (state.last_round, state.scores) {
            (None, [0, 0]) => {}
            (None, _) => return Err(corrupt("scores without any revealed round")),
            (Some(last), scores) => {
                if last.winner != Hand::round_winner(last.hands) {
                    return Err(corrupt("the last round's winner does not match its hands"));
                }
                if last.winner.is_some_and(|w| scores[w] == 0) {
                    return Err(corrupt("the last round's winner has no point"));
                }
            }
        }
        let on_points = state.scores.iter().position(|&s| s == need);
        match (state.winner, state.conceded) {
            (None, None) => {
                if on_points.is_some() {
                    return Err(corrupt("a seat reached winsNeeded but the game goes on"));
                }
                if state.picks.iter().all(Option::is_some) {
                    return Err(corrupt("both seats picked but the round was not revealed"));
                }
                let expected = state
                    .options
                    .turn_seconds
                    .map(|s| table.decision_since.saturating_add(u64::from(s) * 1000));
                if table.deadline_at != expected {
                    return Err(corrupt("the deadline does not match turnSeconds"));
                }
            }
            (None, Some(_)) => return Err(corrupt("a concession without a winner")),
            (Some(w), conceded) => {
                if w >= SEATS {
                    return Err(corrupt("the winner is not a seat"));
                }
                match conceded {
                    None if on_points != Some(w) => {
                        return Err(corrupt("the winner does not have winsNeeded points"));
                    }
                    Some(c) if c != 1 - w => {
                        return Err(corrupt("the conceding seat must be the loser"));
                    }
                    Some(_) if on_points.is_some() => {
                        return Err(corrupt("a concession after the game was won"));
                    }
                    _ => {}
                }
                if state.picks.iter().any(Option::is_some) {
                    return Err(corrupt("picks left over after the end"));
                }
                if table.deadline_at.is_some() {
                    return Err(corrupt("a deadline after the end"));
                }
            }
        }
        Ok(())
    }

    /// The other seat's pick, if it has picked this round, redrawn uniformly: the seat
    /// knows that it picked, not what.
    fn resample_from_infostate(
        &self,
        state: &RpsState,
        seat: usize,
        rng: &mut crate::GameRng,
    ) -> RpsState {
        let mut world = state.clone();
        for (other, pick) in world.picks.iter_mut().enumerate() {
            if other != seat && pick.is_some() {
                *pick = Some(Hand::ALL[rng.below(3) as usize]);
            }
        }
        world
    }

    /// 1 to the winner, 0 to the other.
    fn payoff(&self, state: &RpsState, seat: usize) -> Option<f64> {
        state.winner.map(|w| if w == seat { 1.0 } else { 0.0 })
    }

    fn chances(
        &self,
        _state: &RpsState,
        _seat: usize,
        action: &RpsAction,
    ) -> Option<Vec<(Hand, f64)>> {
        matches!(action, RpsAction::Random)
            .then(|| Hand::ALL.iter().map(|&h| (h, 1.0 / 3.0)).collect())
    }
}
