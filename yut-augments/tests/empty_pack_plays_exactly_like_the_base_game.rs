//! With the empty pack (`augments: [], cushion: false, truce: false`) the augmented game is
//! the base game: on random games, the same board states, the same events serialized, the
//! same legal actions and the same base view, step by step.

mod common;

use game_core::GameExt;
use game_core::{Game, Viewer};
use proptest::prelude::*;
use serde_json::Value;
use yut::rules::WithRules;
use yut::{Rules, Yut, YutAction};
use yut_augments::{AugmentAction, AugmentConfig, Augments};

fn json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("serializes")
}

/// The base part of an augmented view: without the layer's `draft` and `augmentSides`.
fn base_view(mut v: Value) -> Value {
    let o = v.as_object_mut().expect("a view is an object");
    assert!(o.remove("draft").is_some_and(|d| d.is_null()));
    assert!(o.remove("augmentSides").is_some());
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn empty_pack_plays_exactly_like_the_base_game(
        (base, n) in common::random::options(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 400),
    ) {
        let plain = Yut::standard();
        let aug = Yut::new(Augments);
        let players = yut::testing::players(n);
        let options = WithRules { base: base.clone(), rules: AugmentConfig::none() };
        let mut a = plain.setup(&base, &players, seed, 0).unwrap();
        let mut b = aug.setup(&options, &players, seed, 0).unwrap();
        prop_assert_eq!(json(&a.board()), json(&b.board()));
        prop_assert_eq!(json(&a.log()), json(&b.log()));
        let mut now = 0;
        for (step, &c) in choices.iter().enumerate() {
            let Some(&seat) = plain.to_act(&a).first() else { break };
            prop_assert_eq!(aug.to_act(&b), vec![seat]);
            let la = plain.legal_actions(&a, seat);
            let lb = aug.legal_actions(&b, seat);
            prop_assert_eq!(json(&la), json(&lb));
            let va = json(&plain.view(&a, Viewer::Player(&players[seat])));
            let vb = base_view(json(&aug.view(&b, Viewer::Player(&players[seat]))));
            prop_assert_eq!(va, vb);
            now += 1_000;
            let (ea, eb) = if c % 11 == 0 {
                // Let the clock run out: the engine acts for the player.
                let deadline = plain.deadline(&a).unwrap_or(now);
                now = now.max(deadline);
                let ea: Vec<_> = plain.tick(&mut a, now).into_iter().flat_map(|x| x.events).collect();
                let eb: Vec<_> = aug.tick(&mut b, now).into_iter().flat_map(|x| x.events).collect();
                (json(&ea), json(&eb))
            } else if c % 157 == 0 {
                let who = (c as usize / 157) % n;
                let ea = plain.apply(&mut a, who, &YutAction::Concede, now);
                let eb = aug.apply(&mut b, who, &YutAction::Concede, now);
                prop_assert_eq!(ea.is_ok(), eb.is_ok());
                (json(&ea.unwrap_or_default()), json(&eb.unwrap_or_default()))
            } else {
                let action = la[c as usize % la.len()];
                let same: YutAction<AugmentAction> = serde_json::from_value(json(&action)).unwrap();
                let ea = plain.apply(&mut a, seat, &action, now).unwrap();
                let eb = aug.apply(&mut b, seat, &same, now).unwrap();
                (json(&ea), json(&eb))
            };
            prop_assert_eq!(ea, eb, "events differ at step {}", step);
            prop_assert_eq!(json(&a.board()), json(&b.board()), "boards differ at step {}", step);
            prop_assert_eq!(json(&plain.outcome(&a)), json(&aug.outcome(&b)));
        }
        prop_assert_eq!(json(&a.log()), json(&b.log()));
        prop_assert_eq!(b.rules(), &aug.rules.setup(&AugmentConfig::none(), b.board()));
    }
}
