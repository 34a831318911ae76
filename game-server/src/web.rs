//! HTTP: the connections (with their time limits), the health check, the board's files
//! and the WebSocket endpoint.

use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
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
const FILES: [(&str, &str, &str); 4] = [
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
];

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let mut app = Router::new()
        .route("/health", get(|| async { Json(json!({ "ok": true })) }))
        .route("/ws", get(ws));
    for (path, mime, text) in FILES {
        app = app.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, mime)], text).into_response() }),
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
    upgrade: WebSocketUpgrade,
) -> Response {
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
