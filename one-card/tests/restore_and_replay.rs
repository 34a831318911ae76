//! A stored state restores byte for byte, a match record replays to the identical state,
//! and a tampered state is refused with `CORRUPT_STATE`, never loaded.

mod common;

use common::ids;
use game_core::GameExt;
use game_core::testing::{JsonStep, json_at, json_paths};
use game_core::{Bot, Game, GameError, GameRng, Match, MatchRecord, RandomBot};
use one_card::{OneCard, OneCardAction, OneCardOptions, OneCardState, Ranking};
use serde_json::{Value, json};

/// A random match with timeouts, disconnections and a few refused inputs.
fn random_match(seed: u64, options: OneCardOptions, n: usize) -> Match<OneCard> {
    let mut driver = GameRng::from_seed(seed ^ 0xCA4D);
    let players = ids(n);
    let mut m = Match::new(OneCard, options, players.clone(), seed, 1_000).unwrap();
    let mut bot = RandomBot::new(seed);
    let mut now = 1_000;
    for _ in 0..600 {
        if OneCard.is_over(m.state()) {
            break;
        }
        now += u64::from(driver.below(5_000));
        match driver.below(10) {
            0..=6 => {
                m.tick(now);
                // The mover, or a seat that may call.
                let seat = driver.below(n as u32) as usize;
                let Some(action) = bot.choose(&OneCard, m.state(), seat) else {
                    continue;
                };
                m.act(&players[seat], &action, now).unwrap();
            }
            7 => {
                now += u64::from(driver.below(60_000));
                m.tick(now);
            }
            8 => {
                let seat = driver.below(n as u32) as usize;
                m.set_connected(&players[seat], driver.chance(1, 2), now);
            }
            _ => {
                // Refused: a card no one may play now, or a call with no window.
                let seat = driver.below(n as u32) as usize;
                let bad = OneCardAction::Catch {
                    player: "nobody".into(),
                };
                assert!(m.act(&players[seat], &bad, now).is_err());
            }
        }
    }
    m
}

#[test]
fn records_replay_to_the_same_state_byte_for_byte() {
    let mut ended = 0;
    for seed in 0..24u64 {
        let options = OneCardOptions {
            ranking: if seed % 2 == 0 {
                Ranking::First
            } else {
                Ranking::All
            },
            bankrupt_at: [Some(15), Some(20), None][seed as usize % 3],
            one_card_call: seed % 4 != 3,
            turn_seconds: [Some(15), None][seed as usize % 2],
            ..OneCardOptions::default()
        };
        let n = 2 + seed as usize % 4;
        let mut m = random_match(seed, options, n);
        ended += usize::from(OneCard.is_over(m.state()));
        let replayed = Match::replay(OneCard, m.record()).unwrap();
        assert_eq!(replayed.state(), m.state(), "seed {seed}");
        let json = serde_json::to_string(m.record()).unwrap();
        let record: MatchRecord = serde_json::from_str(&json).unwrap();
        let again = Match::replay(OneCard, &record).unwrap();
        assert_eq!(
            serde_json::to_string(again.state()).unwrap(),
            serde_json::to_string(m.state()).unwrap()
        );
        // A stored state restores to the same bytes.
        let stored = serde_json::to_string(m.state()).unwrap();
        let restored = OneCard.restore(&stored).unwrap();
        assert_eq!(serde_json::to_string(&restored).unwrap(), stored);
    }
    assert!(ended >= 6, "only {ended} of 24 matches ended");
}

/// A mid-game state of three players with a few cards played, as JSON.
fn mid_game() -> (OneCardState, Value) {
    let mut state = OneCard
        .setup(&OneCardOptions::default(), &ids(3), 5, 0)
        .unwrap();
    let mut bot = RandomBot::new(5);
    for step in 0..12 {
        let seat = OneCard.to_act(&state)[0];
        let action = bot.choose(&OneCard, &state, seat).unwrap();
        OneCard.apply(&mut state, seat, &action, step).unwrap();
    }
    let value = serde_json::to_value(&state).unwrap();
    (state, value)
}

fn refused(value: &Value, what: &str) {
    let err = OneCard.restore(&value.to_string()).unwrap_err();
    assert_eq!(err.code(), "CORRUPT_STATE", "{what}: {err:?}");
}

#[test]
fn tampered_states_are_refused() {
    let (state, value) = mid_game();
    assert_eq!(OneCard.restore(&value.to_string()).unwrap(), state);

    // A card twice (and so another missing).
    let mut v = value.clone();
    v["hands"][0][0] = v["hands"][1][0].clone();
    refused(&v, "a card twice");
    // A card twice, the count right: one added, one dropped elsewhere.
    let mut v = value.clone();
    let dup = v["drawPile"][0].clone();
    v["hands"][2].as_array_mut().unwrap().push(dup);
    v["hands"][1].as_array_mut().unwrap().pop();
    refused(&v, "a card twice, 54 in all");
    // A hand of more than 54 cards.
    let mut v = value.clone();
    let many: Vec<Value> = (0..60).map(|_| json!("AS")).collect();
    v["hands"][0] = Value::Array(many);
    refused(&v, "a hand over 54");
    // A card dropped.
    let mut v = value.clone();
    v["drawPile"].as_array_mut().unwrap().pop();
    refused(&v, "a card missing");
    // Bad seats.
    for (key, bad) in [
        ("turn", json!(3)),
        ("turn", json!(usize::MAX)),
        ("call", json!(7)),
        ("finished", json!([0, 0])),
        ("finished", json!([9])),
        ("out", json!([4])),
    ] {
        let mut v = value.clone();
        v[key] = bad.clone();
        refused(&v, &format!("{key} = {bad}"));
    }
    // A standing list of the wrong length, a seat out with cards, an end that is none.
    let mut v = value.clone();
    v["status"].as_array_mut().unwrap().pop();
    refused(&v, "standings short");
    let mut v = value.clone();
    v["status"][1] = json!("bankrupt");
    v["out"] = json!([1]);
    refused(&v, "bankrupt with cards");
    let mut v = value.clone();
    v["over"] = json!(true);
    refused(&v, "over with everyone playing");
    // Attacks and suits no card on top made.
    let mut v = value.clone();
    v["attack"] = json!(one_card::MAX_ATTACK + 1);
    refused(&v, "attack past the largest");
    let top = state.top().unwrap();
    let mut v = value.clone();
    v["suit"] = json!("S");
    if top.rank() != Some(7) {
        refused(&v, "a suit without a 7 on top");
    }
    let mut v = value.clone();
    v["attack"] = json!(2);
    if top.attack() == 0 {
        refused(&v, "an attack without an attack card on top");
    }
    let mut v = value.clone();
    v["discard"] = json!([]);
    refused(&v, "an empty discard pile");
    // Options out of range, unknown fields, a seat too many.
    let mut v = value.clone();
    v["options"]["handSize"] = json!(12);
    refused(&v, "handSize 12");
    let mut v = value.clone();
    v["extra"] = json!(1);
    refused(&v, "unknown field");
    let mut v = value.clone();
    v["table"]["players"]
        .as_array_mut()
        .unwrap()
        .push(json!("p3"));
    refused(&v, "a player without presence");
}

#[test]
fn any_value_anywhere_is_refused_or_checked() {
    let (_, value) = mid_game();
    let hostile = [
        json!(null),
        json!(-1),
        json!(u64::MAX),
        json!(54),
        json!("BJ"),
        json!("7H"),
        json!("zz"),
        json!([]),
        json!({}),
        json!(true),
    ];
    let mut accepted = 0;
    for path in json_paths(&value) {
        if path.first() == Some(&JsonStep::Key("table".into())) {
            continue; // game-core's own checks cover the table.
        }
        for bad in &hostile {
            let mut v = value.clone();
            *json_at(&mut v, &path) = bad.clone();
            match OneCard.restore(&v.to_string()) {
                Ok(state) => {
                    accepted += 1;
                    OneCard.check_state(&state).unwrap();
                }
                Err(e) => assert_eq!(e.code(), "CORRUPT_STATE", "{path:?} = {bad}"),
            }
        }
    }
    assert!(
        accepted > 0,
        "some values (a turn's seconds, a flag) are valid"
    );
}
