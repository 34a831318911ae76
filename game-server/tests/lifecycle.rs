//! A match's lifecycle: a finished match leaves memory and its record is served from the
//! store; a match whose humans all left is closed as abandoned, one nobody joined expires;
//! their sockets are told and later requests answered `MATCH_CLOSED`.

mod common;

use std::time::Duration;

use common::{Client, Server, TempDb, code, create, hello, token};
use serde_json::{Value, json};

/// Sends `req` on `c` until its reply's error code is `want` (within 30 s); that reply.
async fn until_code(c: &mut Client, req: Value, want: &str) -> Value {
    let until = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let reply = c.req(req.clone()).await;
        if code(&reply) == want {
            return reply;
        }
        assert!(tokio::time::Instant::now() < until, "never {want}: {reply}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The `finished` column of match `m`.
fn finished_column(db: &TempDb, m: &str) -> i64 {
    db.query_i64("SELECT finished FROM matches WHERE id = ?1", &[m])
}

fn entries(db: &TempDb, m: &str) -> i64 {
    db.query_i64("SELECT COUNT(*) FROM entries WHERE match_id = ?1", &[m])
}

on_stores! {
    async fn a_finished_match_leaves_memory_and_its_record_is_read_from_the_store(db) {
        let server = Server::start_with(&db.path(), 0, &["--finished-linger-ms", "200"]);
        let mut c = Client::connect(&server.addr).await;
        // Two humans (a random bot may concede first).
        let created = create(&mut c, "rps", &["a", "b"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let mut a = hello(&server.addr, &m, &token(&created, "a")).await;
        // a concedes: the match ends at once.
        let over = a
            .req(json!({"op": "act", "match": &m, "action": {"type": "CONCEDE"}}))
            .await;
        assert_eq!(over["over"], true, "{over}");
        let in_memory = a.req(json!({"op": "record", "match": &m})).await;
        assert_eq!(in_memory["ok"], true, "{in_memory}");
        let closed = until_code(&mut a, json!({"op": "view", "match": &m}), "MATCH_CLOSED").await;
        assert_eq!(closed["error"]["reason"]["why"], "over", "{closed}");
        let stored = a.req(json!({"op": "record", "match": &m})).await;
        assert_eq!(stored["record"], in_memory["record"], "{stored}");
        let again = c
            .req(json!({"op": "hello", "match": &m, "token": token(&created, "a")}))
            .await;
        assert_eq!(code(&again), "MATCH_CLOSED", "{again}");
        assert_eq!(finished_column(&db, &m), 1);
    }
}

on_stores! {
    /// Every human leaves: after `--abandon-after-ms` the match is closed, stored as
    /// abandoned, its spectators told, and its timer stops writing. A match with a human
    /// still there is not closed.
    async fn a_match_every_human_left_is_closed_as_abandoned(db) {
        let server = Server::start_with(
            &db.path(),
            0,
            &["--abandon-after-ms", "400", "--unjoined-after-ms", "600000"],
        );
        let mut c = Client::connect(&server.addr).await;
        let left = create(&mut c, "rps", &["a", "b"], json!({})).await;
        let stays = create(&mut c, "rps", &["a", "b"], json!({})).await;
        let (m, kept) = (
            left["match"].as_str().unwrap().to_owned(),
            stays["match"].as_str().unwrap().to_owned(),
        );
        let a = hello(&server.addr, &m, &token(&left, "a")).await;
        let mut b = hello(&server.addr, &kept, &token(&stays, "b")).await;
        let mut w = Client::connect(&server.addr).await;
        let watched = w.req(json!({"op": "watch", "match": &m})).await;
        assert_eq!(watched["ok"], true, "{watched}");
        a.close().await;
        let closed = w.push_until(30, |p| p["push"] == "closed").await;
        assert_eq!(
            closed,
            json!({"push": "closed", "match": &m, "why": "abandoned"})
        );
        for req in [
            json!({"op": "view", "match": &m}),
            json!({"op": "record", "match": &m}),
            json!({"op": "watch", "match": &m}),
            json!({"op": "hello", "match": &m, "token": token(&left, "b")}),
        ] {
            let reply = w.req(req).await;
            assert_eq!(code(&reply), "MATCH_CLOSED", "{reply}");
            assert_eq!(reply["error"]["reason"]["why"], "abandoned", "{reply}");
        }
        assert_eq!(finished_column(&db, &m), 2);
        // Its task is gone: nothing more is stored for it.
        let stored = entries(&db, &m);
        let view = b.req(json!({"op": "view", "match": &kept})).await;
        assert_eq!(view["ok"], true, "{view}");
        tokio::time::sleep(Duration::from_millis(1000)).await;
        assert_eq!(entries(&db, &m), stored);
        let view = b.req(json!({"op": "view", "match": &kept})).await;
        assert_eq!(
            view["ok"], true,
            "the match with b seated was closed: {view}"
        );
        assert!(
            server
                .stderr()
                .contains(&format!("match {m}: closed: abandoned"))
        );
    }
}

on_stores! {
    /// A match nobody joined expires after `--unjoined-after-ms` (spectators do not count),
    /// and its creator's quota is freed.
    async fn a_match_nobody_joined_expires(db) {
        let server = Server::start_with(
            &db.path(),
            0,
            &[
                "--unjoined-after-ms",
                "300",
                "--max-matches-per-socket",
                "1",
            ],
        );
        let mut c = Client::connect(&server.addr).await;
        let created = create(&mut c, "rps", &["a", "b"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let mut w = Client::connect(&server.addr).await;
        let watched = w.req(json!({"op": "watch", "match": &m})).await;
        assert_eq!(watched["ok"], true, "{watched}");
        let closed = w.push_until(30, |p| p["push"] == "closed").await;
        assert_eq!(closed["why"], "unjoined", "{closed}");
        let reply = c.req(json!({"op": "view", "match": &m})).await;
        assert_eq!(code(&reply), "MATCH_CLOSED", "{reply}");
        assert_eq!(reply["error"]["reason"]["why"], "unjoined", "{reply}");
        assert_eq!(finished_column(&db, &m), 3);
        let next = c
            .req(json!({"op": "create", "game": "rps", "players": ["a", "b"]}))
            .await;
        assert_eq!(next["ok"], true, "the quota was not freed: {next}");
    }
}
