//! Bots for Pig: [`HoldBot`], the classic "hold at 20", and [`PigModel`], which turns the
//! framework's search bot ([`Expectimax`](game_core::search::Expectimax)) into a Pig
//! player.
//!
//! ```
//! use game_core::{Bot, Game, GameExt, search::Expectimax};
//! use pig::{HoldBot, Pig, PigModel, PigOptions};
//!
//! let players = vec!["searcher".to_string(), "holder".to_string()];
//! let mut state = Pig.setup(&PigOptions::default(), &players, 3, 0).unwrap();
//! let mut bots: [Box<dyn Bot<Pig>>; 2] = [
//!     Box::new(Expectimax::new(1, PigModel::LIMITS, PigModel::default())),
//!     Box::new(HoldBot::default()),
//! ];
//! while let Some(seat) = Pig.first_to_act(&state) {
//!     let action = bots[seat].choose(&Pig, &state, seat).unwrap();
//!     Pig.apply(&mut state, seat, &action, 0).unwrap();
//! }
//! assert!(Pig.outcome(&state).is_some());
//! ```

use std::sync::Arc;

use game_core::GameExt;
use game_core::search::{Limits, Model, Position};
use game_core::{Bot, Game};

use crate::{Pig, PigAction, PigState};

/// Rolls until the turn's total reaches [`HoldBot::hold_at`] (20 by default: on average
/// a roll then loses as much as it gains) or holding would win, then holds.
///
/// ```
/// use game_core::{Bot, Game, GameExt};
/// use pig::{HoldBot, Pig, PigAction, PigOptions};
/// let mut state = Pig.setup(&PigOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
/// state.board.turn_total = 18;
/// assert_eq!(HoldBot::default().choose(&Pig, &state, 0), Some(PigAction::Roll));
/// state.board.turn_total = 20;
/// assert_eq!(HoldBot::default().choose(&Pig, &state, 0), Some(PigAction::Hold));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldBot {
    /// The turn total it holds at.
    pub hold_at: u32,
}

impl Default for HoldBot {
    fn default() -> Self {
        Self { hold_at: 20 }
    }
}

impl HoldBot {
    /// Its choice for the seat to act in `state` (`None` once the game is over).
    pub fn pick(&self, state: &PigState) -> Option<PigAction> {
        if state.board.winner.is_some() {
            return None;
        }
        let banked = state
            .board
            .scores
            .get(state.board.turn)
            .copied()
            .unwrap_or(0);
        let total = state.board.turn_total;
        let hold = total > 0
            && (total >= self.hold_at
                || banked.saturating_add(total) >= state.board.options.target);
        Some(if hold {
            PigAction::Hold
        } else {
            PigAction::Roll
        })
    }
}

impl Bot<Pig> for HoldBot {
    fn choose(&mut self, game: &Pig, state: &PigState, seat: usize) -> Option<PigAction> {
        (game.first_to_act(state) == Some(seat))
            .then(|| self.pick(state))
            .flatten()
    }
}

/// Pig for the search bot. A position is worth the searching seat's chance to win against
/// a plain opponent (one who plays [`HoldBot`], as the search's reply turns do), playing
/// its own best: a table, built once per target, of that chance at the start of each of
/// its turns, from which any position within a turn is worked out. With more than two
/// players, each position is judged as a duel against the leading opponent.
#[derive(Clone, Debug, Default)]
pub struct PigModel {
    /// The table, shared by the copies of a prepared model (a duel makes a bot a game).
    table: Option<Arc<WinTable>>,
}

/// The turn total the plain player holds at.
const HOLD_AT: u32 = 20;

impl PigModel {
    /// The limits it is measured with: each move's outcomes and one roll beyond them in
    /// its own turn, the reply turn left to the table (which already values it exactly
    /// for a plain opponent: deeper searches choose the same).
    pub const LIMITS: Limits = Limits {
        own_chances: 1,
        reply_chances: 0,
        budget: 1_000,
    };

    /// A model prepared for `target` (a search prepares it itself).
    ///
    /// ```
    /// let model = pig::PigModel::for_target(100);
    /// // Starting first is worth a little.
    /// let first = model.start_of_turn(0, 0).unwrap();
    /// assert!(first > 0.5 && first < 0.6);
    /// ```
    pub fn for_target(target: u32) -> Self {
        Self {
            table: Some(Arc::new(WinTable::new(target))),
        }
    }

    /// The chance that the player about to start a turn with `mine` banked beats a plain
    /// opponent with `theirs`; `None` if the model was prepared for no target or another
    /// one, or a score is not below the target.
    pub fn start_of_turn(&self, mine: u32, theirs: u32) -> Option<f64> {
        let table = self.table.as_ref()?;
        (mine < table.target && theirs < table.target).then(|| table.start(mine, theirs))
    }
}

/// [`PigModel`]'s table for one target: `start[a * target + b]` is the chance that a player
/// about to start a turn with `a` banked, playing its best, beats a plain opponent with `b`.
#[derive(Debug)]
struct WinTable {
    target: u32,
    start: Vec<f64>,
    /// How a plain turn from nothing ends, by the plain player's score ([`turn_totals`]).
    plain: Vec<(f64, Vec<(u32, f64)>)>,
}

impl WinTable {
    /// Solved from the highest sum of scores down: a turn only raises a score, except a
    /// bust, which hands the turn over with both scores as they were. So each pair `(a, b)`
    /// needs only pairs already solved, and itself through the busts: a fixed point.
    fn new(target: u32) -> Self {
        let n = target as usize;
        let mut table = Self {
            target,
            start: vec![0.0; n * n],
            plain: (0..target).map(|b| turn_totals(target, b, 0)).collect(),
        };
        let (mut holds, mut buffer) = (Vec::new(), Vec::new());
        for sum in (0..2 * n - 1).rev() {
            for a in sum.saturating_sub(n - 1)..=sum.min(n - 1) {
                let (mine, theirs) = (a as u32, (sum - a) as u32);
                table.holds(mine, theirs, 0, &mut holds);
                // Through the plain player's turn, but for its busts (which come back here).
                let bust = table.plain[theirs as usize].0;
                let on = table.their_turn(mine, theirs, 0) - bust * table.start(mine, theirs);
                let mut turn = |x: f64| best_turn(0, bust * x + on, &holds, &mut buffer);
                // Two rounds and Aitken's extrapolation: the turn's value is piecewise
                // linear in `x`, so this lands on the fixed point in a few steps.
                let mut x = 0.5;
                for _ in 0..100 {
                    let x1 = turn(x);
                    let x2 = turn(x1);
                    let bend = x2 - 2.0 * x1 + x;
                    let next = if bend.abs() > 1e-15 {
                        (x2 - (x2 - x1) * (x2 - x1) / bend).clamp(0.0, 1.0)
                    } else {
                        x2
                    };
                    let done = (next - x).abs() < 1e-13;
                    x = next;
                    if done {
                        break;
                    }
                }
                table.start[a * n + sum - a] = x;
            }
        }
        table
    }

    fn start(&self, mine: u32, theirs: u32) -> f64 {
        self.start[(mine * self.target + theirs) as usize]
    }

    /// The chance to win with `mine` banked and the plain opponent, at `theirs`, to start
    /// a turn (or to go on with `total` gathered).
    fn their_turn(&self, mine: u32, theirs: u32, total: u32) -> f64 {
        let from_total;
        let (bust, ends) = if total == 0 {
            &self.plain[theirs as usize]
        } else {
            from_total = turn_totals(self.target, theirs, total);
            &from_total
        };
        let mut value = bust * self.start(mine, theirs);
        for &(t, p) in ends {
            if theirs + t < self.target {
                value += p * self.start(mine, theirs + t);
            }
        }
        value
    }

    /// Into `holds`, for each total gathered from `from` up to what wins, the chance to
    /// win by holding it (0 for nothing: holding needs a total).
    fn holds(&self, mine: u32, theirs: u32, from: u32, holds: &mut Vec<f64>) {
        holds.clear();
        holds.extend((0..self.target - mine).map(|t| {
            if t < from.max(1) {
                0.0
            } else {
                self.their_turn(mine + t, theirs, 0)
            }
        }));
    }

    /// The chance to win with `mine` banked, `total` gathered in one's own turn and the
    /// plain opponent at `theirs`, playing the rest of the turn best.
    fn in_turn(&self, mine: u32, total: u32, theirs: u32) -> f64 {
        if mine.saturating_add(total) >= self.target {
            return 1.0;
        }
        let mut holds = Vec::new();
        self.holds(mine, theirs, total, &mut holds);
        let busted = self.their_turn(mine, theirs, 0);
        best_turn(total as usize, busted, &holds, &mut Vec::new())
    }
}

/// The chance to win playing a turn best from `total` gathered, given the chance after a
/// bust and `holds[t]`, the chance after holding `t` (for every `t` short of winning):
/// worked back from the totals that win, each the better of holding and rolling.
fn best_turn(total: usize, busted: f64, holds: &[f64], value: &mut Vec<f64>) -> f64 {
    let room = holds.len();
    value.clear();
    value.resize(room + 6, 1.0);
    for t in (total..room).rev() {
        let roll = (busted + (2..=6).map(|d| value[t + d]).sum::<f64>()) / 6.0;
        value[t] = if t > 0 { roll.max(holds[t]) } else { roll };
    }
    value[total]
}

impl Model<Pig> for PigModel {
    type Mover = usize;
    type Move = PigAction;
    /// The scores, the seat to act and its turn's total.
    type Key = (Vec<u32>, usize, u32);

    fn prepare(&mut self, _game: &Pig, state: &PigState) {
        let target = state.board.options.target;
        if self.table.as_ref().is_none_or(|t| t.target != target) {
            *self = Self::for_target(target);
        }
    }

    fn mover(&self, game: &Pig, state: &PigState) -> Option<usize> {
        game.first_to_act(state)
    }

    fn position(&self, game: &Pig, state: &PigState) -> Position<PigAction, PigAction> {
        match game.first_to_act(state) {
            Some(seat) => Position::Choice {
                seat,
                moves: game.legal_actions(state, seat),
            },
            None => Position::Over,
        }
    }

    fn action(&self, m: &PigAction) -> PigAction {
        *m
    }

    fn policy(&self, _game: &Pig, state: &PigState, moves: &[PigAction]) -> Option<PigAction> {
        HoldBot::default()
            .pick(state)
            .filter(|a| moves.contains(a))
            .or_else(|| moves.first().copied())
    }

    fn evaluate(&self, _game: &Pig, state: &PigState, me: usize) -> f64 {
        if let Some(w) = state.board.winner {
            return if w == me { 1.0 } else { 0.0 };
        }
        let Some(table) = self
            .table
            .as_ref()
            .filter(|t| t.target == state.board.options.target)
        else {
            return 0.5;
        };
        let score = |s: usize| state.board.scores.get(s).copied().unwrap_or(0);
        let mine = score(me);
        let theirs = (0..state.board.scores.len())
            .filter(|&s| s != me)
            .map(score)
            .max()
            .unwrap_or(0);
        if state.board.turn == me {
            table.in_turn(mine, state.board.turn_total, theirs)
        } else {
            table.their_turn(mine, theirs, state.board.turn_total)
        }
    }

    fn floor(&self) -> f64 {
        0.0
    }

    fn key(&self, state: &PigState) -> (Vec<u32>, usize, u32) {
        (
            state.board.scores.clone(),
            state.board.turn,
            state.board.turn_total,
        )
    }
}

/// What [`duel`] found: the wins of the first bot out of the games played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelResult {
    /// Games played.
    pub games: u32,
    /// Games the first bot won.
    pub wins: u32,
}

impl DuelResult {
    /// The first bot's win rate.
    pub fn rate(&self) -> f64 {
        f64::from(self.wins) / f64::from(self.games.max(1))
    }

    /// The Wilson score interval of the win rate at `z` standard errors (1.96 for 95 %):
    /// unlike the plain `rate ± z·se`, it stays inside 0..1 and is sound for small counts.
    ///
    /// ```
    /// let r = pig::bots::DuelResult { games: 2_000, wins: 1_100 };
    /// let (low, high) = r.wilson(1.96);
    /// assert!(low > 0.528 && low < 0.529 && high > 0.571 && high < 0.572);
    /// ```
    pub fn wilson(&self, z: f64) -> (f64, f64) {
        let n = f64::from(self.games.max(1));
        let p = self.rate();
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        (centre - half, centre + half)
    }
}

/// Plays `games` two-player games of `options` between two bots, made afresh for each game
/// from its seed by `first` and `second`: the first bot sits in seat 0 in even games and
/// seat 1 in odd ones, so that neither gets the first move's edge more often. Game `i` is
/// set up with seed `seed + i`, so a duel is the same every time it is played.
///
/// ```
/// use pig::{HoldBot, PigOptions, bots::duel};
/// let holders = || Box::new(HoldBot::default()) as Box<dyn game_core::Bot<pig::Pig>>;
/// let r = duel(&PigOptions::default(), 20, 1, |_| holders(), |_| holders());
/// assert_eq!(r.games, 20);
/// assert_eq!(r, duel(&PigOptions::default(), 20, 1, |_| holders(), |_| holders()));
/// ```
pub fn duel(
    options: &crate::PigOptions,
    games: u32,
    seed: u64,
    mut first: impl FnMut(u64) -> Box<dyn Bot<Pig>>,
    mut second: impl FnMut(u64) -> Box<dyn Bot<Pig>>,
) -> DuelResult {
    let players = ["one".to_string(), "two".to_string()];
    let mut wins = 0;
    for i in 0..games {
        let game_seed = seed.wrapping_add(u64::from(i));
        let (a, b) = (first(game_seed), second(game_seed));
        let (mine, mut bots) = if i % 2 == 0 { (0, [a, b]) } else { (1, [b, a]) };
        let Ok(mut state) = Pig.setup(options, &players, game_seed, 0) else {
            break;
        };
        while let Some(seat) = Pig.first_to_act(&state) {
            let action = bots[seat].choose(&Pig, &state, seat);
            let applied = action.map(|a| Pig.apply(&mut state, seat, &a, 0));
            if !matches!(applied, Some(Ok(_))) {
                // A bot that passes or errs has the engine act for it, as a host would.
                let Some(a) = Pig.timeout_action(&state, seat) else {
                    break;
                };
                if Pig.apply(&mut state, seat, &a, 0).is_err() {
                    break;
                }
            }
        }
        wins += u32::from(state.board.winner == Some(mine));
    }
    DuelResult { games, wins }
}

/// How a turn of the plain player ([`HoldBot`]) at `mine` banked ends from `from`
/// gathered: `(bust, [(total, chance)])`, the totals where it holds (from its goal, 20 or
/// what wins, up to 5 past, or `from` itself when that reached the goal already).
fn turn_totals(target: u32, mine: u32, from: u32) -> (f64, Vec<(u32, f64)>) {
    let goal = HOLD_AT.min(target.saturating_sub(mine)).max(1) as usize;
    let from = from as usize;
    if from >= goal {
        return (0.0, vec![(from as u32, 1.0)]);
    }
    // reach[t]: the chance of rolling on with `t` gathered.
    let mut reach = vec![0.0; goal + 6];
    reach[from] = 1.0;
    let mut bust = 0.0;
    for t in from..goal {
        let p = reach[t] / 6.0;
        bust += p;
        for d in 2..=6 {
            reach[t + d] += p;
        }
    }
    let ends = (goal..goal + 6).map(|t| (t as u32, reach[t])).collect();
    (bust, ends)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_ends_in_exactly_one_way() {
        for (target, mine) in [(100, 0), (100, 95), (10, 0)] {
            let (bust, ends) = turn_totals(target, mine, 0);
            let total: f64 = bust + ends.iter().map(|(_, p)| p).sum::<f64>();
            assert!((total - 1.0).abs() < 1e-12, "{target} {mine}: {total}");
        }
        // From 98 of 100, the plain player holds on any roll but a 1.
        let (bust, ends) = turn_totals(100, 98, 0);
        assert!((bust - 1.0 / 6.0).abs() < 1e-12);
        assert_eq!(ends.iter().filter(|(_, p)| *p > 0.0).count(), 5);
    }

    #[test]
    fn the_table_values_leads_and_the_first_move() {
        let model = PigModel::for_target(100);
        let f = |a, b| model.start_of_turn(a, b).unwrap();
        for (a, b) in [(0, 0), (50, 60), (99, 99), (10, 90)] {
            let (x, y) = (f(a, b), f(b, a));
            assert!((0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y));
            // Whoever starts, being ahead is worth more than being behind.
            if a > b {
                assert!(x > f(b, a) - 1e-12, "{a} {b}");
            }
        }
        // Moving first from level scores is an edge, and so is a lead.
        assert!(f(0, 0) > 0.5 && f(60, 40) > f(40, 40));
        // At 99, any roll but a 1 wins.
        assert!(f(99, 0) > 5.0 / 6.0 - 1e-12);
        assert_eq!(model.start_of_turn(100, 0), None);
        assert_eq!(PigModel::default().start_of_turn(0, 0), None);
    }
}
