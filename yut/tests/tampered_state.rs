//! A stored state from outside is checked the way a new game is: every field of real
//! mid-game states is mutated in turn, and each mutation is either refused with
//! `CORRUPT_STATE` or loads a state that passes every invariant and plays on without a
//! panic. Nothing loads half-valid.

use game_core::{Bot, Game, GameError, RandomBot};
use serde_json::Value;
use yut::testing::{json_at, json_mutations, json_paths, json_under};
use yut::{Mode, Yut, YutOptions};

/// Mid-game states of a few seeded games, as JSON.
fn mid_game_states() -> Vec<Value> {
    let game = Yut::standard();
    let mut out = Vec::new();
    for (seed, players, mode) in [
        (3u64, 2usize, Mode::Individual),
        (4, 3, Mode::Individual),
        (5, 4, Mode::Team),
    ] {
        let options = YutOptions {
            mode,
            nak_percent: 5,
            ..YutOptions::default()
        };
        let ids = yut::testing::players(players);
        let mut state = game.setup(&options, &ids, seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        for step in 0..60 {
            if game.is_over(&state) {
                break;
            }
            let seat = game.to_act(&state)[0];
            let action = bot.choose(&game, &state, seat).unwrap();
            game.apply_seat(&mut state, seat, &action, step).unwrap();
            if step == 39 {
                out.push(serde_json::to_value(&state).unwrap());
            }
        }
    }
    out
}

#[test]
fn every_mutated_field_is_refused_or_loads_fully_valid() {
    let game = Yut::standard();
    let mut refused = 0usize;
    let mut loaded = 0usize;
    for original in mid_game_states() {
        for path in json_paths(&original) {
            // The RNG's internal words are opaque: any value is a valid generator state.
            if json_under(&path, "rng") {
                continue;
            }
            let here = json_at(&mut original.clone(), &path).clone();
            for replacement in json_mutations(&here, &[]) {
                let mut tampered = original.clone();
                *json_at(&mut tampered, &path) = replacement;
                let json = serde_json::to_string(&tampered).unwrap();
                match game.restore(&json) {
                    Err(e) => {
                        assert_eq!(e.code(), "CORRUPT_STATE", "{path:?}: {e:?}");
                        refused += 1;
                    }
                    Ok(mut state) => {
                        loaded += 1;
                        game.check_state(&state).unwrap();
                        // It must also play on: a few legal actions without a panic.
                        let mut bot = RandomBot::new(1);
                        for step in 0..10 {
                            let Some(&seat) = game.to_act(&state).first() else {
                                break;
                            };
                            let Some(action) = bot.choose(&game, &state, seat) else {
                                break;
                            };
                            game.apply_seat(&mut state, seat, &action, 1_000 + step)
                                .unwrap_or_else(|e| {
                                    panic!("{path:?}: legal action refused: {e:?}")
                                });
                            game.check_state(&state).unwrap();
                        }
                    }
                }
            }
        }
    }
    // Most single-field changes break an invariant; some (a deadline, a count in the
    // statistics) are legitimately another valid state.
    assert!(refused > loaded, "refused {refused}, loaded {loaded}");
}

#[test]
fn hostile_json_is_refused_without_panic() {
    let game = Yut::standard();
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    let huge = format!("{{\"board\": \"{}\"}}", "x".repeat(1 << 20));
    for input in [
        "",
        "null",
        "{}",
        "[]",
        "{\"board\":{}}",
        deep.as_str(),
        huge.as_str(),
        "\u{0}",
    ] {
        let err = game.restore(input).unwrap_err();
        assert_eq!(err.code(), "CORRUPT_STATE");
    }
}
