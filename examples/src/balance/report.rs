//! The Markdown report.

use std::fmt::Write as _;

use yut::YutOptions;

use super::stats::{ThrowFrequency, first_seat_rate, subject_rate, throw_frequencies};
use super::{BalanceArgs, Config, GameSummary, Kind, Rate};

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn interval_text(rate: Rate) -> String {
    let (lo, hi) = rate.interval();
    format!("{} – {}", pct(lo), pct(hi))
}

fn describe_options(o: &YutOptions) -> String {
    let sticks = match o.stick_model {
        yut::StickModel::Realistic => "realistic sticks (p = 0.6)",
        yut::StickModel::Fair => "fair sticks (p = 0.5)",
    };
    let backdo_from_do = match o.backdo_from_do {
        yut::BackdoFromDo::Chammeogi => "chammeogi",
        yut::BackdoFromDo::Finish => "finish",
        yut::BackdoFromDo::Home => "home",
    };
    format!(
        "{sticks}, {} pieces, backdo {}, backdoFromDo {backdo_from_do}, nak {}%",
        o.pieces,
        if o.backdo { "on" } else { "off" },
        o.nak_percent
    )
}

/// The Markdown report.
pub(super) fn markdown(
    args: &BalanceArgs,
    configs: &[Config],
    results: &[(String, Vec<GameSummary>)],
) -> String {
    let mut md = String::new();
    let w = &mut md;
    let _ = writeln!(w, "# Balance report\n");
    let holders: Vec<(&Config, &[GameSummary])> = configs
        .iter()
        .zip(results)
        .filter(|(c, _)| matches!(c.kind, Kind::Holder { .. }))
        .map(|(c, (_, games))| (c, games.as_slice()))
        .collect();
    let _ = writeln!(
        w,
        "Seed {}, {} games per configuration and {} per augment and house-rule row \
         (head-to-head and holder rows: rounded up to an even number, each seed played with \
         the seats both ways). Two players. 95% intervals are Wilson score intervals. \
         Regenerate with \
         `cargo run --release --example balance -- --games {} --augment-games {} --seed {}`.\n",
        args.seed, args.games, args.augment_games, args.games, args.augment_games, args.seed
    );
    let _ = writeln!(w, "| configuration | rules | players |\n|---|---|---|");
    for c in configs {
        let players = match &c.kind {
            Kind::Baseline => "policy bot × 2".to_owned(),
            Kind::HeadToHead { subject, opponent } => format!("{subject} vs {opponent}"),
            Kind::Holder { .. } => continue,
        };
        let _ = writeln!(
            w,
            "| {} | {} | {players} |",
            c.name,
            describe_options(&c.options)
        );
    }
    if let Some((c, _)) = holders.first() {
        let _ = writeln!(
            w,
            "| augment … / house … ({} rows) | {}; `yut-augments` with no draft | policy bot × 2, one side holding the augment or house rule |",
            holders.len(),
            describe_options(&c.options)
        );
    }

    let _ = writeln!(w, "\n## First-seat advantage\n");
    let _ = writeln!(
        w,
        "Win rate of the seat that moves first (the engine draws it at setup), with the \
         policy bot (the engine's timeout policy) at both seats.\n"
    );
    let _ = writeln!(
        w,
        "| configuration | games | first seat won | win rate | 95% interval |\n|---|---:|---:|---:|---|"
    );
    for (c, (_, games)) in configs.iter().zip(results) {
        if c.kind != Kind::Baseline {
            continue;
        }
        let r = first_seat_rate(games);
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} |",
            c.name,
            r.games,
            r.wins,
            pct(r.value()),
            interval_text(r)
        );
    }

    let _ = writeln!(w, "\n## Game length\n");
    let _ = writeln!(
        w,
        "Turns are turns started by all sides together; decisions are all actions applied \
         (throws and moves).\n"
    );
    let _ = writeln!(
        w,
        "| configuration | games | mean turns | min | max | mean decisions |\n|---|---:|---:|---:|---:|---:|"
    );
    for (c, (_, games)) in configs.iter().zip(results) {
        if matches!(c.kind, Kind::Holder { .. }) {
            continue;
        }
        let n = games.len().max(1) as f64;
        let turns: u64 = games.iter().map(|g| u64::from(g.turns)).sum();
        let decisions: u64 = games.iter().map(|g| u64::from(g.decisions)).sum();
        let min = games.iter().map(|g| g.turns).min().unwrap_or(0);
        let max = games.iter().map(|g| g.turns).max().unwrap_or(0);
        let _ = writeln!(
            w,
            "| {} | {} | {:.1} | {min} | {max} | {:.1} |",
            c.name,
            games.len(),
            turns as f64 / n,
            decisions as f64 / n
        );
    }

    let _ = writeln!(w, "\n## Throw frequencies\n");
    let _ = writeln!(
        w,
        "Every throw of every game of the baseline configurations (independent seeds; the \
         head-to-head pairs share their seeds, so their throws are not independent), \
         against the exact probabilities (`yut::Throw::probability`). z is \
         (observed − expected) / standard error; |z| > 3 would point at a bias.\n"
    );
    for (c, (_, games)) in configs.iter().zip(results) {
        if c.kind != Kind::Baseline {
            continue;
        }
        let (total, rows) = throw_frequencies(&c.options, games);
        let _ = writeln!(
            w,
            "### {} ({total} throws; {})\n",
            c.name,
            describe_options(&c.options)
        );
        let _ = writeln!(
            w,
            "| result | count | observed | exact | difference | z |\n|---|---:|---:|---:|---:|---:|"
        );
        for ThrowFrequency {
            label,
            count,
            observed,
            exact,
            z,
        } in rows
        {
            let _ = writeln!(
                w,
                "| {label} | {count} | {:.4} | {exact:.4} | {:+.2} pp | {z:+.2} |",
                observed,
                100.0 * (observed - exact)
            );
        }
        let _ = writeln!(w);
    }

    let _ = writeln!(w, "## Head to head\n");
    let _ = writeln!(
        w,
        "Win rate of the subject, seats swapped every other game (each seed played both \
         ways). The interval excludes 50% when the difference is significant at 5%.\n"
    );
    let _ = writeln!(
        w,
        "| configuration | subject | opponent | games | subject won | win rate | 95% interval | excludes 50% |\n|---|---|---|---:|---:|---:|---|---|"
    );
    for (c, (_, games)) in configs.iter().zip(results) {
        let Kind::HeadToHead { subject, opponent } = &c.kind else {
            continue;
        };
        let r = subject_rate(games);
        let (lo, hi) = r.interval();
        let excludes = if lo > 0.5 || hi < 0.5 { "yes" } else { "no" };
        let _ = writeln!(
            w,
            "| {} | {subject} | {opponent} | {} | {} | {} | {} | {excludes} |",
            c.name,
            r.games,
            r.wins,
            pct(r.value()),
            interval_text(r)
        );
    }
    if !holders.is_empty() {
        let _ = writeln!(w, "\n## Augments and house rules\n");
        let _ = writeln!(
            w,
            "Win rate of the side that holds the augment or the house rule against the side \
             that does not: the app base rules under `yut-augments` with no draft \
             (`AugmentConfig::none()`), the policy bot at both seats, each seed played \
             with the holder in seat 0 and then in seat 1. An augment is given at the start \
             of the holder's own turn where the draft would offer it (turn 1, 6 or 12: a \
             game that ends earlier never gives it); a house rule holds from the start. \
             *Fired* is the mean number of `augmentFired` events of the held rule for the \
             holder per game (`iron-stack` never fires an event; the truce counts its \
             calling). Excludes 50%: the advantage (or disadvantage) is significant at 5%; \
             with 20 rows, about one may exclude 50% by chance.\n"
        );
        let _ = writeln!(
            w,
            "| rule | 이름 | kind | games | holder won | win rate | 95% interval | excludes 50% | fired / game | mean turns |\n|---|---|---|---:|---:|---:|---|---|---:|---:|"
        );
        for (c, games) in &holders {
            let Kind::Holder { held } = c.kind else {
                continue;
            };
            let r = subject_rate(games);
            let (lo, hi) = r.interval();
            let excludes = if lo > 0.5 {
                "yes (+)"
            } else if hi < 0.5 {
                "yes (−)"
            } else {
                "no"
            };
            let n = games.len().max(1) as f64;
            let fired: u64 = games.iter().map(|g| u64::from(g.fired)).sum();
            let turns: u64 = games.iter().map(|g| u64::from(g.turns)).sum();
            let _ = writeln!(
                w,
                "| `{}` | {} | {} | {} | {} | {} | {} | {excludes} | {:.2} | {:.1} |",
                held.id(),
                held.name(),
                held.what(),
                r.games,
                r.wins,
                pct(r.value()),
                interval_text(r),
                fired as f64 / n,
                turns as f64 / n
            );
        }
    }
    let _ = writeln!(
        w,
        "\nThe chart `balance.svg` shows every win rate above with its interval.\n"
    );
    md
}
