//! The game state: sides, pieces and their trails, the turn, the pending
//! results.

use game_core::Table;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::graph::Node;
use crate::{EventLog, NodeList, Rules, ThrowChance, ThrowDraw, ThrowList, YutEvent, YutOptions};

/// A side's id: the seat in individual play, 0 (청) or 1 (홍) in team play.
pub type SideId = u8;

/// The word `"home"` on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum HomeWord {
    /// 대기: off the board, not yet entered.
    #[serde(rename = "home")]
    Home,
}

/// Where a move starts: a node or `"home"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Origin {
    /// A node with a stack of the mover's side.
    Node(Node),
    /// A waiting piece.
    Home(HomeWord),
}

impl Origin {
    /// Home, as a value.
    pub const HOME: Origin = Origin::Home(HomeWord::Home);

    /// The node, or `None` for home.
    ///
    /// ```
    /// assert_eq!(yut::Origin::Node(3).node(), Some(3));
    /// assert_eq!(yut::Origin::HOME.node(), None);
    /// ```
    pub const fn node(self) -> Option<Node> {
        match self {
            Origin::Node(n) => Some(n),
            Origin::Home(_) => None,
        }
    }
}

/// The word `"goal"` or `"home"` where a move ends off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OffBoard {
    /// The stack finished (남).
    Goal,
    /// A backdo sent it home (`backdoFromDo = home`).
    Home,
}

/// Where a move ends: a node, `"goal"` or `"home"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum To {
    /// A node.
    Node(Node),
    /// Off the board.
    Off(OffBoard),
}

impl To {
    /// The goal.
    pub const GOAL: To = To::Off(OffBoard::Goal);
    /// Home.
    pub const HOME: To = To::Off(OffBoard::Home);

    /// The node, if the move ends on the board.
    pub const fn node(self) -> Option<Node> {
        match self {
            To::Node(n) => Some(n),
            To::Off(_) => None,
        }
    }
}

/// Where a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PieceStatus {
    /// 대기: waiting to enter.
    Home,
    /// On a node.
    Board,
    /// 남: finished.
    Done,
}

/// One piece. Pieces of one side on one node form a stack (업기).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Piece {
    /// Where it is.
    pub status: PieceStatus,
    /// Its node, when on the board.
    pub node: Option<Node>,
    /// Every node it stepped on since it entered, ending with `node` (for backdo).
    pub trail: NodeList,
}

impl Piece {
    /// A waiting piece.
    pub const HOME: Piece = Piece {
        status: PieceStatus::Home,
        node: None,
        trail: NodeList::new(),
    };

    /// Whether it stands on `node`.
    #[inline]
    pub fn is_on(&self, node: Node) -> bool {
        self.node == Some(node) && self.status == PieceStatus::Board
    }

    /// Whether it has gone round: it stands on 참먹이 (the only way onto node 0).
    pub fn lapped(&self) -> bool {
        self.is_on(crate::graph::CHAMMEOGI)
    }
}

/// The most pieces a side can have ([`PIECES`](crate::PIECES)'s largest), and so the
/// largest stack.
pub const MAX_PIECES: usize = 5;

/// A side: one player in individual play, a team in team play.
///
/// Its pieces are kept in a fixed array together with an index of where they stand (the
/// nodes the side holds as a bit set, the waiting and finished counts), so that the
/// questions every decision asks ("is there a stack on this node?", "does a piece wait?")
/// are answered without scanning. The pieces change only through the engine, which keeps
/// the index; read them with [`Side::pieces`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// Seats of the members, in seat order.
    pub members: Vec<u8>,
    /// The pieces; the first `count` are the side's.
    pieces: [Piece; MAX_PIECES],
    count: u8,
    /// Bit `n` set: the side has a stack on node `n`.
    held: u32,
    /// The nodes in `held`: the side's stacks (counted as the set changes, since the
    /// baseline x86-64 target has no popcount instruction).
    stacks: u8,
    /// Pieces waiting at home.
    home: u8,
    /// Pieces finished.
    done: u8,
    /// The place it finished in (1 = first), once all its pieces are done.
    pub finished_rank: Option<u8>,
    /// When the side conceded (counting concedes from 1), if it did.
    pub conceded: Option<u8>,
    /// Turns the side has started.
    pub turns: u16,
    /// Pieces of other sides this side captured.
    pub captures: u16,
    /// Pieces of this side that were captured.
    pub lost: u16,
}

/// The node's bit in a side's held set (none for a node off the board: a restored state
/// is checked, but the index must not panic before the check runs).
#[inline]
fn bit(node: Node) -> u32 {
    1u32.checked_shl(u32::from(node)).unwrap_or(0)
}

impl Side {
    /// A side of `members` with `pieces` pieces, all waiting (at most [`MAX_PIECES`]).
    ///
    /// ```
    /// let side = yut::Side::new(vec![0], 4);
    /// assert_eq!(side.at_home(), 4);
    /// assert!(!side.on_board());
    /// ```
    pub fn new(members: Vec<u8>, pieces: u8) -> Self {
        let count = pieces.min(MAX_PIECES as u8);
        Self {
            members,
            pieces: [Piece::HOME; MAX_PIECES],
            count,
            held: 0,
            stacks: 0,
            home: count,
            done: 0,
            finished_rank: None,
            conceded: None,
            turns: 0,
            captures: 0,
            lost: 0,
        }
    }

    /// The side's pieces, in id order.
    #[inline]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces[..usize::from(self.count)]
    }

    /// The pieces to change; the index is rebuilt when the guard goes.
    #[inline]
    pub(crate) fn pieces_mut(&mut self) -> PiecesMut<'_> {
        PiecesMut(self)
    }

    /// Sets the trail of every piece on `node` (a stack shares one trail); the index does
    /// not change.
    #[inline]
    pub(crate) fn set_trail_on(&mut self, node: Node, trail: crate::NodeList) {
        for p in self.pieces[..usize::from(self.count)].iter_mut() {
            if p.is_on(node) {
                p.trail = trail;
            }
        }
    }

    /// The side's pieces at `from` (a node, or home) as a bit set of piece ids (bit `i`
    /// for piece `i`), found in one pass, so that a move scans the pieces once.
    #[inline(always)]
    pub(crate) fn pieces_at(&self, from: crate::Origin) -> u8 {
        let mut set = 0u8;
        for (i, p) in self.pieces().iter().enumerate() {
            let here = match from {
                crate::Origin::Home(_) => p.status == PieceStatus::Home,
                crate::Origin::Node(n) => p.is_on(n),
            };
            set |= u8::from(here) << i;
        }
        set
    }

    /// Moves up to `limit` of the pieces of the set `at` (the side's pieces at `from`, a
    /// node or home, from [`Side::pieces_at`]), in id order, to become `landed`; returns how
    /// many moved. The index is updated for just these pieces rather than rebuilt: a move
    /// is one stack, and rebuilding from every piece costs more than the move.
    #[inline(always)]
    pub(crate) fn move_stack(
        &mut self,
        at: u8,
        from: crate::Origin,
        limit: u8,
        landed: Piece,
    ) -> u8 {
        let mut moved = 0u8;
        let mut left = at;
        while left != 0 && moved < limit {
            if let Some(p) = self.pieces.get_mut(left.trailing_zeros() as usize) {
                *p = landed;
            }
            moved += 1;
            left &= left - 1;
        }
        let left_behind = left != 0;
        match from {
            crate::Origin::Home(_) => self.home -= moved,
            crate::Origin::Node(n) => {
                if moved > 0 && !left_behind {
                    self.stacks -= u8::from(self.held & bit(n) != 0);
                    self.held &= !bit(n);
                }
            }
        }
        if moved > 0 {
            match (landed.status, landed.node) {
                (PieceStatus::Home, _) => self.home += moved,
                (PieceStatus::Done, _) => self.done += moved,
                (PieceStatus::Board, Some(n)) => {
                    self.stacks += u8::from(self.held & bit(n) == 0);
                    self.held |= bit(n);
                }
                (PieceStatus::Board, None) => {}
            }
        }
        moved
    }

    /// Rebuilds the index from the pieces.
    #[inline]
    fn reindex(&mut self) {
        let (mut held, mut home, mut done) = (0u32, 0u8, 0u8);
        for p in &self.pieces[..usize::from(self.count)] {
            match (p.status, p.node) {
                (PieceStatus::Home, _) => home += 1,
                (PieceStatus::Done, _) => done += 1,
                (PieceStatus::Board, Some(n)) => held |= bit(n),
                (PieceStatus::Board, None) => {}
            }
        }
        self.held = held;
        self.stacks = held.count_ones() as u8;
        self.home = home;
        self.done = done;
    }

    /// Whether the side still plays (has not finished or conceded).
    #[inline]
    pub fn active(&self) -> bool {
        self.finished_rank.is_none() && self.conceded.is_none()
    }

    /// Pieces finished.
    #[inline]
    pub fn finished(&self) -> usize {
        usize::from(self.done)
    }

    /// Pieces waiting at home.
    #[inline]
    pub fn at_home(&self) -> usize {
        usize::from(self.home)
    }

    /// Whether all its pieces are finished.
    #[inline]
    pub fn all_done(&self) -> bool {
        self.done == self.count
    }

    /// The nodes where the side has a stack, as a bit set (bit `n` for node `n`).
    ///
    /// ```
    /// assert_eq!(yut::Side::new(vec![0], 4).held(), 0);
    /// ```
    #[inline]
    pub fn held(&self) -> u32 {
        self.held
    }

    /// How many stacks the side has on the board: the nodes it holds.
    ///
    /// ```
    /// assert_eq!(yut::Side::new(vec![0], 4).stacks(), 0);
    /// ```
    #[inline]
    pub fn stacks(&self) -> usize {
        usize::from(self.stacks)
    }

    /// Whether the side has a stack on `node`.
    #[inline]
    pub fn holds(&self, node: Node) -> bool {
        self.held & bit(node) != 0
    }

    /// Pieces on `node`: the size of the side's stack there.
    #[inline]
    pub fn stack_on(&self, node: Node) -> usize {
        if !self.holds(node) {
            return 0;
        }
        self.pieces().iter().filter(|p| p.is_on(node)).count()
    }

    /// Whether any piece is on the board.
    #[inline]
    pub fn on_board(&self) -> bool {
        self.held != 0
    }

    /// The sum of its pieces' remaining distances (`graph::remaining`), under `reach` one
    /// less each.
    pub fn remaining_distance(&self, reach: bool) -> u32 {
        self.pieces()
            .iter()
            .map(|p| match p.status {
                PieceStatus::Done => 0,
                _ => crate::graph::remaining(p.node) - u32::from(reach),
            })
            .sum()
    }
}

/// A side's pieces open for change ([`Side::pieces_mut`]): the side's index of where they
/// stand is rebuilt when this goes, so it always follows the pieces.
pub(crate) struct PiecesMut<'a>(&'a mut Side);

impl std::ops::Deref for PiecesMut<'_> {
    type Target = [Piece];

    #[inline]
    fn deref(&self) -> &[Piece] {
        self.0.pieces()
    }
}

impl std::ops::DerefMut for PiecesMut<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Piece] {
        let count = usize::from(self.0.count);
        &mut self.0.pieces[..count]
    }
}

impl Drop for PiecesMut<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.reindex();
    }
}

/// A side as stored: the same fields, the pieces as a list.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Side", rename_all = "camelCase")]
struct SideWire<M, P> {
    members: M,
    pieces: P,
    finished_rank: Option<u8>,
    conceded: Option<u8>,
    turns: u16,
    captures: u16,
    lost: u16,
}

impl Serialize for Side {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SideWire {
            members: &self.members,
            pieces: self.pieces(),
            finished_rank: self.finished_rank,
            conceded: self.conceded,
            turns: self.turns,
            captures: self.captures,
            lost: self.lost,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = SideWire::<Vec<u8>, Vec<Piece>>::deserialize(d)?;
        if w.pieces.len() > MAX_PIECES {
            return Err(serde::de::Error::invalid_length(
                w.pieces.len(),
                &"at most 5 pieces",
            ));
        }
        let mut side = Side::new(w.members, w.pieces.len() as u8);
        side.pieces[..w.pieces.len()].copy_from_slice(&w.pieces);
        side.reindex();
        side.finished_rank = w.finished_rank;
        side.conceded = w.conceded;
        side.turns = w.turns;
        side.captures = w.captures;
        side.lost = w.lost;
        Ok(side)
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The player to act throws.
    Throw,
    /// The player to act moves a piece with a pending result.
    Move,
    /// A rule extension waits for the player to act (for example an augment draft).
    Rule,
    /// The game is over.
    Finished,
}

/// Counts for the result screen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThrowStats {
    /// 도 thrown.
    pub r#do: u32,
    /// 개 thrown.
    pub gae: u32,
    /// 걸 thrown.
    pub geol: u32,
    /// 윷 thrown.
    pub yut: u32,
    /// 모 thrown.
    pub mo: u32,
    /// 빽도 thrown.
    pub backdo: u32,
    /// 낙.
    pub nak: u32,
}

impl ThrowStats {
    /// Counts one throw.
    ///
    /// ```
    /// let mut stats = yut::ThrowStats::default();
    /// stats.count(yut::ThrowChance::Nak);
    /// assert_eq!(stats.nak, 1);
    /// ```
    pub fn count(&mut self, thrown: ThrowChance) {
        let slot = match thrown {
            ThrowChance::Nak => &mut self.nak,
            ThrowChance::Do => &mut self.r#do,
            ThrowChance::Gae => &mut self.gae,
            ThrowChance::Geol => &mut self.geol,
            ThrowChance::Yut => &mut self.yut,
            ThrowChance::Mo => &mut self.mo,
            ThrowChance::Backdo => &mut self.backdo,
        };
        // Saturating: a restored state may hold any count; real games never get near.
        *slot = slot.saturating_add(1);
    }
}

/// The base game's state: everything of the standard rules, without rule extensions.
///
/// Rule hooks read it through [`Cx::board`](crate::rules::Cx::board) and change it only
/// through the context's methods, which keep its invariants. Not `Deserialize`, like
/// [`YutState`]: a board comes from JSON only inside a state through `Game::restore`.
///
/// ```compile_fail
/// let board: yut::Board = serde_json::from_str("{}").unwrap(); // no trusted reading
/// ```
///
/// ```compile_fail
/// let state: yut::YutState = serde_json::from_str("{}").unwrap(); // Game::restore only
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    /// The base options.
    pub options: YutOptions,
    /// Seats, RNG, turn sequence, deadline and presence.
    pub table: Table,
    /// The side of each seat.
    pub side_of: Vec<SideId>,
    /// The sides.
    pub sides: Vec<Side>,
    /// Seats in turn order.
    pub turn_order: Vec<u8>,
    /// Position in `turn_order` of the seat to act. The engine keeps the seat to act
    /// ([`Board::current_seat`]) in step with it and `turn_order`; a board whose turn is
    /// changed by hand is out of step, and refused by the state checks.
    pub turn_index: u8,
    /// Seats that conceded (in team play a team goes on until all members have).
    pub seat_conceded: Vec<bool>,
    /// What the game waits for.
    pub phase: Phase,
    /// Throws still owed this turn (윷, 모, captures, rule bonuses).
    pub throws_owed: u8,
    /// The results thrown and not yet used, in order.
    pub pending: ThrowList,
    /// The last throw, shown with its sticks.
    pub last_throw: Option<ThrowDraw>,
    /// Throw counts for the result.
    pub stats: ThrowStats,
    /// Concedes so far (orders conceded sides in the ranking).
    pub concedes: u8,
    /// The seat to act, `turn_order[turn_index]`, and its side: derived, not stored, and
    /// kept in step by the engine wherever the turn changes ([`Board::sync_turn`]), since
    /// every step asks for them several times and the two lookups behind them cost more
    /// than a field.
    #[serde(skip)]
    pub(crate) seat_to_act: u8,
    #[serde(skip)]
    pub(crate) side_to_act: SideId,
}

impl Board {
    /// The seat whose turn it is.
    #[inline(always)]
    pub fn current_seat(&self) -> usize {
        usize::from(self.seat_to_act)
    }

    /// The side whose turn it is.
    #[inline(always)]
    pub fn current_side(&self) -> SideId {
        self.side_to_act
    }

    /// Sets the seat to act and its side from `turn_order`, `turn_index` and `side_of`,
    /// after any of them changed. A restored state may hold any of them out of range: it
    /// is refused by its checks, which must not panic before they run, so an index out of
    /// range counts as seat (or side) 0 here.
    #[inline]
    pub(crate) fn sync_turn(&mut self) {
        let seat = self
            .turn_order
            .get(usize::from(self.turn_index))
            .copied()
            .unwrap_or(0);
        self.seat_to_act = seat;
        self.side_to_act = self.side_of.get(usize::from(seat)).copied().unwrap_or(0);
    }

    /// Whether the cached seat to act and its side are those of `turn_order`,
    /// `turn_index` and `side_of` (for the state checks).
    pub(crate) fn turn_in_step(&self) -> bool {
        let seat = self.turn_order.get(usize::from(self.turn_index)).copied();
        seat == Some(self.seat_to_act)
            && self.side_of.get(usize::from(self.seat_to_act)).copied() == Some(self.side_to_act)
    }

    /// The side whose pieces stand on `node`, if any.
    #[inline]
    pub fn occupant(&self, node: Node) -> Option<SideId> {
        self.sides
            .iter()
            .position(|s| s.holds(node))
            .map(|i| i as SideId)
    }

    /// Sides still playing.
    pub fn active_sides(&self) -> usize {
        self.sides.iter().filter(|s| s.active()).count()
    }

    /// Owes up to `n` more throws this turn, as many as keep the pending results and owed
    /// throws within [`MAX_PENDING`](crate::MAX_PENDING) together (RULES.md, Turns); returns
    /// how many it owed. The cap keeps every state storable; no real game comes near it.
    #[inline]
    pub(crate) fn owe_throws(&mut self, n: u8) -> u8 {
        let room = crate::MAX_PENDING
            .saturating_sub(self.pending.len() + usize::from(self.throws_owed))
            .min(usize::from(u8::MAX)) as u8;
        let owed = n.min(room);
        self.throws_owed += owed;
        owed
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Finished
    }
}

/// Whose lists a new game fills: new ones (`Game::setup`) or the last game's, kept with
/// their buffers (`Game::reset`). Either way a list ends the same, so the choice is only
/// how: it is a constant in each caller, so each fills its lists without a test.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lists {
    /// Collected: one allocation of the exact size (extending an unallocated list goes
    /// through the out-of-line reserve, which costs more: measured).
    New,
    /// Cleared and extended in the buffer they have, growing only if they must.
    Kept,
}

impl Lists {
    /// Replaces the contents of `list` with `items`.
    #[inline(always)]
    pub(crate) fn refill<T>(self, list: &mut Vec<T>, items: impl Iterator<Item = T>) {
        match self {
            Lists::New => *list = items.collect(),
            Lists::Kept => {
                list.clear();
                list.extend(items);
            }
        }
    }

    /// Appends `items` to `list` (collected only into an empty one: what it holds stays).
    #[inline(always)]
    pub(crate) fn append<T>(self, list: &mut Vec<T>, items: impl Iterator<Item = T>) {
        match self {
            Lists::New if list.is_empty() => *list = items.collect(),
            _ => list.extend(items),
        }
    }
}

/// The whole state: the base [`Board`], the rule extension's own state, and the recent
/// events. It serializes (RNG included) for storage; never send it to players.
///
/// Not `Deserialize`: a stored state comes back only through `Game::restore`, checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", bound = "")]
pub struct YutState<R: Rules> {
    /// The base game. Nested, not flattened: serde's flatten cannot carry the RNG's
    /// 128-bit word position, and the board's `options` would clash with the key below.
    pub board: Board,
    /// The options, base and rule extension's.
    pub options: R::Options,
    /// The rule extension's state.
    pub rules: R::State,
    /// The most recent events, oldest first, at most [`LOG_LEN`](crate::LOG_LEN).
    pub log: EventLog<YutEvent<R::Event>>,
}

/// The stored form of [`YutState`], field for field, read only by `Game::restore` of
/// `Yut<R>`: private to the crate, so that JSON becomes a state only through the checks.
/// Named like the state, so that parse errors read the same.
#[derive(Deserialize)]
#[serde(rename = "YutState", rename_all = "camelCase", bound = "")]
pub(crate) struct StoredState<R: Rules> {
    #[serde(with = "StoredBoard")]
    board: Board,
    options: R::Options,
    rules: R::State,
    log: Vec<YutEvent<R::Event>>,
}

/// How a stored [`Board`] is read, field for field (serde's remote derive: the reading is
/// written for `Board` without `Board` itself being readable outside the crate). A field
/// added to `Board` must be added here; the compiler says so.
#[derive(Deserialize)]
#[serde(remote = "Board", rename = "Board", rename_all = "camelCase")]
struct StoredBoard {
    options: YutOptions,
    table: Table,
    side_of: Vec<SideId>,
    sides: Vec<Side>,
    turn_order: Vec<u8>,
    turn_index: u8,
    seat_conceded: Vec<bool>,
    phase: Phase,
    throws_owed: u8,
    pending: ThrowList,
    last_throw: Option<ThrowDraw>,
    stats: ThrowStats,
    concedes: u8,
    #[serde(skip)]
    seat_to_act: u8,
    #[serde(skip)]
    side_to_act: SideId,
}

impl<R: Rules> From<StoredState<R>> for YutState<R> {
    fn from(s: StoredState<R>) -> Self {
        let StoredState {
            mut board,
            options,
            rules,
            log,
        } = s;
        board.sync_turn();
        Self {
            board,
            options,
            rules,
            log: EventLog::from_stored(log),
        }
    }
}

#[cfg(test)]
mod tests {
    use game_core::{Game, GameRng};

    use crate::{Yut, YutOptions};

    /// A move updates the side's index for the stack it moves instead of rebuilding it:
    /// after every action of whole random games (2 to 4 sides, 2 to 5 pieces) the index
    /// is the one rebuilt from the pieces.
    #[test]
    fn the_index_follows_the_pieces_through_whole_games() {
        let game = Yut::standard();
        let mut events = Vec::new();
        for seed in 0..60u64 {
            let players: Vec<String> = (0..2 + seed % 3).map(|i| format!("p{i}")).collect();
            let options = YutOptions {
                pieces: 2 + (seed % 4) as u8,
                ..YutOptions::default()
            };
            let mut state = game.setup(&options, &players, seed, 0).unwrap();
            let mut rng = GameRng::from_seed(seed);
            while !state.board.is_over() {
                let seat = state.board.current_seat();
                let actions = game.legal_actions(&state, seat);
                let action = actions[rng.below(actions.len() as u32) as usize];
                game.apply_seat_into(&mut state, seat, &action, 0, &mut events)
                    .unwrap();
                for side in &state.board.sides {
                    let mut rebuilt = side.clone();
                    rebuilt.reindex();
                    assert_eq!(&rebuilt, side, "seed {seed}");
                }
            }
        }
    }
}
