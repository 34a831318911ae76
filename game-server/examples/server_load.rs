//! Load: `cargo run --release -p party-games-server --example server_load -- --matches 1000`.
//!
//! Starts the server in-process on a free port over a SQLite file in a temporary folder
//! (bots move at once), creates `--matches` bot-vs-bot Yut matches over a few WebSockets
//! that watch them to the end, and meanwhile plays `--humans` matches of a client against
//! a bot, timing each `act` to its own `update` push. Prints the actions per second and
//! the act→push p50/p99. A measurement, not a test: it asserts only that every match ends
//! without an error.
//!
//! `--db postgres://...` runs the in-process server on PostgreSQL; `--connect A,B,C`
//! drives running instances instead (started with lifted quotas and no bot delay, e.g. by
//! `scripts/cluster`): the bot sockets are spread over them, and each client match is
//! created at one instance and played from the next, so its acts and pushes are routed.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use party_games_server::{Config, open_store, serve};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Load over WebSockets against an in-process server.
#[derive(Parser)]
struct Args {
    /// Bot-vs-bot matches.
    #[arg(long, default_value_t = 1000)]
    matches: usize,
    /// Sockets that create and watch them.
    #[arg(long, default_value_t = 8)]
    sockets: usize,
    /// Matches of a client against a bot, timed act to push.
    #[arg(long, default_value_t = 20)]
    humans: usize,
    /// The database file or PostgreSQL URL (default: a SQLite file in a temporary
    /// folder, removed after).
    #[arg(long)]
    db: Option<String>,
    /// Drive these running instances (comma-separated HOST:PORT) instead of an
    /// in-process server.
    #[arg(long, value_delimiter = ',')]
    connect: Vec<String>,
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn recv(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await
            .expect("a message within 120 s")
            .expect("open")
            .expect("a frame");
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).expect("JSON");
        }
    }
}

/// Sends `req` and returns its reply; pushes read meanwhile go to `on_push`.
async fn call(ws: &mut Ws, req: Value, on_push: &mut impl FnMut(Value)) -> Value {
    ws.send(Message::Text(req.to_string().into()))
        .await
        .expect("send");
    loop {
        let v = recv(ws).await;
        if v.get("push").is_some() {
            on_push(v);
        } else {
            assert_eq!(v["ok"], true, "{v}");
            return v;
        }
    }
}

/// Creates and watches `n` bot matches on one socket; returns the actions they took.
async fn bots(addr: String, n: usize) -> u64 {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("connect");
    let mut open: HashSet<String> = HashSet::new();
    let mut over: HashSet<String> = HashSet::new();
    let mut actions = 0u64;
    let seen = |p: Value, over: &mut HashSet<String>, actions: &mut u64| {
        if p["over"] == true && over.insert(p["match"].as_str().unwrap_or_default().to_owned()) {
            *actions += p["turnSeq"].as_u64().unwrap_or(0);
        }
    };
    for _ in 0..n {
        let created = call(
            &mut ws,
            json!({"op": "create", "game": "yut", "players": ["a", "b"], "bots": {"a": "random", "b": "policy"}}),
            &mut |p| seen(p, &mut over, &mut actions),
        )
        .await;
        let m = created["match"].as_str().expect("id").to_owned();
        let watched = call(&mut ws, json!({"op": "watch", "match": m}), &mut |p| {
            seen(p, &mut over, &mut actions)
        })
        .await;
        if watched["over"] == true && over.insert(m.clone()) {
            actions += watched["turnSeq"].as_u64().unwrap_or(0);
        }
        open.insert(m);
    }
    while over.len() < open.len() {
        let p = recv(&mut ws).await;
        seen(p, &mut over, &mut actions);
    }
    actions
}

/// Plays one match against a policy bot, created at `at` and played from `addr`;
/// returns each act's time to its own push.
async fn human(at: String, addr: String) -> Vec<Duration> {
    let (mut creator, _) = tokio_tungstenite::connect_async(format!("ws://{at}/ws"))
        .await
        .expect("connect");
    let created = call(
        &mut creator,
        json!({"op": "create", "game": "yut", "players": ["me", "bot"], "bots": {"bot": "policy"}}),
        &mut drop,
    )
    .await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("connect");
    let m = created["match"].as_str().expect("id").to_owned();
    let token = created["seats"][0]["token"].clone();
    let mut last = call(
        &mut ws,
        json!({"op": "hello", "match": m, "token": token}),
        &mut drop,
    )
    .await;
    let mut times = Vec::new();
    while last["over"] != true {
        let mut moved = false;
        let legal = call(&mut ws, json!({"op": "legal", "match": m}), &mut |p| {
            last = p;
            moved = true;
        })
        .await;
        let Some(action) = legal["actions"].as_array().and_then(|a| a.first()).cloned() else {
            // The bot's turn: wait for its move, unless one came while asking.
            if !moved {
                last = recv(&mut ws).await;
            }
            continue;
        };
        let start = Instant::now();
        let mut pushes = Vec::new();
        let reply = call(
            &mut ws,
            json!({"op": "act", "match": m, "action": action}),
            &mut |p| pushes.push(p),
        )
        .await;
        let seq = reply["turnSeq"].as_u64();
        loop {
            let p = match pushes.pop() {
                Some(p) => p,
                None => recv(&mut ws).await,
            };
            if p["turnSeq"].as_u64() >= seq {
                times.push(start.elapsed());
                last = p;
                break;
            }
        }
    }
    times
}

fn main() {
    let args = Args::parse();
    let dir = std::env::temp_dir().join(format!("server-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = args
        .db
        .clone()
        .unwrap_or_else(|| dir.join("load.sqlite").display().to_string());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        if !args.connect.is_empty() {
            run(&args, &args.connect).await;
            return;
        }
        let store = open_store(&db, Duration::from_secs(10)).expect("store");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr").to_string();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        // The load is many matches from a few sockets on one address: the per-client
        // quotas and the create rate are lifted (the caps in all stay).
        let config = Config {
            bot_delay: Duration::ZERO,
            matches_per_socket: usize::MAX,
            matches_per_address: usize::MAX,
            creates_per_minute: u32::MAX,
            create_burst: u32::MAX,
            ..Config::default()
        };
        let games = game_host::registry();
        let server = tokio::spawn(serve(listener, store, games, config, async {}, async {
            let _ = stopped.await;
        }));
        run(&args, std::slice::from_ref(&addr)).await;
        let _ = stop.send(());
        let _ = server.await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// The load over the instances at `addrs`, and its figures printed.
async fn run(args: &Args, addrs: &[String]) {
    {
        let at = |i: usize| addrs[i % addrs.len()].clone();
        let start = Instant::now();
        let per = args.matches.div_ceil(args.sockets.max(1));
        let mut tasks = Vec::new();
        let mut left = args.matches;
        while left > 0 {
            let n = per.min(left);
            left -= n;
            tasks.push(tokio::spawn(bots(at(tasks.len()), n)));
        }
        let people: Vec<_> = (0..args.humans)
            .map(|i| tokio::spawn(human(at(i), at(i + 1))))
            .collect();
        let mut actions = 0;
        for t in tasks {
            actions += t.await.expect("bot socket");
        }
        let mut times = Vec::new();
        for t in people {
            times.extend(t.await.expect("human socket"));
        }
        let elapsed = start.elapsed();
        times.sort();
        let q = |f: f64| {
            times
                .get(((times.len() as f64 - 1.0) * f).round() as usize)
                .copied()
                .unwrap_or_default()
        };
        println!(
            "{} bot matches + {} client matches: {} actions in {:.1} s = {:.0} actions/s; act->push over {} acts: p50 {:.1} ms, p99 {:.1} ms",
            args.matches,
            args.humans,
            actions + times.len() as u64,
            elapsed.as_secs_f64(),
            (actions + times.len() as u64) as f64 / elapsed.as_secs_f64(),
            times.len(),
            q(0.5).as_secs_f64() * 1e3,
            q(0.99).as_secs_f64() * 1e3,
        );
    }
}
