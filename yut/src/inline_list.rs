//! A short list of `Copy` items kept inline: the engine's and rule layers' small lists
//! (pending results, a draft's candidates, owned augments, marks), so that play allocates
//! nothing for them.

use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Up to `N` items stored inline (`N` at most 255). Reads as a slice; compares, prints and
/// serializes as the listed items only, exactly like a `Vec<T>` of them.
///
/// ```
/// use yut::InlineList;
/// let mut list = InlineList::<u8, 3>::empty(0);
/// assert!(list.push(7) && list.push(9));
/// assert_eq!(&list[..], &[7, 9]);
/// assert_eq!(list.remove(0), Some(7));
/// assert_eq!(serde_json::to_string(&list).unwrap(), "[9]");
/// ```
#[derive(Clone, Copy)]
pub struct InlineList<T, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy, const N: usize> InlineList<T, N> {
    /// An empty list; `fill` stands in the unused slots (never read).
    pub const fn empty(fill: T) -> Self {
        Self {
            len: 0,
            items: [fill; N],
        }
    }

    /// Appends `item`; returns `false`, adding nothing, when the list is full.
    #[inline]
    pub fn push(&mut self, item: T) -> bool {
        // The length read once: after the item's store the compiler would read it again.
        let len = self.len;
        let Some(slot) = self.items.get_mut(usize::from(len)) else {
            return false;
        };
        *slot = item;
        self.len = len + 1;
        true
    }

    /// Removes and returns the item at `index`, shifting the later ones down.
    #[inline]
    pub fn remove(&mut self, index: usize) -> Option<T> {
        let len = usize::from(self.len);
        let item = *self.items[..len].get(index)?;
        // Element by element: the lists are short, too short for a memmove call to pay.
        for i in index + 1..len {
            self.items[i - 1] = self.items[i];
        }
        self.len = (len - 1) as u8;
        Some(item)
    }

    /// Keeps only the items for which `keep` holds, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut kept = 0;
        for k in 0..usize::from(self.len) {
            let item = self.items[k];
            if keep(&item) {
                self.items[kept] = item;
                kept += 1;
            }
        }
        self.len = kept as u8;
    }

    /// Number of items: the count itself, without the slice's bounds check (the count
    /// never exceeds `N`).
    #[inline(always)]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the list is empty (as [`InlineList::len`], without making the slice).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The item of a list of exactly one, else `None`: `if let [item] = &list[..]` without
    /// the slice's bounds check.
    ///
    /// ```
    /// let mut list = yut::InlineList::<u8, 3>::empty(0);
    /// assert_eq!(list.single(), None);
    /// list.push(4);
    /// assert_eq!(list.single(), Some(&4));
    /// list.push(5);
    /// assert_eq!(list.single(), None);
    /// ```
    #[inline(always)]
    pub fn single(&self) -> Option<&T> {
        if self.len == 1 {
            self.items.first()
        } else {
            None
        }
    }

    /// The item in slot `i % N`, for an index the engine keeps below the length: read
    /// without a bounds check (`N` a power of two makes the remainder a mask). An index
    /// past the items reads what a slot holds (an old item or the fill), and never panics
    /// in a release build (debug builds assert the index is an item's). Crate-private: the
    /// engine alone keeps the indices valid; anyone else indexes the list, checked.
    #[inline(always)]
    pub(crate) fn slot(&self, i: usize) -> T {
        const { assert!(N.is_power_of_two(), "a masked slot needs N a power of two") };
        debug_assert!(i < self.len(), "slot {i} past the items");
        self.items[i % N]
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The items, mutably (their number stays).
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..usize::from(self.len)]
    }

    /// Reads a JSON array of at most `N` items, refusing a longer one with `too_many` (a
    /// sentence for the error); `fill` as in [`InlineList::empty`].
    pub fn deserialize_capped<'de, D>(
        deserializer: D,
        fill: T,
        expecting: &'static str,
        too_many: &'static str,
    ) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        struct Seq<T, const N: usize> {
            fill: T,
            expecting: &'static str,
            too_many: &'static str,
            item: PhantomData<T>,
        }

        impl<'de, T: Copy + Deserialize<'de>, const N: usize> Visitor<'de> for Seq<T, N> {
            type Value = InlineList<T, N>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.expecting)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = InlineList::empty(self.fill);
                while let Some(item) = seq.next_element::<T>()? {
                    if !out.push(item) {
                        return Err(serde::de::Error::custom(self.too_many));
                    }
                }
                Ok(out)
            }
        }

        deserializer.deserialize_seq(Seq::<T, N> {
            fill,
            expecting,
            too_many,
            item: PhantomData,
        })
    }
}

impl<T, const N: usize> Deref for InlineList<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a InlineList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

// Equality, hashing and printing look at the listed items only, not the unused slots.
impl<T: PartialEq, const N: usize> PartialEq for InlineList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl<T: Eq, const N: usize> Eq for InlineList<T, N> {}

impl<T: std::hash::Hash, const N: usize> std::hash::Hash for InlineList<T, N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self[..].hash(state);
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for InlineList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Serialize, const N: usize> Serialize for InlineList<T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}
