#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod actor;
pub mod bots;
pub mod cli;
mod ended;
mod lease;
mod limits;
mod observe;
mod pg;
mod records;
mod remote;
mod restore;
mod session;
pub mod store;
mod web;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use game_core::Registry;
use tokio::sync::{mpsc, watch};

use crate::actor::{Actor, Cmd};
pub use crate::observe::{Esc, LogFormat, init_logs};
pub use crate::pg::PgStore;
pub use crate::records::RECORD_CACHE_BYTES;
use crate::store::Seat;
pub use crate::store::{Found, Leases, SqliteStore, Store, StoreError, Unreadable, Writer};
pub use crate::web::{BadOrigin, normalize_origin};

/// The default of [`Config::max_message`]: the longest WebSocket message read at all. A
/// longer one closes the socket with code 1009 (message too big): memory for what a
/// client sends is bounded per socket. The server's requests are small (it refuses
/// `load` and `restore`, the only large ones of the host protocol).
pub const MAX_MESSAGE: usize = 64 << 10;

/// The longest request served with the default message cap: half of it (the request cap
/// is always half the message cap). A longer message, up to the message cap, is answered
/// `TOO_LARGE` and the socket stays.
pub const MAX_REQUEST: usize = MAX_MESSAGE / 2;

/// The longest single WebSocket frame read with the default message cap: twice it (the
/// frame cap always follows the message cap so). A frame up to this is read whole, so
/// that after a message over the cap the stream is still at a frame boundary and the
/// close handshake completes (the client reads the 1009). A longer frame is refused from
/// its header, unread: the close frame is sent, but a client still sending may see the
/// connection reset first.
pub const MAX_FRAME: usize = 2 * MAX_MESSAGE;

/// A WebSocket's read buffer: the frame reader reads the connection this much at a time
/// (tungstenite's default, 128 KiB, would be most of an idle socket's memory; a request
/// is a few hundred bytes).
pub(crate) const READ_BUFFER: usize = 4 << 10;

/// How far ahead of the server's clock at start a stored match's times may be: a clock
/// that stepped back a little between two runs is no reason to drop a match (the engine
/// reads an earlier `now` as the match's clock), a record from farther in the future is.
pub const CLOCK_TOLERANCE_MS: u64 = 60_000;

/// The wait a client is told (`retryAfterMs`) when the store could not take a change:
/// the store has retried for seconds by then, and the match is reloaded meanwhile.
pub const RETRY_AFTER: Duration = Duration::from_secs(1);

/// `UNAVAILABLE`: the store cannot take a change now; try again after `retry_after`.
/// Said plainly: what failed goes to the log, never to clients (it names files and the
/// database's internals).
pub(crate) fn unavailable(retry_after: Duration) -> game_host::reply::Fail {
    game_host::reply::fail(
        "UNAVAILABLE",
        "지금은 저장할 수 없어요. 잠시 후 다시 해 주세요.",
        serde_json::json!({ "retryAfterMs": retry_after.as_millis() as u64 }),
    )
}

/// How the server runs.
///
/// [`Config::default()`] holds the defaults, each field's said on it; the command line
/// ([`cli::Args`]) takes its defaults from it. Set what differs and take the rest:
///
/// ```
/// use std::time::Duration;
/// use party_games_server::Config;
///
/// let config = Config {
///     bot_delay: Duration::ZERO,
///     allowed_hosts: vec!["games.example.com".into()],
///     ..Config::default()
/// };
/// assert_eq!(config.matches_per_socket, 32);
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a bot waits before it moves (so people can follow; 0 for load tests).
    /// Default: 300 ms.
    pub bot_delay: Duration,
    /// How long the bots wait while a person may call (One Card's `ONE_CARD` and `CATCH`,
    /// any action the game opens to players besides the one to move): neither a bot's
    /// call nor the bot's move that would close the window comes sooner, so that a
    /// person has the time to call or catch that a player across a table has. Matches
    /// with no person who may call use [`Config::bot_delay`]. Default: 1.5 s.
    pub call_delay: Duration,
    /// How long the engine waits for a disconnected player before it plays their turn, in
    /// every match this server creates (`DynMatch::set_grace_ms`, kept in the match's
    /// record); `None` (the default): each game's own grace (5 s for the built-in games).
    pub grace: Option<Duration>,
    /// Lets `create` take a `seed` (for tests and demonstrations that need a known
    /// position). Off by default, and never for a public server: a known seed foretells
    /// every random draw of the match.
    pub allow_seed: bool,
    /// A WebSocket from which no frame (a request, a pong) came for this long is closed;
    /// the server pings a quiet socket at a third of it, so a live client stays.
    /// Default: 60 s.
    pub idle_timeout: Duration,
    /// An HTTP connection that has not sent a whole request head this long after it
    /// opened (or after its last response) is closed. Default: 10 s.
    pub header_timeout: Duration,
    /// How long a shutdown waits for connections and sockets to close before `serve`
    /// returns anyway. Default: 5 s.
    pub shutdown_grace: Duration,
    /// The most bytes of pushes queued for one socket; a socket whose client does not
    /// read them in time is closed (code 1008) and its queue freed. Default: 8 MiB.
    pub push_queue_bytes: usize,
    /// The longest WebSocket message read; a longer one closes the socket (1009). The
    /// request cap is half of it (a message between them is answered `TOO_LARGE`), the
    /// frame cap twice it. Default: [`MAX_MESSAGE`], 64 KiB.
    pub max_message: usize,
    /// How long a message may take from its first byte to its last: pings, pongs and
    /// further fragments in between do not extend it. Past it the socket is closed (1008)
    /// and what it had read is freed. Default: 10 s.
    pub message_timeout: Duration,
    /// The most WebSocket connections in all; more are refused at the upgrade (503).
    /// Default: 10,000.
    pub connections_total: usize,
    /// The most WebSocket connections of one client address; more are refused at the
    /// upgrade (429). Default: 256.
    pub connections_per_address: usize,
    /// The most unfinished matches one socket created (`QUOTA_EXCEEDED`,
    /// `matchesPerSocket`). Default: 32.
    pub matches_per_socket: usize,
    /// The most unfinished matches created from one client address (`QUOTA_EXCEEDED`,
    /// `matchesPerAddress`). Default: 256.
    pub matches_per_address: usize,
    /// The most unfinished matches in all, restored ones included (`QUOTA_EXCEEDED`,
    /// `matchesTotal`). Default: 10,000.
    pub matches_total: usize,
    /// The `create`s a client address may send per minute on average (a token bucket
    /// refilled at this rate; `RATE_LIMITED` with `retryAfterMs` past it). Default: 120.
    pub creates_per_minute: u32,
    /// How many `create`s an address may send at once before the rate applies (the
    /// bucket's depth). Default: 30.
    pub create_burst: u32,
    /// The request header that holds the client's address, set by a reverse proxy in
    /// front (`X-Forwarded-For`): its last address is taken. `None` (the default): the
    /// TCP peer's address, since a client can send any header it likes.
    pub client_ip_header: Option<String>,
    /// Origins (`scheme://host[:port]`, compared in [`normalize_origin`]'s canonical form)
    /// whose pages may open a WebSocket, besides the page's own host (the `Origin`'s host
    /// and port equal to the request's `Host`). An upgrade with any other `Origin`, or a
    /// malformed one, is refused with 403; one without an `Origin` (not from a browser
    /// page) is accepted. [`serve`] refuses a list with a malformed entry. Default: none.
    pub allowed_origins: Vec<String>,
    /// Host names (`games.example.com`, no port) under which the server's own page is
    /// served. The page's own host may open a WebSocket when it is an IP address,
    /// `localhost` or a name listed here; under any other name only a listed origin
    /// can. A name not listed could be a DNS-rebinding page's: a site whose name its
    /// owner points at this server's address once the page has loaded, so that its
    /// `Origin` and the `Host` of its requests agree. Such an upgrade is refused with 403
    /// and a body that says so. [`serve`] refuses a list with an entry that is not a host
    /// name alone. Default: none.
    pub allowed_hosts: Vec<String>,
    /// A match whose human seats have all been away (no socket bound) this long is closed
    /// as abandoned: stored so, its timer and bots stopped, its sockets sent a `closed`
    /// push, later requests answered `MATCH_CLOSED`. Default: 10 minutes.
    pub abandon_after: Duration,
    /// A match none of whose human seats was ever taken is closed this long after its
    /// creation (as `unjoined`, otherwise as above). Default: 2 minutes.
    pub unjoined_after: Duration,
    /// How long a finished match stays in memory, serving its final view, before it
    /// leaves it (its `record` is then served from the store). Default: 30 s.
    pub finished_linger: Duration,
    /// Where `GET /metrics` (Prometheus) is served; `None` (the default): nowhere. Never
    /// on the public address: the figures are for the operator.
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// How often a seat's presence may change the match (each change is a record entry
    /// and an update pushed to every bound socket), 1 s by default. A seat that goes
    /// within this of its last change is told away only at its end, as it stands then
    /// (one that came back meanwhile changes nothing: its `hello`/`watch` flips are
    /// coalesced); a seat that comes back is told at once, so nobody bound is played
    /// for. A seat's presence changes the match at most twice per interval.
    pub presence_interval: Duration,
    /// The `hello`s and `watch`es that bind or unbind a seat, per seat and minute on
    /// average, 60 by default (a token bucket; `RATE_LIMITED` with `retryAfterMs` past
    /// it, and nothing changes).
    pub presence_per_minute: u32,
    /// How many of those a seat may send at once before the rate applies (the bucket's
    /// depth), 20 by default.
    pub presence_burst: u32,
    /// The most record entries of a match that are not moves (presence changes and the
    /// grace), 1,000 by default: a `hello` that would add one past it is refused with
    /// `QUOTA_EXCEEDED` (`limit: "presenceEntries"`). Leaving a seat is never refused, so
    /// the engine always learns that a player went.
    pub max_presence_entries: usize,
    /// The most matches one socket is bound to at once, by `watch` or `hello`, 100 by
    /// default (`QUOTA_EXCEEDED`, `watchesPerSocket`; a binding to a match the socket is
    /// already bound to replaces it and counts once).
    pub max_watches_per_socket: usize,
    /// The most match bindings of the sockets of one client address, 1,000 by default
    /// (`QUOTA_EXCEEDED`, `watchesPerAddress`).
    pub max_watches_per_address: usize,
    /// The `record`s one socket may ask per minute on average, 30 by default (a token
    /// bucket [`Config::record_burst`] deep; `RATE_LIMITED` with `retryAfterMs` past it).
    pub records_per_minute: u32,
    /// The `record`s the sockets of one client address may ask per minute on average,
    /// 120 by default (a bucket [`Config::record_burst`] deep).
    pub address_records_per_minute: u32,
    /// How many `record`s a socket, or an address, may ask at once before the rates
    /// apply, 10 by default.
    pub record_burst: u32,
    /// The requests naming a match not in memory (each sends the store looking for it)
    /// one client address may send per minute on average, 600 by default (`RATE_LIMITED`
    /// with `retryAfterMs` past it).
    pub lookups_per_minute: u32,
    /// How many such requests an address may send at once, 60 by default.
    pub lookup_burst: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bot_delay: Duration::from_millis(300),
            call_delay: Duration::from_millis(1_500),
            grace: None,
            allow_seed: false,
            idle_timeout: Duration::from_secs(60),
            header_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(5),
            push_queue_bytes: 8 << 20,
            max_message: MAX_MESSAGE,
            message_timeout: Duration::from_secs(10),
            connections_total: 10_000,
            connections_per_address: 256,
            matches_per_socket: 32,
            matches_per_address: 256,
            matches_total: 10_000,
            creates_per_minute: 120,
            create_burst: 30,
            client_ip_header: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            abandon_after: ended::ABANDON_AFTER,
            unjoined_after: ended::UNJOINED_AFTER,
            finished_linger: ended::FINISHED_LINGER,
            metrics_addr: None,
            presence_interval: Duration::from_secs(1),
            presence_per_minute: 60,
            presence_burst: 20,
            max_presence_entries: 1_000,
            max_watches_per_socket: 100,
            max_watches_per_address: 1_000,
            records_per_minute: 30,
            address_records_per_minute: 120,
            record_burst: 10,
            lookups_per_minute: 600,
            lookup_burst: 60,
        }
    }
}

/// A match the server runs: its task's inbox and its seats.
pub(crate) struct Handle {
    pub(crate) tx: mpsc::UnboundedSender<Cmd>,
    pub(crate) seats: Vec<Seat>,
    /// The instance that runs the match, when it is not this one: the task is a proxy.
    pub(crate) remote: Option<String>,
}

/// What every task shares.
pub(crate) struct Shared {
    pub(crate) config: Config,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) writer: Writer,
    pub(crate) matches: Mutex<HashMap<String, Handle>>,
    /// Match ids a `create` is storing: taken, though not yet in `matches`.
    pub(crate) creating: Mutex<HashSet<String>>,
    /// The games served: every match is created or replayed over it.
    pub(crate) registry: Registry,
    /// Turns true at shutdown: the sockets close.
    pub(crate) closing: watch::Receiver<bool>,
    /// Each open HTTP connection and WebSocket holds a receiver of it: the shutdown waits
    /// until none is left (or its grace ends).
    pub(crate) open: watch::Sender<()>,
    /// What clients hold: connections, open matches, create buckets.
    pub(crate) limits: Arc<limits::Limits>,
    /// The stored matches not restored yet.
    pub(crate) restoring: restore::Pending,
    /// The routes to and from the other instances sharing the store.
    pub(crate) router: remote::Router,
    /// Finished matches' records, kept compressed for `record`.
    pub(crate) records: records::Cache,
    /// This, for the tasks a `&Shared` starts.
    pub(crate) me: std::sync::Weak<Shared>,
}

/// A match id reserved by a `create` until it is running (or refused): released on drop.
pub(crate) struct Reservation<'a> {
    shared: &'a Shared,
    id: String,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        lock(&self.shared.creating).remove(&self.id);
    }
}

/// A lock taken even if a task panicked holding it: every map here stays consistent
/// under a panic (single inserts and removes).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub(crate) fn matches(&self) -> std::sync::MutexGuard<'_, HashMap<String, Handle>> {
        lock(&self.matches)
    }

    /// Reserves `id` for a new match, or `None` if a match has it or another `create` is
    /// storing it. Two sockets creating the same id at once: exactly one gets it.
    pub(crate) fn reserve(&self, id: &str) -> Option<Reservation<'_>> {
        let matches = self.matches();
        let mut creating = lock(&self.creating);
        if matches.contains_key(id) || !creating.insert(id.to_owned()) {
            return None;
        }
        Some(Reservation {
            shared: self,
            id: id.to_owned(),
        })
    }

    /// Drops a match whose task ended.
    pub(crate) fn forget(&self, id: &str) {
        self.matches().remove(id);
    }
}

/// Opens the store `db` names: a PostgreSQL database for a `postgres://` or
/// `postgresql://` URL ([`PgStore`]), else a SQLite file (`:memory:` for none kept,
/// [`SqliteStore`]).
///
/// `lease` is how long a PostgreSQL store's leases last unrenewed ([`Leases`]).
pub fn open_store(db: &str, lease: Duration) -> Result<Arc<dyn Store>, StoreError> {
    if is_postgres_url(db) {
        Ok(Arc::new(PgStore::open_leased(db, lease)?))
    } else {
        Ok(Arc::new(SqliteStore::open(db)?))
    }
}

/// Whether `db` names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// The server's clock: milliseconds since the UNIX epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Starts the task of a match.
pub(crate) fn spawn(shared: &Arc<Shared>, actor: Actor, seats: Vec<Seat>) {
    let (tx, rx) = mpsc::unbounded_channel();
    shared.matches().insert(
        actor.id.clone(),
        Handle {
            tx,
            seats,
            remote: None,
        },
    );
    tokio::spawn(actor.run(rx));
}

/// Serves the games of `registry` on `listener` over `store` until `shutdown` resolves,
/// then closes every socket and returns once they are closed or
/// [`Config::shutdown_grace`] has passed. `ready` runs once the ids of the unfinished
/// matches in the store are read and the server answers (a command line prints its
/// address there); the matches are restored behind it, in batches (a request for one
/// not yet back waits for it). A malformed [`Config::allowed_origins`] or
/// [`Config::allowed_hosts`] entry is refused at once (`InvalidInput`).
pub async fn serve(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    registry: Registry,
    config: Config,
    ready: impl std::future::Future<Output = ()>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    web::check_allowed(&config.allowed_origins)?;
    web::check_hosts(&config.allowed_hosts)?;
    if let Some(addr) = config.metrics_addr {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        observe::serve_metrics(listener, config.header_timeout)?;
    }
    let (close, closing) = watch::channel(false);
    let (open, _) = watch::channel(());
    let shared = Arc::new_cyclic(|me| Shared {
        config,
        writer: Writer::start(store.clone()),
        store,
        matches: Mutex::new(HashMap::new()),
        creating: Mutex::new(HashSet::new()),
        registry,
        closing,
        open,
        limits: Arc::new(limits::Limits::new()),
        restoring: restore::Pending::new(),
        router: remote::Router::default(),
        records: records::Cache::default(),
        me: me.clone(),
    });
    // Listening before anything is claimed: a request routed here once this instance
    // owns a match is never missed.
    remote::start(&shared).map_err(std::io::Error::other)?;
    // Only the ids are read before the server answers: the matches themselves are
    // restored behind it, a request for one not yet back waiting for it.
    let ids = restore::list(&shared).map_err(std::io::Error::other)?;
    ready.await;
    tokio::spawn(restore::run(shared.clone(), ids));
    let (stop_leases, leases_stop) = tokio::sync::oneshot::channel();
    let leases = tokio::spawn(lease::run(shared.clone(), leases_stop));
    web::accept(&shared, listener, shutdown).await;
    // The leases are released before the sockets close: a client that reconnects at once
    // finds its match claimed by another instance, not still held by this one.
    let _ = stop_leases.send(());
    let _ = leases.await;
    let _ = close.send(true);
    let grace = shared.config.shutdown_grace;
    if tokio::time::timeout(grace, shared.open.closed())
        .await
        .is_err()
    {
        tracing::warn!(
            "shutdown: {} connections still open after {} ms, left behind",
            shared.open.receiver_count(),
            grace.as_millis()
        );
    }
    Ok(())
}
