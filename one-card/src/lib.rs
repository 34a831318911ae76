//! One Card (원카드): the Korean shedding game for 2 to 5 players, on game-core's public
//! API. Every rule and every decision is in the crate's `RULES.md`.
//!
//! Hands are hidden: a player's [`OneCardView`] holds their own hand and only the number
//! of cards everyone else holds; a drawn card reaches the other players only as a count,
//! through [`Game::event_for`].
//!
//! ```
//! use game_core::{Game, GameExt, Viewer};
//! use one_card::{OneCard, OneCardAction, OneCardOptions};
//! let players = vec!["ann".to_string(), "bo".to_string()];
//! let mut state = OneCard.setup(&OneCardOptions::default(), &players, 7, 0).unwrap();
//! let view = OneCard.view(&state, Viewer::Player("ann"));
//! assert_eq!(view.hand.as_ref().unwrap().len(), 7);
//! assert_eq!(view.hand_counts, [7, 7]);
//! OneCard.apply(&mut state, 0, &OneCardAction::Draw, 10).unwrap();
//! assert_eq!(OneCard.view(&state, Viewer::Spectator).hand_counts, [8, 7]);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bots;
mod card;
mod check;

use std::ops::ControlFlow;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use game_core::{
    Game, GameError, GameRng, Millis, PlayerId, PresenceChanged, Rejection, Table, Viewer,
};

pub use card::{Card, DECK_SIZE, NotACard, Suit};

/// The allowed numbers of players.
pub const PLAYER_COUNTS: std::ops::RangeInclusive<usize> = 2..=5;

/// The allowed range of [`OneCardOptions::hand_size`].
pub const HAND_SIZES: std::ops::RangeInclusive<u8> = 5..=8;

/// The allowed range of [`OneCardOptions::bankrupt_at`] when set.
pub const BANKRUPT_AT: std::ops::RangeInclusive<u8> = 15..=30;

/// The allowed values of [`OneCardOptions::turn_seconds`] (`None`: no time limit), as in
/// Yut Nori.
pub const TURN_SECONDS: [Option<u32>; 4] = [Some(15), Some(30), Some(60), None];

/// The largest pending attack there can be: every attack card played in a row.
pub const MAX_ATTACK: u32 = 4 * 2 + 3 * 3 + 5 + 5 + 7;

/// The game: One Card.
///
/// ```
/// use game_core::{Game, GameExt};
/// assert_eq!(one_card::OneCard.id(), "one-card");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OneCard;

/// How the game ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Ranking {
    /// The first player to empty their hand wins; the game ends there.
    #[default]
    First,
    /// Play goes on until one player is left, for every rank.
    All,
}

/// Settings chosen before the game.
///
/// ```
/// use one_card::{OneCardOptions, Ranking};
/// let o: OneCardOptions = serde_json::from_str(r#"{"bankruptAt":null,"ranking":"all"}"#).unwrap();
/// assert_eq!((o.hand_size, o.bankrupt_at, o.ranking), (7, None, Ranking::All));
/// assert!(serde_json::from_str::<OneCardOptions>(r#"{"hands":7}"#).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct OneCardOptions {
    /// Cards dealt to each player: 5 to 8 (default 7).
    #[schemars(extend("enum" = HAND_SIZES.collect::<Vec<u8>>()))]
    pub hand_size: u8,
    /// A player holding this many cards or more is out: 15 to 30 (default 20), or `null`
    /// for no bankruptcy.
    #[schemars(range(min = *BANKRUPT_AT.start(), max = *BANKRUPT_AT.end()))]
    pub bankrupt_at: Option<u8>,
    /// Whether a player left with one card calls "one card" and may be caught (default true).
    pub one_card_call: bool,
    /// Whether the game ends at the first player out of cards or plays on for every rank.
    pub ranking: Ranking,
    /// Seconds per move: 15, 30, 60, or `null` for no limit (default 30). A player whose
    /// time runs out draws.
    #[schemars(extend("enum" = TURN_SECONDS))]
    pub turn_seconds: Option<u32>,
}

impl Default for OneCardOptions {
    fn default() -> Self {
        Self {
            hand_size: 7,
            bankrupt_at: Some(20),
            one_card_call: true,
            ranking: Ranking::First,
            turn_seconds: Some(30),
        }
    }
}

impl OneCardOptions {
    /// Checks every option against its allowed values.
    ///
    /// ```
    /// use game_core::GameError;
    /// use one_card::OneCardOptions;
    /// assert!(OneCardOptions::default().validate().is_ok());
    /// let bad = OneCardOptions { hand_size: 9, ..OneCardOptions::default() };
    /// assert_eq!(bad.validate().unwrap_err().code(), "INVALID_OPTION");
    /// ```
    pub fn validate(&self) -> Result<(), OneCardError> {
        if !HAND_SIZES.contains(&self.hand_size) {
            return Err(OneCardError::InvalidOption {
                option: "handSize",
                detail: format!(
                    "손패는 5장부터 8장까지예요 ({}장은 안 돼요).",
                    self.hand_size
                ),
            });
        }
        if let Some(n) = self.bankrupt_at
            && !BANKRUPT_AT.contains(&n)
        {
            return Err(OneCardError::InvalidOption {
                option: "bankruptAt",
                detail: format!(
                    "파산 기준은 15장부터 30장까지, 또는 없음이에요 ({n}장은 안 돼요)."
                ),
            });
        }
        if let Some(s) = self.turn_seconds
            && !TURN_SECONDS.contains(&self.turn_seconds)
        {
            return Err(OneCardError::InvalidOption {
                option: "turnSeconds",
                detail: format!("제한 시간은 15·30·60초 또는 무제한이에요 ({s}초는 안 돼요)."),
            });
        }
        Ok(())
    }
}

/// What a player can do.
///
/// ```
/// use one_card::{Card, OneCardAction, Suit};
/// let a: OneCardAction = serde_json::from_str(r#"{"type":"PLAY","card":"7H","suit":"S"}"#).unwrap();
/// assert_eq!(a, OneCardAction::Play { card: "7H".parse().unwrap(), suit: Some(Suit::Spades) });
/// let d: OneCardAction = serde_json::from_str(r#"{"type":"DRAW"}"#).unwrap();
/// assert_eq!(d, OneCardAction::Draw);
/// assert!(serde_json::from_str::<OneCardAction>(r#"{"type":"DRAW","n":2}"#).is_err());
/// assert!(serde_json::from_str::<OneCardAction>(r#"{"type":"PLAY","card":"1H"}"#).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(
    tag = "type",
    rename_all = "SCREAMING_SNAKE_CASE",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
#[non_exhaustive]
pub enum OneCardAction {
    /// Plays a card from the hand onto the discard pile.
    Play {
        /// The card played.
        card: Card,
        /// The suit to follow: with a 7, and only with a 7.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Suit>,
    },
    /// Draws one card (or the whole pending attack) and ends the turn.
    Draw,
    /// "One card!": the caller is left with one card and says so before being caught.
    OneCard,
    /// Catches `player`, left with one card without calling it: they draw one.
    Catch {
        /// The player id caught.
        player: PlayerId,
    },
    /// Gives up: the player leaves the game, ranked with the bankrupt. Allowed at any time
    /// to a player still in the game; not listed among the legal actions.
    Concede,
}

/// The fields of `PLAY` besides its `type`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayFields {
    #[serde(rename = "type")]
    _type: String,
    card: Card,
    #[serde(default)]
    suit: Option<Suit>,
}

/// The fields of `CATCH` besides its `type`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatchFields {
    #[serde(rename = "type")]
    _type: String,
    player: PlayerId,
}

impl<'de> Deserialize<'de> for OneCardAction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let value = serde_json::Value::deserialize(d)?;
        let (object, kind) =
            game_core::wire::tagged_object(value, &["DRAW", "ONE_CARD", "CONCEDE"])
                .map_err(D::Error::custom)?;
        let object = serde_json::Value::Object(object);
        match kind.as_str() {
            "DRAW" => Ok(OneCardAction::Draw),
            "ONE_CARD" => Ok(OneCardAction::OneCard),
            "CONCEDE" => Ok(OneCardAction::Concede),
            "PLAY" => PlayFields::deserialize(object)
                .map(|p| OneCardAction::Play {
                    card: p.card,
                    suit: p.suit,
                })
                .map_err(D::Error::custom),
            "CATCH" => CatchFields::deserialize(object)
                .map(|c| OneCardAction::Catch { player: c.player })
                .map_err(D::Error::custom),
            _ => Err(D::Error::custom(format!("unknown action type `{kind}`"))),
        }
    }
}

/// The way play goes round the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Up the seat numbers (seat 0, 1, 2, ...), as at the start.
    Forward,
    /// Down the seat numbers, after an odd number of Qs.
    Backward,
}

/// Where a seat stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeatStatus {
    /// Still in the game.
    Playing,
    /// Emptied their hand.
    Finished,
    /// Held `bankruptAt` cards or more, or had to draw and found no card at all.
    Bankrupt,
    /// Gave up.
    Conceded,
}

/// What happened. [`OneCardEvent::Drew`] names the cards drawn: give other players
/// [`Game::event_for`]'s projection, never the event itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[non_exhaustive]
pub enum OneCardEvent {
    /// A card was played (with the suit a 7 declared).
    Played {
        /// Who played.
        player: PlayerId,
        /// The card.
        card: Card,
        /// The suit declared with a 7.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Suit>,
        /// The pending attack after this card (0: none).
        attack: u32,
    },
    /// A player drew: `cards` in the full event, `count` in the projection for everyone
    /// but the drawer.
    Drew {
        /// Who drew.
        player: PlayerId,
        /// The cards drawn (the full event only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<Card>>,
        /// How many cards were drawn (the projection only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        count: Option<usize>,
    },
    /// The discard pile but its top card was shuffled into a new draw pile.
    Reshuffled {
        /// The cards in the new draw pile.
        count: usize,
    },
    /// A J skipped a player.
    Skipped {
        /// The player skipped.
        player: PlayerId,
    },
    /// A Q reversed the direction.
    Reversed {
        /// The direction now.
        direction: Direction,
    },
    /// A player called "one card".
    OneCardCalled {
        /// Who called.
        player: PlayerId,
    },
    /// A player left with one card was caught before calling it (they draw one).
    Caught {
        /// The player caught.
        player: PlayerId,
        /// Who caught them.
        by: PlayerId,
    },
    /// A player emptied their hand.
    Finished {
        /// Who.
        player: PlayerId,
        /// Their rank (1 is first).
        rank: u8,
    },
    /// A player went bankrupt (`bankruptAt` cards, or a `DRAW` that found no card at
    /// all): their cards were shuffled into the draw pile.
    Bankrupt {
        /// Who.
        player: PlayerId,
        /// How many cards they held.
        count: usize,
    },
    /// A player gave up: their cards were shuffled into the draw pile.
    Conceded {
        /// Who.
        player: PlayerId,
    },
    /// The game is over.
    GameOver {
        /// The player ids, best first.
        ranking: Vec<PlayerId>,
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

impl From<PresenceChanged> for OneCardEvent {
    fn from(p: PresenceChanged) -> Self {
        OneCardEvent::PresenceChanged {
            player: p.player,
            connected: p.connected,
            away: p.away,
        }
    }
}

/// The final result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OneCardOutcome {
    /// The winner's player id.
    pub winner: PlayerId,
    /// The winner's seat.
    pub winner_seat: usize,
    /// Each seat's rank, 1 the best, in seat order. With `ranking: "first"` everyone but
    /// the winner shares rank 2.
    pub ranks: Vec<u8>,
}

/// Everything about a game in progress: every hand and the draw pile's order. Never shown
/// to players; they get a [`OneCardView`].
///
/// Not `Deserialize`: a stored state comes back only through [`Game::restore`], checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OneCardState {
    /// Seats, RNG, clock and presence.
    pub(crate) table: Table,
    /// The options the game was set up with.
    pub(crate) options: OneCardOptions,
    /// Each seat's hand, in the order the cards came.
    pub(crate) hands: Vec<Vec<Card>>,
    /// The draw pile; its last card is the next drawn.
    pub(crate) draw_pile: Vec<Card>,
    /// The discard pile; its last card is the top.
    pub(crate) discard: Vec<Card>,
    /// The seat to move (once the game is over, the last one that moved).
    pub(crate) turn: usize,
    /// The way play goes round.
    pub(crate) direction: Direction,
    /// The pending attack: cards the player to move draws unless they answer (0: none).
    pub(crate) attack: u32,
    /// The suit a 7 on top declared.
    pub(crate) suit: Option<Suit>,
    /// The seat whose one-card window is open, if any.
    pub(crate) call: Option<usize>,
    /// Each seat's standing.
    pub(crate) status: Vec<SeatStatus>,
    /// The seats that emptied their hands, in order.
    pub(crate) finished: Vec<usize>,
    /// The seats that went bankrupt or conceded, in order.
    pub(crate) out: Vec<usize>,
    /// Whether the game is over.
    pub(crate) over: bool,
}

game_core::game_state!(OneCardState, table);

/// How a stored [`OneCardState`] is read, field for field (serde's remote derive: JSON
/// becomes a state only through [`OneCard`]'s [`Game::restore`] and its checks).
#[derive(Deserialize)]
#[serde(
    remote = "OneCardState",
    rename = "OneCardState",
    rename_all = "camelCase",
    deny_unknown_fields
)]
struct StoredOneCard {
    table: Table,
    options: OneCardOptions,
    hands: Vec<Vec<Card>>,
    draw_pile: Vec<Card>,
    discard: Vec<Card>,
    turn: usize,
    direction: Direction,
    attack: u32,
    suit: Option<Suit>,
    call: Option<usize>,
    status: Vec<SeatStatus>,
    finished: Vec<usize>,
    out: Vec<usize>,
    over: bool,
}

/// A whole stored document read as a [`OneCardState`] through [`StoredOneCard`].
#[derive(Deserialize)]
struct Stored(#[serde(with = "StoredOneCard")] OneCardState);

impl OneCardState {
    /// The options the game was set up with.
    pub fn options(&self) -> &OneCardOptions {
        &self.options
    }

    /// Each seat's hand, by seat, in the order the cards came.
    ///
    /// ```
    /// use game_core::Game;
    /// use one_card::{OneCard, OneCardOptions};
    /// let players = ["a".to_string(), "b".to_string()];
    /// let state = OneCard.setup(&OneCardOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.hands().len(), 2);
    /// assert_eq!(state.hands()[0].len(), OneCardOptions::default().hand_size as usize);
    /// ```
    pub fn hands(&self) -> &[Vec<Card>] {
        &self.hands
    }

    /// The draw pile; its last card is the next drawn.
    pub fn draw_pile(&self) -> &[Card] {
        &self.draw_pile
    }

    /// The discard pile; its last card is the top ([`OneCardState::top`]).
    pub fn discard(&self) -> &[Card] {
        &self.discard
    }

    /// The seat to move (once the game is over, the last one that moved).
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The way play goes round.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The pending attack: cards the player to move draws unless they answer (0: none).
    pub fn attack(&self) -> u32 {
        self.attack
    }

    /// The suit a 7 on top declared.
    pub fn suit(&self) -> Option<Suit> {
        self.suit
    }

    /// The seat whose one-card window is open, if any.
    pub fn call(&self) -> Option<usize> {
        self.call
    }

    /// Each seat's standing, by seat.
    pub fn status(&self) -> &[SeatStatus] {
        &self.status
    }

    /// The seats that emptied their hands, in order.
    pub fn finished(&self) -> &[usize] {
        &self.finished
    }

    /// The seats that went bankrupt or conceded, in order.
    pub fn out(&self) -> &[usize] {
        &self.out
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.over
    }

    /// The top card of the discard pile.
    pub fn top(&self) -> Option<Card> {
        self.discard.last().copied()
    }

    fn playing(&self, seat: usize) -> bool {
        self.status.get(seat) == Some(&SeatStatus::Playing)
    }

    fn active(&self) -> usize {
        self.status
            .iter()
            .filter(|&&s| s == SeatStatus::Playing)
            .count()
    }

    /// The next seat still playing after `from` in the current direction (`from` itself
    /// when no one else is).
    fn next_playing(&self, from: usize) -> usize {
        let n = self.status.len();
        let mut s = from;
        for _ in 0..n {
            s = match self.direction {
                Direction::Forward => (s + 1) % n,
                Direction::Backward => (s + n - 1) % n,
            };
            if self.playing(s) {
                return s;
            }
        }
        from
    }

    /// Calls `visit` with each of `seat`'s legal actions as a [`LegalEntry`], in the order
    /// of [`Game::legal_actions`], until it breaks: for the player to move each card that
    /// fits (under an attack, each answer; a 7 once for each suit it may declare), then
    /// `DRAW`; then, while a one-card window is open, the call. The one walk behind the
    /// list, its count and its index.
    fn each_legal<B>(
        &self,
        seat: usize,
        mut visit: impl FnMut(LegalEntry) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.over || !self.playing(seat) {
            return ControlFlow::Continue(());
        }
        if seat == self.turn
            && let Some(top) = self.top()
            && let Some(hand) = self.hands.get(seat)
        {
            for &card in hand {
                let fits = if self.attack > 0 {
                    card.answers(top)
                } else {
                    card.follows(top, self.suit)
                };
                if !fits {
                    continue;
                }
                if card.rank() == Some(7) {
                    for suit in Suit::ALL {
                        visit(LegalEntry::Play(card, Some(suit)))?;
                    }
                } else {
                    visit(LegalEntry::Play(card, None))?;
                }
            }
            visit(LegalEntry::Draw)?;
        }
        match self.call {
            Some(holder) => visit(LegalEntry::Call(holder)),
            None => ControlFlow::Continue(()),
        }
    }

    /// Whether the game has reached its end: one player or none left, or with
    /// `ranking: "first"` someone out of cards.
    fn end_reached(&self) -> bool {
        self.active() <= 1 || (self.options.ranking == Ranking::First && !self.finished.is_empty())
    }

    /// The seats best first: those who finished, in order; then those still playing (with
    /// `ranking: "all"` the last one left); then those out, the last out first.
    fn order(&self) -> Vec<usize> {
        let mut order = self.finished.clone();
        order.extend((0..self.status.len()).filter(|&s| self.playing(s)));
        order.extend(self.out.iter().rev());
        order
    }
}

/// One of a seat's legal actions before it is built ([`OneCardState::each_legal`]): a
/// catch's player id is cloned only for the action chosen.
#[derive(Clone, Copy, Debug)]
enum LegalEntry {
    /// `PLAY` of the card (with the suit a 7 declares).
    Play(Card, Option<Suit>),
    /// `DRAW`.
    Draw,
    /// `ONE_CARD` for the holder of the open window, `CATCH` of them for anyone else.
    Call(usize),
}

/// One card-free look at the table, as any viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OneCardView {
    /// The viewer's seat, or `None` for a spectator.
    pub you: Option<usize>,
    /// The player ids, in seat order.
    pub players: Vec<PlayerId>,
    /// The viewer's own hand (absent for a spectator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    /// How many cards each seat holds.
    pub hand_counts: Vec<usize>,
    /// Each seat's standing.
    pub status: Vec<SeatStatus>,
    /// The top card of the discard pile.
    pub discard_top: Option<Card>,
    /// How many cards are left to draw.
    pub draw_pile_count: usize,
    /// The pending attack (0: none).
    pub attack: u32,
    /// The suit a 7 on top declared.
    pub suit: Option<Suit>,
    /// The way play goes round.
    pub direction: Direction,
    /// The seat to move (`None` once the game is over).
    pub turn: Option<usize>,
    /// The seat whose one-card window is open: it may call `ONE_CARD`, anyone else still
    /// playing may `CATCH` it.
    pub call: Option<usize>,
    /// Each seat's rank once the game is over.
    pub ranks: Option<Vec<u8>>,
    /// Whether each seat is connected.
    pub connected: Vec<bool>,
    /// Whether each seat is away (timed out several times in a row).
    pub away: Vec<bool>,
    /// The action sequence number to send with the next action.
    pub turn_seq: u64,
    /// When the current move times out, if it has a time limit.
    pub deadline_at: Option<Millis>,
    /// What the viewer can do now (empty for spectators); `CONCEDE` is always open to a
    /// player still in the game and not listed.
    pub legal_actions: Vec<OneCardAction>,
}

/// Why an action or setting was refused. Never names a card the actor does not claim.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OneCardError {
    /// Someone else is to move.
    #[error("지금은 차례가 아니에요.")]
    NotYourTurn,
    /// The player is out of the game (finished, bankrupt or conceded).
    #[error("이미 게임에서 빠졌어요.")]
    OutOfGame,
    /// The actor does not hold the card they tried to play.
    #[error("{card} 카드를 가지고 있지 않아요.")]
    CardNotHeld {
        /// The card named.
        card: Card,
    },
    /// The card matches neither the top card's suit (or the declared suit) nor its rank.
    #[error("{card} 카드는 지금 낼 수 없어요. 같은 무늬나 같은 숫자를 내 주세요.")]
    DoesNotMatch {
        /// The card named.
        card: Card,
    },
    /// An attack is pending and the card cannot answer it.
    #[error("공격을 받았어요. 막을 수 있는 카드를 내거나 {total}장을 먹어야 해요.")]
    MustAnswerAttack {
        /// The pending attack.
        total: u32,
    },
    /// A 7 was played without declaring a suit.
    #[error("7을 낼 때는 다음 무늬를 정해 주세요.")]
    SuitRequired,
    /// A suit was declared with a card that is no 7.
    #[error("무늬는 7을 낼 때만 정할 수 있어요.")]
    SuitOnlyWithSeven,
    /// No one-card window is open for that call.
    #[error("지금은 원카드를 외치거나 잡을 수 없어요.")]
    NoCallWindow,
    /// A player tried to catch themselves.
    #[error("자기 자신은 잡을 수 없어요.")]
    CannotCatchSelf,
    /// An option is out of its allowed values.
    #[error("{detail}")]
    InvalidOption {
        /// The option's wire name.
        option: &'static str,
        /// What is allowed, in Korean.
        detail: String,
    },
    /// A framework rejection (stale request, spectator, game over, corrupt state, ...).
    #[error(transparent)]
    Core(#[from] Rejection),
}

impl GameError for OneCardError {
    fn code(&self) -> &'static str {
        match self {
            Self::NotYourTurn => "NOT_YOUR_TURN",
            Self::OutOfGame => "OUT_OF_GAME",
            Self::CardNotHeld { .. } => "CARD_NOT_HELD",
            Self::DoesNotMatch { .. } => "CARD_DOES_NOT_MATCH",
            Self::MustAnswerAttack { .. } => "MUST_ANSWER_ATTACK",
            Self::SuitRequired => "SUIT_REQUIRED",
            Self::SuitOnlyWithSeven => "SUIT_ONLY_WITH_SEVEN",
            Self::NoCallWindow => "NO_CALL_WINDOW",
            Self::CannotCatchSelf => "CANNOT_CATCH_SELF",
            Self::InvalidOption { .. } => "INVALID_OPTION",
            Self::Core(r) => r.code(),
        }
    }

    fn reason(&self) -> Option<serde_json::Value> {
        use OneCardErrorWire as W;
        let wire = match self {
            Self::NotYourTurn => W::NotYourTurn {},
            Self::OutOfGame => W::OutOfGame {},
            Self::CardNotHeld { card } => W::CardNotHeld { card: *card },
            Self::DoesNotMatch { card } => W::CardDoesNotMatch { card: *card },
            Self::MustAnswerAttack { total } => W::MustAnswerAttack { attack: *total },
            Self::SuitRequired => W::SuitRequired {},
            Self::SuitOnlyWithSeven => W::SuitOnlyWithSeven {},
            Self::NoCallWindow => W::NoCallWindow {},
            Self::CannotCatchSelf => W::CannotCatchSelf {},
            Self::InvalidOption { option, .. } => W::InvalidOption { option },
            Self::Core(r) => return r.reason(),
        };
        game_core::reason_of(&wire)
    }
}

/// The wire form of One Card's own refusals: the code, and the reason's fields. One
/// definition writes the reason and lists the codes with their reasons' schemas.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", content = "reason", rename_all = "SCREAMING_SNAKE_CASE")]
enum OneCardErrorWire<'a> {
    /// Someone else is to move.
    NotYourTurn {},
    /// The player is out of the game.
    OutOfGame {},
    /// The actor does not hold the card they tried to play.
    CardNotHeld {
        /// The card named.
        card: Card,
    },
    /// The card matches neither the suit nor the rank to follow.
    CardDoesNotMatch {
        /// The card named.
        card: Card,
    },
    /// An attack is pending and the card cannot answer it.
    MustAnswerAttack {
        /// The cards the pending attack would make the player draw.
        attack: u32,
    },
    /// A 7 was played without declaring a suit.
    SuitRequired {},
    /// A suit was declared with a card that is no 7.
    SuitOnlyWithSeven {},
    /// No one-card window is open for that call.
    NoCallWindow {},
    /// A player tried to catch themselves.
    CannotCatchSelf {},
    /// An option is out of its allowed values.
    InvalidOption {
        /// The option's wire name.
        option: &'a str,
    },
}

impl game_core::ErrorCodes for OneCardError {
    fn codes(codes: &mut game_core::CodeSchemas) {
        codes.tagged::<OneCardErrorWire<'_>>();
        Rejection::codes(codes);
    }
}

/// Where a step writes what happened: the caller's events, or nowhere in a quiet step
/// ([`Game::step_quiet`]), which then builds none of them.
struct Out<'a> {
    events: &'a mut Vec<OneCardEvent>,
    quiet: bool,
}

impl Out<'_> {
    #[inline]
    fn push(&mut self, event: impl FnOnce() -> OneCardEvent) {
        if !self.quiet {
            self.events.push(event());
        }
    }
}

impl OneCard {
    /// The step, writing its events to `out`.
    fn step_to(
        &self,
        state: &mut OneCardState,
        seat: usize,
        action: &OneCardAction,
        now: Millis,
        out: &mut Out<'_>,
    ) {
        if seat >= state.status.len() || seat >= state.hands.len() {
            return;
        }
        match action {
            OneCardAction::Play { card, suit } => self.play(state, seat, *card, *suit, now, out),
            OneCardAction::Draw => self.take(state, seat, now, out),
            OneCardAction::OneCard => {
                state.call = None;
                out.push(|| OneCardEvent::OneCardCalled {
                    player: Self::id_of(state, seat),
                });
            }
            OneCardAction::Catch { player } => {
                let Some(holder) = state.call.take() else {
                    return;
                };
                out.push(|| OneCardEvent::Caught {
                    player: player.clone(),
                    by: Self::id_of(state, seat),
                });
                self.draw(state, holder, 1, out);
                // Two cards never reach `bankruptAt` (15 at least); checked all the same.
                if self.bankrupt_if_due(state, holder, out)
                    && !self.settle_end(state, out)
                    && holder == state.turn
                {
                    let next = state.next_playing(holder);
                    Self::give_turn(state, next, now);
                }
            }
            OneCardAction::Concede => {
                let mover = seat == state.turn;
                Self::put_out(state, seat, SeatStatus::Conceded);
                out.push(|| OneCardEvent::Conceded {
                    player: Self::id_of(state, seat),
                });
                if self.settle_end(state, out) {
                    return;
                }
                if mover {
                    // The attack was aimed at the one who left: it leaves with them.
                    state.attack = 0;
                    let next = state.next_playing(seat);
                    Self::give_turn(state, next, now);
                }
            }
        }
    }

    fn id_of(state: &OneCardState, seat: usize) -> PlayerId {
        state.table.players().get(seat).cloned().unwrap_or_default()
    }

    /// The action of a legal entry of `seat` (a catch names the holder's id).
    fn legal_entry_action(state: &OneCardState, seat: usize, entry: LegalEntry) -> OneCardAction {
        match entry {
            LegalEntry::Play(card, suit) => OneCardAction::Play { card, suit },
            LegalEntry::Draw => OneCardAction::Draw,
            LegalEntry::Call(holder) if holder == seat => OneCardAction::OneCard,
            LegalEntry::Call(holder) => OneCardAction::Catch {
                player: Self::id_of(state, holder),
            },
        }
    }

    /// Draws up to `n` cards for `seat`, refilling the draw pile from the discard pile
    /// when it runs out; with both exhausted, the draw takes what there is. Returns how
    /// many cards were drawn.
    fn draw(&self, state: &mut OneCardState, seat: usize, n: u32, out: &mut Out<'_>) -> usize {
        let before = state.hands.get(seat).map_or(0, Vec::len);
        let mut count = 0;
        for _ in 0..n {
            if state.draw_pile.is_empty() {
                refill(state, out);
            }
            let Some(card) = state.draw_pile.pop() else {
                break;
            };
            if let Some(hand) = state.hands.get_mut(seat) {
                hand.push(card);
            }
            count += 1;
        }
        out.push(|| OneCardEvent::Drew {
            player: Self::id_of(state, seat),
            cards: Some(
                state
                    .hands
                    .get(seat)
                    .and_then(|hand| hand.get(before..))
                    .unwrap_or_default()
                    .to_vec(),
            ),
            count: None,
        });
        count
    }

    /// Puts `seat` out (bankrupt or conceded): their cards are shuffled into the draw
    /// pile (the whole pile, with the table's seeded RNG). Put under it as they were
    /// held, they would tell the leaver, and anyone the leaver tells, the order of the
    /// pile's bottom (RULES.md, "Bankruptcy").
    fn put_out(state: &mut OneCardState, seat: usize, status: SeatStatus) {
        let (Some(hand), Some(standing)) = (state.hands.get_mut(seat), state.status.get_mut(seat))
        else {
            return;
        };
        *standing = status;
        let hand = std::mem::take(hand);
        state.draw_pile.splice(0..0, hand);
        shuffle(&mut state.draw_pile, state.table.rng_mut());
        state.out.push(seat);
        if state.call == Some(seat) {
            state.call = None;
        }
    }

    /// Ends the game if it has reached its end; returns whether it is over.
    fn settle_end(&self, state: &mut OneCardState, out: &mut Out<'_>) -> bool {
        if !state.end_reached() {
            return false;
        }
        state.over = true;
        state.call = None;
        state.attack = 0;
        state.table.close();
        let ranking = state
            .order()
            .into_iter()
            .map(|s| Self::id_of(state, s))
            .collect();
        out.push(|| OneCardEvent::GameOver { ranking });
        true
    }

    /// Hands the move to `seat` at `now`: a new decision, with a fresh clock.
    fn give_turn(state: &mut OneCardState, seat: usize, now: Millis) {
        state.turn = seat;
        state.table.ask(now, state.options.turn_seconds);
    }

    fn play(
        &self,
        state: &mut OneCardState,
        seat: usize,
        card: Card,
        suit: Option<Suit>,
        now: Millis,
        out: &mut Out<'_>,
    ) {
        let Some(hand) = state.hands.get_mut(seat) else {
            return;
        };
        let Some(at) = hand.iter().position(|&c| c == card) else {
            return;
        };
        hand.remove(at);
        let left = hand.len();
        state.discard.push(card);
        state.suit = suit;
        state.attack += card.attack();
        state.call = None;
        out.push(|| OneCardEvent::Played {
            player: Self::id_of(state, seat),
            card,
            suit,
            attack: state.attack,
        });
        if left == 0 {
            if let Some(standing) = state.status.get_mut(seat) {
                *standing = SeatStatus::Finished;
            }
            state.finished.push(seat);
            let rank = u8::try_from(state.finished.len()).unwrap_or(u8::MAX);
            out.push(|| OneCardEvent::Finished {
                player: Self::id_of(state, seat),
                rank,
            });
            if self.settle_end(state, out) {
                return;
            }
        } else if left == 1 && state.options.one_card_call {
            state.call = Some(seat);
        }
        let still = left > 0;
        let next = match card.rank() {
            // K: the same player again (if they still have cards).
            Some(13) if still => seat,
            Some(11) => {
                let skipped = state.next_playing(seat);
                out.push(|| OneCardEvent::Skipped {
                    player: Self::id_of(state, skipped),
                });
                state.next_playing(skipped)
            }
            Some(12) => {
                state.direction = match state.direction {
                    Direction::Forward => Direction::Backward,
                    Direction::Backward => Direction::Forward,
                };
                out.push(|| OneCardEvent::Reversed {
                    direction: state.direction,
                });
                // Two players: reversing hands the move back to the one who played it.
                if still && state.active() == 2 {
                    seat
                } else {
                    state.next_playing(seat)
                }
            }
            _ => state.next_playing(seat),
        };
        Self::give_turn(state, next, now);
    }

    fn take(&self, state: &mut OneCardState, seat: usize, now: Millis, out: &mut Out<'_>) {
        state.call = None;
        let n = state.attack.max(1);
        state.attack = 0;
        let drawn = self.draw(state, seat, n, out);
        let next = state.next_playing(seat);
        // A draw that finds no card at all: every card but the top is in the hands, and
        // the drawer goes bankrupt (RULES.md, "Drawing, refilling, running out").
        let broke = drawn == 0 && Self::go_bankrupt(state, seat, out);
        if (broke || self.bankrupt_if_due(state, seat, out)) && self.settle_end(state, out) {
            return;
        }
        Self::give_turn(state, next, now);
    }

    /// Puts `seat` out if they hold `bankruptAt` cards or more; returns whether they went.
    fn bankrupt_if_due(&self, state: &mut OneCardState, seat: usize, out: &mut Out<'_>) -> bool {
        let count = state.hands.get(seat).map_or(0, Vec::len);
        let due = state
            .options
            .bankrupt_at
            .is_some_and(|at| count >= usize::from(at));
        due && Self::go_bankrupt(state, seat, out)
    }

    /// Puts `seat`, still playing, out as bankrupt; returns whether they went.
    fn go_bankrupt(state: &mut OneCardState, seat: usize, out: &mut Out<'_>) -> bool {
        let count = state.hands.get(seat).map_or(0, Vec::len);
        let due = state.playing(seat);
        if due {
            Self::put_out(state, seat, SeatStatus::Bankrupt);
            out.push(|| OneCardEvent::Bankrupt {
                player: Self::id_of(state, seat),
                count,
            });
        }
        due
    }
}

/// Shuffles the discard pile but its top card into the (empty) draw pile.
fn refill(state: &mut OneCardState, out: &mut Out<'_>) {
    let Some(top) = state.discard.pop() else {
        return;
    };
    let rest = std::mem::replace(&mut state.discard, vec![top]);
    if rest.is_empty() {
        return;
    }
    state.draw_pile.extend(rest);
    shuffle(&mut state.draw_pile, state.table.rng_mut());
    out.push(|| OneCardEvent::Reshuffled {
        count: state.draw_pile.len(),
    });
}

/// Fisher–Yates from `rng`: the table's seeded RNG, or a resample's.
fn shuffle(cards: &mut [Card], rng: &mut GameRng) {
    for i in (1..cards.len()).rev() {
        let j = rng.below(u32::try_from(i + 1).unwrap_or(u32::MAX)) as usize;
        cards.swap(i, j);
    }
}

fn corrupt(detail: impl Into<String>) -> OneCardError {
    Rejection::CorruptState {
        detail: detail.into(),
    }
    .into()
}

impl Game for OneCard {
    type Options = OneCardOptions;
    type State = OneCardState;
    type Action = OneCardAction;
    type View = OneCardView;
    type Event = OneCardEvent;
    type Outcome = OneCardOutcome;
    // The only chance is a shuffle, whose outcomes are too many to list: none are offered.
    type Chance = ();
    type Error = OneCardError;

    fn id(&self) -> &'static str {
        "one-card"
    }

    fn setup(
        &self,
        options: &OneCardOptions,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<OneCardState, OneCardError> {
        if !PLAYER_COUNTS.contains(&players.len()) {
            return Err(Rejection::BadPlayerCount {
                players: players.len(),
                allowed: PLAYER_COUNTS.collect(),
            }
            .into());
        }
        options.validate()?;
        let mut table = Table::new(players, seed, now)?;
        let mut deck: Vec<Card> = Card::all().collect();
        shuffle(&mut deck, table.rng_mut());
        let n = players.len();
        let mut hands = vec![Vec::with_capacity(usize::from(options.hand_size)); n];
        // Dealt one at a time round the table, as by hand.
        for _ in 0..options.hand_size {
            for hand in &mut hands {
                hand.extend(deck.pop());
            }
        }
        let discard: Vec<Card> = deck.pop().into_iter().collect();
        table.ask(now, options.turn_seconds);
        Ok(OneCardState {
            table,
            options: options.clone(),
            hands,
            draw_pile: deck,
            discard,
            turn: 0,
            direction: Direction::Forward,
            attack: 0,
            suit: None,
            call: None,
            status: vec![SeatStatus::Playing; n],
            finished: Vec::new(),
            out: Vec::new(),
            over: false,
        })
    }

    fn validate(
        &self,
        state: &OneCardState,
        seat: usize,
        action: &OneCardAction,
    ) -> Result<(), OneCardError> {
        if seat >= state.table.players().len() || seat >= state.status.len() {
            return Err(Rejection::NotSeated {
                player: format!("seat {seat}"),
            }
            .into());
        }
        if state.over {
            return Err(Rejection::GameOver.into());
        }
        if !state.playing(seat) {
            return Err(OneCardError::OutOfGame);
        }
        match action {
            OneCardAction::Play { card, suit } => {
                if seat != state.turn {
                    return Err(OneCardError::NotYourTurn);
                }
                if !state.hands.get(seat).is_some_and(|h| h.contains(card)) {
                    return Err(OneCardError::CardNotHeld { card: *card });
                }
                match (card.rank(), suit) {
                    (Some(7), None) => return Err(OneCardError::SuitRequired),
                    (Some(7), Some(_)) | (_, None) => {}
                    (_, Some(_)) => return Err(OneCardError::SuitOnlyWithSeven),
                }
                let Some(top) = state.top() else {
                    return Err(corrupt("an empty discard pile"));
                };
                if state.attack > 0 {
                    if !card.answers(top) {
                        return Err(OneCardError::MustAnswerAttack {
                            total: state.attack,
                        });
                    }
                } else if !card.follows(top, state.suit) {
                    return Err(OneCardError::DoesNotMatch { card: *card });
                }
                Ok(())
            }
            OneCardAction::Draw => {
                if seat != state.turn {
                    return Err(OneCardError::NotYourTurn);
                }
                Ok(())
            }
            OneCardAction::OneCard => match state.call {
                Some(holder) if holder == seat => Ok(()),
                _ => Err(OneCardError::NoCallWindow),
            },
            OneCardAction::Catch { player } => {
                let target = state.table.seat_of(player);
                match (state.call, target) {
                    (Some(holder), Some(t)) if holder == t && t == seat => {
                        Err(OneCardError::CannotCatchSelf)
                    }
                    (Some(holder), Some(t)) if holder == t => Ok(()),
                    _ => Err(OneCardError::NoCallWindow),
                }
            }
            OneCardAction::Concede => Ok(()),
        }
    }

    fn step_into(
        &self,
        state: &mut OneCardState,
        seat: usize,
        action: &OneCardAction,
        _chance: Option<&()>,
        now: Millis,
        events: &mut Vec<OneCardEvent>,
    ) {
        let out = &mut Out {
            events,
            quiet: false,
        };
        self.step_to(state, seat, action, now, out);
    }

    /// [`Game::step_into`] building no event: play-outs read none, and each event copies
    /// a player id (a draw's also its cards).
    fn step_quiet(
        &self,
        state: &mut OneCardState,
        seat: usize,
        action: &OneCardAction,
        _chance: Option<&()>,
        now: Millis,
        scratch: &mut Vec<OneCardEvent>,
    ) {
        let out = &mut Out {
            events: scratch,
            quiet: true,
        };
        self.step_to(state, seat, action, now, out);
    }

    fn view(&self, state: &OneCardState, viewer: Viewer<'_>) -> OneCardView {
        let you = match viewer {
            Viewer::Player(id) => state.table.seat_of(id),
            Viewer::Spectator => None,
        };
        OneCardView {
            you,
            players: state.table.players().to_vec(),
            hand: you.and_then(|s| state.hands.get(s).cloned()),
            hand_counts: state.hands.iter().map(Vec::len).collect(),
            status: state.status.clone(),
            discard_top: state.top(),
            draw_pile_count: state.draw_pile.len(),
            attack: state.attack,
            suit: state.suit,
            direction: state.direction,
            turn: (!state.over).then_some(state.turn),
            call: state.call,
            ranks: self.outcome(state).map(|o| o.ranks),
            connected: state
                .table
                .presence()
                .iter()
                .map(|p| p.connected())
                .collect(),
            away: state.table.presence().iter().map(|p| p.away).collect(),
            turn_seq: state.table.turn_seq(),
            deadline_at: state.table.deadline_at(),
            legal_actions: you
                .map(|s| self.legal_actions(state, s))
                .unwrap_or_default(),
        }
    }

    fn timeout_action(&self, state: &OneCardState, seat: usize) -> Option<OneCardAction> {
        (!state.over && seat == state.turn && state.playing(seat)).then_some(OneCardAction::Draw)
    }

    /// Only the player to move: the one-card calls are open to others (see
    /// [`OneCard::may_act`](Game::may_act)) but no one is waited for on them.
    fn to_act(&self, state: &OneCardState) -> Vec<usize> {
        if state.over || !state.playing(state.turn) {
            return Vec::new();
        }
        vec![state.turn]
    }

    /// The player to move, and while a one-card window is open every player still in the
    /// game: `ONE_CARD` for the player left with one card, `CATCH` for every other, from
    /// the `PLAY` that left one card to the next `PLAY` or `DRAW`. No one is waited for
    /// on the calls, and they have no timer.
    ///
    /// ```
    /// use game_core::{Game, GameExt};
    /// use one_card::{OneCard, OneCardOptions};
    /// let state = OneCard.setup(&OneCardOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// assert!(OneCard.may_act(&state, 0)); // to move
    /// assert!(!OneCard.may_act(&state, 1)); // no one holds one card
    /// ```
    fn may_act(&self, state: &OneCardState, seat: usize) -> bool {
        let to_move = !state.over && seat == state.turn && state.playing(seat);
        to_move || (!state.over && state.call.is_some() && state.playing(seat))
    }

    /// A draw shows its cards to the drawer only, and to everyone else how many were
    /// drawn; every other event is shown as it is.
    ///
    /// ```
    /// use game_core::{Game, GameExt, Viewer};
    /// use one_card::{OneCard, OneCardEvent};
    /// let drew = OneCardEvent::Drew { player: "a".into(), cards: Some(vec!["7H".parse().unwrap()]), count: None };
    /// assert_eq!(OneCard.event_for(&drew, Viewer::Player("a")), drew);
    /// let seen = OneCard.event_for(&drew, Viewer::Player("b"));
    /// assert_eq!(serde_json::to_string(&seen).unwrap(), r#"{"type":"drew","player":"a","count":1}"#);
    /// ```
    fn event_for(&self, event: &OneCardEvent, viewer: Viewer<'_>) -> OneCardEvent {
        match event {
            OneCardEvent::Drew {
                player,
                cards,
                count,
            } if viewer != Viewer::Player(player) => OneCardEvent::Drew {
                player: player.clone(),
                cards: None,
                count: cards.as_ref().map(Vec::len).or(*count),
            },
            _ => event.clone(),
        }
    }

    fn legal_actions(&self, state: &OneCardState, seat: usize) -> Vec<OneCardAction> {
        let mut out = Vec::new();
        let _ = state.each_legal(seat, |entry| {
            out.push(Self::legal_entry_action(state, seat, entry));
            ControlFlow::<()>::Continue(())
        });
        out
    }

    /// The seat to move, straight from the state (no list built).
    fn first_to_act(&self, state: &OneCardState) -> Option<usize> {
        (!state.over && state.playing(state.turn)).then_some(state.turn)
    }

    /// Counted in one walk of the hand, nothing built.
    fn legal_action_count(&self, state: &OneCardState, seat: usize) -> usize {
        let mut n = 0;
        let _ = state.each_legal(seat, |_| {
            n += 1;
            ControlFlow::<()>::Continue(())
        });
        n
    }

    /// Walks the list to `index` and builds that action only.
    fn legal_action(
        &self,
        state: &OneCardState,
        seat: usize,
        index: usize,
    ) -> Option<OneCardAction> {
        let mut left = index;
        let found = state.each_legal(seat, |entry| {
            if left == 0 {
                return ControlFlow::Break(entry);
            }
            left -= 1;
            ControlFlow::Continue(())
        });
        match found {
            ControlFlow::Break(entry) => Some(Self::legal_entry_action(state, seat, entry)),
            ControlFlow::Continue(()) => None,
        }
    }

    fn outcome(&self, state: &OneCardState) -> Option<OneCardOutcome> {
        if !state.over {
            return None;
        }
        let order = state.order();
        let &winner_seat = order.first()?;
        let mut ranks = vec![0u8; state.status.len()];
        for (i, &seat) in order.iter().enumerate() {
            let rank = match state.options.ranking {
                Ranking::First => 1 + u8::from(i > 0),
                Ranking::All => u8::try_from(i + 1).unwrap_or(u8::MAX),
            };
            *ranks.get_mut(seat)? = rank;
        }
        Some(OneCardOutcome {
            winner: Self::id_of(state, winner_seat),
            winner_seat,
            ranks,
        })
    }

    /// A world `seat` cannot tell apart from `state`: the hands of the others dealt again,
    /// each keeping its count, and the draw pile rebuilt, from the cards `seat` has not
    /// seen, shuffled with `rng`; everything else as it is, but the table's RNG, which
    /// foretells every shuffle to come and is drawn afresh from `rng`.
    ///
    /// What a seat has seen, by the rules (RULES.md, "Hidden information"): its own hand,
    /// kept in its order (its legal actions are listed in that order); and the whole
    /// discard pile, in its order, every card of which was turned up at the deal or played
    /// face up since the last refill. A draw shows its cards to the drawer alone, a
    /// bankruptcy or a concession only a count: nothing else is ever shown to a seat, so
    /// every other card is unseen, and any of them may be in any other hand or anywhere in
    /// the draw pile.
    ///
    /// The state keeps no history, so what a seat could infer from the order of play is
    /// forgotten, never guessed, and nothing it has not seen enters the sample: which cards
    /// went into the draw pile at a refill (the discards, all seen), what the others drew
    /// from it since, and, for a seat that went out, its own hand, which was shuffled into
    /// the draw pile (RULES.md, "Bankruptcy"), where the state no longer tells those cards
    /// from the rest. A seat that is out never acts, so no bot decides on that part. A
    /// leaver's cards in the pile are, to everyone else, as unknown as any card they have
    /// not seen: redrawn like the rest.
    ///
    /// The unseen cards are gathered in deck order, whatever the order of the hidden
    /// hands and pile: two states `seat` cannot tell apart give the same world from the
    /// same `rng`.
    ///
    /// ```
    /// use game_core::{Game, GameRng, Viewer};
    /// use one_card::{OneCard, OneCardOptions};
    /// let players = vec!["a".to_string(), "b".to_string()];
    /// let state = OneCard.setup(&OneCardOptions::default(), &players, 1, 0).unwrap();
    /// let world = OneCard.resample_from_infostate(&state, 0, &mut GameRng::from_seed(5));
    /// assert_eq!(OneCard.view(&world, Viewer::Player("a")), OneCard.view(&state, Viewer::Player("a")));
    /// assert_ne!(world.hands()[1], state.hands()[1]);
    /// assert!(OneCard.check_state(&world).is_ok());
    /// ```
    fn resample_from_infostate(
        &self,
        state: &OneCardState,
        seat: usize,
        rng: &mut GameRng,
    ) -> OneCardState {
        let mut seen = [false; DECK_SIZE];
        for card in state
            .hands
            .get(seat)
            .into_iter()
            .flatten()
            .chain(&state.discard)
        {
            seen[card.index()] = true;
        }
        let mut unseen: Vec<Card> = Card::all().filter(|c| !seen[c.index()]).collect();
        shuffle(&mut unseen, rng);
        let mut world = state.clone();
        for (other, hand) in world.hands.iter_mut().enumerate() {
            if other != seat {
                let count = hand.len();
                hand.clear();
                hand.extend(unseen.drain(unseen.len().saturating_sub(count)..));
            }
        }
        world.draw_pile.clear();
        world.draw_pile.append(&mut unseen);
        let seed = u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32());
        *world.table.rng_mut() = GameRng::from_seed(seed);
        world
    }

    /// What the finished game is worth to `seat`, from its rank ([`OneCardOutcome::ranks`])
    /// placed on a line from the best rank, 1.0, to the worst rank anyone holds, 0.0: with
    /// `ranking: "all"`, `(n - rank) / (n - 1)` for `n` players (0.5 for second of three);
    /// with `ranking: "first"`, where everyone but the winner shares rank 2, 1.0 to the
    /// winner and 0.0 to the rest. `None` while the game goes on.
    ///
    /// ```
    /// use game_core::{Game, GameExt};
    /// use one_card::{OneCard, OneCardAction, OneCardOptions};
    /// let players = vec!["a".to_string(), "b".to_string()];
    /// let mut state = OneCard.setup(&OneCardOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(OneCard.payoff(&state, 0), None);
    /// OneCard.apply(&mut state, 0, &OneCardAction::Concede, 0).unwrap();
    /// assert_eq!((OneCard.payoff(&state, 0), OneCard.payoff(&state, 1)), (Some(0.0), Some(1.0)));
    /// ```
    fn payoff(&self, state: &OneCardState, seat: usize) -> Option<f64> {
        if !state.over {
            return None;
        }
        // The seat's place in `OneCardState::order`, found without building it: the search
        // bots ask once for every node of every play-out.
        let place = if let Some(p) = state.finished.iter().position(|&s| s == seat) {
            p
        } else if state.playing(seat) {
            state.finished.len() + (0..seat).filter(|&s| state.playing(s)).count()
        } else {
            let q = state.out.iter().position(|&s| s == seat)?;
            state.finished.len() + state.active() + (state.out.len() - 1 - q)
        };
        let n = state.status.len();
        let worth = match state.options.ranking {
            Ranking::First => f64::from(u8::from(place == 0)),
            Ranking::All if n > 1 => {
                f64::from(u32::try_from(n - 1 - place.min(n - 1)).ok()?)
                    / f64::from(u32::try_from(n - 1).ok()?)
            }
            Ranking::All => 1.0,
        };
        Some(worth)
    }

    fn check_state(&self, state: &OneCardState) -> Result<(), OneCardError> {
        check::check(state)
    }

    fn restore(&self, json: &str) -> Result<OneCardState, OneCardError> {
        game_core::restored(
            self,
            serde_json::from_str::<Stored>(json).map(|stored| stored.0),
        )
    }
}
