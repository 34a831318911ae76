//! HTTP: the connections (with their time limits), the health check, the board's files
//! (with their security headers) and the WebSocket endpoint.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::header;
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::json;

use crate::{MAX_FRAME, MAX_MESSAGE, Shared, session};

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
        let tcp = tokio::select! {
            // The signal first: a queue of connections waiting must not keep it unheard.
            biased;
            () = &mut shutdown => return,
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
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
        let service = TowerToHyperService::new(app.clone());
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

async fn ws(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    // A message between the request cap and `MAX_MESSAGE` gets `TOO_LARGE`; a longer one
    // closes the socket with 1009.
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| session::run(shared, socket))
}
