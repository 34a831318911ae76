//! The balance report on a tiny game count: every section is there, the numbers add up,
//! and the same seed gives the same bytes whatever the number of threads.

use examples::balance::{BalanceArgs, Kind, Rate, configs, first_seat_rate, run};

fn args(games: u64, seed: u64, threads: usize) -> BalanceArgs {
    BalanceArgs {
        games,
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
    let h2h = &report.results[2].1;
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
