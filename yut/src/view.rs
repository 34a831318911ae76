//! The view (RULES.md, Views, events and errors): the same for everyone, never the RNG or
//! the seed; the player to act also gets `legalMoves`, and every seat its `legalActions`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::graph::Node;
use crate::state::{Phase, PieceStatus, SideId};
use crate::{
    LegalMove, NodeList, Rules, Throw, ThrowChance, Yut, YutAction, YutEvent, YutOptions,
    YutResult, YutState,
};

/// A piece as players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PieceView {
    /// Its number within the side.
    pub id: u8,
    /// `home`, `board` or `done`.
    pub status: PieceStatus,
    /// Its node, when on the board.
    pub node: Option<Node>,
    /// Whether it stands on 참먹이 having gone round.
    pub lapped: bool,
    /// Nodes stepped on since it entered (a backdo goes back along it).
    pub trail: NodeList,
}

/// A side as players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SideView {
    /// The side's id.
    pub id: SideId,
    /// Display name: the player's id, or 청팀/홍팀.
    pub name: String,
    /// Member player ids, in seat order.
    pub members: Vec<String>,
    /// Every piece.
    pub pieces: Vec<PieceView>,
    /// Pieces waiting at home.
    pub home: u8,
    /// Pieces finished.
    pub finished: u8,
    /// Its place once all its pieces finished.
    pub finished_rank: Option<u8>,
    /// Whether it conceded.
    pub conceded: bool,
}

/// The last throw: its sticks and result, or nak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastThrow {
    /// The sticks (`true` = flat side up, stick 0 marked), `null` for nak.
    pub sticks: Option<[bool; 4]>,
    /// The result, or `"nak"`.
    pub result: ThrowChance,
}

/// Whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Turn {
    /// The seat.
    pub seat: u8,
    /// The player's id.
    pub player: String,
    /// Their side.
    pub side: SideId,
}

/// A seat's presence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresenceView {
    /// The player's id.
    pub player: String,
    /// Connected now.
    pub connected: bool,
    /// Marked away after three timeouts in a row (자리 비움).
    pub away: bool,
    /// Whether the player conceded.
    pub conceded: bool,
}

/// What a player or a spectator sees. `A` is the game's action type (the rule
/// extension's actions included), for [`YutView::legal_actions`].
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct YutView<V, E, A = YutAction> {
    /// The base options in force.
    pub options: YutOptions,
    /// Player ids in seat order.
    pub players: Vec<String>,
    /// Player ids in turn order.
    pub turn_order: Vec<String>,
    /// Every side.
    pub sides: Vec<SideView>,
    /// Whose turn it is (`null` once the game is over).
    pub turn: Option<Turn>,
    /// What the game waits for.
    pub phase: Phase,
    /// Throws still owed this turn.
    pub throws_owed: u8,
    /// Results thrown and not yet used (모아 둔 결과).
    pub pending: Vec<Throw>,
    /// The last throw.
    pub last_throw: Option<LastThrow>,
    /// The action sequence number; send it back with an action to guard against stale requests.
    pub turn_seq: u64,
    /// When the current decision times out (host milliseconds), if it has a limit.
    pub deadline_at: Option<u64>,
    /// Presence per seat.
    pub presence: Vec<PresenceView>,
    /// The legal moves — only in the view of the player to act, in the move phase.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<Vec<LegalMove>>,
    /// The actions the viewer may send now, in the order the engine lists a player's
    /// legal actions: `THROW` in the throw phase, a `MOVE` per legal move in the move
    /// phase, the rule extension's own; empty for a spectator and for a player who is not
    /// to act. `CONCEDE` is always open to a player still in the game and not listed. Every
    /// game's view has this field, so that a host reads it alike for each.
    pub legal_actions: Vec<A>,
    /// The most recent events, oldest first.
    pub log: Vec<YutEvent<E>>,
    /// The result, once the game is over.
    pub result: Option<YutResult>,
    /// The rule extension's fields.
    #[serde(flatten)]
    pub rules: V,
}

impl<R: Rules> Yut<R> {
    /// Builds the view for `seat` (`None`: a spectator).
    pub(crate) fn build_view(
        &self,
        state: &YutState<R>,
        seat: Option<usize>,
    ) -> YutView<R::View, R::Event, YutAction<R::Action>> {
        let board = &state.board;
        let players = &board.table.players();
        let name = |s: u8| players[usize::from(s)].clone();
        let over = board.phase == Phase::Finished;
        let to_act = (!over).then(|| board.current_seat());
        YutView {
            options: board.options.clone(),
            players: players.to_vec(),
            turn_order: board.turn_order.iter().map(|&s| name(s)).collect(),
            sides: board
                .sides
                .iter()
                .enumerate()
                .map(|(i, s)| SideView {
                    id: i as SideId,
                    name: crate::outcome::side_name(board, i as SideId),
                    members: s.members.iter().map(|&m| name(m)).collect(),
                    pieces: s
                        .pieces()
                        .enumerate()
                        .map(|(id, p)| PieceView {
                            id: id as u8,
                            status: p.status,
                            node: p.node,
                            lapped: p.lapped(),
                            trail: p.trail,
                        })
                        .collect(),
                    home: s.at_home() as u8,
                    finished: s.finished() as u8,
                    finished_rank: s.finished_rank,
                    conceded: s.conceded.is_some(),
                })
                .collect(),
            turn: to_act.map(|seat| Turn {
                seat: seat as u8,
                player: players[seat].clone(),
                side: board.side_of[seat],
            }),
            phase: board.phase,
            throws_owed: board.throws_owed,
            pending: board.pending.to_vec(),
            last_throw: board.last_throw.map(|d| LastThrow {
                sticks: d.sticks,
                result: d.result.map_or(ThrowChance::Nak, ThrowChance::of),
            }),
            turn_seq: board.table.turn_seq(),
            deadline_at: board.table.deadline(),
            presence: board
                .table
                .presence()
                .iter()
                .enumerate()
                .map(|(i, p)| PresenceView {
                    player: players[i].clone(),
                    connected: p.connected(),
                    away: p.away,
                    conceded: board.seat_conceded[i],
                })
                .collect(),
            legal_moves: match (seat, to_act) {
                (Some(me), Some(current)) if me == current && board.phase == Phase::Move => {
                    Some(self.legal_moves(state))
                }
                _ => None,
            },
            legal_actions: seat
                .map(|me| game_core::Game::legal_actions(self, state, me))
                .unwrap_or_default(),
            log: state.log.iter().cloned().collect(),
            result: over.then(|| crate::outcome::result(board)),
            rules: self.rules.view(board, &state.rules),
        }
    }
}
