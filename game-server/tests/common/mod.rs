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
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The server example built beside this test (cargo builds examples for `cargo test`).
pub fn binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    dir.join("examples")
        .join(format!("server{}", std::env::consts::EXE_SUFFIX))
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

/// A running server process; killed (SIGKILL) on drop.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(db: &Path, bot_delay_ms: u64) -> Self {
        let mut child = Command::new(binary())
            .args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(["--bot-delay-ms", &bot_delay_ms.to_string()])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server example is built");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_owned();
        Self { child, addr }
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
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
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
