//! Several instances on one PostgreSQL store: leases per match, renewed by their owner,
//! claimed once expired; every change fenced by the lease's epoch, so an owner whose
//! lease was taken over never writes again; a match whose instance died is replayed and
//! played on by another, its clients reconnecting there with their tokens.
//!
//! PostgreSQL only: `PARTY_GAMES_TEST_PG` names the server (see `common`).

mod common;

use std::time::Duration;

use common::{
    Client, Server, TempDb, code, create, epochs, replayed_view, token, until_ok, until_over,
};
use game_core::{MatchRecord, RecordEntry};
use party_games_server::store::{Change, Seat, StoredMatch};
use party_games_server::{Leases, PgStore, Store};
use serde_json::json;

/// A fresh record of rps between a and b, no entry yet.
fn record() -> MatchRecord {
    let mut host = game_host::Host::new(game_host::registry());
    let created = host.handle_line(
        &json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": "x", "now": 1})
            .to_string(),
    );
    assert!(created.ok);
    let r = host.handle_line(r#"{"op":"record","match":"x"}"#);
    serde_json::from_value(r.body["record"].clone()).unwrap()
}

fn stored(id: &str) -> StoredMatch {
    StoredMatch {
        id: id.into(),
        record: record(),
        seats: vec![Seat {
            player: "a".into(),
            token: "t".into(),
        }],
        bots: vec![("b".into(), "random".into())],
    }
}

fn presence(at: u64) -> RecordEntry {
    RecordEntry::Presence {
        player: "a".into(),
        connected: false,
        at,
    }
}

fn append(id: &str, from: usize, at: u64) -> Vec<Change> {
    vec![Change::Append {
        id: id.into(),
        from,
        entries: vec![presence(at)],
    }]
}

const LEASE: Duration = Duration::from_millis(400);

/// A lease held and renewed is never claimed; once it expires another instance claims
/// it under a new epoch, and from then on the database refuses every change of the old
/// owner (an append, the end of the match) while the new owner's go through; the old
/// owner's renewal reports the match lost. A released lease is claimed at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_lease_is_claimed_and_the_old_owner_is_fenced() {
    let Some(db) = TempDb::postgres("lease-fence") else {
        return;
    };
    let url = db.path().to_str().unwrap().to_owned();
    let a = PgStore::open_leased(&url, LEASE).unwrap();
    let b = PgStore::open_leased(&url, LEASE).unwrap();
    assert_ne!(a.instance(), b.instance());
    a.commit(&[Change::Create(stored("m")), Change::Create(stored("n"))])
        .unwrap();
    assert!(a.holds("m") && a.holds("n"));
    // Renewed: never claimable, however long.
    for _ in 0..4 {
        tokio::time::sleep(LEASE / 2).await;
        assert_eq!(a.renew().unwrap(), Vec::<String>::new());
        assert_eq!(b.claim(100).unwrap(), Vec::<String>::new());
    }
    a.commit(&append("m", 0, 10)).unwrap();
    // a stops renewing (paused): b claims both once expired.
    tokio::time::sleep(LEASE + Duration::from_millis(200)).await;
    let mut claimed = b.claim(100).unwrap();
    claimed.sort();
    assert_eq!(claimed, ["m", "n"]);
    assert!(b.claim(100).unwrap().is_empty(), "claimed once");
    // a wakes up: its changes are refused by the database, and a forgets the lease.
    let refused = a.commit(&append("m", 1, 11)).unwrap_err();
    assert!(refused.detail.contains("lease"), "{refused}");
    assert!(!refused.transient);
    assert!(!a.holds("m"));
    let refused = a.commit(&[Change::Finish { id: "m".into() }]).unwrap_err();
    assert!(refused.detail.contains("lease"), "{refused}");
    // Its renewal finds the other one lost.
    assert_eq!(a.renew().unwrap(), ["n"]);
    assert!(!a.holds("n"));
    // b writes on.
    b.commit(&append("m", 1, 12)).unwrap();
    b.commit(&append("n", 0, 12)).unwrap();
    assert_eq!(epochs(&db, "m"), [1, 2]);
    assert_eq!(epochs(&db, "n"), [2]);
    assert_eq!(b.record("m").unwrap().unwrap().entries.len(), 2);
    // A graceful stop: b releases, a claims at once (no waiting for the lease).
    b.release().unwrap();
    let mut back = a.claim(100).unwrap();
    back.sort();
    assert_eq!(back, ["m", "n"]);
    a.commit(&append("m", 2, 13)).unwrap();
    assert!(b.commit(&append("m", 3, 14)).is_err());
    assert_eq!(epochs(&db, "m"), [1, 2, 3]);
    // A finished match is never claimed.
    a.commit(&[Change::Finish { id: "n".into() }]).unwrap();
    assert!(!a.holds("n"));
    tokio::time::sleep(LEASE + Duration::from_millis(200)).await;
    assert_eq!(b.claim(100).unwrap(), ["m"]);
}

/// Appends racing a claim: every append either lands before the claim (and the
/// claimer's replay has it) or is refused; none lands after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_racing_a_claim_land_before_it_or_not_at_all() {
    let Some(db) = TempDb::postgres("lease-race") else {
        return;
    };
    let url = db.path().to_str().unwrap().to_owned();
    let a = std::sync::Arc::new(PgStore::open_leased(&url, Duration::from_millis(50)).unwrap());
    let b = PgStore::open_leased(&url, Duration::from_millis(50)).unwrap();
    a.commit(&[Change::Create(stored("r"))]).unwrap();
    let writer = {
        let a = a.clone();
        std::thread::spawn(move || {
            let mut from = 0;
            let mut ok = 0;
            for at in 0..400 {
                match a.commit(&append("r", from, at)) {
                    Ok(()) => {
                        from += 1;
                        ok += 1;
                    }
                    Err(_) => break,
                }
            }
            ok
        })
    };
    let claimed = loop {
        let c = tokio::task::block_in_place(|| b.claim(10).unwrap());
        if !c.is_empty() {
            break c;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    assert_eq!(claimed, ["r"]);
    // What b replays right after its claim is final for a: nothing of a's lands later.
    let replayed = b.record("r").unwrap().unwrap().entries.len();
    let acked = writer.join().unwrap();
    assert_eq!(
        replayed, acked,
        "every acknowledged append is in the replay"
    );
    let after = b.record("r").unwrap().unwrap().entries.len();
    assert_eq!(after, replayed, "nothing written after the claim");
}

/// Two instances on one database; one is killed (SIGKILL) mid-game: the other claims its
/// matches once their leases expire, replays them and runs their bots and timers; a
/// player whose socket died reconnects to it with their token and plays to the end; a
/// bot match finishes there. Every record replays to the final view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_instances_matches_go_on_at_another() {
    let Some(db) = TempDb::postgres("lease-kill") else {
        return;
    };
    let flags = ["--lease-ms", "600"];
    let mut a = Server::start_with(&db.path(), 20, &flags);
    let b = Server::start_with(&db.path(), 20, &flags);
    let mut c = Client::connect(&a.addr).await;
    let created = create(&mut c, "rps", &["p", "q"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();
    let bots = create(
        &mut c,
        "yut",
        &["x", "y"],
        json!({"x": "random", "y": "random"}),
    )
    .await;
    let bm = bots["match"].as_str().unwrap().to_owned();
    let mut p = common::hello(&a.addr, &m, &token(&created, "p")).await;
    let played = p
        .req(json!({"op": "act", "match": m, "action": {"type": "PICK", "hand": "rock"}}))
        .await;
    assert_eq!(played["ok"], true, "{played}");
    a.kill();
    // p reconnects to b with its token: served once b claimed the match.
    let killed = tokio::time::Instant::now();
    let (mut p, hello) = until_ok(
        &b.addr,
        json!({"op": "hello", "match": m, "token": token(&created, "p")}),
        20,
        false,
    )
    .await;
    let failover = killed.elapsed();
    assert_eq!(hello["player"], "p", "{hello}");
    let mut q = Client::connect(&b.addr).await;
    let hello_q = q
        .req(json!({"op": "hello", "match": m, "token": token(&created, "q")}))
        .await;
    assert_eq!(hello_q["ok"], true, "{hello_q}");
    // The round p played before the kill is there: q plays against it.
    let mut seq = hello_q["turnSeq"].as_u64().unwrap();
    let mut over = false;
    for _ in 0..50 {
        for (who, hand) in [(&mut q, "paper"), (&mut p, "rock")] {
            let r = who
                .req(json!({"op": "act", "match": m, "action": {"type": "PICK", "hand": hand}, "turnSeq": seq}))
                .await;
            if r["ok"] == true {
                seq = r["turnSeq"].as_u64().unwrap();
                over = r["over"] == true;
            }
            if over {
                break;
            }
        }
        if over {
            break;
        }
    }
    assert!(over, "the match played to its end at b");
    let record = p.req(json!({"op": "record", "match": m})).await;
    assert_eq!(record["ok"], true, "{record}");
    let view = p.req(json!({"op": "view", "match": m})).await;
    assert_eq!(replayed_view(&record["record"], Some("p")), view["view"]);
    // The bot match finishes at b.
    let (mut w, watched) = until_ok(&b.addr, json!({"op": "watch", "match": bm}), 20, false).await;
    let last = if watched["over"] == true {
        watched["view"].clone()
    } else {
        w.push_until(120, |p| p["over"] == true).await["view"].clone()
    };
    let record = w.req(json!({"op": "record", "match": bm})).await;
    assert_eq!(replayed_view(&record["record"], None), last);
    // Everything a wrote under epoch 1, b under epoch 2: never back.
    for id in [&m, &bm] {
        let e = epochs(&db, id);
        assert!(e.windows(2).all(|w| w[0] <= w[1]), "{id}: {e:?}");
        assert_eq!(e.last(), Some(&2), "{id}: {e:?}");
    }
    eprintln!(
        "failover (kill to hello served): {} ms",
        failover.as_millis()
    );
}

/// An instance paused (SIGSTOP) past its lease and resumed: another claimed its matches
/// meanwhile; the resumed one writes nothing more (its bots and timers are refused by
/// the database and its tasks end), the other plays the matches to their end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_instance_writes_nothing_after_losing_its_leases() {
    let Some(db) = TempDb::postgres("lease-pause") else {
        return;
    };
    let flags = ["--lease-ms", "600"];
    let a = Server::start_with(&db.path(), 100, &flags);
    let b = Server::start_with(&db.path(), 100, &flags);
    let mut c = Client::connect(&a.addr).await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        let bots = create(
            &mut c,
            "yut",
            &["x", "y"],
            json!({"x": "random", "y": "random"}),
        )
        .await;
        ids.push(bots["match"].as_str().unwrap().to_owned());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    a.signal("STOP");
    // Past the lease and a claim round of b's.
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    a.signal("CONT");
    let mut moved = 0;
    for id in &ids {
        until_over(&b.addr, id).await;
        // A match whose row a's commit held locked when it was paused may stay a's
        // (it never lost it); the others moved to b and b wrote under epoch 2.
        if epochs(&db, id).contains(&2) {
            moved += 1;
        }
    }
    assert!(moved > 0, "no match moved to b");
    for id in &ids {
        let e = epochs(&db, id);
        assert!(e.windows(2).all(|w| w[0] <= w[1]), "{id}: {e:?}");
    }
    let err = a.stderr();
    assert!(err.contains("lease taken over"), "{err}");
}

/// A match created at one instance is served at another with the protocol unchanged:
/// `hello`, `watch`, `act`, `legal`, `view`, `record` there reach the owner, and the
/// replies and pushes come back through the socket's own instance; the players' sockets
/// may be on different instances.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_instance_serves_any_match() {
    let Some(db) = TempDb::postgres("lease-route") else {
        return;
    };
    let a = Server::start_with(&db.path(), 20, &[]);
    let b = Server::start_with(&db.path(), 20, &[]);
    let mut c = Client::connect(&a.addr).await;
    let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();
    // ann at b, bo at a, a watcher at b.
    let mut ann = common::hello(&b.addr, &m, &token(&created, "ann")).await;
    let mut bo = common::hello(&a.addr, &m, &token(&created, "bo")).await;
    let mut w = Client::connect(&b.addr).await;
    let watched = w.req(json!({"op": "watch", "match": m})).await;
    assert_eq!(watched["ok"], true, "{watched}");
    let wrong = ann
        .req(json!({"op": "hello", "match": m, "token": "nope"}))
        .await;
    assert_eq!(code(&wrong), "UNAUTHORIZED", "{wrong}");
    let mut seq = created["turnSeq"].as_u64().unwrap();
    for _ in 0..10 {
        let reply = common::step(&mut [&mut ann, &mut bo], &m, seq)
            .await
            .expect("someone may act");
        seq = reply["turnSeq"].as_u64().unwrap();
        // Every change is pushed to the watcher at b, in order.
        let p = w.push_until(10, |p| p["turnSeq"] == seq).await;
        assert_eq!(p["match"], m, "{p}");
    }
    // The views at both instances agree.
    let at_b = ann.req(json!({"op": "view", "match": m})).await;
    let at_a = c.req(json!({"op": "view", "match": m})).await;
    assert_eq!(at_b["ok"], true, "{at_b}");
    assert!(at_b["view"]["turnSeq"].is_u64(), "{at_b}");
    assert_eq!(at_b["view"]["turnSeq"], at_a["view"]["turnSeq"]);
    let record = ann.req(json!({"op": "record", "match": m})).await;
    assert_eq!(code(&record), "FORBIDDEN", "{record}");
    // A bot match created at b, watched from a, finishes.
    let mut cb = Client::connect(&b.addr).await;
    let bots = create(
        &mut cb,
        "rps",
        &["x", "y"],
        json!({"x": "random", "y": "random"}),
    )
    .await;
    let bm = bots["match"].as_str().unwrap().to_owned();
    let mut wa = Client::connect(&a.addr).await;
    let watched = wa.req(json!({"op": "watch", "match": bm})).await;
    assert_eq!(watched["ok"], true, "{watched}");
    if watched["over"] != true {
        wa.push_until(60, |p| p["over"] == true).await;
    }
    let record = wa.req(json!({"op": "record", "match": bm})).await;
    assert_eq!(record["ok"], true, "{record}");
    let unknown = wa.req(json!({"op": "watch", "match": "never-was"})).await;
    assert_eq!(code(&unknown), "UNKNOWN_MATCH", "{unknown}");
}

/// SIGTERM hands an instance's matches over: its sockets close with 1012 (reconnect), it
/// releases its leases, and another instance claims them at once, well before the
/// leases would have expired; the player reconnects there and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_hands_the_matches_over_at_once() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let Some(db) = TempDb::postgres("lease-term") else {
        return;
    };
    // A lease far longer than the hand-over may take.
    let flags = ["--lease-ms", "20000"];
    let mut a = Server::start_with(&db.path(), 0, &flags);
    let b = Server::start_with(&db.path(), 0, &flags);
    let mut c = Client::connect(&a.addr).await;
    let created = create(&mut c, "rps", &["p", "q"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();
    let mut p = common::hello(&a.addr, &m, &token(&created, "p")).await;
    let stopped = tokio::time::Instant::now();
    a.signal("TERM");
    let close = loop {
        match tokio::time::timeout(Duration::from_secs(10), p.ws.next())
            .await
            .expect("closed within 10 s")
        {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => {}
            other => panic!("no close frame: {other:?}"),
        }
    };
    assert_eq!(close.map(|f| u16::from(f.code)), Some(1012));
    let (mut p, _) = until_ok(
        &b.addr,
        json!({"op": "hello", "match": m, "token": token(&created, "p")}),
        10,
        false,
    )
    .await;
    let handover = stopped.elapsed();
    assert!(handover < Duration::from_secs(10), "{handover:?}");
    eprintln!(
        "hand-over (SIGTERM to hello served): {} ms",
        handover.as_millis()
    );
    let view = p.req(json!({"op": "view", "match": m})).await;
    assert_eq!(view["ok"], true, "{view}");
    let status = tokio::task::block_in_place(|| a.terminate(10));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    // Whatever a wrote under epoch 1, then only b's epoch.
    let e = epochs(&db, &m);
    assert!(e.contains(&2), "{e:?}");
    assert!(e.windows(2).all(|w| w[0] <= w[1]), "{e:?}");
}

/// Three instances, bot matches created at each and watched from the others; one
/// instance is killed (SIGKILL) and another paused (SIGSTOP) past its lease, then
/// resumed: every match finishes at a live instance, every record replays to its final
/// view, and no entry of any match was written under an older epoch after a newer one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_survives_a_kill_and_a_pause() {
    let Some(db) = TempDb::postgres("lease-cluster") else {
        return;
    };
    let flags = ["--lease-ms", "600"];
    let mut a = Server::start_with(&db.path(), 60, &flags);
    let b = Server::start_with(&db.path(), 60, &flags);
    let c = Server::start_with(&db.path(), 60, &flags);
    let addrs = [a.addr.clone(), b.addr.clone(), c.addr.clone()];
    let n = 30;
    let mut ids = Vec::new();
    for i in 0..n {
        let mut creator = Client::connect(&addrs[i % 3]).await;
        let created = create(
            &mut creator,
            "yut",
            &["x", "y"],
            json!({"x": "random", "y": "policy"}),
        )
        .await;
        ids.push(created["match"].as_str().unwrap().to_owned());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    a.kill();
    b.signal("STOP");
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    b.signal("CONT");
    // Every match is watched to its end from c, the instance never stopped.
    for id in &ids {
        until_over(&c.addr, id).await;
    }
    let mut w = Client::connect(&c.addr).await;
    for id in &ids {
        let e = epochs(&db, id);
        assert!(e.windows(2).all(|w| w[0] <= w[1]), "{id}: {e:?}");
        let record = w.req(json!({"op": "record", "match": id})).await;
        assert_eq!(record["ok"], true, "{record}");
        let view = w.req(json!({"op": "view", "match": id})).await;
        let replayed = replayed_view(&record["record"], None);
        assert_eq!(replayed, view["view"], "{id}");
    }
}
