//! The bots in the examples: the strong bot beats the policy bot in a small seeded
//! head-to-head, and every bot plays `play` and `host --trace`. (The bots' own tests are
//! in `yut/tests/bots.rs`.)

use clap::Parser;
use examples::balance::{BalanceArgs, Kind, run_configs, strong_vs_policy, subject_rate};
use yut::{BotKind, Preset, Yut};

#[test]
fn head_to_head_smoke_strong_beats_policy() {
    // Small and seeded: 24 games, each seed played with the seats both ways. The strong
    // bot wins about 68% over many games (see the balance report); 10 of 24 is far below.
    let config = strong_vs_policy("smoke", Yut::standard(), Preset::Standard.options());
    let args = BalanceArgs {
        games: 24,
        augment_games: 2,
        seed: 2024,
        threads: Some(2),
        progress: false,
    };
    let report = run_configs(&args, std::slice::from_ref(&config)).unwrap();
    let games = &report.results[0].1;
    assert_eq!(games.len(), 24);
    assert!(matches!(config.kind, Kind::HeadToHead { .. }));
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.subject_seat, i % 2, "seats alternate");
        assert_eq!(g.winners.len(), 1);
        assert!(g.searches > 0);
    }
    let rate = subject_rate(games);
    assert!(rate.wins >= 10, "strong bot won only {}/24", rate.wins);
}

#[test]
fn every_bot_kind_plays_the_terminal_game_and_the_trace() {
    for kind in ["random", "policy", "strong"] {
        let args = examples::play::PlayArgs::parse_from(["play", "--fast", "--bot", kind]);
        let mut out = Vec::new();
        let end = examples::play::run(&args, false, std::io::empty(), &mut out).unwrap();
        assert!(
            matches!(end, examples::play::PlayEnd::Finished(_)),
            "{kind}"
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("결과(result)"), "{kind}");

        let args = examples::trace::TraceArgs::parse_from([
            "trace", "--games", "2", "--seed", "9", "--bot", kind,
        ]);
        let mut a = Vec::new();
        let mut b = Vec::new();
        examples::trace::trace(&args, &mut a).unwrap();
        examples::trace::trace(&args, &mut b).unwrap();
        assert_eq!(a, b, "{kind}: the trace is reproducible");
        let text = String::from_utf8(a).unwrap();
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with(r#"{"setup":"#))
                .count(),
            2
        );
    }
    assert_eq!(
        examples::play::PlayArgs::parse_from(["play", "--bot", "strong"]).bot,
        BotKind::Strong
    );
}
