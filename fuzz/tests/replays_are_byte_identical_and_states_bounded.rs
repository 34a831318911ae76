//! Determinism and limits, for all three games. Replaying a match record gives the
//! byte-identical stored state every time, on any thread, from the record's own JSON, and
//! also when the game is saved (`state_json`) and restored (`Game::restore`) at any step
//! and the rest of the record is played on the restored state. The state's size is bounded:
//! the recent-event log never holds more than `yut::LOG_LEN` events, the pending results
//! stay far below `yut::MAX_PENDING`, and the JSON of a state stays small.
//!
//! `cargo test -p fuzz --test replays_are_byte_identical_and_states_bounded -- --nocapture`
//! prints the sizes.

mod common;

use common::{play, setups};
use game_core::{Game, Match, MatchRecord};
use game_host::registry;

/// For every `stride`-th cut of the record: replay up to the cut, save the state as JSON,
/// restore it, play the rest of the record on it; the final state is byte-identical to the
/// straight replay.
fn restore_anywhere<G: Game + Clone>(game: &G, record: &MatchRecord, stride: usize) {
    let straight =
        serde_json::to_string(&Match::replay(game.clone(), record).unwrap().state()).unwrap();
    for cut in (0..=record.entries.len()).step_by(stride) {
        let mut head = record.clone();
        head.entries.truncate(cut);
        let saved =
            serde_json::to_string(&Match::replay(game.clone(), &head).unwrap().state()).unwrap();
        let restored = game.restore(&saved).unwrap();
        assert_eq!(serde_json::to_string(&restored).unwrap(), saved);
        let mut m = Match::restore(game.clone(), &saved).unwrap();
        for (index, entry) in record.entries.iter().enumerate().skip(cut) {
            m.apply_entry(index, entry).unwrap();
        }
        assert_eq!(
            serde_json::to_string(&m.state()).unwrap(),
            straight,
            "restored at entry {cut}"
        );
    }
}

#[test]
fn replays_are_byte_identical_every_time_and_on_any_thread() {
    let r = registry();
    for setup in setups() {
        for seed in [21, 22] {
            let mut m = play(&r, setup.clone(), seed, 400, |_, _| {});
            let record = m.record().clone();
            let first = r.replay(&record).unwrap().state_json().to_string();
            assert_eq!(first, m.state_json().to_string());
            assert_eq!(r.replay(&record).unwrap().state_json().to_string(), first);
            let from_json: MatchRecord =
                serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
            assert_eq!(
                r.replay(&from_json).unwrap().state_json().to_string(),
                first
            );
            let other = std::thread::spawn(move || {
                registry()
                    .replay(&from_json)
                    .unwrap()
                    .state_json()
                    .to_string()
            });
            assert_eq!(other.join().unwrap(), first);
        }
    }
}

#[test]
fn save_and_restore_at_any_step_continues_identically() {
    let r = registry();
    for setup in setups() {
        let id = setup.0;
        let mut m = play(&r, setup, 31, 120, |_, _| {});
        let record = m.record();
        match id {
            "yut" => restore_anywhere(&yut::Yut::standard(), record, 3),
            "yut-augments" => restore_anywhere(&yut_augments::game(), record, 3),
            _ => restore_anywhere(&game_core::rps::Rps, record, 1),
        }
    }
}

/// The measured state sizes, printed, with bounds that fail loudly if a change makes
/// states grow.
#[test]
fn state_sizes_and_bounds() {
    let r = registry();
    println!(
        "size_of: YutState<Standard> {} B, YutState<Augments> {} B, RpsState {} B",
        size_of::<yut::YutState<yut::Standard>>(),
        size_of::<yut::YutState<yut_augments::Augments>>(),
        size_of::<game_core::rps::RpsState>(),
    );
    for setup in setups() {
        let id = setup.0;
        let n = setup.2;
        let (mut max_json, mut max_pending, mut max_log, mut steps) = (0, 0, 0, 0);
        let mut mid = None;
        play(&r, setup, 5, 100_000, |m, _| {
            let state = m.state_json();
            let bytes = state.to_string().len();
            max_json = max_json.max(bytes);
            if id != "rps" {
                let log = state["log"].as_array().unwrap().len();
                let pending = state["board"]["pending"].as_array().unwrap().len();
                assert!(log <= yut::LOG_LEN, "log of {log}");
                assert!(pending <= yut::MAX_PENDING);
                max_log = max_log.max(log);
                max_pending = max_pending.max(pending);
            }
            steps += 1;
            if steps == 60 {
                mid = Some(bytes);
            }
        });
        println!(
            "{id} {n}p: mid-game state JSON {} B (step 60), largest {max_json} B over {steps} \
             steps; log at most {max_log} events, pending at most {max_pending}",
            mid.unwrap_or(max_json)
        );
        assert!(max_json < 24 * 1024, "{id}: a state of {max_json} bytes");
        if id != "rps" {
            assert_eq!(
                max_log,
                yut::LOG_LEN,
                "{id}: the log fills up and stays capped"
            );
            assert!(max_pending < 16, "{id}: {max_pending} pending");
        }
    }
}
