//! Frozen stored states of the augment layer: seeded random games under the `app` pack
//! (and in team play) give, at fixed decisions, exactly the stored state JSON recorded in
//! `data/frozen_states/` by an earlier build, and every recorded state restores and
//! serializes back to the same text (see `game_core::testing::check_frozen`).

use game_core::testing::check_frozen_games;
use yut::Yut;
use yut_augments::{AugmentOptions, Augments};

fn check(name: &str, options: AugmentOptions, players: usize) {
    let dir = env!("CARGO_MANIFEST_DIR");
    check_frozen_games(&Yut::new(Augments), &options, players, 15, dir, name);
}

#[test]
fn app_pack_two_players() {
    check("app2", yut_augments::app_options(), 2);
}

#[test]
fn app_pack_team_game() {
    let mut options = yut_augments::app_options();
    options.base.mode = yut::Mode::Team;
    check("app_team4", options, 4);
}
