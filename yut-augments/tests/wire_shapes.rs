//! The wire: ids, names, slots and texts as the README's table gives them; options,
//! actions, events and the view in the README's shapes (Playing, The draft, The view); JSON
//! Schemas generated from the types.

mod common;

use common::*;
use game_core::{Game, GameError};
use serde_json::json;
use yut::rules::WithRules;
use yut::{Origin, ThrowChance as C, Yut, YutOptions};
use yut_augments::{
    Augment as A, AugmentAction, AugmentConfig, AugmentEvent, AugmentOptions, Augments, Candidates,
    Effect, HouseRule, Slot, Source, app_options,
};

#[test]
fn ids_names_and_slots_are_those_of_the_augment_table() {
    let table = [
        ("first-step", "첫걸음 한 칸", "start"),
        ("twin-entry", "쌍둥이 입장", "start"),
        ("do-echo", "도의 메아리", "start"),
        ("erase-backdo", "뒷길 지우기", "start"),
        ("walk-together", "함께 걷는 힘", "start"),
        ("mo-bonus", "모의 덤", "start"),
        ("soft-landing", "푹신한 깔개", "middle"),
        ("payback", "되갚을 손", "middle"),
        ("piggyback-dash", "업고 달리기", "middle"),
        ("second-look", "다시 보기", "middle"),
        ("corner-clap", "모서리 박수", "middle"),
        ("double-hunt", "사냥 두 번", "middle"),
        ("low-threshold", "문턱 낮추기", "finish"),
        ("one-line-wind", "한 줄 바람", "finish"),
        ("goal-cheer", "골인 환호", "finish"),
        ("iron-stack", "철벽 업기", "finish"),
        ("comeback-wind", "뒤집기 바람", "finish"),
        ("yut-leap", "윷 도약", "finish"),
    ];
    for (a, (id, name, slot)) in A::ALL.iter().zip(table) {
        assert_eq!(serde_json::to_value(a).unwrap(), json!(id));
        assert_eq!(serde_json::from_value::<A>(json!(id)).unwrap(), *a);
        assert_eq!(a.id(), id);
        assert_eq!(a.name(), name);
        assert_eq!(serde_json::to_value(a.slot()).unwrap(), json!(slot));
    }
    assert_eq!(
        serde_json::to_value(HouseRule::Cushion).unwrap(),
        json!("cushion")
    );
    assert_eq!(
        serde_json::to_value(HouseRule::Truce).unwrap(),
        json!("truce")
    );
}

#[test]
fn texts_and_uses_follow_app_rules() {
    for a in A::ALL {
        let t = a.text();
        let expected = if t.starts_with("두 번,") {
            Some(2)
        } else if t.starts_with("한 번,") || t.contains("한 번 더 받습니다") {
            Some(1)
        } else {
            None
        };
        assert_eq!(a.uses(), expected, "{a}");
    }
    // Word for word against the augment table of this crate's README.
    let page = include_str!("../README.md");
    for a in A::ALL {
        let slot = match a.slot() {
            Slot::Start => "start",
            Slot::Middle => "middle",
            Slot::Finish => "finish",
        };
        let row = format!("| `{}` | {} | {} | {} |", a.id(), a.name(), slot, a.text());
        assert!(page.contains(&row), "the README has no row {row}");
    }
}

#[test]
fn options_are_flat_validated_and_have_a_schema() {
    let o = serde_json::to_value(app_options()).unwrap();
    assert_eq!(o["stickModel"], "fair");
    assert_eq!(o["backdoFromDo"], "home");
    assert_eq!(o["augments"].as_array().unwrap().len(), 18);
    assert_eq!(o["cushion"], true);
    assert_eq!(o["truce"], true);
    let back: AugmentOptions = serde_json::from_value(o).unwrap();
    assert_eq!(back, app_options());
    let empty: AugmentOptions =
        serde_json::from_value(json!({"augments": [], "cushion": false, "truce": false})).unwrap();
    assert_eq!(empty.rules, AugmentConfig::none());
    let dup = WithRules {
        base: YutOptions::default(),
        rules: pack(&[A::DoEcho, A::YutLeap, A::DoEcho]),
    };
    let err = Yut::new(Augments)
        .setup(&dup, &yut::testing::players(2), 0, 0)
        .unwrap_err();
    assert_eq!(err.code(), "INVALID_OPTION");
    assert_eq!(err.reason().unwrap()["option"], "augments");
    let schema = serde_json::to_value(schemars::schema_for!(AugmentOptions)).unwrap();
    let text = schema.to_string();
    for a in A::ALL {
        assert!(
            text.contains(&format!("\"{}\"", a.id())),
            "schema lists {a}"
        );
    }
    assert!(schema["properties"]["cushion"].is_object());
    let action = serde_json::to_value(schemars::schema_for!(AugmentAction)).unwrap();
    assert!(action.to_string().contains("CHOOSE_AUGMENT"));
    let event = serde_json::to_value(schemars::schema_for!(AugmentEvent)).unwrap();
    assert!(event.to_string().contains("augmentFired"));
}

#[test]
fn events_have_the_wire_shapes() {
    let fired = AugmentEvent::AugmentFired {
        side: 0,
        id: Source::House(HouseRule::Cushion),
        effect: Effect::Cushioned {
            to: yut::To::Node(1),
            count: 2,
            blocked: false,
        },
    };
    assert_eq!(
        serde_json::to_value(fired).unwrap(),
        json!({"type": "augmentFired", "side": 0, "id": "cushion", "effect": "cushioned", "to": 1, "count": 2, "blocked": false})
    );
    let offered = AugmentEvent::AugmentOffered {
        side: 1,
        seat: 1,
        slot: Slot::Middle,
        candidates: Candidates::from_slice(&[A::Payback, A::CornerClap]).unwrap(),
    };
    assert_eq!(
        serde_json::to_value(offered).unwrap(),
        json!({"type": "augmentOffered", "side": 1, "seat": 1, "slot": "middle", "candidates": ["payback", "corner-clap"]})
    );
    for e in [fired, offered] {
        let wire = serde_json::to_string(&yut::YutEvent::Rule(e)).unwrap();
        let back: yut::YutEvent<AugmentEvent> = serde_json::from_str(&wire).unwrap();
        assert_eq!(back, yut::YutEvent::Rule(e));
    }
}

#[test]
fn the_view_shows_augments_uses_and_house_rules_per_side() {
    let config = AugmentConfig {
        cushion: true,
        truce: true,
        ..pack(&[A::SecondLook, A::FirstStep])
    };
    let mut s = script(config);
    grant(&mut s, 0, A::FirstStep);
    grant(&mut s, 0, A::SecondLook);
    let v = serde_json::to_value(s.view(Some(1))).unwrap();
    assert_eq!(v["draft"], json!(null));
    assert_eq!(
        v["augmentSides"][0]["augments"],
        json!([{"id": "first-step", "usesLeft": null}, {"id": "second-look", "usesLeft": 2}])
    );
    assert_eq!(v["augmentSides"][0]["cushionsLeft"], 1);
    assert_eq!(v["augmentSides"][0]["truceAvailable"], true);
    assert_eq!(v["augmentSides"][1]["augments"], json!([]));
    assert!(!v.to_string().contains("rng"));
    // After a rethrow the use count drops.
    rig(&mut s, &[C::Gae]);
    s.throw(C::Do);
    let v = serde_json::to_value(s.view(None)).unwrap();
    assert_eq!(v["augmentSides"][0]["augments"][1]["usesLeft"], 1);
    s.play(0, Origin::HOME);
    check(&s);
}
