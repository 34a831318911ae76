//! Hidden hands on the real server: random One Card games of 3 to 5 players, a WebSocket
//! client for every seat and a spectator. Once a game is over its record is replayed
//! here, and every message each socket got (pushes and replies) is checked against the
//! state at its moment: it names no card another player holds then, nor any card of the
//! draw pile (whose order nobody may learn).

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{Client, Server, TempDb, token};
use game_core::RecordEntry;
use serde_json::{Value, json};

/// A small deterministic generator for the test's own choices (the server deals from
/// the OS).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// Whether `s` is a card's wire name (`"7H"`, `"10S"`, `"BJ"`).
fn is_card(s: &str) -> bool {
    if s == "BJ" || s == "CJ" {
        return true;
    }
    let Some(suit) = s.chars().last() else {
        return false;
    };
    let rank = &s[..s.len() - suit.len_utf8()];
    "SHDC".contains(suit)
        && matches!(
            rank,
            "A" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K"
        )
}

/// Every card named in `v`, except the cards of a `drew` event about `viewer` (their own
/// draw: they may hold them no more, gone into the draw pile with a bankruptcy in the
/// same change, yet they saw them).
fn cards_in(v: &Value, viewer: Option<&str>, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) if is_card(s) => {
            out.insert(s.clone());
        }
        Value::Array(items) => items.iter().for_each(|i| cards_in(i, viewer, out)),
        Value::Object(map) => {
            let own_draw = map.get("type").and_then(Value::as_str) == Some("drew")
                && viewer.is_some()
                && map.get("player").and_then(Value::as_str) == viewer;
            for (k, item) in map {
                if own_draw && k == "cards" {
                    continue;
                }
                cards_in(item, viewer, out);
            }
        }
        _ => {}
    }
}

/// The hidden cards of one moment: each seat's hand and the draw pile.
struct Hidden {
    hands: Vec<BTreeSet<String>>,
    draw_pile: BTreeSet<String>,
}

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

/// The hidden cards at every turnSeq of the game of `record`, replayed input by input.
fn moments(record: &game_core::MatchRecord) -> BTreeMap<u64, Hidden> {
    let registry = game_host::registry();
    let mut m = registry
        .create(
            &record.game,
            &record.options,
            record.players.clone(),
            Some(record.seed),
            record.started_at,
        )
        .unwrap();
    let mut at = BTreeMap::new();
    let mut note = |m: &dyn game_core::DynMatch| {
        let state = m.state_json();
        let hidden = Hidden {
            hands: state["hands"]
                .as_array()
                .unwrap()
                .iter()
                .map(strings)
                .collect(),
            draw_pile: strings(&state["drawPile"]),
        };
        at.insert(m.turn_seq(), hidden);
    };
    note(m.as_ref());
    for entry in &record.entries {
        match entry {
            RecordEntry::Act { at, player, action } => {
                let played = m.act(player, action.clone(), None, *at);
                assert!(played.result.is_ok(), "{entry:?}: {:?}", played.result);
            }
            RecordEntry::Tick { at } => {
                m.tick(*at);
            }
            RecordEntry::Presence {
                at,
                player,
                connected,
            } => {
                m.set_connected(player, *connected, *at);
            }
            RecordEntry::Grace { grace_ms } => m.set_grace_ms(*grace_ms).unwrap(),
        }
        note(m.as_ref());
    }
    let replayed = registry.replay(record).unwrap();
    assert_eq!(replayed.state_json(), m.state_json());
    at
}

/// One message a socket got, with the turnSeq of its moment and the cards its request
/// named itself (a refusal may name them back).
struct Seen {
    turn_seq: u64,
    message: Value,
    named: BTreeSet<String>,
}

/// A socket of the game: a seat's (`player`) or the spectator's.
struct Socket {
    player: Option<String>,
    client: Client,
    /// The latest view and its turnSeq.
    view: Value,
    turn_seq: u64,
    seen: Vec<Seen>,
}

impl Socket {
    fn note(&mut self, message: Value, named: BTreeSet<String>) {
        let turn_seq = message["turnSeq"]
            .as_u64()
            .or_else(|| message["view"]["turnSeq"].as_u64())
            .unwrap_or(self.turn_seq);
        if message["push"] == "update" {
            self.view = message["view"].clone();
            self.turn_seq = turn_seq;
        }
        self.seen.push(Seen {
            turn_seq,
            message,
            named,
        });
    }

    async fn req(&mut self, req: Value) -> Value {
        let mut named = BTreeSet::new();
        cards_in(&req, None, &mut named);
        let reply = self.client.req(req).await;
        // The pushes read before the reply come first, in order.
        while let Some(p) = self.client.pushes.pop_front() {
            self.note(p, BTreeSet::new());
        }
        self.note(reply.clone(), named);
        reply
    }

    /// Reads pushes until one is at `turn_seq` or later.
    async fn catch_up(&mut self, turn_seq: u64) {
        while self.turn_seq < turn_seq || self.view.is_null() {
            let p = self.client.push().await;
            self.note(p, BTreeSet::new());
        }
    }
}

/// What one game did.
struct Played {
    /// Actions taken.
    acts: u64,
    /// Of them, taken by a player whose move was not awaited (a call).
    out_of_turn: u64,
    /// Players a status named as able to act besides the player to move.
    windows: u64,
    /// Cards named in the messages, each checked.
    checked: usize,
}

/// Plays one random game of `players` seats with options `options` to its end.
async fn game(addr: &str, rng: &mut Lcg, players: usize, options: Value) -> Played {
    let ids: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
    let mut host = Client::connect(addr).await;
    let created = host
        .req(json!({"op": "create", "game": "one-card", "players": ids, "options": options}))
        .await;
    assert_eq!(created["ok"], true, "{created}");
    let m = created["match"].as_str().unwrap().to_owned();
    let mut sockets = Vec::new();
    for id in &ids {
        let mut s = Socket {
            player: Some(id.clone()),
            client: Client::connect(addr).await,
            view: Value::Null,
            turn_seq: 0,
            seen: Vec::new(),
        };
        let hello = s
            .req(json!({"op": "hello", "match": m, "token": token(&created, id)}))
            .await;
        assert_eq!(hello["ok"], true, "{hello}");
        sockets.push(s);
    }
    let mut watcher = Socket {
        player: None,
        client: Client::connect(addr).await,
        view: Value::Null,
        turn_seq: 0,
        seen: Vec::new(),
    };
    let watched = watcher.req(json!({"op": "watch", "match": m})).await;
    assert_eq!(watched["ok"], true, "{watched}");
    watcher.view = watched["view"].clone();
    for s in &mut sockets {
        let view = s.req(json!({"op": "view", "match": m})).await;
        s.view = view["view"].clone();
    }
    let mut turn_seq = 0;
    let (mut acts, mut out_of_turn, mut windows) = (0, 0, 0);
    loop {
        if sockets[0].view["ranks"].is_array() {
            break;
        }
        assert!(acts < 5_000, "the game did not end");
        // Whoever may act: the player to move, or anyone while a one-card window is open.
        let able: Vec<usize> = (0..sockets.len())
            .filter(|&i| {
                sockets[i].view["legalActions"]
                    .as_array()
                    .is_some_and(|a| !a.is_empty())
            })
            .collect();
        assert!(!able.is_empty(), "nobody may act: {}", sockets[0].view);
        let i = able[rng.below(able.len())];
        let s = &mut sockets[i];
        // Now and then a card the player does not hold, and the legal actions.
        if rng.below(12) == 0 {
            let hand: BTreeSet<String> = strings(&s.view["hand"]);
            let all: Vec<String> = ["AS", "7H", "10D", "KC", "BJ", "CJ", "QH", "2S"]
                .iter()
                .map(|c| c.to_string())
                .filter(|c| !hand.contains(c))
                .collect();
            let card = &all[rng.below(all.len())];
            let action = json!({"type": "PLAY", "card": card});
            let refused = s
                .req(json!({"op": "act", "match": m, "action": action, "turnSeq": turn_seq}))
                .await;
            assert_eq!(refused["ok"], false, "{refused}");
            let legal = s.req(json!({"op": "legal", "match": m})).await;
            assert_eq!(legal["ok"], true, "{legal}");
            continue;
        }
        // Mostly a card when there is one (random draws would grow the hands for long).
        let legal = s.view["legalActions"].as_array().unwrap().clone();
        let plays: Vec<&Value> = legal.iter().filter(|a| a["type"] == "PLAY").collect();
        let action = if !plays.is_empty() && rng.below(5) != 0 {
            plays[rng.below(plays.len())].clone()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        let reply = s
            .req(json!({"op": "act", "match": m, "action": action, "turnSeq": turn_seq}))
            .await;
        assert_eq!(
            reply["ok"],
            true,
            "{} {action}: {reply}",
            s.player.as_deref().unwrap()
        );
        turn_seq = reply["turnSeq"].as_u64().unwrap();
        acts += 1;
        if s.view["turn"] != json!(i) {
            out_of_turn += 1;
        }
        for s in sockets.iter_mut().chain(std::iter::once(&mut watcher)) {
            s.catch_up(turn_seq).await;
        }
        // The status names who may act besides the player to move: each has an action.
        for p in reply["mayAct"].as_array().unwrap() {
            let k = ids.iter().position(|id| p == id.as_str()).unwrap();
            let view = &sockets[k].view;
            assert_ne!(view["turn"], json!(k), "{reply}");
            assert!(
                !view["legalActions"].as_array().unwrap().is_empty(),
                "{view}"
            );
            windows += 1;
        }
    }
    let record = sockets[0].req(json!({"op": "record", "match": m})).await;
    assert_eq!(record["ok"], true, "{record}");
    let record: game_core::MatchRecord = serde_json::from_value(record["record"].clone()).unwrap();
    let moments = moments(&record);
    let mut checked = 0;
    for s in sockets.iter().chain(std::iter::once(&watcher)) {
        let seat = s
            .player
            .as_ref()
            .map(|p| ids.iter().position(|id| id == p).unwrap());
        for seen in &s.seen {
            if seen.message.get("record").is_some() {
                // The record once the game is over: it holds everything, by design.
                continue;
            }
            let hidden = moments
                .get(&seen.turn_seq)
                .unwrap_or_else(|| panic!("no moment at turnSeq {}", seen.turn_seq));
            let mut cards = BTreeSet::new();
            cards_in(&seen.message, s.player.as_deref(), &mut cards);
            for card in cards.difference(&seen.named) {
                checked += 1;
                let held_by = (0..hidden.hands.len())
                    .filter(|&other| Some(other) != seat)
                    .find(|&other| hidden.hands[other].contains(card));
                assert!(
                    held_by.is_none(),
                    "{:?} was told of {card}, held by {:?} at turnSeq {}: {}",
                    s.player,
                    held_by.map(|o| &ids[o]),
                    seen.turn_seq,
                    seen.message
                );
                assert!(
                    !hidden.draw_pile.contains(card),
                    "{:?} was told of {card}, in the draw pile at turnSeq {}: {}",
                    s.player,
                    seen.turn_seq,
                    seen.message
                );
            }
        }
    }
    // Every player saw their own cards: the check had something to look at.
    assert!(checked > 0);
    Played {
        acts,
        out_of_turn,
        windows,
        checked,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_socket_learns_another_players_cards_or_the_draw_pile() {
    let db = TempDb::new("leaks");
    let server = Server::start(&db.path(), 0);
    let mut rng = Lcg(38);
    let (mut checked, mut out_of_turn, mut windows) = (0, 0, 0);
    for g in 0..6 {
        let players = 3 + g % 3;
        let bankrupt_at = [json!(15), json!(20), Value::Null][rng.below(3)].clone();
        let ranking = ["first", "all"][rng.below(2)];
        let options = json!({
            "handSize": 5 + rng.below(4),
            "bankruptAt": bankrupt_at,
            "ranking": ranking,
            "turnSeconds": null,
        });
        let played = game(&server.addr, &mut rng, players, options).await;
        assert!(played.acts > 0);
        checked += played.checked;
        out_of_turn += played.out_of_turn;
        windows += played.windows;
    }
    assert!(checked > 100, "{checked} cards checked");
    // Calls by players whose move was not awaited (ONE_CARD, CATCH) were taken.
    assert!(out_of_turn > 0, "no call out of turn in 6 games");
    assert!(windows > 0, "no status named a caller in 6 games");
}
