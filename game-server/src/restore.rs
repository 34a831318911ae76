//! Restart: the unfinished matches in the store are restored behind a server that
//! already answers, in batches of [`BATCH`] (each read in one transaction and its
//! disconnections stored in one commit). A request for a match not yet back waits for
//! it, or is answered `UNAVAILABLE` with `retryAfterMs`.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use game_core::{RecordEntry, Registry};
use game_host::reply::Fail;
use tokio::sync::watch;

use crate::actor::Actor;
use crate::bots::ServerBot;
use crate::observe::{self, Esc};
use crate::store::{Change, StoreError, StoredMatch, Unreadable};
use crate::{CLOCK_TOLERANCE_MS, RETRY_AFTER, Shared, lock, now_ms, spawn, unavailable};

/// How many matches are restored together: read in one transaction, their
/// disconnections stored in one commit.
pub const BATCH: usize = 512;

/// The longest a request waits for its match to be restored before it is answered
/// `UNAVAILABLE`.
const RESTORE_WAIT: Duration = Duration::from_secs(2);

/// The ids still to restore, and a signal after each batch.
pub(crate) struct Pending {
    ids: Mutex<HashSet<String>>,
    progress: watch::Sender<usize>,
}

impl Pending {
    pub(crate) fn new() -> Self {
        Self {
            ids: Mutex::new(HashSet::new()),
            progress: watch::channel(0).0,
        }
    }

    pub(crate) fn has(&self, id: &str) -> bool {
        lock(&self.ids).contains(id)
    }

    /// Marks `ids` restored (or given up) and wakes who waits.
    fn done(&self, ids: &[String]) {
        let mut pending = lock(&self.ids);
        for id in ids {
            pending.remove(id);
        }
        metrics::gauge!(observe::RESTORE_PENDING).set(pending.len() as f64);
        drop(pending);
        self.progress.send_modify(|n| *n += ids.len());
    }
}

impl Shared {
    /// Waits while match `id` is still to be restored; `UNAVAILABLE` (with
    /// `retryAfterMs`) if it is not back within [`RESTORE_WAIT`].
    pub(crate) async fn restored(&self, id: &str) -> Result<crate::ended::Looked, Fail> {
        // Subscribed before the check: a batch done between them still wakes us.
        let mut progress = self.restoring.progress.subscribe();
        let until = tokio::time::Instant::now() + RESTORE_WAIT;
        while self.restoring.has(id) {
            match tokio::time::timeout_at(until, progress.changed()).await {
                Ok(Ok(())) => {}
                _ => return Err(unavailable(RETRY_AFTER)),
            }
        }
        // Run by another instance: served through it.
        Ok(crate::remote::attach(self, id).await)
    }
}

/// Reads the ids of the unfinished matches and marks them pending (those whose id does
/// not read are said on stderr and skipped).
pub(crate) fn list(shared: &Shared) -> Result<Vec<String>, StoreError> {
    // Shared with other instances: only the matches nobody holds are this one's.
    let ids = tokio::task::block_in_place(|| match shared.store.leases() {
        Some(leases) => Ok(leases.claim(usize::MAX)?.into_iter().map(Ok).collect()),
        None => shared.store.unfinished_ids(),
    })?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        match id {
            Ok(id) => out.push(id),
            Err(Unreadable { id, detail }) => {
                tracing::warn!(r#match = %Esc(&id), "match {}: not replayed: unreadable: {detail}", Esc(&id));
            }
        }
    }
    pending(shared, &out);
    Ok(out)
}

/// Marks `ids` to be restored: a request for one waits for it.
pub(crate) fn pending(shared: &Shared, ids: &[String]) {
    let mut pending = lock(&shared.restoring.ids);
    pending.extend(ids.iter().cloned());
    metrics::gauge!(observe::RESTORE_PENDING).set(pending.len() as f64);
}

/// Restores the matches `ids`, batch after batch: each replayed and its task started,
/// its human seats marked disconnected (their grace runs from now; a deadline that
/// passed meanwhile fires now). A match that does not read back, does not replay or whose
/// seats do not add up is skipped with a line on stderr naming it.
pub(crate) async fn run(shared: Arc<Shared>, ids: Vec<String>) {
    let started = std::time::Instant::now();
    let mut back = 0;
    for chunk in ids.chunks(BATCH) {
        back += batch(&shared, chunk).await;
        shared.restoring.done(chunk);
    }
    if !ids.is_empty() {
        tracing::info!(
            "restored {back} of {} unfinished matches in {} ms",
            ids.len(),
            started.elapsed().as_millis()
        );
    }
}

/// Restores one batch; how many of its matches are back.
async fn batch(shared: &Arc<Shared>, ids: &[String]) -> usize {
    let store = shared.store.clone();
    let read = ids.to_vec();
    let loaded = match tokio::task::spawn_blocking(move || store.load(&read)).await {
        Ok(Ok(loaded)) => loaded,
        Ok(Err(e)) => {
            tracing::error!(error = %e, "{} matches not restored: {e}", ids.len());
            return 0;
        }
        Err(e) => {
            tracing::error!(error = %e, "{} matches not restored: {e}", ids.len());
            return 0;
        }
    };
    let now = now_ms();
    let mut actors = Vec::with_capacity(loaded.len());
    for m in loaded {
        let m = match m {
            Ok(m) => m,
            Err(Unreadable { id, detail }) => {
                tracing::warn!(r#match = %Esc(&id), "match {}: not replayed: unreadable: {detail}", Esc(&id));
                continue;
            }
        };
        let bots = match check_stored(&m, &shared.registry, now) {
            Ok(bots) => bots,
            Err(why) => {
                tracing::warn!(r#match = %Esc(&m.id), "match {}: not replayed: {why}", Esc(&m.id));
                continue;
            }
        };
        let StoredMatch {
            id, record, seats, ..
        } = m;
        {
            let mut matches = shared.matches();
            match matches.get(&id).map(|h| h.remote.is_some()) {
                // Already run here (a claim never returns a match this instance holds).
                Some(false) => continue,
                // Served here through its former owner: the proxy ends, its sockets
                // reconnect and find the match run here.
                Some(true) => {
                    if let Some(h) = matches.remove(&id) {
                        let _ = h.tx.send(crate::actor::Cmd::Lost);
                    }
                }
                None => {}
            }
        }
        let entries = record.entries.len();
        let m = match shared.registry.replay(&record) {
            Ok(m) => m,
            Err(e) => {
                let error =
                    serde_json::to_value(game_core::GameError::body(&e)).unwrap_or_default();
                tracing::warn!(r#match = %Esc(&id), "match {}: not replayed: {error}", Esc(&id));
                continue;
            }
        };
        let mut actor = Actor::new(id, m, bots, shared.clone(), entries);
        actor.mark_all_away(now);
        actors.push((actor, seats));
    }
    let changes: Vec<Change> = actors.iter_mut().flat_map(|(a, _)| a.unstored()).collect();
    let stored = shared.writer.commit(changes).await;
    if let Err(e) = &stored {
        tracing::error!(
            error = %e,
            "{} restored matches' disconnections not stored, reloading: {e}",
            actors.len()
        );
    }
    let back = actors.len();
    for (mut actor, seats) in actors {
        match stored {
            Ok(()) => actor.stored_now(),
            // Back to what is stored: the task tells the disconnections again.
            Err(_) => actor.reload().await,
        }
        // Counted in all (no creator to charge): never refused, so it always runs.
        actor.quota = shared.limits.open_match(&shared.config, None, None).ok();
        spawn(shared, actor, seats);
    }
    metrics::counter!(observe::RESTORED).increment(back as u64);
    back
}

/// Whether a stored match's seats and bots are what `create` writes: a game `registry`
/// serves, every player either a human seat with a token of its own or a bot of a kind
/// the game offers, and nothing else; and no time in it later than `now` (past the
/// tolerance). Returns the bots, or why the match is not to be served.
fn check_stored(
    m: &StoredMatch,
    registry: &Registry,
    now: u64,
) -> Result<HashMap<String, ServerBot>, String> {
    let game = registry.get(&m.record.game).map_err(|e| {
        serde_json::to_value(game_core::GameError::body(&e))
            .unwrap_or_default()
            .to_string()
    })?;
    let players = &m.record.players;
    let mut seen = HashSet::new();
    let mut tokens = HashSet::new();
    for seat in &m.seats {
        if !players.contains(&seat.player) {
            return Err(format!("seat `{}` is not a player", seat.player));
        }
        if !seen.insert(seat.player.as_str()) {
            return Err(format!("`{}` is seated twice", seat.player));
        }
        if seat.token.is_empty() || !tokens.insert(seat.token.as_str()) {
            return Err(format!(
                "seat `{}` has an empty or shared token",
                seat.player
            ));
        }
    }
    let mut bots = HashMap::new();
    for (player, kind) in &m.bots {
        if !players.contains(player) {
            return Err(format!("bot `{player}` is not a player"));
        }
        if !seen.insert(player.as_str()) {
            return Err(format!(
                "`{player}` is both a seat and a bot, or a bot twice"
            ));
        }
        let bot = ServerBot::new(game, kind).map_err(|_| {
            format!(
                "bot `{player}`: unknown kind `{kind}` (not one of {} for {})",
                game.bot_kinds().join(", "),
                m.record.game
            )
        })?;
        bots.insert(player.clone(), bot);
    }
    if let Some(p) = players.iter().find(|p| !seen.contains(p.as_str())) {
        return Err(format!("player `{p}` is neither a seat nor a bot"));
    }
    let latest = now.saturating_add(CLOCK_TOLERANCE_MS);
    if m.record.started_at > latest {
        return Err(format!(
            "started at {}, later than the server's clock ({now})",
            m.record.started_at
        ));
    }
    for (i, entry) in m.record.entries.iter().enumerate() {
        let at = match entry {
            RecordEntry::Act { at, .. } | RecordEntry::Tick { at } => *at,
            RecordEntry::Presence { at, .. } => *at,
            // A setting, at no time of its own.
            RecordEntry::Grace { .. } => continue,
        };
        if at > latest {
            return Err(format!(
                "entry {i} is at {at}, later than the server's clock ({now})"
            ));
        }
    }
    Ok(bots)
}
