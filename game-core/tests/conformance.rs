//! Rock-paper-scissors keeps every promise of the framework (`testing::conformance`).

use game_core::rps::{Rps, RpsOptions};

#[test]
fn rps_keeps_every_promise_of_the_framework() {
    let quick = RpsOptions {
        wins_needed: 1,
        turn_seconds: None,
    };
    game_core::testing::conformance(&Rps, &[(RpsOptions::default(), 2), (quick, 2)]);
}
