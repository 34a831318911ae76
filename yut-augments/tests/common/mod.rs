//! Helpers shared by the integration tests (each test binary uses some of them).
#![allow(dead_code)]

pub mod random;

use game_core::GameRng;
use yut::rules::WithRules;
use yut::testing::Script;
use yut::{Phase, SideId, ThrowChance, ThrowDraw, Yut, YutEvent, YutOptions};
use yut_augments::{Augment, AugmentConfig, AugmentEvent, Augments, Effect, HouseRule, Source};

/// The events of the augmented game.
pub type Event = YutEvent<AugmentEvent>;

/// A pack with just these augments and the house rules off.
pub fn pack(augments: &[Augment]) -> AugmentConfig {
    AugmentConfig {
        augments: augments.to_vec(),
        cushion: false,
        truce: false,
    }
}

/// An augmented game set up with `config` on `base` for `players` seats, then scripted to
/// a quiet start: no draft open, every side past its drafting turns (20 turns each), all
/// pieces home, seat 0 to throw.
pub fn script_with(config: AugmentConfig, base: YutOptions, players: usize) -> Script<Augments> {
    let options = WithRules {
        base,
        rules: config,
    };
    let mut s = Script::setup(Yut::new(Augments), &options, players, 0).expect("setup");
    s.state.rules_mut().draft = None;
    s.state.rules_mut().barred = None;
    for side in 0..s.state.board().sides().len() {
        s.set_turns(side as SideId, 20);
    }
    s.clear().set_turn(0).set_throw(1, &[]);
    s
}

/// [`script_with`] on the standard base options, two players.
pub fn script(config: AugmentConfig) -> Script<Augments> {
    script_with(config, YutOptions::default(), 2)
}

/// Gives `side` the augment `a` with all its uses.
pub fn grant(s: &mut Script<Augments>, side: SideId, a: Augment) {
    s.state.rules_mut().sides[usize::from(side)].grant(a);
}

/// Uses left of `a` for `side` (`None`: not owned or unlimited).
pub fn uses_left(s: &Script<Augments>, side: SideId, a: Augment) -> Option<u8> {
    s.state.rules().sides[usize::from(side)]
        .get(a)
        .and_then(|o| o.uses_left)
}

/// Every `augmentFired` event as `(side, id, effect)`.
pub fn fired(events: &[Event]) -> Vec<(SideId, Source, Effect)> {
    events
        .iter()
        .filter_map(|e| match e {
            YutEvent::Rule(AugmentEvent::AugmentFired { side, id, effect }) => {
                Some((*side, *id, *effect))
            }
            _ => None,
        })
        .collect()
}

/// The `augmentFired` events of augment `a`.
pub fn fired_by(events: &[Event], a: Augment) -> Vec<(SideId, Effect)> {
    fired(events)
        .into_iter()
        .filter(|(_, id, _)| *id == Source::Augment(a))
        .map(|(s, _, e)| (s, e))
        .collect()
}

/// The `augmentFired` events of house rule `h`.
pub fn fired_house(events: &[Event], h: HouseRule) -> Vec<(SideId, Effect)> {
    fired(events)
        .into_iter()
        .filter(|(_, id, _)| *id == Source::House(h))
        .map(|(s, _, e)| (s, e))
        .collect()
}

/// Whether the events pass the turn.
pub fn turn_passed(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, YutEvent::TurnChanged { .. }))
}

/// Rigs the game's RNG so that the next draws (rethrows by 다시 보기, which the script cannot
/// force) show `results` in order: finds a seed whose draws do.
pub fn rig(s: &mut Script<Augments>, results: &[ThrowChance]) {
    let options = s.state.board().options().clone();
    for seed in 0..1_000_000u64 {
        let mut rng = GameRng::from_seed(seed);
        let fits = results.iter().all(|want| {
            let d = ThrowDraw::draw(&options, &mut rng);
            ThrowChance::of_draw(d) == *want
        });
        if fits {
            s.reseed(seed);
            return;
        }
    }
    panic!("no seed draws {results:?}");
}

/// The chance outcome of a draw.
pub trait OfDraw {
    /// The outcome (`Nak` for no result).
    fn of_draw(d: ThrowDraw) -> ThrowChance;
}

impl OfDraw for ThrowChance {
    fn of_draw(d: ThrowDraw) -> ThrowChance {
        d.result.map_or(ThrowChance::Nak, ThrowChance::of)
    }
}

/// Asserts the state passes the game's own check (base invariants and the layer's).
pub fn check(s: &Script<Augments>) {
    s.check();
}

/// The phase.
pub fn phase(s: &Script<Augments>) -> Phase {
    s.phase()
}
