//! Any instance serves any match: a request for a match another instance runs goes to
//! that instance (its owner, by the match's lease), and the reply and the pushes come
//! back through the socket's own instance, over PostgreSQL's LISTEN/NOTIFY
//! ([`Leases::send`], [`Leases::listen`]).
//!
//! Here a match run elsewhere has a proxy: a task with the same inbox as a match's task
//! ([`Cmd`]), registered like one, that sends each command to the owner and hands the
//! answers and pushes back to the local sockets. At the owner, each socket bound through
//! another instance is a binding of the match's task like a local one, whose pushes and
//! replies a forwarder sends back in the order the task queued them.
//!
//! Every instance says it is alive at each round of its leases ([`beat`]); the routes to
//! an instance that stays silent for [`silence_limit`] are dropped on both sides: at an
//! owner, the bindings it served for that instance's sockets (their players marked
//! disconnected, [`sweep`]); at a client instance, the proxies to that owner, whose
//! sockets are told to reconnect. An instance that claimed matches says so ([`claimed`]):
//! a proxy still pointed at their former owner ends at once, its sockets reconnecting.
//!
//! [`Leases::send`]: crate::store::Leases::send
//! [`Leases::listen`]: crate::store::Leases::listen

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use game_host::{Host, Reply};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::actor::{Cmd, PushRx, PushTx, Replier, push_queue};
use crate::ended::Looked;
use crate::store::StoreError;
use crate::{Handle, RETRY_AFTER, Shared, lock, unavailable};

/// How long a proxy waits for the owner's answer before it takes the owner for gone
/// (the match is then claimed by an instance once its lease expires).
const ANSWER_WAIT: Duration = Duration::from_secs(5);

/// How often a forwarder checks that its match still runs here.
const CHECK_EVERY: Duration = Duration::from_secs(1);

/// Binding ids for sockets of other instances: apart from the local sockets' own.
static REMOTE_SUBS: AtomicU64 = AtomicU64::new(1 << 62);

/// A waiting reply and the push count it is ordered after.
type Answer = oneshot::Receiver<(Reply, u64)>;

/// The routes of this instance: its proxies and the bindings it serves for others.
#[derive(Default)]
pub(crate) struct Router {
    /// Where the owner's messages for a proxied match go.
    proxies: Mutex<HashMap<String, mpsc::UnboundedSender<Value>>>,
    /// Bindings made here for sockets of other instances: (instance, their binding).
    remote: Mutex<HashMap<(String, u64), Forwarder>>,
    /// Woken when another instance released its leases: claim now, not at the next round.
    pub(crate) released: tokio::sync::Notify,
    /// When each other instance was last heard from (its heartbeat or any message).
    heard: Mutex<HashMap<String, Instant>>,
    /// When [`sweep`] last ran.
    swept: Mutex<Option<Instant>>,
}

/// A binding served for a socket of another instance.
struct Forwarder {
    match_id: String,
    /// The binding's id in the match's task.
    local: u64,
    /// The binding's push queue (replies are ordered after its pushes).
    push: PushTx,
    /// Replies to send back after the pushes queued before them.
    replies: mpsc::UnboundedSender<(u64, Answer)>,
}

/// Sends `message` to `to` through the store.
fn send(shared: &Shared, to: &str, message: &Value) {
    if let Some(leases) = shared.store.leases() {
        leases.send(to, message.to_string());
    }
}

fn me(shared: &Shared) -> String {
    shared
        .store
        .leases()
        .map_or_else(String::new, |l| l.instance().to_owned())
}

/// Whether match `id` runs here (its task, not a proxy).
fn runs_here(shared: &Shared, id: &str) -> bool {
    shared.matches().get(id).is_some_and(|h| h.remote.is_none())
}

/// A reply read back from its JSON.
fn reply_from(v: &Value) -> Reply {
    let mut body = v.as_object().cloned().unwrap_or_default();
    let id = body.remove("id").unwrap_or(Value::Null);
    let ok = body.remove("ok").and_then(|o| o.as_bool()).unwrap_or(false);
    Reply { id, ok, body }
}

/// Starts listening for the other instances' messages (before the server answers, so
/// that nothing sent to it once it owns a match is missed), and dispatches them until
/// the server stops.
pub(crate) fn start(shared: &Arc<Shared>) -> Result<(), StoreError> {
    let Some(leases) = shared.store.leases() else {
        return Ok(());
    };
    let mut inbox = tokio::task::block_in_place(|| leases.listen())?;
    let shared = shared.clone();
    tokio::spawn(async move {
        while let Some(text) = inbox.recv().await {
            let Ok(msg) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            dispatch(&shared, msg);
        }
    });
    Ok(())
}

fn dispatch(shared: &Arc<Shared>, msg: Value) {
    let m = msg["m"].as_str().unwrap_or_default().to_owned();
    if let Some(from) = msg["from"].as_str()
        && from != me(shared)
    {
        lock(&shared.router.heard).insert(from.to_owned(), Instant::now());
    }
    match msg["t"].as_str().unwrap_or_default() {
        "req" => on_request(shared, &m, &msg),
        "sub" => on_subscribe(shared, &m, &msg),
        "hint" => on_hint(shared, &m, &msg),
        "unsub" => {
            let from = msg["from"].as_str().unwrap_or_default().to_owned();
            let key = (from, msg["sub"].as_u64().unwrap_or(0));
            if let Some(f) = lock(&shared.router.remote).remove(&key) {
                shared.send(&f.match_id, Cmd::Unsubscribe { sub: f.local });
            }
        }
        "released" if msg["from"].as_str() != Some(me(shared).as_str()) => {
            shared.router.released.notify_one();
        }
        "claimed" => on_claimed(shared, &msg),
        "rep" | "push" | "gone" => {
            if let Some(proxy) = lock(&shared.router.proxies).get(&m) {
                let _ = proxy.send(msg);
            }
        }
        _ => {}
    }
}

/// How long an instance may stay unheard before the routes to it are dropped: two
/// leases, so that an instance whose leases still hold is never taken for gone.
fn silence_limit(shared: &Shared) -> Duration {
    shared
        .store
        .leases()
        .map_or(ANSWER_WAIT, |l| l.lease_time() * 2)
}

/// Tells every other instance that this one is alive (at each round of its leases).
pub(crate) fn beat(shared: &Shared) {
    send(shared, "*", &json!({"t": "alive", "from": me(shared)}));
}

/// Drops the routes to instances unheard for [`silence_limit`]. A binding served here
/// for a socket of such an instance leaves its match (a player's seat marked
/// disconnected when no other socket holds it), and the instance, if it was only paused,
/// is told the match is gone from its route so that its sockets reconnect. A proxy here
/// to such an owner ends the same way: whoever claims the match serves its sockets once
/// they reconnect. Silent instances are then forgotten.
///
/// Called at each round of the leases: a round that comes late by more than the limit
/// means this instance was the one paused, and what it heard is as old as the pause, so
/// that round only starts the count again.
pub(crate) fn sweep(shared: &Shared) {
    let limit = silence_limit(shared);
    let now = Instant::now();
    let late = lock(&shared.router.swept)
        .replace(now)
        .is_some_and(|last| now.duration_since(last) > limit);
    let silent: Vec<String> = {
        let mut heard = lock(&shared.router.heard);
        if late {
            heard.values_mut().for_each(|at| *at = now);
        }
        heard
            .iter()
            .filter(|(_, at)| now.duration_since(**at) > limit)
            .map(|(instance, _)| instance.clone())
            .collect()
    };
    if silent.is_empty() {
        return;
    }
    {
        let matches = shared.matches();
        let proxies = lock(&shared.router.proxies);
        for (m, proxy) in proxies.iter() {
            let to_silent = matches
                .get(m)
                .and_then(|h| h.remote.as_ref())
                .is_some_and(|owner| silent.contains(owner));
            if to_silent {
                end_proxy(proxy, m);
            }
        }
    }
    let dropped: Vec<(String, Forwarder)> = {
        let mut remote = lock(&shared.router.remote);
        let keys: Vec<(String, u64)> = remote
            .keys()
            .filter(|(instance, _)| silent.contains(instance))
            .cloned()
            .collect();
        keys.into_iter()
            .filter_map(|key| remote.remove(&key).map(|f| (key.0, f)))
            .collect()
    };
    for (instance, f) in &dropped {
        shared.send(&f.match_id, Cmd::Unsubscribe { sub: f.local });
        gone(shared, instance, &f.match_id, true);
    }
    if !dropped.is_empty() {
        tracing::warn!(
            "{} bindings of sockets at silent instances dropped: {}",
            dropped.len(),
            silent.join(", ")
        );
    }
    let mut heard = lock(&shared.router.heard);
    for instance in &silent {
        if heard.get(instance).is_some_and(|at| at.elapsed() > limit) {
            heard.remove(instance);
        }
    }
}

/// Tells every other instance that this one now runs the matches `ids` (claimed from
/// an owner that died, stopped renewing or released them).
pub(crate) fn claimed(shared: &Shared, ids: &[String]) {
    send(
        shared,
        "*",
        &json!({"t": "claimed", "from": me(shared), "ms": ids}),
    );
}

/// Another instance claimed matches: a proxy here still pointed at another owner ends as
/// if that owner had said the match moved, and its sockets reconnect.
fn on_claimed(shared: &Shared, msg: &Value) {
    let Some(from) = msg["from"].as_str().filter(|f| *f != me(shared)) else {
        return;
    };
    let Some(ids) = msg["ms"].as_array() else {
        return;
    };
    let matches = shared.matches();
    let proxies = lock(&shared.router.proxies);
    for m in ids.iter().filter_map(Value::as_str) {
        let stale = matches
            .get(m)
            .and_then(|h| h.remote.as_deref())
            .is_some_and(|owner| owner != from);
        if let Some(proxy) = proxies.get(m).filter(|_| stale) {
            end_proxy(proxy, m);
        }
    }
}

/// Ends a proxy here to match `m` as if its owner had said the match moved: its sockets
/// reconnect, and whoever runs the match now serves them.
fn end_proxy(proxy: &mpsc::UnboundedSender<Value>, m: &str) {
    let _ = proxy.send(json!({"t": "gone", "m": m, "moved": true}));
}

/// Tells `to` that match `m` does not run here (any more).
fn gone(shared: &Shared, to: &str, m: &str, moved: bool) {
    send(shared, to, &json!({"t": "gone", "m": m, "moved": moved}));
}

/// A request from a socket of another instance, for a match run here.
fn on_request(shared: &Arc<Shared>, m: &str, msg: &Value) {
    let from = msg["from"].as_str().unwrap_or_default().to_owned();
    let rid = msg["rid"].as_u64().unwrap_or(0);
    if !runs_here(shared, m) {
        gone(shared, &from, m, true);
        return;
    }
    let line = msg["line"].as_str().unwrap_or_default().to_owned();
    let only_over = msg["only_over"].as_bool().unwrap_or(false);
    let bound = msg["sub"].as_u64().and_then(|s| {
        lock(&shared.router.remote)
            .get(&(from.clone(), s))
            .filter(|f| f.match_id == m)
            .map(|f| (f.local, f.push.clone(), f.replies.clone()))
    });
    match bound {
        Some((local, push, replies)) => {
            let (reply, answer) = Replier::new(&push);
            let cmd = Cmd::Request {
                line,
                only_over,
                reply,
                sub: Some(local),
            };
            if shared.send(m, cmd) {
                let _ = replies.send((rid, answer));
            }
        }
        None => ask_unbound(shared, m, from, rid, |reply| Cmd::Request {
            line,
            only_over,
            reply,
            sub: None,
        }),
    }
}

/// Sends the command `make` builds to match `m`'s task and relays its reply to `from`
/// under `rid`: for a request bound to no socket there, so that no push of the match goes
/// with it and there is nothing to order.
fn ask_unbound(
    shared: &Arc<Shared>,
    m: &str,
    from: String,
    rid: u64,
    make: impl FnOnce(Replier) -> Cmd,
) {
    let (push, _) = push_queue(0);
    let (reply, answer) = Replier::new(&push);
    if !shared.send(m, make(reply)) {
        return;
    }
    let shared = shared.clone();
    let m = m.to_owned();
    tokio::spawn(async move {
        if let Ok(Ok((reply, _))) = tokio::time::timeout(ANSWER_WAIT, answer).await {
            send(
                &shared,
                &from,
                &json!({"t": "rep", "m": m, "rid": rid, "reply": reply}),
            );
        }
    });
}

/// A `hint` from a socket of another instance (its seat judged there), for a match run
/// here: answered like a request that is bound to no socket.
fn on_hint(shared: &Arc<Shared>, m: &str, msg: &Value) {
    let from = msg["from"].as_str().unwrap_or_default().to_owned();
    let rid = msg["rid"].as_u64().unwrap_or(0);
    if !runs_here(shared, m) {
        gone(shared, &from, m, true);
        return;
    }
    let id = msg["id"].clone();
    let player = msg["player"].as_str().unwrap_or_default().to_owned();
    ask_unbound(shared, m, from, rid, |reply| Cmd::Hint {
        id,
        player,
        reply,
    });
}

/// A `hello` or `watch` from a socket of another instance, for a match run here.
fn on_subscribe(shared: &Arc<Shared>, m: &str, msg: &Value) {
    let from = msg["from"].as_str().unwrap_or_default().to_owned();
    let rid = msg["rid"].as_u64().unwrap_or(0);
    let their = msg["sub"].as_u64().unwrap_or(0);
    if !runs_here(shared, m) {
        gone(shared, &from, m, true);
        return;
    }
    let player = msg["player"].as_str().map(str::to_owned);
    let mut remote = lock(&shared.router.remote);
    let replaces = msg["replaces"]
        .as_u64()
        .and_then(|r| remote.remove(&(from.clone(), r)))
        .map(|f| f.local);
    let (push, pushes) = push_queue(shared.config.push_queue_bytes);
    let local = REMOTE_SUBS.fetch_add(1, Ordering::Relaxed);
    let (reply, answer) = Replier::new(&push);
    let (replies, queued) = mpsc::unbounded_channel();
    let _ = replies.send((rid, answer));
    remote.insert(
        (from.clone(), their),
        Forwarder {
            match_id: m.to_owned(),
            local,
            push: push.clone(),
            replies,
        },
    );
    drop(remote);
    let cmd = Cmd::Subscribe {
        id: msg["id"].clone(),
        sub: local,
        replaces,
        player,
        tx: push,
        reply,
    };
    if shared.send(m, cmd) {
        tokio::spawn(forward(
            shared.clone(),
            from,
            m.to_owned(),
            their,
            pushes,
            queued,
        ));
    }
}

/// Sends a remote binding's pushes back to its instance, and each reply after the
/// pushes queued before it; ends when the binding is dropped or the match leaves.
async fn forward(
    shared: Arc<Shared>,
    to: String,
    m: String,
    their: u64,
    mut pushes: PushRx,
    mut replies: mpsc::UnboundedReceiver<(u64, Answer)>,
) {
    let push = |line: &str| {
        send(
            &shared,
            &to,
            &json!({"t": "push", "m": m, "sub": their, "line": line}),
        )
    };
    let mut check = tokio::time::interval(CHECK_EVERY);
    let mut moved = pushes.moved.clone();
    loop {
        tokio::select! {
            biased;
            line = pushes.recv() => match line {
                Some(line) => push(&line),
                None => break,
            },
            item = replies.recv() => {
                let Some((rid, answer)) = item else { break };
                let Ok(Ok((reply, mark))) = tokio::time::timeout(ANSWER_WAIT, answer).await
                else {
                    continue;
                };
                while pushes.taken() < mark {
                    match pushes.recv().await {
                        Some(line) => push(&line),
                        None => break,
                    }
                }
                send(&shared, &to, &json!({"t": "rep", "m": m, "rid": rid, "reply": reply}));
            }
            () = async {
                let _ = moved.wait_for(|m| *m).await;
            } => {
                gone(&shared, &to, &m, true);
                break;
            }
            _ = check.tick() => {
                if !runs_here(&shared, &m) {
                    gone(&shared, &to, &m, false);
                    break;
                }
            }
        }
    }
    let mut remote = lock(&shared.router.remote);
    if remote
        .get(&(to.clone(), their))
        .is_some_and(|f| f.match_id == m)
    {
        remote.remove(&(to, their));
    }
}

/// Registers a proxy for match `id` if another instance runs it (holds an unexpired
/// lease on it): the sockets here then use it as if the match ran here.
pub(crate) async fn attach(shared: &Shared, id: &str) -> Looked {
    if shared.store.leases().is_none() || shared.matches().contains_key(id) {
        return Looked::default();
    }
    let store = shared.store.clone();
    let key = id.to_owned();
    // One query says whether the match is stored, how it ended and who runs it; only a
    // match another instance runs is read further (its seats).
    let found = tokio::task::spawn_blocking(move || -> Result<_, StoreError> {
        let Some(leases) = store.leases() else {
            return Ok((None, None));
        };
        let found = store.find(&key)?;
        match found.as_ref().and_then(|f| f.owner.clone()) {
            Some(owner) if owner != leases.instance() => {
                let loaded = store.load(std::slice::from_ref(&key))?;
                let seats = loaded
                    .into_iter()
                    .next()
                    .and_then(Result::ok)
                    .map(|m| (owner, m.seats));
                Ok((Some(found), seats))
            }
            _ => Ok((Some(found), None)),
        }
    })
    .await;
    let (looked, run_elsewhere) = match found {
        Ok(Ok((looked, seats))) => (Looked(looked), seats),
        _ => (Looked::default(), None),
    };
    let Some((owner, seats)) = run_elsewhere else {
        return looked;
    };
    let Some(me) = shared.me.upgrade() else {
        return Looked::default();
    };
    let (tx, cmds) = mpsc::unbounded_channel();
    let (inbox_tx, inbox) = mpsc::unbounded_channel();
    // The owner holds an unexpired lease: alive now, whether heard from yet or not.
    lock(&shared.router.heard)
        .entry(owner.clone())
        .or_insert_with(Instant::now);
    {
        let mut matches = shared.matches();
        if matches.contains_key(id) {
            return Looked::default();
        }
        matches.insert(
            id.to_owned(),
            Handle {
                tx,
                seats,
                remote: Some(owner.clone()),
            },
        );
        lock(&shared.router.proxies).insert(id.to_owned(), inbox_tx);
    }
    tokio::spawn(proxy(me, id.to_owned(), owner, cmds, inbox));
    Looked::default()
}

/// What a proxy waits for: the socket's replier, the request's id (for a refusal), the
/// binding a `hello`/`watch` makes, and since when.
struct Waiting {
    reply: Replier,
    id: Value,
    sub: Option<u64>,
    since: Instant,
}

/// A match run by `owner`, served to this instance's sockets.
async fn proxy(
    shared: Arc<Shared>,
    m: String,
    owner: String,
    mut cmds: mpsc::UnboundedReceiver<Cmd>,
    mut inbox: mpsc::UnboundedReceiver<Value>,
) {
    let me = me(&shared);
    let mut rid = 0u64;
    let mut waiting: HashMap<u64, Waiting> = HashMap::new();
    let mut subs: HashMap<u64, PushTx> = HashMap::new();
    let mut check = tokio::time::interval(CHECK_EVERY);
    let moved = loop {
        tokio::select! {
            cmd = cmds.recv() => match cmd {
                None => break false,
                Some(Cmd::Request { line, only_over, reply, sub }) => {
                    rid += 1;
                    waiting.insert(rid, Waiting { reply, id: Value::Null, sub: None, since: Instant::now() });
                    send(&shared, &owner, &json!({
                        "t": "req", "from": me, "m": m, "rid": rid,
                        "line": line, "only_over": only_over, "sub": sub,
                    }));
                }
                Some(Cmd::Subscribe { id, sub, replaces, player, tx, reply }) => {
                    if let Some(r) = replaces {
                        subs.remove(&r);
                    }
                    subs.insert(sub, tx);
                    rid += 1;
                    waiting.insert(rid, Waiting { reply, id: id.clone(), sub: Some(sub), since: Instant::now() });
                    send(&shared, &owner, &json!({
                        "t": "sub", "from": me, "m": m, "rid": rid, "id": id,
                        "sub": sub, "replaces": replaces, "player": player,
                    }));
                }
                Some(Cmd::Unsubscribe { sub }) => {
                    if subs.remove(&sub).is_some() {
                        send(&shared, &owner, &json!({"t": "unsub", "from": me, "m": m, "sub": sub}));
                    }
                }
                Some(Cmd::Hint { id, player, reply }) => {
                    rid += 1;
                    waiting.insert(rid, Waiting { reply, id: id.clone(), sub: None, since: Instant::now() });
                    send(&shared, &owner, &json!({
                        "t": "hint", "from": me, "m": m, "rid": rid, "id": id, "player": player,
                    }));
                }
                Some(Cmd::Lost) => break true,
            },
            msg = inbox.recv() => {
                let Some(msg) = msg else { break false };
                match msg["t"].as_str().unwrap_or_default() {
                    "rep" => {
                        let Some(w) = waiting.remove(&msg["rid"].as_u64().unwrap_or(0)) else {
                            continue;
                        };
                        let reply = reply_from(&msg["reply"]);
                        if let Some(sub) = w.sub.filter(|_| !reply.ok) {
                            subs.remove(&sub);
                        }
                        w.reply.send(reply);
                    }
                    "push" => {
                        let sub = msg["sub"].as_u64().unwrap_or(0);
                        let line: Arc<str> = msg["line"].as_str().unwrap_or_default().into();
                        if subs.get(&sub).is_some_and(|tx| !tx.send(&line)) {
                            subs.remove(&sub);
                            send(&shared, &owner, &json!({"t": "unsub", "from": me, "m": m, "sub": sub}));
                        }
                    }
                    "gone" => break msg["moved"].as_bool().unwrap_or(true),
                    _ => {}
                }
            }
            _ = check.tick() => {
                if waiting.values().any(|w| w.since.elapsed() > ANSWER_WAIT) {
                    // The owner answers nothing: taken for dead. Its lease expires and
                    // an instance claims the match; the sockets reconnect meanwhile.
                    break true;
                }
            }
        }
    };
    {
        let mut matches = shared.matches();
        if matches.get(&m).is_some_and(|h| h.remote.is_some()) {
            matches.remove(&m);
        }
        lock(&shared.router.proxies).remove(&m);
    }
    for (_, w) in waiting {
        w.reply
            .send(Host::reply(w.id, Err(unavailable(RETRY_AFTER))));
    }
    if moved {
        for tx in subs.values() {
            tx.reconnect();
        }
    }
}
