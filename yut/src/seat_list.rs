//! A board's seat lists: one entry per seat, held inline.

use serde::{Deserialize, Deserializer};

use crate::InlineList;

/// The most seats a game has: eight players in two teams.
pub const MAX_SEATS: usize = 8;

// A seat is masked into the slots, not compared with a length: no bounds check.
const _: () = assert!(MAX_SEATS.is_power_of_two());

/// One entry per seat, at most [`MAX_SEATS`], held inline: a board's [`side_of`],
/// [`turn_order`] and which seats conceded, so that a new game fills them in place and the turn's change reads them without a pointer or a bounds
/// check (a masked index). Reads as a slice; serialized as a JSON array, exactly like
/// a `Vec<T>`; a stored list of more than [`MAX_SEATS`] is refused as it is read.
///
/// [`side_of`]: crate::Board::side_of
/// [`turn_order`]: crate::Board::turn_order
///
/// ```
/// let mut order = yut::SeatList::<u8>::new();
/// assert!(order.push(1) && order.push(0));
/// assert_eq!(&order[..], &[1, 0]);
/// assert_eq!(order[1], 0);
/// assert_eq!(serde_json::to_string(&order).unwrap(), "[1,0]");
/// ```
pub type SeatList<T> = InlineList<T, MAX_SEATS>;

impl<T: Copy + Default> InlineList<T, MAX_SEATS> {
    /// No seats.
    pub fn new() -> Self {
        Self::empty(T::default())
    }

    /// Makes the list the items of `seats`, dropping what it held; returns `false`, with
    /// the first [`MAX_SEATS`] kept, when there are more.
    ///
    /// ```
    /// let mut conceded = yut::SeatList::new();
    /// assert!(conceded.refill(std::iter::repeat_n(false, 3)));
    /// assert_eq!(&conceded[..], &[false; 3]);
    /// ```
    #[inline]
    pub fn refill(&mut self, seats: impl IntoIterator<Item = T>) -> bool {
        self.clear();
        seats.into_iter().all(|item| self.push(item))
    }
}

impl<T: Copy + Default> Default for InlineList<T, MAX_SEATS> {
    fn default() -> Self {
        Self::new()
    }
}

/// The error of a stored seat list that is too long.
const TOO_MANY_SEATS: &str = "at most 8 seats (MAX_SEATS)";
const _: () = assert!(MAX_SEATS == 8, "TOO_MANY_SEATS names the number");

impl<'de> Deserialize<'de> for InlineList<u8, MAX_SEATS> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Self::deserialize_capped(d, 0, "an array of seats or sides", TOO_MANY_SEATS)
    }
}

impl<'de> Deserialize<'de> for InlineList<bool, MAX_SEATS> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Self::deserialize_capped(d, false, "an array of booleans", TOO_MANY_SEATS)
    }
}
