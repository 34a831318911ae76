//! Liar's Dice keeps every promise of the framework (`testing::conformance`): an outside
//! game of hidden dice, checked the same way as the built-in ones, with two, three and six
//! players.

use liars_dice::{LiarsDice, LiarsDiceOptions};

#[test]
fn liars_dice_keeps_every_promise_of_the_framework() {
    let few = LiarsDiceOptions {
        dice: 2,
        turn_seconds: None,
    };
    let cases = [
        (LiarsDiceOptions::default(), 2),
        (few, 3),
        (LiarsDiceOptions::default(), 6),
    ];
    game_core::testing::conformance(&LiarsDice, &cases);
}
