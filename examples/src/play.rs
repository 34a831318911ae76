//! The terminal game behind `cargo run --release --example play`: bots and people around
//! one board, with injectable input and output so that tests can drive it headless.
//!
//! Rules: `--preset standard` (the default) plays the standard rules; `--preset app` plays
//! `app-rules.md` with the whole augment layer of `yut-augments` (the draft of eighteen
//! augments at each side's 1st, 6th and 12th turns, the first-capture cushion and the
//! truce); `--no-augments` plays the app base rules without it; `--augments`,
//! `--cushion`/`--no-cushion` and `--truce`/`--no-truce` choose a pack (with either
//! preset). The draft is drawn on screen: the candidates with their Korean names and
//! effect texts, the choice, each side's augments with uses left, and every
//! `augmentFired` event with the augment's name.
//!
//! ```
//! use clap::Parser;
//! use examples::play::{PlayArgs, PlayEnd, run};
//! let args = PlayArgs::parse_from(["play", "--fast", "--seed", "7"]);
//! let mut out = Vec::new();
//! let end = run(&args, false, std::io::empty(), &mut out).unwrap();
//! assert!(matches!(end, PlayEnd::Finished(_)));
//! assert!(String::from_utf8(out).unwrap().contains("결과(result)"));
//! ```

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Parser;
use game_core::{Bot, Game, GameError, Match, Millis, Viewer};
use yut::rules::{RuleOptions, WithRules};
use yut::{
    LegalMove, Origin, Phase, Rules, Standard, Yut, YutAction, YutError, YutEvent, YutOptions,
    YutResult,
};
use yut_augments::{AugmentConfig, Augments};

use crate::args::{
    AugmentList, BackdoFromDoArg, BotKind, FinishArg, ModeArg, PresetArg, RankingArg, SticksArg,
    TurnSeconds, default_players, parse_augments, parse_turn_seconds,
};
use crate::board::render_with;
use crate::bots::SeatBot;
use crate::layer::{Layer, LayerView};
use crate::narrate::{describe, legal_move_label, result_lines};
use crate::style::Style;

/// The view type of the standard game.
pub type View = yut::YutView<yut::NoView, yut::NoEvent>;

/// How many narration lines the full-screen mode keeps under the board.
const LOG_LINES: usize = 14;

/// Milliseconds of the game's own clock per action (the terminal game runs no real clock).
const STEP_MS: Millis = 1_000;

/// Options of `play`. Every option of [`YutOptions`] has a flag; unset flags keep the
/// preset's value. Out-of-range numbers are refused by the engine with its own message.
#[derive(Parser, Clone, Debug)]
#[command(
    name = "play",
    about = "윷놀이 Yut Nori in the terminal: bots (and people) play a whole game.",
    long_about = "윷놀이 Yut Nori in the terminal: bots (and people) play a whole game.\n\n\
        With no arguments, two bots play the standard rules from seed 1.\n\
        A person at a seat (--humans 0) presses Enter to throw, picks a move by its number,\n\
        types q to concede, ? for help. EOF on stdin stops the game."
)]
pub struct PlayArgs {
    /// Number of players: 2–4 individual, 4/6/8 in teams [default: 2, or 4 with --mode team].
    #[arg(long)]
    pub players: Option<usize>,
    /// Individual play or two teams (even seats 청, odd seats 홍) [default: the preset's].
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// The base rule set; the flags below override single options. `app` comes with the
    /// whole augment layer (draft, cushion, truce) unless --no-augments.
    #[arg(long, value_enum, default_value_t = PresetArg::Standard)]
    pub preset: PresetArg,
    /// With `--preset app`: the app base rules without the augment layer.
    #[arg(long, conflicts_with_all = ["augments", "cushion", "no_cushion", "truce", "no_truce"])]
    pub no_augments: bool,
    /// The augments in the draft: `all`, `none`, or ids separated by commas
    /// (`first-step,yut-leap`). Switches the augment layer on, also with --preset standard.
    #[arg(long, value_parser = parse_augments)]
    pub augments: Option<AugmentList>,
    /// The first-capture cushion (첫 잡힘 완충) on [default: on with --preset app].
    #[arg(long, overrides_with = "no_cushion")]
    pub cushion: bool,
    /// The first-capture cushion off.
    #[arg(long, overrides_with = "cushion")]
    pub no_cushion: bool,
    /// The truce (쉼 약속) on [default: on with --preset app].
    #[arg(long, overrides_with = "no_truce")]
    pub truce: bool,
    /// The truce off.
    #[arg(long, overrides_with = "truce")]
    pub no_truce: bool,
    /// Pieces per side (2–5).
    #[arg(long)]
    pub pieces: Option<u8>,
    /// Stick model: realistic (p = 0.6 flat) or fair (p = 0.5).
    #[arg(long, value_enum)]
    pub sticks: Option<SticksArg>,
    /// Play without 빽도 (the marked stick alone counts as 도).
    #[arg(long)]
    pub no_backdo: bool,
    /// What a backdo does to a piece that has only stood on node 1.
    #[arg(long, value_enum)]
    pub backdo_from_do: Option<BackdoFromDoArg>,
    /// When a piece that has gone round finishes: pass 참먹이, or reach it.
    #[arg(long, value_enum)]
    pub finish: Option<FinishArg>,
    /// Chance of 낙 (sticks off the mat) in percent: 0, 3, 5 or 10.
    #[arg(long)]
    pub nak: Option<u8>,
    /// A capture made with a backdo earns no extra throw.
    #[arg(long)]
    pub no_backdo_capture_bonus: bool,
    /// 3–4 player individual games: end at the first finisher, or play on for all places.
    #[arg(long, value_enum)]
    pub ranking: Option<RankingArg>,
    /// Seconds per action (15, 30, 60 or none); recorded in the options and shown, but the
    /// terminal game runs no clock.
    #[arg(long, value_parser = parse_turn_seconds)]
    pub turn_seconds: Option<TurnSeconds>,
    /// The game's RNG seed: the same seed and inputs replay the same game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seats played by people, comma-separated (0-based): `--humans 0,2`.
    #[arg(long, value_delimiter = ',')]
    pub humans: Vec<usize>,
    /// How bot seats choose: the 8.5 timeout policy, at random, or the strong bot
    /// (expectimax over the exact throw probabilities).
    #[arg(long, value_enum, default_value_t = BotKind::Policy)]
    pub bot: BotKind,
    /// No pacing: print the whole game at once (and no full-screen redraw).
    #[arg(long)]
    pub fast: bool,
    /// No ANSI colours or screen clearing, even on a terminal.
    #[arg(long)]
    pub no_color: bool,
    /// On a terminal, scroll instead of redrawing the screen after every action.
    #[arg(long)]
    pub scroll: bool,
    /// Pause after each bot action, in milliseconds (ignored with --fast).
    #[arg(long, default_value_t = 550)]
    pub delay: u64,
}

impl PlayArgs {
    /// The options these flags select: the preset, then each flag given.
    ///
    /// ```
    /// use clap::Parser;
    /// let args = examples::play::PlayArgs::parse_from(["play", "--preset", "app", "--nak", "5"]);
    /// let o = args.options();
    /// assert_eq!(o.nak_percent, 5);
    /// assert_eq!(o.stick_model, yut::StickModel::Fair);
    /// ```
    pub fn options(&self) -> YutOptions {
        let mut o = yut::Preset::from(self.preset).options();
        if let Some(m) = self.mode {
            o.mode = m.into();
        }
        if let Some(p) = self.pieces {
            o.pieces = p;
        }
        if let Some(s) = self.sticks {
            o.stick_model = s.into();
        }
        if self.no_backdo {
            o.backdo = false;
        }
        if let Some(b) = self.backdo_from_do {
            o.backdo_from_do = b.into();
        }
        if let Some(f) = self.finish {
            o.finish_rule = f.into();
        }
        if let Some(n) = self.nak {
            o.nak_percent = n;
        }
        if self.no_backdo_capture_bonus {
            o.backdo_capture_bonus = false;
        }
        if let Some(r) = self.ranking {
            o.ranking = r.into();
        }
        if let Some(TurnSeconds(t)) = self.turn_seconds {
            o.turn_seconds = t;
        }
        o
    }

    /// The augment layer these flags select, or `None` for the engine's rules without it:
    /// `--preset app` starts from the whole pack ([`AugmentConfig::app`]), `--preset
    /// standard` from no layer at all, or from the empty pack once any of `--augments`,
    /// `--cushion`, `--truce` (or their `--no-` forms) is given; then each flag applies.
    ///
    /// ```
    /// use clap::Parser;
    /// use examples::play::PlayArgs;
    /// use yut_augments::{Augment, AugmentConfig};
    /// let config = |args: &[&str]| {
    ///     PlayArgs::parse_from(std::iter::once("play").chain(args.iter().copied())).augment_config()
    /// };
    /// assert_eq!(config(&[]), None);
    /// assert_eq!(config(&["--preset", "app"]), Some(AugmentConfig::app()));
    /// assert_eq!(config(&["--preset", "app", "--no-augments"]), None);
    /// let c = config(&["--preset", "app", "--augments", "yut-leap", "--no-truce"]).unwrap();
    /// assert_eq!((c.augments, c.cushion, c.truce), (vec![Augment::YutLeap], true, false));
    /// let c = config(&["--cushion"]).unwrap();
    /// assert!(c.augments.is_empty() && c.cushion && !c.truce);
    /// ```
    pub fn augment_config(&self) -> Option<AugmentConfig> {
        if self.no_augments {
            return None;
        }
        let any = self.augments.is_some()
            || self.cushion
            || self.no_cushion
            || self.truce
            || self.no_truce;
        let mut config = match self.preset {
            PresetArg::App => AugmentConfig::app(),
            PresetArg::Standard if any => AugmentConfig::none(),
            PresetArg::Standard => return None,
        };
        if let Some(AugmentList(list)) = &self.augments {
            config.augments = list.clone();
        }
        if self.cushion || self.no_cushion {
            config.cushion = self.cushion;
        }
        if self.truce || self.no_truce {
            config.truce = self.truce;
        }
        Some(config)
    }

    /// The number of players: `--players`, or the mode's default.
    pub fn player_count(&self) -> usize {
        self.players
            .unwrap_or_else(|| default_players(self.options().mode))
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayEnd {
    /// It was played to the end.
    Finished(YutResult),
    /// The input ended while a person was to act.
    InputClosed,
}

/// Why `play` could not run.
#[derive(Debug)]
pub enum PlayError {
    /// The engine refused the options (its typed error, e.g. `INVALID_OPTION`).
    Setup(YutError),
    /// The command line is inconsistent in a way the engine does not judge (a `--humans`
    /// seat that does not exist).
    Args(String),
    /// Writing the output failed.
    Io(io::Error),
    /// The engine refused a bot's action: a bug, reported rather than hidden.
    Engine(YutError),
}

impl PlayError {
    /// The process exit code: 2 for refused options, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            PlayError::Setup(_) | PlayError::Args(_) => 2,
            PlayError::Io(_) | PlayError::Engine(_) => 1,
        }
    }
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Setup(e) => write!(f, "오류 [{}]: {}", e.code(), e.message()),
            PlayError::Args(m) => write!(f, "오류 [BAD_ARGS]: {m}"),
            PlayError::Io(e) => write!(f, "출력 오류(output error): {e}"),
            PlayError::Engine(e) => write!(f, "엔진 오류 [{}]: {}", e.code(), e.message()),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<io::Error> for PlayError {
    fn from(e: io::Error) -> Self {
        PlayError::Io(e)
    }
}

/// The output: narration lines and the board, either scrolling (appended) or redrawn in
/// place on a terminal.
struct Screen<W: Write> {
    out: W,
    style: Style,
    redraw: bool,
    log: VecDeque<String>,
}

impl<W: Write> Screen<W> {
    /// A narration line: printed now when scrolling, kept for the next frame otherwise.
    fn line(&mut self, text: &str) -> io::Result<()> {
        if self.redraw {
            if self.log.len() == LOG_LINES {
                self.log.pop_front();
            }
            self.log.push_back(text.to_owned());
            Ok(())
        } else {
            writeln!(self.out, "{text}")
        }
    }

    /// Shows the board (`frame`: the board with its panel): scrolling, printed with a
    /// blank line around it (only when `moved`, or `force`); redrawing, a whole new frame
    /// every time.
    fn board(&mut self, frame: &[String], moved: bool, force: bool) -> io::Result<()> {
        if self.redraw {
            write!(self.out, "\x1b[2J\x1b[H")?;
            for line in frame {
                writeln!(self.out, "{line}")?;
            }
            writeln!(self.out)?;
            for line in &self.log {
                writeln!(self.out, "{line}")?;
            }
        } else if moved || force {
            writeln!(self.out)?;
            for line in frame {
                writeln!(self.out, "{line}")?;
            }
            writeln!(self.out)?;
        }
        self.out.flush()
    }

    /// A line written directly (prompts, errors): never kept in the log.
    fn direct(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }
}

/// What a person typed, once read.
enum Input<X> {
    /// An action to send to the engine.
    Act(YutAction<X>),
    /// Show the help text.
    Help,
    /// Not understood: the message says why.
    Invalid(String),
}

/// Reads a person's line as an action. Numbers pick from the numbered list: `legal` in
/// the move phase, the rules' `choices` in the rule phase (the augment draft), both
/// 1-based; Enter or `t` throws; `m I F` sends a raw move (throw index `I`, from node `F`
/// or `home`); `c I` sends the rules' raw action with index `I` (`CHOOSE_AUGMENT`,
/// 0-based); `q` concedes. Anything that parses goes to the engine, which judges it.
fn parse_input<X: Clone>(
    line: &str,
    phase: Phase,
    legal: &[LegalMove],
    choices: &[(String, X)],
    raw: fn(u32) -> Option<X>,
) -> Input<X> {
    let text = line.trim().to_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    let out_of_list = |n: i64, len: usize| {
        Input::Invalid(format!(
            "목록에 없는 번호예요: {n}. 1~{len} 중에서 골라 주세요."
        ))
    };
    match words.as_slice() {
        [] | ["t"] | ["throw"] | ["던지기"] => Input::Act(YutAction::Throw),
        ["q"] | ["quit"] | ["concede"] | ["기권"] => Input::Act(YutAction::Concede),
        ["?"] | ["h"] | ["help"] | ["도움말"] => Input::Help,
        ["m", index, from] => {
            let Ok(throw_index) = index.parse::<u32>() else {
                return Input::Invalid(format!(
                    "결과 번호(throw index)는 0부터 세는 숫자예요: {index:?}"
                ));
            };
            let from = if *from == "home" || *from == "대기" {
                Origin::HOME
            } else if let Ok(n) = from.parse::<u8>() {
                Origin::Node(n)
            } else {
                return Input::Invalid(format!(
                    "출발 자리(from)는 노드 번호나 home이에요: {from:?}"
                ));
            };
            Input::Act(YutAction::Move { throw_index, from })
        }
        ["c", index] => {
            let Ok(index) = index.parse::<u32>() else {
                return Input::Invalid(format!(
                    "후보 번호(candidate index)는 0부터 세는 숫자예요: {index:?}"
                ));
            };
            match raw(index) {
                Some(action) => Input::Act(YutAction::Rule(action)),
                None => Input::Invalid(
                    "이 규칙에는 고를 증강이 없어요 (no augment layer in this game).".to_owned(),
                ),
            }
        }
        [word] if word.parse::<i64>().is_ok() => {
            let n = word.parse::<i64>().unwrap_or(0);
            let pick = usize::try_from(n).ok().and_then(|n| n.checked_sub(1));
            match phase {
                Phase::Move => match pick {
                    Some(i) if i < legal.len() => Input::Act(YutAction::Move {
                        throw_index: legal[i].throw_index,
                        from: legal[i].from,
                    }),
                    _ => out_of_list(n, legal.len()),
                },
                Phase::Rule if !choices.is_empty() => match pick {
                    Some(i) if i < choices.len() => {
                        Input::Act(YutAction::Rule(choices[i].1.clone()))
                    }
                    _ => out_of_list(n, choices.len()),
                },
                // Let the engine say that this is not the time to move.
                _ => Input::Act(YutAction::Move {
                    throw_index: 0,
                    from: Origin::HOME,
                }),
            }
        }
        _ => Input::Invalid(format!(
            "알 수 없는 입력이에요: {:?}. 번호, Enter(던지기), q(기권), ?(도움말) 중에서 입력해 주세요.",
            line.trim()
        )),
    }
}

const HELP: &str = "\
  Enter / t     윷 던지기 (throw)
  1, 2, ...     목록에서 고르기: 수, 또는 증강 후보 (pick a move, or an augment, from the list)
  m I F         직접 옮기기: 결과 번호 I(0부터)와 출발 자리 F(노드 번호 또는 home)
                (raw move: throw index I from node F or home)
  q             기권 (concede)
  ?             도움말 (this help)";

/// Plays one game with the given flags. `terminal` says whether the output is a terminal
/// (colours and redrawing are used only then, and never with `--no-color`). People read
/// from `input`; the game stops cleanly if it ends while a person is to act.
///
/// With the augment layer ([`PlayArgs::augment_config`]) the game is `yut-augments`
/// (`yut::Yut::new(yut_augments::Augments)`); without it, `yut` (the standard rules, or
/// the app base rules).
pub fn run(
    args: &PlayArgs,
    terminal: bool,
    input: impl BufRead,
    output: impl Write,
) -> Result<PlayEnd, PlayError> {
    let base = args.options();
    match args.augment_config() {
        None => run_game::<Standard>(args, base, terminal, input, output),
        Some(rules) => {
            run_game::<Augments>(args, WithRules { base, rules }, terminal, input, output)
        }
    }
}

/// [`run`] under the rules `R` with `options`.
fn run_game<R: Layer>(
    args: &PlayArgs,
    options: R::Options,
    terminal: bool,
    mut input: impl BufRead,
    output: impl Write,
) -> Result<PlayEnd, PlayError> {
    let count = args.player_count();
    let players: Vec<String> = (1..=count).map(|i| format!("P{i}")).collect();
    let game = R::game();
    let mut m = Match::new(game, options.clone(), players.clone(), args.seed, 0)
        .map_err(PlayError::Setup)?;
    if let Some(&bad) = args.humans.iter().find(|&&h| h >= count) {
        return Err(PlayError::Args(format!(
            "--humans {bad}: 좌석은 0~{}번이에요 (seats are 0-based, {count} players).",
            count - 1
        )));
    }
    let config = options.config();
    let humans = args.humans.clone();
    let ansi = terminal && !args.no_color;
    let style = Style { ansi };
    let frame = |view: &LayerView<R>| {
        render_with(view, &humans, style, &R::panel_lines(config, view, style))
    };
    let mut screen = Screen {
        out: output,
        style,
        redraw: ansi && !args.fast && !args.scroll,
        log: VecDeque::new(),
    };
    let pause = (!args.fast).then(|| Duration::from_millis(args.delay));
    let mut bots: Vec<SeatBot> = (0..count)
        .map(|seat| {
            SeatBot::new(
                args.bot,
                args.seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(seat as u64 + 1)),
            )
        })
        .collect();

    let view = game.view(m.state(), Viewer::Spectator);
    for line in header::<R>(args, &options, &view, &humans, style) {
        screen.line(&line)?;
    }
    // What happened at setup (the first side's draft is offered before anyone acts).
    for line in describe::<R>(
        &m.state().log.iter().cloned().collect::<Vec<_>>(),
        &view,
        style,
    ) {
        screen.line(&line)?;
    }
    screen.board(&frame(&view), false, true)?;

    let mut now: Millis = 0;
    while !game.is_over(m.state()) {
        let Some(&seat) = game.to_act(m.state()).first() else {
            break;
        };
        let player = players[seat].clone();
        now += STEP_MS;
        let human = humans.contains(&seat);
        // A choice of the rules' own phase (the draft) changes the panel: show the board.
        let rule_phase = m.state().board.phase == Phase::Rule;
        let events = if human {
            match ask_person(&game, &mut m, seat, &player, now, &mut input, &mut screen)? {
                Some(events) => events,
                None => {
                    screen.direct(
                        &style.bold("입력이 끝나 게임을 멈춰요 (input closed; game stopped)."),
                    )?;
                    return Ok(PlayEnd::InputClosed);
                }
            }
        } else {
            let action = bots[seat]
                .choose(&game, m.state(), seat)
                .unwrap_or(YutAction::Throw);
            m.act(&player, &action, now).map_err(PlayError::Engine)?
        };
        let view = game.view(m.state(), Viewer::Spectator);
        for line in describe::<R>(&events, &view, style) {
            screen.line(&line)?;
        }
        let threw = events
            .iter()
            .any(|e| matches!(e, YutEvent::Thrown { .. } | YutEvent::Nak { .. }));
        let still_mine = view
            .turn
            .as_ref()
            .is_some_and(|t| usize::from(t.seat) == seat);
        if threw && still_mine && !view.pending.is_empty() {
            let pending: Vec<String> = view
                .pending
                .iter()
                .map(|t| crate::narrate::throw_label(*t))
                .collect();
            screen.line(&format!(
                "   모아 둔 결과(pending): {}",
                pending.join(" · ")
            ))?;
        }
        let captured = events
            .iter()
            .any(|e| matches!(e, YutEvent::Captured { .. }));
        if captured
            && view.phase == Phase::Throw
            && view
                .turn
                .as_ref()
                .is_some_and(|t| usize::from(t.seat) == seat)
        {
            screen.line(&style.highlight("   잡았으니 한 번 더 던져요 (bonus throw)"))?;
        }
        let moved = rule_phase
            || events
                .iter()
                .any(|e| matches!(e, YutEvent::Moved { .. } | YutEvent::Conceded { .. }));
        screen.board(&frame(&view), moved, false)?;
        if let Some(pause) = pause
            && !human
        {
            std::thread::sleep(pause);
        }
    }

    let view = game.view(m.state(), Viewer::Spectator);
    let result = game
        .outcome(m.state())
        .ok_or(PlayError::Engine(YutError::Core(
            game_core::Rejection::GameOver,
        )))?;
    if screen.redraw {
        screen.board(&frame(&view), true, true)?;
    }
    for line in result_lines(&result, &view, style) {
        screen.direct(&line)?;
    }
    Ok(PlayEnd::Finished(result))
}

/// The lines printed before the first throw: who plays, the rules in force (the rule
/// layer's too), how to read the sticks.
fn header<R: Layer>(
    args: &PlayArgs,
    options: &R::Options,
    view: &LayerView<R>,
    humans: &[usize],
    style: Style,
) -> Vec<String> {
    let o: &YutOptions = options.base();
    let sides: Vec<String> = view
        .sides
        .iter()
        .map(|s| crate::board::side_tag(view, s.id, style))
        .collect();
    let backdo_from_do = match o.backdo_from_do {
        yut::BackdoFromDo::Chammeogi => "참먹이(chammeogi)",
        yut::BackdoFromDo::Finish => "즉시 남(finish)",
        yut::BackdoFromDo::Home => "대기로(home)",
    };
    let finish = match o.finish_rule {
        yut::FinishRule::Pass => "참먹이를 지나야 남(pass)",
        yut::FinishRule::Reach => "참먹이에 닿으면 남(reach)",
    };
    let sticks = match o.stick_model {
        yut::StickModel::Realistic => "realistic(배 0.6)",
        yut::StickModel::Fair => "fair(배 0.5)",
    };
    let ranking = match o.ranking {
        yut::Ranking::First => "first(1등이 나오면 끝)",
        yut::Ranking::All => "all(끝까지)",
    };
    let bot = match args.bot {
        BotKind::Policy => "policy(8.5 시간 초과 정책)",
        BotKind::Random => "random(무작위)",
        BotKind::Strong => "strong(기댓값 탐색 expectimax)",
    };
    let people = if humans.is_empty() {
        "없음(none)".to_owned()
    } else {
        humans
            .iter()
            .map(|&s| view.players[s].clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let first = view
        .turn
        .as_ref()
        .map(|t| {
            if o.mode == yut::Mode::Team {
                format!(
                    "{} {}",
                    crate::board::side_tag(view, t.side, style),
                    t.player
                )
            } else {
                crate::board::side_tag(view, t.side, style)
            }
        })
        .unwrap_or_default();
    let mut lines = vec![
        style.bold(&format!(
            "윷놀이 Yut Nori — {} · seed {}",
            sides.join(" vs "),
            args.seed
        )),
        format!(
            "규칙(rules): 말 {}개 · 윷가락 {sticks} · 빽도 {} · 낙 {}% · 순위 {ranking}",
            o.pieces,
            if o.backdo {
                "사용(on)"
            } else {
                "없음(off)"
            },
            o.nak_percent,
        ),
        format!(
            "             도 자리 빽도 → {backdo_from_do} · 날: {finish} · 빽도 잡기 보너스 {}",
            if o.backdo_capture_bonus {
                "켬(on)"
            } else {
                "끔(off)"
            },
        ),
    ];
    lines.extend(R::header_lines(options.config(), style));
    lines.extend([
        format!("봇(bots): {bot} · 사람(humans): {people}"),
        "윷가락(sticks): 배 = 평평한 면(flat), 등 = 둥근 면(round), * = 빽도 표시 가락(marked stick)".to_owned(),
        format!("선(first to throw): {first}"),
    ]);
    lines
}

/// The events a person's accepted action produced.
type Events<R> = Vec<YutEvent<<R as Rules>::Event>>;

/// Asks the person at `seat` (`player`) until the engine accepts an action; returns its
/// events, or `None` when the input ends.
fn ask_person<R: Layer, W: Write>(
    game: &Yut<R>,
    m: &mut Match<Yut<R>>,
    seat: usize,
    player: &str,
    now: Millis,
    input: &mut impl BufRead,
    screen: &mut Screen<W>,
) -> Result<Option<Events<R>>, PlayError> {
    let style = screen.style;
    let view = game.view(m.state(), Viewer::Player(player));
    let legal = view.legal_moves.clone().unwrap_or_default();
    let choices = R::choices(&view);
    let hint = Yut::<R>::policy_pick(&legal);
    screen.direct("")?;
    match view.phase {
        Phase::Move => {
            screen.direct(&style.bold(&format!(
                "{player} 차례 — 움직일 수를 고르세요 (your move; q = 기권, ? = 도움말)"
            )))?;
            for (i, mv) in legal.iter().enumerate() {
                let tag = if Some(*mv) == hint {
                    style.dim("  ← 추천(hint)")
                } else {
                    String::new()
                };
                screen.direct(&format!(
                    "  {:>2}) {}{tag}",
                    i + 1,
                    legal_move_label(mv, style)
                ))?;
            }
        }
        Phase::Rule => {
            screen.direct(&style.bold(&format!(
                "{player} 차례 — {} — 번호로 골라요 (q = 기권, ? = 도움말)",
                R::choice_title(&view)
            )))?;
            let timeout = game.timeout_action(m.state(), seat);
            for (i, (label, action)) in choices.iter().enumerate() {
                let tag = if timeout.as_ref() == Some(&YutAction::Rule(action.clone())) {
                    style.dim("  ← 시간이 다 되면 이것(timeout pick)")
                } else {
                    String::new()
                };
                screen.direct(&format!("  {:>2}) {label}{tag}", i + 1))?;
            }
        }
        _ => screen.direct(&style.bold(&format!(
            "{player} 차례 — Enter로 윷을 던지세요 (press Enter to throw; q = 기권, ? = 도움말)"
        )))?,
    }
    let mut line = String::new();
    loop {
        write!(screen.out, "{player}> ")?;
        screen.out.flush()?;
        line.clear();
        let read = match input.read_line(&mut line) {
            Ok(n) => n,
            // Unreadable input (not UTF-8): say so and ask again.
            // (`read_line` has consumed the line already.)
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                screen.direct(&style.error("  ✗ 읽을 수 없는 입력이에요 (not UTF-8)."))?;
                continue;
            }
            Err(_) => 0,
        };
        if read == 0 {
            screen.direct("")?;
            return Ok(None);
        }
        match parse_input(&line, view.phase, &legal, &choices, R::raw_action) {
            Input::Help => {
                screen.direct(HELP)?;
                if let Some(help) = R::raw_help() {
                    screen.direct(help)?;
                }
            }
            Input::Invalid(message) => screen.direct(&style.error(&format!("  ✗ {message}")))?,
            Input::Act(action) => match m.act(player, &action, now) {
                Ok(events) => return Ok(Some(events)),
                Err(e) => {
                    screen.direct(&style.error(&format!("  ✗ {} ({})", e.message(), e.code())))?
                }
            },
        }
    }
}
