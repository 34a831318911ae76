//! Trace mode (`host --trace`): every line parses, games start with their setup, the view
//! is the next actor's, refused actions leave the view unchanged, output is deterministic.

use clap::Parser;
use examples::trace::{TraceArgs, trace};
use serde_json::Value;

fn run(args: &[&str]) -> String {
    let args = TraceArgs::parse_from(std::iter::once("trace").chain(args.iter().copied()));
    let mut out = Vec::new();
    trace(&args, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The games of a trace: each a setup line and the lines after it.
fn games(lines: &[Value]) -> Vec<(Value, Vec<Value>)> {
    let mut games: Vec<(Value, Vec<Value>)> = Vec::new();
    for line in lines {
        if let Some(setup) = line.get("setup") {
            games.push((setup.clone(), Vec::new()));
        } else {
            games
                .last_mut()
                .expect("a setup line comes first")
                .1
                .push(line.clone());
        }
    }
    games
}

const ILLEGAL_CODES: [&str; 8] = [
    "NOT_YOUR_TURN",
    "NOT_THROW_PHASE",
    "NOT_MOVE_PHASE",
    "UNKNOWN_THROW_INDEX",
    "CANNOT_MOVE",
    "BACKDO_FROM_HOME",
    // With the augment layer: a draft choice outside the draft, or past the candidates.
    "WRONG_PHASE",
    "UNKNOWN_CANDIDATE",
];

/// Checks the invariants of one game's lines and returns (applied, auto, refused) counts.
fn check_game(setup: &Value, body: &[Value]) -> (usize, usize, usize) {
    // `yut` has the ten base options; `yut-augments` adds `augments`, `cushion`, `truce`.
    let fields = match setup["game"].as_str().unwrap() {
        "yut" => 10,
        "yut-augments" => 13,
        other => panic!("unexpected game {other}"),
    };
    assert_eq!(
        setup["options"].as_object().unwrap().len(),
        fields,
        "{setup}"
    );
    let players: Vec<&str> = setup["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(setup["seed"].is_u64());
    assert!(!body.is_empty());
    let (mut applied, mut auto, mut refused) = (0, 0, 0);
    let mut previous_view: Option<&Value> = None;
    let mut expected_actor: Option<String> = None;
    for line in body {
        let player = line["player"].as_str().unwrap();
        assert!(players.contains(&player));
        assert!(line["action"]["type"].is_string(), "{line}");
        let view = &line["view"];
        assert!(view.is_object());
        assert!(view.get("rng").is_none() && view.get("seed").is_none());
        if let Some(error) = line.get("error") {
            refused += 1;
            assert!(line.get("events").is_none());
            let code = error["code"].as_str().unwrap();
            assert!(ILLEGAL_CODES.contains(&code), "{code}");
            assert!(!error["message"].as_str().unwrap().is_empty());
            if let Some(prev) = previous_view {
                assert_eq!(view, prev, "a refused action changes nothing");
            }
            continue;
        }
        applied += 1;
        if line.get("auto") == Some(&Value::Bool(true)) {
            auto += 1;
        } else {
            assert!(line.get("auto").is_none());
        }
        if let Some(actor) = &expected_actor {
            assert_eq!(player, actor, "the view was the next actor's");
        }
        assert!(!line["events"].as_array().unwrap().is_empty());
        match view["phase"].as_str().unwrap() {
            "finished" => {
                assert!(view["turn"].is_null());
                assert!(view.get("legalMoves").is_none());
                assert!(view["result"].is_object());
                expected_actor = None;
            }
            phase => {
                let actor = view["turn"]["player"].as_str().unwrap().to_owned();
                if phase == "move" {
                    assert!(!view["legalMoves"].as_array().unwrap().is_empty(), "{view}");
                } else {
                    assert!(view.get("legalMoves").is_none());
                }
                // The draft is in the view exactly in the rule phase.
                if fields == 13 {
                    assert_eq!(phase == "rule", !view["draft"].is_null(), "{view}");
                }
                expected_actor = Some(actor);
            }
        }
        previous_view = Some(view);
    }
    let last = body.last().unwrap();
    assert_eq!(
        last["view"]["phase"], "finished",
        "each game is played to its end"
    );
    (applied, auto, refused)
}

#[test]
fn lines_are_well_formed_with_illegal_actions_and_timeouts() {
    let text = run(&[
        "--games",
        "4",
        "--seed",
        "11",
        "--illegal",
        "15",
        "--timeouts",
        "15",
    ]);
    let all = lines(&text);
    assert!(all[0].get("setup").is_some(), "the setup line comes first");
    let games = games(&all);
    assert_eq!(games.len(), 4);
    let (mut auto, mut refused) = (0, 0);
    for (i, (setup, body)) in games.iter().enumerate() {
        assert_eq!(setup["seed"], 11 + i as u64);
        let (_, a, r) = check_game(setup, body);
        auto += a;
        refused += r;
    }
    assert!(auto > 0, "some decisions were left to the engine");
    assert!(refused > 0, "some illegal actions were sent");
}

#[test]
fn plain_trace_has_no_errors_or_auto_lines() {
    let text = run(&["--games", "2"]);
    assert!(!text.contains("\"error\""));
    assert!(!text.contains("\"auto\""));
    for (setup, body) in games(&lines(&text)) {
        let (applied, auto, refused) = check_game(&setup, &body);
        assert!(applied > 10);
        assert_eq!((auto, refused), (0, 0));
    }
}

#[test]
fn every_decision_can_be_illegal_first_or_left_to_the_engine() {
    let text = run(&[
        "--games",
        "1",
        "--seed",
        "3",
        "--illegal",
        "100",
        "--timeouts",
        "100",
    ]);
    let games = games(&lines(&text));
    let (applied, auto, refused) = check_game(&games[0].0, &games[0].1);
    assert_eq!(applied, auto, "every action was a timeout action");
    assert!(
        refused * 10 >= applied * 9,
        "nearly every decision began with a refusal"
    );
}

#[test]
fn the_same_arguments_give_the_same_bytes() {
    let args = [
        "--games",
        "3",
        "--seed",
        "77",
        "--illegal",
        "10",
        "--timeouts",
        "10",
        "--bot",
        "random",
    ];
    assert_eq!(run(&args), run(&args));
    let other = [
        "--games",
        "3",
        "--seed",
        "78",
        "--illegal",
        "10",
        "--timeouts",
        "10",
        "--bot",
        "random",
    ];
    assert_ne!(run(&args), run(&other));
}

#[test]
fn options_presets_modes_and_bots() {
    let text = run(&[
        "--options",
        r#"{"nakPercent":10,"pieces":2,"turnSeconds":null}"#,
        "--timeouts",
        "30",
    ]);
    let first = games(&lines(&text));
    let options = &first[0].0["options"];
    assert_eq!(options["nakPercent"], 10);
    assert_eq!(options["pieces"], 2);
    assert_eq!(options["stickModel"], "realistic");
    assert!(options["turnSeconds"].is_null());
    let (_, auto, _) = check_game(&first[0].0, &first[0].1);
    assert!(
        auto > 0,
        "without a time limit the grace period runs out instead"
    );

    let text = run(&["--preset", "app", "--game", "yut"]);
    let games_ = games(&lines(&text));
    assert_eq!(games_[0].0["game"], "yut");
    assert_eq!(games_[0].0["options"]["stickModel"], "fair");
    assert_eq!(games_[0].0["options"]["backdoFromDo"], "home");
    assert!(!text.contains("CHOOSE_AUGMENT"));
    check_game(&games_[0].0, &games_[0].1);

    let text = run(&[
        "--mode",
        "team",
        "--players",
        "6",
        "--bot",
        "random",
        "--illegal",
        "20",
    ]);
    let games_ = games(&lines(&text));
    assert_eq!(games_[0].0["options"]["mode"], "team");
    assert_eq!(games_[0].0["players"].as_array().unwrap().len(), 6);
    check_game(&games_[0].0, &games_[0].1);

    let text = run(&[
        "--players",
        "4",
        "--options",
        r#"{"ranking":"all"}"#,
        "--illegal",
        "20",
    ]);
    let games_ = games(&lines(&text));
    check_game(&games_[0].0, &games_[0].1);
}

#[test]
fn refused_setups_are_typed_errors_with_exit_code_2() {
    for args in [
        vec!["trace", "--players", "5"],
        vec!["trace", "--mode", "team", "--players", "5"],
        vec!["trace", "--options", r#"{"pieces":9}"#],
        vec!["trace", "--options", "not json"],
        vec!["trace", "--options", r#"{"bogus":true}"#],
        // serde's derive would read an array field by field: an options object only.
        vec!["trace", "--options", r#"["team",2]"#],
        vec!["trace", "--game", "yut-augments", "--options", "[]"],
        // Within the flag's range, past every game's count: the engine's typed error.
        vec!["trace", "--players", "255"],
        // The layer's fields belong to `yut-augments`, and a pack lists an augment once.
        vec!["trace", "--options", r#"{"cushion":true}"#],
        vec![
            "trace",
            "--game",
            "yut-augments",
            "--options",
            r#"{"augments":["do-echo","do-echo"]}"#,
        ],
        vec![
            "trace",
            "--preset",
            "app",
            "--options",
            r#"{"augments":["wings"]}"#,
        ],
    ] {
        let parsed = TraceArgs::parse_from(&args);
        let mut out = Vec::new();
        let err = trace(&parsed, &mut out).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{args:?}");
        assert!(out.is_empty());
        let text = err.to_string();
        assert!(text.starts_with("오류 ["), "{text}");
    }
    let err = trace(
        &TraceArgs::parse_from(["trace", "--players", "5"]),
        Vec::new(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("BAD_PLAYER_COUNT"));
    assert!(TraceArgs::try_parse_from(["trace", "--illegal", "101"]).is_err());
    // A count past the flag's range is refused before any id is made (it overflowed the
    // list's capacity, or tried to allocate 96 GB).
    for count in ["0", "256", "4000000000", "18446744073709551615"] {
        assert!(
            TraceArgs::try_parse_from(["trace", "--players", count]).is_err(),
            "{count}"
        );
    }
}

#[test]
fn the_app_preset_plays_the_augment_layer_with_its_draft_in_the_lines() {
    let text = run(&[
        "--preset",
        "app",
        "--games",
        "3",
        "--seed",
        "21",
        "--illegal",
        "15",
        "--timeouts",
        "15",
        "--bot",
        "random",
    ]);
    let all = lines(&text);
    let played = games(&all);
    assert_eq!(played.len(), 3);
    let (mut chosen, mut fired, mut refused) = (0, 0, 0);
    let mut codes = std::collections::BTreeSet::new();
    for (setup, body) in &played {
        assert_eq!(setup["game"], "yut-augments");
        let options = &setup["options"];
        assert_eq!(
            options,
            &serde_json::to_value(yut_augments::app_options()).unwrap()
        );
        let (_, _, r) = check_game(setup, body);
        refused += r;
        for line in body {
            if let Some(error) = line.get("error") {
                codes.insert(error["code"].as_str().unwrap().to_owned());
                continue;
            }
            if line["action"]["type"] == "CHOOSE_AUGMENT" {
                chosen += 1;
                assert!(line["action"]["index"].as_u64().unwrap() < 3);
                let events = line["events"].as_array().unwrap();
                assert_eq!(events[0]["type"], "augmentChosen", "{line}");
            }
            fired += line["events"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["type"] == "augmentFired")
                .count();
        }
    }
    // Each side drafts at its 1st turn at least: two per game.
    assert!(chosen >= 6, "{chosen} drafts");
    assert!(fired > 0, "augments fired");
    assert!(refused > 0);
    assert!(
        codes.contains("UNKNOWN_CANDIDATE") || codes.contains("WRONG_PHASE"),
        "{codes:?}"
    );

    // The same arguments give the same bytes; `--game yut-augments` is the same game.
    let again = run(&[
        "--game",
        "yut-augments",
        "--preset",
        "app",
        "--games",
        "3",
        "--seed",
        "21",
        "--illegal",
        "15",
        "--timeouts",
        "15",
        "--bot",
        "random",
    ]);
    assert_eq!(text, again);

    // A pack of one's own through `--options`, in team mode.
    let text = run(&[
        "--game",
        "yut-augments",
        "--options",
        r#"{"stickModel":"fair","augments":["second-look","yut-leap"],"cushion":false}"#,
        "--mode",
        "team",
        "--illegal",
        "20",
    ]);
    let games_ = games(&lines(&text));
    let options = &games_[0].0["options"];
    assert_eq!(
        options["augments"],
        serde_json::json!(["second-look", "yut-leap"])
    );
    assert_eq!(
        (options["cushion"].clone(), options["truce"].clone()),
        (Value::Bool(false), Value::Bool(true))
    );
    assert_eq!(options["mode"], "team");
    check_game(&games_[0].0, &games_[0].1);
    assert!(text.contains("CHOOSE_AUGMENT"));
}

#[test]
fn any_registered_game_plays_through_the_erased_layer() {
    let args = [
        "--game",
        "one-card",
        "--games",
        "4",
        "--seed",
        "3",
        "--players",
        "4",
        "--illegal",
        "15",
        "--timeouts",
        "15",
    ];
    let text = run(&args);
    assert_eq!(text, run(&args), "the same arguments give the same bytes");
    let games_ = games(&lines(&text));
    assert_eq!(games_.len(), 4);
    let (mut auto, mut refused) = (0, 0);
    for (setup, body) in &games_ {
        assert_eq!(setup["game"], "one-card");
        // The record's options: the defaults filled in.
        assert_eq!(setup["options"]["handSize"], 7, "{setup}");
        let players: Vec<&str> = setup["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(players, ["p1", "p2", "p3", "p4"]);
        for line in body {
            assert!(
                players.contains(&line["player"].as_str().unwrap()),
                "{line}"
            );
            assert!(line["action"]["type"].is_string(), "{line}");
            assert!(line["view"].is_object(), "{line}");
            if let Some(error) = line.get("error") {
                refused += 1;
                let code = error["code"].as_str().unwrap();
                assert!(["NOT_YOUR_TURN", "OUT_OF_GAME"].contains(&code), "{line}");
                continue;
            }
            auto += usize::from(line["auto"] == true);
            // A draw is shown as its drawer sees it: the cards, not their count.
            for e in line["events"].as_array().unwrap() {
                if e["type"] == "drew" && e["player"] == line["player"] {
                    assert!(e["cards"].is_array() && e.get("count").is_none(), "{e}");
                }
            }
        }
        let last = body.last().unwrap();
        assert!(last["view"]["turn"].is_null(), "the game ended: {last}");
    }
    assert!(auto > 0 && refused > 0, "auto {auto}, refused {refused}");

    let rps = run(&["--game", "rps", "--games", "3", "--timeouts", "30"]);
    let rps_games = games(&lines(&rps));
    assert_eq!(rps_games.len(), 3);
    for (setup, body) in &rps_games {
        assert_eq!(setup["game"], "rps");
        assert_eq!(setup["options"]["winsNeeded"], 3, "{setup}");
        assert!(body.iter().all(|l| l["action"]["type"].is_string()));
    }
}

#[test]
fn another_game_refuses_what_is_yuts_and_bots_it_has_not() {
    for args in [
        vec!["trace", "--game", "one-card", "--mode", "team"],
        vec!["trace", "--game", "one-card", "--bot", "strong"],
        vec!["trace", "--game", "rps", "--bot", "policy"],
        vec!["trace", "--game", "one-card", "--players", "6"],
        vec![
            "trace",
            "--game",
            "one-card",
            "--options",
            r#"{"handSize":3}"#,
        ],
        vec!["trace", "--game", "one-card", "--options", "[]"],
    ] {
        let mut out = Vec::new();
        let err = trace(&TraceArgs::parse_from(&args), &mut out).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.to_string().starts_with("오류 ["), "{err}");
    }
    assert!(TraceArgs::try_parse_from(["trace", "--game", "chess"]).is_err());
}
