//! One task per socket: it reads requests, enforces the seat bindings, forwards the
//! host's operations to the match's task, and writes replies and pushes in order.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::{Message, WebSocket};
use game_host::reply::{Fail, bad_request, body, fail, match_exists, unknown_match};
use game_host::{Host, Kind, Reply, Request, Status};
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};

use crate::actor::{Actor, Cmd, PushTx};
use crate::bots::{ServerBot, plays, random_u64};
use crate::store::{Change, Seat, StoredMatch};
use crate::{MAX_REQUEST, Shared, now_ms, spawn};

/// The server's own operations and `create`'s fields, read with the host's strict rules.
const HELLO: &[game_host::Field] = &[("match", Kind::Id, true), ("token", Kind::Id, true)];
const WATCH: &[game_host::Field] = &[("match", Kind::Id, true)];
const CREATE: &[game_host::Field] = &[
    ("game", Kind::Id, true),
    ("players", Kind::Players, true),
    ("options", Kind::Object, false),
    ("match", Kind::Id, false),
    ("bots", Kind::Object, false),
];

/// Operations only the server performs on its matches.
const SERVER_ONLY: [&str; 5] = ["tick", "presence", "load", "drop", "restore"];

static SUBS: AtomicU64 = AtomicU64::new(1);

/// What a socket is bound to in one match.
struct Binding {
    /// The seat, or `None` for a spectator.
    player: Option<String>,
    sub: u64,
}

/// One socket's state.
struct Session {
    shared: Arc<Shared>,
    bindings: HashMap<String, Binding>,
    push: PushTx,
}

/// Serves one WebSocket until it closes or the server shuts down.
pub(crate) async fn run(shared: Arc<Shared>, mut socket: WebSocket) {
    let (push, mut pushes) = mpsc::unbounded_channel::<String>();
    let mut closing = shared.closing.clone();
    let mut s = Session {
        shared,
        bindings: HashMap::new(),
        push,
    };
    loop {
        tokio::select! {
            msg = socket.recv() => {
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Binary(b))) => match String::from_utf8(b.to_vec()) {
                        Ok(t) => t,
                        Err(e) => {
                            let r = Host::reply(Value::Null, Err(bad_request(None, format!("the message is not UTF-8: {e}"))));
                            if send(&mut socket, &r).await.is_err() { break; }
                            continue;
                        }
                    },
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    _ => break,
                };
                let reply = if text.len() > MAX_REQUEST {
                    Host::too_large(text.len(), MAX_REQUEST)
                } else {
                    s.handle(&text).await
                };
                if send(&mut socket, &reply).await.is_err() { break; }
            }
            Some(line) = pushes.recv() => {
                if socket.send(Message::Text(line.into())).await.is_err() { break; }
            }
            _ = closing.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
    for (m, b) in s.bindings.drain() {
        s.shared.send(&m, Cmd::Unsubscribe { sub: b.sub });
    }
}

async fn send(socket: &mut WebSocket, reply: &Reply) -> Result<(), axum::Error> {
    let text = serde_json::to_string(reply).unwrap_or_default();
    socket.send(Message::Text(text.into())).await
}

/// `UNAUTHORIZED`: a wrong token, or acting for a seat the socket is not bound to.
fn unauthorized(detail: &str) -> Fail {
    fail(
        "UNAUTHORIZED",
        "이 자리에서 할 수 없는 요청이에요.",
        json!({ "detail": detail }),
    )
}

/// `FORBIDDEN`: an operation or a field only the server uses.
fn forbidden(what: &str, detail: &str) -> Fail {
    fail(
        "FORBIDDEN",
        "서버만 할 수 있는 요청이에요.",
        json!({ "field": what, "detail": detail }),
    )
}

impl Shared {
    /// Sends a command to a match's task; `false` when there is no such match.
    pub(crate) fn send(&self, id: &str, cmd: Cmd) -> bool {
        self.matches()
            .get(id)
            .is_some_and(|h| h.tx.send(cmd).is_ok())
    }
}

/// Tokens compared without an early exit on the first differing byte.
fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// 128 random bits from the OS, as hex.
fn secret() -> Result<String, Fail> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| {
        fail(
            "UNAVAILABLE",
            "지금은 게임을 만들 수 없어요.",
            json!({ "detail": e.to_string() }),
        )
    })?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

impl Session {
    async fn handle(&mut self, text: &str) -> Reply {
        let req = match Request::parse(text) {
            Ok(req) => req,
            Err(fail) => return Host::reply(Value::Null, Err(fail)),
        };
        let id = req.id();
        let op: String = match req.need("op", "a string") {
            Ok(op) => op,
            Err(f) => return Host::reply(id, Err(f)),
        };
        let answer = match op.as_str() {
            "hello" => self.hello(&req, id.clone()).await,
            "watch" => self.watch(&req, id.clone()).await,
            "create" => self.create(&req).await,
            "act" | "view" | "legal" | "outcome" | "record" => {
                return self.forward(&op, &req, text, id).await;
            }
            op if SERVER_ONLY.contains(&op) => Err(forbidden(op, "the server's own operation")),
            _ => {
                let mut catalog = self
                    .shared
                    .catalog
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                return catalog.handle_line(text);
            }
        };
        match answer {
            Ok(Ok(reply)) => reply,
            Ok(Err(f)) | Err(f) => Host::reply(id, Err(f)),
        }
    }

    /// Subscribes this socket to a match (as `player`, or as a spectator).
    async fn bind(
        &mut self,
        match_id: String,
        player: Option<String>,
        id: Value,
    ) -> Result<Result<Reply, Fail>, Fail> {
        if let Some(old) = self.bindings.remove(&match_id) {
            self.shared
                .send(&match_id, Cmd::Unsubscribe { sub: old.sub });
        }
        let sub = SUBS.fetch_add(1, Ordering::Relaxed);
        let (reply, wait) = oneshot::channel();
        let cmd = Cmd::Subscribe {
            id,
            sub,
            player: player.clone(),
            tx: self.push.clone(),
            reply,
        };
        if !self.shared.send(&match_id, cmd) {
            return Err(unknown_match(&match_id));
        }
        let reply = wait.await.map_err(|_| unknown_match(&match_id))?;
        if reply.ok {
            self.bindings.insert(match_id, Binding { player, sub });
        }
        Ok(Ok(reply))
    }

    async fn hello(&mut self, req: &Request<'_>, id: Value) -> Result<Result<Reply, Fail>, Fail> {
        req.check("hello", HELLO)?;
        let match_id = req.id_field("match")?;
        let token = req.id_field("token")?;
        let player = {
            let matches = self.shared.matches();
            let handle = matches
                .get(&match_id)
                .ok_or_else(|| unknown_match(&match_id))?;
            handle
                .seats
                .iter()
                .find(|s| same_token(&s.token, &token))
                .map(|s| s.player.clone())
        };
        let player = player.ok_or_else(|| unauthorized("no seat of this match has that token"))?;
        self.bind(match_id, Some(player), id).await
    }

    async fn watch(&mut self, req: &Request<'_>, id: Value) -> Result<Result<Reply, Fail>, Fail> {
        req.check("watch", WATCH)?;
        let match_id = req.id_field("match")?;
        self.bind(match_id, None, id).await
    }

    async fn create(&mut self, req: &Request<'_>) -> Result<Result<Reply, Fail>, Fail> {
        for field in ["seed", "now"] {
            if req.has(field) {
                return Err(forbidden(
                    field,
                    "the server chooses the seed and keeps the clock",
                ));
            }
        }
        req.check("create", CREATE)?;
        let game = req.id_field("game")?;
        let players: Vec<String> = req.need("players", "an array of strings")?;
        let bots: BTreeMap<String, String> = req
            .read(
                "bots",
                "an object of player ids to \"random\", \"policy\" or \"strong\"",
            )?
            .unwrap_or_default();
        let mut kinds = Vec::new();
        for (player, kind) in &bots {
            if !players.contains(player) {
                return Err(bad_request(
                    Some("bots"),
                    format!("`{player}` is not in `players`"),
                ));
            }
            let kind: yut::BotKind = kind.parse().map_err(|_| {
                bad_request(
                    Some("bots"),
                    format!("`{kind}`: a bot is \"random\", \"policy\" or \"strong\""),
                )
            })?;
            if !plays(kind, &game) {
                return Err(bad_request(
                    Some("bots"),
                    format!("a `{kind}` bot plays only the Yut games"),
                ));
            }
            kinds.push((player.clone(), kind));
        }
        let match_id = match req.opt_id("match")? {
            Some(m) => {
                let taken = self.shared.matches().contains_key(&m)
                    || tokio::task::block_in_place(|| self.shared.store.exists(&m)).unwrap_or(true);
                if taken {
                    return Err(match_exists(&m));
                }
                m
            }
            None => format!("m{:012x}", random_u64() >> 16),
        };
        let mut line = json!({
            "op": "create", "game": game, "players": players,
            "match": match_id, "now": now_ms(),
        });
        if let Some(options) = req.object("options")? {
            line["options"] = options;
        }
        let mut host = Host::new(game_host::registry());
        let created = host.handle_line(&line.to_string());
        if !created.ok {
            return Ok(Ok(Host::reply(req.id(), Ok(created.body))));
        }
        let mut seats = Vec::new();
        for p in players.iter().filter(|p| !bots.contains_key(*p)) {
            seats.push(Seat {
                player: p.clone(),
                token: secret()?,
            });
        }
        let Some(m) = host.get_match_mut(&match_id) else {
            return Err(unknown_match(&match_id));
        };
        let record = m.record().clone();
        let m = &*m;
        let entries = record.entries.len();
        let status: Map<String, Value> = body(&Status::of(&match_id, m));
        let stored = StoredMatch {
            id: match_id.clone(),
            record,
            seats: seats.clone(),
            bots: kinds
                .iter()
                .map(|(p, k)| (p.clone(), k.to_string()))
                .collect(),
        };
        self.shared
            .writer
            .commit(vec![Change::Create(stored)])
            .await
            .map_err(|e| {
                fail(
                    "UNAVAILABLE",
                    "지금은 게임을 만들 수 없어요.",
                    json!({ "detail": e.to_string() }),
                )
            })?;
        let bots = kinds
            .into_iter()
            .map(|(p, k)| (p, ServerBot::new(k)))
            .collect();
        let actor = Actor::new(match_id.clone(), host, bots, self.shared.clone(), entries);
        let mut answer = status;
        answer.insert(
            "seats".into(),
            json!(
                seats
                    .iter()
                    .map(|s| json!({"player": s.player, "token": s.token}))
                    .collect::<Vec<_>>()
            ),
        );
        spawn(&self.shared, actor, seats);
        Ok(Ok(Host::reply(req.id(), Ok(answer))))
    }

    /// A host operation on a match, as the socket's seat, at the server's clock.
    async fn forward(&mut self, op: &str, req: &Request<'_>, text: &str, id: Value) -> Reply {
        let answer: Result<Reply, Fail> = async {
            let match_id = req.id_field("match")?;
            let bound = self.bindings.get(&match_id).map(|b| b.player.clone());
            let asked: Option<String> = match op {
                "act" | "view" | "legal" => req.opt_id("player")?,
                _ => None,
            };
            let seat = bound.clone().flatten();
            if let Some(asked) = &asked
                && seat.as_deref() != Some(asked.as_str())
            {
                return Err(unauthorized("this socket is not bound to that seat"));
            }
            if matches!(op, "act" | "legal") && seat.is_none() {
                return Err(unauthorized("bind the socket to a seat with `hello` first"));
            }
            if req.has("now") && op == "act" {
                return Err(forbidden("now", "the server keeps the clock"));
            }
            let mut line: Map<String, Value> =
                serde_json::from_str(text).map_err(|e| bad_request(None, e.to_string()))?;
            match (op, &seat) {
                ("act", _) => {
                    line.insert("player".into(), json!(seat));
                    line.insert("now".into(), json!(now_ms()));
                }
                ("view" | "legal", Some(p)) => {
                    line.insert("player".into(), json!(p));
                }
                _ => {}
            }
            let (reply, wait) = oneshot::channel();
            let cmd = Cmd::Request {
                line: Value::Object(line).to_string(),
                only_over: op == "record",
                reply,
            };
            if !self.shared.send(&match_id, cmd) {
                // A match no longer in memory (finished before a restart): its record is
                // in the store, and served since the match is over.
                if op == "record" {
                    let store = self.shared.store.clone();
                    let key = match_id.clone();
                    let found = tokio::task::spawn_blocking(move || store.finished_record(&key))
                        .await
                        .ok()
                        .and_then(Result::ok)
                        .flatten();
                    if let Some(record) = found {
                        let answer = body(&game_host::reply::Record { record });
                        return Ok(Host::reply(id.clone(), Ok(answer)));
                    }
                }
                return Err(unknown_match(&match_id));
            }
            let mut reply = wait.await.map_err(|_| unknown_match(&match_id))?;
            reply.id = id.clone();
            Ok(reply)
        }
        .await;
        match answer {
            Ok(reply) => reply,
            Err(f) => Host::reply(id, Err(f)),
        }
    }
}
