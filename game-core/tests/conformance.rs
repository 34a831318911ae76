//! Rock-paper-scissors keeps every promise of the framework (`testing::conformance`), and
//! the check finds a game that breaks one.

use game_core::rps::{Hand, Rps, RpsAction, RpsError, RpsEvent, RpsOptions, RpsOutcome};
use game_core::rps::{RevealedRound, RpsState, RpsView};
use game_core::testing::conformance;
use game_core::{Game, GameRng, Millis, PlayerId, Viewer};

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
    /// The view shows the other seat's hidden pick, as if the round were revealed.
    LeakyView,
    /// A pick's event shows the hand picked.
    LeakyEvent,
    /// The resample draws the other seat's pick among the hands it is not: every world
    /// tells the seat what the pick is not.
    PeekingResample,
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
        if let (Flaw::LeakyEvent, RpsAction::Pick { hand }) = (self.0, action) {
            events.push(RpsEvent::Revealed {
                hands: [*hand; 2],
                winner: None,
            });
        }
    }

    fn view(&self, state: &RpsState, viewer: Viewer<'_>) -> RpsView {
        let mut view = Rps.view(state, viewer);
        if let (Flaw::LeakyView, [Some(a), Some(b)] | [Some(a @ b), None] | [None, Some(a @ b)]) =
            (self.0, state.picks())
        {
            view.last_round = Some(RevealedRound {
                hands: [a, b],
                winner: None,
            });
        }
        view
    }

    fn timeout_action(&self, state: &RpsState, seat: usize) -> Option<RpsAction> {
        match self.0 {
            Flaw::NoTimeouts => None,
            _ => Rps.timeout_action(state, seat),
        }
    }

    fn to_act(&self, state: &RpsState) -> Vec<usize> {
        Rps.to_act(state)
    }

    fn first_to_act(&self, state: &RpsState) -> Option<usize> {
        match self.0 {
            Flaw::LastFirst => Rps.to_act(state).last().copied(),
            _ => Rps.first_to_act(state),
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

    fn payoff(&self, state: &RpsState, seat: usize) -> Option<f64> {
        Rps.payoff(state, seat)
    }

    fn resample_from_infostate(
        &self,
        state: &RpsState,
        seat: usize,
        rng: &mut GameRng,
    ) -> RpsState {
        let Flaw::PeekingResample = self.0 else {
            return Rps.resample_from_infostate(state, seat, rng);
        };
        // Rebuilt through the stored form, the only way to a state from outside the crate.
        let mut json = serde_json::to_value(state).unwrap();
        let other = 1 - seat;
        if let Some(truth) = state.picks()[other] {
            let others: Vec<Hand> = Hand::ALL.into_iter().filter(|&h| h != truth).collect();
            json["picks"][other] = serde_json::to_value(others[rng.below(2) as usize]).unwrap();
        }
        Rps.restore(&json.to_string()).unwrap()
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

#[test]
#[should_panic(
    expected = "the seat's view differs between the state and a world of its information set (the view shows what the seat cannot know, or the resample changed what it sees): at `/lastRound/hands/"
)]
fn a_view_that_shows_a_hidden_pick_is_found() {
    conformance(&Broken(Flaw::LeakyView), &cases());
}

#[test]
#[should_panic(
    expected = "leave the seat's view the same but show it other events: an event tells the seat what another seat chose: at `/1/hands/0`"
)]
fn an_event_that_shows_a_hidden_pick_is_found() {
    conformance(&Broken(Flaw::LeakyEvent), &cases());
}

#[test]
#[should_panic(expected = "the sample depends on what the seat cannot see: at `/picks/")]
fn a_resample_that_depends_on_the_hidden_pick_is_found() {
    conformance(&Broken(Flaw::PeekingResample), &cases());
}
