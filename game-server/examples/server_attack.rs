//! What untrusted clients can take from a running server, measured from loopback:
//! `cargo run -p party-games-server --example server_attack -- --addr HOST:PORT --pid PID MODE`.
//!
//! - `idle --sockets 10000`: the server's resident memory (`VmRSS` of `/proc/PID/status`)
//!   before and after that many idle WebSockets are open; prints the bytes per socket.
//!   Each socket is a file descriptor on both sides: the open-file limit (`ulimit -n`)
//!   of this process and of the server must exceed the count.
//! - `flood --secs 20`: one socket creating (open) matches as fast as replies come;
//!   prints how many were created and how many refused, by code.
//! - `slow --sockets 200 --kib 2048`: each socket sends a text message in fragments up to
//!   that size and never finishes it, pinging between fragments; prints the server's
//!   memory each second and when the server closed the sockets.
//! - `flips --secs 20`: one socket alternating `watch` and `hello` on its seat of a match
//!   as fast as replies come, the other seat bound on a socket of its own; then the
//!   flipper concedes. Prints the flips made and refused (by code), the presence pushes
//!   the other seat got, the record's presence entries and size, and the server's memory.
//! - `records --sockets 50 --secs 12`: a flip flood (as `flips`, 5 s) and a concession,
//!   then that many unbound sockets asking the match's `record` as fast as replies come,
//!   while a bystander plays rps on a match of its own. Prints the replies served and
//!   refused (by code), the bytes served per second, the server's memory before and at
//!   its peak, and the bystander's `act` time at the median and the 99th percentile.
//!
//! A measurement, not a test: it asserts nothing about the figures.

use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

/// Attacks a running server and reports what it cost the server.
#[derive(Parser)]
struct Args {
    /// The server's address.
    #[arg(long)]
    addr: String,
    /// The server's process id (its memory is read from /proc).
    #[arg(long)]
    pid: u32,
    #[command(subcommand)]
    mode: Mode,
}

#[derive(Subcommand)]
enum Mode {
    /// Idle WebSockets: the server's memory per socket.
    Idle {
        #[arg(long, default_value_t = 10_000)]
        sockets: usize,
    },
    /// One socket creating matches as fast as it can.
    Flood {
        #[arg(long, default_value_t = 20)]
        secs: u64,
    },
    /// Messages begun and never finished, kept alive with pings.
    Slow {
        #[arg(long, default_value_t = 200)]
        sockets: usize,
        /// How much of the message each socket sends, in KiB.
        #[arg(long, default_value_t = 2048)]
        kib: usize,
        /// How long to watch, in seconds.
        #[arg(long, default_value_t = 120)]
        secs: u64,
    },
    /// One socket flipping its seat's presence (`watch`, `hello`, again).
    Flips {
        #[arg(long, default_value_t = 20)]
        secs: u64,
    },
    /// Many sockets asking a finished match's record, a bystander playing meanwhile.
    Records {
        #[arg(long, default_value_t = 50)]
        sockets: usize,
        #[arg(long, default_value_t = 12)]
        secs: u64,
    },
}

/// A socket with request ids: replies by id, pushes counted.
struct Conn {
    ws: Ws,
    next: u64,
    /// Presence pushes read (an update whose events hold a `presenceChanged`).
    presence_pushes: u64,
    /// Bytes of replies read.
    bytes: u64,
}

impl Conn {
    async fn open(addr: &str) -> Self {
        Self {
            ws: connect(addr).await,
            next: 0,
            presence_pushes: 0,
            bytes: 0,
        }
    }

    /// Sends `req` and returns its reply (`None` if the socket ended).
    async fn req(&mut self, mut req: Value) -> Option<Value> {
        self.next += 1;
        req["id"] = json!(self.next);
        self.ws
            .send(Message::Text(req.to_string().into()))
            .await
            .ok()?;
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).expect("JSON");
                    if v.get("push").is_some() {
                        self.count_push(&v);
                        continue;
                    }
                    self.bytes += t.len() as u64;
                    return Some(v);
                }
                Some(Ok(_)) => {}
                _ => return None,
            }
        }
    }

    fn count_push(&mut self, push: &Value) {
        let presence = push["events"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e["type"] == "presenceChanged"));
        self.presence_pushes += u64::from(presence);
    }

    /// Reads the pushes already sent, for `wait`.
    async fn drain(&mut self, wait: Duration) {
        let until = tokio::time::Instant::now() + wait;
        while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(until, self.ws.next()).await {
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(&t).expect("JSON");
                self.count_push(&v);
            }
        }
    }
}

/// A new two-person rps match without a clock: its id and the seats' tokens.
async fn rps_match(c: &mut Conn) -> (String, String, String) {
    let created = c
        .req(json!({"op": "create", "game": "rps", "players": ["a", "b"],
            "options": {"turnSeconds": null, "winsNeeded": 9}}))
        .await
        .expect("created");
    assert_eq!(created["ok"], true, "{created}");
    let token = |p: &str| {
        created["seats"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["player"] == p))
            .and_then(|s| s["token"].as_str())
            .expect("a seat")
            .to_owned()
    };
    (
        created["match"].as_str().expect("an id").to_owned(),
        token("a"),
        token("b"),
    )
}

/// Flips seat `a` of a new match for `secs`, then concedes: the match id, the flips made,
/// the refusals by code, and the other seat's socket.
async fn flip_flood(
    addr: &str,
    secs: u64,
) -> (String, u64, std::collections::BTreeMap<String, u64>, Conn) {
    let mut a = Conn::open(addr).await;
    let (m, ta, tb) = rps_match(&mut a).await;
    let mut b = Conn::open(addr).await;
    let hello = |t: &str| json!({"op": "hello", "match": &m, "token": t});
    assert_eq!(b.req(hello(&tb)).await.expect("b")["ok"], true);
    assert_eq!(a.req(hello(&ta)).await.expect("a")["ok"], true);
    let until = Instant::now() + Duration::from_secs(secs);
    let mut flips = 0u64;
    let mut refused: std::collections::BTreeMap<String, u64> = Default::default();
    while Instant::now() < until {
        for req in [json!({"op": "watch", "match": &m}), hello(&ta)] {
            let Some(reply) = a.req(req).await else { break };
            if reply["ok"] == true {
                flips += 1;
            } else {
                let code = reply["error"]["code"].as_str().unwrap_or("?").to_owned();
                *refused.entry(code).or_default() += 1;
            }
        }
    }
    // Bound again (a refused `hello` leaves it watching: waits as told), then out.
    loop {
        let Some(reply) = a.req(hello(&ta)).await else {
            break;
        };
        if reply["ok"] == true {
            break;
        }
        let wait = reply["error"]["reason"]["retryAfterMs"]
            .as_u64()
            .unwrap_or(100);
        tokio::time::sleep(Duration::from_millis(wait.min(5_000))).await;
    }
    let conceded = a
        .req(json!({"op": "act", "match": &m, "action": {"type": "CONCEDE"}}))
        .await;
    assert!(
        conceded.as_ref().is_some_and(|c| c["ok"] == true),
        "{conceded:?}"
    );
    (m, flips, refused, b)
}

async fn flips(addr: &str, pid: u32, secs: u64) {
    let before = rss(pid);
    let (m, flips, refused, mut b) = flip_flood(addr, secs).await;
    b.drain(Duration::from_secs(2)).await;
    let record = b
        .req(json!({"op": "record", "match": &m}))
        .await
        .expect("a record");
    let entries = record["record"]["entries"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let presence = entries.iter().filter(|e| e["kind"] == "presence").count();
    println!(
        "flips: {secs} s on one seat: {flips} binds served, refused {refused:?}; \
         the other seat got {} presence pushes; the record holds {} entries \
         ({presence} presence), {} bytes; server RSS {:.1} MB -> {:.1} MB",
        b.presence_pushes,
        entries.len(),
        record.to_string().len(),
        before as f64 / 1e6,
        rss(pid) as f64 / 1e6
    );
}

/// Asks `record` of `m` as fast as replies come until `until`: replies served, bytes
/// served, refusals by code.
async fn ask_records(
    addr: String,
    m: String,
    until: Instant,
) -> (u64, u64, std::collections::BTreeMap<String, u64>) {
    let mut c = Conn::open(&addr).await;
    let (mut served, mut refused) = (0u64, std::collections::BTreeMap::new());
    while Instant::now() < until {
        let Some(reply) = c.req(json!({"op": "record", "match": &m})).await else {
            break;
        };
        if reply["ok"] == true {
            served += 1;
        } else {
            let code = reply["error"]["code"].as_str().unwrap_or("?").to_owned();
            *refused.entry(code).or_default() += 1;
            // A client told to wait: waits (a hostile one gains nothing by not waiting).
            let wait = reply["error"]["reason"]["retryAfterMs"]
                .as_u64()
                .unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(wait.min(1_000))).await;
        }
    }
    (served, c.bytes, refused)
}

/// A bystander playing rps until `until` (rounds tied, so the match goes on): each
/// `act`'s time.
async fn bystander(addr: String, until: Instant) -> Vec<Duration> {
    let mut c = Conn::open(&addr).await;
    let mut times = Vec::new();
    while Instant::now() < until {
        let (m, ta, tb) = rps_match(&mut c).await;
        let mut a = Conn::open(&addr).await;
        let mut b = Conn::open(&addr).await;
        a.req(json!({"op": "hello", "match": &m, "token": ta}))
            .await;
        b.req(json!({"op": "hello", "match": &m, "token": tb}))
            .await;
        'round: while Instant::now() < until {
            // Ties: the match never ends, so one create does for the whole run.
            for (s, hand) in [(&mut a, "rock"), (&mut b, "rock")] {
                let asked = Instant::now();
                let reply = s
                    .req(json!({"op": "act", "match": &m,
                        "action": {"type": "PICK", "hand": hand}}))
                    .await;
                times.push(asked.elapsed());
                if reply.is_none_or(|r| r["ok"] != true || r["over"] == true) {
                    break 'round;
                }
            }
        }
    }
    times
}

async fn records(addr: &str, pid: u32, n: usize, secs: u64) {
    let (m, _, _, _b) = flip_flood(addr, 5).await;
    let before = rss(pid);
    let started = Instant::now();
    let until = started + Duration::from_secs(secs);
    let askers: Vec<_> = (0..n)
        .map(|_| tokio::spawn(ask_records(addr.to_owned(), m.clone(), until)))
        .collect();
    let by = tokio::spawn(bystander(addr.to_owned(), until));
    let mut peak = before;
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(250)).await;
        peak = peak.max(rss(pid));
    }
    let (mut served, mut bytes) = (0u64, 0u64);
    let mut refused: std::collections::BTreeMap<String, u64> = Default::default();
    for t in askers {
        let (s, b, r) = t.await.expect("asker");
        served += s;
        bytes += b;
        for (code, k) in r {
            *refused.entry(code).or_default() += k;
        }
    }
    let mut times = by.await.expect("bystander");
    times.sort();
    let at = |q: f64| {
        times
            .get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "records: {n} sockets for {secs} s: {served} records served ({:.2} MB/s), refused \
         {refused:?}; server RSS {:.1} MB -> peak {:.1} MB; a bystander's act (n = {}): \
         median {:.1} ms, p99 {:.1} ms",
        bytes as f64 / 1e6 / elapsed,
        before as f64 / 1e6,
        peak as f64 / 1e6,
        times.len(),
        at(0.5),
        at(0.99)
    );
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The server's resident memory, in bytes.
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server runs");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("VmRSS")
        * 1024
}

async fn connect(addr: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("connected")
        .0
}

async fn idle(addr: &str, pid: u32, n: usize) {
    let before = rss(pid);
    let mut sockets = Vec::with_capacity(n);
    // A few connects at a time: the listen backlog is finite.
    let mut left = n;
    while left > 0 {
        let batch = left.min(100);
        left -= batch;
        let conns = (0..batch).map(|_| connect(addr));
        sockets.extend(futures_util::future::join_all(conns).await);
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = rss(pid);
    let per = (after.saturating_sub(before)) as f64 / n as f64;
    println!(
        "idle: {n} sockets, server RSS {:.1} MB -> {:.1} MB: {per:.0} bytes per socket",
        before as f64 / 1e6,
        after as f64 / 1e6
    );
    drop(sockets);
}

async fn flood(addr: &str, pid: u32, secs: u64) {
    let before = rss(pid);
    let mut ws = connect(addr).await;
    let until = Instant::now() + Duration::from_secs(secs);
    let mut created = 0u64;
    let mut refused: std::collections::BTreeMap<String, u64> = Default::default();
    let mut id = 0u64;
    while Instant::now() < until {
        id += 1;
        let req = json!({"op": "create", "game": "rps", "players": ["a", "b"],
            "options": {"turnSeconds": null}, "id": id});
        if ws
            .send(Message::Text(req.to_string().into()))
            .await
            .is_err()
        {
            break;
        }
        let reply = loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).expect("JSON");
                    if v["id"] == id {
                        break Some(v);
                    }
                }
                Some(Ok(_)) => {}
                _ => break None,
            }
        };
        let Some(reply) = reply else { break };
        if reply["ok"] == true {
            created += 1;
        } else {
            let code = reply["error"]["code"].as_str().unwrap_or("?").to_owned();
            *refused.entry(code).or_default() += 1;
        }
    }
    println!(
        "flood: {secs} s on one socket: {created} matches created, refused {refused:?}; \
         server RSS {:.1} MB -> {:.1} MB",
        before as f64 / 1e6,
        rss(pid) as f64 / 1e6
    );
}

/// Sends `kib` of a text message in fragments of at most 64 KiB, an eighth of it when
/// smaller (a ping after each, 250 ms apart),
/// then pings every second without finishing it. Returns when the server ended the
/// socket: how long after the first fragment, or `None` if it did not within `secs`.
async fn slow_one(addr: String, kib: usize, secs: u64) -> Option<Duration> {
    let mut ws = connect(&addr).await;
    let started = Instant::now();
    let until = started + Duration::from_secs(secs);
    let total = kib * 1024;
    let chunk = (total / 8).clamp(1, 64 * 1024);
    let mut sent = 0;
    let mut first = true;
    loop {
        if Instant::now() >= until {
            return None;
        }
        let step = if sent + chunk <= total {
            let op = if first {
                OpCode::Data(Data::Text)
            } else {
                OpCode::Data(Data::Continue)
            };
            first = false;
            sent += chunk;
            ws.send(Message::Frame(Frame::message(vec![b'x'; chunk], op, false)))
                .await
                .and(ws.send(Message::Ping(Default::default())).await)
        } else {
            ws.send(Message::Ping(Default::default())).await
        };
        if step.is_err() {
            return Some(started.elapsed());
        }
        let wait = if sent + chunk <= total { 250 } else { 1000 };
        let end = tokio::time::timeout(Duration::from_millis(wait), async {
            loop {
                match ws.next().await {
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                    Some(Ok(_)) => {}
                }
            }
        })
        .await;
        if end.is_ok() {
            return Some(started.elapsed());
        }
    }
}

async fn slow(addr: &str, pid: u32, n: usize, kib: usize, secs: u64) {
    let before = rss(pid);
    let tasks: Vec<_> = (0..n)
        .map(|_| tokio::spawn(slow_one(addr.to_owned(), kib, secs)))
        .collect();
    let started = Instant::now();
    let mut peak = before;
    while tasks.iter().any(|t| !t.is_finished()) {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = rss(pid);
        peak = peak.max(now);
        let open = tasks.iter().filter(|t| !t.is_finished()).count();
        println!(
            "slow: {:>3} s: server RSS {:.1} MB, {open} sockets held",
            started.elapsed().as_secs(),
            now as f64 / 1e6
        );
    }
    let mut ends = Vec::new();
    for t in tasks {
        ends.push(t.await.expect("task"));
    }
    let held = ends.iter().filter(|e| e.is_none()).count();
    let last = ends.iter().flatten().max().copied().unwrap_or_default();
    println!(
        "slow: {n} sockets x {kib} KiB unfinished: server RSS {:.1} MB -> peak {:.1} MB \
         (+{:.1} MB); {held} still held after {secs} s, the others closed by {:.1} s",
        before as f64 / 1e6,
        peak as f64 / 1e6,
        (peak - before) as f64 / 1e6,
        last.as_secs_f64()
    );
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    match args.mode {
        Mode::Idle { sockets } => idle(&args.addr, args.pid, sockets).await,
        Mode::Flood { secs } => flood(&args.addr, args.pid, secs).await,
        Mode::Slow { sockets, kib, secs } => slow(&args.addr, args.pid, sockets, kib, secs).await,
        Mode::Flips { secs } => flips(&args.addr, args.pid, secs).await,
        Mode::Records { sockets, secs } => records(&args.addr, args.pid, sockets, secs).await,
    }
}
