//! The Yut evaluation of the strong bot: a race estimate with risk, built on the exact
//! throw table.

use crate::graph::{NODE_COUNT, Node, remaining};
use crate::movement;
use crate::{
    MAX_PIECES, Origin, Phase, Rules, SideId, Throw, ThrowChance, To, Yut, YutOptions, YutState,
};

use super::StrongParams;

/// The value of a won game; a lost one is worth its negation.
pub(super) const WIN: f64 = 1000.0;

/// ±[`WIN`] for a finished game, by whether `me` came first.
pub(super) fn terminal(board: &crate::Board, me: SideId) -> f64 {
    let won = board.sides[usize::from(me)].finished_rank == Some(1)
        || (board.sides[usize::from(me)].active() && board.active_sides() == 1);
    if won { WIN } else { -WIN }
}

/// A position as bytes: whose turn and what they hold, every piece with its trail, and
/// the rules' own state. Two states with equal keys play on identically (the event log,
/// the clock and the sequence number do not matter to the search).
pub(super) fn position_key<R: Rules>(state: &YutState<R>) -> Vec<u8> {
    let board = &state.board;
    let mut key = Vec::with_capacity(128);
    key.push(board.turn_index);
    key.push(board.phase as u8);
    key.push(board.throws_owed);
    key.extend(board.pending.iter().map(|t| *t as u8));
    key.push(u8::MAX);
    for side in &board.sides {
        key.push(side.finished_rank.unwrap_or(0));
        for p in side.pieces() {
            key.push(p.status as u8);
            key.push(p.node.unwrap_or(u8::MAX));
            key.extend_from_slice(p.trail.as_slice());
            key.push(u8::MAX);
        }
    }
    if let Ok(rules) = serde_json::to_vec(&state.rules) {
        key.extend(rules);
    }
    key
}

/// The expected distance to finish of a lone stack on each node and of a waiting piece,
/// in steps: the expected number of throws it needs on its own (by value iteration over
/// the exact throw table, shortcuts, overshoot, backdo and the finish rule included),
/// times the mean forward move of one throw. A better race measure than the shortest
/// distance ([`remaining`]), which assumes every corner is hit exactly.
fn distances(options: &YutOptions, dist: &[(ThrowChance, f64)]) -> ([f64; NODE_COUNT], f64) {
    // Where one throw takes a lone stack; `None` for finished, `Some(None)` for home.
    let dest = |from: Origin, result: Throw| -> Option<Option<Node>> {
        let to = if result.is_backdo() {
            let node = from.node()?;
            // A lone stack's trail alone: one step back is the ring's previous node
            // whatever came before, as a trail of the node alone goes.
            movement::backdo(options, from, crate::Trail::one(node)).map(|w| w.to)
        } else {
            Some(movement::forward(options, from, result.steps() as u8).to)
        };
        match to {
            None => Some(from.node()),
            Some(To::Node(n)) => Some(Some(n)),
            Some(To::Off(crate::OffBoard::Home)) => Some(None),
            Some(To::Off(crate::OffBoard::Goal)) => None,
        }
    };
    let mut throws = [0.0f64; NODE_COUNT];
    for (n, t) in throws.iter_mut().enumerate() {
        *t = f64::from(remaining(Some(n as Node))) / 2.5;
    }
    let mut home = 12.0 / 2.5;
    let at = |throws: &[f64; NODE_COUNT], home: f64, place: Option<Option<Node>>| match place {
        None => 0.0,
        Some(None) => home,
        Some(Some(n)) => throws[usize::from(n)],
    };
    for _ in 0..200 {
        let mut next = [0.0f64; NODE_COUNT];
        for (n, slot) in next.iter_mut().enumerate() {
            let from = Origin::Node(n as Node);
            *slot = 1.0
                + dist
                    .iter()
                    .map(|(c, p)| match c.result() {
                        None => p * throws[n],
                        Some(r) => p * at(&throws, home, dest(from, r)),
                    })
                    .sum::<f64>();
        }
        let next_home = 1.0
            + dist
                .iter()
                .map(|(c, p)| match c.result() {
                    Some(r) if !r.is_backdo() => p * at(&throws, home, dest(Origin::HOME, r)),
                    _ => p * home,
                })
                .sum::<f64>();
        let change = next
            .iter()
            .zip(&throws)
            .map(|(a, b)| (a - b).abs())
            .fold((next_home - home).abs(), f64::max);
        throws = next;
        home = next_home;
        if change < 1e-9 {
            break;
        }
    }
    let step: f64 = dist
        .iter()
        .filter_map(|(c, p)| Some(p * f64::from(c.result()?.steps().max(0))))
        .sum();
    (throws.map(|t| t * step), home * step)
}

/// A stack of one side: its node and its size.
#[derive(Clone, Copy)]
struct Stack {
    node: Node,
    count: u8,
}

/// The most sides an evaluation looks at: 2 to 4 in play (a restored state is checked
/// against its options); kept in arrays of this size, so that an evaluation, made at every
/// leaf of the search, allocates nothing.
const MAX_SIDES: usize = 8;

/// A side's stacks on the board, in the order of their lowest pieces, and how many of its
/// pieces wait at home.
#[derive(Clone, Copy)]
struct SideStacks {
    stacks: [Stack; MAX_PIECES],
    len: usize,
    home: u32,
}

impl SideStacks {
    const NONE: Self = Self {
        stacks: [Stack { node: 0, count: 0 }; MAX_PIECES],
        len: 0,
        home: 0,
    };

    fn list(&self) -> &[Stack] {
        &self.stacks[..self.len]
    }
}

/// The static evaluation (see [`StrongBot`](super::StrongBot)).
#[derive(Clone, Debug)]
pub(super) struct Evaluator {
    /// Each throw result with its probability (nak left out: it lands nowhere).
    results: Vec<(Throw, f64)>,
    /// Where a forward result of `results` takes a stack from each node (and, last, a
    /// waiting piece), if onto a node: a forward walk's end depends on its start and the
    /// options alone, and the risk term asks for it at every leaf of the search.
    forward: Vec<[Option<Node>; NODE_COUNT + 1]>,
    /// Expected distance to finish of a lone stack on each node, in steps.
    distance: [f64; NODE_COUNT],
    /// The same for a waiting piece.
    home: f64,
}

impl Evaluator {
    pub(super) fn new(options: &YutOptions, dist: &[(ThrowChance, f64)]) -> Self {
        let results: Vec<(Throw, f64)> = dist
            .iter()
            .filter_map(|(c, p)| Some((c.result()?, *p)))
            .collect();
        let (distance, home) = distances(options, dist);
        let forward = results
            .iter()
            .map(|&(result, _)| {
                let steps = result.steps().max(0) as u8;
                let mut to = [None; NODE_COUNT + 1];
                for (n, to) in to.iter_mut().enumerate() {
                    let from = if n < NODE_COUNT {
                        Origin::Node(n as Node)
                    } else {
                        Origin::HOME
                    };
                    *to = movement::forward(options, from, steps).to.node();
                }
                to
            })
            .collect();
        Self {
            results,
            forward,
            distance,
            home,
        }
    }

    /// The stacks of a side on the board, and how many of its pieces wait at home. The
    /// stacks come in the order of their lowest pieces, the order in which the pieces list
    /// them: the evaluation sums over them, and a floating-point sum depends on its order.
    fn stacks(side: &crate::Side) -> SideStacks {
        let mut found = [(0u8, Stack { node: 0, count: 0 }); MAX_PIECES];
        let mut k = 0;
        let mut nodes = side.held();
        while nodes != 0 && k < found.len() {
            let node = nodes.trailing_zeros() as Node;
            let count = side.stack_on(node) as u8;
            found[k] = (side.lowest_piece_on(node), Stack { node, count });
            k += 1;
            nodes &= nodes - 1;
        }
        let found = &mut found[..k];
        found.sort_unstable_by_key(|&(lowest, _)| lowest);
        let mut out = SideStacks {
            len: k,
            home: side.at_home() as u32,
            ..SideStacks::NONE
        };
        for (to, &(_, stack)) in out.stacks.iter_mut().zip(found.iter()) {
            *to = stack;
        }
        out
    }

    /// The probability that `side` lands on each node with its next single throw, from
    /// any of its stacks or by entering.
    fn reach(&self, board: &crate::Board, side: SideId, home: bool) -> [f64; NODE_COUNT] {
        let options: &YutOptions = &board.options;
        // In node order: each origin only marks the nodes it reaches.
        // At most one a node a stack holds (a side has at most `MAX_PIECES` stacks), and
        // home.
        let mut origins = [Origin::HOME; MAX_PIECES + 1];
        let mut n = 0;
        let mut nodes = board.sides[usize::from(side)].held();
        while nodes != 0 && n < MAX_PIECES {
            origins[n] = Origin::Node(nodes.trailing_zeros() as Node);
            n += 1;
            nodes &= nodes - 1;
        }
        if home {
            origins[n] = Origin::HOME;
            n += 1;
        }
        let origins = &origins[..n];
        let mut reach = [0.0; NODE_COUNT];
        for (&(result, p), forward) in self.results.iter().zip(&self.forward) {
            // The nodes hit, as bits.
            let mut hit = 0u32;
            for &from in origins {
                let to = if result.is_backdo() {
                    let Some((_, trail)) = movement::stack_at(board, side, from) else {
                        continue;
                    };
                    movement::backdo(options, from, trail).and_then(|w| w.to.node())
                } else {
                    let at = from.node().map_or(NODE_COUNT, usize::from);
                    forward.get(at).copied().flatten()
                };
                if let Some(n) = to.filter(|&n| usize::from(n) < NODE_COUNT) {
                    hit |= 1 << n;
                }
            }
            // Node by node in order, each adding the result's probability: the sums of
            // before, to the last bit.
            while hit != 0 {
                reach[hit.trailing_zeros() as usize] += p;
                hit &= hit - 1;
            }
        }
        reach
    }

    pub(super) fn evaluate<R: Rules>(
        &self,
        _game: &Yut<R>,
        state: &YutState<R>,
        me: SideId,
        params: &StrongParams,
    ) -> f64 {
        let board = &state.board;
        if board.phase == Phase::Finished {
            return terminal(board, me);
        }
        let sides = board.sides.len().min(MAX_SIDES);
        let mover = board.current_side();
        let mut info = [SideStacks::NONE; MAX_SIDES];
        for (to, side) in info.iter_mut().zip(&board.sides) {
            *to = Self::stacks(side);
        }
        let info = &info[..sides];
        // Race: the cost of each side, in steps.
        let mut cost = [0.0; MAX_SIDES];
        for (c, (stacks, side)) in cost.iter_mut().zip(info.iter().zip(&board.sides)) {
            *c = if !side.active() {
                if side.finished_rank.is_some() {
                    0.0
                } else {
                    1e4
                }
            } else {
                let on_board: f64 = stacks
                    .list()
                    .iter()
                    .map(|s| {
                        self.distance[usize::from(s.node)]
                            * (1.0 + params.stack_extra * f64::from(s.count - 1))
                    })
                    .sum();
                on_board + f64::from(stacks.home) * self.home
            };
        }
        let cost = &mut cost[..sides];
        // Results in hand and throws owed belong to the side to act.
        if matches!(board.phase, Phase::Throw | Phase::Move) {
            let pending: f64 = board
                .pending
                .iter()
                .map(|t| f64::from(t.steps().max(0)))
                .sum();
            cost[usize::from(mover)] -=
                0.9 * pending + params.throw_value * f64::from(board.throws_owed);
        }
        // Risk: every stack one side could hit with one throw of another.
        let mut swing = [0.0; MAX_SIDES];
        let swing = &mut swing[..sides];
        for attacker in 0..sides {
            if !board.sides[attacker].active() {
                continue;
            }
            let reach = self.reach(board, attacker as SideId, info[attacker].home > 0);
            let weight = if attacker == usize::from(mover) {
                params.threat_next
            } else {
                params.threat_later
            };
            for (victim, stacks) in info.iter().enumerate() {
                if victim == attacker || !board.sides[victim].active() {
                    continue;
                }
                for s in stacks.list() {
                    let p = reach[usize::from(s.node)];
                    if p == 0.0 {
                        continue;
                    }
                    let lost = f64::from(s.count) * self.home - self.distance[usize::from(s.node)];
                    // The victim loses its progress; the capturer gains a throw.
                    swing[victim] -= weight * p * lost;
                    swing[attacker] += weight * p * params.throw_value;
                }
            }
        }
        let me = usize::from(me);
        let own = -cost[me] + swing[me];
        let best_other = (0..sides)
            .filter(|&s| s != me)
            .map(|s| -cost[s] + swing[s])
            .fold(f64::NEG_INFINITY, f64::max);
        if best_other.is_finite() {
            own - best_other
        } else {
            own
        }
    }
}
