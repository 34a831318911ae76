//! One Card keeps every promise of the framework (`testing::conformance`): 2 to 5 players,
//! and the options at their corners.

use game_core::testing::conformance;
use one_card::{OneCard, OneCardOptions, Ranking};

#[test]
fn one_card_keeps_every_promise_of_the_framework() {
    let default = OneCardOptions::default;
    let no_bankruptcy = OneCardOptions {
        bankrupt_at: None,
        hand_size: 8,
        ..default()
    };
    let early_bankruptcy = OneCardOptions {
        bankrupt_at: Some(15),
        hand_size: 5,
        ranking: Ranking::All,
        ..default()
    };
    let all_no_calls = OneCardOptions {
        ranking: Ranking::All,
        one_card_call: false,
        turn_seconds: None,
        ..default()
    };
    let cases = [
        (default(), 2),
        (default(), 3),
        (default(), 4),
        (default(), 5),
        (no_bankruptcy.clone(), 2),
        (no_bankruptcy, 5),
        (early_bankruptcy.clone(), 3),
        (early_bankruptcy, 5),
        (all_no_calls, 4),
    ];
    conformance(&OneCard, &cases);
}
