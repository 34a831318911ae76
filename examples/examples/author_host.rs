//! An author's JSON-lines host, as `game_host::cli` makes it: their registry and one call.
//! Pig (the guide's game, not a built-in one) stands for the author's game:
//!
//! ```text
//! cargo run --example author_host                      # serves requests on stdin/stdout
//! cargo run --example author_host -- --trace --games 3 --timeouts 10 --illegal 10
//! ```
//!
//! With one game registered `--game` may be left out; with several it names the game.

use game_core::{Erased, Registry};

fn main() -> std::process::ExitCode {
    let mut games = Registry::new();
    games
        .register(Erased(pig::Pig).with_bot("hold", |_| pig::HoldBot::default()))
        .expect("one game, one id");
    game_host::cli::run(games)
}
