//! A stack's trail (RULES.md, Movement) as the set of its nodes.
//!
//! Every forward step of the board leads to a node later in one fixed order (the board's
//! graph has no cycle: 참먹이 is never stepped from), and a trail is a forward path, so it
//! visits its nodes in that order and the set of them gives the path back. A set is one
//! word: a move adds the nodes stepped on with two look-ups and an `or`, a backdo drops
//! the newest node by clearing the highest bit, and a side's five trails copy in a few
//! bytes instead of five lists.

use crate::NodeList;
use crate::graph::{self, BIT, Node, ORDER};

/// The trail of a stack: the nodes it stepped on since it entered, oldest first, kept as
/// a set (bit `r` for the node of rank `r` in a fixed order of the board's nodes along
/// which every forward step goes). Only forward paths are trails, so the set gives the
/// path back ([`Trail::to_list`]).
///
/// ```
/// use yut::Trail;
/// let trail = Trail::from_path(&[1, 2, 3, 4, 5, 20, 21]).unwrap();
/// assert_eq!(trail.to_list().as_slice(), &[1, 2, 3, 4, 5, 20, 21]);
/// assert_eq!((trail.last(), trail.before_last()), (Some(21), Some(20)));
/// assert_eq!(Trail::from_path(&[5, 4]), None); // not a way forward
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Trail(u32);

impl Trail {
    /// The empty trail (a piece off the board).
    pub const EMPTY: Trail = Trail(0);

    /// The trail of one node (a stack started afresh there).
    ///
    /// ```
    /// assert_eq!(yut::Trail::one(22).to_list().as_slice(), &[22]);
    /// ```
    #[inline]
    pub const fn one(node: Node) -> Self {
        Trail(BIT[node as usize])
    }

    /// The trail of the nodes of `path`, oldest first, or `None` if they cannot be one:
    /// a node off the board, or one that does not come after the node before it in the
    /// order every forward step follows (a repeat, or a step backwards). Which forward
    /// steps the board has is not checked here.
    ///
    /// ```
    /// use yut::Trail;
    /// assert!(Trail::from_path(&[]).is_some_and(|t| t.is_empty()));
    /// assert_eq!(Trail::from_path(&[3, 3]), None);
    /// assert_eq!(Trail::from_path(&[29]), None);
    /// ```
    pub fn from_path(path: &[Node]) -> Option<Self> {
        graph::set_of(path).map(Trail)
    }

    /// The nodes, oldest first.
    ///
    /// ```
    /// let trail = yut::Trail::from_path(&[22, 27, 28]).unwrap();
    /// assert_eq!(trail.to_list().as_slice(), &[22, 27, 28]);
    /// ```
    pub fn to_list(self) -> NodeList {
        graph::nodes_of(self.0)
    }

    /// The newest node (where the stack stands).
    ///
    /// ```
    /// assert_eq!(yut::Trail::one(7).last(), Some(7));
    /// assert_eq!(yut::Trail::EMPTY.last(), None);
    /// ```
    #[inline]
    pub fn last(self) -> Option<Node> {
        top(self.0)
    }

    /// The node before the newest one (where a backdo goes).
    ///
    /// ```
    /// assert_eq!(yut::Trail::one(7).before_last(), None);
    /// ```
    #[inline]
    pub fn before_last(self) -> Option<Node> {
        top(self.0 & !highest(self.0))
    }

    /// How many nodes it holds.
    ///
    /// ```
    /// assert_eq!(yut::Trail::from_path(&[1, 2]).unwrap().len(), 2);
    /// ```
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether it holds no node.
    ///
    /// ```
    /// assert!(yut::Trail::EMPTY.is_empty());
    /// ```
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether it holds one node at most (a lone bit: no counting needed, which the
    /// baseline x86-64 target would do in software).
    #[inline(always)]
    pub(crate) fn at_most_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) == 0
    }

    /// The trail after a forward walk from `start` (where the trail ends, or 도 for a
    /// piece entering, whose trail starts empty) to `to`: the nodes of the start's way up
    /// to `to` added.
    #[inline(always)]
    pub(crate) fn walked(self, start: Node, to: Node) -> Self {
        Trail(self.0 | graph::way(start, to))
    }

    /// The trail after a backdo to `to`: its newest node dropped, or `to` alone if that
    /// empties it (no trail left to follow).
    #[inline(always)]
    pub(crate) fn stepped_back(self, to: Node) -> Self {
        match self.0 & !highest(self.0) {
            0 => Trail::one(to),
            rest => Trail(rest),
        }
    }
}

/// The highest bit of `bits` alone (0 for none).
#[inline(always)]
fn highest(bits: u32) -> u32 {
    match bits {
        0 => 0,
        _ => 1 << (31 - bits.leading_zeros()),
    }
}

/// The node of the highest bit of `bits`.
#[inline(always)]
fn top(bits: u32) -> Option<Node> {
    let rank = 31usize.checked_sub(bits.leading_zeros() as usize)?;
    ORDER.get(rank).copied()
}

impl std::fmt::Debug for Trail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_list().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{self, CHAMMEOGI, NODE_COUNT};

    #[test]
    fn a_path_and_its_set_give_each_other_back() {
        for start in 0..NODE_COUNT as Node {
            let route = graph::route(start);
            let mut path = vec![start];
            for &n in route.iter().take_while(|_| start != CHAMMEOGI) {
                path.push(n);
                let trail = Trail::from_path(&path).unwrap();
                assert_eq!(trail.to_list().as_slice(), &path[..]);
                assert_eq!(trail.len(), path.len());
                assert_eq!(trail.last(), path.last().copied());
                assert_eq!(trail.before_last(), Some(path[path.len() - 2]));
                assert_eq!(Trail::one(start).walked(start, n), trail);
                let back = trail.stepped_back(path[path.len() - 2]);
                assert_eq!(back.to_list().as_slice(), &path[..path.len() - 1]);
                if n == CHAMMEOGI {
                    break;
                }
            }
        }
    }

    #[test]
    fn an_emptied_trail_starts_afresh_and_sets_refuse_what_is_no_path() {
        assert_eq!(Trail::one(12).stepped_back(11), Trail::one(11));
        assert!(Trail::EMPTY.at_most_one() && Trail::one(0).at_most_one());
        assert!(!Trail::from_path(&[1, 2]).unwrap().at_most_one());
        for bad in [&[2, 1][..], &[0, 19], &[22, 21], &[1, 1], &[30], &[255]] {
            assert_eq!(Trail::from_path(bad), None, "{bad:?}");
        }
        assert_eq!(Trail::one(200), Trail::EMPTY);
    }
}
