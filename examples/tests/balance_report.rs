//! The balance report on a tiny game count: every section is there (the augment and
//! house-rule rows included), the numbers add up, and the same seed gives the same bytes
//! whatever the number of threads.

use examples::balance::{
    BalanceArgs, Held, Kind, Rate, configs, first_seat_rate, holder, run, run_configs, subject_rate,
};

fn args(games: u64, seed: u64, threads: usize) -> BalanceArgs {
    BalanceArgs {
        games,
        augment_games: games,
        seed,
        threads: Some(threads),
        progress: false,
    }
}

#[test]
fn the_report_is_deterministic_and_complete() {
    let a = run(&args(4, 7, 2)).unwrap();
    let b = run(&args(4, 7, 1)).unwrap();
    assert_eq!(a.markdown, b.markdown, "same seed, different threads");
    assert_eq!(a.svg, b.svg);
    let c = run(&args(4, 8, 2)).unwrap();
    assert_ne!(a.markdown, c.markdown, "another seed plays other games");

    let md = &a.markdown;
    for section in [
        "# Balance report",
        "## First-seat advantage",
        "## Game length",
        "## Throw frequencies",
        "## Head to head",
        "| standard |",
        "| app |",
        "| app + augments |",
        "## Augments and house rules",
        "| `first-step` | 첫걸음 한 칸 | start (turn 1), unlimited | 4 |",
        "| `yut-leap` | 윷 도약 | finish (turn 12), unlimited | 4 |",
        "| `cushion` | 첫 잡힘 완충 | house rule (from the start) | 4 |",
        "| `truce` | 쉼 약속 | house rule (from the start) | 4 |",
        "--augment-games 4",
        "| strong vs policy | strong bot | policy bot | 4 |",
        "do (도)",
        "backdo (빽도)",
    ] {
        assert!(md.contains(section), "missing {section:?}:\n{md}");
    }
    assert!(!md.contains("NaN"));
    assert!(a.svg.starts_with("<svg") && a.svg.trim_end().ends_with("</svg>"));
    assert!(a.svg.contains("standard: first seat"));
    assert!(a.svg.contains("strong vs policy: strong bot"));
    assert!(a.svg.contains("second-look (middle): holder"));
    assert!(a.svg.contains("truce (house rule): holder"));
    // One table row per augment and house rule.
    let rows = md
        .lines()
        .filter(|l| {
            l.starts_with("| `") && (l.contains(" (turn ") || l.contains("house rule (from"))
        })
        .count();
    assert_eq!(rows, 20, "{md}");

    // Every configuration played its games; results are in index order.
    let list = configs();
    assert_eq!(a.results.len(), list.len());
    for ((name, games), config) in a.results.iter().zip(&list) {
        assert_eq!(name, &config.name);
        assert_eq!(games.len(), 4);
        for g in games {
            assert_eq!(g.seats, 2);
            assert_eq!(g.winners.len(), 1);
            assert!(g.turns > 0 && g.decisions >= g.turns);
        }
        if config.kind == Kind::Baseline {
            let r = first_seat_rate(games);
            assert!(md.contains(&format!("| {} | 4 | {} |", config.name, r.wins)));
        }
    }
}

#[test]
fn odd_head_to_head_counts_round_up_so_seats_swap_evenly() {
    let report = run(&args(3, 1, 2)).unwrap();
    let h2h = &report.results[3].1;
    assert_eq!(h2h.len(), 4);
    assert_eq!(
        h2h.iter().map(|g| g.subject_seat).collect::<Vec<_>>(),
        [0, 1, 0, 1]
    );
    assert!(run(&args(0, 1, 1)).is_err());
}

#[test]
fn wilson_intervals() {
    let (lo, hi) = Rate { wins: 0, games: 10 }.interval();
    assert_eq!(lo, 0.0);
    assert!(hi > 0.25 && hi < 0.35);
    let (lo, hi) = Rate {
        wins: 680,
        games: 1000,
    }
    .interval();
    assert!(lo > 0.5 && lo < 0.68 && hi > 0.68 && hi < 0.72);
    assert_eq!(Rate { wins: 0, games: 0 }.interval(), (0.0, 1.0));
}

#[test]
fn augment_rows_give_the_holder_its_rule_and_swap_seats() {
    // Rows that fire early and often: the holder's rule is announced for the holder only.
    let list: Vec<_> = [
        Held::Augment(yut_augments::Augment::FirstStep),
        Held::Augment(yut_augments::Augment::SecondLook),
        Held::House(yut_augments::HouseRule::Cushion),
    ]
    .into_iter()
    .map(holder)
    .collect();
    let a = BalanceArgs {
        games: 1,
        augment_games: 24,
        seed: 5,
        threads: Some(2),
        progress: false,
    };
    let report = run_configs(&a, &list).unwrap();
    let again = run_configs(
        &BalanceArgs {
            threads: Some(1),
            ..a.clone()
        },
        &list,
    )
    .unwrap();
    assert_eq!(report.markdown, again.markdown, "deterministic");
    for (config, (_, games)) in list.iter().zip(&report.results) {
        assert!(matches!(config.kind, Kind::Holder { .. }));
        assert_eq!(games.len(), 24);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.subject_seat, i % 2, "seats alternate");
            assert_eq!(g.winners.len(), 1);
        }
        // Pairs share a seed: the same side moves first in both games of a pair.
        for pair in games.chunks(2) {
            assert_eq!(pair[0].first_seat, pair[1].first_seat);
        }
        let fired: u32 = games.iter().map(|g| g.fired).sum();
        assert!(fired > 0, "{}: never fired", config.name);
        let r = subject_rate(games);
        assert_eq!(r.games, 24);
    }
    // first-step fires on every entering move of the holder: many times per game.
    let first_step: u32 = report.results[0].1.iter().map(|g| g.fired).sum();
    assert!(first_step >= 24 * 2, "{first_step}");
}
