use game_core::{
    Game, GameError, GameRng, Millis, OptionRange, PlayerId, PresenceChanged, Rejection, Table,
    TableView, Viewer,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The allowed values of [`LiarsDiceOptions::dice`].
pub const DICE: OptionRange = OptionRange::new("dice", 1, 6);
/// The allowed values of [`LiarsDiceOptions::turn_seconds`] when set.
pub const TURN_SECONDS: OptionRange = OptionRange::new("turnSeconds", 5, 600);
/// The players a game seats.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=6;
/// The faces a bid may name: ones are wild, so no bid names them.
pub const BID_FACES: std::ops::RangeInclusive<u8> = 2..=6;

/// The game. It holds nothing: the rules are code, the game is in [`LiarsDiceState`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiarsDice;

/// Settings chosen before the game: `{"dice":5,"turnSeconds":30}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct LiarsDiceOptions {
    /// The dice each player starts with (1 to 6, default 5).
    #[schemars(range(min = DICE.min, max = DICE.max))]
    pub dice: u32,
    /// Seconds each decision may take (5 to 600, default 30), or `None` for no limit.
    #[schemars(range(min = TURN_SECONDS.min, max = TURN_SECONDS.max))]
    pub turn_seconds: Option<u32>,
}

impl Default for LiarsDiceOptions {
    fn default() -> Self {
        Self { dice: 5, turn_seconds: Some(30) }
    }
}

/// What a player can do: `{"type":"BID","quantity":3,"face":4}` ("at least three 4s under
/// all the cups, ones counting as 4s") or `{"type":"CHALLENGE"}` (the last bid is a lie).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LiarsDiceAction {
    /// Raises the bid.
    Bid {
        /// How many dice at least.
        quantity: u32,
        /// Showing which face, 2 to 6.
        face: u8,
    },
    /// Calls the last bid a lie: every cup is lifted.
    Challenge,
}

/// A bid placed in the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Bid {
    /// Who bid.
    pub seat: usize,
    /// How many dice at least.
    pub quantity: u32,
    /// Showing which face, 2 to 6.
    pub face: u8,
}

impl Bid {
    /// Whether this bid raises `other`: more dice of any face, or as many of a higher face.
    pub fn raises(&self, other: &Bid) -> bool {
        (self.quantity, self.face) > (other.quantity, other.face)
    }

    /// The bid's place among all bids, from 0 for one 2 upwards (five faces a quantity):
    /// the legal bids are a run of ranks, counted and indexed without listing them.
    fn rank(&self) -> u32 {
        // Saturating: a bid's quantity and face are checked, but the arithmetic of a
        // tampered one must not panic either.
        let face = u32::from(self.face.saturating_sub(2));
        self.quantity.saturating_sub(1).saturating_mul(5).saturating_add(face)
    }

    /// The bid of `rank` by `seat`.
    fn of_rank(seat: usize, rank: u32) -> Bid {
        // `rank % 5` is under 5: the cast cannot truncate.
        Bid { seat, quantity: rank / 5 + 1, face: (rank % 5) as u8 + 2 }
    }

    /// Whether `die` counts for the bid: it shows the bid's face, or a wild one.
    pub fn counts(&self, die: u8) -> bool {
        die == self.face || die == 1
    }

    /// How many dice of `cups` count for the bid.
    pub fn count_in(&self, cups: &[Vec<u8>]) -> u32 {
        let hits = cups.iter().flatten().filter(|&&d| self.counts(d)).count();
        u32::try_from(hits).unwrap_or(u32::MAX)
    }
}

/// Every cup lifted after a challenge: what everyone sees, in the event and in the view
/// until the next challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Reveal {
    /// The bid challenged.
    pub bid: Bid,
    /// Who challenged it.
    pub challenger: usize,
    /// Every seat's dice as they lay, in seat order (empty for a seat that is out).
    pub cups: Vec<Vec<u8>>,
    /// How many dice counted for the bid.
    pub count: u32,
    /// Who lost a die: the challenger if the bid held (`count >= quantity`), else the bidder.
    pub loser: usize,
}

/// One seat's cup after a reroll, in a [`LiarsDiceEvent::Rolled`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RolledCup {
    /// Whose cup.
    pub player: PlayerId,
    /// How many dice are under it.
    pub count: usize,
    /// The faces: in the event as stepped, and in its owner's projection
    /// ([`Game::event_for`]); everyone else's projection leaves them out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<Vec<u8>>,
}

/// What happened. Every event is shown to everyone as it is, but for the dice of a
/// [`LiarsDiceEvent::Rolled`], which each player sees of their own cup only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum LiarsDiceEvent {
    /// A seat raised the bid.
    Bid(Bid),
    /// A seat challenged: the cups lifted, and who lost a die.
    Revealed(Reveal),
    /// A seat lost its last die and is out.
    Out {
        /// Who is out.
        seat: usize,
    },
    /// Every remaining die was rolled for a new round.
    Rolled {
        /// Every seat's cup, in seat order (a seat that is out has none).
        cups: Vec<RolledCup>,
        /// Who opens the round.
        starts: usize,
    },
    /// The last seat with dice won.
    Won {
        /// The winner.
        seat: usize,
    },
    /// A player's presence changed.
    PresenceChanged(PresenceChanged),
}

impl From<PresenceChanged> for LiarsDiceEvent {
    fn from(p: PresenceChanged) -> Self {
        Self::PresenceChanged(p)
    }
}

/// The game's own part of a [`LiarsDiceState`]. The cups are hidden: a player sees the
/// board through a [`LiarsDiceView`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LiarsDiceBoard {
    /// The options the game was set up with.
    pub options: LiarsDiceOptions,
    /// Every seat's dice, in seat order, each cup sorted (empty once the seat is out).
    pub cups: Vec<Vec<u8>>,
    /// The seat to act.
    pub turn: usize,
    /// The round's bids, in order.
    pub bids: Vec<Bid>,
    /// The last challenge's cups, until the next challenge.
    pub last_reveal: Option<Reveal>,
    /// The seats out, in the order they went out.
    pub out: Vec<usize>,
    /// The winning seat, once the game is over.
    pub winner: Option<usize>,
}

impl LiarsDiceBoard {
    /// The dice under all the cups.
    pub fn dice_in_play(&self) -> u32 {
        u32::try_from(self.cups.iter().map(Vec::len).sum::<usize>()).unwrap_or(u32::MAX)
    }

    /// The first seat after `seat`, going round, that still has dice (`seat` itself if no
    /// other has).
    pub fn next_with_dice(&self, seat: usize) -> usize {
        let n = self.cups.len();
        (1..=n)
            .map(|k| seat.wrapping_add(k) % n)
            .find(|&s| !self.cups[s].is_empty())
            .unwrap_or(seat)
    }

    /// Lifts the cups on the last bid, challenged by `seat`, and takes a die from whoever
    /// was wrong: the loser, or `None` when that ended the game.
    fn challenge(&mut self, seat: usize, events: &mut Vec<LiarsDiceEvent>) -> Option<usize> {
        let bid = self.bids.last().copied()?;
        let count = bid.count_in(&self.cups);
        let loser = if count >= bid.quantity { seat } else { bid.seat };
        let reveal = Reveal { bid, challenger: seat, cups: self.cups.clone(), count, loser };
        self.last_reveal = Some(reveal.clone());
        events.push(LiarsDiceEvent::Revealed(reveal));
        self.bids.clear();
        let cup = self.cups.get_mut(loser)?;
        cup.pop();
        if cup.is_empty() {
            self.out.push(loser);
            events.push(LiarsDiceEvent::Out { seat: loser });
        }
        let mut left = (0..self.cups.len()).filter(|&s| !self.cups[s].is_empty());
        if let (Some(last), None) = (left.next(), left.next()) {
            (self.winner, self.turn) = (Some(last), last);
            events.push(LiarsDiceEvent::Won { seat: last });
            return None;
        }
        Some(loser)
    }

    /// Who opens a round that `loser` lost: the loser, or if that die was its last, the
    /// next seat with dice.
    fn opener(&self, loser: usize) -> usize {
        match self.cups.get(loser).is_some_and(|cup| !cup.is_empty()) {
            true => loser,
            false => self.next_with_dice(loser),
        }
    }
}

/// A game in progress: the board and the [`Table`], which holds the RNG. Every cup is in
/// it, so players get a [`LiarsDiceView`] instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LiarsDiceState {
    table: Table,
    /// The board.
    pub board: LiarsDiceBoard,
}

game_core::game_state!(LiarsDiceState, table);

/// What a player (or a spectator) sees: its own cup, how many dice every seat holds, the
/// round's bids and the last reveal; never another seat's dice under its cup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LiarsDiceView {
    /// The options the game was set up with.
    pub options: LiarsDiceOptions,
    /// The viewer's own dice (`None` for a spectator).
    pub your_dice: Option<Vec<u8>>,
    /// How many dice each seat holds, in seat order.
    pub dice_counts: Vec<usize>,
    /// The seat to act.
    pub turn: usize,
    /// The round's bids, in order.
    pub bids: Vec<Bid>,
    /// The last challenge's cups, until the next challenge.
    pub last_reveal: Option<Reveal>,
    /// The seats out, in the order they went out.
    pub out: Vec<usize>,
    /// The winning seat, once the game is over.
    pub winner: Option<usize>,
    /// Seats, presence, `turnSeq`, deadline.
    #[serde(flatten)]
    pub table: TableView,
    /// What the viewer may do now.
    pub legal_actions: Vec<LiarsDiceAction>,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LiarsDiceOutcome {
    /// The last seat with dice.
    pub winner: usize,
    /// The other seats in the order they went out: the first is last.
    pub out: Vec<usize>,
}

/// Why an action or setting was refused: the framework's refusals, and three of the
/// game's own that say more than `ILLEGAL_ACTION`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LiarsDiceError {
    /// A bid that does not raise the last one.
    #[error("앞의 호가({over_quantity}개의 {over_face})보다 높게 불러 주세요.")]
    BidTooLow {
        /// The last bid's quantity.
        over_quantity: u32,
        /// The last bid's face.
        over_face: u8,
    },
    /// A bid no one may make: a face outside 2 to 6, or a quantity outside 1 to the dice in
    /// play.
    #[error("그런 호가는 없어요. 눈은 2에서 6, 개수는 1에서 {dice_in_play}까지예요.")]
    NoSuchBid {
        /// The dice in play, the largest quantity.
        dice_in_play: u32,
    },
    /// A challenge before anyone bid this round.
    #[error("아직 도전할 호가가 없어요.")]
    NothingToChallenge,
    /// A framework refusal (not your turn, game over, a bad option, a corrupt state, ...).
    #[error(transparent)]
    Core(#[from] Rejection),
}

/// The wire form of the game's own refusals: the code, and the reason's fields. One
/// definition writes the reason and lists the codes with their reasons' schemas.
#[derive(Serialize, JsonSchema)]
#[serde(
    tag = "code",
    content = "reason",
    rename_all = "SCREAMING_SNAKE_CASE",
    rename_all_fields = "camelCase"
)]
enum LiarsDiceErrorWire {
    /// The bid does not raise the last one.
    BidTooLow {
        /// The last bid's quantity.
        over_quantity: u32,
        /// The last bid's face.
        over_face: u8,
    },
    /// No such bid: a face outside 2 to 6, or a quantity outside 1 to the dice in play.
    NoSuchBid {
        /// The dice in play, the largest quantity.
        dice_in_play: u32,
    },
    /// No bid to challenge yet this round.
    NothingToChallenge {},
}

impl GameError for LiarsDiceError {
    fn code(&self) -> &'static str {
        match self {
            Self::BidTooLow { .. } => "BID_TOO_LOW",
            Self::NoSuchBid { .. } => "NO_SUCH_BID",
            Self::NothingToChallenge => "NOTHING_TO_CHALLENGE",
            Self::Core(r) => r.code(),
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        use LiarsDiceErrorWire as W;
        let wire = match *self {
            Self::BidTooLow { over_quantity, over_face } => {
                W::BidTooLow { over_quantity, over_face }
            }
            Self::NoSuchBid { dice_in_play } => W::NoSuchBid { dice_in_play },
            Self::NothingToChallenge => W::NothingToChallenge {},
            Self::Core(ref r) => return r.reason(),
        };
        game_core::reason_of(&wire)
    }
}

impl game_core::ErrorCodes for LiarsDiceError {
    fn codes(codes: &mut game_core::CodeSchemas) {
        codes.tagged::<LiarsDiceErrorWire>();
        Rejection::codes(codes);
    }
}

/// A cup's dice in order: the order they fell in tells nothing, so one order is kept (and
/// a stored state has one form).
fn sorted(mut dice: Vec<u8>) -> Vec<u8> {
    dice.sort_unstable();
    dice
}

/// A cup of `n` dice rolled from `rng`.
fn roll_cup(rng: &mut GameRng, n: usize) -> Vec<u8> {
    // `below(6)` is under 6: the cast cannot truncate.
    sorted((0..n).map(|_| rng.below(6) as u8 + 1).collect())
}

/// Cups of `counts` dice rolled from `rng`, in seat order.
fn roll(rng: &mut GameRng, counts: impl IntoIterator<Item = usize>) -> Vec<Vec<u8>> {
    counts.into_iter().map(|n| roll_cup(rng, n)).collect()
}

/// The chance that `bid` holds for a seat holding `own` among `dice_in_play` dice: the
/// dice it holds that count, and of the others, unseen, each counts with chance 1/3 (its
/// face or a one). What [`LiarsDice::timeout_action`] and the bots judge a bid by.
///
/// ```
/// use liars_dice::{Bid, bid_odds};
/// let bid = |quantity, face| Bid { seat: 0, quantity, face };
/// assert_eq!(bid_odds(&[1, 4], 2, &bid(2, 4)), 1.0); // both dice in play count
/// assert_eq!(bid_odds(&[3], 2, &bid(2, 4)), 0.0); // the 3 does not
/// assert!((bid_odds(&[4], 2, &bid(2, 4)) - 1.0 / 3.0).abs() < 1e-12);
/// ```
pub fn bid_odds(own: &[u8], dice_in_play: u32, bid: &Bid) -> f64 {
    let held = u32::try_from(own.len()).unwrap_or(u32::MAX);
    let unseen = dice_in_play.saturating_sub(held);
    let have = u32::try_from(own.iter().filter(|&&d| bid.counts(d)).count()).unwrap_or(u32::MAX);
    let need = bid.quantity.saturating_sub(have);
    // P(at least `need` of `unseen` dice count), term by term of the binomial.
    let mut term = (2.0f64 / 3.0).powi(unseen.try_into().unwrap_or(i32::MAX));
    let mut tail = 0.0;
    for k in 0..=unseen {
        if k >= need {
            tail += term;
        }
        term *= f64::from(unseen - k) / (2.0 * f64::from(k + 1));
    }
    tail.min(1.0)
}

impl LiarsDice {
    /// The bids `seat` may make and whether it may challenge, in the state: the ranks of
    /// the bids from one above the last up to every die showing a 6, and a challenge once
    /// someone bid. Nothing for a seat not to act.
    fn choices(&self, state: &LiarsDiceState, seat: usize) -> (std::ops::Range<u32>, bool) {
        let b = &state.board;
        if b.winner.is_some() || seat != b.turn {
            return (0..0, false);
        }
        let lowest = b.bids.last().map_or(0, |last| last.rank() + 1);
        let top = b.dice_in_play().saturating_mul(5);
        (lowest..top.max(lowest), !b.bids.is_empty())
    }

    /// The cups' sizes after `action` lost someone a die, if it is a challenge that leaves
    /// the game going: the shape of the reroll that follows it.
    fn reroll_counts(
        &self,
        state: &LiarsDiceState,
        action: &LiarsDiceAction,
    ) -> Option<Vec<usize>> {
        let b = &state.board;
        let bid = b.bids.last().filter(|_| *action == LiarsDiceAction::Challenge)?;
        let loser = if bid.count_in(&b.cups) >= bid.quantity { b.turn } else { bid.seat };
        let mut counts: Vec<usize> = b.cups.iter().map(Vec::len).collect();
        let lost = counts.get_mut(loser)?;
        *lost = lost.saturating_sub(1);
        (counts.iter().filter(|&&c| c > 0).count() > 1).then_some(counts)
    }
}

impl Game for LiarsDice {
    type Options = LiarsDiceOptions;
    type State = LiarsDiceState;
    type Action = LiarsDiceAction;
    type View = LiarsDiceView;
    type Event = LiarsDiceEvent;
    type Outcome = LiarsDiceOutcome;
    /// A reroll: every seat's new dice, in seat order (none for a seat that is out).
    type Chance = Vec<Vec<u8>>;
    type Error = LiarsDiceError;

    fn id(&self) -> &'static str {
        "liars-dice"
    }

    fn setup(
        &self,
        options: &LiarsDiceOptions,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<LiarsDiceState, LiarsDiceError> {
        DICE.check(options.dice)?;
        TURN_SECONDS.check_set(options.turn_seconds)?;
        let mut table = Table::for_counts(players, PLAYERS, seed, now)?;
        let cups = roll(table.rng_mut(), players.iter().map(|_| options.dice as usize));
        table.ask(now, options.turn_seconds);
        let options = options.clone();
        let (bids, out) = (Vec::new(), Vec::new());
        let board =
            LiarsDiceBoard { options, cups, turn: 0, bids, last_reveal: None, out, winner: None };
        Ok(LiarsDiceState { table, board })
    }

    fn step_into(
        &self,
        state: &mut LiarsDiceState,
        seat: usize,
        action: &LiarsDiceAction,
        chance: Option<&Vec<Vec<u8>>>,
        now: Millis,
        events: &mut Vec<LiarsDiceEvent>,
    ) {
        let (table, board) = (&mut state.table, &mut state.board);
        match *action {
            LiarsDiceAction::Bid { quantity, face } => {
                let bid = Bid { seat, quantity, face };
                board.bids.push(bid);
                events.push(LiarsDiceEvent::Bid(bid));
                board.turn = board.next_with_dice(seat);
            }
            LiarsDiceAction::Challenge => {
                let Some(loser) = board.challenge(seat, events) else { return table.close() };
                // A new round: every die left is rolled, or takes the rigged faces.
                board.cups = match chance {
                    Some(faces) => faces.iter().map(|cup| sorted(cup.clone())).collect(),
                    None => {
                        roll(table.rng_mut(), board.cups.iter().map(Vec::len).collect::<Vec<_>>())
                    }
                };
                board.turn = board.opener(loser);
                let cups = (table.players().iter().zip(&board.cups))
                    .map(|(player, dice)| {
                        let (player, count) = (player.clone(), dice.len());
                        RolledCup { player, count, dice: Some(dice.clone()) }
                    })
                    .collect();
                events.push(LiarsDiceEvent::Rolled { cups, starts: board.turn });
            }
        }
        table.ask(now, board.options.turn_seconds);
    }

    /// The board without the cups: the viewer's own dice, and how many every seat holds.
    fn view(&self, state: &LiarsDiceState, viewer: Viewer<'_>) -> LiarsDiceView {
        let (b, table) = (&state.board, state.table.view(viewer));
        let legal_actions = table.you.map_or_else(Vec::new, |s| self.legal_actions(state, s));
        LiarsDiceView {
            options: b.options.clone(),
            your_dice: table.you.and_then(|s| b.cups.get(s).cloned()),
            dice_counts: b.cups.iter().map(Vec::len).collect(),
            turn: b.turn,
            bids: b.bids.clone(),
            last_reveal: b.last_reveal.clone(),
            out: b.out.clone(),
            winner: b.winner,
            table,
            legal_actions,
        }
    }

    /// A roll shows each player its own cup and how many dice the others hold; a reveal,
    /// like every other event, is everyone's.
    fn event_for(&self, event: &LiarsDiceEvent, viewer: Viewer<'_>) -> LiarsDiceEvent {
        let LiarsDiceEvent::Rolled { cups, starts } = event else { return event.clone() };
        let seen = |cup: &RolledCup| RolledCup {
            player: cup.player.clone(),
            count: cup.count,
            dice: cup.dice.clone().filter(|_| viewer == Viewer::Player(&cup.player)),
        };
        LiarsDiceEvent::Rolled { cups: cups.iter().map(seen).collect(), starts: *starts }
    }

    fn to_act(&self, state: &LiarsDiceState) -> Vec<usize> {
        self.first_to_act(state).into_iter().collect()
    }

    fn first_to_act(&self, state: &LiarsDiceState) -> Option<usize> {
        state.board.winner.is_none().then_some(state.board.turn)
    }

    /// The bids that raise the last one, lowest first, then the challenge.
    fn legal_actions(&self, state: &LiarsDiceState, seat: usize) -> Vec<LiarsDiceAction> {
        let count = self.legal_action_count(state, seat);
        (0..count).filter_map(|i| self.legal_action(state, seat, i)).collect()
    }

    /// Counted, not listed: up to 180 bids in a game of 36 dice, and search asks often.
    fn legal_action_count(&self, state: &LiarsDiceState, seat: usize) -> usize {
        let (bids, challenge) = self.choices(state, seat);
        bids.len() + usize::from(challenge)
    }

    fn legal_action(
        &self,
        state: &LiarsDiceState,
        seat: usize,
        index: usize,
    ) -> Option<LiarsDiceAction> {
        let (bids, challenge) = self.choices(state, seat);
        match u32::try_from(index).ok().and_then(|i| bids.start.checked_add(i)) {
            Some(rank) if rank < bids.end => {
                let Bid { quantity, face, .. } = Bid::of_rank(seat, rank);
                Some(LiarsDiceAction::Bid { quantity, face })
            }
            _ if challenge && index == bids.len() => Some(LiarsDiceAction::Challenge),
            _ => None,
        }
    }

    /// The framework's refusals, then the game's own: `NO_SUCH_BID`, `BID_TOO_LOW`,
    /// `NOTHING_TO_CHALLENGE`.
    fn validate(
        &self,
        state: &LiarsDiceState,
        seat: usize,
        action: &LiarsDiceAction,
    ) -> Result<(), LiarsDiceError> {
        let b = &state.board;
        if seat >= b.cups.len() {
            return Err(Rejection::NotSeated { player: format!("seat {seat}") }.into());
        }
        if b.winner.is_some() {
            return Err(Rejection::GameOver.into());
        }
        if seat != b.turn {
            return Err(Rejection::NotYourTurn.into());
        }
        let last = b.bids.last();
        match *action {
            LiarsDiceAction::Challenge if last.is_none() => Err(LiarsDiceError::NothingToChallenge),
            LiarsDiceAction::Challenge => Ok(()),
            LiarsDiceAction::Bid { quantity, face } => {
                let dice_in_play = b.dice_in_play();
                if !BID_FACES.contains(&face) || !(1..=dice_in_play).contains(&quantity) {
                    return Err(LiarsDiceError::NoSuchBid { dice_in_play });
                }
                match last {
                    Some(l) if !(Bid { seat, quantity, face }).raises(l) => {
                        Err(LiarsDiceError::BidTooLow {
                            over_quantity: l.quantity,
                            over_face: l.face,
                        })
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    fn outcome(&self, state: &LiarsDiceState) -> Option<LiarsDiceOutcome> {
        let b = &state.board;
        b.winner.map(|winner| LiarsDiceOutcome { winner, out: b.out.clone() })
    }

    /// By place: the winner 1, the first out 0, the places between evenly spaced.
    fn payoff(&self, state: &LiarsDiceState, seat: usize) -> Option<f64> {
        let b = &state.board;
        let winner = b.winner?;
        let last = b.cups.len().saturating_sub(1).max(1) as f64;
        match b.out.iter().position(|&s| s == seat) {
            _ if seat == winner => Some(1.0),
            Some(place) => Some(place as f64 / last),
            None => None,
        }
    }

    fn restore(&self, json: &str) -> Result<LiarsDiceState, LiarsDiceError> {
        game_core::restored(self, serde_json::from_str(json))
    }

    /// A careful absent player: it challenges a bid that its own dice make less likely
    /// than not ([`bid_odds`]), else makes the lowest raise (a challenge when none is left).
    fn timeout_action(&self, state: &LiarsDiceState, seat: usize) -> Option<LiarsDiceAction> {
        if self.first_to_act(state) != Some(seat) {
            return None;
        }
        let b = &state.board;
        let own = b.cups.get(seat)?;
        let doubtful = b.bids.last().is_some_and(|bid| bid_odds(own, b.dice_in_play(), bid) < 0.5);
        let first = self.legal_action(state, seat, 0);
        match doubtful || first.is_some_and(|a| a == LiarsDiceAction::Challenge) {
            true => Some(LiarsDiceAction::Challenge),
            false => first,
        }
    }

    fn check_state(&self, state: &LiarsDiceState) -> Result<(), LiarsDiceError> {
        let corrupt =
            |detail: &str| LiarsDiceError::from(Rejection::CorruptState { detail: detail.into() });
        let (b, n) = (&state.board, state.table.players().len());
        let dice = usize::try_from(b.options.dice).unwrap_or(usize::MAX);
        if !PLAYERS.contains(&n) || b.cups.len() != n || b.turn >= n {
            return Err(corrupt("the seats and the cups disagree"));
        }
        if !DICE.contains(b.options.dice)
            || b.options.turn_seconds.is_some_and(|t| !TURN_SECONDS.contains(t))
        {
            return Err(corrupt("options out of range"));
        }
        let cup_ok = |cup: &Vec<u8>| {
            cup.len() <= dice && cup.is_sorted() && cup.iter().all(|d| (1..=6).contains(d))
        };
        if !b.cups.iter().all(cup_ok) {
            return Err(corrupt("a cup no roll gives"));
        }
        // The seats out are exactly the empty cups, each once.
        let mut out = b.out.clone();
        out.sort_unstable();
        out.dedup();
        let empty: Vec<usize> = (0..n).filter(|&s| b.cups[s].is_empty()).collect();
        if out.len() != b.out.len() || out != empty {
            return Err(corrupt("the seats out are not the empty cups"));
        }
        match b.winner {
            Some(w)
                if b.out.len() + 1 != n
                    || b.cups.get(w).is_none_or(Vec::is_empty)
                    || b.turn != w
                    || !b.bids.is_empty() =>
            {
                return Err(corrupt("a winner with others still in"));
            }
            Some(_) if state.table.deadline_at().is_some() => {
                return Err(corrupt("a deadline after the end"));
            }
            None if b.out.len() + 1 >= n || b.cups[b.turn].is_empty() => {
                return Err(corrupt("no winner, yet one seat left or a seat out to act"));
            }
            _ => {}
        }
        // The round: opened by the last loser (seat 0 in the first), each bid raising the
        // last, by the next seat with dice, and the seat after the last bidder to act.
        let opener = match &b.last_reveal {
            None if b.cups.iter().any(|c| c.len() != dice) => {
                return Err(corrupt("a die lost unseen"));
            }
            None => 0,
            Some(r) if [r.loser, r.challenger, r.bid.seat].iter().any(|&s| s >= n) => {
                return Err(corrupt("a reveal names no seat"));
            }
            Some(r) => {
                let lost = |s: usize| usize::from(s == r.loser);
                let shapes = r.cups.len() == n
                    && (0..n).all(|s| r.cups[s].len() == b.cups[s].len() + lost(s));
                let before = LiarsDiceBoard { cups: r.cups.clone(), ..b.clone() };
                let counted = r.count == r.bid.count_in(&r.cups);
                let judged = r.loser
                    == if counted && r.count >= r.bid.quantity { r.challenger } else { r.bid.seat };
                let known = BID_FACES.contains(&r.bid.face) && r.bid.quantity >= 1;
                let fair = known && r.challenger == before.next_with_dice(r.bid.seat);
                let gone = !b.cups[r.loser].is_empty() || b.out.last() == Some(&r.loser);
                if !(shapes
                    && r.cups.iter().all(cup_ok)
                    && counted
                    && judged
                    && fair
                    && gone
                    && r.bid.seat != r.challenger)
                {
                    return Err(corrupt("a reveal no challenge gives"));
                }
                b.opener(r.loser)
            }
        };
        let mut bidder = opener;
        for (i, bid) in b.bids.iter().enumerate() {
            let raises = i == 0 || bid.raises(&b.bids[i - 1]);
            let known =
                BID_FACES.contains(&bid.face) && (1..=b.dice_in_play()).contains(&bid.quantity);
            if bid.seat != bidder || !raises || !known {
                return Err(corrupt("a bid out of turn or out of order"));
            }
            bidder = b.next_with_dice(bid.seat);
        }
        if b.winner.is_none() && b.turn != bidder {
            return Err(corrupt("the wrong seat to act"));
        }
        Ok(())
    }

    /// A reroll has too many outcomes to list (6^30 for thirty dice): [`Game::chance_possible`]
    /// and [`Game::sample_chance`] answer instead.
    fn chances(
        &self,
        _: &LiarsDiceState,
        _: usize,
        _: &LiarsDiceAction,
    ) -> Option<Vec<(Vec<Vec<u8>>, f64)>> {
        None
    }

    /// Any faces of the reroll's shape: a cup per seat, as many dice as it keeps, each 1 to 6.
    fn chance_possible(
        &self,
        state: &LiarsDiceState,
        _: usize,
        action: &LiarsDiceAction,
        chance: &Vec<Vec<u8>>,
    ) -> bool {
        self.reroll_counts(state, action).is_some_and(|counts| {
            counts.len() == chance.len()
                && counts
                    .iter()
                    .zip(chance)
                    .all(|(&n, cup)| cup.len() == n && cup.iter().all(|d| (1..=6).contains(d)))
        })
    }

    /// The reroll drawn as the table would draw it; `None` for a bid, or a challenge that
    /// ends the game.
    fn sample_chance(
        &self,
        state: &LiarsDiceState,
        _: usize,
        action: &LiarsDiceAction,
        rng: &mut GameRng,
    ) -> Option<Vec<Vec<u8>>> {
        self.reroll_counts(state, action).map(|counts| roll(rng, counts))
    }

    /// Every other seat's dice redrawn, as many as it holds: all a seat knows of them is
    /// their number (the last reveal showed dice since rerolled). Its own cup, the bids and
    /// the reveal stay. Drawn in seat order from the counts alone, so states the seat
    /// cannot tell apart give the same world.
    fn resample_from_infostate(
        &self,
        state: &LiarsDiceState,
        seat: usize,
        rng: &mut GameRng,
    ) -> LiarsDiceState {
        let mut world = state.clone();
        for (s, cup) in world.board.cups.iter_mut().enumerate() {
            if s != seat {
                *cup = roll_cup(rng, cup.len());
            }
        }
        world
    }
}
