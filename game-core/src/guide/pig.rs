use game_core::{
    Game, Millis, OptionRange, PlayerId, PresenceChanged, Rejection, Table, TableView, Viewer,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The allowed values of [`PigOptions::target`].
pub const TARGET: OptionRange = OptionRange::new("target", 10, 500);
/// The allowed values of [`PigOptions::turn_seconds`] when set.
pub const TURN_SECONDS: OptionRange = OptionRange::new("turnSeconds", 5, 600);

/// The game. It holds nothing: the rules are code, the game is in [`PigState`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pig;

/// Settings chosen before the game: `{"target":50,"turnSeconds":null}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct PigOptions {
    /// The score that wins (10 to 500, default 100).
    #[schemars(range(min = TARGET.min, max = TARGET.max))]
    pub target: u32,
    /// Seconds each decision may take (5 to 600, default 30), or `None` for no limit.
    #[schemars(range(min = TURN_SECONDS.min, max = TURN_SECONDS.max))]
    pub turn_seconds: Option<u32>,
}

impl Default for PigOptions {
    fn default() -> Self {
        Self { target: 100, turn_seconds: Some(30) }
    }
}

/// What a player can do: `{"type":"ROLL"}` or `{"type":"HOLD"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PigAction {
    /// Rolls the die.
    Roll,
    /// Banks the turn's total and ends the turn.
    Hold,
}

/// What happened, shown to everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum PigEvent {
    /// A seat rolled. On a 1 the turn's total is lost and the turn passes.
    Rolled {
        /// Who rolled.
        seat: usize,
        /// The die, 1 to 6.
        die: u8,
        /// The turn's total after the roll (0 after a 1).
        total: u32,
    },
    /// A seat banked its turn's total.
    Held {
        /// Who held.
        seat: usize,
        /// The seat's score now.
        score: u32,
    },
    /// A player's presence changed.
    PresenceChanged(PresenceChanged),
}

impl From<PresenceChanged> for PigEvent {
    fn from(p: PresenceChanged) -> Self {
        Self::PresenceChanged(p)
    }
}

/// The game's own part of a [`PigState`], which every player sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PigBoard {
    /// The options the game was set up with.
    pub options: PigOptions,
    /// The banked scores, in seat order.
    pub scores: Vec<u32>,
    /// The seat whose turn it is.
    pub turn: usize,
    /// The points rolled this turn, not yet banked.
    pub turn_total: u32,
    /// The winning seat, once the game is over.
    pub winner: Option<usize>,
}

/// A game in progress: the board and the [`Table`], which holds the RNG (so players get a
/// [`PigView`] instead).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PigState {
    table: Table,
    /// The board.
    pub board: PigBoard,
}

game_core::game_state!(PigState, table);

/// What a player (or a spectator) sees: the board, the table's public part and what the
/// viewer may do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PigView {
    /// The board.
    #[serde(flatten)]
    pub board: PigBoard,
    /// Seats, presence, `turnSeq`, deadline.
    #[serde(flatten)]
    pub table: TableView,
    /// What the viewer may do now.
    pub legal_actions: Vec<PigAction>,
}

impl Game for Pig {
    type Options = PigOptions;
    type State = PigState;
    type Action = PigAction;
    type View = PigView;
    type Event = PigEvent;
    /// The winning seat.
    type Outcome = usize;
    /// A roll's die, 1 to 6.
    type Chance = u8;
    type Error = Rejection;

    fn id(&self) -> &'static str {
        "pig"
    }

    fn setup(
        &self,
        options: &PigOptions,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<PigState, Rejection> {
        TARGET.check(options.target)?;
        TURN_SECONDS.check_set(options.turn_seconds)?;
        let mut table = Table::for_counts(players, 2..=4, seed, now)?;
        table.ask(now, options.turn_seconds);
        let (scores, options) = (vec![0; players.len()], options.clone());
        let board = PigBoard { options, scores, turn: 0, turn_total: 0, winner: None };
        Ok(PigState { table, board })
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
        let roll = match action {
            // `below(6)` is under 6: the cast cannot truncate.
            PigAction::Roll => {
                Some(chance.copied().unwrap_or_else(|| state.table.rng_mut().below(6) as u8 + 1))
            }
            PigAction::Hold => None,
        };
        let (table, board) = (&mut state.table, &mut state.board);
        let total = match roll {
            Some(1) | None => 0,
            Some(die) => board.turn_total + u32::from(die),
        };
        if let Some(die) = roll {
            events.push(PigEvent::Rolled { seat, die, total });
        } else if let Some(score) = board.scores.get_mut(seat) {
            *score = score.saturating_add(board.turn_total);
            let score = *score;
            events.push(PigEvent::Held { seat, score });
            if score >= board.options.target {
                (board.winner, board.turn_total) = (Some(seat), 0);
                return table.close();
            }
        }
        if total == 0 {
            board.turn = (board.turn + 1) % board.scores.len();
        }
        board.turn_total = total;
        table.ask(now, board.options.turn_seconds);
    }

    fn view(&self, state: &PigState, viewer: Viewer<'_>) -> PigView {
        let table = state.table.view(viewer);
        let legal_actions = table.you.map_or_else(Vec::new, |s| self.legal_actions(state, s));
        PigView { board: state.board.clone(), table, legal_actions }
    }

    fn to_act(&self, state: &PigState) -> Vec<usize> {
        match state.board.winner {
            None => vec![state.board.turn],
            Some(_) => Vec::new(),
        }
    }

    fn legal_actions(&self, state: &PigState, seat: usize) -> Vec<PigAction> {
        match self.to_act(state).contains(&seat) {
            true if state.board.turn_total > 0 => vec![PigAction::Roll, PigAction::Hold],
            true => vec![PigAction::Roll],
            false => Vec::new(),
        }
    }

    fn outcome(&self, state: &PigState) -> Option<usize> {
        state.board.winner
    }

    /// A win is worth 1, any other place 0: what search bots play for.
    fn payoff(&self, state: &PigState, seat: usize) -> Option<f64> {
        state.board.winner.map(|w| if w == seat { 1.0 } else { 0.0 })
    }

    fn restore(&self, json: &str) -> Result<PigState, Rejection> {
        game_core::restored(self, serde_json::from_str(json))
    }

    /// Hold what the turn has gathered; with nothing gathered yet, roll.
    fn timeout_action(&self, state: &PigState, seat: usize) -> Option<PigAction> {
        self.legal_actions(state, seat).pop()
    }

    fn check_state(&self, state: &PigState) -> Result<(), Rejection> {
        let (b, n) = (&state.board, state.table.players().len());
        let reached = || (0..n).filter(|&s| b.scores[s] >= b.options.target);
        let ok = (2..=4).contains(&n)
            && b.scores.len() == n
            && b.turn < n
            && TARGET.contains(b.options.target)
            && b.turn_total != 1
            && match b.winner {
                None => reached().next().is_none(),
                Some(w) => reached().eq([w]) && b.turn_total == 0,
            };
        let detail = "a board no game of Pig reaches".into();
        ok.then_some(()).ok_or(Rejection::CorruptState { detail })
    }

    /// A roll's six faces, 1/6 each.
    fn chances(&self, _: &PigState, _: usize, action: &PigAction) -> Option<Vec<(u8, f64)>> {
        (*action == PigAction::Roll).then(|| (1..=6).map(|die| (die, 1.0 / 6.0)).collect())
    }
}
