//! The server under attack, round two, over the real binary: a seat's presence flips,
//! record amplification, watches without end, ids the store cannot hold, look-ups of
//! unknown matches and a lost `create` race. Each break is played as the attacker played
//! it, and must now change nothing it may not. The store's lock by any name is in
//! `recovery.rs`.

mod common;

use common::{Client, Kind, Server, TempDb, code, create, hello, token};
use serde_json::{Value, json};

/// The stores a test runs on: SQLite, and PostgreSQL when one is reachable.
fn stores(name: &str) -> Vec<TempDb> {
    [Kind::Sqlite, Kind::Postgres]
        .into_iter()
        .filter_map(|k| TempDb::of(k, name))
        .collect()
}

/// A two-person rps match nobody's clock runs out on: its id, and both seats bound.
async fn seated(addr: &str) -> (String, Client, Client, String) {
    let mut c = Client::connect(addr).await;
    let created = c
        .req(json!({"op": "create", "game": "rps", "players": ["a", "b"],
            "options": {"turnSeconds": null}}))
        .await;
    assert_eq!(created["ok"], true, "{created}");
    let m = created["match"].as_str().unwrap().to_owned();
    let ta = token(&created, "a");
    let a = hello(addr, &m, &ta).await;
    let b = hello(addr, &m, &token(&created, "b")).await;
    (m, a, b, ta)
}

/// The presence pushes `c` got (an update whose events include a `presenceChanged`).
fn presence_pushes(c: &Client) -> usize {
    c.pushes
        .iter()
        .filter(|p| {
            p["events"]
                .as_array()
                .is_some_and(|e| e.iter().any(|e| e["type"] == "presenceChanged"))
        })
        .count()
}

/// The record's entries that are presence changes.
fn presence_entries(record: &Value) -> usize {
    record["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "presence")
        .count()
}

/// The break: one socket alternating `hello` and `watch` on its seat. Within the
/// presence interval the seat goes once and comes back once at most: the match, its
/// record and the other seat see two presence changes for the whole flood.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_flipping_its_presence_changes_the_match_once_per_interval() {
    for db in stores("attack-flips") {
        let server = Server::start_with(&db.path(), 0, &["--presence-interval-ms", "600000"]);
        let (m, mut a, mut b, ta) = seated(&server.addr).await;
        for _ in 0..300 {
            let watched = a.req(json!({"op": "watch", "match": &m})).await;
            assert_eq!(watched["ok"], true, "{watched}");
            let back = a
                .req(json!({"op": "hello", "match": &m, "token": &ta}))
                .await;
            assert_eq!(back["ok"], true, "{back}");
        }
        // Whatever the flood queued for the other seat is read.
        let _ = b.req(json!({"op": "view", "match": &m})).await;
        assert!(
            presence_pushes(&b) <= 2,
            "{:?}: {} presence pushes",
            db.kind(),
            presence_pushes(&b)
        );
        let conceded = a
            .req(json!({"op": "act", "match": &m, "action": {"type": "CONCEDE"}}))
            .await;
        assert_eq!(conceded["ok"], true, "{conceded}");
        let record = b.req(json!({"op": "record", "match": &m})).await;
        assert_eq!(record["ok"], true, "{record}");
        assert!(
            presence_entries(&record["record"]) <= 2,
            "{:?}: {}",
            db.kind(),
            record["record"]
        );
    }
}

/// A seat that binds and unbinds faster than its rate is refused `RATE_LIMITED` with
/// `retryAfterMs`, and keeps the binding it had.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flooding_seat_is_rate_limited() {
    let db = TempDb::new("attack-flip-rate");
    let server = Server::start_with(
        &db.path(),
        0,
        &["--presence-burst", "5", "--presence-per-minute", "1"],
    );
    // The seat's first `hello` took a token: four flips more are in the burst.
    let (m, mut a, _b, ta) = seated(&server.addr).await;
    for i in 0..4 {
        let req = if i % 2 == 0 {
            json!({"op": "watch", "match": &m})
        } else {
            json!({"op": "hello", "match": &m, "token": &ta})
        };
        let reply = a.req(req).await;
        assert_eq!(reply["ok"], true, "{i}: {reply}");
    }
    let refused = a.req(json!({"op": "watch", "match": &m})).await;
    assert_eq!(code(&refused), "RATE_LIMITED", "{refused}");
    assert!(
        refused["error"]["reason"]["retryAfterMs"].as_u64().unwrap() > 0,
        "{refused}"
    );
    // Still the seat: it may act as before.
    let legal = a.req(json!({"op": "legal", "match": &m})).await;
    assert_eq!(legal["ok"], true, "{legal}");
    // Another seat's bucket is its own; a spectator's watch touches no seat.
    let mut w = Client::connect(&server.addr).await;
    let watched = w.req(json!({"op": "watch", "match": &m})).await;
    assert_eq!(watched["ok"], true, "{watched}");
}

/// Past the cap on entries that are not moves, a `hello` that would bring a seat back is
/// refused `QUOTA_EXCEEDED` (`presenceEntries`); leaving is never refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_entries_are_capped_per_match() {
    for db in stores("attack-flip-cap") {
        let server = Server::start_with(
            &db.path(),
            0,
            &["--presence-interval-ms", "0", "--max-presence-entries", "3"],
        );
        let (m, mut a, _b, ta) = seated(&server.addr).await;
        // Away, back, away: three entries.
        for req in [
            json!({"op": "watch", "match": &m}),
            json!({"op": "hello", "match": &m, "token": &ta}),
            json!({"op": "watch", "match": &m}),
        ] {
            let reply = a.req(req).await;
            assert_eq!(reply["ok"], true, "{reply}");
        }
        let refused = a
            .req(json!({"op": "hello", "match": &m, "token": &ta}))
            .await;
        assert_eq!(code(&refused), "QUOTA_EXCEEDED", "{refused}");
        assert_eq!(
            refused["error"]["reason"],
            json!({"limit": "presenceEntries", "max": 3})
        );
        // Still watching (the binding it had), and the match goes on for the other seat.
        let view = a.req(json!({"op": "view", "match": &m})).await;
        assert_eq!(view["ok"], true, "{view}");
        let mut other = Client::connect(&server.addr).await;
        let again = other
            .req(json!({"op": "hello", "match": &m, "token": &ta}))
            .await;
        assert_eq!(code(&again), "QUOTA_EXCEEDED", "{again}");
    }
}

/// A finished match after a flood and a concession.
async fn finished(addr: &str) -> String {
    let (m, mut a, _b, ta) = seated(addr).await;
    for _ in 0..50 {
        a.req(json!({"op": "watch", "match": &m})).await;
        a.req(json!({"op": "hello", "match": &m, "token": &ta}))
            .await;
    }
    let conceded = a
        .req(json!({"op": "act", "match": &m, "action": {"type": "CONCEDE"}}))
        .await;
    assert_eq!(conceded["ok"], true, "{conceded}");
    m
}

/// The break: `record` asked again and again. Each socket, and each address, gets its
/// burst, then `RATE_LIMITED`; every reply served is the same record, from one copy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_are_rate_limited_per_socket_and_per_address() {
    for db in stores("attack-records") {
        let server = Server::start_with(
            &db.path(),
            0,
            &[
                "--records-per-minute",
                "1",
                "--address-records-per-minute",
                "1000000",
                "--record-burst",
                "3",
            ],
        );
        let m = finished(&server.addr).await;
        let mut x = Client::connect(&server.addr).await;
        let mut served = Vec::new();
        for _ in 0..3 {
            let r = x.req(json!({"op": "record", "match": &m})).await;
            assert_eq!(r["ok"], true, "{r}");
            served.push(r["record"].clone());
        }
        assert!(served.iter().all(|r| r == &served[0]));
        let refused = x.req(json!({"op": "record", "match": &m})).await;
        assert_eq!(code(&refused), "RATE_LIMITED", "{refused}");
        assert!(refused["error"]["reason"]["retryAfterMs"].as_u64().unwrap() > 0);
        // Another socket has its own bucket.
        let mut y = Client::connect(&server.addr).await;
        let r = y.req(json!({"op": "record", "match": &m})).await;
        assert_eq!(r["record"], served[0], "{r}");
        drop(server);

        // The address's bucket binds every socket of it.
        let server = Server::start_with(
            &db.path(),
            0,
            &[
                "--records-per-minute",
                "1000000",
                "--address-records-per-minute",
                "1",
                "--record-burst",
                "2",
            ],
        );
        // Served from the store after the restart, then from the kept copy: the same.
        let mut x = Client::connect(&server.addr).await;
        for _ in 0..2 {
            let r = x.req(json!({"op": "record", "match": &m})).await;
            assert_eq!(r["record"], served[0], "{r}");
        }
        let mut y = Client::connect(&server.addr).await;
        let refused = y.req(json!({"op": "record", "match": &m})).await;
        assert_eq!(code(&refused), "RATE_LIMITED", "{refused}");
    }
}

/// The break: one socket watching matches without end. Capped per socket and per
/// address (`QUOTA_EXCEEDED` with `{limit, max}`); a binding to a match the socket is
/// bound to already counts once; a closed socket's bindings are released.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_are_capped_per_socket_and_per_address() {
    let db = TempDb::new("attack-watches");
    let server = Server::start_with(
        &db.path(),
        0,
        &[
            "--max-watches-per-socket",
            "3",
            "--max-watches-per-address",
            "5",
        ],
    );
    let mut c = Client::connect(&server.addr).await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        let created = create(&mut c, "rps", &["a", "b"], json!({})).await;
        ids.push(created["match"].as_str().unwrap().to_owned());
    }
    let mut s = Client::connect(&server.addr).await;
    for m in &ids[..3] {
        let w = s.req(json!({"op": "watch", "match": m})).await;
        assert_eq!(w["ok"], true, "{w}");
    }
    let refused = s.req(json!({"op": "watch", "match": &ids[3]})).await;
    assert_eq!(code(&refused), "QUOTA_EXCEEDED", "{refused}");
    assert_eq!(
        refused["error"]["reason"],
        json!({"limit": "watchesPerSocket", "max": 3})
    );
    let again = s.req(json!({"op": "watch", "match": &ids[0]})).await;
    assert_eq!(again["ok"], true, "{again}");
    let mut t = Client::connect(&server.addr).await;
    for m in &ids[..2] {
        let w = t.req(json!({"op": "watch", "match": m})).await;
        assert_eq!(w["ok"], true, "{w}");
    }
    let refused = t.req(json!({"op": "watch", "match": &ids[2]})).await;
    assert_eq!(
        refused["error"]["reason"],
        json!({"limit": "watchesPerAddress", "max": 5})
    );
    // Once the first socket is gone, its bindings are the address's again.
    s.close().await;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let w = t.req(json!({"op": "watch", "match": &ids[2]})).await;
        if w["ok"] == true {
            break;
        }
        assert_eq!(code(&w), "QUOTA_EXCEEDED", "{w}");
        assert!(std::time::Instant::now() < until, "never released: {w}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The break: ids the store cannot hold. A NUL in any id or name is `BAD_REQUEST`
/// naming the field, before any look-up, on both stores alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_the_store_cannot_hold_are_refused_at_the_edge() {
    for db in stores("attack-nul") {
        let server = Server::start_with(&db.path(), 0, &[]);
        let (m, mut a, _b, ta) = seated(&server.addr).await;
        let nul = "m\u{0}1";
        let cases = [
            (json!({"op": "watch", "match": nul}), "match"),
            (json!({"op": "hello", "match": nul, "token": &ta}), "match"),
            (
                json!({"op": "hello", "match": &m, "token": "t\u{0}"}),
                "token",
            ),
            (json!({"op": "view", "match": nul}), "match"),
            (json!({"op": "record", "match": nul}), "match"),
            (json!({"op": "hint", "match": nul}), "match"),
            (
                json!({"op": "act", "match": nul, "action": {"type": "CONCEDE"}}),
                "match",
            ),
            (
                json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": nul}),
                "match",
            ),
            (
                json!({"op": "create", "game": "rps", "players": ["a\u{0}", "b"]}),
                "players",
            ),
            (
                json!({"op": "create", "game": "rps\u{0}", "players": ["a", "b"]}),
                "game",
            ),
        ];
        for (req, field) in cases {
            let reply = a.req(req.clone()).await;
            assert_eq!(
                code(&reply),
                "BAD_REQUEST",
                "{:?} {req}: {reply}",
                db.kind()
            );
            assert_eq!(reply["error"]["reason"]["field"], field, "{reply}");
        }
        // Nothing was stored or broken: the match plays on.
        let view = a.req(json!({"op": "view", "match": &m})).await;
        assert_eq!(view["ok"], true, "{view}");
        let log = server.stderr();
        assert!(!log.contains("ERROR"), "{log}");
    }
}

/// Look-ups of matches not in memory are rate limited per address; matches in memory
/// are not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookups_of_unknown_matches_are_rate_limited() {
    for db in stores("attack-lookups") {
        let server = Server::start_with(
            &db.path(),
            0,
            &["--lookup-burst", "5", "--lookups-per-minute", "1"],
        );
        let (m, mut a, _b, _) = seated(&server.addr).await;
        for i in 0..5 {
            let w = a
                .req(json!({"op": "watch", "match": format!("nope{i}")}))
                .await;
            assert_eq!(code(&w), "UNKNOWN_MATCH", "{w}");
        }
        let refused = a.req(json!({"op": "watch", "match": "nope9"})).await;
        assert_eq!(code(&refused), "RATE_LIMITED", "{refused}");
        assert!(refused["error"]["reason"]["retryAfterMs"].as_u64().unwrap() > 0);
        let w = a.req(json!({"op": "view", "match": &m})).await;
        assert_eq!(w["ok"], true, "{w}");
    }
}

/// The break on PostgreSQL: every look-up of an unknown id cost three queries. Counted
/// by the database's own statistics (transactions committed in the test's database):
/// now one each, besides the instance's own lease work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_id_costs_one_query() {
    let Some(db) = TempDb::postgres("attack-lookup-cost") else {
        return;
    };
    // Leases renewed rarely, so that the count is the look-ups'.
    let server = Server::start_with(&db.path(), 0, &["--lease-ms", "600000"]);
    let mut a = Client::connect(&server.addr).await;
    // One look-up first: every statement the server prepares for it is prepared.
    let w = a.req(json!({"op": "watch", "match": "warm"})).await;
    assert_eq!(code(&w), "UNKNOWN_MATCH", "{w}");
    let commits = || settled_commits(&db);
    let before = commits();
    let n = 60;
    for i in 0..n {
        let w = a
            .req(json!({"op": "watch", "match": format!("nope{i}")}))
            .await;
        assert_eq!(code(&w), "UNKNOWN_MATCH", "{w}");
    }
    let after = commits();
    // A few for the pool's connections' first statements; three queries a look-up (the
    // break) would be 180.
    let spent = after - before;
    assert!(spent <= n + 10, "{spent} transactions for {n} look-ups");
}

/// The transactions committed in the test's database, once the server's sessions have
/// reported theirs (PostgreSQL flushes a session's statistics within a second or so of
/// its going idle): read until two reads a while apart agree.
fn settled_commits(db: &TempDb) -> i64 {
    let mut last = db.pg_commits();
    for _ in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(1_200));
        let now = db.pg_commits();
        if now == last {
            return now;
        }
        last = now;
    }
    last
}

/// The break on PostgreSQL: two instances racing one `create` id. The loser is answered
/// `MATCH_EXISTS` (never `UNAVAILABLE`), and nothing is logged as an error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_create_race_is_match_exists_on_every_instance() {
    let Some(db) = TempDb::postgres("attack-create-race") else {
        return;
    };
    let one = Server::start_with(&db.path(), 0, &[]);
    let two = Server::start_with(&db.path(), 0, &[]);
    let mut c1 = Client::connect(&one.addr).await;
    let mut c2 = Client::connect(&two.addr).await;
    for i in 0..20 {
        let id = format!("race{i}");
        let req = json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": &id});
        let (r1, r2) = tokio::join!(c1.req(req.clone()), c2.req(req.clone()));
        let mut codes = [code(&r1), code(&r2)];
        codes.sort();
        assert_eq!(
            codes,
            ["".to_owned(), "MATCH_EXISTS".to_owned()],
            "{r1} {r2}"
        );
    }
    for s in [&one, &two] {
        let log = s.stderr();
        assert!(!log.contains("ERROR"), "{log}");
    }
}

/// The store itself answers a create of a taken id as a conflict, on both stores (the
/// race above, without the race).
#[test]
fn a_create_of_a_taken_id_is_a_conflict_in_both_stores() {
    use party_games_server::store::{Change, StoredMatch};
    for db in stores("attack-conflict") {
        let registry = game_host::registry();
        let mut m = registry
            .create("rps", &json!({}), vec!["a".into(), "b".into()], Some(1), 0)
            .unwrap();
        let stored = StoredMatch {
            id: "taken".into(),
            record: m.record().clone(),
            seats: Vec::new(),
            bots: Vec::new(),
        };
        let first = db.open();
        first.commit(&[Change::Create(stored.clone())]).unwrap();
        // PostgreSQL: another instance's store; SQLite: the one store (no second may open).
        let second = match db.kind() {
            Kind::Postgres => db.open(),
            Kind::Sqlite => first.clone(),
        };
        let e = second.commit(&[Change::Create(stored)]).unwrap_err();
        assert!(e.conflict, "{:?}: {e:?}", db.kind());
        assert!(!e.transient, "{e:?}");
    }
}
