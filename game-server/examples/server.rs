//! The game server: `cargo run --release --example server -- [--addr HOST:PORT] [--db PATH]`.
//! It serves the built-in games of `game_host::registry()`: Yut, Yut with augments, One
//! Card and rock-paper-scissors.
//! Prints `listening on http://ADDR` once ready; serves until SIGINT or SIGTERM, then
//! exits once the connections closed or the shutdown grace passed.

use std::time::Duration;

use clap::Parser;
use party_games_server::{Config, open_store, serve};

/// A multiplayer game server: the host protocol over WebSockets, persisted in SQLite.
#[derive(Parser)]
struct Args {
    /// Address to listen on (port 0: any free port, printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Where matches are kept: a SQLite database file (`:memory:` for none kept), or a
    /// PostgreSQL database shared by several instances (`postgres://USER@HOST:PORT/DB`).
    #[arg(long, default_value = "party-games.sqlite")]
    db: String,
    /// With a PostgreSQL store: how long this instance's lease on a match lasts
    /// unrenewed, in milliseconds (renewed at a third of it). An instance that dies or
    /// stops renewing has its matches claimed by the others after this.
    #[arg(long, default_value_t = 10_000)]
    lease_ms: u64,
    /// How long a bot waits before moving, in milliseconds.
    #[arg(long, default_value_t = 300)]
    bot_delay_ms: u64,
    /// How long bots wait while a person may call (One Card's ONE_CARD and CATCH), in
    /// milliseconds: no bot calls, nor makes the move that ends the window, sooner.
    #[arg(long, default_value_t = 1_500)]
    call_delay_ms: u64,
    /// How long the engine waits for a disconnected player before it plays their turn, in
    /// milliseconds, in every match created here (kept in its record); none: each game's
    /// own grace (5 s for the built-in games).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=game_core::MAX_TIME))]
    grace_ms: Option<u64>,
    /// Lets `create` take a `seed`, for tests that need a known position. Never on a
    /// public server: a known seed foretells every throw and every deal.
    #[arg(long)]
    allow_seed: bool,
    /// A WebSocket with no frame from its client for this long is closed (it is pinged
    /// at a third of it), in milliseconds.
    #[arg(long, default_value_t = 60_000)]
    idle_timeout_ms: u64,
    /// An HTTP connection that has not sent a whole request head within this is closed,
    /// in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    header_timeout_ms: u64,
    /// How long SIGINT/SIGTERM waits for the connections to close before the process
    /// exits anyway, in milliseconds.
    #[arg(long, default_value_t = 5_000)]
    shutdown_grace_ms: u64,
    /// The most pushes queued for one socket, in KiB: a client that falls further behind
    /// is closed (1008).
    #[arg(long, default_value_t = 8 * 1024)]
    push_queue_kib: usize,
    /// The longest WebSocket message, in KiB: a longer one closes the socket (1009).
    /// Requests up to half of it are served, longer ones answered TOO_LARGE.
    #[arg(long, default_value_t = 64)]
    max_message_kib: usize,
    /// How long a message may take from its first byte to its last, in milliseconds
    /// (pings and further fragments do not extend it): past it the socket is closed
    /// (1008).
    #[arg(long, default_value_t = 10_000)]
    message_timeout_ms: u64,
    /// The most WebSocket connections in all (more are refused with 503).
    #[arg(long, default_value_t = 10_000)]
    max_connections: usize,
    /// The most WebSocket connections from one client address (more are refused with
    /// 429).
    #[arg(long, default_value_t = 256)]
    max_connections_per_address: usize,
    /// The most unfinished matches one socket created (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = 32)]
    max_matches_per_socket: usize,
    /// The most unfinished matches created from one client address (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = 256)]
    max_matches_per_address: usize,
    /// The most unfinished matches in all (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = 10_000)]
    max_matches: usize,
    /// The creates one client address may send per minute (RATE_LIMITED past it).
    #[arg(long, default_value_t = 120)]
    creates_per_minute: u32,
    /// How many creates an address may send at once before the rate applies.
    #[arg(long, default_value_t = 30)]
    create_burst: u32,
    /// The most matches one socket is bound to at once by watch or hello
    /// (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = 100)]
    max_watches_per_socket: usize,
    /// The most match bindings of the sockets of one client address (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = 1_000)]
    max_watches_per_address: usize,
    /// A seat's presence changes the match at most once per this, in milliseconds: its
    /// flips within it are coalesced.
    #[arg(long, default_value_t = 1_000)]
    presence_interval_ms: u64,
    /// The hellos and watches that bind or unbind one seat per minute (RATE_LIMITED past
    /// it).
    #[arg(long, default_value_t = 60)]
    presence_per_minute: u32,
    /// How many of those a seat may send at once before the rate applies.
    #[arg(long, default_value_t = 20)]
    presence_burst: u32,
    /// The most record entries of a match that are not moves (presence, grace): a hello
    /// past it is refused (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = 1_000)]
    max_presence_entries: usize,
    /// The records one socket may ask per minute (RATE_LIMITED past it).
    #[arg(long, default_value_t = 30)]
    records_per_minute: u32,
    /// The records one client address may ask per minute (RATE_LIMITED past it).
    #[arg(long, default_value_t = 120)]
    address_records_per_minute: u32,
    /// How many records a socket or an address may ask at once before the rates apply.
    #[arg(long, default_value_t = 10)]
    record_burst: u32,
    /// The requests naming a match not in memory one client address may send per minute
    /// (each looks the store up; RATE_LIMITED past it).
    #[arg(long, default_value_t = 600)]
    lookups_per_minute: u32,
    /// How many such requests an address may send at once before the rate applies.
    #[arg(long, default_value_t = 60)]
    lookup_burst: u32,
    /// The header a reverse proxy in front sets to the client's address (e.g.
    /// X-Forwarded-For; its last address is taken). Unset: the TCP peer's address, as a
    /// client can send any header.
    #[arg(long)]
    client_ip_header: Option<String>,
    /// An origin (`scheme://host[:port]`) whose pages may open a WebSocket besides the
    /// server's own page; repeatable. Upgrades from other origins are refused (403).
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = origin)]
    allow_origin: Vec<String>,
    /// A host name under which this server's page is served (`games.example.com`), so
    /// that the page may open a WebSocket; repeatable. An IP address and `localhost`
    /// need none; a page served under a name not listed is refused (403), since it could
    /// be a DNS-rebinding page's.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// A match whose human seats have all been away this long is closed as abandoned,
    /// in milliseconds.
    #[arg(long, default_value_t = 600_000)]
    abandon_after_ms: u64,
    /// A match no human ever joined is closed this long after its creation, in
    /// milliseconds.
    #[arg(long, default_value_t = 120_000)]
    unjoined_after_ms: u64,
    /// How long a finished match serves its final view before it leaves memory (its
    /// record is then read from the store), in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    finished_linger_ms: u64,
    /// How the logs on stderr are written: `text` or `json` (one object a line).
    #[arg(long, default_value = "text")]
    log_format: party_games_server::LogFormat,
    /// Where to serve Prometheus metrics (`GET /metrics`), e.g. 127.0.0.1:9090. Off by
    /// default; keep it off the public network.
    #[arg(long)]
    metrics_addr: Option<std::net::SocketAddr>,
}

/// An `--allow-origin` value, checked and in its canonical form.
fn origin(text: &str) -> Result<String, party_games_server::BadOrigin> {
    party_games_server::normalize_origin(text)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    party_games_server::init_logs(args.log_format);
    if let Some(name) = &args.client_ip_header {
        // A name no header can have would never match: the peer would be counted instead,
        // in silence.
        axum::http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|e| format!("--client-ip-header {name:?}: {e}"))?;
    }
    let store = match open_store(&args.db, Duration::from_millis(args.lease_ms)) {
        Ok(store) => store,
        Err(e) => {
            // Said plainly and alone (not as a debug dump): the usual cause is a second
            // server started on the same file.
            eprintln!("cannot open the store {}: {}", args.db, e.detail);
            std::process::exit(1);
        }
    };
    let listener = tokio::net::TcpListener::bind(&args.addr).await?;
    let config = Config {
        bot_delay: Duration::from_millis(args.bot_delay_ms),
        call_delay: Duration::from_millis(args.call_delay_ms),
        grace: args.grace_ms.map(Duration::from_millis),
        allow_seed: args.allow_seed,
        idle_timeout: Duration::from_millis(args.idle_timeout_ms.max(1)),
        header_timeout: Duration::from_millis(args.header_timeout_ms.max(1)),
        shutdown_grace: Duration::from_millis(args.shutdown_grace_ms),
        push_queue_bytes: args.push_queue_kib.saturating_mul(1024),
        max_message: args.max_message_kib.saturating_mul(1024).max(1024),
        message_timeout: Duration::from_millis(args.message_timeout_ms.max(1)),
        connections_total: args.max_connections,
        connections_per_address: args.max_connections_per_address,
        matches_per_socket: args.max_matches_per_socket,
        matches_per_address: args.max_matches_per_address,
        matches_total: args.max_matches,
        creates_per_minute: args.creates_per_minute,
        create_burst: args.create_burst,
        client_ip_header: args.client_ip_header,
        allowed_origins: args.allow_origin,
        allowed_hosts: args.allow_host,
        abandon_after: Duration::from_millis(args.abandon_after_ms),
        unjoined_after: Duration::from_millis(args.unjoined_after_ms),
        finished_linger: Duration::from_millis(args.finished_linger_ms),
        metrics_addr: args.metrics_addr,
        presence_interval: Duration::from_millis(args.presence_interval_ms),
        presence_per_minute: args.presence_per_minute,
        presence_burst: args.presence_burst,
        max_presence_entries: args.max_presence_entries,
        max_watches_per_socket: args.max_watches_per_socket,
        max_watches_per_address: args.max_watches_per_address,
        records_per_minute: args.records_per_minute,
        address_records_per_minute: args.address_records_per_minute,
        record_burst: args.record_burst,
        lookups_per_minute: args.lookups_per_minute,
        lookup_burst: args.lookup_burst,
    };
    let addr = listener.local_addr()?;
    let ready = async move {
        println!("listening on http://{addr}");
    };
    let stop = shutdown();
    // The built-in games (One Card among them, with hidden hands) and their bots. A game
    // of your own is one more `register` on this registry.
    let games = game_host::registry();
    serve(listener, store, games, config, ready, stop).await?;
    Ok(())
}

/// Resolves on SIGINT or SIGTERM. The handlers are installed at the call, not when the
/// future is first polled: a signal that comes as soon as the address is printed must
/// not find the default action (which kills the process) still in place.
fn shutdown() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let int = signal(SignalKind::interrupt());
        let term = signal(SignalKind::terminate());
        async move {
            match (int, term) {
                (Ok(mut int), Ok(mut term)) => {
                    tokio::select! {
                        _ = int.recv() => {}
                        _ = term.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}
