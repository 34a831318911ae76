//! The store recovers: a commit that fails for the moment (another writer holding the
//! database, a full disk) is retried, a match whose commit failed anyway is reloaded from
//! the store and goes on (nothing acknowledged lost, nothing applied twice), clients are
//! told `UNAVAILABLE` plainly, and a second server on the same file refuses to start.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{Client, Server, TempDb, code, create, hello, open_db, token};
use serde_json::{Value, json};

/// An rps match between a and b, both seated: the match id, a's client, b's client and
/// the turnSeq to act at.
async fn seated(addr: &str) -> (String, Client, Client, u64) {
    let mut c = Client::connect(addr).await;
    let created = create(&mut c, "rps", &["a", "b"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();
    let a = hello(addr, &m, &token(&created, "a")).await;
    let b = hello(addr, &m, &token(&created, "b")).await;
    let seq = created["turnSeq"].as_u64().unwrap();
    (m, a, b, seq)
}

fn pick(m: &str, hand: &str, seq: u64) -> Value {
    json!({"op": "act", "match": m, "action": {"type": "PICK", "hand": hand}, "turnSeq": seq})
}

/// A refusal of the store says nothing of it but when to try again.
fn assert_plain_unavailable(reply: &Value) {
    assert_eq!(code(reply), "UNAVAILABLE", "{reply}");
    let retry = reply["error"]["reason"]["retryAfterMs"].as_u64();
    assert!(retry.is_some_and(|ms| ms > 0), "{reply}");
    let text = reply.to_string().to_lowercase();
    for internal in ["storage", "database", "sqlite", "lock", "disk", "detail"] {
        assert!(!text.contains(internal), "{internal} in {reply}");
    }
}

/// Plays rounds (a rock, b paper) from `seq` until the match is over; how many acts
/// each of a and b had acknowledged.
async fn play_out(a: &mut Client, b: &mut Client, m: &str, mut seq: u64) -> (usize, usize) {
    let mut acked = (0, 0);
    loop {
        let t = a.req(pick(m, "rock", seq)).await;
        assert_eq!(t["ok"], true, "{t}");
        acked.0 += 1;
        let t = b
            .req(pick(m, "paper", t["turnSeq"].as_u64().unwrap()))
            .await;
        assert_eq!(t["ok"], true, "{t}");
        acked.1 += 1;
        if t["over"] == true {
            return acked;
        }
        seq = t["turnSeq"].as_u64().unwrap();
    }
}

/// The finished match's record: how many actions each player has in it.
async fn acts_in_record(c: &mut Client, m: &str) -> (usize, usize) {
    let record = c.req(json!({"op": "record", "match": m})).await;
    assert_eq!(record["ok"], true, "{record}");
    let acts = |who: &str| {
        record["record"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "act" && e["player"] == who)
            .count()
    };
    (acts("a"), acts("b"))
}

/// Another connection holds SQLite's write lock past the store's retries: the act is
/// answered `UNAVAILABLE` (with `retryAfterMs`, nothing of the store); the match is
/// reloaded, both seats keep being served, and once the lock is gone the same act is
/// taken, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_write_lock_is_refused_plainly_and_the_match_goes_on() {
    let db = TempDb::new("recover-busy");
    let server = Server::start_with(&db.path(), 0, &[]);
    let (m, mut a, mut b, seq) = seated(&server.addr).await;
    let holder = open_db(&db.path());
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let refused = a.req(pick(&m, "rock", seq)).await;
    assert_plain_unavailable(&refused);
    // Still served while the lock is held: nothing was lost from memory but the change.
    for c in [&mut a, &mut b] {
        let view = c.req(json!({"op": "view", "match": &m})).await;
        assert_eq!(view["ok"], true, "{view}");
        assert_eq!(view["view"]["turnSeq"].as_u64(), Some(seq), "{view}");
    }
    holder.execute_batch("ROLLBACK").unwrap();
    let acked = play_out(&mut a, &mut b, &m, seq).await;
    assert_eq!(acts_in_record(&mut a, &m).await, acked);
    let err = server.stderr();
    assert!(err.contains(&format!("match {m}: not stored")), "{err}");
    assert!(err.contains("try 1 of 6 failed"), "{err}");
}

/// A lock held for less than the retries last is waited out: the act is taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_lock_is_waited_out() {
    let db = TempDb::new("recover-wait");
    let server = Server::start_with(&db.path(), 0, &[]);
    let (m, mut a, mut b, seq) = seated(&server.addr).await;
    let holder = open_db(&db.path());
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        holder.execute_batch("COMMIT").unwrap();
    });
    let taken = a.req(pick(&m, "rock", seq)).await;
    release.join().unwrap();
    assert_eq!(taken["ok"], true, "{taken}");
    let t = b
        .req(pick(&m, "paper", taken["turnSeq"].as_u64().unwrap()))
        .await;
    assert_eq!(t["ok"], true, "{t}");
    let acked = if t["over"] == true {
        (1, 1)
    } else {
        let (x, y) = play_out(&mut a, &mut b, &m, t["turnSeq"].as_u64().unwrap()).await;
        (x + 1, y + 1)
    };
    assert_eq!(acts_in_record(&mut b, &m).await, acked);
    let err = server.stderr();
    assert!(err.contains("try 1 of 6 failed"), "{err}");
    assert!(!err.contains("not stored"), "{err}");
}

/// Runs the server binary on `db` and waits for it to exit (within 30 s): its status,
/// stdout and stderr.
fn run_to_exit(db: &Path) -> (std::process::ExitStatus, String, String) {
    run_to_exit_in(db, Path::new("."))
}

/// [`run_to_exit`] with `cwd` as the server's working directory (`db` may be relative
/// to it).
fn run_to_exit_in(db: &Path, cwd: &Path) -> (std::process::ExitStatus, String, String) {
    let mut child = Command::new(common::binary())
        .current_dir(cwd)
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > until {
            let _ = child.kill();
            panic!("the second server did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status, text(out.stdout), text(out.stderr))
}

/// A second server on the same file refuses to start and says why; once the first is
/// gone, a server starts on it again and serves its matches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_file_refuses_to_start() {
    let db = TempDb::new("recover-second");
    let mut first = Server::start(&db.path(), 0);
    let (m, mut a, _b, seq) = seated(&first.addr).await;
    let taken = a.req(pick(&m, "rock", seq)).await;
    assert_eq!(taken["ok"], true, "{taken}");
    let (status, out, err) = run_to_exit(&db.path());
    assert!(!status.success(), "{status}");
    assert!(!out.contains("listening"), "{out}");
    assert!(err.contains("in use by another server"), "{err}");
    // The first one still serves.
    let view = a.req(json!({"op": "view", "match": &m})).await;
    assert_eq!(view["ok"], true, "{view}");
    first.kill();
    let again = Server::start(&db.path(), 0);
    let mut w = Client::connect(&again.addr).await;
    let watched = w.req(json!({"op": "watch", "match": &m})).await;
    assert_eq!(watched["ok"], true, "{watched}");
}

/// The break: the lock was by path name, so a second server on the same database
/// through another name started, restored the same matches and played them too. Every
/// other name is refused now, as the same path is: a symbolic link, a hard link (which
/// would have had a WAL of its own) and a relative path.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_database_by_any_name_refuses_to_start() {
    let db = TempDb::new("recover-names");
    let path = db.path();
    let dir = path.parent().unwrap().to_path_buf();
    let first = Server::start(&path, 0);
    let (m, mut a, _b, seq) = seated(&first.addr).await;
    let taken = a.req(pick(&m, "rock", seq)).await;
    assert_eq!(taken["ok"], true, "{taken}");
    let link = dir.join("link.sqlite");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let hard = dir.join("hard.sqlite");
    std::fs::hard_link(&path, &hard).unwrap();
    let relative = PathBuf::from(path.file_name().unwrap());
    for (name, cwd) in [
        (link.clone(), PathBuf::from(".")),
        (hard.clone(), PathBuf::from(".")),
        (relative, dir.clone()),
        (
            dir.join(".").join(path.file_name().unwrap()),
            PathBuf::from("."),
        ),
    ] {
        let (status, out, err) = run_to_exit_in(&name, &cwd);
        assert!(!status.success(), "{}: {status}", name.display());
        assert!(!out.contains("listening"), "{}: {out}", name.display());
        assert!(
            err.contains("in use by another server"),
            "{}: {err}",
            name.display()
        );
    }
    // No second WAL was started beside the hard link, and the first server still serves.
    assert!(!dir.join("hard.sqlite-wal").exists());
    let view = a.req(json!({"op": "view", "match": &m})).await;
    assert_eq!(view["ok"], true, "{view}");
}

/// A small tmpfs mounted for one test, unmounted on drop.
struct Tmpfs {
    dir: PathBuf,
}

impl Tmpfs {
    /// `None` when this machine does not let the test mount one (not root, no tmpfs).
    fn mount(name: &str, size: &str) -> Option<Self> {
        let dir = std::env::temp_dir().join(format!("game-server-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            let _ = std::fs::remove_dir(&dir);
            return None;
        }
        Some(Self { dir })
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// Fills the file system of `path` until a write fails for want of room.
fn fill(path: &Path) {
    use std::io::Write;
    let mut f = std::fs::File::create(path).unwrap();
    let chunk = vec![7u8; 4096];
    while f.write_all(&chunk).and_then(|()| f.sync_all()).is_ok() {}
}

/// With the disk full an act is refused `UNAVAILABLE`; once there is room again the same
/// match takes it and plays to its end, every action once. Needs a tmpfs (root): where
/// none can be mounted the test says so and passes without running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_is_refused_and_served_again_once_there_is_room() {
    let Some(fs) = Tmpfs::mount("recover-full", "2m") else {
        eprintln!("skipped: no tmpfs can be mounted here (needs root)");
        return;
    };
    let db = fs.dir.join("games.sqlite");
    let logs = TempDb::new("recover-full-log");
    let server = Server::start_logged(&db, 0, &[], logs.path().with_extension("stderr"));
    let (m, mut a, mut b, seq) = seated(&server.addr).await;
    let filler = fs.dir.join("filler");
    fill(&filler);
    let refused = a.req(pick(&m, "rock", seq)).await;
    assert_plain_unavailable(&refused);
    std::fs::remove_file(&filler).unwrap();
    let acked = play_out(&mut a, &mut b, &m, seq).await;
    assert_eq!(acts_in_record(&mut a, &m).await, acked);
    let err = server.stderr();
    assert!(err.contains(&format!("match {m}: not stored")), "{err}");
    drop(server);
}
