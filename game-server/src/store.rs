//! Storage: the [`Store`] trait the server writes every accepted change through, its
//! SQLite implementation, and the group-commit writer that batches the changes of many
//! matches into one transaction while keeping their failures apart.

use std::sync::Mutex;
use std::sync::mpsc;

use game_core::{MatchRecord, RecordEntry};
use rusqlite::types::Value as Sql;
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

/// A storage failure: the database's message (for the log, never for clients) and
/// whether trying again later may succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    /// What failed, as the database says it.
    pub detail: String,
    /// A failure of the moment (the database busy with another writer, an I/O error, a
    /// full disk) rather than of the change itself (a constraint, a row that does not
    /// read back): the writer retries these, and a match hit by one is reloaded.
    pub transient: bool,
    /// The change was refused because a key it writes is taken: a match created under
    /// an id another instance stored first (`create` answers it `MATCH_EXISTS`).
    pub conflict: bool,
}

impl StoreError {
    /// A failure of the change itself: trying it again fails again.
    pub fn new(detail: impl Into<String>) -> Self {
        Self {
            detail: detail.into(),
            transient: false,
            conflict: false,
        }
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "storage: {}", self.detail)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        use rusqlite::ErrorCode::{DatabaseBusy, DatabaseLocked, DiskFull, SystemIoFailure};
        let transient = matches!(
            e.sqlite_error_code(),
            Some(DatabaseBusy | DatabaseLocked | DiskFull | SystemIoFailure)
        );
        let conflict = e.sqlite_error().is_some_and(|e| {
            matches!(
                e.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    | rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            )
        });
        Self {
            detail: e.to_string(),
            transient,
            conflict,
        }
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::new(e.to_string())
    }
}

/// How many times the SQLite store tries a commit that fails for the moment before it
/// gives up, and how long it waits before the second try (doubling after each):
/// 0.1 + 0.2 + 0.4 + 0.8 + 1.6 = 3.1 s in all, so a writer that holds the database a
/// few seconds, or a disk that is full for a moment, loses nothing.
pub const COMMIT_TRIES: u32 = 6;
/// The wait before a commit's second try (see [`COMMIT_TRIES`]).
pub const FIRST_RETRY: std::time::Duration = std::time::Duration::from_millis(100);
/// How long SQLite itself waits for another connection's lock within one try: short,
/// since the tries above do the waiting (without holding the store's lock).
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_millis(20);

/// A human seat: its player id and its secret token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The player id.
    pub player: String,
    /// The seat's token (stored as given: see the crate docs, "Durability and time").
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
    /// The match was closed before its end ([`Ended::Abandoned`] or
    /// [`Ended::Unjoined`]): it is no longer loaded at start, nor its record served.
    Close {
        /// The match id.
        id: String,
        /// Why it was closed.
        why: Ended,
    },
}

/// How a match that is no longer played ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Played to its end.
    Over,
    /// Closed after every human seat had been away for the server's time.
    Abandoned,
    /// Closed because no human seat was ever taken in the server's time.
    Unjoined,
}

impl Ended {
    /// Its word on the wire (`closed` pushes, `MATCH_CLOSED`'s `reason.why`).
    pub fn word(self) -> &'static str {
        match self {
            Ended::Over => "over",
            Ended::Abandoned => "abandoned",
            Ended::Unjoined => "unjoined",
        }
    }

    /// The value of the `finished` column: 0 is a match still played.
    pub(crate) fn column(self) -> i64 {
        match self {
            Ended::Over => 1,
            Ended::Abandoned => 2,
            Ended::Unjoined => 3,
        }
    }

    pub(crate) fn from_column(v: i64) -> Option<Self> {
        [Ended::Over, Ended::Abandoned, Ended::Unjoined]
            .into_iter()
            .find(|e| e.column() == v)
    }
}

/// What the store holds of a match, read at once: how it ended, and who runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// How it ended (`None` while it is played).
    pub ended: Option<Ended>,
    /// The instance holding an unexpired lease on it while it is played ([`Leases`];
    /// always `None` for a store of one server).
    pub owner: Option<String>,
}

/// Ownership of matches among server instances that share one store: each unfinished
/// match is owned by one instance through a lease, renewed while it runs the match, and
/// every change to a match is refused by the store unless its writer still holds the
/// lease it was written under (the lease's epoch rises at every claim).
pub trait Leases: Send + Sync {
    /// How long a lease lasts unrenewed: the server renews its leases and claims expired
    /// ones at a third of it.
    fn lease_time(&self) -> std::time::Duration;
    /// Takes up to `max` unfinished matches that no instance holds (their lease expired
    /// or was released), under a new epoch each: their ids. A match this instance still
    /// holds is never among them.
    fn claim(&self, max: usize) -> Result<Vec<String>, StoreError>;
    /// Extends every lease this instance holds: the ids of those it no longer holds (an
    /// instance claimed them while this one did not renew), now forgotten.
    fn renew(&self) -> Result<Vec<String>, StoreError>;
    /// Lets every lease this instance holds expire now, so that other instances claim
    /// its matches at once (a graceful stop). Its own changes after that are refused once
    /// another instance claimed the match.
    fn release(&self) -> Result<(), StoreError>;
    /// Whether this instance holds the lease of match `id` (a change to it refused for
    /// a lease taken over forgets it).
    fn holds(&self, id: &str) -> bool;
    /// Who this instance is among those sharing the store (unique per process).
    fn instance(&self) -> &str;
    /// The instance holding an unexpired lease on the unfinished match `id`, if any.
    fn owner(&self, id: &str) -> Result<Option<String>, StoreError>;
    /// Starts receiving the messages other instances send this one ([`Leases::send`]),
    /// each sender's in the order it sent them. Called once.
    fn listen(&self) -> Result<tokio::sync::mpsc::UnboundedReceiver<String>, StoreError>;
    /// Sends `message` to the instance `to` (`*`: to every instance), after every
    /// message sent before it: queued here, never waited for, lost if `to` is gone.
    fn send(&self, to: &str, message: String);
}

/// Where the server keeps its matches. Implementations commit durably before returning:
/// the server replies to an action only after that.
///
/// A store several instances share gives [`Store::leases`]: a lease per match, so that
/// one instance at a time owns it.
pub trait Store: Send + Sync + 'static {
    /// The store's leases, when several instances may share it (`None`: this server is
    /// the only one, and owns every match).
    fn leases(&self) -> Option<&dyn Leases> {
        None
    }

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

    /// The ids of every match not finished, for the server's start (an id that is not
    /// text is unreadable). `Err` only when the store itself cannot be read.
    fn unfinished_ids(&self) -> Result<Vec<Result<String, Unreadable>>, StoreError>;
    /// The matches `ids`, each read back whole or why it could not be (an id no longer
    /// stored is left out), in one read. `Err` only when the store itself cannot be
    /// read.
    fn load(&self, ids: &[String]) -> Result<Vec<Result<StoredMatch, Unreadable>>, StoreError>;
    /// Every match not finished ([`Store::unfinished_ids`] then [`Store::load`]).
    fn unfinished(&self) -> Result<Vec<Result<StoredMatch, Unreadable>>, StoreError> {
        let mut out = Vec::new();
        let mut ids = Vec::new();
        for id in self.unfinished_ids()? {
            match id {
                Ok(id) => ids.push(id),
                Err(unreadable) => out.push(Err(unreadable)),
            }
        }
        out.extend(self.load(&ids)?);
        Ok(out)
    }
    /// Whether a match id is taken (finished matches included).
    fn exists(&self, id: &str) -> Result<bool, StoreError>;
    /// The record of a finished match (`None` for an unknown or unfinished one): what
    /// `record` serves once the match is no longer in memory (after a restart).
    fn finished_record(&self, id: &str) -> Result<Option<MatchRecord>, StoreError>;
    /// The record of a match as stored, finished or not (`None` for an unknown one): what
    /// a match whose commit failed is reloaded from.
    fn record(&self, id: &str) -> Result<Option<MatchRecord>, StoreError>;
    /// How a stored match ended (`None` for an unknown match or one still played): what
    /// a request for a match no longer in memory is answered from.
    fn ended(&self, id: &str) -> Result<Option<Ended>, StoreError>;

    /// Whether match `id` is stored (`None`: unknown), how it ended and who runs it, in
    /// one read: what a request naming a match not in memory costs the store. This
    /// default asks [`Store::exists`], [`Store::ended`] and [`Leases::owner`] apart; the
    /// built-in stores answer with one query.
    fn find(&self, id: &str) -> Result<Option<Found>, StoreError> {
        if !self.exists(id)? {
            return Ok(None);
        }
        let ended = self.ended(id)?;
        let owner = match (ended, self.leases()) {
            (None, Some(leases)) => leases.owner(id)?,
            _ => None,
        };
        Ok(Some(Found { ended, owner }))
    }
}

/// The embedded store: one SQLite file in WAL mode (`:memory:` for a store that ends
/// with the process).
pub struct SqliteStore {
    conn: Mutex<Connection>,
    /// The database file itself, locked for as long as the store is open: a second
    /// server on the same database, under any name, would commit under the first one's
    /// feet (and it under its own). Dropped after `conn`: closing it while SQLite's own
    /// locks on the file are held would give those up (POSIX locks are per process).
    _lock: Option<std::fs::File>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`. Refused when another store has
    /// the database open, through any name for it (a relative path, a symbolic link, a
    /// hard link): the lock is on the file itself ([`SqliteStore`]).
    pub fn open(path: &str) -> Result<Self, StoreError> {
        let lock = if path.is_empty() || path == ":memory:" {
            None
        } else {
            Some(lock_database(path)?)
        };
        let conn = Connection::open(path)?;
        // WAL: readers do not block the writer and a commit is one append to the log;
        // synchronous=FULL syncs every commit, so an acknowledged action survives a power
        // loss as well as a killed process (the writer batches commits to pay for it).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.busy_timeout(BUSY_WAIT)?;
        // `finished`: 0 while the match is played, else how it ended ([`Ended`]).
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
            _lock: lock,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable (SQLite rolls back
        // the open transaction), so a poisoned lock is taken as it is.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One try at committing `groups`: each group's result, or the failure of the moment
    /// that undid the whole try (then nothing of it is stored).
    fn try_commit(&self, groups: &[&[Change]]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let mut conn = self.lock();
        // IMMEDIATE: the write lock is taken at the start, so another writer is met here
        // rather than halfway through the groups.
        let mut tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // One transaction (one sync for all), a savepoint per group: a group that fails
        // is rolled back to its savepoint and the others stay in the transaction.
        let mut results = Vec::with_capacity(groups.len());
        for g in groups {
            let result = apply_group(&mut tx, g);
            if let Err(e) = &result
                && e.transient
            {
                return Err(e.clone());
            }
            results.push(result);
        }
        tx.commit()?;
        Ok(results)
    }
}

/// Takes an exclusive lock on the database file at `path` (created if needed), or says
/// that another server holds it.
///
/// On Unix the lock is an open-file lock (`flock`) on the file itself: it is the file's,
/// whatever name opened it, so a symbolic link, a hard link (which SQLite would give a
/// WAL of its own) or a relative path finds it taken; it leaves SQLite's own locks
/// (`fcntl` byte ranges) alone, and ends with the process however it ends. Elsewhere a
/// whole-file lock would block SQLite's own reads, so the lock is on `PATH.lock`, by the
/// file's canonical path (symbolic links and relative paths resolved).
fn lock_database(path: &str) -> Result<std::fs::File, StoreError> {
    let db = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| StoreError::new(format!("cannot open {path}: {e}")))?;
    let canonical = std::fs::canonicalize(path)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.to_owned());
    #[cfg(unix)]
    let (file, held) = (db, canonical.clone());
    #[cfg(not(unix))]
    let (file, held) = {
        drop(db);
        let name = format!("{canonical}.lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&name)
            .map_err(|e| StoreError::new(format!("cannot open {name}: {e}")))?;
        (file, name)
    };
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::new(format!(
            "{path} is in use by another server (it holds the lock on {held}, under \
             whatever name it opened it); stop that one or give this one another --db"
        ))),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(StoreError::new(format!("cannot lock {held}: {e}")))
        }
    }
}

/// The record of match `id` (head and entries in order), if stored (and finished, when
/// `only_finished`).
fn read_record(
    conn: &Connection,
    id: &str,
    only_finished: bool,
) -> Result<Option<MatchRecord>, StoreError> {
    let head: Option<String> = conn
        .query_row(
            "SELECT head FROM matches WHERE id = ?1 AND (finished = 1 OR NOT ?2)",
            params![id, only_finished],
            |r| r.get(0),
        )
        .optional()?;
    let Some(head) = head else {
        return Ok(None);
    };
    let mut record: MatchRecord = serde_json::from_str(&head)?;
    let mut stmt =
        conn.prepare_cached("SELECT entry FROM entries WHERE match_id = ?1 ORDER BY seq")?;
    for entry in stmt.query_map(params![id], |r| r.get::<_, String>(0))? {
        record.entries.push(serde_json::from_str(&entry?)?);
    }
    Ok(Some(record))
}

impl Store for SqliteStore {
    fn commit(&self, batch: &[Change]) -> Result<(), StoreError> {
        self.commit_groups(&[batch])
            .pop()
            .unwrap_or_else(|| Err(StoreError::new("no result")))
    }

    fn commit_groups(&self, groups: &[&[Change]]) -> Vec<Result<(), StoreError>> {
        let mut wait = FIRST_RETRY;
        let mut tries = 1;
        loop {
            match self.try_commit(groups) {
                Ok(results) => return results,
                // The store's lock is not held while waiting: reads (a match reloaded,
                // a finished record) go on meanwhile.
                Err(e) if e.transient && tries < COMMIT_TRIES => {
                    tracing::warn!(
                        error = %e,
                        "store: try {tries} of {COMMIT_TRIES} failed, again in {} ms: {e}",
                        wait.as_millis()
                    );
                    std::thread::sleep(wait);
                    wait *= 2;
                    tries += 1;
                }
                Err(e) => return groups.iter().map(|_| Err(e.clone())).collect(),
            }
        }
    }

    fn finished_record(&self, id: &str) -> Result<Option<MatchRecord>, StoreError> {
        read_record(&self.lock(), id, true)
    }

    fn record(&self, id: &str) -> Result<Option<MatchRecord>, StoreError> {
        read_record(&self.lock(), id, false)
    }

    fn ended(&self, id: &str) -> Result<Option<Ended>, StoreError> {
        let finished: Option<i64> = self
            .lock()
            .query_row(
                "SELECT finished FROM matches WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(finished.and_then(Ended::from_column))
    }

    fn find(&self, id: &str) -> Result<Option<Found>, StoreError> {
        let finished: Option<i64> = self
            .lock()
            .query_row(
                "SELECT finished FROM matches WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(finished.map(|f| Found {
            ended: Ended::from_column(f),
            owner: None,
        }))
    }

    fn unfinished_ids(&self) -> Result<Vec<Result<String, Unreadable>>, StoreError> {
        let conn = self.lock();
        let mut stmt = conn.prepare("SELECT id FROM matches WHERE finished = 0")?;
        let ids: Vec<Sql> = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids
            .into_iter()
            .map(|id| match id {
                Sql::Text(id) => Ok(id),
                other => Err(Unreadable {
                    id: format!("{other:?}"),
                    detail: "the match id is not text".into(),
                }),
            })
            .collect())
    }

    fn load(&self, ids: &[String]) -> Result<Vec<Result<StoredMatch, Unreadable>>, StoreError> {
        let mut conn = self.lock();
        // One read transaction for the batch: one snapshot, one lock of the file.
        let tx = conn.transaction()?;
        // Every cell is read as whatever SQLite holds, so that a cell of the wrong type
        // fails its own match, not the whole start.
        let mut head_stmt =
            tx.prepare_cached("SELECT head, seats, bots FROM matches WHERE id = ?1")?;
        let mut entries_stmt =
            tx.prepare_cached("SELECT seq, entry FROM entries WHERE match_id = ?1 ORDER BY seq")?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let row: Option<[Sql; 3]> = head_stmt
                .query_row(params![id], |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?]))
                .optional()?;
            let Some([head, seats, bots]) = row else {
                continue;
            };
            let entries: Vec<(Sql, Sql)> = entries_stmt
                .query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            out.push(
                read_match(id, head, seats, bots, entries).map_err(|detail| Unreadable {
                    id: id.clone(),
                    detail,
                }),
            );
        }
        drop((head_stmt, entries_stmt));
        tx.commit()?;
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
pub(crate) fn read_match(
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
            conn.execute(
                "UPDATE matches SET finished = ?2 WHERE id = ?1",
                params![id, Ended::Over.column()],
            )?;
            Ok(())
        }
        Change::Close { id, why } => {
            conn.execute(
                "UPDATE matches SET finished = ?2 WHERE id = ?1",
                params![id, why.column()],
            )?;
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
        let seq = i64::try_from(from + i).map_err(|e| StoreError::new(e.to_string()))?;
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
                    let started = std::time::Instant::now();
                    // A store that panics fails this batch, not every commit after it.
                    let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        store.commit_groups(&groups)
                    }))
                    .unwrap_or_default();
                    metrics::histogram!(crate::observe::COMMIT_SECONDS)
                        .record(started.elapsed().as_secs_f64());
                    metrics::histogram!(crate::observe::COMMIT_GROUPS).record(groups.len() as f64);
                    let mut results = results.into_iter();
                    for (_, done) in jobs {
                        let result = results.next().unwrap_or_else(|| {
                            Err(StoreError::new("the store panicked or gave no result"))
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
            .map_err(|_| StoreError::new("the writer stopped"))?;
        wait.await
            .unwrap_or_else(|_| Err(StoreError::new("the writer stopped")))
    }
}
