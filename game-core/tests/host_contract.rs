//! The contract a host builds on, through the erased layer and the typed engine: one clock
//! per match that refused requests never move and that never runs backwards, the time of
//! the next timeout (`next_tick_at`), late requests judged after the timeouts that were due,
//! presence changes as events, seeds from the operating system, stored states restored.

use game_core::GameExt;
use game_core::rps::{Hand, Rps, RpsAction, RpsOptions};
use game_core::testing::players;
use game_core::{DynMatch, Erased, Game, GameError, Match, Registry};
use serde_json::{Value, json};

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.register(Erased(Rps)).unwrap();
    registry
}

/// An rps match to 5 wins, 15 s a round, created at 1 s.
fn new_match() -> Box<dyn DynMatch> {
    registry()
        .create(
            "rps",
            &json!({ "winsNeeded": 5 }),
            players(2),
            Some(7),
            1_000,
        )
        .unwrap()
}

fn rock() -> Value {
    json!({ "type": "PICK", "hand": "rock" })
}

fn code(e: &impl GameError) -> String {
    e.body().code
}

#[test]
fn a_refused_request_changes_nothing_not_even_the_clock() {
    let mut m = new_match();
    m.act("p0", rock(), None, 2_000).result.unwrap();
    let before = (
        m.state_json(),
        m.record().clone(),
        m.deadline(),
        m.next_tick_at(),
    );
    assert_eq!(before.2, Some(16_000));
    // Refused at the end of time, or at its start: someone not seated, a stale `turnSeq`,
    // JSON that is no action, a pick made twice, a presence change of nobody.
    for now in [u64::MAX, 0, 16_000] {
        let refusals = [
            m.act("zed", rock(), None, now),
            m.act("p1", rock(), Some(0), now),
            m.act("p1", json!({ "type": "PIKC" }), None, now),
            m.set_connected("zed", false, now),
        ];
        for played in refusals {
            assert!(played.result.is_err());
            assert!(played.applied.is_empty(), "{:?}", played.applied);
        }
        if now < 16_000 {
            let twice = m.act("p0", rock(), None, now);
            assert_eq!(code(&twice.result.unwrap_err()), "ALREADY_PICKED");
        }
        let after = (
            m.state_json(),
            m.record().clone(),
            m.deadline(),
            m.next_tick_at(),
        );
        assert_eq!(after, before, "refused at {now}");
    }
    assert_eq!(m.clock(), 2_000);
}

#[test]
fn a_now_earlier_than_the_clock_is_read_as_the_clock() {
    let mut m = new_match();
    m.act("p0", rock(), None, 9_000).result.unwrap();
    assert_eq!(m.clock(), 9_000);
    // p1's pick "at 0" is taken at 9 s: the next round's deadline is 9 s + 15 s, not 15 s.
    m.act("p1", rock(), None, 0).result.unwrap();
    assert_eq!(m.clock(), 9_000);
    assert_eq!(m.deadline(), Some(24_000));
    // A tick in the past takes nothing and changes nothing.
    let state = m.state_json();
    assert!(m.tick(5_000).is_empty());
    assert_eq!(m.state_json(), state);
    // The record replays to the same state, clock included.
    let again = registry().replay(m.record()).unwrap();
    assert_eq!(again.state_json(), m.state_json());
}

#[test]
fn next_tick_at_is_when_tick_acts_grace_included() {
    let mut m = new_match();
    assert_eq!(m.deadline(), Some(16_000));
    assert_eq!(m.next_tick_at(), Some(16_000));
    assert!(m.tick(15_999).is_empty());
    // p1 drops at 2 s: the countdown players see stays, the engine acts at 2 s + 5 s.
    let events = m.set_connected("p1", false, 2_000).result.unwrap();
    assert_eq!(
        events,
        [json!({ "type": "presenceChanged", "player": "p1", "connected": false, "away": false })]
    );
    assert_eq!(m.deadline(), Some(16_000));
    assert_eq!(m.next_tick_at(), Some(7_000));
    assert!(m.tick(6_999).is_empty());
    let applied = m.tick(7_000);
    assert_eq!(applied.len(), 1);
    assert_eq!(applied[0].player, "p1");
    assert!(applied[0].auto);
    // p0 still has the round's deadline.
    assert_eq!(m.next_tick_at(), Some(16_000));
    // Without a time limit only the grace is timed.
    let mut untimed = registry()
        .create(
            "rps",
            &json!({ "turnSeconds": null }),
            players(2),
            Some(1),
            0,
        )
        .unwrap();
    assert_eq!((untimed.deadline(), untimed.next_tick_at()), (None, None));
    untimed.set_connected("p0", false, 100).result.unwrap();
    assert_eq!(
        (untimed.deadline(), untimed.next_tick_at()),
        (None, Some(5_100))
    );
}

#[test]
fn a_late_move_is_judged_after_the_due_timeouts() {
    let mut m = new_match();
    let seq = m.turn_seq();
    // p0's pick arrives after the round's time ran out: the engine picks for both first.
    let late = m.act("p0", rock(), Some(seq), 16_000);
    assert_eq!(late.applied.len(), 2);
    assert!(late.applied.iter().all(|a| a.auto));
    assert_eq!(code(&late.result.unwrap_err()), "STALE_TURN_SEQ");
    // Both were recorded as one tick, and the record replays.
    assert_eq!(m.record().entries.len(), 1);
    let again = registry().replay(m.record()).unwrap();
    assert_eq!(again.state_json(), m.state_json());
    // Without a `turnSeq` the move is judged on the new round, after the timeouts.
    let deadline = m.deadline().unwrap();
    let late = m.act("p0", rock(), None, deadline);
    assert_eq!(late.applied.len(), 2);
    let events = late.result.unwrap();
    assert_eq!(events[0]["type"], "picked");
    let again = registry().replay(m.record()).unwrap();
    assert_eq!(again.state_json(), m.state_json());
}

#[test]
fn the_typed_engine_never_accepts_a_move_after_its_time() {
    let players = players(2);
    let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    let pick = RpsAction::Pick { hand: Hand::Paper };
    let deadline = Rps.next_tick_at(&state).unwrap();
    let played = Rps.play(&mut state, 0, &pick, None, deadline, &mut Vec::new());
    assert_eq!(
        played.applied.len(),
        2,
        "the round was played for both first"
    );
    // The move then counts for the next round.
    assert!(played.result.is_ok());
    assert_eq!(state.picks()[0], Some(Hand::Paper));
}

#[test]
fn presence_changes_are_events_and_no_op_updates_are_not_recorded() {
    let mut m = new_match();
    let entries = m.record().entries.len();
    assert!(
        m.set_connected("p0", true, 1_500)
            .result
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        m.record().entries.len(),
        entries,
        "already connected: not recorded"
    );
    m.set_connected("p0", false, 1_500).result.unwrap();
    assert!(
        m.set_connected("p0", false, 1_600)
            .result
            .unwrap()
            .is_empty()
    );
    assert_eq!(m.record().entries.len(), entries + 1);
    let back = m.set_connected("p0", true, 1_700).result.unwrap();
    assert_eq!(back[0]["connected"], true);

    // Three timeouts in a row: the third marks both players away, as an event.
    let mut away = Vec::new();
    for _ in 0..3 {
        let at = m.next_tick_at().unwrap();
        for applied in m.tick(at) {
            away.extend(
                applied
                    .events
                    .into_iter()
                    .filter(|e| e["type"] == "presenceChanged"),
            );
        }
    }
    assert_eq!(
        away,
        [
            json!({ "type": "presenceChanged", "player": "p0", "connected": true, "away": true }),
            json!({ "type": "presenceChanged", "player": "p1", "connected": true, "away": true }),
        ]
    );
    assert!(m.view(None).unwrap().to_string().contains("away"));
    // p0's own pick brings them back, and says so.
    let events = m.act("p0", rock(), None, m.clock()).result.unwrap();
    assert_eq!(
        events.last().unwrap(),
        &json!({ "type": "presenceChanged", "player": "p0", "connected": true, "away": false })
    );
}

#[test]
fn matches_created_without_a_seed_are_dealt_different_draws() {
    let registry = registry();
    let seeds: Vec<u64> = (0..3)
        .map(|_| {
            registry
                .create("rps", &json!({}), players(2), None, 0)
                .unwrap()
                .record()
                .seed
        })
        .collect();
    assert!(
        seeds[0] != seeds[1] && seeds[1] != seeds[2] && seeds[0] != seeds[2],
        "{seeds:?}"
    );
    // Exact as a JavaScript number, so that a TypeScript host's record keeps its seed.
    assert!(
        seeds.iter().all(|&s| s <= game_core::MAX_SAFE_INTEGER),
        "{seeds:?}"
    );
    // A given seed is kept as given (replays and tests rely on it).
    let mut m = registry
        .create("rps", &json!({}), players(2), Some(42), 0)
        .unwrap();
    assert_eq!(m.record().seed, 42);
}

#[test]
fn a_stored_state_is_restored_validated_and_goes_on_recording() {
    let registry = registry();
    let mut m = new_match();
    m.act("p0", rock(), None, 2_000).result.unwrap();
    let stored = m.state_json().to_string();

    let mut back = registry.restore("rps", &stored).unwrap();
    assert_eq!(back.state_json(), m.state_json());
    assert_eq!(back.clock(), m.clock());
    back.act(
        "p1",
        json!({ "type": "PICK", "hand": "paper" }),
        None,
        3_000,
    )
    .result
    .unwrap();
    // Its record starts from the stored state and replays like any other.
    assert!(back.record().base.is_some());
    let again = registry.replay(back.record()).unwrap();
    assert_eq!(again.state_json(), back.state_json());

    // Tampered states are refused exactly as the typed `Game::restore` refuses them.
    let mut tampered: Value = serde_json::from_str(&stored).unwrap();
    tampered["scores"] = json!([9, 9]);
    let err = registry.restore("rps", &tampered.to_string()).unwrap_err();
    let typed = Rps.restore(&tampered.to_string()).unwrap_err();
    assert_eq!(err.body(), typed.body());
    assert_eq!(
        code(&registry.restore("rps", "[]").unwrap_err()),
        "CORRUPT_STATE"
    );
    assert_eq!(
        code(&registry.restore("chess", &stored).unwrap_err()),
        "UNKNOWN_GAME"
    );
    // A record whose base is tampered is refused the same way.
    let mut record = back.record().clone();
    record.base = Some(tampered);
    assert_eq!(
        code(&registry.replay(&record).unwrap_err()),
        "CORRUPT_STATE"
    );
    // And the typed match restores as well.
    let typed = Match::restore(Rps, &stored).unwrap();
    assert_eq!(serde_json::to_value(typed.state()).unwrap(), m.state_json());
}

#[test]
fn one_id_one_game() {
    let mut registry = registry();
    let err = registry.register(Erased(Rps)).unwrap_err();
    assert_eq!(code(&err), "GAME_EXISTS");
    assert_eq!(registry.ids().collect::<Vec<_>>(), ["rps"]);
}

#[test]
fn every_error_body_has_a_reason_object_and_a_korean_message_without_parser_text() {
    let mut m = new_match();
    let mut bodies = vec![
        m.act("p0", json!({ "type": "PICK", "hand": "rok" }), None, 0)
            .result
            .unwrap_err()
            .body(),
        m.act("zed", rock(), None, 0).result.unwrap_err().body(),
        m.act("p0", rock(), Some(5), 0).result.unwrap_err().body(),
        registry()
            .create("rps", &json!({ "winsNeeded": "x" }), players(2), Some(1), 0)
            .unwrap_err()
            .body(),
        registry()
            .create("rps", &json!([]), players(2), Some(1), 0)
            .unwrap_err()
            .body(),
        registry().restore("rps", "{").unwrap_err().body(),
    ];
    m.act("p0", json!({ "type": "CONCEDE" }), None, 0)
        .result
        .unwrap();
    bodies.push(m.act("p1", rock(), None, 0).result.unwrap_err().body());
    for body in bodies {
        let json = serde_json::to_value(&body).unwrap();
        assert!(json["reason"].is_object(), "{json}");
        assert!(!body.message.is_ascii(), "{json}");
        for english in ["expected", "invalid", "unknown", "EOF", "line "] {
            assert!(!body.message.contains(english), "{json}");
        }
    }
}
