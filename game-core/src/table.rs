//! The table: what every game state holds for the framework (seats, RNG, clock, presence).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{GameRng, MAX_TIME, Millis, PlayerId, Presence, Rejection, Viewer};

/// The framework's part of a game state: the seated players, the seeded RNG, the action
/// sequence number, the current decision's clock and each seat's presence.
///
/// A game embeds one `Table` in its state and hands it out through
/// [`GameState`]; the provided methods of the trait do the rest
/// (stale-request checks, deadlines, timeouts, presence, re-seeding for search).
///
/// Sealed: its fields are read through accessors, and the only changes open outside the
/// framework are those a game makes in its own step on the table it owns ([`Table::ask`],
/// [`Table::close`], drawing from [`Table::rng_mut`]). The sequence number, the clock and
/// presence move only with the framework's bookkeeping, and no one but the game reads the
/// RNG, so a bot or a hook cannot see future draws.
///
/// Its times run from the first `now` to [`MAX_TIME`], where the clock stops. A deadline
/// is the decision's start plus its limit, and falls due at the earlier of that and
/// `MAX_TIME` ([`Table::deadline`]): at the end of the clock a decision is due as soon as
/// it is asked, and each input takes one round of timeouts, so that a match there still
/// ends.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Table {
    /// Player ids in seat order.
    pub(crate) players: Vec<PlayerId>,
    /// The game's random number generator. Never put it in a view.
    pub(crate) rng: GameRng,
    /// Incremented by every applied action (`turnSeq` on the wire).
    pub(crate) turn_seq: u64,
    /// When the current decision was first asked for.
    pub(crate) decision_since: Millis,
    /// The current decision's start plus its time limit, if it has one. It falls due at
    /// [`Table::deadline`]: this, or [`MAX_TIME`] if this is later.
    pub(crate) deadline_at: Option<Millis>,
    /// Presence per seat, in seat order.
    pub(crate) presence: Vec<Presence>,
    /// The match's clock: the latest time of an input that changed the state. A `now`
    /// earlier than it is read as it, so that time never runs backwards. (States stored
    /// before the clock existed read it as 0; [`Table::time`] then falls back on
    /// `decision_since`.)
    #[serde(default)]
    pub(crate) clock: Millis,
    /// How long a disconnected player is waited for in this match, when the host set it
    /// ([`Match::set_grace_ms`](crate::Match::set_grace_ms)); `None` is the game's
    /// [`Game::grace_ms`](crate::Game::grace_ms). Left out of the stored form when
    /// `None`, so that a state stored before it existed, or without it, reads and writes
    /// as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) grace_ms: Option<Millis>,
}

// By hand, for `clone_from`: the derived one makes a whole new copy (the ids' bytes, the
// lists) and drops the old, and a search copies a position into a used one at every node.
impl Clone for Table {
    fn clone(&self) -> Self {
        Self {
            players: self.players.clone(),
            rng: self.rng.clone(),
            turn_seq: self.turn_seq,
            decision_since: self.decision_since,
            deadline_at: self.deadline_at,
            presence: self.presence.clone(),
            clock: self.clock,
            grace_ms: self.grace_ms,
        }
    }

    /// Field by field, keeping the id list, the ids' own bytes and the presence list.
    ///
    /// ```
    /// let a = game_core::Table::new(&["a".into(), "b".into()], 1, 0).unwrap();
    /// let mut b = game_core::Table::new(&["c".into()], 2, 5).unwrap();
    /// b.clone_from(&a);
    /// assert_eq!(b, a);
    /// ```
    fn clone_from(&mut self, source: &Self) {
        // Every field by name: one added to the table must be copied here too.
        let Self {
            players,
            rng,
            turn_seq,
            decision_since,
            deadline_at,
            presence,
            clock,
            grace_ms,
        } = source;
        self.players.clone_from(players);
        self.rng.clone_from(rng);
        self.turn_seq = *turn_seq;
        self.decision_since = *decision_since;
        self.deadline_at = *deadline_at;
        self.presence.clone_from(presence);
        self.clock = *clock;
        self.grace_ms = *grace_ms;
    }
}

/// Up to this many seats, duplicate ids are looked for pair by pair (see
/// [`Table::check_players`]).
const SCAN_SEATS: usize = 16;

impl Table {
    /// Player ids in seat order.
    #[inline]
    pub fn players(&self) -> &[PlayerId] {
        &self.players
    }

    /// The action sequence number (`turnSeq` on the wire): incremented by every applied
    /// action.
    #[inline]
    pub fn turn_seq(&self) -> u64 {
        self.turn_seq
    }

    /// When the current decision was first asked for.
    #[inline]
    pub fn decision_since(&self) -> Millis {
        self.decision_since
    }

    /// The current decision's start plus its time limit, if it has one, as stored: it falls
    /// due at [`Table::deadline`].
    #[inline]
    pub fn deadline_at(&self) -> Option<Millis> {
        self.deadline_at
    }

    /// Presence per seat, in seat order.
    #[inline]
    pub fn presence(&self) -> &[Presence] {
        &self.presence
    }

    /// The match's clock: the latest time of an input that changed the state (see
    /// [`Table::time`]).
    #[inline]
    pub fn clock(&self) -> Millis {
        self.clock
    }

    /// The match's disconnect grace when the host set one
    /// ([`Match::set_grace_ms`](crate::Match::set_grace_ms)); `None`: the game's own
    /// ([`Game::grace_ms`](crate::Game::grace_ms)).
    ///
    /// ```
    /// let t = game_core::Table::new(&["a".into()], 1, 0).unwrap();
    /// assert_eq!(t.grace_ms(), None);
    /// ```
    #[inline]
    pub fn grace_ms(&self) -> Option<Millis> {
        self.grace_ms
    }

    /// The game's random number generator, to draw from in the game's own step: the only
    /// way to it, and only through a table the game holds mutably (a host reaches a state's
    /// table only through [`GameState::table`], read-only). Never put it in a view.
    ///
    /// ```
    /// let mut t = game_core::Table::new(&["a".into()], 1, 0).unwrap();
    /// assert!(t.rng_mut().below(6) < 6);
    /// ```
    #[inline]
    pub fn rng_mut(&mut self) -> &mut GameRng {
        &mut self.rng
    }

    /// Seats `players` (checked: at least one, no empty or duplicate ids) with an RNG from
    /// `seed`, the clock starting at `now` (at most [`MAX_TIME`]).
    ///
    /// ```
    /// let t = game_core::Table::new(&["a".into(), "b".into()], 1, 0).unwrap();
    /// assert_eq!(t.seat_of("b"), Some(1));
    /// assert!(game_core::Table::new(&["a".into(), "a".into()], 1, 0).is_err());
    /// ```
    pub fn new(players: &[PlayerId], seed: u64, now: Millis) -> Result<Self, Rejection> {
        Self::check_players(players)?;
        let now = now.min(MAX_TIME);
        Ok(Self {
            players: players.to_vec(),
            rng: GameRng::from_seed(seed),
            turn_seq: 0,
            decision_since: now,
            deadline_at: None,
            presence: vec![Presence::default(); players.len()],
            clock: now,
            grace_ms: None,
        })
    }

    /// [`Table::new`] for a game played by `counts` players: any other number is refused
    /// with `BAD_PLAYER_COUNT`, listing the counts.
    ///
    /// ```
    /// use game_core::{GameError, Table};
    /// assert!(Table::for_counts(&["a".into(), "b".into()], 2..=4, 1, 0).is_ok());
    /// let refused = Table::for_counts(&["a".into()], 2..=4, 1, 0).unwrap_err();
    /// assert_eq!(refused.reason().unwrap()["allowed"], serde_json::json!([2, 3, 4]));
    /// ```
    pub fn for_counts(
        players: &[PlayerId],
        counts: std::ops::RangeInclusive<usize>,
        seed: u64,
        now: Millis,
    ) -> Result<Self, Rejection> {
        if !counts.contains(&players.len()) {
            return Err(Rejection::BadPlayerCount {
                players: players.len(),
                allowed: counts.collect(),
            });
        }
        Self::new(players, seed, now)
    }

    /// Seats `players` anew in this table, as `*self = Table::new(players, seed, now)?` does
    /// but keeping its buffers (the id list, the ids' own bytes and the presence list), for
    /// a state reused from one game to the next ([`Game::reset`](crate::Game::reset)).
    /// The same checks as [`Table::new`]; a refusal changes nothing.
    ///
    /// ```
    /// let mut t = game_core::Table::new(&["a".into(), "b".into()], 1, 0).unwrap();
    /// t.ask(5_000, Some(30));
    /// t.reset(&["c".into()], 2, 7_000).unwrap();
    /// assert_eq!(t, game_core::Table::new(&["c".into()], 2, 7_000).unwrap());
    /// assert!(t.reset(&["a".into(), "a".into()], 1, 0).is_err());
    /// assert_eq!(t.players(), ["c"]);
    /// ```
    pub fn reset(&mut self, players: &[PlayerId], seed: u64, now: Millis) -> Result<(), Rejection> {
        Self::check_players(players)?;
        let now = now.min(MAX_TIME);
        // Every field by name, so that a field added to the table cannot be left over
        // from the last game.
        let Self {
            players: seated,
            rng,
            turn_seq,
            decision_since,
            deadline_at,
            presence,
            clock,
            grace_ms,
        } = self;
        // `clone_into` clones each id into the `String` already in its seat: no
        // allocation while the new id fits the old one's buffer.
        players.clone_into(seated);
        *rng = GameRng::from_seed(seed);
        *turn_seq = 0;
        *decision_since = now;
        *deadline_at = None;
        presence.clear();
        presence.resize(players.len(), Presence::default());
        *clock = now;
        *grace_ms = None;
        Ok(())
    }

    /// The checks of [`Table::new`] on the player ids, without seating them.
    fn check_players(players: &[PlayerId]) -> Result<(), Rejection> {
        if players.is_empty() {
            return Err(Rejection::BadPlayers {
                detail: "no players".into(),
            });
        }
        // A game seats a handful of players, each compared with the seats before it; a
        // stored state may list any number, which a set judges in linear time (pair by
        // pair, 100,000 ids took 20 s). The same answer either way: the first seat, in
        // seat order, whose id an earlier seat has.
        let mut seen = (players.len() > SCAN_SEATS)
            .then(|| std::collections::HashSet::with_capacity(players.len()));
        for (i, p) in players.iter().enumerate() {
            if p.is_empty() || p.len() > 128 {
                return Err(Rejection::BadPlayers {
                    detail: format!("player id at seat {i} must be 1 to 128 bytes"),
                });
            }
            let twice = match &mut seen {
                Some(seen) => !seen.insert(p.as_str()),
                // The last bytes first: comparing whole ids calls `memcmp`, and distinct
                // ids of one length mostly differ at the end ("p0", "p1", ...).
                None => {
                    let last = p.as_bytes().last();
                    players[..i]
                        .iter()
                        .any(|q| q.as_bytes().last() == last && q == p)
                }
            };
            if twice {
                return Err(Rejection::BadPlayers {
                    detail: format!("player id {p:?} is seated twice"),
                });
            }
        }
        Ok(())
    }

    /// The time an input at `now` is judged at: `now`, or the match's clock if `now` is
    /// earlier (a host's clock that jumps back must not reopen a closed decision or push a
    /// deadline into the past), and never past [`MAX_TIME`].
    ///
    /// ```
    /// let mut t = game_core::Table::new(&["a".into()], 1, 5_000).unwrap();
    /// assert_eq!(t.time(7_000), 7_000);
    /// assert_eq!(t.time(0), 5_000);
    /// assert_eq!(t.time(u64::MAX), game_core::MAX_TIME);
    /// // Never past it, even for a table whose fields are (its checks refuse them).
    /// let mut json = serde_json::to_value(&t).unwrap();
    /// json["clock"] = u64::MAX.into();
    /// let t: game_core::Table = serde_json::from_value(json).unwrap();
    /// assert_eq!(t.time(0), game_core::MAX_TIME);
    /// ```
    #[inline]
    pub fn time(&self, now: Millis) -> Millis {
        // The bound last: the answer is then never past `MAX_TIME` whatever the fields
        // hold, so that a caller inlining `Table::ask` at this time drops its own bound.
        // (For a checked table, whose clock and decision start are at most `MAX_TIME`, the
        // same as bounding `now` first.)
        now.max(self.clock).max(self.decision_since).min(MAX_TIME)
    }

    /// The seat of a player id, or `None` for spectators and unknown ids.
    ///
    /// ```
    /// let t = game_core::Table::new(&["a".into()], 1, 0).unwrap();
    /// assert_eq!(t.seat_of("zzz"), None);
    /// ```
    #[inline]
    pub fn seat_of(&self, player: &str) -> Option<usize> {
        self.players.iter().position(|p| p == player)
    }

    /// What every view shows of the table, as `viewer` sees it: see [`TableView`].
    ///
    /// ```
    /// use game_core::{Table, Viewer};
    /// let t = Table::new(&["a".into(), "b".into()], 1, 0).unwrap();
    /// let view = t.view(Viewer::Player("b"));
    /// assert_eq!((view.you, view.turn_seq), (Some(1), 0));
    /// assert_eq!(t.view(Viewer::Spectator).you, None);
    /// ```
    pub fn view(&self, viewer: Viewer<'_>) -> TableView {
        TableView {
            you: match viewer {
                Viewer::Player(id) => self.seat_of(id),
                Viewer::Spectator => None,
            },
            players: self.players.clone(),
            connected: self.presence.iter().map(Presence::connected).collect(),
            away: self.presence.iter().map(|p| p.away).collect(),
            turn_seq: self.turn_seq,
            deadline_at: self.deadline_at,
        }
    }

    /// The seat of a player, or the framework's `NOT_SEATED` rejection.
    ///
    /// ```
    /// let t = game_core::Table::new(&["a".into()], 1, 0).unwrap();
    /// assert!(t.seat("b").is_err());
    /// ```
    pub fn seat(&self, player: &str) -> Result<usize, Rejection> {
        self.seat_of(player).ok_or_else(|| Rejection::NotSeated {
            player: player.to_owned(),
        })
    }

    /// Starts a new decision at `now` (at most [`MAX_TIME`]) with an optional time limit in
    /// seconds.
    ///
    /// ```
    /// let mut t = game_core::Table::new(&["a".into()], 1, 0).unwrap();
    /// t.ask(1_000, Some(30));
    /// assert_eq!(t.deadline_at(), Some(31_000));
    /// ```
    #[inline]
    pub fn ask(&mut self, now: Millis, limit_seconds: Option<u32>) {
        // A game's setup asks at the host's `now`, which may be past the end of the clock.
        let now = now.min(MAX_TIME);
        self.decision_since = now;
        self.deadline_at = limit_seconds.map(|s| now.saturating_add(u64::from(s) * 1000));
    }

    /// When the current decision times out, if it has a time limit: its deadline
    /// ([`Table::deadline_at`]), or [`MAX_TIME`] for one past it. The clock stops at
    /// `MAX_TIME`, so a later time would never come; this one is a time at which
    /// [`GameExt::tick`](crate::GameExt::tick) acts, whatever the clock. Below `MAX_TIME` minus
    /// the limit, the deadline itself. (Bounded here, where the deadline is read, rather
    /// than where each decision sets it, which is Yut's play-out path; a stored state
    /// keeps the plain sum.)
    ///
    /// ```
    /// use game_core::{MAX_TIME, Table};
    /// let mut t = Table::new(&["a".into()], 1, 0).unwrap();
    /// t.ask(1_000, Some(30));
    /// assert_eq!(t.deadline(), Some(31_000));
    /// t.ask(MAX_TIME - 5_000, Some(30));
    /// assert_eq!((t.deadline_at(), t.deadline()), (Some(MAX_TIME + 25_000), Some(MAX_TIME)));
    /// t.ask(u64::MAX, None);
    /// assert_eq!(t.deadline(), None);
    /// ```
    #[inline]
    pub fn deadline(&self) -> Option<Millis> {
        self.deadline_at.map(|d| d.min(MAX_TIME))
    }

    /// No decision is pending any more (the game is over).
    ///
    /// ```
    /// let mut t = game_core::Table::new(&["a".into()], 1, 0).unwrap();
    /// t.ask(0, Some(15));
    /// t.close();
    /// assert_eq!(t.deadline_at(), None);
    /// ```
    pub fn close(&mut self) {
        self.deadline_at = None;
    }

    /// When the engine acts for `seat`: the deadline, or for a disconnected player the grace
    /// period after the later of the decision start and the disconnection. Never past
    /// [`MAX_TIME`] (see [`Table::deadline`]).
    ///
    /// ```
    /// let mut t = game_core::Table::new(&["a".into()], 1, 0).unwrap();
    /// t.ask(1_000, None);
    /// assert_eq!(t.acts_for_at(0, 5_000), None);
    /// let mut json = serde_json::to_value(&t).unwrap();
    /// json["presence"][0]["disconnectedAt"] = 2_000.into();
    /// let t: game_core::Table = serde_json::from_value(json).unwrap();
    /// assert_eq!(t.acts_for_at(0, 5_000), Some(7_000));
    /// ```
    pub fn acts_for_at(&self, seat: usize, grace_ms: Millis) -> Option<Millis> {
        let grace = self.presence.get(seat)?.disconnected_at.map(|since| {
            since
                .max(self.decision_since)
                .saturating_add(grace_ms)
                .min(MAX_TIME)
        });
        match (self.deadline(), grace) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Checks the framework's invariants of a restored table: the seats, one presence a
    /// seat, away after three timeouts, every time at most [`MAX_TIME`] (the deadline at
    /// most a `u32` of seconds after it) and the sequence number at most
    /// [`MAX_SAFE_INTEGER`](crate::MAX_SAFE_INTEGER): what play can reach, and exact in
    /// JavaScript.
    ///
    /// ```
    /// let t = game_core::Table::new(&["a".into()], 1, 0).unwrap();
    /// let mut json = serde_json::to_value(&t).unwrap();
    /// json["presence"] = serde_json::json!([]);
    /// let t: game_core::Table = serde_json::from_value(json).unwrap();
    /// assert!(t.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), Rejection> {
        Self::check_players(&self.players).map_err(|e| Rejection::CorruptState {
            detail: e.to_string(),
        })?;
        if self.presence.len() != self.players.len() {
            return Err(Rejection::CorruptState {
                detail: "presence must list every seat".into(),
            });
        }
        // Times past what `Table::time` ever gives: the arithmetic on them must not reach
        // the end of `u64`.
        let latest_deadline = crate::MAX_SAFE_INTEGER;
        if self.clock > MAX_TIME
            || self.grace_ms.is_some_and(|g| g > MAX_TIME)
            || self.decision_since > MAX_TIME
            || self.deadline_at.is_some_and(|d| d > latest_deadline)
            || self
                .presence
                .iter()
                .any(|p| p.disconnected_at.is_some_and(|t| t > MAX_TIME))
        {
            return Err(Rejection::CorruptState {
                detail: format!("a time past {MAX_TIME} ms"),
            });
        }
        // No game takes 2^53 actions, and a larger number would reach a TypeScript host
        // rounded: every `turnSeq` it sent back would be stale.
        if self.turn_seq > crate::MAX_SAFE_INTEGER {
            return Err(Rejection::CorruptState {
                detail: format!("turnSeq past {}", crate::MAX_SAFE_INTEGER),
            });
        }
        let away_after = crate::presence::AWAY_AFTER_TIMEOUTS;
        if self
            .presence
            .iter()
            .any(|p| p.timeouts_in_row >= away_after && !p.away)
        {
            return Err(Rejection::CorruptState {
                detail: "a seat with three timeouts in a row must be away".into(),
            });
        }
        Ok(())
    }
}

/// What every game's view shows of the [`Table`] ([`Table::view`]): a game's view embeds
/// it with `#[serde(flatten)]`, so its fields sit beside the game's own on the wire. It
/// never holds the RNG.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TableView {
    /// The viewer's seat, or `None` for a spectator.
    pub you: Option<usize>,
    /// The player ids, in seat order.
    pub players: Vec<PlayerId>,
    /// Whether each player is connected, in seat order.
    pub connected: Vec<bool>,
    /// Whether each player is away (timed out three times in a row), in seat order.
    pub away: Vec<bool>,
    /// The sequence number to send with the next action.
    pub turn_seq: u64,
    /// When the current decision times out, if it has a time limit.
    pub deadline_at: Option<Millis>,
}

/// A game state's way to its [`Table`]: the bound every [`Game::State`](crate::Game::State)
/// meets, through which the framework keeps the seats, the clock, `turnSeq` and presence
/// for the game. Most states hold the table in a field and implement this with
/// [`game_state!`](crate::game_state).
///
/// ```
/// use game_core::{GameState, Table};
/// struct Coin { table: Table, heads: u32 }
/// game_core::game_state!(Coin, table);
/// let coin = Coin { table: Table::new(&["a".into(), "b".into()], 1, 0).unwrap(), heads: 0 };
/// assert_eq!(coin.table().players().len(), 2);
/// ```
pub trait GameState {
    /// The framework's part of the state.
    fn table(&self) -> &Table;

    /// The framework's part of the state, mutably, for the framework's bookkeeping alone
    /// (`turnSeq`, the clock, presence, re-seeding a fork): the [`TableKey`] it asks for
    /// has no public constructor, so a state implements this but only the framework calls
    /// it. A game's own step uses the table it holds in its state directly.
    fn table_mut(&mut self, key: TableKey) -> &mut Table;
}

/// What [`GameState::table_mut`] asks for: made only inside game-core, so that a host
/// holding a state cannot reach its table mutably and break what the framework keeps
/// (the sequence number, the clock, presence, the RNG).
#[derive(Debug)]
pub struct TableKey(());

impl TableKey {
    /// The framework's key.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self(())
    }
}

/// Implements [`GameState`] for a state type holding its [`Table`] in a field:
/// `game_state!(PigState, table)`.
#[macro_export]
macro_rules! game_state {
    ($state:ty, $field:ident) => {
        impl $crate::GameState for $state {
            fn table(&self) -> &$crate::Table {
                &self.$field
            }

            fn table_mut(&mut self, _: $crate::TableKey) -> &mut $crate::Table {
                &mut self.$field
            }
        }
    };
}
