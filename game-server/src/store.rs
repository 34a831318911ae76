//! Storage: the [`Store`] trait the server writes every accepted change through, its
//! SQLite implementation, and the group-commit writer that batches the changes of many
//! matches into one transaction while keeping their failures apart.

use std::sync::Mutex;
use std::sync::mpsc;

use game_core::{MatchRecord, RecordEntry};
use rusqlite::types::Value as Sql;
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

/// A stored match whose rows do not read back (a truncated or hand-edited row): the
/// server skips it at start and says why, and serves the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The match id (as stored).
    pub id: String,
    /// Which row or column failed, and how.
    pub detail: String,
}

/// One change to store; a group of them is committed atomically.
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

/// Where the server keeps its matches. Implementations commit durably before returning:
/// the server replies to an action only after that.
///
/// Several server instances over one shared database need more than this (see the
/// README's "Several instances"): a lease per match, so one instance at a time owns it.
pub trait Store: Send + Sync + 'static {
    /// Commits `batch` in one transaction: all of it or none.
    fn commit(&self, batch: &[Change]) -> Result<(), StoreError>;

    /// Commits each group atomically and apart from the others: a group that fails (a
    /// match id taken, an entry index already stored) is refused alone, and every other
    /// group commits. Returns one result per group, in order.
    ///
    /// This default commits everything in one [`Store::commit`] and, if that fails, each
    /// group in its own; a store with nested transactions does it in one (the SQLite
    /// store: a savepoint per group).
    fn commit_groups(&self, groups: &[&[Change]]) -> Vec<Result<(), StoreError>> {
        let all: Vec<Change> = groups.iter().flat_map(|g| g.iter().cloned()).collect();
        match self.commit(&all) {
            Ok(()) => groups.iter().map(|_| Ok(())).collect(),
            Err(e) if groups.len() == 1 => vec![Err(e)],
            Err(_) => groups.iter().map(|g| self.commit(g)).collect(),
        }
    }

    /// Every match not finished, for the server's start: each read back whole, or why it
    /// could not be. `Err` only when the store itself cannot be read.
    fn unfinished(&self) -> Result<Vec<Result<StoredMatch, Unreadable>>, StoreError>;
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
        self.commit_groups(&[batch])
            .pop()
            .unwrap_or_else(|| Err(StoreError("no result".into())))
    }

    fn commit_groups(&self, groups: &[&[Change]]) -> Vec<Result<(), StoreError>> {
        let mut conn = self.lock();
        let every = |e: StoreError| groups.iter().map(|_| Err(e.clone())).collect();
        let mut tx = match conn.transaction() {
            Ok(tx) => tx,
            Err(e) => return every(e.into()),
        };
        // One transaction (one sync for all), a savepoint per group: a group that fails
        // is rolled back to its savepoint and the others stay in the transaction.
        let results: Vec<Result<(), StoreError>> =
            groups.iter().map(|g| apply_group(&mut tx, g)).collect();
        match tx.commit() {
            Ok(()) => results,
            Err(e) => every(e.into()),
        }
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

    fn unfinished(&self) -> Result<Vec<Result<StoredMatch, Unreadable>>, StoreError> {
        let conn = self.lock();
        // Every cell is read as whatever SQLite holds, so that a cell of the wrong type
        // fails its own match, not the whole start.
        let mut stmt =
            conn.prepare("SELECT id, head, seats, bots FROM matches WHERE finished = 0")?;
        let rows: Vec<[Sql; 4]> = stmt
            .query_map([], |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?]))?
            .collect::<Result<_, _>>()?;
        let mut entries_stmt =
            conn.prepare("SELECT seq, entry FROM entries WHERE match_id = ?1 ORDER BY seq")?;
        let mut out = Vec::with_capacity(rows.len());
        for [id, head, seats, bots] in rows {
            let id = match id {
                Sql::Text(id) => id,
                other => {
                    out.push(Err(Unreadable {
                        id: format!("{other:?}"),
                        detail: "the match id is not text".into(),
                    }));
                    continue;
                }
            };
            let entries: Vec<(Sql, Sql)> = entries_stmt
                .query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            out.push(
                read_match(&id, head, seats, bots, entries)
                    .map_err(|detail| Unreadable { id, detail }),
            );
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

/// One match's rows read back, or which of them does not read and why.
fn read_match(
    id: &str,
    head: Sql,
    seats: Sql,
    bots: Sql,
    entries: Vec<(Sql, Sql)>,
) -> Result<StoredMatch, String> {
    let mut record: MatchRecord = json_cell(head, "head")?;
    for (i, (seq, entry)) in entries.into_iter().enumerate() {
        // The entries are numbered 0, 1, 2... as they were appended: a gap or a shift is
        // an entry lost or moved, and the record would replay to another match.
        if !matches!(seq, Sql::Integer(s) if usize::try_from(s) == Ok(i)) {
            return Err(format!("entry {i}: stored under seq {seq:?}"));
        }
        record
            .entries
            .push(json_cell(entry, &format!("entry {i}"))?);
    }
    let seats: Vec<(String, String)> = json_cell(seats, "seats")?;
    Ok(StoredMatch {
        id: id.to_owned(),
        record,
        seats: seats
            .into_iter()
            .map(|(player, token)| Seat { player, token })
            .collect(),
        bots: json_cell(bots, "bots")?,
    })
}

/// A JSON text cell parsed as `T`.
fn json_cell<T: serde::de::DeserializeOwned>(cell: Sql, what: &str) -> Result<T, String> {
    let Sql::Text(text) = cell else {
        return Err(format!("{what}: not text ({})", sql_type(&cell)));
    };
    serde_json::from_str(&text).map_err(|e| format!("{what}: {e}"))
}

fn sql_type(v: &Sql) -> &'static str {
    match v {
        Sql::Null => "null",
        Sql::Integer(_) => "an integer",
        Sql::Real(_) => "a real",
        Sql::Text(_) => "text",
        Sql::Blob(_) => "a blob",
    }
}

/// Applies one group under its own savepoint: all of it stays, or none of it.
fn apply_group(tx: &mut rusqlite::Transaction<'_>, group: &[Change]) -> Result<(), StoreError> {
    // Dropping the savepoint without `commit` rolls back to it (its default).
    let sp = tx.savepoint()?;
    for change in group {
        apply(&sp, change)?;
    }
    sp.commit()?;
    Ok(())
}

fn apply(conn: &Connection, change: &Change) -> Result<(), StoreError> {
    match change {
        Change::Create(m) => {
            let mut head = m.record.clone();
            let entries = std::mem::take(&mut head.entries);
            let seats: Vec<(&str, &str)> = m
                .seats
                .iter()
                .map(|s| (s.player.as_str(), s.token.as_str()))
                .collect();
            conn.execute(
                "INSERT INTO matches (id, head, seats, bots) VALUES (?1, ?2, ?3, ?4)",
                params![
                    m.id,
                    serde_json::to_string(&head)?,
                    serde_json::to_string(&seats)?,
                    serde_json::to_string(&m.bots)?
                ],
            )?;
            insert_entries(conn, &m.id, 0, &entries)
        }
        Change::Append { id, from, entries } => insert_entries(conn, id, *from, entries),
        Change::Finish { id } => {
            conn.execute("UPDATE matches SET finished = 1 WHERE id = ?1", params![id])?;
            Ok(())
        }
    }
}

fn insert_entries(
    conn: &Connection,
    id: &str,
    from: usize,
    entries: &[RecordEntry],
) -> Result<(), StoreError> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO entries (match_id, seq, entry) VALUES (?1, ?2, ?3)")?;
    for (i, entry) in entries.iter().enumerate() {
        let seq = i64::try_from(from + i).map_err(|e| StoreError(e.to_string()))?;
        stmt.execute(params![id, seq, serde_json::to_string(entry)?])?;
    }
    Ok(())
}

/// One request to the writer: a group of changes and who waits for its commit.
type Job = (Vec<Change>, oneshot::Sender<Result<(), StoreError>>);

/// The group-commit writer: one thread owns the writes, takes every group queued
/// meanwhile and commits them together ([`Store::commit_groups`]), so a thousand matches
/// acting at once pay for one sync instead of a thousand, and one group that fails is
/// refused alone. Each caller waits for its own group's result.
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
                    let groups: Vec<&[Change]> = jobs.iter().map(|(c, _)| c.as_slice()).collect();
                    // A store that panics fails this batch, not every commit after it.
                    let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        store.commit_groups(&groups)
                    }))
                    .unwrap_or_default();
                    let mut results = results.into_iter();
                    for (_, done) in jobs {
                        let result = results.next().unwrap_or_else(|| {
                            Err(StoreError("the store panicked or gave no result".into()))
                        });
                        let _ = done.send(result);
                    }
                }
            })
            .expect("the writer thread starts");
        Self { tx }
    }

    /// Commits `changes` as one group (with whatever else is queued, apart from it) and
    /// waits for the commit.
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
