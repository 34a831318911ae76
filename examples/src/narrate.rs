//! Words for what happens: throws with their sticks, moves with their paths, captures,
//! stacking, finishing, the turn passing, refused input — in Korean, each with its English
//! gloss.
//!
//! One word per idea, everywhere (board, log, prompts, result): a piece not yet on the
//! board is 대기(waiting), a piece that has gone round and left is 남(finished). The
//! engine's own word for leaving the board, 남, is the one its result summary uses
//! ("4개 모두 남").

use game_core::GameError;
use yut::graph::{Node, name};
use yut::{LegalMove, OffBoard, Origin, Sticks, Throw, To, YutEvent, YutView};

use crate::board::side_tag;
use crate::layer::{Layer, LayerView};
use crate::style::Style;

/// A result with its English name and steps: `개(gae +2)`, `빽도(backdo -1)`.
///
/// ```
/// assert_eq!(examples::narrate::throw_label(yut::Throw::Gae), "개(gae +2)");
/// assert_eq!(examples::narrate::throw_label(yut::Throw::Backdo), "빽도(backdo -1)");
/// ```
pub fn throw_label(t: Throw) -> String {
    format!("{}({} {:+})", t.name(), t.wire(), t.steps())
}

/// The four sticks: `배` flat side up, `등` round side up, `*` on the marked (빽도) stick.
///
/// ```
/// assert_eq!(examples::narrate::sticks_label([true, false, true, false]), "[배* 등 배 등]");
/// ```
pub fn sticks_label(sticks: Sticks) -> String {
    let words: Vec<String> = sticks
        .iter()
        .enumerate()
        .map(|(i, &flat)| {
            let face = if flat { "배" } else { "등" };
            if i == 0 {
                format!("{face}*")
            } else {
                face.to_owned()
            }
        })
        .collect();
    format!("[{}]", words.join(" "))
}

/// A node with its traditional name: `22(방)`.
///
/// ```
/// assert_eq!(examples::narrate::node_label(5), "5(모)");
/// ```
pub fn node_label(node: Node) -> String {
    format!("{node}({})", name(node))
}

/// The word for a waiting piece (not yet on the board, or captured and sent back).
pub const WAITING: &str = "대기(waiting)";

/// The word for a finished piece (gone round and off the board).
pub const FINISHED: &str = "남(finished)";

/// Where a move starts: a node, or `대기(waiting)`.
///
/// ```
/// assert_eq!(examples::narrate::origin_label(yut::Origin::HOME), "대기(waiting)");
/// ```
pub fn origin_label(from: Origin) -> String {
    match from.node() {
        Some(n) => node_label(n),
        None => WAITING.to_owned(),
    }
}

/// Where a move ends: a node, `남(finished)` or `대기(waiting)`.
pub fn to_label(to: To) -> String {
    match to {
        To::Node(n) => node_label(n),
        To::Off(OffBoard::Goal) => FINISHED.to_owned(),
        To::Off(OffBoard::Home) => WAITING.to_owned(),
    }
}

/// A move's path: `대기→1→2`, `5→20→21`, `27→28→0→남`.
///
/// ```
/// use yut::{NodeList, Origin, To};
/// let mut path = NodeList::new();
/// path.push(1);
/// path.push(2);
/// assert_eq!(examples::narrate::path_label(Origin::HOME, &path, To::Node(2)), "대기→1→2");
/// ```
pub fn path_label(from: Origin, path: &yut::NodeList, to: To) -> String {
    let mut parts: Vec<String> = Vec::new();
    if from.node().is_none() {
        parts.push("대기".to_owned());
    }
    parts.extend(path.as_slice().iter().map(|n| n.to_string()));
    match to {
        To::Off(OffBoard::Goal) => parts.push("남".to_owned()),
        To::Off(OffBoard::Home) => parts.push("대기".to_owned()),
        To::Node(_) => {}
    }
    parts.join("→")
}

/// One legal move for the numbered list a person chooses from.
pub fn legal_move_label(m: &LegalMove, style: Style) -> String {
    let mut s = format!(
        "{} {} → {}   [{}]",
        crate::style::pad(&throw_label(m.result), 15),
        origin_label(m.from),
        to_label(m.to),
        path_label(m.from, &m.path.to_list(), m.to)
    );
    if m.captures > 0 {
        s.push_str(&style.highlight(&format!("  잡기!(capture {})", m.captures)));
    }
    if m.stacks {
        s.push_str(&style.highlight("  업기(stack)"));
    }
    if m.finishes {
        s.push_str(&style.highlight("  남!(finishes)"));
    }
    s
}

/// The lines that tell `events` (one action's worth), in order, the rule layer's own
/// events in its words ([`Layer::event_lines`]). `view` is the view after the action (for
/// names).
pub fn describe<R: Layer>(
    events: &[YutEvent<R::Event>],
    view: &LayerView<R>,
    style: Style,
) -> Vec<String> {
    let mut lines = Vec::new();
    for event in events {
        match event {
            YutEvent::Thrown {
                side,
                sticks,
                result,
            } => {
                let again = if result.throws_again() {
                    style.highlight("  한 번 더!(throw again)")
                } else {
                    String::new()
                };
                lines.push(format!(
                    "{} 윷 던지기(throw) {} → {}{again}",
                    side_tag(view, *side, style),
                    sticks_label(*sticks),
                    style.bold(&throw_label(*result)),
                ));
            }
            YutEvent::PresenceChanged {
                player,
                connected,
                away,
            } => lines.push(format!(
                "   {player}: {}",
                match (connected, away) {
                    (_, true) => "자리 비움(away)",
                    (true, false) => "돌아왔어요(back)",
                    (false, false) => "연결 끊김(disconnected)",
                }
            )),
            YutEvent::Nak { side } => lines.push(format!(
                "{} 윷 던지기(throw) → {} 윷가락이 판 밖으로 떨어졌어요 (no result)",
                side_tag(view, *side, style),
                style.error("낙!(nak)")
            )),
            YutEvent::Moved {
                side,
                result,
                from,
                to,
                path,
                count,
            } => {
                let what = if *count > 1 {
                    format!("말 {count}개 무더기(stack of {count})")
                } else {
                    "말(piece)".to_owned()
                };
                lines.push(format!(
                    "{} {}: {what} {} → {}   [{}]",
                    side_tag(view, *side, style),
                    throw_label(*result),
                    origin_label(*from),
                    to_label(*to),
                    path_label(*from, &path.to_list(), *to)
                ));
            }
            YutEvent::Carried {
                from,
                to,
                path,
                count,
                ..
            } => lines.push(format!(
                "   말 {count}개가 {} → {}로 더 갔어요 (carried on)   [{}]",
                node_label(*from),
                to_label(*to),
                path_label(Origin::Node(*from), &path.to_list(), *to)
            )),
            YutEvent::Stacked { node, count, .. } => lines.push(format!(
                "   {} {}에서 {count}개가 한 무더기 (stacked, {count} pieces)",
                style.highlight("업기!"),
                node_label(*node)
            )),
            YutEvent::Captured {
                victim_side,
                node,
                count,
                ..
            } => lines.push(format!(
                "   {} {}의 말 {count}개를 {}에서 잡아 대기로 보냈어요 (captured {count}: back to waiting)",
                style.highlight("잡기!"),
                side_tag(view, *victim_side, style),
                node_label(*node)
            )),
            YutEvent::FinishedPieces { count, .. } => lines.push(format!(
                "   {} 말 {count}개가 났어요 ({count} finished)",
                style.highlight("남!")
            )),
            YutEvent::Discarded { side, throws } => {
                let list: Vec<String> = throws.iter().map(throw_label).collect();
                lines.push(format!(
                    "   {} 버림(discarded): {} — 쓸 곳이 없어요 (no legal move)",
                    side_tag(view, *side, style),
                    list.join(" · ")
                ));
            }
            YutEvent::TurnChanged { seat, side } => {
                let player = view
                    .players
                    .get(usize::from(*seat))
                    .cloned()
                    .unwrap_or_default();
                let who = if view.options.mode == yut::Mode::Team {
                    format!("{} {player}", side_tag(view, *side, style))
                } else {
                    side_tag(view, *side, style)
                };
                lines.push(style.dim("──────────"));
                lines.push(format!("차례(turn) → {who}"));
            }
            YutEvent::SideFinished { side, rank } => lines.push(format!(
                "{} 말 {}개 모두 남! {} (all pieces finished: place {rank})",
                side_tag(view, *side, style),
                view.options.pieces,
                style.highlight(&format!("{rank}등"))
            )),
            YutEvent::Conceded {
                seat,
                side,
                side_out,
            } => {
                let player = view
                    .players
                    .get(usize::from(*seat))
                    .cloned()
                    .unwrap_or_default();
                let out = if *side_out {
                    " — 탈락(out of the game)"
                } else {
                    " — 팀은 계속해요(team plays on)"
                };
                let who = if view.options.mode == yut::Mode::Team {
                    format!("{} {player}", side_tag(view, *side, style))
                } else {
                    side_tag(view, *side, style)
                };
                lines.push(format!("{who} 기권(conceded){out}"));
            }
            YutEvent::GameOver { winners } => {
                lines.push(style.bold(&format!("게임 끝! 승리(winners): {}", winners.join(", "))))
            }
            YutEvent::Rule(event) => lines.extend(R::event_lines(event, view, style)),
            // An event this narrator does not know yet is left out.
            _ => {}
        }
    }
    lines
}

/// The final ranking of [`yut::YutResult`], one line per place, then the statistics.
pub fn result_lines<V, E, A>(
    result: &yut::YutResult,
    view: &YutView<V, E, A>,
    style: Style,
) -> Vec<String> {
    let mut lines = vec![style.bold(&format!("결과(result): {}", result.summary))];
    for place in &result.ranking {
        let members = if view.options.mode == yut::Mode::Team {
            format!(" ({})", place.players.join("·"))
        } else {
            String::new()
        };
        lines.push(format!(
            "  {}등  {}{members}  {FINISHED} {}/{}  갈 거리(steps to go) {}",
            place.rank,
            side_tag(view, place.side, style),
            place.finished_pieces,
            view.options.pieces,
            place.remaining_distance
        ));
    }
    let t = &result.stats.throws;
    lines.push(format!(
        "  던진 결과(throws): 도 {} · 개 {} · 걸 {} · 윷 {} · 모 {} · 빽도 {} · 낙 {}",
        t.r#do, t.gae, t.geol, t.yut, t.mo, t.backdo, t.nak
    ));
    let captures: Vec<String> = result
        .stats
        .captures
        .iter()
        .map(|(side, n)| format!("{} {n}", side_tag(view, *side, style)))
        .collect();
    lines.push(format!("  잡은 말(captures): {}", captures.join(" · ")));
    lines
}

/// The English gloss of each error code the engine and the augment layer can answer a
/// person's action with, or refuse options with; the Korean message is the engine's own
/// ([`GameError::message`]), so only the gloss lives here, keyed by the stable code.
const ERROR_GLOSSES: &[(&str, &str)] = &[
    ("NOT_YOUR_TURN", "it is another player's turn"),
    ("NOT_THROW_PHASE", "it is not time to throw"),
    ("NOT_MOVE_PHASE", "it is not time to move a piece"),
    ("WRONG_PHASE", "that cannot be done now"),
    ("UNKNOWN_THROW_INDEX", "there is no such thrown result"),
    ("CANNOT_MOVE", "that piece cannot move"),
    (
        "BACKDO_FROM_HOME",
        "a backdo cannot bring a waiting piece onto the board",
    ),
    ("MOVE_FORBIDDEN", "the rules in force forbid that move now"),
    ("ALREADY_CONCEDED", "you have already conceded"),
    ("INVALID_OPTION", "an option is out of range"),
    (
        "BAD_PLAYER_COUNT",
        "the game is not played by this many players",
    ),
    ("NO_DRAFT", "there is no augment to choose now"),
    ("UNKNOWN_CANDIDATE", "there is no such augment candidate"),
    ("STALE_TURN_SEQ", "the screen was out of date; try again"),
    ("NOT_SEATED", "spectators cannot act"),
    ("GAME_OVER", "the game is over"),
    ("IMPOSSIBLE_OUTCOME", "that outcome cannot happen now"),
    ("BAD_PLAYERS", "the list of players is not valid"),
    ("CORRUPT_STATE", "the stored game state is not valid"),
    ("ILLEGAL_ACTION", "that cannot be done now"),
];

/// The English gloss of an error code, if it has one.
///
/// ```
/// assert_eq!(examples::narrate::error_gloss("CANNOT_MOVE"), Some("that piece cannot move"));
/// assert_eq!(examples::narrate::error_gloss("NO_SUCH_CODE"), None);
/// ```
pub fn error_gloss(code: &str) -> Option<&'static str> {
    ERROR_GLOSSES
        .iter()
        .find(|(c, _)| *c == code)
        .map(|&(_, gloss)| gloss)
}

/// An engine error's Korean message with its English gloss; a refused option also names
/// the option.
///
/// ```
/// let e = yut::YutError::InvalidOption { option: "pieces", detail: "말은 2~5개예요.".into() };
/// assert_eq!(
///     examples::narrate::glossed_message(&e),
///     "말은 2~5개예요. — an option is out of range: `pieces`"
/// );
/// ```
pub fn glossed_message(e: &impl GameError) -> String {
    let option = e
        .reason()
        .and_then(|r| r.get("option").and_then(|o| o.as_str().map(str::to_owned)));
    match (error_gloss(e.code()), option) {
        (Some(gloss), Some(option)) => format!("{} — {gloss}: `{option}`", e.message()),
        (Some(gloss), None) => format!("{} — {gloss}", e.message()),
        (None, _) => e.message(),
    }
}

/// An engine error for a person: [`glossed_message`] and the code.
///
/// ```
/// let text = examples::narrate::error_text(&yut::YutError::NotMovePhase);
/// assert_eq!(
///     text,
///     "지금은 말을 움직일 차례가 아니에요. — it is not time to move a piece (NOT_MOVE_PHASE)"
/// );
/// ```
pub fn error_text(e: &impl GameError) -> String {
    format!("{} ({})", glossed_message(e), e.code())
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Rejection;
    use yut::YutError;

    /// One error of each code: every code the engine lists ([`YutError::CODES`], the
    /// framework's [`Rejection::CODES`], the augment layer's) is here, so a code added to
    /// the engine fails the test below until it is listed and glossed.
    fn every_error() -> Vec<YutError> {
        let all = vec![
            YutError::NotYourTurn,
            YutError::NotThrowPhase,
            YutError::NotMovePhase,
            YutError::WrongPhase {
                phase: yut::Phase::Throw,
            },
            YutError::UnknownThrowIndex {
                index: 3,
                pending: 1,
            },
            YutError::CannotMove { from: Some(4) },
            YutError::BackdoFromHome,
            YutError::MoveForbidden,
            YutError::AlreadyConceded,
            YutError::InvalidOption {
                option: "pieces",
                detail: "말은 2~5개예요.".to_owned(),
            },
            yut_augments::no_draft(),
            yut_augments::unknown_candidate(7, 3),
            YutError::Core(Rejection::StaleTurnSeq {
                got: 1,
                expected: 2,
            }),
            YutError::Core(Rejection::NotSeated {
                player: "x".to_owned(),
            }),
            YutError::Core(Rejection::GameOver),
            YutError::Core(Rejection::ImpossibleOutcome),
            YutError::Core(Rejection::BadPlayers {
                detail: String::new(),
            }),
            YutError::Core(Rejection::BadPlayerCount {
                players: 5,
                allowed: vec![2, 3, 4],
            }),
            YutError::Core(Rejection::CorruptState {
                detail: String::new(),
            }),
            YutError::Core(Rejection::NotYourTurn),
            YutError::Core(Rejection::IllegalAction),
            YutError::Core(Rejection::InvalidOption {
                option: "target",
                got: 0,
                min: 1,
                max: 2,
            }),
        ];
        let mut codes: Vec<&str> = all.iter().map(GameError::code).collect();
        let mut listed: Vec<&str> = YutError::CODES
            .iter()
            .chain(&Rejection::CODES)
            .chain(&yut_augments::AugmentError::CODES)
            .copied()
            .collect();
        codes.sort_unstable();
        listed.sort_unstable();
        assert_eq!(codes, listed, "one error of each code the engine lists");
        all
    }

    #[test]
    fn every_engine_error_has_an_english_gloss() {
        let errors = every_error();
        for e in &errors {
            let gloss = error_gloss(e.code());
            assert!(gloss.is_some(), "{} has no gloss", e.code());
            let text = error_text(e);
            assert!(text.starts_with(&e.message()), "{text}");
            assert!(text.contains(gloss.unwrap()) && text.ends_with(&format!("({})", e.code())));
        }
        // No gloss for a code nothing produces.
        let mut codes: Vec<&str> = errors.iter().map(GameError::code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ERROR_GLOSSES.len());
        let option = error_text(&errors[9]);
        assert!(option.contains("`pieces`"), "{option}");
    }
}
