//! The host protocol's schemas (`game_host::schemas`, written by `--example schema`
//! under `host/`) describe the real traffic: every request of a session over every
//! operation fits `request`, every reply its operation's `reply-OP` or `reply-error`; and what
//! the host refuses, the request schema refuses too.

use std::collections::BTreeMap;

use game_host::{Host, OPS, schemas};
use jsonschema::Validator;
use serde_json::{Value, json};

fn validators() -> BTreeMap<&'static str, Validator> {
    schemas()
        .into_iter()
        .map(|(name, schema)| {
            let v = jsonschema::validator_for(&schema)
                .unwrap_or_else(|e| panic!("{name}: not a valid schema: {e}"));
            (name, v)
        })
        .collect()
}

#[track_caller]
fn fits(v: &BTreeMap<&str, Validator>, name: &str, value: &Value) {
    let errors: Vec<String> = v[name]
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{name}:\n{}\n{value}", errors.join("\n"));
}

#[test]
fn every_request_and_reply_of_a_session_fits_its_schema() {
    let v = validators();
    let mut host = Host::default();
    let mut requests = vec![
        json!({"op": "games", "id": 1}),
        json!({"op": "schemas", "game": "yut"}),
        json!({"op": "create", "game": "yut", "players": ["a", "b"], "seed": 3, "now": 0, "match": "g"}),
        json!({"op": "create", "game": "rps", "players": ["a", "b"]}),
        json!({"op": "view", "match": "g"}),
        json!({"op": "view", "match": "g", "player": "zed"}),
        json!({"op": "legal", "match": "g", "player": "a"}),
        json!({"op": "presence", "match": "g", "player": "b", "connected": false, "now": 100}),
        json!({"op": "tick", "match": "g", "now": 40_000, "player": "a"}),
        json!({"op": "events", "match": "g", "player": "b"}),
        json!({"op": "events", "match": "g"}),
        json!({"op": "act", "match": "g", "player": "a", "action": {"type": "THROW"}, "turnSeq": 0}),
        json!({"op": "outcome", "match": "g"}),
        json!({"op": "record", "match": "g"}),
        json!({"op": "drop", "match": "m1"}),
        json!({"op": "drop", "match": "m1"}),
    ];
    // Play `g` on a while, with whoever is to act.
    let mut ops_seen = std::collections::BTreeSet::new();
    let mut record = Value::Null;
    let mut state = Value::Null;
    let mut i = 0;
    while i < requests.len() {
        let request = requests[i].clone();
        i += 1;
        fits(&v, "request", &request);
        let op = request["op"].as_str().unwrap().to_owned();
        let reply = serde_json::to_value(host.handle_line(&request.to_string())).unwrap();
        if reply["ok"] == true {
            fits(&v, &format!("reply-{op}"), &reply);
            ops_seen.insert(op.clone());
        } else {
            fits(&v, "reply-error", &reply);
        }
        if op == "record" && record.is_null() {
            record = reply["record"].clone();
            requests.push(json!({"op": "load", "record": record, "match": "copy"}));
            state = serde_json::to_value(
                game_host::registry()
                    .replay(&serde_json::from_value(record.clone()).unwrap())
                    .unwrap()
                    .state_json(),
            )
            .unwrap();
            requests.push(json!({"op": "restore", "game": "yut", "state": state, "match": "back"}));
            for step in 0..30 {
                let player = ["a", "b"][step % 2];
                requests.push(json!({"op": "legal", "match": "g", "player": player}));
            }
        }
        if op == "legal" && reply["ok"] == true {
            let player = request["player"].clone();
            if let Some(action) = reply["actions"].as_array().and_then(|a| a.first()) {
                requests
                    .push(json!({"op": "act", "match": "g", "player": player, "action": action}));
            }
        }
    }
    assert!(!state.is_null());
    for (op, _) in OPS {
        assert!(ops_seen.contains(op), "no successful {op} in the session");
    }
}

#[test]
fn the_request_schema_refuses_what_the_host_refuses() {
    let v = validators();
    for bad in [
        json!({"op": "act", "match": "m1", "player": "a", "action": {"type": "THROW"}, "turnseq": 0}),
        json!({"op": "act", "match": "m1", "player": "a", "action": {"type": "THROW"}, "turnSeq": null}),
        json!({"op": "create", "game": "yut", "players": ["a", "b"], "match": "m".repeat(129)}),
        json!({"op": "tick", "match": "m1"}),
        json!({"op": "jump"}),
        json!({"op": "view", "match": "m1", "player": ""}),
        json!({"op": "create", "game": "rps", "players": ["a", "b"], "seed": 9_007_199_254_740_992_u64}),
        json!({"op": "act", "match": "m1", "player": "a", "action": {"type": "THROW"}, "turnSeq": u64::MAX}),
        json!({"op": "tick", "match": "m1", "now": 9_007_199_254_740_992_u64}),
        json!({"op": "tick", "match": "m1", "now": -1}),
    ] {
        assert!(!v["request"].is_valid(&bad), "the schema takes {bad}");
        let reply = serde_json::to_value(Host::default().handle_line(&bad.to_string())).unwrap();
        assert_eq!(reply["ok"], false, "the host takes {bad}");
    }
}

#[test]
fn the_request_schema_takes_every_count_up_to_2_pow_53_minus_1() {
    let v = validators();
    let max = game_core::MAX_SAFE_INTEGER;
    for good in [
        json!({"op": "create", "game": "rps", "players": ["a", "b"], "seed": max, "now": max}),
        json!({"op": "act", "match": "m1", "player": "a", "action": {"type": "THROW"}, "turnSeq": max, "now": 0}),
        json!({"op": "tick", "match": "m1", "now": max}),
    ] {
        assert!(v["request"].is_valid(&good), "the schema refuses {good}");
    }
}
