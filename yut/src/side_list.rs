//! A list of at most [`MAX_SIDES`] sides, held in place: a board's sides, and a rule
//! layer's part of each side.

use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Side;
use crate::state::SideId;

/// The most sides a game has: four players in individual play (team play has two).
pub const MAX_SIDES: usize = 4;

// The engine masks a side id it keeps valid into the slots (`SideList::slot`): no bounds
// check.
const _: () = assert!(MAX_SIDES.is_power_of_two());

/// At most [`MAX_SIDES`] sides in side order, read as a slice (`board.sides()[i]`,
/// `board.sides().iter()`, `board.sides().len()`): the board's own ([`Side`], the
/// default) or a rule layer's part of each side. They live in the list, not behind a
/// pointer, and a look-up by a side id ([`SideList::of`]) is one comparison. Serialized as
/// the JSON array of its sides; a stored one of more than [`MAX_SIDES`] is refused as it
/// is read.
///
/// ```
/// use game_core::{Game, GameExt};
/// let state = yut::Yut::standard()
///     .setup(&yut::YutOptions::default(), &["a".into(), "b".into(), "c".into()], 1, 0)
///     .unwrap();
/// let sides = state.board().sides();
/// assert_eq!(sides.len(), 3);
/// assert_eq!(sides[2].members, [2]);
/// assert!(sides.iter().all(|side| side.at_home() == 4));
/// assert_eq!(serde_json::to_value(sides).unwrap().as_array().unwrap().len(), 3);
/// ```
pub struct SideList<T = Side> {
    /// The sides, then spare slots: sides of a bigger game before, kept for the buffers
    /// they may own (nothing reads them).
    slots: [T; MAX_SIDES],
    /// How many slots are sides (at most [`MAX_SIDES`]).
    len: u8,
}

impl<T: Default> SideList<T> {
    /// No sides.
    ///
    /// ```
    /// assert!(yut::SideList::<yut::Side>::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self {
            slots: std::array::from_fn(|_| T::default()),
            len: 0,
        }
    }

    /// The list of `sides`, or `None` if they are more than [`MAX_SIDES`].
    ///
    /// ```
    /// use yut::{Side, SideList};
    /// let two = SideList::from_vec(vec![Side::new(vec![0], 4), Side::new(vec![1], 4)]).unwrap();
    /// assert_eq!(two[1].members, [1]);
    /// assert!(SideList::from_vec(vec![Side::default(); 5]).is_none());
    /// ```
    pub fn from_vec(sides: Vec<T>) -> Option<Self> {
        if sides.len() > MAX_SIDES {
            return None;
        }
        let mut list = Self::new();
        list.len = sides.len() as u8;
        for (slot, side) in list.slots.iter_mut().zip(sides) {
            *slot = side;
        }
        Some(list)
    }

    /// Removes the last side and returns it, or `None` if there is none.
    ///
    /// ```
    /// let mut list = yut::SideList::<u8>::new();
    /// list.push(7);
    /// assert_eq!(list.pop(), Some(7));
    /// assert_eq!(list.pop(), None);
    /// ```
    pub fn pop(&mut self) -> Option<T> {
        let last = usize::from(self.len).checked_sub(1)?;
        self.len = last as u8;
        self.slots.get_mut(last).map(std::mem::take)
    }
}

impl<T> SideList<T> {
    /// The sides as a slice (what the list derefs to).
    ///
    /// ```
    /// assert!(yut::SideList::<yut::Side>::new().as_slice().is_empty());
    /// ```
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        self
    }

    /// The side `id`, or `None` if `id` is past the sides: one comparison with the
    /// list's length (a slice's `get` clamps the length first, then compares). Rule
    /// layers read their per-side state with it on every decision.
    ///
    /// ```
    /// use yut::{Side, SideList};
    /// let two = SideList::from_vec(vec![Side::new(vec![0], 4), Side::new(vec![1], 4)]).unwrap();
    /// assert_eq!(two.of(1).map(|side| &side.members[..]), Some(&[1][..]));
    /// assert!(two.of(2).is_none());
    /// ```
    #[inline(always)]
    pub fn of(&self, id: SideId) -> Option<&T> {
        let i = usize::from(id);
        if i < usize::from(self.len) {
            Some(&self.slots[i % MAX_SIDES])
        } else {
            None
        }
    }

    /// [`SideList::of`], to change.
    ///
    /// ```
    /// use yut::{Side, SideList};
    /// let mut one = SideList::from_vec(vec![Side::new(vec![0], 4)]).unwrap();
    /// if let Some(side) = one.of_mut(0) {
    ///     side.turns = 3;
    /// }
    /// assert_eq!(one[0].turns, 3);
    /// assert!(one.of_mut(1).is_none());
    /// ```
    #[inline(always)]
    pub fn of_mut(&mut self, id: SideId) -> Option<&mut T> {
        let i = usize::from(id);
        if i < usize::from(self.len) {
            Some(&mut self.slots[i % MAX_SIDES])
        } else {
            None
        }
    }

    /// The side `id`, for an id the engine keeps valid (the side to act, a stack's owner,
    /// a move's side): masked into the slots with no comparison, so that an id past the
    /// sides reads some slot rather than panicking (debug builds assert the id is a
    /// side's). Every step of the engine makes several.
    #[inline(always)]
    pub(crate) fn slot(&self, id: SideId) -> &T {
        debug_assert!(usize::from(id) < self.len(), "side id {id} past the sides");
        &self.slots[usize::from(id) % MAX_SIDES]
    }

    /// [`SideList::slot`], to change.
    #[inline(always)]
    pub(crate) fn slot_mut(&mut self, id: SideId) -> &mut T {
        debug_assert!(usize::from(id) < self.len(), "side id {id} past the sides");
        &mut self.slots[usize::from(id) % MAX_SIDES]
    }

    /// Makes the list `count` sides (at most [`MAX_SIDES`]): `make` makes side `s` in its
    /// slot, which holds the slot's old value (whose buffers it may reuse).
    ///
    /// ```
    /// let mut list = yut::SideList::<u8>::new();
    /// list.refill(3, |s, side| *side = s as u8 * 10);
    /// assert_eq!(list[..], [0, 10, 20]);
    /// list.refill(1, |_, side| *side += 1);
    /// assert_eq!(list[..], [1]);
    /// ```
    pub fn refill(&mut self, count: usize, mut make: impl FnMut(usize, &mut T)) {
        let count = count.min(MAX_SIDES);
        for (s, slot) in self.slots[..count].iter_mut().enumerate() {
            make(s, slot);
        }
        self.len = count as u8;
    }

    /// Appends `side`; `false`, adding nothing, when [`MAX_SIDES`] are there.
    ///
    /// ```
    /// let mut list = yut::SideList::<u8>::new();
    /// assert!((0..4).all(|s| list.push(s)));
    /// assert!(!list.push(4));
    /// assert_eq!(list[..], [0, 1, 2, 3]);
    /// ```
    pub fn push(&mut self, side: T) -> bool {
        let Some(slot) = self.slots.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = side;
        self.len += 1;
        true
    }
}

impl<T: Default> Default for SideList<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Deref for SideList<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // `len` is at most MAX_SIDES wherever it is set.
        &self.slots[..usize::from(self.len).min(MAX_SIDES)]
    }
}

impl<T> DerefMut for SideList<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.slots[..usize::from(self.len).min(MAX_SIDES)]
    }
}

impl<'a, T> IntoIterator for &'a SideList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut SideList<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

// By hand, for `clone_from`: each side copied into its slot's, the buffers it owns kept (a
// search copies a position into a used one at every node).
impl<T: Clone + Default> Clone for SideList<T> {
    fn clone(&self) -> Self {
        // Each slot made once: the sides copied, the spares new (their old buffers are
        // not worth a copy).
        Self {
            slots: std::array::from_fn(|i| match self.get(i) {
                Some(side) => side.clone(),
                None => T::default(),
            }),
            len: self.len,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        for (to, from) in self.slots.iter_mut().zip(source.iter()) {
            to.clone_from(from);
        }
        self.len = source.len;
    }
}

/// Lists are equal when their sides are: spare slots are left out.
impl<T: PartialEq> PartialEq for SideList<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for SideList<T> {}

impl<T: std::fmt::Debug> std::fmt::Debug for SideList<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Serialize> Serialize for SideList<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for SideList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let sides = Vec::<T>::deserialize(d)?;
        let len = sides.len();
        Self::from_vec(sides)
            .ok_or_else(|| serde::de::Error::invalid_length(len, &"at most 4 sides (MAX_SIDES)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(n: usize) -> SideList {
        let mut list = SideList::<Side>::new();
        list.refill(n, |s, side| {
            let mut members = std::mem::take(&mut side.members);
            members.clear();
            members.push(s as u8);
            *side = Side::new(members, 4);
        });
        list
    }

    #[test]
    fn a_refilled_list_keeps_its_member_buffers() {
        let mut list = sides(4);
        let before = list.slot(3).members.as_ptr();
        list.refill(2, |_, side| side.turns = 1);
        assert_eq!(list.len(), 2);
        list.refill(4, |_, side| side.members.clear());
        assert_eq!(list.slot(3).members.as_ptr(), before);
        assert!(list.iter().all(|side| side.members.is_empty()));
    }

    #[test]
    fn spare_slots_are_not_part_of_the_list() {
        let mut four = sides(4);
        four.refill(2, |s, side| {
            let mut members = std::mem::take(&mut side.members);
            members.clear();
            members.push(s as u8);
            *side = Side::new(members, 4);
        });
        assert_eq!(four, sides(2));
        assert_eq!(format!("{four:?}"), format!("{:?}", sides(2)));
        assert_eq!(
            serde_json::to_string(&four).unwrap(),
            serde_json::to_string(&sides(2)).unwrap()
        );
        let mut copy = sides(4);
        copy.clone_from(&four);
        assert_eq!(copy, four);
        assert_eq!(copy.clone(), four);
    }

    #[test]
    fn a_stored_list_is_read_back_and_more_than_four_sides_are_refused() {
        for n in 0..=MAX_SIDES {
            let json = serde_json::to_string(&sides(n)).unwrap();
            assert_eq!(serde_json::from_str::<SideList>(&json).unwrap(), sides(n));
        }
        let one = serde_json::to_value(sides(1)).unwrap()[0].clone();
        let five = serde_json::Value::Array(vec![one; 5]);
        let error = serde_json::from_value::<SideList>(five).unwrap_err();
        assert!(error.to_string().contains("at most 4 sides"), "{error}");
    }

    /// Release builds read a slot; debug builds assert (the engine keeps ids valid).
    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "past the sides"))]
    fn an_id_past_the_sides_reads_a_slot_without_panicking() {
        let list = sides(2);
        for id in [2, 3, 4, 200, 255] {
            let _ = list.slot(id).at_home();
        }
        assert_eq!(list.slot(1).members, [1]);
    }

    /// The checked look-up: a side, or `None` past the sides (never a spare slot).
    #[test]
    fn of_finds_the_sides_and_nothing_past_them() {
        let mut list = sides(4);
        list.refill(2, |_, side| side.turns = 1);
        assert_eq!(list.of(1).map(|side| &side.members[..]), Some(&[1][..]));
        for id in [2, 3, 4, 200, 255] {
            assert!(list.of(id).is_none(), "{id}");
            assert!(list.of_mut(id).is_none(), "{id}");
        }
        if let Some(side) = list.of_mut(0) {
            side.turns = 9;
        }
        assert_eq!(list[0].turns, 9);
    }
}
