//! An author's server binary: a registry of the author's games and `cli::run`, nothing
//! else. It serves those games (and no others), has every flag the README lists in its
//! `--help`, and hands its matches over on SIGTERM as the crate's own binary does.
//!
//! This test is its own author binary: cargo builds an integration test, not an example,
//! before running it, so the binary under test is never stale. Run with [`AUTHOR`] set it
//! is the author's `main` (the test harness is off, `harness = false` in Cargo.toml); run
//! by `cargo test` it starts itself so and checks it.

mod common;

use std::process::{Command, ExitCode};
use std::time::Duration;

use common::{Client, Server, TempDb, code, create, token, until_ok};
use serde_json::json;

/// Set in the environment of the copies of this binary that are the author's server.
const AUTHOR: &str = "PARTY_GAMES_AUTHOR_SERVER";

/// The author's `main`, as the crate's docs show it: rock-paper-scissors only.
fn author_main() -> ExitCode {
    let mut games = game_core::Registry::new();
    games
        .register(game_core::Erased(game_core::rps::Rps))
        .unwrap();
    party_games_server::cli::run(games)
}

fn main() -> ExitCode {
    if std::env::var_os(AUTHOR).is_some() {
        return author_main();
    }
    let tests: [(&str, fn()); 3] = [
        (
            "help_lists_every_documented_flag",
            help_lists_every_documented_flag,
        ),
        (
            "serves_the_authors_games_only",
            serves_the_authors_games_only,
        ),
        (
            "sigterm_hands_the_matches_over",
            sigterm_hands_the_matches_over,
        ),
    ];
    for (name, test) in tests {
        test();
        println!("test {name} ... ok");
    }
    ExitCode::SUCCESS
}

/// This binary as the author's server.
fn author() -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.env(AUTHOR, "1");
    cmd
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The flags (`--word-word`) in `text`, sorted, once each.
fn flags_in(text: &str) -> Vec<String> {
    let mut flags: Vec<String> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(str::to_owned)
        .collect();
    flags.sort();
    flags.dedup();
    flags
}

/// The flags of the command line in the README's *Running it*: each in brackets.
fn documented_flags() -> Vec<String> {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("## Running it").unwrap()..];
    let block = &section[section.find("```sh").unwrap() + 5..];
    let block = &block[..block.find("```").unwrap()];
    let bracketed: Vec<&str> = block.split('[').skip(1).collect();
    flags_in(
        &bracketed
            .iter()
            .map(|b| b.split(' ').next().unwrap())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

fn help_lists_every_documented_flag() {
    let flags = documented_flags();
    assert!(flags.len() > 20, "{flags:?}");
    let out = author().arg("--help").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let help = String::from_utf8(out.stdout).unwrap();
    let listed = flags_in(&help);
    for flag in &flags {
        assert!(listed.contains(flag), "{flag} not in --help:\n{help}");
    }
    // The defaults shown are `Config::default()`'s.
    assert!(help.contains("[default: 300]"), "{help}");
    // And the built-in binary has the same flags.
    let out = Command::new(env!("CARGO_BIN_EXE_party-games-server"))
        .arg("--help")
        .output()
        .unwrap();
    let builtin = String::from_utf8(out.stdout).unwrap();
    let options = |help: &str| help[help.find("Options:").unwrap()..].to_owned();
    assert_eq!(options(&help), options(&builtin));
}

fn serves_the_authors_games_only() {
    let db = TempDb::new("author-serves");
    let mut server = Server::start_command(author(), &db.path(), 0, &[]);
    runtime().block_on(async {
        let mut c = Client::connect(&server.addr).await;
        let games = c.req(json!({"op": "games"})).await;
        assert_eq!(games["games"], json!(["rps"]), "{games}");
        let yut = c
            .req(json!({"op": "create", "game": "yut", "players": ["p", "q"]}))
            .await;
        assert_eq!(code(&yut), "UNKNOWN_GAME", "{yut}");
        let created = create(&mut c, "rps", &["p", "q"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let mut p = common::hello(&server.addr, &m, &token(&created, "p")).await;
        let conceded = p
            .req(json!({"op": "act", "match": m, "action": {"type": "CONCEDE"}}))
            .await;
        assert_eq!(conceded["ok"], true, "{conceded}");
        assert_eq!(conceded["over"], true, "{conceded}");
    });
    // SIGTERM on SQLite: the graceful shutdown, exit status 0.
    let status = server.terminate(10);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

/// As `leases::sigterm_hands_the_matches_over_at_once`, with the author's binary: two
/// instances on one PostgreSQL database; SIGTERM to the first closes its sockets with
/// 1012, releases its leases, and the second serves the match at once.
fn sigterm_hands_the_matches_over() {
    let Some(db) = TempDb::postgres("author-term") else {
        return;
    };
    let flags = ["--lease-ms", "20000", "--log-format", "json"];
    let mut a = Server::start_command(author(), &db.path(), 0, &flags);
    let b = Server::start_command(author(), &db.path(), 0, &flags);
    let rt = runtime();
    rt.block_on(async {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::Message;
        let mut c = Client::connect(&a.addr).await;
        let created = create(&mut c, "rps", &["p", "q"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let mut p = common::hello(&a.addr, &m, &token(&created, "p")).await;
        let stopped = tokio::time::Instant::now();
        a.signal("TERM");
        let close = loop {
            match tokio::time::timeout(Duration::from_secs(10), p.ws.next())
                .await
                .expect("closed within 10 s")
            {
                Some(Ok(Message::Close(frame))) => break frame,
                Some(Ok(_)) => {}
                other => panic!("no close frame: {other:?}"),
            }
        };
        assert_eq!(close.map(|f| u16::from(f.code)), Some(1012));
        let (mut p, _) = until_ok(
            &b.addr,
            json!({"op": "hello", "match": m, "token": token(&created, "p")}),
            10,
            false,
        )
        .await;
        assert!(stopped.elapsed() < Duration::from_secs(10));
        let view = p.req(json!({"op": "view", "match": m})).await;
        assert_eq!(view["ok"], true, "{view}");
    });
    let status = a.terminate(10);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    // The crate's logs, in the format asked for.
    let log = a.stderr();
    let released = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|l| l["message"] == "leases released: the other instances take the matches over");
    assert!(released.is_some_and(|l| l["level"] == "INFO"), "{log}");
}
