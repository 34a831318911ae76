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
//!   deadline (via `GameExt::tick`) carries `"auto": true`;
//! - per refused action `{"player", "action", "error", "view"}` with the engine's error
//!   body and the unchanged view.
//!
//! The game: `--preset app` plays `yut-augments` with `yut_augments::app_options()` (the
//! app base rules, all eighteen augments, the cushion and the truce); `--preset standard`
//! plays `yut`. `--game` chooses any game of [`game_host::registry()`] explicitly: `--game
//! yut --preset app` is the app base rules without the layer, `--game yut-augments
//! --preset standard` the standard base rules with the whole layer; any other game (`--game
//! one-card`, `--game rps`) is played through the erased layer, as a host plays it (see
//! *Other games* below). `--options` is parsed as the game's options
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
//! # Other games
//!
//! A game other than Yut is traced by the library's trace mode over
//! [`game_host::registry()`] ([`game_host::trace`], the one an author's host runs over its
//! own registry): created through the registry ([`game_core::Registry::create`]), its
//! lines hold the same fields. The setup's `options` are the record's (the game's
//! full options, defaults filled in); `--options` is read by the game as `create` reads
//! it, `--players` defaults to 2, `--mode` is refused (it is Yut's) and `--preset` only
//! chooses between the Yut games. `--bot` names one of the game's bots
//! ([`game_core::DynGame::bot_kinds`]; `UNKNOWN_BOT` if it has no such bot), by default the
//! game's first. A decision is the first player to act's, or, when the game lets players
//! act besides them ([`game_core::MatchStatus::may_act`]: One Card's calls), a player
//! drawn among those and the one to act. `events` are the acting player's projection
//! ([`game_core::DynEvents::for_viewer`]: One Card's drawer sees the cards drawn), as the
//! host answers them. `--timeouts` runs the clock to the deadline, or with none
//! disconnects the player until `nextTickAt`; `--illegal` sends the actor's legal action
//! from a seat that may not act (`NOT_YOUR_TURN`).
//!
//! ```
//! use clap::Parser;
//! let args = examples::trace::TraceArgs::parse_from(["trace", "--games", "1", "--seed", "5"]);
//! let mut out = Vec::new();
//! examples::trace::trace(&args, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.lines().next().unwrap().starts_with(r#"{"setup":"#));
//! ```

use game_core::GameExt;
use std::io::Write;
use std::ops::ControlFlow;

use clap::Parser;
use game_core::playout::{Choice, Ended, Playable, Playout, Step};
use game_core::{Bot, Game, GameError, GameRng, Match, Millis, Viewer};
use game_host::trace::{TraceConfig, bot_seed, decision_rng, roll, write_line};
use yut::rules::WithRules;
use yut::{
    BotKind, Origin, Phase, Preset, Rules, SeatBot, Standard, Yut, YutAction, YutError, YutEvent,
    YutOptions, YutState,
};
use yut_augments::{AugmentConfig, AugmentOptions, Augments};

use crate::args::default_players;
use crate::layer::{Layer, LayerView};

pub use game_host::trace::{
    ActLine, ErrorLine, STEP_MS, Setup, SetupLine, TraceError, line_schema,
};

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
    /// The game, any of the built-in registry's [default: `yut-augments` with --preset
    /// app, else `yut`].
    #[arg(long, value_parser = game_ids())]
    pub game: Option<String>,
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
    /// How bots choose [default: `policy` for Yut, the game's first bot otherwise].
    #[arg(long, value_parser = crate::args::bot())]
    pub bot: Option<BotKind>,
}

/// `--game`: the ids of [`game_host::registry()`], listed in `--help`.
fn game_ids() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(game_host::registry().ids())
}

/// The resolved game and options of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceOptions {
    /// `yut`: the engine's rules without a layer.
    Yut(YutOptions),
    /// `yut-augments`: with the augment layer.
    Augmented(AugmentOptions),
    /// Any other registered game, played through the erased layer: its id and the
    /// options object given (`None`: the game's defaults).
    Other {
        /// The game id.
        game: String,
        /// `--options`, to be read by the game.
        options: Option<serde_json::Value>,
    },
}

impl TraceOptions {
    /// The game id.
    pub fn game(&self) -> &str {
        match self {
            TraceOptions::Yut(_) => Yut::standard().id(),
            TraceOptions::Augmented(_) => yut_augments::game().id(),
            TraceOptions::Other { game, .. } => game,
        }
    }

    /// The base options of a Yut game (`None` for another game).
    pub fn base(&self) -> Option<&YutOptions> {
        match self {
            TraceOptions::Yut(o) => Some(o),
            TraceOptions::Augmented(o) => Some(&o.base),
            TraceOptions::Other { .. } => None,
        }
    }
}

impl TraceArgs {
    /// The game id: `--game`, or `yut-augments` for `--preset app` and `yut` otherwise.
    ///
    /// ```
    /// use clap::Parser;
    /// let args = examples::trace::TraceArgs::parse_from(["trace", "--game", "one-card"]);
    /// assert_eq!(args.game_id(), "one-card");
    /// assert_eq!(examples::trace::TraceArgs::parse_from(["trace"]).game_id(), "yut");
    /// ```
    pub fn game_id(&self) -> &str {
        self.game.as_deref().unwrap_or(match self.preset {
            Preset::App => yut_augments::game().id(),
            _ => Yut::standard().id(),
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
        let yut = Yut::standard().id();
        let augmented = yut_augments::game().id();
        let mut options = match (self.game_id(), &self.options) {
            (id, Some(json)) if id == yut => {
                TraceOptions::Yut(serde_json::from_str(json).map_err(parse_error)?)
            }
            (id, None) if id == yut => TraceOptions::Yut(preset.options()),
            (id, Some(json)) if id == augmented => {
                TraceOptions::Augmented(serde_json::from_str(json).map_err(parse_error)?)
            }
            (id, None) if id == augmented => TraceOptions::Augmented(WithRules {
                base: preset.options(),
                rules: AugmentConfig::app(),
            }),
            (id, json) => TraceOptions::Other {
                game: id.to_owned(),
                options: json
                    .as_deref()
                    .map(serde_json::from_str)
                    .transpose()
                    .map_err(parse_error)?,
            },
        };
        if let Some(mode) = self.mode {
            match &mut options {
                TraceOptions::Yut(o) => o.mode = mode,
                TraceOptions::Augmented(o) => o.base.mode = mode,
                TraceOptions::Other { .. } => {
                    return Err(TraceError::Options(
                        "--mode is Yut's: this game has no mode".into(),
                    ));
                }
            }
        }
        Ok(options)
    }
}

/// The view of the player to act next, or the spectator's once the game is over.
fn next_view<R: Rules>(game: &Yut<R>, state: &YutState<R>) -> LayerView<R> {
    match game.to_act(state).first() {
        Some(&seat) => game.view(state, Viewer::Player(&state.board().players()[seat])),
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
    let board = &state.board();
    let seats = board.players().len();
    let rule_actions = R::raw_action(0).is_some();
    let kinds: &[u8] = match (board.phase(), rule_actions) {
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
        1 if board.phase() == Phase::Throw => (
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
                throw_index: board.pending().len() as u32 + rng.below(3),
                from: Origin::HOME,
            },
        ),
        3 => {
            let side = &board.sides()[usize::from(board.current_side())];
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
        TraceOptions::Other { game, options } => {
            // Through the library's trace mode over the built-in registry, as an author's
            // host traces its games.
            let config = TraceConfig {
                game,
                options,
                games: args.games,
                seed: args.seed,
                players: args.players.map_or(2, usize::from),
                timeouts: args.timeouts,
                illegal: args.illegal,
                bot: args.bot.map(|b| b.word().to_owned()),
            };
            game_host::trace::trace(&game_host::registry(), &config, &mut out)?;
        }
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
        let player = self.m.state().board().players()[seat].clone();
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
    let m = Match::new(*game, options.clone(), players.to_vec(), seed, 0)
        .map_err(|e| TraceError::Setup(e.body()))?;
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
    let mut rng = decision_rng(seed);
    let mut bots: Vec<SeatBot> = (0..players.len())
        .map(|s| SeatBot::new(args.bot.unwrap_or(BotKind::Policy), bot_seed(seed, s)))
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
        .map_err(|refused| TraceError::Engine(refused.error.body()))?;
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
                .map_err(|e| TraceError::Engine(e.body()))?;
            t.now += game.grace_ms();
            let applied = t.m.tick(t.now);
            t.m.set_connected(player, true, t.now)
                .result
                .map_err(|e| TraceError::Engine(e.body()))?;
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
