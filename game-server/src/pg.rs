//! The PostgreSQL store: the same tables as the SQLite store, created and migrated at
//! start by the versioned migrations in `game-server/migrations`, the group commit in one
//! transaction with a savepoint per group.
//!
//! The [`Store`] trait is synchronous (its callers are the writer thread and blocking
//! tasks), the driver asynchronous: the store runs its own small runtime, and each call
//! is a task there whose result the calling thread waits for. No worker of the server's
//! runtime ever waits on the database.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use game_core::{MatchRecord, RecordEntry};
use rusqlite::types::Value as Sql;
use tokio_postgres::NoTls;
use tokio_postgres::error::SqlState;

use crate::lock;
use crate::store::{
    COMMIT_TRIES, Change, Ended, FIRST_RETRY, Found, Leases, Store, StoreError, StoredMatch,
    Unreadable, read_match,
};

/// The migrations, in order: version, name, SQL. A database is brought to the last one
/// at start; one already past it (migrated by a newer server) is refused.
const MIGRATIONS: &[(i32, &str, &str)] = &[
    (1, "matches", include_str!("../migrations/0001_matches.sql")),
    (2, "leases", include_str!("../migrations/0002_leases.sql")),
    (3, "relay", include_str!("../migrations/0003_relay.sql")),
];

/// The longest message sent in a notification's payload itself (PostgreSQL's limit is
/// 8,000 bytes): a longer one goes through the `relay` table.
const NOTIFY_MAX: usize = 7_900;

/// The default of how long a lease lasts unrenewed ([`PgStore::open`]).
pub const LEASE_TIME: Duration = Duration::from_secs(10);

/// The advisory lock the migrations run under: instances started together migrate one
/// after the other.
const MIGRATION_LOCK: i64 = 0x7061_7274_7967_616d;

/// How many connections the store opens at most: the writer takes one, reads the rest.
const POOL_SIZE: usize = 8;

/// How long a connection may take to open before the store gives up on it.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        // A connection lost or a server going away, a serialization failure or a deadlock
        // may succeed when tried again; a constraint or a malformed statement will not.
        let transient = match e.code() {
            Some(code) => {
                let c = code.code();
                c.starts_with("08")
                    || c.starts_with("53")
                    || c.starts_with("57P")
                    || *code == SqlState::T_R_SERIALIZATION_FAILURE
                    || *code == SqlState::T_R_DEADLOCK_DETECTED
            }
            None => e.is_closed() || e.as_db_error().is_none(),
        };
        // The driver's own text for a database error is only "db error": the server's
        // message (and its code) is what tells what failed.
        let detail = match e.as_db_error() {
            Some(db) => format!("{} ({})", db.message(), db.code().code()),
            None => match std::error::Error::source(&e) {
                Some(source) => format!("{e}: {source}"),
                None => e.to_string(),
            },
        };
        // A unique key taken: the match id another instance created first.
        let conflict = e.code() == Some(&SqlState::UNIQUE_VIOLATION);
        Self {
            detail,
            transient,
            conflict,
        }
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        match e {
            deadpool_postgres::PoolError::Backend(e) => e.into(),
            // No connection to be had now (the server is down or every connection busy).
            other => Self {
                detail: other.to_string(),
                transient: true,
                conflict: false,
            },
        }
    }
}

/// The store on a PostgreSQL database shared by any number of server instances.
pub struct PgStore {
    /// The store's own runtime: the driver's connections and every query run there.
    /// `None` only while dropping.
    rt: Option<tokio::runtime::Runtime>,
    pool: Pool,
    lease: Arc<Lease>,
    /// The connection settings, for the connection that listens.
    config: tokio_postgres::Config,
    /// The queue of messages to other instances, sent in order by one task.
    outbox: tokio::sync::mpsc::UnboundedSender<(String, String)>,
}

/// This instance's leases.
struct Lease {
    /// Who this instance is in the `owner` column: unique per process.
    instance: String,
    time: Duration,
    /// The matches this instance holds, and the epoch of each lease.
    held: Mutex<HashMap<String, i64>>,
}

impl Lease {
    fn epoch(&self, id: &str) -> Option<i64> {
        lock(&self.held).get(id).copied()
    }

    /// Forgets the lease of `id` under `epoch` (not a newer one).
    fn lost(&self, id: &str, epoch: i64) {
        let mut held = lock(&self.held);
        if held.get(id) == Some(&epoch) {
            held.remove(id);
        }
    }

    fn seconds(&self) -> f64 {
        self.time.as_secs_f64()
    }
}

/// The refusal of a change to a match whose lease this instance no longer holds.
fn fenced(id: &str) -> StoreError {
    StoreError::new(format!(
        "match {id}: the lease was taken over by another instance; the change is refused"
    ))
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // Dropped inside the server's runtime, a runtime may not wait for its tasks.
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

impl PgStore {
    /// Connects to the database `url` (a libpq URL, `postgres://USER@HOST:PORT/DB`, or
    /// its `key=value` form) and brings its schema to the latest migration.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        Self::open_leased(url, LEASE_TIME)
    }

    /// [`PgStore::open`] with leases of `lease_time` (renewed at a third of it).
    pub fn open_leased(url: &str, lease_time: Duration) -> Result<Self, StoreError> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e: tokio_postgres::Error| StoreError::new(format!("{url}: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        config.application_name("game-server");
        // A transaction left open (its instance paused or cut off mid-commit) holds its
        // match rows locked, and a claim skips locked rows: the database ends such a
        // session once a lease's time has passed, so the claim goes through.
        let lease_time = lease_time.max(Duration::from_millis(30));
        let idle = format!(
            "-c idle_in_transaction_session_timeout={}",
            lease_time.as_millis()
        );
        let options = match config.get_options() {
            Some(given) => format!("{given} {idle}"),
            None => idle,
        };
        config.options(&options);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("pg-store")
            .enable_all()
            .build()
            .map_err(|e| StoreError::new(format!("cannot start the store's runtime: {e}")))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .create_timeout(Some(CONNECT_TIMEOUT))
            .wait_timeout(Some(Duration::from_secs(30)))
            .build()
            .map_err(|e| StoreError::new(e.to_string()))?;
        let mut tag = [0u8; 6];
        getrandom::fill(&mut tag).map_err(|e| StoreError::new(e.to_string()))?;
        let tag: String = tag.iter().map(|b| format!("{b:02x}")).collect();
        let lease = Arc::new(Lease {
            instance: format!("{}-{tag}", std::process::id()),
            time: lease_time,
            held: Mutex::new(HashMap::new()),
        });
        let (outbox, queue) = tokio::sync::mpsc::unbounded_channel();
        rt.spawn(send_all(pool.clone(), queue));
        let store = Self {
            rt: Some(rt),
            pool,
            lease,
            config,
            outbox,
        };
        let pool = store.pool.clone();
        store.run(async move { migrate(&pool).await })?;
        Ok(store)
    }

    /// Runs `job` on the store's runtime and waits for it on this thread (the writer's
    /// or a blocking task's).
    fn run<T: Send + 'static>(
        &self,
        job: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let Some(rt) = &self.rt else {
            return Err(StoreError::new("the store is closed"));
        };
        let (done, wait) = std::sync::mpsc::sync_channel(1);
        rt.spawn(async move {
            let _ = done.send(job.await);
        });
        wait.recv()
            .unwrap_or_else(|_| Err(StoreError::new("the store's task ended without a result")))
    }
}

/// The channel instance `instance` listens on (the id is hex digits and dashes); `*`:
/// the one every instance listens on.
fn channel(instance: &str) -> String {
    if instance == "*" {
        return "gs_all".to_owned();
    }
    format!("gs_{}", instance.replace('-', "_"))
}

/// Sends the queued messages, in order: all those queued meanwhile in one statement (a
/// notification each, delivered in order at its commit), a long one through `relay`.
async fn send_all(pool: Pool, mut queue: tokio::sync::mpsc::UnboundedReceiver<(String, String)>) {
    let mut last_sweep = std::time::Instant::now();
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while let Ok(more) = queue.try_recv() {
            batch.push(more);
        }
        if let Err(e) = send_batch(&pool, batch).await {
            tracing::warn!(error = %e, "messages to other instances not sent: {e}");
        }
        if last_sweep.elapsed() > Duration::from_secs(60) {
            last_sweep = std::time::Instant::now();
            if let Ok(client) = pool.get().await {
                let _ = client
                    .execute(
                        "DELETE FROM relay WHERE created_at < now() - interval '1 minute'",
                        &[],
                    )
                    .await;
            }
        }
    }
}

async fn send_batch(pool: &Pool, batch: Vec<(String, String)>) -> Result<(), StoreError> {
    let client = pool.get().await?;
    let mut channels = Vec::with_capacity(batch.len());
    let mut payloads = Vec::with_capacity(batch.len());
    for (to, message) in batch {
        let payload = if message.len() > NOTIFY_MAX {
            let row = client
                .query_one(
                    "INSERT INTO relay (body) VALUES ($1) RETURNING id",
                    &[&message],
                )
                .await?;
            format!("#{}", row.get::<_, i64>(0))
        } else {
            message
        };
        channels.push(channel(&to));
        payloads.push(payload);
    }
    client
        .execute(
            "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY
             AS t(c, p, n) ORDER BY n",
            &[&channels, &payloads],
        )
        .await?;
    Ok(())
}

/// Listens on this instance's channel and hands each message on, a long one read back
/// from `relay`, until the receiver is dropped or the connection is lost (said in the
/// log: the instance then gets no routed requests).
async fn listen(
    pool: Pool,
    config: tokio_postgres::Config,
    instance: String,
    out: tokio::sync::mpsc::UnboundedSender<String>,
) -> Result<(), StoreError> {
    let (client, mut conn) = config.connect(NoTls).await?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    // The connection's messages (the notifications) are read by its own task.
    tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| conn.poll_message(cx)).await {
                Some(Ok(tokio_postgres::AsyncMessage::Notification(n))) => {
                    if tx.send(n.payload().to_owned()).is_err() {
                        break;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::error!(error = %e, "the instances' channel is lost: {e}");
                    break;
                }
                None => break,
            }
        }
    });
    client
        .batch_execute(&format!(
            "LISTEN {}; LISTEN {}",
            channel(&instance),
            channel("*")
        ))
        .await?;
    tokio::spawn(async move {
        // The client lives as long as the listening does.
        let _client = client;
        while let Some(payload) = rx.recv().await {
            let message = match payload.strip_prefix('#').map(str::parse::<i64>) {
                Some(Ok(id)) => match relayed(&pool, id).await {
                    Ok(Some(body)) => body,
                    Ok(None) => continue,
                    Err(e) => {
                        tracing::warn!(error = %e, "a relayed message not read: {e}");
                        continue;
                    }
                },
                _ => payload,
            };
            if out.send(message).is_err() {
                break;
            }
        }
    });
    Ok(())
}

async fn relayed(pool: &Pool, id: i64) -> Result<Option<String>, StoreError> {
    let client = pool.get().await?;
    let row = client
        .query_opt("DELETE FROM relay WHERE id = $1 RETURNING body", &[&id])
        .await?;
    Ok(row.map(|r| r.get(0)))
}

/// Applies the migrations the database does not have yet, each in its own transaction
/// under one advisory lock.
async fn migrate(pool: &Pool) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )",
    )
    .await?;
    let row = tx
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await?;
    let current: i32 = row.get(0);
    let latest = MIGRATIONS.last().map_or(0, |m| m.0);
    if current > latest {
        return Err(StoreError::new(format!(
            "the database is at migration {current}, past this server's {latest}: \
             it was migrated by a newer server"
        )));
    }
    for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
        tx.batch_execute(sql)
            .await
            .map_err(|e| StoreError::new(format!("migration {version} ({name}): {e}")))?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
            &[version, name],
        )
        .await?;
        tracing::info!("store: migration {version} ({name}) applied");
    }
    tx.commit().await?;
    Ok(())
}

/// Commits `groups` in one transaction, each under its own savepoint: each group's
/// result, or the failure of the moment that undid the whole try.
async fn try_commit(
    pool: &Pool,
    lease: &Lease,
    groups: &[Vec<Change>],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut client = pool.get().await?;
    let mut tx = client.transaction().await?;
    let mut results = Vec::with_capacity(groups.len());
    // The matches created in this transaction so far (epoch 1): a later change to one of
    // them, in the same batch, is written under it.
    let mut created = HashMap::new();
    for group in groups {
        let sp = tx.savepoint("grp").await?;
        let mut result = Ok(());
        let before = created.clone();
        for change in group {
            if let Err(e) = apply(&sp, lease, &mut created, change).await {
                result = Err(e);
                break;
            }
        }
        match result {
            Ok(()) => sp.commit().await?,
            Err(e) if e.transient => return Err(e),
            Err(e) => {
                sp.rollback().await?;
                created = before;
                results.push(Err(e));
                continue;
            }
        }
        results.push(Ok(()));
    }
    tx.commit().await?;
    // Committed: the matches created are held, those that ended need no lease.
    let mut held = lock(&lease.held);
    for (group, result) in groups.iter().zip(&results) {
        if result.is_err() {
            continue;
        }
        for change in group {
            match change {
                Change::Create(m) => {
                    held.insert(m.id.clone(), 1);
                }
                Change::Finish { id } | Change::Close { id, .. } => {
                    held.remove(id);
                }
                Change::Append { .. } => {}
            }
        }
    }
    Ok(results)
}

/// Applies one change. A change to an existing match is fenced: the statement itself
/// checks that this instance still owns the match under the epoch it holds, and locks
/// the match's row against a claim until the transaction ends.
async fn apply(
    tx: &deadpool_postgres::Transaction<'_>,
    lease: &Lease,
    created: &mut HashMap<String, i64>,
    change: &Change,
) -> Result<(), StoreError> {
    let epoch = |id: &str| {
        lease
            .epoch(id)
            .or_else(|| created.get(id).copied())
            .ok_or_else(|| fenced(id))
    };
    match change {
        Change::Create(m) => {
            let mut head = m.record.clone();
            let entries = std::mem::take(&mut head.entries);
            let seats: Vec<(&str, &str)> = m
                .seats
                .iter()
                .map(|s| (s.player.as_str(), s.token.as_str()))
                .collect();
            let stmt = tx
                .prepare_cached(
                    "INSERT INTO matches (id, head, seats, bots, owner, epoch, lease_until)
                     VALUES ($1, $2, $3, $4, $5, 1, now() + make_interval(secs => $6))",
                )
                .await?;
            tx.execute(
                &stmt,
                &[
                    &m.id,
                    &serde_json::to_string(&head)?,
                    &serde_json::to_string(&seats)?,
                    &serde_json::to_string(&m.bots)?,
                    &lease.instance,
                    &lease.seconds(),
                ],
            )
            .await?;
            // Created here under epoch 1: held only once committed, so its first
            // entries are written under that epoch directly.
            insert_entries(tx, &lease.instance, &m.id, 1, 0, &entries).await?;
            created.insert(m.id.clone(), 1);
            Ok(())
        }
        Change::Append { id, from, entries } => {
            let epoch = epoch(id)?;
            let result = insert_entries(tx, &lease.instance, id, epoch, *from, entries).await;
            if result
                .as_ref()
                .is_err_and(|e| e.detail == fenced(id).detail)
            {
                lease.lost(id, epoch);
            }
            result
        }
        Change::Finish { id } => set_finished(tx, lease, epoch(id)?, id, Ended::Over).await,
        Change::Close { id, why } => set_finished(tx, lease, epoch(id)?, id, *why).await,
    }
}

async fn set_finished(
    tx: &deadpool_postgres::Transaction<'_>,
    lease: &Lease,
    epoch: i64,
    id: &str,
    why: Ended,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(
            "UPDATE matches SET finished = $2 WHERE id = $1 AND owner = $3 AND epoch = $4",
        )
        .await?;
    let n = tx
        .execute(
            &stmt,
            &[&id, &(why.column() as i16), &lease.instance, &epoch],
        )
        .await?;
    if n == 0 {
        lease.lost(id, epoch);
        return Err(fenced(id));
    }
    Ok(())
}

/// Inserts `entries` numbered from `from`, in one statement, if `owner` still holds the
/// match under `epoch` (the row locked against a claim meanwhile): an index already
/// stored fails the whole insert (the primary key), a lease taken over inserts nothing.
async fn insert_entries(
    tx: &deadpool_postgres::Transaction<'_>,
    owner: &str,
    id: &str,
    epoch: i64,
    from: usize,
    entries: &[RecordEntry],
) -> Result<(), StoreError> {
    if entries.is_empty() {
        return Ok(());
    }
    let first = i64::try_from(from).map_err(|e| StoreError::new(e.to_string()))?;
    let texts = entries
        .iter()
        .map(serde_json::to_string)
        .collect::<Result<Vec<String>, _>>()?;
    // FOR KEY SHARE: a claim (which locks the row FOR UPDATE) waits for this
    // transaction, and then replays what it wrote; a claim that came first leaves no row
    // to lock. The lease's renewal (an UPDATE of other columns) does not conflict with
    // it: a match written all the time is renewed all the same.
    let stmt = tx
        .prepare_cached(
            "WITH lease AS (
                 SELECT 1 FROM matches WHERE id = $1 AND owner = $4 AND epoch = $5 FOR KEY SHARE
             )
             INSERT INTO entries (match_id, seq, entry, epoch)
             SELECT $1, $2 + t.n - 1, t.entry, $5
             FROM unnest($3::text[]) WITH ORDINALITY AS t(entry, n)
             WHERE EXISTS (SELECT 1 FROM lease)",
        )
        .await?;
    let n = tx
        .execute(&stmt, &[&id, &first, &texts, &owner, &epoch])
        .await?;
    if n == 0 {
        return Err(fenced(id));
    }
    Ok(())
}

/// The record of match `id` (finished, when `only_finished`), if stored.
async fn read_record(
    pool: &Pool,
    id: String,
    only_finished: bool,
) -> Result<Option<MatchRecord>, StoreError> {
    let mut client = pool.get().await?;
    let tx = client
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?;
    let head = tx
        .query_opt(
            "SELECT head FROM matches WHERE id = $1 AND (finished = 1 OR NOT $2)",
            &[&id, &only_finished],
        )
        .await?;
    let Some(head) = head else {
        return Ok(None);
    };
    let mut record: MatchRecord = serde_json::from_str(head.get::<_, &str>(0))?;
    let rows = tx
        .query(
            "SELECT entry FROM entries WHERE match_id = $1 ORDER BY seq",
            &[&id],
        )
        .await?;
    for row in rows {
        record
            .entries
            .push(serde_json::from_str(row.get::<_, &str>(0))?);
    }
    tx.commit().await?;
    Ok(Some(record))
}

/// The matches `ids`, read in one snapshot.
async fn load(
    pool: &Pool,
    ids: Vec<String>,
) -> Result<Vec<Result<StoredMatch, Unreadable>>, StoreError> {
    let mut client = pool.get().await?;
    let tx = client
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?;
    let heads = tx
        .query(
            "SELECT id, head, seats, bots FROM matches WHERE id = ANY($1)",
            &[&ids],
        )
        .await?;
    let rows = tx
        .query(
            "SELECT match_id, seq, entry FROM entries WHERE match_id = ANY($1)
             ORDER BY match_id, seq",
            &[&ids],
        )
        .await?;
    tx.commit().await?;
    let mut entries: std::collections::HashMap<String, Vec<(Sql, Sql)>> =
        std::collections::HashMap::new();
    for row in rows {
        entries
            .entry(row.get(0))
            .or_default()
            .push((Sql::Integer(row.get(1)), Sql::Text(row.get(2))));
    }
    let mut heads: std::collections::HashMap<String, [Sql; 3]> = heads
        .into_iter()
        .map(|r| {
            (
                r.get(0),
                [
                    Sql::Text(r.get(1)),
                    Sql::Text(r.get(2)),
                    Sql::Text(r.get(3)),
                ],
            )
        })
        .collect();
    // In the order asked, as the SQLite store answers.
    let mut out = Vec::with_capacity(ids.len());
    for id in &ids {
        let Some([head, seats, bots]) = heads.remove(id) else {
            continue;
        };
        let rows = entries.remove(id).unwrap_or_default();
        out.push(
            read_match(id, head, seats, bots, rows).map_err(|detail| Unreadable {
                id: id.clone(),
                detail,
            }),
        );
    }
    Ok(out)
}

impl Leases for PgStore {
    fn lease_time(&self) -> Duration {
        self.lease.time
    }

    fn claim(&self, max: usize) -> Result<Vec<String>, StoreError> {
        let pool = self.pool.clone();
        let lease = self.lease.clone();
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        self.run(async move {
            let client = pool.get().await?;
            // SKIP LOCKED: a match another instance is claiming, or whose owner is
            // appending to it right now, is left for the next round.
            let rows = client
                .query(
                    "UPDATE matches m
                     SET owner = $1, epoch = m.epoch + 1,
                         lease_until = now() + make_interval(secs => $2)
                     WHERE m.id IN (
                         SELECT id FROM matches
                         WHERE finished = 0
                           AND (owner IS NULL OR (owner <> $1 AND lease_until < now()))
                         ORDER BY lease_until NULLS FIRST
                         LIMIT $3
                         FOR UPDATE SKIP LOCKED
                     )
                     RETURNING m.id, m.epoch",
                    &[&lease.instance, &lease.seconds(), &max],
                )
                .await?;
            let mut held = lock(&lease.held);
            Ok(rows
                .into_iter()
                .map(|r| {
                    let id: String = r.get(0);
                    held.insert(id.clone(), r.get(1));
                    id
                })
                .collect())
        })
    }

    fn renew(&self) -> Result<Vec<String>, StoreError> {
        let pool = self.pool.clone();
        let lease = self.lease.clone();
        let (ids, epochs): (Vec<String>, Vec<i64>) = lock(&self.lease.held)
            .iter()
            .map(|(id, e)| (id.clone(), *e))
            .unzip();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        self.run(async move {
            let client = pool.get().await?;
            // SKIP LOCKED: a row this instance's writer is finishing right now, or an
            // instance is claiming, is looked at again below rather than waited for
            // (waiting could deadlock with a commit that locks rows in another order).
            let rows = client
                .query(
                    "UPDATE matches m
                     SET lease_until = now() + make_interval(secs => $2)
                     WHERE m.id IN (
                         SELECT x.id FROM matches x
                         JOIN unnest($3::text[], $4::bigint[]) AS h(id, epoch)
                           ON x.id = h.id AND x.epoch = h.epoch
                         WHERE x.owner = $1
                         FOR NO KEY UPDATE OF x SKIP LOCKED
                     )
                     RETURNING m.id",
                    &[&lease.instance, &lease.seconds(), &ids, &epochs],
                )
                .await?;
            let kept: std::collections::HashSet<String> =
                rows.into_iter().map(|r| r.get(0)).collect();
            let (rest, rest_epochs): (Vec<String>, Vec<i64>) = ids
                .iter()
                .zip(&epochs)
                .filter(|(id, _)| !kept.contains(*id))
                .map(|(id, e)| (id.clone(), *e))
                .unzip();
            // Of those not renewed, lost are the ones no longer this instance's under
            // that epoch (a plain read: it waits for no lock).
            let taken: std::collections::HashSet<String> = if rest.is_empty() {
                Default::default()
            } else {
                client
                    .query(
                        "SELECT h.id FROM unnest($2::text[], $3::bigint[]) AS h(id, epoch)
                         LEFT JOIN matches x ON x.id = h.id
                         WHERE x.id IS NULL OR x.owner IS DISTINCT FROM $1
                            OR x.epoch <> h.epoch",
                        &[&lease.instance, &rest, &rest_epochs],
                    )
                    .await?
                    .into_iter()
                    .map(|r| r.get(0))
                    .collect()
            };
            let mut held = lock(&lease.held);
            let mut lost = Vec::new();
            for (id, epoch) in rest.into_iter().zip(rest_epochs) {
                // A lease gone from the map meanwhile (its match ended) is not lost.
                if taken.contains(&id) && held.get(&id) == Some(&epoch) {
                    held.remove(&id);
                    lost.push(id);
                }
            }
            Ok(lost)
        })
    }

    fn release(&self) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        let lease = self.lease.clone();
        self.run(async move {
            let client = pool.get().await?;
            client
                .execute(
                    // A row a commit holds now (SKIP LOCKED, as in renew) expires
                    // by itself instead.
                    "UPDATE matches SET lease_until = now() - interval '1 second'
                     WHERE id IN (
                         SELECT id FROM matches WHERE owner = $1 AND finished = 0
                         FOR NO KEY UPDATE SKIP LOCKED
                     )",
                    &[&lease.instance],
                )
                .await?;
            Ok(())
        })
    }

    fn holds(&self, id: &str) -> bool {
        self.lease.epoch(id).is_some()
    }

    fn instance(&self) -> &str {
        &self.lease.instance
    }

    fn owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        let pool = self.pool.clone();
        let id = id.to_owned();
        self.run(async move {
            let client = pool.get().await?;
            let row = client
                .query_opt(
                    "SELECT owner FROM matches
                     WHERE id = $1 AND finished = 0 AND lease_until > now()",
                    &[&id],
                )
                .await?;
            Ok(row.and_then(|r| r.get(0)))
        })
    }

    fn listen(&self) -> Result<tokio::sync::mpsc::UnboundedReceiver<String>, StoreError> {
        let (out, messages) = tokio::sync::mpsc::unbounded_channel();
        let (pool, config) = (self.pool.clone(), self.config.clone());
        let instance = self.lease.instance.clone();
        self.run(async move { listen(pool, config, instance, out).await })?;
        Ok(messages)
    }

    fn send(&self, to: &str, message: String) {
        let _ = self.outbox.send((to.to_owned(), message));
    }
}

impl Store for PgStore {
    fn leases(&self) -> Option<&dyn Leases> {
        Some(self)
    }

    fn commit(&self, batch: &[Change]) -> Result<(), StoreError> {
        self.commit_groups(&[batch])
            .pop()
            .unwrap_or_else(|| Err(StoreError::new("no result")))
    }

    fn commit_groups(&self, groups: &[&[Change]]) -> Vec<Result<(), StoreError>> {
        let pool = self.pool.clone();
        let lease = self.lease.clone();
        let owned: Vec<Vec<Change>> = groups.iter().map(|g| g.to_vec()).collect();
        let n = owned.len();
        let committed = self.run(async move {
            let mut wait = FIRST_RETRY;
            let mut tries = 1;
            loop {
                match try_commit(&pool, &lease, &owned).await {
                    Ok(results) => return Ok(results),
                    Err(e) if e.transient && tries < COMMIT_TRIES => {
                        tracing::warn!(
                            error = %e,
                            "store: try {tries} of {COMMIT_TRIES} failed, again in {} ms: {e}",
                            wait.as_millis()
                        );
                        tokio::time::sleep(wait).await;
                        wait *= 2;
                        tries += 1;
                    }
                    Err(e) => return Err(e),
                }
            }
        });
        match committed {
            Ok(results) => results,
            Err(e) => (0..n).map(|_| Err(e.clone())).collect(),
        }
    }

    fn unfinished_ids(&self) -> Result<Vec<Result<String, Unreadable>>, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let client = pool.get().await?;
            let rows = client
                .query("SELECT id FROM matches WHERE finished = 0", &[])
                .await?;
            Ok(rows.into_iter().map(|r| Ok(r.get(0))).collect())
        })
    }

    fn load(&self, ids: &[String]) -> Result<Vec<Result<StoredMatch, Unreadable>>, StoreError> {
        let pool = self.pool.clone();
        let ids = ids.to_vec();
        self.run(async move { load(&pool, ids).await })
    }

    fn exists(&self, id: &str) -> Result<bool, StoreError> {
        let pool = self.pool.clone();
        let id = id.to_owned();
        self.run(async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT 1 FROM matches WHERE id = $1", &[&id])
                .await?;
            Ok(row.is_some())
        })
    }

    fn finished_record(&self, id: &str) -> Result<Option<MatchRecord>, StoreError> {
        let pool = self.pool.clone();
        let id = id.to_owned();
        self.run(async move { read_record(&pool, id, true).await })
    }

    fn record(&self, id: &str) -> Result<Option<MatchRecord>, StoreError> {
        let pool = self.pool.clone();
        let id = id.to_owned();
        self.run(async move { read_record(&pool, id, false).await })
    }

    fn ended(&self, id: &str) -> Result<Option<Ended>, StoreError> {
        let pool = self.pool.clone();
        let id = id.to_owned();
        self.run(async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT finished FROM matches WHERE id = $1", &[&id])
                .await?;
            Ok(row.and_then(|r| Ended::from_column(i64::from(r.get::<_, i16>(0)))))
        })
    }
    fn find(&self, id: &str) -> Result<Option<Found>, StoreError> {
        let pool = self.pool.clone();
        let id = id.to_owned();
        self.run(async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(
                    "SELECT finished,
                            CASE WHEN finished = 0 AND lease_until > now() THEN owner END
                     FROM matches WHERE id = $1",
                )
                .await?;
            let row = client.query_opt(&stmt, &[&id]).await?;
            Ok(row.map(|r| Found {
                ended: Ended::from_column(i64::from(r.get::<_, i16>(0))),
                owner: r.get(1),
            }))
        })
    }
}
