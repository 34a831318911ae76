//! The statistics of the report: win rates with their intervals, and throw frequencies
//! against the exact table.

use yut::{Throw, ThrowStats, YutOptions};

use super::GameSummary;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A share with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Successes.
    pub wins: u64,
    /// Trials.
    pub games: u64,
}

impl Rate {
    /// The share, 0 for no trials.
    pub fn value(self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// The 95% Wilson score interval (good at small counts and near 0 or 1).
    ///
    /// ```
    /// let r = examples::balance::Rate { wins: 60, games: 100 };
    /// let (lo, hi) = r.interval();
    /// assert!((lo - 0.502).abs() < 0.001 && (hi - 0.691).abs() < 0.001);
    /// ```
    pub fn interval(self) -> (f64, f64) {
        if self.games == 0 {
            return (0.0, 1.0);
        }
        let n = self.games as f64;
        let p = self.value();
        let z2 = Z95 * Z95;
        let center = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        ((center - half).max(0.0), (center + half).min(1.0))
    }
}

/// How often the seat that moved first won.
pub fn first_seat_rate(games: &[GameSummary]) -> Rate {
    Rate {
        wins: games
            .iter()
            .filter(|g| g.winners.contains(&g.first_seat))
            .count() as u64,
        games: games.len() as u64,
    }
}

/// How often the subject won.
pub fn subject_rate(games: &[GameSummary]) -> Rate {
    Rate {
        wins: games
            .iter()
            .filter(|g| g.winners.contains(&g.subject_seat))
            .count() as u64,
        games: games.len() as u64,
    }
}

fn throw_count(stats: &ThrowStats, t: Option<Throw>) -> u64 {
    u64::from(match t {
        None => stats.nak,
        Some(Throw::Do) => stats.r#do,
        Some(Throw::Gae) => stats.gae,
        Some(Throw::Geol) => stats.geol,
        Some(Throw::Yut) => stats.yut,
        Some(Throw::Mo) => stats.mo,
        Some(Throw::Backdo) => stats.backdo,
    })
}

fn add_throws(sum: &mut ThrowStats, more: &ThrowStats) {
    sum.r#do += more.r#do;
    sum.gae += more.gae;
    sum.geol += more.geol;
    sum.yut += more.yut;
    sum.mo += more.mo;
    sum.backdo += more.backdo;
    sum.nak += more.nak;
}

/// One line of a throw table: how often a result came, against its exact probability.
pub(super) struct ThrowFrequency {
    /// `do (도)`, ..., `nak (낙)`.
    pub label: String,
    /// Throws with this result.
    pub count: u64,
    /// Its share of all throws.
    pub observed: f64,
    /// Its exact probability (`yut::Throw::probability`, less the nak chance).
    pub exact: f64,
    /// (observed − exact) / standard error.
    pub z: f64,
}

/// Every throw of `games` under `options`: the total, and one line per result (nak only
/// when the options have it).
pub(super) fn throw_frequencies(
    options: &YutOptions,
    games: &[GameSummary],
) -> (u64, Vec<ThrowFrequency>) {
    let mut stats = ThrowStats::default();
    for g in games {
        add_throws(&mut stats, &g.throws);
    }
    let total: u64 = [None]
        .into_iter()
        .chain(Throw::ALL.into_iter().map(Some))
        .map(|t| throw_count(&stats, t))
        .sum();
    let nak = f64::from(options.nak_percent) / 100.0;
    let rows = Throw::ALL
        .into_iter()
        .map(|t| {
            (
                format!("{} ({})", t.wire(), t.name()),
                Some(t),
                (1.0 - nak) * t.probability(options.stick_model, options.backdo),
            )
        })
        .chain((nak > 0.0).then(|| ("nak (낙)".to_owned(), None, nak)));
    let lines = rows
        .map(|(label, t, exact)| {
            let count = throw_count(&stats, t);
            let observed = if total == 0 {
                0.0
            } else {
                count as f64 / total as f64
            };
            let se = (exact * (1.0 - exact) / total.max(1) as f64).sqrt();
            let z = if se > 0.0 {
                (observed - exact) / se
            } else {
                0.0
            };
            ThrowFrequency {
                label,
                count,
                observed,
                exact,
                z,
            }
        })
        .collect();
    (total, lines)
}
