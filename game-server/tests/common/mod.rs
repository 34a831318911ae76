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

/// The server example built beside this test (cargo builds examples for `cargo test`),
/// or the binary `GAME_SERVER_BIN` names (to run a test against another build).
pub fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("GAME_SERVER_BIN") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    dir.join("examples")
        .join(format!("server{}", std::env::consts::EXE_SUFFIX))
}

fn now_nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// A temporary database path, removed with its folder at the end of the test.
pub struct TempDb {
    dir: PathBuf,
}

impl TempDb {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("game-server-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self { dir }
    }
    pub fn path(&self) -> PathBuf {
        self.dir.join("games.sqlite")
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The per-client limits the tests of other behaviours run without.
const LIFTED: [(&str, &str); 4] = [
    ("--max-matches-per-socket", "1000000"),
    ("--max-matches-per-address", "1000000"),
    ("--creates-per-minute", "1000000000"),
    ("--create-burst", "1000000"),
];

/// A running server process; killed (SIGKILL) on drop.
pub struct Server {
    child: Child,
    pub addr: String,
    /// Where its stderr goes, when kept ([`Server::start_with`]).
    stderr: Option<PathBuf>,
}

impl Server {
    pub fn start(db: &Path, bot_delay_ms: u64) -> Self {
        Self::launch(db, bot_delay_ms, &[], None)
    }

    /// [`Server::start`] with more command-line flags, its stderr kept beside the
    /// database (read with [`Server::stderr`]).
    pub fn start_with(db: &Path, bot_delay_ms: u64, flags: &[&str]) -> Self {
        let log = db.with_extension(format!("stderr-{}", now_nanos()));
        Self::launch(db, bot_delay_ms, flags, Some(log))
    }

    /// [`Server::start_with`] with its stderr written to `log` (a database on a file
    /// system the test fills keeps its log elsewhere).
    pub fn start_logged(db: &Path, bot_delay_ms: u64, flags: &[&str], log: PathBuf) -> Self {
        Self::launch(db, bot_delay_ms, flags, Some(log))
    }

    fn launch(db: &Path, bot_delay_ms: u64, flags: &[&str], log: Option<PathBuf>) -> Self {
        let mut cmd = Command::new(binary());
        cmd.args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(["--bot-delay-ms", &bot_delay_ms.to_string()]);
        // Every test's clients share one address and create freely: the per-client
        // quotas and the create rate are lifted unless the test sets them (or runs
        // another build, which may not know these flags).
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
        let mut child = cmd.spawn().expect("the server example is built");
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
