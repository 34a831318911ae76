//! What a rule set's hooks answer cannot break the board the engine keeps: a captured
//! stack sent onto a number that is no node of the board goes home, and the state stays
//! one the engine's own checks accept.

use game_core::Game;
use yut::rules::{CaptureTo, Cx, Rules};
use yut::testing::Script;
use yut::{Board, NoAction, NoConfig, NoEvent, NoView, Origin, SideId, Throw, YutOptions};

/// Sends every captured stack to `node`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct CushionAt(u8);

impl Rules for CushionAt {
    type Config = NoConfig;
    type Options = YutOptions;
    type State = ();
    type Action = NoAction;
    type Event = NoEvent;
    type View = NoView;

    fn id(&self) -> &'static str {
        "cushion-at"
    }

    fn forbids_moves(&self, _board: &Board, _state: &()) -> bool {
        false
    }

    fn capture_to(&self, _cx: &mut Cx<'_, Self>, _victim: SideId, _count: u8) -> CaptureTo {
        CaptureTo::Node(self.0)
    }

    fn view(&self, _board: &Board, _state: &()) -> NoView {
        NoView {}
    }
}

/// Side 0 on 3 captures side 1's stack of two on 5 with a 개, the victims sent to `node`.
fn capture(node: u8) -> Script<CushionAt> {
    let game = yut::Yut::new(CushionAt(node));
    let mut s = Script::setup(game, &YutOptions::default(), 2, 1).unwrap();
    s.set_turn(0)
        .place(0, 3, 1, &[])
        .place(1, 5, 2, &[])
        .set_move(&[Throw::Gae]);
    s.play(0, Origin::Node(3));
    s
}

#[test]
fn a_capture_sent_off_the_board_goes_home() {
    for node in [29, 30, 31, 32, 200, 255] {
        let s = capture(node);
        let side = &s.state.board().sides()[1];
        assert_eq!((side.at_home(), side.held()), (4, 0), "{node}: {side:?}");
        s.game
            .check_state(&s.state)
            .unwrap_or_else(|e| panic!("{node}: {e:?}"));
    }
    // Onto a node of the board, the cushion holds.
    let s = capture(12);
    assert_eq!(s.stack(1, 12), 2);
    assert_eq!(s.trail(1, 12), vec![12]);
}
