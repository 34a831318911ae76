//! Playing a game to its end: the one loop that benchmarks, simulations, reports and
//! traces share.
//!
//! A [`Playout`] asks who acts next, asks a chooser (a closure, or a [`Bot`](crate::Bot)
//! wrapped in one) for that seat's action, applies it, and shows the step to a callback,
//! until the game is over, the chooser has nothing to play, the callback stops it, or the
//! decision limit is reached. It applies actions to a bare state through
//! [`GameExt::apply`](crate::GameExt::apply)'s checks with one reused events buffer (nothing allocated per step
//! beyond what the game itself allocates), or to anything else that implements [`Playable`],
//! such as a [`Match`] that records every input. A play-out whose callback does not read the
//! events asks for none ([`Playout::quiet`]), and the game then need not build them.
//!
//! ```
//! use game_core::{Bot, Game, GameExt, RandomBot, rps::{Rps, RpsOptions}};
//! use game_core::playout::{Choice, Ended, Playout};
//! let players = ["a".to_string(), "b".to_string()];
//! let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
//! let mut bot = RandomBot::new(5);
//! let mut events = 0;
//! let summary = Playout::new(0)
//!     .run(
//!         &Rps,
//!         &mut state,
//!         |state: &_, seat| bot.choose(&Rps, state, seat).into(),
//!         |_: &mut _, step| {
//!             events += step.events.len();
//!             std::ops::ControlFlow::<()>::Continue(())
//!         },
//!     )
//!     .unwrap();
//! assert_eq!(summary.ended, Ended::Over);
//! assert!(Rps.is_over(&state) && summary.decisions >= 2 && events > 0);
//! ```

use crate::GameState;
use std::ops::ControlFlow;

use crate::game::{Events, apply_valid, clear_events};
use crate::{Game, GameRng, Match, Millis};

/// Decisions after which a play-out gives up: far more than any real game takes (a few
/// hundred), so reaching it means a game that does not end, which is a bug.
pub const MAX_DECISIONS: usize = 100_000;

/// What a chooser decides for the seat to act.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice<A, B = ()> {
    /// Take this action for the seat.
    Act(A),
    /// Take the seat's legal action of this index, in the order of
    /// [`Game::legal_actions`] ([`Game::legal_action`]): what a random play-out draws,
    /// with [`Game::legal_action_count`], without listing the actions. The loop applies it
    /// without validating it again, since the game picked it from its own legal actions.
    /// Past the end of the list the seat has nothing of that index to play: the loop ends
    /// with [`Ended::Nothing`], nothing applied.
    Legal(usize),
    /// The chooser moved the game on itself (for example it let the clock run out and the
    /// engine acted); it counts as a decision, and the loop asks again who is to act.
    Pass,
    /// The seat has nothing to play.
    Nothing,
    /// Stop the play-out with this value.
    Stop(B),
}

impl<A, B> From<Option<A>> for Choice<A, B> {
    /// A bot's answer: its action, or nothing to play.
    fn from(action: Option<A>) -> Self {
        action.map_or(Choice::Nothing, Choice::Act)
    }
}

/// One applied decision, as the per-step callback sees it.
pub struct Step<'a, G: Game> {
    /// The seat that acted.
    pub seat: usize,
    /// What it did.
    pub action: &'a G::Action,
    /// What happened, in order (none in a [`Playout::quiet`] play-out).
    pub events: &'a [G::Event],
}

/// How a play-out ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended<B = ()> {
    /// The game is over: no seat is to act.
    Over,
    /// The decision limit was reached with the game still going.
    Capped,
    /// The chooser had nothing to play for `seat` (or named a legal action past the end
    /// of the seat's list).
    Nothing {
        /// The seat to act.
        seat: usize,
    },
    /// The chooser or the callback stopped the loop with this value.
    Stopped(B),
}

/// A finished play-out: how it ended and how many decisions it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary<B = ()> {
    /// How it ended.
    pub ended: Ended<B>,
    /// Decisions taken: actions applied, and the chooser's [`Choice::Pass`]es.
    pub decisions: usize,
}

/// The engine refused a chosen action (for a chooser that picks among the legal actions,
/// a bug of the game or the chooser). Nothing was applied.
pub struct Refused<G: Game> {
    /// The seat it was chosen for.
    pub seat: usize,
    /// The action.
    pub action: G::Action,
    /// The engine's error.
    pub error: G::Error,
}

/// What a play-out advances. A bare state is one (see [`Playout::run`]); so is a
/// [`Match`], which records every action; a host's trace implements it for a match with
/// its own clock.
pub trait Playable<G: Game> {
    /// The state of the game.
    fn state(&self) -> &G::State;

    /// Applies `action` for `seat` at `now`, writing its events into `events`.
    fn act(
        &mut self,
        game: &G,
        seat: usize,
        action: &G::Action,
        now: Millis,
        events: &mut Vec<G::Event>,
    ) -> Result<(), G::Error>;

    /// [`Playable::act`] for a play-out that does not read the events
    /// ([`Playout::quiet`]): the state must come out the same, the events may be left out
    /// of `scratch`. The default is `act`.
    fn act_quiet(
        &mut self,
        game: &G,
        seat: usize,
        action: &G::Action,
        now: Millis,
        scratch: &mut Vec<G::Event>,
    ) -> Result<(), G::Error> {
        self.act(game, seat, action, now, scratch)
    }

    /// Applies the `index`-th legal action of `seat` ([`Choice::Legal`]) and returns it,
    /// or `Ok(None)` with nothing applied when there is no such action. `quiet` as for
    /// [`Playable::act_quiet`]. The default looks the action up with
    /// [`Game::legal_action`] and applies it with [`Playable::act_picked`].
    fn act_legal(
        &mut self,
        game: &G,
        seat: usize,
        index: usize,
        now: Millis,
        events: &mut Vec<G::Event>,
        quiet: bool,
    ) -> Result<Option<G::Action>, Refused<G>> {
        let Some(action) = game.legal_action(self.state(), seat, index) else {
            return Ok(None);
        };
        self.act_picked(game, seat, &action, now, events, quiet)
            .map_err(|error| Refused {
                seat,
                action: action.clone(),
                error,
            })?;
        Ok(Some(action))
    }

    /// Applies `action`, one the game itself picked from the legal actions of `seat` in
    /// this very state ([`Game::legal_action`], [`Game::random_legal_action`]), so that a
    /// table may apply it without validating it again. `quiet` as for
    /// [`Playable::act_quiet`]. The default applies it through [`Playable::act`] (or
    /// `act_quiet`), validated all the same.
    fn act_picked(
        &mut self,
        game: &G,
        seat: usize,
        action: &G::Action,
        now: Millis,
        events: &mut Vec<G::Event>,
        quiet: bool,
    ) -> Result<(), G::Error> {
        if quiet {
            self.act_quiet(game, seat, action, now, events)
        } else {
            self.act(game, seat, action, now, events)
        }
    }
}

/// A bare state, applied to with [`GameExt::apply`](crate::GameExt::apply)'s checks into the loop's buffer (or
/// with the events left out, [`Game::step_quiet`]).
struct Bare<'s, G: Game>(&'s mut G::State);

impl<G: Game> Playable<G> for Bare<'_, G> {
    fn state(&self) -> &G::State {
        self.0
    }

    fn act(
        &mut self,
        game: &G,
        seat: usize,
        action: &G::Action,
        now: Millis,
        events: &mut Vec<G::Event>,
    ) -> Result<(), G::Error> {
        crate::game::apply_into(game, self.0, seat, action, now, events)
    }

    fn act_quiet(
        &mut self,
        game: &G,
        seat: usize,
        action: &G::Action,
        now: Millis,
        scratch: &mut Vec<G::Event>,
    ) -> Result<(), G::Error> {
        crate::game::apply_quiet(game, self.0, seat, action, now, scratch)
    }

    /// Without validating again: the game picked the action from its own legal actions for
    /// this very state.
    fn act_picked(
        &mut self,
        game: &G,
        seat: usize,
        action: &G::Action,
        now: Millis,
        events: &mut Vec<G::Event>,
        quiet: bool,
    ) -> Result<(), G::Error> {
        clear_events(events);
        let kept = if quiet { Events::Dropped } else { Events::Kept };
        apply_valid(game, self.0, seat, action, None, now, events, kept);
        Ok(())
    }
}

/// Every action goes through [`Match::act`], so the record holds it (and the timeouts due
/// at `now` are taken first, as a host would).
impl<G: Game> Playable<G> for Match<G> {
    fn state(&self) -> &G::State {
        &self.state
    }

    fn act(
        &mut self,
        _game: &G,
        seat: usize,
        action: &G::Action,
        now: Millis,
        events: &mut Vec<G::Event>,
    ) -> Result<(), G::Error> {
        let player = self.state.table().players[seat].clone();
        *events = Match::act(self, &player, action, now)?;
        Ok(())
    }
}

/// A chooser of the seat to act next (see [`Playout::next_with`]).
type NextSeat<G> = fn(&G, &<G as Game>::State) -> Option<usize>;

/// The play-out loop, with its settings and the events buffer it reuses from one game to
/// the next. `QUIET` says whether the callback is shown no events ([`Playout::quiet`]): a
/// parameter of the type rather than a flag, so that a program's loop holds only the one
/// way of acting it uses.
pub struct Playout<G: Game, const QUIET: bool = false> {
    /// Decisions after which the loop ends with [`Ended::Capped`].
    pub limit: usize,
    /// The host time every action is applied at.
    pub now: Millis,
    /// Who acts next, when not [`Game::first_to_act`] (the seat, `None` once the game is
    /// over). `None` for the default, which the loop then calls directly: the game's answer
    /// inlines into the loop, where a call through a pointer could not.
    next: Option<NextSeat<G>>,
    events: Vec<G::Event>,
}

impl<G: Game> Playout<G> {
    /// A play-out applying every action at `now`, limited to [`MAX_DECISIONS`], asking
    /// [`Game::first_to_act`] who acts next.
    ///
    /// ```
    /// let p = game_core::playout::Playout::<game_core::rps::Rps>::new(1_000);
    /// assert_eq!((p.limit, p.now), (game_core::playout::MAX_DECISIONS, 1_000));
    /// ```
    pub fn new(now: Millis) -> Self {
        Self {
            limit: MAX_DECISIONS,
            now,
            next: None,
            events: Vec::new(),
        }
    }

    /// Asks for no events: every action goes through [`Playable::act_quiet`] (for a bare
    /// state [`Game::step_quiet`] after the same checks), so a game need not build events that no one
    /// reads, and the callback's [`Step::events`] is empty. The states and decisions are
    /// exactly those of the same play-out with events. For simulations, reports and bots'
    /// play-outs, whose callbacks look at the state rather than at what happened.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use game_core::{Bot, Game, GameExt, RandomBot, rps::{Rps, RpsOptions}};
    /// use game_core::playout::Playout;
    /// let players = ["a".to_string(), "b".to_string()];
    /// let mut quiet = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// let mut loud = quiet.clone();
    /// let (mut seen_quiet, mut seen_loud) = (0, 0);
    /// let (mut bot_a, mut bot_b) = (RandomBot::new(5), RandomBot::new(5));
    /// Playout::new(0)
    ///     .quiet()
    ///     .run(&Rps, &mut quiet, |s: &_, seat| bot_a.choose(&Rps, s, seat).into(), |_: &mut _, step| {
    ///         seen_quiet += step.events.len();
    ///         ControlFlow::<()>::Continue(())
    ///     })
    ///     .unwrap();
    /// Playout::new(0)
    ///     .run(&Rps, &mut loud, |s: &_, seat| bot_b.choose(&Rps, s, seat).into(), |_: &mut _, step| {
    ///         seen_loud += step.events.len();
    ///         ControlFlow::<()>::Continue(())
    ///     })
    ///     .unwrap();
    /// assert_eq!(seen_quiet, 0);
    /// assert!(seen_loud > 0);
    /// assert_eq!(quiet, loud);
    /// ```
    pub fn quiet(self) -> Playout<G, true> {
        Playout {
            limit: self.limit,
            now: self.now,
            next: self.next,
            events: self.events,
        }
    }
}

impl<G: Game, const QUIET: bool> Playout<G, QUIET> {
    /// Asks `next` instead of [`Game::first_to_act`] who acts next: to stop at a seat of
    /// the caller's choosing, or to play only some seats.
    ///
    /// ```
    /// use game_core::{Game, GameExt, TimeoutBot, Bot, rps::{Rps, RpsOptions}};
    /// use game_core::playout::{Ended, Playout};
    /// let players = ["a".to_string(), "b".to_string()];
    /// let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// // Only seat 0 is ever asked: the loop ends when it has nothing left to pick.
    /// let only_a = |game: &Rps, state: &_| (!game.is_over(state)).then_some(0);
    /// let summary = Playout::new(0)
    ///     .next_with(only_a)
    ///     .run(&Rps, &mut state, |s: &_, seat| TimeoutBot.choose(&Rps, s, seat).into(), |_: &mut _, _| {
    ///         std::ops::ControlFlow::<()>::Continue(())
    ///     })
    ///     .unwrap();
    /// assert_eq!(summary.ended, Ended::Nothing { seat: 0 });
    /// ```
    pub fn next_with(mut self, next: fn(&G, &G::State) -> Option<usize>) -> Self {
        self.next = Some(next);
        self
    }

    /// Makes room for `events` events in the reused buffer up front, so that the first
    /// actions do not grow it: a loop whose game allocates nothing per step then
    /// allocates nothing at all once set up.
    ///
    /// ```
    /// let p = game_core::playout::Playout::<game_core::rps::Rps>::new(0).reserve(32);
    /// assert_eq!(p.limit, game_core::playout::MAX_DECISIONS);
    /// ```
    pub fn reserve(mut self, events: usize) -> Self {
        self.events.reserve(events);
        self
    }

    /// Plays the bare `state` to the end with [`GameExt::apply`](crate::GameExt::apply)'s checks: `choose` picks
    /// the action of the seat to act, `step` sees every applied action (it may change the
    /// state, and stop the loop with [`ControlFlow::Break`]).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use game_core::{Bot, Game, GameExt, TimeoutBot, rps::{Rps, RpsOptions}};
    /// use game_core::playout::{Ended, Playout};
    /// let players = ["a".to_string(), "b".to_string()];
    /// let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// // Stop after the first action.
    /// let summary = Playout::new(0)
    ///     .run(&Rps, &mut state, |s: &_, seat| TimeoutBot.choose(&Rps, s, seat).into(), |_: &mut _, step| {
    ///         ControlFlow::Break(step.seat)
    ///     })
    ///     .unwrap();
    /// assert_eq!((summary.ended, summary.decisions), (Ended::Stopped(0), 1));
    /// ```
    pub fn run<B>(
        &mut self,
        game: &G,
        state: &mut G::State,
        mut choose: impl FnMut(&G::State, usize) -> Choice<G::Action, B>,
        mut step: impl FnMut(&mut G::State, Step<'_, G>) -> ControlFlow<B>,
    ) -> Result<Summary<B>, Refused<G>> {
        self.run_on(
            game,
            &mut Bare(state),
            |table: &mut Bare<'_, G>, seat| choose(table.0, seat),
            |table: &mut Bare<'_, G>, s| step(table.0, s),
        )
    }

    /// [`Playout::run`] on any [`Playable`]: the chooser and the callback get it, so
    /// that they can act on it themselves (a trace lets the clock run out there, and then
    /// answers [`Choice::Pass`]).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use game_core::{Bot, Match, RandomBot, rps::{Rps, RpsOptions}};
    /// use game_core::playout::{Ended, Playout};
    /// let mut m = Match::new(Rps, RpsOptions::default(), vec!["a".into(), "b".into()], 3, 0).unwrap();
    /// let mut bot = RandomBot::new(1);
    /// let summary = Playout::new(10)
    ///     .run_on(&Rps, &mut m, |m: &mut Match<Rps>, seat| bot.choose(&Rps, m.state(), seat).into(), |_: &mut _, _| {
    ///         ControlFlow::<()>::Continue(())
    ///     })
    ///     .unwrap();
    /// assert_eq!(summary.ended, Ended::Over);
    /// assert_eq!(m.record().entries.len(), summary.decisions); // every action recorded
    /// ```
    pub fn run_on<T: Playable<G>, B>(
        &mut self,
        game: &G,
        table: &mut T,
        mut choose: impl FnMut(&mut T, usize) -> Choice<G::Action, B>,
        step: impl FnMut(&mut T, Step<'_, G>) -> ControlFlow<B>,
    ) -> Result<Summary<B>, Refused<G>> {
        self.drive(
            game,
            table,
            |table: &mut T, seat| Decided::Chosen(choose(table, seat)),
            step,
        )
    }

    /// Plays every decision with a uniformly random legal action drawn from `rng`
    /// ([`Game::random_legal_action`]: the draws and the action of an index drawn among
    /// [`Game::legal_action_count`] actions, as [`RandomBot`](crate::RandomBot) draws
    /// them), each applied without validating it again, until the game is over, a seat
    /// to act has no legal action ([`Ended::Nothing`]), the callback stops it or the limit
    /// is reached: a random play-out in one call a decision, what simulations run.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use game_core::{Game, GameExt, GameRng, rps::{Rps, RpsOptions}};
    /// use game_core::playout::{Ended, Playout};
    /// let players = ["a".to_string(), "b".to_string()];
    /// let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// let mut rng = GameRng::from_seed(5);
    /// let summary = Playout::new(0)
    ///     .quiet()
    ///     .run_random(&Rps, &mut state, &mut rng, |_: &mut _, _| ControlFlow::<()>::Continue(()))
    ///     .unwrap();
    /// assert_eq!(summary.ended, Ended::Over);
    /// assert!(Rps.is_over(&state));
    /// ```
    pub fn run_random<B>(
        &mut self,
        game: &G,
        state: &mut G::State,
        rng: &mut GameRng,
        mut step: impl FnMut(&mut G::State, Step<'_, G>) -> ControlFlow<B>,
    ) -> Result<Summary<B>, Refused<G>> {
        self.run_random_on(game, &mut Bare(state), rng, |table: &mut Bare<'_, G>, s| {
            step(table.0, s)
        })
    }

    /// [`Playout::run_random`] on any [`Playable`] (a [`Match`] records every action).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use game_core::{GameRng, Match, rps::{Rps, RpsOptions}};
    /// use game_core::playout::{Ended, Playout};
    /// let mut m = Match::new(Rps, RpsOptions::default(), vec!["a".into(), "b".into()], 3, 0).unwrap();
    /// let mut rng = GameRng::from_seed(1);
    /// let summary = Playout::new(10)
    ///     .run_random_on(&Rps, &mut m, &mut rng, |_: &mut _, _| ControlFlow::<()>::Continue(()))
    ///     .unwrap();
    /// assert_eq!(summary.ended, Ended::Over);
    /// assert_eq!(m.record().entries.len(), summary.decisions);
    /// ```
    pub fn run_random_on<T: Playable<G>, B>(
        &mut self,
        game: &G,
        table: &mut T,
        rng: &mut GameRng,
        step: impl FnMut(&mut T, Step<'_, G>) -> ControlFlow<B>,
    ) -> Result<Summary<B>, Refused<G>> {
        self.drive(
            game,
            table,
            |table: &mut T, seat| {
                Decided::Picked(game.random_legal_action(table.state(), seat, rng))
            },
            step,
        )
    }

    /// The loop of every play-out: `decide` answers for the seat to act.
    #[inline(always)]
    fn drive<T: Playable<G>, B>(
        &mut self,
        game: &G,
        table: &mut T,
        mut decide: impl FnMut(&mut T, usize) -> Decided<G::Action, B>,
        mut step: impl FnMut(&mut T, Step<'_, G>) -> ControlFlow<B>,
    ) -> Result<Summary<B>, Refused<G>> {
        // Read once: the loop then keeps them in registers instead of reloading them from
        // `self` around every call that gets `self.events`.
        let (next, limit, now) = (self.next, self.limit, self.now);
        let mut decisions = 0;
        let ended = loop {
            let seat = match next {
                None => game.first_to_act(table.state()),
                Some(next) => next(game, table.state()),
            };
            let Some(seat) = seat else {
                break Ended::Over;
            };
            if decisions >= limit {
                break Ended::Capped;
            }
            // The action and how applying it went (refused: nothing applied).
            let (action, acted) = match decide(table, seat) {
                Decided::Picked(Some(action)) => {
                    let acted = table.act_picked(game, seat, &action, now, &mut self.events, QUIET);
                    (action, acted)
                }
                Decided::Picked(None) => break Ended::Nothing { seat },
                Decided::Chosen(Choice::Act(action)) => {
                    let acted = if QUIET {
                        table.act_quiet(game, seat, &action, now, &mut self.events)
                    } else {
                        table.act(game, seat, &action, now, &mut self.events)
                    };
                    (action, acted)
                }
                Decided::Chosen(Choice::Legal(index)) => {
                    match table.act_legal(game, seat, index, now, &mut self.events, QUIET) {
                        Ok(Some(action)) => (action, Ok(())),
                        Ok(None) => break Ended::Nothing { seat },
                        Err(refused) => return Err(refused),
                    }
                }
                Decided::Chosen(Choice::Pass) => {
                    decisions += 1;
                    continue;
                }
                Decided::Chosen(Choice::Nothing) => break Ended::Nothing { seat },
                Decided::Chosen(Choice::Stop(b)) => break Ended::Stopped(b),
            };
            if let Err(error) = acted {
                return Err(Refused {
                    seat,
                    action,
                    error,
                });
            }
            decisions += 1;
            let events: &[G::Event] = if QUIET { &[] } else { &self.events };
            if let ControlFlow::Break(b) = step(
                table,
                Step {
                    seat,
                    action: &action,
                    events,
                },
            ) {
                break Ended::Stopped(b);
            }
        };
        Ok(Summary { ended, decisions })
    }
}

/// What the loop plays for the seat to act: a chooser's [`Choice`], or an action the game
/// picked from its legal actions (none when it has none).
enum Decided<A, B> {
    Chosen(Choice<A, B>),
    Picked(Option<A>),
}

impl<G: Game, const QUIET: bool> std::fmt::Debug for Playout<G, QUIET> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Playout")
            .field("limit", &self.limit)
            .field("now", &self.now)
            .field("quiet", &QUIET)
            .finish_non_exhaustive()
    }
}

impl<G: Game> std::fmt::Debug for Step<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Step")
            .field("seat", &self.seat)
            .field("action", self.action)
            .field("events", &self.events)
            .finish()
    }
}

impl<G: Game> std::fmt::Debug for Refused<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Refused")
            .field("seat", &self.seat)
            .field("action", &self.action)
            .field("error", &self.error)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rps::{Hand, Rps, RpsAction, RpsOptions, RpsState};
    use crate::{Bot, GameExt, TimeoutBot};

    fn new_state() -> RpsState {
        let players = ["a".to_string(), "b".to_string()];
        Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap()
    }

    fn go_on(_: &mut RpsState, _: Step<'_, Rps>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    #[test]
    fn the_limit_counts_passes_and_actions_alike() {
        let mut state = new_state();
        let mut p = Playout::new(0);
        p.limit = 5;
        let passing = |_: &RpsState, _| Choice::<RpsAction, ()>::Pass;
        let summary = p.run(&Rps, &mut state, passing, go_on).unwrap();
        assert_eq!(
            summary,
            Summary {
                ended: Ended::Capped,
                decisions: 5
            }
        );
        assert_eq!(state, new_state(), "a pass applies nothing");

        p.limit = 1;
        let timeout = |s: &RpsState, seat| TimeoutBot.choose(&Rps, s, seat).into();
        let summary = p.run(&Rps, &mut state, timeout, go_on).unwrap();
        assert_eq!(
            summary,
            Summary {
                ended: Ended::Capped,
                decisions: 1
            }
        );
        assert_ne!(state, new_state());
    }

    #[test]
    fn a_refused_action_ends_the_loop_with_its_seat_and_changes_nothing() {
        let mut state = new_state();
        let rock = RpsAction::Pick { hand: Hand::Rock };
        // Seat 0 is asked again after picking: its second pick is refused.
        let mut p = Playout::new(0).next_with(|_, _| Some(0));
        let summary = p.run(
            &Rps,
            &mut state,
            |_: &_, _| Choice::<_, ()>::Act(rock),
            go_on,
        );
        let refused = summary.unwrap_err();
        assert_eq!((refused.seat, &refused.action), (0, &rock));
        let mut once = new_state();
        Rps.apply(&mut once, 0, &rock, 0).unwrap();
        assert_eq!(state, once);
    }

    #[test]
    fn the_chooser_and_the_callback_stop_with_their_value() {
        let mut state = new_state();
        let stop = |_: &RpsState, seat| Choice::<RpsAction, usize>::Stop(seat + 10);
        let summary = Playout::new(0).run(&Rps, &mut state, stop, |_, _| ControlFlow::Continue(()));
        assert_eq!(
            summary.unwrap(),
            Summary {
                ended: Ended::Stopped(10),
                decisions: 0
            }
        );

        let mut seen = Vec::new();
        let timeout = |s: &RpsState, seat| TimeoutBot.choose(&Rps, s, seat).into();
        let summary = Playout::new(0).run(&Rps, &mut state, timeout, |_, step| {
            seen.push(step.seat);
            if seen.len() == 3 {
                ControlFlow::Break("third")
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(
            summary.unwrap(),
            Summary {
                ended: Ended::Stopped("third"),
                decisions: 3
            }
        );
        assert_eq!(seen, [0, 1, 0]);
    }
}
