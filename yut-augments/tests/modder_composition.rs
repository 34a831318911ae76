//! A modder adds an augment of their own in their own crate, without forking: a rule set
//! on the public `yut::Rules` trait, composed with the layer as `(Augments, Mine)`. Hooks
//! fold left to right; options stay one flat JSON object; events and actions of both
//! appear side by side.

use game_core::Game;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use yut::rules::{Cx, Either, MoveDone, Rules, WithRules};
use yut::testing::Script;
use yut::{Board, NoAction, NoView, Origin, Phase, ThrowChance as C, To, Yut, YutAction, YutEvent};
use yut_augments::{Augment, AugmentAction, AugmentConfig, AugmentEvent, Augments, Effect, Source};

/// "행운의 칠": a stack that stops on node 7 throws once more.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct LuckySeven;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
struct LuckyConfig {
    lucky_seven: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
enum LuckyEvent {
    LuckySeven { side: u8 },
}

impl Rules for LuckySeven {
    type Config = LuckyConfig;
    type Options = WithRules<LuckyConfig>;
    type State = u32;
    type Action = NoAction;
    type Event = LuckyEvent;
    type View = NoView;

    fn id(&self) -> &'static str {
        "lucky-seven"
    }

    fn after_move(&self, cx: &mut Cx<'_, Self>, done: &MoveDone) {
        if cx.config.lucky_seven && done.to == To::Node(7) {
            cx.grant_throw();
            *cx.state += 1;
            cx.emit(LuckyEvent::LuckySeven {
                side: done.info.side,
            });
        }
    }

    fn view(&self, _board: &Board, _state: &u32) -> NoView {
        NoView {}
    }
}

type Mine = (Augments, LuckySeven);

#[test]
fn a_modders_augment_composes_with_the_layer() {
    let game = Yut::new((Augments, LuckySeven));
    assert_eq!(game.id(), "yut-augments+lucky-seven");
    // One flat options object: base, the layer's and the modder's fields.
    let options: <Mine as Rules>::Options = serde_json::from_str(
        r#"{"stickModel":"fair","augments":["first-step","yut-leap"],"cushion":false,"truce":false,"luckySeven":true}"#,
    )
    .unwrap();
    assert_eq!(
        options.rules.first.augments,
        vec![Augment::FirstStep, Augment::YutLeap]
    );
    assert!(options.rules.second.lucky_seven);
    assert!(serde_json::from_str::<<Mine as Rules>::Options>(r#"{"luckyEight":true}"#).is_err());

    let mut s = Script::setup(game, &options, 2, 3).unwrap();
    // The layer's draft comes first; its actions are the legal ones.
    assert_eq!(s.phase(), Phase::Rule);
    let seat = s.seat();
    let legal = s.game.legal_actions(&s.state, seat);
    assert_eq!(
        legal[0],
        YutAction::Rule(Either::Left(AugmentAction::ChooseAugment { index: 0 }))
    );
    let chosen = s.state.rules().0.draft.as_ref().unwrap().candidates[0];
    s.act(seat, legal[0]);
    assert!(s.state.rules().0.sides[usize::from(s.side())].owns(chosen));

    // Script a position: side 0 owns first-step, a piece on node 4.
    s.state.rules_mut().0.sides[0] = Default::default();
    s.state.rules_mut().0.sides[0].grant(Augment::FirstStep);
    s.clear().set_turn(0).set_throw(1, &[]).place(0, 4, 1, &[]);
    s.throw(C::Geol);
    let ev = s.play(0, Origin::Node(4));
    assert!(
        ev.contains(&YutEvent::Rule(Either::Right(LuckyEvent::LuckySeven {
            side: 0
        })))
    );
    assert_eq!(s.phase(), Phase::Throw, "the modder's bonus throw");
    assert_eq!(s.state.rules().1, 1);
    s.throw(C::Do);
    let ev = s.play(0, Origin::HOME);
    assert!(
        ev.contains(&YutEvent::Rule(Either::Left(AugmentEvent::AugmentFired {
            side: 0,
            id: Source::Augment(Augment::FirstStep),
            effect: Effect::ExtraSteps {
                steps: 1,
                from: Origin::HOME
            },
        })))
    );
    assert_eq!(s.stack(0, 2), 1);
    s.game.check_state(&s.state).unwrap();
    // Both rule sets' events are on the wire with their own `type`.
    let wire = serde_json::to_string(&ev).unwrap();
    assert!(wire.contains(r#""type":"augmentFired""#));
}

#[test]
fn the_modders_rules_alone_leave_the_layer_out() {
    let options = WithRules {
        base: yut::YutOptions::default(),
        rules: yut::rules::Both {
            first: AugmentConfig::none(),
            second: LuckyConfig { lucky_seven: true },
        },
    };
    let s = Script::setup(Yut::new((Augments, LuckySeven)), &options, 2, 0).unwrap();
    assert_eq!(s.phase(), Phase::Throw, "the empty pack drafts nothing");
}

/// A composed rule set answers the legal actions by index as its list (the draft's choices
/// come through the pair as `Either::Left`), plays quietly the same games, and starts a
/// new game in a used state (`Game::reset`) as setup starts it, both parts' states
/// included.
#[test]
fn a_composed_rule_set_indexes_its_legal_actions_as_it_lists_them() {
    let game = Yut::new((Augments, LuckySeven));
    let mut app = yut_augments::app_options();
    app.base.stick_model = yut::StickModel::Fair;
    let options = WithRules {
        base: app.base.clone(),
        rules: yut::rules::Both {
            first: app.rules,
            second: LuckyConfig { lucky_seven: true },
        },
    };
    for n in 2..=3 {
        game_core::testing::assert_legal_index_agrees(&game, &options, n);
        game_core::testing::assert_quiet_agrees(&game, &options, n, 0..5);
    }
    game_core::testing::assert_reset_agrees(&game, &[(options.clone(), 2), (options, 3)]);
}
