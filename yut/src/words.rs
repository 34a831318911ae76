//! The engine's enums as words: each parses from (`FromStr`) and prints as (`Display`)
//! its wire word, the lowercase name it has in JSON, so that command lines and
//! configuration files need no copies of them.
//!
//! ```
//! use yut::{BackdoFromDo, Mode, UnknownWord};
//! assert_eq!("team".parse::<Mode>(), Ok(Mode::Team));
//! assert_eq!(BackdoFromDo::Home.to_string(), "home");
//! let err: UnknownWord = "waiting".parse::<BackdoFromDo>().unwrap_err();
//! assert_eq!(err.expected, ["chammeogi", "finish", "home"]);
//! assert_eq!(
//!     err.to_string(),
//!     r#"unknown backdo-from-do "waiting": expected one of chammeogi, finish, home"#
//! );
//! ```

use std::fmt;

use crate::{BackdoFromDo, FinishRule, Mode, Preset, Ranking, StickModel};

/// A word that names none of an enum's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownWord {
    /// What the word was to name (`mode`, `preset`, ...).
    pub what: &'static str,
    /// The word given.
    pub word: String,
    /// The words accepted, in declaration order.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?}: expected one of {}",
            self.what,
            self.word,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownWord {}

/// `FromStr`, `Display` and `word` for an enum of unit variants, from a table of its wire
/// words. The first row gives the doctest.
macro_rules! words {
    ($ty:ident, $what:literal, [$v0:ident => $w0:literal $(, $v:ident => $w:literal)* $(,)?]) => {
        impl $ty {
            /// Every value's word, in declaration order.
            pub const WORDS: &'static [&'static str] = &[$w0 $(, $w)*];

            /// The wire word of this value (what `Display` prints and `FromStr` reads).
            ///
            /// ```
            #[doc = concat!(
                "assert_eq!(yut::", stringify!($ty), "::", stringify!($v0), ".word(), \"", $w0, "\");"
            )]
            #[doc = concat!(
                "assert_eq!(\"", $w0, "\".parse(), Ok(yut::", stringify!($ty), "::", stringify!($v0), "));"
            )]
            /// ```
            pub const fn word(self) -> &'static str {
                match self {
                    $ty::$v0 => $w0,
                    $($ty::$v => $w,)*
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.word())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::UnknownWord;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $w0 => Ok($ty::$v0),
                    $($w => Ok($ty::$v),)*
                    _ => Err($crate::UnknownWord {
                        what: $what,
                        word: s.to_string(),
                        expected: $ty::WORDS,
                    }),
                }
            }
        }
    };
}

words!(Mode, "mode", [Individual => "individual", Team => "team"]);
words!(Preset, "preset", [Standard => "standard", App => "app"]);
words!(StickModel, "stick model", [Realistic => "realistic", Fair => "fair"]);
words!(BackdoFromDo, "backdo-from-do", [Chammeogi => "chammeogi", Finish => "finish", Home => "home"]);
words!(FinishRule, "finish rule", [Pass => "pass", Reach => "reach"]);
words!(Ranking, "ranking", [First => "first", All => "all"]);
