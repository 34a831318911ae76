//! One Card through the JSON-lines host: every reply carries the caller's projection of
//! the events, and random 3–5-player games show no player or spectator a card another
//! player holds, nor the draw pile.

use std::collections::BTreeSet;

use game_core::GameRng;
use game_host::Host;
use serde_json::{Value, json};

/// Sends one request to `host` and returns the reply's text and its JSON.
fn send(host: &mut Host, request: Value) -> (String, Value) {
    let reply = host.handle_line(&request.to_string());
    let text = serde_json::to_string(&reply).unwrap();
    let value = serde_json::from_str(&text).unwrap();
    (text, value)
}

fn ok(reply: (String, Value)) -> Value {
    assert_eq!(reply.1["ok"], true, "{}", reply.0);
    reply.1
}

fn cards(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

/// The hands and the draw pile of match `id`, from its stored state.
fn secrets(host: &Host, id: &str) -> (Vec<Vec<String>>, Vec<String>) {
    let state = host.get_match(id).unwrap().state_json();
    let hands = state["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(cards)
        .collect();
    (hands, cards(&state["drawPile"]))
}

/// Whether `text` names `card` as a whole word (not inside a longer word or code).
fn names(text: &str, card: &str) -> bool {
    text.match_indices(card).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + card.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        !word(before) && !word(after)
    })
}

#[test]
fn each_caller_gets_their_projection_of_a_draw() {
    let mut host = Host::default();
    let players = json!(["a", "b", "c"]);
    ok(send(
        &mut host,
        json!({"op": "create", "game": "one-card", "players": players, "seed": 4, "match": "g"}),
    ));
    let (_, pile) = secrets(&host, "g");
    let drawn = pile.last().unwrap().clone();
    let act = json!({"op": "act", "match": "g", "player": "a", "action": {"type": "DRAW"}});
    let reply = ok(send(&mut host, act));
    assert_eq!(
        reply["events"],
        json!([{"type": "drew", "player": "a", "cards": [drawn]}])
    );
    assert_eq!(reply["mayAct"], json!([]));
    let theirs = json!([{"type": "drew", "player": "a", "count": 1}]);
    let seen = |host: &mut Host, player: Option<&str>| {
        let mut request = json!({"op": "events", "match": "g"});
        if let Some(p) = player {
            request["player"] = json!(p);
        }
        ok(send(host, request))["events"].clone()
    };
    assert_eq!(seen(&mut host, Some("b")), theirs);
    assert_eq!(seen(&mut host, None), theirs);
    assert_eq!(seen(&mut host, Some("a"))[0]["cards"], json!([drawn]));
    let stranger = send(
        &mut host,
        json!({"op": "events", "match": "g", "player": "zed"}),
    );
    assert_eq!(stranger.1["error"]["code"], "NOT_SEATED");
    // b times out and draws: the tick shows each asker their own projection.
    let (_, pile) = secrets(&host, "g");
    let drawn = pile.last().unwrap().clone();
    let tick = |host: &mut Host, player: Option<&str>| {
        let mut request = json!({"op": "tick", "match": "g", "now": 100_000});
        if let Some(p) = player {
            request["player"] = json!(p);
        }
        ok(send(host, request))
    };
    let ticked = tick(&mut host, Some("c"));
    assert_eq!(ticked["applied"][0]["player"], "b");
    assert_eq!(ticked["applied"][0]["events"][0]["count"], 1);
    let own = seen(&mut host, Some("b"));
    assert_eq!(own, json!([]));
    let change = host.last_change("g").unwrap();
    assert_eq!(
        change.applied_for(Some("b"))[0].events[0]["cards"],
        json!([drawn])
    );
    // A refused request changes nothing, and leaves the last change as it was.
    let refused = send(
        &mut host,
        json!({"op": "act", "match": "g", "player": "a", "action": {"type": "DRAW"}}),
    );
    assert_eq!(refused.1["error"]["code"], "NOT_YOUR_TURN");
    assert_eq!(host.last_change("g").unwrap().applied.len(), 1);
}

#[test]
fn the_call_window_shows_in_may_act() {
    let mut rng = GameRng::from_seed(9);
    for seed in 0..20 {
        let mut host = Host::default();
        ok(send(
            &mut host,
            json!({"op": "create", "game": "one-card", "players": ["a", "b", "c"], "seed": seed, "match": "g"}),
        ));
        // Play with the mover until someone is left with one card.
        for _ in 0..2_000 {
            let status = ok(send(&mut host, json!({"op": "events", "match": "g"})));
            if status["over"] == true {
                break;
            }
            let may_act = status["mayAct"].as_array().unwrap().clone();
            if !may_act.is_empty() {
                assert!(!may_act.contains(&status["toAct"][0]));
                for p in &may_act {
                    let legal = ok(send(
                        &mut host,
                        json!({"op": "legal", "match": "g", "player": p}),
                    ));
                    let kinds: Vec<&str> = legal["actions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|a| a["type"].as_str().unwrap())
                        .collect();
                    assert!(kinds == ["ONE_CARD"] || kinds == ["CATCH"], "{kinds:?}");
                }
                return;
            }
            let p = status["toAct"][0].clone();
            let legal = ok(send(
                &mut host,
                json!({"op": "legal", "match": "g", "player": p}),
            ));
            let actions = legal["actions"].as_array().unwrap();
            let action = actions[rng.below(actions.len() as u32) as usize].clone();
            ok(send(
                &mut host,
                json!({"op": "act", "match": "g", "player": p, "action": action}),
            ));
        }
    }
    panic!("no call window opened");
}

/// What one message to the player at `seat` (a spectator: `None`) may not name: the cards
/// the other players hold now, and the draw pile's cards but those the recipient knows
/// (`known`: what they held before the change, and their own hand put under the pile).
fn forbidden(
    hands: &[Vec<String>],
    pile: &[String],
    known: &[BTreeSet<String>],
    seat: Option<usize>,
) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = hands
        .iter()
        .enumerate()
        .filter(|&(s, _)| Some(s) != seat)
        .flat_map(|(_, h)| h.iter().cloned())
        .collect();
    let mine = seat.and_then(|s| known.get(s));
    out.extend(
        pile.iter()
            .filter(|c| !mine.is_some_and(|k| k.contains(*c)))
            .cloned(),
    );
    out
}

/// The cards `player` drew in a reply's events and applied timeouts (as they see them).
fn drawn_by(reply: &Value, player: &str) -> Vec<String> {
    let applied = reply["applied"].as_array().into_iter().flatten();
    let events = applied
        .flat_map(|a| a["events"].as_array().into_iter().flatten())
        .chain(reply["events"].as_array().into_iter().flatten());
    events
        .filter(|e| e["type"] == "drew" && e["player"] == player)
        .flat_map(|e| e["cards"].as_array().into_iter().flatten())
        .filter_map(|c| c.as_str().map(str::to_owned))
        .collect()
}

/// The (player, count) of every bankruptcy in a reply's events and applied timeouts.
fn bankruptcies(reply: &Value) -> Vec<(String, usize)> {
    let applied = reply["applied"].as_array().into_iter().flatten();
    let events = applied
        .flat_map(|a| a["events"].as_array().into_iter().flatten())
        .chain(reply["events"].as_array().into_iter().flatten());
    events
        .filter(|e| e["type"] == "bankrupt")
        .map(|e| {
            let player = e["player"].as_str().unwrap().to_owned();
            (player, e["count"].as_u64().unwrap() as usize)
        })
        .collect()
}

#[track_caller]
fn assert_clean(message: &str, bad: &BTreeSet<String>) {
    for card in bad {
        assert!(!names(message, card), "{card} shown in {message}");
    }
}

/// The request of one random step: a tick, a presence change, or an action of the mover
/// or a caller (sometimes a card of the sender's own whether it fits or not). Returns who
/// asks (`None`: a spectator's tick) and the request.
fn random_request(
    host: &mut Host,
    rng: &mut GameRng,
    ids: &[String],
    status: &Value,
    now: &mut u64,
) -> (Option<String>, Value) {
    let n = ids.len() as u32;
    *now += 1_000;
    let roll = rng.below(20);
    if roll == 0 {
        *now += 70_000;
        let asker = ids.get(rng.below(n + 1) as usize).cloned();
        let mut tick = json!({"op": "tick", "match": "g", "now": *now});
        if let Some(p) = &asker {
            tick["player"] = json!(p);
        }
        return (asker, tick);
    }
    if roll == 1 {
        let p = ids[rng.below(n) as usize].clone();
        let connected = rng.chance(1, 2);
        let presence = json!({"op": "presence", "match": "g", "player": p,
            "connected": connected, "now": *now});
        return (Some(p), presence);
    }
    let callers: Vec<&str> = status["mayAct"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let p = match status["toAct"][0].as_str() {
        Some(mover) if callers.is_empty() || rng.chance(1, 2) => mover.to_owned(),
        _ if !callers.is_empty() => callers[rng.below(callers.len() as u32) as usize].to_owned(),
        _ => ids[0].clone(),
    };
    let legal = ok(send(
        host,
        json!({"op": "legal", "match": "g", "player": p}),
    ));
    let actions = legal["actions"].as_array().unwrap();
    let action = if roll == 2 || actions.is_empty() {
        let seat = ids.iter().position(|q| *q == p).unwrap();
        let (hands, _) = secrets(host, "g");
        match hands[seat].first() {
            Some(card) => json!({"type": "PLAY", "card": card}),
            None => json!({"type": "DRAW"}),
        }
    } else {
        actions[rng.below(actions.len() as u32) as usize].clone()
    };
    let act = json!({"op": "act", "match": "g", "player": p, "action": action, "now": *now});
    (Some(p), act)
}

#[test]
fn no_message_shows_a_card_held_by_another_or_the_draw_pile() {
    let (mut checked, mut own_cards_seen, mut bankrupt) = (0usize, 0usize, 0usize);
    for game in 0..12u64 {
        let mut rng = GameRng::from_seed(1_000 + game);
        let n = 3 + (game % 3) as usize;
        let ids: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let options = match game % 4 {
            0 => json!({"ranking": "all"}),
            1 => json!({"bankruptAt": 15, "ranking": "all"}),
            2 => json!({"handSize": 5, "turnSeconds": 15}),
            _ => json!({}),
        };
        let mut host = Host::default();
        ok(send(
            &mut host,
            json!({"op": "create", "game": "one-card", "players": ids,
                "options": options, "seed": game, "match": "g"}),
        ));
        let seat_of = |p: &Option<String>| p.as_ref().and_then(|p| ids.iter().position(|q| q == p));
        let mut now = 0u64;
        for _ in 0..600 {
            let (before, _) = secrets(&host, "g");
            let status = ok(send(&mut host, json!({"op": "events", "match": "g"})));
            if status["over"] == true {
                break;
            }
            let (asker, request) = random_request(&mut host, &mut rng, &ids, &status, &mut now);
            let (text, _) = send(&mut host, request);
            let (hands, pile) = secrets(&host, "g");
            // What each player knows of the draw pile: the cards they held, and, when they
            // went bankrupt in this change, the cards they drew for it (their hand went
            // into the pile, shuffled in).
            let mut known: Vec<BTreeSet<String>> =
                before.iter().map(|h| h.iter().cloned().collect()).collect();
            let public = ok(send(&mut host, json!({"op": "events", "match": "g"})));
            for (player, _) in bankruptcies(&public) {
                let seat = seat_of(&Some(player.clone())).unwrap();
                let own = ok(send(
                    &mut host,
                    json!({"op": "events", "match": "g", "player": &player}),
                ));
                known[seat].extend(drawn_by(&own, &player));
                bankrupt += 1;
            }
            assert_clean(
                &serde_json::to_string(&public).unwrap(),
                &forbidden(&hands, &pile, &known, None),
            );
            assert_clean(&text, &forbidden(&hands, &pile, &known, seat_of(&asker)));
            checked += 2;
            // Every player reads the change, their view and their legal actions.
            for viewer in &ids {
                let seat = seat_of(&Some(viewer.clone()));
                let bad = forbidden(&hands, &pile, &known, seat);
                for op in ["events", "view", "legal"] {
                    let (message, _) =
                        send(&mut host, json!({"op": op, "match": "g", "player": viewer}));
                    assert_clean(&message, &bad);
                    checked += 1;
                    if op == "events" {
                        let s = seat.unwrap();
                        own_cards_seen += usize::from(hands[s].iter().any(|c| names(&message, c)));
                    }
                }
            }
            let (view, _) = send(&mut host, json!({"op": "view", "match": "g"}));
            assert_clean(&view, &forbidden(&hands, &pile, &known, None));
        }
    }
    assert!(checked > 10_000, "{checked} messages");
    // The check can fail: a player's own drawn cards do reach them, and bankruptcies put
    // hands under the pile.
    assert!(
        own_cards_seen > 0 && bankrupt > 0,
        "{own_cards_seen} {bankrupt}"
    );
}
