//! Shared helpers for the engine benchmarks (`benches/engine.rs`) and the allocation and
//! size checks (`tests/`): seeded players, seeded busy mid-game positions, and whole
//! uniform-random games of the standard Yut Nori rules. (The fuzz harnesses are the
//! workspace crate `fuzz`, beside this one.)
//!
//! Everything here is deterministic: the same seed gives the same position or game in
//! every run, so benchmark numbers compare across runs.
//!
//! ```
//! use game_core::{Game, GameExt};
//! let state = benches::mid_game_state(1);
//! assert_eq!(state.board().phase(), yut::Phase::Move);
//! assert!(benches::board_stacks(&state) >= benches::BUSY_STACKS);
//! assert!(benches::random_game(1) > 0);
//! assert!(!benches::GAME.is_over(&state));
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::ops::ControlFlow;

use game_core::playout::{Ended, Playout};
use game_core::{Bot, Game, Match, Millis, RandomBot};
use yut::{Phase, Standard, Yut, YutOptions};

/// The game under test: Yut Nori with the standard rules.
pub const GAME: Yut = Yut::standard();

/// The state of [`GAME`].
pub type YutState = yut::YutState<Standard>;

/// The clock every helper passes as `now` (host milliseconds). The engine never reads a
/// clock, and no helper ticks, so deadlines never fire.
pub const NOW: Millis = 1_000;

/// A busy position has at least this many stacks on the board (all sides together).
pub const BUSY_STACKS: usize = 4;

/// A busy position gives the player to act at least this many legal moves.
pub const BUSY_MOVES: usize = 6;

/// Decisions after which a helper gives up on a game (a bug, not a long game: real games
/// take a few hundred): the play-out loop's own limit.
pub const MAX_DECISIONS: usize = game_core::playout::MAX_DECISIONS;

/// Player ids `p0`, `p1`, ... in seat order (the test support's, re-exported).
///
/// ```
/// assert_eq!(benches::players(2), ["p0", "p1"]);
/// ```
pub use game_core::testing::players;

/// A new standard game (default options, individual play) of `n` players from `seed`.
///
/// # Panics
///
/// If the standard rules refuse `n` players (individual play takes 2 to 4).
pub fn new_game(n: usize, seed: u64) -> YutState {
    GAME.setup(&YutOptions::default(), &players(n), seed, 0)
        .expect("the standard options accept 2 to 4 players")
}

/// The stacks on the board: distinct (side, node) pairs with at least one piece.
///
/// ```
/// assert_eq!(benches::board_stacks(&benches::new_game(2, 1)), 0);
/// ```
pub fn board_stacks(state: &YutState) -> usize {
    state.board().sides().iter().map(|side| side.stacks()).sum()
}

/// Whether `state` is a busy move position: the move phase, at least [`BUSY_STACKS`]
/// stacks on the board, the side to act with two or more of them, and at least
/// [`BUSY_MOVES`] legal moves.
pub fn is_busy(state: &YutState) -> bool {
    let board = &state.board();
    if board.phase() != Phase::Move || board_stacks(state) < BUSY_STACKS {
        return false;
    }
    let side = &board.sides()[usize::from(board.current_side())];
    side.stacks() >= 2 && GAME.legal_moves(state).len() >= BUSY_MOVES
}

/// The play-out loop of every helper here, for any game: actions at [`NOW`], at most
/// [`MAX_DECISIONS`], the seat to act taken from [`Game::first_to_act`] (in Yut, the
/// board's), room for 32 events reserved.
///
/// ```
/// let p = benches::playout::<yut::Yut>();
/// assert_eq!((p.limit, p.now), (benches::MAX_DECISIONS, benches::NOW));
/// ```
pub fn playout<G: Game>() -> Playout<G> {
    Playout::new(NOW).reserve(32)
}

/// Plays seeded random games of `n` players through a [`Match`] (so the record holds every
/// action) until `stop` holds for the position (checked before every decision). Seeds
/// `seed`, `seed + 1`, ... are tried in turn until one reaches such a position, so the
/// result depends only on `seed`.
///
/// # Panics
///
/// If no game of a thousand seeds reaches a position where `stop` holds.
pub fn find_match(n: usize, seed: u64, stop: impl Fn(&YutState) -> bool) -> Match<Yut> {
    let mut playout = playout();
    for s in seed..seed.saturating_add(1_000) {
        let mut m = Match::new(GAME, YutOptions::default(), players(n), s, 0)
            .expect("the standard options accept 2 to 4 players");
        if stop(m.state()) {
            return m;
        }
        let mut bot = RandomBot::new(s ^ 0x9E37_79B9_7F4A_7C15);
        let summary = playout
            .run_on(
                &GAME,
                &mut m,
                |m: &mut Match<Yut>, seat| bot.choose(&GAME, m.state(), seat).into(),
                |m: &mut Match<Yut>, _| {
                    if stop(m.state()) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            )
            .expect("a listed legal action is accepted");
        match summary.ended {
            Ended::Stopped(()) => return m,
            Ended::Over => {}
            ended => panic!("game of seed {s} ended {ended:?}"),
        }
    }
    panic!("no position found from seed {seed}");
}

/// A busy mid-game move position of a 2-player standard game (see [`is_busy`]), reached
/// by seeded uniform-random play.
pub fn mid_game_state(seed: u64) -> YutState {
    find_match(2, seed, is_busy).into_parts().0
}

/// Whether `state` is a mid-game throw position: the throw phase with at least
/// [`BUSY_STACKS`] stacks on the board.
pub fn is_busy_throw(state: &YutState) -> bool {
    state.board().phase() == Phase::Throw && board_stacks(state) >= BUSY_STACKS
}

/// A mid-game throw position of a 2-player standard game (see [`is_busy_throw`]).
pub fn mid_game_throw_state(seed: u64) -> YutState {
    find_match(2, seed, is_busy_throw).into_parts().0
}

/// A [`Match`] (what the type-erased layer wraps) at the position of
/// [`mid_game_throw_state`], with the record of every action that led there.
pub fn mid_game_throw_match(seed: u64) -> Match<Yut> {
    find_match(2, seed, is_busy_throw)
}

/// Plays a whole uniform-random standard game of `n` players (game seeded with `seed`,
/// bot seeded with `seed` too), choosing uniformly among [`Game::legal_actions`] with a
/// [`RandomBot`], in a quiet play-out ([`Playout::quiet`]: no one reads the events).
/// Returns the number of decisions (throws and moves) taken.
///
/// # Panics
///
/// If the game runs past [`MAX_DECISIONS`].
pub fn random_game_of(n: usize, seed: u64) -> usize {
    let mut state = new_game(n, seed);
    let mut bot = RandomBot::new(seed);
    let summary = playout()
        .quiet()
        .run(
            &GAME,
            &mut state,
            |state: &YutState, seat| bot.choose(&GAME, state, seat).into(),
            |_: &mut YutState, _| ControlFlow::<()>::Continue(()),
        )
        .expect("a listed legal action is accepted");
    assert_eq!(
        summary.ended,
        Ended::Over,
        "game of seed {seed} does not end"
    );
    summary.decisions
}

/// [`random_game_of`] with two players.
pub fn random_game(seed: u64) -> usize {
    random_game_of(2, seed)
}

/// Plays a whole game of `game` with `options` and `n` players from `seed`, choosing
/// uniformly among the legal actions at every decision (draft choices included), through
/// the `Game` trait as a simulation would run it: each decision's action drawn among the
/// legal ones and played without validating it again ([`Playout::run_random`],
/// [`Game::random_legal_action`]: the index drawn among [`Game::legal_action_count`]
/// actions and that action), in a quiet play-out ([`Playout::quiet`]: the loop reads no
/// events, so the engine builds none; the state's recent-event log is written all the
/// same). Nothing is allocated per
/// decision. The same draws and the same game as listing the legal actions and playing
/// the drawn one. Returns the number of decisions.
///
/// The same loop runs every rule set, so the seam benchmarks compare rules, not harnesses.
/// [`UniformGames`] is the same loop keeping its buffers from one game to the next.
///
/// ```
/// let game = yut::Yut::standard();
/// let d = benches::uniform_game(&game, &yut::YutOptions::default(), 2, 1);
/// assert!(d > 0);
/// ```
///
/// # Panics
///
/// If the options refuse `n` players, or the game does not end within [`MAX_DECISIONS`].
pub fn uniform_game<R: yut::Rules>(
    game: &Yut<R>,
    options: &R::Options,
    n: usize,
    seed: u64,
) -> usize {
    UniformGames::new(n).play(game, options, seed)
}

/// The loop of [`uniform_game`] for a series of games: the player ids, the play-out loop
/// (with its events buffer) and the game state are made once and kept from one game to
/// the next. The first game is set up with [`Game::setup`]; every later one is started in
/// place in the last one's state with [`Game::reset`], which reuses its buffers (it
/// allocates nothing: `tests/no_alloc.rs`) and makes the same state as `setup`, so each
/// game plays exactly what [`uniform_game`] plays from its seed. As a host or simulation
/// running many games would run them.
///
/// ```
/// let (game, options) = (yut::Yut::standard(), yut::YutOptions::default());
/// let mut games = benches::UniformGames::new(2);
/// for seed in 0..5 {
///     assert_eq!(games.play(&game, &options, seed), benches::uniform_game(&game, &options, 2, seed));
/// }
/// ```
///
/// Any game plays in it (`examples/profile_games.rs` plays One Card too).
pub struct UniformGames<G: Game> {
    players: Vec<game_core::PlayerId>,
    playout: Playout<G, true>,
    /// The last game's state, reset for the next (none before the first game).
    state: Option<G::State>,
}

impl<G: Game> UniformGames<G> {
    /// The loop for games of `n` players ([`players`]`(n)`), with room for 32 events.
    pub fn new(n: usize) -> Self {
        Self {
            players: players(n),
            playout: playout().quiet(),
            state: None,
        }
    }

    /// Plays the game of `seed` under `game` and `options` (see [`uniform_game`]) and
    /// returns its decisions.
    ///
    /// # Panics
    ///
    /// If the options refuse the players, or the game does not end within
    /// [`MAX_DECISIONS`].
    pub fn play(&mut self, game: &G, options: &G::Options, seed: u64) -> usize {
        let state = if let Some(state) = self.state.as_mut() {
            game.reset(state, options, &self.players, seed, 0)
                .expect("options accept the players");
            state
        } else {
            let state = game
                .setup(options, &self.players, seed, 0)
                .expect("options accept the players");
            self.state.insert(state)
        };
        let mut rng = game_core::GameRng::from_seed(seed ^ 0x5eed);
        let summary = self
            .playout
            .run_random(game, state, &mut rng, |_: &mut G::State, _| {
                ControlFlow::<()>::Continue(())
            })
            .expect("a legal action is accepted");
        assert_eq!(
            summary.ended,
            Ended::Over,
            "game of seed {seed} does not end"
        );
        summary.decisions
    }
}
