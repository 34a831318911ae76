//! The layer's events: the draft (`augmentOffered`, `augmentChosen`) and
//! `augmentFired` each time an augment or a house rule changes something.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use yut::graph::Node;
use yut::{Origin, SideId, Throw, To};

use crate::{Augment, Candidates, Slot};

/// A house rule of the augment layer, switched on and off apart from the augments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HouseRule {
    /// 첫 잡힘 완충: the first captured stack goes to node 1 instead of home.
    Cushion,
    /// 쉼 약속: the side whose capture took another side's second piece may not capture
    /// during its next turn.
    Truce,
}

impl HouseRule {
    /// The Korean display name.
    ///
    /// ```
    /// assert_eq!(yut_augments::HouseRule::Truce.name(), "쉼 약속");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            HouseRule::Cushion => "첫 잡힘 완충",
            HouseRule::Truce => "쉼 약속",
        }
    }
}

/// What fired: an augment or a house rule, by its id (`"second-look"`, `"cushion"`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Source {
    /// An augment.
    Augment(Augment),
    /// A house rule.
    House(HouseRule),
}

/// What an augment or a house rule did, tagged by `effect` beside the event's other fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "effect", rename_all = "camelCase")]
#[non_exhaustive]
pub enum Effect {
    /// 다시 보기: the throw showing `result` is thrown again (a new `thrown` follows).
    #[serde(rename_all = "camelCase")]
    Rethrow {
        /// What the sticks showed.
        result: Throw,
    },
    /// 뒷길 지우기, 뒤집기 바람, 한 줄 바람: the result counts as another.
    #[serde(rename_all = "camelCase")]
    Substituted {
        /// The result before.
        from: Throw,
        /// The result now.
        to: Throw,
    },
    /// 도의 메아리, 모서리 박수, 골인 환호, 사냥 두 번, 되갚을 손: throws added to the
    /// throws owed.
    #[serde(rename_all = "camelCase")]
    ExtraThrows {
        /// How many this augment added.
        throws: u8,
    },
    /// 모의 덤: a result added to the pending results (not a throw).
    #[serde(rename_all = "camelCase")]
    ExtraResult {
        /// The result added.
        result: Throw,
    },
    /// 첫걸음 한 칸, 함께 걷는 힘, 업고 달리기, 윷 도약: the move went further.
    #[serde(rename_all = "camelCase")]
    ExtraSteps {
        /// Steps this augment added.
        steps: u8,
        /// Where the move started.
        from: Origin,
    },
    /// 쌍둥이 입장: waiting pieces entered together as one stack.
    #[serde(rename_all = "camelCase")]
    TwinEntry {
        /// Pieces that entered.
        count: u8,
    },
    /// 업고 달리기: the stack on `node`, just formed by stacking, carries the mark.
    #[serde(rename_all = "camelCase")]
    Marked {
        /// Where the marked stack stands.
        node: Node,
    },
    /// 문턱 낮추기: the move would have ended on `node`, one step short, and finished.
    #[serde(rename_all = "camelCase")]
    FinishedShort {
        /// Where it would have stopped.
        node: Node,
    },
    /// 되갚을 손: the side's pieces were captured; its next turn owes two throws.
    Armed,
    /// 첫 잡힘 완충 or 푹신한 깔개: a cushion caught the captured stack. It went to node 1,
    /// or home when another side held node 1 (`blocked`); the cushion is spent either way.
    #[serde(rename_all = "camelCase")]
    Cushioned {
        /// Where the captured pieces went: `1` or `"home"`.
        to: To,
        /// How many pieces.
        count: u8,
        /// Whether node 1 was held by another side.
        blocked: bool,
    },
    /// 쉼 약속: the side lost its second piece; `barred` may not capture during its next turn.
    #[serde(rename_all = "camelCase")]
    TruceCalled {
        /// The side that captured it.
        barred: SideId,
    },
    /// 쉼 약속: this turn the side may not capture.
    TruceInForce,
}

/// An event of the augment layer. Tagged by `type`; it appears among the game's events
/// after the base event it follows (`thrown`, `moved`, `captured`, `turnChanged`, …).
///
/// ```
/// use yut_augments::{Augment, AugmentEvent, Effect, Source};
/// let e = AugmentEvent::AugmentFired {
///     side: 1,
///     id: Source::Augment(Augment::DoEcho),
///     effect: Effect::ExtraThrows { throws: 1 },
/// };
/// let json = serde_json::to_string(&e).unwrap();
/// assert_eq!(json, r#"{"type":"augmentFired","side":1,"id":"do-echo","effect":"extraThrows","throws":1}"#);
/// assert_eq!(serde_json::from_str::<AugmentEvent>(&json).unwrap(), e);
/// ```
// `Copy`: no field is on the heap, so the events buffer and the recent-event log copy and
// drop the layer's events like the base game's plain ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
#[non_exhaustive]
pub enum AugmentEvent {
    /// A draft began: the side chooses one of `candidates` (`CHOOSE_AUGMENT {index}`).
    #[serde(rename_all = "camelCase")]
    AugmentOffered {
        /// The drafting side.
        side: SideId,
        /// The seat that chooses (the member whose turn it is).
        seat: u8,
        /// The slot drafted.
        slot: Slot,
        /// The candidates, in order.
        #[schemars(with = "Vec<Augment>")]
        candidates: Candidates,
    },
    /// The side took an augment.
    #[serde(rename_all = "camelCase")]
    AugmentChosen {
        /// The side.
        side: SideId,
        /// The seat that chose; `null` when the chooser left the game mid-draft and the
        /// first candidate was taken for the side.
        seat: Option<u8>,
        /// The augment taken.
        id: Augment,
        /// Its index among the candidates.
        index: u8,
    },
    /// An augment or a house rule changed something.
    #[serde(rename_all = "camelCase")]
    AugmentFired {
        /// Whose augment or house rule (the captured side for the cushion, the protected
        /// side when the truce is called, the barred side when it is in force).
        side: SideId,
        /// The augment's or house rule's id.
        id: Source,
        /// What it did.
        #[serde(flatten)]
        effect: Effect,
    },
}
