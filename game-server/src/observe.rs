//! Logs and metrics: structured logs through `tracing` (text or JSON lines on stderr),
//! every client-chosen text in them escaped; Prometheus metrics served on their own
//! address, never on the public one.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// WebSocket connections open now (gauge).
pub const CONNECTIONS: &str = "game_server_connections";
/// Matches in memory now (gauge).
pub const OPEN_MATCHES: &str = "game_server_open_matches";
/// Actions taken, by players and bots (counter).
pub const ACTIONS: &str = "game_server_actions_total";
/// Requests refused, by error code (counter, label `code`).
pub const REFUSALS: &str = "game_server_refusals_total";
/// How long a group commit took, retries included (histogram, seconds).
pub const COMMIT_SECONDS: &str = "game_server_commit_seconds";
/// How many groups (one per waiting change) a commit carried (histogram).
pub const COMMIT_GROUPS: &str = "game_server_commit_groups";
/// Stored matches not restored yet after a start (gauge).
pub const RESTORE_PENDING: &str = "game_server_restore_pending";
/// Matches restored since the start (counter).
pub const RESTORED: &str = "game_server_restored_total";

/// How the server's logs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// One line of text an event: time, level, message and fields.
    #[default]
    Text,
    /// One JSON object a line.
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            other => Err(format!("`{other}`: the log format is `text` or `json`")),
        }
    }
}

/// Sends the process's `tracing` events (info and above) to stderr in `format`; does
/// nothing if a subscriber is already set. A write that fails (a full disk) is dropped,
/// not a panic.
pub fn init_logs(format: LogFormat) {
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .with_max_level(tracing::Level::INFO);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// A client-chosen text (a match or player id) as a log shows it: control characters,
/// ANSI escapes and newlines escaped (`\n`, `\u{1b}`), so that no id can forge a log
/// line or drive the terminal that reads it.
pub struct Esc<'a>(pub &'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.escape_debug(), f)
    }
}

/// Counts one more in a gauge for as long as it lives (a connection, a match in memory).
pub(crate) struct Held(&'static str);

impl Held {
    pub(crate) fn new(gauge: &'static str) -> Self {
        metrics::gauge!(gauge).increment(1.0);
        Self(gauge)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        metrics::gauge!(self.0).decrement(1.0);
    }
}

/// Counts a reply that refused its request, by its error code.
pub(crate) fn refused(reply: &game_host::Reply) {
    if reply.ok {
        return;
    }
    let code = reply
        .body
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(|c| c.as_str())
        .unwrap_or("")
        .to_owned();
    metrics::counter!(REFUSALS, "code" => code).increment(1);
}

/// The histogram buckets: commit latency in seconds, and groups a commit.
const SECONDS_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
];
const GROUPS_BUCKETS: [f64; 12] = [
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0,
];

/// Installs the Prometheus recorder (once a process) and serves `GET /metrics` on
/// `listener` until the process ends.
pub(crate) fn serve_metrics(
    listener: tokio::net::TcpListener,
    header_timeout: Duration,
) -> std::io::Result<()> {
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(COMMIT_SECONDS.into()), &SECONDS_BUCKETS)
        .and_then(|b| {
            b.set_buckets_for_metric(Matcher::Full(COMMIT_GROUPS.into()), &GROUPS_BUCKETS)
        })
        .and_then(|b| b.install_recorder())
        .map_err(std::io::Error::other)?;
    // Declared at once, so that a scrape before the first event shows them at zero.
    metrics::gauge!(CONNECTIONS).set(0.0);
    metrics::gauge!(OPEN_MATCHES).set(0.0);
    metrics::counter!(ACTIONS).absolute(0);
    metrics::counter!(RESTORED).absolute(0);
    metrics::gauge!(RESTORE_PENDING).set(0.0);
    let upkeep = handle.clone();
    tokio::spawn(async move {
        // Histograms are folded and idle entries dropped only on upkeep.
        let mut every = tokio::time::interval(Duration::from_secs(5));
        loop {
            every.tick().await;
            upkeep.run_upkeep();
        }
    });
    let addr: Option<SocketAddr> = listener.local_addr().ok();
    if let Some(addr) = addr {
        tracing::info!(%addr, "metrics on http://{addr}/metrics");
    }
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || render(handle.clone())),
    );
    tokio::spawn(serve_scrapes(listener, app, header_timeout));
    Ok(())
}

/// The most connections the metrics address holds at once: a scraper needs one, and
/// whatever reaches that address must not hold the server's memory or descriptors.
const SCRAPERS: usize = 16;

/// The metrics address's accept loop: like the public listener's, each connection is
/// served by hyper's HTTP/1 with the header read timeout (`axum::serve` has none), and a
/// connection past [`SCRAPERS`] is closed at once.
async fn serve_scrapes(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    header_timeout: Duration,
) {
    let slots = Arc::new(tokio::sync::Semaphore::new(SCRAPERS));
    loop {
        let tcp = match listener.accept().await {
            Ok((tcp, _)) => tcp,
            Err(_) => {
                // Out of descriptors and the like: it repeats until one closes.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let _ = http.serve_connection(TokioIo::new(tcp), service).await;
        });
    }
}

async fn render(handle: PrometheusHandle) -> ([(&'static str, &'static str); 1], String) {
    (
        [("content-type", "text/plain; version=0.0.4")],
        handle.render(),
    )
}
