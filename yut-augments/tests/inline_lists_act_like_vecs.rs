//! The layer's inline lists ([`OwnedList`], [`Marks`], [`Candidates`]) answer and change
//! exactly as the plain `Vec`s they replace would under the same operations (the first
//! entry of a repeated augment or node counts, order is kept), their bit sets agree with
//! their entries, and they serialize and read back as those `Vec`s do.

use proptest::prelude::*;
use yut::graph::{NODE_COUNT, Node};
use yut_augments::{Augment, Candidates, Marks, Owned, OwnedList};

/// The reference: the list as a `Vec<Owned>`, with the old search semantics.
#[derive(Default)]
struct OwnedModel(Vec<Owned>);

impl OwnedModel {
    fn get(&self, a: Augment) -> Option<&Owned> {
        self.0.iter().find(|o| o.id == a)
    }

    fn can_use(&self, a: Augment) -> bool {
        self.get(a)
            .is_some_and(|o| o.uses_left.is_none_or(|n| n > 0))
    }

    fn spend(&mut self, a: Augment) {
        if let Some(o) = self.0.iter_mut().find(|o| o.id == a)
            && let Some(n) = &mut o.uses_left
        {
            *n = n.saturating_sub(1);
        }
    }

    fn grant(&mut self, a: Augment) {
        if self.get(a).is_none() {
            self.0.push(Owned {
                id: a,
                uses_left: a.uses(),
            });
        }
    }

    fn set_uses_left(&mut self, a: Augment, uses_left: Option<u8>) {
        if let Some(o) = self.0.iter_mut().find(|o| o.id == a) {
            o.uses_left = uses_left;
        }
    }
}

fn augment() -> impl Strategy<Value = Augment> {
    (0..Augment::ALL.len()).prop_map(|i| Augment::ALL[i])
}

#[derive(Clone, Debug)]
enum OwnedOp {
    Grant(Augment),
    Spend(Augment),
    SetUses(Augment, Option<u8>),
}

fn owned_op() -> impl Strategy<Value = OwnedOp> {
    prop_oneof![
        augment().prop_map(OwnedOp::Grant),
        augment().prop_map(OwnedOp::Spend),
        (augment(), proptest::option::of(0u8..4)).prop_map(|(a, n)| OwnedOp::SetUses(a, n)),
    ]
}

#[track_caller]
fn same_owned(list: &OwnedList, model: &OwnedModel) {
    assert_eq!(list[..], model.0[..]);
    for a in Augment::ALL {
        assert_eq!(list.get(a), model.get(a), "{a}");
        assert_eq!(list.owns(a), model.get(a).is_some(), "{a}");
        assert_eq!(list.can_use(a), model.can_use(a), "{a}");
        assert_eq!(list.owned_bits() & a.bit() != 0, list.owns(a), "{a}");
        assert_eq!(list.usable_bits() & a.bit() != 0, list.can_use(a), "{a}");
    }
}

/// The reference for the marks: a `Vec<Node>` as the layer kept it.
#[derive(Clone, Debug)]
enum MarkOp {
    Push(Node),
    Insert(Node),
    Remove(Node),
    /// Keep the nodes whose bit is set.
    Retain(u64),
    Clear,
}

fn node() -> impl Strategy<Value = Node> {
    // Mostly board nodes; sometimes one off the board, as a tampered state may hold.
    prop_oneof![9 => 0..NODE_COUNT as Node, 1 => any::<Node>()]
}

fn mark_op() -> impl Strategy<Value = MarkOp> {
    prop_oneof![
        1 => node().prop_map(MarkOp::Push),
        3 => node().prop_map(MarkOp::Insert),
        2 => node().prop_map(MarkOp::Remove),
        1 => any::<u64>().prop_map(MarkOp::Retain),
        1 => Just(MarkOp::Clear),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn owned_list_acts_like_a_vec(
        start in proptest::collection::vec((augment(), proptest::option::of(0u8..4)), 0..6),
        ops in proptest::collection::vec(owned_op(), 0..40),
    ) {
        // A stored list, repeats included, read the way a restored state is.
        let stored: Vec<Owned> = start
            .iter()
            .map(|&(id, uses_left)| Owned { id, uses_left })
            .collect();
        let json = serde_json::to_string(&stored).unwrap();
        let mut list: OwnedList = serde_json::from_str(&json).unwrap();
        let mut model = OwnedModel(stored);
        same_owned(&list, &model);
        for op in ops {
            match op {
                OwnedOp::Grant(a) => {
                    list.grant(a);
                    model.grant(a);
                }
                OwnedOp::Spend(a) => {
                    list.spend(a);
                    model.spend(a);
                }
                OwnedOp::SetUses(a, n) => {
                    list.set_uses_left(a, n);
                    model.set_uses_left(a, n);
                }
            }
            same_owned(&list, &model);
        }
        prop_assert_eq!(serde_json::to_string(&list).unwrap(), serde_json::to_string(&model.0).unwrap());
        let back: OwnedList = serde_json::from_str(&serde_json::to_string(&list).unwrap()).unwrap();
        prop_assert_eq!(back, list);
    }

    #[test]
    fn marks_act_like_a_vec(ops in proptest::collection::vec(mark_op(), 0..60)) {
        let mut marks = Marks::new();
        let mut model: Vec<Node> = Vec::new();
        for op in ops {
            match op {
                MarkOp::Push(n) => {
                    let room = model.len() < NODE_COUNT;
                    prop_assert_eq!(marks.push(n), room);
                    if room {
                        model.push(n);
                    }
                }
                MarkOp::Insert(n) => {
                    let new = !model.contains(&n) && model.len() < NODE_COUNT;
                    prop_assert_eq!(marks.insert(n), new);
                    if new {
                        model.push(n);
                    }
                }
                MarkOp::Remove(n) => {
                    let at = model.iter().position(|&m| m == n);
                    prop_assert_eq!(marks.remove(n), at.is_some());
                    if let Some(k) = at {
                        model.remove(k);
                    }
                }
                MarkOp::Retain(keep) => {
                    let keep = |m: Node| keep & 1u64.checked_shl(u32::from(m)).unwrap_or(0) != 0;
                    marks.retain(keep);
                    model.retain(|&m| keep(m));
                }
                MarkOp::Clear => {
                    marks.clear();
                    model.clear();
                }
            }
            prop_assert_eq!(&marks[..], &model[..]);
            for n in 0..=Node::MAX {
                prop_assert_eq!(marks.contains(n), model.contains(&n), "node {}", n);
            }
        }
        let json = serde_json::to_string(&marks).unwrap();
        prop_assert_eq!(&json, &serde_json::to_string(&model).unwrap());
        prop_assert_eq!(serde_json::from_str::<Marks>(&json).unwrap(), marks);
    }

    #[test]
    fn candidates_act_like_a_vec(ids in proptest::collection::vec(augment(), 0..6)) {
        let json = serde_json::to_string(&ids).unwrap();
        match Candidates::from_slice(&ids) {
            Some(c) => {
                prop_assert!(ids.len() <= Candidates::MAX);
                prop_assert_eq!(&c[..], &ids[..]);
                prop_assert_eq!(serde_json::to_string(&c).unwrap(), json.clone());
                prop_assert_eq!(serde_json::from_str::<Candidates>(&json).unwrap(), c);
            }
            None => {
                prop_assert!(ids.len() > Candidates::MAX);
                prop_assert!(serde_json::from_str::<Candidates>(&json).is_err());
            }
        }
    }
}

#[test]
fn augment_bits_follow_the_table_and_the_slots() {
    let mut all = 0;
    for (i, a) in Augment::ALL.into_iter().enumerate() {
        assert_eq!(a.bit(), 1 << i, "{a}");
        assert_ne!(a.slot().bits() & a.bit(), 0, "{a} in its slot's bits");
        all |= a.bit();
    }
    assert_eq!(all.count_ones(), 18);
    for slot in yut_augments::Slot::ALL {
        let from_list = slot.augments().iter().fold(0, |b, a| b | a.bit());
        assert_eq!(slot.bits(), from_list, "{slot:?}");
    }
}

#[test]
fn stored_lists_longer_than_the_inline_room_are_refused() {
    let owned: Vec<Owned> = (0..19)
        .map(|i| Owned {
            id: Augment::ALL[i % 18],
            uses_left: None,
        })
        .collect();
    assert!(serde_json::from_str::<OwnedList>(&serde_json::to_string(&owned).unwrap()).is_err());
    let eighteen = serde_json::to_string(&owned[..18]).unwrap();
    assert_eq!(
        serde_json::from_str::<OwnedList>(&eighteen).unwrap().len(),
        18
    );
    let nodes: Vec<Node> = (0..=NODE_COUNT as Node).collect();
    assert!(serde_json::from_str::<Marks>(&serde_json::to_string(&nodes).unwrap()).is_err());
    let all = serde_json::to_string(&nodes[..NODE_COUNT]).unwrap();
    assert_eq!(
        serde_json::from_str::<Marks>(&all).unwrap().len(),
        NODE_COUNT
    );
}
