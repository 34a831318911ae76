//! The JSON host never hands a bot the true state: a bot that would read the other seat's
//! hidden pick (`testing::CounterBot`, registered as rps's `policy`) chooses the same
//! whatever that pick is, through the host's matches and the registry's bots, as trace
//! mode and every host run them.

use game_core::testing::CounterBot;
use game_core::{Erased, Registry};
use game_host::Host;
use serde_json::{Value, json};

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register(Erased(game_core::rps::Rps).with_bot("policy", |_| CounterBot))
        .unwrap();
    registry
}

fn send(host: &mut Host, request: Value) -> Value {
    let reply = host.handle_line(&request.to_string());
    let value: Value = serde_json::to_value(&reply).unwrap();
    assert_eq!(value["ok"], true, "{value}");
    value
}

#[test]
fn a_bot_chooses_the_same_whatever_the_hidden_pick() {
    let mut choices = Vec::new();
    for (i, hand) in ["rock", "paper", "scissors"].into_iter().enumerate() {
        let mut host = Host::new(registry());
        let id = format!("m{i}");
        send(
            &mut host,
            json!({"op": "create", "game": "rps", "match": id, "players": ["ann", "bo"], "seed": 5, "now": 0}),
        );
        send(
            &mut host,
            json!({"op": "act", "match": id, "player": "bo", "action": {"type": "PICK", "hand": hand}, "now": 10}),
        );
        let bots = registry();
        let game = bots.get("rps").unwrap();
        for kind in ["policy", "random", "pimc", "ismcts"] {
            let mut bot = game.bot(kind, 9).unwrap();
            let m = host.get_match(&id).unwrap();
            choices.push((kind, hand, bot.choose(m, "ann").unwrap()));
        }
    }
    // Handed the true state, `policy` would have countered each pick: three choices.
    for kind in ["policy", "random", "pimc", "ismcts"] {
        let chosen: Vec<&Value> = choices
            .iter()
            .filter(|c| c.0 == kind)
            .map(|c| &c.2)
            .collect();
        assert!(
            chosen.iter().all(|c| *c == chosen[0]),
            "{kind}: the choice follows the hidden pick: {choices:?}"
        );
    }
}
