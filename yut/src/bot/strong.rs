//! The strong bot: game-core's expectimax search with the Yut evaluation.

use game_core::search::{Expectimax, Limits, Model, Position, SearchStats};
use game_core::{Bot, Game};

use super::eval::{Evaluator, WIN, position_key};
use crate::{LegalMove, Phase, Rules, SideId, ThrowChance, Yut, YutAction, YutOptions, YutState};

/// Weights and limits of [`StrongBot`]'s search. [`StrongParams::default`] is the tuned
/// set the balance report measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrongParams {
    /// Throws (chance nodes) searched in a row within the bot's own turn after the move it
    /// decides: the bonus throws earned by captures.
    pub own_throws: u8,
    /// Throws searched in a row within the opponent's following turn (its first throw,
    /// then 윷/모 rethrows and capture bonuses).
    pub opponent_throws: u8,
    /// Positions the search may create for one decision; past it, throws are no longer
    /// expanded and positions are evaluated as they stand. Keeps the worst case (long
    /// pending lists) fast and the search deterministic.
    pub budget: u32,
    /// Weight of a capture threat by the side that moves next (it can act on it at once).
    pub threat_next: f64,
    /// Weight of a capture threat by a side that moves later (the victim can react first).
    pub threat_later: f64,
    /// What each extra piece of a stack adds to the stack's remaining distance, as a share
    /// of it: 0 counts a stack once (it moves as one), 1 counts every piece.
    pub stack_extra: f64,
    /// Steps one owed throw is worth (the mean forward move per throw is about 2.5 with
    /// realistic sticks, a little more with fair ones).
    pub throw_value: f64,
}

impl Default for StrongParams {
    fn default() -> Self {
        Self {
            own_throws: 2,
            opponent_throws: 1,
            budget: 1_000,
            threat_next: 0.9,
            threat_later: 0.8,
            throw_value: 2.5,
            stack_extra: 0.0,
        }
    }
}

impl StrongParams {
    /// The search limits of these parameters, as game-core's search takes them.
    ///
    /// ```
    /// let limits = yut::StrongParams::default().limits();
    /// assert_eq!((limits.own_chances, limits.reply_chances, limits.budget), (2, 1, 1_000));
    /// ```
    pub fn limits(&self) -> Limits {
        Limits {
            own_chances: self.own_throws,
            reply_chances: self.opponent_throws,
            budget: self.budget,
        }
    }
}

/// A bot that plays to win: expectimax over the exact throw probabilities.
///
/// - **Throw phase**: throws (the only legal action).
/// - **Rule phase** (rule extensions): the rules' own timeout action.
/// - **Move phase**: every distinct legal move (a result and a stack) is tried on a
///   [`GameExt::fork`](game_core::GameExt::fork) of the state. The rest of the bot's turn is searched: further moves
///   maximise, and a bonus throw after a capture is a chance node over [`Game::chances`]
///   (each outcome applied with [`GameExt::apply_chance`](game_core::GameExt::apply_chance), weighted by its exact
///   probability, `yut/RULES.md`, "Throws"). Then the next side's turn is searched the
///   same way, its throws as chance nodes and its moves by the timeout policy (a fair
///   model of any opponent: captures first), and the position where the turn comes back
///   is evaluated. [`StrongParams`] bounds how many throws in a row are expanded (later
///   ones are valued at [`StrongParams::throw_value`] steps) and how many positions one
///   decision may create. Positions where the next side's turn begins are evaluated
///   once, however many move orders reach them.
///
/// The search is game-core's [`Expectimax`], with [`StrongModel`] as its knowledge of
/// Yut. The evaluation ([`StrongBot::evaluate`]) is a race estimate with risk: each
/// side's cost is the expected distance to finish of each of its stacks (a stack moves as
/// one, so it counts once) plus that of each waiting piece, where the expected distance
/// of a node is computed once per option set by value iteration over the exact throw
/// table (shortcuts, overshoot past corners, backdo and the finish rule included),
/// results in hand and throws owed counting for the side to act. The score is the leading
/// opponent's cost minus the bot's own, plus, for every stack that some side could hit
/// with one throw, the probability of that throw times what the capture would swing (the
/// victim's lost progress and the capturer's bonus throw), weighted more when the
/// capturer moves next. A won game scores +1000, a lost one −1000.
///
/// Over 2000 seeded standard games with the seats swapped it wins about 68% against
/// [`PolicyBot`](crate::PolicyBot) (the balance report measures it), at about a
/// millisecond per searched decision in a release build.
///
/// The search never touches the stored RNG: the state is taken by shared reference and
/// forked (re-seeded from the bot's own RNG) before anything is applied, and chance is
/// enumerated, not drawn. With the same seed, the bot makes the same choices.
///
/// ```
/// use game_core::{Bot, Game, GameExt};
/// use yut::{StrongBot, Yut, YutOptions};
///
/// let game = Yut::standard();
/// let players = vec!["a".to_string(), "b".to_string()];
/// let mut state = game.setup(&YutOptions::default(), &players, 7, 0).unwrap();
/// let mut bot = StrongBot::new(1);
/// for _ in 0..40 {
///     let Some(&seat) = game.to_act(&state).first() else { break };
///     let before = state.clone();
///     let action = bot.choose(&game, &state, seat).unwrap();
///     assert_eq!(state, before); // the bot only looked
///     game.apply(&mut state, seat, &action, 0).unwrap();
/// }
/// ```
#[derive(Clone, Debug)]
pub struct StrongBot {
    search: Expectimax<StrongModel>,
}

impl StrongBot {
    /// A strong bot with the default parameters and its own seed (used only to re-seed
    /// the copies it searches on, for rules whose moves draw from the RNG).
    ///
    /// ```
    /// assert_eq!(yut::StrongBot::new(1).stats().decisions, 0);
    /// ```
    pub fn new(seed: u64) -> Self {
        Self::with_params(seed, StrongParams::default())
    }

    /// A strong bot with its own parameters.
    ///
    /// ```
    /// use yut::{StrongBot, StrongParams};
    /// let params = StrongParams { budget: 200, ..StrongParams::default() };
    /// assert_eq!(StrongBot::with_params(1, params).stats().searched, 0);
    /// ```
    pub fn with_params(seed: u64, params: StrongParams) -> Self {
        Self {
            search: Expectimax::new(seed, params.limits(), StrongModel::new(params)),
        }
    }

    /// What the bot did so far.
    ///
    /// ```
    /// use game_core::{Bot, Game, GameExt};
    /// let game = yut::Yut::standard();
    /// let players = vec!["a".to_string(), "b".to_string()];
    /// let state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// let mut bot = yut::StrongBot::new(1);
    /// bot.choose(&game, &state, game.to_act(&state)[0]); // a throw: no search
    /// assert_eq!((bot.stats().decisions, bot.stats().searched), (1, 0));
    /// ```
    pub fn stats(&self) -> SearchStats {
        self.search.stats()
    }

    /// The evaluation of `state` for side `me` (higher is better), as described on
    /// [`StrongBot`]; `params` gives the threat weights.
    ///
    /// ```
    /// use game_core::{Game, GameExt};
    /// use yut::{StrongBot, StrongParams};
    /// let game = yut::Yut::standard();
    /// let players = vec!["a".to_string(), "b".to_string()];
    /// let state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
    /// // At the start both sides are level, up to who moves first.
    /// let v = StrongBot::evaluate(&game, &state, 0, &StrongParams::default());
    /// assert!(v.abs() < 5.0);
    /// ```
    pub fn evaluate<R: Rules>(
        game: &Yut<R>,
        state: &YutState<R>,
        me: SideId,
        params: &StrongParams,
    ) -> f64 {
        let dist = ThrowChance::distribution(&state.board.options);
        Evaluator::new(&state.board.options, &dist).evaluate(game, state, me, params)
    }
}

impl<R: Rules> Bot<Yut<R>> for StrongBot {
    fn choose(
        &mut self,
        game: &Yut<R>,
        state: &YutState<R>,
        seat: usize,
    ) -> Option<YutAction<R::Action>> {
        self.search.choose(game, state, seat)
    }
}

/// What the strong bot knows of Yut, as game-core's search asks it: a turn belongs to a
/// side, a choice is among the distinct legal moves, the opponent plays the timeout
/// policy, and positions are valued by the race-and-risk evaluation of [`StrongBot`].
///
/// ```
/// use game_core::search::{Expectimax, Model};
/// use game_core::{Bot, Game, GameExt};
/// use yut::{StrongModel, StrongParams};
/// let game = yut::Yut::standard();
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = game.setup(&yut::YutOptions::default(), &players, 1, 0).unwrap();
/// let model = StrongModel::new(StrongParams::default());
/// assert_eq!(Model::<yut::Yut>::mover(&model, &game, &state), Some(state.board().current_side()));
/// let mut bot = Expectimax::new(3, StrongParams::default().limits(), model);
/// assert!(bot.choose(&game, &state, game.to_act(&state)[0]).is_some());
/// ```
#[derive(Clone, Debug)]
pub struct StrongModel {
    params: StrongParams,
    /// The evaluation tables of the last options seen (they depend only on the options).
    evaluator: Option<(YutOptions, Evaluator)>,
}

impl StrongModel {
    /// The model with the evaluation weights of `params` (its limits are the search's).
    ///
    /// ```
    /// let model = yut::StrongModel::new(yut::StrongParams::default());
    /// assert_eq!(model.params(), yut::StrongParams::default());
    /// ```
    pub fn new(params: StrongParams) -> Self {
        Self {
            params,
            evaluator: None,
        }
    }

    /// Its parameters.
    ///
    /// ```
    /// let params = yut::StrongParams { threat_next: 0.5, ..Default::default() };
    /// assert_eq!(yut::StrongModel::new(params).params().threat_next, 0.5);
    /// ```
    pub fn params(&self) -> StrongParams {
        self.params
    }
}

impl<R: Rules> Model<Yut<R>> for StrongModel {
    type Mover = SideId;
    type Move = LegalMove;
    type Key = Vec<u8>;

    /// The recent events go: the evaluation never reads them, nor does play, and the
    /// search copies its positions at every node (the log was most of a copy).
    fn trim_root(&self, _game: &Yut<R>, root: &mut YutState<R>) {
        root.log.clear();
    }

    fn prepare(&mut self, _game: &Yut<R>, state: &YutState<R>) {
        let options = &state.board.options;
        if self
            .evaluator
            .as_ref()
            .is_none_or(|(seen, _)| seen != options)
        {
            let dist = ThrowChance::distribution(options);
            self.evaluator = Some((options.clone(), Evaluator::new(options, &dist)));
        }
    }

    fn mover(&self, _game: &Yut<R>, state: &YutState<R>) -> Option<SideId> {
        let board = &state.board;
        (board.phase != Phase::Finished).then(|| board.current_side())
    }

    fn position(
        &self,
        game: &Yut<R>,
        state: &YutState<R>,
    ) -> Position<YutAction<R::Action>, LegalMove> {
        let board = &state.board;
        let seat = board.current_seat();
        match board.phase {
            Phase::Throw => Position::Chance {
                seat,
                action: YutAction::Throw,
            },
            Phase::Move => Position::Choice {
                seat,
                moves: distinct(game.legal_moves(state)),
            },
            // Rule extensions: their own timeout action, on both sides.
            Phase::Rule => Position::Forced {
                seat,
                action: game.timeout_action(state, seat),
            },
            Phase::Finished => Position::Over,
        }
    }

    fn action(&self, m: &LegalMove) -> YutAction<R::Action> {
        YutAction::Move {
            throw_index: m.throw_index,
            from: m.from,
        }
    }

    fn policy(
        &self,
        _game: &Yut<R>,
        _state: &YutState<R>,
        moves: &[LegalMove],
    ) -> Option<LegalMove> {
        Yut::<R>::policy_pick(moves)
    }

    fn evaluate(&self, game: &Yut<R>, state: &YutState<R>, me: SideId) -> f64 {
        match &self.evaluator {
            Some((options, eval)) if *options == state.board.options => {
                eval.evaluate(game, state, me, &self.params)
            }
            // Not prepared for these options (a model used outside a search).
            _ => StrongBot::evaluate(game, state, me, &self.params),
        }
    }

    fn floor(&self) -> f64 {
        -WIN
    }

    fn key(&self, state: &YutState<R>) -> Vec<u8> {
        position_key(state)
    }
}

/// The legal moves with one move per (result, stack): two equal results on the same stack
/// lead to the same position, so only the first (lowest `throwIndex`) is kept.
fn distinct(moves: Vec<LegalMove>) -> Vec<LegalMove> {
    let mut out: Vec<LegalMove> = Vec::with_capacity(moves.len());
    for m in moves {
        if !out.iter().any(|o| o.result == m.result && o.from == m.from) {
            out.push(m);
        }
    }
    out
}
