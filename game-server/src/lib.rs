//! A multiplayer game server over the host protocol of `game-host`: any registered game
//! over WebSockets, seats protected by tokens, every accepted action committed to a
//! [`Store`] before it is answered, timers and bots run by the server, and a board for
//! the browser (`GET /`).
//!
//! [`serve`] runs it on a bound listener until a shutdown signal; the `server` example is
//! the command line over it. The protocol is the JSON host's requests and replies, plus
//! `hello`, `watch`, `create`'s `bots` and `seats`, and `update` pushes (the README's
//! "The game server").

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod actor;
pub mod bots;
mod session;
pub mod store;
mod web;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use game_host::Host;
use serde_json::json;
use tokio::sync::{mpsc, watch};

use crate::actor::{Actor, Cmd};
use crate::bots::ServerBot;
use crate::store::{Seat, StoredMatch};
pub use crate::store::{SqliteStore, Store, StoreError, Writer};

/// The longest request served, in bytes: the JSON host's line cap.
pub const MAX_REQUEST: usize = game_host::DEFAULT_MAX_LINE;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a bot waits before it moves (so people can follow; 0 for load tests).
    pub bot_delay: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bot_delay: Duration::from_millis(300),
        }
    }
}

/// A match the server runs: its task's inbox and its seats.
pub(crate) struct Handle {
    pub(crate) tx: mpsc::UnboundedSender<Cmd>,
    pub(crate) seats: Vec<Seat>,
}

/// What every task shares.
pub(crate) struct Shared {
    pub(crate) config: Config,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) writer: Writer,
    pub(crate) matches: Mutex<HashMap<String, Handle>>,
    /// Answers `games` and `schemas` (no matches in it).
    pub(crate) catalog: Mutex<Host>,
    /// Turns true at shutdown: the sockets close.
    pub(crate) closing: watch::Receiver<bool>,
}

impl Shared {
    pub(crate) fn matches(&self) -> std::sync::MutexGuard<'_, HashMap<String, Handle>> {
        // The map stays consistent under a panic (single inserts and removes).
        self.matches.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops a match whose task ended.
    pub(crate) fn forget(&self, id: &str) {
        self.matches().remove(id);
    }
}

/// The server's clock: milliseconds since the UNIX epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Starts the task of a match.
pub(crate) fn spawn(shared: &Arc<Shared>, actor: Actor, seats: Vec<Seat>) {
    let (tx, rx) = mpsc::unbounded_channel();
    shared
        .matches()
        .insert(actor.id.clone(), Handle { tx, seats });
    tokio::spawn(actor.run(rx));
}

/// Loads every unfinished match from the store, replays it and starts its task: the
/// human seats are marked disconnected at once (their grace runs from the start), and a
/// deadline that passed meanwhile fires now. Returns how many matches are back.
async fn restore(shared: &Arc<Shared>) -> Result<usize, StoreError> {
    let stored = tokio::task::block_in_place(|| shared.store.unfinished())?;
    let mut back = 0;
    for StoredMatch {
        id,
        record,
        seats,
        bots,
    } in stored
    {
        let mut host = Host::new(game_host::registry());
        let entries = record.entries.len();
        let reply =
            host.handle_line(&json!({"op": "load", "record": record, "match": id}).to_string());
        if !reply.ok {
            eprintln!("match {id}: not replayed: {:?}", reply.body.get("error"));
            continue;
        }
        let bots = bots
            .into_iter()
            .filter_map(|(p, kind)| Some((p, ServerBot::new(kind.parse().ok()?))))
            .collect();
        let mut actor = Actor::new(id.clone(), host, bots, shared.clone(), entries);
        if actor.all_away().await.is_err() {
            continue;
        }
        spawn(shared, actor, seats);
        back += 1;
    }
    Ok(back)
}

/// Serves on `listener` over `store` until `shutdown` resolves, then closes every socket
/// and returns. Unfinished matches in the store are loaded first; `ready` runs once they
/// are and the server answers (a command line prints its address there).
pub async fn serve(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    config: Config,
    ready: impl std::future::Future<Output = ()>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (close, closing) = watch::channel(false);
    let shared = Arc::new(Shared {
        config,
        writer: Writer::start(store.clone()),
        store,
        matches: Mutex::new(HashMap::new()),
        catalog: Mutex::new(Host::new(game_host::registry())),
        closing,
    });
    let back = restore(&shared).await.map_err(std::io::Error::other)?;
    if back > 0 {
        eprintln!("{back} unfinished matches restored");
    }
    ready.await;
    let app = web::router(shared.clone());
    // TCP_NODELAY: a reply or push is one small frame that must leave at once, not wait
    // for the peer's delayed ACK (Nagle's algorithm adds ~40 ms to each act→push).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            let _ = close.send(true);
        })
        .await
}
