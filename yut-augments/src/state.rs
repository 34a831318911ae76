//! The layer's own state, kept inside the game state (`YutState::rules`): what each side
//! owns and has left, the draft in progress, and the house rules' bookkeeping.

use serde::{Deserialize, Serialize};
use yut::graph::NODE_COUNT;
use yut::{Board, Phase, SideId, SideList};

use crate::{Augment, AugmentConfig, Candidates, Marks, OwnedList, Slot};

/// An augment a side owns, with the uses it has left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Owned {
    /// Which augment.
    pub id: Augment,
    /// Uses left this game; `None` for an augment that works every time.
    pub uses_left: Option<u8>,
}

/// One side's part of the layer (in team play: the team's).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SideAugments {
    /// The augments the side drafted, in the order it drafted them.
    pub owned: OwnedList,
    /// The house rule's cushion (첫 잡힘 완충) is still unused (always false with the rule
    /// off). 푹신한 깔개's extra cushion is its use in `owned`.
    pub cushion: bool,
    /// The side can still be protected by the truce (쉼 약속): it has not yet lost its
    /// second piece (always false with the rule off).
    pub truce: bool,
    /// The side's next turn may not capture: a capture of this side reached another side's
    /// second lost piece (the truce).
    pub truce_owed: bool,
    /// 되갚을 손 was armed by a capture of this side: its next turn owes two throws.
    pub payback_owed: bool,
    /// 업고 달리기: the nodes of this side's stacks that carry the mark.
    pub marks: Marks,
}

impl SideAugments {
    /// The side's entry for `augment`, if it owns it.
    pub fn get(&self, augment: Augment) -> Option<&Owned> {
        self.owned.get(augment)
    }

    /// Whether the side owns `augment`.
    #[inline]
    pub fn owns(&self, augment: Augment) -> bool {
        self.owned.owns(augment)
    }

    /// Whether the side owns `augment` and has a use of it left.
    #[inline]
    pub fn can_use(&self, augment: Augment) -> bool {
        self.owned.can_use(augment)
    }

    /// Spends one use of `augment` (nothing for an unlimited one).
    pub fn spend(&mut self, augment: Augment) {
        self.owned.spend(augment);
    }

    /// Gives the side `augment` with all its uses (nothing if it owns it already).
    pub fn grant(&mut self, augment: Augment) {
        self.owned.grant(augment);
    }

    /// Cushions left: the house rule's, then 푹신한 깔개's.
    pub fn cushions_left(&self) -> u8 {
        let soft = self
            .get(Augment::SoftLanding)
            .and_then(|o| o.uses_left)
            .unwrap_or(0);
        u8::from(self.cushion) + soft
    }
}

/// A draft in progress: the side to choose, the slot and the candidates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Draft {
    /// The drafting side (in team play the team; the member whose turn it is chooses).
    pub side: SideId,
    /// The slot drafted.
    pub slot: Slot,
    /// The candidates, in the order offered (the first is taken on timeout).
    pub candidates: Candidates,
}

/// The layer's whole state.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AugmentState {
    /// Per side, indexed like `Board::sides`.
    pub sides: SideList<SideAugments>,
    /// The draft waiting for `CHOOSE_AUGMENT`, if any.
    pub draft: Option<Draft>,
    /// The side that may not capture during the current turn (the truce), if any.
    pub barred: Option<SideId>,
}

// By hand, for `clone_from`: the derived one makes a new list of sides and drops the old,
// and a search copies a position into a used one at every node.
impl Clone for AugmentState {
    fn clone(&self) -> Self {
        Self {
            sides: self.sides.clone(),
            draft: self.draft.clone(),
            barred: self.barred,
        }
    }

    /// Field by field, keeping the list of sides.
    fn clone_from(&mut self, source: &Self) {
        // Every field by name: one added to the state must be copied here too.
        let Self {
            sides,
            draft,
            barred,
        } = source;
        self.sides.clone_from(sides);
        self.draft.clone_from(draft);
        self.barred = *barred;
    }
}

impl AugmentState {
    /// The part of `side` (`None` if there is no such side).
    #[inline(always)]
    pub fn side(&self, side: SideId) -> Option<&SideAugments> {
        self.sides.of(side)
    }

    /// [`AugmentState::side`], to change (the hooks' own).
    #[inline(always)]
    pub(crate) fn side_mut(&mut self, side: SideId) -> Option<&mut SideAugments> {
        self.sides.of_mut(side)
    }

    /// Every invariant of the layer's state against the base board, as a developer-facing
    /// sentence on failure.
    pub fn check(&self, config: &AugmentConfig, board: &Board) -> Result<(), String> {
        if self.sides.len() != board.sides().len() {
            return Err(format!(
                "augments: {} sides, the board has {}",
                self.sides.len(),
                board.sides().len()
            ));
        }
        for (i, (s, side)) in self.sides.iter().zip(board.sides()).enumerate() {
            if s.cushion && !config.cushion {
                return Err(format!(
                    "augments: side {i} keeps a cushion the game is without"
                ));
            }
            if (s.truce || s.truce_owed) && !config.truce {
                return Err(format!(
                    "augments: side {i} keeps a truce the game is without"
                ));
            }
            for (k, o) in s.owned.iter().enumerate() {
                if !config.augments.contains(&o.id) {
                    return Err(format!(
                        "augments: side {i} owns {}, outside the pack",
                        o.id
                    ));
                }
                if s.owned[..k].iter().any(|p| p.id == o.id) {
                    return Err(format!("augments: side {i} owns {} twice", o.id));
                }
                if s.owned[..k].iter().any(|p| p.id.slot() == o.id.slot()) {
                    return Err(format!(
                        "augments: side {i} owns two augments of slot {}",
                        o.id.slot().wire()
                    ));
                }
                match (o.id.uses(), o.uses_left) {
                    (None, None) => {}
                    (Some(max), Some(left)) if left <= max => {}
                    _ => {
                        return Err(format!(
                            "augments: side {i}: uses of {} out of bounds ({:?})",
                            o.id, o.uses_left
                        ));
                    }
                }
                if side.turns < o.id.slot().turn() {
                    return Err(format!(
                        "augments: side {i} owns {} before its {}th turn",
                        o.id,
                        o.id.slot().turn()
                    ));
                }
            }
            for (k, &m) in s.marks.iter().enumerate() {
                if usize::from(m) >= NODE_COUNT || s.marks[..k].contains(&m) {
                    return Err(format!("augments: side {i}: bad piggyback mark {m}"));
                }
            }
            if !s.marks.is_empty() && !s.owns(Augment::PiggybackDash) {
                return Err(format!(
                    "augments: side {i} has piggyback marks without piggyback-dash"
                ));
            }
            if s.payback_owed && !s.can_use(Augment::Payback) {
                return Err(format!(
                    "augments: side {i} is owed a payback it cannot use"
                ));
            }
        }
        if self.barred.is_some() && !config.truce {
            return Err("augments: a side is barred by a truce the game is without".into());
        }
        if let Some(b) = self.barred {
            if usize::from(b) >= board.sides().len() {
                return Err(format!("augments: barred side {b} does not exist"));
            }
            if board.phase() != Phase::Finished && b != board.current_side() {
                return Err("augments: the truce bars a side whose turn it is not".into());
            }
        }
        if let Some(d) = &self.draft {
            let i = usize::from(d.side);
            let Some(s) = self.sides.get(i) else {
                return Err(format!("augments: the draft's side {i} does not exist"));
            };
            if d.candidates.is_empty() || d.candidates.len() > 3 {
                return Err("augments: a draft offers one to three candidates".into());
            }
            for (k, c) in d.candidates.iter().enumerate() {
                if c.slot() != d.slot
                    || d.candidates[..k].contains(c)
                    || !config.augments.contains(c)
                {
                    return Err(format!("augments: bad draft candidate {c}"));
                }
            }
            if s.owned.owned_bits() & d.slot.bits() != 0 {
                return Err("augments: a draft for a slot the side has drafted".into());
            }
            if board.phase() != Phase::Finished {
                if board.phase() != Phase::Rule || board.current_side() != d.side {
                    return Err("augments: a draft outside its side's turn start".into());
                }
                if Slot::at_turn(board.sides()[i].turns) != Some(d.slot) {
                    return Err("augments: a draft at a turn that drafts no such slot".into());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Augment, Candidates, Slot};

    /// A state with every field away from its default, copied into used states of other
    /// sizes, is its source.
    #[test]
    fn a_state_copied_into_a_used_one_is_its_source() {
        let mut mine = SideAugments {
            cushion: true,
            truce: true,
            truce_owed: true,
            payback_owed: true,
            ..SideAugments::default()
        };
        mine.owned.grant(Augment::PiggybackDash);
        mine.marks.insert(7);
        let mut candidates = Candidates::new();
        candidates.push(Augment::FirstStep);
        let source = AugmentState {
            sides: SideList::from_vec(vec![mine.clone(), SideAugments::default(), mine]).unwrap(),
            draft: Some(Draft {
                side: 2,
                slot: Slot::Middle,
                candidates,
            }),
            barred: Some(1),
        };
        let used = [
            AugmentState::default(),
            AugmentState {
                sides: SideList::from_vec(vec![SideAugments::default(); 4]).unwrap(),
                ..AugmentState::default()
            },
        ];
        for mut copy in used {
            copy.clone_from(&source);
            assert_eq!(copy, source);
        }
        assert_eq!(source.clone(), source);
    }
}
