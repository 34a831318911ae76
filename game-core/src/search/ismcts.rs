//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS: Cowling, Powley
//! and Whitehouse, 2012): one tree over the searching seat's information sets, each
//! iteration played in a fresh world of what that seat does not know.

use crate::game::apply_quiet;
use crate::{Bot, Game, GameExt, GameRng};

use super::rollout::{play_out, score, seed};

/// A search bot for games of hidden information: information-set MCTS from its seat's
/// point of view.
///
/// Each of its `iterations` draws a world of the seat's information set
/// ([`GameExt::determinize`]) and walks one shared tree in it: at a node, the actions
/// legal in this world that the tree has not tried yet are tried first (one, drawn at
/// random, is added), else the child with the best upper confidence bound among those
/// legal here is followed, counting how often each was available (the bound's
/// exploration term uses that count, not the parent's visits). The new position is
/// played out at random to the end and every node on the path is credited with
/// [`Game::payoff`] for the seat that acted into it. The action played is the root's most
/// visited (the first listed, among equals).
///
/// Like [`Pimc`](super::Pimc), it reads nothing its seat cannot see, and a game without
/// [`Game::resample_from_infostate`] is searched as it stands. [`Ismcts::sees_everything`]
/// makes the same search on the true state: the cheating upper bound that tools compare a
/// fair bot with, which no seat of a match may use.
///
/// ```
/// use game_core::search::Ismcts;
/// use game_core::{Bot, Game, GameExt, rps::{Rps, RpsOptions}};
/// let players = vec!["a".to_string(), "b".to_string()];
/// let state = Rps.setup(&RpsOptions::default(), &players, 1, 0).unwrap();
/// let mut bot = Ismcts::new(7, 200);
/// let action = bot.choose(&Rps, &state, 0).unwrap();
/// assert!(Rps.legal_actions(&state, 0).contains(&action));
/// ```
#[derive(Clone, Debug)]
pub struct Ismcts<R = Uniform> {
    rng: GameRng,
    iterations: u32,
    exploration: f64,
    sees_everything: bool,
    rollout: R,
}

/// The play-outs of [`Ismcts`] by default: every action drawn uniformly among the legal
/// ones ([`Game::random_legal_action`]), from its own RNG (seeded with the search's).
/// Cheap, and blind: a game whose random play is far from real play gets a stronger
/// search from its own policy ([`Ismcts::with_rollout`]).
#[derive(Clone, Debug)]
pub struct Uniform(GameRng);

/// One node: the information set reached by `actor` taking `action` from its parent.
struct Node<A> {
    actor: usize,
    action: Option<A>,
    children: Vec<usize>,
    visits: u32,
    /// How often this node's action was legal when its parent was visited.
    available: u32,
    /// The payoffs for `actor` summed over the visits.
    reward: f64,
}

impl<A> Node<A> {
    fn new(actor: usize, action: Option<A>) -> Self {
        Self {
            actor,
            action,
            children: Vec::new(),
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }
}

impl Ismcts<Uniform> {
    /// Iterations per decision by default.
    pub const ITERATIONS: u32 = 1_000;
    /// The weight of the exploration term by default (payoffs lie in 0..=1).
    pub const EXPLORATION: f64 = 0.7;

    /// A bot with its own `seed`, running `iterations` iterations (at least 1) per
    /// decision.
    pub fn new(seed: u64, iterations: u32) -> Self {
        Self {
            rng: GameRng::from_seed(seed),
            iterations: iterations.max(1),
            exploration: Self::EXPLORATION,
            sees_everything: false,
            rollout: Uniform(GameRng::from_seed(seed ^ 0x0b5e_55ed)),
        }
    }

    /// The default budget ([`Ismcts::ITERATIONS`]): how every host's `ismcts` bot plays.
    ///
    /// ```
    /// let _bot = game_core::search::Ismcts::with_seed(3);
    /// ```
    pub fn with_seed(seed: u64) -> Self {
        Self::new(seed, Self::ITERATIONS)
    }
}

impl<R> Ismcts<R> {
    /// The same search with its play-outs chosen by `bot` instead of at random: usually
    /// the game's own policy, which makes each play-out look like real play (and costs
    /// what the bot costs, every action of every play-out). The bot is handed the
    /// search's worlds, whose hidden parts are already drawn from what the searching seat
    /// knows, so it learns nothing the seat does not know; it must return a legal action
    /// for the seat asked, or `None` to end the play-out there.
    ///
    /// ```
    /// use game_core::search::Ismcts;
    /// use game_core::{Bot, Game, GameExt, TimeoutBot, rps::{Rps, RpsOptions}};
    /// let state = Rps.setup(&RpsOptions::default(), &["a".into(), "b".into()], 1, 0).unwrap();
    /// let mut bot = Ismcts::new(7, 50).with_rollout(TimeoutBot);
    /// assert!(bot.choose(&Rps, &state, 0).is_some());
    /// ```
    pub fn with_rollout<B>(self, bot: B) -> Ismcts<B> {
        Ismcts {
            rng: self.rng,
            iterations: self.iterations,
            exploration: self.exploration,
            sees_everything: self.sees_everything,
            rollout: bot,
        }
    }

    /// The same bot with another weight on exploration (a finite value of 0 or more).
    ///
    /// ```
    /// let _bot = game_core::search::Ismcts::new(1, 100).with_exploration(1.0);
    /// ```
    pub fn with_exploration(mut self, weight: f64) -> Self {
        if weight.is_finite() && weight >= 0.0 {
            self.exploration = weight;
        }
        self
    }

    /// The same search run on the state it is handed, hidden information and all, instead
    /// of on worlds of its seat's information set: the cheating upper bound a bot ladder
    /// reports beside the fair bots. Never for a seat of a match (the hosts' `ismcts` is
    /// the fair one; behind [`Fair`](crate::Fair), as the hosts run every bot, it sees
    /// only a world again).
    ///
    /// ```
    /// let _bound = game_core::search::Ismcts::new(1, 100).sees_everything();
    /// ```
    pub fn sees_everything(mut self) -> Self {
        self.sees_everything = true;
        self
    }
}

impl<G: Game> Bot<G> for Uniform {
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action> {
        game.random_legal_action(state, seat, &mut self.0)
    }
}

impl<G: Game, R: Bot<G>> Bot<G> for Ismcts<R> {
    fn choose(&mut self, game: &G, state: &G::State, seat: usize) -> Option<G::Action> {
        if !game.may_act(state, seat) {
            return None;
        }
        let moves = game.legal_actions(state, seat);
        if moves.len() <= 1 {
            return moves.into_iter().next();
        }
        let now = crate::GameState::table(state).clock();
        let mut tree: Vec<Node<G::Action>> = vec![Node::new(seat, None)];
        let mut scratch = Vec::new();
        let mut legal = Vec::new();
        let mut path = Vec::new();
        for _ in 0..self.iterations {
            let mut world = if self.sees_everything {
                game.fork(state, seed(&mut self.rng))
            } else {
                game.determinize(state, seat, &mut self.rng)
            };
            path.clear();
            path.push(0);
            let mut node = 0;
            loop {
                // The root is the seat's own decision (it may act without being awaited:
                // a call); below it, whoever the world awaits.
                let actor = if node == 0 {
                    seat
                } else {
                    match game.first_to_act(&world) {
                        Some(actor) => actor,
                        None => break,
                    }
                };
                game.legal_actions_into(&world, actor, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let tried = |tree: &[Node<G::Action>], a: &G::Action| {
                    tree[node]
                        .children
                        .iter()
                        .any(|&c| tree[c].actor == actor && tree[c].action.as_ref() == Some(a))
                };
                let untried = legal.iter().filter(|a| !tried(&tree, a)).count();
                let next = if untried > 0 {
                    let pick = self.rng.below(u32::try_from(untried).unwrap_or(u32::MAX));
                    let action = legal
                        .iter()
                        .filter(|a| !tried(&tree, a))
                        .nth(pick as usize)
                        .cloned();
                    self.credit_available(&mut tree, node, actor, &legal);
                    let child = tree.len();
                    tree.push(Node::new(actor, action));
                    tree[child].available = 1;
                    tree[node].children.push(child);
                    Some((child, true))
                } else {
                    self.credit_available(&mut tree, node, actor, &legal);
                    self.select(&tree, node, actor, &legal).map(|c| (c, false))
                };
                let Some((child, expanded)) = next else {
                    break;
                };
                let Some(action) = tree[child].action.clone() else {
                    break;
                };
                if apply_quiet(game, &mut world, actor, &action, now, &mut scratch).is_err() {
                    break;
                }
                path.push(child);
                node = child;
                if expanded {
                    break;
                }
            }
            let rollout = &mut self.rollout;
            play_out(
                game,
                &mut world,
                |w: &G::State, s| rollout.choose(game, w, s),
                &mut scratch,
            );
            for &n in &path {
                let worth = score(game, &world, tree[n].actor);
                let visited = &mut tree[n];
                visited.visits += 1;
                visited.reward += worth;
            }
        }
        // The most visited of the root's actions; the first listed among equals.
        let child = |a: &G::Action| {
            tree[0]
                .children
                .iter()
                .find(|&&c| tree[c].action.as_ref() == Some(a))
                .map(|&c| &tree[c])
        };
        let visits = |a: &G::Action| child(a).map_or(0, |c| c.visits);
        let best = moves.iter().enumerate().fold(0, |best, (i, a)| {
            if visits(a) > visits(&moves[best]) {
                i
            } else {
                best
            }
        });
        moves.into_iter().nth(best)
    }
}

impl<R> Ismcts<R> {
    /// Counts one more availability for each child of `node` whose action `actor` may
    /// take in this world.
    fn credit_available<A: PartialEq>(
        &self,
        tree: &mut [Node<A>],
        node: usize,
        actor: usize,
        legal: &[A],
    ) {
        for i in 0..tree[node].children.len() {
            let c = tree[node].children[i];
            let child = &tree[c];
            if child.actor == actor && child.action.as_ref().is_some_and(|a| legal.contains(a)) {
                tree[c].available += 1;
            }
        }
    }

    /// The child of `node` legal in this world with the best upper confidence bound.
    fn select<A: PartialEq>(
        &self,
        tree: &[Node<A>],
        node: usize,
        actor: usize,
        legal: &[A],
    ) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for &c in &tree[node].children {
            let child = &tree[c];
            if child.actor != actor || !child.action.as_ref().is_some_and(|a| legal.contains(a)) {
                continue;
            }
            let n = f64::from(child.visits.max(1));
            let bound = child.reward / n
                + self.exploration * (f64::from(child.available.max(1)).ln() / n).sqrt();
            if best.is_none_or(|(b, _)| bound > b) {
                best = Some((bound, c));
            }
        }
        best.map(|(_, c)| c)
    }
}
