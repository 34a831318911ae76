//! A match record replays to the identical state, byte for byte, and only for its own game
//! and format version.

use game_core::GameExt;
use game_core::GameState;
use game_core::testing::players;
use game_core::{
    Bot, Game, GameError, GameRng, Match, MatchRecord, RandomBot, RecordEntry,
    rps::{Hand, Rps, RpsAction, RpsOptions},
};

/// What the random games went through, to prove the records cover every kind of entry.
#[derive(Debug, Default)]
struct Coverage {
    acts: usize,
    auto: usize,
    presence: usize,
    won_on_points: usize,
    conceded: usize,
}

/// Plays one random match: bots act, the clock jumps (firing timeouts), players drop and
/// come back, and some refused actions are thrown in.
fn random_match(seed: u64, coverage: &mut Coverage) -> Match<Rps> {
    let mut driver = GameRng::from_seed(seed ^ 0xD1CE);
    let options = RpsOptions {
        wins_needed: 1 + driver.below(4) as u8,
        turn_seconds: [None, Some(5), Some(15)][driver.below(3) as usize],
    };
    let players = players(2);
    let mut m = Match::new(Rps, options, players.clone(), seed, 1_000).unwrap();
    let mut bots = [RandomBot::new(seed * 2 + 1), RandomBot::new(seed * 2 + 2)];
    let mut now = 1_000;
    for _ in 0..400 {
        if Rps.is_over(m.state()) {
            break;
        }
        now += u64::from(driver.below(3_000));
        match driver.below(10) {
            0..=5 => {
                // As a host does: the timeouts due by now first, then the bot's choice.
                coverage.auto += m.tick(now).len();
                let to_act = Rps.to_act(m.state());
                if to_act.is_empty() {
                    continue;
                }
                let seat = to_act[driver.below(to_act.len() as u32) as usize];
                let action = bots[seat].choose(&Rps, m.state(), seat).unwrap();
                // Conceding is legal, but keep games long enough to be interesting.
                if action == RpsAction::Concede && driver.below(20) != 0 {
                    continue;
                }
                m.act(&players[seat], &action, now).unwrap();
                coverage.acts += 1;
            }
            6 | 7 => {
                now += u64::from(driver.below(16_000));
                coverage.auto += m.tick(now).len();
            }
            8 => {
                let seat = driver.below(2) as usize;
                let connected = driver.chance(1, 2);
                m.set_connected(&players[seat], connected, now)
                    .result
                    .unwrap();
                coverage.presence += 1;
            }
            _ => {
                // Refused inputs are neither applied nor recorded.
                coverage.auto += m.tick(now).len();
                let entries = m.record().entries.len();
                let seat = driver.below(2) as usize;
                let bad = if m.state().picks()[seat].is_some() {
                    m.act(&players[seat], &RpsAction::Random, now)
                } else {
                    m.act("spectator", &RpsAction::Pick { hand: Hand::Rock }, now)
                };
                assert!(bad.is_err());
                assert_eq!(m.record().entries.len(), entries);
            }
        }
    }
    if let Some(outcome) = Rps.outcome(m.state()) {
        if outcome.conceded {
            coverage.conceded += 1;
        } else {
            coverage.won_on_points += 1;
        }
    }
    m
}

#[test]
fn random_matches_replay_identically() {
    let mut coverage = Coverage::default();
    for seed in 0..150 {
        let mut m = random_match(seed, &mut coverage);
        let mut replayed = Match::replay(Rps, m.record()).unwrap();
        assert_eq!(replayed.state(), m.state(), "seed {seed}");
        assert_eq!(
            serde_json::to_string(&replayed.state()).unwrap(),
            serde_json::to_string(&m.state()).unwrap(),
            "seed {seed}"
        );
        assert_eq!(replayed.record(), m.record());

        // The record survives its own JSON form.
        let json = serde_json::to_string(&m.record()).unwrap();
        let record: MatchRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(Match::replay(Rps, &record).unwrap().state(), m.state());
    }
    assert!(coverage.acts > 300, "{coverage:?}");
    assert!(coverage.auto > 50, "{coverage:?}");
    assert!(coverage.presence > 50, "{coverage:?}");
    assert!(coverage.won_on_points > 50, "{coverage:?}");
    assert!(coverage.conceded > 0, "{coverage:?}");
}

#[test]
fn ticks_are_recorded_only_when_they_act() {
    let mut m = Match::new(Rps, RpsOptions::default(), players(2), 9, 0).unwrap();
    assert!(m.tick(1_000).is_empty());
    assert!(m.record().entries.is_empty());
    let done = m.tick(15_000);
    assert_eq!(done.len(), 2);
    assert_eq!(m.record().entries, vec![RecordEntry::Tick { at: 15_000 }]);
    let replayed = Match::replay(Rps, m.record()).unwrap();
    assert_eq!(replayed.state(), m.state());
}

#[test]
fn record_of_another_game_is_refused() {
    let mut m = Match::new(Rps, RpsOptions::default(), players(2), 1, 0).unwrap();
    m.act("p0", &RpsAction::Random, 5).unwrap();
    let mut record = m.record().clone();
    record.game = "yut".into();
    let err = Match::replay(Rps, &record).unwrap_err();
    assert_eq!(err.code(), "RECORD_WRONG_GAME");
    assert_eq!(err.reason().unwrap(), serde_json::json!({ "found": "yut" }));
}

#[test]
fn record_of_another_version_is_refused() {
    let mut m = Match::new(Rps, RpsOptions::default(), players(2), 1, 0).unwrap();
    assert_eq!(m.record().version, Rps.format_version());
    for version in [0, 2, u32::MAX] {
        let mut record = m.record().clone();
        record.version = version;
        let err = Match::replay(Rps, &record).unwrap_err();
        assert_eq!(err.code(), "RECORD_UNSUPPORTED_VERSION");
    }
}

#[test]
fn malformed_or_refused_entries_are_reported() {
    let mut m = Match::new(Rps, RpsOptions::default(), players(2), 1, 0).unwrap();
    m.act("p0", &RpsAction::Pick { hand: Hand::Rock }, 5)
        .unwrap();

    let mut record = m.record().clone();
    record.entries.push(RecordEntry::Act {
        at: 6,
        player: "p1".into(),
        action: serde_json::json!({ "type": "PICK", "hand": "lizard" }),
    });
    assert_eq!(
        Match::replay(Rps, &record).unwrap_err().code(),
        "RECORD_MALFORMED"
    );

    let mut record = m.record().clone();
    record.options = serde_json::json!({ "winsNeeded": "three" });
    assert_eq!(
        Match::replay(Rps, &record).unwrap_err().code(),
        "RECORD_MALFORMED"
    );

    let mut record = m.record().clone();
    record.entries.push(RecordEntry::Act {
        at: 6,
        player: "p0".into(),
        action: serde_json::json!({ "type": "RANDOM" }),
    });
    let err = Match::replay(Rps, &record).unwrap_err();
    assert_eq!(err.code(), "ALREADY_PICKED");
    assert_eq!(err.reason().unwrap()["entry"], 1);

    let mut record = m.record().clone();
    record.options = serde_json::json!({ "winsNeeded": 42 });
    assert_eq!(
        Match::replay(Rps, &record).unwrap_err().code(),
        "INVALID_OPTION"
    );
}

/// A match writes its accepted actions into the record only when the record is read: read
/// after every input or only at the end, the record is the same, entry for entry, in the
/// order of the inputs (actions, the ticks that acted, presence changes).
#[test]
fn the_record_is_the_same_read_after_every_input_or_only_at_the_end() {
    // Accepted actions, ticks that acted, presence changes.
    let mut seen = [0; 3];
    for seed in 0..40 {
        let mut driver = GameRng::from_seed(seed);
        let options = RpsOptions {
            wins_needed: 3,
            turn_seconds: Some(5),
        };
        let ids = players(2);
        let mut eager = Match::new(Rps, options.clone(), ids.clone(), seed, 0).unwrap();
        let mut lazy = Match::new(Rps, options, ids.clone(), seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        let mut now = 0;
        let mut kinds = [0; 3];
        for _ in 0..200 {
            if Rps.is_over(eager.state()) {
                break;
            }
            now += u64::from(driver.below(4_000));
            match driver.below(6) {
                0 => {
                    // Often past the 5 s deadline, so that the tick acts.
                    now += u64::from(driver.below(6_000));
                    let ticked = eager.tick(now).len();
                    assert_eq!(lazy.tick(now).len(), ticked);
                    kinds[1] += usize::from(ticked > 0);
                }
                1 => {
                    let (p, on) = (&ids[driver.below(2) as usize], driver.chance(1, 2));
                    eager.set_connected(p, on, now).result.unwrap();
                    lazy.set_connected(p, on, now).result.unwrap();
                    kinds[2] += 1;
                }
                _ => {
                    let Some(&seat) = Rps.to_act(eager.state()).first() else {
                        continue;
                    };
                    let Some(action) = bot.choose(&Rps, eager.state(), seat) else {
                        continue;
                    };
                    if action == RpsAction::Concede {
                        continue;
                    }
                    let a = eager.play(&ids[seat], &action, None, now);
                    let b = lazy.play(&ids[seat], &action, None, now);
                    assert_eq!(a, b, "seed {seed}");
                    kinds[0] += usize::from(a.result.is_ok());
                }
            }
            // Read after every input, so that each of its actions is written at once.
            eager.record();
        }
        assert_eq!(eager.record(), lazy.record(), "seed {seed}");
        assert_eq!(eager.state(), lazy.state(), "seed {seed}");
        let replayed = Match::replay(Rps, lazy.record()).unwrap();
        assert_eq!(replayed.state(), lazy.state(), "seed {seed}");
        for (total, here) in seen.iter_mut().zip(kinds) {
            *total += here;
        }
    }
    // Every kind of entry, many times over.
    assert!(seen.iter().all(|&n| n > 40), "{seen:?}");
}

/// Times at the end of what a host sends (2^53 − 1, past the engine's clock), as a host
/// with a broken clock (or an attacker) sends them: read as `MAX_TIME`, where the clock stops and every deadline falls due at once. Each
/// input there takes one round of timeouts, `tick` at `next_tick_at` always acts, the
/// match ends, and the record replays to the state that was played (the timeouts before
/// an action are its `tick` entry, not taken again).
#[test]
fn a_match_at_the_end_of_the_clock_ends_and_replays_as_it_was_played() {
    let players = players(2);
    let end = game_core::MAX_SAFE_INTEGER;
    let mut m = Match::new(Rps, RpsOptions::default(), players.clone(), 3, end).unwrap();
    assert_eq!(m.state().table().clock(), game_core::MAX_TIME);
    assert_eq!(m.next_tick_at(), Some(game_core::MAX_TIME));
    // The round asked at the end is due at once: the action comes after its timeouts.
    m.act(&players[1], &RpsAction::Pick { hand: Hand::Rock }, end)
        .unwrap();
    let entries = &m.record().entries;
    assert!(
        matches!(entries[..], [RecordEntry::Tick { at }, RecordEntry::Act { .. }] if at == end),
        "{entries:?}"
    );
    let mut ticks = 0;
    while let Some(at) = m.next_tick_at() {
        assert!(!m.tick(at).is_empty(), "tick {ticks} at {at} took nothing");
        ticks += 1;
        assert!(ticks < 1_000, "no end after {ticks} ticks");
    }
    assert!(m.state().winner().is_some());
    let record = m.record().clone();
    let mut replayed = Match::replay(Rps, &record).unwrap();
    assert_eq!(
        serde_json::to_string(replayed.state()).unwrap(),
        serde_json::to_string(m.state()).unwrap()
    );
    assert_eq!(replayed.record(), &record);
}
