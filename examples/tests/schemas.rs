//! The schema files cannot drift from the data: the `schema` example's files (written by
//! `examples::schema::write_schemas`, read back from disk) validate every option set,
//! action, event, view (each player's and the spectator's) and outcome of random games of
//! every registered game (`yut`, `yut-augments` with its draft choices, augment events
//! and layer view, `rps`), and the error bodies of refused actions, with the `jsonschema`
//! crate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use examples::schema::{TYPES, write_schemas};
use game_core::{DynMatch, GameError, GameRng, HostError};
use jsonschema::Validator;
use serde_json::{Value, json};

/// The schemas of one game, compiled.
struct Schemas(BTreeMap<&'static str, Validator>);

impl Schemas {
    fn load(dir: &Path, game: &str) -> Self {
        Self(
            TYPES
                .iter()
                .map(|&ty| {
                    let path = dir.join(game).join(format!("{ty}.json"));
                    let text = std::fs::read_to_string(&path)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    let schema: Value = serde_json::from_str(&text).unwrap();
                    let validator = jsonschema::validator_for(&schema)
                        .unwrap_or_else(|e| panic!("{}: not a valid schema: {e}", path.display()));
                    (ty, validator)
                })
                .collect(),
        )
    }

    /// Asserts that `value` is a valid `ty`; returns 1 for counting.
    fn check(&self, ty: &str, value: &Value, context: &str) -> usize {
        let errors: Vec<String> = self.0[ty]
            .iter_errors(value)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(
            errors.is_empty(),
            "{context}: {ty} does not match its schema:\n{}\n{value}",
            errors.join("\n")
        );
        1
    }
}

/// A fresh directory under the test target's temporary directory.
fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Option sets and player counts to play each game with.
fn setups(game: &str, default: &Value) -> Vec<(Value, usize)> {
    match game {
        "yut" => vec![
            (default.clone(), 2),
            (serde_json::to_value(yut::Preset::App.options()).unwrap(), 3),
            (
                json!({"mode": "team", "nakPercent": 10, "turnSeconds": null}),
                4,
            ),
            (
                json!({"pieces": 2, "finishRule": "reach", "backdoFromDo": "finish", "ranking": "all"}),
                4,
            ),
        ],
        "yut-augments" => vec![
            // The default: the standard base options with the whole pack.
            (default.clone(), 2),
            // The `app` preset with the whole layer.
            (
                serde_json::to_value(yut_augments::app_options()).unwrap(),
                3,
            ),
            (
                json!({"mode": "team", "stickModel": "fair", "turnSeconds": null, "truce": false}),
                4,
            ),
            (
                json!({"pieces": 2, "finishRule": "reach", "augments": ["low-threshold", "second-look", "twin-entry"], "cushion": false}),
                2,
            ),
            (
                serde_json::to_value(yut_augments::plain_options(yut::Preset::App)).unwrap(),
                2,
            ),
        ],
        "rps" => vec![
            (default.clone(), 2),
            (json!({"winsNeeded": 1, "turnSeconds": null}), 2),
        ],
        _ => vec![(default.clone(), 2)],
    }
}

/// Values of the wire types that each game's schemas must refuse (typos, values outside
/// the options' sets, nullable fields left out).
fn refused(game: &str) -> Vec<(&'static str, Value)> {
    let view = || {
        let m = game_host::registry()
            .create(game, &json!({}), vec!["p1".into(), "p2".into()], Some(1), 0)
            .unwrap();
        m.view(Some("p1")).unwrap()
    };
    let without = |field: &str| {
        let mut v = view();
        v.as_object_mut().unwrap().remove(field).unwrap();
        ("view", v)
    };
    match game {
        "yut" | "yut-augments" => vec![
            ("action", json!({"type": "THORW"})),
            (
                "action",
                json!({"type": "MOVE", "throwIndex": 0, "form": "home"}),
            ),
            ("action", json!({"type": "THROW", "force": "mo"})),
            ("options", json!({"nakPercent": 7})),
            ("options", json!({"pieces": 9})),
            ("options", json!({"turnSeconds": 45})),
            ("options", json!({"pieces": 3, "wings": true})),
            without("lastThrow"),
            without("turn"),
            without("deadlineAt"),
            without("result"),
        ],
        "rps" => vec![
            ("action", json!({"type": "PICK", "hand": "rok"})),
            ("options", json!({"winsNeeded": 10})),
            ("options", json!({"turnSeconds": 4})),
            without("lastRound"),
        ],
        _ => Vec::new(),
    }
}

/// Counts of what was validated.
#[derive(Default, Debug)]
struct Counts {
    options: usize,
    actions: usize,
    events: usize,
    views: usize,
    outcomes: usize,
    /// Error bodies of refused actions.
    errors: usize,
    /// `CHOOSE_AUGMENT` actions and views with a draft.
    drafts: usize,
    /// `augmentOffered`, `augmentChosen` and `augmentFired` events.
    augment_events: usize,
}

fn check_views(m: &dyn DynMatch, players: &[String], s: &Schemas, n: &mut Counts, ctx: &str) {
    for p in players {
        let view = m.view(Some(p)).unwrap();
        n.drafts += usize::from(view.get("draft").is_some_and(|d| !d.is_null()));
        n.views += s.check("view", &view, ctx);
    }
    n.views += s.check("view", &m.view(None).unwrap(), ctx);
}

fn check_error(e: &HostError, s: &Schemas, n: &mut Counts, ctx: &str) {
    let body = serde_json::to_value(e.body()).unwrap();
    n.errors += s.check("error", &body, ctx);
}

/// Counts the augment layer's events among `events`.
fn count_layer(events: &[Value], n: &mut Counts) {
    n.augment_events += events
        .iter()
        .filter(|e| e["type"].as_str().is_some_and(|t| t.starts_with("augment")))
        .count();
}

/// Plays one random game through the erased layer, validating everything on the way.
fn play_random(game: &str, options: Value, count: usize, seed: u64, s: &Schemas, n: &mut Counts) {
    let registry = game_host::registry();
    let players: Vec<String> = (1..=count).map(|i| format!("p{i}")).collect();
    let ctx = format!("{game} seed {seed} options {options}");
    n.options += s.check("options", &options, &ctx);
    let mut m = registry
        .create(game, &options, players.clone(), Some(seed), 0)
        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let mut rng = GameRng::from_seed(seed ^ 0xABCD);
    let mut now = 0;
    check_views(m.as_ref(), &players, s, n, &ctx);
    // Refused requests: an unknown action (the erased layer's error), a spectator acting
    // (the framework's).
    for (player, action) in [
        ("p1", json!({"type": "NOT_AN_ACTION"})),
        ("nobody", json!({"type": "CONCEDE"})),
    ] {
        let e = m.act(player, action, None, now).result.unwrap_err();
        check_error(&e, s, n, &ctx);
    }
    for _ in 0..20_000 {
        if m.outcome().is_some() {
            break;
        }
        now += 1_000;
        // Now and then let the engine act for a player whose time is up.
        if rng.below(10) == 0
            && let Some(deadline) = m.deadline()
        {
            now = now.max(deadline);
            for applied in m.tick(now) {
                n.actions += s.check("action", &applied.action, &ctx);
                for e in &applied.events {
                    n.events += s.check("event", e, &ctx);
                }
                count_layer(&applied.events, n);
            }
            check_views(m.as_ref(), &players, s, n, &ctx);
            continue;
        }
        // Now and then a seat that is not to act tries the first legal action of one that is
        // (the game's own refusal).
        let to_act = m.to_act();
        if rng.below(10) == 0
            && let Some(first) = to_act.first()
            && let Some(idle) = players.iter().find(|p| !to_act.contains(p))
            && let Some(action) = m
                .legal_actions(first)
                .unwrap()
                .into_iter()
                .find(|a| a["type"] != "CONCEDE")
        {
            let e = m.act(idle, action, None, now).result.unwrap_err();
            check_error(&e, s, n, &ctx);
        }
        for player in to_act {
            let legal = m.legal_actions(&player).unwrap();
            for a in &legal {
                n.actions += s.check("action", a, &ctx);
            }
            // Conceding is rare, so that games mostly run to their end.
            let mut pick = legal[rng.below(legal.len() as u32) as usize].clone();
            if pick["type"] == "CONCEDE"
                && rng.below(40) != 0
                && let Some(other) = legal.iter().find(|a| a["type"] != "CONCEDE")
            {
                pick = other.clone();
            }
            let events = m
                .act(&player, pick, None, now)
                .result
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
            for e in &events {
                n.events += s.check("event", e, &ctx);
            }
            count_layer(&events, n);
            check_views(m.as_ref(), &players, s, n, &ctx);
            if m.outcome().is_some() {
                break;
            }
        }
    }
    let outcome = m.outcome().unwrap_or_else(|| panic!("{ctx}: no end"));
    n.outcomes += s.check("outcome", &outcome, &ctx);
}

#[test]
fn schema_files_validate_real_data_of_every_game() {
    let dir = out_dir("schemas");
    let files = write_schemas(&game_host::registry(), &dir).unwrap();
    let registry = game_host::registry();
    let ids: Vec<&str> = registry.ids().collect();
    let host = examples::schema::host_schemas().len();
    assert_eq!(files.len(), ids.len() * TYPES.len() + host);
    for id in &ids {
        let schemas = Schemas::load(&dir, id);
        // The schemas do refuse things: an unknown action, an empty view.
        assert!(!schemas.0["action"].is_valid(&json!({"type": "NOT_AN_ACTION"})));
        assert!(!schemas.0["view"].is_valid(&json!({})));
        assert!(!schemas.0["outcome"].is_valid(&json!(42)));
        assert!(!schemas.0["event"].is_valid(&json!({"type": "movd"})));
        assert!(!schemas.0["error"].is_valid(&json!({"code": "GAME_OVER"})));
        // Closed objects: a real view with one field more is refused.
        let m = registry
            .create(id, &json!({}), vec!["p1".into(), "p2".into()], Some(1), 0)
            .unwrap();
        let mut view = m.view(None).unwrap();
        assert!(schemas.0["view"].is_valid(&view));
        view["extra"] = json!(1);
        assert!(!schemas.0["view"].is_valid(&view));
        for (ty, refused) in refused(id) {
            assert!(!schemas.0[ty].is_valid(&refused), "{id}: {ty} {refused}");
        }
        let default = registry.get(id).unwrap().default_options();
        let mut n = Counts::default();
        for (k, (options, count)) in setups(id, &default).into_iter().enumerate() {
            for g in 0..3 {
                play_random(
                    id,
                    options.clone(),
                    count,
                    100 * k as u64 + g,
                    &schemas,
                    &mut n,
                );
            }
        }
        assert!(
            n.options > 0
                && n.actions > 0
                && n.events > 0
                && n.views > 0
                && n.outcomes > 0
                && n.errors > 0,
            "{id}: {n:?}"
        );
        if *id == "yut-augments" {
            // The layer's own data went through the schemas too.
            assert!(n.drafts > 0 && n.augment_events > 0, "{id}: {n:?}");
            assert!(!schemas.0["action"].is_valid(&json!({"type": "CHOOSE_AUGMENT"})));
            assert!(!schemas.0["options"].is_valid(&json!({"augments": ["wings"]})));
        }
        eprintln!("{id}: validated {n:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schema_files_are_the_engine_s_schemas_byte_for_byte_and_reproducible() {
    let (a, b) = (out_dir("schemas-a"), out_dir("schemas-b"));
    let fa = write_schemas(&game_host::registry(), &a).unwrap();
    let fb = write_schemas(&game_host::registry(), &b).unwrap();
    assert_eq!(fa.len(), fb.len());
    let registry = game_host::registry();
    for (pa, pb) in fa.iter().zip(&fb) {
        let (ta, tb) = (
            std::fs::read_to_string(pa).unwrap(),
            std::fs::read_to_string(pb).unwrap(),
        );
        assert_eq!(ta, tb, "{}", pa.display());
        assert!(ta.ends_with("}\n"));
        // DIR/GAME/TYPE.json holds exactly what DynGame::schemas gives.
        // DIR/host/NAME.json the host protocol's.
        let game = pa.parent().unwrap().file_name().unwrap().to_str().unwrap();
        let ty = pa.file_stem().unwrap().to_str().unwrap();
        let expected = match game {
            "host" => {
                examples::schema::host_schemas()
                    .into_iter()
                    .find(|(name, _)| *name == ty)
                    .unwrap()
                    .1
            }
            _ => {
                let schemas = registry.get(game).unwrap().schemas();
                let (_, expected) = schemas
                    .entries()
                    .into_iter()
                    .find(|(name, _)| *name == ty)
                    .unwrap();
                expected.clone()
            }
        };
        assert_eq!(serde_json::from_str::<Value>(&ta).unwrap(), expected);
    }
    assert!(a.join("yut").join("view.json").is_file());
    assert!(a.join("rps").join("outcome.json").is_file());
    assert!(a.join("yut-augments").join("options.json").is_file());
    assert!(a.join("host").join("request.json").is_file());
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// Calls `f` on every schema object inside `schema` (itself included).
fn each_object(schema: &Value, f: &mut dyn FnMut(&serde_json::Map<String, Value>)) {
    match schema {
        Value::Object(o) => {
            f(o);
            o.values().for_each(|v| each_object(v, f));
        }
        Value::Array(a) => a.iter().for_each(|v| each_object(v, f)),
        _ => {}
    }
}

#[test]
fn schemas_are_closed_for_code_generators() {
    let registry = game_host::registry();
    let mut titles = Vec::new();
    for id in registry.ids() {
        let schemas = registry.get(id).unwrap().schemas();
        // Actions and events: one flat union of closed objects, each tagged by `type`.
        for (ty, schema) in [("action", &schemas.action), ("event", &schemas.event)] {
            let branches = schema
                .get("anyOf")
                .or_else(|| schema.get("oneOf"))
                .and_then(Value::as_array)
                .unwrap_or_else(|| panic!("{id} {ty}: not a union"));
            for b in branches {
                assert_eq!(b["type"], "object", "{id} {ty}: {b}");
                assert_eq!(b["additionalProperties"], false, "{id} {ty}: {b}");
                assert!(
                    b["properties"]["type"]["const"].is_string(),
                    "{id} {ty}: {b}"
                );
                assert!(b["required"].as_array().unwrap().contains(&json!("type")));
            }
        }
        for (ty, schema) in schemas.entries() {
            titles.push(schema["title"].as_str().unwrap().to_owned());
            each_object(schema, &mut |o| {
                if o.contains_key("properties") || o.get("type") == Some(&json!("object")) {
                    assert!(
                        o.contains_key("additionalProperties"),
                        "{id} {ty}: open {o:?}"
                    );
                }
                assert!(!o.contains_key("not"), "{id} {ty}: {o:?}");
                assert!(!o.contains_key("$ref") || o.len() == 1, "{id} {ty}: {o:?}");
                if let Some(Value::String(d)) = o.get("description") {
                    assert!(!d.contains("```"), "{id} {ty}: code in {d}");
                }
            });
        }
    }
    let mut distinct = titles.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), titles.len(), "{titles:?}");
    assert!(
        titles.contains(&"YutAugmentsAction".to_owned()),
        "{titles:?}"
    );
    // The layer's action and events are in the game's union, not behind a reference.
    let augments = registry.get("yut-augments").unwrap().schemas();
    let tags = |s: &Value| -> Vec<String> {
        s["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                b["properties"]["type"]["const"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    assert!(tags(&augments.action).contains(&"CHOOSE_AUGMENT".to_owned()));
    assert!(tags(&augments.event).contains(&"augmentFired".to_owned()));
}

/// Every line of the trace mode fits the `trace-line` schema written beside the host's.
#[test]
fn trace_lines_fit_the_trace_line_schema() {
    let trace_line = examples::schema::host_schemas()
        .into_iter()
        .find(|(name, _)| *name == "trace-line")
        .unwrap()
        .1;
    let v = jsonschema::validator_for(&trace_line).unwrap();
    for args in [
        &[
            "trace",
            "--games",
            "2",
            "--seed",
            "4",
            "--illegal",
            "20",
            "--timeouts",
            "20",
        ][..],
        &[
            "trace",
            "--games",
            "1",
            "--seed",
            "9",
            "--preset",
            "app",
            "--illegal",
            "10",
        ][..],
        &[
            "trace",
            "--game",
            "one-card",
            "--players",
            "4",
            "--illegal",
            "20",
            "--timeouts",
            "20",
        ][..],
    ] {
        let mut out = Vec::new();
        examples::trace(
            &<examples::trace::TraceArgs as clap::Parser>::parse_from(args),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut kinds = std::collections::BTreeSet::new();
        for line in text.lines() {
            let value: Value = serde_json::from_str(line).unwrap();
            let errors: Vec<String> = v.iter_errors(&value).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{errors:?}\n{value}");
            kinds.insert(if value.get("setup").is_some() {
                "setup"
            } else if value.get("error").is_some() {
                "error"
            } else {
                "act"
            });
        }
        assert_eq!(kinds.len(), 3, "{args:?}: {kinds:?}");
    }
}
