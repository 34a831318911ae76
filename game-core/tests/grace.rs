//! The disconnect grace a host sets for one match: it replaces the game's, survives a
//! stored state and a record, and a state or record without it reads as before.

use game_core::testing::players;
use game_core::{
    Erased, GameError, MAX_TIME, Match, MatchRecord, RecordEntry, Registry,
    rps::{Rps, RpsOptions},
};
use serde_json::json;

fn untimed() -> RpsOptions {
    RpsOptions {
        wins_needed: 9,
        turn_seconds: None,
    }
}

fn registry() -> Registry {
    let mut r = Registry::new();
    r.register(Erased(Rps)).unwrap();
    r
}

#[test]
fn a_match_with_a_one_second_grace_acts_at_one_second_not_five() {
    let mut m = Match::new(Rps, untimed(), players(2), 1, 10_000).unwrap();
    m.set_grace_ms(1_000).unwrap();
    m.set_connected("p1", false, 10_000);
    assert_eq!(m.next_tick_at(), Some(11_000));
    assert!(m.tick(10_999).is_empty());
    let done = m.tick(11_000);
    assert_eq!(done.len(), 1);
    assert!(done[0].auto && done[0].player == "p1");

    // The same through the erased layer, and the game's own grace without the setting.
    let r = registry();
    let options = json!({ "turnSeconds": null });
    for (grace, acts_at) in [(Some(1_000), 11_000), (None, 15_000)] {
        let mut m = r
            .create("rps", &options, players(2), Some(1), 10_000)
            .unwrap();
        if let Some(grace) = grace {
            m.set_grace_ms(grace).unwrap();
        }
        m.set_connected("p1", false, 10_000);
        assert_eq!(m.next_tick_at(), Some(acts_at));
        assert!(m.tick(acts_at - 1).is_empty());
        assert_eq!(m.tick(acts_at).len(), 1);
    }
}

#[test]
fn a_grace_of_zero_acts_at_once_and_a_change_applies_to_a_grace_running() {
    let mut m = Match::new(Rps, untimed(), players(2), 1, 0).unwrap();
    m.set_connected("p0", false, 1_000);
    assert_eq!(m.next_tick_at(), Some(6_000));
    m.set_grace_ms(500).unwrap();
    assert_eq!(m.next_tick_at(), Some(1_500));
    m.set_grace_ms(0).unwrap();
    assert_eq!(m.next_tick_at(), Some(1_000));
    assert_eq!(m.tick(1_000).len(), 1);
}

#[test]
fn a_stored_state_keeps_the_grace_and_one_without_it_keeps_the_games() {
    let r = registry();
    let options = json!({ "turnSeconds": null });
    let plain = r.create("rps", &options, players(2), Some(1), 0).unwrap();
    let stored = plain.state_json();
    // Unset, the stored form is what it always was.
    assert!(stored["table"].get("graceMs").is_none(), "{stored}");
    assert_eq!(
        r.restore("rps", &stored.to_string()).unwrap().grace_ms(),
        5_000
    );

    let mut m = r.create("rps", &options, players(2), Some(1), 0).unwrap();
    m.set_grace_ms(1_000).unwrap();
    let stored = m.state_json();
    assert_eq!(stored["table"]["graceMs"], 1_000);
    let mut back = r.restore("rps", &stored.to_string()).unwrap();
    assert_eq!(back.grace_ms(), 1_000);
    assert_eq!(back.state_json(), stored);
    back.set_connected("p1", false, 100);
    assert_eq!(back.next_tick_at(), Some(1_100));
    // A restored match's record replays from its base, which holds the grace.
    let replayed = r.replay(back.record()).unwrap();
    assert_eq!(replayed.state_json(), back.state_json());

    // A tampered grace is refused like any other time past the clock's end.
    let mut tampered = stored.clone();
    tampered["table"]["graceMs"] = json!(MAX_TIME + 1);
    let err = r.restore("rps", &tampered.to_string()).unwrap_err();
    assert_eq!(err.body().code, "CORRUPT_STATE");
}

#[test]
fn records_replay_byte_for_byte_with_the_grace_and_without() {
    let r = registry();
    let options = json!({ "turnSeconds": null });
    for grace in [None, Some(1_000)] {
        let mut m = r.create("rps", &options, players(2), Some(3), 0).unwrap();
        if let Some(grace) = grace {
            m.set_grace_ms(grace).unwrap();
            // Setting the grace in force again records nothing.
            m.set_grace_ms(grace).unwrap();
        }
        let pick = json!({ "type": "PICK", "hand": "rock" });
        assert!(m.act("p0", pick, None, 100).result.is_ok());
        m.set_connected("p1", false, 200);
        // The timeout is recorded as a tick: what it takes depends on the grace.
        let at = m.next_tick_at().unwrap();
        assert_eq!(at, 200 + grace.unwrap_or(5_000));
        assert_eq!(m.tick(at).len(), 1);
        let record = m.record().clone();
        let graces = record
            .entries
            .iter()
            .filter(|e| matches!(e, RecordEntry::Grace { .. }))
            .count();
        assert_eq!(graces, usize::from(grace.is_some()));
        let text = serde_json::to_string(&record).unwrap();
        let read: MatchRecord = serde_json::from_str(&text).unwrap();
        let mut again = r.replay(&read).unwrap();
        assert_eq!(again.state_json(), m.state_json());
        assert_eq!(serde_json::to_string(again.record()).unwrap(), text);
    }
    // The entry's wire form.
    let entry = RecordEntry::Grace { grace_ms: 1_000 };
    assert_eq!(
        serde_json::to_value(&entry).unwrap(),
        json!({ "kind": "grace", "graceMs": 1_000 })
    );
}

#[test]
fn a_grace_past_the_clock_is_a_typed_error_and_changes_nothing() {
    let mut m = Match::new(Rps, untimed(), players(2), 1, 0).unwrap();
    let state = m.state().clone();
    let err = m.set_grace_ms(MAX_TIME + 1).unwrap_err();
    assert_eq!(err.got, MAX_TIME + 1);
    assert_eq!(m.state(), &state);
    assert!(m.record().entries.is_empty());
    assert!(m.set_grace_ms(MAX_TIME).is_ok());

    let r = registry();
    let mut dm = r.create("rps", &json!({}), players(2), Some(1), 0).unwrap();
    let before = dm.state_json();
    let err = dm.set_grace_ms(u64::MAX).unwrap_err();
    assert_eq!(err.body().code, "INVALID_OPTION");
    assert_eq!(err.body().reason["option"], "graceMs");
    assert_eq!(dm.state_json(), before);

    // A record whose grace is past the clock is malformed.
    let mut record = dm.record().clone();
    record
        .entries
        .push(RecordEntry::Grace { grace_ms: u64::MAX });
    let err = r.replay(&record).unwrap_err();
    assert_eq!(err.body().code, "RECORD_MALFORMED");
}
