//! The games built into this workspace, registered once.

use game_core::{Erased, Registry};

/// Every built-in game, by id: `yut` (the engine's rules: the standard preset by default,
/// any preset's base options), `yut-augments` (the same with the augment layer of
/// `yut-augments`: its options add `augments`, `cushion` and `truce`, and default to the
/// whole pack; `yut_augments::app_options()` is the `app` preset) and `rps`. New built-in
/// games are registered here and nowhere else: the hosts, the schema export and the tests
/// take them from here.
///
/// ```
/// let ids: Vec<&str> = game_host::registry().ids().collect();
/// assert_eq!(ids, ["rps", "yut", "yut-augments"]);
/// ```
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register(Erased(yut::Yut::standard()))
        .and_then(|r| r.register(Erased(yut_augments::game())))
        .and_then(|r| r.register(Erased(game_core::rps::Rps)))
        .expect("the built-in games have distinct ids");
    registry
}
