//! Movement (RULES.md, Movement): forward along `next()`, backdo along the trail, finishing.
//!
//! [`forward`] and [`backdo`] only compute where a stack would go; they never change the state, so legal
//! moves, the timeout policy and the move itself share it.

use crate::graph::{self, CHAMMEOGI, FIRST, Node};
use crate::options::{BackdoFromDo, FinishRule, YutOptions};
use crate::state::{Board, SideId};
use crate::{Origin, Path, To, Trail};

/// Whether a stack standing on `node` is one step short of finishing under the finish rule:
/// on 참먹이 under `pass`, on 19 or 28 under `reach`.
///
/// ```
/// use yut::{FinishRule, YutOptions, movement::one_short};
/// assert!(one_short(&YutOptions::default(), 0));
/// let reach = YutOptions { finish_rule: FinishRule::Reach, ..YutOptions::default() };
/// assert!(one_short(&reach, 28) && !one_short(&reach, 0));
/// ```
pub fn one_short(options: &YutOptions, node: Node) -> bool {
    match options.finish_rule {
        FinishRule::Pass => node == CHAMMEOGI,
        FinishRule::Reach => matches!(node, 19 | 28),
    }
}

/// Where a stack would go: its end and the nodes stepped on. Its new trail is asked for
/// separately ([`Walk::trail`]), since only the move itself needs it, not the listing of
/// legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    /// Where it ends.
    pub to: To,
    /// The start (if on the board) and every node stepped on.
    pub path: Path,
    /// Where the nodes stepped on start: the stack's node, or 도 for a piece entering.
    start: Node,
    /// Whether it enters from home (its trail starts afresh).
    enters: bool,
    /// How a backdo leaves the trail (a step back shortens it rather than extending it):
    /// kept as a rule, not as the trail itself, so that a walk stays small to pass around.
    back: Back,
}

/// What a backdo does to the stack's trail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Back {
    /// Not a backdo: the trail extends by the nodes stepped on.
    No,
    /// Drops the trail's last node (the start); an emptied trail becomes the end alone.
    Pop,
    /// The trail becomes the end alone (backdo from 도 onto 참먹이).
    One,
}

impl Walk {
    /// The stack's trail after the move, given its trail before (`stack_trail`: that of
    /// the stack the walk starts from, ending where it starts; ignored for a piece
    /// entering): empty when it leaves the board, else the old trail extended by every
    /// node stepped on (a backdo's own shortened trail).
    ///
    /// ```
    /// use yut::{Origin, Trail, YutOptions, movement::forward};
    /// let trail = Trail::from_path(&[1, 2]).unwrap();
    /// let walk = forward(&YutOptions::default(), Origin::Node(2), 3);
    /// assert_eq!(walk.trail(trail).to_list().as_slice(), &[1, 2, 3, 4, 5]);
    /// ```
    #[inline(always)]
    pub fn trail(&self, stack_trail: Trail) -> Trail {
        let Some(to) = self.to.node() else {
            return Trail::EMPTY;
        };
        match self.back {
            Back::No if self.enters => Trail::EMPTY.walked(self.start, to),
            Back::No => stack_trail.walked(self.start, to),
            Back::Pop => stack_trail.stepped_back(to),
            Back::One => Trail::one(to),
        }
    }

    /// Sends the stack to the goal instead (a rule finished it short of 참먹이).
    pub fn finish(&mut self) {
        self.to = To::GOAL;
    }
}

/// The trail and size of `side`'s stack at `from` (for home: one waiting piece, empty
/// trail), or `None` if the side has nothing there.
#[inline]
pub fn stack_at(board: &Board, side: SideId, from: Origin) -> Option<(u8, Trail)> {
    let side = board.sides.get(usize::from(side))?;
    let at = side.pieces_at(from);
    match from {
        Origin::Home(_) => (at != 0).then_some((1, Trail::EMPTY)),
        Origin::Node(_) => (at != 0).then(|| side.stack_of(at)),
    }
}

/// Walks `steps` forward from `from` (a node with a stack, or home). A number that is no
/// node of the board gets a walk with an empty path.
///
/// Entering from home counts node 1 as the first step. A piece standing on 참먹이 has gone
/// round: any step finishes it. Under `pass` a piece finishes when a step leads past 0;
/// under `reach` when it arrives on 0. The nodes stepped on are a prefix of the start's
/// [`graph::route`]: a move's way through the center is decided by where it starts, so
/// the stack's trail is not needed.
#[inline]
pub fn forward(options: &YutOptions, from: Origin, steps: u8) -> Walk {
    let reach = options.finish_rule == FinishRule::Reach;
    let (start, left) = match from {
        Origin::Home(_) => (FIRST, steps.saturating_sub(1)),
        Origin::Node(n) => (n, steps),
    };
    // Every throw's walk from every node is in the table; only a rule's longer walk, or a
    // number that is no node, is worked out here.
    let (to, path) = match FORWARD[usize::from(reach)]
        .get(usize::from(start))
        .and_then(|row| row.get(usize::from(left)))
    {
        Some(&(to, path)) => (to, path),
        None => walk_forward(start, left as usize, reach),
    };
    Walk {
        to,
        path,
        start,
        enters: from.node().is_none(),
        back: Back::No,
    }
}

/// Steps [`FORWARD`] holds a walk for, from 0 (a piece entering with one step) to a walk
/// longer than any throw's.
const FORWARD_STEPS: usize = 8;

/// [`walk_forward`] of every node of the board and every step count below
/// [`FORWARD_STEPS`], under `pass` (row 0) and `reach` (row 1): a move's walk is one look-up.
const FORWARD: [[[(To, Path); FORWARD_STEPS]; graph::NODE_COUNT]; 2] = {
    let mut table = [[[(To::GOAL, Path::one(CHAMMEOGI)); FORWARD_STEPS]; graph::NODE_COUNT]; 2];
    let mut reach = 0;
    while reach < 2 {
        let mut start = 0;
        while start < graph::NODE_COUNT {
            let mut left = 0;
            while left < FORWARD_STEPS {
                table[reach][start][left] = walk_forward(start as Node, left, reach == 1);
                left += 1;
            }
            start += 1;
        }
        reach += 1;
    }
    table
};

/// Where `left` steps forward from `start` end, and the path they take: the rule of
/// [`forward`] for a walk whose nodes stepped on start at `start`.
const fn walk_forward(start: Node, left: usize, reach: bool) -> (To, Path) {
    let to_zero = graph::steps_to_zero(start);
    // Past 0 with a step left (or arriving under `reach`, or standing on it): the goal,
    // the whole way to 0 stepped on.
    if left > to_zero || (left == to_zero && left > 0 && reach) || (to_zero == 0 && left > 0) {
        return (To::GOAL, Path::forward(start, CHAMMEOGI));
    }
    let to = match left.checked_sub(1) {
        Some(i) => graph::route(start)[i],
        None => start,
    };
    (To::Node(to), Path::forward(start, to))
}

/// Steps one back along the stack's trail (빽도). `None` for home: a backdo cannot enter.
#[inline]
pub fn backdo(options: &YutOptions, from: Origin, trail: Trail) -> Option<Walk> {
    let node = from.node()?;
    let only_first = node == FIRST && trail.at_most_one();
    if only_first {
        // A piece that has only stood on 도: `backdoFromDo` decides (RULES.md, Movement).
        let to = match options.backdo_from_do {
            BackdoFromDo::Finish => To::GOAL,
            BackdoFromDo::Home => To::HOME,
            BackdoFromDo::Chammeogi if options.finish_rule == FinishRule::Reach => To::GOAL,
            BackdoFromDo::Chammeogi => To::Node(CHAMMEOGI),
        };
        if let To::Node(n) = to {
            return Some(Walk {
                to,
                path: Path::step(node, n),
                start: node,
                enters: false,
                back: Back::One,
            });
        }
        return Some(Walk {
            to,
            path: Path::one(node),
            start: node,
            enters: false,
            back: Back::No,
        });
    }
    // The node before the start on the trail; with none to follow (only after repeated
    // backdo from 0), the ring's previous node.
    let to = trail.before_last().unwrap_or_else(|| graph::previous(node));
    Some(Walk {
        to: To::Node(to),
        path: Path::step(node, to),
        start: node,
        enters: false,
        back: Back::Pop,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NodeList;

    fn nodes(list: &[Node]) -> NodeList {
        let mut out = NodeList::new();
        for &n in list {
            out.push(n);
        }
        out
    }

    /// The trail a stack had before, extended node by node as the stack steps: what the
    /// walk's trail must equal (it is computed from the path instead, and only on demand).
    fn stepped_trail(options: &YutOptions, from: Origin, before: NodeList, steps: u8) -> NodeList {
        let walk = forward(options, from, steps);
        if walk.to.node().is_none() {
            return NodeList::new();
        }
        let mut trail = if from.node().is_some() {
            before
        } else {
            NodeList::new()
        };
        let skip = usize::from(from.node().is_some());
        for &n in &walk.path.to_list().as_slice()[skip..] {
            trail.push(n);
        }
        trail
    }

    /// The walk as the rules say it, one step at a time along [`graph::next`]: what the
    /// route table must reproduce.
    fn stepwise(options: &YutOptions, from: Origin, trail: NodeList, steps: u8) -> (To, NodeList) {
        let reach = options.finish_rule == FinishRule::Reach;
        let mut path = NodeList::new();
        let (mut node, mut came_from, mut starts_here, mut left) = match from {
            Origin::Home(_) => {
                path.push(FIRST);
                (FIRST, None, false, steps.saturating_sub(1))
            }
            Origin::Node(n) => {
                path.push(n);
                (n, trail.before_last(), true, steps)
            }
        };
        while left > 0 {
            if node == CHAMMEOGI {
                return (To::GOAL, path);
            }
            let next = graph::next(node, starts_here, came_from);
            came_from = Some(node);
            node = next;
            starts_here = false;
            left -= 1;
            path.push(node);
            if node == CHAMMEOGI && reach {
                return (To::GOAL, path);
            }
        }
        (To::Node(node), path)
    }

    #[test]
    fn the_route_table_walks_like_the_rules() {
        for finish_rule in [FinishRule::Pass, FinishRule::Reach] {
            let options = YutOptions {
                finish_rule,
                ..YutOptions::default()
            };
            let froms = (0..graph::NODE_COUNT as Node)
                .map(Origin::Node)
                .chain([Origin::HOME]);
            for from in froms {
                for before in [None, Some(21), Some(26), Some(4)] {
                    let mut trail = NodeList::new();
                    if let Some(b) = before {
                        trail.push(b);
                    }
                    if let Some(n) = from.node() {
                        trail.push(n);
                    }
                    for steps in 0..=40 {
                        let walk = forward(&options, from, steps);
                        let (to, path) = stepwise(&options, from, trail, steps);
                        assert_eq!(
                            (walk.to, walk.path.to_list()),
                            (to, path),
                            "{finish_rule:?} {from:?} {before:?} {steps}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_number_that_is_no_node_walks_without_panicking() {
        let options = YutOptions::default();
        for n in [29, 30, 200, 255] {
            for steps in 0..=6 {
                assert!(forward(&options, Origin::Node(n), steps).path.is_empty());
            }
            // A backdo's way back is the ring's previous node's, whatever the number.
            let back = backdo(&options, Origin::Node(n), Trail::one(n)).unwrap();
            assert_eq!(
                back.path.len(),
                usize::from(back.to.node().is_some_and(|t| t < 29))
            );
        }
    }

    #[test]
    fn trails_extend_by_the_nodes_stepped_on() {
        let options = YutOptions::default();
        let path = |list: &[Node]| Trail::from_path(list).unwrap();
        let enter = forward(&options, Origin::HOME, 3);
        assert_eq!(enter.trail(Trail::EMPTY).to_list().as_slice(), &[1, 2, 3]);
        // A waiting piece's trail starts afresh whatever it is handed.
        assert_eq!(enter.trail(path(&[7, 8])).to_list().as_slice(), &[1, 2, 3]);
        let corner = forward(&options, Origin::Node(5), 2);
        assert_eq!(
            corner.trail(path(&[1, 2, 3, 4, 5])).to_list().as_slice(),
            &[1, 2, 3, 4, 5, 20, 21]
        );
        let ring: Vec<Node> = (1..=12).collect();
        for steps in 0..=40 {
            for (from, before) in [
                (Origin::HOME, &[7, 8][..]),
                (Origin::Node(5), &[1, 2, 3, 4, 5]),
                (Origin::Node(22), &[1, 2, 3, 4, 5, 20, 21, 22]),
                (Origin::Node(22), &[10, 25, 26, 22]),
                (Origin::Node(12), &ring),
                (Origin::Node(0), &[17, 18, 19, 0]),
            ] {
                let walk = forward(&options, from, steps);
                assert_eq!(
                    walk.trail(path(before)).to_list(),
                    stepped_trail(&options, from, nodes(before), steps),
                    "{from:?} + {steps}"
                );
            }
        }
    }

    #[test]
    fn finishing_empties_the_trail_and_backdo_shortens_it() {
        let options = YutOptions::default();
        let ring = [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
        ];
        let before = Trail::from_path(&ring).unwrap();
        let out = forward(&options, Origin::Node(19), 2);
        assert_eq!(out.to, To::GOAL);
        assert!(out.trail(before).is_empty());
        let mut short = forward(&options, Origin::Node(17), 1);
        short.finish();
        assert!(short.trail(before).is_empty());
        let back = backdo(&options, Origin::Node(19), before).unwrap();
        assert_eq!(back.to, To::Node(18));
        assert_eq!(back.trail(before).to_list().as_slice(), &ring[..18]);
        // With no trail left to follow, the ring's previous node starts a new one.
        let lost = backdo(&options, Origin::Node(12), Trail::one(12)).unwrap();
        assert_eq!(lost.to, To::Node(graph::previous(12)));
        assert_eq!(lost.trail(Trail::one(12)), Trail::one(graph::previous(12)));
        // From 도 onto 참먹이, the trail is 참먹이 alone.
        let onto = YutOptions {
            backdo_from_do: BackdoFromDo::Chammeogi,
            ..YutOptions::default()
        };
        let first = backdo(&onto, Origin::Node(FIRST), Trail::one(FIRST)).unwrap();
        assert_eq!(first.to, To::Node(CHAMMEOGI));
        assert_eq!(first.trail(Trail::one(FIRST)), Trail::one(CHAMMEOGI));
    }
}
