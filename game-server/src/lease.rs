//! Ownership among instances sharing one store ([`Leases`]): the leases of the matches
//! this instance runs are renewed at a third of their time; a match whose lease another
//! instance took over is dropped here without a write; matches whose owner died or
//! stopped renewing are claimed, replayed and run here (their timers and bots re-armed,
//! a deadline that passed meanwhile fired at once, as after a restart).

use std::sync::Arc;
use std::time::Duration;

use crate::Shared;
use crate::actor::Cmd;
use crate::observe::Esc;
use crate::remote;
use crate::restore;
use crate::store::{Leases, StoreError};

/// How many expired matches one round claims at most: a restore batch.
const CLAIM_BATCH: usize = restore::BATCH;

/// Renews and claims until the server shuts down, then lets its leases expire at once so
/// that the other instances claim its matches without waiting.
pub(crate) async fn run(shared: Arc<Shared>, mut stop: tokio::sync::oneshot::Receiver<()>) {
    let Some(leases) = shared.store.leases() else {
        return;
    };
    let every = (leases.lease_time() / 3).max(Duration::from_millis(10));
    let beats = tokio::spawn(heartbeat(shared.clone(), every));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            () = shared.router.released.notified() => {}
            _ = &mut stop => break,
        }
        round(&shared).await;
    }
    beats.abort();
    let store = shared.store.clone();
    match blocking(move || lease_of(&*store)?.release()).await {
        Ok(()) => {
            // The others claim at once rather than at their next round.
            if let Some(leases) = shared.store.leases() {
                let me = leases.instance().to_owned();
                leases.send(
                    "*",
                    serde_json::json!({"t": "released", "from": me}).to_string(),
                );
            }
            tracing::info!("leases released: the other instances take the matches over");
        }
        Err(e) => tracing::warn!(error = %e, "leases not released, they expire by themselves: {e}"),
    }
}

fn lease_of(store: &dyn crate::Store) -> Result<&dyn Leases, StoreError> {
    store
        .leases()
        .ok_or_else(|| StoreError::new("the store has no leases"))
}

async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| StoreError::new(e.to_string()))
        .and_then(|r| r)
}

/// Says this instance is alive and drops the routes of the silent ones, at every tick
/// of `every`: on a task of its own, so that a long round of claims (replaying many
/// matches) does not make this instance look gone.
async fn heartbeat(shared: Arc<Shared>, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        remote::beat(&shared);
        remote::sweep(&shared);
    }
}

/// One round: renew, drop what was lost, claim what expired.
async fn round(shared: &Arc<Shared>) {
    let store = shared.store.clone();
    match blocking(move || lease_of(&*store)?.renew()).await {
        Ok(lost) => {
            for id in lost {
                tracing::warn!(r#match = %Esc(&id), "match {}: lease taken over by another instance, dropped here", Esc(&id));
                shared.send(&id, Cmd::Lost);
            }
        }
        Err(e) => tracing::error!(error = %e, "leases not renewed: {e}"),
    }
    let store = shared.store.clone();
    let claimed = match blocking(move || lease_of(&*store)?.claim(CLAIM_BATCH)).await {
        Ok(claimed) => claimed,
        Err(e) => {
            tracing::error!(error = %e, "expired leases not claimed: {e}");
            return;
        }
    };
    if claimed.is_empty() {
        return;
    }
    tracing::info!("claimed {} matches whose lease expired", claimed.len());
    restore::pending(shared, &claimed);
    // Replayed on a task of its own: many matches take a while to replay, and meanwhile
    // the next rounds renew the leases this instance holds (or they would expire).
    let shared = shared.clone();
    tokio::spawn(async move {
        restore::run(shared.clone(), claimed.clone()).await;
        // Once they run here: a socket that reconnects at once is served.
        remote::claimed(&shared, &claimed);
    });
}
