//! The real server binary on a free port, and WebSocket clients for it.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The crate's `party-games-server` binary (cargo builds it, up to date, before it
/// builds an integration test, even for `cargo test --test X`), or the binary
/// `GAME_SERVER_BIN` names (to run a test against another build).
pub fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("GAME_SERVER_BIN") {
        return PathBuf::from(path);
    }
    PathBuf::from(env!("CARGO_BIN_EXE_party-games-server"))
}

fn now_nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// Which store a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

/// The PostgreSQL server the tests run on: `PARTY_GAMES_TEST_PG` (a `postgres://` URL of
/// a database the user may create databases from), by default the local one.
pub const PG_ENV: &str = "PARTY_GAMES_TEST_PG";
/// Set (to anything but `0`) to make the PostgreSQL tests fail, rather than say they
/// were not run, when no database is reachable (`.ci/run` sets it).
pub const PG_REQUIRED_ENV: &str = "PARTY_GAMES_REQUIRE_PG";
const PG_DEFAULT: &str = "postgres://root@127.0.0.1:5432/test";

fn pg_base() -> String {
    std::env::var(PG_ENV).unwrap_or_else(|_| PG_DEFAULT.to_owned())
}

/// `base` with its database name replaced by `name` (the query string kept).
fn pg_url_with_db(base: &str, name: &str) -> String {
    let (head, query) = match base.split_once('?') {
        Some((h, q)) => (h, format!("?{q}")),
        None => (base, String::new()),
    };
    let scheme_end = head.find("://").map_or(0, |i| i + 3);
    let host_end = head[scheme_end..]
        .find('/')
        .map_or(head.len(), |i| scheme_end + i);
    format!("{}/{name}{query}", &head[..host_end])
}

/// Runs `job` against the database `url` on a thread of its own (callable from a test's
/// runtime or outside one).
pub fn pg_run<T: Send + 'static>(
    url: &str,
    job: impl AsyncFnOnce(&tokio_postgres::Client) -> Result<T, tokio_postgres::Error> + Send + 'static,
) -> Result<T, String> {
    let url = url.to_owned();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut config: tokio_postgres::Config =
                url.parse().map_err(|e| format!("{url}: {e}"))?;
            config.connect_timeout(Duration::from_secs(3));
            let (client, conn) = config
                .connect(tokio_postgres::NoTls)
                .await
                .map_err(|e| format!("{url}: {e:?}"))?;
            let conn = tokio::spawn(conn);
            let out = job(&client).await.map_err(|e| match e.as_db_error() {
                Some(db) => format!("{url}: {}", db.message()),
                None => format!("{url}: {e:?}"),
            });
            drop(client);
            let _ = conn.await;
            out
        })
    })
    .join()
    .unwrap()
}

/// A temporary store for one test, removed at its end: a SQLite file in a folder of its
/// own, or a PostgreSQL database of its own (so tests run in parallel).
pub struct TempDb {
    dir: PathBuf,
    /// The PostgreSQL database's URL and name, for a Postgres one.
    pg: Option<(String, String)>,
}

static PG_SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl TempDb {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("game-server-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self { dir, pg: None }
    }

    /// A store of `kind` for the test `name`; `None` (said on stderr) for a Postgres one
    /// when no PostgreSQL server is reachable and [`PG_REQUIRED_ENV`] is not set.
    pub fn of(kind: Kind, name: &str) -> Option<Self> {
        match kind {
            Kind::Sqlite => Some(Self::new(name)),
            Kind::Postgres => Self::postgres(name),
        }
    }

    /// A fresh PostgreSQL database (see [`TempDb::of`]).
    pub fn postgres(name: &str) -> Option<Self> {
        let base = pg_base();
        let n = PG_SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut db: String = format!("gs_{}_{}_{n}", name, std::process::id())
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        db.truncate(63);
        let (drop, create) = (
            format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"),
            format!("CREATE DATABASE {db}"),
        );
        let made = pg_run(&base, async move |c| {
            c.batch_execute(&drop).await?;
            c.batch_execute(&create).await
        });
        if let Err(e) = made {
            let required = std::env::var(PG_REQUIRED_ENV).is_ok_and(|v| !v.is_empty() && v != "0");
            assert!(
                !required,
                "PostgreSQL required ({PG_REQUIRED_ENV}) but not reachable: {e}"
            );
            // Straight to the process's stderr, past the test harness's capture: a test
            // not run must be seen even when every test passes.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "postgres: NOT RUN: {name}: no PostgreSQL at {base} ({e}); set {PG_ENV} to a \
                 reachable server's URL, or {PG_REQUIRED_ENV}=1 to make this a failure"
            );
            return None;
        }
        let mut me = Self::new(&db);
        me.pg = Some((pg_url_with_db(&base, &db), db));
        Some(me)
    }

    pub fn kind(&self) -> Kind {
        if self.pg.is_some() {
            Kind::Postgres
        } else {
            Kind::Sqlite
        }
    }

    /// What `--db` is given: the SQLite file, or the PostgreSQL URL.
    pub fn path(&self) -> PathBuf {
        match &self.pg {
            Some((url, _)) => PathBuf::from(url),
            None => self.dir.join("games.sqlite"),
        }
    }

    /// The store itself, opened in this process.
    pub fn open(&self) -> std::sync::Arc<dyn party_games_server::Store> {
        party_games_server::open_store(self.path().to_str().unwrap(), Duration::from_secs(10))
            .unwrap()
    }

    /// Runs `statements` (SQL both databases read, `?1`-style parameters, all text:
    /// `CAST(?2 AS BIGINT)` for a number) in one transaction, behind the server's back.
    pub fn exec(&self, statements: &[(&str, Vec<String>)]) {
        match &self.pg {
            None => {
                let mut conn = open_db(&self.path());
                let tx = conn.transaction().unwrap();
                for (sql, params) in statements {
                    tx.execute(sql, rusqlite::params_from_iter(params.iter()))
                        .unwrap();
                }
                tx.commit().unwrap();
            }
            Some((url, _)) => {
                let owned: Vec<(String, Vec<String>)> = statements
                    .iter()
                    .map(|(sql, p)| (pg_sql(sql), p.clone()))
                    .collect();
                pg_run(url, async move |c| {
                    c.batch_execute("BEGIN").await?;
                    for (sql, params) in &owned {
                        let types = vec![tokio_postgres::types::Type::TEXT; params.len()];
                        let stmt = c.prepare_typed(sql, &types).await?;
                        let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
                            params.iter().map(|p| p as _).collect();
                        c.execute(&stmt, &refs).await?;
                    }
                    c.batch_execute("COMMIT").await
                })
                .unwrap();
            }
        }
    }

    /// One integer a query answers (`?1`-style text parameters, as [`TempDb::exec`]).
    pub fn query_i64(&self, sql: &str, params: &[&str]) -> i64 {
        match &self.pg {
            None => open_db(&self.path())
                .query_row(sql, rusqlite::params_from_iter(params.iter()), |r| r.get(0))
                .unwrap(),
            Some((url, _)) => {
                let sql = pg_sql(sql);
                let params: Vec<String> = params.iter().map(|p| (*p).to_owned()).collect();
                pg_run(url, async move |c| {
                    let types = vec![tokio_postgres::types::Type::TEXT; params.len()];
                    let stmt = c.prepare_typed(&sql, &types).await?;
                    let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
                        params.iter().map(|p| p as _).collect();
                    let row = c.query_one(&stmt, &refs).await?;
                    let ty = row.columns()[0].type_().clone();
                    Ok(if ty == tokio_postgres::types::Type::INT2 {
                        i64::from(row.get::<_, i16>(0))
                    } else if ty == tokio_postgres::types::Type::INT4 {
                        i64::from(row.get::<_, i32>(0))
                    } else {
                        row.get::<_, i64>(0)
                    })
                })
                .unwrap()
            }
        }
    }
}

impl TempDb {
    /// The transactions committed in this PostgreSQL database as its statistics say
    /// (read from the server's base database, so that reading them commits none here).
    /// The statistics a session has not flushed yet are not in it.
    pub fn pg_commits(&self) -> i64 {
        let (_, name) = self.pg.as_ref().expect("a PostgreSQL store");
        let name = name.clone();
        pg_run(&pg_base(), async move |c| {
            c.batch_execute("SELECT pg_stat_clear_snapshot()").await?;
            let row = c
                .query_one(
                    "SELECT xact_commit FROM pg_stat_database WHERE datname = $1",
                    &[&name],
                )
                .await?;
            Ok(row.get::<_, i64>(0))
        })
        .unwrap()
    }
}

/// SQLite's `?N` parameters as PostgreSQL's `$N`.
fn pg_sql(sql: &str) -> String {
    sql.replace('?', "$")
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((_, db)) = &self.pg {
            let drop = format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)");
            let _ = pg_run(&pg_base(), async move |c| c.batch_execute(&drop).await);
        }
    }
}

/// Runs an async test body once on each store: `on_stores! { async fn name(db) { .. } }`
/// makes the tests `name::sqlite` and `name::postgres` (the latter says it was not run
/// when no PostgreSQL is reachable, unless [`PG_REQUIRED_ENV`] is set).
#[macro_export]
macro_rules! on_stores {
    ($(#[doc = $doc:literal])* async fn $name:ident($db:ident) $body:block) => {
        $(#[doc = $doc])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn body($db: super::common::TempDb) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                body(super::common::TempDb::new(stringify!($name))).await
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(db) = super::common::TempDb::postgres(stringify!($name)) {
                    body(db).await
                }
            }
        }
    };
}

/// The per-client limits the tests of other behaviours run without.
const LIFTED: [(&str, &str); 11] = [
    ("--max-matches-per-socket", "1000000"),
    ("--max-matches-per-address", "1000000"),
    ("--creates-per-minute", "1000000000"),
    ("--create-burst", "1000000"),
    ("--max-watches-per-address", "1000000"),
    ("--records-per-minute", "1000000000"),
    ("--address-records-per-minute", "1000000000"),
    ("--record-burst", "1000000"),
    ("--lookups-per-minute", "1000000000"),
    ("--lookup-burst", "1000000"),
    ("--presence-burst", "1000000"),
];

/// Where a server on `db` logs: beside a SQLite file, in the temporary folder for a
/// PostgreSQL URL.
fn log_beside(db: &Path) -> PathBuf {
    let text = db.to_string_lossy();
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        let name: String = text
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        std::env::temp_dir().join(format!("game-server-{name}.stderr-{}", now_nanos()))
    } else {
        db.with_extension(format!("stderr-{}", now_nanos()))
    }
}

/// A running server process; killed (SIGKILL) on drop.
pub struct Server {
    child: Child,
    pub addr: String,
    /// Where its stderr goes, when kept ([`Server::start_with`]).
    stderr: Option<PathBuf>,
}

impl Server {
    pub fn start(db: &Path, bot_delay_ms: u64) -> Self {
        Self::launch(Command::new(binary()), db, bot_delay_ms, &[], None)
    }

    /// [`Server::start`] with more command-line flags, its stderr kept beside the
    /// database (read with [`Server::stderr`]).
    pub fn start_with(db: &Path, bot_delay_ms: u64, flags: &[&str]) -> Self {
        let log = log_beside(db);
        Self::launch(Command::new(binary()), db, bot_delay_ms, flags, Some(log))
    }

    /// [`Server::start_with`] of another binary of the server's command line (an
    /// author's, over a registry of their own): `cmd` with the program and its
    /// environment.
    pub fn start_command(cmd: Command, db: &Path, bot_delay_ms: u64, flags: &[&str]) -> Self {
        let log = log_beside(db);
        Self::launch(cmd, db, bot_delay_ms, flags, Some(log))
    }

    /// [`Server::start_with`] with its stderr written to `log` (a database on a file
    /// system the test fills keeps its log elsewhere).
    pub fn start_logged(db: &Path, bot_delay_ms: u64, flags: &[&str], log: PathBuf) -> Self {
        Self::launch(Command::new(binary()), db, bot_delay_ms, flags, Some(log))
    }

    fn launch(
        mut cmd: Command,
        db: &Path,
        bot_delay_ms: u64,
        flags: &[&str],
        log: Option<PathBuf>,
    ) -> Self {
        cmd.args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(["--bot-delay-ms", &bot_delay_ms.to_string()]);
        // Every test's clients share one address and create freely: the per-client
        // quotas and the rates of creates, records, look-ups and a seat's binds are
        // lifted unless the test sets them (or runs another build, which may not know
        // these flags).
        let other_build = std::env::var_os("GAME_SERVER_BIN").is_some();
        for (flag, value) in LIFTED {
            if !other_build && !flags.contains(&flag) {
                cmd.args([flag, value]);
            }
        }
        cmd.args(flags).stdout(Stdio::piped());
        if let Some(log) = &log {
            cmd.stderr(std::fs::File::create(log).unwrap());
        }
        let mut child = cmd.spawn().expect("the server binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_owned();
        Self {
            child,
            addr,
            stderr: log,
        }
    }

    /// What the server wrote to stderr so far (started with [`Server::start_with`]).
    pub fn stderr(&self) -> String {
        let path = self.stderr.as_ref().expect("started with start_with");
        std::fs::read_to_string(path).unwrap_or_default()
    }

    /// What the server wrote to stderr once it holds `needle`, within `secs`.
    pub fn stderr_until(&self, needle: &str, secs: u64) -> String {
        let until = std::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let err = self.stderr();
            if err.contains(needle) {
                return err;
            }
            assert!(
                std::time::Instant::now() < until,
                "no {needle:?} on stderr within {secs} s: {err}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGTERM, then the exit status within `secs` (`None`: still running).
    pub fn terminate(&mut self, secs: u64) -> Option<std::process::ExitStatus> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let until = std::time::Instant::now() + Duration::from_secs(secs);
        while std::time::Instant::now() < until {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// Sends the process `signal` (`STOP`, `CONT`, ...).
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -{signal}");
    }

    /// The process id (an instance's id in a shared store begins with it).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL, at once: nothing gets to close.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A WebSocket client: replies by request, pushes queued as they come.
pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub pushes: VecDeque<Value>,
    next_id: u64,
}

impl Client {
    pub async fn connect(addr: &str) -> Self {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .unwrap();
        Self {
            ws,
            pushes: VecDeque::new(),
            next_id: 0,
        }
    }

    /// A client over a socket opened some other way (with headers of its own).
    pub fn from_ws(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Self {
        Self {
            ws,
            pushes: VecDeque::new(),
            next_id: 0,
        }
    }

    /// Sends raw text and returns the next reply (pushes before it are queued).
    pub async fn raw(&mut self, text: String) -> Value {
        self.ws.send(Message::Text(text.into())).await.unwrap();
        loop {
            let v = self.recv().await;
            if v.get("push").is_some() {
                self.pushes.push_back(v);
            } else {
                return v;
            }
        }
    }

    /// Sends a request (an `id` is added) and returns its reply.
    pub async fn req(&mut self, mut req: Value) -> Value {
        self.next_id += 1;
        req["id"] = json!(self.next_id);
        let reply = self.raw(req.to_string()).await;
        assert_eq!(reply["id"], json!(self.next_id), "{reply}");
        reply
    }

    async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(30), self.ws.next())
                .await
                .expect("a message within 30 s")
                .expect("the socket is open")
                .unwrap();
            if let Message::Text(t) = msg {
                return serde_json::from_str(&t).unwrap();
            }
        }
    }

    /// The next push (queued or coming).
    pub async fn push(&mut self) -> Value {
        match self.pushes.pop_front() {
            Some(p) => p,
            None => self.recv().await,
        }
    }

    /// Waits for a push satisfying `pred`, within `secs`.
    pub async fn push_until(&mut self, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
        tokio::time::timeout(Duration::from_secs(secs), async {
            loop {
                let p = self.push().await;
                if pred(&p) {
                    return p;
                }
            }
        })
        .await
        .expect("the awaited push")
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }

    /// Reads (and so answers pings) for `d` without sending anything; pushes are queued.
    /// `Some(close)` if the server closed the socket meanwhile (`None` inside for a
    /// connection dropped without a close frame).
    pub async fn listen(&mut self, d: Duration) -> Option<Option<CloseFrame>> {
        let until = tokio::time::Instant::now() + d;
        loop {
            match tokio::time::timeout_at(until, self.ws.next()).await {
                Err(_) => return None,
                Ok(Some(Ok(Message::Text(t)))) => {
                    self.pushes.push_back(serde_json::from_str(&t).unwrap());
                }
                Ok(Some(Ok(Message::Close(frame)))) => return Some(frame),
                Ok(Some(Ok(_))) => {}
                Ok(Some(Err(_)) | None) => return Some(None),
            }
        }
    }
}

/// Reads `ws` until the server ends it, within `secs`: the close frame, or `None` for a
/// connection dropped without one. Everything else read is counted.
pub async fn until_closed<S>(ws: &mut WebSocketStream<S>, secs: u64) -> (Option<CloseFrame>, usize)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut read = 0;
    let until = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        match tokio::time::timeout_at(until, ws.next()).await {
            Err(_) => panic!("the server did not close the socket within {secs} s ({read} read)"),
            Ok(Some(Ok(Message::Close(frame)))) => return (frame, read),
            Ok(Some(Ok(_))) => read += 1,
            Ok(Some(Err(_)) | None) => return (None, read),
        }
    }
}

/// Creates a match and returns the reply (status and seats).
pub async fn create(c: &mut Client, game: &str, players: &[&str], bots: Value) -> Value {
    let mut req = json!({"op": "create", "game": game, "players": players});
    if !bots.as_object().unwrap().is_empty() {
        req["bots"] = bots;
    }
    let reply = c.req(req).await;
    assert_eq!(reply["ok"], true, "{reply}");
    reply
}

/// The token of `player` in a `create` reply.
pub fn token(created: &Value, player: &str) -> String {
    created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"] == player)
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// One move for whoever of `clients` may act: the first legal action, with the turnSeq.
/// Returns the act reply, or `None` when nobody had a legal action.
pub async fn step(clients: &mut [&mut Client], m: &str, turn_seq: u64) -> Option<Value> {
    for c in clients.iter_mut() {
        let legal = c.req(json!({"op": "legal", "match": m})).await;
        assert_eq!(legal["ok"], true, "{legal}");
        if let Some(action) = legal["actions"].as_array().and_then(|a| a.first()).cloned() {
            let reply = c
                .req(json!({"op": "act", "match": m, "action": action, "turnSeq": turn_seq}))
                .await;
            assert_eq!(reply["ok"], true, "{reply}");
            return Some(reply);
        }
    }
    None
}

/// A client bound to the seat of `token` in `m`.
pub async fn hello(addr: &str, m: &str, token: &str) -> Client {
    let mut c = Client::connect(addr).await;
    let reply = c
        .req(json!({"op": "hello", "match": m, "token": token}))
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
    c
}

/// The error code of a reply ("" for a success).
pub fn code(v: &Value) -> String {
    v["error"]["code"].as_str().unwrap_or("").to_owned()
}

/// Opens the server's database beside it (WAL: the server keeps writing meanwhile).
pub fn open_db(path: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    conn
}

/// Creates `n` matches of `game` whose every seat is a bot (`bots`); their ids.
pub async fn bot_matches(
    c: &mut Client,
    n: usize,
    game: &str,
    players: &[&str],
    bots: Value,
) -> Vec<String> {
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        let created = create(c, game, players, bots.clone()).await;
        ids.push(created["match"].as_str().unwrap().to_owned());
    }
    ids
}

/// The epochs the entries of `m` were written under, in order (a PostgreSQL store).
pub fn epochs(db: &TempDb, m: &str) -> Vec<i64> {
    let (url, _) = db.pg.as_ref().expect("a PostgreSQL store");
    let m = m.to_owned();
    pg_run(url, async move |c| {
        let rows = c
            .query(
                "SELECT epoch FROM entries WHERE match_id = $1 ORDER BY seq",
                &[&m],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.get::<_, Option<i64>>(0).unwrap_or(0))
            .collect())
    })
    .unwrap()
}

/// The final view a match's record replays to, as `viewer` sees it.
pub fn replayed_view(record: &Value, viewer: Option<&str>) -> Value {
    let record: game_core::MatchRecord = serde_json::from_value(record.clone()).unwrap();
    let m = game_host::registry().replay(&record).unwrap();
    m.view(viewer).unwrap()
}

/// Sends `req` on `c` and returns its reply, or `None` when the server closed the
/// socket first (a match that moved to another instance closes it with 1012).
pub async fn ask(c: &mut Client, mut req: Value) -> Option<Value> {
    req["id"] = json!("ask");
    c.ws.send(Message::Text(req.to_string().into()))
        .await
        .ok()?;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), c.ws.next())
            .await
            .expect("an answer within 30 s");
        match msg {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v.get("push").is_some() {
                    c.pushes.push_back(v);
                } else {
                    return Some(v);
                }
            }
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// Sends `req` to the instance at `addr` until it is served (a socket closed meanwhile
/// is opened again, as a client does), within `secs`: the client and the reply. A
/// refusal other than `UNAVAILABLE` (or `MATCH_CLOSED`, when `closed_ok`) fails.
pub async fn until_ok(addr: &str, req: Value, secs: u64, closed_ok: bool) -> (Client, Value) {
    let until = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let mut c = Client::connect(addr).await;
        while let Some(reply) = ask(&mut c, req.clone()).await {
            if reply["ok"] == true || (closed_ok && code(&reply) == "MATCH_CLOSED") {
                return (c, reply);
            }
            assert_eq!(code(&reply), "UNAVAILABLE", "{reply}");
            assert!(tokio::time::Instant::now() < until, "not served: {reply}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(tokio::time::Instant::now() < until, "not served: {req}");
    }
}

/// Watches match `id` at `addr` until it is over (a socket closed because the match
/// moved is opened again, as a client does; a match already closed as over counts).
pub async fn until_over(addr: &str, id: &str) {
    let until = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (mut w, watched) = until_ok(addr, json!({"op": "watch", "match": id}), 20, true).await;
        if watched["ok"] != true {
            assert_eq!(watched["error"]["reason"]["why"], "over", "{watched}");
            return;
        }
        if watched["over"] == true || w.pushes.iter().any(|p| p["over"] == true) {
            return;
        }
        loop {
            let msg = tokio::time::timeout_at(until, w.ws.next())
                .await
                .expect("over within 120 s");
            match msg {
                Some(Ok(Message::Text(t))) => {
                    let p: Value = serde_json::from_str(&t).unwrap();
                    if p["match"] == id && p["over"] == true {
                        return;
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            }
        }
    }
}
