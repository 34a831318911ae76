//! The `Game` trait: what any turn-based party game implements.

use std::fmt::Debug;

use schemars::JsonSchema;
use serde::{Serialize, de::DeserializeOwned};

use crate::{GameError, GameRng, GameState, Millis, PlayerId, PresenceChanged, Rejection, Table};

/// Who is looking at the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer<'a> {
    /// A seated player, by id.
    Player(&'a str),
    /// Someone watching, who sees only what is public.
    Spectator,
}

/// An action taken, with what it caused.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied<G: Game + ?Sized> {
    /// Who acted (for a timeout, the player the engine acted for).
    pub player: PlayerId,
    /// What was done.
    pub action: G::Action,
    /// What happened, in order.
    pub events: Vec<G::Event>,
    /// True when the engine took the action itself (timeout or disconnection).
    pub auto: bool,
}

/// A request judged at a time: the timeouts that were due at that time, taken first, and
/// then the request's own result. See [`GameExt::play`]. `T` is what an accepted request
/// gives: nothing when its events went into the caller's buffer ([`GameExt::play`]), or
/// the events themselves ([`Match::play`](crate::Match::play)).
#[derive(Clone, Debug, PartialEq)]
pub struct Played<G: Game + ?Sized, T = Vec<<G as Game>::Event>> {
    /// The timeout actions taken before the request was judged, in order (usually none).
    pub applied: Vec<Applied<G>>,
    /// The request's events, or why it was refused. A refused request changed nothing;
    /// the timeouts in `applied` stand either way.
    pub result: Result<T, G::Error>,
}

impl<G: Game + ?Sized> Played<G, ()> {
    /// The answer with the events the request wrote into a buffer.
    pub(crate) fn with_events(self, events: Vec<G::Event>) -> Played<G> {
        Played {
            applied: self.applied,
            result: self.result.map(|()| events),
        }
    }
}

/// A turn-based game with any number of players, possibly acting at the same time.
///
/// A game is a value (usually zero-sized) that knows its rules; the mutable part is
/// [`Game::State`], which holds the framework's [`Table`] ([`GameState`]). Eight methods are
/// required, each with one job: [`Game::id`], [`Game::setup`], the unchecked
/// [`Game::step_into`], [`Game::view`], [`Game::to_act`], [`Game::legal_actions`],
/// [`Game::outcome`] and [`Game::restore`] (the guide, [`crate::guide`], builds a game on
/// them). The provided methods answer the rest from those (validating, the timeout policy,
/// checking a stored state) and a game overrides them to answer faster or more exactly;
/// what the framework promises (the checked [`GameExt::apply`] that leaves the state
/// untouched on rejection, stale-request checks, timeouts and presence, re-seeding for
/// bots) is in the sealed [`GameExt`], which no game can override.
///
/// Nothing here assumes one current player: [`Game::to_act`] lists everyone who may act
/// now, so simultaneous choices fit as well as strict turns.
pub trait Game: Send + Sync + 'static {
    /// Settings chosen before the game (validated by [`Game::setup`]).
    type Options: Clone + Debug + Send + Sync + Serialize + DeserializeOwned + JsonSchema;
    /// Everything about a game in progress, including its RNG. Never shown to players.
    ///
    /// Serialized for storage, but deliberately not `Deserialize`: the only way from JSON
    /// back to a state is [`Game::restore`], which checks it, so no tampered state is
    /// ever loaded unchecked.
    type State: Clone + Debug + PartialEq + Send + Sync + Serialize + GameState;
    /// What a player can do.
    type Action: Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned + JsonSchema;
    /// What one player (or a spectator) may see.
    type View: Clone + Debug + Serialize + JsonSchema;
    /// What happened, for animation and logs. Presence changes are events too.
    type Event: Clone
        + Debug
        + PartialEq
        + Send
        + Sync
        + Serialize
        + JsonSchema
        + From<PresenceChanged>;
    /// The final result.
    type Outcome: Clone + Debug + PartialEq + Serialize + JsonSchema;
    /// One outcome of a random step (for yut: a throw result or nak).
    type Chance: Clone + Debug + PartialEq + Serialize + JsonSchema;
    /// Why an action or setting was refused; its codes and their reasons are listed for
    /// the game's error schema ([`ErrorCodes`](crate::ErrorCodes)).
    type Error: GameError + crate::ErrorCodes + From<Rejection>;

    /// The game's stable id (`"yut"`, `"rps"`, ...), used by records and registries.
    fn id(&self) -> &'static str;

    /// Starts a game: validates `options` against the seated `players`, seeds the RNG.
    fn setup(
        &self,
        options: &Self::Options,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<Self::State, Self::Error>;

    /// Carries out a validated action, appending what happened to `events`. With `chance`,
    /// the action's random step takes that outcome instead of drawing from the RNG. This is
    /// what a game implements, not a way to act: callers act through [`GameExt`] (or a
    /// [`Playout`](crate::playout::Playout)), which checks the action and keeps the step's
    /// bookkeeping (`turnSeq`, the clock, presence) that this skips. Calling this with an
    /// action that [`Game::validate`] refuses is a logic error (it must not panic, but the
    /// state may then be anything).
    ///
    /// Appending to a caller's buffer lets hot loops (bots, simulations) reuse one `Vec`.
    fn step_into(
        &self,
        state: &mut Self::State,
        seat: usize,
        action: &Self::Action,
        chance: Option<&Self::Chance>,
        now: Millis,
        events: &mut Vec<Self::Event>,
    );

    /// What `viewer` may see.
    fn view(&self, state: &Self::State, viewer: Viewer<'_>) -> Self::View;

    /// The seats that may act now (empty once the game is over).
    fn to_act(&self, state: &Self::State) -> Vec<usize>;

    /// Every action the player at `seat` could legally take now.
    fn legal_actions(&self, state: &Self::State, seat: usize) -> Vec<Self::Action>;

    /// The result, once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Self::Outcome>;

    /// Restores a state from JSON, validated; a tampered state is refused, never loaded.
    ///
    /// The one way to a state from JSON. Implementations read the JSON with a private
    /// stored form of their state and hand the result to [`restored`], which runs the
    /// checks ([`Table::check`](crate::Table::check), [`Game::check_state`]).
    fn restore(&self, json: &str) -> Result<Self::State, Self::Error>;

    // Provided: each answers from the required methods above; a game overrides one to
    // answer faster or more exactly, keeping what its documentation promises.

    /// May the player at `seat` take `action` now? Never changes anything.
    ///
    /// The default: a seat not at the table is `NOT_SEATED`, a seat that may not act now
    /// is `GAME_OVER` (once [`Game::outcome`] is known) or `NOT_YOUR_TURN`, and an action
    /// [`Game::legal_actions`] does not list is `ILLEGAL_ACTION`. A game overrides it to
    /// refuse with its own codes (`NOTHING_TO_HOLD` says more than `ILLEGAL_ACTION`) or to
    /// answer without listing every action; it must refuse exactly the actions the list
    /// leaves out (`testing::conformance`, with the `testing` feature).
    ///
    /// ```
    /// use game_core::{Game, GameError, rps::{Hand, Rps, RpsAction, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// let rock = RpsAction::Pick { hand: Hand::Rock };
    /// assert!(Rps.validate(&state, 0, &rock).is_ok());
    /// assert_eq!(Rps.validate(&state, 2, &rock).unwrap_err().code(), "NOT_SEATED");
    /// ```
    fn validate(
        &self,
        state: &Self::State,
        seat: usize,
        action: &Self::Action,
    ) -> Result<(), Self::Error> {
        if seat >= state.table().players.len() {
            return Err(Rejection::NotSeated {
                player: format!("seat {seat}"),
            }
            .into());
        }
        if !self.may_act(state, seat) {
            return Err(if self.outcome(state).is_some() {
                Rejection::GameOver
            } else {
                Rejection::NotYourTurn
            }
            .into());
        }
        if self.legal_actions(state, seat).contains(action) {
            Ok(())
        } else {
            Err(Rejection::IllegalAction.into())
        }
    }

    /// The action the engine takes for the player at `seat` when their time is up, or
    /// `None` if they have nothing to do. The default takes the seat's first legal action
    /// when the seat is to act ([`Game::to_act`]); a game overrides it with the move a
    /// careful absent player would make (Pig holds what the turn gathered).
    fn timeout_action(&self, state: &Self::State, seat: usize) -> Option<Self::Action> {
        if self.to_act(state).contains(&seat) {
            self.legal_action(state, seat, 0)
        } else {
            None
        }
    }

    /// Checks a state from outside (a database, a client) the way a new game is checked:
    /// [`restored`] runs it after [`Table::check`], so a tampered state is refused, never
    /// loaded. The default finds nothing wrong beyond the table; a game overrides it with
    /// every invariant of its own state (the fuzz kit tampers with stored states to test
    /// that it does).
    fn check_state(&self, state: &Self::State) -> Result<(), Self::Error> {
        let _ = state;
        Ok(())
    }

    /// The version of this game's saved formats. Records of another version are refused.
    fn format_version(&self) -> u32 {
        1
    }

    /// Starts a new game in `state`, as `*state = self.setup(options, players, seed, now)?`
    /// does, but reusing what `state` already holds (its buffers): for loops that play many
    /// games. The state afterwards equals the new game's exactly. A refused setup returns the
    /// error and leaves `state` unchanged.
    ///
    /// The default is that assignment. A game whose loops play many short games overrides
    /// it to rebuild the state in place, so that starting a game allocates nothing and
    /// frees only what the last game's state owned beyond its buffers
    /// (`testing::assert_reset_agrees`, with the `testing` feature, checks an override
    /// against [`Game::setup`]).
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Hand, Rps, RpsAction, RpsOptions}};
    /// let (options, players) = (RpsOptions::default(), ["a".to_string(), "b".to_string()]);
    /// let mut state = Rps.setup(&options, &players, 1, 0).unwrap();
    /// Rps.apply(&mut state, 0, &RpsAction::Pick { hand: Hand::Rock }, 10).unwrap();
    /// Rps.reset(&mut state, &options, &players, 2, 20).unwrap();
    /// assert_eq!(state, Rps.setup(&options, &players, 2, 20).unwrap());
    /// // Refused like `setup` (one player), and nothing changed.
    /// let before = state.clone();
    /// assert!(Rps.reset(&mut state, &options, &players[..1], 3, 30).is_err());
    /// assert_eq!(state, before);
    /// ```
    fn reset(
        &self,
        state: &mut Self::State,
        options: &Self::Options,
        players: &[PlayerId],
        seed: u64,
        now: Millis,
    ) -> Result<(), Self::Error> {
        *state = self.setup(options, players, seed, now)?;
        Ok(())
    }

    /// [`Game::step_into`] for a caller that does not read the events: a simulation, a
    /// bot's play-out. The game may leave out of `scratch` any event it would have written
    /// there; the state comes out exactly as from `step_into`, byte for byte. The default
    /// is `step_into`. A game whose play-outs are hot overrides it to skip building the
    /// events no one reads.
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Hand, Rps, RpsAction, RpsOptions}};
    /// let players = ["a".to_string(), "b".to_string()];
    /// let mut quiet = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// let mut loud = quiet.clone();
    /// let rock = RpsAction::Pick { hand: Hand::Rock };
    /// Rps.step_quiet(&mut quiet, 0, &rock, None, 10, &mut Vec::new());
    /// Rps.step_into(&mut loud, 0, &rock, None, 10, &mut Vec::new());
    /// assert_eq!(quiet, loud);
    /// ```
    fn step_quiet(
        &self,
        state: &mut Self::State,
        seat: usize,
        action: &Self::Action,
        chance: Option<&Self::Chance>,
        now: Millis,
        scratch: &mut Vec<Self::Event>,
    ) {
        self.step_into(state, seat, action, chance, now, scratch);
    }

    /// What `viewer` may see of `event`: a game with private events (a card drawn) gives
    /// each viewer their projection, and every host sends each player, socket or caller
    /// only this, never the event itself. The default shows every viewer the event as it
    /// is.
    ///
    /// ```
    /// use game_core::{Game, GameExt, Viewer, rps::{Rps, RpsEvent}};
    /// let event = RpsEvent::Picked { player: 0 };
    /// assert_eq!(Rps.event_for(&event, Viewer::Spectator), event);
    /// ```
    fn event_for(&self, event: &Self::Event, viewer: Viewer<'_>) -> Self::Event {
        let _ = viewer;
        event.clone()
    }

    /// Whether [`Game::timeout_action`] would act for `seat`: what [`GameExt::next_tick_at`]
    /// asks on every status. The default asks for the action itself; a game whose timeout
    /// action is costly to work out (a policy weighing every move) answers it cheaply, and
    /// must answer exactly as `timeout_action(..).is_some()` would.
    fn times_out(&self, state: &Self::State, seat: usize) -> bool {
        self.timeout_action(state, seat).is_some()
    }

    /// Whether the player at `seat` may act now: every seat of [`Game::to_act`] (whose
    /// move is awaited), and any seat the game also lets act without waiting for it (One
    /// Card's calls while the window is open). Hosts offer actions and judge who may send
    /// one by this; timeouts and deadlines stay with [`Game::to_act`]. The default is the
    /// seats to act. A game that overrides it answers `true` for every seat of `to_act`,
    /// and offers every other seat it answers `true` for a legal action
    /// (`testing::assert_may_act_covers`, with the `testing` feature).
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// assert!(Rps.may_act(&state, 0) && Rps.may_act(&state, 1));
    /// assert!(!Rps.may_act(&state, 2));
    /// ```
    fn may_act(&self, state: &Self::State, seat: usize) -> bool {
        self.to_act(state).contains(&seat)
    }

    /// The first of [`Game::to_act`], which loops and bots ask before every decision. A
    /// game whose state knows the seat directly answers without building the list; it
    /// must answer exactly as `to_act(..).first()`
    /// (`testing::assert_first_to_act_agrees`, with the `testing` feature).
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// assert_eq!(Rps.first_to_act(&state), Some(0));
    /// ```
    fn first_to_act(&self, state: &Self::State) -> Option<usize> {
        self.to_act(state).first().copied()
    }

    /// [`Game::legal_actions`] written into `out` (cleared first), so that a loop can reuse
    /// one buffer. Games whose legal list is hot override it to allocate nothing.
    fn legal_actions_into(&self, state: &Self::State, seat: usize, out: &mut Vec<Self::Action>) {
        out.clear();
        out.extend(self.legal_actions(state, seat));
    }

    /// How many actions [`Game::legal_actions`] lists for `seat`, without listing them: with
    /// [`Game::legal_action`], what a random play-out draws from. Games whose legal list is
    /// hot override both to allocate nothing.
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// assert_eq!(Rps.legal_action_count(&state, 0), Rps.legal_actions(&state, 0).len());
    /// ```
    fn legal_action_count(&self, state: &Self::State, seat: usize) -> usize {
        self.legal_actions(state, seat).len()
    }

    /// The `index`-th action of [`Game::legal_actions`] for `seat`, in the list's order,
    /// without listing the others; `None` past the end. It must answer exactly as the list
    /// does (`testing::assert_legal_index_agrees`, with the `testing` feature).
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// let all = Rps.legal_actions(&state, 0);
    /// assert_eq!(Rps.legal_action(&state, 0, 1).as_ref(), all.get(1));
    /// assert_eq!(Rps.legal_action(&state, 0, all.len()), None);
    /// ```
    fn legal_action(&self, state: &Self::State, seat: usize, index: usize) -> Option<Self::Action> {
        self.legal_actions(state, seat).into_iter().nth(index)
    }

    /// A uniformly random legal action of `seat`, drawn from `rng`, or `None` (nothing
    /// drawn) when it has none: exactly the draw of `rng.below(n)` among the
    /// [`Game::legal_action_count`] `n` actions and the [`Game::legal_action`] of that index
    /// (the default does just that; a game whose count and index share their work
    /// overrides it to find both at once, and must answer and draw exactly as the default
    /// does: `testing::assert_legal_index_agrees`, with the `testing` feature). What
    /// [`RandomBot`](crate::RandomBot) and [`Playout::run_random`](crate::playout::Playout::run_random)
    /// play.
    ///
    /// ```
    /// use game_core::{Game, GameExt, GameRng, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// let (mut a, mut b) = (GameRng::from_seed(7), GameRng::from_seed(7));
    /// let n = Rps.legal_action_count(&state, 0) as u32;
    /// assert_eq!(
    ///     Rps.random_legal_action(&state, 0, &mut a),
    ///     Rps.legal_action(&state, 0, b.below(n) as usize)
    /// );
    /// assert_eq!(a, b);
    /// ```
    fn random_legal_action(
        &self,
        state: &Self::State,
        seat: usize,
        rng: &mut GameRng,
    ) -> Option<Self::Action> {
        let n = self.legal_action_count(state, seat);
        if n == 0 {
            return None;
        }
        let index = rng.below(u32::try_from(n).unwrap_or(u32::MAX)) as usize;
        self.legal_action(state, seat, index)
    }

    /// The outcomes of the random step that `action` would take, with their exact
    /// probabilities (summing to 1), or `None` if the action involves no chance.
    fn chances(
        &self,
        _state: &Self::State,
        _seat: usize,
        _action: &Self::Action,
    ) -> Option<Vec<(Self::Chance, f64)>> {
        None
    }

    /// Whether `chance` is an outcome that `action`'s random step can take from `state`:
    /// what [`GameExt::apply_chance`] accepts. The default: one that [`Game::chances`]
    /// lists with a probability above zero. A game whose random step has too many outcomes
    /// to list (a reroll of thirty dice) answers here instead, for every outcome it can
    /// name, so that tests and tools can still rig one.
    ///
    /// ```
    /// use game_core::{Game, rps::{Hand, Rps, RpsAction, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// // A pick has no random step, so no outcome is possible; a random pick may be any hand.
    /// assert!(!Rps.chance_possible(&state, 0, &RpsAction::Pick { hand: Hand::Rock }, &Hand::Rock));
    /// assert!(Rps.chance_possible(&state, 0, &RpsAction::Random, &Hand::Rock));
    /// ```
    fn chance_possible(
        &self,
        state: &Self::State,
        seat: usize,
        action: &Self::Action,
        chance: &Self::Chance,
    ) -> bool {
        self.chances(state, seat, action)
            .is_some_and(|list| list.iter().any(|(c, p)| c == chance && *p > 0.0))
    }

    /// An outcome of `action`'s random step drawn from `rng` with its true odds, or `None`
    /// when the action takes no random step: how tests, the conformance kit and tools force
    /// a random step they cannot list ([`GameExt::apply_chance`] then plays it). The
    /// default draws from [`Game::chances`]; a game that overrides
    /// [`Game::chance_possible`] for outcomes it cannot list overrides this too, and every
    /// outcome it draws must be possible.
    ///
    /// ```
    /// use game_core::{Game, GameRng, rps::{Hand, Rps, RpsAction, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// let pick = RpsAction::Pick { hand: Hand::Rock };
    /// assert_eq!(Rps.sample_chance(&state, 0, &pick, &mut GameRng::from_seed(1)), None);
    /// ```
    fn sample_chance(
        &self,
        state: &Self::State,
        seat: usize,
        action: &Self::Action,
        rng: &mut GameRng,
    ) -> Option<Self::Chance> {
        let list = self.chances(state, seat, action)?;
        // A draw in millionths: exact enough for any odds a test rigs, and integer.
        let mut at = f64::from(rng.below(1_000_000)) / 1_000_000.0;
        let mut last = None;
        for (chance, p) in list {
            if p <= 0.0 {
                continue;
            }
            if at < p {
                return Some(chance);
            }
            at -= p;
            last = Some(chance);
        }
        // Rounding left the draw past the last outcome: it is the last.
        last
    }

    /// A state that the player at `seat` cannot tell apart from `state`, with everything
    /// hidden from that seat redrawn from `rng`: one world of the seat's information set
    /// (OpenSpiel's `ResampleFromInfostate`). What the seat sees ([`Game::view`] for it,
    /// its legal actions) and everything it has been shown stay as they are; the others'
    /// hands and dice are redrawn consistently from the cards or faces the seat has not
    /// seen, and the draw pile is reshuffled.
    ///
    /// The sample must depend only on what the seat knows and on `rng`: two states the
    /// seat cannot tell apart give the same sample from the same `rng` (the conformance
    /// kit checks it, `testing::assert_no_leaks`). So gather what is unseen in an order
    /// the seat could know (sorted, or as its view lists it), never in the hidden order.
    ///
    /// A game of perfect information implements nothing: the default is the state itself.
    /// Its RNG is of no matter here: a bot never receives it, since
    /// [`GameExt::determinize`], the framework's one way to a bot's state, replaces it
    /// with a fresh one so that no bot foresees a throw or a draw.
    ///
    /// ```
    /// use game_core::{Game, GameRng, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// let world = Rps.resample_from_infostate(&state, 0, &mut GameRng::from_seed(3));
    /// assert_eq!(Rps.legal_actions(&world, 0), Rps.legal_actions(&state, 0));
    /// ```
    fn resample_from_infostate(
        &self,
        state: &Self::State,
        seat: usize,
        rng: &mut GameRng,
    ) -> Self::State {
        let _ = (seat, rng);
        state.clone()
    }

    /// What the finished game in `state` is worth to the player at `seat`, from 0.0 (the
    /// worst place) to 1.0 (a win); a draw or a middle place lies between. `None` while
    /// the game goes on, and from a game that does not say (the default). The search bots
    /// ([`search::Pimc`](crate::search::Pimc), [`search::Ismcts`](crate::search::Ismcts))
    /// play for it and the ladder counts a game whose payoff is 1.0 as a win; the
    /// conformance kit requires it of every finished game.
    ///
    /// ```
    /// use game_core::{Game, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// assert_eq!(Rps.payoff(&state, 0), None); // not over
    /// ```
    fn payoff(&self, state: &Self::State, seat: usize) -> Option<f64> {
        let _ = (state, seat);
        None
    }

    /// How long a disconnected player is waited for before the engine acts for them: the
    /// game's default, which a host may change for one match
    /// ([`Match::set_grace_ms`](crate::Match::set_grace_ms), kept in its table).
    fn grace_ms(&self) -> Millis {
        5_000
    }
}

/// What the framework promises every game: the checked ways to act, the stale-request
/// checks, timeouts, presence and re-seeding, built on the [`Game`] methods. Implemented
/// for every game and sealed, so no game can override or weaken them: a refused action
/// changes nothing, and every applied step moves `turnSeq`, the clock and presence alike.
///
/// ```
/// use game_core::{Game, GameExt, rps::{Hand, Rps, RpsAction, RpsOptions}};
/// let players = ["a".to_string(), "b".to_string()];
/// let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
/// Rps.apply(&mut state, 0, &RpsAction::Pick { hand: Hand::Rock }, 10).unwrap();
/// assert_eq!(Rps.turn_seq(&state), 1);
/// ```
pub trait GameExt: Game + sealed::Sealed {
    /// The seat of `player`, or `NOT_SEATED`.
    fn seat(&self, state: &Self::State, player: &str) -> Result<usize, Self::Error> {
        Ok(state.table().seat(player)?)
    }

    /// The action sequence number (`turnSeq`): it changes with every applied action.
    fn turn_seq(&self, state: &Self::State) -> u64 {
        state.table().turn_seq
    }

    /// When the current decision times out, if it has a time limit: never past
    /// [`MAX_TIME`](crate::MAX_TIME) ([`Table::deadline`](crate::Table::deadline)).
    fn deadline(&self, state: &Self::State) -> Option<Millis> {
        state.table().deadline()
    }

    /// Whether the game has ended.
    fn is_over(&self, state: &Self::State) -> bool {
        self.outcome(state).is_some()
    }

    /// Validates, then applies `action` for `seat` at `now`: the checked way to act, for
    /// bots, tools and tests (a player's id gives its seat through [`GameExt::seat`]). A
    /// rejected action changes nothing. Timeouts already due are not taken first: a host
    /// judging a request asks [`GameExt::play`]; a loop that plays many actions asks
    /// [`Playout`](crate::playout::Playout), which reuses one events buffer and can leave
    /// the events out.
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Hand, Rps, RpsAction, RpsOptions}};
    /// let players = ["a".to_string(), "b".to_string()];
    /// let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// let rock = RpsAction::Pick { hand: Hand::Rock };
    /// let seat = Rps.seat(&state, "b").unwrap();
    /// assert!(!Rps.apply(&mut state, seat, &rock, 10).unwrap().is_empty());
    /// let before = state.clone();
    /// assert!(Rps.apply(&mut state, seat, &rock, 20).is_err()); // picked already
    /// assert!(Rps.apply(&mut state, 2, &rock, 20).is_err()); // no such seat
    /// assert_eq!(state, before);
    /// ```
    fn apply(
        &self,
        state: &mut Self::State,
        seat: usize,
        action: &Self::Action,
        now: Millis,
    ) -> Result<Vec<Self::Event>, Self::Error> {
        let mut events = Vec::new();
        apply_checked(self, state, seat, action, now, &mut events, Events::Kept)?;
        Ok(events)
    }

    /// Applies `action` with its random step forced to `chance` (one that
    /// [`Game::chance_possible`] accepts: listed by [`Game::chances`], or drawn by
    /// [`Game::sample_chance`]), without touching the RNG: checked as [`GameExt::apply`]
    /// checks, and refused with `IMPOSSIBLE_OUTCOME` for an outcome the action cannot
    /// have. For search and analysis tools, and tests that rig the dice.
    fn apply_chance(
        &self,
        state: &mut Self::State,
        seat: usize,
        action: &Self::Action,
        chance: &Self::Chance,
        now: Millis,
    ) -> Result<Vec<Self::Event>, Self::Error> {
        self.validate(state, seat, action)?;
        if !self.chance_possible(state, seat, action, chance) {
            return Err(Rejection::ImpossibleOutcome.into());
        }
        let mut events = Vec::new();
        let kept = Events::Kept;
        apply_valid(
            self,
            state,
            seat,
            action,
            Some(chance),
            now,
            &mut events,
            kept,
        );
        Ok(events)
    }

    /// A player's request as a host receives it at `now`, by seat: first the timeouts due
    /// at `now` (so a move is never accepted after its time ran out), then the request,
    /// checked against `turn_seq` when given (a stale or duplicated request is refused with
    /// `STALE_TURN_SEQ`) and applied as [`GameExt::apply`] applies it, its events written
    /// into `events` (cleared first) so that a host reuses one buffer. After a timeout the
    /// request is usually stale; it is refused then, and the timeouts stand. A request that
    /// no timeout could make acceptable (a seat past the table is `NOT_SEATED`, a
    /// `turn_seq` stale already) is refused before anything is taken: it changes nothing.
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Hand, Rps, RpsAction, RpsOptions}};
    /// let players = ["a".to_string(), "b".to_string()];
    /// let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// let (pick, mut events) = (RpsAction::Pick { hand: Hand::Rock }, Vec::new());
    /// assert!(Rps.play(&mut state, 1, &pick, Some(0), 10, &mut events).result.is_ok());
    /// assert!(!events.is_empty());
    /// assert!(Rps.play(&mut state, 2, &pick, None, 10, &mut events).result.is_err());
    /// // 15 s per round: at 20 s the engine has already picked for a.
    /// let late = Rps.play(&mut state, 0, &pick, Some(1), 20_000, &mut events);
    /// assert_eq!(late.applied.len(), 1);
    /// assert_eq!(late.result.unwrap_err().to_string(), "화면이 최신 상태가 아니에요. 다시 시도해 주세요.");
    /// ```
    fn play(
        &self,
        state: &mut Self::State,
        seat: usize,
        action: &Self::Action,
        turn_seq: Option<u64>,
        now: Millis,
        events: &mut Vec<Self::Event>,
    ) -> Played<Self, ()>
    where
        Self: Sized,
    {
        clear_events(events);
        // What no timeout can change is judged first, so that a request refused for it
        // (someone not seated, a `turnSeq` already stale) changes nothing, not even by the
        // timeouts its `now` would otherwise have set off.
        if let Err(e) = admit(self, state, seat, turn_seq) {
            return Played {
                applied: Vec::new(),
                result: Err(e),
            };
        }
        let applied = self.tick(state, now);
        // Checked again: a timeout just taken moves the sequence number on.
        let result = match admit(self, state, seat, turn_seq) {
            Ok(_) => apply_checked(self, state, seat, action, now, events, Events::Kept),
            Err(e) => Err(e),
        };
        Played { applied, result }
    }

    /// The actions the engine would take at `now`: one for each seat to act whose deadline
    /// has passed, or who is disconnected and whose grace period has run out.
    fn timeouts(&self, state: &Self::State, now: Millis) -> Vec<(usize, Self::Action)> {
        let table = state.table();
        let now = table.time(now);
        if nothing_due(table, now) {
            return Vec::new();
        }
        // Before any seat's time, nothing is due: answered without listing who is to act
        // (the common case: a player acting in time).
        let grace = grace_of(self, table);
        if (0..table.players.len())
            .all(|seat| table.acts_for_at(seat, grace).is_none_or(|t| now < t))
        {
            return Vec::new();
        }
        self.to_act(state)
            .into_iter()
            .filter(|&seat| table.acts_for_at(seat, grace).is_some_and(|t| now >= t))
            .filter_map(|seat| Some((seat, self.timeout_action(state, seat)?)))
            .collect()
    }

    /// The earliest time at which [`GameExt::tick`] would act: the nearest deadline, or for a
    /// disconnected player the end of their grace period if that comes first. `None` when
    /// nothing is timed. A host arms one timer per match at this time. Never past
    /// [`MAX_TIME`](crate::MAX_TIME), where the clock stops: a tick at this time acts,
    /// whatever the clock.
    ///
    /// ```
    /// use game_core::{Game, GameExt, rps::{Rps, RpsOptions}};
    /// let players = ["a".to_string(), "b".to_string()];
    /// let mut state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
    /// assert_eq!(Rps.next_tick_at(&state), Some(15_000)); // the round's deadline
    /// Rps.set_connected(&mut state, "b", false, 1_000).unwrap();
    /// assert_eq!(Rps.next_tick_at(&state), Some(6_000)); // b's grace runs out first
    /// ```
    fn next_tick_at(&self, state: &Self::State) -> Option<Millis> {
        let table = state.table();
        let grace = grace_of(self, table);
        self.to_act(state)
            .into_iter()
            .filter_map(|seat| table.acts_for_at(seat, grace).map(|t| (seat, t)))
            .filter(|&(seat, _)| self.times_out(state, seat))
            .map(|(_, t)| t)
            .min()
    }

    /// Moves the clock to `now`: takes every due timeout action (marking the players timed
    /// out, the third in a row marks them away) and returns what was done. A tick that
    /// takes nothing changes nothing, not even the clock.
    // Inline: asked before every request, and nearly always answered by its first test.
    #[inline]
    fn tick(&self, state: &mut Self::State, now: Millis) -> Vec<Applied<Self>>
    where
        Self: Sized,
    {
        let table = state.table();
        let now = table.time(now);
        // Nearly every request: nothing due, known from the table, no list made.
        if nothing_due(table, now) {
            return Vec::new();
        }
        take_timeouts(self, state, now)
    }

    /// Marks a player connected or disconnected at `now`. A disconnected player who must
    /// act is acted for after the match's grace ([`Game::grace_ms`], unless the host set
    /// another: [`Table::grace_ms`]). Returns the `presenceChanged` event, or
    /// nothing when the player's presence already was that (and then nothing changed).
    fn set_connected(
        &self,
        state: &mut Self::State,
        player: &str,
        connected: bool,
        now: Millis,
    ) -> Result<Vec<Self::Event>, Self::Error> {
        let seat = self.seat(state, player)?;
        let table = state.table_mut(crate::TableKey::new());
        let now = table.time(now);
        let presence = &mut table.presence[seat];
        if presence.connected() == connected {
            return Ok(Vec::new());
        }
        presence.disconnected_at = if connected { None } else { Some(now) };
        let away = presence.away;
        table.clock = now;
        Ok(vec![
            PresenceChanged {
                player: player.to_owned(),
                connected,
                away,
            }
            .into(),
        ])
    }

    /// A copy of the state whose RNG is re-seeded with `seed`: what a bot simulates on, so
    /// that it cannot read the real future from the stored RNG.
    fn fork(&self, state: &Self::State, seed: u64) -> Self::State {
        let mut copy = state.clone();
        copy.table_mut(crate::TableKey::new()).rng = crate::GameRng::from_seed(seed);
        copy
    }

    /// A world of `seat`'s information set, drawn with `rng`: what every bot the framework
    /// runs is given instead of the true state ([`DynGame::bot`](crate::DynGame::bot) on
    /// every host, the search bots' samples). It is
    /// [`Game::resample_from_infostate`] (everything hidden from the seat redrawn), with
    /// the RNG replaced by a fresh one seeded from `rng`: the match's own RNG, which
    /// foretells every throw and draw, never reaches a bot, whatever the game implements.
    ///
    /// ```
    /// use game_core::{Game, GameExt, GameRng, Viewer, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// let world = Rps.determinize(&state, 0, &mut GameRng::from_seed(9));
    /// let view = |s| serde_json::to_value(Rps.view(s, Viewer::Player("a"))).unwrap();
    /// // The seat sees the same game; only the RNG (which no view shows) is new.
    /// assert_eq!(view(&world), view(&state));
    /// assert_ne!(serde_json::to_value(&world).unwrap(), serde_json::to_value(&state).unwrap());
    /// ```
    fn determinize(&self, state: &Self::State, seat: usize, rng: &mut GameRng) -> Self::State {
        let mut world = self.resample_from_infostate(state, seat, rng);
        let seed = u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32());
        world.table_mut(crate::TableKey::new()).rng = GameRng::from_seed(seed);
        world
    }
}

impl<G: Game + ?Sized> GameExt for G {}

/// Keeps [`GameExt`] implemented only by its blanket implementation.
mod sealed {
    /// Implemented for every game, and for nothing else.
    pub trait Sealed {}
    impl<G: super::Game + ?Sized> Sealed for G {}
}

/// The end of every [`Game::restore`]: a parse failure becomes `CORRUPT_STATE`, and a
/// parsed state is returned only if its table and [`Game::check_state`] accept it.
///
/// ```
/// use game_core::{Game, GameExt, rps::Rps};
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = Rps.setup(&Default::default(), &players, 1, 0).unwrap();
/// let json = serde_json::to_string(&state).unwrap();
/// assert_eq!(Rps.restore(&json).unwrap(), state);
/// assert!(Rps.restore(&json.replace("\"scores\":[0,0]", "\"scores\":[9,9]")).is_err());
/// ```
pub fn restored<G: Game>(
    game: &G,
    parsed: serde_json::Result<G::State>,
) -> Result<G::State, G::Error> {
    let state = parsed.map_err(|e| Rejection::CorruptState {
        detail: crate::error::parse_detail(&e),
    })?;
    state.table().check()?;
    game.check_state(&state)?;
    Ok(state)
}

/// The grace of the match whose table this is: the host's, or the game's default.
#[inline]
pub(crate) fn grace_of<G: Game + ?Sized>(game: &G, table: &Table) -> Millis {
    table.grace_ms.unwrap_or_else(|| game.grace_ms())
}

/// The checks of a request that no timeout can change, made before anything is taken (see
/// [`GameExt::play`]): the player's seat, and the request's `turnSeq` when it carries one.
/// Returns the seat.
pub(crate) fn admit<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    seat: usize,
    turn_seq: Option<u64>,
) -> Result<usize, G::Error> {
    if seat >= state.table().players.len() {
        return Err(Rejection::NotSeated {
            player: format!("seat {seat}"),
        }
        .into());
    }
    match turn_seq {
        Some(got) if got != game.turn_seq(state) => Err(Rejection::StaleTurnSeq {
            got,
            expected: game.turn_seq(state),
        }
        .into()),
        _ => Ok(seat),
    }
}

/// Empties a reused events buffer before every action. `Vec::clear` drops the events
/// through an out-of-line slice drop whose call and set-up cost more than the one or two
/// events a step leaves; `retain` drops them in line, in the same order, and allocates
/// nothing.
#[inline]
pub(crate) fn clear_events<E>(events: &mut Vec<E>) {
    if !events.is_empty() {
        events.retain(|_| false);
    }
}

/// [`GameExt::tick`] past its first test: the timeouts due at `now` (a time from
/// [`Table::time`]), taken in turn. Out of line: rarely reached.
#[inline(never)]
fn take_timeouts<G: Game>(game: &G, state: &mut G::State, now: Millis) -> Vec<Applied<G>> {
    let mut done = Vec::new();
    for (seat, action) in game.timeouts(state, now) {
        // An earlier timeout in this tick may have changed who is to act.
        if game.validate(state, seat, &action).is_err() {
            continue;
        }
        let mut events = Vec::new();
        game.step_into(state, seat, &action, None, now, &mut events);
        settle::<G>(state, seat, now, Actor::Engine, &mut events);
        done.push(Applied {
            player: state.table().players[seat].clone(),
            action,
            events,
            auto: true,
        });
    }
    done
}

/// Whether no timeout can be due at `now` (a time from [`Table::time`]) by a look at the
/// table alone: everyone connected and the deadline not passed, as in nearly every
/// request. Each seat's time is then the deadline. `false` says nothing: the seats must be
/// asked ([`GameExt::timeouts`]).
#[inline]
pub(crate) fn nothing_due(table: &Table, now: Millis) -> bool {
    table.presence.iter().all(|p| p.disconnected_at.is_none())
        && table.deadline().is_none_or(|deadline| now < deadline)
}

/// Whether the caller of [`apply_checked`] reads the step's events.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Events {
    /// Written into the buffer ([`Game::step_into`]).
    Kept,
    /// Possibly left out ([`Game::step_quiet`]).
    Dropped,
}

/// What every checked action does ([`GameExt::apply`], [`GameExt::play`], [`apply_quiet`]):
/// clear the buffer, check the action, judge it at the table's time, step and settle.
#[inline(always)]
fn apply_checked<G: Game + ?Sized>(
    game: &G,
    state: &mut G::State,
    seat: usize,
    action: &G::Action,
    now: Millis,
    events: &mut Vec<G::Event>,
    kept: Events,
) -> Result<(), G::Error> {
    clear_events(events);
    game.validate(state, seat, action)?;
    apply_valid(game, state, seat, action, None, now, events, kept);
    Ok(())
}

/// [`GameExt::apply`] for a caller inside the framework that does not read the events (a
/// quiet play-out, the search, a recorded match's picked action): checked, applied and
/// settled the same way, so the state comes out exactly the same, but the game may leave
/// the events out of `scratch` ([`Game::step_quiet`]; cleared first, what it holds
/// afterwards is unspecified). Outside the crate the same path is
/// [`Playout::quiet`](crate::playout::Playout::quiet). A rejected action changes nothing.
#[inline(always)]
pub(crate) fn apply_quiet<G: Game + ?Sized>(
    game: &G,
    state: &mut G::State,
    seat: usize,
    action: &G::Action,
    now: Millis,
    scratch: &mut Vec<G::Event>,
) -> Result<(), G::Error> {
    apply_checked(game, state, seat, action, now, scratch, Events::Dropped)
}

/// [`GameExt::apply`] into a reused buffer (cleared first), for the framework's loops: a
/// play-out with events, a replayed record.
#[inline(always)]
pub(crate) fn apply_into<G: Game + ?Sized>(
    game: &G,
    state: &mut G::State,
    seat: usize,
    action: &G::Action,
    now: Millis,
    events: &mut Vec<G::Event>,
) -> Result<(), G::Error> {
    apply_checked(game, state, seat, action, now, events, Events::Kept)
}

/// Every applied step of a player after its check, whoever checked it: judged at the
/// table's time, stepped (its random step forced to `chance` if given) and settled. The
/// action is known to be valid: checked by the caller, or one the game itself picked from
/// its legal actions for this very state ([`Game::legal_action`]), which the play-out loop
/// applies without asking [`Game::validate`] again (debug builds still ask). The events
/// are appended: the caller clears the buffer first.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // The step's own arguments, and how to step.
pub(crate) fn apply_valid<G: Game + ?Sized>(
    game: &G,
    state: &mut G::State,
    seat: usize,
    action: &G::Action,
    chance: Option<&G::Chance>,
    now: Millis,
    events: &mut Vec<G::Event>,
    kept: Events,
) {
    debug_assert!(
        game.validate(state, seat, action).is_ok(),
        "a valid action is refused: {action:?}"
    );
    let now = state.table().time(now);
    match kept {
        Events::Kept => game.step_into(state, seat, action, chance, now, events),
        Events::Dropped => game.step_quiet(state, seat, action, chance, now, events),
    }
    settle::<G>(state, seat, now, Actor::Player, events);
}

/// [`GameExt::apply_chance`] for the search, which reads no events: checked and applied the
/// same way, the state the same, the events possibly left out of `scratch` (cleared
/// first). `chance` is one the search took from [`Game::chances`] with a probability above
/// zero, so the list is not asked for again.
pub(crate) fn apply_chance_quiet<G: Game + ?Sized>(
    game: &G,
    state: &mut G::State,
    seat: usize,
    action: &G::Action,
    chance: &G::Chance,
    now: Millis,
    scratch: &mut Vec<G::Event>,
) -> Result<(), G::Error> {
    clear_events(scratch);
    game.validate(state, seat, action)?;
    let kept = Events::Dropped;
    apply_valid(game, state, seat, action, Some(chance), now, scratch, kept);
    Ok(())
}

/// Who took a step: the player, or the engine for them (a timeout).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Actor {
    Player,
    Engine,
}

/// The bookkeeping after every applied step, whoever took it: the sequence number, the
/// clock, and the seat's presence (an own action brings a player back, a timeout counts
/// towards away), with a `presenceChanged` event when away flips. `now` is the time the
/// step was judged at, from [`Table::time`] before the step.
///
/// Inlined: it runs after every action, and is a handful of instructions unless away
/// flips (rare; that part is out of line).
#[inline]
fn settle<G: Game + ?Sized>(
    state: &mut G::State,
    seat: usize,
    now: Millis,
    actor: Actor,
    events: &mut Vec<G::Event>,
) {
    let table = state.table_mut(crate::TableKey::new());
    // Wrapping: a tampered state at u64::MAX must not panic; real games never get near.
    table.turn_seq = table.turn_seq.wrapping_add(1);
    // `now` comes from `Table::time`, which is never earlier than the clock: no `max`.
    table.clock = now;
    let Some(presence) = table.presence.get_mut(seat) else {
        return;
    };
    let was_away = presence.away;
    match actor {
        Actor::Player => presence.acted(),
        Actor::Engine => presence.timed_out(),
    }
    if presence.away != was_away {
        away_changed(table, seat, events);
    }
}

/// The `presenceChanged` event of [`settle`] when the seat's away flag flipped: out of
/// line, so that the common case stays small.
#[cold]
#[inline(never)]
fn away_changed<E: From<PresenceChanged>>(table: &Table, seat: usize, events: &mut Vec<E>) {
    let presence = &table.presence[seat];
    let changed = PresenceChanged {
        player: table.players[seat].clone(),
        connected: presence.connected(),
        away: presence.away,
    };
    events.push(changed.into());
}
