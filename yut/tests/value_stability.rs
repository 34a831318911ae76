//! Fixed vectors: for fixed seeds, the first 20 throws (sticks and result) are exactly the
//! recorded lists in `data/value_stability/` (one file per set of options). They freeze "the same seed gives the same throws in every version":
//! saved games and replays depend on it. If one of these fails, the RNG, the order of draws
//! (first side, then per throw: nak, stick 0..3) or the stick reading changed; that breaks
//! every stored game and needs a format-version bump, not a new recording.
//!
//! Encoding: `"abcd:result"` with the four sticks (`1` = flat side up, stick 0 first and
//! marked), or `"nak"`. In a game each throw is prefixed with the seat that threw
//! (`"seat/abcd:result"`); the game is played by the timeout policy, so those seats also
//! depend on the rules (a deliberate rule change may move them, the sticks never).
//!
//! A data file holds, per seed, the lines `seed N`, `first SEAT`, `raw …`, `sticks …` and
//! `throws …` (20 space-separated throws each); `#` starts a comment line. Every file must
//! hold exactly the seeds 0, 1, 42 and 20261130, each with all four records.

use game_core::GameExt;
use std::collections::BTreeMap;

use game_core::{Game, GameRng};
use yut::{StickModel, ThrowDraw, Yut, YutAction, YutOptions};

fn encode(d: &ThrowDraw) -> String {
    match (d.sticks, d.result) {
        (Some(s), Some(r)) => {
            let bits: String = s.iter().map(|&b| if b { '1' } else { '0' }).collect();
            format!("{bits}:{}", r.wire())
        }
        _ => "nak".into(),
    }
}

/// The first 20 draws of a fresh RNG.
fn raw(options: &YutOptions, seed: u64) -> Vec<String> {
    let mut rng = GameRng::from_seed(seed);
    (0..20)
        .map(|_| encode(&ThrowDraw::draw(options, &mut rng)))
        .collect()
}

/// The seat to act first and the first 20 throws of a two-player game played by the
/// timeout policy.
fn game(options: &YutOptions, seed: u64) -> (usize, Vec<String>) {
    let g = Yut::standard();
    let mut state = g
        .setup(options, &yut::testing::players(2), seed, 0)
        .unwrap();
    let first = g.to_act(&state)[0];
    let mut throws = Vec::new();
    while throws.len() < 20 {
        let seat = g.to_act(&state)[0];
        let action = g.timeout_action(&state, seat).unwrap();
        g.apply(&mut state, seat, &action, 0).unwrap();
        if action == YutAction::Throw {
            throws.push(format!(
                "{seat}/{}",
                encode(&state.board().last_throw().unwrap())
            ));
        }
    }
    (first, throws)
}

/// Only the sticks and results of a game's throws (the part no rule change may move).
fn sticks_only(throws: &[String]) -> Vec<&str> {
    throws
        .iter()
        .map(|t| t.split_once('/').unwrap().1)
        .collect()
}

/// The seeds every data file records, in this order.
const SEEDS: [u64; 4] = [0, 1, 42, 20261130];

/// The records of one seed in a data file.
#[derive(Default)]
struct Recorded {
    first: Option<usize>,
    /// `raw`, `sticks` and `throws`, each a list of encoded throws.
    lists: BTreeMap<String, Vec<String>>,
}

/// Parses a data file: the seeds in file order, each with its records. Panics on a line it
/// does not know, a record given twice or a seed without all four records.
fn parse(data: &str) -> Vec<(u64, Recorded)> {
    let mut out: Vec<(u64, Recorded)> = Vec::new();
    for line in data.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        if key == "seed" {
            out.push((rest.parse().expect("a seed"), Recorded::default()));
            continue;
        }
        let (_, recorded) = out.last_mut().expect("a record before the first seed");
        match key {
            "first" => {
                let old = recorded.first.replace(rest.parse().expect("a seat"));
                assert!(old.is_none(), "first given twice");
            }
            "raw" | "sticks" | "throws" => {
                let list = rest.split(' ').map(str::to_owned).collect();
                let old = recorded.lists.insert(key.to_owned(), list);
                assert!(old.is_none(), "{key} given twice");
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    for (seed, recorded) in &out {
        assert!(recorded.first.is_some(), "seed {seed}: no first seat");
        assert_eq!(
            recorded.lists.keys().collect::<Vec<_>>(),
            ["raw", "sticks", "throws"],
            "seed {seed}"
        );
    }
    out
}

/// Checks `options` against every seed of the data file `data`, with the assertions (and
/// messages) of the recorded vectors.
fn check(options: &YutOptions, data: &str) {
    let recorded = parse(data);
    let seeds: Vec<u64> = recorded.iter().map(|(seed, _)| *seed).collect();
    assert_eq!(seeds, SEEDS, "the seeds of the data file");
    for (seed, r) in &recorded {
        let seed = *seed;
        assert_eq!(raw(options, seed), r.lists["raw"], "raw draws, seed {seed}");
        let (first, throws) = game(options, seed);
        assert_eq!(Some(first), r.first, "first seat, seed {seed}");
        assert_eq!(
            sticks_only(&throws),
            r.lists["sticks"],
            "game throws, seed {seed}"
        );
        assert_eq!(
            throws, r.lists["throws"],
            "game throws with seats, seed {seed}"
        );
    }
}

#[test]
fn fixed_vectors_standard() {
    check(
        &YutOptions::default(),
        include_str!("data/value_stability/standard.txt"),
    );
}

#[test]
fn fixed_vectors_fair() {
    let options = YutOptions {
        stick_model: StickModel::Fair,
        ..YutOptions::default()
    };
    check(&options, include_str!("data/value_stability/fair.txt"));
}

#[test]
fn fixed_vectors_nak10() {
    let options = YutOptions {
        nak_percent: 10,
        ..YutOptions::default()
    };
    check(&options, include_str!("data/value_stability/nak10.txt"));
}
