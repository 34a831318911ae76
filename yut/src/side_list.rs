//! A board's sides: at most [`MAX_SIDES`], held in the board itself.

use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Side;
use crate::state::SideId;

/// The most sides a game has: four players in individual play (team play has two).
pub const MAX_SIDES: usize = 4;

// A side id is masked into the slots, not compared with a length: no bounds check.
const _: () = assert!(MAX_SIDES.is_power_of_two());

/// The sides of a board, in side order, read as a slice (`board.sides[i]`,
/// `board.sides.iter()`, `board.sides.len()`). They live in the board, not behind a pointer,
/// and the engine's own look-ups by a side id it keeps ([`SideList::of`]) need no bounds
/// check: every step makes several. Serialized as the JSON array of its sides; a stored one
/// of more than [`MAX_SIDES`] sides is refused as it is read.
///
/// ```
/// use game_core::Game;
/// let state = yut::Yut::standard()
///     .setup(&yut::YutOptions::default(), &["a".into(), "b".into(), "c".into()], 1, 0)
///     .unwrap();
/// let sides = &state.board.sides;
/// assert_eq!(sides.len(), 3);
/// assert_eq!(sides[2].members, [2]);
/// assert!(sides.iter().all(|side| side.at_home() == 4));
/// assert_eq!(serde_json::to_value(sides).unwrap().as_array().unwrap().len(), 3);
/// ```
pub struct SideList {
    /// The sides, then spare slots: sides of a bigger game before, kept for their member
    /// lists' buffers (nothing reads them).
    slots: [Side; MAX_SIDES],
    /// How many slots are sides (at most [`MAX_SIDES`]).
    len: u8,
}

impl SideList {
    /// No sides.
    ///
    /// ```
    /// assert!(yut::SideList::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self {
            slots: std::array::from_fn(|_| Side::new(Vec::new(), 0)),
            len: 0,
        }
    }

    /// The sides as a slice (what the list derefs to).
    ///
    /// ```
    /// assert!(yut::SideList::new().as_slice().is_empty());
    /// ```
    #[inline(always)]
    pub fn as_slice(&self) -> &[Side] {
        self
    }

    /// The side `id`, for ids the engine keeps valid (the side to act, a stack's owner):
    /// masked into the slots, so an id past the sides reads some slot rather than
    /// panicking.
    #[inline(always)]
    pub(crate) fn of(&self, id: SideId) -> &Side {
        &self.slots[usize::from(id) % MAX_SIDES]
    }

    /// [`SideList::of`], to change.
    #[inline(always)]
    pub(crate) fn of_mut(&mut self, id: SideId) -> &mut Side {
        &mut self.slots[usize::from(id) % MAX_SIDES]
    }

    /// Makes the list `count` sides (at most [`MAX_SIDES`]), side `s` made by `make` from
    /// `s` and the member list its slot held (emptied, its buffer kept).
    pub(crate) fn refill(&mut self, count: usize, mut make: impl FnMut(usize, Vec<u8>) -> Side) {
        let count = count.min(MAX_SIDES);
        for (s, slot) in self.slots[..count].iter_mut().enumerate() {
            let mut members = std::mem::take(&mut slot.members);
            members.clear();
            *slot = make(s, members);
        }
        self.len = count as u8;
    }

    /// The list of `sides`, or `None` if they are more than [`MAX_SIDES`].
    fn from_vec(sides: Vec<Side>) -> Option<Self> {
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
}

impl<'a> IntoIterator for &'a SideList {
    type Item = &'a Side;
    type IntoIter = std::slice::Iter<'a, Side>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut SideList {
    type Item = &'a mut Side;
    type IntoIter = std::slice::IterMut<'a, Side>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl Default for SideList {
    fn default() -> Self {
        Self::new()
    }
}

impl Deref for SideList {
    type Target = [Side];

    #[inline(always)]
    fn deref(&self) -> &[Side] {
        // `len` is at most MAX_SIDES wherever it is set.
        &self.slots[..usize::from(self.len).min(MAX_SIDES)]
    }
}

impl DerefMut for SideList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Side] {
        &mut self.slots[..usize::from(self.len).min(MAX_SIDES)]
    }
}

// By hand, for `clone_from`: each side copied into the slot's, its member list's buffer
// kept (a search copies a position into a used one at every node).
impl Clone for SideList {
    fn clone(&self) -> Self {
        let mut copy = Self::new();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        for (to, from) in self.slots.iter_mut().zip(source.iter()) {
            to.clone_from(from);
        }
        self.len = source.len;
    }
}

/// Lists are equal when their sides are: spare slots are left out.
impl PartialEq for SideList {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for SideList {}

impl std::fmt::Debug for SideList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for SideList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for SideList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let sides = Vec::<Side>::deserialize(d)?;
        let len = sides.len();
        Self::from_vec(sides)
            .ok_or_else(|| serde::de::Error::invalid_length(len, &"at most 4 sides (MAX_SIDES)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(n: usize) -> SideList {
        let mut list = SideList::new();
        list.refill(n, |s, mut members| {
            members.push(s as u8);
            Side::new(members, 4)
        });
        list
    }

    #[test]
    fn a_refilled_list_keeps_its_member_buffers() {
        let mut list = sides(4);
        let before = list.of(3).members.as_ptr();
        list.refill(2, |s, members| Side::new(members, s as u8));
        assert_eq!(list.len(), 2);
        list.refill(4, |_, members| Side::new(members, 1));
        assert_eq!(list.of(3).members.as_ptr(), before);
        assert!(list.iter().all(|side| side.members.is_empty()));
    }

    #[test]
    fn spare_slots_are_not_part_of_the_list() {
        let mut four = sides(4);
        four.refill(2, |s, mut members| {
            members.push(s as u8);
            Side::new(members, 4)
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

    #[test]
    fn an_id_past_the_sides_reads_a_slot_without_panicking() {
        let list = sides(2);
        for id in [2, 3, 4, 200, 255] {
            let _ = list.of(id).at_home();
        }
        assert_eq!(list.of(1).members, [1]);
    }
}
