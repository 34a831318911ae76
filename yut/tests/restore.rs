//! Saving and restoring a state (`Game::restore`): a saved game loads back equal and plays
//! on identically; a tampered one is refused.

mod common;

use common::*;
use game_core::GameExt;
use game_core::{Bot, Game, GameError, RandomBot};
use yut::testing::{Script, players};
use yut::{Mode, Throw, Yut, YutOptions};

/// Regression: the stored state used to flatten the board into its top level. Serde's
/// flatten cannot carry the RNG's 128-bit word position (`u128 is not supported`), and the
/// board's `options` clashed with the rule set's `options` (`duplicate field`), so no saved
/// state could be restored.
#[test]
fn a_saved_state_restores_equal_and_plays_on_identically() {
    let game = Yut::standard();
    for (seed, n, mode) in [
        (1u64, 2usize, Mode::Individual),
        (2, 3, Mode::Individual),
        (3, 6, Mode::Team),
    ] {
        let options = opts(|o| {
            o.mode = mode;
            o.nak_percent = 5;
        });
        let mut state = game.setup(&options, &players(n), seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..300 {
            let json = serde_json::to_string(&state).unwrap();
            let mut restored = game
                .restore(&json)
                .unwrap_or_else(|e| panic!("step {step}: {e:?}"));
            assert_eq!(restored, state);
            if game.is_over(&state) {
                break;
            }
            let seat = game.to_act(&state)[0];
            let a = bot.choose(&game, &state, seat).unwrap();
            let events = game.apply(&mut state, seat, &a, step).unwrap();
            assert_eq!(game.apply(&mut restored, seat, &a, step).unwrap(), events);
            assert_eq!(restored, state);
        }
    }
}

#[test]
fn the_saved_state_keeps_base_and_rule_options_apart() {
    let s = Script::new(YutOptions::default(), 2);
    let value: serde_json::Value = serde_json::from_str(&s.json()).unwrap();
    assert!(value["options"].is_object(), "the rule set's options");
    assert_eq!(
        value["board"]["options"], value["options"],
        "the base options"
    );
    assert!(
        value["board"]["table"]["rng"].is_object(),
        "the stored state keeps the RNG"
    );
    assert!(value["board"]["table"]["rng"]["word_pos"].is_number());
}

#[test]
fn a_tampered_state_is_refused() {
    let game = Yut::standard();
    let mut s = Script::new(YutOptions::default(), 2);
    s.set_turn(0)
        .place(0, 3, 1, &[])
        .place(1, 7, 1, &[])
        .set_move(&[Throw::Gae]);
    let good: serde_json::Value = serde_json::from_str(&s.json()).unwrap();
    assert!(game.restore(&good.to_string()).is_ok());
    let tamper = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        f(&mut v);
        game.restore(&v.to_string()).unwrap_err()
    };
    type Tamper = Box<dyn Fn(&mut serde_json::Value)>;
    let broken: Vec<Tamper> = vec![
        // Two sides on node 3.
        Box::new(|v| {
            v["board"]["sides"][1]["pieces"][0] =
                serde_json::json!({"status": "board", "node": 3, "trail": [1, 2, 3]})
        }),
        // A trail that does not end on the piece's node.
        Box::new(|v| v["board"]["sides"][0]["pieces"][0]["trail"] = serde_json::json!([1, 2])),
        // The move phase with nothing pending.
        Box::new(|v| v["board"]["pending"] = serde_json::json!([])),
        // Base options that differ from the rule options' base.
        Box::new(|v| v["board"]["options"]["pieces"] = serde_json::json!(3)),
        // Not JSON of a state at all.
        Box::new(|v| *v = serde_json::json!({"hello": 1})),
    ];
    for f in &broken {
        let err = tamper(f.as_ref());
        assert_eq!(err.code(), "CORRUPT_STATE", "{err:?}");
    }
}

/// Regression: `NodeList` compared (and hashed) its unused slots too, so a trail that had been
/// popped or cleared differed from the same trail read back from JSON, and a restored state
/// compared unequal to the state it was saved from.
#[test]
fn nodes_compare_by_their_listed_nodes_only() {
    use std::hash::{BuildHasher, RandomState};
    use yut::NodeList;
    let mut popped = NodeList::one(3);
    popped.push(4);
    popped.pop();
    let mut cleared = NodeList::one(9);
    cleared.clear();
    let hasher = RandomState::new();
    for (a, b) in [(popped, NodeList::one(3)), (cleared, NodeList::new())] {
        assert_eq!(a, b);
        assert_eq!(hasher.hash_one(a), hasher.hash_one(b));
        let back: NodeList = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back, a);
    }
    assert_ne!(NodeList::one(3), NodeList::new());
}
