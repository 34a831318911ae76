//! A short list of nodes kept inline: a piece's trail and a move's path as they are read
//! and written one node after another (the engine keeps both as sets, [`crate::Trail`]
//! and [`crate::Path`]).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::graph::{NODE_COUNT, Node};

/// [`NodeList::CAP`], for the array length inside the type.
const CAP: usize = 23;

/// A list of up to [`NodeList::CAP`] nodes stored inline, so that listing them never
/// allocates: a piece's trail in the stored state and the views, a path as
/// [`Path::to_list`](crate::Path::to_list) gives it. Serialized as a JSON array of node
/// numbers.
///
/// ```
/// use yut::NodeList;
/// let mut trail = NodeList::new();
/// trail.push(1);
/// trail.push(2);
/// assert_eq!(trail.as_slice(), &[1, 2]);
/// assert_eq!(trail.last(), Some(2));
/// ```
#[derive(Clone, Copy)]
pub struct NodeList {
    len: u8,
    nodes: [Node; CAP],
}

impl Default for NodeList {
    fn default() -> Self {
        Self::new()
    }
}

impl NodeList {
    /// The most nodes a list holds. A trail is a forward path through the board's acyclic
    /// graph (a backdo removes its last node), so it never holds more than the 20 nodes of
    /// the longest one, the outer ring from 도 to 참먹이; a path holds the start and at most
    /// the 20 nodes of its start's route ([`crate::graph::ROUTE_LEN`]). Two to spare make
    /// the list 24 bytes, which copies in two moves.
    pub const CAP: usize = CAP;

    /// An empty list.
    pub const fn new() -> Self {
        Self {
            len: 0,
            nodes: [0; NodeList::CAP],
        }
    }

    /// A list of one node.
    ///
    /// ```
    /// assert_eq!(yut::NodeList::one(5).as_slice(), &[5]);
    /// ```
    pub const fn one(node: Node) -> Self {
        let mut list = Self::new();
        list.nodes[0] = node;
        list.len = 1;
        list
    }

    /// The nodes, oldest first.
    pub fn as_slice(&self) -> &[Node] {
        &self.nodes[..usize::from(self.len)]
    }

    /// Appends a node. A full list drops its oldest node instead of growing: only the
    /// newest nodes matter for stepping back, and the graph keeps real trails far shorter.
    #[inline]
    pub fn push(&mut self, node: Node) {
        if usize::from(self.len) == NodeList::CAP {
            self.nodes.copy_within(1.., 0);
            self.len -= 1;
        }
        self.nodes[usize::from(self.len)] = node;
        self.len += 1;
    }

    /// Appends `nodes` in order, as [`NodeList::push`] one by one would (a full list drops
    /// its oldest nodes).
    ///
    /// ```
    /// let mut list = yut::NodeList::one(1);
    /// list.extend_from_slice(&[2, 3]);
    /// assert_eq!(list.as_slice(), &[1, 2, 3]);
    /// ```
    #[inline]
    pub fn extend_from_slice(&mut self, nodes: &[Node]) {
        let len = usize::from(self.len);
        if let Some(room) = self.nodes.get_mut(len..len + nodes.len()) {
            room.copy_from_slice(nodes);
            self.len += nodes.len() as u8;
        } else {
            for &n in nodes {
                self.push(n);
            }
        }
    }

    /// Removes and returns the newest node.
    ///
    /// ```
    /// let mut t = yut::NodeList::one(3);
    /// assert_eq!(t.pop(), Some(3));
    /// assert!(t.is_empty());
    /// ```
    #[inline]
    pub fn pop(&mut self) -> Option<Node> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.nodes[usize::from(self.len)])
    }

    /// The newest node.
    #[inline]
    pub fn last(&self) -> Option<Node> {
        self.as_slice().last().copied()
    }

    /// The node before the newest one.
    #[inline]
    pub fn before_last(&self) -> Option<Node> {
        let s = self.as_slice();
        s.len().checked_sub(2).map(|i| s[i])
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

// Equality and hashing look at the listed nodes only: the slots past `len` keep whatever
// an earlier `pop` or `clear` left there.
impl PartialEq for NodeList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for NodeList {}

impl std::hash::Hash for NodeList {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl std::fmt::Debug for NodeList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for NodeList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for NodeList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: Vec<Node> = Vec::deserialize(d)?;
        if v.len() > NodeList::CAP {
            return Err(serde::de::Error::invalid_length(
                v.len(),
                &"at most 23 nodes",
            ));
        }
        let mut list = NodeList::new();
        for n in v {
            if usize::from(n) >= NODE_COUNT {
                return Err(serde::de::Error::custom(format!(
                    "node {n} is not on the board"
                )));
            }
            list.push(n);
        }
        Ok(list)
    }
}

impl JsonSchema for NodeList {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        // The published schemas' name, older than the type's: the wire keeps it.
        "Nodes".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": { "type": "integer", "minimum": 0, "maximum": 28 },
            "maxItems": NodeList::CAP,
        })
    }
}
