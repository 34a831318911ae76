//! Storage: the [`Store`] trait the server writes every accepted change through, its
//! SQLite implementation, and the group-commit writer that batches the changes of many
//! matches into one transaction.

use std::sync::Mutex;
use std::sync::mpsc;

use game_core::{MatchRecord, RecordEntry};
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

/// A storage failure (the database's message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "storage: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// A human seat: its player id and its secret token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The player id.
    pub player: String,
    /// The seat's token (stored as given: see the README's "Durability").
    pub token: String,
}

/// A match as stored: enough to replay it and to serve its seats again.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredMatch {
    /// The match id.
    pub id: String,
    /// The record (head and every entry stored so far).
    pub record: MatchRecord,
    /// The human seats with their tokens.
    pub seats: Vec<Seat>,
    /// The bot seats: player id and bot kind word.
    pub bots: Vec<(String, String)>,
}

/// One change to store; a batch of them is committed atomically.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A new match: its record (the entries so far included), seats and bots.
    Create(StoredMatch),
    /// Entries appended to a match's record, the first of them at index `from`.
    Append {
        /// The match id.
        id: String,
        /// The index of the first entry in the record.
        from: usize,
        /// The new entries.
        entries: Vec<RecordEntry>,
    },
    /// The match is over: it is no longer loaded at start.
    Finish {
        /// The match id.
        id: String,
    },
}

/// Where the server keeps its matches. Implementations commit a batch atomically and
/// durably before returning: the server replies to an action only after that.
///
/// Several server instances over one shared database need more than this (see the
/// README's "Several instances"): a lease per match, so one instance at a time owns it.
pub trait Store: Send + Sync + 'static {
    /// Commits `batch` in one transaction.
    fn commit(&self, batch: &[Change]) -> Result<(), StoreError>;
    /// Every match not finished, with its record, for the server's start.
    fn unfinished(&self) -> Result<Vec<StoredMatch>, StoreError>;
    /// Whether a match id is taken (finished matches included).
    fn exists(&self, id: &str) -> Result<bool, StoreError>;
    /// The record of a finished match (`None` for an unknown or unfinished one): what
    /// `record` serves once the match is no longer in memory (after a restart).
    fn finished_record(&self, id: &str) -> Result<Option<MatchRecord>, StoreError>;
}

/// The embedded store: one SQLite file in WAL mode (`:memory:` for a store that ends
/// with the process).
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`.
    pub fn open(path: &str) -> Result<Self, StoreError> {
        let conn = Connection::open(path)?;
        // WAL: readers do not block the writer and a commit is one append to the log;
        // synchronous=FULL syncs every commit, so an acknowledged action survives a power
        // loss as well as a killed process (the writer batches commits to pay for it).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS matches (
                id TEXT PRIMARY KEY,
                head TEXT NOT NULL,
                seats TEXT NOT NULL,
                bots TEXT NOT NULL,
                finished INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE IF NOT EXISTS entries (
                match_id TEXT NOT NULL,
                seq INTEGER NOT NULL,
                entry TEXT NOT NULL,
                PRIMARY KEY (match_id, seq)
            ) WITHOUT ROWID;",
        )?;
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable (SQLite rolls back
        // the open transaction), so a poisoned lock is taken as it is.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Store for SqliteStore {
    fn commit(&self, batch: &[Change]) -> Result<(), StoreError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        for change in batch {
            match change {
                Change::Create(m) => {
                    let mut head = m.record.clone();
                    let entries = std::mem::take(&mut head.entries);
                    let seats: Vec<(&str, &str)> = m
                        .seats
                        .iter()
                        .map(|s| (s.player.as_str(), s.token.as_str()))
                        .collect();
                    tx.execute(
                        "INSERT INTO matches (id, head, seats, bots) VALUES (?1, ?2, ?3, ?4)",
                        params![
                            m.id,
                            serde_json::to_string(&head)?,
                            serde_json::to_string(&seats)?,
                            serde_json::to_string(&m.bots)?
                        ],
                    )?;
                    insert_entries(&tx, &m.id, 0, &entries)?;
                }
                Change::Append { id, from, entries } => insert_entries(&tx, id, *from, entries)?,
                Change::Finish { id } => {
                    tx.execute("UPDATE matches SET finished = 1 WHERE id = ?1", params![id])?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn finished_record(&self, id: &str) -> Result<Option<MatchRecord>, StoreError> {
        let conn = self.lock();
        let head: Option<String> = conn
            .query_row(
                "SELECT head FROM matches WHERE id = ?1 AND finished = 1",
                params![id],
                |r| r.get(0),
            )
            .optional()?;
        let Some(head) = head else {
            return Ok(None);
        };
        let mut record: MatchRecord = serde_json::from_str(&head)?;
        let mut stmt =
            conn.prepare("SELECT entry FROM entries WHERE match_id = ?1 ORDER BY seq")?;
        for entry in stmt.query_map(params![id], |r| r.get::<_, String>(0))? {
            record.entries.push(serde_json::from_str(&entry?)?);
        }
        Ok(Some(record))
    }

    fn unfinished(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let conn = self.lock();
        let mut stmt =
            conn.prepare("SELECT id, head, seats, bots FROM matches WHERE finished = 0")?;
        let rows: Vec<(String, String, String, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<Result<_, _>>()?;
        let mut entries_stmt =
            conn.prepare("SELECT entry FROM entries WHERE match_id = ?1 ORDER BY seq")?;
        let mut out = Vec::with_capacity(rows.len());
        for (id, head, seats, bots) in rows {
            let mut record: MatchRecord = serde_json::from_str(&head)?;
            for entry in entries_stmt.query_map(params![id], |r| r.get::<_, String>(0))? {
                record.entries.push(serde_json::from_str(&entry?)?);
            }
            let seats: Vec<(String, String)> = serde_json::from_str(&seats)?;
            out.push(StoredMatch {
                id,
                record,
                seats: seats
                    .into_iter()
                    .map(|(player, token)| Seat { player, token })
                    .collect(),
                bots: serde_json::from_str(&bots)?,
            });
        }
        Ok(out)
    }

    fn exists(&self, id: &str) -> Result<bool, StoreError> {
        let conn = self.lock();
        Ok(conn
            .query_row("SELECT 1 FROM matches WHERE id = ?1", params![id], |_| {
                Ok(())
            })
            .optional()?
            .is_some())
    }
}

fn insert_entries(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    from: usize,
    entries: &[RecordEntry],
) -> Result<(), StoreError> {
    let mut stmt =
        tx.prepare_cached("INSERT INTO entries (match_id, seq, entry) VALUES (?1, ?2, ?3)")?;
    for (i, entry) in entries.iter().enumerate() {
        let seq = i64::try_from(from + i).map_err(|e| StoreError(e.to_string()))?;
        stmt.execute(params![id, seq, serde_json::to_string(entry)?])?;
    }
    Ok(())
}

/// One batch request to the writer: the changes and who waits for their commit.
type Job = (Vec<Change>, oneshot::Sender<Result<(), StoreError>>);

/// The group-commit writer: one thread owns the writes, takes every change queued
/// meanwhile and commits them in one transaction, so a thousand matches acting at once
/// pay for one sync instead of a thousand. Each caller waits for its own commit.
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::Sender<Job>,
}

impl Writer {
    /// Starts the writer thread over `store`.
    pub fn start(store: std::sync::Arc<dyn Store>) -> Self {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut jobs = vec![first];
                    while let Ok(more) = rx.try_recv() {
                        jobs.push(more);
                    }
                    let batch: Vec<Change> = jobs
                        .iter()
                        .flat_map(|(changes, _)| changes.clone())
                        .collect();
                    let result = store.commit(&batch);
                    for (_, done) in jobs {
                        let _ = done.send(result.clone());
                    }
                }
            })
            .expect("the writer thread starts");
        Self { tx }
    }

    /// Commits `changes` (with whatever else is queued) and waits for the commit.
    pub async fn commit(&self, changes: Vec<Change>) -> Result<(), StoreError> {
        if changes.is_empty() {
            return Ok(());
        }
        let (done, wait) = oneshot::channel();
        self.tx
            .send((changes, done))
            .map_err(|_| StoreError("the writer stopped".into()))?;
        wait.await
            .unwrap_or_else(|_| Err(StoreError("the writer stopped".into())))
    }
}
