//! Loading match records (`Registry::replay`, `Match::replay`) that were tampered with, for
//! all three games: an unknown game or version, options that do not parse or are out of
//! range, players changed, a changed seed, actions the game refuses (out of turn, from a
//! spectator, after the end), malformed actions, clocks at the end of time, truncated
//! records, extra fields, and thousands of random tamperings. Each replays to a state that
//! passes the check, or is refused with a typed error (a refused entry names its index).

mod common;

use common::{play, setups};
use fuzz::{Bytes, assert_valid, tamper};
use game_core::testing::assert_code;
use game_core::{GameError, Match, MatchRecord, RecordEntry, Registry};
use game_host::registry;
use serde_json::{Value, json};

/// A record of every set-up (ticks and presence changes included), with the stored state
/// after each length of its entries.
fn records(r: &Registry) -> Vec<(MatchRecord, Vec<(usize, Value)>)> {
    setups()
        .into_iter()
        .enumerate()
        .map(|(i, setup)| {
            let mut states = Vec::new();
            let mut m = play(r, setup, 40 + i as u64, 150, |m, _| {
                states.push((m.record().entries.len(), m.state_json()));
            });
            (m.record().clone(), states)
        })
        .collect()
}

/// Replays `record`: a valid state, or a typed refusal with one of `codes` (any code when
/// empty). Returns whether it replayed.
#[track_caller]
fn replay(r: &Registry, record: &MatchRecord, codes: &[&str]) -> bool {
    match r.replay(record) {
        Ok(m) => {
            assert_valid(m.as_ref());
            true
        }
        Err(e) => {
            if codes.is_empty() {
                game_core::testing::assert_typed(&e.body());
            } else {
                assert_code(&e.body_error(), codes);
            }
            false
        }
    }
}

/// The wire body of a host error as a `GameError` whose code is the body's code.
trait BodyError {
    fn body_error(&self) -> Body;
}

impl BodyError for game_core::HostError {
    fn body_error(&self) -> Body {
        Body(self.body())
    }
}

/// An error body, seen through `GameError` (for `assert_code`).
#[derive(Debug)]
struct Body(game_core::ErrorBody);

impl std::fmt::Display for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Body {}

impl GameError for Body {
    fn code(&self) -> &'static str {
        "BODY"
    }

    fn body(&self) -> game_core::ErrorBody {
        self.0.clone()
    }
}

#[test]
fn unknown_game_or_version() {
    let r = registry();
    for (record, _) in records(&r) {
        for game in ["", "chess", "YUT", "yut-augments ", "rps\u{0}"] {
            let mut t = record.clone();
            t.game = game.into();
            assert!(!replay(&r, &t, &["UNKNOWN_GAME"]));
        }
        for version in [0, 2, 7, u32::MAX] {
            let mut t = record.clone();
            t.version = version;
            assert!(!replay(&r, &t, &["RECORD_UNSUPPORTED_VERSION"]));
        }
    }
    // Through the typed API, a record of another game is named as such.
    let (record, _) = records(&r).remove(0);
    let err = Match::replay(game_core::rps::Rps, &record).unwrap_err();
    assert_eq!(err.code(), "RECORD_WRONG_GAME");
}

#[test]
fn options_players_and_seed_changed() {
    let r = registry();
    for (record, _) in records(&r) {
        // Options are read as strictly as `create` reads them.
        let codes = ["RECORD_MALFORMED", "INVALID_OPTION", "BAD_JSON"];
        for options in [
            json!(null),
            json!("fast"),
            json!({ "pieces": "four" }),
            json!({ "wings": 1 }),
            json!({ "pieces": 9, "winsNeeded": 0 }),
            json!({ "turnSeconds": 1 }),
        ] {
            let mut t = record.clone();
            t.options = options;
            assert!(!replay(&r, &t, &codes), "{}", t.options);
        }
        let mut t = record.clone();
        t.players.push(t.players[0].clone());
        assert!(!replay(&r, &t, &[]));
        let mut t = record.clone();
        t.players.clear();
        assert!(!replay(&r, &t, &[]));
        // Another order or another seed: another game, which the entries may not fit.
        let mut t = record.clone();
        t.players.reverse();
        replay(&r, &t, &[]);
        for seed in [0, 1, u64::MAX] {
            let mut t = record.clone();
            t.seed = seed;
            replay(&r, &t, &[]);
        }
        let mut t = record.clone();
        t.started_at = u64::MAX;
        assert!(!replay(&r, &t, &["RECORD_MALFORMED"]));
    }
}

#[test]
fn refused_and_malformed_entries_name_their_index() {
    let r = registry();
    for (record, _) in records(&r) {
        let n = record.entries.len();
        let refused = |entry: RecordEntry, codes: &[&str]| {
            let mut t = record.clone();
            t.entries.push(entry);
            let err = r.replay(&t).expect_err("refused");
            let body = err.body();
            assert!(codes.contains(&body.code.as_str()), "{body:?}");
            if body.code != "RECORD_MALFORMED" {
                assert_eq!(body.reason["entry"], n, "{body:?}");
            }
        };
        refused(
            RecordEntry::Act {
                at: 1,
                player: "watcher".into(),
                action: json!({ "type": "CONCEDE" }),
            },
            &["NOT_SEATED"],
        );
        refused(
            RecordEntry::Presence {
                at: 1,
                player: "watcher".into(),
                connected: false,
            },
            &["NOT_SEATED"],
        );
        refused(
            RecordEntry::Act {
                at: 1,
                player: record.players[0].clone(),
                action: json!({ "type": "JUMP" }),
            },
            &["RECORD_MALFORMED"],
        );
        refused(
            RecordEntry::Act {
                at: 1,
                player: record.players[0].clone(),
                action: json!({ "type": "MOVE", "throwIndex": 99, "from": "home" }),
            },
            &[
                "RECORD_MALFORMED",
                "NOT_YOUR_TURN",
                "NOT_MOVE_PHASE",
                "UNKNOWN_THROW_INDEX",
                "GAME_OVER",
                "ALREADY_CONCEDED",
            ],
        );
        // After the end every action is refused; a tick at the end of time takes nothing.
        let m = r.replay(&record).unwrap();
        if m.outcome().is_some() {
            refused(
                RecordEntry::Act {
                    at: 1,
                    player: record.players[1].clone(),
                    action: json!({ "type": "CONCEDE" }),
                },
                &["GAME_OVER"],
            );
        }
        // A tick at the end of what a host's clock sends takes nothing; a time past it
        // (which no live operation takes) is refused.
        let mut t = record.clone();
        t.entries.push(RecordEntry::Tick {
            at: game_core::MAX_SAFE_INTEGER,
        });
        t.entries.push(RecordEntry::Tick { at: 0 });
        assert!(replay(&r, &t, &[]));
        let mut t = record.clone();
        t.entries.push(RecordEntry::Tick { at: u64::MAX });
        assert!(!replay(&r, &t, &["RECORD_MALFORMED"]));
    }
}

#[test]
fn truncated_records_replay_to_the_state_of_that_moment() {
    let r = registry();
    for (record, states) in records(&r) {
        for (len, state) in states.iter().step_by(3) {
            let mut t = record.clone();
            t.entries.truncate(*len);
            let m = r.replay(&t).unwrap();
            assert_eq!(&m.state_json(), state, "{} entries", len);
        }
    }
}

/// Unknown fields in a record are refused, at the top and in every entry: a record is
/// read as strictly as a request, so a typo (`startedat`) cannot pass for a default.
#[test]
fn extra_fields_are_refused() {
    let r = registry();
    for (record, _) in records(&r) {
        let v = serde_json::to_value(&record).unwrap();
        let mut top = v.clone();
        top["comment"] = json!("x".repeat(1 << 12));
        let err = serde_json::from_value::<MatchRecord>(top).unwrap_err();
        assert!(err.to_string().contains("unknown field `comment`"), "{err}");
        if v["entries"].as_array().is_some_and(|e| !e.is_empty()) {
            let mut inner = v.clone();
            inner["entries"][0]["extra"] = json!({ "nested": [1, 2, 3] });
            let err = serde_json::from_value::<MatchRecord>(inner).unwrap_err();
            assert!(err.to_string().contains("unknown field `extra`"), "{err}");
        }
        let same: MatchRecord = serde_json::from_value(v).unwrap();
        assert_eq!(same, record);
    }
}

#[test]
fn random_tamperings_replay_valid_or_are_refused_typed() {
    let r = registry();
    let (mut replayed, mut refused, mut unparsed) = (0, 0, 0);
    for (k, (record, _)) in records(&r).into_iter().enumerate() {
        let original = serde_json::to_value(&record).unwrap();
        for i in 0..120u64 {
            let seed = (k as u64 + 1) * 1_000_003 + i;
            let bytes: Vec<u8> = (0..40u64)
                .map(|j| {
                    (seed
                        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                        .rotate_left(j as u32 * 5)
                        >> 7) as u8
                })
                .collect();
            let mut b = Bytes::new(&bytes);
            let mut v = original.clone();
            tamper(&mut b, &mut v);
            let Ok(t) = serde_json::from_value::<MatchRecord>(v) else {
                unparsed += 1;
                continue;
            };
            if replay(&r, &t, &[]) {
                replayed += 1;
            } else {
                refused += 1;
            }
        }
    }
    assert!(
        replayed > 0 && refused > 0 && unparsed > 0,
        "{replayed} {refused} {unparsed}"
    );
}
