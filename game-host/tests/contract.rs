//! The JSON-lines host's side of the host contract: requests read strictly (unknown fields,
//! `null`, oversized ids and lines refused by name), the clock and `nextTickAt` in every
//! status, late requests answered with the timeouts taken first, seeds from the operating
//! system, `restore` of a stored state, and views only for the seated.

use game_host::{Host, serve_with};
use serde_json::{Value, json};

fn ask(host: &mut Host, request: Value) -> Value {
    serde_json::to_value(host.handle_line(&request.to_string())).unwrap()
}

#[track_caller]
fn ok(reply: &Value) -> &Value {
    assert_eq!(reply["ok"], true, "{reply}");
    reply
}

#[track_caller]
fn refused<'a>(reply: &'a Value, code: &str) -> &'a Value {
    assert_eq!(reply["ok"], false, "{reply}");
    assert_eq!(reply["error"]["code"], code, "{reply}");
    assert!(reply["error"]["reason"].is_object(), "{reply}");
    &reply["error"]["reason"]
}

/// A 2-player yut match `m1` created at 1 s with seed 5.
fn host_with_match() -> Host {
    let mut host = Host::default();
    ok(&ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": ["a", "b"], "seed": 5, "now": 1_000}),
    ));
    host
}

#[test]
fn unknown_and_null_fields_are_refused_by_name() {
    let mut host = host_with_match();
    let status = ok(&ask(&mut host, json!({"op": "view", "match": "m1"}))).clone();
    let seq = status["view"]["turnSeq"].clone();
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": "a", "action": {"type": "THROW"}, "turnseq": seq}),
    );
    assert_eq!(refused(&r, "BAD_REQUEST")["field"], "turnseq");
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": "a", "action": {"type": "THROW"}, "turnSeq": null}),
    );
    assert_eq!(refused(&r, "BAD_REQUEST")["field"], "turnSeq");
    let r = ask(&mut host, json!({"op": "games", "verbose": true}));
    assert_eq!(refused(&r, "BAD_REQUEST")["field"], "verbose");
    let r = ask(
        &mut host,
        json!({"op": "view", "match": "m1", "player": null}),
    );
    assert_eq!(refused(&r, "BAD_REQUEST")["field"], "player");
    let r = ask(
        &mut host,
        json!({"op": "tick", "match": "m1", "now": "soon"}),
    );
    assert_eq!(refused(&r, "BAD_REQUEST")["field"], "now");
    // Nothing of it was applied.
    let after = ok(&ask(&mut host, json!({"op": "view", "match": "m1"}))).clone();
    assert_eq!(after["view"]["turnSeq"], seq);
}

#[test]
fn ids_are_capped_and_lines_too() {
    let mut host = Host::default();
    let long = "m".repeat(129);
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": long}),
    );
    assert_eq!(refused(&r, "BAD_REQUEST")["field"], "match");
    let r = ask(&mut host, json!({"op": "view", "match": long}));
    assert_eq!(refused(&r, "BAD_REQUEST")["field"], "match");
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": "m".repeat(128)}),
    );
    ok(&r);

    // A line over the cap is answered TOO_LARGE and the host goes on serving.
    let big = format!(
        "{{\"op\":\"games\",\"id\":\"{}\"}}\n{{\"op\":\"games\",\"id\":2}}\n",
        "x".repeat(5_000)
    );
    let mut out = Vec::new();
    serve_with(big.as_bytes(), &mut out, 1_000).unwrap();
    let replies: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 2);
    let reason = refused(&replies[0], "TOO_LARGE");
    assert_eq!(reason["max"], 1_000);
    assert!(reason["bytes"].as_u64().unwrap() > 5_000);
    assert_eq!(ok(&replies[1])["id"], 2);
}

#[test]
fn the_status_carries_the_clock_and_next_tick_at_and_refusals_leave_them() {
    let mut host = host_with_match();
    let status = ok(&ask(
        &mut host,
        json!({"op": "tick", "match": "m1", "now": 1_000}),
    ))
    .clone();
    assert_eq!(status["deadline"], 31_000);
    assert_eq!(status["nextTickAt"], 31_000);
    assert_eq!(status["clock"], 1_000);
    let to_act = status["toAct"][0].as_str().unwrap().to_owned();
    let other = if to_act == "a" { "b" } else { "a" };
    // Refused with the latest `now` and with `now: 0`: the clock and the deadline stay.
    for now in [game_core::MAX_SAFE_INTEGER, 0] {
        let r = ask(
            &mut host,
            json!({"op": "act", "match": "m1", "player": to_act, "action": {"type": "THROW"}, "turnSeq": 99, "now": now}),
        );
        refused(&r, "STALE_TURN_SEQ");
        let r = ask(
            &mut host,
            json!({"op": "presence", "match": "m1", "player": "nobody", "connected": false, "now": now}),
        );
        refused(&r, "NOT_SEATED");
    }
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": other, "action": {"type": "THROW"}}),
    );
    refused(&r, "NOT_YOUR_TURN");
    // A move without `now` is taken at the match's clock: the deadlines are as before.
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": to_act, "action": {"type": "THROW"}}),
    );
    ok(&r);
    assert_eq!(r["clock"], 1_000);
    assert_eq!(r["nextTickAt"], 31_000);
    assert_eq!(r["applied"], json!([]));

    // A disconnected player is acted for after the grace: nextTickAt says so.
    let r = ask(
        &mut host,
        json!({"op": "presence", "match": "m1", "player": to_act, "connected": false, "now": 2_000}),
    );
    ok(&r);
    assert_eq!(r["events"][0]["type"], "presenceChanged");
    assert_eq!(r["deadline"], 31_000);
    assert_eq!(r["nextTickAt"], 7_000);
    // The same update again changes nothing and is not recorded.
    let entries = |host: &mut Host| {
        ok(&ask(host, json!({"op": "record", "match": "m1"})))["record"]["entries"]
            .as_array()
            .unwrap()
            .len()
    };
    let before = entries(&mut host);
    let r = ask(
        &mut host,
        json!({"op": "presence", "match": "m1", "player": to_act, "connected": false, "now": 3_000}),
    );
    assert_eq!(ok(&r)["events"], json!([]));
    assert_eq!(entries(&mut host), before);
}

#[test]
fn a_late_act_is_answered_with_the_timeouts_taken_first() {
    let mut host = host_with_match();
    let status = ok(&ask(
        &mut host,
        json!({"op": "tick", "match": "m1", "now": 1_000}),
    ))
    .clone();
    let player = status["toAct"][0].clone();
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": player, "action": {"type": "THROW"}, "turnSeq": status["turnSeq"], "now": 31_000}),
    );
    refused(&r, "STALE_TURN_SEQ");
    let applied = r["applied"].as_array().unwrap();
    assert_eq!(applied.len(), 1);
    assert_eq!(applied[0]["auto"], true);
    assert_eq!(applied[0]["player"], player);
}

#[test]
fn views_are_for_seated_players_or_the_spectator() {
    let mut host = host_with_match();
    ok(&ask(&mut host, json!({"op": "view", "match": "m1"})));
    ok(&ask(
        &mut host,
        json!({"op": "view", "match": "m1", "player": "a"}),
    ));
    let r = ask(
        &mut host,
        json!({"op": "view", "match": "m1", "player": "zed"}),
    );
    assert_eq!(refused(&r, "NOT_SEATED")["player"], "zed");
}

#[test]
fn matches_without_a_seed_differ_and_their_records_say_which() {
    let mut host = Host::default();
    let mut seeds = Vec::new();
    for _ in 0..3 {
        let r = ask(
            &mut host,
            json!({"op": "create", "game": "yut", "players": ["a", "b"]}),
        );
        let id = ok(&r)["match"].clone();
        let record = ask(&mut host, json!({"op": "record", "match": id}));
        seeds.push(ok(&record)["record"]["seed"].as_u64().unwrap());
    }
    seeds.dedup();
    assert_eq!(seeds.len(), 3, "{seeds:?}");
}

#[test]
fn load_reads_options_as_strictly_as_create_and_restore_takes_stored_states() {
    let mut host = host_with_match();
    let record = ok(&ask(&mut host, json!({"op": "record", "match": "m1"})))["record"].clone();
    let mut array = record.clone();
    array["options"] = json!(["individual", 3]);
    refused(
        &ask(&mut host, json!({"op": "load", "record": array})),
        "BAD_JSON",
    );
    let mut bad = record.clone();
    bad["options"] = json!({"pieces": 300});
    let r = ask(&mut host, json!({"op": "load", "record": bad}));
    assert_eq!(refused(&r, "INVALID_OPTION")["option"], "pieces");

    // A stored state comes back as a match, given as JSON or as its text.
    let stored = {
        let mut m = game_host::registry()
            .create(
                "yut",
                &json!({}),
                vec!["a".into(), "b".into()],
                Some(5),
                1_000,
            )
            .unwrap();
        let p = m.to_act()[0].clone();
        m.act(&p, json!({"type": "THROW"}), None, 2_000)
            .result
            .unwrap();
        m.state_json()
    };
    for state in [stored.clone(), Value::from(stored.to_string())] {
        let r = ask(
            &mut host,
            json!({"op": "restore", "game": "yut", "state": state}),
        );
        let id = ok(&r)["match"].clone();
        assert_eq!(r["turnSeq"], 1);
        assert_eq!(r["clock"], 2_000);
        let view = ask(&mut host, json!({"op": "view", "match": id}));
        assert_eq!(ok(&view)["view"]["turnSeq"], 1);
    }
    let mut tampered = stored.clone();
    tampered["board"]["throwsOwed"] = json!(200);
    let r = ask(
        &mut host,
        json!({"op": "restore", "game": "yut", "state": tampered}),
    );
    refused(&r, "CORRUPT_STATE");
    let r = ask(
        &mut host,
        json!({"op": "restore", "game": "yut", "state": stored, "match": "m1"}),
    );
    refused(&r, "MATCH_EXISTS");
    let r = ask(
        &mut host,
        json!({"op": "restore", "game": "chess", "state": {}}),
    );
    refused(&r, "UNKNOWN_GAME");
}

/// JSON leaves a key given twice to the reader; this one refuses it, at the top and at
/// any depth (the last one kept would let `"seed":null` past its check, or change an
/// action after it was read).
#[test]
fn a_key_given_twice_is_refused_at_any_depth() {
    let mut host = host_with_match();
    for line in [
        r#"{"op":"create","game":"rps","players":["a","b"],"seed":null,"seed":1}"#,
        r#"{"op":"nosuch","op":"games"}"#,
        r#"{"op":"create","game":"rps","players":["a","b"],"options":{"winsNeeded":"x","winsNeeded":5}}"#,
        r#"{"op":"act","match":"m1","player":"a","action":{"type":"THROW","type":"CONCEDE"}}"#,
        r#"{"op":"create","game":"rps","players":["a","b"],"match":"x","match":"y"}"#,
        r#"{"op":"games","id":{"a":[{"b":1,"b":2}]}}"#,
    ] {
        let reply = serde_json::to_value(host.handle_line(line)).unwrap();
        let reason = refused(&reply, "BAD_REQUEST");
        assert!(
            reason["detail"].as_str().unwrap().contains("twice"),
            "{line}: {reply}"
        );
    }
    // Nothing was created or changed.
    let outcome = ask(&mut host, json!({"op": "outcome", "match": "m1"}));
    assert_eq!(ok(&outcome)["over"], false);
    let view = ask(&mut host, json!({"op": "view", "match": "m1"}));
    assert_eq!(ok(&view)["view"]["turnSeq"], 0);
    for id in ["m2", "x", "y"] {
        refused(
            &ask(&mut host, json!({"op": "view", "match": id})),
            "UNKNOWN_MATCH",
        );
    }
    // One key per object, at every depth, still reads.
    let line = r#"{"op":"games","id":{"a":[{"b":1},{"b":2}],"b":{"a":1}}}"#;
    let reply = serde_json::to_value(host.handle_line(line)).unwrap();
    assert!(ok(&reply)["games"].is_array());
}

/// The `id` comes back as it was sent, or the request is refused naming it: a number the
/// reply would write differently (an integer past 64 bits, one past a double's range)
/// or a string that is not whole characters is not run with a `null` id.
#[test]
fn an_id_the_reply_cannot_echo_is_refused() {
    let mut host = Host::default();
    for id in [
        "123456789012345678901234567890",
        "18446744073709551616",
        "1e400",
        r#""\ud800""#,
    ] {
        let line = format!(r#"{{"op":"create","game":"rps","players":["a","b"],"id":{id}}}"#);
        let reply = serde_json::to_value(host.handle_line(&line)).unwrap();
        assert_eq!(refused(&reply, "BAD_REQUEST")["field"], "id", "{id}");
    }
    refused(
        &ask(&mut host, json!({"op": "view", "match": "m1"})),
        "UNKNOWN_MATCH",
    );
    for id in [
        "18446744073709551615",
        "-9223372036854775808",
        "1.5",
        "1e300",
        r#""가""#,
    ] {
        let line = format!(r#"{{"op":"games","id":{id}}}"#);
        let reply = serde_json::to_value(host.handle_line(&line)).unwrap();
        assert_eq!(
            reply["id"],
            serde_json::from_str::<Value>(id).unwrap(),
            "{id}"
        );
    }
}

/// A line of spaces that are not JSON's (no-break, ideographic, vertical tab) is not
/// blank: it gets its `BAD_REQUEST`, so that a client waiting for a reply gets one.
#[test]
fn only_json_whitespace_makes_a_line_blank() {
    let input = "\u{a0}\n\u{3000}\n\u{b}\n \t\r\n{\"op\":\"games\",\"id\":2}\n";
    let mut out = Vec::new();
    serve_with(input.as_bytes(), &mut out, 1 << 20).unwrap();
    let replies: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 4, "{replies:?}");
    for r in &replies[..3] {
        refused(r, "BAD_REQUEST");
    }
    assert_eq!(replies[3]["id"], 2);
}

/// The player's `message` is the engine's own sentence: a request's text (an unknown
/// option's name, an unknown game's id) is in the reason only.
#[test]
fn messages_hold_no_text_of_the_request() {
    let mut host = Host::default();
    let bait = "<img src=x onerror=alert(1)>\u{202e}";
    let replies = [
        ask(
            &mut host,
            json!({"op": "create", "game": "rps", "players": ["a", "b"], "options": {bait: 1}}),
        ),
        ask(
            &mut host,
            json!({"op": "create", "game": bait, "players": ["a", "b"]}),
        ),
        ask(&mut host, json!({"op": "schemas", "game": bait})),
    ];
    for (reply, code) in replies
        .iter()
        .zip(["INVALID_OPTION", "UNKNOWN_GAME", "UNKNOWN_GAME"])
    {
        let reason = refused(reply, code);
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(
            !message.contains("img") && !message.contains('\u{202e}'),
            "{reply}"
        );
        assert!(reason.to_string().contains("img"), "{reply}");
    }
}

/// `seed`, `turnSeq` and `now` take the integers a JavaScript number holds exactly, 0 to
/// 2^53 − 1, as the Node package does, and anything else is refused by name with the
/// Node package's refusal, changing nothing.
#[test]
fn counts_past_2_pow_53_minus_1_are_refused_as_the_node_package_refuses_them() {
    let max = game_core::MAX_SAFE_INTEGER;
    let mut host = Host::default();
    let created = ok(&ask(
        &mut host,
        json!({"op": "create", "game": "rps", "players": ["a", "b"], "seed": max, "now": max, "match": "edge"}),
    ))
    .clone();
    assert_eq!(created["turnSeq"], 0);
    let past = [
        "9007199254740992",
        "18446744073709551615",
        "18446744073709551616",
        "-1",
        "1.5",
        "1e3",
        r#""7""#,
        "true",
        "[1]",
    ];
    for given in past {
        let lines = [
            (
                "seed",
                format!(
                    r#"{{"op":"create","game":"rps","players":["a","b"],"seed":{given},"match":"x"}}"#
                ),
            ),
            (
                "now",
                format!(
                    r#"{{"op":"create","game":"rps","players":["a","b"],"now":{given},"match":"x"}}"#
                ),
            ),
            (
                "turnSeq",
                format!(
                    r#"{{"op":"act","match":"edge","player":"a","action":{{"type":"RANDOM"}},"turnSeq":{given}}}"#
                ),
            ),
            (
                "now",
                format!(
                    r#"{{"op":"act","match":"edge","player":"a","action":{{"type":"RANDOM"}},"now":{given}}}"#
                ),
            ),
            (
                "now",
                format!(r#"{{"op":"tick","match":"edge","now":{given}}}"#),
            ),
            (
                "now",
                format!(
                    r#"{{"op":"presence","match":"edge","player":"a","connected":false,"now":{given}}}"#
                ),
            ),
        ];
        for (field, line) in lines {
            let reply = serde_json::to_value(host.handle_line(&line)).unwrap();
            let reason = refused(&reply, "BAD_REQUEST");
            // The Node package's very words (bindings/node answers with the same function).
            assert_eq!(
                reason,
                &json!({
                    "field": field,
                    "detail": format!("`{field}` must be an integer from 0 to 2^53 - 1, not {given}"),
                }),
                "{line}"
            );
            assert!(
                reply["applied"].as_array().is_none_or(Vec::is_empty),
                "{line}"
            );
        }
    }
    // Nothing was created or changed.
    refused(
        &ask(&mut host, json!({"op": "view", "match": "x"})),
        "UNKNOWN_MATCH",
    );
    let view = ok(&ask(&mut host, json!({"op": "view", "match": "edge"}))).clone();
    assert_eq!(view["view"]["turnSeq"], 0);
    let record = ok(&ask(&mut host, json!({"op": "record", "match": "edge"}))).clone();
    assert_eq!(record["record"]["entries"], json!([]));
    assert_eq!(record["record"]["seed"], max);
    // 2^53 − 1 itself is taken for a `turnSeq` too (stale here, not malformed).
    let reply = ask(
        &mut host,
        json!({"op": "act", "match": "edge", "player": "a", "action": {"type": "RANDOM"}, "turnSeq": max}),
    );
    refused(&reply, "STALE_TURN_SEQ");
}

/// A match created at the end of the clock (`now` 2^53 − 1, read as `MAX_TIME`) ends by
/// ticks alone, for every registered game: each `tick` at the status's `nextTickAt` takes
/// a timeout, until the match is over. (The clock stopped there, and deadlines used to lie
/// past it: a tick took nothing, forever.)
#[test]
fn every_game_created_at_the_end_of_the_clock_ends_by_ticks_at_next_tick_at() {
    let max = game_core::MAX_SAFE_INTEGER;
    let mut host = Host::default();
    let games = ok(&ask(&mut host, json!({"op": "games"})))["games"].clone();
    let games: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    assert_eq!(games.len(), game_host::registry().ids().count());
    for (n, game) in games.iter().enumerate() {
        let id = format!("end{n}");
        let mut status = ok(&ask(
            &mut host,
            json!({"op": "create", "game": game, "players": ["a", "b"], "seed": 1, "now": max, "match": id}),
        ))
        .clone();
        assert_eq!(status["clock"], game_core::MAX_TIME, "{game}");
        let mut ticks = 0;
        while let Some(at) = status["nextTickAt"].as_u64() {
            let reply = ok(&ask(
                &mut host,
                json!({"op": "tick", "match": id, "now": at}),
            ))
            .clone();
            assert!(
                !reply["applied"].as_array().unwrap().is_empty(),
                "{game}: tick {ticks} at {at} took nothing"
            );
            status = reply;
            ticks += 1;
            assert!(ticks < 10_000, "{game}: not over after {ticks} ticks");
        }
        assert_eq!(status["over"], true, "{game}: {status}");
        assert!(ticks > 0, "{game}");
        ok(&ask(&mut host, json!({"op": "outcome", "match": id})));
    }
}
