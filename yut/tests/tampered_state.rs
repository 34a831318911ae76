//! A stored state from outside is checked the way a new game is: every field of real
//! mid-game states is mutated in turn, and each mutation is either refused with
//! `CORRUPT_STATE` or loads a state that passes every invariant and plays on without a
//! panic. Nothing loads half-valid.

use game_core::GameExt;
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
            game.apply(&mut state, seat, &action, step).unwrap();
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
                            game.apply(&mut state, seat, &action, 1_000 + step)
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

/// The inline lists of a stored state hold what a game can make and no more: a trail or a
/// path of 24 nodes (a game's are at most 21), five sides (at most four), nine seats (at
/// most eight) and a discard of 65 results (at most 64) are refused with `CORRUPT_STATE`; a
/// discard of 64 results in the log loads.
#[test]
fn lists_past_what_a_game_makes_are_refused() {
    let game = Yut::standard();
    let original = mid_game_states().remove(0);
    let on_board = |state: &Value| {
        state["board"]["sides"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .find_map(|(s, side)| {
                side["pieces"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .position(|p| p["status"] == "board")
                    .map(|p| (s, p))
            })
            .expect("a piece on the board at decision 40")
    };
    let refused = |tampered: &Value| {
        let err = game.restore(&tampered.to_string()).unwrap_err();
        assert_eq!(err.code(), "CORRUPT_STATE", "{err:?}");
        err.to_string()
    };

    // A trail of 24 nodes ending on the piece's node.
    let (s, p) = on_board(&original);
    let mut tampered = original.clone();
    let node = tampered["board"]["sides"][s]["pieces"][p]["node"].clone();
    let mut trail = vec![Value::from(1); 23];
    trail.push(node);
    tampered["board"]["sides"][s]["pieces"][p]["trail"] = Value::from(trail);
    refused(&tampered);

    // A logged move with a path of 24 nodes.
    let mut tampered = original.clone();
    let log = tampered["log"].as_array_mut().unwrap();
    let moved = log.iter_mut().find(|e| e["type"] == "moved").unwrap();
    moved["path"] = Value::from(vec![1; 24]);
    refused(&tampered);

    // A logged move over nodes no move goes over: out of the order of forward steps, and
    // not a backdo's two going back.
    for path in [vec![5, 17, 3], vec![3, 3], vec![22, 21, 20]] {
        let mut tampered = original.clone();
        let log = tampered["log"].as_array_mut().unwrap();
        let moved = log.iter_mut().find(|e| e["type"] == "moved").unwrap();
        moved["path"] = Value::from(path);
        refused(&tampered);
    }

    // Five sides, and a thousand: a board holds at most four (MAX_SIDES).
    for n in [5, 1000] {
        let mut tampered = original.clone();
        let side = tampered["board"]["sides"][0].clone();
        tampered["board"]["sides"] = Value::from(vec![side; n]);
        refused(&tampered);
        let error = format!("{:?}", game.restore(&tampered.to_string()).unwrap_err());
        assert!(error.contains("at most 4 sides"), "{error}");
    }

    // Nine seats in a seat list, and a thousand: a board seats at most eight (MAX_SEATS).
    for (list, entry) in [
        ("sideOf", Value::from(0)),
        ("turnOrder", Value::from(0)),
        ("seatConceded", Value::from(false)),
    ] {
        for n in [9, 1000] {
            let mut tampered = original.clone();
            tampered["board"][list] = Value::from(vec![entry.clone(); n]);
            refused(&tampered);
            let error = format!("{:?}", game.restore(&tampered.to_string()).unwrap_err());
            assert!(error.contains("at most 8 seats"), "{list}: {error}");
        }
    }

    // A logged discard of 65 results, and one of 64.
    let discard = |n: usize| {
        let mut tampered = original.clone();
        tampered["log"][0] = serde_json::json!({
            "type": "discarded",
            "side": 0,
            "throws": vec!["backdo"; n],
        });
        tampered
    };
    refused(&discard(65));
    let state = game.restore(&discard(64).to_string()).unwrap();
    let yut::YutEvent::Discarded { throws, .. } = state.log().iter().next().unwrap() else {
        panic!("the first logged event is the discard");
    };
    assert_eq!(throws.to_vec(), vec![yut::Throw::Backdo; 64]);
}
