//! Frozen stored states: seeded random games (with timeouts and disconnections) give, at
//! fixed decisions, exactly the stored state JSON recorded in `data/frozen_states/` by an
//! earlier build, and every recorded state restores and serializes back to the same text.
//! A state layout may change inside; what is stored may not, without a format-version bump
//! and a migration (see `game_core::testing::check_frozen`).

use game_core::testing::check_frozen_games;
use yut::{Yut, YutOptions};

fn check(name: &str, options: &str, players: usize) {
    let options: YutOptions = serde_json::from_str(options).unwrap();
    let dir = env!("CARGO_MANIFEST_DIR");
    check_frozen_games(&Yut::standard(), &options, players, 30, dir, name);
}

#[test]
fn standard_two_players() {
    check("standard2", "{}", 2);
}

#[test]
fn standard_four_players() {
    check("standard4", "{}", 4);
}

#[test]
fn team_game() {
    check("team4", r#"{"mode":"team"}"#, 4);
}

#[test]
fn other_options() {
    check(
        "options3",
        r#"{"pieces":2,"nakPercent":10,"turnSeconds":null,"ranking":"all"}"#,
        3,
    );
    check(
        "reach2",
        r#"{"backdo":false,"finishRule":"reach","backdoFromDo":"finish","pieces":5}"#,
        2,
    );
    check(
        "fair3",
        r#"{"stickModel":"fair","backdoCaptureBonus":false,"backdoFromDo":"home"}"#,
        3,
    );
}
