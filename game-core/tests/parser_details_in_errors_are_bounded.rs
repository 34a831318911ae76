//! Regression: the JSON parser's message quotes its input (an unknown variant, an oversized
//! string), and the errors carried it whole — in `BAD_JSON`'s player-facing message *and*
//! its reason, in `RECORD_MALFORMED`, in `CORRUPT_STATE` — so a 1 MiB bogus action came back
//! as a 2 MiB error body. The detail is cut to 256 bytes now (on a character boundary).

use game_core::rps::{Rps, RpsAction, RpsOptions};
use game_core::{Erased, Game, GameError, Match, RecordEntry, Registry};
use serde_json::json;

/// Bytes of an error body on the wire.
fn size(body: &game_core::ErrorBody) -> usize {
    serde_json::to_string(body).unwrap().len()
}

#[test]
fn oversized_input_does_not_come_back_in_the_error() {
    let big = "가".repeat(1 << 18); // 768 KiB of three-byte characters
    let mut registry = Registry::new();
    registry.register(Erased(Rps)).unwrap();
    let players = vec!["ann".to_string(), "bo".to_string()];

    let mut m = registry
        .create("rps", &json!({}), players.clone(), Some(1), 0)
        .unwrap();
    let err = m
        .act("ann", json!({ "type": "PICK", "hand": big }), None, 1)
        .result
        .unwrap_err();
    assert_eq!(err.code(), "BAD_JSON");
    assert!(size(&err.body()) < 1_024, "{} bytes", size(&err.body()));
    // The Korean message names the part; the parser's (cut) words are the reason's.
    assert!(!err.body().message.contains('가'), "{}", err.body().message);
    assert!(err.body().reason["detail"].as_str().unwrap().contains('…'));

    let err = registry
        .create(
            "rps",
            &json!({ big.clone(): 1 }),
            players.clone(),
            Some(1),
            0,
        )
        .err()
        .unwrap();
    assert_eq!(err.code(), "INVALID_OPTION");
    assert!(size(&err.body()) < 1_024);

    let mut m = Match::new(Rps, RpsOptions::default(), players, 1, 0).unwrap();
    m.act("ann", &RpsAction::Random, 1).unwrap();
    let mut record = m.record().clone();
    record.entries.push(RecordEntry::Act {
        at: 2,
        player: "bo".into(),
        action: json!({ "type": big.clone() }),
    });
    let err = Match::replay(Rps, &record).unwrap_err();
    assert_eq!(err.code(), "RECORD_MALFORMED");
    assert!(size(&err.body()) < 1_024);

    let err = Rps.restore(&format!("\"{big}\"")).unwrap_err();
    assert_eq!(err.code(), "CORRUPT_STATE");
    assert!(size(&err.body()) < 1_024);

    // A short detail is kept whole.
    let err = Rps.restore("{}").unwrap_err();
    assert!(!err.body().reason["detail"].as_str().unwrap().contains('…'));
}
