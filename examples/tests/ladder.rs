//! The bot ladder: every pair once, the first bot's results, the same figures from the
//! same seed, and a clear error for what it does not know.

use examples::ladder::{LadderArgs, PairResult, run, table, wilson};

fn args(game: &str, bots: &[&str], games: u64) -> LadderArgs {
    LadderArgs {
        game: game.into(),
        games,
        seed: 7,
        players: 2,
        bots: bots.iter().map(|b| (*b).to_owned()).collect(),
        iterations: Some(30),
    }
}

/// Everything but the times, which the machine decides.
fn figures(results: &[PairResult]) -> Vec<(String, String, u64, u64, u64)> {
    results
        .iter()
        .map(|r| {
            (
                r.bots[0].clone(),
                r.bots[1].clone(),
                r.games,
                r.wins,
                r.draws,
            )
        })
        .collect()
}

#[test]
fn every_pair_plays_once_and_the_figures_repeat() {
    let a = args("rps", &["random", "pimc", "ismcts", "ismcts-cheat"], 20);
    let results = run(&a).unwrap();
    let pairs: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r.bots[0].as_str(), r.bots[1].as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("random", "pimc"),
            ("random", "ismcts"),
            ("random", "ismcts-cheat"),
            ("pimc", "ismcts"),
            ("pimc", "ismcts-cheat"),
            ("ismcts", "ismcts-cheat"),
        ]
    );
    for r in &results {
        assert_eq!(r.games, 20);
        assert!(r.wins + r.draws <= r.games);
        let rate = (r.wins as f64 + r.draws as f64 / 2.0) / r.games as f64;
        assert_eq!(r.win_rate, rate);
        assert_eq!(r.ci95, wilson(rate, r.games));
        assert!(r.ci95[0] <= rate && rate <= r.ci95[1]);
        let json = r.to_json();
        for key in ["bots", "games", "wins", "winRate", "ci95", "msPerDecision"] {
            assert!(json.get(key).is_some(), "{key} missing: {json}");
        }
    }
    assert_eq!(figures(&run(&a).unwrap()), figures(&results));
    // Seeing the other's pick, the cheating search wins every round it picks second in
    // (seat 1: the ladder lets seat 0 pick first), so random wins well under half.
    let cheat = results
        .iter()
        .find(|r| r.bots == ["random".to_owned(), "ismcts-cheat".to_owned()])
        .unwrap();
    assert!(cheat.win_rate < 0.4, "{cheat:?}");
    assert!(table("rps", &results).contains("random vs pimc"));
}

#[test]
fn a_game_with_its_own_bot_offers_policy() {
    let results = run(&args("one-card", &["random", "policy"], 4)).unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].bots, ["random".to_owned(), "policy".to_owned()]);
    // An odd count is played up to whole deals, each both ways.
    assert_eq!(
        run(&args("pig", &["random", "policy"], 3)).unwrap()[0].games,
        4
    );
}

#[test]
fn what_the_ladder_does_not_know_is_named() {
    let e = run(&args("chess", &[], 2)).unwrap_err();
    assert!(e.contains("unknown game \"chess\""), "{e}");
    let e = run(&args("rps", &["random", "policy"], 2)).unwrap_err();
    assert!(e.contains("no bot \"policy\" for rps"), "{e}");
    let e = run(&args("rps", &["random"], 2)).unwrap_err();
    assert!(e.contains("two bots"), "{e}");
    let mut seven = args("rps", &["random", "pimc"], 2);
    seven.players = 7;
    assert!(run(&seven).unwrap_err().contains("refuses 7 players"));
}
