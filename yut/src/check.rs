//! Validation of a restored state: a tampered or corrupted state is refused, never loaded
//! half-valid.

use crate::LOG_LEN;
use crate::graph::NODE_COUNT;
use crate::options::Mode;
use crate::rules::RuleOptions;
use crate::state::{Phase, PieceStatus};
use crate::{Rules, Yut, YutState};

/// Pending results or owed throws beyond this are not reachable in practice (each needs
/// another 윷 or 모 in a row: 0.13^60 under realistic sticks), so a state with more is
/// treated as tampered.
pub const MAX_PENDING: usize = 64;

/// Whether every node of `trail` is one forward step from the node before it, as a
/// stack's trail always is (RULES.md, Stored states): a move extends it by the nodes
/// stepped on, a backdo drops its last node, and a trail started afresh (a backdo onto
/// 참먹이, a cushioned capture) is one node. A trail that jumps would send a backdo
/// across the board. A step from a node is the one that starts there, or the one that
/// passes through it from the node before (only 방 tells them apart); 참먹이 is never
/// stepped from (any step finishes).
fn is_forward_path(trail: &[crate::graph::Node]) -> bool {
    use crate::graph::{CHAMMEOGI, next};
    trail.windows(2).enumerate().all(|(i, pair)| {
        let (from, to) = (pair[0], pair[1]);
        let before = i.checked_sub(1).map(|j| trail[j]);
        from != CHAMMEOGI && (to == next(from, true, None) || to == next(from, false, before))
    })
}

impl<R: Rules> Yut<R> {
    /// Every invariant of a state, as a developer-facing sentence on failure.
    pub(crate) fn check(&self, state: &YutState<R>) -> Result<(), String> {
        let b = &state.board;
        let players = b.table.players().len();
        let base = crate::rules::RuleOptions::base(&state.options);
        if base != &b.options {
            return Err("the base options differ from the rule options' base".into());
        }
        b.options
            .validate(players)
            .map_err(|e| format!("options: {e}"))?;
        self.rules
            .validate_config(
                crate::rules::RuleOptions::config(&state.options),
                &b.options,
            )
            .map_err(|e| format!("options: {e}"))?;
        let sides = b.options.sides(players);
        if b.side_of.len() != players || b.seat_conceded.len() != players {
            return Err("every seat needs a side and a concede flag".into());
        }
        if b.sides.len() != sides {
            return Err(format!("expected {sides} sides, found {}", b.sides.len()));
        }
        for (seat, &side) in b.side_of.iter().enumerate() {
            let expected = match b.options.mode {
                Mode::Individual => seat,
                Mode::Team => seat % 2,
            };
            if usize::from(side) != expected {
                return Err(format!(
                    "seat {seat} is on side {side}, expected {expected}"
                ));
            }
            if !b.sides[usize::from(side)].members.contains(&(seat as u8)) {
                return Err(format!("seat {seat} is missing from its side's members"));
            }
        }
        let mut owner = [None; NODE_COUNT];
        for (i, side) in b.sides.iter().enumerate() {
            if side
                .members
                .iter()
                .any(|&m| usize::from(m) >= players || usize::from(b.side_of[usize::from(m)]) != i)
            {
                return Err(format!("side {i} lists a seat of another side"));
            }
            if side.pieces().len() != usize::from(b.options.pieces) {
                return Err(format!(
                    "side {i} has {} pieces, expected {}",
                    side.pieces().len(),
                    b.options.pieces
                ));
            }
            // What a piece's place can be (a node of the board only on it, no trail off
            // it, one trail a stack) is checked as a stored side is read: a side holds
            // nothing else.
            for (k, p) in side.pieces().enumerate() {
                if let (PieceStatus::Board, Some(n)) = (p.status, p.node) {
                    if p.trail.last() != Some(n) {
                        return Err(format!(
                            "side {i} piece {k}: trail does not end on node {n}"
                        ));
                    }
                    if !is_forward_path(p.trail.as_slice()) {
                        return Err(format!(
                            "side {i} piece {k}: trail {:?} is not a way forward through the board",
                            p.trail.as_slice()
                        ));
                    }
                    match owner[usize::from(n)] {
                        Some(o) if o != i => {
                            return Err(format!("node {n} holds pieces of sides {o} and {i}"));
                        }
                        _ => owner[usize::from(n)] = Some(i),
                    }
                }
            }
            let all_done = side.finished() == side.pieces().len();
            if side.finished_rank.is_some() != all_done {
                return Err(format!(
                    "side {i}: finished rank does not match its finished pieces"
                ));
            }
            if side
                .finished_rank
                .is_some_and(|r| r == 0 || usize::from(r) > sides)
            {
                return Err(format!("side {i}: rank out of range"));
            }
            if side.conceded.is_some_and(|c| c == 0 || c > b.concedes) {
                return Err(format!("side {i}: concede order out of range"));
            }
        }
        // Each side concedes once, so the count is the number of sides that did (and a
        // tampered count cannot overflow on the next concede).
        let conceded = b.sides.iter().filter(|s| s.conceded.is_some()).count();
        if usize::from(b.concedes) != conceded {
            return Err(format!(
                "{} concedes counted, but {conceded} sides conceded",
                b.concedes
            ));
        }
        let mut seen = vec![false; players];
        for &s in &b.turn_order {
            if usize::from(s) >= players || std::mem::replace(&mut seen[usize::from(s)], true) {
                return Err("turn order must list every seat once".into());
            }
        }
        if b.turn_order.len() != players || usize::from(b.turn_index) >= players {
            return Err(
                "turn order must list every seat once, and the turn index lie in it".into(),
            );
        }
        if b.pending.len() + usize::from(b.throws_owed) > MAX_PENDING {
            return Err("too many pending results and owed throws".into());
        }
        if state.log.len() > LOG_LEN {
            return Err("the event log is longer than its cap".into());
        }
        if !b.turn_in_step() {
            return Err("the seat to act is out of step with the turn order".into());
        }
        let current = b.current_seat();
        let over = b.phase == Phase::Finished;
        if !over && (b.seat_conceded[current] || !b.sides[usize::from(b.side_of[current])].active())
        {
            return Err("the seat to act has left the game".into());
        }
        // Every action asks for the next decision with a fresh clock, so a running game's
        // deadline is always its decision start plus the turn limit (none without one).
        let expected = b
            .options
            .turn_seconds
            .map(|s| b.table.decision_since().saturating_add(u64::from(s) * 1000));
        if !over && b.table.deadline_at() != expected {
            return Err("the deadline does not match turnSeconds".into());
        }
        let phase: Result<(), String> = match b.phase {
            // A rule action goes on to the throws of the turn (`TurnStart::Throw`).
            Phase::Throw | Phase::Rule if b.throws_owed == 0 => {
                Err("throw or rule phase with no throw owed".into())
            }
            Phase::Move if b.pending.is_empty() || b.throws_owed > 0 => {
                Err("move phase needs pending results and no owed throw".into())
            }
            Phase::Finished if b.table.deadline_at().is_some() => {
                Err("a deadline after the end".into())
            }
            Phase::Finished if !b.pending.is_empty() || b.throws_owed > 0 => {
                Err("a finished game has nothing pending".into())
            }
            Phase::Finished
                if b.active_sides() > 1 && !b.sides.iter().any(|s| s.finished_rank.is_some()) =>
            {
                Err("finished with two sides still playing and no side finished".into())
            }
            _ if !over && b.active_sides() < 2 => {
                Err("a game in progress needs two sides playing".into())
            }
            _ => Ok(()),
        };
        phase?;
        self.rules
            .check_state(state.options.config(), &state.rules, b)?;
        // Otherwise the player to act could do nothing, and no timeout would act either:
        // the game would be stuck for good.
        match b.phase {
            Phase::Move if !self.any_legal_move(state) => {
                Err("move phase without a legal move".into())
            }
            Phase::Rule if !self.rules.waiting(b, &state.rules) => {
                Err("rule phase while the rules wait for no action".into())
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use game_core::{Game, GameError};

    use super::is_forward_path;
    #[test]
    fn a_trail_is_a_way_forward_through_the_board() {
        for trail in [
            &[1, 2, 3, 4, 5][..],
            &[1, 2, 3, 4, 5, 20, 21, 22, 23, 24, 15, 16],
            &[5, 6, 7, 8, 9, 10, 25, 26, 22, 27, 28, 0],
            &[20, 21, 22, 27],
            &[17, 18, 19, 0],
            &[22],
            &[],
        ] {
            assert!(is_forward_path(trail), "{trail:?}");
        }
        for trail in [
            &[1, 17][..],
            &[5, 17],
            &[0, 1],
            &[19, 0, 1],
            // Through 방 from 26 the way goes on to 27; to 23 only from 21.
            &[26, 22, 23],
            &[22, 23],
            &[3, 2],
        ] {
            assert!(!is_forward_path(trail), "{trail:?}");
        }
    }

    use crate::{Yut, YutOptions};

    /// The cached seat to act follows the turn order; a board whose turn index moved
    /// without it is refused, not played with the wrong seat.
    #[test]
    fn a_seat_to_act_out_of_step_is_refused() {
        let game = Yut::standard();
        let players = ["a".to_string(), "b".to_string()];
        let mut state = game.setup(&YutOptions::default(), &players, 1, 0).unwrap();
        assert_eq!(game.check(&state), Ok(()));
        state.board.turn_index = 1 - state.board.turn_index;
        assert!(game.check(&state).unwrap_err().contains("out of step"));
        state.board.sync_turn();
        assert_eq!(game.check(&state), Ok(()));
        let board = &state.board;
        let seat = board.turn_order[usize::from(board.turn_index)];
        assert_eq!(board.current_seat(), usize::from(seat));
        assert_eq!(board.current_side(), board.side_of[usize::from(seat)]);
    }

    /// A stored log of [`LOG_LEN`](crate::LOG_LEN) events loads; one of more is refused
    /// with `CORRUPT_STATE`, though the ring holds no more than it loads.
    #[test]
    fn a_stored_log_longer_than_its_cap_is_refused() {
        let game = Yut::standard();
        let players = ["a".to_string(), "b".to_string()];
        let state = game.setup(&YutOptions::default(), &players, 1, 0).unwrap();
        let mut json = serde_json::to_value(&state).unwrap();
        for n in [crate::LOG_LEN, crate::LOG_LEN + 1, 4 * crate::LOG_LEN] {
            json["log"] = serde_json::json!(vec![serde_json::json!({"type": "nak", "side": 0}); n]);
            let restored = game.restore(&json.to_string());
            if n <= crate::LOG_LEN {
                assert_eq!(restored.unwrap().log.len(), n);
            } else {
                let err = restored.unwrap_err();
                assert_eq!(err.code(), "CORRUPT_STATE");
                assert!(
                    format!("{err:?}").contains("event log is longer"),
                    "{err:?}"
                );
            }
        }
    }
}
