//! What one client may hold of the server, over the real binary: open matches per
//! socket, per address and in all; the rate of creates; WebSocket connections in all and
//! per address (the address from a proxy's header only when the operator names it);
//! creates refused cheaply; and replies that never overtake an earlier push.

mod common;

use std::time::{Duration, Instant};

use common::{Client, Server, TempDb, code, create};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Connects with an `X-Forwarded-For` header (if any); the HTTP status when refused.
async fn connect_as(addr: &str, forwarded: Option<&str>) -> Result<Client, (u16, String)> {
    let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
    if let Some(f) = forwarded {
        req.headers_mut()
            .insert("x-forwarded-for", f.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(Client::from_ws(ws)),
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            let body = resp
                .body()
                .as_ref()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default();
            Err((resp.status().as_u16(), body))
        }
        Err(e) => panic!("{e}"),
    }
}

/// A create of a two-person rps match that stays open (nobody plays it).
async fn open_create(c: &mut Client) -> Value {
    c.req(json!({"op": "create", "game": "rps", "players": ["a", "b"],
        "options": {"turnSeconds": null}}))
        .await
}

fn quota(reply: &Value) -> (String, u64) {
    assert_eq!(reply["ok"], false, "{reply}");
    assert_eq!(code(reply), "QUOTA_EXCEEDED", "{reply}");
    assert!(reply["error"]["message"].is_string(), "{reply}");
    (
        reply["error"]["reason"]["limit"]
            .as_str()
            .unwrap()
            .to_owned(),
        reply["error"]["reason"]["max"].as_u64().unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_matches_are_capped_per_socket_per_address_and_in_all() {
    let db = TempDb::new("quota-matches");
    let server = Server::start_with(
        &db.path(),
        0,
        &[
            "--max-matches-per-socket",
            "2",
            "--max-matches-per-address",
            "3",
            "--max-matches",
            "4",
        ],
    );
    let mut one = Client::connect(&server.addr).await;
    for _ in 0..2 {
        assert_eq!(open_create(&mut one).await["ok"], true);
    }
    let refused = open_create(&mut one).await;
    assert_eq!(quota(&refused), ("matchesPerSocket".into(), 2));
    let mut two = Client::connect(&server.addr).await;
    assert_eq!(open_create(&mut two).await["ok"], true);
    let refused = open_create(&mut two).await;
    assert_eq!(quota(&refused), ("matchesPerAddress".into(), 3));
    // Another address (a proxy's header, named by the operator in the next server) is
    // counted apart; here all share one, so the total is reached through the address
    // cap's server below.
    drop(server);

    let db = TempDb::new("quota-total");
    let server = Server::start_with(
        &db.path(),
        0,
        &[
            "--max-matches",
            "2",
            "--client-ip-header",
            "X-Forwarded-For",
        ],
    );
    let mut a = connect_as(&server.addr, Some("10.0.0.1")).await.unwrap();
    let mut b = connect_as(&server.addr, Some("10.0.0.2")).await.unwrap();
    assert_eq!(open_create(&mut a).await["ok"], true);
    assert_eq!(open_create(&mut b).await["ok"], true);
    let refused = open_create(&mut b).await;
    assert_eq!(quota(&refused), ("matchesTotal".into(), 2));
    // A refused create keeps nothing: the socket still works.
    assert_eq!(b.req(json!({"op": "games"})).await["ok"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_stops_counting() {
    let db = TempDb::new("quota-finish");
    // The bots wait 5 ms a move: a match outlasts the create sent right after it.
    let server = Server::start_with(&db.path(), 5, &["--max-matches-per-socket", "1"]);
    let mut c = Client::connect(&server.addr).await;
    let bots = json!({"x": "random", "y": "random"});
    for _ in 0..3 {
        let created = create(&mut c, "yut", &["x", "y"], bots.clone()).await;
        let m = created["match"].as_str().unwrap().to_owned();
        // While it runs, the socket's one match is open.
        let refused = open_create(&mut c).await;
        assert_eq!(quota(&refused), ("matchesPerSocket".into(), 1));
        let watched = c.req(json!({"op": "watch", "match": m})).await;
        if watched["over"] != true {
            c.push_until(60, |p| p["match"] == m.as_str() && p["over"] == true)
                .await;
        }
        c.pushes.clear();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creates_are_rate_limited_per_address() {
    let db = TempDb::new("rate");
    let server = Server::start_with(
        &db.path(),
        0,
        &["--creates-per-minute", "60", "--create-burst", "3"],
    );
    let mut c = Client::connect(&server.addr).await;
    for _ in 0..3 {
        assert_eq!(open_create(&mut c).await["ok"], true);
    }
    // Another socket of the same address shares the bucket.
    let mut d = Client::connect(&server.addr).await;
    let refused = open_create(&mut d).await;
    assert_eq!(code(&refused), "RATE_LIMITED", "{refused}");
    let wait = refused["error"]["reason"]["retryAfterMs"].as_u64().unwrap();
    assert!(wait > 0 && wait <= 1000, "{refused}");
    tokio::time::sleep(Duration::from_millis(wait + 50)).await;
    assert_eq!(open_create(&mut d).await["ok"], true);
    let refused = open_create(&mut d).await;
    assert_eq!(code(&refused), "RATE_LIMITED", "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_capped_per_address_and_in_all() {
    let db = TempDb::new("conns");
    let server = Server::start_with(
        &db.path(),
        0,
        &[
            "--max-connections-per-address",
            "2",
            "--max-connections",
            "3",
        ],
    );
    let a1 = connect_as(&server.addr, None).await.unwrap();
    let _a2 = connect_as(&server.addr, None).await.unwrap();
    // The header is not trusted unless named: these are the same address.
    let (status, body) = connect_as(&server.addr, Some("10.9.9.9"))
        .await
        .err()
        .unwrap();
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("from this address"), "{body}");
    // A closed connection frees its place.
    a1.close().await;
    let until = Instant::now() + Duration::from_secs(5);
    let _a3 = loop {
        match connect_as(&server.addr, None).await {
            Ok(c) => break c,
            Err(_) if Instant::now() < until => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("{e:?}"),
        }
    };
    drop(server);

    let db = TempDb::new("conns-proxy");
    let server = Server::start_with(
        &db.path(),
        0,
        &[
            "--max-connections-per-address",
            "1",
            "--max-connections",
            "3",
            "--client-ip-header",
            "X-Forwarded-For",
        ],
    );
    // The last address of the header: the one the proxy appended.
    let _x = connect_as(&server.addr, Some("1.1.1.1, 10.0.0.1"))
        .await
        .unwrap();
    let (status, _) = connect_as(&server.addr, Some("2.2.2.2, 10.0.0.1"))
        .await
        .err()
        .unwrap();
    assert_eq!(status, 429);
    let _y = connect_as(&server.addr, Some("10.0.0.1, 10.0.0.2"))
        .await
        .unwrap();
    // Without the header: the peer's address (loopback), a third address.
    let _z = connect_as(&server.addr, None).await.unwrap();
    let (status, body) = connect_as(&server.addr, Some("10.0.0.3"))
        .await
        .err()
        .unwrap();
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("too many connections"), "{body}");
    // Plain HTTP is not counted.
    let mut tcp = tokio::net::TcpStream::connect(&server.addr).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    tcp.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut out = String::new();
    tcp.read_to_string(&mut out).await.unwrap();
    assert!(out.starts_with("HTTP/1.1 200"), "{out}");
}

/// A create with a huge player list (and bots) is refused at once, before the bots are
/// checked or an id is taken, and the server answers others meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_with_a_huge_player_list_is_refused_quickly() {
    let db = TempDb::new("huge-create");
    let server = Server::start(&db.path(), 0);
    let mut c = Client::connect(&server.addr).await;
    let mut other = Client::connect(&server.addr).await;
    // Just under the request cap: as many players as fit, half of them bots.
    let cap = party_games_server::MAX_REQUEST;
    let mut players = Vec::new();
    let mut bots = serde_json::Map::new();
    let mut n = 0;
    loop {
        let p = format!("p{n}");
        n += 1;
        if n % 2 == 0 {
            bots.insert(p.clone(), json!("random"));
        }
        players.push(p);
        let len = json!({"op": "create", "game": "yut", "players": players, "bots": bots})
            .to_string()
            .len();
        if len > cap - 200 {
            players.pop();
            bots.remove(&format!("p{}", n - 1));
            break;
        }
    }
    let req = json!({"op": "create", "game": "yut", "players": players, "bots": bots});
    let started = Instant::now();
    let refused = c.req(req.clone()).await;
    let took = started.elapsed();
    assert_eq!(code(&refused), "BAD_PLAYER_COUNT", "{}", refused["error"]);
    assert!(took < Duration::from_millis(500), "{took:?}");
    // Many of them from one socket while another asks: it is answered promptly.
    let flood = tokio::spawn(async move {
        for _ in 0..20 {
            assert_eq!(code(&c.req(req.clone()).await), "BAD_PLAYER_COUNT");
        }
    });
    let asked = Instant::now();
    assert_eq!(other.req(json!({"op": "games"})).await["ok"], true);
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "{:?}",
        asked.elapsed()
    );
    flood.await.unwrap();
}

/// Every message of `c` until the reply to request `id`, in arrival order.
async fn until_reply(c: &mut Client, id: u64, seen: &mut Vec<Value>) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), c.ws.next())
            .await
            .expect("a message within 30 s")
            .expect("open")
            .unwrap();
        let Message::Text(t) = msg else { continue };
        let v: Value = serde_json::from_str(&t).unwrap();
        seen.push(v.clone());
        if v.get("push").is_none() && v["id"] == id {
            return v;
        }
    }
}

/// A person acts as fast as replies come while a bot (no delay) acts in the same rounds
/// of rock-paper-scissors: whatever the interleaving at the match's task, the person's
/// socket sees turnSeq never go back (a reply never overtakes the push of an earlier
/// change).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_never_overtake_earlier_pushes() {
    let db = TempDb::new("order");
    let server = Server::start(&db.path(), 0);
    let mut host = Client::connect(&server.addr).await;
    let mut acts = 0;
    // The random bot may concede at any round, so a match may end after one act: matches
    // are played until enough acts raced the bot (each match takes at least one).
    for _ in 0..60 {
        if acts > 40 {
            break;
        }
        let created = host
            .req(
                json!({"op": "create", "game": "rps", "players": ["me", "bot"],
                "bots": {"bot": "random"},
                "options": {"winsNeeded": 9, "turnSeconds": null}}),
            )
            .await;
        assert_eq!(created["ok"], true, "{created}");
        let m = created["match"].as_str().unwrap().to_owned();
        let token = common::token(&created, "me");
        let mut c = Client::connect(&server.addr).await;
        let mut seen = Vec::new();
        let mut id = 1;
        c.ws.send(Message::Text(
            json!({"op": "hello", "match": m, "token": token, "id": id})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
        until_reply(&mut c, id, &mut seen).await;
        let mut over = false;
        while !over {
            id += 1;
            let act = json!({"op": "act", "match": m, "action": {"type": "RANDOM"}, "id": id});
            c.ws.send(Message::Text(act.to_string().into()))
                .await
                .unwrap();
            let reply = until_reply(&mut c, id, &mut seen).await;
            acts += 1;
            over = reply["over"] == true
                || seen
                    .iter()
                    .any(|v| v["over"] == true || code(v) == "GAME_OVER");
            if code(&reply) == "GAME_OVER" {
                break;
            }
            assert!(acts < 5_000, "the matches do not end");
        }
        let seqs: Vec<u64> = seen.iter().filter_map(|v| v["turnSeq"].as_u64()).collect();
        assert!(
            seqs.windows(2).all(|w| w[0] <= w[1]),
            "turnSeq went back on one socket: {seqs:?}"
        );
    }
    assert!(acts > 40, "{acts}");
}
