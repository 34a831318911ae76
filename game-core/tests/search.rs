//! The generic chance-aware search on rock-paper-scissors: seat 0 chooses its hand, seat
//! 1's pick is the chance step (`RpsAction::Random`, which `Game::chances` lists with
//! probability 1/3 each). Every test checks exact values, so the search's bookkeeping
//! (limits, budget, ties, node counts) is pinned down, not only its legality.

use game_core::GameExt;
use game_core::rps::{Hand, Rps, RpsAction, RpsOptions, RpsState};
use game_core::search::{Expectimax, Limits, Model, Position};
use game_core::{Bot, Game};

/// Seat 0 against a uniformly random seat 1, in one "turn" for both (the game is
/// simultaneous). The evaluation is the score difference, plus a small bonus for
/// scissors in hand: visible only when the chance step is not expanded.
struct Scissors;

impl Model<Rps> for Scissors {
    type Mover = ();
    type Move = Hand;
    type Key = Vec<u8>;

    fn mover(&self, game: &Rps, state: &RpsState) -> Option<()> {
        (!game.is_over(state)).then_some(())
    }

    fn position(&self, game: &Rps, state: &RpsState) -> Position<RpsAction, Hand> {
        let to_act = game.to_act(state);
        if to_act.contains(&0) {
            Position::Choice {
                seat: 0,
                moves: Hand::ALL.to_vec(),
            }
        } else if to_act.contains(&1) {
            Position::Chance {
                seat: 1,
                action: RpsAction::Random,
            }
        } else {
            Position::Over
        }
    }

    fn action(&self, hand: &Hand) -> RpsAction {
        RpsAction::Pick { hand: *hand }
    }

    fn policy(&self, _game: &Rps, _state: &RpsState, moves: &[Hand]) -> Option<Hand> {
        moves.first().copied()
    }

    fn evaluate(&self, _game: &Rps, state: &RpsState, _me: ()) -> f64 {
        let bonus = if state.picks()[0] == Some(Hand::Scissors) {
            0.5
        } else {
            0.0
        };
        f64::from(state.scores()[0]) - f64::from(state.scores()[1]) + bonus
    }

    fn floor(&self) -> f64 {
        -1.0
    }

    fn key(&self, state: &RpsState) -> Vec<u8> {
        serde_json::to_vec(&(state.picks(), state.scores())).unwrap()
    }
}

fn start() -> RpsState {
    let players = vec!["a".to_string(), "b".to_string()];
    let options = RpsOptions {
        wins_needed: 1,
        ..RpsOptions::default()
    };
    Rps.setup(&options, &players, 3, 0).unwrap()
}

fn limits(own_chances: u8, budget: u32) -> Limits {
    Limits {
        own_chances,
        reply_chances: 0,
        budget,
    }
}

#[test]
fn without_chance_steps_the_evaluation_decides() {
    let state = start();
    let mut bot = Expectimax::new(1, limits(0, 1_000), Scissors);
    let action = bot.choose(&Rps, &state, 0);
    assert_eq!(
        action,
        Some(RpsAction::Pick {
            hand: Hand::Scissors
        })
    );
    // One position per move: the chance step after it is left to the evaluation.
    assert_eq!(
        (
            bot.stats().decisions,
            bot.stats().searched,
            bot.stats().nodes
        ),
        (1, 1, 3)
    );
}

#[test]
fn a_chance_step_is_averaged_over_the_exact_outcomes_and_ties_go_to_the_policy() {
    // Every hand is worth the same against a uniform pick: a win, a loss, and a draw
    // whose replay is worth the scissors bonus. The policy's move (rock) is kept.
    let state = start();
    let before = state.clone();
    let mut bot = Expectimax::new(1, limits(1, 1_000), Scissors);
    let action = bot.choose(&Rps, &state, 0);
    assert_eq!(action, Some(RpsAction::Pick { hand: Hand::Rock }));
    assert_eq!(state, before, "the search works on copies only");
    // Per move: the move, its three outcomes, and the three moves of the replayed draw.
    assert_eq!(bot.stats().nodes, 3 * (1 + 3 + 3));
}

#[test]
fn out_of_budget_positions_are_evaluated_as_they_stand() {
    let state = start();
    let mut bot = Expectimax::new(1, limits(1, 1), Scissors);
    assert_eq!(
        bot.choose(&Rps, &state, 0),
        Some(RpsAction::Pick {
            hand: Hand::Scissors
        })
    );
    assert_eq!(bot.stats().nodes, 3);
}

#[test]
fn the_search_does_not_depend_on_the_stored_rng() {
    let state = start();
    let choices: Vec<_> = [1u64, 2, 3]
        .iter()
        .map(|&seed| {
            let copy = Rps.fork(&state, seed);
            Expectimax::new(5, limits(2, 1_000), Scissors).choose(&Rps, &copy, 0)
        })
        .collect();
    assert!(choices.windows(2).all(|w| w[0] == w[1]), "{choices:?}");
}

#[test]
fn anything_but_an_own_choice_is_the_timeout_action() {
    let mut state = start();
    Rps.apply(&mut state, 0, &RpsAction::Pick { hand: Hand::Paper }, 0)
        .unwrap();
    let mut bot = Expectimax::new(1, limits(1, 1_000), Scissors);
    // Seat 1's pick is a chance step for the model: the bot plays the timeout action.
    assert_eq!(bot.choose(&Rps, &state, 1), Rps.timeout_action(&state, 1));
    assert_eq!((bot.stats().decisions, bot.stats().searched), (1, 0));
}

/// Seat 0 chooses between a sure rock and `RANDOM` (a hand drawn when applied: a move with
/// a random step); its own hand alone is worth something: scissors 2, rock 0.5, paper 0.
struct Gambler;

impl Model<Rps> for Gambler {
    type Mover = ();
    type Move = RpsAction;
    type Key = ();

    fn mover(&self, game: &Rps, state: &RpsState) -> Option<()> {
        (!game.is_over(state)).then_some(())
    }

    fn position(&self, game: &Rps, state: &RpsState) -> Position<RpsAction, RpsAction> {
        if game.to_act(state).contains(&0) {
            let rock = RpsAction::Pick { hand: Hand::Rock };
            Position::Choice {
                seat: 0,
                moves: vec![rock, RpsAction::Random],
            }
        } else {
            Position::Over
        }
    }

    fn action(&self, m: &RpsAction) -> RpsAction {
        *m
    }

    fn policy(&self, _game: &Rps, _state: &RpsState, moves: &[RpsAction]) -> Option<RpsAction> {
        moves.first().copied()
    }

    fn evaluate(&self, _game: &Rps, state: &RpsState, _me: ()) -> f64 {
        match state.picks()[0] {
            Some(Hand::Scissors) => 2.0,
            Some(Hand::Rock) => 0.5,
            _ => 0.0,
        }
    }

    fn floor(&self) -> f64 {
        0.0
    }

    fn key(&self, _state: &RpsState) {}
}

#[test]
fn a_chosen_move_with_a_random_step_is_averaged_over_its_outcomes() {
    // RANDOM is worth (2 + 0.5 + 0) / 3 > 0.5 on average, whatever one draw would give:
    // played once, a third of the seeds would see paper (0) and keep the rock.
    let state = start();
    for seed in 0..30 {
        let mut bot = Expectimax::new(seed, limits(0, 1_000), Gambler);
        assert_eq!(
            bot.choose(&Rps, &state, 0),
            Some(RpsAction::Random),
            "seed {seed}"
        );
        // The rock, and RANDOM's three outcomes, each applied on a copy.
        assert_eq!(bot.stats().nodes, 1 + 3, "seed {seed}");
    }
}
