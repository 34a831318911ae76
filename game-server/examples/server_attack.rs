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
    }
}
