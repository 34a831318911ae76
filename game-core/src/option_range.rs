//! An option's allowed values, written once for both the schema and the check.

use crate::Rejection;

/// The allowed values of a numeric option, written once: the schema reads its bounds
/// (`#[schemars(range(min = TARGET.min, max = TARGET.max))]`) and setup checks with it,
/// refusing a value outside with `INVALID_OPTION` naming the option and the range.
///
/// ```
/// use game_core::{GameError, OptionRange};
/// const TARGET: OptionRange = OptionRange::new("target", 10, 500);
/// assert_eq!(TARGET.check(100), Ok(()));
/// let refused = TARGET.check(5).unwrap_err();
/// assert_eq!(refused.code(), "INVALID_OPTION");
/// assert_eq!(refused.reason().unwrap()["max"], 500);
/// // An unset optional option (no time limit) is always allowed.
/// assert_eq!(TARGET.check_set(None), Ok(()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRange {
    /// The option's wire name (`turnSeconds`), as the refusal names it.
    pub name: &'static str,
    /// The smallest allowed value.
    pub min: u32,
    /// The largest allowed value.
    pub max: u32,
}

impl OptionRange {
    /// The values `min..=max` of the option `name`.
    pub const fn new(name: &'static str, min: u32, max: u32) -> Self {
        Self { name, min, max }
    }

    /// Whether `value` is allowed.
    pub const fn contains(&self, value: u32) -> bool {
        self.min <= value && value <= self.max
    }

    /// `Ok` for an allowed value, else `INVALID_OPTION` with the option, the value and
    /// the range.
    pub fn check(&self, value: u32) -> Result<(), Rejection> {
        if self.contains(value) {
            Ok(())
        } else {
            Err(Rejection::InvalidOption {
                option: self.name,
                got: value,
                min: self.min,
                max: self.max,
            })
        }
    }

    /// [`OptionRange::check`] for an option that may be unset (`None` is allowed).
    pub fn check_set(&self, value: Option<u32>) -> Result<(), Rejection> {
        value.map_or(Ok(()), |v| self.check(v))
    }
}
