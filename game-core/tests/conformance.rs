//! Rock-paper-scissors keeps every promise of the framework (`testing::conformance`), and
//! the check finds a game that breaks one.

use game_core::rps::{Hand, Rps, RpsAction, RpsError, RpsEvent, RpsOptions, RpsOutcome};
use game_core::rps::{RpsState, RpsView};
use game_core::testing::conformance;
use game_core::{Game, Millis, PlayerId, Viewer};

fn cases() -> [(RpsOptions, usize); 2] {
    let quick = RpsOptions {
        wins_needed: 1,
        turn_seconds: None,
    };
    [(RpsOptions::default(), 2), (quick, 2)]
}

#[test]
fn rps_keeps_every_promise_of_the_framework() {
    conformance(&Rps, &cases());
}

/// What [`Broken`] gets wrong.
#[derive(Clone, Copy, Debug)]
enum Flaw {
    /// `first_to_act` answers the last seat to act, not the first.
    LastFirst,
    /// Nobody is ever acted for: a game of absent players never ends.
    NoTimeouts,
}

/// Rock-paper-scissors with one flaw.
#[derive(Clone, Copy, Debug)]
struct Broken(Flaw);

impl Game for Broken {
    type Options = RpsOptions;
    type State = RpsState;
    type Action = RpsAction;
    type View = RpsView;
    type Event = RpsEvent;
    type Outcome = RpsOutcome;
    type Chance = Hand;
    type Error = RpsError;

    fn id(&self) -> &'static str {
        Rps.id()
    }

    fn setup(
        &self,
        options: &RpsOptions,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<RpsState, RpsError> {
        Rps.setup(options, players, seed, now)
    }

    fn validate(&self, state: &RpsState, seat: usize, action: &RpsAction) -> Result<(), RpsError> {
        Rps.validate(state, seat, action)
    }

    fn step_into(
        &self,
        state: &mut RpsState,
        seat: usize,
        action: &RpsAction,
        chance: Option<&Hand>,
        now: Millis,
        events: &mut Vec<RpsEvent>,
    ) {
        Rps.step_into(state, seat, action, chance, now, events);
    }

    fn view(&self, state: &RpsState, viewer: Viewer<'_>) -> RpsView {
        Rps.view(state, viewer)
    }

    fn timeout_action(&self, state: &RpsState, seat: usize) -> Option<RpsAction> {
        match self.0 {
            Flaw::NoTimeouts => None,
            Flaw::LastFirst => Rps.timeout_action(state, seat),
        }
    }

    fn to_act(&self, state: &RpsState) -> Vec<usize> {
        Rps.to_act(state)
    }

    fn first_to_act(&self, state: &RpsState) -> Option<usize> {
        match self.0 {
            Flaw::LastFirst => Rps.to_act(state).last().copied(),
            Flaw::NoTimeouts => Rps.first_to_act(state),
        }
    }

    fn legal_actions(&self, state: &RpsState, seat: usize) -> Vec<RpsAction> {
        Rps.legal_actions(state, seat)
    }

    fn outcome(&self, state: &RpsState) -> Option<RpsOutcome> {
        Rps.outcome(state)
    }

    fn check_state(&self, state: &RpsState) -> Result<(), RpsError> {
        Rps.check_state(state)
    }

    fn chances(
        &self,
        state: &RpsState,
        seat: usize,
        action: &RpsAction,
    ) -> Option<Vec<(Hand, f64)>> {
        Rps.chances(state, seat, action)
    }

    fn restore(&self, json: &str) -> Result<RpsState, RpsError> {
        Rps.restore(json)
    }
}

#[test]
#[should_panic(expected = "seed 3, decision 0")]
fn a_first_to_act_that_is_not_the_first_is_found() {
    conformance(&Broken(Flaw::LastFirst), &cases());
}

#[test]
#[should_panic(expected = "waits with nothing timed")]
fn a_game_that_never_acts_for_absent_players_is_found() {
    conformance(&Broken(Flaw::NoTimeouts), &cases());
}
