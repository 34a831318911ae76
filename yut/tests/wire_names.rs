//! The base game's wire names are pinned: every property of every object in the schemas of
//! yut's options, actions, views, events and outcomes, as `Owner.field` (the owner is the
//! root type or definition, `[tag]` a branch of a union tagged by `type`), sorted per type,
//! against `tests/data/wire_names.txt`. Clients are written against these names; renaming
//! one must be a decision, taken by updating the snapshot.

use std::collections::BTreeSet;
use std::path::Path;

use game_core::GameSchemas;
use serde_json::Value;

/// The schema types pinned, in the snapshot's order.
const TYPES: [&str; 5] = ["options", "action", "view", "event", "outcome"];

/// Adds the `Owner.field` names of `schema` to `out`; definitions are walked on their own.
fn names(schema: &Value, owner: &str, out: &mut BTreeSet<String>) {
    let Value::Object(s) = schema else {
        return;
    };
    if let Some(Value::Object(properties)) = s.get("properties") {
        for (field, sub) in properties {
            out.insert(format!("{owner}.{field}"));
            names(sub, &format!("{owner}.{field}"), out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        for branch in s.get(key).and_then(Value::as_array).into_iter().flatten() {
            match branch
                .pointer("/properties/type/const")
                .and_then(Value::as_str)
            {
                Some(tag) => names(branch, &format!("{owner}[{tag}]"), out),
                None => names(branch, owner, out),
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = s.get(key) {
            names(sub, &format!("{owner}[]"), out);
        }
    }
}

/// The snapshot text of the current schemas.
fn snapshot() -> String {
    let schemas = GameSchemas::of(&yut::Yut::standard());
    let mut text = String::from(
        "# Wire names of game `yut`: Owner.field per schema, sorted (tests/wire_names.rs).\n",
    );
    for ty in TYPES {
        let (_, schema) = schemas
            .entries()
            .into_iter()
            .find(|(name, _)| *name == ty)
            .unwrap();
        let mut out = BTreeSet::new();
        names(schema, schema["title"].as_str().unwrap(), &mut out);
        for (def, sub) in schema
            .get("$defs")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            names(sub, def, &mut out);
        }
        text.push_str(&format!("\n## {ty}\n"));
        for name in out {
            text.push_str(&name);
            text.push('\n');
        }
    }
    text
}

/// The lines only in `old` (`-`) and only in `new` (`+`), per section.
fn diff(old: &str, new: &str) -> String {
    let sections = |text: &str| -> BTreeSet<(String, String)> {
        let mut section = String::new();
        let mut lines = BTreeSet::new();
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with("# "))
        {
            match line.strip_prefix("## ") {
                Some(name) => section = name.to_owned(),
                None => {
                    lines.insert((section.clone(), line.to_owned()));
                }
            }
        }
        lines
    };
    let (old, new) = (sections(old), sections(new));
    let gone = old.difference(&new).map(|(s, l)| format!("- {s}: {l}"));
    let added = new.difference(&old).map(|(s, l)| format!("+ {s}: {l}"));
    gone.chain(added).collect::<Vec<_>>().join("\n")
}

#[test]
fn wire_names_match_the_snapshot() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wire_names.txt");
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    let actual = snapshot();
    if actual != expected {
        let fresh = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wire_names.txt");
        std::fs::write(&fresh, &actual).unwrap();
        panic!(
            "the wire names differ from {}:\n{}\n\nIf the change is intended, take the new snapshot:\ncp {} {}",
            path.display(),
            diff(&expected, &actual),
            fresh.display(),
            path.display()
        );
    }
}

#[test]
fn the_snapshot_names_the_fields_clients_read() {
    let text = snapshot();
    for name in [
        "YutEvent[captured].victimSide",
        "YutView.throwsOwed",
        "YutView.lastThrow",
        "YutAction[MOVE].throwIndex",
        "YutOptions.nakPercent",
        "YutOutcome.winners",
    ] {
        assert!(text.lines().any(|l| l == name), "{name} missing:\n{text}");
    }
    // A renamed field shows in the diff as one line gone and one added.
    let renamed = text.replace("YutView.throwsOwed\n", "YutView.throwsDue\n");
    assert_eq!(
        diff(&text, &renamed),
        "- view: YutView.throwsOwed\n+ view: YutView.throwsDue"
    );
}
