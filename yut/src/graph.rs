//! The 29-node board (RULES.md, The board) and the one-step `next()` function.
//!
//! Nodes are numbered as in RULES.md: 0 is 참먹이 (start and finish, bottom
//! right), 1–19 the outer ring counter-clockwise, 20–28 the two diagonals.
//!
//! ```text
//!  10 --  9 --  8 --  7 --  6 --  5
//!   | 25                      20  |
//!  11     26              21     4
//!   |         22(방)             |
//!  12     27              23     3      (27 and 28 run from 22 to 0,
//!   | 28                      24  |      23 and 24 from 22 to 15)
//!  15 -- 16 -- 17 -- 18 -- 19 --  0
//! ```

/// A node id, `0..=28`.
pub type Node = u8;

/// The number of nodes.
pub const NODE_COUNT: usize = 29;

/// 참먹이: where pieces finish (and where a lapped piece may stand).
pub const CHAMMEOGI: Node = 0;
/// The first node a piece entering from home steps on (도).
pub const FIRST: Node = 1;
/// 모, the first corner.
pub const MO: Node = 5;
/// 뒷모, the second corner.
pub const DWIMO: Node = 10;
/// 찌모, the third corner (no shortcut).
pub const JJIMO: Node = 15;
/// 방, the center.
pub const BANG: Node = 22;

/// The Korean name of a node, for display.
///
/// ```
/// assert_eq!(yut::graph::name(22), "방");
/// ```
pub fn name(node: Node) -> &'static str {
    const NAMES: [&str; NODE_COUNT] = [
        "참먹이",
        "도",
        "개",
        "걸",
        "윷",
        "모",
        "뒷도",
        "뒷개",
        "뒷걸",
        "뒷윷",
        "뒷모",
        "찌도",
        "찌개",
        "찌걸",
        "찌윷",
        "찌모",
        "날도",
        "날개",
        "날걸",
        "날윷",
        "앞모도",
        "앞모개",
        "방",
        "속윷",
        "속모",
        "뒷모도",
        "뒷모개",
        "사려",
        "안찌",
    ];
    NAMES.get(usize::from(node)).copied().unwrap_or("?")
}

/// Where one forward step leads from `node` (RULES.md, The board).
///
/// `starts_here` is true for the first step of a move that starts on `node`: only then do the
/// corners 5 and 10 turn onto their diagonals, and the center always heads for 참먹이.
/// `came_from` is the node the piece was on just before (it decides the straight line
/// through the center when passing). Node 0 is not handled here: leaving 0 finishes.
///
/// ```
/// use yut::graph::next;
/// assert_eq!(next(5, true, None), 20);   // stopped on 모: the shortcut
/// assert_eq!(next(5, false, Some(4)), 6); // passing 모: straight on
/// assert_eq!(next(22, false, Some(21)), 23);
/// assert_eq!(next(22, false, Some(26)), 27);
/// assert_eq!(next(22, true, Some(21)), 27);
/// ```
#[inline]
pub const fn next(node: Node, starts_here: bool, came_from: Option<Node>) -> Node {
    match node {
        MO if starts_here => 20,
        DWIMO if starts_here => 25,
        19 => CHAMMEOGI,
        1..=18 => node + 1,
        20 | 21 | 23 | 25 => node + 1,
        24 => JJIMO,
        26 => BANG,
        BANG if !starts_here && matches!(came_from, Some(21)) => 23,
        BANG => 27,
        27 => 28,
        28 => CHAMMEOGI,
        // 0 and out-of-range nodes: callers finish the piece before asking.
        _ => CHAMMEOGI,
    }
}

/// The most nodes a route holds: the outer ring from 도 back to 참먹이.
pub const ROUTE_LEN: usize = 20;

/// Where a stack starting a move on a node steps, node by node, up to and including
/// 참먹이 (0); unused slots after it hold 0 too.
///
/// A forward walk depends only on where the move starts: the start decides the shortcut
/// at 모, 뒷모 and 방, and after the first step the only choice left, straight through 방
/// when arriving from 21, follows from the route itself. So every walk is a prefix of one
/// of these routes, computed at compile time from [`next`]. A waiting piece enters on 도
/// and follows `route(1)` from there.
///
/// ```
/// use yut::graph::route;
/// assert_eq!(&route(5)[..4], &[20, 21, 22, 23]);
/// assert_eq!(&route(22)[..3], &[27, 28, 0]);
/// assert_eq!(route(0)[0], 0);
/// ```
#[inline]
pub const fn route(node: Node) -> &'static [Node; ROUTE_LEN] {
    &ROUTES[route_index(node)]
}

/// Steps from `node` to 참먹이 along its [`route`] (0 on 참먹이 itself).
///
/// ```
/// assert_eq!(yut::graph::steps_to_zero(19), 1);
/// assert_eq!(yut::graph::steps_to_zero(0), 0);
/// assert_eq!(yut::graph::steps_to_zero(1), 19);
/// ```
#[inline]
pub const fn steps_to_zero(node: Node) -> usize {
    const TO_ZERO: [u8; NODE_COUNT] = {
        let mut out = [0u8; NODE_COUNT];
        let mut start = 1;
        while start < NODE_COUNT {
            let mut i = 0;
            while ROUTES[start][i] != CHAMMEOGI {
                i += 1;
            }
            out[start] = i as u8 + 1;
            start += 1;
        }
        out
    };
    // Off the board the route is all 0s: one step arrives there.
    if (node as usize) < NODE_COUNT {
        TO_ZERO[node as usize] as usize
    } else {
        1
    }
}

/// The row of [`ROUTES`] for `node`: 0 (all 참먹이) for 0 and nodes off the board.
const fn route_index(node: Node) -> usize {
    if (node as usize) < NODE_COUNT {
        node as usize
    } else {
        0
    }
}

/// Every node's [`route`], computed at compile time from [`next`].
const ROUTES: [[Node; ROUTE_LEN]; NODE_COUNT] = {
    let mut routes = [[CHAMMEOGI; ROUTE_LEN]; NODE_COUNT];
    let mut start = 1;
    while start < NODE_COUNT {
        let (mut node, mut came_from, mut starts_here) = (start as Node, None, true);
        let mut i = 0;
        while i < ROUTE_LEN {
            let step = next(node, starts_here, came_from);
            routes[start][i] = step;
            came_from = Some(node);
            node = step;
            starts_here = false;
            i += 1;
            if step == CHAMMEOGI {
                break;
            }
        }
        start += 1;
    }
    routes
};

// A forward path visits its nodes in one fixed order (the graph has no cycle: 참먹이 is
// never stepped from), so a set of them, bits in that order, gives the path back: a
// trail and a move's path are kept that way.

/// The nodes in an order where every forward step leads to a later node: the outer ring
/// to 모, its diagonal to the center's first half, the ring to 뒷모, its diagonal, the
/// center, both ways out of it, the rest of the ring, 참먹이 last.
pub(crate) const ORDER: [Node; NODE_COUNT] = [
    1, 2, 3, 4, 5, 20, 21, 6, 7, 8, 9, 10, 25, 26, 22, 23, 24, 27, 28, 11, 12, 13, 14, 15, 16, 17,
    18, 19, 0,
];

/// [`ORDER`] inverted: a node's bit in a set of nodes ([`crate::Trail`], [`crate::Path`]),
/// none for a number off the board. A table of every `u8`, so a look-up needs no bounds
/// check.
pub(crate) const BIT: [u32; 256] = {
    let mut out = [0u32; 256];
    let mut rank = 0;
    while rank < NODE_COUNT {
        out[ORDER[rank] as usize] = 1 << rank;
        rank += 1;
    }
    out
};

/// For each node, the bits of every node up to it in [`ORDER`]: what a walk ending there
/// can have stepped on.
const UP_TO: [u32; 256] = {
    let mut out = [0u32; 256];
    let mut n = 0;
    while n < NODE_COUNT {
        out[n] = (BIT[n] << 1) - 1;
        n += 1;
    }
    out
};

/// For each node, the bits of the node and of its whole [`route`]: a forward walk
/// from it steps on the part of them up to where it ends.
const WAY: [u32; 256] = {
    let mut out = [0u32; 256];
    let mut n = 0;
    while n < NODE_COUNT {
        let route = route(n as Node);
        let mut bits = BIT[n];
        let mut i = 0;
        while i < route.len() {
            bits |= BIT[route[i] as usize];
            i += 1;
        }
        out[n] = bits;
        n += 1;
    }
    out
};

/// The [`BIT`]s of the nodes a forward walk from `start` steps on along its [`route`] up
/// to `to`, `start` included: what a move's path holds, and what it adds to a trail.
#[inline(always)]
pub(crate) const fn way(start: Node, to: Node) -> u32 {
    WAY[start as usize] & UP_TO[to as usize]
}

/// The set of `nodes` as [`BIT`]s, or `None` unless each is a node of the board later in
/// [`ORDER`] than the one before it (as a way forward's are), so that the set gives them
/// back ([`nodes_of`]).
pub(crate) fn set_of(nodes: &[Node]) -> Option<u32> {
    let mut bits = 0u32;
    for &n in nodes {
        let bit = BIT[usize::from(n)];
        // After every node so far: above the highest bit set.
        if bit == 0 || bit <= bits {
            return None;
        }
        bits |= bit;
    }
    Some(bits)
}

/// The nodes of a set of [`BIT`]s, in [`ORDER`].
pub(crate) fn nodes_of(bits: u32) -> crate::NodeList {
    let mut list = crate::NodeList::new();
    let mut bits = bits;
    while bits != 0 {
        // A rank past the order (no set made here has one) is left out.
        if let Some(&n) = ORDER.get(bits.trailing_zeros() as usize) {
            list.push(n);
        }
        bits &= bits - 1;
    }
    list
}

/// The outer-ring node before `node`, used by a backdo that has no trail to follow
/// (RULES.md, Movement), and for inner nodes the node one step back toward their corner.
///
/// ```
/// assert_eq!(yut::graph::previous(0), 19);
/// assert_eq!(yut::graph::previous(20), 5);
/// ```
pub fn previous(node: Node) -> Node {
    match node {
        CHAMMEOGI => 19,
        20 => MO,
        25 => DWIMO,
        23 | 27 => BANG,
        21 | 22 | 24 | 26 | 28 => node - 1,
        n => n.saturating_sub(1),
    }
}

/// Remaining distance of one piece on `node` under `pass` (RULES.md, Ending and ranking):
/// the fewest steps to finish. Home pieces are 12. Used for ranking and the timeout policy
/// only.
///
/// ```
/// assert_eq!(yut::graph::remaining(Some(22)), 4);
/// assert_eq!(yut::graph::remaining(None), 12);
/// ```
pub fn remaining(node: Option<Node>) -> u32 {
    const TABLE: [u8; NODE_COUNT] = [
        1, 11, 10, 9, 8, 7, 11, 10, 9, 8, 7, 10, 9, 8, 7, 6, 5, 4, 3, 2, 6, 5, 4, 8, 7, 6, 5, 3, 2,
    ];
    match node {
        None => 12,
        Some(n) => u32::from(TABLE.get(usize::from(n)).copied().unwrap_or(12)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaining_table_matches_a_breadth_first_search() {
        // Fewest steps to GOAL under pass: a move may stop anywhere, so count single steps
        // where each step starts a new move (best case: every corner is turned).
        fn best(node: Node) -> u32 {
            if node == CHAMMEOGI {
                return 1;
            }
            let a = 1 + best(next(node, true, None));
            let b = 1 + best(next(node, false, None));
            a.min(b)
        }
        for n in 0..NODE_COUNT as Node {
            assert_eq!(remaining(Some(n)), best(n), "node {n}");
        }
    }

    #[test]
    fn routes_follow_next_step_by_step() {
        for start in 0..NODE_COUNT as Node {
            let route = route(start);
            let (mut node, mut came_from, mut starts_here) = (start, None, true);
            for (i, &step) in route.iter().enumerate() {
                if node == CHAMMEOGI {
                    assert!(
                        route[i..].iter().all(|&n| n == CHAMMEOGI),
                        "after 0: {start}"
                    );
                    break;
                }
                assert_eq!(
                    step,
                    next(node, starts_here, came_from),
                    "start {start} step {i}"
                );
                came_from = Some(node);
                node = step;
                starts_here = false;
            }
            assert!(route.contains(&CHAMMEOGI), "route of {start} reaches 0");
        }
    }

    #[test]
    fn every_forward_step_leads_later_in_the_order() {
        let mut seen = [false; NODE_COUNT];
        for &n in &ORDER {
            assert!(!seen[usize::from(n)], "{n} twice");
            seen[usize::from(n)] = true;
        }
        for n in (0..NODE_COUNT as Node).filter(|&n| n != CHAMMEOGI) {
            let steps = [
                next(n, true, None),
                next(n, false, None),
                next(n, false, Some(21)),
            ];
            for to in steps {
                assert!(BIT[usize::from(to)] > BIT[usize::from(n)], "{n} -> {to}");
            }
        }
    }

    #[test]
    fn every_node_has_a_name() {
        for n in 0..NODE_COUNT as Node {
            assert_ne!(name(n), "?");
        }
    }
}
