//! One task per match: it owns the match, applies requests, timeouts and bot moves in
//! order, stores every change before answering, and pushes the update to every socket
//! bound to the match.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use game_core::{
    AppliedJson, DynEvents, DynMatch, GameError, MatchRecord, PlayedJson, RecordEntry,
};
use game_host::reply::{self, Body, Fail, body, fail, unknown_match};
use game_host::{Host, OPS, Reply, Request, Status};
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

use crate::bots::{ServerBot, random_u64};
use crate::ended::{Lifecycle, Seating, closed_push};
use crate::limits::{Bucket, Rate, rate_limited};
use crate::observe::{self, Esc};
use crate::store::{Change, Ended, StoreError};
use crate::{RETRY_AFTER, Shared, now_ms, unavailable};

/// The longest wait between two reloads of a match whose store keeps failing.
const MAX_RELOAD_WAIT: Duration = Duration::from_secs(60);

/// Where a socket's pushes go: serialized push lines (shared by the sockets that get the
/// same view), counted in bytes against the socket's cap.
#[derive(Clone)]
pub(crate) struct PushTx {
    tx: mpsc::UnboundedSender<Arc<str>>,
    queued: Arc<AtomicUsize>,
    cap: usize,
    /// Turned true when the queue overflowed: the socket closes.
    slow: Arc<watch::Sender<bool>>,
    /// Turned true when a match the socket is bound to moved to another instance: the
    /// socket closes with a code that tells the client to reconnect.
    moved: Arc<watch::Sender<bool>>,
    /// How many lines were ever queued: a reply carries it, and the socket sends what
    /// was queued before the reply first.
    pushed: Arc<AtomicU64>,
}

/// The socket's end of its push queue.
pub(crate) struct PushRx {
    rx: mpsc::UnboundedReceiver<Arc<str>>,
    queued: Arc<AtomicUsize>,
    /// Turns true when the client fell so far behind that its queue overflowed.
    pub(crate) slow: watch::Receiver<bool>,
    /// Turns true when a match the socket is bound to moved to another instance.
    pub(crate) moved: watch::Receiver<bool>,
    /// How many lines were taken from the queue.
    taken: u64,
}

/// A socket's push queue holding at most `cap` bytes (one line of any size fits in an
/// empty queue).
pub(crate) fn push_queue(cap: usize) -> (PushTx, PushRx) {
    let (tx, rx) = mpsc::unbounded_channel();
    let (slow, slow_rx) = watch::channel(false);
    let (moved, moved_rx) = watch::channel(false);
    let queued = Arc::new(AtomicUsize::new(0));
    (
        PushTx {
            tx,
            queued: queued.clone(),
            cap,
            slow: Arc::new(slow),
            moved: Arc::new(moved),
            pushed: Arc::new(AtomicU64::new(0)),
        },
        PushRx {
            rx,
            queued,
            slow: slow_rx,
            moved: moved_rx,
            taken: 0,
        },
    )
}

impl PushTx {
    /// Tells the socket to close with the code that asks its client to reconnect (the
    /// match moved to another instance).
    pub(crate) fn reconnect(&self) {
        self.moved.send_replace(true);
    }

    /// Queues `line`; `false` when the socket is gone or its queue is full (then it is
    /// told to close): either way the match stops pushing to it.
    pub(crate) fn send(&self, line: &Arc<str>) -> bool {
        let n = line.len();
        let before = self.queued.fetch_add(n, Ordering::AcqRel);
        if before > 0 && before + n > self.cap {
            self.queued.fetch_sub(n, Ordering::AcqRel);
            self.slow.send_replace(true);
            return false;
        }
        if self.tx.send(line.clone()).is_err() {
            self.queued.fetch_sub(n, Ordering::AcqRel);
            return false;
        }
        // Counted once in the queue: a count read later never names a line not there.
        self.pushed.fetch_add(1, Ordering::AcqRel);
        true
    }
}

/// Where a match's task sends a socket's reply: with the count of lines queued to that
/// socket by then, so the socket sends every push of an earlier change before it (the
/// reply and the pushes travel apart, the reply must not overtake them).
pub(crate) struct Replier {
    tx: oneshot::Sender<(Reply, u64)>,
    pushed: Arc<AtomicU64>,
}

impl Replier {
    /// A reply channel for the socket whose push queue is `pushes`.
    pub(crate) fn new(pushes: &PushTx) -> (Self, oneshot::Receiver<(Reply, u64)>) {
        let (tx, rx) = oneshot::channel();
        let pushed = pushes.pushed.clone();
        (Self { tx, pushed }, rx)
    }

    /// Sends `reply` after every line queued so far (ignored if the socket is gone).
    pub(crate) fn send(self, reply: Reply) {
        let mark = self.pushed.load(Ordering::Acquire);
        let _ = self.tx.send((reply, mark));
    }
}

impl PushRx {
    /// The next queued line (it leaves the count as it leaves the queue).
    pub(crate) async fn recv(&mut self) -> Option<Arc<str>> {
        let line = self.rx.recv().await?;
        self.queued.fetch_sub(line.len(), Ordering::AcqRel);
        self.taken += 1;
        Some(line)
    }

    /// How many lines were taken so far (compared with a reply's count).
    pub(crate) fn taken(&self) -> u64 {
        self.taken
    }
}

/// A command to a match's task.
pub(crate) enum Cmd {
    /// A host request line (already rewritten for the bound seat and the server's clock).
    Request {
        line: String,
        /// `record` is served only once the match is over.
        only_over: bool,
        reply: Replier,
        /// The asking socket's binding to the match, if any: a match run on another
        /// instance orders the reply after that binding's pushes.
        sub: Option<u64>,
    },
    /// Binds a socket: `player` for a seat (marks them connected), `None` for a spectator;
    /// in place of the socket's earlier binding `replaces`, in one step (a repeated
    /// `hello` for the same seat changes no presence).
    Subscribe {
        id: Value,
        sub: u64,
        replaces: Option<u64>,
        player: Option<String>,
        tx: PushTx,
        reply: Replier,
    },
    /// A socket left (or re-bound).
    Unsubscribe { sub: u64 },
    /// `hint`: the status and what the game's `policy` bot would play now for `player`
    /// (for the Yut games, the engine's own timeout action). Changes nothing.
    Hint {
        id: Value,
        player: String,
        reply: Replier,
    },
    /// Another instance took the match's lease over: the task ends without a write.
    Lost,
}

struct Sub {
    id: u64,
    player: Option<String>,
    tx: PushTx,
}

/// What a change did, whole: the timeouts taken first and the request's own events.
/// Nobody is sent it as it is: each socket and each reply gets its viewer's projection.
#[derive(Default)]
pub(crate) struct Done {
    applied: Vec<AppliedJson>,
    events: DynEvents,
}

impl Done {
    /// The timeouts taken, as `viewer` sees them.
    fn applied_for(&self, viewer: Option<&str>) -> Vec<AppliedJson> {
        self.applied.iter().map(|a| a.for_viewer(viewer)).collect()
    }

    /// The request's events, as `viewer` sees them.
    fn events_for(&self, viewer: Option<&str>) -> Vec<Value> {
        self.events.for_viewer(viewer)
    }

    /// Every event, the timeouts' first, as `viewer` sees them (what a push carries).
    fn all_for(&self, viewer: Option<&str>) -> Vec<Value> {
        let mut all: Vec<Value> = self
            .applied_for(viewer)
            .into_iter()
            .flat_map(|a| a.events)
            .collect();
        all.extend(self.events_for(viewer));
        all
    }
}

/// The match's task state.
pub(crate) struct Actor {
    pub(crate) id: String,
    /// The match (created, or replayed from its record, over the server's registry).
    pub(crate) m: Box<dyn DynMatch>,
    pub(crate) bots: HashMap<String, ServerBot>,
    pub(crate) shared: Arc<Shared>,
    /// How many record entries are stored.
    pub(crate) stored: usize,
    /// Whether the store knows the match is over.
    pub(crate) finished: bool,
    /// Human players the engine was told are disconnected. Whether a player is connected
    /// is never counted apart: it is whether a socket in `subs` is bound to them, and
    /// [`Actor::settle`] brings the engine in line after anything that changed `subs`, in
    /// whatever order the sockets came, went or were found closed.
    pub(crate) away: HashSet<String>,
    /// Human seats of a new match that no socket has bound yet: present, as the engine
    /// starts them, until their first `hello` (so nobody's turn is played for them while
    /// their link is being shared). Empty for a match restored at start.
    pub(crate) unseen: HashSet<String>,
    /// The human players, in seat order: the seats no bot plays (fixed for the match).
    humans: Vec<String>,
    subs: Vec<Sub>,
    /// When the bots act next, and the `turnSeq` they will answer: a change before then
    /// (a person's call) starts their wait again.
    bot_due: Option<(Instant, u64)>,
    /// The match counted against its creator's quotas: released once it is over (or
    /// with the task).
    pub(crate) quota: Option<crate::limits::OpenMatch>,
    /// Set while the match in memory may be ahead of the store (a commit failed and so
    /// did the reload after it): when to reload next, and the wait before that try.
    stalled: Option<(Instant, Duration)>,
    /// What the task's end is timed from.
    life: Lifecycle,
    /// Set once the match is closed or leaves memory: the task ends.
    ended: bool,
    /// When each human seat's presence was last told to the engine: the seat's next
    /// disconnection waits until [`crate::Config::presence_interval`] after it.
    told: HashMap<String, Instant>,
    /// When a seat's presence change, held back by the interval, is due.
    presence_due: Option<Instant>,
    /// Each human seat's bucket of binds and unbinds ([`crate::Config::presence_per_minute`]).
    binds: HashMap<String, Bucket>,
    /// How many of the record's entries are not moves (presence changes, the grace):
    /// capped at [`crate::Config::max_presence_entries`].
    extras: usize,
}

/// How many entries of `record` are not moves: those a client's comings and goings (and
/// the host's grace) add, which no game's end bounds.
fn extras_in(record: &MatchRecord) -> usize {
    record
        .entries
        .iter()
        .filter(|e| matches!(e, RecordEntry::Presence { .. } | RecordEntry::Grace { .. }))
        .count()
}

impl Actor {
    pub(crate) fn new(
        id: String,
        mut m: Box<dyn DynMatch>,
        bots: HashMap<String, ServerBot>,
        shared: Arc<Shared>,
        stored: usize,
    ) -> Self {
        let extras = extras_in(m.record());
        let humans = m
            .players()
            .iter()
            .filter(|p| !bots.contains_key(*p))
            .cloned()
            .collect();
        Self {
            id,
            m,
            bots,
            humans,
            shared,
            stored,
            finished: false,
            away: HashSet::new(),
            unseen: HashSet::new(),
            subs: Vec::new(),
            bot_due: None,
            quota: None,
            stalled: None,
            life: Lifecycle::new(),
            ended: false,
            told: HashMap::new(),
            presence_due: None,
            binds: HashMap::new(),
            extras,
        }
    }

    /// Who is at the match now.
    fn seating(&self) -> Seating {
        Seating {
            humans: self.humans.len(),
            unseen: self.unseen.len(),
            anyone: self
                .subs
                .iter()
                .any(|s| s.player.as_ref().is_some_and(|p| self.humans.contains(p))),
        }
    }

    /// When the task ends by itself, and why (see [`Lifecycle::due`]).
    fn end_due(&self) -> Option<(Instant, Option<Ended>)> {
        self.life.due(&self.shared.config, &self.seating())
    }

    /// Ends the task now if its time came: a finished match leaves memory; one closed
    /// before its end is stored so first, then its sockets are told.
    async fn end_if_due(&mut self) -> Result<(), StoreError> {
        let Some((at, why)) = self.end_due() else {
            return Ok(());
        };
        if at > Instant::now() {
            return Ok(());
        }
        if let Some(why) = why {
            let close = Change::Close {
                id: self.id.clone(),
                why,
            };
            if let Err(e) = self.shared.writer.commit(vec![close]).await {
                tracing::error!(r#match = %Esc(&self.id), error = %e, "match {}: not closed: {e}", Esc(&self.id));
                return Err(e);
            }
            tracing::info!(r#match = %Esc(&self.id), why = why.word(), "match {}: closed: {}", Esc(&self.id), why.word());
            let line = closed_push(&self.id, why);
            for sub in &self.subs {
                sub.tx.send(&line);
            }
        }
        self.ended = true;
        Ok(())
    }

    /// Answers a client's request line (an operation on this match, already rewritten
    /// for the bound seat and the server's clock) as the host protocol answers it, then
    /// stores and pushes what it changed. `Err` when the store failed: the change is not
    /// durable (the task then reloads the match from the store).
    async fn request(&mut self, line: &str) -> Result<Reply, Reply> {
        let (id, answer, done) = match Request::parse(line) {
            Ok(req) => {
                let (answer, done) = self.answer(&req);
                (req.id(), answer, done)
            }
            Err(f) => (Value::Null, Err(f), Done::default()),
        };
        self.persist(done)
            .await
            .map_err(|_| Host::reply(Value::Null, Err(unavailable(RETRY_AFTER))))?;
        Ok(Host::reply(id, answer))
    }

    /// One operation of the host protocol on this match: its reply body (or refusal), and
    /// what it changed.
    fn answer(&mut self, req: &Request<'_>) -> (Body, Done) {
        let read = || -> Result<(String, String), Fail> {
            let op: String = req.need("op", "a string")?;
            let spec = OPS
                .iter()
                .find(|(name, _)| *name == op)
                .map_or(&[][..], |(_, spec)| *spec);
            req.check(&op, spec)?;
            let matched = req.id_field("match")?;
            Ok((op, matched))
        };
        let (op, matched) = match read() {
            Ok(read) => read,
            Err(f) => return (Err(f), Done::default()),
        };
        if matched != self.id {
            return (Err(unknown_match(&matched)), Done::default());
        }
        if op == "act" {
            let read = || -> Result<_, Fail> {
                let player = req.id_field("player")?;
                let action = req.object("action")?.unwrap_or_default();
                Ok((player, action, req.count("turnSeq")?, req.count("now")?))
            };
            return match read() {
                Ok((player, action, turn_seq, now)) => {
                    let now = now.unwrap_or_else(|| self.m.clock());
                    let played = self.m.act(&player, action, turn_seq, now);
                    if played.result.is_ok() {
                        metrics::counter!(observe::ACTIONS).increment(1);
                    }
                    self.played(Some(&player), played)
                }
                Err(f) => (Err(f), Done::default()),
            };
        }
        (self.read_only(&op, req), Done::default())
    }

    /// The operations that change nothing: `view`, `legal`, `outcome`, `record`.
    fn read_only(&mut self, op: &str, req: &Request<'_>) -> Body {
        let m = &mut self.m;
        Ok(match op {
            "view" => body(&reply::View {
                view: m.view(req.opt_id("player")?.as_deref())?,
            }),
            "legal" => body(&reply::Legal {
                actions: m.legal_actions(&req.id_field("player")?)?,
            }),
            "outcome" => {
                let outcome = m.outcome();
                body(&reply::Outcome {
                    over: outcome.is_some(),
                    outcome,
                })
            }
            "record" => {
                let over = m.outcome().is_some();
                let record = m.record();
                if over {
                    // Over: the record changes no more. Kept once, compressed, for every
                    // later `record` of it (the sockets serve those without this task).
                    self.shared.records.keep(&self.id, record);
                }
                body(&reply::Record {
                    record: record.clone(),
                })
            }
            other => {
                return Err(fail(
                    "UNKNOWN_OP",
                    "알 수 없는 요청이에요.",
                    json!({ "op": other }),
                ));
            }
        })
    }

    /// The reply to an `act` or `presence` as `viewer` sees it (the status, the request's
    /// events and the timeouts taken first, or the refusal with those timeouts), and the
    /// change whole.
    fn played(&self, viewer: Option<&str>, played: PlayedJson) -> (Body, Done) {
        let events = played.events().clone();
        let PlayedJson {
            applied, result, ..
        } = played;
        match result {
            Ok(_) => {
                let done = Done { applied, events };
                let answer = body(&reply::Played {
                    status: Status::of(&self.id, self.m.as_ref()),
                    events: done.events_for(viewer),
                    applied: done.applied_for(viewer),
                });
                (Ok(answer), done)
            }
            Err(e) => {
                let done = Done {
                    applied,
                    events: DynEvents::default(),
                };
                let refused = Fail {
                    error: e.body(),
                    applied: done.applied_for(viewer),
                };
                (Err(refused), done)
            }
        }
    }

    /// Stores the record's new entries (and the end of the match), then pushes each
    /// bound socket its view and its projection of `done`.
    async fn persist(&mut self, done: Done) -> Result<(), StoreError> {
        let changes = self.unstored();
        if changes.is_empty() {
            return Ok(());
        }
        if let Err(e) = self.shared.writer.commit(changes).await {
            tracing::error!(r#match = %Esc(&self.id), error = %e, "match {}: not stored, reloading: {e}", Esc(&self.id));
            return Err(e);
        }
        self.stored_now();
        self.push(&done);
        Ok(())
    }

    /// What the store does not have yet: the record's new entries, and the end of the
    /// match if it came with them.
    pub(crate) fn unstored(&mut self) -> Vec<Change> {
        let entries = &self.m.record().entries;
        let entries = entries[self.stored.min(entries.len())..].to_vec();
        if entries.is_empty() {
            return Vec::new();
        }
        let mut changes = vec![Change::Append {
            id: self.id.clone(),
            from: self.stored,
            entries,
        }];
        if self.m.outcome().is_some() && !self.finished {
            changes.push(Change::Finish {
                id: self.id.clone(),
            });
        }
        changes
    }

    /// Notes that what [`Actor::unstored`] gave is committed.
    pub(crate) fn stored_now(&mut self) {
        self.stored = self.m.record().entries.len();
        if self.m.outcome().is_some() {
            self.finished = true;
            self.quota = None;
        }
    }

    /// Tells the engine every human seat is disconnected, without storing it (a restart
    /// stores a batch of matches' disconnections at once).
    pub(crate) fn mark_all_away(&mut self, now: u64) {
        if self.m.outcome().is_some() {
            return;
        }
        for p in &self.humans {
            if self.away.insert(p.clone()) {
                self.m.set_connected(p, false, now);
            }
        }
    }

    /// Sends every bound socket its own view of the match and its own projection of what
    /// changed: a player sees what only they may see (the cards they drew), nobody else
    /// does. A socket found closed or too far behind is unbound here ([`Actor::settle`]
    /// then marks its player away).
    fn push(&mut self, done: &Done) {
        let m = self.m.as_ref();
        let (turn_seq, over) = (m.turn_seq(), m.outcome().is_some());
        let next_tick_at = m.next_tick_at();
        let mut lines: HashMap<Option<String>, Arc<str>> = HashMap::new();
        let id = &self.id;
        self.subs.retain(|sub| {
            let line = lines.entry(sub.player.clone()).or_insert_with(|| {
                let viewer = sub.player.as_deref();
                let view = m.view(viewer).unwrap_or(Value::Null);
                json!({
                    "push": "update",
                    "match": id,
                    "turnSeq": turn_seq,
                    "nextTickAt": next_tick_at,
                    "events": done.all_for(viewer),
                    "view": view,
                    "over": over,
                })
                .to_string()
                .into()
            });
            sub.tx.send(line)
        });
    }

    /// Tells the engine a player came or went (not once the match is over).
    async fn presence(&mut self, player: &str, connected: bool) -> Result<(), StoreError> {
        if self.m.outcome().is_some() {
            return Ok(());
        }
        let played = self.m.set_connected(player, connected, now_ms());
        if played.result.is_ok() && !played.events().is_empty() {
            self.extras += 1;
        }
        let (_, done) = self.played(None, played);
        self.persist(done).await
    }

    /// Tells the engine of every human whose connection differs from what it was told:
    /// connected when a socket is bound to them, disconnected when none is. At a restart
    /// no socket is, so every human seat is marked away and its grace runs.
    pub(crate) async fn settle(&mut self) -> Result<(), StoreError> {
        // A presence change pushes, and a push may find more sockets closed: again until
        // nothing changes (each round only unbinds, so this ends).
        let now = Instant::now();
        let interval = self.shared.config.presence_interval;
        self.presence_due = None;
        loop {
            let mut changed = false;
            for i in 0..self.humans.len() {
                let p = &self.humans[i];
                let bound = self.subs.iter().any(|s| s.player.as_ref() == Some(p));
                if bound {
                    self.unseen.remove(p);
                }
                if bound != self.away.contains(p) || self.unseen.contains(p) {
                    continue;
                }
                // A seat that went within the interval of its last change waits for the
                // interval's end: the flips between are one change then, or none if the
                // seat is back by then. A seat that comes back is told at once, so nobody
                // is played for while bound; a flood is two changes an interval at most.
                if !bound
                    && let Some(&last) = self.told.get(p)
                    && now < last + interval
                {
                    let due = last + interval;
                    self.presence_due = Some(self.presence_due.map_or(due, |d| d.min(due)));
                    continue;
                }
                // Only a change copies the id (the engine is told next).
                let p = p.clone();
                self.told.insert(p.clone(), now);
                if bound {
                    self.away.remove(&p);
                } else {
                    self.away.insert(p.clone());
                }
                self.presence(&p, bound).await?;
                changed = true;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// The task's loop: commands, the engine's timer and the bots' moves, in one order.
    /// A change the store did not take leaves the match in memory ahead of it: the match
    /// is then reloaded from the store and goes on from what was stored (and answered).
    pub(crate) async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Cmd>) {
        let _counted = observe::Held::new(observe::OPEN_MATCHES);
        loop {
            if let Some((at, _)) = self.stalled {
                tokio::select! {
                    cmd = rx.recv() => match cmd {
                        Some(cmd) => self.refuse(cmd, at),
                        None => break,
                    },
                    () = tokio::time::sleep_until(at) => self.failed().await,
                }
                if self.ended {
                    break;
                }
                continue;
            }
            if self.settle().await.is_err() {
                self.failed().await;
                if self.ended {
                    break;
                }
                continue;
            }
            self.life.note(&self.seating(), self.finished);
            self.schedule_bots();
            let wake = self.wake();
            let timer = async move {
                match wake {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let step = tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.command(cmd).await,
                    None => break,
                },
                () = timer => self.timer().await,
            };
            if step.is_err() {
                self.failed().await;
            }
            if self.ended {
                break;
            }
        }
        self.shared.forget(&self.id);
    }

    /// Another instance runs the match now: the task ends, and the sockets bound to it
    /// are told to reconnect (any instance serves it from there).
    fn moved(&mut self) {
        for sub in &self.subs {
            sub.tx.reconnect();
        }
        self.ended = true;
    }

    /// After a change the store refused: the task ends if the refusal was for a lease
    /// another instance took over (that instance runs the match now), else the match is
    /// reloaded from the store.
    async fn failed(&mut self) {
        if self
            .shared
            .store
            .leases()
            .is_some_and(|l| !l.holds(&self.id))
        {
            tracing::warn!(r#match = %Esc(&self.id), "match {}: lease taken over by another instance, dropped here", Esc(&self.id));
            self.moved();
            return;
        }
        self.reload().await;
    }

    /// Replaces the match in memory with the one the store holds, or, if it cannot be
    /// read now, sets when to try again (the wait doubling up to [`MAX_RELOAD_WAIT`]).
    pub(crate) async fn reload(&mut self) {
        match self.load_stored().await {
            Ok(()) => {
                if self.stalled.take().is_some() {
                    tracing::info!(r#match = %Esc(&self.id), "match {}: reloaded from the store, serving again", Esc(&self.id));
                }
            }
            Err(why) => {
                let wait = self
                    .stalled
                    .map_or(RETRY_AFTER, |(_, w)| (w * 2).min(MAX_RELOAD_WAIT));
                tracing::error!(
                    r#match = %Esc(&self.id),
                    error = %why,
                    "match {}: not reloaded, again in {} ms: {why}",
                    Esc(&self.id),
                    wait.as_millis()
                );
                self.stalled = Some((Instant::now() + wait, wait));
            }
        }
    }

    /// Reads the match's record from the store and replays it over the server's
    /// registry: the match as stored, hence as answered (a change is answered only once
    /// committed), nothing of the change that failed in it.
    async fn load_stored(&mut self) -> Result<(), String> {
        let store = self.shared.store.clone();
        let id = self.id.clone();
        let record = tokio::task::spawn_blocking(move || store.record(&id))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?
            .ok_or("the match is no longer stored")?;
        let m = self.shared.registry.replay(&record).map_err(|e| {
            serde_json::to_value(GameError::body(&e))
                .unwrap_or_default()
                .to_string()
        })?;
        self.stored = record.entries.len();
        self.finished = m.outcome().is_some();
        if self.finished {
            self.quota = None;
        }
        self.away = away_in(&record);
        self.extras = extras_in(&record);
        self.m = m;
        Ok(())
    }

    /// Answers a command while the match cannot be reloaded: `UNAVAILABLE` until `at`.
    fn refuse(&mut self, cmd: Cmd, at: Instant) {
        let wait = at.saturating_duration_since(Instant::now());
        let refused = || Err(unavailable(wait.max(Duration::from_millis(1))));
        match cmd {
            Cmd::Request { reply, .. } => reply.send(Host::reply(Value::Null, refused())),
            Cmd::Subscribe { id, reply, .. } => reply.send(Host::reply(id, refused())),
            Cmd::Unsubscribe { sub } => self.subs.retain(|s| s.id != sub),
            Cmd::Hint { id, reply, .. } => reply.send(Host::reply(id, refused())),
            Cmd::Lost => self.moved(),
        }
    }

    /// When a bot is to act and has no move scheduled for the match as it stands,
    /// schedules it: after the bot delay, or the call delay while a person may call.
    fn schedule_bots(&mut self) {
        let (callers, movers) = self.bots_to_act();
        if callers.is_empty() && movers.is_empty() {
            self.bot_due = None;
            return;
        }
        let turn = self.m.turn_seq();
        if self.bot_due.is_some_and(|(_, seen)| seen == turn) {
            return;
        }
        let config = &self.shared.config;
        let delay = if self.person_may_call(!callers.is_empty()) {
            config.bot_delay.max(config.call_delay)
        } else {
            config.bot_delay
        };
        self.bot_due = Some((Instant::now() + delay, turn));
    }

    /// Whether a person may act besides the one to move (a call), or is to move while a
    /// bot may call on them: either way a bot acting at its usual pace would win a race
    /// no person could.
    fn person_may_call(&self, bots_may_call: bool) -> bool {
        let status = self.m.status();
        let players = self.m.players();
        let person = |seats: &[usize]| {
            seats
                .iter()
                .filter_map(|&seat| players.get(seat))
                .any(|p| self.humans.contains(p))
        };
        person(&status.may_act) || (bots_may_call && person(&status.to_act))
    }

    /// The next time the task acts by itself: the engine's next tick, a bot's move or
    /// the task's end.
    fn wake(&self) -> Option<Instant> {
        let tick = self
            .m
            .next_tick_at()
            .map(|at| Instant::now() + Duration::from_millis(at.saturating_sub(now_ms())));
        let end = self.end_due().map(|(at, _)| at);
        let bots = self.bot_due.map(|(at, _)| at);
        // A presence change held back: `settle` makes it at the top of the loop.
        [tick, bots, end, self.presence_due]
            .into_iter()
            .flatten()
            .min()
    }

    async fn timer(&mut self) -> Result<(), StoreError> {
        self.end_if_due().await?;
        if self.ended {
            return Ok(());
        }
        let now = now_ms();
        if self.m.next_tick_at().is_some_and(|at| at <= now) {
            let applied = self.m.tick(now);
            let done = Done {
                applied,
                events: DynEvents::default(),
            };
            self.persist(done).await?;
        }
        if self.bot_due.is_some_and(|(at, _)| at <= Instant::now()) {
            self.bot_due = None;
            let (mut callers, movers) = self.bots_to_act();
            // Calls race: the first decides. Which bot is first is left to chance, so
            // that no seat always wins the race.
            if !callers.is_empty() {
                let first = (random_u64() % callers.len() as u64) as usize;
                callers.rotate_left(first);
            }
            for player in callers.into_iter().chain(movers) {
                // Each bot chooses on the match as the bots before it left it: one that
                // may act no more (a call another answered first) has no action.
                let Some(action) = self.bot_action(&player) else {
                    continue;
                };
                let played = self.m.act(&player, action.clone(), None, now_ms());
                if played.result.is_ok() {
                    metrics::counter!(observe::ACTIONS).increment(1);
                }
                let (answer, done) = self.played(None, played);
                self.persist(done).await?;
                if let Err(refused) = answer {
                    // A bot's choice the engine refuses is a bug of the bot: say so; the
                    // match's deadline then plays the seat.
                    tracing::warn!(
                        r#match = %Esc(&self.id),
                        "match {}: bot {} refused: {} for {action}",
                        Esc(&self.id),
                        Esc(&player),
                        refused.error.code
                    );
                }
            }
        }
        Ok(())
    }

    /// The bots that may act now: those the game lets act besides (One Card's calls),
    /// then those whose move is awaited, in seat order. The calls come first: a move
    /// closes their window, and bots that call after it never would.
    fn bots_to_act(&self) -> (Vec<String>, Vec<String>) {
        let status = self.m.status();
        if status.over {
            return (Vec::new(), Vec::new());
        }
        let players = self.m.players();
        let bots = |seats: &[usize]| -> Vec<String> {
            seats
                .iter()
                .filter_map(|&seat| players.get(seat))
                .filter(|p| self.bots.contains_key(*p))
                .cloned()
                .collect()
        };
        (bots(&status.may_act), bots(&status.to_act))
    }

    fn bot_action(&mut self, player: &str) -> Option<Value> {
        self.bots.get_mut(player)?.choose(self.m.as_ref(), player)
    }

    async fn command(&mut self, cmd: Cmd) -> Result<(), StoreError> {
        match cmd {
            Cmd::Request {
                line,
                only_over,
                reply,
                ..
            } => {
                if only_over && self.m.outcome().is_none() {
                    reply.send(Host::reply(Value::Null, Err(record_forbidden())));
                    return Ok(());
                }
                match self.request(&line).await {
                    Ok(r) => {
                        reply.send(r);
                        Ok(())
                    }
                    Err(r) => {
                        reply.send(r);
                        Err(StoreError::new("the request's change was not stored"))
                    }
                }
            }
            Cmd::Subscribe {
                id,
                sub,
                replaces,
                player,
                tx,
                reply,
            } => {
                if let Err(refused) = self.admit_bind(replaces, player.as_deref()) {
                    reply.send(Host::reply(id, Err(refused)));
                    return Ok(());
                }
                self.subs.retain(|s| Some(s.id) != replaces);
                self.subs.push(Sub {
                    id: sub,
                    player: player.clone(),
                    tx,
                });
                if let Err(e) = self.settle().await {
                    // Not bound: the socket says `hello` again once the match is back.
                    self.subs.retain(|s| s.id != sub);
                    reply.send(Host::reply(id, Err(unavailable(RETRY_AFTER))));
                    return Err(e);
                }
                let m = self.m.as_ref();
                let mut answer: Map<String, Value> = body(&Status::of(&self.id, m));
                if let Some(p) = &player {
                    answer.insert("player".into(), json!(p));
                }
                answer.insert(
                    "view".into(),
                    m.view(player.as_deref()).unwrap_or(Value::Null),
                );
                reply.send(Host::reply(id, Ok(answer)));
                Ok(())
            }
            Cmd::Unsubscribe { sub } => {
                // The player's presence follows in `settle`, at the top of the loop.
                self.subs.retain(|s| s.id != sub);
                Ok(())
            }
            Cmd::Hint { id, player, reply } => {
                reply.send(Host::reply(id, self.hint(&player)));
                Ok(())
            }
            Cmd::Lost => {
                self.moved();
                Ok(())
            }
        }
    }

    /// Judges a bind (`hello` as `player`, or `watch` for `None`) that replaces the
    /// socket's binding `replaces`, before anything changes: each human seat whose
    /// binding it changes takes a token from that seat's bucket (`RATE_LIMITED` with
    /// `retryAfterMs` when one has none, and then no seat's is taken), and a `hello` that
    /// would tell the engine a seat came back is refused past the cap on entries that are
    /// not moves (`QUOTA_EXCEEDED`, `presenceEntries`).
    fn admit_bind(&mut self, replaces: Option<u64>, player: Option<&str>) -> Result<(), Fail> {
        let before = replaces
            .and_then(|r| self.subs.iter().find(|s| s.id == r))
            .and_then(|s| s.player.clone());
        if before.as_deref() == player {
            // The same seat again (or a spectator again): nobody's presence moves.
            return Ok(());
        }
        let config = &self.shared.config;
        if let Some(p) = player
            && self.away.contains(p)
            && self.extras >= config.max_presence_entries
            && self.m.outcome().is_none()
        {
            return Err(fail(
                "QUOTA_EXCEEDED",
                "이 게임에서 접속이 너무 자주 바뀌었어요.",
                json!({ "limit": "presenceEntries", "max": config.max_presence_entries }),
            ));
        }
        let rate = Rate {
            per_minute: config.presence_per_minute,
            burst: config.presence_burst,
        };
        let now = Instant::now();
        let seats: Vec<&str> = [before.as_deref(), player]
            .into_iter()
            .flatten()
            .filter(|p| self.humans.iter().any(|h| h == p))
            .collect();
        // Judged on copies first: a bind refused for one seat takes nothing from another.
        for p in &seats {
            let mut bucket = match self.binds.get(*p) {
                Some(b) => b.clone(),
                None => Bucket::full(rate, now),
            };
            if let Err(wait) = bucket.take(rate, now) {
                return Err(rate_limited(
                    "자리에 너무 자주 들어왔다 나갔다 하고 있어요. 잠시 후 다시 해 주세요.",
                    wait,
                ));
            }
        }
        for p in seats {
            let _ = self
                .binds
                .entry(p.to_owned())
                .or_insert_with(|| Bucket::full(rate, now))
                .take(rate, now);
        }
        Ok(())
    }

    /// The status with `hint`: the action the game's `policy` bot picks for `player` now,
    /// `null` when the match waits for nothing of theirs. A bot made for the question
    /// (the policy bot draws nothing at random), so no bot of the match is disturbed.
    /// A game without a policy bot: `UNKNOWN_BOT`, with the kinds it has.
    fn hint(&self, player: &str) -> Result<Map<String, Value>, Fail> {
        let game = self.shared.registry.get(self.m.game_id())?;
        let mut bot = ServerBot::new(game, "policy")?;
        let m = self.m.as_ref();
        let action = if m.outcome().is_none() && m.legal_count(player).unwrap_or(0) > 0 {
            bot.choose(m, player)
        } else {
            None
        };
        let mut answer: Map<String, Value> = body(&Status::of(&self.id, m));
        answer.insert("hint".into(), action.unwrap_or(Value::Null));
        Ok(answer)
    }
}

/// The human players whose last presence change in `record` left them away.
fn away_in(record: &MatchRecord) -> HashSet<String> {
    let mut away = HashSet::new();
    for entry in &record.entries {
        if let RecordEntry::Presence {
            player, connected, ..
        } = entry
        {
            if *connected {
                away.remove(player);
            } else {
                away.insert(player.clone());
            }
        }
    }
    away
}

/// `FORBIDDEN` for `record` while the match runs: a record holds the seed.
fn record_forbidden() -> Fail {
    fail(
        "FORBIDDEN",
        "게임이 끝난 뒤에 볼 수 있어요.",
        json!({ "field": "record", "detail": "a record holds the seed: served once the match is over" }),
    )
}
