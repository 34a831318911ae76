//! Random options and random games for the property tests.

use proptest::prelude::*;
use yut::YutOptions;
use yut_augments::{Augment, AugmentConfig};

/// Random base options with a fitting number of players (shared with yut's own tests).
pub fn options() -> impl Strategy<Value = (YutOptions, usize)> {
    yut::testing::arb_options()
}

/// A random pack: any subset of the eighteen (in a random order), each house rule on or
/// off.
pub fn pack() -> impl Strategy<Value = AugmentConfig> {
    (0u32..(1 << 18), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(mask, full, cushion, truce)| {
            let mask = if full { (1 << 18) - 1 } else { mask };
            let mut augments: Vec<Augment> = Augment::ALL
                .into_iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, a)| a)
                .collect();
            if mask % 2 == 0 {
                augments.reverse();
            }
            AugmentConfig {
                augments,
                cushion,
                truce,
            }
        },
    )
}
