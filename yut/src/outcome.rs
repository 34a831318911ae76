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
            .map(|&s| board.table.players()[usize::from(s)].clone())
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
                .map(|&m| board.table.players()[usize::from(m)].clone())
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
    let mut players = Vec::new();
    winners_into(board, &mut players);
    players
}

/// [`winners`] written over `players`: its strings are overwritten in place (`clone_from`
/// keeps their buffers), so that a list kept from a game of the same players allocates
/// nothing.
pub(crate) fn winners_into(board: &Board, players: &mut Vec<String>) {
    let mut written = 0;
    let mut put = |m: u8| {
        let name = &board.table.players()[usize::from(m)];
        match players.get_mut(written) {
            Some(kept) => kept.clone_from(name),
            None => players.push(name.clone()),
        }
        written += 1;
    };
    // The places ranked first are the sides with the least key, in side order (the
    // ranking's sort is stable); found without building the ranking. A finished side's
    // key is below every other: once one has finished (how every game ends but by
    // concedes), the least finishing rank decides, and no distance is summed.
    if let Some(rank) = board.sides.iter().filter_map(|s| s.finished_rank).min() {
        for side in board.sides.iter().filter(|s| s.finished_rank == Some(rank)) {
            side.members.iter().for_each(|&m| put(m));
        }
    } else {
        let sides = 0..board.sides.len() as SideId;
        if let Some(best) = sides.clone().map(|s| key(board, s)).min() {
            sides
                .filter(|&s| key(board, s) == best)
                .flat_map(|s| &board.sides[usize::from(s)].members)
                .for_each(|&m| put(m));
        }
    }
    players.truncate(written);
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

#[cfg(test)]
mod tests {
    use game_core::GameExt;
    use game_core::{Game, GameRng};

    use crate::{Mode, Ranking, Yut, YutAction, YutEvent, YutOptions};

    /// The winners (`winners` and the `gameOver` event's) are the players of the ranking's
    /// first places, in order, however the game ends: random games of 2 to 4 sides and of
    /// teams, under both rankings, with random concedes (by seats whose turn it is or not).
    #[test]
    fn winners_are_the_ranking_s_first_places() {
        let game = Yut::standard();
        let mut kept = None;
        let (mut concedes, mut unfinished) = (0, 0);
        for seed in 0..400u64 {
            let team = seed % 4 == 3;
            let players = if team {
                4 + 2 * (seed / 4 % 3)
            } else {
                2 + seed % 3
            };
            let options = YutOptions {
                mode: if team { Mode::Team } else { Mode::Individual },
                ranking: if seed % 2 == 0 {
                    Ranking::All
                } else {
                    Ranking::First
                },
                pieces: 2 + (seed % 4) as u8,
                ..YutOptions::default()
            };
            // Ids of every length, so that a list kept from the last game is written over
            // with longer and shorter ones, and more and fewer of them.
            let ids: Vec<String> = (0..players)
                .map(|i| format!("{}{i}", "p".repeat(1 + (seed % 7) as usize)))
                .collect();
            // One state for all the games, each after the first reset from the last:
            // every game's end but the first writes over the last game's winners.
            let state = match kept.as_mut() {
                Some(state) => {
                    game.reset(state, &options, &ids, seed, 0).unwrap();
                    state
                }
                None => kept.insert(game.setup(&options, &ids, seed, 0).unwrap()),
            };
            let mut rng = GameRng::from_seed(seed);
            let mut over = None;
            while !state.board.is_over() {
                let mut seat = state.board.current_seat();
                let action = if rng.below(100) == 0 {
                    let playing: Vec<usize> = (0..ids.len())
                        .filter(|&s| !state.board.seat_conceded[s])
                        .collect();
                    seat = playing[rng.below(playing.len() as u32) as usize];
                    concedes += 1;
                    YutAction::Concede
                } else {
                    let actions = game.legal_actions(state, seat);
                    actions[rng.below(actions.len() as u32) as usize]
                };
                let events = game.apply(state, seat, &action, 0).unwrap();
                over = events.iter().find_map(|e| match e {
                    YutEvent::GameOver { winners } => Some(winners.clone()),
                    _ => None,
                });
            }
            let first: Vec<String> = super::ranking(&state.board)
                .into_iter()
                .take_while(|p| p.rank == 1)
                .flat_map(|p| p.players)
                .collect();
            assert_eq!(super::winners(&state.board), first, "seed {seed}");
            let logged = state.log.iter().find_map(|e| match e {
                YutEvent::GameOver { winners } => Some(winners.clone()),
                _ => None,
            });
            assert_eq!(logged.as_ref(), Some(&first), "seed {seed}");
            assert_eq!(over, Some(first), "seed {seed}");
            let sides = &state.board.sides;
            unfinished += usize::from(sides.iter().all(|s| s.finished_rank.is_none()));
        }
        // Both ways of finding the first places are taken.
        assert!(concedes > 200, "concedes are played: {concedes}");
        assert!(
            unfinished > 50,
            "games end with no side finished: {unfinished}"
        );
    }
}
