//! The layer tells the engine which hooks have nothing to do (`Rules::listens`), and the
//! engine skips those. Composed with the standard rules, whose default answer is always
//! yes, every hook of the layer is called; the two games must be the same game: on random
//! packs and on the app's, the same events, boards, layer states, legal actions and
//! outcomes after every step, timeouts and concessions included.

mod common;

use game_core::GameExt;
use game_core::{Game, GameRng};
use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;
use yut::rules::{Both, WithRules};
use yut::{NoConfig, Standard, Yut, YutOptions};
use yut_augments::{AugmentConfig, AugmentOptions, Augments};

fn json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("serializes")
}

/// Plays one game both ways from `seed`, each step's choice from `choose` (an action
/// index, a timeout or a concession), and compares them after every step. Returns the
/// steps played.
fn same_game(
    options: &AugmentOptions,
    n: usize,
    seed: u64,
    mut choose: impl FnMut() -> u32,
    steps: usize,
) -> usize {
    let gated = Yut::new(Augments);
    let called = Yut::new((Augments, Standard));
    let composed = WithRules {
        base: options.base.clone(),
        rules: Both {
            first: options.rules.clone(),
            second: NoConfig {},
        },
    };
    let players = yut::testing::players(n);
    let mut a = gated.setup(options, &players, seed, 0).unwrap();
    let mut b = called.setup(&composed, &players, seed, 0).unwrap();
    let mut now = 0;
    for step in 0..steps {
        assert_eq!(a.board(), b.board(), "boards differ before step {step}");
        assert_eq!(
            a.rules(),
            &b.rules().0,
            "layer states differ before step {step}"
        );
        let Some(&seat) = gated.to_act(&a).first() else {
            assert!(called.to_act(&b).is_empty());
            assert_eq!(json(&gated.outcome(&a)), json(&called.outcome(&b)));
            assert_eq!(json(&a.log()), json(&b.log()));
            return step;
        };
        let la = gated.legal_actions(&a, seat);
        let lb = called.legal_actions(&b, seat);
        assert_eq!(json(&la), json(&lb), "legal actions differ at step {step}");
        now += 1_000;
        let c = choose();
        let (ea, eb) = if c.is_multiple_of(13) {
            // The clock runs out: the engine acts for the player.
            now = now.max(gated.deadline(&a).unwrap_or(now));
            let ea: Vec<_> = gated
                .tick(&mut a, now)
                .into_iter()
                .flat_map(|x| x.events)
                .collect();
            let eb: Vec<_> = called
                .tick(&mut b, now)
                .into_iter()
                .flat_map(|x| x.events)
                .collect();
            (json(&ea), json(&eb))
        } else if c.is_multiple_of(211) {
            let who = (c as usize / 211) % n;
            let ea = gated.apply(&mut a, who, &yut::YutAction::Concede, now);
            let eb = called.apply(&mut b, who, &yut::YutAction::Concede, now);
            assert_eq!(ea.is_ok(), eb.is_ok());
            (json(&ea.unwrap_or_default()), json(&eb.unwrap_or_default()))
        } else {
            let k = c as usize % la.len();
            let ea = gated.apply(&mut a, seat, &la[k], now).unwrap();
            let eb = called.apply(&mut b, seat, &lb[k], now).unwrap();
            (json(&ea), json(&eb))
        };
        assert_eq!(ea, eb, "events differ at step {step}");
    }
    steps
}

/// Whole games of the app's pack, 2 to 4 players and teams: every augment drafted,
/// owned, used up; truces and cushions called.
#[test]
fn app_games_play_the_same_with_every_hook_called() {
    let mut ended = 0;
    for (n, team) in [(2, false), (3, false), (4, false), (4, true)] {
        for seed in 0..60u64 {
            let mut options = yut_augments::app_options();
            if team {
                options.base.mode = yut::Mode::Team;
            }
            let mut rng = GameRng::from_seed(seed ^ 0xca11);
            let steps = same_game(&options, n, seed, || rng.below(u32::MAX), 3_000);
            ended += usize::from(steps < 3_000);
        }
    }
    assert_eq!(ended, 240, "every game ran to its end");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_packs_play_the_same_with_every_hook_called(
        (base, n) in common::random::options(),
        config in common::random::pack(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 600),
    ) {
        let options: AugmentOptions = WithRules { base, rules: config };
        let mut next = choices.into_iter();
        same_game(&options, n, seed, || next.next().unwrap_or(0), 600);
    }
}

/// The empty pack: no hook has anything to do, and skipping them all is still the game.
#[test]
fn the_empty_pack_plays_the_same_with_every_hook_called() {
    for seed in 0..40u64 {
        let options = WithRules {
            base: YutOptions::default(),
            rules: AugmentConfig::none(),
        };
        let mut rng = GameRng::from_seed(seed);
        same_game(&options, 2, seed, || rng.below(u32::MAX), 3_000);
    }
}
