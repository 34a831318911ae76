//! A move's path (its start on the board and every node stepped on) as the set of its
//! nodes and a direction.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::NodeList;
use crate::graph::{self, BIT, Node};

/// The bit that marks a backdo's path: its nodes go against the board's order.
const BACK: u32 = 1 << 31;

/// The nodes a move goes over, in the order it goes: where it starts (if on the board),
/// then every node stepped on. A forward move's nodes come in the order every forward step
/// follows (as a [`Trail`](crate::Trail)'s do) and a backdo's go the other way, so the
/// set of them and the direction give the list back: a path is one word, made with two
/// look-ups. Serialized as the JSON array of its nodes.
///
/// ```
/// use yut::{Origin, YutOptions, movement::forward};
/// let walk = forward(&YutOptions::default(), Origin::Node(5), 3);
/// assert_eq!(walk.path.to_list().as_slice(), &[5, 20, 21, 22]);
/// assert_eq!(serde_json::to_string(&walk.path).unwrap(), "[5,20,21,22]");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Path(u32);

impl Path {
    /// A path of one node (a move that steps on nothing, such as a backdo off the board).
    ///
    /// ```
    /// assert_eq!(yut::Path::one(1).to_list().as_slice(), &[1]);
    /// ```
    #[inline]
    pub const fn one(node: Node) -> Self {
        Path(BIT[node as usize])
    }

    /// The path of a forward walk from `start` (the stack's node, or 도 for a piece
    /// entering) along its route to `to` (참먹이 for a walk that finishes past it).
    #[inline(always)]
    pub(crate) const fn forward(start: Node, to: Node) -> Self {
        Path(graph::way(start, to))
    }

    /// The path of a move of one step from `from` to `to` that follows no route (a
    /// backdo), whichever way it goes.
    #[inline(always)]
    pub(crate) fn step(from: Node, to: Node) -> Self {
        let (from, to) = (BIT[usize::from(from)], BIT[usize::from(to)]);
        Path(from | to | if to < from { BACK } else { 0 })
    }

    /// The path of `nodes`, in order, or `None` if no move goes over them: a node off the
    /// board, or nodes that neither follow the order of forward steps (each later than
    /// the one before) nor are two going back.
    ///
    /// ```
    /// use yut::Path;
    /// assert!(Path::from_nodes(&[1, 2, 3]).is_some());
    /// assert_eq!(Path::from_nodes(&[3, 2]).unwrap().to_list().as_slice(), &[3, 2]);
    /// assert_eq!(Path::from_nodes(&[3, 2, 1]), None);
    /// assert_eq!(Path::from_nodes(&[3, 3]), None);
    /// ```
    pub fn from_nodes(nodes: &[Node]) -> Option<Self> {
        if let &[from, to] = nodes
            && BIT[usize::from(to)] < BIT[usize::from(from)]
        {
            return (BIT[usize::from(to)] != 0).then(|| Path::step(from, to));
        }
        graph::set_of(nodes).map(Path)
    }

    /// The nodes, in the order the move goes over them.
    ///
    /// ```
    /// assert_eq!(yut::Path::one(7).to_list().as_slice(), &[7]);
    /// ```
    pub fn to_list(self) -> NodeList {
        let list = graph::nodes_of(self.0 & !BACK);
        // A backdo's two nodes, against the order.
        match (self.0 & BACK != 0, list.as_slice()) {
            (true, &[to, from]) => {
                let mut back = NodeList::one(from);
                back.push(to);
                back
            }
            _ => list,
        }
    }

    /// How many nodes it goes over.
    ///
    /// ```
    /// assert_eq!(yut::Path::from_nodes(&[22, 27, 28]).unwrap().len(), 3);
    /// ```
    #[inline]
    pub fn len(self) -> usize {
        (self.0 & !BACK).count_ones() as usize
    }

    /// Whether it has no node (no move makes one).
    ///
    /// ```
    /// assert!(yut::Path::default().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 & !BACK == 0
    }
}

impl std::fmt::Debug for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_list().fmt(f)
    }
}

impl Serialize for Path {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_list().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Path {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let nodes = NodeList::deserialize(d)?;
        Path::from_nodes(nodes.as_slice()).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{:?} is no move's path through the board",
                nodes.as_slice()
            ))
        })
    }
}

/// The schema of the node list it is written as (the same definition, `Nodes`).
impl JsonSchema for Path {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        NodeList::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        NodeList::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        NodeList::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{self, CHAMMEOGI, NODE_COUNT};

    #[test]
    fn a_walk_s_nodes_and_its_path_give_each_other_back() {
        for start in 0..NODE_COUNT as Node {
            let mut nodes = vec![start];
            assert_eq!(Path::forward(start, start), Path::one(start));
            for &n in graph::route(start)
                .iter()
                .take_while(|_| start != CHAMMEOGI)
            {
                nodes.push(n);
                let path = Path::forward(start, n);
                assert_eq!(path.to_list().as_slice(), &nodes[..], "{start} -> {n}");
                assert_eq!(Path::from_nodes(&nodes), Some(path));
                assert_eq!(path.len(), nodes.len());
                if n == CHAMMEOGI {
                    break;
                }
            }
        }
        let back = Path::step(21, 20);
        assert_eq!(back.to_list().as_slice(), &[21, 20]);
        assert_eq!(Path::from_nodes(&[21, 20]), Some(back));
        assert_eq!((back.len(), back.is_empty()), (2, false));
        // From 도 onto 참먹이: a step along the order, not the way round.
        assert_eq!(Path::step(1, 0).to_list().as_slice(), &[1, 0]);
    }

    #[test]
    fn what_no_move_goes_over_is_refused() {
        for bad in [
            &[2, 1, 0][..],
            &[1, 1],
            &[29],
            &[5, 29],
            &[29, 5],
            &[0, 19, 18],
        ] {
            assert_eq!(Path::from_nodes(bad), None, "{bad:?}");
            let json = serde_json::to_string(bad).unwrap();
            assert!(serde_json::from_str::<Path>(&json).is_err(), "{json}");
        }
        let read: Path = serde_json::from_str("[0,19]").unwrap();
        assert_eq!(read, Path::step(0, 19));
        assert_eq!(serde_json::to_string(&read).unwrap(), "[0,19]");
    }
}
