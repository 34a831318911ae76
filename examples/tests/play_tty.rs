//! The terminal game as a person meets it: the real `play` binary in a pseudo-terminal
//! (a private tmux server), driven by typing keys and judged by what the screen shows —
//! never by the game's state. A person at seat 0 plays a whole game against a bot, types
//! wrong things, asks for the rules, backs out of conceding; another concedes.
//!
//! Needs `tmux` on the PATH (`.ci/run` installs it); without it the tests fail, loudly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// What the shell around `play` prints when it exits, before the status and `]`.
const EXITED: &str = "[play exited with status ";

/// How long any one wait for the screen may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// The `play` example, built for this test's profile: `cargo test --workspace` has built
/// it already (then this is a no-op), `cargo test --test play_tty` has not. Built for the
/// whole workspace, so that its dependencies have the features `cargo test --workspace`
/// gives them and nothing is compiled twice.
fn play_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    // target/<profile>/deps/play_tty-<hash>
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from target/<profile>/deps");
    let target_dir = profile_dir.parent().expect("target/<profile>");
    let profile = profile_dir
        .file_name()
        .and_then(|p| p.to_str())
        .expect("a profile directory");
    let profile = if profile == "debug" { "dev" } else { profile };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--workspace",
            "--example",
            "play",
            "--profile",
            profile,
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .arg("--target-dir")
        .arg(target_dir)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build --example play failed");
    let binary = profile_dir
        .join("examples")
        .join(format!("play{}", std::env::consts::EXE_SUFFIX));
    assert!(binary.exists(), "{} was not built", binary.display());
    binary
}

/// A private tmux server with one 120×50 pane running `play`; killed on drop.
struct Terminal {
    socket: PathBuf,
}

impl Terminal {
    /// Starts `play` with `args` in a new pane. The pane stays after `play` exits, so
    /// that its last screen and exit status can still be read.
    fn start(name: &str, args: &[&str]) -> Terminal {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("play-tty-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("tmux.conf");
        std::fs::write(
            &config,
            "set -g remain-on-exit on\nset -g history-limit 100000\n",
        )
        .unwrap();
        let terminal = Terminal {
            socket: dir.join("socket"),
        };
        let binary = play_binary();
        // A shell waits for `play` and prints its exit status on the screen, after
        // everything `play` wrote: the screen is all the test reads (tmux's own record of
        // a pane's exit is not always there when several servers run at once).
        let mut command = vec![
            "-f".to_owned(),
            config.display().to_string(),
            "new-session".to_owned(),
            "-d".to_owned(),
            "-x".to_owned(),
            "120".to_owned(),
            "-y".to_owned(),
            "50".to_owned(),
            "/bin/sh".to_owned(),
            "-c".to_owned(),
            format!("\"$0\" \"$@\"; echo \"{EXITED}$?]\""),
            binary.display().to_string(),
        ];
        command.extend(args.iter().map(|a| a.to_string()));
        let out = terminal.tmux(&command);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        terminal
    }

    /// Runs a tmux command against this server.
    fn tmux(&self, args: &[String]) -> Output {
        let run = Command::new("tmux")
            // UTF-8 whatever the locale: the screen is Korean.
            .arg("-u")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .env("LC_ALL", "C.UTF-8")
            .output();
        match run {
            Ok(out) => out,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
                "tmux is not installed: these tests drive the game in a real terminal \
                 (apt-get install -y tmux; .ci/run does it)"
            ),
            Err(e) => panic!("tmux: {e}"),
        }
    }

    /// Types `text` and presses Enter, as a person does.
    fn type_line(&self, text: &str) {
        if !text.is_empty() {
            let out = self.tmux(&["send-keys".into(), "-l".into(), text.into()]);
            assert!(out.status.success(), "{out:?}");
        }
        let out = self.tmux(&["send-keys".into(), "Enter".into()]);
        assert!(out.status.success(), "{out:?}");
    }

    /// Everything the pane has shown, scrolled-off lines included, one screen line each.
    fn history(&self) -> String {
        let out = self.tmux(&[
            "capture-pane".into(),
            "-p".into(),
            "-J".into(),
            "-S".into(),
            "-".into(),
        ]);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("the screen is UTF-8")
    }

    /// What the 50 rows of the pane show now.
    fn visible(&self) -> String {
        let out = self.tmux(&["capture-pane".into(), "-p".into(), "-J".into()]);
        String::from_utf8(out.stdout).expect("the screen is UTF-8")
    }

    /// `play`'s exit status once it has exited, from the line the wrapping shell prints.
    fn exit_status(screen: &str) -> Option<i32> {
        screen
            .lines()
            .find_map(|l| l.trim_end().strip_prefix(EXITED))
            .and_then(|rest| rest.strip_suffix(']'))
            .and_then(|code| code.parse().ok())
    }

    /// Waits for `play` to exit; returns the last screen and the exit status.
    fn wait_for_exit(&self) -> (String, i32) {
        let screen = self.wait_for("play to exit", |s| Self::exit_status(s).is_some());
        let status = Self::exit_status(&screen).expect("an exit status");
        (screen, status)
    }

    /// Polls the screen until `ready` holds for it, for at most [`PATIENCE`].
    fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.history();
            if ready(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for {what}; the screen:\n{}",
                tail(&screen, 60)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until `play` asks `prompt` more often than `before` times, or the game is
    /// over; returns the screen.
    fn wait_for_prompt(&self, prompt: &str, before: usize) -> String {
        self.wait_for(&format!("prompt {prompt:?} no. {}", before + 1), |s| {
            (prompts(s, prompt) > before && last_line(s) == prompt) || s.contains("결과(result): ")
        })
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        // Ends the server, the pane and anything still running in it. Quietly: this also
        // runs while a failed test unwinds, perhaps because tmux is missing.
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
    }
}

/// The last line of the screen that is not blank, without trailing spaces.
fn last_line(screen: &str) -> &str {
    screen
        .lines()
        .rev()
        .map(str::trim_end)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// How many lines begin with `prompt` (`P1>`): each is one time `play` asked.
fn prompts(screen: &str, prompt: &str) -> usize {
    screen.lines().filter(|l| l.starts_with(prompt)).count()
}

/// The last `n` lines of `screen`.
fn tail(screen: &str, n: usize) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The lines after the last one that starts with `prefix`.
fn after_last<'a>(screen: &'a str, prefix: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = screen.lines().map(str::trim_end).collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts with {prefix:?}"));
    lines[at + 1..]
        .iter()
        .copied()
        .filter(|l| !l.is_empty())
        .collect()
}

/// Types `line` at the `P1>` prompt and waits for the next one. Returns the screen.
fn answer(t: &Terminal, line: &str) -> String {
    let before = prompts(&t.history(), "P1>");
    t.type_line(line);
    t.wait_for_prompt("P1>", before)
}

/// The lines the person's `line` added to the screen, between the prompt it was typed
/// at and the next prompt; and a check that nothing above that prompt changed.
fn reply_to(t: &Terminal, line: &str) -> Vec<String> {
    let before = t.history();
    let after = answer(t, line);
    let kept = before.trim_end().strip_suffix("P1>").expect("at a prompt");
    assert!(
        after.starts_with(kept),
        "typing {line:?} changed the screen above the prompt:\n{}",
        tail(&after, 30)
    );
    let typed = format!("P1> {line}");
    let added: Vec<String> = after[kept.len()..]
        .lines()
        .map(|l| l.trim_end().to_owned())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(added.first().map(String::as_str), Some(typed.trim_end()));
    assert_eq!(added.last().map(String::as_str), Some("P1>"));
    added[1..added.len() - 1].to_vec()
}

/// Which phase the person's current prompt is for, from its heading.
fn heading(screen: &str) -> &str {
    screen
        .lines()
        .rev()
        .find(|l| l.starts_with("P1 차례 — "))
        .expect("a prompt heading")
}

/// The hint's number on the keys line of the current prompt, if it shows one.
fn hint(screen: &str) -> Option<String> {
    let keys = screen
        .lines()
        .rev()
        .find(|l| l.starts_with("  입력(type): "))?;
    let (_, rest) = keys.split_once("추천(hint) ")?;
    Some(rest.split_whitespace().next()?.to_owned())
}

#[test]
fn a_person_plays_a_whole_game_against_a_bot_by_typing() {
    let t = Terminal::start("whole", &["--fast", "--seed", "3", "--humans", "0"]);
    let screen = t.wait_for_prompt("P1>", 0);
    assert!(
        heading(&screen).contains("윷을 던지세요 (your throw)"),
        "{screen}"
    );
    assert!(screen.contains(
        "  입력(type): Enter = 윷 던지기(throw) · ? = 규칙·도움말(rules & help) · q = 기권(concede)"
    ));

    // Nonsense: the glossed message and the same prompt again, nothing else.
    let reply = reply_to(&t, "hello");
    assert_eq!(
        reply[0],
        "  ✗ 알 수 없는 입력이에요: \"hello\" (not understood) — 아래에서 골라 주세요 (see below)."
    );
    assert!(reply[1].starts_with("  입력(type): Enter = 윷 던지기(throw)"));
    assert_eq!(reply.len(), 2);

    // The rules in force fit on the screen together with the prompt after them.
    let reply = reply_to(&t, "?");
    assert!(reply[0].starts_with("규칙(rules in force)"), "{reply:?}");
    for row in [
        "  모드(mode) ",
        "  윷가락(sticks) ",
        "  순위(ranking) ",
        "  시간(turn seconds) ",
    ] {
        assert!(reply.iter().any(|l| l.starts_with(row)), "missing {row:?}");
    }
    let visible = t.visible();
    assert!(visible.contains("규칙(rules in force)") && last_line(&visible) == "P1>");

    // Throw, then a move the engine refuses: its message with the English gloss; the
    // move list stays what it was.
    let mut screen = answer(&t, "");
    while !heading(&screen).contains("움직일 수를 고르세요") {
        // (A nak or a turn without a move: throw again when asked.)
        screen = answer(&t, "");
    }
    let reply = reply_to(&t, "m 0 27");
    assert_eq!(
        reply[0],
        "  ✗ 그 말은 움직일 수 없어요. — that piece cannot move (CANNOT_MOVE)"
    );
    assert_eq!(reply.len(), 2);
    let reply = reply_to(&t, "9");
    assert!(
        reply[0].starts_with("  ✗ 목록에 없는 번호예요: 9. "),
        "{reply:?}"
    );
    assert!(reply[0].contains("(not on the list: pick 1"), "{reply:?}");

    // q asks first, and "no" goes on: the same prompt, the same moves.
    t.type_line("q");
    let asked = t.wait_for("the concede question", |s| {
        last_line(s) == "P1 기권?(concede?) y/n>"
    });
    assert_eq!(
        after_last(&asked, "P1> q"),
        [
            "  정말 기권할까요? 게임이 바로 끝나고 P2이(가) 이겨요.",
            "  (concede? the game ends now and P2 wins)",
            "  y = 예, 기권해요(yes, concede) · n 또는 Enter = 아니요, 계속해요(no, play on)",
            "P1 기권?(concede?) y/n>",
        ]
    );
    let prompts_before = prompts(&asked, "P1>");
    t.type_line("n");
    let screen = t.wait_for_prompt("P1>", prompts_before);
    assert_eq!(
        after_last(&screen, "P1 기권?(concede?) y/n> n")[0],
        "  기권하지 않았어요 — 계속해요 (not conceded; play on)"
    );
    assert!(!screen.contains("기권(conceded)"));

    // Then the whole game: Enter to throw, the hint's number to move.
    let mut screen = screen;
    let mut moves = 0;
    while !screen.contains("결과(result): ") {
        let head = heading(&screen);
        if head.contains("움직일 수를 고르세요") {
            let pick = hint(&screen).unwrap_or_else(|| "1".to_owned());
            screen = answer(&t, &pick);
            moves += 1;
        } else {
            assert!(head.contains("윷을 던지세요"), "{head}");
            screen = answer(&t, "");
        }
        assert!(moves < 500, "the game does not end");
    }
    let (end, status) = t.wait_for_exit();
    assert_eq!(status, 0);
    assert!(moves > 0, "P1 moved by number");
    let result = after_last(&end, "결과(result): ");
    assert!(end.contains("결과(result): P1 승리!") || end.contains("결과(result): P2 승리!"));
    assert!(result[0].starts_with("  1등  "), "{result:?}");
    assert!(result[1].starts_with("  2등  "), "{result:?}");
    // The last board: who finished, in the panel's words, and game over.
    assert!(end.contains("게임 끝(game over)"));
    assert!(
        end.contains("남(finished) ●●●●   4/4  1등")
            || end.contains("남(finished) ▲▲▲▲   4/4  1등")
    );
    assert!(end.contains("모두 남! 1등 (all pieces finished: place 1)"));
}

#[test]
fn q_then_yes_concedes() {
    let t = Terminal::start("concede", &["--fast", "--seed", "3", "--humans", "0"]);
    t.wait_for_prompt("P1>", 0);
    t.type_line("q");
    t.wait_for("the concede question", |s| {
        last_line(s) == "P1 기권?(concede?) y/n>"
    });
    t.type_line("yes");
    let (end, status) = t.wait_for_exit();
    assert_eq!(status, 0);
    assert!(
        end.contains("● P1 기권(conceded) — 탈락(out of the game)"),
        "{end}"
    );
    assert!(end.contains("결과(result): P2 승리! (상대 기권)"), "{end}");
}
