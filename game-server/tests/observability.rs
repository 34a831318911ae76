//! Logs and metrics: `GET /metrics` on `--metrics-addr` only, with the server's figures;
//! JSON log lines that parse; ids from clients escaped in every log format.

mod common;

use std::io::{Read, Write};

use common::{Client, Server, TempDb, code, create, hello, token};
use serde_json::{Value, json};

/// `GET path` over plain HTTP/1.0: the whole response.
fn get(addr: &str, path: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

/// The metrics address `server` logged at start.
fn metrics_address(server: &Server) -> String {
    let err = server.stderr_until("metrics on http://", 30);
    err.split("metrics on http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap()
        .to_owned()
}

/// The value of a sample line `name value` (labels included in `name`).
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_served_on_their_own_address_only() {
    let db = TempDb::new("obs-metrics");
    let server = Server::start_with(&db.path(), 0, &["--metrics-addr", "127.0.0.1:0"]);
    let metrics_addr = metrics_address(&server);
    let mut c = Client::connect(&server.addr).await;
    let created = create(&mut c, "rps", &["a", "b"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();
    let mut a = hello(&server.addr, &m, &token(&created, "a")).await;
    let acted = a
        .req(json!({"op": "act", "match": &m, "action": {"type": "PICK", "hand": "rock"}}))
        .await;
    assert_eq!(acted["ok"], true, "{acted}");
    assert_eq!(code(&c.req(json!({"op": "fly"})).await), "UNKNOWN_OP");
    let text = get(&metrics_addr, "/metrics");
    assert!(
        text.starts_with("HTTP/1.0 200") || text.starts_with("HTTP/1.1 200"),
        "{text}"
    );
    assert_eq!(
        sample(&text, "game_server_connections"),
        Some(2.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "game_server_open_matches"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "game_server_actions_total"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, r#"game_server_refusals_total{code="UNKNOWN_OP"}"#),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "game_server_restore_pending"),
        Some(0.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "game_server_restored_total"),
        Some(0.0),
        "{text}"
    );
    // The create and the act: two commits at least.
    let commits = sample(&text, "game_server_commit_seconds_count").unwrap();
    assert!(commits >= 2.0, "{text}");
    assert!(
        sample(&text, r#"game_server_commit_groups_bucket{le="+Inf"}"#) == Some(commits),
        "{text}"
    );
    // Not on the public address.
    let public = get(&server.addr, "/metrics");
    assert!(!public.contains("game_server_"), "{public}");
}

/// A match id that tries to forge a log line and colour the terminal: as a text log
/// shows it, and as a JSON log does.
const HOSTILE: &str = "evil\nFAKE ERROR line\u{1b}[31mred";

/// Creates a match under the hostile id that nobody joins, and waits for the line that
/// closes it.
async fn log_hostile_id(flags: &[&str]) -> String {
    let db = TempDb::new(&format!("obs-logs-{}", flags.len()));
    let mut all = vec!["--unjoined-after-ms", "100"];
    all.extend_from_slice(flags);
    let server = Server::start_with(&db.path(), 0, &all);
    let mut c = Client::connect(&server.addr).await;
    let created = c
        .req(json!({"op": "create", "game": "rps", "players": ["a", "b"], "match": HOSTILE}))
        .await;
    assert_eq!(created["ok"], true, "{created}");
    server.stderr_until("closed: unjoined", 30)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_are_escaped_in_text_logs() {
    let err = log_hostile_id(&[]).await;
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(!err.lines().any(|l| l.starts_with("FAKE")), "{err}");
    assert!(
        err.contains(r"match evil\nFAKE ERROR line\u{1b}[31mred: closed: unjoined"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_log_lines_parse_and_keep_ids_escaped() {
    let err = log_hostile_id(&["--log-format", "json"]).await;
    assert!(!err.contains('\u{1b}'), "{err:?}");
    let lines: Vec<Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let closed = lines
        .iter()
        .find(|l| l["why"] == "unjoined")
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!(closed["level"], "INFO", "{closed}");
    assert_eq!(
        closed["match"], r"evil\nFAKE ERROR line\u{1b}[31mred",
        "{closed}"
    );
}

/// Whether the server closed `s` within `secs` (a read returns end of file or an error;
/// nothing arrives on a connection that sent no whole request).
fn closed_within(s: &mut std::net::TcpStream, secs: u64) -> bool {
    s.set_read_timeout(Some(std::time::Duration::from_secs(secs)))
        .unwrap();
    let mut buf = [0u8; 64];
    match s.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
    }
}

/// The metrics address holds at most 16 connections, and closes one that sends no whole
/// request head within the header timeout: nothing that reaches it holds the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_address_caps_and_times_its_connections() {
    let db = TempDb::new("obs-metrics-caps");
    let server = Server::start_with(
        &db.path(),
        0,
        &[
            "--metrics-addr",
            "127.0.0.1:0",
            "--header-timeout-ms",
            "1500",
        ],
    );
    let addr = metrics_address(&server);
    tokio::task::block_in_place(|| {
        let started = std::time::Instant::now();
        let mut held: Vec<_> = (0..16)
            .map(|_| {
                let mut s = std::net::TcpStream::connect(&addr).unwrap();
                s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
                    .unwrap();
                s
            })
            .collect();
        // Served in order of arrival: the 17th finds no room and is closed at once.
        std::thread::sleep(std::time::Duration::from_millis(200));
        let mut extra = std::net::TcpStream::connect(&addr).unwrap();
        assert!(
            closed_within(&mut extra, 1),
            "the 17th connection was served"
        );
        assert!(started.elapsed() < std::time::Duration::from_millis(1_400));
        // The slow heads are cut at the header timeout, and room is made again.
        for s in &mut held {
            assert!(closed_within(s, 5), "a slow request head was kept");
        }
        let text = get(&addr, "/metrics");
        assert!(text.contains(" 200 "), "{text}");
    });
}
