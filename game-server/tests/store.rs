//! The store: a change that fails is refused alone, in the group commit and in a running
//! server; a tampered database file skips only the matches it broke.

mod common;

use std::sync::Arc;

use common::{Client, Server, TempDb, bot_matches, code, create, hello, open_db, step, token};
use game_core::{MatchRecord, RecordEntry};
use party_games_server::store::{Change, Seat, StoredMatch};
use party_games_server::{Store, Writer};
use serde_json::json;

/// A fresh record of rps between a and b, with one entry.
fn record() -> MatchRecord {
    let mut host = game_host::Host::new(game_host::registry());
    let created = host.handle_line(
        &json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": "x", "now": 1})
            .to_string(),
    );
    assert!(created.ok);
    let legal = host.handle_line(r#"{"op":"legal","match":"x","player":"a"}"#);
    let action = legal.body["actions"][0].clone();
    let act = host.handle_line(
        &json!({"op": "act", "match": "x", "player": "a", "action": action, "now": 2}).to_string(),
    );
    assert!(act.ok);
    let r = host.handle_line(r#"{"op":"record","match":"x"}"#);
    serde_json::from_value(r.body["record"].clone()).unwrap()
}

fn stored(id: &str, record: &MatchRecord) -> StoredMatch {
    StoredMatch {
        id: id.into(),
        record: record.clone(),
        seats: vec![Seat {
            player: "a".into(),
            token: "t".into(),
        }],
        bots: vec![("b".into(), "random".into())],
    }
}

on_stores! {
    async fn a_failing_group_is_refused_alone(db) {
        let store = db.open();
        let rec = record();
        let entry: RecordEntry = rec.entries[0].clone();
        let groups: Vec<Vec<Change>> = vec![
            vec![Change::Create(stored("one", &rec))],
            // The same id again: refused, and only this group.
            vec![Change::Create(stored("one", &rec))],
            vec![Change::Create(stored("two", &rec))],
            vec![Change::Append {
                id: "two".into(),
                from: 1,
                entries: vec![entry.clone()],
            }],
            // An index already stored, with a valid change before it in the same group: the
            // group is all or nothing.
            vec![
                Change::Finish { id: "two".into() },
                Change::Append {
                    id: "two".into(),
                    from: 0,
                    entries: vec![entry.clone()],
                },
            ],
            vec![Change::Append {
                id: "one".into(),
                from: 1,
                entries: vec![entry.clone()],
            }],
        ];
        let refs: Vec<&[Change]> = groups.iter().map(Vec::as_slice).collect();
        let results = store.commit_groups(&refs);
        let ok: Vec<bool> = results.iter().map(Result::is_ok).collect();
        assert_eq!(ok, [true, false, true, true, false, true], "{results:?}");
        let back = store.unfinished().unwrap();
        assert_eq!(back.len(), 2, "{back:?}");
        for m in back {
            let m = m.unwrap();
            assert_eq!(m.record.entries.len(), 2, "{}", m.id);
        }
        assert!(store.finished_record("two").unwrap().is_none());
    }
}

on_stores! {
    async fn the_writer_refuses_only_the_failing_job(db) {
        let store: Arc<dyn Store> = db.open();
        let writer = Writer::start(store.clone());
        let rec = record();
        writer
            .commit(vec![Change::Create(stored("taken", &rec))])
            .await
            .unwrap();
        // Many jobs at once, so they share batches; every tenth is a duplicate.
        let jobs: Vec<_> = (0..200)
            .map(|i| {
                let writer = writer.clone();
                let id = if i % 10 == 0 {
                    "taken".to_owned()
                } else {
                    format!("m{i}")
                };
                let m = stored(&id, &rec);
                tokio::spawn(async move { (i, writer.commit(vec![Change::Create(m)]).await) })
            })
            .collect();
        for job in jobs {
            let (i, result) = job.await.unwrap();
            assert_eq!(result.is_ok(), i % 10 != 0, "job {i}: {result:?}");
        }
        assert_eq!(store.unfinished().unwrap().len(), 1 + 180);
    }
}

on_stores! {
    /// A row stored behind the server's back makes one match's next append collide: that
    /// match is refused (`UNAVAILABLE`, with when to try again) and, its stored record no
    /// longer replaying, keeps being answered so rather than forgotten; every other match
    /// keeps playing.
    async fn a_change_that_fails_to_store_stalls_only_its_match(db) {
        let server = Server::start_with(&db.path(), 2, &[]);
        let mut c = Client::connect(&server.addr).await;
        let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let mut a = hello(&server.addr, &m, &token(&created, "ann")).await;
        let mut b = hello(&server.addr, &m, &token(&created, "bo")).await;
        let mut seq = created["turnSeq"].as_u64().unwrap();
        for _ in 0..3 {
            seq = step(&mut [&mut a, &mut b], &m, seq).await.unwrap()["turnSeq"]
                .as_u64()
                .unwrap();
        }
        let others = bot_matches(
            &mut c,
            6,
            "yut",
            &["x", "y"],
            json!({"x": "random", "y": "policy"}),
        )
        .await;
        let n = db.query_i64("SELECT COUNT(*) FROM entries WHERE match_id = ?1", &[&m]);
        db.exec(&[(
            "INSERT INTO entries (match_id, seq, entry) VALUES (?1, CAST(?2 AS BIGINT), '{}')",
            vec![m.clone(), n.to_string()],
        )]);
        let mut refused = None;
        for who in [&mut a, &mut b] {
            let legal = who.req(json!({"op": "legal", "match": m})).await;
            if let Some(action) = legal["actions"].as_array().and_then(|x| x.first()).cloned() {
                refused = Some(
                    who.req(json!({"op": "act", "match": m, "action": action, "turnSeq": seq}))
                        .await,
                );
                break;
            }
        }
        let refused = refused.expect("someone could act");
        assert_eq!(code(&refused), "UNAVAILABLE", "{refused}");
        assert!(
            refused["error"]["reason"]["retryAfterMs"].is_u64(),
            "{refused}"
        );
        let again = a.req(json!({"op": "view", "match": m})).await;
        assert_eq!(code(&again), "UNAVAILABLE", "{again}");
        for o in &others {
            let mut w = Client::connect(&server.addr).await;
            let watched = w.req(json!({"op": "watch", "match": o})).await;
            assert_eq!(watched["ok"], true, "{watched}");
            if watched["over"] != true {
                w.push_until(60, |p| p["over"] == true).await;
            }
        }
        let err = server.stderr();
        let stopped: Vec<&str> = err.lines().filter(|l| l.contains("not stored")).collect();
        assert_eq!(stopped.len(), 1, "{err}");
        assert!(stopped[0].contains(&format!(" match {m}: ")), "{err}");
        assert!(err.contains(&format!("match {m}: not reloaded")), "{err}");
    }
}

/// Each tampered match is skipped at start with a line naming it; the healthy ones are
/// served and play on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tampered_rows_skip_only_their_match() {
    let db = TempDb::new("tamper");
    let mut server = Server::start(&db.path(), 0);
    let mut c = Client::connect(&server.addr).await;
    // Each match and what the line that skips it says (`None`: served).
    let cases = [
        ("healthy", None),
        ("head", Some("unreadable: head: EOF")),
        ("entry", Some("unreadable: entry 0: ")),
        ("seats", Some("unreadable: seats: ")),
        ("bots", Some("unreadable: bots: ")),
        (
            "float-at",
            Some("unreadable: entry 0: invalid type: floating point"),
        ),
        ("bot-kind", Some("bot `b`: unknown kind `genius`")),
        ("ghost-seat", Some("seat `ghost` is not a player")),
        ("human-bot", Some("`a` is both a seat and a bot")),
        ("future", Some("entry 0 is at ")),
        ("soon", None),
        (
            "gap",
            Some("unreadable: entry 0: stored under seq Integer(5)"),
        ),
    ];
    let mut tokens = Vec::new();
    for (id, _) in cases {
        let created = c
            .req(json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": id}))
            .await;
        assert_eq!(created["ok"], true, "{created}");
        let ta = token(&created, "a");
        let mut a = hello(&server.addr, id, &ta).await;
        let picked = a
            .req(json!({"op": "act", "match": id, "action": {"type": "PICK", "hand": "rock"}}))
            .await;
        assert_eq!(picked["ok"], true, "{id}: {picked}");
        tokens.push(ta);
    }
    server.kill();
    let now = party_games_server::now_ms();
    {
        let conn = open_db(&db.path());
        let set = |sql: &str, id: &str| {
            conn.execute(sql, [id]).unwrap();
        };
        set(
            "UPDATE matches SET head = substr(head, 1, 30) WHERE id = ?1",
            "head",
        );
        set(
            "UPDATE entries SET entry = '{oops' WHERE match_id = ?1 AND seq = 0",
            "entry",
        );
        set("UPDATE matches SET seats = 'nope' WHERE id = ?1", "seats");
        set("UPDATE matches SET bots = '[[1,2]' WHERE id = ?1", "bots");
        set(
            "UPDATE entries SET entry = json_set(entry, '$.at', 1.5) WHERE match_id = ?1",
            "float-at",
        );
        set(
            r#"UPDATE matches SET bots = '[["b","genius"]]',
                seats = json_remove(seats, '$[1]') WHERE id = ?1"#,
            "bot-kind",
        );
        set(
            r#"UPDATE matches SET seats = '[["ghost","0123"]]' WHERE id = ?1"#,
            "ghost-seat",
        );
        set(
            r#"UPDATE matches SET bots = '[["a","random"]]' WHERE id = ?1"#,
            "human-bot",
        );
        let at = |id: &str, at: u64| {
            conn.execute(
                "UPDATE entries SET entry = json_set(entry, '$.at', ?2) WHERE match_id = ?1",
                rusqlite::params![id, at as i64],
            )
            .unwrap();
        };
        at("future", now + 86_400_000);
        // Within the tolerance for a clock that stepped back: served.
        at("soon", now + 10_000);
        set(
            "UPDATE entries SET seq = seq + 5 WHERE match_id = ?1",
            "gap",
        );
    }
    let server = Server::start_with(&db.path(), 0, &[]);
    // The matches are restored behind the listening server: its summary comes last.
    let err = server.stderr_until("unfinished matches in", 30);
    let mut w = Client::connect(&server.addr).await;
    for ((id, says), ta) in cases.iter().zip(&tokens) {
        let watched = w.req(json!({"op": "watch", "match": id})).await;
        let line = err
            .lines()
            .find(|l| l.contains(&format!(" match {id}: not replayed: ")));
        match says {
            None => {
                assert_eq!(watched["ok"], true, "{id}: {watched}");
                assert!(line.is_none(), "{id}: {err}");
                let mut a = hello(&server.addr, id, ta).await;
                let legal = a.req(json!({"op": "legal", "match": id})).await;
                assert_eq!(legal["ok"], true, "{id}: {legal}");
            }
            Some(says) => {
                assert_eq!(code(&watched), "UNKNOWN_MATCH", "{id}: {watched}");
                let line = line.unwrap_or_else(|| panic!("{id} not named: {err}"));
                assert!(line.contains(says), "{id}: {line}");
            }
        }
    }
    assert!(err.contains("restored 2 of 12 unfinished matches"), "{err}");
}
