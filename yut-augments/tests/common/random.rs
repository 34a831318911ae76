//! Random options and random games for the property tests.

use proptest::prelude::*;
use yut::{BackdoFromDo, FinishRule, Mode, Ranking, StickModel, YutOptions};
use yut_augments::{Augment, AugmentConfig};

/// Random base options with a fitting number of players.
pub fn options() -> impl Strategy<Value = (YutOptions, usize)> {
    let mode_players = prop_oneof![
        (2usize..=4).prop_map(|n| (Mode::Individual, n)),
        prop::sample::select(vec![4usize, 6]).prop_map(|n| (Mode::Team, n)),
    ];
    (
        mode_players,
        2u8..=5,
        any::<bool>(),
        any::<bool>(),
        0u8..3,
        any::<bool>(),
        prop::sample::select(vec![0u8, 5, 10]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |((mode, n), pieces, fair, backdo, from_do, reach, nak, bonus, all)| {
                let options = YutOptions {
                    mode,
                    pieces,
                    stick_model: if fair {
                        StickModel::Fair
                    } else {
                        StickModel::Realistic
                    },
                    backdo,
                    backdo_from_do: [
                        BackdoFromDo::Chammeogi,
                        BackdoFromDo::Finish,
                        BackdoFromDo::Home,
                    ][usize::from(from_do)],
                    finish_rule: if reach {
                        FinishRule::Reach
                    } else {
                        FinishRule::Pass
                    },
                    nak_percent: nak,
                    backdo_capture_bonus: bonus,
                    ranking: if all { Ranking::All } else { Ranking::First },
                    turn_seconds: Some(30),
                };
                (options, n)
            },
        )
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
