//! A match's lifecycle: when it leaves memory (over, and the final view served a while),
//! when it is closed before its end (every human away too long, or none ever came), and
//! what a request for a match no longer in memory is answered.

use std::sync::Arc;
use std::time::Duration;

use game_host::reply::{Fail, fail, unknown_match};
use serde_json::json;
use tokio::time::Instant;

use crate::observe::Esc;
use crate::store::{Ended, Found, StoreError};
use crate::{Config, RETRY_AFTER, Shared, unavailable};

/// `MATCH_CLOSED`: the match is no longer played (`why`: `over`, `abandoned`,
/// `unjoined`). A finished match's `record` is still served.
pub(crate) fn match_closed(id: &str, why: Ended) -> Fail {
    fail(
        "MATCH_CLOSED",
        "더 이상 진행하지 않는 게임이에요.",
        json!({ "match": id, "why": why.word() }),
    )
}

/// The push that tells a match's sockets it was closed before its end.
pub(crate) fn closed_push(id: &str, why: Ended) -> Arc<str> {
    json!({ "push": "closed", "match": id, "why": why.word() })
        .to_string()
        .into()
}

/// What the store said of a match not in memory, when a request looked it up (at most
/// once: [`Shared::restored`] on a shared store), so that its answer asks no more.
#[derive(Default)]
pub(crate) struct Looked(pub(crate) Option<Option<Found>>);

impl Shared {
    /// The answer for a match not in memory: `MATCH_CLOSED` if the store says it ended,
    /// `UNKNOWN_MATCH` if it has no such match (or one it did not restore),
    /// `UNAVAILABLE` if the store cannot say now. What `looked` holds is not asked again:
    /// a request naming an unknown match costs the store one query.
    pub(crate) async fn gone(&self, id: &str, looked: &Looked) -> Fail {
        let found = match &looked.0 {
            Some(found) => Ok(found.clone()),
            None => {
                let store = self.store.clone();
                let key = id.to_owned();
                tokio::task::spawn_blocking(move || store.find(&key))
                    .await
                    .map_err(|e| StoreError::new(e.to_string()))
                    .and_then(|r| r)
            }
        };
        match found {
            Ok(Some(Found {
                ended: Some(why), ..
            })) => match_closed(id, why),
            // Unfinished and not run here: another instance holds it, or will claim it
            // once its owner's lease expires.
            Ok(Some(_)) if self.store.leases().is_some() => unavailable(RETRY_AFTER),
            Ok(_) => unknown_match(id),
            Err(e) => {
                tracing::error!(r#match = %Esc(id), error = %e, "match {}: not looked up: {e}", Esc(id));
                unavailable(RETRY_AFTER)
            }
        }
    }
}

/// When a match started, was last left with no human bound, and was over: what its
/// task's end is timed from.
pub(crate) struct Lifecycle {
    born: Instant,
    alone_since: Option<Instant>,
    over_since: Option<Instant>,
}

/// Who is at a match, as [`Lifecycle::due`] reads it.
pub(crate) struct Seating {
    /// Human seats (those no bot plays).
    pub(crate) humans: usize,
    /// Human seats never bound by a socket since the match was created.
    pub(crate) unseen: usize,
    /// Whether a socket is bound to a human seat now.
    pub(crate) anyone: bool,
}

impl Lifecycle {
    pub(crate) fn new() -> Self {
        Self {
            born: Instant::now(),
            alone_since: None,
            over_since: None,
        }
    }

    /// Notes who is at the match now and whether it is over (after every change).
    pub(crate) fn note(&mut self, seating: &Seating, over: bool) {
        let now = Instant::now();
        if seating.anyone {
            self.alone_since = None;
        } else {
            self.alone_since.get_or_insert(now);
        }
        if over {
            self.over_since.get_or_insert(now);
        } else {
            self.over_since = None;
        }
    }

    /// When the task ends and why: `None` inside for a finished match leaving memory
    /// (its final view served for [`Config::finished_linger`] first), else why it is
    /// closed. A match of bots only is never closed: the bots play it to its end.
    pub(crate) fn due(
        &self,
        config: &Config,
        seating: &Seating,
    ) -> Option<(Instant, Option<Ended>)> {
        if let Some(over) = self.over_since {
            return Some((over + config.finished_linger, None));
        }
        if seating.humans == 0 || seating.anyone {
            return None;
        }
        if seating.unseen == seating.humans {
            return Some((self.born + config.unjoined_after, Some(Ended::Unjoined)));
        }
        let alone = self.alone_since.unwrap_or(self.born);
        Some((alone + config.abandon_after, Some(Ended::Abandoned)))
    }
}

/// The defaults of the lifecycle's [`Config`] fields.
pub(crate) const ABANDON_AFTER: Duration = Duration::from_secs(600);
pub(crate) const UNJOINED_AFTER: Duration = Duration::from_secs(120);
pub(crate) const FINISHED_LINGER: Duration = Duration::from_secs(30);
