//! The eighteen augments of the app's rules and their three draft slots, with their stable
//! ids (the crate README, The augments).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One of the eighteen augments (증강). On the wire and in saved states it is its stable
/// kebab-case id (`"first-step"`, …); players see [`Augment::name`] and [`Augment::text`].
///
/// ```
/// use yut_augments::{Augment, Slot};
/// assert_eq!(serde_json::to_string(&Augment::SecondLook).unwrap(), r#""second-look""#);
/// assert_eq!(Augment::SecondLook.name(), "다시 보기");
/// assert_eq!(Augment::SecondLook.slot(), Slot::Middle);
/// assert_eq!(Augment::SecondLook.uses(), Some(2));
/// assert_eq!(Augment::FirstStep.uses(), None);
/// assert_eq!("yut-leap".parse::<Augment>(), Ok(Augment::YutLeap));
/// ```
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Augment {
    /// 첫걸음 한 칸: a piece entering from home goes one step further.
    FirstStep,
    /// 쌍둥이 입장: once, two waiting pieces enter together as one stack.
    TwinEntry,
    /// 도의 메아리: once, a 도 earns one more throw.
    DoEcho,
    /// 뒷길 지우기: a 빽도 counts as 도.
    EraseBackdo,
    /// 함께 걷는 힘: a stack of two or more goes one step further.
    WalkTogether,
    /// 모의 덤: once, a 모 brings an extra 도.
    MoBonus,
    /// 푹신한 깔개: one more first-capture cushion.
    SoftLanding,
    /// 되갚을 손: once, after a capture of the side's pieces its next turn owes two throws.
    Payback,
    /// 업고 달리기: a stack formed by stacking goes one step further on its next move.
    PiggybackDash,
    /// 다시 보기: twice, a 도 or 빽도 is thrown again.
    SecondLook,
    /// 모서리 박수: once, stopping on a corner earns one more throw.
    CornerClap,
    /// 사냥 두 번: once, a capture earns two extra throws instead of one.
    DoubleHunt,
    /// 문턱 낮추기: a move ending one step short of finishing finishes.
    LowThreshold,
    /// 한 줄 바람: once, a 도 or 개 becomes 걸.
    OneLineWind,
    /// 골인 환호: twice, a finishing move earns one more throw.
    GoalCheer,
    /// 철벽 업기: the side's stacks of three or more cannot be captured.
    IronStack,
    /// 뒤집기 바람: while behind in finished pieces, 도 counts as 개 and 빽도 as 도.
    ComebackWind,
    /// 윷 도약: a 윷 moves five steps.
    YutLeap,
}

/// The three draft slots: at the side's own 1st, 6th and 12th turns.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Slot {
    /// 시작 증강, drafted at the side's 1st turn.
    Start,
    /// 중간 증강, drafted at the side's 6th turn.
    Middle,
    /// 마무리 증강, drafted at the side's 12th turn.
    Finish,
}

impl Slot {
    /// The slots in draft order.
    pub const ALL: [Slot; 3] = [Slot::Start, Slot::Middle, Slot::Finish];

    /// The side's own turn (counting from 1) at whose start this slot is drafted.
    ///
    /// ```
    /// assert_eq!(yut_augments::Slot::Middle.turn(), 6);
    /// ```
    pub const fn turn(self) -> u16 {
        match self {
            Slot::Start => 1,
            Slot::Middle => 6,
            Slot::Finish => 12,
        }
    }

    /// The slot drafted at the side's `turn`-th turn, if any.
    ///
    /// ```
    /// use yut_augments::Slot;
    /// assert_eq!(Slot::at_turn(12), Some(Slot::Finish));
    /// assert_eq!(Slot::at_turn(2), None);
    /// ```
    pub const fn at_turn(turn: u16) -> Option<Slot> {
        match turn {
            1 => Some(Slot::Start),
            6 => Some(Slot::Middle),
            12 => Some(Slot::Finish),
            _ => None,
        }
    }

    /// The Korean name shown to players.
    ///
    /// ```
    /// assert_eq!(yut_augments::Slot::Start.name(), "시작 증강");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Slot::Start => "시작 증강",
            Slot::Middle => "중간 증강",
            Slot::Finish => "마무리 증강",
        }
    }

    /// The wire name (`start`, `middle`, `finish`).
    pub const fn wire(self) -> &'static str {
        match self {
            Slot::Start => "start",
            Slot::Middle => "middle",
            Slot::Finish => "finish",
        }
    }

    /// The slot's six augments, in table order (the crate README, The augments).
    ///
    /// ```
    /// use yut_augments::{Augment, Slot};
    /// assert_eq!(Slot::Finish.augments()[0], Augment::LowThreshold);
    /// ```
    pub fn augments(self) -> [Augment; 6] {
        std::array::from_fn(|i| Augment::ALL[self.first() + i])
    }

    /// The index in [`Augment::ALL`] of the slot's first augment.
    const fn first(self) -> usize {
        match self {
            Slot::Start => 0,
            Slot::Middle => 6,
            Slot::Finish => 12,
        }
    }

    /// The slot's six augments as a bit set (see [`Augment::bit`]).
    ///
    /// ```
    /// use yut_augments::{Augment, Slot};
    /// assert_eq!(Slot::Middle.bits() & Augment::Payback.bit(), Augment::Payback.bit());
    /// assert_eq!(Slot::Middle.bits() & Augment::YutLeap.bit(), 0);
    /// ```
    #[inline]
    pub const fn bits(self) -> u32 {
        0b11_1111 << self.first()
    }
}

impl Augment {
    /// Its bit in the layer's bit sets of augments: `1 << i` for the `i`-th of
    /// [`Augment::ALL`].
    ///
    /// ```
    /// use yut_augments::Augment;
    /// assert_eq!(Augment::FirstStep.bit(), 1);
    /// assert_eq!(Augment::YutLeap.bit(), 1 << 17);
    /// ```
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }

    /// All eighteen, in table order (six per slot).
    pub const ALL: [Augment; 18] = [
        Augment::FirstStep,
        Augment::TwinEntry,
        Augment::DoEcho,
        Augment::EraseBackdo,
        Augment::WalkTogether,
        Augment::MoBonus,
        Augment::SoftLanding,
        Augment::Payback,
        Augment::PiggybackDash,
        Augment::SecondLook,
        Augment::CornerClap,
        Augment::DoubleHunt,
        Augment::LowThreshold,
        Augment::OneLineWind,
        Augment::GoalCheer,
        Augment::IronStack,
        Augment::ComebackWind,
        Augment::YutLeap,
    ];

    /// The stable id, as on the wire.
    ///
    /// ```
    /// assert_eq!(yut_augments::Augment::IronStack.id(), "iron-stack");
    /// ```
    pub const fn id(self) -> &'static str {
        match self {
            Augment::FirstStep => "first-step",
            Augment::TwinEntry => "twin-entry",
            Augment::DoEcho => "do-echo",
            Augment::EraseBackdo => "erase-backdo",
            Augment::WalkTogether => "walk-together",
            Augment::MoBonus => "mo-bonus",
            Augment::SoftLanding => "soft-landing",
            Augment::Payback => "payback",
            Augment::PiggybackDash => "piggyback-dash",
            Augment::SecondLook => "second-look",
            Augment::CornerClap => "corner-clap",
            Augment::DoubleHunt => "double-hunt",
            Augment::LowThreshold => "low-threshold",
            Augment::OneLineWind => "one-line-wind",
            Augment::GoalCheer => "goal-cheer",
            Augment::IronStack => "iron-stack",
            Augment::ComebackWind => "comeback-wind",
            Augment::YutLeap => "yut-leap",
        }
    }

    /// The Korean display name, as the app's rules give it.
    pub const fn name(self) -> &'static str {
        match self {
            Augment::FirstStep => "첫걸음 한 칸",
            Augment::TwinEntry => "쌍둥이 입장",
            Augment::DoEcho => "도의 메아리",
            Augment::EraseBackdo => "뒷길 지우기",
            Augment::WalkTogether => "함께 걷는 힘",
            Augment::MoBonus => "모의 덤",
            Augment::SoftLanding => "푹신한 깔개",
            Augment::Payback => "되갚을 손",
            Augment::PiggybackDash => "업고 달리기",
            Augment::SecondLook => "다시 보기",
            Augment::CornerClap => "모서리 박수",
            Augment::DoubleHunt => "사냥 두 번",
            Augment::LowThreshold => "문턱 낮추기",
            Augment::OneLineWind => "한 줄 바람",
            Augment::GoalCheer => "골인 환호",
            Augment::IronStack => "철벽 업기",
            Augment::ComebackWind => "뒤집기 바람",
            Augment::YutLeap => "윷 도약",
        }
    }

    /// The slot it is drafted in.
    pub const fn slot(self) -> Slot {
        match self {
            Augment::FirstStep
            | Augment::TwinEntry
            | Augment::DoEcho
            | Augment::EraseBackdo
            | Augment::WalkTogether
            | Augment::MoBonus => Slot::Start,
            Augment::SoftLanding
            | Augment::Payback
            | Augment::PiggybackDash
            | Augment::SecondLook
            | Augment::CornerClap
            | Augment::DoubleHunt => Slot::Middle,
            Augment::LowThreshold
            | Augment::OneLineWind
            | Augment::GoalCheer
            | Augment::IronStack
            | Augment::ComebackWind
            | Augment::YutLeap => Slot::Finish,
        }
    }

    /// The Korean effect text, word for word as the app's rules give it.
    pub const fn text(self) -> &'static str {
        match self {
            Augment::FirstStep => "말을 판에 들일 때 한 칸 더 갑니다.",
            Augment::TwinEntry => "한 번, 대기 말 둘을 한 점에 함께 들입니다.",
            Augment::DoEcho => "한 번, 도가 나오면 한 번 더 던집니다.",
            Augment::EraseBackdo => "빽도가 나오면 도로 칩니다.",
            Augment::WalkTogether => "업은 말 무리는 한 칸 더 갑니다.",
            Augment::MoBonus => "한 번, 모가 나오면 도 하나를 더 얻습니다.",
            Augment::SoftLanding => "첫 잡힘 완충을 한 번 더 받습니다.",
            Augment::Payback => "한 번, 말이 잡히면 다음 차례에 한 번 더 던집니다.",
            Augment::PiggybackDash => "말을 업으면 그 무리가 다음에 한 칸 더 갑니다.",
            Augment::SecondLook => "두 번, 도나 빽도가 나오면 다시 던집니다.",
            Augment::CornerClap => "한 번, 모서리에 멈추면 한 번 더 던집니다.",
            Augment::DoubleHunt => "한 번, 말을 잡으면 두 번 더 던집니다.",
            Augment::LowThreshold => "나가는 데 한 칸이 모자라도 나갑니다.",
            Augment::OneLineWind => "한 번, 도나 개가 걸로 바뀝니다.",
            Augment::GoalCheer => "두 번, 말이 나가면 한 번 더 던집니다.",
            Augment::IronStack => "세 동 이상 업은 말은 잡히지 않습니다.",
            Augment::ComebackWind => "나간 말이 적으면 도는 개로, 빽도는 도로 칩니다.",
            Augment::YutLeap => "윷이 나오면 다섯 칸 갑니다.",
        }
    }

    /// Uses per game for the side that owns it: `Some(1)` for "한 번", `Some(2)` for
    /// "두 번", `None` for an augment that works every time. 푹신한 깔개 ("한 번 더") is
    /// one use: the one extra cushion it gives.
    pub const fn uses(self) -> Option<u8> {
        match self {
            Augment::TwinEntry
            | Augment::DoEcho
            | Augment::MoBonus
            | Augment::SoftLanding
            | Augment::Payback
            | Augment::CornerClap
            | Augment::DoubleHunt
            | Augment::OneLineWind => Some(1),
            Augment::SecondLook | Augment::GoalCheer => Some(2),
            Augment::FirstStep
            | Augment::EraseBackdo
            | Augment::WalkTogether
            | Augment::PiggybackDash
            | Augment::LowThreshold
            | Augment::IronStack
            | Augment::ComebackWind
            | Augment::YutLeap => None,
        }
    }
}

impl std::fmt::Display for Augment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// An id that names no augment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAugment(pub String);

impl std::fmt::Display for UnknownAugment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no augment has the id {:?}", self.0)
    }
}

impl std::error::Error for UnknownAugment {}

impl std::str::FromStr for Augment {
    type Err = UnknownAugment;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Augment::ALL
            .into_iter()
            .find(|a| a.id() == s)
            .ok_or_else(|| UnknownAugment(s.to_string()))
    }
}
