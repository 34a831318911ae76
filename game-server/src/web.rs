//! HTTP: the health check, the board's files and the WebSocket endpoint.

use std::sync::Arc;

use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::header;
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use serde_json::json;

use crate::{MAX_REQUEST, Shared, session};

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

async fn ws(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    // Twice the request cap: a message between the two gets `TOO_LARGE`, a larger one
    // closes the socket before it is read whole.
    upgrade
        .max_message_size(2 * MAX_REQUEST)
        .max_frame_size(2 * MAX_REQUEST)
        .on_upgrade(move |socket| session::run(shared, socket))
}
