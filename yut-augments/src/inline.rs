//! The layer's small lists, held inline so that play allocates nothing: a draft's
//! candidates ([`Candidates`]), a side's augments with their uses left ([`OwnedList`]) and
//! its 업고 달리기 marks ([`Marks`]). Each reads as a slice and is, on the wire and in saved
//! states, the JSON array a `Vec` would be.

use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use yut::InlineList;
use yut::graph::{NODE_COUNT, Node};

use crate::{Augment, Owned};

/// The most candidates a draft offers ([`Candidates::MAX`]).
const MAX_CANDIDATES: usize = 3;

/// The candidates of a draft: one to three augments, in the order offered (the first is
/// taken on timeout).
///
/// ```
/// use yut_augments::{Augment, Candidates};
/// let mut c = Candidates::new();
/// assert!(c.push(Augment::DoEcho) && c.push(Augment::MoBonus));
/// assert_eq!(c[..], [Augment::DoEcho, Augment::MoBonus]);
/// assert_eq!(serde_json::to_string(&c).unwrap(), r#"["do-echo","mo-bonus"]"#);
/// assert_eq!(serde_json::from_str::<Candidates>(r#"["do-echo","mo-bonus"]"#).unwrap(), c);
/// assert!(serde_json::from_str::<Candidates>(r#"["do-echo","mo-bonus","payback","yut-leap"]"#).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Candidates(InlineList<Augment, MAX_CANDIDATES>);

impl Candidates {
    /// The most candidates a draft offers.
    pub const MAX: usize = MAX_CANDIDATES;

    /// No candidates.
    pub const fn new() -> Self {
        Self(InlineList::empty(Augment::FirstStep))
    }

    /// The candidates `ids`, in order; `None` for more than [`Candidates::MAX`].
    ///
    /// ```
    /// use yut_augments::{Augment, Candidates};
    /// let c = Candidates::from_slice(&[Augment::Payback]).unwrap();
    /// assert_eq!(c[..], [Augment::Payback]);
    /// assert!(Candidates::from_slice(&[Augment::Payback; 4]).is_none());
    /// ```
    pub fn from_slice(ids: &[Augment]) -> Option<Self> {
        let mut out = Self::new();
        ids.iter().all(|&a| out.push(a)).then_some(out)
    }

    /// Adds `augment` last; `false`, adding nothing, when [`Candidates::MAX`] are there.
    pub fn push(&mut self, augment: Augment) -> bool {
        self.0.push(augment)
    }
}

impl Default for Candidates {
    fn default() -> Self {
        Self::new()
    }
}

impl Deref for Candidates {
    type Target = [Augment];

    #[inline]
    fn deref(&self) -> &[Augment] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Candidates {
    type Item = &'a Augment;
    type IntoIter = std::slice::Iter<'a, Augment>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'de> Deserialize<'de> for Candidates {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        InlineList::deserialize_capped(
            deserializer,
            Augment::FirstStep,
            "an array of augment ids",
            "a draft offers at most three candidates",
        )
        .map(Self)
    }
}

/// The augments a side owns, in the order it got them, with their uses left; besides, as
/// bit sets, which it owns and which it can still use, so that the hooks asked on every
/// throw and move answer without searching.
///
/// A side gets an augment once ([`OwnedList::grant`]), so the list holds at most all
/// eighteen; a stored list is read as it is (a repeated augment included, refused later by
/// the state check), up to eighteen entries.
///
/// ```
/// use yut_augments::{Augment, OwnedList};
/// let mut owned = OwnedList::new();
/// owned.grant(Augment::SecondLook);
/// assert!(owned.owns(Augment::SecondLook) && owned.can_use(Augment::SecondLook));
/// owned.spend(Augment::SecondLook);
/// owned.spend(Augment::SecondLook);
/// assert!(owned.owns(Augment::SecondLook) && !owned.can_use(Augment::SecondLook));
/// assert_eq!(owned[0].uses_left, Some(0));
/// assert_eq!(serde_json::to_string(&owned).unwrap(), r#"[{"id":"second-look","usesLeft":0}]"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnedList {
    /// The entries; the bit sets below follow from them.
    items: InlineList<Owned, { Augment::ALL.len() }>,
    /// Bit `a` set: augment `a` is in the list.
    owns: u32,
    /// Bit `a` set: the first entry of `a` has a use left (or is unlimited).
    usable: u32,
}

impl OwnedList {
    /// What fills the array past the entries.
    const UNUSED: Owned = Owned {
        id: Augment::FirstStep,
        uses_left: None,
    };

    /// An empty list.
    pub const fn new() -> Self {
        Self {
            items: InlineList::empty(Self::UNUSED),
            owns: 0,
            usable: 0,
        }
    }

    /// Appends `entry` as it is (the bit sets follow the first entry of an augment);
    /// `false` when the list is full.
    fn push(&mut self, entry: Owned) -> bool {
        if !self.items.push(entry) {
            return false;
        }
        if self.owns & entry.id.bit() == 0 {
            self.owns |= entry.id.bit();
            if entry.uses_left.is_none_or(|n| n > 0) {
                self.usable |= entry.id.bit();
            }
        }
        true
    }

    /// The first entry of `augment`, mutably.
    fn entry_mut(&mut self, augment: Augment) -> Option<&mut Owned> {
        if self.owns & augment.bit() == 0 {
            return None;
        }
        self.items
            .as_mut_slice()
            .iter_mut()
            .find(|o| o.id == augment)
    }

    /// The entry for `augment`, if it is owned.
    pub fn get(&self, augment: Augment) -> Option<&Owned> {
        if self.owns & augment.bit() == 0 {
            return None;
        }
        self.iter().find(|o| o.id == augment)
    }

    /// Whether `augment` is owned.
    #[inline]
    pub fn owns(&self, augment: Augment) -> bool {
        self.owns & augment.bit() != 0
    }

    /// Whether `augment` is owned with a use left (or unlimited).
    #[inline]
    pub fn can_use(&self, augment: Augment) -> bool {
        self.usable & augment.bit() != 0
    }

    /// The owned augments as a bit set (bit [`Augment::bit`] of each).
    #[inline]
    pub fn owned_bits(&self) -> u32 {
        self.owns
    }

    /// The augments owned with a use left (or unlimited), as a bit set.
    #[inline]
    pub fn usable_bits(&self) -> u32 {
        self.usable
    }

    /// Spends one use of `augment` (nothing for an unlimited one or one not owned).
    pub fn spend(&mut self, augment: Augment) {
        let Some(o) = self.entry_mut(augment) else {
            return;
        };
        if let Some(n) = &mut o.uses_left {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.usable &= !augment.bit();
            }
        }
    }

    /// Adds `augment` with all its uses (nothing if it is owned already).
    pub fn grant(&mut self, augment: Augment) {
        if !self.owns(augment) {
            self.push(Owned {
                id: augment,
                uses_left: augment.uses(),
            });
        }
    }

    /// Sets the uses left of `augment` (nothing if it is not owned), for tools and tests
    /// that script a position; the state check bounds them on restore.
    pub fn set_uses_left(&mut self, augment: Augment, uses_left: Option<u8>) {
        let Some(o) = self.entry_mut(augment) else {
            return;
        };
        o.uses_left = uses_left;
        if uses_left.is_none_or(|n| n > 0) {
            self.usable |= augment.bit();
        } else {
            self.usable &= !augment.bit();
        }
    }
}

impl Default for OwnedList {
    fn default() -> Self {
        Self::new()
    }
}

impl Deref for OwnedList {
    type Target = [Owned];

    #[inline]
    fn deref(&self) -> &[Owned] {
        &self.items
    }
}

impl<'a> IntoIterator for &'a OwnedList {
    type Item = &'a Owned;
    type IntoIter = std::slice::Iter<'a, Owned>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Serialize for OwnedList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for OwnedList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let items = InlineList::<Owned, { Augment::ALL.len() }>::deserialize_capped(
            deserializer,
            Self::UNUSED,
            "an array of owned augments",
            "a side owns at most eighteen augments",
        )?;
        let mut out = Self::new();
        for &o in items.iter() {
            out.push(o);
        }
        Ok(out)
    }
}

/// The bit of `node` in a set of marks: its own below [`SHARED_BIT`], that one for every
/// node from there up (none of which is on the board), so that a set is empty exactly when
/// its bits are.
#[inline]
fn node_bit(node: Node) -> u32 {
    1 << node.min(SHARED_BIT)
}

/// The bit that nodes from 31 up share (see [`node_bit`]).
const SHARED_BIT: u8 = 31;

/// 업고 달리기: the nodes of a side's marked stacks, in the order they were marked, with a
/// bit set of them. A stored list is read as it is (a repeated or unknown node included,
/// refused later by the state check), up to one entry per node.
///
/// ```
/// use yut_augments::Marks;
/// let mut marks = Marks::new();
/// assert!(marks.insert(7) && marks.insert(3) && !marks.insert(7));
/// assert_eq!(marks[..], [7, 3]);
/// assert!(marks.contains(3) && marks.remove(7) && !marks.contains(7));
/// assert_eq!(serde_json::to_string(&marks).unwrap(), "[3]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marks {
    /// The marks; the bit set below follows from them.
    nodes: InlineList<Node, NODE_COUNT>,
    /// Bit `n` set: node `n` is in the list.
    bits: u32,
}

impl Marks {
    /// No marks.
    pub const fn new() -> Self {
        Self {
            nodes: InlineList::empty(0),
            bits: 0,
        }
    }

    /// Appends `node` as it is, repeated or off the board alike (for tools and tests that
    /// script a position; the state check refuses both on restore); `false` when the list
    /// is full.
    pub fn push(&mut self, node: Node) -> bool {
        if !self.nodes.push(node) {
            return false;
        }
        self.bits |= node_bit(node);
        true
    }

    /// Whether `node` is marked.
    #[inline]
    pub fn contains(&self, node: Node) -> bool {
        let bit = self.bits & node_bit(node) != 0;
        if node < SHARED_BIT {
            bit
        } else {
            bit && self[..].contains(&node)
        }
    }

    /// Whether every mark is on a node of `held` (a side's held nodes as a bit set), from
    /// the bits alone: a mark from node 31 up never is.
    #[inline]
    pub(crate) fn all_held(&self, held: u32) -> bool {
        self.bits & !(held & !node_bit(SHARED_BIT)) == 0
    }

    /// Whether any node is marked, from the bits alone (asked after every move, where the
    /// slice's `is_empty` would also check its length against the capacity).
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.bits != 0
    }

    /// Marks `node` last, unless it is marked already (then `false`).
    pub fn insert(&mut self, node: Node) -> bool {
        !self.contains(node) && self.push(node)
    }

    /// Removes the first mark of `node`; `false` if there is none.
    pub fn remove(&mut self, node: Node) -> bool {
        let Some(k) = self.iter().position(|&m| m == node) else {
            return false;
        };
        self.nodes.remove(k);
        self.rebuild_bits();
        true
    }

    /// Keeps only the marks for which `keep` holds, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Node) -> bool) {
        self.nodes.retain(|&m| keep(m));
        self.rebuild_bits();
    }

    /// Removes every mark.
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    fn rebuild_bits(&mut self) {
        self.bits = self.iter().fold(0, |b, &m| b | node_bit(m));
    }
}

impl Default for Marks {
    fn default() -> Self {
        Self::new()
    }
}

impl Deref for Marks {
    type Target = [Node];

    #[inline]
    fn deref(&self) -> &[Node] {
        &self.nodes
    }
}

impl<'a> IntoIterator for &'a Marks {
    type Item = &'a Node;
    type IntoIter = std::slice::Iter<'a, Node>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Serialize for Marks {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.nodes.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Marks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let nodes = InlineList::<Node, NODE_COUNT>::deserialize_capped(
            deserializer,
            0,
            "an array of nodes",
            "more piggyback marks than nodes",
        )?;
        let mut out = Self { nodes, bits: 0 };
        out.rebuild_bits();
        Ok(out)
    }
}
