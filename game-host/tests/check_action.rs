//! `DynGame::check_action` reads an action as a match does: for every registered game,
//! a value it accepts is never refused by `act` for its shape (`BAD_JSON`), and a value it
//! refuses is refused by `act` with `BAD_JSON`.

use game_core::GameError;
use serde_json::{Value, json};

/// `action` and some changes of it: each value replaced, a field added, the type misspelt.
fn shapes(action: &Value) -> Vec<Value> {
    let mut out = vec![action.clone()];
    if let Value::Object(o) = action {
        for (k, v) in o {
            for new in [json!(99), json!("zz"), json!(null), json!([1])] {
                if &new != v {
                    let mut changed = o.clone();
                    changed.insert(k.clone(), new);
                    out.push(Value::Object(changed));
                }
            }
        }
        let mut extra = o.clone();
        extra.insert("note".into(), json!(1));
        out.push(Value::Object(extra));
    }
    out.extend([json!([action]), json!("THROW"), json!({})]);
    out
}

#[test]
fn check_action_agrees_with_act_on_every_game() {
    let registry = game_host::registry();
    for game in registry.ids() {
        let dg = registry.get(game).unwrap();
        let options = dg.default_options();
        let players: Vec<String> = ["p0", "p1", "p2"].map(String::from).to_vec();
        let mut m = registry
            .create(game, &options, players.clone(), Some(5), 0)
            .or_else(|_| registry.create(game, &options, players[..2].to_vec(), Some(5), 0))
            .unwrap();
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..30 {
            let Some(p) = m.to_act().first().cloned() else {
                break;
            };
            let legal = m.legal_actions(&p).unwrap();
            let stored = m.state_json().to_string();
            for value in legal.iter().flat_map(shapes) {
                let checked = dg.check_action(&value);
                let mut copy = registry.restore(game, &stored).unwrap();
                let acted = copy.act(&p, value.clone(), None, 0).result;
                let bad_json = acted.as_ref().is_err_and(|e| e.body().code == "BAD_JSON");
                match checked {
                    Ok(()) => {
                        assert!(!bad_json, "{game}: {value} checked, refused as {acted:?}");
                        accepted += 1;
                    }
                    Err(e) => {
                        assert_eq!(e.body().code, "BAD_JSON", "{game}: {value}");
                        assert!(bad_json, "{game}: {value} refused, acted as {acted:?}");
                        assert_eq!(acted.unwrap_err(), e, "{game}: the same words");
                        refused += 1;
                    }
                }
            }
            assert!(m.act(&p, legal[0].clone(), None, 0).result.is_ok());
        }
        assert!(accepted > 0 && refused > 0, "{game}: {accepted} {refused}");
    }
}
