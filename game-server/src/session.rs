//! One task per socket: it reads requests, enforces the seat bindings, forwards the
//! host's operations to the match's task, and writes replies and pushes in order.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use game_host::reply::{self, Fail, bad_request, body, fail, match_exists};
use game_host::{Host, Kind, OPS as HOST_OPS, Reply, Request, Status};
use serde_json::{Map, Value, json};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::actor::{Actor, Cmd, PushRx, PushTx, Replier, push_queue};
use crate::bots::{ServerBot, random_u64};
use crate::ended::Looked;
use crate::limits::{Bucket, Connection, Inflow, RECORDS_TOO_FAST, Rate, Watching, rate_limited};
use crate::observe::{self, Esc};
use crate::records::Packed;
use crate::store::{Change, Seat, StoreError, StoredMatch};
use crate::{RETRY_AFTER, Reservation, Shared, now_ms, spawn, unavailable};

/// The server's own operations and `create`'s fields, read with the host's strict rules.
const HELLO: &[game_host::Field] = &[("match", Kind::Id, true), ("token", Kind::Id, true)];
const WATCH: &[game_host::Field] = &[("match", Kind::Id, true)];
const HINT: &[game_host::Field] = &[("match", Kind::Id, true)];
const CREATE: &[game_host::Field] = &[
    ("game", Kind::Id, true),
    ("players", Kind::Players, true),
    ("options", Kind::Object, false),
    ("match", Kind::Id, false),
    ("bots", Kind::Object, false),
    ("seed", Kind::Count, false),
];

/// Operations only the server performs on its matches.
const SERVER_ONLY: [&str; 5] = ["tick", "presence", "load", "drop", "restore"];

/// The operations a client may send, as `UNKNOWN_OP` lists them (the server's own are
/// refused as `FORBIDDEN`, so they are not offered).
const OPS: [&str; 11] = [
    "games", "schemas", "create", "hello", "watch", "act", "view", "legal", "outcome", "record",
    "hint",
];

static SUBS: AtomicU64 = AtomicU64::new(1);

/// What a socket is bound to in one match.
struct Binding {
    /// The seat, or `None` for a spectator.
    player: Option<String>,
    sub: u64,
    /// Counted against the address's cap on bindings while it lasts.
    _watching: Watching,
}

/// One socket's state.
struct Session {
    shared: Arc<Shared>,
    bindings: HashMap<String, Binding>,
    push: PushTx,
    /// The client's address, as the caps count it.
    address: IpAddr,
    /// How many of the matches this socket created are unfinished.
    opened: Arc<AtomicUsize>,
    /// The push count the last reply from a match's task carries: the pushes up to it
    /// leave before the reply.
    after: u64,
    /// The socket's bucket of `record`s ([`crate::Config::records_per_minute`]).
    records: Bucket,
    /// A reply already written as its line (a kept record, decompressed straight into
    /// it): sent in place of the [`Reply`] the request's handler returns.
    line: Option<String>,
}

/// Why a socket's loop ended: the client went (nothing more to send), or the server
/// closes it with a code and a reason.
enum End {
    Gone,
    Close(u16, &'static str),
}

/// What woke the socket's loop.
enum Event {
    Read(Option<Result<Message, axum::Error>>),
    Push(Arc<str>),
    End(End),
    /// The time to ping, to close an idle socket, or to judge a late message.
    Quiet,
    /// A message started: its deadline is set.
    Started,
}

/// The socket's frames: sends bounded in time, and the signals that end the socket.
struct Io {
    socket: WebSocket,
    /// The push queue overflowed: the client is too slow.
    slow: watch::Receiver<bool>,
    closing: watch::Receiver<bool>,
    /// Whether other instances take the matches over when this one stops.
    handover: bool,
    /// The longest a send may wait for the client to take it.
    limit: Duration,
}

impl Io {
    /// Sends `msg`, unless the client takes none of it for `limit`, its push queue
    /// overflows or the server shuts down meanwhile.
    async fn send(&mut self, msg: Message) -> Result<(), End> {
        let handover = self.handover;
        tokio::select! {
            sent = tokio::time::timeout(self.limit, self.socket.send(msg)) => match sent {
                Ok(Ok(())) => Ok(()),
                _ => Err(End::Gone),
            },
            _ = self.slow.wait_for(|s| *s) => Err(SLOW),
            _ = self.closing.wait_for(|c| *c) => Err(shutdown(handover)),
        }
    }

    async fn reply(&mut self, reply: &Reply) -> Result<(), End> {
        observe::refused(reply);
        let text = serde_json::to_string(reply).unwrap_or_default();
        self.send(Message::Text(text.into())).await
    }
}

const SLOW: End = End::Close(
    1008,
    "too slow: more pushes queued than the server keeps for a socket",
);
const SHUTDOWN: End = End::Close(1001, "the server is shutting down");
/// The server stops and other instances take its matches over: 1012, as [`MOVED`].
const HANDOVER: End = End::Close(1012, "the server restarts: reconnect");
/// A match the socket was bound to moved to another instance (its owner died or was
/// stopped): 1012, "service restart", tells the client to reconnect (to any instance).
const MOVED: End = End::Close(1012, "the match moved to another instance: reconnect");
/// How a socket closes when the server stops: with a store other instances share
/// (`handover`), with the code that tells the client to reconnect.
fn shutdown(handover: bool) -> End {
    if handover { HANDOVER } else { SHUTDOWN }
}
const IDLE: End = End::Close(1000, "idle: no frame from the client for too long");
const TOO_BIG: End = End::Close(1009, "TOO_LARGE: the message is over the server's cap");
/// How many frames already there are read once a message is past its time, in case the
/// rest of it is among them.
const LATE_READS: u32 = 64;
const LATE: End = End::Close(
    1008,
    "too slow: a message was not completed within the server's time",
);

/// What ends a socket on a read error: 1009 for a message over [`crate::Config::max_message`],
/// 1002 or 1007 for a broken frame, nothing to send for a connection that is gone.
fn read_error(e: axum::Error) -> End {
    match e.into_inner().downcast::<tungstenite::Error>().map(|e| *e) {
        Ok(tungstenite::Error::Capacity(_)) => TOO_BIG,
        Ok(tungstenite::Error::Protocol(_)) => End::Close(1002, "a broken WebSocket frame"),
        Ok(tungstenite::Error::Utf8(_)) => End::Close(1007, "a text message that is not UTF-8"),
        _ => End::Gone,
    }
}

/// Serves one WebSocket until it closes, is idle too long, leaves a message unfinished
/// past its time, falls too far behind its pushes, or the server shuts down. The
/// connection counts against the caps until then; `inflow` times its messages.
pub(crate) async fn run(
    shared: Arc<Shared>,
    socket: WebSocket,
    connection: Connection,
    inflow: Arc<Inflow>,
) {
    let _open = shared.open.subscribe();
    let _counted = observe::Held::new(observe::CONNECTIONS);
    let (push, mut pushes) = push_queue(shared.config.push_queue_bytes);
    let idle = shared.config.idle_timeout;
    let message_time = shared.config.message_timeout;
    // What the HTTP request brought is no message of this socket.
    inflow.settled();
    let mut moved = pushes.moved.clone();
    let records = Bucket::full(record_rate(&shared.config), Instant::now());
    let mut io = Io {
        socket,
        slow: pushes.slow.clone(),
        closing: shared.closing.clone(),
        handover: shared.store.leases().is_some(),
        limit: idle,
    };
    let mut s = Session {
        shared,
        bindings: HashMap::new(),
        push,
        address: connection.address(),
        opened: Arc::new(AtomicUsize::new(0)),
        after: 0,
        records,
        line: None,
    };
    // A quiet client is pinged at a third of the idle time, so one that is alive answers
    // (browsers pong by themselves) well before it would be closed.
    let ping_every = idle / 3;
    let mut heard = Instant::now();
    let mut pinged = heard;
    // Frames read since the message under way passed its time (see below).
    let mut late_reads = 0;
    let end = loop {
        let late = inflow.deadline(message_time);
        let mut wake = (heard.max(pinged) + ping_every).min(heard + idle);
        if let Some(late) = late {
            wake = wake.min(late);
        }
        let event = if late.is_some_and(|t| Instant::now() >= t) {
            // Past the message's time. What the client sent meanwhile is read first, as
            // long as it is there at once (the server may have been the one busy): the
            // rest of the message clears it; pings and pongs alone do not, and a bounded
            // number of them, or nothing more to read, closes the socket. Checked before
            // every event, so no stream of frames or pushes keeps the check from running.
            late_reads += 1;
            if late_reads > LATE_READS {
                Event::End(LATE)
            } else {
                tokio::select! {
                    biased;
                    msg = io.socket.recv() => Event::Read(msg),
                    () = std::future::ready(()) => Event::End(LATE),
                }
            }
        } else {
            late_reads = 0;
            tokio::select! {
                msg = io.socket.recv() => Event::Read(msg),
                Some(line) = pushes.recv() => Event::Push(line),
                _ = io.slow.wait_for(|s| *s) => Event::End(SLOW),
                _ = moved.wait_for(|m| *m) => Event::End(MOVED),
                _ = io.closing.wait_for(|c| *c) => Event::End(shutdown(io.handover)),
                () = inflow.started() => Event::Started,
                () = tokio::time::sleep_until(wake) => Event::Quiet,
            }
        };
        let step = match event {
            Event::Read(msg) => {
                heard = Instant::now();
                match &msg {
                    Some(Ok(Message::Ping(p) | Message::Pong(p))) => inflow.control(p.len()),
                    Some(Ok(_)) => inflow.settled(),
                    _ => {}
                }
                match msg {
                    Some(Ok(Message::Text(t))) => s.answer(&mut io, &mut pushes, t.as_str()).await,
                    Some(Ok(Message::Binary(b))) => match std::str::from_utf8(&b) {
                        Ok(t) => s.answer(&mut io, &mut pushes, t).await,
                        Err(e) => {
                            let detail = format!("the message is not UTF-8: {e}");
                            let fail = bad_request(None, detail);
                            io.reply(&Host::reply(Value::Null, Err(fail))).await
                        }
                    },
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Ok(()),
                    Some(Ok(Message::Close(_))) | None => Err(End::Gone),
                    Some(Err(e)) => Err(read_error(e)),
                }
            }
            Event::Push(line) => io.send(Message::Text(line.as_ref().into())).await,
            Event::End(end) => Err(end),
            Event::Started => Ok(()),
            Event::Quiet
                if inflow
                    .deadline(message_time)
                    .is_some_and(|t| Instant::now() >= t) =>
            {
                // The message's time: judged at the top of the loop.
                Ok(())
            }
            Event::Quiet if Instant::now() >= heard + idle => Err(IDLE),
            Event::Quiet => {
                pinged = Instant::now();
                io.send(Message::Ping(Default::default())).await
            }
        };
        if let Err(end) = step {
            break end;
        }
    };
    for (m, b) in s.bindings.drain() {
        s.shared.send(&m, Cmd::Unsubscribe { sub: b.sub });
    }
    // The queue is dropped here with the socket: a slow client's backlog is freed now.
    drop(pushes);
    // The connection counts against the caps until its close handshake is over.
    let _connection = connection;
    if let End::Close(code, reason) = end {
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        // The close handshake: the frame, then what the client still sends read (and
        // dropped) until its own close, so that closing the connection with data unread
        // does not reset it before the client has read why. A second at most: a client
        // that takes or sends nothing is dropped.
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            if io.socket.send(Message::Close(Some(frame))).await.is_ok() {
                while let Some(Ok(msg)) = io.socket.recv().await {
                    if matches!(msg, Message::Close(_)) {
                        break;
                    }
                }
            }
        })
        .await;
    }
}

/// A socket's rate of `record`s.
fn record_rate(config: &crate::Config) -> Rate {
    Rate {
        per_minute: config.records_per_minute,
        burst: config.record_burst,
    }
}

/// The request fields that hold ids and names: the store keeps them as text.
const NAMED: [&str; 6] = ["match", "token", "player", "game", "players", "bots"];

/// Refuses an id or a name that the store cannot hold, before anything looks it up:
/// PostgreSQL's text holds no NUL, so a NUL in any of [`NAMED`] is `BAD_REQUEST` naming
/// the field, on every store alike (a match id SQLite could keep would not move to
/// PostgreSQL). A JSON string holds a NUL only as the escape `\u0000`: a request
/// without one is passed at once.
fn storable(text: &str, req: &Request<'_>) -> Result<(), Fail> {
    if !text.contains("\\u0000") {
        return Ok(());
    }
    fn holds_nul(v: &Value) -> bool {
        match v {
            Value::String(s) => s.contains('\0'),
            Value::Array(a) => a.iter().any(holds_nul),
            Value::Object(o) => o.iter().any(|(k, v)| k.contains('\0') || holds_nul(v)),
            _ => false,
        }
    }
    for field in NAMED {
        let Some(raw) = req.raw(field) else {
            continue;
        };
        let value: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
        if holds_nul(&value) {
            return Err(bad_request(
                Some(field),
                format!("`{field}` holds a NUL character, which no id or name may"),
            ));
        }
    }
    Ok(())
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
    /// Answers one message: after the pushes queued before the match's task answered,
    /// so that no push of an earlier change follows the reply.
    async fn answer(&mut self, io: &mut Io, pushes: &mut PushRx, text: &str) -> Result<(), End> {
        let cap = self.shared.config.max_message / 2;
        let reply = if text.len() > cap {
            Host::too_large(text.len(), cap)
        } else {
            self.handle(text).await
        };
        while pushes.taken() < self.after {
            match pushes.recv().await {
                Some(line) => io.send(Message::Text(line.as_ref().into())).await?,
                None => break,
            }
        }
        match self.line.take() {
            Some(line) => io.send(Message::Text(line.into())).await,
            None => io.reply(&reply).await,
        }
    }

    /// Answers a `record` from the kept copy `kept`: its line is sent as it is
    /// ([`Session::line`]), the [`Reply`] returned only stands for it.
    fn kept_reply(&mut self, kept: &Packed, id: &Value) -> Reply {
        match kept.reply(id) {
            Some(line) => {
                self.line = Some(line);
                Host::reply(id.clone(), Ok(Map::new()))
            }
            None => Host::reply(id.clone(), Err(unavailable(RETRY_AFTER))),
        }
    }

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
        if let Err(f) = storable(text, &req) {
            return Host::reply(id, Err(f));
        }
        let answer = match op.as_str() {
            "hello" => self.hello(&req, id.clone()).await,
            "watch" => self.watch(&req, id.clone()).await,
            "create" => self.create(&req).await,
            "hint" => self.hint(&req, id.clone()).await,
            "act" | "view" | "legal" | "outcome" | "record" => {
                return self.forward(&op, &req, text, id).await;
            }
            op if SERVER_ONLY.contains(&op) => Err(forbidden(op, "the server's own operation")),
            "games" | "schemas" => self
                .catalog(&op, &req)
                .map(|b| Ok(Host::reply(id.clone(), Ok(b)))),
            op => Err(fail(
                "UNKNOWN_OP",
                "알 수 없는 요청이에요.",
                json!({ "op": op, "ops": OPS }),
            )),
        };
        match answer {
            Ok(Ok(reply)) => reply,
            Ok(Err(f)) | Err(f) => Host::reply(id, Err(f)),
        }
    }

    /// `games` (with each game's bot kinds) and `schemas`, from the server's registry,
    /// read as strictly as the host reads them.
    fn catalog(&self, op: &str, req: &Request<'_>) -> Result<Map<String, Value>, Fail> {
        let spec = HOST_OPS
            .iter()
            .find(|(name, _)| *name == op)
            .map_or(&[][..], |(_, spec)| *spec);
        req.check(op, spec)?;
        let registry = &self.shared.registry;
        if op == "games" {
            let mut answer = body(&reply::Games {
                games: registry.ids().map(str::to_owned).collect(),
            });
            // The server's own: the bot kinds `create` takes for each game.
            let bots: Map<String, Value> = registry
                .ids()
                .map(|id| {
                    let kinds = registry.get(id).map(|g| g.bot_kinds()).unwrap_or_default();
                    (id.to_owned(), json!(kinds))
                })
                .collect();
            answer.insert("bots".into(), Value::Object(bots));
            return Ok(answer);
        }
        let game = registry.get(&req.id_field("game")?)?;
        let schemas = game.schemas();
        Ok(body(&reply::Schemas {
            game: game.id().to_owned(),
            schemas: schemas
                .entries()
                .into_iter()
                .map(|(name, schema)| (name.to_owned(), schema.clone()))
                .collect(),
            default_options: game.default_options(),
        }))
    }

    /// Subscribes this socket to a match (as `player`, or as a spectator).
    async fn bind(
        &mut self,
        match_id: String,
        player: Option<String>,
        id: Value,
    ) -> Result<Result<Reply, Fail>, Fail> {
        // The earlier binding is replaced in the same step as the new one is made: a
        // repeated `hello` for the same seat is no disconnection and reconnection.
        let looked = self.shared.restored(&match_id).await?;
        // A new binding counts against the socket's and the address's caps; one that
        // replaces the socket's binding to the same match keeps its place.
        let watching = match self.bindings.get(&match_id) {
            Some(_) => None,
            None => Some(self.shared.limits.watch(
                &self.shared.config,
                self.bindings.len(),
                self.address,
            )?),
        };
        let old = self.bindings.remove(&match_id);
        let replaces = old.as_ref().map(|old| old.sub);
        let sub = SUBS.fetch_add(1, Ordering::Relaxed);
        let (reply, wait) = Replier::new(&self.push);
        let cmd = Cmd::Subscribe {
            id,
            sub,
            replaces,
            player: player.clone(),
            tx: self.push.clone(),
            reply,
        };
        if !self.shared.send(&match_id, cmd) {
            return Err(self.shared.gone(&match_id, &looked).await);
        }
        let Ok((reply, after)) = wait.await else {
            // The match ended between the send and its answer.
            return Err(self.shared.gone(&match_id, &Looked::default()).await);
        };
        self.after = after;
        match (reply.ok, old) {
            (true, old) => {
                let Some(watching) = watching.or(old.map(|o| o._watching)) else {
                    return Ok(Ok(reply));
                };
                let binding = Binding {
                    player,
                    sub,
                    _watching: watching,
                };
                self.bindings.insert(match_id, binding);
            }
            // Refused before the match changed anything (a seat binding too fast, too many
            // comings and goings): the earlier binding stands.
            (false, Some(old)) => {
                self.bindings.insert(match_id, old);
            }
            (false, None) => {}
        }
        Ok(Ok(reply))
    }

    /// Takes a look-up from the address's bucket when `match_id` is not in memory (nor
    /// being restored): the request will send the store looking for it.
    fn lookup(&self, match_id: &str) -> Result<(), Fail> {
        if self.shared.matches().contains_key(match_id) || self.shared.restoring.has(match_id) {
            return Ok(());
        }
        self.shared
            .limits
            .take_lookup(&self.shared.config, self.address)
    }

    async fn hello(&mut self, req: &Request<'_>, id: Value) -> Result<Result<Reply, Fail>, Fail> {
        req.check("hello", HELLO)?;
        let match_id = req.id_field("match")?;
        let token = req.id_field("token")?;
        self.lookup(&match_id)?;
        let looked = self.shared.restored(&match_id).await?;
        let player = {
            let matches = self.shared.matches();
            matches.get(&match_id).map(|handle| {
                handle
                    .seats
                    .iter()
                    .find(|s| same_token(&s.token, &token))
                    .map(|s| s.player.clone())
            })
        };
        let Some(player) = player else {
            return Err(self.shared.gone(&match_id, &looked).await);
        };
        let player = player.ok_or_else(|| unauthorized("no seat of this match has that token"))?;
        self.bind(match_id, Some(player), id).await
    }

    async fn watch(&mut self, req: &Request<'_>, id: Value) -> Result<Result<Reply, Fail>, Fail> {
        req.check("watch", WATCH)?;
        let match_id = req.id_field("match")?;
        self.lookup(&match_id)?;
        self.bind(match_id, None, id).await
    }

    /// `hint`: for the socket's seat, the status and the move the timeout policy would
    /// make now (the game's `policy` bot). A spectator has no seat to hint for.
    async fn hint(&mut self, req: &Request<'_>, id: Value) -> Result<Result<Reply, Fail>, Fail> {
        req.check("hint", HINT)?;
        let match_id = req.id_field("match")?;
        let Some(player) = self.bindings.get(&match_id).and_then(|b| b.player.clone()) else {
            return Err(unauthorized("bind the socket to a seat with `hello` first"));
        };
        let looked = self.shared.restored(&match_id).await?;
        let (reply, wait) = Replier::new(&self.push);
        if !self.shared.send(&match_id, Cmd::Hint { id, player, reply }) {
            return Err(self.shared.gone(&match_id, &looked).await);
        }
        let Ok((reply, after)) = wait.await else {
            return Err(self.shared.gone(&match_id, &Looked::default()).await);
        };
        self.after = after;
        Ok(Ok(reply))
    }

    async fn create(&mut self, req: &Request<'_>) -> Result<Result<Reply, Fail>, Fail> {
        // Every create costs a token, refused or not: the refusals cost work too.
        self.shared
            .limits
            .take_create(&self.shared.config, self.address)?;
        if req.has("now") {
            return Err(forbidden("now", "the server keeps the clock"));
        }
        if req.has("seed") && !self.shared.config.allow_seed {
            return Err(forbidden(
                "seed",
                "the server chooses the seed (a known seed foretells every throw)",
            ));
        }
        req.check("create", CREATE)?;
        let game = req.id_field("game")?;
        let players: Vec<String> = req.need("players", "an array of strings")?;
        let bots: BTreeMap<String, String> = req
            .read("bots", "an object of player ids to bot kinds")?
            .unwrap_or_default();
        let options = req.object("options")?;
        let registry = &self.shared.registry;
        // An unknown game is said as such, not as a bot that does not play it. Then the
        // game itself judges the players (their count first) and the options, on a match
        // built and thrown away: a create the game refuses costs no more than that, and
        // nothing below (the bots, an id, the store) is done for it.
        let kind_of_game = registry.get(&game)?;
        let defaults;
        let judged = match &options {
            Some(o) => o,
            None => {
                defaults = registry.get(&game)?.default_options();
                &defaults
            }
        };
        registry.create(&game, judged, players.clone(), Some(0), 0)?;
        let seated: HashSet<&str> = players.iter().map(String::as_str).collect();
        let mut bot_seats = Vec::new();
        for (player, kind) in &bots {
            if !seated.contains(player.as_str()) {
                return Err(bad_request(
                    Some("bots"),
                    format!("`{player}` is not in `players`"),
                ));
            }
            // A kind the game does not offer: `UNKNOWN_BOT`, with the kinds it does.
            bot_seats.push((player.clone(), ServerBot::new(kind_of_game, kind)?));
        }
        let quota = self.shared.limits.open_match(
            &self.shared.config,
            Some(&self.opened),
            Some(self.address),
        )?;
        let (match_id, _reserved) = match req.opt_id("match")? {
            Some(m) => match self.reserve(&m)? {
                Some(r) => (m, r),
                None => return Err(match_exists(&m)),
            },
            None => loop {
                let m = format!("m{:012x}", random_u64() >> 16);
                if let Some(r) = self.reserve(&m)? {
                    break (m, r);
                }
            },
        };
        // The game's own refusal (players, options) is answered as the host gives it.
        let seed = req.count("seed")?;
        let mut m = registry.create(&game, judged, players.clone(), seed, now_ms())?;
        if let Some(grace) = self.shared.config.grace {
            m.set_grace_ms(u64::try_from(grace.as_millis()).unwrap_or(u64::MAX))?;
        }
        let mut seats = Vec::new();
        for p in players.iter().filter(|p| !bots.contains_key(*p)) {
            seats.push(Seat {
                player: p.clone(),
                token: secret()?,
            });
        }
        let record = m.record().clone();
        let entries = record.entries.len();
        let status: Map<String, Value> = body(&Status::of(&match_id, m.as_ref()));
        let stored = StoredMatch {
            id: match_id.clone(),
            record,
            seats: seats.clone(),
            bots: bot_seats
                .iter()
                .map(|(p, bot)| (p.clone(), bot.kind().to_owned()))
                .collect(),
        };
        self.shared
            .writer
            .commit(vec![Change::Create(stored)])
            .await
            .map_err(|e| {
                if e.conflict {
                    // Another instance stored the id between the look-up and this commit:
                    // it won the race, as a look-up after it would have said.
                    tracing::info!(r#match = %Esc(&match_id), "match {}: not created: another instance created it first", Esc(&match_id));
                    return match_exists(&match_id);
                }
                tracing::error!(r#match = %Esc(&match_id), error = %e, "match {}: not created: {e}", Esc(&match_id));
                unavailable(RETRY_AFTER)
            })?;
        let bots = bot_seats.into_iter().collect();
        let mut actor = Actor::new(match_id.clone(), m, bots, self.shared.clone(), entries);
        actor.quota = Some(quota);
        actor.unseen = seats
            .iter()
            .map(|s| s.player.clone())
            .collect::<HashSet<_>>();
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
        // Running before the reservation is released: the id is never free in between.
        spawn(&self.shared, actor, seats);
        Ok(Ok(Host::reply(req.id(), Ok(answer))))
    }

    /// Reserves a match id for `create`: `None` if it is taken, by a running match,
    /// another `create` under way or one stored (finished matches included).
    fn reserve(&self, id: &str) -> Result<Option<Reservation<'_>>, Fail> {
        let Some(reserved) = self.shared.reserve(id) else {
            return Ok(None);
        };
        let stored = tokio::task::block_in_place(|| self.shared.store.exists(id)).map_err(|e| {
            tracing::error!(r#match = %Esc(id), error = %e, "match {}: not created: {e}", Esc(id));
            unavailable(RETRY_AFTER)
        })?;
        Ok((!stored).then_some(reserved))
    }

    /// `record`'s costs, paid before anything is looked up: a token from the socket's
    /// bucket and one from its address's (every request costs them, served or not), and
    /// the kept compressed copy of a finished match's record when there is one.
    fn record_kept(&mut self, match_id: &str) -> Result<Option<Arc<Packed>>, Fail> {
        let config = &self.shared.config;
        self.records
            .take(record_rate(config), Instant::now())
            .map_err(|wait| rate_limited(RECORDS_TOO_FAST, wait))?;
        self.shared.limits.take_record(config, self.address)?;
        Ok(self.shared.records.get(match_id))
    }

    /// A host operation on a match, as the socket's seat, at the server's clock.
    async fn forward(&mut self, op: &str, req: &Request<'_>, text: &str, id: Value) -> Reply {
        let answer: Result<Reply, Fail> = async {
            let match_id = req.id_field("match")?;
            if op == "record"
                && let Some(kept) = self.record_kept(&match_id)?
            {
                return Ok(self.kept_reply(&kept, &id));
            }
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
            self.lookup(&match_id)?;
            let looked = self.shared.restored(&match_id).await?;
            let (reply, wait) = Replier::new(&self.push);
            let cmd = Cmd::Request {
                line: Value::Object(line).to_string(),
                only_over: op == "record",
                reply,
                sub: self.bindings.get(&match_id).map(|b| b.sub),
            };
            if !self.shared.send(&match_id, cmd) {
                // A match no longer in memory (finished before a restart): its record is
                // in the store, and served since the match is over.
                let unknown = matches!(looked.0, Some(None));
                if op == "record" && !unknown {
                    let store = self.shared.store.clone();
                    let key = match_id.clone();
                    let found = tokio::task::spawn_blocking(move || store.finished_record(&key))
                        .await
                        .map_err(|e| StoreError::new(e.to_string()))
                        .and_then(|r| r)
                        .map_err(|e| {
                            tracing::error!(r#match = %Esc(&match_id), error = %e, "match {}: record not read: {e}", Esc(&match_id));
                            unavailable(RETRY_AFTER)
                        })?;
                    if let Some(record) = found {
                        // Kept once, compressed: the next `record` of it reads no store.
                        if let Some(kept) = self.shared.records.keep(&match_id, &record) {
                            return Ok(self.kept_reply(&kept, &id));
                        }
                        let answer = body(&game_host::reply::Record { record });
                        return Ok(Host::reply(id.clone(), Ok(answer)));
                    }
                }
                return Err(self.shared.gone(&match_id, &looked).await);
            }
            let Ok((mut reply, after)) = wait.await else {
                return Err(self.shared.gone(&match_id, &Looked::default()).await);
            };
            self.after = after;
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
