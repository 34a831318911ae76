//! The server never hands a bot the true state: `hint` and the bots that fill seats ask a
//! bot of the registry, and every such bot decides on a world of its seat's information
//! set. The proof is a bot that would cheat if it could: `testing::CounterBot`, registered
//! as rock-paper-scissors' `policy`, plays the hand that beats the other seat's hidden
//! pick when the state it is handed shows one. Served in process with that registry.

mod common;

use std::time::Duration;

use common::{Client, create, hello, token};
use game_core::testing::CounterBot;
use game_core::{Erased, Registry};
use party_games_server::{Config, open_store, serve};
use serde_json::{Value, json};

/// A server on a free port, in memory, for a registry where rps's `policy` would cheat.
async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let store = open_store(":memory:", Duration::from_secs(10)).unwrap();
    let mut registry = Registry::new();
    registry
        .register(Erased(game_core::rps::Rps).with_bot("policy", |_| CounterBot))
        .unwrap();
    let config = Config {
        bot_delay: Duration::ZERO,
        ..Config::default()
    };
    tokio::spawn(serve(
        listener,
        store,
        registry,
        config,
        async {},
        std::future::pending(),
    ));
    addr
}

/// The hand that beats `hand`.
fn counter(hand: &str) -> &'static str {
    match hand {
        "rock" => "paper",
        "paper" => "scissors",
        _ => "rock",
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_does_not_follow_the_other_seats_hidden_pick() {
    let addr = start().await;
    let mut c = Client::connect(&addr).await;
    for hand in ["rock", "paper", "scissors"] {
        let created = create(&mut c, "rps", &["ann", "bo"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        let mut ann = hello(&addr, &m, &token(&created, "ann")).await;
        let mut bo = hello(&addr, &m, &token(&created, "bo")).await;
        let picked = bo
            .req(json!({"op": "act", "match": m, "action": {"type": "PICK", "hand": hand}}))
            .await;
        assert_eq!(picked["ok"], true, "{picked}");
        // Each hint's bot draws its own world (seeded by the OS): a cheat would name the
        // counter every time; a fair bot names it a third of the time. Thirty hints all
        // naming it by chance: 3^-30.
        let mut hints = Vec::new();
        for _ in 0..30 {
            let r = ann.req(json!({"op": "hint", "match": m})).await;
            assert_eq!(r["ok"], true, "{r}");
            hints.push(r["hint"]["hand"].as_str().unwrap().to_owned());
        }
        assert!(
            hints.iter().any(|h| h != counter(hand)),
            "every hint counters the hidden {hand}: {hints:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_at_a_seat_does_not_follow_the_other_seats_hidden_pick() {
    let addr = start().await;
    let mut c = Client::connect(&addr).await;
    // Ann always picks rock first, then the bot: a cheat would play paper every round.
    // Two games to nine wins: eighteen rounds or more, all paper by chance: 3^-18.
    let mut rounds: Vec<String> = Vec::new();
    for _ in 0..2 {
        let created = c
            .req(
                json!({"op": "create", "game": "rps", "players": ["ann", "bot"],
                "options": {"winsNeeded": 9}, "bots": {"bot": "policy"}}),
            )
            .await;
        assert_eq!(created["ok"], true, "{created}");
        let m = created["match"].as_str().unwrap().to_owned();
        let mut ann = hello(&addr, &m, &token(&created, "ann")).await;
        for _ in 0..200 {
            let picked = ann
                .req(json!({"op": "act", "match": m, "action": {"type": "PICK", "hand": "rock"}}))
                .await;
            if picked["ok"] != true {
                break;
            }
            let revealed = |p: &Value| {
                p["events"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|e| e["type"] == "revealed"))
            };
            let push = ann.push_until(10, revealed).await;
            let events = push["events"].as_array().unwrap();
            let event = events.iter().find(|e| e["type"] == "revealed").unwrap();
            rounds.push(event["hands"][1].as_str().unwrap().to_owned());
            if events.iter().any(|e| e["type"] == "gameOver") {
                break;
            }
        }
    }
    assert!(rounds.len() >= 18, "{rounds:?}");
    assert!(
        rounds.iter().any(|bot| bot != "paper"),
        "the bot countered every hidden rock: {rounds:?}"
    );
}
