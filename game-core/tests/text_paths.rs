//! The erased layer's text paths against its value paths, over whole games of every
//! built-in game (the JSON host's registry): two matches from one seed, one driven through
//! the `Value` methods and one through the text methods (`act_text`, `act_legal`,
//! `legal_text`, `legal_count`, `outcome_text`, `status`), with timeouts, presence changes
//! and refusals on the way. At every step both give the same answers — the text parses to
//! exactly the value the value path builds, and a refusal is the same error, code, message
//! and reason — and the two matches stay in the same state with the same record.
//!
//! The text is compared as parsed JSON, not byte for byte: the value path's objects are
//! `serde_json` maps, which sort their keys, while the text is written straight from the
//! typed values, in their fields' order.

use game_core::testing::players;
use game_core::{DynMatch, GameError, HostError, PlayedJson, PlayedText, Registry};
use serde_json::{Value, json};

fn registry() -> Registry {
    game_host::registry()
}

/// Every built-in game, in setups that reach each part of its rules.
fn setups() -> Vec<(&'static str, Value, usize)> {
    vec![
        ("yut", json!({}), 2),
        ("yut", json!({ "mode": "team" }), 4),
        ("yut", json!({ "pieces": 2, "nakPercent": 10 }), 3),
        ("yut-augments", json!({}), 2),
        ("yut-augments", json!({}), 3),
        ("rps", json!({ "winsNeeded": 2 }), 2),
    ]
}

/// xorshift64*: repeatable choices.
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1) as u64) as usize
    }
}

/// The wire code (for a game's refusal, the game's own).
fn code(e: &HostError) -> String {
    e.body().code
}

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The same answer from the value path and the text path.
#[track_caller]
fn same(ctx: &str, by_value: &PlayedJson, by_text: &PlayedText) {
    assert_eq!(
        by_value.applied, by_text.applied,
        "{ctx}: the timeouts taken"
    );
    match (&by_value.result, &by_text.result) {
        (Ok(events), Ok(text)) => {
            assert_eq!(parsed(text), Value::Array(events.clone()), "{ctx}: events");
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{ctx}: the refusal");
            assert_eq!(a.body(), b.body(), "{ctx}: the refusal's body");
        }
        (a, b) => panic!("{ctx}: the value path gave {a:?}, the text path {b:?}"),
    }
}

/// What a refused request must leave as it was.
fn snapshot(m: &mut dyn DynMatch) -> (Value, usize) {
    (m.state_json(), m.record().entries.len())
}

/// The text methods of one match agree with its value methods, where they only read.
#[track_caller]
fn reads_agree(ctx: &str, m: &dyn DynMatch) {
    let status = m.status();
    assert_eq!(status.turn_seq, m.turn_seq(), "{ctx}");
    assert_eq!(status.deadline, m.deadline(), "{ctx}");
    assert_eq!(status.next_tick_at, m.next_tick_at(), "{ctx}");
    assert_eq!(status.clock, m.clock(), "{ctx}");
    assert_eq!(status.over, m.outcome().is_some(), "{ctx}");
    let ids: Vec<String> = status
        .to_act
        .iter()
        .map(|&seat| m.players()[seat].clone())
        .collect();
    assert_eq!(ids, m.to_act(), "{ctx}: to act");
    assert_eq!(
        m.outcome_text().map(|t| parsed(&t)),
        m.outcome(),
        "{ctx}: outcome"
    );
    for player in m.players().iter().map(String::as_str).chain(["zed"]) {
        match m.legal_actions(player) {
            Ok(legal) => {
                let text = m.legal_text(player).unwrap();
                assert_eq!(parsed(&text), Value::Array(legal.clone()), "{ctx}: legal");
                assert_eq!(m.legal_count(player).unwrap(), legal.len(), "{ctx}: count");
            }
            Err(e) => {
                assert_eq!(m.legal_text(player).unwrap_err(), e, "{ctx}: legal refused");
                assert_eq!(
                    m.legal_count(player).unwrap_err(),
                    e,
                    "{ctx}: count refused"
                );
            }
        }
    }
}

/// Action texts that the games refuse or read oddly: not JSON, not an object, unknown
/// types and fields, wrong types, duplicated keys, numbers out of range, the array form.
fn odd_actions() -> Vec<String> {
    let mut texts: Vec<String> = [
        "",
        "   ",
        "nul",
        "{",
        "{}",
        "[]",
        "null",
        "7",
        "\"THROW\"",
        "[\"THROW\"]",
        "[\"PICK\",\"rock\"]",
        r#"{"type":"THORW"}"#,
        r#"{"type":"throw"}"#,
        r#"{"type":"THROW","force":"mo"}"#,
        r#"{"type":"THROW"} 1"#,
        r#"{"type":"MOVE"}"#,
        r#"{"type":"MOVE","throwIndex":-1,"from":"home"}"#,
        r#"{"type":"MOVE","throwIndex":1.5,"from":"home"}"#,
        r#"{"type":"MOVE","throwIndex":1e400,"from":"home"}"#,
        r#"{"type":"MOVE","throwIndex":18446744073709551616,"from":"home"}"#,
        r#"{"type":"MOVE","throwIndex":0,"from":"home","throwIndex":0}"#,
        r#"{"type":"MOVE","throwIndex":0,"from":"nowhere"}"#,
        r#"{"type":"MOVE","throwIndex":0,"from":99}"#,
        r#"{"type":"THROW","type":"THROW"}"#,
        r#"{"type":"PICK","hand":"rok"}"#,
        r#"{"type":"PICK"}"#,
        r#"{"type":"PICK","hand":"rock","hand":"rock"}"#,
        r#"{"type":"CHOOSE_AUGMENT","index":"0"}"#,
        r#"{"type":"CHOOSE_AUGMENT","index":99}"#,
        r#"{"type":"RULE"}"#,
        r#"{"type":7}"#,
        r#"{"type":null}"#,
        r#"{"hand":"rock"}"#,
        "{\"type\":\"TH\\u0052OW\"}",
        "\u{feff}{\"type\":\"THROW\"}",
    ]
    .map(str::to_owned)
    .into();
    texts.push(format!("{{\"type\":\"{}\"}}", "X".repeat(10_000)));
    texts.push(format!("{}{}", "[".repeat(500), "]".repeat(500)));
    texts.push(format!(
        "{{\"type\":\"MOVE\",\"throwIndex\":0,\"from\":{}}}",
        "[".repeat(200)
    ));
    texts
}

/// An odd action text through both paths: the same answer, and a refusal changes nothing.
fn odd_action(ctx: &str, a: &mut dyn DynMatch, b: &mut dyn DynMatch, player: &str, text: &str) {
    let before = snapshot(b);
    let by_text = b.act_text(player, text, None, b.clock());
    match serde_json::from_str::<Value>(text) {
        Ok(value) => {
            let by_value = a.act(player, value, None, a.clock());
            same(&format!("{ctx}: {text:.60}"), &by_value, &by_text);
        }
        Err(_) => {
            // Not JSON: no value to give the value path; the text path refuses it as the
            // action's bad JSON, having changed nothing.
            let e = by_text.result.as_ref().unwrap_err();
            assert_eq!(code(e), "BAD_JSON", "{ctx}: {text:.60}");
            assert_eq!(e.body().reason["part"], "action", "{ctx}");
            assert!(by_text.applied.is_empty());
        }
    }
    if by_text.result.is_err() {
        assert_eq!(
            snapshot(b),
            before,
            "{ctx}: a refused {text:.60} changed the match"
        );
    }
}

/// One whole game, the two matches in step. Returns how often each path was taken.
fn play_in_step(game: &str, options: &Value, seats: usize, seed: u64) -> [u32; 6] {
    let r = registry();
    let ids = players(seats);
    let ctx = format!("{game} {options} {seats}p seed {seed}");
    let mut a = r
        .create(game, options, ids.clone(), Some(seed), 1_000)
        .unwrap();
    let mut b = r
        .create(game, options, ids.clone(), Some(seed), 1_000)
        .unwrap();
    let mut pick = Pick(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let odd = odd_actions();
    let mut seen = [0u32; 6];
    let mut now = 1_000;
    for step in 0..3_000 {
        let ctx = format!("{ctx} step {step}");
        reads_agree(&ctx, b.as_ref());
        for viewer in ids
            .iter()
            .map(|p| Some(p.as_str()))
            .chain([None, Some("zed")])
        {
            match a.view(viewer) {
                Ok(view) => assert_eq!(parsed(&b.view_text(viewer).unwrap()), view, "{ctx}"),
                Err(e) => assert_eq!(b.view_text(viewer).unwrap_err(), e, "{ctx}"),
            }
        }
        let status = b.status();
        if status.over {
            break;
        }
        let player = ids[status.to_act[pick.below(status.to_act.len())]].clone();
        let legal = a.legal_actions(&player).unwrap();
        // Conceding ends the game at once: never chosen, so that games run their course.
        let playable: Vec<usize> = (0..legal.len())
            .filter(|&i| legal[i]["type"] != "CONCEDE")
            .collect();
        assert!(
            !playable.is_empty(),
            "{ctx}: {player} to act with {legal:?}"
        );
        let i = playable[pick.below(playable.len())];
        let seq = Some(status.turn_seq);
        match pick.below(12) {
            0 => {
                odd_action(
                    &ctx,
                    a.as_mut(),
                    b.as_mut(),
                    &player,
                    &odd[pick.below(odd.len())],
                );
                seen[0] += 1;
            }
            1 if status.next_tick_at.is_some() => {
                // Late: the timeouts first, then the chosen action, judged after them.
                now = status.next_tick_at.unwrap();
                let by_value = a.act(&player, legal[i].clone(), None, now);
                let by_text = b.act_legal(&player, i as u64, None, now);
                same(&format!("{ctx}: late"), &by_value, &by_text);
                seen[1] += u32::from(!by_text.applied.is_empty());
            }
            2 => {
                let who = &ids[pick.below(seats)];
                let connected = pick.below(2) == 0;
                let x = a.set_connected(who, connected, now);
                let y = b.set_connected(who, connected, now);
                assert_eq!(x, y, "{ctx}: presence");
                seen[2] += 1;
            }
            3 => {
                // Past the end of the list, stale, or not seated: refused, nothing changed.
                let before = snapshot(b.as_mut());
                let count = legal.len() as u64;
                let (index, turn_seq, who, want) = match pick.below(4) {
                    0 => (count, seq, player.as_str(), "UNKNOWN_ACTION_INDEX"),
                    1 => (u64::MAX, None, player.as_str(), "UNKNOWN_ACTION_INDEX"),
                    2 => (
                        0,
                        Some(status.turn_seq + 1),
                        player.as_str(),
                        "STALE_TURN_SEQ",
                    ),
                    _ => (0, seq, "zed", "NOT_SEATED"),
                };
                let late = status.next_tick_at.unwrap_or(now);
                let e = b.act_legal(who, index, turn_seq, late).result.unwrap_err();
                assert_eq!(code(&e), want, "{ctx}: {e:?}");
                if want == "UNKNOWN_ACTION_INDEX" {
                    assert_eq!(e.body().reason["index"], index, "{ctx}");
                    assert_eq!(e.body().reason["count"], count, "{ctx}");
                } else {
                    let by_value = a.act(who, legal[0].clone(), turn_seq, late);
                    assert_eq!(by_value.result.unwrap_err(), e, "{ctx}: as act refuses it");
                    assert!(by_value.applied.is_empty());
                }
                assert_eq!(
                    snapshot(b.as_mut()),
                    before,
                    "{ctx}: {want} changed the match"
                );
                seen[3] += 1;
            }
            k => {
                now += 700;
                let by_value = a.act(&player, legal[i].clone(), seq, now);
                let by_text = if k % 2 == 0 {
                    seen[4] += 1;
                    b.act_text(&player, &legal[i].to_string(), seq, now)
                } else {
                    seen[5] += 1;
                    b.act_legal(&player, i as u64, seq, now)
                };
                same(&ctx, &by_value, &by_text);
                assert!(by_text.result.is_ok(), "{ctx}: a legal action refused");
            }
        }
        assert_eq!(a.state_json(), b.state_json(), "{ctx}: the states");
        assert_eq!(a.record(), b.record(), "{ctx}: the records");
    }
    assert!(b.status().over, "{ctx}: no end");
    reads_agree(&ctx, b.as_ref());
    // Over: every act refused as the game refuses it, by index as by value.
    let last = a.record().entries.iter().rev().find_map(|e| match e {
        game_core::RecordEntry::Act { action, .. } => Some(action.clone()),
        _ => None,
    });
    for player in &ids {
        let by_value = a.act(player, last.clone().unwrap(), None, now);
        let e = by_value.result.unwrap_err();
        assert_eq!(code(&e), "GAME_OVER", "{ctx}");
        let by_index = b.act_legal(player, 0, None, now).result.unwrap_err();
        assert_eq!(by_index.body(), e.body(), "{ctx}: over");
        let text = last.as_ref().unwrap().to_string();
        same(
            &ctx,
            &a.act(player, last.clone().unwrap(), None, now),
            &b.act_text(player, &text, None, now),
        );
    }
    seen
}

#[test]
fn text_paths_answer_as_the_value_paths_over_whole_games_of_every_built_in_game() {
    let mut total = [0u32; 6];
    for (game, options, seats) in setups() {
        for seed in 1..=4 {
            let seen = play_in_step(game, &options, seats, seed);
            for (t, s) in total.iter_mut().zip(seen) {
                *t += s;
            }
        }
    }
    // Every path was taken: odd actions, timeouts before a late act, presence, refused
    // indices, actions by text and by index.
    assert!(total.iter().all(|&n| n > 0), "{total:?}");
}

#[test]
fn an_odd_action_text_is_refused_as_the_value_path_refuses_it_in_every_game() {
    let r = registry();
    for (game, options, seats) in setups() {
        let ids = players(seats);
        let mut a = r.create(game, &options, ids.clone(), Some(9), 0).unwrap();
        let mut b = r.create(game, &options, ids.clone(), Some(9), 0).unwrap();
        for text in odd_actions() {
            for player in ids.iter().map(String::as_str).chain(["zed"]) {
                odd_action(game, a.as_mut(), b.as_mut(), player, &text);
                assert_eq!(a.state_json(), b.state_json(), "{game}: {text:.60}");
            }
        }
    }
}

#[test]
fn an_action_text_that_does_not_parse_gives_the_value_paths_error_word_for_word() {
    let r = registry();
    let mut m = r.create("yut", &json!({}), players(2), Some(3), 0).unwrap();
    let player = m.to_act()[0].clone();
    let text = r#"{"type":"THORW"}"#;
    let by_text = m.act_text(&player, text, None, 0).result.unwrap_err();
    let by_value = m.act(&player, parsed(text), None, 0).result.unwrap_err();
    assert_eq!(by_text, by_value);
    let HostError::BadJson { what, detail } = &by_text else {
        panic!("{by_text:?}");
    };
    assert_eq!(*what, "action");
    // The value reader's words: no line and column, which the typed text reader adds.
    assert!(detail.contains("`THORW`"), "{detail}");
    assert!(!detail.contains("line"), "{detail}");
    // Not JSON at all: the text's own parse error.
    let e = m
        .act_text(&player, "{\"type\":", None, 0)
        .result
        .unwrap_err();
    assert_eq!(code(&e), "BAD_JSON");
    assert_eq!(e.body().reason["part"], "action");
    assert_eq!(m.turn_seq(), 0);
}

#[test]
fn act_legal_is_act_with_the_legal_action_at_the_index() {
    let r = registry();
    for (game, options, seats) in setups() {
        let ids = players(seats);
        let mut base = r.create(game, &options, ids.clone(), Some(5), 0).unwrap();
        let player = base.to_act()[0].clone();
        let legal = base.legal_actions(&player).unwrap();
        assert_eq!(base.legal_count(&player).unwrap(), legal.len());
        for (i, action) in legal.iter().enumerate() {
            let mut a = r.replay(base.record()).unwrap();
            let mut b = r.replay(base.record()).unwrap();
            let by_value = a.act(&player, action.clone(), Some(0), 10);
            let by_index = b.act_legal(&player, i as u64, Some(0), 10);
            same(&format!("{game} index {i}"), &by_value, &by_index);
            assert_eq!(a.state_json(), b.state_json());
            assert_eq!(a.record(), b.record());
        }
        let mut b = r.replay(base.record()).unwrap();
        let e = b
            .act_legal(&player, legal.len() as u64, None, 0)
            .result
            .unwrap_err();
        assert_eq!(code(&e), "UNKNOWN_ACTION_INDEX");
        assert_eq!(
            e.body().reason,
            json!({ "index": legal.len(), "count": legal.len() })
                .as_object()
                .unwrap()
                .clone()
        );
        assert!(e.body().message.chars().any(|c| ('가'..='힣').contains(&c)));
        assert_eq!(b.state_json(), base.state_json());
        assert!(b.record().entries.is_empty());
    }
}

/// A legal index that does not concede (conceding ends most games at once), or the last.
fn playing_index(m: &dyn DynMatch, player: &str, pick: &mut Pick) -> usize {
    let legal = m.legal_actions(player).unwrap();
    let playing: Vec<usize> = (0..legal.len())
        .filter(|&i| legal[i]["type"] != "CONCEDE")
        .collect();
    playing
        .get(pick.below(playing.len()))
        .copied()
        .unwrap_or(legal.len().saturating_sub(1))
}

#[test]
fn advance_plays_as_act_legal_at_the_clock_and_answers_the_next_legal_count() {
    let r = registry();
    for (game, options, seats) in setups() {
        for seed in 0..4 {
            let ctx = format!("{game} ({seats} seats) seed {seed}");
            let ids = players(seats);
            let mut a = r
                .create(game, &options, ids.clone(), Some(seed), 0)
                .unwrap();
            let mut b = r
                .create(game, &options, ids.clone(), Some(seed), 0)
                .unwrap();
            let mut pick = Pick(seed + 1);
            let mut count = b.legal_count(&b.to_act()[0]).unwrap();
            let mut steps = 0;
            while !a.status().over {
                assert!(steps < 5_000, "{ctx}: does not end");
                let player = a.to_act()[0].clone();
                assert_eq!(count, a.legal_count(&player).unwrap(), "{ctx} step {steps}");
                let i = playing_index(a.as_ref(), &player, &mut pick);
                let clock = a.clock();
                a.act_legal(&player, i as u64, None, clock).result.unwrap();
                count = b.advance(i as u64).unwrap();
                assert_eq!(a.status(), b.status(), "{ctx} step {steps}");
                steps += 1;
            }
            assert_eq!(count, 0, "{ctx}: over");
            assert_eq!(a.state_json(), b.state_json(), "{ctx}");
            assert_eq!(a.record(), b.record(), "{ctx}");
            // The record replays to the state, as every record does.
            let replayed = r.replay(b.record()).unwrap();
            assert_eq!(replayed.state_json(), b.state_json(), "{ctx}: replayed");
            let before = snapshot(b.as_mut());
            assert_eq!(code(&b.advance(0).unwrap_err()), "GAME_OVER", "{ctx}");
            assert_eq!(
                snapshot(b.as_mut()),
                before,
                "{ctx}: a refusal changes nothing"
            );
        }
    }
}

#[test]
fn advance_refuses_an_index_past_the_list_and_changes_nothing() {
    let r = registry();
    for (game, options, seats) in setups() {
        let mut m = r
            .create(game, &options, players(seats), Some(9), 0)
            .unwrap();
        let count = m.legal_count(&m.to_act()[0]).unwrap();
        let before = snapshot(m.as_mut());
        for index in [count as u64, count as u64 + 1, u64::MAX] {
            let e = m.advance(index).unwrap_err();
            assert_eq!(code(&e), "UNKNOWN_ACTION_INDEX", "{game}");
            assert_eq!(
                Value::Object(e.body().reason),
                json!({ "index": index, "count": count }),
                "{game}"
            );
            assert_eq!(snapshot(m.as_mut()), before, "{game}: index {index}");
        }
        assert!(m.advance(0).is_ok(), "{game}");
    }
}

/// A stored state whose clock is past its deadline (a host's clock that ran on, a state
/// written by hand): `advance` takes the timeout due at the clock first, as `act_legal` at
/// the clock does, records it the same, and then plays or refuses the index the same.
#[test]
fn advance_takes_a_timeout_due_at_the_clock_first_as_act_legal_does() {
    let r = registry();
    for (game, options, seats) in setups() {
        let mut m = r
            .create(game, &options, players(seats), Some(5), 0)
            .unwrap();
        let mut pick = Pick(6);
        for step in 0..40 {
            if m.status().over {
                break;
            }
            let ctx = format!("{game} ({seats} seats) step {step}");
            let Some(deadline) = m.deadline() else {
                continue;
            };
            let mut json = m.state_json();
            // Yut keeps its table in its board, rps at the top.
            let table = match json.get_mut("board") {
                Some(board) => &mut board["table"],
                None => &mut json["table"],
            };
            table["clock"] = json!(deadline + 1_000);
            let text = json.to_string();
            let mut a = r.restore(game, &text).unwrap();
            let mut b = r.restore(game, &text).unwrap();
            assert!(
                a.clock() > deadline,
                "{ctx}: the clock is past the deadline"
            );
            let player = a.to_act()[0].clone();
            let i = playing_index(a.as_ref(), &player, &mut pick);
            let clock = a.clock();
            let played = a.act_legal(&player, i as u64, None, clock);
            let advanced = b.advance(i as u64);
            assert!(
                !played.applied.is_empty() || a.status().over,
                "{ctx}: a timeout was due"
            );
            assert_eq!(played.result.is_ok(), advanced.is_ok(), "{ctx}");
            assert_eq!(a.status(), b.status(), "{ctx}");
            assert_eq!(a.state_json(), b.state_json(), "{ctx}");
            assert_eq!(a.record(), b.record(), "{ctx}");
            let player = m.to_act()[0].clone();
            let i = playing_index(m.as_ref(), &player, &mut pick);
            let clock = m.clock();
            m.act_legal(&player, i as u64, None, clock).result.unwrap();
        }
    }
}
