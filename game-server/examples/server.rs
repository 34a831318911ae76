//! The server's command line over a registry, as an author's binary is:
//! `cargo run --release --example server -- [--addr HOST:PORT] [--db PATH] ...` serves the
//! built-in games of `game_host::registry()`, exactly as the `party-games-server` binary
//! does. A game of your own is one more `register` on the registry.

fn main() -> std::process::ExitCode {
    party_games_server::cli::run(game_host::registry())
}
