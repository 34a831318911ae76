//! The pending results and a `discarded` event's: an inline list of throw results.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

use crate::{InlineList, MAX_PENDING, Throw};

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

impl JsonSchema for InlineList<Throw, MAX_PENDING> {
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
