//! A game author's addon: the `party-games` binding over the built-in games and the
//! author's own (here `pig`). The binding's `#[napi]` functions come with the
//! `party_games_node` crate; this crate only says which registry they serve.

use game_core::{Erased, Registry};

/// The built-in games and the author's.
fn registry() -> Registry {
    let mut registry = game_host::registry();
    registry
        .register(Erased(pig::Pig))
        .expect("pig is not a built-in id");
    registry
}

// Runs when Node loads the module, before JavaScript can create a registry.
#[napi_derive::module_init]
fn init() {
    party_games_node::use_registry(registry);
}
