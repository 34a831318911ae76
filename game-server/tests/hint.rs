//! `hint`: the move the timeout policy would make for the socket's seat, with the status.
//! Only for a seat; the move it names is the one the engine plays when the seat's time
//! (here: a disconnected player's grace) runs out.

mod common;

use common::{Client, Server, TempDb, code, create, hello, token};
use serde_json::{Value, json};

/// The client of the player the match waits for, by the status's `toAct`.
fn mover<'a>(
    status: &Value,
    a: &'a mut Client,
    b: &'a mut Client,
) -> (&'a mut Client, &'a mut Client) {
    if status["toAct"][0] == "ann" {
        (a, b)
    } else {
        (b, a)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_the_timeout_policys_move_for_the_seat() {
    let db = TempDb::new("hint");
    let server = Server::start(&db.path(), 0);
    let mut c = Client::connect(&server.addr).await;
    let created = create(&mut c, "yut", &["ann", "bo"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();

    // No seat, no hint: an unbound socket and a spectator are refused; a field the op
    // does not have is a bad request.
    let unbound = c.req(json!({"op": "hint", "match": m})).await;
    assert_eq!(code(&unbound), "UNAUTHORIZED", "{unbound}");
    let mut watcher = Client::connect(&server.addr).await;
    let watched = watcher.req(json!({"op": "watch", "match": m})).await;
    assert_eq!(watched["ok"], true, "{watched}");
    let spectator = watcher.req(json!({"op": "hint", "match": m})).await;
    assert_eq!(code(&spectator), "UNAUTHORIZED", "{spectator}");

    let mut a = hello(&server.addr, &m, &token(&created, "ann")).await;
    let mut b = hello(&server.addr, &m, &token(&created, "bo")).await;
    let extra = a
        .req(json!({"op": "hint", "match": m, "player": "bo"}))
        .await;
    assert_eq!(code(&extra), "BAD_REQUEST", "{extra}");
    let missing = a.req(json!({"op": "hint"})).await;
    assert_eq!(code(&missing), "BAD_REQUEST", "{missing}");

    // The one to act is told to throw, the other gets `null`; both get the status.
    let first = a.req(json!({"op": "hint", "match": m})).await;
    assert_eq!(first["ok"], true, "{first}");
    for field in [
        "turnSeq",
        "toAct",
        "deadline",
        "nextTickAt",
        "clock",
        "over",
    ] {
        assert!(first.get(field).is_some(), "{field} in {first}");
    }
    let (to_act, other) = mover(&first, &mut a, &mut b);
    let mine = to_act.req(json!({"op": "hint", "match": m})).await;
    assert_eq!(mine["hint"], json!({"type": "THROW"}), "{mine}");
    let theirs = other.req(json!({"op": "hint", "match": m})).await;
    assert_eq!(theirs["ok"], true, "{theirs}");
    assert_eq!(theirs["hint"], Value::Null, "{theirs}");

    // Play the hints until one is a move: it is among the seat's legal actions.
    let (hint, status) = loop {
        let status = a.req(json!({"op": "hint", "match": m})).await;
        let (to_act, _) = mover(&status, &mut a, &mut b);
        let r = to_act.req(json!({"op": "hint", "match": m})).await;
        assert_eq!(r["ok"], true, "{r}");
        if r["hint"]["type"] == "MOVE" {
            let legal = to_act.req(json!({"op": "legal", "match": m})).await;
            assert!(
                legal["actions"].as_array().unwrap().contains(&r["hint"]),
                "{r} in {legal}"
            );
            break (r["hint"].clone(), r);
        }
        let acted = to_act
            .req(json!({"op": "act", "match": m, "action": r["hint"], "turnSeq": r["turnSeq"]}))
            .await;
        assert_eq!(acted["ok"], true, "{acted}");
    };
    // Asking changed nothing.
    let again = a.req(json!({"op": "hint", "match": m})).await;
    assert_eq!(again["turnSeq"], status["turnSeq"], "{again}");

    // The player to move leaves: after the grace the engine plays for them, and what it
    // plays is the hint.
    let view = a.req(json!({"op": "view", "match": m})).await;
    let pending = view["view"]["pending"].clone();
    let (to_act, other) = mover(&status, &mut a, &mut b);
    let leaving = std::mem::replace(to_act, Client::connect(&server.addr).await);
    leaving.close().await;
    let push = other
        .push_until(20, |p| {
            p["events"]
                .as_array()
                .is_some_and(|e| e.iter().any(|e| e["type"] == "moved"))
        })
        .await;
    let moved = push["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "moved")
        .unwrap();
    assert_eq!(moved["from"], hint["from"], "{moved} vs {hint}");
    let index = hint["throwIndex"].as_u64().unwrap() as usize;
    assert_eq!(
        moved["result"], pending[index],
        "{moved} vs {hint} of {pending}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_a_policy_bot_says_so() {
    let db = TempDb::new("hint-rps");
    let server = Server::start(&db.path(), 0);
    let mut c = Client::connect(&server.addr).await;
    let created = create(&mut c, "rps", &["ann", "bo"], json!({})).await;
    let m = created["match"].as_str().unwrap().to_owned();
    let mut a = hello(&server.addr, &m, &token(&created, "ann")).await;
    let r = a.req(json!({"op": "hint", "match": m})).await;
    assert_eq!(code(&r), "UNKNOWN_BOT", "{r}");
    assert_eq!(
        r["error"]["reason"]["bots"],
        json!(["random", "pimc", "ismcts"]),
        "{r}"
    );
    // The refusal changed nothing: the match plays on.
    let legal = a.req(json!({"op": "legal", "match": m})).await;
    assert_eq!(legal["ok"], true, "{legal}");
}
