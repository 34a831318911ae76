//! The server's command line, over any registry: what the `party-games-server` binary
//! is, for an author's binary to be too.
//!
//! [`run`] parses the process's arguments ([`Args`]: every flag, `--help`, `--version`),
//! starts the logs, opens the store, binds the address, prints `listening on
//! http://ADDR` once the server answers and serves the registry's games until SIGINT or
//! SIGTERM. Then it stops accepting, releases its PostgreSQL leases (another instance on
//! the same database claims the matches at once), closes every socket and returns once
//! the connections closed or `--shutdown-grace-ms` passed.
//!
//! An author's server is then their registry and one call:
//!
//! ```no_run
//! use game_core::{Erased, Registry, rps::Rps};
//!
//! fn main() -> std::process::ExitCode {
//!     let mut games = Registry::new();
//!     games.register(Erased(Rps)).unwrap(); // and the author's own games
//!     party_games_server::cli::run(games)
//! }
//! ```
//!
//! A binary with flags of its own flattens [`Args`] into its parser and calls
//! [`run_with`] (or [`main`] on a runtime of its own).

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use game_core::Registry;

use crate::{Config, LogFormat, open_store, serve};

/// `--addr`'s default.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// `--db`'s default: a SQLite file in the working directory.
pub const DEFAULT_DB: &str = "party-games.sqlite";

/// The flags of the server's command line. Every default that is a [`Config`] field's is
/// read from [`Config::default()`], so the two never disagree.
///
/// ```
/// use clap::Parser;
/// use party_games_server::cli::Args;
///
/// let args = Args::parse_from(["server", "--db", ":memory:", "--bot-delay-ms", "0"]);
/// let config = args.config();
/// assert_eq!(config.bot_delay, std::time::Duration::ZERO);
/// assert_eq!(config.idle_timeout, party_games_server::Config::default().idle_timeout);
/// ```
#[derive(Parser, Clone, Debug)]
#[command(
    about = "A multiplayer game server: the host protocol over WebSockets, persisted in SQLite \
             or PostgreSQL.",
    long_about = None
)]
pub struct Args {
    /// Address to listen on (port 0: any free port, printed).
    #[arg(long, default_value = DEFAULT_ADDR)]
    pub addr: String,
    /// Where matches are kept: a SQLite database file (`:memory:` for none kept), or a
    /// PostgreSQL database shared by several instances (`postgres://USER@HOST:PORT/DB`).
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: String,
    /// With a PostgreSQL store: how long this instance's lease on a match lasts
    /// unrenewed, in milliseconds (renewed at a third of it). An instance that dies or
    /// stops renewing has its matches claimed by the others after this.
    #[arg(long, default_value_t = ms(crate::pg::LEASE_TIME))]
    pub lease_ms: u64,
    /// How long a bot waits before moving, in milliseconds.
    #[arg(long, default_value_t = ms(defaults().bot_delay))]
    pub bot_delay_ms: u64,
    /// How long bots wait while a person may call (One Card's ONE_CARD and CATCH), in
    /// milliseconds: no bot calls, nor makes the move that ends the window, sooner.
    #[arg(long, default_value_t = ms(defaults().call_delay))]
    pub call_delay_ms: u64,
    /// How long the engine waits for a disconnected player before it plays their turn, in
    /// milliseconds, in every match created here (kept in its record); none: each game's
    /// own grace (5 s for the built-in games).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=game_core::MAX_TIME))]
    pub grace_ms: Option<u64>,
    /// Lets `create` take a `seed`, for tests that need a known position. Never on a
    /// public server: a known seed foretells every throw and every deal.
    #[arg(long)]
    pub allow_seed: bool,
    /// A WebSocket with no frame from its client for this long is closed (it is pinged
    /// at a third of it), in milliseconds.
    #[arg(long, default_value_t = ms(defaults().idle_timeout))]
    pub idle_timeout_ms: u64,
    /// An HTTP connection that has not sent a whole request head within this is closed,
    /// in milliseconds.
    #[arg(long, default_value_t = ms(defaults().header_timeout))]
    pub header_timeout_ms: u64,
    /// How long SIGINT/SIGTERM waits for the connections to close before the process
    /// exits anyway, in milliseconds.
    #[arg(long, default_value_t = ms(defaults().shutdown_grace))]
    pub shutdown_grace_ms: u64,
    /// The most pushes queued for one socket, in KiB: a client that falls further behind
    /// is closed (1008).
    #[arg(long, default_value_t = defaults().push_queue_bytes / 1024)]
    pub push_queue_kib: usize,
    /// The longest WebSocket message, in KiB: a longer one closes the socket (1009).
    /// Requests up to half of it are served, longer ones answered TOO_LARGE.
    #[arg(long, default_value_t = defaults().max_message / 1024)]
    pub max_message_kib: usize,
    /// How long a message may take from its first byte to its last, in milliseconds
    /// (pings and further fragments do not extend it): past it the socket is closed
    /// (1008).
    #[arg(long, default_value_t = ms(defaults().message_timeout))]
    pub message_timeout_ms: u64,
    /// The most WebSocket connections in all (more are refused with 503).
    #[arg(long, default_value_t = defaults().connections_total)]
    pub max_connections: usize,
    /// The most WebSocket connections from one client address (more are refused with
    /// 429).
    #[arg(long, default_value_t = defaults().connections_per_address)]
    pub max_connections_per_address: usize,
    /// The most unfinished matches one socket created (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = defaults().matches_per_socket)]
    pub max_matches_per_socket: usize,
    /// The most unfinished matches created from one client address (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = defaults().matches_per_address)]
    pub max_matches_per_address: usize,
    /// The most unfinished matches in all (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = defaults().matches_total)]
    pub max_matches: usize,
    /// The creates one client address may send per minute (RATE_LIMITED past it).
    #[arg(long, default_value_t = defaults().creates_per_minute)]
    pub creates_per_minute: u32,
    /// How many creates an address may send at once before the rate applies.
    #[arg(long, default_value_t = defaults().create_burst)]
    pub create_burst: u32,
    /// The most matches one socket is bound to at once by watch or hello
    /// (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = defaults().max_watches_per_socket)]
    pub max_watches_per_socket: usize,
    /// The most match bindings of the sockets of one client address (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = defaults().max_watches_per_address)]
    pub max_watches_per_address: usize,
    /// A seat's presence changes the match at most once per this, in milliseconds: its
    /// flips within it are coalesced.
    #[arg(long, default_value_t = ms(defaults().presence_interval))]
    pub presence_interval_ms: u64,
    /// The hellos and watches that bind or unbind one seat per minute (RATE_LIMITED past
    /// it).
    #[arg(long, default_value_t = defaults().presence_per_minute)]
    pub presence_per_minute: u32,
    /// How many of those a seat may send at once before the rate applies.
    #[arg(long, default_value_t = defaults().presence_burst)]
    pub presence_burst: u32,
    /// The most record entries of a match that are not moves (presence, grace): a hello
    /// past it is refused (QUOTA_EXCEEDED).
    #[arg(long, default_value_t = defaults().max_presence_entries)]
    pub max_presence_entries: usize,
    /// The records one socket may ask per minute (RATE_LIMITED past it).
    #[arg(long, default_value_t = defaults().records_per_minute)]
    pub records_per_minute: u32,
    /// The records one client address may ask per minute (RATE_LIMITED past it).
    #[arg(long, default_value_t = defaults().address_records_per_minute)]
    pub address_records_per_minute: u32,
    /// How many records a socket or an address may ask at once before the rates apply.
    #[arg(long, default_value_t = defaults().record_burst)]
    pub record_burst: u32,
    /// The requests naming a match not in memory one client address may send per minute
    /// (each looks the store up; RATE_LIMITED past it).
    #[arg(long, default_value_t = defaults().lookups_per_minute)]
    pub lookups_per_minute: u32,
    /// How many such requests an address may send at once before the rate applies.
    #[arg(long, default_value_t = defaults().lookup_burst)]
    pub lookup_burst: u32,
    /// The header a reverse proxy in front sets to the client's address (e.g.
    /// X-Forwarded-For; its last address is taken). Unset: the TCP peer's address, as a
    /// client can send any header.
    #[arg(long)]
    pub client_ip_header: Option<String>,
    /// An origin (`scheme://host[:port]`) whose pages may open a WebSocket besides the
    /// server's own page; repeatable. Upgrades from other origins are refused (403).
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = origin)]
    pub allow_origin: Vec<String>,
    /// A host name under which this server's page is served (`games.example.com`), so
    /// that the page may open a WebSocket; repeatable. An IP address and `localhost`
    /// need none; a page served under a name not listed is refused (403), since it could
    /// be a DNS-rebinding page's.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// A match whose human seats have all been away this long is closed as abandoned,
    /// in milliseconds.
    #[arg(long, default_value_t = ms(defaults().abandon_after))]
    pub abandon_after_ms: u64,
    /// A match no human ever joined is closed this long after its creation, in
    /// milliseconds.
    #[arg(long, default_value_t = ms(defaults().unjoined_after))]
    pub unjoined_after_ms: u64,
    /// How long a finished match serves its final view before it leaves memory (its
    /// record is then read from the store), in milliseconds.
    #[arg(long, default_value_t = ms(defaults().finished_linger))]
    pub finished_linger_ms: u64,
    /// How the logs on stderr are written: `text` or `json` (one object a line).
    #[arg(long, default_value = "text")]
    pub log_format: LogFormat,
    /// Where to serve Prometheus metrics (`GET /metrics`), e.g. 127.0.0.1:9090. Off by
    /// default; keep it off the public network.
    #[arg(long)]
    pub metrics_addr: Option<SocketAddr>,
}

/// The defaults the flags show and take: one source of truth, [`Config::default()`].
fn defaults() -> Config {
    Config::default()
}

/// A duration as a flag's milliseconds.
fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// An `--allow-origin` value, checked and in its canonical form.
fn origin(text: &str) -> Result<String, crate::BadOrigin> {
    crate::normalize_origin(text)
}

impl Args {
    /// The server's [`Config`] these flags give. Durations and sizes of 0 that would
    /// make the server close everything at once are raised to their least useful value
    /// (1 ms, a 1 KiB message).
    pub fn config(&self) -> Config {
        Config {
            bot_delay: Duration::from_millis(self.bot_delay_ms),
            call_delay: Duration::from_millis(self.call_delay_ms),
            grace: self.grace_ms.map(Duration::from_millis),
            allow_seed: self.allow_seed,
            idle_timeout: Duration::from_millis(self.idle_timeout_ms.max(1)),
            header_timeout: Duration::from_millis(self.header_timeout_ms.max(1)),
            shutdown_grace: Duration::from_millis(self.shutdown_grace_ms),
            push_queue_bytes: self.push_queue_kib.saturating_mul(1024),
            max_message: self.max_message_kib.saturating_mul(1024).max(1024),
            message_timeout: Duration::from_millis(self.message_timeout_ms.max(1)),
            connections_total: self.max_connections,
            connections_per_address: self.max_connections_per_address,
            matches_per_socket: self.max_matches_per_socket,
            matches_per_address: self.max_matches_per_address,
            matches_total: self.max_matches,
            creates_per_minute: self.creates_per_minute,
            create_burst: self.create_burst,
            client_ip_header: self.client_ip_header.clone(),
            allowed_origins: self.allow_origin.clone(),
            allowed_hosts: self.allow_host.clone(),
            abandon_after: Duration::from_millis(self.abandon_after_ms),
            unjoined_after: Duration::from_millis(self.unjoined_after_ms),
            finished_linger: Duration::from_millis(self.finished_linger_ms),
            metrics_addr: self.metrics_addr,
            presence_interval: Duration::from_millis(self.presence_interval_ms),
            presence_per_minute: self.presence_per_minute,
            presence_burst: self.presence_burst,
            max_presence_entries: self.max_presence_entries,
            max_watches_per_socket: self.max_watches_per_socket,
            max_watches_per_address: self.max_watches_per_address,
            records_per_minute: self.records_per_minute,
            address_records_per_minute: self.address_records_per_minute,
            record_burst: self.record_burst,
            lookups_per_minute: self.lookups_per_minute,
            lookup_burst: self.lookup_burst,
        }
    }
}

/// Why the command line stopped before or while serving.
#[derive(Debug)]
pub enum Error {
    /// The store could not be opened (most often: another server already runs on the
    /// same SQLite file).
    Store {
        /// `--db` as given.
        db: String,
        /// What the store said.
        detail: String,
    },
    /// A flag the parser could not judge alone (`--client-ip-header` with a name no
    /// header can have).
    Flag(String),
    /// Binding the address or serving failed.
    Io(std::io::Error),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Store { db, detail } => write!(f, "cannot open the store {db}: {detail}"),
            Error::Flag(detail) => f.write_str(detail),
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

/// The server's command line over `registry`: parses the process's arguments (an
/// error or `--help` exits there, as clap does), then [`run_with`]. An author's `main`
/// returns what this returns.
pub fn run(registry: Registry) -> ExitCode {
    run_with(Args::parse(), registry)
}

/// Runs [`main`] on a new multi-threaded tokio runtime and turns its end into the
/// process's exit code: success after a shutdown by signal, 1 (said on stderr) if the
/// server could not start or failed.
pub fn run_with(args: Args, registry: Registry) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("Error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(main(args, registry)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e @ Error::Store { .. }) => {
            // Said plainly and alone (not as a debug dump): the usual cause is a second
            // server started on the same file.
            eprintln!("{e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The server of the command line, on the caller's tokio runtime: starts the logs
/// (`--log-format`), opens the store, binds `--addr`, prints `listening on
/// http://ADDR` on stdout once the server answers, and serves `registry` until SIGINT or
/// SIGTERM (the shutdown of [`serve`]: leases released first, then the sockets closed
/// within `--shutdown-grace-ms`).
pub async fn main(args: Args, registry: Registry) -> Result<(), Error> {
    crate::init_logs(args.log_format);
    if let Some(name) = &args.client_ip_header {
        // A name no header can have would never match: the peer would be counted instead,
        // in silence.
        axum::http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|e| Error::Flag(format!("--client-ip-header {name:?}: {e}")))?;
    }
    let store =
        open_store(&args.db, Duration::from_millis(args.lease_ms)).map_err(|e| Error::Store {
            db: args.db.clone(),
            detail: e.detail,
        })?;
    let listener = tokio::net::TcpListener::bind(&args.addr).await?;
    let addr = listener.local_addr()?;
    let ready = async move {
        println!("listening on http://{addr}");
    };
    let stop = shutdown();
    serve(listener, store, registry, args.config(), ready, stop).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// No flags is exactly the default configuration.
    #[test]
    fn no_flags_give_the_default_config() {
        let args = Args::parse_from(["server"]);
        assert_eq!(
            format!("{:?}", args.config()),
            format!("{:?}", Config::default())
        );
        assert_eq!(args.addr, DEFAULT_ADDR);
        assert_eq!(args.db, DEFAULT_DB);
        assert_eq!(args.lease_ms, 10_000);
    }

    #[test]
    fn the_parser_is_consistent() {
        use clap::CommandFactory;
        Args::command().debug_assert();
    }
}
