//! `replay` (what `load` and a server's restore run) judges a record by the live
//! operations' rules: every record it accepts is one `play`, `tick` and `set_connected`
//! could have written.

use game_core::testing::players;
use game_core::{
    GameError, MAX_SAFE_INTEGER, MAX_TIME, Match, MatchRecord, RecordEntry,
    rps::{Hand, Rps, RpsAction, RpsOptions},
};
use serde_json::json;

fn pick(hand: Hand) -> RpsAction {
    RpsAction::Pick { hand }
}

/// A new match with a 5 s round, started at 1 000: its first deadline is 6 000.
fn new_match() -> Match<Rps> {
    let options = RpsOptions {
        wins_needed: 3,
        turn_seconds: Some(5),
    };
    Match::new(Rps, options, players(2), 7, 1_000).unwrap()
}

fn refused_part(record: &MatchRecord) -> (String, String) {
    let e = Match::replay(Rps, record).expect_err("the record is refused");
    let body = serde_json::to_value(e.body()).unwrap();
    (
        body["code"].as_str().unwrap().to_owned(),
        body["reason"]["part"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

/// The break: an act after its deadline, no tick before it. The live op takes the
/// timeout first and records it; a record without that tick is refused.
#[test]
fn an_act_after_its_deadline_without_its_tick_is_refused() {
    let mut m = new_match();
    let mut record = m.record().clone();
    record.entries.push(RecordEntry::Act {
        at: 9_000,
        player: "p1".into(),
        action: json!({"type": "PICK", "hand": "rock"}),
    });
    assert_eq!(
        refused_part(&record),
        ("RECORD_MALFORMED".into(), "entries".into())
    );

    // What the live op writes for the same input: the timeout's tick, then the act
    // judged after it (here accepted: the round the timeout left is still open for p1).
    let played = m.play("p1", &pick(Hand::Rock), None, 9_000);
    let written = m.record().clone();
    assert!(matches!(
        written.entries[0],
        RecordEntry::Tick { at: 9_000 }
    ));
    let back = Match::replay(Rps, &written).expect("a record the live ops wrote loads");
    assert_eq!(back.state(), m.state());
    assert_eq!(played.result.is_ok(), written.entries.len() == 2);
}

/// A presence change after a deadline without its tick: refused the same way.
#[test]
fn a_presence_change_after_a_deadline_without_its_tick_is_refused() {
    let mut m = new_match();
    let mut record = m.record().clone();
    record.entries.push(RecordEntry::Presence {
        at: 7_000,
        player: "p0".into(),
        connected: false,
    });
    assert_eq!(
        refused_part(&record),
        ("RECORD_MALFORMED".into(), "entries".into())
    );
    m.set_connected("p0", false, 7_000);
    let written = m.record().clone();
    assert_eq!(Match::replay(Rps, &written).unwrap().state(), m.state());
}

/// Times past 2^53 − 1 (which every live op refuses) are refused, in entries and at the
/// start; 2^53 − 1 itself, read as the end of the clock, loads.
#[test]
fn times_past_the_largest_safe_integer_are_refused() {
    let mut m = new_match();
    let base = m.record().clone();
    for bad in [MAX_SAFE_INTEGER + 1, u64::MAX] {
        let mut record = base.clone();
        record.entries.push(RecordEntry::Tick { at: bad });
        assert_eq!(
            refused_part(&record),
            ("RECORD_MALFORMED".into(), "at".into())
        );
        let mut record = base.clone();
        record.started_at = bad;
        assert_eq!(
            refused_part(&record),
            ("RECORD_MALFORMED".into(), "startedAt".into())
        );
    }
    // The end of the clock: ticks there act every time (a decision is due as soon as it
    // is asked), and an act right after its own tick is judged as the live op judged it.
    m.tick(MAX_SAFE_INTEGER);
    let _ = m.play("p0", &pick(Hand::Paper), None, MAX_SAFE_INTEGER);
    m.tick(MAX_TIME);
    let written = m.record().clone();
    assert!(written.entries.len() >= 2, "{written:?}");
    assert_eq!(Match::replay(Rps, &written).unwrap().state(), m.state());
}

/// Records of random live play, timeouts and presence included, still load unchanged.
#[test]
fn records_the_live_ops_wrote_load() {
    for seed in 0..64u64 {
        let mut m = new_match();
        let mut now = 1_000;
        for step in 0..200u64 {
            now += (seed * 7 + step * 13) % 4_000;
            let player = ["p0", "p1"][(step % 2) as usize];
            match (seed + step) % 5 {
                0 => {
                    m.tick(now);
                }
                1 => {
                    m.set_connected(player, step % 3 == 0, now);
                }
                _ => {
                    let hand = [Hand::Rock, Hand::Paper, Hand::Scissors][(step % 3) as usize];
                    let _ = m.play(player, &pick(hand), None, now);
                }
            }
        }
        let written = m.record().clone();
        let back = Match::replay(Rps, &written).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(back.state(), m.state(), "seed {seed}");
    }
}
