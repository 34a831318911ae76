//! HTTP: the connections (with their time limits), the health check, the board's files
//! (with their security headers) and the WebSocket endpoint (with its Origin check).

use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::Router;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::uri::{Authority, Scheme};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::json;

use crate::limits::{Connection, Counted, Inflow, Peer, Refused, client_address};
use crate::{READ_BUFFER, Shared, session};

/// The board's files, compiled in so the binary serves them from anywhere (no build
/// step: plain HTML, CSS and JavaScript modules).
const FILES: [(&str, &str, &str); 7] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../static/index.html"),
    ),
    (
        "/board.css",
        "text/css; charset=utf-8",
        include_str!("../static/board.css"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/board.js"),
    ),
    (
        "/nodes.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/nodes.js"),
    ),
    (
        "/onecard.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/onecard.js"),
    ),
    (
        "/words.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/words.js"),
    ),
    (
        "/help.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/help.js"),
    ),
];

/// Sent with every file of the board. The page's scripts and styles are its own files
/// (no inline script, no `style` attribute in the HTML): a player id or any other wire
/// text that ever reached the DOM as markup still could not run. `connect-src` falls
/// back to `'self'`, which covers the page's own `ws:`/`wss:` origin. No framing
/// (clickjacking a seat), no MIME sniffing, and no `Referer`: a seat link carries its
/// token.
const SECURITY_HEADERS: [(header::HeaderName, &str); 3] = [
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'none'",
    ),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
];

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let mut app = Router::new()
        .route("/health", get(|| async { Json(json!({ "ok": true })) }))
        .route("/ws", get(ws));
    for (path, mime, text) in FILES {
        app = app.route(
            path,
            get(move || async move {
                (SECURITY_HEADERS, [(header::CONTENT_TYPE, mime)], text).into_response()
            }),
        );
    }
    app.with_state(shared)
}

/// Accepts connections until `shutdown` resolves. Each is served by hyper's HTTP/1 with
/// a header read timeout (`axum::serve` has none, so a connection that never finishes
/// its request head, or never sends a byte, would stay open for ever); at shutdown every
/// connection is told to close once its request is answered.
pub(crate) async fn accept(
    shared: &Arc<Shared>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let app = router(shared.clone());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            // The signal first: a queue of connections waiting must not keep it unheard.
            biased;
            () = &mut shutdown => return,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: the error repeats until a
                    // connection closes, so wait a little instead of spinning.
                    if !matches!(
                        e.kind(),
                        std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset
                    ) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            },
        };
        // TCP_NODELAY: a reply or push is one small frame that must leave at once, not
        // wait for the peer's delayed ACK (Nagle's algorithm adds ~40 ms to each act→push).
        let _ = tcp.set_nodelay(true);
        let open = shared.open.subscribe();
        let mut closing = shared.closing.clone();
        // The connection's reads are counted (a WebSocket's message is timed from them),
        // and every request knows its peer.
        let inflow = Inflow::new();
        let tcp = Counted {
            io: tcp,
            inflow: inflow.clone(),
        };
        let peer = Peer {
            ip: peer.ip(),
            inflow,
        };
        let inner = TowerToHyperService::new(app.clone());
        let service = hyper::service::service_fn(move |mut req| {
            req.extensions_mut().insert(peer.clone());
            hyper::service::Service::call(&inner, req)
        });
        let header_timeout = shared.config.header_timeout;
        tokio::spawn(async move {
            let _open = open;
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = http
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = closing.wait_for(|c| *c) => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
}

async fn ws(
    State(shared): State<Arc<Shared>>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    // The Origin first, so that a page elsewhere learns nothing but the refusal.
    let config = &shared.config;
    match origin_allowed(&headers, &config.allowed_origins, &config.allowed_hosts) {
        OriginCheck::Allowed => {}
        OriginCheck::Refused => {
            return (StatusCode::FORBIDDEN, "origin not allowed\n").into_response();
        }
        OriginCheck::HostNotListed => {
            let body = "origin not allowed: a page served under a host name needs that \
                        name listed as an allowed host\n";
            return (StatusCode::FORBIDDEN, body).into_response();
        }
    }
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return rejection.into_response(),
    };
    let connection = match admit(&shared, &peer, &headers) {
        Ok(c) => c,
        Err(refused) => return refused.into_response(),
    };
    let max = shared.config.max_message;
    // A message between the request cap and the message cap gets `TOO_LARGE`; a longer
    // one closes the socket with 1009. The buffers are small (an idle socket holds them
    // for its whole life); a write is sent at once rather than gathered, and the write
    // buffer never holds more than the pushes a socket may have queued.
    upgrade
        .max_message_size(max)
        .max_frame_size(max.saturating_mul(2))
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(shared.config.push_queue_bytes.max(max))
        .on_upgrade(move |socket| session::run(shared, socket, connection, peer.inflow))
}

/// The caps on WebSocket connections, at the upgrade: refused with 503 when the server
/// holds its most in all, 429 when the client's address holds its most (the body says
/// which).
fn admit(
    shared: &Arc<Shared>,
    peer: &Peer,
    headers: &HeaderMap,
) -> Result<Connection, (StatusCode, String)> {
    let config = &shared.config;
    let address = client_address(peer.ip, headers, config.client_ip_header.as_deref());
    shared
        .limits
        .connect(config, address)
        .map_err(|refused| match refused {
            Refused::Total(max) => (
                StatusCode::SERVICE_UNAVAILABLE,
                format!("too many connections: the server holds its most ({max})\n"),
            ),
            Refused::Address(max) => (
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many connections from this address (at most {max})\n"),
            ),
        })
}

/// What the Origin check decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OriginCheck {
    Allowed,
    Refused,
    /// The page's own host by `Host`, but a name not listed: refused, and said so, since
    /// an operator serving the page under a name meets this first.
    HostNotListed,
}

/// Whether a WebSocket upgrade may go on. A browser sends the page's origin with every
/// upgrade and lets any page open a socket anywhere (no same-origin rule for WebSockets):
/// without this check, any site a user visits could play their seats on a server on
/// their machine or network. Allowed: no `Origin` at all (not a browser page: bots, the
/// load test, command-line clients), the page's own host (the Origin's host and port are
/// the request's `Host`) when that host is trusted ([`host_trusted`]), and the configured
/// origins. Anything else, a malformed Origin or several included, is refused.
fn origin_allowed(headers: &HeaderMap, origins: &[String], hosts: &[String]) -> OriginCheck {
    let mut values = headers.get_all(header::ORIGIN).iter();
    let Some(value) = values.next() else {
        return OriginCheck::Allowed;
    };
    if values.next().is_some() {
        return OriginCheck::Refused;
    }
    let Some(origin) = value.to_str().ok().and_then(|v| Origin::parse(v).ok()) else {
        return OriginCheck::Refused;
    };
    let listed = |origin: &Origin| {
        let origin = origin.to_string();
        origins
            .iter()
            .any(|a| Origin::parse(a).is_ok_and(|a| a.to_string() == origin))
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if origin.is_web()
        && let Some((host, port)) = host.and_then(|h| authority(h).ok())
        && host == origin.host
        && port.or(origin.default_port()) == origin.port()
    {
        return if host_trusted(&host, hosts) || listed(&origin) {
            OriginCheck::Allowed
        } else {
            OriginCheck::HostNotListed
        };
    }
    if listed(&origin) {
        OriginCheck::Allowed
    } else {
        OriginCheck::Refused
    }
}

/// Whether the page's own host (a request's `Host`, lowercased, without its port) may
/// open a WebSocket on that alone: an IP address, `localhost` or a name under it, or a
/// name listed in [`Config::allowed_hosts`](crate::Config::allowed_hosts). Any other name
/// could be a DNS-rebinding page's: a site whose name its owner points at this server's
/// address once the page has loaded, so that its Origin and the `Host` its requests carry
/// agree although the page is theirs.
fn host_trusted(host: &str, listed: &[String]) -> bool {
    // `authority` has checked that a host in brackets is an IPv6 address.
    host.parse::<Ipv4Addr>().is_ok()
        || host.starts_with('[')
        || host == "localhost"
        || host.ends_with(".localhost")
        || listed.iter().any(|name| name.eq_ignore_ascii_case(host))
}

/// Refuses a configured host that is not a host name alone (no scheme, port or path): it
/// could never match a request's `Host`.
pub(crate) fn check_hosts(hosts: &[String]) -> std::io::Result<()> {
    for h in hosts {
        let bad = |why: &str| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("allowed host {h:?}: not a host name alone ({why})"),
            )
        };
        match authority(h) {
            Ok((_, None)) => {}
            Ok((_, Some(_))) => return Err(bad("a port")),
            Err(e) => return Err(bad(e.0)),
        }
    }
    Ok(())
}

/// Refuses a configured origin that is not `scheme://host[:port]`: it could never match,
/// so the server would refuse the very site it was meant to let in.
pub(crate) fn check_allowed(allowed: &[String]) -> std::io::Result<()> {
    for a in allowed {
        normalize_origin(a).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("allowed origin {a:?}: {e}"),
            )
        })?;
    }
    Ok(())
}

/// A text that is not an origin (`scheme://host[:port]`), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadOrigin(&'static str);

impl std::fmt::Display for BadOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not an origin (scheme://host[:port]): {}", self.0)
    }
}

impl std::error::Error for BadOrigin {}

/// An origin in its canonical form, `scheme://host[:port]`: scheme and host lowercased, a
/// port equal to the scheme's default (80 for `http`, 443 for `https`) left out, as
/// browsers send it. Two origins are the same exactly when their canonical forms are
/// equal. Refused: a path (even a lone `/`), a query, a fragment, user info, an empty
/// host, a port that is not a number up to 65535, `null`.
pub fn normalize_origin(text: &str) -> Result<String, BadOrigin> {
    Origin::parse(text).map(|o| o.to_string())
}

struct Origin {
    scheme: String,
    host: String,
    /// `None` for the scheme's default port, or no port.
    port: Option<u16>,
}

impl Origin {
    /// Read by the http crate's scheme and authority parsers. Not by its whole-URI parser:
    /// that gives every absolute URI a path (`/` when there is none) and drops a fragment
    /// unseen, so `http://a`, `http://a/` and `http://a#f` would read alike; the authority
    /// parser refuses a `/`, `?` or `#`.
    fn parse(text: &str) -> Result<Self, BadOrigin> {
        let (scheme, rest) = text
            .split_once("://")
            .ok_or(BadOrigin("no `://` after a scheme"))?;
        // The parser takes any run of scheme characters, even an empty one or one that
        // starts with a digit.
        let scheme = Scheme::from_str(scheme)
            .ok()
            .filter(|s| s.as_str().starts_with(|c: char| c.is_ascii_alphabetic()))
            .ok_or(BadOrigin(
                "the scheme is not a letter then letters, digits, `+`, `-`, `.`",
            ))?;
        let (host, port) = authority(rest)?;
        let mut origin = Origin {
            scheme: scheme.as_str().to_ascii_lowercase(),
            host,
            port,
        };
        if origin.port.is_some() && origin.port == origin.default_port() {
            origin.port = None;
        }
        Ok(origin)
    }

    /// Whether the scheme is one a page is served over (the only ones compared with the
    /// request's `Host`).
    fn is_web(&self) -> bool {
        matches!(self.scheme.as_str(), "http" | "https")
    }

    fn default_port(&self) -> Option<u16> {
        match self.scheme.as_str() {
            "http" => Some(80),
            "https" => Some(443),
            _ => None,
        }
    }

    /// The port connected to: the explicit one, else the scheme's default.
    fn port(&self) -> Option<u16> {
        self.port.or(self.default_port())
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        if let Some(port) = self.port {
            write!(f, ":{port}")?;
        }
        Ok(())
    }
}

/// `host[:port]` (an origin's tail or a `Host` header), read by the http crate's
/// authority parser: the host lowercased, the port if given. What that parser lets
/// through and no origin has is refused here: user info, an empty host, brackets around
/// something that is no IPv6 address, and anything the host and port it found leave
/// over (it takes a port it cannot read, as in `a:`, `a:8o` or `a:65536`, for no port,
/// reads `a:+80` as port 80, and ends a bracketed host at its `]` whatever follows).
fn authority(text: &str) -> Result<(String, Option<u16>), BadOrigin> {
    let authority = Authority::from_str(text).map_err(|_| {
        BadOrigin("not `host[:port]` (a path, query or fragment, or a character no host has)")
    })?;
    let text = authority.as_str();
    if text.contains('@') {
        return Err(BadOrigin("user info before the host"));
    }
    let host = authority.host();
    if host.is_empty() {
        return Err(BadOrigin("no host"));
    }
    if let Some(ip) = host.strip_prefix('[')
        && ip
            .strip_suffix(']')
            .and_then(|ip| ip.parse::<Ipv6Addr>().ok())
            .is_none()
    {
        return Err(BadOrigin("the host in brackets is not an IPv6 address"));
    }
    // Without user info the host starts the authority.
    let after_host = &text[host.len()..];
    let port = authority.port();
    let whole = match &port {
        None => after_host.is_empty(),
        Some(port) => {
            after_host.strip_prefix(':') == Some(port.as_str())
                && port.as_str().bytes().all(|b| b.is_ascii_digit())
        }
    };
    if !whole {
        return Err(BadOrigin(
            "something after the host that is not a port up to 65535",
        ));
    }
    Ok((host.to_ascii_lowercase(), port.map(|p| p.as_u16())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn origins_are_read_in_their_canonical_form() {
        for (text, canonical) in [
            ("http://example.com", "http://example.com"),
            ("HTTPS://Example.COM", "https://example.com"),
            ("http://example.com:80", "http://example.com"),
            ("https://example.com:443", "https://example.com"),
            ("http://example.com:443", "http://example.com:443"),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("http://[::1]:8080", "http://[::1]:8080"),
            ("http://[::1]", "http://[::1]"),
            ("app+x://a_b.local:0009", "app+x://a_b.local:9"),
            (
                "http://[::FFFF:1.2.3.4]:8080",
                "http://[::ffff:1.2.3.4]:8080",
            ),
        ] {
            assert_eq!(normalize_origin(text).as_deref(), Ok(canonical), "{text}");
        }
        for text in [
            "",
            "null",
            "example.com",
            "http://",
            "http://example.com/",
            "http://example.com/path",
            "http://example.com?q",
            "http://example.com#f",
            "http://user@example.com",
            "http://example.com:",
            "http://example.com:65536",
            "http://example.com:123456",
            "http://example.com:8o",
            "http://exa mple.com",
            "http://[::1",
            "http://[]:80",
            "http://[::1]x",
            "http://:80",
            "1http://example.com",
            "://example.com",
            // What the http crate's authority parser lets through.
            "http://user:pw@example.com",
            "http://example.com:+80",
            "http://[::1]:",
            "http://[::1]x:80",
            "http://[v1.x]",
            "http://[fe80::1%25en0]",
        ] {
            assert!(normalize_origin(text).is_err(), "{text} was read");
        }
    }

    #[test]
    fn the_page_s_own_host_no_origin_and_listed_origins_are_allowed() {
        let allowed = vec!["https://Allowed.example:443".to_owned()];
        let hosts = vec!["Board.example".to_owned()];
        let host = (header::HOST, "127.0.0.1:8080");
        let check = |origin: Option<&str>, host: &(header::HeaderName, &str)| {
            let mut pairs = vec![host.clone()];
            if let Some(o) = origin {
                pairs.push((header::ORIGIN, o));
            }
            origin_allowed(&headers(&pairs), &allowed, &hosts) == OriginCheck::Allowed
        };
        assert!(check(None, &host));
        assert!(check(Some("http://127.0.0.1:8080"), &host));
        assert!(check(Some("https://127.0.0.1:8080"), &host));
        assert!(check(Some("https://allowed.example"), &host));
        assert!(!check(Some("http://allowed.example"), &host));
        assert!(!check(Some("http://127.0.0.1:8081"), &host));
        assert!(!check(Some("http://127.0.0.1"), &host));
        assert!(!check(Some("http://evil.example"), &host));
        assert!(!check(Some("http://127.0.0.1:8080/"), &host));
        assert!(!check(Some("null"), &host));
        // Default ports on either side.
        assert!(check(
            Some("http://Board.example"),
            &(header::HOST, "board.example")
        ));
        assert!(check(
            Some("http://board.example"),
            &(header::HOST, "board.example:80")
        ));
        assert!(check(
            Some("https://board.example"),
            &(header::HOST, "board.example")
        ));
        assert!(!check(
            Some("https://board.example"),
            &(header::HOST, "board.example:80")
        ));
        assert!(!check(
            Some("http://127.0.0.1:8080"),
            &(header::HOST, "127.0.0.1:+8080")
        ));
        // Not a web scheme: only by the list.
        assert!(!check(Some("ws://127.0.0.1:8080"), &host));
        // Two Origin headers, even both the page's own: not what a browser sends.
        let two = headers(&[
            host.clone(),
            (header::ORIGIN, "http://127.0.0.1:8080"),
            (header::ORIGIN, "http://127.0.0.1:8080"),
        ]);
        assert_eq!(origin_allowed(&two, &allowed, &hosts), OriginCheck::Refused);
        // No Host header: only the list.
        assert_eq!(
            origin_allowed(
                &headers(&[(header::ORIGIN, "http://127.0.0.1:8080")]),
                &allowed,
                &hosts
            ),
            OriginCheck::Refused
        );
        assert_eq!(
            origin_allowed(
                &headers(&[(header::ORIGIN, "https://allowed.example")]),
                &allowed,
                &hosts
            ),
            OriginCheck::Allowed
        );
    }

    #[test]
    fn a_page_s_own_host_counts_only_as_an_address_localhost_or_a_listed_name() {
        let check = |host: &str, hosts: &[&str]| {
            let hosts: Vec<String> = hosts.iter().map(|h| h.to_string()).collect();
            let origin = format!("http://{host}");
            let pairs = [(header::HOST, host), (header::ORIGIN, origin.as_str())];
            origin_allowed(&headers(&pairs), &[], &hosts)
        };
        for host in [
            "127.0.0.1:8080",
            "[::1]:8080",
            "localhost:8080",
            "a.localhost",
        ] {
            assert_eq!(check(host, &[]), OriginCheck::Allowed, "{host}");
        }
        // A DNS-rebinding page: its name now points here, and Origin and Host agree.
        assert_eq!(check("evil.example:8080", &[]), OriginCheck::HostNotListed);
        assert_eq!(
            check("evil.example:8080", &["games.example"]),
            OriginCheck::HostNotListed
        );
        assert_eq!(
            check("games.example:8080", &["Games.Example"]),
            OriginCheck::Allowed
        );
        // Names that only look like an address or localhost.
        for host in [
            "127.0.0.1.evil.example",
            "localhost.evil.example",
            "0x7f.0.0.1",
        ] {
            assert_eq!(check(host, &[]), OriginCheck::HostNotListed, "{host}");
        }
        // A listed origin lets its page in under any name.
        let pairs = [
            (header::HOST, "games.example"),
            (header::ORIGIN, "https://games.example"),
        ];
        let origins = ["https://games.example".to_owned()];
        assert_eq!(
            origin_allowed(&headers(&pairs), &origins, &[]),
            OriginCheck::Allowed
        );
    }

    #[test]
    fn a_malformed_allowed_host_is_refused_at_start() {
        assert!(check_hosts(&["games.example".into(), "[::1]".into()]).is_ok());
        for bad in [
            "games.example:80",
            "http://games.example",
            "games.example/",
            "",
        ] {
            let err = check_hosts(&[bad.into()]).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
            assert!(err.to_string().contains("allowed host"), "{err}");
        }
    }

    #[test]
    fn a_malformed_allowed_origin_is_refused_at_start() {
        assert!(
            check_allowed(&["http://a.example".into(), "https://b.example:8443".into()]).is_ok()
        );
        let err = check_allowed(&["http://a.example/".into()]).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("http://a.example/"), "{err}");
    }
}
