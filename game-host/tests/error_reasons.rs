//! Every error body a game's matches give fits that game's error schema: the branch of its
//! code, with that code's reason. Data-driven over the registry: for every game, the
//! refusals come from playing it (every action seen so far tried by every seat at every
//! decision, legal actions with each value changed, stale and unseated requests), from
//! setting it up and restoring it wrongly, and from tampered records; no code or reason
//! is written out here.

use std::collections::{BTreeMap, BTreeSet};

use game_core::{DynMatch, ErrorBody, GameError, HostError, MAX_TIME, RecordEntry, Registry};
use serde_json::{Value, json};

/// Whether `body` fits `validator`, with the reasons why not.
fn check(validator: &jsonschema::Validator, body: &ErrorBody, seen: &mut BTreeMap<String, usize>) {
    let value = serde_json::to_value(body).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{value}\n{}", errors.join("\n"));
    *seen.entry(body.code.clone()).or_default() += 1;
}

/// Each leaf of `value` changed in turn: numbers to large and negative ones, strings to
/// unknown words, booleans flipped; and one unknown field added.
fn variants(value: &Value) -> Vec<Value> {
    fn leaves(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        match v {
            Value::Object(o) => {
                for (k, child) in o {
                    path.push(k.clone());
                    leaves(child, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    path.push(i.to_string());
                    leaves(child, path, out);
                    path.pop();
                }
            }
            _ => out.push(path.clone()),
        }
    }
    let mut paths = Vec::new();
    leaves(value, &mut Vec::new(), &mut paths);
    let mut out = Vec::new();
    for path in paths
        .iter()
        .filter(|p| p.first().is_none_or(|k| k != "type"))
    {
        let pointer = format!("/{}", path.join("/"));
        let Some(leaf) = value.pointer(&pointer) else {
            continue;
        };
        let changed: Vec<Value> = match leaf {
            Value::Number(_) => vec![json!(99), json!(-1), json!(7)],
            Value::String(_) => vec![json!("zz"), json!(3)],
            Value::Bool(b) => vec![json!(!b)],
            Value::Null => vec![json!(1)],
            _ => vec![],
        };
        for new in changed {
            let mut v = value.clone();
            if let Some(slot) = v.pointer_mut(&pointer) {
                *slot = new;
            }
            out.push(v);
        }
    }
    let mut extra = value.clone();
    if let Value::Object(o) = &mut extra {
        o.insert("note".into(), json!(1));
    }
    out.push(extra);
    out
}

/// The refusals of one game's matches, played out with random legal actions.
fn refusals(registry: &Registry, game: &str, seed: u64, errors: &mut Vec<ErrorBody>) {
    let dg = registry.get(game).unwrap();
    let options = dg.default_options();
    // Setup: too few players, duplicates, each option given wrong values, an unknown one.
    let two = vec!["a".to_string(), "b".to_string()];
    for players in [vec![], vec!["a".into()], vec!["a".into(), "a".into()]] {
        if let Err(e) = registry.create(game, &options, players, Some(seed), 0) {
            errors.push(e.body());
        }
    }
    for bad in variants(&options) {
        if let Err(e) = registry.create(game, &bad, two.clone(), Some(seed), 0) {
            errors.push(e.body());
        }
    }
    for bad in [json!([]), json!("x"), json!({"noSuchOption": 1})] {
        if let Err(e) = registry.create(game, &bad, two.clone(), Some(seed), 0) {
            errors.push(e.body());
        }
    }
    if let Err(e) = dg.bot("no-such-bot", 0) {
        errors.push(e.body());
    }
    if let Err(e) = registry.get("no-such-game") {
        errors.push(e.body());
    }

    let players: Vec<String> = (0..4).map(|i| format!("p{i}")).collect();
    let mut m = (2..=4)
        .rev()
        .find_map(|n| {
            registry
                .create(game, &options, players[..n].to_vec(), Some(seed), 0)
                .ok()
        })
        .expect("the game seats 2 to 4 players");
    errors.push(m.set_grace_ms(MAX_TIME + 1).unwrap_err().body());
    let seated = m.players().to_vec();
    let mut rng = game_core::GameRng::from_seed(seed);
    let mut shapes: Vec<Value> = Vec::new();
    let mut now = 0;
    for step in 0..60 {
        let stored = m.state_json().to_string();
        // Tried on a copy of the match, so that an accepted one changes nothing here.
        let mut attempt = |f: &mut dyn FnMut(&mut dyn DynMatch) -> Option<HostError>| {
            let mut copy = registry.restore(game, &stored).unwrap();
            if let Some(e) = f(copy.as_mut()) {
                errors.push(e.body());
            }
        };
        for p in &seated {
            for legal in m.legal_actions(p).unwrap() {
                if !shapes.contains(&legal) {
                    shapes.push(legal);
                }
            }
        }
        let seq = m.turn_seq();
        let to_act = m.to_act();
        for p in seated.iter().map(String::as_str).chain(["zed"]) {
            // Every action seen so far, by everyone; the changed ones by the player to act,
            // every few decisions (each is tried on a restored copy).
            let mut tried = shapes.clone();
            if step % 4 == 0 && to_act.first().is_some_and(|q| q == p) {
                for legal in m.legal_actions(p).unwrap().iter().take(3) {
                    tried.extend(variants(legal));
                }
            }
            for action in tried {
                attempt(&mut |c| c.act(p, action.clone(), Some(seq), now).result.err());
            }
            attempt(&mut |c| {
                c.act(p, json!({"type": "THROW"}), Some(seq + 7), now)
                    .result
                    .err()
            });
            attempt(&mut |c| c.act_legal(p, 9_999, Some(seq), now).result.err());
            attempt(&mut |c| c.view(Some(p)).err());
            attempt(&mut |c| c.set_connected(p, false, now).result.err());
        }
        attempt(&mut |c| c.advance(9_999).err());
        let Some(p) = to_act.first() else {
            // Over: every action is refused now.
            for p in &seated {
                for action in &shapes {
                    attempt(&mut |c| c.act(p, action.clone(), None, now).result.err());
                }
            }
            attempt(&mut |c| c.advance(0).err());
            break;
        };
        let legal = m.legal_actions(p).unwrap();
        let pick = legal[rng.below(legal.len() as u32) as usize].clone();
        now += 1_000;
        assert!(m.act(p, pick, None, now).result.is_ok());
    }

    // Restoring: not JSON, a tampered table.
    let mut state = m.state_json();
    for bad in ["{", "{\"table\":1}"] {
        errors.push(registry.restore(game, bad).unwrap_err().body());
    }
    state["table"]["turnSeq"] = json!(u64::MAX);
    errors.push(
        registry
            .restore(game, &state.to_string())
            .unwrap_err()
            .body(),
    );

    // Records: another game, another version, a malformed action, refused inputs.
    let record = m.record().clone();
    let mut wrong = record.clone();
    wrong.game = "another".into();
    errors.push(dg.replay(&wrong).unwrap_err().body());
    let mut wrong = record.clone();
    wrong.version += 1;
    errors.push(dg.replay(&wrong).unwrap_err().body());
    let mut wrong = record.clone();
    wrong.options = json!(null);
    if let Err(e) = dg.replay(&wrong) {
        errors.push(e.body());
    }
    let mut wrong = record.clone();
    wrong.players = vec!["a".into()];
    if let Err(e) = dg.replay(&wrong) {
        errors.push(e.body());
    }
    for (i, entry) in record.entries.iter().enumerate() {
        let RecordEntry::Act { at, player, action } = entry else {
            continue;
        };
        let mut changed = Vec::new();
        for p in seated.iter().chain(&["zed".to_string()]) {
            changed.push(RecordEntry::Act {
                at: *at,
                player: p.clone(),
                action: action.clone(),
            });
        }
        for v in variants(action) {
            changed.push(RecordEntry::Act {
                at: *at,
                player: player.clone(),
                action: v,
            });
        }
        changed.push(RecordEntry::Grace { grace_ms: u64::MAX });
        for entry in changed {
            let mut wrong = record.clone();
            wrong.entries[i] = entry;
            if let Err(e) = dg.replay(&wrong) {
                errors.push(e.body());
            }
        }
        if i > 12 {
            break;
        }
    }
}

#[test]
fn every_refusal_of_every_game_fits_its_codes_branch_of_the_error_schema() {
    let registry = game_host::registry();
    for game in registry.ids() {
        let schema = registry.get(game).unwrap().schemas().error;
        let validator = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("{game}: not a valid schema: {e}"));
        let listed: BTreeSet<&str> = schema["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["properties"]["code"]["const"].as_str().unwrap())
            .collect();
        let mut seen = BTreeMap::new();
        for seed in 1..=2 {
            let mut errors = Vec::new();
            refusals(&registry, game, seed, &mut errors);
            for body in &errors {
                check(&validator, body, &mut seen);
            }
        }
        // A refusal of a code the schema does not list would have failed above; and the
        // play reached most of the listed codes, so the check is not vacuous.
        let reached = listed.iter().filter(|c| seen.contains_key(**c)).count();
        eprintln!(
            "{game}: {reached} of {} codes reached: {seen:?}",
            listed.len()
        );
        assert!(
            reached * 2 >= listed.len(),
            "{game}: only {seen:?} of {listed:?}"
        );
        // A body whose reason is another code's fails.
        let mut wrong = serde_json::to_value(ErrorBody {
            code: "STALE_TURN_SEQ".into(),
            message: "x".into(),
            reason: Default::default(),
        })
        .unwrap();
        assert!(!validator.is_valid(&wrong), "{game}");
        wrong["reason"] = json!({"got": 1, "expected": 2});
        assert!(validator.is_valid(&wrong), "{game}");
        wrong["reason"] = json!({"entry": 1, "error": {"code": "X", "message": "", "reason": {}}});
        assert!(
            !validator.is_valid(&wrong),
            "{game}: a replay sends no turnSeq"
        );
    }
}

/// The wire bytes of error bodies, written out for a few (a reason's keys in order, as a
/// JSON object map keeps them).
#[test]
fn error_bodies_are_written_as_before() {
    let cases: Vec<(Box<dyn GameError>, &str)> = vec![
        (
            Box::new(game_core::Rejection::StaleTurnSeq {
                got: 1,
                expected: 2,
            }),
            r#"{"code":"STALE_TURN_SEQ","message":"화면이 최신 상태가 아니에요. 다시 시도해 주세요.","reason":{"expected":2,"got":1}}"#,
        ),
        (
            Box::new(game_core::Rejection::GameOver),
            r#"{"code":"GAME_OVER","message":"이미 끝난 게임이에요.","reason":{}}"#,
        ),
        (
            Box::new(HostError::UnknownBot {
                kind: "x".into(),
                kinds: vec!["random"],
            }),
            r#"{"code":"UNKNOWN_BOT","message":"이 게임에는 그런 봇이 없어요.","reason":{"bot":"x","bots":["random"]}}"#,
        ),
        (
            Box::new(yut::YutError::CannotMove { from: None }),
            r#"{"code":"CANNOT_MOVE","message":"그 말은 움직일 수 없어요.","reason":{"from":"home"}}"#,
        ),
        (
            Box::new(yut::YutError::UnknownThrowIndex {
                index: 3,
                pending: 1,
            }),
            r#"{"code":"UNKNOWN_THROW_INDEX","message":"그런 윷 결과는 없어요.","reason":{"pending":1,"throwIndex":3}}"#,
        ),
    ];
    for (e, text) in cases {
        assert_eq!(serde_json::to_string(&e.body()).unwrap(), text);
    }
}
