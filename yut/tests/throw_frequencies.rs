//! The throw model (RULES.md, Throws) measured: 100,000 seeded throws per stick model, each
//! result within ±0.5 percentage points of the table; no backdo with `backdo = false`;
//! nak at `nakPercent = 10`.

use game_core::GameExt;
use game_core::GameState;
use game_core::{Game, GameRng};
use yut::{StickModel, Throw, ThrowChance, ThrowDraw, Yut, YutOptions};

const N: u32 = 100_000;

/// The exact probabilities of RULES.md, Throws: (result, realistic, fair).
const TABLE: [(Throw, f64, f64); 6] = [
    (Throw::Do, 0.1152, 0.1875),
    (Throw::Backdo, 0.0384, 0.0625),
    (Throw::Gae, 0.3456, 0.375),
    (Throw::Geol, 0.3456, 0.25),
    (Throw::Yut, 0.1296, 0.0625),
    (Throw::Mo, 0.0256, 0.0625),
];

/// Counts of 100,000 draws: index 0..6 by `Throw::ALL`, 6 for nak.
fn counts(options: &YutOptions, seed: u64) -> [u32; 7] {
    let mut rng = GameRng::from_seed(seed);
    let mut counts = [0u32; 7];
    for _ in 0..N {
        let draw = ThrowDraw::draw(options, &mut rng);
        let slot = match draw.result {
            None => 6,
            Some(t) => Throw::ALL.iter().position(|&x| x == t).unwrap(),
        };
        // The sticks always show the result (stick 0 carries the backdo mark).
        if let (Some(sticks), Some(t)) = (draw.sticks, draw.result) {
            assert_eq!(Throw::from_sticks(sticks, options.backdo), t);
        }
        counts[slot] += 1;
    }
    counts
}

fn share(counts: &[u32; 7], t: Throw) -> f64 {
    f64::from(counts[Throw::ALL.iter().position(|&x| x == t).unwrap()]) / f64::from(N)
}

fn model(stick_model: StickModel) -> YutOptions {
    YutOptions {
        stick_model,
        ..YutOptions::default()
    }
}

#[test]
fn checklist_throw_frequencies() {
    for (m, seed) in [
        (StickModel::Realistic, 20_261_130u64),
        (StickModel::Fair, 7),
    ] {
        let options = model(m);
        let c = counts(&options, seed);
        assert_eq!(c[6], 0, "no nak at nakPercent = 0");
        for (t, realistic, fair) in TABLE {
            let expected = if m == StickModel::Realistic {
                realistic
            } else {
                fair
            };
            let got = share(&c, t);
            assert!(
                (got - expected).abs() <= 0.005,
                "{m:?} {t:?}: {got:.4} vs {expected}"
            );
            // The engine's exact probabilities are the table's.
            assert!((t.probability(m, true) - expected).abs() < 1e-12);
        }
    }
}

#[test]
fn throws_through_the_game_are_the_same_draws() {
    // A game's throw draws from its stored RNG exactly as `ThrowDraw::draw` does.
    let game = Yut::standard();
    let options = YutOptions {
        nak_percent: 5,
        ..YutOptions::default()
    };
    let players = yut::testing::players(2);
    let mut state = game.setup(&options, &players, 99, 0).unwrap();
    for _ in 0..200 {
        let seat = game.to_act(&state)[0];
        let action = game.timeout_action(&state, seat).unwrap();
        if action == yut::YutAction::Throw {
            // The RNG is the game's alone: a copy is read from the stored table.
            let stored = |state: &yut::YutState<yut::Standard>| {
                serde_json::to_value(state.table()).unwrap()["rng"].clone()
            };
            let mut rng: game_core::GameRng = serde_json::from_value(stored(&state)).unwrap();
            let expected = ThrowDraw::draw(&options, &mut rng);
            game.apply(&mut state, seat, &action, 0).unwrap();
            assert_eq!(state.board().last_throw(), Some(expected));
            assert_eq!(stored(&state), serde_json::to_value(&rng).unwrap());
        } else {
            game.apply(&mut state, seat, &action, 0).unwrap();
        }
        if game.is_over(&state) {
            break;
        }
    }
}

#[test]
fn backdo_off_never_shows_backdo() {
    for m in [StickModel::Realistic, StickModel::Fair] {
        let options = YutOptions {
            backdo: false,
            ..model(m)
        };
        let c = counts(&options, 3);
        assert_eq!(share(&c, Throw::Backdo), 0.0);
        // The marked stick alone counts as 도: 도 takes backdo's share.
        let (_, realistic_do, fair_do) = TABLE[0];
        let (_, realistic_bd, fair_bd) = TABLE[1];
        let expected = if m == StickModel::Realistic {
            realistic_do + realistic_bd
        } else {
            fair_do + fair_bd
        };
        assert!((share(&c, Throw::Do) - expected).abs() <= 0.005, "{m:?}");
        assert!(
            ThrowChance::distribution(&options)
                .iter()
                .all(|(c, _)| *c != ThrowChance::Backdo)
        );
    }
}

#[test]
fn nak_at_ten_percent() {
    for m in [StickModel::Realistic, StickModel::Fair] {
        let options = YutOptions {
            nak_percent: 10,
            ..model(m)
        };
        let c = counts(&options, 11);
        let nak = f64::from(c[6]) / f64::from(N);
        assert!((nak - 0.10).abs() <= 0.005, "{m:?} nak {nak:.4}");
        // The other results keep their proportions among the remaining 90 %.
        for (t, realistic, fair) in TABLE {
            let expected = 0.9
                * if m == StickModel::Realistic {
                    realistic
                } else {
                    fair
                };
            assert!((share(&c, t) - expected).abs() <= 0.005, "{m:?} {t:?}");
        }
        let dist = ThrowChance::distribution(&options);
        assert_eq!(dist[0], (ThrowChance::Nak, 0.1));
        assert!((dist.iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-12);
    }
    // Other nak settings, more roughly.
    for nak in [3u8, 5] {
        let c = counts(
            &YutOptions {
                nak_percent: nak,
                ..YutOptions::default()
            },
            5,
        );
        let got = f64::from(c[6]) / f64::from(N);
        assert!(
            (got - f64::from(nak) / 100.0).abs() <= 0.005,
            "{nak}%: {got}"
        );
    }
}
