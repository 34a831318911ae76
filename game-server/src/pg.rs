//! The PostgreSQL store: the same tables as the SQLite store, created and migrated at
//! start by the versioned migrations in `game-server/migrations`, the group commit in one
//! transaction with a savepoint per group.
//!
//! The [`Store`] trait is synchronous (its callers are the writer thread and blocking
//! tasks), the driver asynchronous: the store runs its own small runtime, and each call
//! is a task there whose result the calling thread waits for. No worker of the server's
//! runtime ever waits on the database.

use std::future::Future;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use game_core::{MatchRecord, RecordEntry};
use rusqlite::types::Value as Sql;
use tokio_postgres::NoTls;
use tokio_postgres::error::SqlState;

use crate::store::{
    COMMIT_TRIES, Change, Ended, FIRST_RETRY, Store, StoreError, StoredMatch, Unreadable,
    read_match,
};

/// The migrations, in order: version, name, SQL. A database is brought to the last one
/// at start; one already past it (migrated by a newer server) is refused.
const MIGRATIONS: &[(i32, &str, &str)] =
    &[(1, "matches", include_str!("../migrations/0001_matches.sql"))];

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
        Self { detail, transient }
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
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e: tokio_postgres::Error| StoreError::new(format!("{url}: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        config.application_name("game-server");
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("pg-store")
            .enable_all()
            .build()
            .map_err(|e| StoreError::new(format!("cannot start the store's runtime: {e}")))?;
        let manager = Manager::from_config(
            config,
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
        let store = Self { rt: Some(rt), pool };
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
    groups: &[Vec<Change>],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut client = pool.get().await?;
    let mut tx = client.transaction().await?;
    let mut results = Vec::with_capacity(groups.len());
    for group in groups {
        let sp = tx.savepoint("grp").await?;
        let mut result = Ok(());
        for change in group {
            if let Err(e) = apply(&sp, change).await {
                result = Err(e);
                break;
            }
        }
        match result {
            Ok(()) => sp.commit().await?,
            Err(e) if e.transient => return Err(e),
            Err(e) => {
                sp.rollback().await?;
                results.push(Err(e));
                continue;
            }
        }
        results.push(Ok(()));
    }
    tx.commit().await?;
    Ok(results)
}

async fn apply(tx: &deadpool_postgres::Transaction<'_>, change: &Change) -> Result<(), StoreError> {
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
                    "INSERT INTO matches (id, head, seats, bots) VALUES ($1, $2, $3, $4)",
                )
                .await?;
            tx.execute(
                &stmt,
                &[
                    &m.id,
                    &serde_json::to_string(&head)?,
                    &serde_json::to_string(&seats)?,
                    &serde_json::to_string(&m.bots)?,
                ],
            )
            .await?;
            insert_entries(tx, &m.id, 0, &entries).await
        }
        Change::Append { id, from, entries } => insert_entries(tx, id, *from, entries).await,
        Change::Finish { id } => set_finished(tx, id, Ended::Over).await,
        Change::Close { id, why } => set_finished(tx, id, *why).await,
    }
}

async fn set_finished(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
    why: Ended,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached("UPDATE matches SET finished = $2 WHERE id = $1")
        .await?;
    tx.execute(&stmt, &[&id, &(why.column() as i16)]).await?;
    Ok(())
}

/// Inserts `entries` numbered from `from`, in one statement: an index already stored
/// fails the whole insert (the primary key).
async fn insert_entries(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
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
    let stmt = tx
        .prepare_cached(
            "INSERT INTO entries (match_id, seq, entry)
             SELECT $1, $2 + t.n - 1, t.entry
             FROM unnest($3::text[]) WITH ORDINALITY AS t(entry, n)",
        )
        .await?;
    tx.execute(&stmt, &[&id, &first, &texts]).await?;
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

impl Store for PgStore {
    fn commit(&self, batch: &[Change]) -> Result<(), StoreError> {
        self.commit_groups(&[batch])
            .pop()
            .unwrap_or_else(|| Err(StoreError::new("no result")))
    }

    fn commit_groups(&self, groups: &[&[Change]]) -> Vec<Result<(), StoreError>> {
        let pool = self.pool.clone();
        let owned: Vec<Vec<Change>> = groups.iter().map(|g| g.to_vec()).collect();
        let n = owned.len();
        let committed = self.run(async move {
            let mut wait = FIRST_RETRY;
            let mut tries = 1;
            loop {
                match try_commit(&pool, &owned).await {
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
}
