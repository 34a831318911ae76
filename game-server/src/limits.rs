//! What one client may hold of the server: its address (the TCP peer, or a proxy's
//! header the operator names), its WebSocket connections, its open matches, the rate of
//! its `create`s, and how long a message it started may stay incomplete.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::http::HeaderMap;
use game_host::reply::{Fail, fail};
use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::Config;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The address a client is counted under: the TCP peer's, or, when the operator named a
/// header (`Config::client_ip_header`, a reverse proxy's `X-Forwarded-For`), the last
/// address in that header: the one the proxy itself appended, so a client cannot choose
/// it by sending the header (addresses before it are the client's word). A request
/// without the header, or with a last entry that is no address, is counted under the
/// peer (the proxy's address, when it is in front).
///
/// An IPv6 address is counted by its /64 (an IPv4 address mapped into IPv6 as the IPv4
/// address): one subscriber is given a whole /64, so a cap per single IPv6 address
/// would bind nobody.
pub(crate) fn client_address(peer: IpAddr, headers: &HeaderMap, header: Option<&str>) -> IpAddr {
    let address = match header {
        None => peer,
        Some(name) => headers
            .get_all(name)
            .iter()
            .next_back()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|last| last.trim().parse().ok())
            .unwrap_or(peer),
    };
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

/// Counts under a cap, in all and per address; an entry leaves the map at zero, so the
/// map holds only addresses that hold something.
#[derive(Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

impl Counts {
    fn release(&mut self, address: Option<IpAddr>) {
        self.total = self.total.saturating_sub(1);
        if let Some(a) = address
            && let Some(n) = self.by_address.get_mut(&a)
        {
            *n -= 1;
            if *n == 0 {
                self.by_address.remove(&a);
            }
        }
    }
}

/// A rate: a token bucket `burst` deep, refilled at `per_minute`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rate {
    pub(crate) per_minute: u32,
    pub(crate) burst: u32,
}

/// A token bucket: `tokens` as of `at`.
#[derive(Clone)]
pub(crate) struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket of `rate`.
    pub(crate) fn full(rate: Rate, now: Instant) -> Self {
        Self {
            tokens: f64::from(rate.burst.max(1)),
            at: now,
        }
    }

    /// The tokens as of `now` (never past the depth).
    fn level(&self, rate: Rate, now: Instant) -> f64 {
        let per_ms = f64::from(rate.per_minute) / 60_000.0;
        let ms = now.saturating_duration_since(self.at).as_secs_f64() * 1000.0;
        (self.tokens + ms * per_ms).min(f64::from(rate.burst.max(1)))
    }

    /// Takes a token at `now`, or says in how many milliseconds the next one comes.
    pub(crate) fn take(&mut self, rate: Rate, now: Instant) -> Result<(), u64> {
        let tokens = self.level(rate, now);
        self.at = now;
        if tokens >= 1.0 {
            self.tokens = tokens - 1.0;
            return Ok(());
        }
        self.tokens = tokens;
        let per_ms = f64::from(rate.per_minute) / 60_000.0;
        Err(if per_ms > 0.0 {
            ((1.0 - tokens) / per_ms).ceil() as u64
        } else {
            u64::MAX
        })
    }
}

/// `RATE_LIMITED`, the next token `wait_ms` away; `message` says what came too fast.
pub(crate) fn rate_limited(message: &str, wait_ms: u64) -> Fail {
    fail("RATE_LIMITED", message, json!({ "retryAfterMs": wait_ms }))
}

/// The buckets of the addresses that created lately. A full bucket is the same as none,
/// so the map is pruned of full ones whenever it doubled since the last pruning: it
/// holds about the addresses that created within the time a bucket takes to refill.
struct Buckets {
    map: HashMap<IpAddr, Bucket>,
    prune_at: usize,
}

/// Why a connection is refused at the upgrade.
#[derive(Debug)]
pub(crate) enum Refused {
    /// The server holds its most connections (503).
    Total(usize),
    /// This address holds its most (429).
    Address(usize),
}

impl Buckets {
    fn new() -> Mutex<Self> {
        Mutex::new(Self {
            map: HashMap::new(),
            prune_at: 1024,
        })
    }

    /// Takes a token from `address`'s bucket at `now`, or says when the next one comes.
    fn take(&mut self, rate: Rate, address: IpAddr, now: Instant) -> Result<(), u64> {
        let depth = f64::from(rate.burst.max(1));
        if self.map.len() >= self.prune_at {
            self.map.retain(|_, b| b.level(rate, now) < depth);
            self.prune_at = (self.map.len() * 2).max(1024);
        }
        self.map
            .entry(address)
            .or_insert_with(|| Bucket::full(rate, now))
            .take(rate, now)
    }
}

/// The server's counters of what clients hold.
pub(crate) struct Limits {
    connections: Mutex<Counts>,
    matches: Mutex<Counts>,
    /// Match bindings (`hello` and `watch`) per address.
    watches: Mutex<Counts>,
    buckets: Mutex<Buckets>,
    /// `record` requests per address.
    records: Mutex<Buckets>,
    /// Requests that send the store looking for a match not in memory, per address.
    lookups: Mutex<Buckets>,
}

impl Limits {
    pub(crate) fn new() -> Self {
        Self {
            connections: Mutex::new(Counts::default()),
            matches: Mutex::new(Counts::default()),
            watches: Mutex::new(Counts::default()),
            buckets: Buckets::new(),
            records: Buckets::new(),
            lookups: Buckets::new(),
        }
    }

    /// Counts one more match binding for a socket holding `held` and for `address`, or
    /// refuses it with `QUOTA_EXCEEDED` naming the cap (`watchesPerSocket`,
    /// `watchesPerAddress`). The binding is held until the returned guard drops.
    pub(crate) fn watch(
        self: &Arc<Self>,
        config: &Config,
        held: usize,
        address: IpAddr,
    ) -> Result<Watching, Fail> {
        let exceeded = |limit: &str, max: usize| {
            fail(
                "QUOTA_EXCEEDED",
                "한꺼번에 보는 게임이 너무 많아요. 다른 게임을 닫은 뒤에 다시 해 주세요.",
                json!({ "limit": limit, "max": max }),
            )
        };
        if held >= config.max_watches_per_socket {
            return Err(exceeded("watchesPerSocket", config.max_watches_per_socket));
        }
        let mut w = lock(&self.watches);
        let n = w.by_address.entry(address).or_insert(0);
        if *n >= config.max_watches_per_address {
            if *n == 0 {
                w.by_address.remove(&address);
            }
            return Err(exceeded(
                "watchesPerAddress",
                config.max_watches_per_address,
            ));
        }
        *n += 1;
        w.total += 1;
        Ok(Watching {
            limits: self.clone(),
            address,
        })
    }

    /// Takes a `record` request from `address`'s bucket
    /// (`Config::address_records_per_minute`, `Config::record_burst` deep), or refuses
    /// it with `RATE_LIMITED`.
    pub(crate) fn take_record(&self, config: &Config, address: IpAddr) -> Result<(), Fail> {
        let rate = Rate {
            per_minute: config.address_records_per_minute,
            burst: config.record_burst,
        };
        lock(&self.records)
            .take(rate, address, Instant::now())
            .map_err(|wait| rate_limited(RECORDS_TOO_FAST, wait))
    }

    /// Takes a look-up of a match not in memory from `address`'s bucket
    /// (`Config::lookups_per_minute`, `Config::lookup_burst` deep), or refuses it with
    /// `RATE_LIMITED`: each costs the store a query.
    pub(crate) fn take_lookup(&self, config: &Config, address: IpAddr) -> Result<(), Fail> {
        let rate = Rate {
            per_minute: config.lookups_per_minute,
            burst: config.lookup_burst,
        };
        lock(&self.lookups)
            .take(rate, address, Instant::now())
            .map_err(|wait| {
                rate_limited(
                    "없는 게임을 너무 자주 찾고 있어요. 잠시 후 다시 해 주세요.",
                    wait,
                )
            })
    }

    /// Takes a WebSocket connection for `address`, or says which cap refuses it. The
    /// connection is held until the returned guard drops.
    pub(crate) fn connect(
        self: &Arc<Self>,
        config: &Config,
        address: IpAddr,
    ) -> Result<Connection, Refused> {
        let mut c = lock(&self.connections);
        if c.total >= config.connections_total {
            return Err(Refused::Total(config.connections_total));
        }
        let n = c.by_address.entry(address).or_insert(0);
        if *n >= config.connections_per_address {
            let max = config.connections_per_address;
            if *n == 0 {
                c.by_address.remove(&address);
            }
            return Err(Refused::Address(max));
        }
        *n += 1;
        c.total += 1;
        Ok(Connection {
            limits: self.clone(),
            address,
        })
    }

    /// Counts a new open match against the socket's, the address's and the server's
    /// caps, or refuses it with `QUOTA_EXCEEDED` naming the cap. `address` `None`: a
    /// match restored at start, counted in all only (never refused).
    pub(crate) fn open_match(
        self: &Arc<Self>,
        config: &Config,
        socket: Option<&Arc<AtomicUsize>>,
        address: Option<IpAddr>,
    ) -> Result<OpenMatch, Fail> {
        let mut m = lock(&self.matches);
        if let Some(address) = address {
            let exceeded = |limit: &str, max: usize| {
                fail(
                    "QUOTA_EXCEEDED",
                    "열어 둔 게임이 너무 많아요. 게임이 끝난 뒤에 다시 만들어 주세요.",
                    json!({ "limit": limit, "max": max }),
                )
            };
            if socket.is_some_and(|s| s.load(Ordering::Acquire) >= config.matches_per_socket) {
                return Err(exceeded("matchesPerSocket", config.matches_per_socket));
            }
            if m.by_address.get(&address).copied().unwrap_or(0) >= config.matches_per_address {
                return Err(exceeded("matchesPerAddress", config.matches_per_address));
            }
            if m.total >= config.matches_total {
                return Err(exceeded("matchesTotal", config.matches_total));
            }
            *m.by_address.entry(address).or_insert(0) += 1;
        }
        m.total += 1;
        if let Some(s) = socket {
            s.fetch_add(1, Ordering::AcqRel);
        }
        Ok(OpenMatch {
            limits: self.clone(),
            socket: socket.cloned(),
            address,
        })
    }

    /// Takes a `create` from `address`'s token bucket (`Config::create_burst` deep,
    /// refilled at `Config::creates_per_minute`), or refuses it with `RATE_LIMITED` and
    /// when the next token comes.
    pub(crate) fn take_create(&self, config: &Config, address: IpAddr) -> Result<(), Fail> {
        self.take_create_at(config, address, Instant::now())
    }

    fn take_create_at(&self, config: &Config, address: IpAddr, now: Instant) -> Result<(), Fail> {
        let rate = Rate {
            per_minute: config.creates_per_minute,
            burst: config.create_burst,
        };
        lock(&self.buckets)
            .take(rate, address, now)
            .map_err(|wait| {
                rate_limited(
                    "게임을 너무 빨리 만들고 있어요. 잠시 후 다시 해 주세요.",
                    wait,
                )
            })
    }
}

/// What `RATE_LIMITED` says to a socket or an address asking for records too fast.
pub(crate) const RECORDS_TOO_FAST: &str = "기록을 너무 자주 받고 있어요. 잠시 후 다시 해 주세요.";

/// A match binding counted against its address's cap until dropped.
pub(crate) struct Watching {
    limits: Arc<Limits>,
    address: IpAddr,
}

impl Drop for Watching {
    fn drop(&mut self) {
        lock(&self.limits.watches).release(Some(self.address));
    }
}

/// A WebSocket connection counted against the caps until dropped.
pub(crate) struct Connection {
    limits: Arc<Limits>,
    address: IpAddr,
}

impl Connection {
    /// The address the connection is counted under.
    pub(crate) fn address(&self) -> IpAddr {
        self.address
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        lock(&self.limits.connections).release(Some(self.address));
    }
}

/// An open match counted against its creator's caps until dropped: when the match
/// finishes or its task ends.
pub(crate) struct OpenMatch {
    limits: Arc<Limits>,
    socket: Option<Arc<AtomicUsize>>,
    address: Option<IpAddr>,
}

impl Drop for OpenMatch {
    fn drop(&mut self) {
        lock(&self.limits.matches).release(self.address);
        if let Some(s) = &self.socket {
            s.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// What a connection's client has sent, seen below the WebSocket's frame reader: bytes
/// read from the connection against bytes the socket has accounted for (whole messages
/// and control frames). More read than accounted means a message is under way; `since`
/// is when that began, which later fragments, pings and pongs do not move.
pub(crate) struct Inflow {
    state: Mutex<InflowState>,
    /// Woken when a message starts, so the socket times it without polling.
    started: Notify,
}

struct InflowState {
    read: u64,
    accounted: u64,
    since: Option<Instant>,
}

impl Inflow {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(InflowState {
                read: 0,
                accounted: 0,
                since: None,
            }),
            started: Notify::new(),
        })
    }

    fn on_read(&self, n: usize) {
        let mut s = lock(&self.state);
        s.read += n as u64;
        if s.since.is_none() && s.read > s.accounted {
            s.since = Some(Instant::now());
            drop(s);
            self.started.notify_one();
        }
    }

    /// Everything read so far is accounted for: a whole message came (bytes read ahead
    /// of it, the start of the next one, are taken as part of it: the next one is timed
    /// from its next bytes).
    pub(crate) fn settled(&self) {
        let mut s = lock(&self.state);
        s.accounted = s.read;
        s.since = None;
    }

    /// A control frame of `payload` bytes came: a client's frame is masked, so its head
    /// is 6 bytes (a control payload is at most 125). Never past what was read: a frame
    /// read ahead of the last whole message was accounted for with it.
    pub(crate) fn control(&self, payload: usize) {
        let mut s = lock(&self.state);
        s.accounted = (s.accounted + 6 + payload as u64).min(s.read);
        if s.accounted >= s.read {
            s.since = None;
        }
    }

    /// When the message under way, if any, must be whole.
    pub(crate) fn deadline(&self, limit: Duration) -> Option<Instant> {
        lock(&self.state).since.map(|t| t + limit)
    }

    /// Resolves when a message starts (or started since the last call).
    pub(crate) async fn started(&self) {
        self.started.notified().await;
    }
}

/// A TCP connection whose reads are told to its [`Inflow`].
pub(crate) struct Counted<S> {
    pub(crate) io: S,
    pub(crate) inflow: Arc<Inflow>,
}

impl<S: AsyncRead + Unpin> AsyncRead for Counted<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.io).poll_read(cx, buf);
        let n = buf.filled().len() - before;
        if n > 0 {
            self.inflow.on_read(n);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Counted<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// What a request's handler knows of its connection (an extension of every request).
#[derive(Clone)]
pub(crate) struct Peer {
    pub(crate) ip: IpAddr,
    pub(crate) inflow: Arc<Inflow>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_client_address_is_the_peer_unless_a_header_is_named() {
        let peer: IpAddr = "10.0.0.1".parse().unwrap();
        let h = headers(&["1.2.3.4, 5.6.7.8"]);
        assert_eq!(client_address(peer, &h, None), peer);
        let named = Some("X-Forwarded-For");
        assert_eq!(
            client_address(peer, &h, named),
            "5.6.7.8".parse::<IpAddr>().unwrap()
        );
        // The last header line's last address: the proxy's own entry.
        let two = headers(&["1.1.1.1", "2.2.2.2,  2001:db8:1:2::1 "]);
        assert_eq!(
            client_address(peer, &two, named),
            "2001:db8:1:2::".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_address(peer, &headers(&[]), named), peer);
        assert_eq!(client_address(peer, &headers(&["junk"]), named), peer);
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let none = &headers(&[]);
        let at = |a: &str| client_address(a.parse().unwrap(), none, None);
        assert_eq!(at("2001:db8:1:2:aaaa::1"), at("2001:db8:1:2:ffff:1:2:3"));
        assert_ne!(at("2001:db8:1:2::1"), at("2001:db8:1:3::1"));
        assert_eq!(at("::ffff:10.1.2.3"), at("10.1.2.3"));
        assert_ne!(at("10.1.2.3"), at("10.1.2.4"));
    }

    #[test]
    fn a_bucket_refills_at_its_rate_and_idle_buckets_are_dropped() {
        let config = Config {
            creates_per_minute: 60,
            create_burst: 2,
            ..Config::default()
        };
        let limits = Limits::new();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let t0 = Instant::now();
        assert!(limits.take_create_at(&config, a, t0).is_ok());
        assert!(limits.take_create_at(&config, a, t0).is_ok());
        let refused = limits.take_create_at(&config, a, t0).unwrap_err();
        let refused = serde_json::to_value(&refused.error).unwrap();
        assert_eq!(refused["code"], "RATE_LIMITED", "{refused}");
        assert_eq!(refused["reason"]["retryAfterMs"], 1000, "{refused}");
        let t1 = t0 + Duration::from_millis(999);
        assert!(limits.take_create_at(&config, a, t1).is_err());
        let t1 = t0 + Duration::from_millis(1000);
        assert!(limits.take_create_at(&config, a, t1).is_ok());
        // Many addresses once each: once they refilled, the map is pruned to the new ones.
        for i in 0..2000u32 {
            let ip = IpAddr::from(std::net::Ipv4Addr::from(0x0b00_0000 + i));
            limits.take_create_at(&config, ip, t1).unwrap();
        }
        let t2 = t1 + Duration::from_secs(5);
        for i in 0..2000u32 {
            let ip = IpAddr::from(std::net::Ipv4Addr::from(0x0c00_0000 + i));
            limits.take_create_at(&config, ip, t2).unwrap();
        }
        let held = lock(&limits.buckets).map.len();
        assert!(held < 3000, "{held} buckets held");
    }

    #[test]
    fn a_message_is_timed_from_its_first_byte_and_control_frames_do_not_move_it() {
        let limit = Duration::from_secs(1);
        let inflow = Inflow::new();
        inflow.on_read(200);
        inflow.settled();
        assert_eq!(inflow.deadline(limit), None);
        // A ping alone: accounted once it is read as one.
        inflow.on_read(7);
        assert!(inflow.deadline(limit).is_some());
        inflow.control(1);
        assert_eq!(inflow.deadline(limit), None);
        // A fragment, then a ping and more fragments: the first byte's time stays.
        inflow.on_read(30);
        let due = inflow.deadline(limit).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        inflow.on_read(6);
        inflow.control(0);
        inflow.on_read(30);
        assert_eq!(inflow.deadline(limit), Some(due));
        inflow.settled();
        assert_eq!(inflow.deadline(limit), None);
        // Control frames read ahead of a whole message are not counted twice.
        inflow.on_read(12);
        inflow.settled();
        inflow.control(0);
        inflow.control(0);
        inflow.on_read(3);
        assert!(inflow.deadline(limit).is_some());
    }

    #[test]
    fn counts_leave_with_their_guards() {
        let config = Config {
            matches_per_socket: 2,
            matches_per_address: 3,
            matches_total: 4,
            connections_total: 2,
            connections_per_address: 1,
            ..Config::default()
        };
        let limits = Arc::new(Limits::new());
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let s1 = Arc::new(AtomicUsize::new(0));
        let s2 = Arc::new(AtomicUsize::new(0));
        let code = |r: Result<OpenMatch, Fail>| {
            let v = serde_json::to_value(r.err().unwrap().error).unwrap();
            v["reason"]["limit"].as_str().unwrap().to_owned()
        };
        let m1 = limits.open_match(&config, Some(&s1), Some(a)).unwrap();
        let _m2 = limits.open_match(&config, Some(&s1), Some(a)).unwrap();
        assert_eq!(
            code(limits.open_match(&config, Some(&s1), Some(a))),
            "matchesPerSocket"
        );
        let _m3 = limits.open_match(&config, Some(&s2), Some(a)).unwrap();
        assert_eq!(
            code(limits.open_match(&config, Some(&s2), Some(a))),
            "matchesPerAddress"
        );
        let _m4 = limits.open_match(&config, Some(&s2), Some(b)).unwrap();
        assert_eq!(
            code(limits.open_match(&config, None, Some(b))),
            "matchesTotal"
        );
        drop(m1);
        assert_eq!(s1.load(Ordering::Acquire), 1);
        assert!(limits.open_match(&config, Some(&s1), Some(a)).is_ok());

        let c1 = limits.connect(&config, a).unwrap();
        assert!(matches!(
            limits.connect(&config, a),
            Err(Refused::Address(1))
        ));
        let _c2 = limits.connect(&config, b).unwrap();
        assert!(matches!(
            limits.connect(&config, "10.0.0.3".parse().unwrap()),
            Err(Refused::Total(2))
        ));
        drop(c1);
        assert!(limits.connect(&config, a).is_ok());
        assert!(lock(&limits.connections).by_address.len() <= 2);
    }
}
