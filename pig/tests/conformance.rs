//! Pig keeps every promise of the framework (`testing::conformance`): an outside game,
//! without a `CONCEDE` action, checked the same way as the built-in ones.

use pig::{Pig, PigOptions};

#[test]
fn pig_keeps_every_promise_of_the_framework() {
    let short = PigOptions {
        target: 30,
        turn_seconds: None,
    };
    let cases = [(PigOptions::default(), 2), (short.clone(), 3), (short, 4)];
    game_core::testing::conformance(&Pig, &cases);
}
