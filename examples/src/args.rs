//! Command-line values shared by `play` and `host --trace`, parsed into the engine's types.
//!
//! The engine's enums and [`yut::BotKind`] parse from their wire words (`FromStr`), so the
//! flags take them directly; the parsers here only add what a command line needs: the
//! values listed with a line of help each in `--help`, and the spellings the command line
//! accepts besides the wire word. Numbers that the engine validates (player count, pieces,
//! nak percent, turn seconds) are passed through unchecked on purpose: an out-of-range
//! value reaches [`yut::YutOptions::validate`] and the user sees the engine's own typed
//! error, exactly as a host would.

use std::str::FromStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use yut::{BackdoFromDo, BotKind, FinishRule, Mode, Preset, Ranking, StickModel};

/// A parser of `T` from its words, with `values` (word, help) listed in `--help`. A row
/// `(word, wire)` of `aliases` lets the command line list `word` for the value whose wire
/// word is `wire`; the wire word is accepted too.
fn words<T>(
    values: &[(&'static str, &'static str)],
    aliases: &'static [(&'static str, &'static str)],
) -> impl TypedValueParser<Value = T> + use<T>
where
    T: FromStr<Err = yut::UnknownWord> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(values.iter().map(|&(word, help)| {
        let value = PossibleValue::new(word).help(help);
        match aliases.iter().find(|(listed, _)| *listed == word) {
            Some(&(_, wire)) => value.alias(wire),
            None => value,
        }
    }))
    .try_map(move |given: String| {
        let wire = aliases
            .iter()
            .find(|(listed, _)| *listed == given)
            .map_or(given.as_str(), |&(_, wire)| wire);
        wire.parse::<T>()
    })
}

/// `--players`: a count of 1 to 255. The game judges the count (its typed error names
/// what it takes); the bound only keeps an absurd one from building millions of ids
/// first (`--players 18446744073709551615` overflowed the list's capacity).
///
/// ```
/// # use clap::builder::TypedValueParser;
/// let cmd = clap::Command::new("x");
/// let parser = examples::args::player_count();
/// assert_eq!(parser.parse_ref(&cmd, None, "4".as_ref()).unwrap(), 4);
/// assert!(parser.parse_ref(&cmd, None, "0".as_ref()).is_err());
/// assert!(parser.parse_ref(&cmd, None, "18446744073709551615".as_ref()).is_err());
/// ```
pub fn player_count() -> impl TypedValueParser<Value = u8> {
    clap::value_parser!(u8).range(1..)
}

/// `--mode`: individual play or two teams.
///
/// ```
/// let mode = examples::args::mode().parse_ref(&clap::Command::new("x"), None, "team".as_ref());
/// # use clap::builder::TypedValueParser;
/// assert_eq!(mode.unwrap(), yut::Mode::Team);
/// ```
pub fn mode() -> impl TypedValueParser<Value = Mode> {
    words(
        &[
            (Mode::Individual.word(), "개인전: 2–4 players, each a side"),
            (
                Mode::Team.word(),
                "팀전: 4, 6 or 8 players in two teams (even seats 청, odd seats 홍)",
            ),
        ],
        &[],
    )
}

/// `--preset`: the named rule sets (`yut/RULES.md`, "Options", presets).
///
/// ```
/// # use clap::builder::TypedValueParser;
/// let preset = examples::args::preset().parse_ref(&clap::Command::new("x"), None, "app".as_ref());
/// assert_eq!(preset.unwrap(), yut::Preset::App);
/// ```
pub fn preset() -> impl TypedValueParser<Value = Preset> {
    words(
        &[
            (
                Preset::Standard.word(),
                "The standard rules: every option at its default",
            ),
            (
                Preset::App.word(),
                "The app's base rules: fair sticks, a backdo from node 1 goes back to waiting (대기)",
            ),
        ],
        &[],
    )
}

/// `--sticks`: the stick model.
///
/// ```
/// # use clap::builder::TypedValueParser;
/// let sticks = examples::args::sticks().parse_ref(&clap::Command::new("x"), None, "fair".as_ref());
/// assert_eq!(sticks.unwrap(), yut::StickModel::Fair);
/// ```
pub fn sticks() -> impl TypedValueParser<Value = StickModel> {
    words(
        &[
            (
                StickModel::Realistic.word(),
                "A stick lands flat side up with p = 0.6",
            ),
            (StickModel::Fair.word(), "p = 0.5"),
        ],
        &[],
    )
}

/// `--backdo-from-do`: what a backdo does to a piece that has only stood on node 1. The
/// command line calls [`BackdoFromDo::Home`] `waiting` (대기), as the terminal game does;
/// the engine's wire word, `home`, is accepted too.
///
/// ```
/// # use clap::builder::TypedValueParser;
/// let parse = |word: &str| {
///     examples::args::backdo_from_do().parse_ref(&clap::Command::new("x"), None, word.as_ref())
/// };
/// assert_eq!(parse("waiting").unwrap(), yut::BackdoFromDo::Home);
/// assert_eq!(parse("home").unwrap(), yut::BackdoFromDo::Home);
/// assert_eq!(parse("finish").unwrap(), yut::BackdoFromDo::Finish);
/// ```
pub fn backdo_from_do() -> impl TypedValueParser<Value = BackdoFromDo> {
    const WAITING: &[(&str, &str)] = &[("waiting", BackdoFromDo::Home.word())];
    words(
        &[
            (
                BackdoFromDo::Chammeogi.word(),
                "Goes to 참먹이 (node 0) as a piece that has gone round",
            ),
            (BackdoFromDo::Finish.word(), "Finishes (남) at once"),
            (
                "waiting",
                "Goes back to waiting (대기). The engine's wire name, `home`, is accepted too",
            ),
        ],
        WAITING,
    )
}

/// `--finish`: when a piece that has gone round finishes.
///
/// ```
/// # use clap::builder::TypedValueParser;
/// let finish = examples::args::finish().parse_ref(&clap::Command::new("x"), None, "reach".as_ref());
/// assert_eq!(finish.unwrap(), yut::FinishRule::Reach);
/// ```
pub fn finish() -> impl TypedValueParser<Value = FinishRule> {
    words(
        &[
            (
                FinishRule::Pass.word(),
                "It must step past 참먹이; stopping on it is not finishing yet",
            ),
            (FinishRule::Reach.word(), "Reaching 참먹이 finishes"),
        ],
        &[],
    )
}

/// `--ranking`: how 3–4 player individual games end.
///
/// ```
/// # use clap::builder::TypedValueParser;
/// let ranking = examples::args::ranking().parse_ref(&clap::Command::new("x"), None, "all".as_ref());
/// assert_eq!(ranking.unwrap(), yut::Ranking::All);
/// ```
pub fn ranking() -> impl TypedValueParser<Value = Ranking> {
    words(
        &[
            (
                Ranking::First.word(),
                "The game ends with the first finisher",
            ),
            (
                Ranking::All.word(),
                "Play goes on until only the last side is left",
            ),
        ],
        &[],
    )
}

/// `--bot`: how bot seats choose.
///
/// ```
/// # use clap::builder::TypedValueParser;
/// let bot = examples::args::bot().parse_ref(&clap::Command::new("x"), None, "strong".as_ref());
/// assert_eq!(bot.unwrap(), yut::BotKind::Strong);
/// ```
pub fn bot() -> impl TypedValueParser<Value = BotKind> {
    words(
        &[
            (
                BotKind::Random.word(),
                "Uniformly among the legal actions (game_core's RandomBot, seeded per seat)",
            ),
            (
                BotKind::Policy.word(),
                "The engine's own timeout policy (`yut/RULES.md`, \"The timeout policy\"; \
                 game_core's TimeoutBot): throw when a throw is owed, else capture > finish > \
                 stack > advance the furthest-behind stack > enter a waiting piece",
            ),
            (
                BotKind::Strong.word(),
                "Plays to win: expectimax over the exact throw probabilities (`yut::StrongBot`)",
            ),
        ],
        &[],
    )
}

/// `--turn-seconds`: a number of seconds, or `None` for no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnSeconds(pub Option<u32>);

/// Parses `--turn-seconds`: a number of seconds, or `none` for no limit. The number is not
/// range-checked here; the engine refuses anything but 15, 30 and 60.
///
/// ```
/// use examples::args::{TurnSeconds, parse_turn_seconds};
/// assert_eq!(parse_turn_seconds("none"), Ok(TurnSeconds(None)));
/// assert_eq!(parse_turn_seconds("30"), Ok(TurnSeconds(Some(30))));
/// assert!(parse_turn_seconds("soon").is_err());
/// ```
pub fn parse_turn_seconds(s: &str) -> Result<TurnSeconds, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "none" | "null" | "off" | "unlimited" => Ok(TurnSeconds(None)),
        n => n
            .parse::<u32>()
            .map(|n| TurnSeconds(Some(n)))
            .map_err(|_| format!("expected seconds (15, 30, 60) or `none`, got {s:?}")),
    }
}

/// The default number of players for a mode: 2 for individual play, 4 for teams.
///
/// ```
/// assert_eq!(examples::args::default_players(yut::Mode::Team), 4);
/// ```
pub fn default_players(mode: Mode) -> usize {
    match mode {
        Mode::Individual => 2,
        Mode::Team => 4,
        _ => 2,
    }
}

/// `--augments`: the augments in the draft.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AugmentList(pub Vec<yut_augments::Augment>);

/// Parses `--augments`: `all` (the eighteen), `none` (no draft), or ids separated by
/// commas (`first-step,yut-leap`). An id listed twice is passed on: the engine refuses it
/// with its own typed error.
///
/// ```
/// use examples::args::parse_augments;
/// use yut_augments::Augment;
/// assert_eq!(parse_augments("all").unwrap().0.len(), 18);
/// assert!(parse_augments("none").unwrap().0.is_empty());
/// assert_eq!(parse_augments("first-step, yut-leap").unwrap().0, [Augment::FirstStep, Augment::YutLeap]);
/// assert!(parse_augments("wings").unwrap_err().contains("first-step"));
/// ```
pub fn parse_augments(s: &str) -> Result<AugmentList, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "all" => return Ok(AugmentList(yut_augments::Augment::ALL.to_vec())),
        "none" | "" => return Ok(AugmentList(Vec::new())),
        _ => {}
    }
    s.split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(|id| {
            id.parse::<yut_augments::Augment>().map_err(|e| {
                let ids: Vec<&str> = yut_augments::Augment::ALL.iter().map(|a| a.id()).collect();
                format!(
                    "{e}; expected `all`, `none` or ids from: {}",
                    ids.join(", ")
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(AugmentList)
}
