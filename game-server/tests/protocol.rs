//! The protocol's edges over the real server: refused creates, the reasons of the
//! server's own refusals, ids raced by two sockets, and the presence of players whose
//! sockets come, go and re-bind in any order.

mod common;

use std::time::Duration;

use common::{Client, Server, bot_matches, code, create, hello, token};
use serde_json::{Value, json};

on_stores! {
    async fn refused_creates_answer_ok_false(db) {
        let server = Server::start(&db.path(), 0);
        let mut c = Client::connect(&server.addr).await;
        for (req, expected) in [
            (
                json!({"game": "chess", "players": ["a", "b"]}),
                "UNKNOWN_GAME",
            ),
            (
                json!({"game": "chess", "players": ["a", "b"], "bots": {"a": "policy"}}),
                "UNKNOWN_GAME",
            ),
            (json!({"game": "rps", "players": ["a", "a"]}), "BAD_PLAYERS"),
            (json!({"game": "rps", "players": ["", "b"]}), "BAD_PLAYERS"),
            (json!({"game": "yut", "players": ["a"]}), "BAD_PLAYER_COUNT"),
            (
                json!({"game": "rps", "players": ["a", "b"], "options": {"turnSeconds": -1}}),
                "INVALID_OPTION",
            ),
            (
                json!({"game": "yut", "players": ["a", "b"], "options": {"zzz": 1}}),
                "INVALID_OPTION",
            ),
        ] {
            let mut req = req;
            req["op"] = json!("create");
            req["match"] = json!("wanted");
            let reply = c.req(req.clone()).await;
            assert_eq!(reply["ok"], false, "{req} -> {reply}");
            assert_eq!(code(&reply), expected, "{req} -> {reply}");
            assert!(reply["error"]["reason"].is_object(), "{reply}");
            assert!(reply.get("seats").is_none(), "{reply}");
        }
        // Nothing was kept of them: the id is free, and taken once a create succeeds.
        let ok = c
            .req(json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": "wanted"}))
            .await;
        assert_eq!(ok["ok"], true, "{ok}");
        let again = c
            .req(json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": "wanted"}))
            .await;
        assert_eq!(code(&again), "MATCH_EXISTS", "{again}");
        assert_eq!(again["ok"], false);
    }
}

on_stores! {
    async fn the_server_refusals_name_their_field_and_ops(db) {
        let server = Server::start(&db.path(), 0);
        let mut c = Client::connect(&server.addr).await;
        let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();

        let unknown = c.req(json!({"op": "fly"})).await;
        assert_eq!(code(&unknown), "UNKNOWN_OP", "{unknown}");
        assert_eq!(unknown["error"]["reason"]["op"], "fly");
        assert_eq!(
            unknown["error"]["reason"]["ops"],
            json!([
                "games", "schemas", "create", "hello", "watch", "act", "view", "legal", "outcome",
                "record", "hint"
            ])
        );
        for (req, field) in [
            (json!({"op": "record", "match": m}), "record"),
            (json!({"op": "tick", "match": m, "now": 1}), "tick"),
            (json!({"op": "drop", "match": m}), "drop"),
            (
                json!({"op": "create", "game": "rps", "players": ["a", "b"], "seed": 1}),
                "seed",
            ),
        ] {
            let r = c.req(req.clone()).await;
            assert_eq!(code(&r), "FORBIDDEN", "{req} -> {r}");
            assert_eq!(r["error"]["reason"]["field"], field, "{r}");
            assert!(r["error"]["reason"]["detail"].is_string(), "{r}");
            assert_eq!(r["error"]["reason"].as_object().unwrap().len(), 2, "{r}");
        }
    }
}

on_stores! {
    /// Two sockets create the same match id at once, over and over, while other matches
    /// play: one of each pair gets it, the other `MATCH_EXISTS`, and no other match notices.
    async fn duplicate_creates_refuse_only_the_duplicate(db) {
        let server = Server::start_with(&db.path(), 5, &[]);
        let mut v = Client::connect(&server.addr).await;
        let victims = bot_matches(
            &mut v,
            8,
            "yut",
            &["a", "b"],
            json!({"a": "random", "b": "random"}),
        )
        .await;
        let person = create(&mut v, "yut", &["me", "bot"], json!({"bot": "random"})).await;
        let pm = person["match"].as_str().unwrap().to_owned();

        let (mut x, mut y) = (
            Client::connect(&server.addr).await,
            Client::connect(&server.addr).await,
        );
        for k in 0..150 {
            let req = json!({"op": "create", "game": "rps", "players": ["p", "q"], "match": format!("dup{k}")});
            let (a, b) = tokio::join!(x.req(req.clone()), y.req(req.clone()));
            let mut codes = [code(&a), code(&b)];
            codes.sort();
            assert_eq!(codes, [String::new(), "MATCH_EXISTS".into()], "{a} / {b}");
        }
        // Every other match ran on: the bots finish theirs, the person still plays.
        for m in &victims {
            let mut w = Client::connect(&server.addr).await;
            let watched = w.req(json!({"op": "watch", "match": m})).await;
            assert_eq!(watched["ok"], true, "{watched}");
            if watched["over"] != true {
                w.push_until(60, |p| p["over"] == true).await;
            }
        }
        let mut me = hello(&server.addr, &pm, &token(&person, "me")).await;
        let legal = me.req(json!({"op": "legal", "match": pm})).await;
        assert_eq!(legal["ok"], true, "{legal}");
        let err = server.stderr();
        assert!(!err.contains("not stored"), "{err}");
    }
}

on_stores! {
    /// Sockets of one seat come and go while another seat's socket flips between `hello`
    /// and `watch` (presence changes and pushes): however the closes and the pushes
    /// interleave, once every socket is gone (and the presence interval passed) every
    /// player is disconnected.
    async fn a_closed_socket_never_leaves_its_player_connected(db) {
        let server = Server::start(&db.path(), 0);
        let addr = server.addr.clone();
        let mut trials = Vec::new();
        for _ in 0..12 {
            let addr = addr.clone();
            trials.push(tokio::spawn(async move {
                let mut c = Client::connect(&addr).await;
                let created = c
                    .req(json!({"op": "create", "game": "yut", "players": ["h", "B"],
                        "options": {"turnSeconds": null}}))
                    .await;
                assert_eq!(created["ok"], true, "{created}");
                let m = created["match"].as_str().unwrap().to_owned();
                let (th, tb) = (token(&created, "h"), token(&created, "B"));
                let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                let flood = {
                    let (addr, m, stop) = (addr.clone(), m.clone(), stop.clone());
                    tokio::spawn(async move {
                        let mut f = Client::connect(&addr).await;
                        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                            let r = f.req(json!({"op": "hello", "match": m, "token": tb})).await;
                            assert_eq!(r["ok"], true, "{r}");
                            let r = f.req(json!({"op": "watch", "match": m})).await;
                            assert_eq!(r["ok"], true, "{r}");
                        }
                        f.close().await;
                    })
                };
                for _ in 0..6 {
                    let h = hello(&addr, &m, &th).await;
                    // Dropped without a close handshake half the time, closed the other.
                    if rand_bit() {
                        drop(h);
                    } else {
                        h.close().await;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                flood.await.unwrap();
                m
            }));
        }
        let mut ids = Vec::new();
        for t in trials {
            ids.push(t.await.unwrap());
        }
        // A seat that goes within the presence interval (1 s) of its last change is told
        // away at the interval's end: every seat is away by then.
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let mut w = Client::connect(&addr).await;
        for m in ids {
            let watched = w.req(json!({"op": "watch", "match": m})).await;
            for p in watched["view"]["presence"].as_array().unwrap() {
                assert_eq!(p["connected"], false, "{m}: {p}");
            }
            // Whoever is to act is away, so the engine's grace is armed.
            assert!(watched["nextTickAt"].is_u64(), "{m}: {watched}");
        }
    }
}

fn rand_bit() -> bool {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos()
        & 1
        == 1
}

on_stores! {
    /// `hello` again on a socket already bound to that seat (or from a second socket of the
    /// same seat) changes nothing: no presence entry stored, no push.
    async fn a_repeated_hello_changes_nothing(db) {
        let server = Server::start(&db.path(), 0);
        let mut c = Client::connect(&server.addr).await;
        let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let ta = token(&created, "ann");
        let mut w = Client::connect(&server.addr).await;
        assert_eq!(w.req(json!({"op": "watch", "match": m})).await["ok"], true);
        let mut a = hello(&server.addr, &m, &ta).await;
        for _ in 0..20 {
            let again = a.req(json!({"op": "hello", "match": m, "token": ta})).await;
            assert_eq!(again["ok"], true, "{again}");
            assert_eq!(again["player"], "ann");
        }
        let mut a2 = hello(&server.addr, &m, &ta).await;
        a2.req(json!({"op": "hello", "match": m, "token": ta}))
            .await;
        assert_eq!(w.listen(Duration::from_millis(400)).await, None);
        assert!(w.pushes.is_empty(), "{} pushes", w.pushes.len());
        let stored = db.query_i64("SELECT COUNT(*) FROM entries WHERE match_id = ?1", &[&m]);
        assert_eq!(stored, 0, "a hello for a seat already there stores nothing");

        // Re-binding a seat's last socket as a spectator is the seat leaving: one push.
        a2.close().await;
        let r = a.req(json!({"op": "watch", "match": m})).await;
        assert_eq!(r["ok"], true, "{r}");
        let p = w.push_until(5, |_| true).await;
        let events: &Value = &p["events"];
        assert_eq!(events[0]["type"], "presenceChanged", "{p}");
        assert_eq!(events[0]["player"], "ann", "{p}");
        assert_eq!(events[0]["connected"], false, "{p}");
    }
}
