//! `Game::reset` under the augment layer: a used state of any pack, player count and mode
//! starts a new game exactly as `Game::setup` does, the layer's own state (per-side
//! augments, drafts, truce) included, and plays on the same.

use game_core::testing::{assert_clone_from_agrees, assert_reset_agrees};
use yut::{Mode, Yut};
use yut_augments::{AugmentConfig, AugmentOptions, Augments, app_options};

#[test]
fn a_reset_state_is_the_state_setup_makes() {
    let app = app_options();
    let empty = AugmentOptions {
        base: app.base.clone(),
        rules: AugmentConfig::none(),
    };
    let mut team = app.clone();
    team.base.mode = Mode::Team;
    let cases = [
        (app.clone(), 2),
        (app.clone(), 3),
        (app, 4),
        (empty.clone(), 2),
        (empty, 3),
        (team, 4),
    ];
    assert_reset_agrees(&Yut::new(Augments), &cases);
}

/// A state copied into a used one (`clone_from`, as the strong bot's search copies its
/// positions) is its source, the layer's state included: drafts, owned augments, marks.
#[test]
fn a_state_copied_into_a_used_one_is_its_source() {
    let app = app_options();
    let mut team = app.clone();
    team.base.mode = Mode::Team;
    let empty = AugmentOptions {
        base: app.base.clone(),
        rules: AugmentConfig::none(),
    };
    assert_clone_from_agrees(
        &Yut::new(Augments),
        &[(app.clone(), 2), (app, 3), (team, 4), (empty, 2)],
    );
}
