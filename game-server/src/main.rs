//! `party-games-server`: the server's command line over the built-in games of
//! `game_host::registry()` (Yut, Yut with augments, One Card, rock-paper-scissors).
//! `--help` lists the flags; the crate's README describes them.

fn main() -> std::process::ExitCode {
    party_games_server::cli::run(game_host::registry())
}
