//! Yut Nori keeps every promise of the framework (`testing::conformance`), in a few
//! configurations: two players, three, and teams of two.

use game_core::testing::conformance;
use yut::{Mode, Yut, YutOptions};

#[test]
fn yut_keeps_every_promise_of_the_framework() {
    let team = YutOptions {
        mode: Mode::Team,
        ..YutOptions::default()
    };
    let cases = [
        (YutOptions::default(), 2),
        (YutOptions::default(), 3),
        (team, 4),
    ];
    conformance(&Yut::standard(), &cases);
}
