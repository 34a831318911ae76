//! The board's files and the WebSocket endpoint as a browser meets them: the security
//! headers on every file, and WebSocket upgrades refused from other origins.

mod common;

use common::{Server, TempDb};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The board's files, as the page loads them.
const FILES: [&str; 7] = [
    "/",
    "/board.css",
    "/board.js",
    "/nodes.js",
    "/onecard.js",
    "/words.js",
    "/help.js",
];

/// Sends `request` on a fresh connection and returns the response head: the status code
/// and the headers (names lowercased), once the head is read whole.
async fn head(addr: &str, request: String) -> (u16, Vec<(String, String)>) {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        let read = tokio::time::timeout(std::time::Duration::from_secs(10), tcp.read(&mut b))
            .await
            .expect("a response within 10 s")
            .unwrap();
        assert_eq!(
            read,
            1,
            "closed mid-head: {}",
            String::from_utf8_lossy(&head)
        );
        head.push(b[0]);
    }
    let text = String::from_utf8(head).unwrap();
    let mut lines = text.split("\r\n");
    let status = lines.next().unwrap();
    let code = status
        .strip_prefix("HTTP/1.1 ")
        .and_then(|s| s.get(..3))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("status line {status:?}"));
    let headers = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (k, v) = l.split_once(':').unwrap();
            (k.trim().to_ascii_lowercase(), v.trim().to_owned())
        })
        .collect();
    (code, headers)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Vec<&'a str> {
    headers
        .iter()
        .filter(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .collect()
}

/// The status of a WebSocket upgrade sent with `host` and, if any, `origin`.
async fn upgrade(addr: &str, host: &str, origin: Option<&str>) -> u16 {
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    head(
        addr,
        format!(
            "GET /ws HTTP/1.1\r\nHost: {host}\r\n{origin}Upgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\n\r\n"
        ),
    )
    .await
    .0
}

#[tokio::test]
async fn every_file_of_the_board_is_sent_with_the_security_headers() {
    let db = TempDb::new("page-headers");
    let server = Server::start(&db.path(), 0);
    for path in FILES {
        let (code, headers) = head(
            &server.addr,
            format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                server.addr
            ),
        )
        .await;
        assert_eq!(code, 200, "{path}");
        let csp = header(&headers, "content-security-policy");
        assert_eq!(csp.len(), 1, "{path}: {headers:?}");
        let directives: Vec<&str> = csp[0].split(';').map(str::trim).collect();
        for wanted in ["default-src 'self'", "frame-ancestors 'none'"] {
            assert!(directives.contains(&wanted), "{path}: {wanted} in {csp:?}");
        }
        assert!(!csp[0].contains("unsafe-inline"), "{path}: {csp:?}");
        assert!(!csp[0].contains("unsafe-eval"), "{path}: {csp:?}");
        assert_eq!(
            header(&headers, "x-content-type-options"),
            ["nosniff"],
            "{path}"
        );
        assert_eq!(
            header(&headers, "referrer-policy"),
            ["no-referrer"],
            "{path}"
        );
        assert_eq!(header(&headers, "content-type").len(), 1, "{path}");
    }
}

#[tokio::test]
async fn websocket_upgrades_from_other_origins_are_refused() {
    let db = TempDb::new("page-origin");
    let server = Server::start_with(
        &db.path(),
        0,
        &[
            "--allow-origin",
            "https://Allowed.example",
            "--allow-origin",
            "http://other.example:8443",
        ],
    );
    let addr = server.addr.as_str();
    let port = addr.rsplit_once(':').unwrap().1;
    let cases: [(Option<String>, u16); 14] = [
        (None, 101),
        (Some(format!("http://{addr}")), 101),
        (Some(format!("http://localhost:{port}")), 403),
        (Some("https://allowed.example".into()), 101),
        (Some("https://ALLOWED.example:443".into()), 101),
        (Some("http://other.example:8443".into()), 101),
        (Some("http://allowed.example".into()), 403),
        (Some("http://other.example".into()), 403),
        (Some("http://evil.example".into()), 403),
        (Some(format!("http://{addr}.evil.example")), 403),
        (Some("https://allowed.example/".into()), 403),
        (Some("null".into()), 403),
        (Some("https://allowed.example.evil.example".into()), 403),
        (Some("http://user@allowed.example".into()), 403),
    ];
    for (origin, wanted) in cases {
        assert_eq!(
            upgrade(addr, addr, origin.as_deref()).await,
            wanted,
            "Origin {origin:?}"
        );
    }
    // The page's own host is the request's `Host`, whatever name it is reached by.
    assert_eq!(
        upgrade(
            addr,
            &format!("LocalHost:{port}"),
            Some(&format!("http://localhost:{port}"))
        )
        .await,
        101
    );
    // A refused upgrade leaves the server serving the others.
    assert_eq!(upgrade(addr, addr, None).await, 101);
}

#[tokio::test]
async fn a_server_without_allowed_origins_takes_only_its_own_page() {
    let db = TempDb::new("page-origin-none");
    let server = Server::start(&db.path(), 0);
    let addr = server.addr.as_str();
    assert_eq!(upgrade(addr, addr, None).await, 101);
    assert_eq!(
        upgrade(addr, addr, Some(&format!("http://{addr}"))).await,
        101
    );
    assert_eq!(upgrade(addr, addr, Some("http://evil.example")).await, 403);
    assert_eq!(upgrade(addr, addr, Some("http://%zz")).await, 403);
}

#[tokio::test]
async fn a_page_served_under_a_name_needs_that_name_allowed() {
    let db = TempDb::new("page-host");
    let server = Server::start_with(&db.path(), 0, &["--allow-host", "Games.example"]);
    let addr = server.addr.as_str();
    let port = addr.rsplit_once(':').unwrap().1;
    let own = |host: &str| (format!("{host}:{port}"), format!("http://{host}:{port}"));
    // A DNS-rebinding page: its name points at this server, and its Origin and Host agree.
    let (host, origin) = own("evil.example");
    assert_eq!(upgrade(addr, &host, Some(&origin)).await, 403);
    let (host, origin) = own("games.example");
    assert_eq!(upgrade(addr, &host, Some(&origin)).await, 101);
    let (host, origin) = own("localhost");
    assert_eq!(upgrade(addr, &host, Some(&origin)).await, 101);
    assert_eq!(
        upgrade(addr, addr, Some(&format!("http://{addr}"))).await,
        101
    );
}

#[test]
fn a_malformed_allow_host_stops_the_server_at_start() {
    let out = std::process::Command::new(common::binary())
        .args(["--addr", "127.0.0.1:0", "--db", ":memory:"])
        .args(["--allow-host", "games.example:8080"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "it listened");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("allowed host"), "{stderr}");
}

#[test]
fn a_malformed_allow_origin_stops_the_server_at_start() {
    let out = std::process::Command::new(common::binary())
        .args([
            "--addr",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--allow-origin",
            "https://allowed.example/",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "it listened");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--allow-origin"), "{stderr}");
    assert!(stderr.contains("not an origin"), "{stderr}");
}
