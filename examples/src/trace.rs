//! Trace mode of the host (`host --trace`): seeded games between bots, written as JSON
//! lines, for checking a client or another implementation against this engine.
//!
//! For each game `g` (0-based) of `--games N`, the seed is `S + g`, the players are `p1`,
//! `p2`, ... and the lines are:
//!
//! - `{"setup": {"game", "options", "players", "seed"}}` with the game's id and the full
//!   resolved options (for `yut-augments` the base options and the layer's `augments`,
//!   `cushion` and `truce`, in one flat object);
//! - per applied action `{"player", "action", "events", "view"}`, where `view` is the
//!   view of the player who acts next (so in the move phase it holds `legalMoves`), or the
//!   spectator's view once the game is over. An action the engine took itself after the
//!   deadline (via `Game::tick`) carries `"auto": true`;
//! - per refused action `{"player", "action", "error", "view"}` with the engine's error
//!   body and the unchanged view.
//!
//! The game: `--preset app` plays `yut-augments` with `yut_augments::app_options()` (the
//! app base rules, all eighteen augments, the cushion and the truce); `--preset standard`
//! plays `yut`. `--game yut|yut-augments` chooses explicitly: `--game yut --preset app` is
//! the app base rules without the layer, `--game yut-augments --preset standard` the
//! standard base rules with the whole layer. `--options` is parsed as the game's options
//! type (the layer's fields are allowed only with `yut-augments`; fields left out take
//! their defaults, which for the layer is the whole pack). The draft's
//! `{"type":"CHOOSE_AUGMENT","index":n}` decisions are lines like any other action, and
//! the view of the player to act holds the `draft` with its candidates.
//!
//! Bots (`--bot`): `policy` (default) plays the engine's own timeout policy
//! ([`yut::PolicyBot`]; `yut/RULES.md`, *The timeout policy*), `random` picks uniformly
//! among the legal actions ([`yut::bot::RandomBot`], seeded per seat), `strong` searches to
//! win ([`yut::StrongBot`], seeded per seat; it simulates on re-seeded copies only). `--timeouts PCT` leaves that share of
//! decisions to the engine: the clock jumps to the deadline and `tick` acts (with no time
//! limit, `turnSeconds: null`, the player disconnects and the grace period runs out
//! instead). `--illegal PCT` makes that share of decisions start with a refused action
//! (a seat that is not to act, the wrong phase, a bad `throwIndex`, or a node without
//! the mover's pieces; with the augment layer also a `CHOOSE_AUGMENT` outside the draft or
//! with an index past the candidates). Bots' choices and these shares come from a RNG of their own
//! (seeded from the game's seed), never from the game's RNG, so the output is the same for
//! the same arguments.
//!
//! ```
//! use clap::Parser;
//! let args = examples::trace::TraceArgs::parse_from(["trace", "--games", "1", "--seed", "5"]);
//! let mut out = Vec::new();
//! examples::trace::trace(&args, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.lines().next().unwrap().starts_with(r#"{"setup":"#));
//! ```

use std::io::{self, Write};
use std::ops::ControlFlow;

use clap::Parser;
use game_core::playout::{Choice, Ended, MAX_DECISIONS, Playable, Playout, Step};
use game_core::{Bot, ErrorBody, Game, GameError, GameRng, Match, Millis, Viewer};
use schemars::JsonSchema;
use serde::Serialize;
use yut::rules::WithRules;
use yut::{
    BotKind, Origin, Phase, Preset, Rules, SeatBot, Standard, Yut, YutAction, YutError, YutEvent,
    YutOptions, YutState,
};
use yut_augments::{AugmentConfig, AugmentOptions, Augments};

use crate::args::{GameArg, default_players};
use crate::layer::{Layer, LayerView};

/// Host milliseconds between two decisions.
const STEP_MS: Millis = 1_000;

/// The flags of trace mode.
#[derive(Parser, Clone, Debug)]
#[command(name = "host --trace")]
pub struct TraceArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Seed of the first game; game `g` uses `seed + g`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players per game [default: 2, or 4 in team mode]; the game judges the count, up to
    /// 255 (more only makes ids to be refused).
    #[arg(long, value_parser = crate::args::player_count())]
    pub players: Option<u8>,
    /// Individual or team play (overrides the preset's and `--options`' mode).
    #[arg(long, value_parser = crate::args::mode())]
    pub mode: Option<yut::Mode>,
    /// The named rule set; `app` comes with the augment layer (game `yut-augments`)
    /// unless `--game yut`.
    #[arg(long, value_parser = crate::args::preset(), default_value_t = Preset::Standard)]
    pub preset: Preset,
    /// The game [default: `yut-augments` with --preset app, else `yut`].
    #[arg(long, value_enum)]
    pub game: Option<GameArg>,
    /// A whole options object of the game in the wire format
    /// (`{"nakPercent":10,"pieces":2}`, with `yut-augments` also `"augments"`, `"cushion"`,
    /// `"truce"`); it replaces the preset, and fields left out take their defaults.
    #[arg(long)]
    pub options: Option<String>,
    /// Percentage of decisions left to the engine's timeout action.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub timeouts: u8,
    /// Percentage of decisions preceded by a random illegal action.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub illegal: u8,
    /// How bots choose.
    #[arg(long, value_parser = crate::args::bot(), default_value_t = BotKind::Policy)]
    pub bot: BotKind,
}

/// The resolved game and options of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceOptions {
    /// `yut`: the engine's rules without a layer.
    Yut(YutOptions),
    /// `yut-augments`: with the augment layer.
    Augmented(AugmentOptions),
}

impl TraceOptions {
    /// The game id.
    pub fn game(&self) -> &'static str {
        match self {
            TraceOptions::Yut(_) => Yut::standard().id(),
            TraceOptions::Augmented(_) => yut_augments::game().id(),
        }
    }

    /// The base options.
    pub fn base(&self) -> &YutOptions {
        match self {
            TraceOptions::Yut(o) => o,
            TraceOptions::Augmented(o) => &o.base,
        }
    }
}

impl TraceArgs {
    /// The game: `--game`, or `yut-augments` for `--preset app` and `yut` otherwise.
    pub fn game_arg(&self) -> GameArg {
        self.game.unwrap_or(match self.preset {
            Preset::App => GameArg::YutAugments,
            _ => GameArg::Yut,
        })
    }

    /// The game and options of every game: `--options` (as the game's options type) or
    /// the preset (with the whole augment pack for `yut-augments`), then `--mode`.
    ///
    /// ```
    /// use clap::Parser;
    /// use examples::trace::{TraceArgs, TraceOptions};
    /// let args = TraceArgs::parse_from(["trace", "--preset", "app"]);
    /// assert_eq!(args.resolve_options().unwrap(), TraceOptions::Augmented(yut_augments::app_options()));
    /// let args = TraceArgs::parse_from(["trace", "--preset", "app", "--game", "yut"]);
    /// assert_eq!(args.resolve_options().unwrap(), TraceOptions::Yut(yut::Preset::App.options()));
    /// ```
    pub fn resolve_options(&self) -> Result<TraceOptions, TraceError> {
        let preset = self.preset;
        let parse_error = |e: serde_json::Error| TraceError::Options(e.to_string());
        // serde's derived structs also read an array, field by field: only an object is
        // an options object.
        if let Some(json) = &self.options
            && !serde_json::from_str::<serde_json::Value>(json).is_ok_and(|v| v.is_object())
        {
            return Err(TraceError::Options("not a JSON object".into()));
        }
        let mut options = match (self.game_arg(), &self.options) {
            (GameArg::Yut, Some(json)) => {
                TraceOptions::Yut(serde_json::from_str(json).map_err(parse_error)?)
            }
            (GameArg::Yut, None) => TraceOptions::Yut(preset.options()),
            (GameArg::YutAugments, Some(json)) => {
                TraceOptions::Augmented(serde_json::from_str(json).map_err(parse_error)?)
            }
            (GameArg::YutAugments, None) => TraceOptions::Augmented(WithRules {
                base: preset.options(),
                rules: AugmentConfig::app(),
            }),
        };
        if let Some(mode) = self.mode {
            match &mut options {
                TraceOptions::Yut(o) => o.mode = mode,
                TraceOptions::Augmented(o) => o.base.mode = mode,
            }
        }
        Ok(options)
    }
}

/// Why a trace stopped.
#[derive(Debug)]
pub enum TraceError {
    /// `--options` is not an options object.
    Options(String),
    /// The engine refused the setup (its typed error).
    Setup(YutError),
    /// The engine refused a bot's action (a bug).
    Engine(YutError),
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
            TraceError::Setup(e) => write!(f, "오류 [{}]: {}", e.code(), e.message()),
            TraceError::Engine(e) => write!(f, "엔진 오류 [{}]: {}", e.code(), e.message()),
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

fn write_line(out: &mut impl Write, line: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

/// True with probability `pct` percent.
fn roll(rng: &mut GameRng, pct: u8) -> bool {
    pct > 0 && rng.below(100) < u32::from(pct)
}

/// The view of the player to act next, or the spectator's once the game is over.
fn next_view<R: Rules>(game: &Yut<R>, state: &YutState<R>) -> LayerView<R> {
    match game.to_act(state).first() {
        Some(&seat) => game.view(state, Viewer::Player(&state.board.players()[seat])),
        None => game.view(state, Viewer::Spectator),
    }
}

/// A random action the engine must refuse, and the seat that sends it: a seat that is not
/// to act, an action of another phase, a `throwIndex` past the pending results, or a move
/// from a node without the mover's pieces; under rules with an action of their own (the
/// augment draft) also that action outside its phase, or with an index past the
/// candidates. (Under the standard rules the draws are those of earlier versions, so
/// their traces have not changed.)
pub fn illegal_action<R: Layer>(
    game: &Yut<R>,
    state: &YutState<R>,
    seat: usize,
    rng: &mut GameRng,
) -> Option<(usize, YutAction<R::Action>)> {
    let board = &state.board;
    let seats = board.players().len();
    let rule_actions = R::raw_action(0).is_some();
    let kinds: &[u8] = match (board.phase, rule_actions) {
        (Phase::Move, false) => &[0, 1, 2, 3],
        (Phase::Move, true) => &[0, 1, 2, 3, 4],
        (Phase::Rule, _) => &[0, 1, 5, 6],
        (_, false) => &[0, 1],
        (_, true) => &[0, 1, 4],
    };
    let kind = kinds[rng.below(kinds.len() as u32) as usize];
    let (who, action) = match kind {
        0 => {
            let other = (seat + 1 + rng.below(seats as u32 - 1) as usize) % seats;
            let action = game
                .legal_actions(state, seat)
                .first()
                .cloned()
                .unwrap_or(YutAction::Throw);
            (other, action)
        }
        1 if board.phase == Phase::Throw => (
            seat,
            YutAction::Move {
                throw_index: 0,
                from: Origin::HOME,
            },
        ),
        1 => (seat, YutAction::Throw),
        2 => (
            seat,
            YutAction::Move {
                throw_index: board.pending.len() as u32 + rng.below(3),
                from: Origin::HOME,
            },
        ),
        3 => {
            let side = &board.sides[usize::from(board.current_side())];
            let empty: Vec<u8> = (0..yut::graph::NODE_COUNT as u8)
                .filter(|&n| side.stack_on(n) == 0)
                .collect();
            let node = empty[rng.below(empty.len() as u32) as usize];
            (
                seat,
                YutAction::Move {
                    throw_index: 0,
                    from: Origin::Node(node),
                },
            )
        }
        4 => (seat, YutAction::Rule(R::raw_action(0)?)),
        5 => (
            seat,
            YutAction::Move {
                throw_index: 0,
                from: Origin::HOME,
            },
        ),
        _ => {
            let count = game.legal_actions(state, seat).len() as u32;
            (seat, YutAction::Rule(R::raw_action(count + rng.below(3))?))
        }
    };
    game.validate(state, who, &action)
        .is_err()
        .then_some((who, action))
}

/// Plays `args.games` seeded games and writes their lines to `out`.
pub fn trace(args: &TraceArgs, mut out: impl Write) -> Result<(), TraceError> {
    match args.resolve_options()? {
        TraceOptions::Yut(options) => trace_games::<Standard>(args, &options, &mut out)?,
        TraceOptions::Augmented(options) => trace_games::<Augments>(args, &options, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

/// [`trace`] under the rules `R`.
fn trace_games<R: Layer>(
    args: &TraceArgs,
    options: &R::Options,
    out: &mut impl Write,
) -> Result<(), TraceError> {
    use yut::rules::RuleOptions;
    let count = args
        .players
        .map_or_else(|| default_players(options.base().mode), usize::from);
    let players: Vec<String> = (1..=count).map(|i| format!("p{i}")).collect();
    let game = R::game();
    for g in 0..args.games {
        let seed = args.seed.wrapping_add(g);
        play_one(args, &game, options, &players, seed, out)?;
    }
    Ok(())
}

/// A game of the trace: its match, the host clock, the view last written, and where the
/// lines go. The play-out applies each bot action through [`Match::act`] at this clock.
struct Traced<'o, R: Rules, W> {
    m: Match<Yut<R>>,
    now: Millis,
    view: LayerView<R>,
    out: &'o mut W,
}

impl<R: Rules, W> Playable<Yut<R>> for Traced<'_, R, W> {
    fn state(&self) -> &YutState<R> {
        self.m.state()
    }

    fn act(
        &mut self,
        _game: &Yut<R>,
        seat: usize,
        action: &YutAction<R::Action>,
        _now: Millis,
        events: &mut Vec<YutEvent<R::Event>>,
    ) -> Result<(), YutError> {
        let player = self.m.state().board.players()[seat].clone();
        *events = self.m.act(&player, action, self.now)?;
        Ok(())
    }
}

fn play_one<R: Layer>(
    args: &TraceArgs,
    game: &Yut<R>,
    options: &R::Options,
    players: &[String],
    seed: u64,
    out: &mut impl Write,
) -> Result<(), TraceError> {
    let m =
        Match::new(*game, options.clone(), players.to_vec(), seed, 0).map_err(TraceError::Setup)?;
    write_line(
        out,
        &SetupLine {
            setup: Setup {
                game: game.id(),
                options,
                players,
                seed,
            },
        },
    )?;
    let mut rng = GameRng::from_seed(seed ^ 0xD1B5_4A32_D192_ED03);
    let mut bots: Vec<SeatBot> = (0..players.len())
        .map(|s| {
            SeatBot::new(
                args.bot,
                seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (s as u64 + 1),
            )
        })
        .collect();
    let view = next_view(game, m.state());
    let mut traced = Traced {
        m,
        now: 0,
        view,
        out,
    };
    // A decision: maybe a refused action first, then maybe the clock runs out (the engine
    // acts, and the decision is passed), else the bot's action, which the play-out applies.
    let mut decide = |t: &mut Traced<'_, R, _>, seat: usize| {
        let player = players[seat].as_str();
        t.now += STEP_MS;
        if roll(&mut rng, args.illegal)
            && let Some((who, action)) = illegal_action(game, t.m.state(), seat, &mut rng)
            && let Err(error) = t.m.act(&players[who], &action, t.now)
        {
            let line = ErrorLine {
                player: &players[who],
                action: &action,
                error: error.body(),
                view: &t.view,
            };
            if let Err(e) = write_line(t.out, &line) {
                return Choice::Stop(e.into());
            }
        }
        if roll(&mut rng, args.timeouts) {
            match let_time_run_out(game, t, player) {
                Ok(true) => return Choice::Pass,
                Ok(false) => {}
                Err(e) => return Choice::Stop(e),
            }
        }
        Choice::Act(
            bots[seat]
                .choose(game, t.m.state(), seat)
                .unwrap_or(YutAction::Throw),
        )
    };
    let written = |t: &mut Traced<'_, R, _>, step: Step<'_, Yut<R>>| {
        t.view = next_view(game, t.m.state());
        let line = ActLine {
            player: &players[step.seat],
            action: step.action,
            auto: false,
            events: step.events,
            view: &t.view,
        };
        match write_line(t.out, &line) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(TraceError::from(e)),
        }
    };
    let summary = Playout::new(0)
        .run_on(game, &mut traced, &mut decide, written)
        .map_err(|refused| TraceError::Engine(refused.error))?;
    match summary.ended {
        Ended::Over | Ended::Nothing { .. } => Ok(()),
        Ended::Capped => Err(TraceError::Stuck { seed }),
        Ended::Stopped(e) => Err(e),
    }
}

/// Lets the clock of `player`'s decision run out: to the deadline, or with no time limit
/// by disconnecting until the grace period is over (and reconnecting). Writes the actions
/// the engine took; false if it took none (the player then acts after all).
fn let_time_run_out<R: Layer>(
    game: &Yut<R>,
    t: &mut Traced<'_, R, impl Write>,
    player: &str,
) -> Result<bool, TraceError> {
    let applied = match game.deadline(t.m.state()) {
        Some(deadline) => {
            t.now = t.now.max(deadline);
            t.m.tick(t.now)
        }
        None => {
            t.m.set_connected(player, false, t.now)
                .result
                .map_err(TraceError::Engine)?;
            t.now += game.grace_ms();
            let applied = t.m.tick(t.now);
            t.m.set_connected(player, true, t.now)
                .result
                .map_err(TraceError::Engine)?;
            applied
        }
    };
    if applied.is_empty() {
        return Ok(false);
    }
    t.view = next_view(game, t.m.state());
    for a in &applied {
        write_line(
            t.out,
            &ActLine {
                player: &a.player,
                action: &a.action,
                auto: true,
                events: &a.events,
                view: &t.view,
            },
        )?;
    }
    Ok(true)
}
