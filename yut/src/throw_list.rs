//! A list of throw results kept inline: the pending results and a `discarded` event's.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{MAX_PENDING, Throw};

/// Up to [`MAX_PENDING`] throw results stored inline, so that dropping the pending results
/// into a `discarded` event allocates nothing and the event needs no drop work. Reads as a
/// slice; serialized as a JSON array of results, exactly like a `Vec<Throw>`.
///
/// ```
/// use yut::{Throw, ThrowList};
/// let mut list = ThrowList::new();
/// assert!(list.push(Throw::Mo));
/// assert!(list.push(Throw::Do));
/// assert_eq!(&list[..], &[Throw::Mo, Throw::Do]);
/// assert_eq!(serde_json::to_string(&list).unwrap(), r#"["mo","do"]"#);
/// ```
#[derive(Clone, Copy)]
pub struct ThrowList {
    len: u8,
    items: [Throw; MAX_PENDING],
}

impl Default for ThrowList {
    fn default() -> Self {
        Self::new()
    }
}

impl ThrowList {
    /// An empty list.
    pub const fn new() -> Self {
        Self {
            len: 0,
            items: [Throw::Do; MAX_PENDING],
        }
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
        list.items
            .get_mut(..results.len())?
            .copy_from_slice(results);
        list.len = results.len() as u8;
        Some(list)
    }

    /// Appends `result`; returns `false`, adding nothing, when the list is full.
    #[inline]
    pub fn push(&mut self, result: Throw) -> bool {
        let Some(slot) = self.items.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = result;
        self.len += 1;
        true
    }

    /// Removes and returns the result at `index`, shifting the later ones down.
    ///
    /// ```
    /// use yut::{Throw, ThrowList};
    /// let mut list = ThrowList::from_slice(&[Throw::Do, Throw::Gae]).unwrap();
    /// assert_eq!(list.remove(0), Some(Throw::Do));
    /// assert_eq!(&list[..], &[Throw::Gae]);
    /// assert_eq!(list.remove(5), None);
    /// ```
    #[inline]
    pub fn remove(&mut self, index: usize) -> Option<Throw> {
        let len = usize::from(self.len);
        let result = *self.items[..len].get(index)?;
        // Element by element: a handful are pending, too few for a memmove call to pay.
        for i in index + 1..len {
            self.items[i - 1] = self.items[i];
        }
        self.len -= 1;
        Some(result)
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl std::ops::Deref for ThrowList {
    type Target = [Throw];

    #[inline]
    fn deref(&self) -> &[Throw] {
        &self.items[..usize::from(self.len)]
    }
}

// Equality and hashing look at the listed results only, not the unused slots.
impl PartialEq for ThrowList {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl Eq for ThrowList {}

impl std::fmt::Debug for ThrowList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for ThrowList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self[..].serialize(s)
    }
}

impl<'de> Deserialize<'de> for ThrowList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: Vec<Throw> = Vec::deserialize(d)?;
        Self::from_slice(&v)
            .ok_or_else(|| serde::de::Error::invalid_length(v.len(), &"at most 64 results"))
    }
}

impl JsonSchema for ThrowList {
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
