//! The terminal game behind `cargo run --release --example play`: bots and people around
//! one board, with injectable input and output so that tests can drive it headless.
//!
//! Rules: `--preset standard` (the default) plays the standard rules; `--preset app` plays
//! the app's rules with the whole augment layer of `yut-augments` (the draft of eighteen
//! augments at each side's 1st, 6th and 12th turns, the first-capture cushion and the
//! truce); `--no-augments` plays the app base rules without it; `--augments`,
//! `--cushion`/`--no-cushion` and `--truce`/`--no-truce` choose a pack (with either
//! preset). The draft is drawn on screen: the candidates with their Korean names and
//! effect texts, the choice, each side's augments with uses left, and every
//! `augmentFired` event with the augment's name.
//!
//! A person is told at every prompt what can be typed at that moment; `?` shows the rules
//! in force (the options, the augment pack) and the keys on one screen, and `q` asks before
//! conceding. Every Korean line carries its English gloss, the engine's error messages too
//! (by their stable code, [`crate::narrate::error_text`]).
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

use game_core::GameExt;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Parser;
use game_core::{Bot, Game, GameError, Match, Millis, Viewer};
use yut::rules::{RuleOptions, WithRules};
use yut::{
    BackdoFromDo, BotKind, FinishRule, LegalMove, Mode, Origin, Phase, Preset, Ranking, Rules,
    SeatBot, Standard, StickModel, Yut, YutAction, YutError, YutEvent, YutOptions, YutResult,
};
use yut_augments::{AugmentConfig, Augments};

use crate::args::{AugmentList, TurnSeconds, default_players, parse_augments, parse_turn_seconds};
use crate::board::render_with;
use crate::layer::{Choice, Layer, LayerView};
use crate::narrate::{describe, error_text, glossed_message, legal_move_label, result_lines};
use crate::style::{Style, display_width, pad};

/// The view type of the standard game.
pub type View = yut::YutView<yut::NoView, yut::NoEvent>;

/// How many narration lines the full-screen mode keeps under the board.
const LOG_LINES: usize = 20;

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
        A person at a seat (--humans 0) presses Enter to throw and picks a move by its number;\n\
        every prompt lists what can be typed. ? shows the rules in force and the keys;\n\
        q concedes after asking (y = concede, n = play on). EOF on stdin stops the game.\n\n\
        Words: a waiting piece (대기) is not on the board yet, or was captured and sent back;\n\
        a finished piece (남) has gone round and left the board. The board shows every node's\n\
        number, with the shape of the side standing there before it (●19).\n\
        The rules in full: yut/RULES.md."
)]
pub struct PlayArgs {
    /// Number of players: 2–4 individual, 4/6/8 in teams [default: 2, or 4 with --mode team].
    #[arg(long, value_parser = crate::args::player_count())]
    pub players: Option<u8>,
    /// Individual play or two teams (even seats 청, odd seats 홍) [default: the preset's].
    #[arg(long, value_parser = crate::args::mode())]
    pub mode: Option<Mode>,
    /// The base rule set; the flags below override single options. `app` comes with the
    /// whole augment layer (draft, cushion, truce) unless --no-augments.
    #[arg(long, value_parser = crate::args::preset(), default_value_t = Preset::Standard)]
    pub preset: Preset,
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
    #[arg(long, value_parser = crate::args::sticks())]
    pub sticks: Option<StickModel>,
    /// Play without 빽도 (the marked stick alone counts as 도).
    #[arg(long)]
    pub no_backdo: bool,
    /// What a backdo does to a piece that has only stood on node 1 (도).
    #[arg(long, value_parser = crate::args::backdo_from_do())]
    pub backdo_from_do: Option<BackdoFromDo>,
    /// When a piece that has gone round finishes (남): it must pass 참먹이 (node 0), or
    /// reach it.
    #[arg(long, value_parser = crate::args::finish())]
    pub finish: Option<FinishRule>,
    /// Chance of 낙 (sticks off the mat) in percent: 0, 3, 5 or 10.
    #[arg(long)]
    pub nak: Option<u8>,
    /// A capture made with a backdo earns no extra throw.
    #[arg(long)]
    pub no_backdo_capture_bonus: bool,
    /// 3–4 player individual games: end at the first finisher, or play on for all places.
    #[arg(long, value_parser = crate::args::ranking())]
    pub ranking: Option<Ranking>,
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
    /// How bot seats choose: the engine's timeout policy, at random, or the strong bot
    /// (expectimax over the exact throw probabilities).
    #[arg(long, value_parser = crate::args::bot(), default_value_t = BotKind::Policy)]
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
        let mut o = self.preset.options();
        if let Some(m) = self.mode {
            o.mode = m;
        }
        if let Some(p) = self.pieces {
            o.pieces = p;
        }
        if let Some(s) = self.sticks {
            o.stick_model = s;
        }
        if self.no_backdo {
            o.backdo = false;
        }
        if let Some(b) = self.backdo_from_do {
            o.backdo_from_do = b;
        }
        if let Some(f) = self.finish {
            o.finish_rule = f;
        }
        if let Some(n) = self.nak {
            o.nak_percent = n;
        }
        if self.no_backdo_capture_bonus {
            o.backdo_capture_bonus = false;
        }
        if let Some(r) = self.ranking {
            o.ranking = r;
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
            Preset::App => AugmentConfig::app(),
            _ if any => AugmentConfig::none(),
            _ => return None,
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
            .map_or_else(|| default_players(self.options().mode), usize::from)
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
            PlayError::Setup(e) => write!(f, "오류 [{}]: {}", e.code(), glossed_message(e)),
            PlayError::Args(m) => write!(f, "오류 [BAD_ARGS]: {m}"),
            PlayError::Io(e) => write!(f, "출력 오류(output error): {e}"),
            PlayError::Engine(e) => write!(
                f,
                "엔진 오류(engine error) [{}]: {}",
                e.code(),
                glossed_message(e)
            ),
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
    /// What `?` shows: the rules in force and the keys.
    help: Vec<String>,
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
    /// Concede, once the person confirms it.
    Concede,
    /// Show the rules in force and the keys.
    Help,
    /// Not understood: the message says why.
    Invalid(String),
}

/// Reads a person's line as an action. Numbers pick from the numbered list: `legal` in
/// the move phase, the rules' `choices` in the rule phase (the augment draft), both
/// 1-based; Enter or `t` throws; `m I F` sends a raw move (throw index `I`, from node `F`
/// or `대기`/`waiting`); `c I` sends the rules' raw action with index `I`
/// (`CHOOSE_AUGMENT`, 0-based); `q` concedes (after asking). Anything that parses goes to
/// the engine, which judges it.
fn parse_input<X: Clone>(
    line: &str,
    phase: Phase,
    legal: &[LegalMove],
    choices: &[Choice<X>],
    raw: fn(u32) -> Option<X>,
) -> Input<X> {
    let text = line.trim().to_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    let out_of_list = |n: i64, len: usize| {
        Input::Invalid(format!(
            "목록에 없는 번호예요: {n}. 1~{len} 중에서 골라 주세요 (not on the list: pick 1–{len})."
        ))
    };
    match words.as_slice() {
        [] | ["t"] | ["throw"] | ["던지기"] => Input::Act(YutAction::Throw),
        ["q"] | ["quit"] | ["concede"] | ["기권"] => Input::Concede,
        ["?"] | ["h"] | ["help"] | ["도움말"] | ["규칙"] => Input::Help,
        ["m", index, from] => {
            let Ok(throw_index) = index.parse::<u32>() else {
                return Input::Invalid(format!(
                    "결과 번호(throw index)는 0부터 세는 숫자예요: {index:?} \
                     (the throw index is a number counted from 0)"
                ));
            };
            // `home` is the engine's wire word for the same place.
            let from = if matches!(*from, "대기" | "waiting" | "home") {
                Origin::HOME
            } else if let Ok(n) = from.parse::<u8>() {
                Origin::Node(n)
            } else {
                return Input::Invalid(format!(
                    "출발 자리(from)는 노드 번호나 대기예요: {from:?} \
                     (from is a node number or 대기/waiting)"
                ));
            };
            Input::Act(YutAction::Move { throw_index, from })
        }
        ["c", index] => {
            let Ok(index) = index.parse::<u32>() else {
                return Input::Invalid(format!(
                    "후보 번호(candidate index)는 0부터 세는 숫자예요: {index:?} \
                     (the candidate index is a number counted from 0)"
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
                        Input::Act(YutAction::Rule(choices[i].action.clone()))
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
            "알 수 없는 입력이에요: {:?} (not understood) — 아래에서 골라 주세요 (see below).",
            line.trim()
        )),
    }
}

/// Everything that can be typed, for `?` (after the line for the numbers,
/// [`PICK_MOVE`] or [`PICK_MOVE_OR_AUGMENT`]).
const KEYS: &str =
    "  m I F         직접 옮기기: 결과 번호 I(0부터)와 출발 자리 F(노드 번호 또는 대기)
                (raw move: throw index I, counted from 0, from node F or 대기/waiting)
  q             기권 — 먼저 물어봐요 (concede; asks first)
  ?             이 화면: 규칙과 입력 (this screen: the rules in force and the keys)";

/// The first keys of `?` without a draft.
const PICK_MOVE: &str = "입력(what you can type):
  Enter / t     윷 던지기 (throw)
  1, 2, ...     목록에서 수 고르기 (pick a move from the list)";

/// The first keys of `?` when the rules have a draft.
const PICK_MOVE_OR_AUGMENT: &str = "입력(what you can type):
  Enter / t     윷 던지기 (throw)
  1, 2, ...     목록에서 고르기: 수, 또는 증강 후보 (pick a move, or an augment, from the list)";

/// The rows of the rules in force, before the rule layer's: the options, each with what
/// its value means.
fn option_rows<V, E, A>(
    o: &YutOptions,
    view: &yut::YutView<V, E, A>,
    humans: &[usize],
    bot: BotKind,
) -> Vec<(String, String)> {
    let style = Style::PLAIN;
    let mode = match o.mode {
        yut::Mode::Individual => {
            "개인전(individual) — 사람마다 한 편 (each player is a side)".to_owned()
        }
        yut::Mode::Team => {
            let teams: Vec<String> = view
                .sides
                .iter()
                .map(|s| {
                    format!(
                        "{} {}",
                        crate::board::side_tag(view, s.id, style),
                        s.members.join("·")
                    )
                })
                .collect();
            format!(
                "팀전(team) — 짝수 자리 청, 홀수 자리 홍 (even seats 청, odd seats 홍): {}",
                teams.join(" vs ")
            )
        }
        other => other.word().to_owned(),
    };
    let (people, bots): (Vec<usize>, Vec<usize>) =
        (0..view.players.len()).partition(|s| humans.contains(s));
    let names = |seats: &[usize]| {
        if seats.is_empty() {
            "-".to_owned()
        } else {
            seats
                .iter()
                .map(|&s| view.players[s].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let players = format!(
        "{n}인({n} players) — 사람(human): {} · 봇(bot, {}): {}",
        names(&people),
        bot.word(),
        names(&bots),
        n = view.players.len(),
    );
    let sticks = match o.stick_model {
        yut::StickModel::Realistic => {
            "realistic — 가락마다 배가 나올 확률 0.6 (each stick lands flat with p = 0.6)"
        }
        yut::StickModel::Fair => {
            "fair — 가락마다 배가 나올 확률 0.5 (each stick lands flat with p = 0.5)"
        }
    };
    let backdo = if o.backdo {
        "켬(on) — 표시 가락(*)만 배면 빽도, 한 칸 뒤로 (the marked stick alone flat: one step back)"
    } else {
        "끔(off) — 표시 가락만 배여도 도 (the marked stick alone counts as 도)"
    };
    let backdo_from_do = match o.backdo_from_do {
        yut::BackdoFromDo::Chammeogi => {
            "참먹이로(chammeogi) — 참먹이(0)로 가서 돈 말이 돼요 (to node 0, as if gone round)"
        }
        yut::BackdoFromDo::Finish => {
            "즉시 남(finish) — 그 말은 바로 남 (the piece finishes at once)"
        }
        yut::BackdoFromDo::Home => {
            "대기로(waiting) — 그 말은 대기로 돌아가요 (the piece goes back to waiting)"
        }
    };
    let finish = match o.finish_rule {
        yut::FinishRule::Pass => {
            "pass — 참먹이(0)를 지나야 남, 0에 멈추면 아직 판 위 (a piece must step past node 0)"
        }
        yut::FinishRule::Reach => "reach — 참먹이(0)에 닿으면 남 (reaching node 0 finishes)",
    };
    let nak = match o.nak_percent {
        0 => "0% — 낙 없음 (the sticks never fall off the mat)".to_owned(),
        n => format!(
            "{n}% — 던질 때마다 이 확률로 윷가락이 판 밖으로, 결과 없음 (chance of no result)"
        ),
    };
    let bonus = if o.backdo_capture_bonus {
        "켬(on) — 빽도로 잡아도 한 번 더 던져요 (a capture with a backdo earns a throw too)"
    } else {
        "끔(off) — 빽도로 잡으면 더 던지지 않아요 (a capture with a backdo earns no throw)"
    };
    let ranking = match (o.ranking, o.mode, view.players.len()) {
        (yut::Ranking::All, yut::Mode::Individual, 3..) => {
            "all — 끝까지 모든 순위를 가려요 (play on for every place)".to_owned()
        }
        (r, _, _) => format!(
            "first — 한 편이 말을 모두 내면 끝 (the game ends when a side finishes){}",
            if r == yut::Ranking::All {
                "; all은 3–4인 개인전에만 (all: 3–4 player individual games only)"
            } else {
                ""
            }
        ),
    };
    let seconds = match o.turn_seconds {
        Some(t) => {
            format!("{t}초({t} s) — 기록만 해요, 이 게임에는 시계가 없어요 (not timed here)")
        }
        None => "없음(none) — 시간 제한 없음 (no limit)".to_owned(),
    };
    let pieces = format!("편마다 {n}개 ({n} per side)", n = o.pieces);
    [
        ("모드(mode)", mode),
        ("참가자(players)", players),
        ("말(pieces)", pieces),
        ("윷가락(sticks)", sticks.to_owned()),
        ("빽도(backdo)", backdo.to_owned()),
        ("도에서 빽도(backdo from 도)", backdo_from_do.to_owned()),
        ("남(finish rule)", finish.to_owned()),
        ("낙(nak)", nak),
        ("빽도 잡기 보너스(bonus)", bonus.to_owned()),
        ("순위(ranking)", ranking),
        ("시간(turn seconds)", seconds),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

/// The screen `?` shows: the rules in force (`rows`), the basics of a turn, the keys
/// (`raw_help`: the help line of the rules' own raw action, the draft's, if they have
/// one). No line is wider than 120 columns.
fn rules_summary(rows: &[(String, String)], raw_help: Option<&str>) -> Vec<String> {
    let column = rows
        .iter()
        .map(|(l, _)| display_width(l))
        .max()
        .unwrap_or(0)
        + 4;
    let mut lines =
        vec!["규칙(rules in force) — 자세히는 yut/RULES.md (all the rules):".to_owned()];
    for (label, value) in rows {
        let line = format!("  {}{value}", pad(label, column - 2));
        // A gloss that would run past the screen goes on its own line, under the value.
        match value.rfind(" (") {
            Some(at) if display_width(&line) > 120 => {
                lines.push(format!("  {}{}", pad(label, column - 2), &value[..at]));
                lines.push(format!("{}{}", " ".repeat(column + 2), &value[at + 1..]));
            }
            _ => lines.push(line),
        }
    }
    lines.extend(BASICS.lines().map(str::to_owned));
    let pick = if raw_help.is_some() {
        PICK_MOVE_OR_AUGMENT
    } else {
        PICK_MOVE
    };
    lines.extend(pick.lines().chain(KEYS.lines()).map(str::to_owned));
    lines.extend(raw_help.map(str::to_owned));
    lines
}

/// How a turn goes, for `?`: what the sticks count, what earns a throw, stacking and
/// capturing, who wins.
const BASICS: &str = "\
기본(basics): 배(flat)가 1개면 도(1칸, 1 step) · 2개 개(2) · 3개 걸(3) · 4개 윷(4) · 0개 모(5)
  윷·모가 나오거나 상대 말을 잡으면 한 번 더 던져요 (윷, 모 or a capture: throw again).
  내 말 위에 서면 업어 함께 가고, 상대 말 위에 서면 잡아 대기로 보내요 (stack on yours, capture theirs).
  말을 모두 먼저 내면(남) 이겨요 (the first side to finish all its pieces wins).";

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
        help: Vec::new(),
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
    let mut rows = option_rows(options.base(), &view, &humans, args.bot);
    rows.extend(R::summary_rows(config));
    screen.help = rules_summary(&rows, R::raw_help());
    for line in header::<R>(args, &options, &view, &humans, style) {
        screen.line(&line)?;
    }
    // What happened at setup (the first side's draft is offered before anyone acts).
    for line in describe::<R>(
        &m.state().log().iter().cloned().collect::<Vec<_>>(),
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
        let rule_phase = m.state().board().phase() == Phase::Rule;
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
    let on_off = |b: bool| if b { "켬(on)" } else { "끔(off)" };
    let sides: Vec<String> = view
        .sides
        .iter()
        .map(|s| crate::board::side_tag(view, s.id, style))
        .collect();
    let backdo_from_do = match o.backdo_from_do {
        yut::BackdoFromDo::Chammeogi => "참먹이로(chammeogi)",
        yut::BackdoFromDo::Finish => "즉시 남(finish)",
        yut::BackdoFromDo::Home => "대기로(waiting)",
    };
    let finish = match o.finish_rule {
        yut::FinishRule::Pass => "참먹이를 지나야(pass)",
        yut::FinishRule::Reach => "참먹이에 닿으면(reach)",
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
        BotKind::Policy => "policy(엔진의 시간 초과 수 timeout policy)",
        BotKind::Random => "random(무작위)",
        BotKind::Strong => "strong(기댓값 탐색 expectimax)",
        other => other.word(),
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
            "규칙(rules): 말(pieces) {}개 · 윷가락(sticks) {sticks} · 빽도(backdo) {} · 낙(nak) {}%",
            o.pieces,
            on_off(o.backdo),
            o.nak_percent,
        ),
        format!(
            "             도에서 빽도(backdo from 도) → {backdo_from_do} · 남(finish) {finish}"
        ),
        format!(
            "             빽도 잡기 보너스(bonus) {} · 순위(ranking) {ranking} · 시간(turn) {}",
            on_off(o.backdo_capture_bonus),
            o.turn_seconds.map_or_else(
                || "없음(none)".to_owned(),
                |t| format!("{t}초(not timed here)")
            ),
        ),
        format!(
            "             전체 규칙(all the rules): yut/RULES.md{}",
            if humans.is_empty() {
                ""
            } else {
                " · 게임 중 ? = 규칙 요약(rules in force)"
            }
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
    let keys = match view.phase {
        Phase::Move => {
            let hint = legal
                .iter()
                .position(|mv| Some(*mv) == hint)
                .map(|i| format!(" · 추천(hint) {}", i + 1))
                .unwrap_or_default();
            format!(
                "  입력(type): {} = 그 수 두기(play that move){hint} · ? = 규칙·도움말(rules & help) · q = 기권(concede)",
                numbers(legal.len())
            )
        }
        Phase::Rule => {
            let timeout = game.timeout_action(m.state(), seat);
            let pick = choices
                .iter()
                .position(|c| timeout.as_ref() == Some(&YutAction::Rule(c.action.clone())))
                .map(|i| format!(" · 시간 초과(timeout) {}", i + 1))
                .unwrap_or_default();
            format!(
                "  입력(type): {} = 그 증강 받기(take it){pick} · ? = 규칙·도움말(rules & help) · q = 기권(concede)",
                numbers(choices.len())
            )
        }
        _ => "  입력(type): Enter = 윷 던지기(throw) · ? = 규칙·도움말(rules & help) · q = 기권(concede)"
            .to_owned(),
    };
    screen.direct("")?;
    match view.phase {
        Phase::Move => {
            screen.direct(&style.bold(&format!(
                "{player} 차례 — 움직일 수를 고르세요 (your move: pick one)"
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
            screen.direct(&style.bold(&format!("{player} 차례 — {}", R::choice_title(&view))))?;
            let timeout = game.timeout_action(m.state(), seat);
            for (i, choice) in choices.iter().enumerate() {
                let tag = if timeout.as_ref() == Some(&YutAction::Rule(choice.action.clone())) {
                    style.dim("  ← 시간이 다 되면 이것(timeout pick)")
                } else {
                    String::new()
                };
                // The tag goes on the shorter line: a label with it can pass 120 columns.
                screen.direct(&format!("  {:>2}) {}", i + 1, choice.label))?;
                screen.direct(&format!("      ({}){tag}", choice.gloss))?;
            }
        }
        _ => screen.direct(&style.bold(&format!("{player} 차례 — 윷을 던지세요 (your throw)")))?,
    }
    screen.direct(&keys)?;
    loop {
        let Some(line) = read_line(player, input, screen)? else {
            return Ok(None);
        };
        match parse_input(&line, view.phase, &legal, &choices, R::raw_action) {
            Input::Help => {
                for line in &screen.help {
                    writeln!(screen.out, "{line}")?;
                }
                screen.direct(&keys)?;
            }
            Input::Invalid(message) => {
                screen.direct(&style.error(&format!("  ✗ {message}")))?;
                screen.direct(&keys)?;
            }
            Input::Concede => {
                let (korean, english) = concede_outcome(&view, seat);
                screen.direct(&format!("  정말 기권할까요? {korean}"))?;
                screen.direct(&format!("  (concede? {english})"))?;
                screen.direct("  y = 예, 기권해요(yes, concede) · n 또는 Enter = 아니요, 계속해요(no, play on)")?;
                let Some(answer) =
                    read_line(&format!("{player} 기권?(concede?) y/n"), input, screen)?
                else {
                    return Ok(None);
                };
                if matches!(
                    answer.trim().to_lowercase().as_str(),
                    "y" | "yes" | "예" | "네" | "응"
                ) {
                    match m.act(player, &YutAction::Concede, now) {
                        Ok(events) => return Ok(Some(events)),
                        Err(e) => {
                            screen.direct(&style.error(&format!("  ✗ {}", error_text(&e))))?
                        }
                    }
                } else {
                    screen.direct("  기권하지 않았어요 — 계속해요 (not conceded; play on)")?;
                    screen.direct(&keys)?;
                }
            }
            Input::Act(action) => match m.act(player, &action, now) {
                Ok(events) => return Ok(Some(events)),
                Err(e) => {
                    screen.direct(&style.error(&format!("  ✗ {}", error_text(&e))))?;
                    screen.direct(&keys)?;
                }
            },
        }
    }
}

/// `1`, or `1~n`, for the keys line.
fn numbers(n: usize) -> String {
    if n == 1 {
        "1".to_owned()
    } else {
        format!("1~{n}")
    }
}

/// What conceding would do for the player at `seat`, in Korean and in English.
fn concede_outcome<V, E, A>(view: &yut::YutView<V, E, A>, seat: usize) -> (String, String) {
    let Some(mine) = view
        .sides
        .iter()
        .find(|s| s.members.contains(&view.players[seat]))
    else {
        return (String::new(), String::new());
    };
    let conceded = |p: &String| view.presence.iter().any(|q| &q.player == p && q.conceded);
    let mates_left = mine
        .members
        .iter()
        .any(|p| *p != view.players[seat] && !conceded(p));
    if mates_left {
        return (
            "나는 빠지고 팀은 계속해요.".to_owned(),
            "you leave; your team plays on without you".to_owned(),
        );
    }
    let others: Vec<&yut::SideView> = view
        .sides
        .iter()
        .filter(|s| s.id != mine.id && !s.conceded && s.finished_rank.is_none())
        .collect();
    match others.as_slice() {
        [only] => (
            format!("게임이 바로 끝나고 {}이(가) 이겨요.", only.name),
            format!("the game ends now and {} wins", only.name),
        ),
        _ => (
            "게임에서 빠지고 말은 판을 떠나요. 나머지는 계속해요.".to_owned(),
            "you leave the game, your pieces leave the board, the others play on".to_owned(),
        ),
    }
}

/// Prompts with `prompt> ` and reads one line; `None` when the input ends. A line that
/// is not UTF-8 is refused and asked for again.
fn read_line<W: Write>(
    prompt: &str,
    input: &mut impl BufRead,
    screen: &mut Screen<W>,
) -> Result<Option<String>, PlayError> {
    let mut line = String::new();
    loop {
        write!(screen.out, "{prompt}> ")?;
        screen.out.flush()?;
        line.clear();
        let read = match input.read_line(&mut line) {
            Ok(n) => n,
            // (`read_line` has consumed the line already.)
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                screen.direct(
                    &screen
                        .style
                        .error("  ✗ 읽을 수 없는 입력이에요 — the input is not UTF-8."),
                )?;
                continue;
            }
            Err(_) => 0,
        };
        if read == 0 {
            screen.direct("")?;
            return Ok(None);
        }
        return Ok(Some(line));
    }
}
