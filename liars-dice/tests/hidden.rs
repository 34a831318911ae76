//! What a seat does not see stays unseen: the resample keeps the seat's own cup and view
//! and redraws every other cup, from what the seat knows alone; the bots choose alike in
//! worlds the seat cannot tell apart; the fair searches play legal moves to the end.

use game_core::search::{Ismcts, Pimc};
use game_core::{Bot, Fair, Game, GameExt, GameRng, Viewer};
use liars_dice::{LiarsDice, LiarsDiceAction, LiarsDiceOptions, LiarsDiceState, PolicyBot};

const BIDS: [LiarsDiceAction; 2] = [
    LiarsDiceAction::Bid {
        quantity: 2,
        face: 3,
    },
    LiarsDiceAction::Bid {
        quantity: 3,
        face: 3,
    },
];

/// A game of three with five dice each, two bids in, from `seed`.
fn midround(seed: u64) -> LiarsDiceState {
    let players = game_core::testing::players(3);
    let mut state = LiarsDice
        .setup(&LiarsDiceOptions::default(), &players, seed, 0)
        .unwrap();
    for (seat, bid) in BIDS.iter().enumerate() {
        LiarsDice.apply(&mut state, seat, bid, 1_000).unwrap();
    }
    state
}

#[test]
fn the_resample_keeps_the_seat_s_cup_and_view_and_redraws_the_others() {
    let state = midround(1);
    let seen = |s: &LiarsDiceState| LiarsDice.view(s, Viewer::Player("p2"));
    let mut others_differ = 0;
    for seed in 0..20 {
        let world = LiarsDice.resample_from_infostate(&state, 2, &mut GameRng::from_seed(seed));
        LiarsDice.check_state(&world).unwrap();
        assert_eq!(seen(&world), seen(&state), "seed {seed}: the view is kept");
        assert_eq!(world.board.cups[2], state.board.cups[2]);
        assert_eq!(world.board.bids, state.board.bids);
        let counts = |s: &LiarsDiceState| s.board.cups.iter().map(Vec::len).collect::<Vec<_>>();
        assert_eq!(counts(&world), counts(&state));
        others_differ += usize::from(world.board.cups[..2] != state.board.cups[..2]);
    }
    assert!(
        others_differ >= 19,
        "the others' dice are redrawn: {others_differ} of 20"
    );
}

#[test]
fn states_a_seat_cannot_tell_apart_give_the_same_world() {
    // Two games from different seeds (other dice, another RNG), seat 2's cup made the same:
    // seat 2 cannot tell them apart.
    let a = midround(1);
    let mut b = midround(2);
    b.board.cups[2] = a.board.cups[2].clone();
    LiarsDice.check_state(&b).unwrap();
    assert_ne!(a.board.cups, b.board.cups);
    let view = |s: &LiarsDiceState| LiarsDice.view(s, Viewer::Player("p2"));
    assert_eq!(view(&a), view(&b));
    for seed in 0..5 {
        let sample = |s: &LiarsDiceState| {
            LiarsDice
                .resample_from_infostate(s, 2, &mut GameRng::from_seed(seed))
                .board
        };
        assert_eq!(sample(&a), sample(&b), "seed {seed}");
        // A bot's world has a fresh RNG too: the two worlds are the same state.
        let world = |s: &LiarsDiceState| LiarsDice.determinize(s, 2, &mut GameRng::from_seed(seed));
        assert_eq!(world(&a), world(&b), "seed {seed}");
    }
    // So every fair bot chooses alike in both.
    let choose = |s: &LiarsDiceState, bot: &mut dyn Bot<LiarsDice>| bot.choose(&LiarsDice, s, 2);
    let makers: [fn() -> Boxed; 3] = [
        || Box::new(Fair::new(Ismcts::new(3, 200), 5)),
        || Box::new(Fair::new(Pimc::new(3, 4, 2), 5)),
        || Box::new(PolicyBot::default()),
    ];
    for make in makers {
        assert_eq!(choose(&a, &mut *make()), choose(&b, &mut *make()));
    }
}

/// A bot of any kind.
type Boxed = Box<dyn Bot<LiarsDice>>;

/// Plays a game of `n` players with `dice` dice to the end between `bots` (one per seat),
/// every move checked; the number of moves.
fn play_to_the_end(n: usize, dice: u32, bots: &mut [Box<dyn Bot<LiarsDice>>]) -> usize {
    let options = LiarsDiceOptions {
        dice,
        ..Default::default()
    };
    let mut state = LiarsDice
        .setup(&options, &game_core::testing::players(n), 4, 0)
        .unwrap();
    let mut moves = 0;
    while let Some(seat) = LiarsDice.first_to_act(&state) {
        let action = bots[seat].choose(&LiarsDice, &state, seat).unwrap();
        assert!(
            LiarsDice.legal_actions(&state, seat).contains(&action),
            "{action:?}"
        );
        LiarsDice.apply(&mut state, seat, &action, 0).unwrap();
        moves += 1;
    }
    let outcome = LiarsDice.outcome(&state).unwrap();
    assert_eq!(outcome.out.len(), n - 1);
    moves
}

#[test]
fn the_fair_searches_play_legal_moves_to_the_end() {
    let mut bots: Vec<Box<dyn Bot<LiarsDice>>> = vec![
        Box::new(Fair::new(Ismcts::new(1, 100), 1)),
        Box::new(Fair::new(Pimc::new(2, 4, 2), 2)),
        Box::new(Pimc::new(3, 4, 2)),
    ];
    assert!(play_to_the_end(3, 2, &mut bots) >= 5);
    let mut bots: Vec<Box<dyn Bot<LiarsDice>>> = vec![
        Box::new(Fair::new(Ismcts::new(4, 100), 4)),
        Box::new(PolicyBot::default()),
    ];
    assert!(play_to_the_end(2, 3, &mut bots) >= 5);
}
