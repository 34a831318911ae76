//! The end of the game and its result (RULES.md, Ending and ranking).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::options::Mode;
use crate::state::{Board, SideId, ThrowStats};

/// One place of the ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Place {
    /// The rank (1 = first); tied places share a rank and the next is skipped.
    pub rank: u8,
    /// The side's players.
    pub players: Vec<String>,
    /// The side.
    pub side: SideId,
    /// Pieces finished.
    pub finished_pieces: u8,
    /// Sum of its pieces' remaining distances (what ranks the sides that did not finish).
    pub remaining_distance: u32,
}

/// Statistics of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResultStats {
    /// Results thrown, nak included.
    pub throws: ThrowStats,
    /// Pieces captured by each side.
    pub captures: BTreeMap<SideId, u32>,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct YutResult {
    /// Every side, best first.
    pub ranking: Vec<Place>,
    /// The players of the first place.
    pub winners: Vec<String>,
    /// One line for the result screen, e.g. "청팀 승리! (4개 모두 남)".
    pub summary: String,
    /// Statistics.
    pub stats: ResultStats,
}

/// The name of a side for players: the player's id in individual play, 청팀/홍팀 in teams.
pub fn side_name(board: &Board, side: SideId) -> String {
    match board.options.mode {
        Mode::Team => if side == 0 { "청팀" } else { "홍팀" }.to_owned(),
        Mode::Individual => board.sides[usize::from(side)]
            .members
            .first()
            .map(|&s| board.table.players[usize::from(s)].clone())
            .unwrap_or_default(),
    }
}

/// The ranking key of a side: finished sides by their place, then sides still playing by
/// progress, then conceded sides (a later concede above an earlier one).
fn key(board: &Board, side: SideId) -> (u8, u32, u32, u32) {
    let s = &board.sides[usize::from(side)];
    let reach = board.options.finish_rule == crate::FinishRule::Reach;
    match (s.finished_rank, s.conceded) {
        (Some(rank), _) => (0, u32::from(rank), 0, 0),
        (None, None) => (
            1,
            u32::MAX - s.finished() as u32,
            s.remaining_distance(reach),
            0,
        ),
        (None, Some(order)) => (2, u32::MAX - u32::from(order), 0, 0),
    }
}

/// The ranking of every side.
pub fn ranking(board: &Board) -> Vec<Place> {
    let reach = board.options.finish_rule == crate::FinishRule::Reach;
    let mut order: Vec<SideId> = (0..board.sides.len() as SideId).collect();
    order.sort_by_key(|&s| key(board, s));
    let mut places: Vec<Place> = Vec::with_capacity(order.len());
    for (i, &side) in order.iter().enumerate() {
        let tied = i > 0 && key(board, order[i - 1]) == key(board, side);
        let rank = if tied {
            places[i - 1].rank
        } else {
            i as u8 + 1
        };
        let s = &board.sides[usize::from(side)];
        places.push(Place {
            rank,
            players: s
                .members
                .iter()
                .map(|&m| board.table.players[usize::from(m)].clone())
                .collect(),
            side,
            finished_pieces: s.finished() as u8,
            remaining_distance: s.remaining_distance(reach),
        });
    }
    places
}

/// The players of the first place.
pub fn winners(board: &Board) -> Vec<String> {
    // The places ranked first are the sides with the least key, in side order (the
    // ranking's sort is stable); found without building the ranking.
    let sides = 0..board.sides.len() as SideId;
    let Some(best) = sides.clone().map(|s| key(board, s)).min() else {
        return Vec::new();
    };
    sides
        .filter(|&s| key(board, s) == best)
        .flat_map(|s| &board.sides[usize::from(s)].members)
        .map(|&m| board.table.players[usize::from(m)].clone())
        .collect()
}

/// The result of a finished game.
pub fn result(board: &Board) -> YutResult {
    let ranking = ranking(board);
    // The `gameOver` event's winners, from the same function.
    let winners = winners(board);
    let summary = match ranking.first() {
        Some(first) => {
            let name = side_name(board, first.side);
            let pieces = board.options.pieces;
            if usize::from(first.finished_pieces) == usize::from(pieces) {
                format!("{name} 승리! ({pieces}개 모두 남)")
            } else {
                format!("{name} 승리! (상대 기권)")
            }
        }
        None => String::new(),
    };
    YutResult {
        ranking,
        winners,
        summary,
        stats: ResultStats {
            throws: board.stats.clone(),
            captures: board
                .sides
                .iter()
                .enumerate()
                .map(|(i, s)| (i as SideId, u32::from(s.captures)))
                .collect(),
        },
    }
}
