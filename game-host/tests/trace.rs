//! Trace mode over a registry of an author's games: Pig, which is not a built-in game,
//! traced by its id beside another game, with its own bots, timeouts (with and without a
//! time limit) and refused actions; the same config gives the same bytes.

use game_core::{Erased, Registry, rps::Rps};
use game_host::trace::{TraceConfig, TraceError, trace};
use serde_json::{Value, json};

/// What an author registers: their game with its bots, beside another.
fn registry() -> Registry {
    let mut games = Registry::new();
    games
        .register(Erased(pig::Pig).with_bot("hold", |_| pig::HoldBot::default()))
        .unwrap()
        .register(Erased(Rps))
        .unwrap();
    games
}

fn run(config: &TraceConfig) -> String {
    let mut out = Vec::new();
    trace(&registry(), config, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The counts of (setup, applied, auto, refused) lines, checking each line's shape.
fn counts(lines: &[Value]) -> (usize, usize, usize, usize) {
    let (mut setups, mut applied, mut auto, mut refused) = (0, 0, 0, 0);
    for line in lines {
        if let Some(setup) = line.get("setup") {
            assert_eq!(setup["game"], "pig", "{line}");
            setups += 1;
            continue;
        }
        assert!(
            line["player"].is_string() && line["view"].is_object(),
            "{line}"
        );
        assert!(line["action"]["type"].is_string(), "{line}");
        if let Some(error) = line.get("error") {
            // A seat that may not act sent the actor's legal action.
            assert_eq!(error["code"], "NOT_YOUR_TURN", "{line}");
            refused += 1;
        } else {
            assert!(line["events"].is_array(), "{line}");
            applied += 1;
            if line.get("auto") == Some(&json!(true)) {
                auto += 1;
            }
        }
    }
    (setups, applied, auto, refused)
}

#[test]
fn an_authors_game_is_traced_by_its_id() {
    let config = TraceConfig {
        games: 4,
        seed: 11,
        players: 3,
        timeouts: 20,
        illegal: 20,
        options: Some(json!({"target": 30})),
        ..TraceConfig::new("pig")
    };
    let text = run(&config);
    let all = lines(&text);
    let (setups, applied, auto, refused) = counts(&all);
    assert_eq!(setups, 4);
    assert!(
        applied > 20 && auto > 0 && refused > 0,
        "{applied} {auto} {refused}"
    );
    let setup = &all[0]["setup"];
    assert_eq!(setup["seed"], 11);
    assert_eq!(setup["players"], json!(["p1", "p2", "p3"]));
    // The full options: the field left out at its default.
    assert_eq!(setup["options"], json!({"target": 30, "turnSeconds": 30}));
    // Each game ends: its last line's view is the spectator's of a finished game.
    let last = &all.last().unwrap()["view"];
    assert!(last["winner"].is_u64() && last["you"].is_null(), "{last}");
    // Deterministic: the same config, the same bytes.
    assert_eq!(run(&config), text);
}

/// With no time limit a timeout is a disconnect: the player is away until the grace has
/// run out, the engine acts for them, and they come back.
#[test]
fn without_a_time_limit_the_timeouts_are_disconnects() {
    let config = TraceConfig {
        games: 3,
        timeouts: 50,
        options: Some(json!({"target": 20, "turnSeconds": null})),
        bot: Some("hold".into()),
        ..TraceConfig::new("pig")
    };
    let all = lines(&run(&config));
    let (_, _, auto, _) = counts(&all);
    assert!(auto > 0);
    assert_eq!(all[0]["setup"]["options"]["turnSeconds"], Value::Null);
}

#[test]
fn refusals_are_the_setups() {
    let refused = |config: &TraceConfig| match trace(&registry(), config, Vec::new()) {
        Err(e @ TraceError::Setup(_)) => {
            assert_eq!(e.exit_code(), 2);
            e.to_string()
        }
        other => panic!("{other:?}"),
    };
    assert!(refused(&TraceConfig::new("yut")).contains("UNKNOWN_GAME"));
    let bot = TraceConfig {
        bot: Some("strong".into()),
        ..TraceConfig::new("pig")
    };
    assert!(refused(&bot).contains("UNKNOWN_BOT"));
    let players = TraceConfig {
        players: 9,
        ..TraceConfig::new("pig")
    };
    assert!(refused(&players).starts_with("오류 ["));
}
