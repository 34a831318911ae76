//! Trace mode over any registry: seeded games between the game's own bots, written as
//! JSON lines, for checking a client, a port or a change of the rules against this engine
//! (the same arguments give byte-identical output, in every version).
//!
//! [`trace`] plays [`TraceConfig::games`] games of one game of a [`Registry`] through the
//! erased layer, as a host plays it; with the `cli` feature, [`crate::cli`] gives a
//! binary `--trace --game ID` over its registry. The lines and what the flags mean are in
//! the crate's README (*Trace mode*).
//!
//! ```
//! use game_core::{Erased, Registry, rps::Rps};
//! use game_host::trace::{TraceConfig, trace};
//!
//! let mut games = Registry::new();
//! games.register(Erased(Rps)).unwrap();
//! let config = TraceConfig { games: 2, seed: 5, illegal: 20, ..TraceConfig::new("rps") };
//! let mut out = Vec::new();
//! trace(&games, &config, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
//! assert_eq!(first["setup"]["game"], "rps");
//! assert_eq!(first["setup"]["seed"], 5);
//! ```

use std::io::{self, Write};

use game_core::playout::MAX_DECISIONS;
use game_core::{DynBot, DynMatch, ErrorBody, GameError, GameRng, HostError, Millis, Registry};
use schemars::JsonSchema;
use serde::Serialize;

/// Host milliseconds between two decisions: the trace's clock moves by this before each.
pub const STEP_MS: Millis = 1_000;

/// What a trace plays. [`TraceConfig::new`] has the defaults of the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceConfig {
    /// The game's id in the registry.
    pub game: String,
    /// The game's options in the wire format, read as `create` reads them; `None`: the
    /// game's defaults. The setup line holds the full options, defaults filled in.
    pub options: Option<serde_json::Value>,
    /// How many games (1).
    pub games: u64,
    /// The first game's seed (1); game `g` (0-based) uses `seed + g`.
    pub seed: u64,
    /// Players per game, `p1`, `p2`, ... (2); the game judges the count.
    pub players: usize,
    /// The share of decisions, in percent (0 to 100), left to the engine's timeouts (0).
    pub timeouts: u8,
    /// The share of decisions, in percent (0 to 100), preceded by a refused action (0).
    pub illegal: u8,
    /// The bot kind every seat plays ([`game_core::DynGame::bot_kinds`]); `None`: the
    /// game's first (its default), or `random` for a game with none listed.
    pub bot: Option<String>,
}

impl TraceConfig {
    /// One game of `game`, seed 1, two players, the game's default options and bot, no
    /// timeouts and no refused actions.
    pub fn new(game: impl Into<String>) -> Self {
        Self {
            game: game.into(),
            options: None,
            games: 1,
            seed: 1,
            players: 2,
            timeouts: 0,
            illegal: 0,
            bot: None,
        }
    }
}

/// The seed of the bot at `seat` in the game of seed `seed`: one a seat, so that two bots
/// of one kind do not play alike.
pub fn bot_seed(seed: u64, seat: usize) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seat as u64 + 1)
}

/// The trace's own RNG for the game of seed `seed`: who of the players who may act
/// decides, whether a decision times out or starts with a refused action, and which.
/// Never the game's RNG, so the games played are the games the seeds give.
pub fn decision_rng(seed: u64) -> GameRng {
    GameRng::from_seed(seed ^ 0xD1B5_4A32_D192_ED03)
}

/// True with probability `pct` percent, drawn from the trace's RNG (nothing drawn for 0).
pub fn roll(rng: &mut GameRng, pct: u8) -> bool {
    pct > 0 && rng.below(100) < u32::from(pct)
}

/// Why a trace stopped.
#[derive(Debug)]
pub enum TraceError {
    /// The options given are not an options object.
    Options(String),
    /// The engine refused the setup (its typed error's body): an unknown game or bot, the
    /// game's options or player count.
    Setup(ErrorBody),
    /// The engine refused a bot's action (a bug).
    Engine(ErrorBody),
    /// The engine or a bot broke a promise of the framework (a bug): a bot with no action
    /// for a player to act, an action accepted from a player who may not act.
    Bug(String),
    /// A game did not end within the action limit.
    Stuck {
        /// The game's seed.
        seed: u64,
    },
    /// Writing failed.
    Io(io::Error),
}

impl TraceError {
    /// The process exit code: 2 for refused arguments, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            TraceError::Options(_) | TraceError::Setup(_) => 2,
            _ => 1,
        }
    }
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TraceError::Options(e) => write!(f, "오류 [BAD_OPTIONS]: --options: {e}"),
            TraceError::Setup(e) => write!(f, "오류 [{}]: {}", e.code, e.message),
            TraceError::Engine(e) => write!(f, "엔진 오류 [{}]: {}", e.code, e.message),
            TraceError::Bug(detail) => write!(f, "엔진 오류: {detail}"),
            TraceError::Stuck { seed } => {
                write!(f, "seed {seed}: no end after {MAX_DECISIONS} actions")
            }
            TraceError::Io(e) => write!(f, "출력 오류(output error): {e}"),
        }
    }
}

impl std::error::Error for TraceError {}

impl From<io::Error> for TraceError {
    fn from(e: io::Error) -> Self {
        TraceError::Io(e)
    }
}

/// The first line of a game. (The trace lines are public for their schema: see
/// [`line_schema`].)
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupLine<'a, O> {
    /// The game set up.
    pub setup: Setup<'a, O>,
}

/// What a game was set up with.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Setup<'a, O> {
    /// The game id.
    pub game: &'static str,
    /// The full resolved options.
    pub options: &'a O,
    /// The players, in seat order.
    pub players: &'a [String],
    /// The game's seed.
    pub seed: u64,
}

/// An applied action.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActLine<'a, A, E, V> {
    /// Who acted (or was acted for).
    pub player: &'a str,
    /// The action.
    pub action: &'a A,
    /// Whether the engine took it after the deadline.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto: bool,
    /// What happened.
    pub events: &'a [E],
    /// The view of the player to act next (the spectator's once over).
    pub view: &'a V,
}

/// A refused action.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorLine<'a, A, V> {
    /// Who tried.
    pub player: &'a str,
    /// The action refused.
    pub action: &'a A,
    /// Why.
    pub error: ErrorBody,
    /// The unchanged view.
    pub view: &'a V,
}

/// The JSON Schema of a trace line of any game: a setup, applied or refused line (the
/// game's own parts as JSON; their schemas are the game's).
pub fn line_schema() -> serde_json::Value {
    #[derive(JsonSchema)]
    #[allow(dead_code)] // only its schema is used
    #[serde(untagged)]
    enum TraceLine<'a> {
        Setup(SetupLine<'a, serde_json::Map<String, serde_json::Value>>),
        Act(ActLine<'a, serde_json::Value, serde_json::Value, serde_json::Value>),
        Error(ErrorLine<'a, serde_json::Value, serde_json::Value>),
    }
    game_core::schema::wire_schema::<TraceLine<'static>>(
        game_core::schema::Direction::Outgoing,
        "TraceLine",
    )
}

/// Writes `line` as one line of JSON.
pub fn write_line(out: &mut impl Write, line: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

/// Plays `config.games` seeded games of `config.game` from `registry` between its bots
/// and writes their lines to `out` (flushed at the end).
pub fn trace(
    registry: &Registry,
    config: &TraceConfig,
    mut out: impl Write,
) -> Result<(), TraceError> {
    let setup = |e: HostError| TraceError::Setup(e.body());
    let kind = registry.get(&config.game).map_err(setup)?;
    let options = match &config.options {
        Some(o) => o.clone(),
        None => kind.default_options(),
    };
    let bot = match &config.bot {
        Some(b) => b.as_str(),
        None => kind
            .bot_kinds()
            .first()
            .copied()
            .unwrap_or(game_core::RANDOM_BOT),
    };
    let players: Vec<String> = (1..=config.players).map(|i| format!("p{i}")).collect();
    for g in 0..config.games {
        let seed = config.seed.wrapping_add(g);
        let m = registry
            .create(&config.game, &options, players.clone(), Some(seed), 0)
            .map_err(setup)?;
        let bots = (0..players.len())
            .map(|s| kind.bot(bot, bot_seed(seed, s)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(setup)?;
        let mut t = Traced {
            m,
            bots,
            rng: decision_rng(seed),
            now: 0,
            out: &mut out,
        };
        t.play(config, seed)?;
    }
    out.flush()?;
    Ok(())
}

/// A game of [`trace`]: the match, its bots, the trace's own RNG, the host clock and where
/// the lines go.
struct Traced<'o, W> {
    m: Box<dyn DynMatch>,
    bots: Vec<Box<dyn DynBot>>,
    rng: GameRng,
    now: Millis,
    out: &'o mut W,
}

impl<W: Write> Traced<'_, W> {
    /// Writes the setup line, then plays the game to its end.
    fn play(&mut self, config: &TraceConfig, seed: u64) -> Result<(), TraceError> {
        let players = self.m.players().to_vec();
        let options = self.m.record().options.clone();
        write_line(
            self.out,
            &SetupLine {
                setup: Setup {
                    game: self.m.game_id(),
                    options: &options,
                    players: &players,
                    seed,
                },
            },
        )?;
        for _ in 0..MAX_DECISIONS {
            let status = self.m.status();
            let Some(&first) = status.to_act.first() else {
                return Ok(());
            };
            // The callers (`may_act`) compete with the player to act for the decision;
            // without callers nothing is drawn.
            let seat = match status.may_act.len() {
                0 => first,
                n => match self.rng.below(n as u32 + 1) as usize {
                    0 => first,
                    i => status.may_act[i - 1],
                },
            };
            let player = players[seat].clone();
            self.now += STEP_MS;
            if roll(&mut self.rng, config.illegal) {
                self.refused(&player)?;
            }
            if seat == first
                && roll(&mut self.rng, config.timeouts)
                && self.time_runs_out(&player)?
            {
                continue;
            }
            let Some(action) = self.bots[seat].choose(self.m.as_ref(), &player) else {
                return Err(TraceError::Bug(format!(
                    "the bot has no action for {player}, who is to act"
                )));
            };
            let played = self.m.act(&player, action.clone(), None, self.now);
            let events = played.result.map_err(|e| TraceError::Engine(e.body()))?;
            let view = self.next_view()?;
            write_line(
                self.out,
                &ActLine {
                    player: &player,
                    action: &action,
                    auto: false,
                    events: &events,
                    view: &view,
                },
            )?;
        }
        Err(TraceError::Stuck { seed })
    }

    /// The view of the first player to act, or the spectator's once no one is.
    fn next_view(&self) -> Result<serde_json::Value, TraceError> {
        let next = self.m.to_act().into_iter().next();
        self.m
            .view(next.as_deref())
            .map_err(|e| TraceError::Engine(e.body()))
    }

    /// `player`'s first legal action sent by a seat that may not act (refused, nothing
    /// changes), written as a refused line; none when every seat may act.
    fn refused(&mut self, player: &str) -> Result<(), TraceError> {
        let idle: Vec<String> = self
            .m
            .players()
            .iter()
            .filter(|p| !self.m.may_act(p))
            .cloned()
            .collect();
        let Ok(legal) = self.m.legal_actions(player) else {
            return Ok(());
        };
        let (Some(action), false) = (legal.into_iter().next(), idle.is_empty()) else {
            return Ok(());
        };
        let who = &idle[self.rng.below(idle.len() as u32) as usize];
        let view = self.next_view()?;
        let played = self.m.act(who, action.clone(), None, self.now);
        match played.result {
            Err(e) => write_line(
                self.out,
                &ErrorLine {
                    player: who,
                    action: &action,
                    error: e.body(),
                    view: &view,
                },
            )?,
            // A seat that may not act is refused before its action is judged.
            Ok(_) => {
                return Err(TraceError::Bug(format!(
                    "{who} acted though it may not act"
                )));
            }
        }
        Ok(())
    }

    /// Lets the clock of `player`'s decision run out: to the deadline, or with none by
    /// disconnecting them until `nextTickAt` (and reconnecting). Writes the actions the
    /// engine took, each as its player sees it; false if it took none.
    fn time_runs_out(&mut self, player: &str) -> Result<bool, TraceError> {
        let engine = |e: HostError| TraceError::Engine(e.body());
        let applied = match self.m.deadline() {
            Some(deadline) => {
                self.now = self.now.max(deadline);
                self.m.tick(self.now)
            }
            None => {
                self.m
                    .set_connected(player, false, self.now)
                    .result
                    .map_err(engine)?;
                let mut applied = Vec::new();
                if let Some(at) = self.m.next_tick_at() {
                    self.now = self.now.max(at);
                    applied = self.m.tick(self.now);
                }
                self.m
                    .set_connected(player, true, self.now)
                    .result
                    .map_err(engine)?;
                applied
            }
        };
        if applied.is_empty() {
            return Ok(false);
        }
        let view = self.next_view()?;
        for a in &applied {
            write_line(
                self.out,
                &ActLine {
                    player: &a.player,
                    action: &a.action,
                    auto: true,
                    events: &a.events_for(Some(&a.player)),
                    view: &view,
                },
            )?;
        }
        Ok(true)
    }
}
