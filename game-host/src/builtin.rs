//! The games built into this workspace, registered once.

use game_core::{Erased, Registry, WithBots};
use yut::{BotKind, Rules, SeatBot, Yut};

/// Every built-in game, by id: `yut` (the engine's rules: the standard preset by default,
/// any preset's base options), `yut-augments` (the same with the augment layer of
/// `yut-augments`: its options add `augments`, `cushion` and `truce`, and default to the
/// whole pack; `yut_augments::app_options()` is the `app` preset), `one-card` (원카드,
/// with hidden hands) and `rps`. New built-in games are registered here and nowhere else:
/// the hosts, the schema export and the tests take them from here.
///
/// Bots ([`game_core::DynGame::bot_kinds`]), the default kind first: the Yut games offer
/// `policy` (the timeout policy) and `strong` (expectimax); One Card `policy` (its
/// heuristic, `one_card::bots::PolicyBot`) and its own budget for `ismcts`
/// (`one_card::bots::ismcts`); and every game the shared kinds
/// ([`game_core::SHARED_BOTS`]): `random`, `pimc` and `ismcts` (the searches that know
/// only what their seat knows). Every bot is handed a world of its seat's information set,
/// never the true state ([`game_core::Fair`]).
///
/// ```
/// let registry = game_host::registry();
/// let ids: Vec<&str> = registry.ids().collect();
/// assert_eq!(ids, ["one-card", "rps", "yut", "yut-augments"]);
/// assert_eq!(registry.get("yut").unwrap().bot_kinds(), ["policy", "strong", "random", "pimc", "ismcts"]);
/// assert_eq!(registry.get("one-card").unwrap().bot_kinds(), ["policy", "ismcts", "random", "pimc"]);
/// ```
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register(with_yut_bots(Yut::standard()))
        .and_then(|r| {
            // The augment layer's refusals travel inside `YutError::Rule`: listed here.
            r.register(
                with_yut_bots(yut_augments::game()).with_errors::<yut_augments::AugmentError>(),
            )
        })
        .and_then(|r| r.register(Erased(game_core::rps::Rps)))
        .and_then(|r| {
            r.register(
                Erased(one_card::OneCard)
                    .with_bot("policy", one_card::bots::PolicyBot::new)
                    .with_bot("ismcts", one_card::bots::ismcts),
            )
        })
        .expect("the built-in games have distinct ids");
    registry
}

/// A Yut game with every [`BotKind`], by its word, the default kind first.
fn with_yut_bots<R: Rules + Clone>(game: Yut<R>) -> WithBots<Yut<R>>
where
    Yut<R>: game_core::Game,
    <Yut<R> as game_core::Game>::Options: Default,
{
    let kind = |k: BotKind| move |seed| SeatBot::new(k, seed);
    Erased(game)
        .with_bot(BotKind::Policy.word(), kind(BotKind::Policy))
        .with_bot(BotKind::Strong.word(), kind(BotKind::Strong))
        .with_bot(BotKind::Random.word(), kind(BotKind::Random))
}
