//! The game state: sides, pieces and their trails, the turn, the pending
//! results.

use game_core::{Millis, PlayerId, Presence, Table};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::graph::Node;
use crate::{
    EventLog, NodeList, Rules, SeatList, SideList, ThrowChance, ThrowDraw, ThrowList, Trail,
    YutEvent, YutOptions,
};

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
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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

/// Where a side's pieces can be: the board's nodes, then home, then the goal. A side keeps
/// the set of its pieces in each place ([`Side`]).
const PLACES: usize = 32;
/// The place of the waiting pieces.
const HOME: usize = crate::graph::NODE_COUNT;
/// The place of the finished pieces.
const DONE: usize = crate::graph::NODE_COUNT + 1;
const _: () = assert!(DONE < PLACES && MAX_PIECES <= 8);

/// The size of each set of piece ids: a table, since the baseline x86-64 target has no
/// popcount instruction (every byte, so that a look-up needs no mask or bounds check).
const SIZE: [u8; 256] = {
    let mut sizes = [0u8; 256];
    let mut set = 0;
    while set < 256 {
        sizes[set] = (set as u32).count_ones() as u8;
        set += 1;
    }
    sizes
};

/// The size of a set of piece ids.
#[inline(always)]
fn size(set: u8) -> u8 {
    SIZE[usize::from(set)]
}

/// The place of a node; a number that is no node of the board gets the last place, which
/// is never a node's, home's or the goal's and always empty, so that asking about it finds
/// nothing and never panics.
#[inline(always)]
fn place(node: Node) -> usize {
    let n = usize::from(node);
    if n < crate::graph::NODE_COUNT {
        n
    } else {
        PLACES - 1
    }
}

/// The place a move starts from.
#[inline(always)]
fn origin_place(from: crate::Origin) -> usize {
    match from {
        crate::Origin::Home(_) => HOME,
        crate::Origin::Node(n) => place(n),
    }
}

/// Where a captured stack ends ([`Side::move_stack`]; a stack's own move lands along its
/// walk, [`Side::move_walked`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Landing {
    /// On a node, with the stack's trail (the pieces of the side already there join it and
    /// take the trail).
    Node(Node, Trail),
    /// Home: waiting again.
    Home,
}

/// Where a side's move starts: the place of its start (a node or home) and the side's
/// pieces there, looked up once for the move's questions and its lift ([`Side::start`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Start {
    /// The place ([`origin_place`]): a node's own number, home's, or for a number that is
    /// no node the always empty last place (its set is empty, and nothing is lifted).
    place: usize,
    /// The side's pieces there, a set of piece ids.
    pub(crate) set: u8,
}

/// A side: one player in individual play, a team in team play.
///
/// Its pieces are kept by place rather than one by one: for every node, home and the goal,
/// the set of its pieces there (piece ids as bits, so a stack is one set), and the trail
/// of each stack once, at the stack's lowest piece. The questions every decision asks ("is
/// there a stack on this node, how big, with which trail?", "does a piece wait?") are one
/// look-up each, and a move changes two sets whatever the stack's size. The pieces one by
/// one, as the stored state and the views show them, are read with [`Side::pieces`].
pub struct Side {
    /// Seats of the members, in seat order.
    pub members: Vec<u8>,
    /// The side's pieces in each place: bit `i` of `at[p]` for piece `i` in place `p`.
    at: [u8; PLACES],
    /// The trail of each stack, kept at its lowest piece id (the other slots are unused
    /// and may hold old trails: nothing reads them, and equality ignores them).
    trails: [Trail; MAX_PIECES],
    /// How many pieces the side has.
    count: u8,
    /// Bit `n` set: the side has a stack on node `n`.
    held: u32,
    /// The nodes in `held`: the side's stacks (counted as the set changes, since the
    /// baseline x86-64 target has no popcount instruction).
    stacks: u8,
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

// By hand, for `clone_from`: the derived one makes a new member list and drops the old,
// and a search copies a position into a used one at every node.
impl Clone for Side {
    fn clone(&self) -> Self {
        Self {
            members: self.members.clone(),
            // Every other field is a plain value, copied.
            ..*self
        }
    }

    /// The member list copied into this side's, every other field copied.
    fn clone_from(&mut self, source: &Self) {
        let mut members = std::mem::take(&mut self.members);
        members.clone_from(&source.members);
        *self = Self { members, ..*source };
    }
}

/// The node's bit in a side's held set (none for a node off the board: a restored state
/// is checked, but the index must not panic before the check runs).
#[inline(always)]
fn bit(node: Node) -> u32 {
    // A look-up: no test of the number, and the same word for every one.
    const BITS: [u32; 256] = {
        let mut bits = [0u32; 256];
        let mut n = 0;
        while n < crate::graph::NODE_COUNT {
            bits[n] = 1 << n;
            n += 1;
        }
        bits
    };
    BITS[usize::from(node)]
}

/// [`bit`] and [`place`] of a node the caller knows to be on the board (where pieces
/// were found, where a walk ends): masked into range instead of tested, which only
/// differs for a number that is no node.
#[inline(always)]
fn board_node(node: Node) -> (u32, usize) {
    let n = node & (PLACES as u8 - 1);
    (1 << n, usize::from(n))
}

/// The lowest piece id of a non-empty set (the slot of the stack's trail).
#[inline(always)]
fn leader(set: u8) -> usize {
    (set.trailing_zeros() as usize).min(MAX_PIECES - 1)
}

/// A side of no members and no pieces: a [`SideList`]'s spare slot.
///
/// ```
/// assert_eq!(yut::Side::default().pieces().len(), 0);
/// ```
impl Default for Side {
    fn default() -> Self {
        Side::new(Vec::new(), 0)
    }
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
        let mut at = [0u8; PLACES];
        at[HOME] = ((1u16 << count) - 1) as u8;
        Self {
            members,
            at,
            trails: [Trail::EMPTY; MAX_PIECES],
            count,
            held: 0,
            stacks: 0,
            finished_rank: None,
            conceded: None,
            turns: 0,
            captures: 0,
            lost: 0,
        }
    }

    /// How many pieces the side has.
    ///
    /// ```
    /// assert_eq!(yut::Side::new(vec![0], 4).piece_count(), 4);
    /// ```
    #[inline]
    pub fn piece_count(&self) -> usize {
        usize::from(self.count)
    }

    /// Piece `id` (counting from 0), or `None` past the side's pieces.
    ///
    /// ```
    /// let side = yut::Side::new(vec![0], 2);
    /// assert_eq!(side.piece(1), Some(yut::Piece::HOME));
    /// assert_eq!(side.piece(2), None);
    /// ```
    pub fn piece(&self, id: usize) -> Option<Piece> {
        if id >= self.piece_count() {
            return None;
        }
        let mine = 1u8 << id;
        if self.at[DONE] & mine != 0 {
            return Some(Piece {
                status: PieceStatus::Done,
                node: None,
                trail: NodeList::new(),
            });
        }
        // On the board: among the held nodes (at most five); anywhere else it waits.
        let mut nodes = self.held;
        while nodes != 0 {
            let n = nodes.trailing_zeros() as Node;
            let set = self.at[place(n)];
            if set & mine != 0 {
                return Some(Piece {
                    status: PieceStatus::Board,
                    node: Some(n),
                    trail: self.trails[leader(set)].to_list(),
                });
            }
            nodes &= nodes - 1;
        }
        Some(Piece::HOME)
    }

    /// The side's pieces, in id order (built from the places: a stack's pieces share its
    /// trail).
    ///
    /// ```
    /// let side = yut::Side::new(vec![0], 3);
    /// assert_eq!(side.pieces().len(), 3);
    /// assert!(side.pieces().all(|p| p == yut::Piece::HOME));
    /// ```
    pub fn pieces(&self) -> impl ExactSizeIterator<Item = Piece> + Clone + '_ {
        (0..self.piece_count()).map(|id| self.piece(id).unwrap_or(Piece::HOME))
    }

    /// Replaces the pieces with `pieces` (at most [`MAX_PIECES`]), or says why they cannot
    /// be a side's: a piece on the board without a node of the board or off it with one, a
    /// trail that is no way forward ([`Trail::from_path`]), a piece off the board with a
    /// trail, or pieces of one stack with different trails. Nothing changes when they are
    /// refused.
    pub(crate) fn set_pieces(&mut self, pieces: &[Piece]) -> Result<(), String> {
        if pieces.len() > MAX_PIECES {
            return Err(format!("{} pieces, at most {MAX_PIECES}", pieces.len()));
        }
        let mut at = [0u8; PLACES];
        let mut trails = [Trail::EMPTY; MAX_PIECES];
        for (k, p) in pieces.iter().enumerate() {
            let slot = match (p.status, p.node) {
                (PieceStatus::Board, Some(n)) if usize::from(n) < crate::graph::NODE_COUNT => {
                    let n = usize::from(n);
                    // Kept as a set, which only a way forward gives back as it was.
                    let trail = Trail::from_path(p.trail.as_slice()).ok_or_else(|| {
                        format!(
                            "piece {k}: trail {:?} is not a way forward through the board",
                            p.trail.as_slice()
                        )
                    })?;
                    if at[n] == 0 {
                        trails[k] = trail;
                    } else if trails[leader(at[n])] != trail {
                        return Err(format!(
                            "piece {k}: its trail is not that of the stack it stands in"
                        ));
                    }
                    n
                }
                (PieceStatus::Board, _) => {
                    return Err(format!("piece {k}: on the board without a valid node"));
                }
                (_, Some(_)) => return Err(format!("piece {k}: off the board with a node")),
                (_, None) if !p.trail.is_empty() => {
                    return Err(format!("piece {k}: off the board with a trail"));
                }
                (PieceStatus::Home, None) => HOME,
                (PieceStatus::Done, None) => DONE,
            };
            at[slot] |= 1 << k;
        }
        let held = (0..crate::graph::NODE_COUNT)
            .filter(|&n| at[n] != 0)
            .fold(0u32, |held, n| held | 1 << n);
        self.at = at;
        self.trails = trails;
        self.count = pieces.len() as u8;
        self.held = held;
        self.stacks = held.count_ones() as u8;
        Ok(())
    }

    /// Changes the pieces one by one with `f` (for test scripts), then sets them as
    /// [`Side::set_pieces`] does; nothing changes if it refuses them.
    #[cfg(feature = "testing")]
    pub(crate) fn edit_pieces(&mut self, f: impl FnOnce(&mut [Piece])) -> Result<(), String> {
        let mut pieces = [Piece::HOME; MAX_PIECES];
        let count = self.piece_count();
        for (slot, p) in pieces.iter_mut().zip(self.pieces()) {
            *slot = p;
        }
        f(&mut pieces[..count]);
        self.set_pieces(&pieces[..count])
    }

    /// The trail of the side's stack on `node`, if it has one there.
    ///
    /// ```
    /// assert_eq!(yut::Side::new(vec![0], 4).trail_on(3), None);
    /// ```
    #[inline]
    pub fn trail_on(&self, node: Node) -> Option<Trail> {
        let set = self.at[place(node)];
        (set != 0 && self.holds(node)).then(|| self.trails[leader(set)])
    }

    /// The lowest id of the side's pieces on `node` (its stack's first piece in the
    /// pieces' order), or 8 if it has none there.
    #[inline]
    pub(crate) fn lowest_piece_on(&self, node: Node) -> u8 {
        self.at[place(node)].trailing_zeros() as u8
    }

    /// The side's pieces at `from` (a node, or home) as a set of piece ids (bit `i` for
    /// piece `i`).
    #[inline(always)]
    pub(crate) fn pieces_at(&self, from: crate::Origin) -> u8 {
        self.at[origin_place(from)]
    }

    /// [`Side::pieces_at`] with the place they were found in, for a move from `from`: its
    /// lift then takes them off that place without working it out again.
    #[inline(always)]
    pub(crate) fn start(&self, from: crate::Origin) -> Start {
        let place = origin_place(from);
        Start {
            place,
            set: self.at[place],
        }
    }

    /// The size and trail of the stack of the set `at` ([`Side::pieces_at`] of a node).
    #[inline(always)]
    pub(crate) fn stack_of(&self, at: u8) -> (u8, Trail) {
        (size(at), self.trails[leader(at)])
    }

    /// The size of the stack of the set `at` ([`Side::pieces_at`] of a node).
    #[inline(always)]
    pub(crate) fn stack_size(&self, at: u8) -> u8 {
        size(at)
    }

    /// The trail of the stack of the set `at` ([`Side::pieces_at`] of a node).
    #[inline(always)]
    pub(crate) fn trail_of(&self, at: u8) -> Trail {
        self.trails[leader(at)]
    }

    /// Moves up to `limit` of the pieces at `start` (the side's pieces at a node or home,
    /// from [`Side::start`]), the lowest ids first, to `to`; returns how many moved.
    /// Landing on a node where the side stands already, they join its stack, which takes
    /// the trail they bring.
    #[inline(always)]
    pub(crate) fn move_stack(&mut self, start: Start, limit: u8, to: Landing) -> u8 {
        let moving = self.lift(start, limit);
        if moving == 0 {
            return 0;
        }
        match to {
            Landing::Home => self.at[HOME] |= moving,
            Landing::Node(n, trail) => {
                let lead = self.land(moving, n);
                self.trails[lead] = trail;
            }
        }
        size(moving)
    }

    /// [`Side::move_stack`] along `walk` (the stack's own move): the stack's trail becomes
    /// its trail after the move ([`Walk::trail`](crate::movement::Walk::trail)), kept at
    /// the lowest id of the stack it lands in.
    #[inline(always)]
    pub(crate) fn move_walked(
        &mut self,
        start: Start,
        limit: u8,
        walk: &crate::movement::Walk,
    ) -> u8 {
        let moving = self.lift(start, limit);
        if moving == 0 {
            return 0;
        }
        match walk.to {
            crate::To::Node(n) => {
                // From a node the slot holds the stack's trail; from home it is unused
                // (its piece leads no stack), and the walk starts the trail afresh.
                let trail = walk.trail(self.trails[leader(moving)]);
                let lead = self.land(moving, n);
                self.trails[lead] = trail;
            }
            crate::To::Off(OffBoard::Goal) => self.at[DONE] |= moving,
            crate::To::Off(OffBoard::Home) => self.at[HOME] |= moving,
        }
        size(moving)
    }

    /// Takes up to `limit` of the pieces at `start` (the lowest ids first) off their
    /// place; returns the set taken.
    #[inline(always)]
    fn lift(&mut self, start: Start, limit: u8) -> u8 {
        let at = start.set;
        let mut moving = at;
        if size(at) > limit {
            // Home's waiting pieces, when fewer enter than wait: the lowest ids.
            let mut left = at;
            moving = 0;
            for _ in 0..limit {
                let lowest = left & left.wrapping_neg();
                moving |= lowest;
                left &= !lowest;
            }
        }
        if moving == 0 {
            return 0;
        }
        // A place of `origin_place`: in range, masked rather than checked.
        let place = start.place % PLACES;
        self.at[place] &= !moving;
        // Pieces were there: a node of the board, or home (whose place is no node's).
        if place < crate::graph::NODE_COUNT && self.at[place] == 0 {
            let bit = 1 << place;
            self.stacks -= u8::from(self.held & bit != 0);
            self.held &= !bit;
        }
        moving
    }

    /// Puts the set `moving` on node `n`, joining the side's stack there if any; returns
    /// the slot of the stack's trail (its lowest piece id).
    #[inline(always)]
    fn land(&mut self, moving: u8, n: Node) -> usize {
        // Where a walk ends or a rule sends a stack: a node of the board.
        let (bit, end) = board_node(n);
        if self.at[end] == 0 {
            self.stacks += u8::from(self.held & bit == 0);
            self.held |= bit;
        }
        self.at[end] |= moving;
        leader(self.at[end])
    }

    /// Sends every piece on the board home (a side that conceded).
    pub(crate) fn send_all_home(&mut self) {
        let mut nodes = self.held;
        while nodes != 0 {
            let n = nodes.trailing_zeros() as usize;
            self.at[HOME] |= self.at[n];
            self.at[n] = 0;
            nodes &= nodes - 1;
        }
        self.held = 0;
        self.stacks = 0;
    }

    /// Whether the side still plays (has not finished or conceded).
    #[inline]
    pub fn active(&self) -> bool {
        self.finished_rank.is_none() && self.conceded.is_none()
    }

    /// Pieces finished.
    #[inline]
    pub fn finished(&self) -> usize {
        usize::from(size(self.at[DONE]))
    }

    /// Pieces waiting at home.
    #[inline]
    pub fn at_home(&self) -> usize {
        usize::from(size(self.at[HOME]))
    }

    /// Whether all its pieces are finished.
    #[inline]
    pub fn all_done(&self) -> bool {
        size(self.at[DONE]) == self.count
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
    ///
    /// ```
    /// assert_eq!(yut::Side::new(vec![0], 4).stack_on(1), 0);
    /// ```
    #[inline]
    pub fn stack_on(&self, node: Node) -> usize {
        if !self.holds(node) {
            return 0;
        }
        usize::from(size(self.at[place(node)]))
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
            .map(|p| match p.status {
                PieceStatus::Done => 0,
                _ => crate::graph::remaining(p.node) - u32::from(reach),
            })
            .sum()
    }
}

/// Sides are equal when everything the game reads of them is: the trail slots of pieces
/// that lead no stack are left out.
impl PartialEq for Side {
    fn eq(&self, other: &Self) -> bool {
        self.members == other.members
            && self.at == other.at
            && self.count == other.count
            && self.held == other.held
            && self.stacks == other.stacks
            && self.finished_rank == other.finished_rank
            && self.conceded == other.conceded
            && self.turns == other.turns
            && self.captures == other.captures
            && self.lost == other.lost
            && self.pieces().eq(other.pieces())
    }
}

impl Eq for Side {}

/// As stored: the pieces one by one.
impl std::fmt::Debug for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Side")
            .field("members", &self.members)
            .field("pieces", &self.pieces().collect::<Vec<_>>())
            .field("finished_rank", &self.finished_rank)
            .field("conceded", &self.conceded)
            .field("turns", &self.turns)
            .field("captures", &self.captures)
            .field("lost", &self.lost)
            .finish()
    }
}

/// A side as stored: the same fields, the pieces as a list.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Side", rename_all = "camelCase", deny_unknown_fields)]
struct SideWire<M, P> {
    members: M,
    pieces: P,
    finished_rank: Option<u8>,
    conceded: Option<u8>,
    turns: u16,
    captures: u16,
    lost: u16,
}

/// The pieces of a side, serialized one by one without a list.
struct PiecesWire<'a>(&'a Side);

impl Serialize for PiecesWire<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.pieces())
    }
}

impl Serialize for Side {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SideWire {
            members: &self.members,
            pieces: PiecesWire(self),
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
        let mut side = Side::new(w.members, 0);
        side.set_pieces(&w.pieces)
            .map_err(serde::de::Error::custom)?;
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
#[non_exhaustive]
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
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
///
/// Nor does it show the table's RNG, which a hook could copy to learn the throws to come:
///
/// ```compile_fail
/// fn peek(board: &yut::Board) -> game_core::GameRng {
///     board.table.rng.clone()
/// }
/// ```
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    /// The base options.
    pub(crate) options: YutOptions,
    /// Seats, RNG, turn sequence, deadline and presence. Private to the crate: rule hooks
    /// read the board, and the RNG must reach them only through
    /// [`Cx::below`](crate::rules::Cx::below) (a copy of it would tell them every throw to
    /// come). What they may read of it has an accessor ([`Board::players`] and the next).
    pub(crate) table: Table,
    /// The side of each seat.
    pub(crate) side_of: SeatList<SideId>,
    /// The sides.
    pub(crate) sides: SideList,
    /// Seats in turn order.
    pub(crate) turn_order: SeatList<u8>,
    /// Position in `turn_order` of the seat to act. The engine keeps the seat to act
    /// ([`Board::current_seat`]) in step with it and `turn_order`; a board whose turn is
    /// changed by hand is out of step, and refused by the state checks.
    pub(crate) turn_index: u8,
    /// Seats that conceded (in team play a team goes on until all members have).
    pub(crate) seat_conceded: SeatList<bool>,
    /// What the game waits for.
    pub(crate) phase: Phase,
    /// Throws still owed this turn (윷, 모, captures, rule bonuses).
    pub(crate) throws_owed: u8,
    /// The results thrown and not yet used, in order.
    pub(crate) pending: ThrowList,
    /// The last throw, shown with its sticks.
    pub(crate) last_throw: Option<ThrowDraw>,
    /// Throw counts for the result.
    pub(crate) stats: ThrowStats,
    /// Concedes so far (orders conceded sides in the ranking).
    pub(crate) concedes: u8,
    /// The seat to act, `turn_order[turn_index]`, and its side: derived, not stored, and
    /// kept in step by the engine wherever the turn changes ([`Board::sync_turn`]), since
    /// every step asks for them several times and the two lookups behind them cost more
    /// than a field.
    #[serde(skip)]
    pub(crate) seat_to_act: u8,
    #[serde(skip)]
    pub(crate) side_to_act: SideId,
}

// By hand, for `clone_from`: the derived one makes new lists (the table's ids, each
// side's members) and drops the old, and a search copies a position into a used one at
// every node.
impl Clone for Board {
    fn clone(&self) -> Self {
        Self {
            options: self.options.clone(),
            table: self.table.clone(),
            side_of: self.side_of,
            sides: self.sides.clone(),
            turn_order: self.turn_order,
            turn_index: self.turn_index,
            seat_conceded: self.seat_conceded,
            phase: self.phase,
            throws_owed: self.throws_owed,
            pending: self.pending,
            last_throw: self.last_throw,
            stats: self.stats.clone(),
            concedes: self.concedes,
            seat_to_act: self.seat_to_act,
            side_to_act: self.side_to_act,
        }
    }

    /// Field by field, keeping every list's buffer.
    fn clone_from(&mut self, source: &Self) {
        // Every field by name: one added to the board must be copied here too.
        let Self {
            options,
            table,
            side_of,
            sides,
            turn_order,
            turn_index,
            seat_conceded,
            phase,
            throws_owed,
            pending,
            last_throw,
            stats,
            concedes,
            seat_to_act,
            side_to_act,
        } = source;
        self.options.clone_from(options);
        self.table.clone_from(table);
        self.side_of = *side_of;
        self.sides.clone_from(sides);
        self.turn_order = *turn_order;
        self.turn_index = *turn_index;
        self.seat_conceded = *seat_conceded;
        self.phase = *phase;
        self.throws_owed = *throws_owed;
        self.pending = *pending;
        self.last_throw = *last_throw;
        self.stats.clone_from(stats);
        self.concedes = *concedes;
        self.seat_to_act = *seat_to_act;
        self.side_to_act = *side_to_act;
    }
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

    /// The base options the game was set up with.
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().options(), &yut::YutOptions::default());
    /// ```
    #[inline(always)]
    pub fn options(&self) -> &YutOptions {
        &self.options
    }

    /// The sides, in side order (a side id indexes it).
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into(), "c".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().sides().len(), 3);
    /// assert_eq!(state.board().sides()[2].members, [2]);
    /// ```
    #[inline(always)]
    pub fn sides(&self) -> &SideList {
        &self.sides
    }

    /// The side of each seat, by seat.
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into(), "c".into(), "d".into()];
    /// let options = yut::YutOptions { mode: yut::Mode::Team, ..Default::default() };
    /// let state = yut::Yut::standard().setup(&options, &players, 1, 0).unwrap();
    /// assert_eq!(state.board().side_of()[..], [0, 1, 0, 1]);
    /// ```
    #[inline(always)]
    pub fn side_of(&self) -> &SeatList<SideId> {
        &self.side_of
    }

    /// The seats in turn order; the seat to act is [`Board::current_seat`].
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().turn_order()[0], state.board().current_seat() as u8);
    /// ```
    #[inline(always)]
    pub fn turn_order(&self) -> &SeatList<u8> {
        &self.turn_order
    }

    /// What the game waits for.
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().phase(), yut::Phase::Throw);
    /// ```
    #[inline(always)]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Throws still owed this turn (윷, 모, captures, rule bonuses).
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().throws_owed(), 1); // the turn's first throw
    /// ```
    #[inline(always)]
    pub fn throws_owed(&self) -> u8 {
        self.throws_owed
    }

    /// The results thrown and not yet used, in order.
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert!(state.board().pending().is_empty());
    /// ```
    #[inline(always)]
    pub fn pending(&self) -> &ThrowList {
        &self.pending
    }

    /// The last throw, with its sticks; `None` before the first.
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().last_throw(), None);
    /// ```
    #[inline(always)]
    pub fn last_throw(&self) -> Option<ThrowDraw> {
        self.last_throw
    }

    /// How often each result was thrown so far (the outcome reports it).
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().stats().mo, 0);
    /// ```
    #[inline(always)]
    pub fn stats(&self) -> &ThrowStats {
        &self.stats
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
        let bit = bit(node);
        // Two sides in most games: both tested at once, without the loop.
        if let [a, b] = &*self.sides {
            return match (a.held & bit != 0, b.held & bit != 0) {
                (true, _) => Some(0),
                (false, true) => Some(1),
                (false, false) => None,
            };
        }
        self.sides
            .iter()
            .position(|s| s.held & bit != 0)
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

    /// The players' ids, by seat.
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().players(), &players);
    /// ```
    #[inline]
    pub fn players(&self) -> &[PlayerId] {
        self.table.players()
    }

    /// The number of the current decision: it changes whenever the game asks anyone for a
    /// new decision.
    #[inline]
    pub fn turn_seq(&self) -> u64 {
        self.table.turn_seq()
    }

    /// When the current decision times out (host milliseconds), if it has a deadline.
    #[inline]
    pub fn deadline(&self) -> Option<Millis> {
        self.table.deadline()
    }

    /// Each seat's presence (connected, away, timeouts in a row), by seat.
    #[inline]
    pub fn presence(&self) -> &[Presence] {
        self.table.presence()
    }
}
/// The whole state: the base [`Board`], the rule extension's own state, and the recent
/// events. It serializes (RNG included) for storage; never send it to players.
///
/// Not `Deserialize`: a stored state comes back only through `Game::restore`, checked.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", bound = "")]
pub struct YutState<R: Rules> {
    /// The base game. Nested, not flattened: serde's flatten cannot carry the RNG's
    /// 128-bit word position, and the board's `options` would clash with the key below.
    pub(crate) board: Board,
    /// The options, base and rule extension's.
    pub(crate) options: R::Options,
    /// The rule extension's state.
    pub(crate) rules: R::State,
    /// The most recent events, oldest first, at most [`LOG_LEN`](crate::LOG_LEN).
    pub(crate) log: EventLog<YutEvent<R::Event>>,
}

impl<R: Rules> YutState<R> {
    /// The base game: the board, its sides and pieces, the turn and the phase.
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.board().phase(), yut::Phase::Throw);
    /// ```
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The options, base and rule extension's.
    ///
    /// ```
    /// use game_core::Game;
    /// let players = ["a".into(), "b".into()];
    /// let state = yut::Yut::standard().setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(state.options(), &yut::YutOptions::default());
    /// ```
    #[inline(always)]
    pub fn options(&self) -> &R::Options {
        &self.options
    }

    /// The rule extension's state (`()` for the standard rules).
    #[inline(always)]
    pub fn rules(&self) -> &R::State {
        &self.rules
    }

    /// The rule extension's state, to change by hand: test and analysis support only (the
    /// `edit-rules` feature, which `testing` includes), for a tool that gives a side
    /// something no move gives it (the balance tool grants an augment). Nothing checks
    /// what is written; the next `Game::restore` of the stored state would.
    #[cfg(feature = "edit-rules")]
    pub fn rules_mut(&mut self) -> &mut R::State {
        &mut self.rules
    }

    /// The most recent events, oldest first, at most [`LOG_LEN`](crate::LOG_LEN).
    ///
    /// ```
    /// use game_core::{Game, GameExt};
    /// let game = yut::Yut::standard();
    /// let players = ["a".into(), "b".into()];
    /// let mut state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// let seat = state.board().current_seat();
    /// game.apply(&mut state, seat, &yut::YutAction::Throw, 0).unwrap();
    /// assert!(!state.log().is_empty());
    /// ```
    #[inline(always)]
    pub fn log(&self) -> &EventLog<YutEvent<R::Event>> {
        &self.log
    }
}

// By hand, for `clone_from`: the derived one makes a whole new copy and drops the old, and
// a search copies a position into a used one at every node (`clone_from` keeps every
// buffer: the board's lists, the rules' state as its own `clone_from` keeps it, the log's
// slots).
/// The game's table: seats, RNG, turn sequence, deadline and presence, for the host that
/// keeps the state (rule hooks see the [`Board`] alone, which does not show it).
impl<R: Rules> game_core::GameState for YutState<R> {
    #[inline]
    fn table(&self) -> &Table {
        &self.board.table
    }

    #[inline]
    fn table_mut(&mut self, _: game_core::TableKey) -> &mut Table {
        &mut self.board.table
    }
}

impl<R: Rules> Clone for YutState<R> {
    fn clone(&self) -> Self {
        Self {
            board: self.board.clone(),
            options: self.options.clone(),
            rules: self.rules.clone(),
            log: self.log.clone(),
        }
    }

    /// Field by field, into this state's buffers.
    ///
    /// ```
    /// use game_core::{Game, GameExt};
    /// let game = yut::Yut::standard();
    /// let players = ["a".into(), "b".into()];
    /// let a = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// let mut b = game.setup(&yut::YutOptions::default(), &players, 2, 0).unwrap();
    /// b.clone_from(&a);
    /// assert_eq!(b, a);
    /// ```
    fn clone_from(&mut self, source: &Self) {
        let Self {
            board,
            options,
            rules,
            log,
        } = source;
        self.board.clone_from(board);
        self.options.clone_from(options);
        self.rules.clone_from(rules);
        self.log.clone_from(log);
    }
}

/// The stored form of [`YutState`], field for field, read only by `Game::restore` of
/// `Yut<R>`: private to the crate, so that JSON becomes a state only through the checks.
/// Named like the state, so that parse errors read the same.
#[derive(Deserialize)]
#[serde(
    rename = "YutState",
    rename_all = "camelCase",
    deny_unknown_fields,
    bound = ""
)]
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
#[serde(
    remote = "Board",
    rename = "Board",
    rename_all = "camelCase",
    deny_unknown_fields
)]
struct StoredBoard {
    options: YutOptions,
    table: Table,
    side_of: SeatList<SideId>,
    sides: SideList,
    turn_order: SeatList<u8>,
    turn_index: u8,
    seat_conceded: SeatList<bool>,
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
    use game_core::GameExt;
    use game_core::{Game, GameRng};

    use crate::{Yut, YutOptions};

    use super::{DONE, HOME, PLACES, Side};

    /// What a side's places must keep, whatever moved: every piece in exactly one place,
    /// the held nodes and their count those of the places that are not empty, and the
    /// same side when built again from its pieces one by one.
    pub(crate) fn assert_consistent(side: &Side) {
        let mut seen = 0u8;
        for set in side.at {
            assert_eq!(seen & set, 0, "a piece in two places: {side:?}");
            seen |= set;
        }
        assert_eq!(u32::from(seen), (1u32 << side.count) - 1, "{side:?}");
        let held = (0..PLACES)
            .filter(|&p| p != HOME && p != DONE && side.at[p] != 0)
            .fold(0u32, |held, n| held | 1 << n);
        assert_eq!(side.held, held);
        assert_eq!(u32::from(side.stacks), held.count_ones());
        let mut rebuilt = side.clone();
        rebuilt
            .set_pieces(&side.pieces().collect::<Vec<_>>())
            .unwrap();
        assert_eq!(&rebuilt, side);
    }

    /// A move changes the places of the stack it moves and nothing else: after every
    /// action of whole random games (2 to 4 sides, 2 to 5 pieces) every side is
    /// consistent.
    #[test]
    fn the_places_follow_the_pieces_through_whole_games() {
        let game = Yut::standard();
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
                game.apply(&mut state, seat, &action, 0).unwrap();
                for side in &state.board.sides {
                    assert_consistent(side);
                }
            }
        }
    }

    /// A number that is no node of the board (home's and the goal's places among them)
    /// finds nothing, with pieces waiting and finished.
    #[test]
    fn a_number_off_the_board_finds_nothing() {
        let mut side = Side::new(vec![0], 4);
        let done = super::Piece {
            status: super::PieceStatus::Done,
            node: None,
            trail: crate::NodeList::new(),
        };
        side.set_pieces(&[super::Piece::HOME, done, super::Piece::HOME, done])
            .unwrap();
        for node in [29, 30, 31, 32, 200, u8::MAX] {
            assert_eq!(side.stack_on(node), 0, "{node}");
            assert_eq!(side.trail_on(node), None, "{node}");
            assert!(!side.holds(node), "{node}");
            assert_eq!(side.pieces_at(crate::Origin::Node(node)), 0, "{node}");
        }
        assert_eq!(side.pieces_at(crate::Origin::HOME), 0b0101);
    }

    /// Pieces a side cannot hold are refused as it is read, with the reason.
    #[test]
    fn a_stored_side_holds_only_what_a_side_can() {
        let side = |pieces: &str| {
            let json = format!(
                r#"{{"members":[0],"pieces":{pieces},"finishedRank":null,"conceded":null,"turns":0,"captures":0,"lost":0}}"#
            );
            serde_json::from_str::<Side>(&json).map_err(|e| e.to_string())
        };
        let home = r#"{"status":"home","node":null,"trail":[]}"#;
        let on = |node: u8, trail: &str| {
            format!(r#"{{"status":"board","node":{node},"trail":{trail}}}"#)
        };
        let ok = side(&format!(
            "[{home},{},{}]",
            on(3, "[1,2,3]"),
            on(3, "[1,2,3]")
        ))
        .unwrap();
        assert_eq!(ok.stack_on(3), 2);
        assert_eq!(ok.at_home(), 1);
        assert_eq!(ok.trail_on(3).unwrap().to_list().as_slice(), &[1, 2, 3]);
        for (pieces, why) in [
            (
                format!("[{},{}]", on(3, "[1,2,3]"), on(3, "[3]")),
                "not that of the stack",
            ),
            (format!("[{}]", on(29, "[3]")), "without a valid node"),
            (
                r#"[{"status":"board","node":null,"trail":[]}]"#.to_string(),
                "without a valid node",
            ),
            (
                r#"[{"status":"done","node":4,"trail":[]}]"#.to_string(),
                "off the board with a node",
            ),
            (
                r#"[{"status":"home","node":null,"trail":[1]}]"#.to_string(),
                "off the board with a trail",
            ),
            (
                format!("[{home},{home},{home},{home},{home},{home}]"),
                "at most 5",
            ),
        ] {
            let err = side(&pieces).unwrap_err();
            assert!(err.contains(why), "{pieces}: {err}");
        }
    }
}
