//! A cluster: three instances on one PostgreSQL, 300 matches (bot matches
//! and matches played by scripted clients whose sockets are spread over the three
//! instances, each match watched from an instance other than its owner), one instance
//! killed (SIGKILL) mid-game and another paused (SIGSTOP) past its lease, then resumed.
//!
//! PostgreSQL only: `PARTY_GAMES_TEST_PG` names the server (see `common`); with
//! `PARTY_GAMES_REQUIRE_PG=1` (as `.ci/run` sets) an unreachable one fails the test.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use common::{Client, Server, TempDb, ask, code, epochs, replayed_view, token};
use futures_util::StreamExt;
use game_core::{MatchRecord, RecordEntry};
use serde_json::{Value, json};
use tokio::time::{Instant, sleep, timeout};
use tokio_tungstenite::tungstenite::Message;

/// Short leases, so that the failover and the pause take a second or two.
const FLAGS: [&str; 2] = ["--lease-ms", "800"];
/// Bots move slowly enough for the matches to be under way at the kill and the pause.
const BOT_DELAY_MS: u64 = 1_000;
const MATCHES: usize = 300;
/// One match in this many is played by scripted clients, the others by bots.
const SCRIPTED_EVERY: usize = 5;
/// Rounds of rock-paper-scissors to win: with the bot delay, a bot match lasts some
/// 15 s, past the kill and the pause, while the load stays below what a loaded 2-core
/// machine serves at once (so that the failover measured is not a queue's wait).
const WINS: u64 = 5;
/// How long everything may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(240);

/// When the first instance was killed, once it was.
type Killed = Arc<OnceLock<Instant>>;

/// Opens a socket at the first instance from `addrs[*at]` on that answers (a killed one
/// refuses, a paused one does not finish the handshake in time): `*at` is left on it.
async fn connect_any(addrs: &[String], at: &mut usize) -> Client {
    let until = Instant::now() + PATIENCE;
    loop {
        let addr = &addrs[*at % addrs.len()];
        let url = format!("ws://{addr}/ws");
        if let Ok(Ok((ws, _))) = timeout(
            Duration::from_secs(2),
            tokio_tungstenite::connect_async(url),
        )
        .await
        {
            return Client::from_ws(ws);
        }
        *at += 1;
        assert!(Instant::now() < until, "no instance answers");
        sleep(Duration::from_millis(50)).await;
    }
}

/// What a watcher saw of its match.
#[derive(Default)]
struct Watched {
    /// The view of its last push, over (`None`: the match was over when watched again).
    last: Option<Value>,
    /// Each push after the kill: when it came and its `turnSeq`.
    after_kill: Vec<(Instant, u64)>,
}

/// Watches match `id` from `addrs[at]` to its end, watching again when its socket
/// closes: at the same instance after a close frame, at the next one after a drop.
async fn watch(addrs: Arc<Vec<String>>, mut at: usize, id: String, killed: Killed) -> Watched {
    let mut seen = Watched::default();
    let until = Instant::now() + PATIENCE;
    let note = |seen: &mut Watched, p: &Value| -> bool {
        if p["match"] != id.as_str() {
            return false;
        }
        if let (Some(_), Some(seq)) = (killed.get(), p["turnSeq"].as_u64()) {
            seen.after_kill.push((Instant::now(), seq));
        }
        if p["over"] == true {
            seen.last = Some(p["view"].clone());
            return true;
        }
        false
    };
    loop {
        assert!(Instant::now() < until, "{id}: not over in time");
        let mut c = connect_any(&addrs, &mut at).await;
        let Some(reply) = ask(&mut c, json!({"op": "watch", "match": id})).await else {
            at += 1;
            continue;
        };
        if reply["ok"] != true {
            match code(&reply).as_str() {
                "UNAVAILABLE" => {
                    sleep(Duration::from_millis(50)).await;
                    continue;
                }
                "MATCH_CLOSED" => {
                    assert_eq!(reply["error"]["reason"]["why"], "over", "{reply}");
                    return seen;
                }
                _ => panic!("{id}: watch refused: {reply}"),
            }
        }
        if reply["over"] == true {
            seen.last = Some(reply["view"].clone());
            return seen;
        }
        while let Some(p) = c.pushes.pop_front() {
            if note(&mut seen, &p) {
                return seen;
            }
        }
        loop {
            match timeout(PATIENCE, c.ws.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => {
                    let p: Value = serde_json::from_str(&t).unwrap();
                    if note(&mut seen, &p) {
                        return seen;
                    }
                }
                // Closed by a live instance (the match moved): watched there again.
                Ok(Some(Ok(Message::Close(_)))) => break,
                Ok(Some(Err(_)) | None) => {
                    at += 1;
                    break;
                }
                Ok(Some(Ok(_))) => {}
                Err(_) => panic!("{id}: no push in {PATIENCE:?}"),
            }
        }
    }
}

/// What a scripted player did.
#[derive(Default)]
struct Played {
    player: String,
    /// The instance its first socket was at.
    first_at: usize,
    /// Each action acknowledged (answered ok) and the `turnSeq` the answer gave.
    acked: Vec<(Value, u64)>,
    /// Actions sent whose outcome is not known: the socket died first, or the answer
    /// was `UNAVAILABLE`.
    unanswered: usize,
    /// Actions acknowledged after the kill, on a socket opened after the first one.
    acked_after_reconnect: usize,
}

/// Waits for the next message on `c` (a push, queued) within `d`: `false` when the
/// socket closed.
async fn wait_push(c: &mut Client, d: Duration) -> bool {
    match timeout(d, c.ws.next()).await {
        Err(_) | Ok(Some(Ok(_))) => true,
        Ok(Some(Err(_)) | None) => false,
    }
}

/// Plays the seat `player` of rock-paper-scissors match `id` to its end from
/// `addrs[at]` on: `hello` with its token, then a pick whenever its view offers one,
/// sent with the view's `turnSeq` (so that no pick lands twice); a socket that closes is
/// opened again at the next instance that answers, with the same token.
async fn play(
    addrs: Arc<Vec<String>>,
    at: usize,
    id: String,
    player: String,
    tok: String,
    killed: Killed,
) -> Played {
    const HANDS: [&str; 3] = ["rock", "paper", "scissors"];
    let mut out = Played {
        player: player.clone(),
        first_at: at,
        ..Played::default()
    };
    let mut at = at;
    let until = Instant::now() + PATIENCE;
    let mut sockets = 0;
    'socket: loop {
        assert!(
            Instant::now() < until,
            "{id}/{player}: not over in time ({} acknowledged, {} unanswered, {sockets} sockets)",
            out.acked.len(),
            out.unanswered
        );
        let mut c = connect_any(&addrs, &mut at).await;
        sockets += 1;
        let hello = json!({"op": "hello", "match": id, "token": tok});
        loop {
            let Some(r) = ask(&mut c, hello.clone()).await else {
                at += 1;
                continue 'socket;
            };
            match (r["ok"] == true, code(&r).as_str()) {
                (true, _) => break,
                (false, "UNAVAILABLE") => sleep(Duration::from_millis(50)).await,
                (false, "MATCH_CLOSED") => return out,
                _ => panic!("{id}/{player}: hello refused: {r}"),
            }
        }
        loop {
            assert!(
                Instant::now() < until,
                "{id}/{player}: not over in time ({} acknowledged, {} unanswered, {sockets} sockets)",
                out.acked.len(),
                out.unanswered
            );
            c.pushes.clear();
            let Some(view) = ask(&mut c, json!({"op": "view", "match": id})).await else {
                at += 1;
                continue 'socket;
            };
            let view = match (view["ok"] == true, code(&view).as_str()) {
                (true, _) => view["view"].clone(),
                (false, "MATCH_CLOSED") => return out,
                (false, "UNAVAILABLE") => {
                    sleep(Duration::from_millis(50)).await;
                    continue;
                }
                _ => panic!("{id}/{player}: view refused: {view}"),
            };
            if !view["winner"].is_null() {
                return out;
            }
            assert!(!view["you"].is_null(), "{id}/{player}: not seated: {view}");
            let seq = view["turnSeq"].as_u64().unwrap();
            let may_pick = view["legalActions"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x["type"] == "PICK"));
            if !may_pick {
                // The other player's pick (or the round's end) comes as a push.
                if !wait_push(&mut c, Duration::from_millis(500)).await {
                    at += 1;
                    continue 'socket;
                }
                continue;
            }
            // p and q cycle apart: q wins, p wins, a tie, again.
            let k = out.acked.len() + out.unanswered;
            let hand = HANDS[if player == "p" {
                k % 3
            } else {
                (2 * k + 1) % 3
            }];
            let action = json!({"type": "PICK", "hand": hand});
            let req = json!({"op": "act", "match": id, "action": action, "turnSeq": seq});
            let Some(r) = ask(&mut c, req).await else {
                out.unanswered += 1;
                at += 1;
                continue 'socket;
            };
            if r["ok"] == true {
                out.acked.push((action, r["turnSeq"].as_u64().unwrap()));
                if killed.get().is_some() && sockets > 1 {
                    out.acked_after_reconnect += 1;
                }
                if r["over"] == true {
                    return out;
                }
                continue;
            }
            match code(&r).as_str() {
                "MATCH_CLOSED" => return out,
                // Its owner did not answer in time (gone, or paused): whether the pick
                // was stored is not known; the view says, and the turnSeq keeps it once.
                "UNAVAILABLE" => {
                    out.unanswered += 1;
                    sleep(Duration::from_millis(50)).await;
                }
                // The round moved on meanwhile (the other pick, a timeout): look again.
                _ => {}
            }
        }
    }
}

/// Creates match `i`: rock-paper-scissors between scripted players `p` and `q` for one
/// in [`SCRIPTED_EVERY`], between bots `x` and `y` for the others.
async fn create_one(creator: &mut Client, i: usize) -> Value {
    let options = json!({"winsNeeded": WINS});
    let req = if i.is_multiple_of(SCRIPTED_EVERY) {
        json!({"op": "create", "game": "rps", "players": ["p", "q"], "options": options})
    } else {
        json!({"op": "create", "game": "rps", "players": ["x", "y"],
            "options": options, "bots": {"x": "random", "y": "random"}})
    };
    let created = creator.req(req).await;
    assert_eq!(created["ok"], true, "{created}");
    created
}

/// Rows of `sql` on the test's database, each column read as text.
fn rows(db: &TempDb, sql: &'static str) -> Vec<Vec<String>> {
    let url = db.path().to_str().unwrap().to_owned();
    common::pg_run(&url, async move |c| {
        let rows = c.simple_query(sql).await?;
        Ok(rows
            .into_iter()
            .filter_map(|m| match m {
                tokio_postgres::SimpleQueryMessage::Row(r) => Some(
                    (0..r.len())
                        .map(|i| r.get(i).unwrap_or_default().to_owned())
                        .collect(),
                ),
                _ => None,
            })
            .collect())
    })
    .unwrap()
}

/// Each match's owner and epoch now.
fn owners(db: &TempDb) -> HashMap<String, (String, i64)> {
    rows(db, "SELECT id, coalesce(owner, ''), epoch FROM matches")
        .into_iter()
        .map(|r| (r[0].clone(), (r[1].clone(), r[2].parse().unwrap())))
        .collect()
}

/// How many entries of each match were written under each epoch.
fn entries_by_epoch(db: &TempDb) -> HashMap<(String, i64), usize> {
    rows(
        db,
        "SELECT match_id, epoch, COUNT(*) FROM entries GROUP BY match_id, epoch",
    )
    .into_iter()
    .map(|r| ((r[0].clone(), r[1].parse().unwrap()), r[2].parse().unwrap()))
    .collect()
}

/// The `turnSeq` after each entry of `record` (by replaying each prefix).
fn seqs_after(record: &MatchRecord) -> Vec<u64> {
    let registry = game_host::registry();
    (1..=record.entries.len())
        .map(|n| {
            let mut prefix = record.clone();
            prefix.entries.truncate(n);
            registry.replay(&prefix).unwrap().turn_seq()
        })
        .collect()
}

/// Three instances on one PostgreSQL play 300 matches; one is killed mid-game and
/// another paused past its lease and resumed. Every match finishes; every action a
/// scripted client had acknowledged is in its record exactly once; every record replays
/// to the final view its watcher saw; the paused instance writes nothing to a match once
/// another claimed it; the clients of the killed instance go on through the others. The
/// failover time (kill to the match's next push at its watcher) over the killed
/// instance's matches is printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_survive_a_kill_and_a_pause() {
    let Some(db) = TempDb::postgres("cluster") else {
        return;
    };
    let mut a = Server::start_with(&db.path(), BOT_DELAY_MS, &FLAGS);
    let b = Server::start_with(&db.path(), BOT_DELAY_MS, &FLAGS);
    let c = Server::start_with(&db.path(), BOT_DELAY_MS, &FLAGS);
    let addrs = Arc::new(vec![a.addr.clone(), b.addr.clone(), c.addr.clone()]);
    let killed: Killed = Arc::new(OnceLock::new());
    let started = Instant::now();

    // Match i is created at instance i % 3 (its first owner), watched from the one after
    // next; a scripted match's players sit at the two others, so that every instance
    // holds sockets of matches run elsewhere.
    let mut creating = Vec::new();
    for (k, addr) in addrs.iter().enumerate() {
        let addr = addr.clone();
        creating.push(tokio::spawn(async move {
            let mut creator = Client::connect(&addr).await;
            let mut made = Vec::new();
            for i in (k..MATCHES).step_by(3) {
                made.push((i, create_one(&mut creator, i).await));
            }
            made
        }));
    }
    let mut created = Vec::with_capacity(MATCHES);
    for c in creating {
        created.extend(c.await.unwrap());
    }
    created.sort_by_key(|(i, _)| *i);
    let mut ids = Vec::with_capacity(MATCHES);
    let mut watchers = Vec::with_capacity(MATCHES);
    let mut players = Vec::new();
    for (i, created) in created {
        let id = created["match"].as_str().unwrap().to_owned();
        watchers.push(tokio::spawn(watch(
            addrs.clone(),
            i + 2,
            id.clone(),
            killed.clone(),
        )));
        if i.is_multiple_of(SCRIPTED_EVERY) {
            for (seat, at) in [("p", i + 1), ("q", i + 2)] {
                players.push((
                    id.clone(),
                    tokio::spawn(play(
                        addrs.clone(),
                        at,
                        id.clone(),
                        seat.to_owned(),
                        token(&created, seat),
                        killed.clone(),
                    )),
                ));
            }
        }
        ids.push(id);
    }
    eprintln!(
        "cluster: {MATCHES} matches created in {:?}",
        started.elapsed()
    );

    // Kill a mid-game.
    sleep(Duration::from_millis(500)).await;
    let a_prefix = format!("{}-", a.pid());
    a.kill();
    let kill_at = Instant::now();
    killed.set(kill_at).unwrap();
    let at_kill = owners(&db);
    let finished_at_kill: Vec<String> = rows(&db, "SELECT id FROM matches WHERE finished <> 0")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let a_matches: Vec<(String, i64)> = at_kill
        .iter()
        .filter(|(id, (owner, _))| owner.starts_with(&a_prefix) && !finished_at_kill.contains(id))
        .map(|(id, (_, epoch))| (id.clone(), *epoch))
        .collect();
    assert!(!a_matches.is_empty(), "no match of a under way at the kill");

    // Pause b past its lease once a's matches moved on, then resume it.
    sleep(Duration::from_millis(4_000)).await;
    let b_prefix = format!("{}-", b.pid());
    b.signal("STOP");
    let paused = owners(&db);
    sleep(Duration::from_millis(2_500)).await;
    // While b is stopped: the matches it held that another instance claimed meanwhile,
    // and how many entries b had written under its epoch there.
    let b_held: Vec<(String, i64)> = paused
        .iter()
        .filter(|(_, (owner, _))| owner.starts_with(&b_prefix))
        .map(|(id, (_, epoch))| (id.clone(), *epoch))
        .collect();
    let now = owners(&db);
    let lost_by_b: Vec<(String, i64)> = b_held
        .into_iter()
        .filter(|(id, epoch)| now.get(id).is_some_and(|(_, e)| e > epoch))
        .collect();
    let written_by_b = entries_by_epoch(&db);
    b.signal("CONT");
    assert!(
        !lost_by_b.is_empty(),
        "no match of b claimed while it was paused"
    );

    // Every match ends.
    let mut seen = HashMap::new();
    for (id, w) in ids.iter().zip(watchers) {
        seen.insert(id.clone(), w.await.unwrap());
    }
    let mut played: HashMap<String, Vec<Played>> = HashMap::new();
    for (id, p) in players {
        played.entry(id).or_default().push(p.await.unwrap());
    }
    let total = started.elapsed();
    let unfinished = rows(&db, "SELECT id FROM matches WHERE finished = 0");
    assert!(unfinished.is_empty(), "unfinished: {unfinished:?}");

    // The paused instance wrote nothing to a match after another claimed it.
    let written = entries_by_epoch(&db);
    for (id, epoch) in &lost_by_b {
        let key = (id.clone(), *epoch);
        assert_eq!(
            written.get(&key),
            written_by_b.get(&key),
            "{id}: b wrote under epoch {epoch} after losing it"
        );
    }
    let err = b.stderr();
    assert!(err.contains("lease taken over"), "{err}");

    // Every record replays to the final view; every acknowledged pick is in it once.
    let store = db.open();
    let mut acked = 0;
    let mut compared = 0;
    let mut after_reconnect = 0;
    let mut failovers = Vec::new();
    for id in &ids {
        let record = store.record(id).unwrap().expect("stored");
        let record_json = serde_json::to_value(&record).unwrap();
        match &seen[id].last {
            Some(view) => {
                assert_eq!(&replayed_view(&record_json, None), view, "{id}");
                compared += 1;
            }
            // Over before its watcher came back: no final view to compare, the record
            // replays to a match that is over.
            None => {
                let m = game_host::registry().replay(&record).unwrap();
                assert!(m.outcome().is_some(), "{id}: the record is not over");
            }
        }
        let epochs = epochs(&db, id);
        assert!(epochs.windows(2).all(|w| w[0] <= w[1]), "{id}: {epochs:?}");
        if let Some(ps) = played.get(id) {
            let after = seqs_after(&record);
            for p in ps {
                let acts: Vec<(&Value, u64)> = record
                    .entries
                    .iter()
                    .zip(&after)
                    .filter_map(|(e, seq)| match e {
                        RecordEntry::Act { player, action, .. } if *player == p.player => {
                            Some((action, *seq))
                        }
                        _ => None,
                    })
                    .collect();
                for (action, seq) in &p.acked {
                    let n = acts
                        .iter()
                        .filter(|(a, s)| *a == action && s == seq)
                        .count();
                    assert_eq!(n, 1, "{id}/{}: {action} at {seq}: {n} times", p.player);
                }
                assert!(
                    acts.len() <= p.acked.len() + p.unanswered,
                    "{id}/{}: {} picks stored, {} acknowledged, {} unanswered",
                    p.player,
                    acts.len(),
                    p.acked.len(),
                    p.unanswered
                );
                acked += p.acked.len();
                if p.first_at.is_multiple_of(3) {
                    after_reconnect += p.acked_after_reconnect;
                }
            }
        }
        // Failover: from the kill to the first push of a state a never stored.
        if let Some((_, epoch)) = a_matches.iter().find(|(m, _)| m == id) {
            let by_a: usize = epochs.iter().filter(|e| **e <= *epoch).count();
            let mut prefix = record.clone();
            prefix.entries.truncate(by_a);
            let seq_at_kill = game_host::registry().replay(&prefix).unwrap().turn_seq();
            let next = seen[id]
                .after_kill
                .iter()
                .find(|(_, seq)| *seq > seq_at_kill)
                .map(|(at, _)| *at - kill_at);
            if let Some(next) = next {
                failovers.push(next);
            }
        }
    }
    assert!(
        after_reconnect > 0,
        "no client of the killed instance played on elsewhere"
    );
    assert!(!failovers.is_empty(), "no failover measured");
    failovers.sort();
    let p50 = failovers[failovers.len() / 2];
    let max = failovers[failovers.len() - 1];
    eprintln!(
        "cluster: {MATCHES} matches ({} scripted, {acked} acknowledged picks) in {total:?}, \
         {compared} final views compared; \
         {} matches of the killed instance, failover (kill to next push) over {}: \
         p50 {} ms, max {} ms; {} matches of the paused instance claimed meanwhile",
        MATCHES / SCRIPTED_EVERY,
        a_matches.len(),
        failovers.len(),
        p50.as_millis(),
        max.as_millis(),
        lost_by_b.len(),
    );
}

/// An owner forgets the routes it kept for the sockets of an instance that died: a
/// player whose socket was at the dead instance is marked disconnected at the owner (its
/// seat in the view, a presence entry stored) within two leases of silence, where the
/// binding would otherwise hold the seat connected for as long as the match runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_forgets_the_sockets_of_a_dead_instance() {
    let Some(db) = TempDb::postgres("cluster-expire") else {
        return;
    };
    let a = Server::start_with(&db.path(), 0, &FLAGS);
    let mut b = Server::start_with(&db.path(), 0, &FLAGS);
    let mut c = Client::connect(&a.addr).await;
    let created = common::create(&mut c, "rps", &["p", "q"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();
    // p's socket is at b: a serves it through a binding for b.
    let _p = common::hello(&b.addr, &m, &token(&created, "p")).await;
    let view = || json!({"op": "view", "match": m});
    let connected = |v: &Value| v["view"]["seats"][0]["connected"] == true;
    let seen = c.req(view()).await;
    assert!(connected(&seen), "{seen}");
    let disconnected = "SELECT COUNT(*) FROM entries WHERE match_id = ?1 \
                        AND entry LIKE '%\"connected\":false%'";
    let before = db.query_i64(disconnected, &[&m]);
    b.kill();
    let killed = Instant::now();
    loop {
        let seen = c.req(view()).await;
        if !connected(&seen) {
            break;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "p still connected at a: {seen}"
        );
        sleep(Duration::from_millis(100)).await;
    }
    let forgotten = killed.elapsed();
    assert!(db.query_i64(disconnected, &[&m]) > before);
    a.stderr_until("bindings of sockets at silent instances dropped", 5);
    eprintln!(
        "routes of a dead instance dropped at the owner {} ms after the kill",
        forgotten.as_millis()
    );
}
