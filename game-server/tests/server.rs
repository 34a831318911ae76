//! The server binary driven over WebSockets: whole games, refusals, a kill -9 and a
//! restart, the grace of a disconnected player, bots.

mod common;

use common::{Client, Server, create, step, token};
use serde_json::{Value, json};

/// Plays `m` to the end between the two seated clients; returns the last turnSeq.
/// A short lease (PostgreSQL): a killed server's matches are free to claim soon.
const SHORT_LEASE: &[&str] = &["--lease-ms", "300"];

/// Waits until a killed server's leases expired (see [`SHORT_LEASE`]), so that the next
/// server claims its matches at start.
async fn lease_expires() {
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
}

async fn play_out(a: &mut Client, b: &mut Client, m: &str, mut turn_seq: u64) -> u64 {
    for _ in 0..5_000 {
        let Some(reply) = step(&mut [&mut *a, &mut *b], m, turn_seq).await else {
            panic!("nobody could act, yet the match is not over");
        };
        turn_seq = reply["turnSeq"].as_u64().unwrap();
        if reply["over"] == true {
            return turn_seq;
        }
    }
    panic!("the match did not end");
}

async fn seated(addr: &str, m: &str, token: &str) -> Client {
    let mut c = Client::connect(addr).await;
    let hello = c
        .req(json!({"op": "hello", "match": m, "token": token}))
        .await;
    assert_eq!(hello["ok"], true, "{hello}");
    assert!(hello["view"].is_object(), "{hello}");
    c
}

on_stores! {
    async fn two_people_play_a_whole_game(db) {
        let server = Server::start(&db.path(), 0);
        let mut host = Client::connect(&server.addr).await;
        let created = create(&mut host, "yut", &["ann", "bo"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        assert_eq!(created["seats"].as_array().unwrap().len(), 2);
        let mut a = seated(&server.addr, &m, &token(&created, "ann")).await;
        let mut b = seated(&server.addr, &m, &token(&created, "bo")).await;
        let mut spectator = Client::connect(&server.addr).await;
        assert_eq!(
            spectator.req(json!({"op": "watch", "match": m})).await["ok"],
            true
        );
        let first = created["turnSeq"].as_u64().unwrap();
        let last = play_out(&mut a, &mut b, &m, first).await;
        // Every socket bound to the match saw the final update, the spectator without moves.
        let end = spectator.push_until(10, |p| p["over"] == true).await;
        assert_eq!(end["turnSeq"].as_u64(), Some(last));
        assert_eq!(end["push"], "update");
        assert!(!end["view"].to_string().contains("legalMoves"));
        let end_b = b.push_until(10, |p| p["over"] == true).await;
        assert_eq!(end_b["match"], m.as_str());
        // Over: the record is served, and replays to the same view.
        let record = a.req(json!({"op": "record", "match": m})).await;
        assert_eq!(record["ok"], true, "{record}");
        let mut local = game_host::Host::new(game_host::registry());
        let loaded = local
            .handle_line(&json!({"op": "load", "record": record["record"], "match": "r"}).to_string());
        assert!(loaded.ok);
        let view = local.handle_line(r#"{"op":"view","match":"r"}"#);
        assert_eq!(view.body["view"], end["view"]);
    }
}

on_stores! {
    async fn refusals(db) {
        let server = Server::start(&db.path(), 0);
        let mut c = Client::connect(&server.addr).await;
        let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let code = |v: &Value| v["error"]["code"].as_str().unwrap_or("").to_owned();

        // An act on a socket with no binding, and a wrong token.
        let unbound = c
            .req(json!({"op": "act", "match": m, "player": "ann", "action": {"type": "THROW"}}))
            .await;
        assert_eq!(code(&unbound), "UNAUTHORIZED", "{unbound}");
        let wrong = c
            .req(json!({"op": "hello", "match": m, "token": "0123"}))
            .await;
        assert_eq!(code(&wrong), "UNAUTHORIZED", "{wrong}");
        // The server's own ops and fields.
        for req in [
            json!({"op": "tick", "match": m, "now": 1}),
            json!({"op": "presence", "match": m, "player": "ann", "connected": false}),
            json!({"op": "drop", "match": m}),
            json!({"op": "record", "match": m}),
            json!({"op": "create", "game": "rps", "players": ["a", "b"], "seed": 1}),
            json!({"op": "create", "game": "rps", "players": ["a", "b"], "now": 1}),
        ] {
            let r = c.req(req.clone()).await;
            assert_eq!(code(&r), "FORBIDDEN", "{req} -> {r}");
        }
        // Hostile input: typed errors, and the server still answers.
        assert_eq!(code(&c.raw("not json".into()).await), "BAD_REQUEST");
        assert_eq!(code(&c.raw("[1,2]".into()).await), "BAD_REQUEST");
        assert_eq!(code(&c.req(json!({"op": "fly"})).await), "UNKNOWN_OP");
        assert_eq!(code(&c.req(json!({"op": 7})).await), "BAD_REQUEST");
        assert_eq!(
            code(&c.req(json!({"op": "hello", "match": m, "token": 5})).await),
            "BAD_REQUEST"
        );
        assert_eq!(code(&c.req(json!({"op": "create", "game": "yut", "players": ["a", "b"], "bots": {"c": "random"}})).await), "BAD_REQUEST");
        assert_eq!(code(&c.req(json!({"op": "create", "game": "rps", "players": ["a", "b"], "bots": {"a": "strong"}})).await), "UNKNOWN_BOT");
        assert_eq!(
            code(&c.req(json!({"op": "watch", "match": "nope"})).await),
            "UNKNOWN_MATCH"
        );
        let big = format!(
            r#"{{"op":"games","pad":"{}"}}"#,
            "x".repeat(party_games_server::MAX_REQUEST)
        );
        assert_eq!(code(&c.raw(big).await), "TOO_LARGE");
        assert_eq!(c.req(json!({"op": "games"})).await["ok"], true);

        // Bound to ann: acting or looking as bo is refused; a stale resend is refused.
        let mut a = seated(&server.addr, &m, &token(&created, "ann")).await;
        let as_bo = a
            .req(json!({"op": "legal", "match": m, "player": "bo"}))
            .await;
        assert_eq!(code(&as_bo), "UNAUTHORIZED", "{as_bo}");
        let with_now = a
            .req(json!({"op": "act", "match": m, "action": {"type": "THROW"}, "now": 5}))
            .await;
        assert_eq!(code(&with_now), "FORBIDDEN", "{with_now}");
        let mut b = seated(&server.addr, &m, &token(&created, "bo")).await;
        let seq = created["turnSeq"].as_u64().unwrap();
        let moved = step(&mut [&mut a, &mut b], &m, seq).await.unwrap();
        assert!(moved["turnSeq"].as_u64().unwrap() > seq);
        for who in [&mut a, &mut b] {
            let legal = who.req(json!({"op": "legal", "match": m})).await;
            if let Some(action) = legal["actions"].as_array().and_then(|x| x.first()).cloned() {
                let stale = who
                    .req(json!({"op": "act", "match": m, "action": action, "turnSeq": seq}))
                    .await;
                assert_eq!(code(&stale), "STALE_TURN_SEQ", "{stale}");
            }
        }
    }
}

on_stores! {
    async fn kill_nine_mid_game_then_the_game_goes_on(db) {
        let mut server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        let mut c = Client::connect(&server.addr).await;
        let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let (ta, tb) = (token(&created, "ann"), token(&created, "bo"));
        let mut a = seated(&server.addr, &m, &ta).await;
        let mut b = seated(&server.addr, &m, &tb).await;
        let mut seq = created["turnSeq"].as_u64().unwrap();
        let mut acked = None;
        for _ in 0..12 {
            let reply = step(&mut [&mut a, &mut b], &m, seq).await.unwrap();
            seq = reply["turnSeq"].as_u64().unwrap();
            acked = Some(reply);
        }
        let before = b.req(json!({"op": "view", "match": m})).await;
        server.kill();
        lease_expires().await;
        drop((a, b, c));

        let server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        let mut a = seated(&server.addr, &m, &ta).await;
        let mut b = seated(&server.addr, &m, &tb).await;
        let view = b.req(json!({"op": "view", "match": m})).await;
        // Nothing acknowledged is lost: the same turn, the same board.
        let status = a.req(json!({"op": "outcome", "match": m})).await;
        assert_eq!(status["over"], false);
        for part in ["sides", "pending", "phase", "turn", "log"] {
            assert!(!before["view"][part].is_null(), "{before}");
            assert_eq!(view["view"][part], before["view"][part], "{part}: {view}");
        }
        let seq_now = acked.unwrap()["turnSeq"].as_u64().unwrap();
        let last = play_out(&mut a, &mut b, &m, seq_now).await;
        assert!(last > seq_now);
        let record = a.req(json!({"op": "record", "match": m})).await;
        let mut local = game_host::Host::new(game_host::registry());
        assert!(
            local
                .handle_line(
                    &json!({"op": "load", "record": record["record"], "match": "r"}).to_string()
                )
                .ok
        );
        let replayed = local.handle_line(r#"{"op":"view","match":"r"}"#);
        let served = b.req(json!({"op": "view", "match": m})).await;
        let spectator = Client::connect(&server.addr).await;
        drop(spectator);
        let mut w = Client::connect(&server.addr).await;
        let watched = w.req(json!({"op": "watch", "match": m})).await;
        assert_eq!(replayed.body["view"], watched["view"]);
        assert_eq!(served["ok"], true);

        // A match finished before a restart still has its record served, from the store.
        drop((a, b, w));
        let mut server = server;
        server.kill();
        lease_expires().await;
        let server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        let mut c = Client::connect(&server.addr).await;
        let again = c.req(json!({"op": "record", "match": m})).await;
        assert_eq!(again["ok"], true, "{again}");
        assert_eq!(again["record"], record["record"]);
        let unknown = c.req(json!({"op": "record", "match": "never-was"})).await;
        assert_eq!(unknown["error"]["code"], "UNKNOWN_MATCH", "{unknown}");
    }
}

on_stores! {
    async fn a_disconnected_players_turn_is_played_after_the_grace(db) {
        let server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        // The engine's grace is 5 s; then the server's timer plays the absent player's turn.
        let (waited, p) = absent_players_turn(&server).await;
        assert!(waited >= std::time::Duration::from_secs(4), "{waited:?} {p}");
        assert!(!p["events"].as_array().unwrap().is_empty(), "{p}");
    }
}

/// Starts a Yut match of two people on `server`, closes the socket of the one to move,
/// and waits for the push of the turn the server then plays for them: how long that took
/// from the close, and the push.
async fn absent_players_turn(server: &Server) -> (std::time::Duration, Value) {
    let mut c = Client::connect(&server.addr).await;
    let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();
    let mover = created["toAct"][0].as_str().unwrap().to_owned();
    let other = if mover == "ann" { "bo" } else { "ann" };
    let gone = seated(&server.addr, &m, &token(&created, &mover)).await;
    let mut stays = seated(&server.addr, &m, &token(&created, other)).await;
    let seq = created["turnSeq"].as_u64().unwrap();
    gone.close().await;
    let started = std::time::Instant::now();
    let p = stays
        .push_until(15, |p| p["turnSeq"].as_u64().is_some_and(|s| s > seq))
        .await;
    (started.elapsed(), p)
}

on_stores! {
    async fn grace_ms_shortens_a_disconnected_players_wait(db) {
        let flags = [SHORT_LEASE, &["--grace-ms", "1000"]].concat();
        let server = Server::start_with(&db.path(), 0, &flags);
        // The server's grace is 1 s, not the engine's 5 s.
        let (waited, p) = absent_players_turn(&server).await;
        assert!(waited >= std::time::Duration::from_millis(900), "{waited:?} {p}");
        assert!(waited < std::time::Duration::from_secs(4), "{waited:?} {p}");
    }
}

on_stores! {
    async fn bots_finish_their_matches(db) {
        let server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        let mut c = Client::connect(&server.addr).await;
        let mut ids = Vec::new();
        for (game, bots) in [
            ("yut", json!({"a": "random", "b": "policy"})),
            ("yut-augments", json!({"a": "strong", "b": "policy"})),
            ("rps", json!({"a": "random", "b": "random"})),
        ] {
            let created = create(&mut c, game, &["a", "b"], bots).await;
            assert_eq!(created["seats"], json!([]));
            ids.push(created["match"].as_str().unwrap().to_owned());
        }
        for m in &ids {
            let mut w = Client::connect(&server.addr).await;
            let watched = w.req(json!({"op": "watch", "match": m})).await;
            assert_eq!(watched["ok"], true);
            if watched["over"] != true {
                w.push_until(60, |p| p["over"] == true).await;
            }
            let outcome = w.req(json!({"op": "outcome", "match": m})).await;
            assert_eq!(outcome["over"], true, "{outcome}");
        }
    }
}

on_stores! {
    async fn a_person_against_a_bot_in_the_app_preset(db) {
        let server = Server::start(&db.path(), 50);
        let mut c = Client::connect(&server.addr).await;
        let created = c
            .req(
                json!({"op": "create", "game": "yut-augments", "players": ["me", "bot"],
                "options": {"stickModel": "fair", "backdoFromDo": "home"}, "bots": {"bot": "policy"}}),
            )
            .await;
        assert_eq!(created["ok"], true, "{created}");
        let m = created["match"].as_str().unwrap().to_owned();
        let mut me = seated(&server.addr, &m, &token(&created, "me")).await;
        let started = std::time::Instant::now();
        let mut acts = 0;
        loop {
            let legal = me.req(json!({"op": "legal", "match": m})).await;
            if let Some(action) = legal["actions"].as_array().and_then(|a| a.first()).cloned() {
                let r = me
                    .req(json!({"op": "act", "match": m, "action": action}))
                    .await;
                assert_eq!(r["ok"], true, "{r}");
                acts += 1;
                if r["over"] == true {
                    break;
                }
                continue;
            }
            // The bot's turn: its moves come as pushes, 50 ms apart, never near a deadline.
            let p = me.push_until(5, |_| true).await;
            if p["over"] == true {
                break;
            }
        }
        assert!(acts > 5);
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
    }
}

on_stores! {
    async fn sigterm_closes_cleanly_with_sockets_open(db) {
        let mut server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        let mut c = Client::connect(&server.addr).await;
        let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let _a = seated(&server.addr, &m, &token(&created, "ann")).await;
        let status = tokio::task::block_in_place(|| server.terminate(10));
        assert!(status.is_some_and(|s| s.success()), "{status:?}");
        // The match is back on the next start.
        let server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        let _b = seated(&server.addr, &m, &token(&created, "bo")).await;
    }
}

on_stores! {
    async fn a_deadline_that_passed_while_down_fires_at_start(db) {
        let mut server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        let mut c = Client::connect(&server.addr).await;
        let created = c
            .req(json!({"op": "create", "game": "rps", "players": ["a", "b"], "options": {"turnSeconds": 5}}))
            .await;
        assert_eq!(created["ok"], true, "{created}");
        let m = created["match"].as_str().unwrap().to_owned();
        let deadline = created["nextTickAt"].as_u64().unwrap();
        server.kill();
        lease_expires().await;
        drop(c);
        let now = || party_games_server::now_ms();
        while now() <= deadline + 200 {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let server = Server::start_with(&db.path(), 0, SHORT_LEASE);
        let mut w = Client::connect(&server.addr).await;
        let watched = w.req(json!({"op": "watch", "match": m})).await;
        // The round's timeout was taken at start: both hands picked at random (a tie replays
        // the round, so its number may stay), a new deadline.
        assert!(watched["deadline"].as_u64() > Some(deadline), "{watched}");
        assert!(
            watched["view"]["lastRound"]["hands"].is_array(),
            "{watched}"
        );
    }
}

on_stores! {
    /// One Card between bots only: the matches end, and bots that may act without their
    /// move being awaited (the one-card calls) are played too: the records hold acts by a
    /// player who was not to act. The bots draw from the OS, and a match may pass without a
    /// call: rounds of 3, 4 and 5 players until one is seen (ten at most).
    async fn one_card_bots_call_out_of_turn(db) {
        let server = Server::start(&db.path(), 0);
        let mut c = Client::connect(&server.addr).await;
        let registry = game_host::registry();
        let mut out_of_turn = 0;
        let rounds = (0..10).flat_map(|_| [3, 4, 5]);
        for players in rounds {
            if out_of_turn > 0 {
                break;
            }
            let ids: Vec<String> = (0..players).map(|i| format!("b{i}")).collect();
            let bots: serde_json::Map<String, Value> =
                ids.iter().map(|p| (p.clone(), json!("random"))).collect();
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            let created = create(&mut c, "one-card", &ids, Value::Object(bots)).await;
            assert_eq!(created["mayAct"], json!([]), "{created}");
            let m = created["match"].as_str().unwrap().to_owned();
            let mut w = Client::connect(&server.addr).await;
            let watched = w.req(json!({"op": "watch", "match": m})).await;
            assert_eq!(watched["ok"], true, "{watched}");
            if watched["over"] != true {
                w.push_until(60, |p| p["over"] == true).await;
            }
            let record = w.req(json!({"op": "record", "match": m})).await;
            assert_eq!(record["ok"], true, "{record}");
            let record: game_core::MatchRecord =
                serde_json::from_value(record["record"].clone()).unwrap();
            let mut local = registry
                .create(
                    "one-card",
                    &record.options,
                    record.players.clone(),
                    Some(record.seed),
                    record.started_at,
                )
                .unwrap();
            for entry in &record.entries {
                match entry {
                    game_core::RecordEntry::Act { at, player, action } => {
                        if !local.to_act().contains(player) {
                            assert!(local.may_act(player), "{player} acted: {action}");
                            out_of_turn += 1;
                        }
                        let played = local.act(player, action.clone(), None, *at);
                        assert!(played.result.is_ok(), "{action}: {:?}", played.result);
                    }
                    game_core::RecordEntry::Tick { at } => {
                        local.tick(*at);
                    }
                    game_core::RecordEntry::Presence {
                        at,
                        player,
                        connected,
                    } => {
                        local.set_connected(player, *connected, *at);
                    }
                    game_core::RecordEntry::Grace { grace_ms } => {
                        local.set_grace_ms(*grace_ms).unwrap();
                    }
                }
            }
            assert!(local.outcome().is_some());
        }
        assert!(out_of_turn > 0, "no bot called in 30 matches");
    }
}

/// A person beside bots gets the time to call: with bots that move at once otherwise
/// (`--bot-delay-ms 0`), no bot calls, catches or moves on while a person may call, for
/// `--call-delay-ms`. The person here calls as soon as a push shows them a call, so each
/// of their calls is taken, the catches of bots that had one card included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_card_people_get_the_time_to_call() {
    let db = common::TempDb::new("call-delay");
    let server = Server::start_with(&db.path(), 0, &["--call-delay-ms", "600"]);
    let mut calls = 0;
    for _ in 0..6 {
        if calls >= 3 {
            break;
        }
        let mut c = Client::connect(&server.addr).await;
        let created = create(
            &mut c,
            "one-card",
            &["me", "b1", "b2"],
            json!({"b1": "policy", "b2": "random"}),
        )
        .await;
        let m = created["match"].as_str().unwrap().to_owned();
        let mut me = common::hello(&server.addr, &m, &token(&created, "me")).await;
        for _ in 0..2_000 {
            let legal = me.req(json!({"op": "legal", "match": m})).await;
            assert_eq!(legal["ok"], true, "{legal}");
            let actions = legal["actions"].as_array().unwrap();
            let call = actions
                .iter()
                .find(|a| a["type"] == "ONE_CARD" || a["type"] == "CATCH");
            let chosen = call
                .or_else(|| actions.iter().find(|a| a["type"] == "PLAY"))
                .or_else(|| actions.first());
            if let Some(action) = chosen {
                let reply = me
                    .req(json!({"op": "act", "match": m, "action": action}))
                    .await;
                if call.is_some() {
                    assert_eq!(reply["ok"], true, "{action}: {reply}");
                    calls += 1;
                }
                if reply["over"] == true {
                    break;
                }
                if reply["ok"] == true {
                    continue;
                }
            }
            let push = me.push().await;
            if push["over"] == true {
                break;
            }
        }
    }
    assert!(calls >= 3, "only {calls} calls in six matches");
}

/// `seed` in `create` is the server's to choose unless it runs with `--allow-seed` (for
/// tests and demonstrations): then two matches of one seed deal the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seed_is_taken_only_with_allow_seed() {
    let db = common::TempDb::new("allow-seed");
    let server = Server::start_with(&db.path(), 0, &["--allow-seed"]);
    let mut c = Client::connect(&server.addr).await;
    let mut views = Vec::new();
    for _ in 0..2 {
        let created = c
            .req(json!({"op": "create", "game": "one-card", "players": ["a", "b"], "seed": 42}))
            .await;
        assert_eq!(created["ok"], true, "{created}");
        let m = created["match"].as_str().unwrap();
        let a = common::hello(&server.addr, m, &token(&created, "a")).await;
        let mut a = a;
        let view = a.req(json!({"op": "view", "match": m})).await;
        views.push(view["view"]["hand"].clone());
    }
    assert!(views[0].is_array(), "{views:?}");
    assert_eq!(views[0], views[1]);
    let huge = c
        .req(json!({"op": "create", "game": "rps", "players": ["a", "b"], "seed": 9007199254740992u64}))
        .await;
    assert_eq!(common::code(&huge), "BAD_REQUEST", "{huge}");
}

/// Every push says when the engine acts next by itself (`nextTickAt`: the deadline, or
/// a disconnected player's grace), so that a spectator can show it as a player does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pushes_carry_the_next_tick() {
    let db = common::TempDb::new("push-tick");
    let server = Server::start(&db.path(), 0);
    let mut c = Client::connect(&server.addr).await;
    let created = c
        .req(json!({"op": "create", "game": "yut", "players": ["a", "b"],
            "options": {"turnSeconds": null}}))
        .await;
    assert_eq!(created["ok"], true, "{created}");
    let m = created["match"].as_str().unwrap().to_owned();
    let mover = created["toAct"][0].as_str().unwrap().to_owned();
    let other = if mover == "a" { "b" } else { "a" };
    let away = common::hello(&server.addr, &m, &token(&created, &mover)).await;
    let mut stays = common::hello(&server.addr, &m, &token(&created, other)).await;
    let mut w = Client::connect(&server.addr).await;
    let watched = w.req(json!({"op": "watch", "match": m})).await;
    assert_eq!(watched["ok"], true, "{watched}");
    // The player to move leaves: the engine will move for them when their grace ends,
    // and the push tells the spectator when.
    away.close().await;
    let push = w.push_until(10, |p| p["nextTickAt"].is_u64()).await;
    let status = stays.req(json!({"op": "hint", "match": m})).await;
    assert_eq!(status["ok"], true, "{status}");
    assert_eq!(
        push["nextTickAt"], status["nextTickAt"],
        "{push} vs {status}"
    );
}
