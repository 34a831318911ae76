//! The board's files as a browser meets them: the security headers on every file.

mod common;

use common::{Server, TempDb};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The board's files, as the page loads them.
const FILES: [&str; 4] = ["/", "/board.css", "/board.js", "/nodes.js"];

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
