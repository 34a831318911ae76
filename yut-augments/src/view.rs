//! The layer's part of the view, flattened into the yut view: the draft, and per side the
//! augments with their uses left and the house rules' availability.

use schemars::JsonSchema;
use serde::Serialize;
use yut::graph::Node;
use yut::{Board, Phase, SideId};

use crate::{Augment, AugmentState, Slot};

/// A candidate of the draft, as players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CandidateView {
    /// Its id.
    pub id: Augment,
    /// Its Korean name.
    pub name: String,
    /// Its Korean effect text.
    pub text: String,
}

/// The draft in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DraftView {
    /// The drafting side.
    pub side: SideId,
    /// The slot.
    pub slot: Slot,
    /// The candidates, in order (`CHOOSE_AUGMENT {index}` indexes this list).
    pub candidates: Vec<CandidateView>,
}

/// An augment a side owns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnedView {
    /// Its id.
    pub id: Augment,
    /// Uses left; `null` when unlimited.
    pub uses_left: Option<u8>,
}

/// One side's part of the layer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SideAugmentView {
    /// The side.
    pub side: SideId,
    /// Its augments, in the order drafted.
    pub augments: Vec<OwnedView>,
    /// Cushions left (the house rule's and 푹신한 깔개's).
    pub cushions_left: u8,
    /// Whether the truce can still protect this side.
    pub truce_available: bool,
    /// Whether the side may not capture during this turn (the truce).
    pub no_capture_now: bool,
    /// Whether the side may not capture during its next turn (the truce).
    pub no_capture_next_turn: bool,
    /// Whether 되갚을 손 will give its next turn two throws.
    pub payback_owed: bool,
    /// Nodes of its stacks marked by 업고 달리기.
    pub marks: Vec<Node>,
}

/// The augment layer's view fields (flattened into the yut view as `draft` and
/// `augmentSides`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AugmentView {
    /// The draft waiting for a choice, or `null`.
    pub draft: Option<DraftView>,
    /// Every side's augments and house-rule availability, indexed like `sides`.
    pub augment_sides: Vec<SideAugmentView>,
}

impl AugmentView {
    /// Builds the view of `state`.
    pub fn of(board: &Board, state: &AugmentState) -> Self {
        let draft = state
            .draft
            .as_ref()
            .filter(|_| board.phase() == Phase::Rule)
            .map(|d| DraftView {
                side: d.side,
                slot: d.slot,
                candidates: d
                    .candidates
                    .iter()
                    .map(|&a| CandidateView {
                        id: a,
                        name: a.name().into(),
                        text: a.text().into(),
                    })
                    .collect(),
            });
        let augment_sides = state
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| SideAugmentView {
                side: i as SideId,
                augments: s
                    .owned
                    .iter()
                    .map(|o| OwnedView {
                        id: o.id,
                        uses_left: o.uses_left,
                    })
                    .collect(),
                cushions_left: s.cushions_left(),
                truce_available: s.truce,
                no_capture_now: state.barred == Some(i as SideId),
                no_capture_next_turn: s.truce_owed,
                payback_owed: s.payback_owed,
                marks: s.marks.to_vec(),
            })
            .collect();
        Self {
            draft,
            augment_sides,
        }
    }
}
