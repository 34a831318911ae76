//! A composition's id and format version are made of its parts': the id joins theirs with
//! `+` (unchanged, since records carry it), and the version changes whenever any part's
//! version changes, however the composition nests, so that an old record never replays
//! under changed rules.

use std::collections::BTreeSet;

use game_core::Game;
use yut::rules::{Named, RuleName, composed_version};
use yut::{Rules, Standard, Yut};
use yut_augments::Augments;

/// A rule set that plays like the standard one under the id and version `V`.
type Part<const V: u32> = Named<Standard, Version<V>>;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Version<const V: u32>;

impl<const V: u32> RuleName for Version<V> {
    const ID: &'static str = "part";
    const FORMAT_VERSION: u32 = V;
}

fn version(rules: impl Rules) -> u32 {
    Yut::new(rules).format_version()
}

/// Two single rule sets keep the packed number the records stored so far carry.
#[test]
fn a_flat_pair_keeps_its_packed_version() {
    assert_eq!(version((Augments, Standard)), (1 << 16) | 1);
    assert_eq!(
        version((Part::<3>::default(), Part::<5>::default())),
        0x0003_0005
    );
    assert_eq!(composed_version(7, 0xFFFF), 0x0007_FFFF);
}

/// ((A, B), C) and (A, (B, C)): raising any one part's version changes the whole's.
#[test]
fn any_parts_version_changes_a_nested_composition() {
    let left = |a: u32, b: u32, c: u32| composed_version(composed_version(a, b), c);
    let right = |a: u32, b: u32, c: u32| composed_version(a, composed_version(b, c));
    for nest in [left, right] {
        let base = nest(1, 1, 1);
        for changed in [
            nest(2, 1, 1),
            nest(1, 2, 1),
            nest(1, 1, 2),
            nest(1, 1, 0x1_0000),
        ] {
            assert_ne!(changed, base);
        }
    }
    // The same through the games' own versions, nested both ways.
    let ab_c = version((
        (Part::<1>::default(), Part::<1>::default()),
        Part::<1>::default(),
    ));
    assert_eq!(ab_c, left(1, 1, 1));
    assert_ne!(
        version((
            (Part::<1>::default(), Part::<2>::default()),
            Part::<1>::default()
        )),
        ab_c
    );
    assert_ne!(
        version((
            (Part::<2>::default(), Part::<1>::default()),
            Part::<1>::default()
        )),
        ab_c
    );
    let a_bc = version((
        Part::<1>::default(),
        (Part::<1>::default(), Part::<1>::default()),
    ));
    assert_eq!(a_bc, right(1, 1, 1));
    assert_ne!(
        version((
            Part::<1>::default(),
            (Part::<1>::default(), Part::<2>::default())
        )),
        a_bc
    );
    assert_ne!(
        version((
            Part::<2>::default(),
            (Part::<1>::default(), Part::<1>::default())
        )),
        a_bc
    );
}

/// Every version of each part in a small range gives a distinct version of the nested
/// whole: no two rule changes share a number a record could be replayed under.
#[test]
fn nested_versions_do_not_collide_over_small_ranges() {
    let (mut left, mut right) = (BTreeSet::new(), BTreeSet::new());
    for a in 1..=12 {
        for b in 1..=12 {
            for c in 1..=12 {
                assert!(left.insert(composed_version(composed_version(a, b), c)));
                assert!(right.insert(composed_version(a, composed_version(b, c))));
            }
        }
    }
}

/// Ids are joined as before: records name the composition by them.
#[test]
fn composed_ids_join_the_parts() {
    assert_eq!(Yut::new((Augments, Standard)).id(), "yut-augments+yut");
    assert_eq!(
        Yut::new(((Augments, Standard), Standard)).id(),
        "yut-augments+yut+yut"
    );
}
