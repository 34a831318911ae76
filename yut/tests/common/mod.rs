//! Small helpers shared by the integration tests (each test binary uses some of them).
#![allow(dead_code)]

use game_core::GameError;
use yut::graph::Node;
use yut::{
    BackdoFromDo, FinishRule, Mode, Origin, SideId, Throw, To, YutError, YutEvent, YutOptions,
};

/// The events of the standard rules.
pub type Event = YutEvent;

/// `to` of every `moved` event, with its path.
pub fn moves(events: &[Event]) -> Vec<(Origin, To, Vec<Node>, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            YutEvent::Moved {
                from,
                to,
                path,
                count,
                ..
            } => Some((*from, *to, path.to_list().as_slice().to_vec(), *count)),
            _ => None,
        })
        .collect()
}

/// `(capturer, victim, node, count)` of every `captured` event.
pub fn captures(events: &[Event]) -> Vec<(SideId, SideId, Node, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            YutEvent::Captured {
                side,
                victim_side,
                node,
                count,
            } => Some((*side, *victim_side, *node, *count)),
            _ => None,
        })
        .collect()
}

/// The seat of the last `turnChanged` event, if the turn passed.
pub fn turn_changed(events: &[Event]) -> Option<u8> {
    events.iter().rev().find_map(|e| match e {
        YutEvent::TurnChanged { seat, .. } => Some(*seat),
        _ => None,
    })
}

/// The throws of a `discarded` event, if any.
pub fn discarded(events: &[Event]) -> Option<Vec<Throw>> {
    events.iter().find_map(|e| match e {
        YutEvent::Discarded { throws, .. } => Some(throws.to_vec()),
        _ => None,
    })
}

/// The count of a `finishedPieces` event, if any.
pub fn finished(events: &[Event]) -> Option<u8> {
    events.iter().find_map(|e| match e {
        YutEvent::FinishedPieces { count, .. } => Some(*count),
        _ => None,
    })
}

/// Whether a `gameOver` event is among `events`.
pub fn game_over(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, YutEvent::GameOver { .. }))
}

/// Asserts an error's code and Korean message.
#[track_caller]
pub fn assert_error(err: &YutError, code: &str, message: &str) {
    assert_eq!(err.code(), code, "{err:?}");
    assert_eq!(err.message(), message, "{err:?}");
    assert_eq!(err.body().code, code);
    assert_eq!(err.body().message, message);
}

/// The default options with `f` applied.
pub fn opts(f: impl FnOnce(&mut YutOptions)) -> YutOptions {
    let mut o = YutOptions::default();
    f(&mut o);
    o
}

/// A node origin.
pub const fn at(node: Node) -> Origin {
    Origin::Node(node)
}

/// Home as an origin.
pub const HOME: Origin = Origin::HOME;

/// Option sets and player counts that take every path of the rules: 2 to 4 sides, teams
/// of 2 and 3, 2 and 5 pieces, and the variants of the finish, backdo, nak and time limit.
pub fn option_sets() -> Vec<(YutOptions, usize)> {
    let base = YutOptions::default();
    let team = YutOptions {
        mode: Mode::Team,
        ..base.clone()
    };
    vec![
        (base.clone(), 2),
        (base.clone(), 3),
        (base.clone(), 4),
        (team.clone(), 4),
        (team, 6),
        (
            YutOptions {
                finish_rule: FinishRule::Reach,
                backdo_from_do: BackdoFromDo::Home,
                nak_percent: 10,
                turn_seconds: None,
                pieces: 2,
                ..base.clone()
            },
            2,
        ),
        (
            YutOptions {
                backdo_from_do: BackdoFromDo::Finish,
                backdo_capture_bonus: true,
                pieces: 5,
                ..base
            },
            3,
        ),
    ]
}
