//! The game server: `cargo run --release --example server -- [--addr HOST:PORT] [--db PATH]`.
//! Prints `listening on http://ADDR` once ready; serves until SIGINT or SIGTERM.

use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use game_server::{Config, SqliteStore, serve};

/// A multiplayer game server: the host protocol over WebSockets, persisted in SQLite.
#[derive(Parser)]
struct Args {
    /// Address to listen on (port 0: any free port, printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The SQLite database file (`:memory:` for none kept).
    #[arg(long, default_value = "party-games.sqlite")]
    db: String,
    /// How long a bot waits before moving, in milliseconds.
    #[arg(long, default_value_t = 300)]
    bot_delay_ms: u64,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let store = Arc::new(SqliteStore::open(&args.db)?);
    let listener = tokio::net::TcpListener::bind(&args.addr).await?;
    let config = Config {
        bot_delay: Duration::from_millis(args.bot_delay_ms),
    };
    let addr = listener.local_addr()?;
    let ready = async move {
        println!("listening on http://{addr}");
    };
    serve(listener, store, config, ready, shutdown()).await?;
    Ok(())
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown() {
    let int = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => return int.await.unwrap_or(()),
            };
        tokio::select! {
            _ = int => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    int.await.unwrap_or(());
}
