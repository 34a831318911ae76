//! The modder's rule "a capture also carries the capturer one node on", written on the
//! public seam (`Cx::carry` in `after_move`) and composed with the augment pack: the engine
//! walks the stack on and lands it as it lands a move (stacking, capturing, finishing, the
//! capture bonus, the end of the game), announces a `carried` event, and leaves a state
//! that passes every check.

use game_core::Game;
use yut::rules::{Both, Cx, Either, MoveDone, Rules, TurnStart, WithRules};
use yut::testing::Script;
use yut::{
    Board, NoAction, NoConfig, NoView, Origin, Phase, Throw, ThrowChance as C, To, Yut, YutEvent,
    YutOptions,
};
use yut_augments::{Augment, AugmentConfig, AugmentEvent, Augments};

/// A capture also carries the capturer one node on (and a carry that captures, on again).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CarryOn;

impl Rules for CarryOn {
    type Config = NoConfig;
    type Options = YutOptions;
    type State = ();
    type Action = NoAction;
    type Event = yut::NoEvent;
    type View = NoView;

    fn id(&self) -> &'static str {
        "carry-on"
    }

    fn after_move(&self, cx: &mut Cx<'_, Self>, done: &MoveDone) {
        if done.captured > 0 {
            cx.carry(1);
        }
    }

    fn view(&self, _board: &Board, _state: &()) -> NoView {
        NoView {}
    }
}

type Mine = (Augments, CarryOn);
type Event = YutEvent<Either<AugmentEvent, yut::NoEvent>>;

/// The composed game with `augments` owned by side 0, no draft open, every side past its
/// drafting turns, all pieces home and seat 0 to throw.
fn script(augments: &[Augment]) -> Script<Mine> {
    let options = WithRules {
        base: YutOptions::default(),
        rules: Both {
            first: AugmentConfig {
                augments: augments.to_vec(),
                cushion: false,
                truce: false,
            },
            second: NoConfig {},
        },
    };
    let mut s = Script::setup(Yut::new((Augments, CarryOn)), &options, 2, 0).expect("setup");
    s.state.rules_mut().0.draft = None;
    s.state.rules_mut().0.barred = None;
    for side in 0..s.state.board().sides().len() {
        s.set_turns(side as yut::SideId, 20);
    }
    for &a in augments {
        s.state.rules_mut().0.sides[0].grant(a);
    }
    s.clear().set_turn(0).set_throw(1, &[]);
    s
}

/// The engine's movement events of `events`, in order, as short strings.
fn moves(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            YutEvent::Moved { from, to, .. } => Some(format!("moved {from:?} {to:?}")),
            YutEvent::Carried { from, to, path, .. } => Some(format!(
                "carried {from} {to:?} {:?}",
                path.to_list().as_slice()
            )),
            YutEvent::Captured { node, count, .. } => Some(format!("captured {node} x{count}")),
            YutEvent::Stacked { node, count, .. } => Some(format!("stacked {node} x{count}")),
            YutEvent::FinishedPieces { count, .. } => Some(format!("finished x{count}")),
            _ => None,
        })
        .collect()
}

/// The state as stored comes back through `Game::restore`, checked.
fn assert_stored_state_restores(s: &Script<Mine>) {
    s.game.check_state(&s.state).unwrap();
    let json = serde_json::to_string(&s.state).unwrap();
    let restored = s.game.restore(&json).unwrap();
    assert_eq!(restored, s.state);
}

#[test]
fn a_capture_carries_the_capturer_one_node_on() {
    let mut s = script(&[]);
    s.place(0, 2, 1, &[]).place(1, 4, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(2));
    assert_eq!(
        moves(&ev),
        [
            "moved Node(2) Node(4)",
            "captured 4 x1",
            "carried 4 Node(5) [4, 5]"
        ]
    );
    assert_eq!((s.stack(0, 4), s.stack(0, 5), s.home(1)), (0, 1, 4));
    // The carried stack's trail goes on from its move's.
    assert_eq!(s.trail(0, 5), [1, 2, 3, 4, 5]);
    // The capture's bonus throw, as after any capture.
    assert_eq!((s.phase(), s.owed()), (Phase::Throw, 1));
    assert_stored_state_restores(&s);
}

#[test]
fn a_carry_that_captures_carries_on() {
    let mut s = script(&[]);
    s.place(0, 2, 1, &[])
        .place(1, 4, 1, &[])
        .place(1, 5, 2, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(2));
    assert_eq!(
        moves(&ev),
        [
            "moved Node(2) Node(4)",
            "captured 4 x1",
            "carried 4 Node(5) [4, 5]",
            "captured 5 x2",
            // From a corner, as a move from there: onto the shortcut.
            "carried 5 Node(20) [5, 20]",
        ]
    );
    assert_eq!((s.stack(0, 20), s.home(1)), (1, 4));
    assert_eq!(s.state.board().sides()[0].captures, 3);
    assert_eq!(s.state.board().sides()[1].lost, 3);
    // A bonus throw for each capture, the carry's too.
    assert_eq!(s.owed(), 2);
    assert_stored_state_restores(&s);
}

#[test]
fn a_carry_onto_the_sides_own_stack_stacks() {
    let mut s = script(&[]);
    s.place(0, 2, 1, &[])
        .place(0, 5, 2, &[])
        .place(1, 4, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(2));
    assert_eq!(
        moves(&ev),
        [
            "moved Node(2) Node(4)",
            "captured 4 x1",
            "carried 4 Node(5) [4, 5]",
            "stacked 5 x3",
        ]
    );
    assert_eq!(s.stack(0, 5), 3);
    // The stack takes the trail of the pieces that came in, as after a move.
    assert_eq!(s.trail(0, 5), [1, 2, 3, 4, 5]);
    assert_stored_state_restores(&s);
}

#[test]
fn a_carry_past_the_last_node_finishes_the_side_and_the_game() {
    let mut s = script(&[]);
    let ring: Vec<u8> = (1..=19).collect();
    let mut round = ring.clone();
    round.push(0);
    // Side 0's last piece on 19; side 1 on 참먹이 (0).
    s.set_done(0, 3)
        .place(0, 19, 1, &ring)
        .place(1, 0, 1, &round);
    s.throw(C::Do);
    let ev = s.play(0, Origin::Node(19));
    assert_eq!(
        moves(&ev),
        [
            "moved Node(19) Node(0)",
            "captured 0 x1",
            "carried 0 Off(Goal) [0]",
            "finished x1",
        ]
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, YutEvent::SideFinished { side: 0, rank: 1 }))
    );
    assert_eq!(s.phase(), Phase::Finished);
    assert_eq!(s.done(0), 4);
    assert_eq!(s.game.outcome(&s.state).unwrap().winners, [s.player(0)]);
    assert_stored_state_restores(&s);
}

/// The carry is the rule's, not the player's move: an augment that a move onto a corner
/// sets off stays unspent when a carry lands there.
#[test]
fn a_carry_sets_off_no_augment_of_the_mover() {
    let mut s = script(&[Augment::CornerClap]);
    s.place(0, 2, 1, &[]).place(1, 4, 1, &[]);
    s.throw(C::Gae);
    let ev = s.play(0, Origin::Node(2));
    assert!(ev.iter().any(|e| matches!(
        e,
        YutEvent::Carried {
            to: To::Node(5),
            ..
        }
    )));
    assert!(
        !ev.iter()
            .any(|e| matches!(e, YutEvent::Rule(Either::Left(_))))
    );
    assert!(s.state.rules().0.sides[0].can_use(Augment::CornerClap));
    // Only the capture's bonus throw is owed.
    assert_eq!(s.owed(), 1);
}

/// Hooks other than `after_move` cannot carry, nor can `after_move` carry a stack that
/// left the board or ask for no steps: each asks, and counts the refusals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Eager;

impl Rules for Eager {
    type Config = NoConfig;
    type Options = YutOptions;
    type State = [u32; 3];
    type Action = NoAction;
    type Event = yut::NoEvent;
    type View = NoView;

    fn id(&self) -> &'static str {
        "eager"
    }

    fn turn_start(&self, cx: &mut Cx<'_, Self>) -> TurnStart {
        cx.state[0] += u32::from(!cx.carry(1));
        TurnStart::Throw
    }

    fn after_result(&self, cx: &mut Cx<'_, Self>, _result: Throw) {
        cx.state[0] += u32::from(!cx.carry(1));
    }

    fn after_move(&self, cx: &mut Cx<'_, Self>, done: &MoveDone) {
        cx.state[1] += u32::from(!cx.carry(0));
        if done.to.node().is_none() {
            cx.state[2] += u32::from(!cx.carry(1));
        }
    }

    fn view(&self, _board: &Board, _state: &[u32; 3]) -> NoView {
        NoView {}
    }
}

#[test]
fn only_after_move_carries_and_only_a_stack_on_the_board() {
    let game = Yut::new(Eager);
    let mut s = Script::setup(game, &YutOptions::default(), 2, 0).unwrap();
    s.clear().set_turn(0).set_throw(1, &[]).place(0, 19, 1, &[]);
    let before = s.state.rules()[0];
    s.throw(C::Gae);
    assert!(
        s.state.rules()[0] > before,
        "after_result asked and was refused"
    );
    let ev = s.play(0, Origin::Node(19));
    assert!(!ev.iter().any(|e| matches!(e, YutEvent::Carried { .. })));
    assert_eq!(s.state.rules()[1], 1, "no steps asked, none carried");
    assert_eq!(
        s.state.rules()[2],
        1,
        "the stack finished: nothing to carry"
    );
    assert!(
        s.state.rules()[0] > before + 1,
        "the next turn's start was refused too"
    );
}
