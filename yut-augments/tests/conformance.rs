//! The augment layer keeps every promise of the framework (`testing::conformance`), with
//! the app's pack and with none.

use game_core::testing::conformance;
use yut::Yut;
use yut_augments::{AugmentConfig, AugmentOptions, Augments, app_options};

#[test]
fn the_augment_layer_keeps_every_promise_of_the_framework() {
    let app = app_options();
    let empty = AugmentOptions {
        base: app.base.clone(),
        rules: AugmentConfig::none(),
    };
    conformance(
        &Yut::new(Augments),
        &[(app.clone(), 2), (app, 3), (empty, 2)],
    );
}
