//! The JSON-lines host through its stdin protocol: `game_host::serve` fed request lines,
//! and `game_host::Host` driven line by line for whole games.

use game_host::Host;
use serde_json::{Value, json};

/// Feeds `input` to `serve` and parses every reply line.
fn serve(input: &[u8]) -> Vec<Value> {
    let mut out = Vec::new();
    game_host::serve(input, &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Sends one request to `host` and returns the reply as JSON.
fn ask(host: &mut Host, request: Value) -> Value {
    let reply = host.handle_line(&request.to_string());
    serde_json::to_value(reply).unwrap()
}

fn ok(reply: &Value) -> &Value {
    assert_eq!(reply["ok"], true, "{reply}");
    reply
}

fn code(reply: &Value) -> &str {
    assert_eq!(reply["ok"], false, "{reply}");
    reply["error"]["code"].as_str().unwrap()
}

#[test]
fn games_lists_every_registered_game_and_ids_are_echoed() {
    let replies = serve(b"{\"op\":\"games\",\"id\":\"a\"}\n{\"op\":\"games\",\"id\":{\"n\":7}}\n{\"op\":\"games\"}\n");
    assert_eq!(replies.len(), 3);
    assert_eq!(
        replies[0]["games"],
        json!(["one-card", "rps", "yut", "yut-augments"])
    );
    assert_eq!(replies[0]["id"], "a");
    assert_eq!(replies[1]["id"], json!({"n": 7}));
    assert_eq!(replies[2]["id"], Value::Null);
}

#[test]
fn reply_lines_start_with_id_and_ok() {
    let mut out = Vec::new();
    game_host::serve(&b"{\"id\":5,\"op\":\"games\"}\nnope\n"[..], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(r#"{"id":5,"ok":true,"#),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with(r#"{"id":null,"ok":false,"error":"#),
        "{}",
        lines[1]
    );
}

#[test]
fn schemas_are_the_six_wire_types() {
    let mut host = Host::default();
    for game in ["yut", "yut-augments", "rps"] {
        let r = ask(&mut host, json!({"op": "schemas", "game": game}));
        ok(&r);
        for key in ["options", "action", "view", "event", "outcome", "error"] {
            assert!(r["schemas"][key].is_object(), "{game} {key}");
        }
        assert!(r["defaultOptions"].is_object());
    }
    let r = ask(&mut host, json!({"op": "schemas", "game": "chess"}));
    assert_eq!(code(&r), "UNKNOWN_GAME");
    assert_eq!(r["error"]["reason"]["game"], "chess");
}

#[test]
fn malformed_lines_get_one_bad_request_each_and_never_stop_the_host() {
    let mut input = Vec::new();
    for line in [
        &b"not json"[..],
        b"[1,2]",
        b"42",
        b"{\"id\":1}",
        b"{\"id\":2,\"op\":7}",
        b"{\"id\":3,\"op\":\"create\"}",
        b"{\"id\":4,\"op\":\"create\",\"game\":\"yut\",\"players\":\"ab\"}",
        b"{\"id\":5,\"op\":\"create\",\"game\":\"yut\",\"players\":[\"a\",\"b\"],\"seed\":-1}",
        b"{\"id\":6,\"op\":\"act\",\"match\":\"m1\"}",
        b"\xff\xfe{}",
        b"",
        b"   ",
        b"{\"id\":7,\"op\":\"teleport\"}",
        b"{\"id\":8,\"op\":\"view\",\"match\":\"nowhere\"}",
        b"{\"id\":9,\"op\":\"presence\",\"match\":\"m1\",\"player\":\"a\",\"connected\":\"yes\"}",
        b"{\"id\":10,\"op\":\"load\",\"record\":{\"game\":\"yut\"}}",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        b"{\"id\":11,\"op\":\"games\"}",
    ] {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    let replies = serve(&input);
    // Blank lines are skipped; every other line gets exactly one reply.
    assert_eq!(replies.len(), 16);
    let codes: Vec<&str> = replies[..15]
        .iter()
        .map(|r| r["error"]["code"].as_str().unwrap_or("OK"))
        .collect();
    assert_eq!(
        codes,
        [
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "UNKNOWN_OP",
            "UNKNOWN_MATCH",
            "BAD_REQUEST",
            "BAD_REQUEST",
            "BAD_REQUEST",
        ]
    );
    for r in &replies[..15] {
        assert_eq!(r["ok"], false);
        assert!(!r["error"]["message"].as_str().unwrap().is_empty());
    }
    assert_eq!(replies[4]["id"], 2);
    assert_eq!(replies[15]["ok"], true);
}

#[test]
fn create_assigns_match_ids_and_reports_the_engine_s_errors() {
    let mut host = Host::default();
    let players = json!(["a", "b"]);
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": players, "seed": 1}),
    );
    assert_eq!(ok(&r)["match"], "m1");
    assert_eq!(r["turnSeq"], 0);
    assert_eq!(r["over"], false);
    assert_eq!(r["toAct"].as_array().unwrap().len(), 1);
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "rps", "players": players}),
    );
    assert_eq!(ok(&r)["match"], "m2");
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": players, "match": "table-9"}),
    );
    assert_eq!(ok(&r)["match"], "table-9");
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": players, "match": "table-9"}),
    );
    assert_eq!(code(&r), "MATCH_EXISTS");

    // The engine's own typed error, with its Korean message and machine reason.
    let five = json!(["a", "b", "c", "d", "e"]);
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": five}),
    );
    assert_eq!(code(&r), "BAD_PLAYER_COUNT");
    assert_eq!(
        r["error"]["reason"],
        json!({"players": 5, "allowed": [2, 3, 4]})
    );
    assert!(r["error"]["message"].as_str().unwrap().contains("2·3·4명"));
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": players, "options": {"nakPercent": 7}}),
    );
    assert_eq!(code(&r), "INVALID_OPTION");
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": players, "options": {"bogus": 1}}),
    );
    assert_eq!(code(&r), "INVALID_OPTION");
    assert_eq!(r["error"]["reason"]["option"], "bogus");
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": ["a", "a"]}),
    );
    assert_eq!(code(&r), "BAD_PLAYERS");
    // Failed creates use up no default ids.
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": players}),
    );
    assert_eq!(ok(&r)["match"], "m3");
}

#[test]
fn act_view_and_the_engine_s_rejections() {
    let mut host = Host::default();
    ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": ["a", "b"], "seed": 3}),
    );
    let r = ask(&mut host, json!({"op": "view", "match": "m1"}));
    let view = &ok(&r)["view"];
    assert_eq!(view["phase"], "throw");
    assert!(view.get("legalMoves").is_none());
    assert!(view.get("rng").is_none());
    let first = view["turn"]["player"].as_str().unwrap().to_owned();
    let other = if first == "a" { "b" } else { "a" };

    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": other, "action": {"type": "THROW"}}),
    );
    assert_eq!(code(&r), "NOT_YOUR_TURN");
    assert_eq!(r["error"]["message"], "지금은 다른 사람 차례예요.");
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": "zed", "action": {"type": "THROW"}}),
    );
    assert_eq!(code(&r), "NOT_SEATED");
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": first, "action": {"type": "FLY"}}),
    );
    assert_eq!(code(&r), "BAD_JSON");
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": first, "action": {"type": "MOVE", "throwIndex": 0, "from": "home"}}),
    );
    assert_eq!(code(&r), "NOT_MOVE_PHASE");
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": first, "action": {"type": "THROW"}, "turnSeq": 5}),
    );
    assert_eq!(code(&r), "STALE_TURN_SEQ");
    assert_eq!(r["error"]["reason"], json!({"got": 5, "expected": 0}));

    // Throw until the move phase; the player to act then sees legalMoves, others do not.
    let mut seq = 0;
    loop {
        let r = ask(
            &mut host,
            json!({"op": "act", "match": "m1", "player": first, "action": {"type": "THROW"}, "turnSeq": seq, "now": 100 + seq}),
        );
        ok(&r);
        assert!(!r["events"].as_array().unwrap().is_empty());
        seq = r["turnSeq"].as_u64().unwrap();
        let v = ask(
            &mut host,
            json!({"op": "view", "match": "m1", "player": first}),
        );
        let phase = v["view"]["phase"].as_str().unwrap().to_owned();
        if phase == "move" {
            assert!(!v["view"]["legalMoves"].as_array().unwrap().is_empty());
            let v = ask(
                &mut host,
                json!({"op": "view", "match": "m1", "player": other}),
            );
            assert!(v["view"].get("legalMoves").is_none());
            let r = ask(
                &mut host,
                json!({"op": "act", "match": "m1", "player": first, "action": {"type": "THROW"}}),
            );
            assert_eq!(code(&r), "NOT_THROW_PHASE");
            let r = ask(
                &mut host,
                json!({"op": "act", "match": "m1", "player": first, "action": {"type": "MOVE", "throwIndex": 9, "from": "home"}}),
            );
            assert_eq!(code(&r), "UNKNOWN_THROW_INDEX");
            let r = ask(
                &mut host,
                json!({"op": "legal", "match": "m1", "player": first}),
            );
            assert!(!ok(&r)["actions"].as_array().unwrap().is_empty());
            break;
        }
        if v["view"]["turn"]["player"] != first.as_str() {
            break; // a backdo with nothing on the board: the turn passed
        }
    }
}

#[test]
fn tick_and_presence_let_the_engine_act() {
    let mut host = Host::default();
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": ["a", "b"], "seed": 8, "now": 1000}),
    );
    let deadline = ok(&r)["deadline"].as_u64().unwrap();
    assert_eq!(deadline, 31_000);
    let r = ask(
        &mut host,
        json!({"op": "tick", "match": "m1", "now": deadline - 1}),
    );
    assert!(ok(&r)["applied"].as_array().unwrap().is_empty());
    let r = ask(
        &mut host,
        json!({"op": "tick", "match": "m1", "now": deadline}),
    );
    let applied = ok(&r)["applied"].as_array().unwrap().clone();
    assert_eq!(applied.len(), 1);
    assert_eq!(applied[0]["auto"], true);
    assert_eq!(applied[0]["action"], json!({"type": "THROW"}));
    let r = ask(&mut host, json!({"op": "tick", "match": "m1"}));
    assert_eq!(code(&r), "BAD_REQUEST");

    // A disconnected player is acted for after the grace period.
    let to_act = r_to_act(&mut host);
    let r = ask(
        &mut host,
        json!({"op": "presence", "match": "m1", "player": to_act, "connected": false, "now": deadline + 10}),
    );
    ok(&r);
    let r = ask(&mut host, json!({"op": "view", "match": "m1"}));
    let presence = r["view"]["presence"].as_array().unwrap();
    assert!(presence.iter().any(|p| p["connected"] == false));
    let r = ask(
        &mut host,
        json!({"op": "tick", "match": "m1", "now": deadline + 10 + 5_000}),
    );
    assert_eq!(ok(&r)["applied"].as_array().unwrap().len(), 1);
    let r = ask(
        &mut host,
        json!({"op": "presence", "match": "m1", "player": "nobody", "connected": true}),
    );
    assert_eq!(code(&r), "NOT_SEATED");
}

fn r_to_act(host: &mut Host) -> String {
    let r = ask(host, json!({"op": "view", "match": "m1"}));
    r["view"]["turn"]["player"].as_str().unwrap().to_owned()
}

/// Plays match `id` to its end through the protocol, always with the first legal action.
fn play_out(host: &mut Host, id: &str) -> usize {
    let mut actions = 0;
    for now in 1.. {
        let r = ask(host, json!({"op": "outcome", "match": id}));
        if ok(&r)["over"] == true {
            assert!(r["outcome"].is_object());
            return actions;
        }
        let r = ask(host, json!({"op": "view", "match": id}));
        let player = r["view"]["turn"]["player"].as_str().unwrap().to_owned();
        let r = ask(host, json!({"op": "legal", "match": id, "player": player}));
        let action = ok(&r)["actions"][0].clone();
        let seq = ask(host, json!({"op": "view", "match": id}))["view"]["turnSeq"].clone();
        let r = ask(
            host,
            json!({"op": "act", "match": id, "player": player, "action": action, "turnSeq": seq, "now": now * 100}),
        );
        ok(&r);
        actions += 1;
        assert!(actions < 10_000, "the game should end");
    }
    unreachable!()
}

#[test]
fn a_whole_game_records_and_loads_back_identically() {
    let mut host = Host::default();
    ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": ["a", "b", "c"], "seed": 21, "options": {"nakPercent": 10}}),
    );
    ask(
        &mut host,
        json!({"op": "presence", "match": "m1", "player": "c", "connected": false, "now": 50}),
    );
    ask(
        &mut host,
        json!({"op": "presence", "match": "m1", "player": "c", "connected": true, "now": 60}),
    );
    let actions = play_out(&mut host, "m1");
    assert!(actions > 10);
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": "a", "action": {"type": "THROW"}}),
    );
    assert_eq!(code(&r), "GAME_OVER");

    let record = ok(&ask(&mut host, json!({"op": "record", "match": "m1"})))["record"].clone();
    assert_eq!(record["game"], "yut");
    assert_eq!(record["entries"].as_array().unwrap().len(), actions + 2);
    let r = ask(
        &mut host,
        json!({"op": "load", "record": record, "id": "L"}),
    );
    assert_eq!(ok(&r)["match"], "m2");
    assert_eq!(r["id"], "L");
    assert_eq!(r["over"], true);
    for viewer in [Value::Null, json!("a")] {
        let a = ask(
            &mut host,
            json!({"op": "view", "match": "m1", "player": viewer}),
        );
        let b = ask(
            &mut host,
            json!({"op": "view", "match": "m2", "player": viewer}),
        );
        assert_eq!(a["view"], b["view"]);
    }
    let a = ask(&mut host, json!({"op": "outcome", "match": "m1"}));
    let b = ask(&mut host, json!({"op": "outcome", "match": "m2"}));
    assert_eq!(a["outcome"], b["outcome"]);

    // A tampered record is refused with the engine's error, naming the entry.
    let mut bad = record.clone();
    bad["entries"][0]["player"] = json!("zed");
    let r = ask(&mut host, json!({"op": "load", "record": bad}));
    assert_eq!(code(&r), "NOT_SEATED");
    let mut other = record;
    other["game"] = json!("go");
    let r = ask(
        &mut host,
        json!({"op": "load", "record": other, "match": "x"}),
    );
    assert_eq!(code(&r), "UNKNOWN_GAME");

    let r = ask(&mut host, json!({"op": "drop", "match": "m2"}));
    ok(&r);
    let r = ask(&mut host, json!({"op": "view", "match": "m2"}));
    assert_eq!(code(&r), "UNKNOWN_MATCH");
}

#[test]
fn rock_paper_scissors_is_served_by_the_same_host() {
    let mut host = Host::default();
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "rps", "players": ["ann", "bo"], "seed": 2, "options": {"winsNeeded": 1}}),
    );
    assert_eq!(ok(&r)["toAct"], json!(["ann", "bo"]));
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": "bo", "action": {"type": "PICK", "hand": "rock"}}),
    );
    ok(&r);
    let v = ask(
        &mut host,
        json!({"op": "view", "match": "m1", "player": "ann"}),
    );
    assert!(v["view"].to_string().contains("picked"));
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": "ann", "action": {"type": "PICK", "hand": "paper"}}),
    );
    assert_eq!(ok(&r)["over"], true);
    let r = ask(&mut host, json!({"op": "outcome", "match": "m1"}));
    assert_eq!(r["outcome"]["winner"], "ann");
    let record = ask(&mut host, json!({"op": "record", "match": "m1"}))["record"].clone();
    let r = ask(&mut host, json!({"op": "load", "record": record}));
    assert_eq!(ok(&r)["over"], true);
    let played = play_rps_bot_free(&mut host);
    assert!(played);
}

/// An rps match played out with `legal` actions only.
fn play_rps_bot_free(host: &mut Host) -> bool {
    let r = ask(
        host,
        json!({"op": "create", "game": "rps", "players": ["x", "y"], "seed": 4, "match": "r"}),
    );
    ok(&r);
    for _ in 0..200 {
        let o = ask(host, json!({"op": "outcome", "match": "r"}));
        if o["over"] == true {
            return true;
        }
        // x always shows the first hand listed, y the second: y wins every round.
        for (p, n) in [("x", 0), ("y", 1)] {
            let legal = ask(host, json!({"op": "legal", "match": "r", "player": p}));
            let actions = legal["actions"].as_array().unwrap();
            if let Some(pick) = actions.iter().filter(|a| a["type"] == "PICK").nth(n) {
                ok(&ask(
                    host,
                    json!({"op": "act", "match": "r", "player": p, "action": pick}),
                ));
            }
        }
    }
    false
}

#[test]
fn the_app_preset_with_the_whole_augment_layer_is_served_too() {
    // `yut-augments` with the app preset: the base options of `app` and the whole pack.
    let mut host = Host::default();
    let r = ask(&mut host, json!({"op": "schemas", "game": "yut-augments"}));
    let defaults = ok(&r)["defaultOptions"].clone();
    assert_eq!(defaults["augments"].as_array().unwrap().len(), 18);
    assert_eq!(
        (defaults["cushion"].clone(), defaults["truce"].clone()),
        (json!(true), json!(true))
    );
    let options = serde_json::to_value(yut_augments::app_options()).unwrap();
    assert_eq!(options["stickModel"], "fair");
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut-augments", "players": ["a", "b"], "seed": 5, "options": options}),
    );
    assert_eq!(ok(&r)["game"], "yut-augments");

    // The first side drafts before its first throw: three candidates with names and texts.
    let first = ok(&r)["toAct"][0].as_str().unwrap().to_owned();
    let v = ask(
        &mut host,
        json!({"op": "view", "match": "m1", "player": first}),
    );
    let draft = &v["view"]["draft"];
    assert_eq!(draft["slot"], "start");
    let candidates = draft["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 3);
    assert!(
        candidates
            .iter()
            .all(|c| c["name"].is_string() && c["text"].is_string())
    );
    let legal = ask(
        &mut host,
        json!({"op": "legal", "match": "m1", "player": first}),
    );
    assert_eq!(
        ok(&legal)["actions"],
        json!([
            {"type": "CHOOSE_AUGMENT", "index": 0},
            {"type": "CHOOSE_AUGMENT", "index": 1},
            {"type": "CHOOSE_AUGMENT", "index": 2}
        ])
    );
    // The engine's typed errors: a throw in the draft, a candidate that does not exist.
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": first, "action": {"type": "THROW"}}),
    );
    assert_eq!(code(&r), "NOT_THROW_PHASE");
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": first, "action": {"type": "CHOOSE_AUGMENT", "index": 3}}),
    );
    assert_eq!(code(&r), "UNKNOWN_CANDIDATE");
    let r = ask(
        &mut host,
        json!({"op": "act", "match": "m1", "player": first, "action": {"type": "CHOOSE_AUGMENT", "index": 2}}),
    );
    let events = ok(&r)["events"].as_array().unwrap().clone();
    assert_eq!(events[0]["type"], "augmentChosen");
    assert_eq!(events[0]["id"], candidates[2]["id"]);
    let v = ask(&mut host, json!({"op": "view", "match": "m1"}));
    let side = events[0]["side"].as_u64().unwrap() as usize;
    assert_eq!(
        v["view"]["augmentSides"][side]["augments"][0]["id"],
        candidates[2]["id"]
    );
    assert!(v["view"]["draft"].is_null());

    // Played to the end through the protocol, recorded and loaded back identically.
    let actions = play_out(&mut host, "m1");
    assert!(actions > 10);
    let record = ok(&ask(&mut host, json!({"op": "record", "match": "m1"})))["record"].clone();
    assert_eq!(record["game"], "yut-augments");
    let r = ask(
        &mut host,
        json!({"op": "load", "record": record, "match": "copy"}),
    );
    assert_eq!(ok(&r)["over"], true);
    let a = ask(&mut host, json!({"op": "view", "match": "m1"}));
    let b = ask(&mut host, json!({"op": "view", "match": "copy"}));
    assert_eq!(a["view"], b["view"]);

    // The layer's fields are refused by `yut`, and a bad pack by `yut-augments`.
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut", "players": ["a", "b"], "options": {"augments": []}}),
    );
    assert_eq!(code(&r), "INVALID_OPTION");
    assert_eq!(r["error"]["reason"]["option"], "augments");
    let r = ask(
        &mut host,
        json!({"op": "create", "game": "yut-augments", "players": ["a", "b"], "options": {"augments": ["do-echo", "do-echo"]}}),
    );
    assert_eq!(code(&r), "INVALID_OPTION");
}
