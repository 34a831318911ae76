//! Fixed vectors: for fixed seeds, the first 20 throws (sticks and result) are exactly the
//! recorded lists below. They freeze "the same seed gives the same throws in every version":
//! saved games and replays depend on it. If one of these fails, the RNG, the order of draws
//! (first side, then per throw: nak, stick 0..3) or the stick reading changed; that breaks
//! every stored game and needs a format-version bump, not a new recording.
//!
//! Encoding: `"abcd:result"` with the four sticks (`1` = flat side up, stick 0 first and
//! marked), or `"nak"`. In a game each throw is prefixed with the seat that threw
//! (`"seat/abcd:result"`); the game is played by the timeout policy, so those seats also
//! depend on the rules (a deliberate rule change may move them, the sticks never).

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
        g.apply_seat(&mut state, seat, &action, 0).unwrap();
        if action == YutAction::Throw {
            throws.push(format!(
                "{seat}/{}",
                encode(&state.board.last_throw.unwrap())
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

#[test]
fn fixed_vectors_standard() {
    let options = YutOptions::default();
    assert_eq!(
        raw(&options, 0),
        [
            "0001:do",
            "1011:geol",
            "1011:geol",
            "1000:backdo",
            "1001:gae",
            "1000:backdo",
            "1101:geol",
            "1010:gae",
            "1101:geol",
            "0010:do",
            "1000:backdo",
            "1100:gae",
            "1010:gae",
            "0001:do",
            "1000:backdo",
            "1111:yut",
            "0111:geol",
            "0011:gae",
            "1111:yut",
            "0101:gae",
        ],
        "raw draws, seed 0"
    );
    let (first, throws) = game(&options, 0);
    assert_eq!(first, 1, "first seat, seed 0");
    assert_eq!(
        sticks_only(&throws),
        [
            "0011:gae",
            "0111:geol",
            "0111:geol",
            "0001:do",
            "0011:gae",
            "0001:do",
            "1011:geol",
            "0101:gae",
            "1010:gae",
            "0101:gae",
            "0001:do",
            "1001:gae",
            "0100:do",
            "0011:gae",
            "0001:do",
            "1110:geol",
            "1110:geol",
            "0111:geol",
            "1110:geol",
            "1011:geol",
        ],
        "game throws, seed 0"
    );
    assert_eq!(
        throws,
        [
            "1/0011:gae",
            "0/0111:geol",
            "1/0111:geol",
            "1/0001:do",
            "0/0011:gae",
            "1/0001:do",
            "0/1011:geol",
            "1/0101:gae",
            "0/1010:gae",
            "1/0101:gae",
            "0/0001:do",
            "1/1001:gae",
            "0/0100:do",
            "1/0011:gae",
            "0/0001:do",
            "1/1110:geol",
            "1/1110:geol",
            "0/0111:geol",
            "1/1110:geol",
            "1/1011:geol",
        ],
        "game throws with seats, seed 0"
    );
    assert_eq!(
        raw(&options, 1),
        [
            "1101:geol",
            "1111:yut",
            "0100:do",
            "1101:geol",
            "1010:gae",
            "1101:geol",
            "0101:gae",
            "1111:yut",
            "1000:backdo",
            "0011:gae",
            "1111:yut",
            "1101:geol",
            "0111:geol",
            "0101:gae",
            "1111:yut",
            "1010:gae",
            "1111:yut",
            "1010:gae",
            "1110:geol",
            "0110:gae",
        ],
        "raw draws, seed 1"
    );
    let (first, throws) = game(&options, 1);
    assert_eq!(first, 1, "first seat, seed 1");
    assert_eq!(
        sticks_only(&throws),
        [
            "1011:geol",
            "1110:geol",
            "1001:gae",
            "1011:geol",
            "0101:gae",
            "1010:gae",
            "1011:geol",
            "1111:yut",
            "0000:mo",
            "0111:geol",
            "1111:yut",
            "1010:gae",
            "1110:geol",
            "1011:geol",
            "1111:yut",
            "0101:gae",
            "1111:yut",
            "0101:gae",
            "1100:gae",
            "1101:geol",
        ],
        "game throws, seed 1"
    );
    assert_eq!(
        throws,
        [
            "1/1011:geol",
            "0/1110:geol",
            "0/1001:gae",
            "1/1011:geol",
            "0/0101:gae",
            "1/1010:gae",
            "0/1011:geol",
            "1/1111:yut",
            "1/0000:mo",
            "1/0111:geol",
            "1/1111:yut",
            "1/1010:gae",
            "0/1110:geol",
            "1/1011:geol",
            "1/1111:yut",
            "1/0101:gae",
            "0/1111:yut",
            "0/0101:gae",
            "1/1100:gae",
            "0/1101:geol",
        ],
        "game throws with seats, seed 1"
    );
    assert_eq!(
        raw(&options, 42),
        [
            "1010:gae",
            "0110:gae",
            "0101:gae",
            "1110:geol",
            "0001:do",
            "1110:geol",
            "1001:gae",
            "0011:gae",
            "0111:geol",
            "1111:yut",
            "0101:gae",
            "1001:gae",
            "1111:yut",
            "1010:gae",
            "1000:backdo",
            "1001:gae",
            "1101:geol",
            "1010:gae",
            "0111:geol",
            "1010:gae",
        ],
        "raw draws, seed 42"
    );
    let (first, throws) = game(&options, 42);
    assert_eq!(first, 0, "first seat, seed 42");
    assert_eq!(
        sticks_only(&throws),
        [
            "0100:do",
            "1100:gae",
            "1011:geol",
            "1100:gae",
            "0011:gae",
            "1101:geol",
            "0010:do",
            "0110:gae",
            "1111:yut",
            "1110:geol",
            "1011:geol",
            "0011:gae",
            "1111:yut",
            "0101:gae",
            "0001:do",
            "0011:gae",
            "1011:geol",
            "0100:do",
            "1111:yut",
            "0101:gae",
        ],
        "game throws, seed 42"
    );
    assert_eq!(
        throws,
        [
            "0/0100:do",
            "1/1100:gae",
            "0/1011:geol",
            "1/1100:gae",
            "1/0011:gae",
            "0/1101:geol",
            "1/0010:do",
            "0/0110:gae",
            "1/1111:yut",
            "1/1110:geol",
            "0/1011:geol",
            "1/0011:gae",
            "0/1111:yut",
            "0/0101:gae",
            "1/0001:do",
            "0/0011:gae",
            "1/1011:geol",
            "0/0100:do",
            "1/1111:yut",
            "1/0101:gae",
        ],
        "game throws with seats, seed 42"
    );
    assert_eq!(
        raw(&options, 20261130),
        [
            "1000:backdo",
            "1001:gae",
            "0000:mo",
            "1011:geol",
            "0011:gae",
            "1111:yut",
            "1111:yut",
            "0110:gae",
            "0011:gae",
            "1100:gae",
            "1110:geol",
            "1011:geol",
            "1101:geol",
            "1100:gae",
            "1101:geol",
            "1011:geol",
            "0111:geol",
            "1111:yut",
            "1110:geol",
            "1111:yut",
        ],
        "raw draws, seed 20261130"
    );
    let (first, throws) = game(&options, 20261130);
    assert_eq!(first, 1, "first seat, seed 20261130");
    assert_eq!(
        sticks_only(&throws),
        [
            "0001:do",
            "0010:do",
            "0001:do",
            "0110:gae",
            "0111:geol",
            "1111:yut",
            "1110:geol",
            "1100:gae",
            "0111:geol",
            "1001:gae",
            "1101:geol",
            "0111:geol",
            "1011:geol",
            "1001:gae",
            "1011:geol",
            "0110:gae",
            "1111:yut",
            "1111:yut",
            "1101:geol",
            "1110:geol",
        ],
        "game throws, seed 20261130"
    );
    assert_eq!(
        throws,
        [
            "1/0001:do",
            "0/0010:do",
            "0/0001:do",
            "1/0110:gae",
            "0/0111:geol",
            "1/1111:yut",
            "1/1110:geol",
            "1/1100:gae",
            "0/0111:geol",
            "1/1001:gae",
            "0/1101:geol",
            "1/0111:geol",
            "1/1011:geol",
            "0/1001:gae",
            "1/1011:geol",
            "0/0110:gae",
            "1/1111:yut",
            "1/1111:yut",
            "1/1101:geol",
            "0/1110:geol",
        ],
        "game throws with seats, seed 20261130"
    );
}

#[test]
fn fixed_vectors_fair() {
    let options = YutOptions {
        stick_model: StickModel::Fair,
        ..YutOptions::default()
    };
    assert_eq!(
        raw(&options, 0),
        [
            "0001:do",
            "0001:do",
            "1000:backdo",
            "1000:backdo",
            "1001:gae",
            "1000:backdo",
            "1001:gae",
            "1000:backdo",
            "1101:geol",
            "0000:mo",
            "0000:mo",
            "1000:backdo",
            "1000:backdo",
            "0000:mo",
            "0000:mo",
            "1111:yut",
            "0111:geol",
            "0011:gae",
            "1011:geol",
            "0101:gae",
        ],
        "raw draws, seed 0"
    );
    let (first, throws) = game(&options, 0);
    assert_eq!(first, 1, "first seat, seed 0");
    assert_eq!(
        sticks_only(&throws),
        [
            "0010:do",
            "0011:gae",
            "0001:do",
            "0001:do",
            "0011:gae",
            "0001:do",
            "0011:gae",
            "0001:do",
            "1010:gae",
            "0000:mo",
            "0001:do",
            "0001:do",
            "0000:mo",
            "0000:mo",
            "0001:do",
            "1110:geol",
            "1110:geol",
            "0111:geol",
            "0110:gae",
            "1011:geol",
        ],
        "game throws, seed 0"
    );
    assert_eq!(
        throws,
        [
            "1/0010:do",
            "0/0011:gae",
            "1/0001:do",
            "1/0001:do",
            "0/0011:gae",
            "1/0001:do",
            "0/0011:gae",
            "0/0001:do",
            "1/1010:gae",
            "0/0000:mo",
            "0/0001:do",
            "1/0001:do",
            "0/0000:mo",
            "0/0000:mo",
            "0/0001:do",
            "1/1110:geol",
            "0/1110:geol",
            "0/0111:geol",
            "1/0110:gae",
            "0/1011:geol",
        ],
        "game throws with seats, seed 0"
    );
    assert_eq!(
        raw(&options, 1),
        [
            "0101:gae",
            "1011:geol",
            "0100:do",
            "1101:geol",
            "1010:gae",
            "1100:gae",
            "0101:gae",
            "1111:yut",
            "1000:backdo",
            "0011:gae",
            "1111:yut",
            "1101:geol",
            "0111:geol",
            "0001:do",
            "1111:yut",
            "1010:gae",
            "1110:geol",
            "1000:backdo",
            "1110:geol",
            "0110:gae",
        ],
        "raw draws, seed 1"
    );
    let (first, throws) = game(&options, 1);
    assert_eq!(first, 1, "first seat, seed 1");
    assert_eq!(
        sticks_only(&throws),
        [
            "1011:geol",
            "0110:gae",
            "1001:gae",
            "1011:geol",
            "0101:gae",
            "1000:backdo",
            "1011:geol",
            "1111:yut",
            "0000:mo",
            "0111:geol",
            "1111:yut",
            "1010:gae",
            "1110:geol",
            "0011:gae",
            "1111:yut",
            "0101:gae",
            "1101:geol",
            "0001:do",
            "1100:gae",
            "1100:gae",
        ],
        "game throws, seed 1"
    );
    assert_eq!(
        throws,
        [
            "1/1011:geol",
            "0/0110:gae",
            "1/1001:gae",
            "1/1011:geol",
            "0/0101:gae",
            "0/1000:backdo",
            "1/1011:geol",
            "0/1111:yut",
            "0/0000:mo",
            "0/0111:geol",
            "0/1111:yut",
            "0/1010:gae",
            "1/1110:geol",
            "0/0011:gae",
            "1/1111:yut",
            "1/0101:gae",
            "0/1101:geol",
            "1/0001:do",
            "0/1100:gae",
            "1/1100:gae",
        ],
        "game throws with seats, seed 1"
    );
    assert_eq!(
        raw(&options, 42),
        [
            "1010:gae",
            "0110:gae",
            "0101:gae",
            "1110:geol",
            "0001:do",
            "0010:do",
            "0000:mo",
            "0011:gae",
            "0011:gae",
            "1111:yut",
            "0101:gae",
            "1001:gae",
            "1111:yut",
            "1010:gae",
            "0000:mo",
            "0001:do",
            "1101:geol",
            "1010:gae",
            "0111:geol",
            "1010:gae",
        ],
        "raw draws, seed 42"
    );
    let (first, throws) = game(&options, 42);
    assert_eq!(first, 0, "first seat, seed 42");
    assert_eq!(
        sticks_only(&throws),
        [
            "0100:do",
            "1100:gae",
            "1011:geol",
            "1100:gae",
            "0010:do",
            "0100:do",
            "0000:mo",
            "0110:gae",
            "0111:geol",
            "1110:geol",
            "1011:geol",
            "0011:gae",
            "1111:yut",
            "0100:do",
            "0000:mo",
            "0011:gae",
            "1011:geol",
            "0100:do",
            "1111:yut",
            "0101:gae",
        ],
        "game throws, seed 42"
    );
    assert_eq!(
        throws,
        [
            "0/0100:do",
            "1/1100:gae",
            "0/1011:geol",
            "1/1100:gae",
            "1/0010:do",
            "0/0100:do",
            "1/0000:mo",
            "1/0110:gae",
            "0/0111:geol",
            "1/1110:geol",
            "0/1011:geol",
            "1/0011:gae",
            "0/1111:yut",
            "0/0100:do",
            "1/0000:mo",
            "1/0011:gae",
            "0/1011:geol",
            "1/0100:do",
            "0/1111:yut",
            "0/0101:gae",
        ],
        "game throws with seats, seed 42"
    );
    assert_eq!(
        raw(&options, 20261130),
        [
            "0000:mo",
            "1001:gae",
            "0000:mo",
            "0000:mo",
            "0011:gae",
            "1111:yut",
            "1111:yut",
            "0010:do",
            "0001:do",
            "1100:gae",
            "1110:geol",
            "1011:geol",
            "0101:gae",
            "1100:gae",
            "0101:gae",
            "1011:geol",
            "0011:gae",
            "1001:gae",
            "0110:gae",
            "1000:backdo",
        ],
        "raw draws, seed 20261130"
    );
    let (first, throws) = game(&options, 20261130);
    assert_eq!(first, 1, "first seat, seed 20261130");
    assert_eq!(
        sticks_only(&throws),
        [
            "0001:do",
            "0010:do",
            "0000:mo",
            "0000:mo",
            "0111:geol",
            "1111:yut",
            "1110:geol",
            "0100:do",
            "0011:gae",
            "1001:gae",
            "1101:geol",
            "0110:gae",
            "1011:geol",
            "1000:backdo",
            "1011:geol",
            "0110:gae",
            "0111:geol",
            "0010:do",
            "1101:geol",
            "0000:mo",
        ],
        "game throws, seed 20261130"
    );
    assert_eq!(
        throws,
        [
            "1/0001:do",
            "0/0010:do",
            "0/0000:mo",
            "0/0000:mo",
            "0/0111:geol",
            "1/1111:yut",
            "1/1110:geol",
            "0/0100:do",
            "1/0011:gae",
            "0/1001:gae",
            "1/1101:geol",
            "0/0110:gae",
            "1/1011:geol",
            "0/1000:backdo",
            "1/1011:geol",
            "1/0110:gae",
            "0/0111:geol",
            "1/0010:do",
            "0/1101:geol",
            "1/0000:mo",
        ],
        "game throws with seats, seed 20261130"
    );
}

#[test]
fn fixed_vectors_nak10() {
    let options = YutOptions {
        nak_percent: 10,
        ..YutOptions::default()
    };
    assert_eq!(
        raw(&options, 0),
        [
            "0011:gae",
            "1110:geol",
            "1100:gae",
            "1001:gae",
            "0001:do",
            "0110:gae",
            "0110:gae",
            "0010:do",
            "0001:do",
            "0010:do",
            "0000:mo",
            "1000:backdo",
            "1110:geol",
            "1100:gae",
            "nak",
            "1111:yut",
            "1011:geol",
            "0111:geol",
            "nak",
            "1000:backdo",
        ],
        "raw draws, seed 0"
    );
    let (first, throws) = game(&options, 0);
    assert_eq!(first, 1, "first seat, seed 0");
    assert_eq!(
        sticks_only(&throws),
        [
            "0110:gae",
            "1101:geol",
            "1000:backdo",
            "0011:gae",
            "0011:gae",
            "1101:geol",
            "1101:geol",
            "0101:gae",
            "0011:gae",
            "0101:gae",
            "0001:do",
            "0001:do",
            "1101:geol",
            "1001:gae",
            "1111:yut",
            "1011:geol",
            "0111:geol",
            "nak",
            "1000:backdo",
            "1101:geol",
        ],
        "game throws, seed 0"
    );
    assert_eq!(
        throws,
        [
            "1/0110:gae",
            "0/1101:geol",
            "1/1000:backdo",
            "0/0011:gae",
            "1/0011:gae",
            "0/1101:geol",
            "0/1101:geol",
            "1/0101:gae",
            "0/0011:gae",
            "0/0101:gae",
            "1/0001:do",
            "0/0001:do",
            "1/1101:geol",
            "1/1001:gae",
            "1/1111:yut",
            "1/1011:geol",
            "0/0111:geol",
            "1/nak",
            "0/1000:backdo",
            "1/1101:geol",
        ],
        "game throws with seats, seed 0"
    );
    assert_eq!(
        raw(&options, 1),
        [
            "1011:geol",
            "1101:geol",
            "0110:gae",
            "1010:gae",
            "nak",
            "0101:gae",
            "1111:yut",
            "1000:backdo",
            "0111:geol",
            "1111:yut",
            "1011:geol",
            "0101:gae",
            "1111:yut",
            "1011:geol",
            "nak",
            "1010:gae",
            "1100:gae",
            "1010:gae",
            "1101:geol",
            "0100:do",
        ],
        "raw draws, seed 1"
    );
    let (first, throws) = game(&options, 1);
    assert_eq!(first, 1, "first seat, seed 1");
    assert_eq!(
        sticks_only(&throws),
        [
            "0111:geol",
            "1010:gae",
            "1101:geol",
            "nak",
            "1011:geol",
            "1010:gae",
            "1111:yut",
            "nak",
            "0000:mo",
            "1111:yut",
            "1101:geol",
            "1110:geol",
            "0111:geol",
            "1101:geol",
            "1111:yut",
            "nak",
            "1011:geol",
            "0011:gae",
            "1001:gae",
            "nak",
        ],
        "game throws, seed 1"
    );
    assert_eq!(
        throws,
        [
            "1/0111:geol",
            "0/1010:gae",
            "1/1101:geol",
            "0/nak",
            "1/1011:geol",
            "0/1010:gae",
            "1/1111:yut",
            "1/nak",
            "0/0000:mo",
            "0/1111:yut",
            "0/1101:geol",
            "0/1110:geol",
            "1/0111:geol",
            "0/1101:geol",
            "0/1111:yut",
            "0/nak",
            "1/1011:geol",
            "1/0011:gae",
            "0/1001:gae",
            "1/nak",
        ],
        "game throws with seats, seed 1"
    );
    assert_eq!(
        raw(&options, 42),
        [
            "0100:do",
            "1001:gae",
            "1111:yut",
            "0001:do",
            "1101:geol",
            "0100:do",
            "1011:geol",
            "1111:yut",
            "1011:geol",
            "0111:geol",
            "1101:geol",
            "1000:backdo",
            "0011:gae",
            "0110:gae",
            "nak",
            "0111:geol",
            "0101:gae",
            "0001:do",
            "0000:mo",
            "0110:gae",
        ],
        "raw draws, seed 42"
    );
    let (first, throws) = game(&options, 42);
    assert_eq!(first, 0, "first seat, seed 42");
    assert_eq!(
        sticks_only(&throws),
        [
            "1001:gae",
            "0010:do",
            "1110:geol",
            "0011:gae",
            "1010:gae",
            "1001:gae",
            "0111:geol",
            "1110:geol",
            "0110:gae",
            "1111:yut",
            "1010:gae",
            "0001:do",
            "0111:geol",
            "1101:geol",
            "0111:geol",
            "0101:gae",
            "0001:do",
            "0000:mo",
            "0110:gae",
            "1001:gae",
        ],
        "game throws, seed 42"
    );
    assert_eq!(
        throws,
        [
            "0/1001:gae",
            "1/0010:do",
            "0/1110:geol",
            "1/0011:gae",
            "0/1010:gae",
            "1/1001:gae",
            "0/0111:geol",
            "1/1110:geol",
            "0/0110:gae",
            "1/1111:yut",
            "1/1010:gae",
            "0/0001:do",
            "1/0111:geol",
            "0/1101:geol",
            "1/0111:geol",
            "0/0101:gae",
            "1/0001:do",
            "0/0000:mo",
            "0/0110:gae",
            "1/1001:gae",
        ],
        "game throws with seats, seed 42"
    );
    assert_eq!(
        raw(&options, 20261130),
        [
            "0001:do",
            "0100:do",
            "0101:gae",
            "0011:gae",
            "1111:yut",
            "1101:geol",
            "0001:do",
            "1100:gae",
            "1101:geol",
            "1111:yut",
            "1110:geol",
            "1101:geol",
            "0110:gae",
            "1111:yut",
            "1111:yut",
            "1111:yut",
            "1010:gae",
            "nak",
            "1100:gae",
            "0101:gae",
        ],
        "raw draws, seed 20261130"
    );
    let (first, throws) = game(&options, 20261130);
    assert_eq!(first, 1, "first seat, seed 20261130");
    assert_eq!(
        sticks_only(&throws),
        [
            "0010:do",
            "1000:backdo",
            "1011:geol",
            "0111:geol",
            "1111:yut",
            "1011:geol",
            "0011:gae",
            "1001:gae",
            "1010:gae",
            "nak",
            "1101:geol",
            "nak",
            "0011:gae",
            "1101:geol",
            "nak",
            "1111:yut",
            "1111:yut",
            "nak",
            "1111:yut",
            "1010:gae",
        ],
        "game throws, seed 20261130"
    );
    assert_eq!(
        throws,
        [
            "1/0010:do",
            "0/1000:backdo",
            "1/1011:geol",
            "0/0111:geol",
            "1/1111:yut",
            "1/1011:geol",
            "1/0011:gae",
            "0/1001:gae",
            "1/1010:gae",
            "1/nak",
            "0/1101:geol",
            "1/nak",
            "0/0011:gae",
            "0/1101:geol",
            "1/nak",
            "0/1111:yut",
            "0/1111:yut",
            "0/nak",
            "0/1111:yut",
            "0/1010:gae",
        ],
        "game throws with seats, seed 20261130"
    );
}
