//! An author's JSON-lines host: a registry of the author's games and `cli::run`, nothing
//! else. It serves requests, and `--trace --game ID` traces any of its games (Pig here,
//! not a built-in game) exactly as the library's `trace` does.
//!
//! This test is its own author binary (`harness = false` in Cargo.toml): cargo builds it
//! before running it, so the binary checked is never stale. Run with [`AUTHOR`] set it is
//! the author's `main`; run by `cargo test` it starts itself so and checks it.

use std::io::Write;
use std::process::{Command, ExitCode, Output, Stdio};

use game_core::{Erased, Registry, rps::Rps};
use game_host::trace::{TraceConfig, trace};
use serde_json::{Value, json};

/// Set in the environment of the copies of this binary that are the author's host.
const AUTHOR: &str = "GAME_HOST_AUTHOR_HOST";

fn registry() -> Registry {
    let mut games = Registry::new();
    games
        .register(Erased(pig::Pig).with_bot("hold", |_| pig::HoldBot::default()))
        .unwrap()
        .register(Erased(Rps))
        .unwrap();
    games
}

fn main() -> ExitCode {
    if std::env::var_os(AUTHOR).is_some() {
        // The author's `main`, as the crate's docs show it.
        return game_host::cli::run(registry());
    }
    let tests: [(&str, fn()); 4] = [
        ("trace_of_an_authors_game", trace_of_an_authors_game),
        ("refusals", refusals),
        ("serves_requests", serves_requests),
        ("help_lists_the_trace_flags", help_lists_the_trace_flags),
    ];
    for (name, test) in tests {
        test();
        println!("test {name} ... ok");
    }
    ExitCode::SUCCESS
}

/// Runs this binary as the author's host with `args` and `stdin`.
fn host(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(AUTHOR, "1")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn trace_of_an_authors_game() {
    let out = host(
        &[
            "--trace",
            "--game",
            "pig",
            "--games",
            "3",
            "--seed",
            "7",
            "--players",
            "3",
            "--timeouts",
            "10",
            "--illegal",
            "10",
            "--bot",
            "hold",
            "--options",
            r#"{"target":40}"#,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let config = TraceConfig {
        games: 3,
        seed: 7,
        players: 3,
        timeouts: 10,
        illegal: 10,
        bot: Some("hold".into()),
        options: Some(json!({"target": 40})),
        ..TraceConfig::new("pig")
    };
    let mut expected = Vec::new();
    trace(&registry(), &config, &mut expected).unwrap();
    assert_eq!(text(&out.stdout), text(&expected));
    let first: Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["setup"]["game"], "pig");
}

fn refusals() {
    // A game the registry does not hold: the engine's code, exit status 2.
    let out = host(&["--trace", "--game", "liars-dice"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("UNKNOWN_GAME"), "{out:?}");
    // Two games and none named.
    let out = host(&["--trace"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("pig, rps"), "{out:?}");
    // A trace flag without --trace.
    let out = host(&["--game", "pig"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--game needs --trace"),
        "{out:?}"
    );
    let out = host(&["--trace", "--game", "pig", "--options", "[1]"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("BAD_OPTIONS"), "{out:?}");
}

fn serves_requests() {
    let out = host(
        &[],
        concat!(
            r#"{"id":1,"op":"games"}"#,
            "\n",
            r#"{"id":2,"op":"create","game":"pig","players":["a","b"],"seed":3}"#,
            "\n",
        ),
    );
    assert!(out.status.success(), "{out:?}");
    let replies: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies[0]["games"], json!(["pig", "rps"]));
    assert_eq!(replies[1]["ok"], true, "{}", replies[1]);
}

fn help_lists_the_trace_flags() {
    let out = host(&["--help"], "");
    assert!(out.status.success());
    let help = text(&out.stdout);
    for flag in [
        "--trace",
        "--max-line",
        "--games",
        "--seed",
        "--players",
        "--game",
        "--options",
        "--timeouts",
        "--illegal",
        "--bot",
    ] {
        let listed = help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n"));
        assert!(listed, "{flag}:\n{help}");
    }
}
