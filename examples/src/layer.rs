//! The rule layers the examples know how to show and drive: the standard rules (nothing
//! to add) and the augment layer of `yut-augments` (the draft, eighteen augments, the
//! first-capture cushion and the truce).
//!
//! [`Layer`] is what `play` and `host --trace` need of a rule set beyond the engine's
//! [`Rules`]: words for its events, lines for the panel beside the board, the choices of
//! its own phase (the augment draft) as a numbered list, and a raw action for typed or
//! deliberately illegal input. Everything else (moves, throws, legality, timeouts) is the
//! engine's.
//!
//! ```
//! use examples::layer::{Layer, effect_text};
//! use yut_augments::{Augment, Effect};
//! assert_eq!(
//!     examples::layer::source_label(yut_augments::Source::Augment(Augment::DoEcho)),
//!     "「도의 메아리」(do-echo)"
//! );
//! assert!(effect_text(&Effect::ExtraThrows { throws: 1 }).contains("한 번 더 던져요"));
//! assert_eq!(yut_augments::Augments::raw_action(2), Some(yut_augments::AugmentAction::ChooseAugment { index: 2 }));
//! assert_eq!(yut::Standard::raw_action(2), None);
//! ```

use yut::{NoConfig, Rules, Standard, To, Yut, YutView};
use yut_augments::{
    Augment, AugmentAction, AugmentConfig, AugmentEvent, Augments, Effect, HouseRule, Slot, Source,
};

use crate::board::{PANEL_WIDTH, side_tag};
use crate::narrate::{node_label, origin_label, throw_label};
use crate::style::{Style, display_width};

/// The view of a game under rules `R`.
pub type LayerView<R> =
    YutView<<R as Rules>::View, <R as Rules>::Event, yut::YutAction<<R as Rules>::Action>>;

/// One choice of the rules' own phase, for a person's numbered list.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<A> {
    /// What the choice is, in Korean.
    pub label: String,
    /// Its English gloss, shown on the line below.
    pub gloss: String,
    /// The action that makes it.
    pub action: A,
}

/// What the examples need of a rule set (see the module documentation).
pub trait Layer: Rules + Copy {
    /// The game under these rules.
    fn game() -> Yut<Self> {
        Yut::new(Self::default())
    }

    /// Lines for the header of `play`: which of the rules' parts are on.
    fn header_lines(config: &Self::Config, style: Style) -> Vec<String>;

    /// The lines that tell one of the rules' own events. `view` is the view after the
    /// action (for names).
    fn event_lines(event: &Self::Event, view: &LayerView<Self>, style: Style) -> Vec<String>;

    /// Lines for the panel beside the board (each side's augments, the house rules, the
    /// draft in progress).
    fn panel_lines(config: &Self::Config, view: &LayerView<Self>, style: Style) -> Vec<String>;

    /// The heading of a person's prompt in the rules' own phase.
    fn choice_title(view: &LayerView<Self>) -> String;

    /// The choices of the rules' own phase, in the order a person numbers them (from 1).
    fn choices(view: &LayerView<Self>) -> Vec<Choice<Self::Action>>;

    /// The rows the rules add to the summary of the rules in force (`?` in `play`): a
    /// label and what it is set to, with what that means.
    fn summary_rows(_config: &Self::Config) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The rules' action with a raw index (`c I` at the prompt; also how `host --trace`
    /// makes a bad index), or `None` if the rules have no action of their own.
    fn raw_action(index: u32) -> Option<Self::Action>;

    /// A help line for the raw action, if there is one.
    fn raw_help() -> Option<&'static str> {
        None
    }
}

impl Layer for Standard {
    fn header_lines(_config: &NoConfig, _style: Style) -> Vec<String> {
        Vec::new()
    }

    fn event_lines(event: &yut::NoEvent, _view: &LayerView<Self>, _style: Style) -> Vec<String> {
        match *event {}
    }

    fn panel_lines(_config: &NoConfig, _view: &LayerView<Self>, _style: Style) -> Vec<String> {
        Vec::new()
    }

    fn choice_title(_view: &LayerView<Self>) -> String {
        String::new()
    }

    fn choices(_view: &LayerView<Self>) -> Vec<Choice<yut::NoAction>> {
        Vec::new()
    }

    fn raw_action(_index: u32) -> Option<yut::NoAction> {
        None
    }
}

/// An augment or a house rule by its Korean name and id: `「다시 보기」(second-look)`.
pub fn source_label(source: Source) -> String {
    match source {
        Source::Augment(a) => format!("「{}」({})", a.name(), a.id()),
        Source::House(HouseRule::Cushion) => format!("「{}」(cushion)", HouseRule::Cushion.name()),
        Source::House(HouseRule::Truce) => format!("「{}」(truce)", HouseRule::Truce.name()),
    }
}

/// The English gloss of each augment's effect text ([`Augment::text`]), keyed by the
/// augment's stable id.
const AUGMENT_GLOSSES: [(&str, &str); 18] = [
    (
        "first-step",
        "a piece entering the board goes one step further",
    ),
    (
        "twin-entry",
        "once: two waiting pieces enter together as one stack",
    ),
    ("do-echo", "once: a 도 earns one more throw"),
    ("erase-backdo", "a 빽도 counts as 도"),
    (
        "walk-together",
        "a stack of two or more goes one step further",
    ),
    ("mo-bonus", "once: a 모 brings an extra 도"),
    ("soft-landing", "one more first-capture cushion"),
    (
        "payback",
        "once: after a piece of yours is captured, one more throw next turn",
    ),
    (
        "piggyback-dash",
        "a stack you make goes one step further on its next move",
    ),
    ("second-look", "twice: a 도 or 빽도 is thrown again"),
    (
        "corner-clap",
        "once: stopping on a corner (5, 10, 15) earns one more throw",
    ),
    (
        "double-hunt",
        "once: a capture earns two more throws, not one",
    ),
    (
        "low-threshold",
        "a move one step short of finishing finishes",
    ),
    ("one-line-wind", "once: a 도 or 개 becomes 걸"),
    ("goal-cheer", "twice: a finishing move earns one more throw"),
    (
        "iron-stack",
        "your stacks of three or more cannot be captured",
    ),
    (
        "comeback-wind",
        "while you have finished fewer pieces: 도 counts as 개, 빽도 as 도",
    ),
    ("yut-leap", "a 윷 moves five steps"),
];

/// The English gloss of the augment with id `id`, if there is one.
///
/// ```
/// assert_eq!(examples::layer::augment_gloss("yut-leap"), Some("a 윷 moves five steps"));
/// ```
pub fn augment_gloss(id: &str) -> Option<&'static str> {
    AUGMENT_GLOSSES
        .iter()
        .find(|(i, _)| *i == id)
        .map(|&(_, gloss)| gloss)
}

/// An augment for a list: its name, id and effect text.
///
/// ```
/// let label = examples::layer::augment_label(yut_augments::Augment::YutLeap);
/// assert_eq!(label, "「윷 도약」(yut-leap) — 윷이 나오면 다섯 칸 갑니다.");
/// ```
pub fn augment_label(a: Augment) -> String {
    format!("「{}」({}) — {}", a.name(), a.id(), a.text())
}

/// The English line under an [`augment_label`], indented by `indent` columns: the gloss
/// would make one line wider than the screen, so it goes on its own.
///
/// ```
/// let line = examples::layer::augment_gloss_line(yut_augments::Augment::YutLeap, 3);
/// assert_eq!(line, "   (a 윷 moves five steps)");
/// ```
pub fn augment_gloss_line(a: Augment, indent: usize) -> String {
    format!(
        "{}({})",
        " ".repeat(indent),
        augment_gloss(a.id()).unwrap_or(a.id())
    )
}

/// What an augment or a house rule did, in Korean with the English gist.
pub fn effect_text(effect: &Effect) -> String {
    match *effect {
        Effect::Rethrow { result } => {
            format!("{} — 다시 던져요 (rethrow)", throw_label(result))
        }
        Effect::Substituted { from, to } => format!(
            "결과를 바꿔요: {} → {} (substituted)",
            throw_label(from),
            throw_label(to)
        ),
        Effect::ExtraThrows { throws: 1 } => "한 번 더 던져요 (+1 throw)".to_owned(),
        Effect::ExtraThrows { throws } => format!("{throws}번 더 던져요 (+{throws} throws)"),
        Effect::ExtraResult { result } => {
            format!("{} 하나를 더 얻었어요 (extra result)", throw_label(result))
        }
        Effect::ExtraSteps { steps, from } => format!(
            "{}에서 출발한 말이 {steps}칸 더 갔어요 (+{steps} step)",
            origin_label(from)
        ),
        Effect::TwinEntry { count } => {
            format!("대기 말 {count}개가 한 무더기로 함께 들어갔어요 (twin entry)")
        }
        Effect::Marked { node } => format!(
            "{}의 무더기에 표시 — 다음 이동에 한 칸 더 가요 (marked)",
            node_label(node)
        ),
        Effect::FinishedShort { node } => format!(
            "{}에서 한 칸 모자랐지만 났어요 (finished one step short)",
            node_label(node)
        ),
        Effect::Armed => "잡혔으니 다음 차례에 한 번 더 던져요 (payback armed)".to_owned(),
        Effect::Cushioned { to, count, blocked } => match (to, blocked) {
            (To::Node(n), _) => format!(
                "잡힌 말 {count}개가 대기 대신 {}로 갔어요 (cushioned)",
                node_label(n)
            ),
            (_, true) => format!(
                "1번 자리가 막혀 잡힌 말 {count}개는 대기로 — 완충은 썼어요 (cushion blocked, spent)"
            ),
            _ => format!("잡힌 말 {count}개는 대기로 (cushion spent)"),
        },
        Effect::TruceCalled { barred } => format!(
            "두 번째 말을 잃어 쉼 약속 — 잡은 쪽(side {barred})은 다음 차례에 잡을 수 없어요 (truce called)"
        ),
        Effect::TruceInForce => {
            "이번 차례에는 상대 말을 잡을 수 없어요 (truce in force)".to_owned()
        }
        _ => "(effect)".to_owned(),
    }
}

/// Uses left of an owned augment: `∞` when unlimited, else `2회`.
fn uses_label(uses: Option<u8>) -> String {
    match uses {
        None => "∞".to_owned(),
        Some(n) => format!("{n}회"),
    }
}

impl Layer for Augments {
    fn header_lines(config: &AugmentConfig, _style: Style) -> Vec<String> {
        let on_off = |b: bool| if b { "켬(on)" } else { "끔(off)" };
        let augments = match config.augments.len() {
            0 => "없음(no draft)".to_owned(),
            n if n == Augment::ALL.len() => format!("{n}개 전부(all {n})"),
            n => {
                let names: Vec<&str> = config.augments.iter().map(|a| a.name()).collect();
                format!("{n}개: {}", names.join(" · "))
            }
        };
        let mut lines = vec![format!(
            "증강(augments): {augments} · 첫 잡힘 완충(cushion) {} · 쉼 약속(truce) {}",
            on_off(config.cushion),
            on_off(config.truce)
        )];
        if !config.augments.is_empty() {
            lines.push(
                "             각 편은 자기 1·6·12번째 차례에 후보 셋 중 하나를 골라요 (draft at turns 1, 6, 12)"
                    .to_owned(),
            );
        }
        lines
    }

    fn event_lines(event: &AugmentEvent, view: &LayerView<Self>, style: Style) -> Vec<String> {
        match event {
            AugmentEvent::AugmentOffered {
                side,
                slot,
                candidates,
                ..
            } => {
                let mut lines = vec![format!(
                    "{} {} 고르기(augment draft, {}) — 후보(candidates):",
                    side_tag(view, *side, style),
                    style.bold(slot.name()),
                    slot.wire()
                )];
                for (i, a) in candidates.iter().enumerate() {
                    lines.push(format!("   {}) {}", i + 1, augment_label(*a)));
                    lines.push(augment_gloss_line(*a, 6));
                }
                lines
            }
            AugmentEvent::AugmentChosen { side, seat, id, .. } => {
                let auto = if seat.is_none() {
                    " (고르던 사람이 기권해 첫 후보로 — chooser left)"
                } else {
                    ""
                };
                vec![
                    format!(
                        "{} 증강 선택(chose): {}{auto}",
                        side_tag(view, *side, style),
                        style.highlight(&augment_label(*id))
                    ),
                    augment_gloss_line(*id, 6),
                ]
            }
            AugmentEvent::AugmentFired { side, id, effect } => {
                let effect = match effect {
                    Effect::TruceCalled { barred } => format!(
                        "두 번째 말을 잃어 쉼 약속 — {}은(는) 다음 차례에 잡을 수 없어요 (truce called)",
                        side_tag(view, *barred, style)
                    ),
                    other => effect_text(other),
                };
                vec![format!(
                    "   ✦ {} {} {effect}",
                    side_tag(view, *side, style),
                    style.highlight(&source_label(*id))
                )]
            }
            // An event this narrator does not know yet is left out.
            _ => Vec::new(),
        }
    }

    fn panel_lines(config: &AugmentConfig, view: &LayerView<Self>, style: Style) -> Vec<String> {
        let layer = &view.rules;
        let mut lines = Vec::new();
        let house = config.cushion || config.truce;
        if config.augments.is_empty() && !house {
            return lines;
        }
        for s in &layer.augment_sides {
            let owned: Vec<String> = s
                .augments
                .iter()
                .map(|o| format!("{} {}", o.id.name(), uses_label(o.uses_left)))
                .collect();
            let head = format!(
                "{} 증강(augments, uses left) {}",
                side_tag(view, s.side, style),
                if owned.is_empty() {
                    "-".to_owned()
                } else {
                    owned.join(" · ")
                }
            );
            let mut parts = Vec::new();
            if house || s.cushions_left > 0 {
                parts.push(format!("  완충(cushion) {}", s.cushions_left));
            }
            if config.truce {
                parts.push(
                    if s.truce_available {
                        "  쉼 약속(truce) ○"
                    } else {
                        "  쉼 약속(truce) ✗"
                    }
                    .to_owned(),
                );
            }
            if s.no_capture_now {
                parts.push(style.highlight("  잡기 금지(no capture)"));
            } else if s.no_capture_next_turn {
                parts.push("  다음 차례 잡기 금지(no capture next turn)".to_owned());
            }
            if s.payback_owed {
                parts.push("  되갚기 준비(payback armed)".to_owned());
            }
            // The panel has about 84 columns beside the board: what does not fit goes on
            // a continuation line.
            let mut line = head;
            for part in parts {
                if display_width(&line) + display_width(&part) > PANEL_WIDTH {
                    lines.push(std::mem::replace(&mut line, format!("    ↳{part}")));
                } else {
                    line.push_str(&part);
                }
            }
            lines.push(line);
        }
        if let Some(draft) = &layer.draft {
            let names: Vec<String> = draft
                .candidates
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{}) {}", i + 1, c.name))
                .collect();
            lines.push(format!(
                "{} 고르는 중(drafting): {}",
                draft.slot.name(),
                names.join(" · ")
            ));
        }
        lines
    }

    fn choice_title(view: &LayerView<Self>) -> String {
        let slot = view
            .rules
            .draft
            .as_ref()
            .map_or(Slot::Start.name(), |d| d.slot.name());
        format!("{slot}을 고르세요 (choose an augment)")
    }

    fn choices(view: &LayerView<Self>) -> Vec<Choice<AugmentAction>> {
        view.rules
            .draft
            .iter()
            .flat_map(|d| d.candidates.iter())
            .enumerate()
            .map(|(i, c)| Choice {
                label: augment_label(c.id),
                gloss: augment_gloss(c.id.id()).unwrap_or(c.id.id()).to_owned(),
                action: AugmentAction::ChooseAugment { index: i as u32 },
            })
            .collect()
    }

    fn summary_rows(config: &AugmentConfig) -> Vec<(String, String)> {
        // Off, a house rule is not described at all: its text would read as if it applied.
        let house = |on: bool, what: &str| {
            if on {
                format!("켬(on) — {what}")
            } else {
                "끔(off) — 이 게임에서는 쓰지 않아요 (not used in this game)".to_owned()
            }
        };
        let pack = match config.augments.len() {
            0 => "없음(none) — 고르기 없음(no draft)".to_owned(),
            n => {
                let which = if n == Augment::ALL.len() {
                    format!("{n}개 전부(all {n})")
                } else {
                    let ids: Vec<&str> = config.augments.iter().map(|a| a.id()).collect();
                    format!("{n}개({})", ids.join(", "))
                };
                format!(
                    "{which} — 각 편이 자기 1·6·12번째 차례에 후보 셋 중 하나를 골라요 \
                     (draft at your turns 1, 6, 12)"
                )
            }
        };
        vec![
            ("증강(augment pack)".to_owned(), pack),
            (
                "첫 잡힘 완충(cushion)".to_owned(),
                house(
                    config.cushion,
                    "처음 잡힌 말은 대기 대신 1(도)로 가요 \
                     (your first captured stack goes to node 1, not back to waiting)",
                ),
            ),
            (
                "쉼 약속(truce)".to_owned(),
                house(
                    config.truce,
                    "내 두 번째 말을 잡은 편은 다음 차례에 잡을 수 없어요 \
                     (whoever takes your second piece cannot capture on its next turn; once)",
                ),
            ),
        ]
    }

    fn raw_action(index: u32) -> Option<AugmentAction> {
        Some(AugmentAction::ChooseAugment { index })
    }

    fn raw_help() -> Option<&'static str> {
        Some("  c I           증강 후보를 직접 고르기: 0부터 센 번호 I (raw CHOOSE_AUGMENT index)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_augment_id_has_an_english_gloss() {
        for a in Augment::ALL {
            let gloss = augment_gloss(a.id());
            assert!(
                gloss.is_some_and(|g| !g.is_empty()),
                "{} has no gloss",
                a.id()
            );
            // The gloss stands for the Korean text of the same augment: a gloss that
            // says "once"/"twice" belongs to an augment with that many uses.
            let gloss = gloss.unwrap();
            match a.uses() {
                Some(1) if a != Augment::SoftLanding => {
                    assert!(gloss.starts_with("once:"), "{}: {gloss}", a.id())
                }
                Some(2) => assert!(gloss.starts_with("twice:"), "{}: {gloss}", a.id()),
                _ => assert!(!gloss.starts_with("once") && !gloss.starts_with("twice")),
            }
        }
        // Nothing glossed that is not an augment.
        for (id, _) in AUGMENT_GLOSSES {
            assert!(id.parse::<Augment>().is_ok(), "{id} is no augment");
        }
    }

    #[test]
    fn a_draft_candidate_and_its_gloss_fit_the_screen() {
        for a in Augment::ALL {
            let line = format!("   1) {}", augment_label(a));
            assert!(display_width(&line) <= 120, "{line}");
            let gloss = format!(
                "{}  ← 시간이 다 되면 이것(timeout pick)",
                augment_gloss_line(a, 6)
            );
            assert!(display_width(&gloss) <= 120, "{gloss}");
            let chosen = format!("● 청팀 증강 선택(chose): {}", augment_label(a));
            assert!(display_width(&chosen) <= 120, "{chosen}");
        }
    }
}
