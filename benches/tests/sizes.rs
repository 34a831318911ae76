//! Sizes of the engine's values: `size_of::<YutState>()` and the JSON of a mid-game state
//! and view. Run with `cargo test -p benches --test sizes -- --nocapture` to see them.

use game_core::{Game, Viewer};

#[test]
fn state_and_view_sizes() {
    let game = benches::GAME;
    let state = benches::mid_game_state(1);
    let seat = state.board().current_seat();
    let player = state.board().players()[seat].clone();

    let state_json = serde_json::to_vec(&state).unwrap();
    let player_view = serde_json::to_vec(&game.view(&state, Viewer::Player(&player))).unwrap();
    let spectator_view = serde_json::to_vec(&game.view(&state, Viewer::Spectator)).unwrap();
    let moves = game.legal_moves(&state);

    println!(
        "size_of::<YutState>()         = {} bytes",
        size_of::<yut::YutState<yut::Standard>>()
    );
    println!(
        "size_of::<Board>()            = {} bytes",
        size_of::<yut::Board>()
    );
    println!(
        "size_of::<Side>()             = {} bytes",
        size_of::<yut::Side>()
    );
    println!(
        "size_of::<Piece>()            = {} bytes",
        size_of::<yut::Piece>()
    );
    println!(
        "size_of::<LegalMove>()        = {} bytes",
        size_of::<yut::LegalMove>()
    );
    println!(
        "size_of::<YutEvent>()         = {} bytes",
        size_of::<yut::YutEvent>()
    );
    println!(
        "size_of::<YutAction>()        = {} bytes",
        size_of::<yut::YutAction>()
    );
    println!(
        "mid-game position: seed 1, turnSeq {}, {} stacks on the board, {} pending, {} legal moves, {} log events",
        state.board().turn_seq(),
        benches::board_stacks(&state),
        state.board().pending().len(),
        moves.len(),
        state.log().len(),
    );
    println!("state JSON                    = {} bytes", state_json.len());
    println!(
        "view JSON (player to act)     = {} bytes",
        player_view.len()
    );
    println!(
        "view JSON (spectator)         = {} bytes",
        spectator_view.len()
    );

    // The view never holds the RNG; the state does. Both stay small enough to send often.
    assert!(state_json.len() > spectator_view.len() / 4);
    assert!(
        player_view.len() > spectator_view.len(),
        "the player to act also gets legalMoves"
    );
    assert!(player_view.len() < 64 * 1024);
    assert!(moves.len() >= benches::BUSY_MOVES);
}

/// Every step copies its events into the step's buffer and the recent-event log, and the
/// log's 32 slots are allocated with each game: at 32 bytes an event copies in two moves
/// and the slots fit the allocator's small-block cache.
#[test]
fn an_event_of_the_base_game_is_at_most_32_bytes() {
    assert!(
        size_of::<yut::YutEvent>() <= 32,
        "{}",
        size_of::<yut::YutEvent>()
    );
    assert!(size_of::<yut::NodeList>() <= 24);
    assert!(size_of::<yut::PackedThrows>() <= 26);
}

#[test]
fn positions_are_deterministic_and_busy() {
    for seed in 0..20 {
        let a = benches::mid_game_state(seed);
        assert_eq!(a, benches::mid_game_state(seed));
        assert!(benches::is_busy(&a));
        let t = benches::mid_game_throw_state(seed);
        assert!(benches::is_busy_throw(&t));
        assert_eq!(benches::mid_game_throw_match(seed).state(), &t);
    }
}

#[test]
fn random_games_end() {
    for seed in 0..20 {
        let n = benches::random_game(seed);
        assert_eq!(n, benches::random_game(seed));
        assert!(n > 10);
        assert!(benches::random_game_of(4, seed) > 10);
    }
    println!(
        "decisions: 2 players seed 1 = {}, 4 players seed 1 = {}",
        benches::random_game(1),
        benches::random_game_of(4, 1)
    );
}
