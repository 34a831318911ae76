//! The pending results and a `discarded` event's: inline lists of throw results.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{InlineList, MAX_PENDING, Throw};

/// Up to [`MAX_PENDING`] throw results stored inline: the pending results, which play
/// changes without allocating (a `discarded` event takes them packed, [`PackedThrows`]).
/// Reads as a slice; serialized as a JSON array of results, exactly like a `Vec<Throw>`.
///
/// ```
/// use yut::{Throw, ThrowList};
/// let mut list = ThrowList::new();
/// assert!(list.push(Throw::Mo));
/// assert!(list.push(Throw::Do));
/// assert_eq!(&list[..], &[Throw::Mo, Throw::Do]);
/// assert_eq!(serde_json::to_string(&list).unwrap(), r#"["mo","do"]"#);
/// ```
pub type ThrowList = InlineList<Throw, MAX_PENDING>;

impl InlineList<Throw, MAX_PENDING> {
    /// An empty list.
    pub const fn new() -> Self {
        Self::empty(Throw::Do)
    }

    /// The list of `results`, or `None` if there are more than [`MAX_PENDING`].
    ///
    /// ```
    /// use yut::{Throw, ThrowList};
    /// assert_eq!(ThrowList::from_slice(&[Throw::Gae]).unwrap().len(), 1);
    /// assert!(ThrowList::from_slice(&[Throw::Gae; 65]).is_none());
    /// ```
    pub fn from_slice(results: &[Throw]) -> Option<Self> {
        let mut list = Self::new();
        results.iter().all(|&r| list.push(r)).then_some(list)
    }
}

impl Default for InlineList<Throw, MAX_PENDING> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de> Deserialize<'de> for InlineList<Throw, MAX_PENDING> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Self::deserialize_capped(d, Throw::Do, "an array of results", "at most 64 results")
    }
}

/// Both lists are a `Vec<Throw>` on the wire, so their schema is its schema.
macro_rules! schema_of_results {
    ($list:ty) => {
        impl JsonSchema for $list {
            fn inline_schema() -> bool {
                <Vec<Throw>>::inline_schema()
            }

            fn schema_name() -> std::borrow::Cow<'static, str> {
                <Vec<Throw>>::schema_name()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                <Vec<Throw>>::json_schema(generator)
            }
        }
    };
}

schema_of_results!(InlineList<Throw, MAX_PENDING>);

/// Bytes of [`PackedThrows`]' bits: three a result, one byte to spare so that reading any
/// result's two bytes stays in the array.
const PACKED_BYTES: usize = (MAX_PENDING * 3).div_ceil(8) + 1;

/// Up to [`MAX_PENDING`] throw results packed three bits each: the results of a
/// `discarded` event. A [`ThrowList`] is 65 bytes; this is 26, which keeps every event of
/// the base game within 32 bytes, and every step copies its events twice (into the step's
/// events and the recent-event log). Reads by index or iterator; compares, prints and
/// serializes as the listed results, exactly like a `Vec<Throw>` of them.
///
/// ```
/// use yut::{PackedThrows, Throw, ThrowList};
/// let list = ThrowList::from_slice(&[Throw::Mo, Throw::Backdo]).unwrap();
/// let packed = PackedThrows::from(&list);
/// assert_eq!(packed.len(), 2);
/// assert_eq!(packed.get(1), Some(Throw::Backdo));
/// assert_eq!(packed.to_vec(), [Throw::Mo, Throw::Backdo]);
/// assert_eq!(serde_json::to_string(&packed).unwrap(), r#"["mo","backdo"]"#);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedThrows {
    len: u8,
    // Unused bits stay zero, so the derived equality and hash see the listed results only.
    bits: [u8; PACKED_BYTES],
}

impl PackedThrows {
    /// No results.
    pub const fn new() -> Self {
        Self {
            len: 0,
            bits: [0; PACKED_BYTES],
        }
    }

    /// How many results.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends `result`; returns `false`, adding nothing, when [`MAX_PENDING`] are held.
    ///
    /// ```
    /// let mut packed = yut::PackedThrows::new();
    /// assert!(packed.push(yut::Throw::Gae));
    /// assert_eq!(packed.get(0), Some(yut::Throw::Gae));
    /// ```
    pub fn push(&mut self, result: Throw) -> bool {
        let i = self.len();
        if i == MAX_PENDING {
            return false;
        }
        let (byte, shift) = ((3 * i) / 8, (3 * i) % 8);
        let code = (result as u16) << shift;
        self.bits[byte] |= code as u8;
        self.bits[byte + 1] |= (code >> 8) as u8;
        self.len += 1;
        true
    }

    /// The result at `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<Throw> {
        (index < self.len()).then(|| self.at(index))
    }

    /// The result at `index`, below the length.
    fn at(&self, index: usize) -> Throw {
        let (byte, shift) = ((3 * index) / 8, (3 * index) % 8);
        let word = u16::from(self.bits[byte]) | (u16::from(self.bits[byte + 1]) << 8);
        // Only `push` writes the bits, and only a result's own code.
        Throw::ALL
            .get(usize::from((word >> shift) & 7))
            .copied()
            .unwrap_or(Throw::Do)
    }

    /// The results in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Throw> + '_ {
        (0..self.len()).map(|i| self.at(i))
    }

    /// The results as a vector.
    pub fn to_vec(&self) -> Vec<Throw> {
        self.iter().collect()
    }
}

impl Default for PackedThrows {
    fn default() -> Self {
        Self::new()
    }
}

impl From<&ThrowList> for PackedThrows {
    #[inline]
    fn from(list: &ThrowList) -> Self {
        let mut packed = Self::new();
        for &result in list.iter() {
            packed.push(result);
        }
        packed
    }
}

impl fmt::Debug for PackedThrows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for PackedThrows {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for PackedThrows {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ThrowList::deserialize(d).map(|list| Self::from(&list))
    }
}

schema_of_results!(PackedThrows);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_packs_as_its_index_in_the_table_order() {
        for (i, t) in Throw::ALL.into_iter().enumerate() {
            assert_eq!(t as usize, i);
        }
    }

    #[test]
    fn packed_results_read_back_as_the_list_at_every_length_and_offset() {
        let mut list = ThrowList::new();
        for i in 0..MAX_PENDING {
            // Every result at every bit offset: 6 results against offsets cycling by 3.
            assert!(list.push(Throw::ALL[(i * 5 + i / 6) % 6]));
            let packed = PackedThrows::from(&list);
            assert_eq!(packed.len(), list.len());
            assert_eq!(packed.to_vec(), list.to_vec());
            assert_eq!(packed.get(list.len()), None);
            assert_eq!(
                serde_json::to_string(&packed).unwrap(),
                serde_json::to_string(&list).unwrap()
            );
            let back: PackedThrows =
                serde_json::from_str(&serde_json::to_string(&list).unwrap()).unwrap();
            assert_eq!(back, packed);
        }
        let mut full = PackedThrows::from(&list);
        assert!(!full.push(Throw::Do));
        assert_eq!(full.len(), MAX_PENDING);
        let too_many = serde_json::to_string(&vec![Throw::Gae; MAX_PENDING + 1]).unwrap();
        assert!(serde_json::from_str::<PackedThrows>(&too_many).is_err());
    }

    #[test]
    fn equal_results_are_equal_packs_whatever_was_pushed_before() {
        let a = PackedThrows::from(&ThrowList::from_slice(&[Throw::Mo, Throw::Do]).unwrap());
        let mut b = PackedThrows::new();
        assert!(b.push(Throw::Mo) && b.push(Throw::Do));
        assert_eq!(a, b);
        assert_ne!(
            a,
            PackedThrows::from(&ThrowList::from_slice(&[Throw::Mo]).unwrap())
        );
    }
}
