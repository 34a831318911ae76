//! The engine's enums read and print their wire words: `FromStr` and `Display` agree with
//! the JSON names, and an unknown word is refused with the words accepted.

use std::fmt::Display;
use std::str::FromStr;

use serde::Serialize;
use yut::{BackdoFromDo, BotKind, FinishRule, Mode, Preset, Ranking, StickModel, UnknownWord};

fn round_trip<T>(values: &[T], words: &[&str])
where
    T: FromStr<Err = UnknownWord> + Display + Serialize + PartialEq + std::fmt::Debug,
{
    assert_eq!(values.len(), words.len());
    for (value, word) in values.iter().zip(words) {
        assert_eq!(value.to_string(), *word);
        assert_eq!(serde_json::to_value(value).unwrap(), *word, "the wire word");
        assert_eq!(&word.parse::<T>().unwrap(), value);
    }
    let err = "nonsense".parse::<T>().unwrap_err();
    assert_eq!(err.word, "nonsense");
    assert_eq!(err.expected, words);
}

#[test]
fn every_option_enum_reads_and_prints_its_wire_word() {
    use BackdoFromDo::*;
    round_trip(&[Mode::Individual, Mode::Team], Mode::WORDS);
    round_trip(&[Preset::Standard, Preset::App], Preset::WORDS);
    round_trip(
        &[StickModel::Realistic, StickModel::Fair],
        StickModel::WORDS,
    );
    round_trip(&[Chammeogi, Finish, Home], BackdoFromDo::WORDS);
    round_trip(&[FinishRule::Pass, FinishRule::Reach], FinishRule::WORDS);
    round_trip(&[Ranking::First, Ranking::All], Ranking::WORDS);
    assert_eq!(
        Mode::WORDS,
        ["individual", "team"],
        "the words are the lowercase names"
    );
}

#[test]
fn bot_kinds_read_and_print_their_words() {
    for (kind, word) in [
        (BotKind::Random, "random"),
        (BotKind::Policy, "policy"),
        (BotKind::Strong, "strong"),
    ] {
        assert_eq!(kind.to_string(), word);
        assert_eq!(word.parse::<BotKind>(), Ok(kind));
    }
    let err = "Strong".parse::<BotKind>().unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unknown bot "Strong": expected one of random, policy, strong"#
    );
}
