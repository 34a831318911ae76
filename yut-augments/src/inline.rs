//! The layer's small lists, held inline so that play allocates nothing: a draft's
//! candidates ([`Candidates`]), a side's augments with their uses left ([`OwnedList`]) and
//! its 업고 달리기 marks ([`Marks`]). Each reads as a slice and is, on the wire and in saved
//! states, the JSON array a `Vec` would be.

use std::fmt;
use std::ops::Deref;

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use yut::graph::{NODE_COUNT, Node};

use crate::{Augment, Owned};

/// Reads a JSON array of at most `N` items into `push`, refusing a longer one with
/// `too_many` (a sentence for the error).
fn read_seq<'de, D, T, const N: usize>(
    deserializer: D,
    expecting: &'static str,
    too_many: &'static str,
    mut push: impl FnMut(T),
) -> Result<(), D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Seq<'a, T, F: FnMut(T), const N: usize> {
        expecting: &'static str,
        too_many: &'static str,
        push: &'a mut F,
        item: std::marker::PhantomData<T>,
    }

    impl<'de, T: Deserialize<'de>, F: FnMut(T), const N: usize> Visitor<'de> for Seq<'_, T, F, N> {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.expecting)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut n = 0;
            while let Some(item) = seq.next_element::<T>()? {
                if n == N {
                    return Err(serde::de::Error::custom(self.too_many));
                }
                (self.push)(item);
                n += 1;
            }
            Ok(())
        }
    }

    deserializer.deserialize_seq(Seq::<T, _, N> {
        expecting,
        too_many,
        push: &mut push,
        item: std::marker::PhantomData,
    })
}

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
#[derive(Clone, Copy)]
pub struct Candidates {
    /// The first `len` are the candidates; the rest are `Augment::FirstStep`.
    ids: [Augment; Candidates::MAX],
    len: u8,
}

impl Candidates {
    /// The most candidates a draft offers.
    pub const MAX: usize = 3;

    /// No candidates.
    pub const fn new() -> Self {
        Self {
            ids: [Augment::FirstStep; Self::MAX],
            len: 0,
        }
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
        let Some(slot) = self.ids.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = augment;
        self.len += 1;
        true
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
        &self.ids[..usize::from(self.len)]
    }
}

impl<'a> IntoIterator for &'a Candidates {
    type Item = &'a Augment;
    type IntoIter = std::slice::Iter<'a, Augment>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Candidates {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl Eq for Candidates {}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Candidates {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Candidates {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut out = Self::new();
        read_seq::<D, Augment, { Candidates::MAX }>(
            deserializer,
            "an array of augment ids",
            "a draft offers at most three candidates",
            |a| {
                out.push(a);
            },
        )?;
        Ok(out)
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
#[derive(Clone, Copy)]
pub struct OwnedList {
    /// The first `len` are the entries; the rest are [`OwnedList::UNUSED`].
    items: [Owned; Augment::ALL.len()],
    len: u8,
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
            items: [Self::UNUSED; Augment::ALL.len()],
            len: 0,
            owns: 0,
            usable: 0,
        }
    }

    /// Appends `entry` as it is (the bit sets follow the first entry of an augment);
    /// `false` when the list is full.
    fn push(&mut self, entry: Owned) -> bool {
        let Some(slot) = self.items.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = entry;
        self.len += 1;
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
        self.items[..usize::from(self.len)]
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
        &self.items[..usize::from(self.len)]
    }
}

impl<'a> IntoIterator for &'a OwnedList {
    type Item = &'a Owned;
    type IntoIter = std::slice::Iter<'a, Owned>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for OwnedList {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl Eq for OwnedList {}

impl fmt::Debug for OwnedList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for OwnedList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for OwnedList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut out = Self::new();
        read_seq::<D, Owned, { Augment::ALL.len() }>(
            deserializer,
            "an array of owned augments",
            "a side owns at most eighteen augments",
            |o| {
                out.push(o);
            },
        )?;
        Ok(out)
    }
}

/// The bit of `node` in a held set (none off the board).
#[inline]
fn node_bit(node: Node) -> u32 {
    1u32.checked_shl(u32::from(node)).unwrap_or(0)
}

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
#[derive(Clone, Copy)]
pub struct Marks {
    /// The first `len` are the marks; the rest are 0.
    nodes: [Node; NODE_COUNT],
    len: u8,
    /// Bit `n` set: node `n` is in the list.
    bits: u32,
}

impl Marks {
    /// No marks.
    pub const fn new() -> Self {
        Self {
            nodes: [0; NODE_COUNT],
            len: 0,
            bits: 0,
        }
    }

    /// Appends `node` as it is, repeated or off the board alike (for tools and tests that
    /// script a position; the state check refuses both on restore); `false` when the list
    /// is full.
    pub fn push(&mut self, node: Node) -> bool {
        let Some(slot) = self.nodes.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = node;
        self.len += 1;
        self.bits |= node_bit(node);
        true
    }

    /// Whether `node` is marked.
    #[inline]
    pub fn contains(&self, node: Node) -> bool {
        match node_bit(node) {
            0 => self[..].contains(&node),
            bit => self.bits & bit != 0,
        }
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
        self.nodes.copy_within(k + 1..usize::from(self.len), k);
        self.len -= 1;
        self.nodes[usize::from(self.len)] = 0;
        self.rebuild_bits();
        true
    }

    /// Keeps only the marks for which `keep` holds, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Node) -> bool) {
        let mut kept = 0;
        for k in 0..usize::from(self.len) {
            let node = self.nodes[k];
            if keep(node) {
                self.nodes[kept] = node;
                kept += 1;
            }
        }
        self.nodes[kept..].fill(0);
        self.len = kept as u8;
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
        &self.nodes[..usize::from(self.len)]
    }
}

impl<'a> IntoIterator for &'a Marks {
    type Item = &'a Node;
    type IntoIter = std::slice::Iter<'a, Node>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Marks {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl Eq for Marks {}

impl fmt::Debug for Marks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Marks {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Marks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut out = Self::new();
        read_seq::<D, Node, NODE_COUNT>(
            deserializer,
            "an array of nodes",
            "more piggyback marks than nodes",
            |m| {
                out.push(m);
            },
        )?;
        Ok(out)
    }
}
