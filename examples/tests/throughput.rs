//! The throughput command on tiny counts: its last line has the stable format, the games
//! are uniform-random among exactly the engine's legal actions, the same arguments play
//! the same games, and so does any number of threads.

use clap::Parser;
use examples::throughput::{
    MAX_THREADS, ThroughputArgs, measure, play_game_range, play_games, run, share,
};
use game_core::GameExt;
use game_core::{Game, GameRng};
use yut::{Phase, Yut, YutAction};

fn args(list: &[&str]) -> ThroughputArgs {
    ThroughputArgs::parse_from(std::iter::once("throughput").chain(list.iter().copied()))
}

/// Whether `line` is `games/s: G decisions/s: D decisions/game: M` with numbers.
fn well_formed(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    words.len() == 6
        && words[0] == "games/s:"
        && words[2] == "decisions/s:"
        && words[4] == "decisions/game:"
        && [words[1], words[3], words[5]]
            .iter()
            .all(|n| n.parse::<f64>().is_ok_and(|x| x.is_finite() && x > 0.0))
}

#[test]
fn the_last_line_has_the_stable_format_for_both_presets() {
    for preset in ["standard", "app"] {
        for players in ["2", "4"] {
            let a = args(&[
                "--games",
                "30",
                "--players",
                players,
                "--preset",
                preset,
                "--seed",
                "3",
            ]);
            let t = run(&a).unwrap();
            assert_eq!(t.games, 30);
            let line = t.summary();
            assert!(well_formed(&line), "{line}");
            assert!(t.decisions_per_game() > 20.0, "{line}");
            assert!(a.describe().contains(&format!("preset {preset}")));
            // The same arguments play the same games (the time differs, the count not).
            assert_eq!(run(&a).unwrap().decisions, t.decisions);
        }
    }
    assert_eq!(args(&["--preset", "app"]).game_id(), "yut-augments");
    assert_eq!(args(&[]).game_id(), "yut");
    assert!(!well_formed("games/s: x decisions/s: 1 decisions/game: 1"));
    // Refused options are the engine's typed error.
    let err = run(&args(&["--games", "1", "--players", "5"])).unwrap_err();
    assert_eq!(game_core::GameError::code(&err), "BAD_PLAYER_COUNT");
}

#[test]
fn the_command_prints_the_figures_last() {
    // What the example prints (its `main` only parses the flags and calls `report`).
    let mut out = Vec::new();
    let t = examples::throughput::report(&args(&["--games", "5", "--preset", "app"]), &mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("throughput: 5 uniform-random games · 2 players · preset app"));
    assert!(lines[0].ends_with(" · one thread"), "{text}");
    assert!(
        lines[1].starts_with(&format!(
            "thread 1/1 (games 0..5): {} decisions in ",
            t.decisions
        )),
        "{text}"
    );
    assert!(lines[2].starts_with(&format!("played 5 games, {} decisions", t.decisions)));
    assert!(well_formed(lines[3]), "{text}");

    // Two threads: a line each, with their shares of the games; the same decisions.
    let mut out = Vec::new();
    let two = examples::throughput::report(
        &args(&["--games", "5", "--preset", "app", "--threads", "2"]),
        &mut out,
    )
    .unwrap();
    assert_eq!(two.decisions, t.decisions);
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].ends_with(" · 2 threads"), "{text}");
    assert!(lines[1].starts_with("thread 1/2 (games 0..2): "), "{text}");
    assert!(lines[2].starts_with("thread 2/2 (games 2..5): "), "{text}");
    assert!(lines[1].contains(" games/s: ") && lines[2].contains(" decisions/s: "));
    assert!(well_formed(lines[4]), "{text}");
    let err =
        examples::throughput::report(&args(&["--players", "1"]), &mut Vec::new()).unwrap_err();
    assert!(
        err.to_string().starts_with("오류 [BAD_PLAYER_COUNT]: "),
        "{err}"
    );
}

#[test]
fn choices_are_among_exactly_the_legal_actions_and_drafts_count() {
    // The move list read without allocating is the one `legal_actions` gives, in order.
    fn check<R: yut::Rules>(game: &Yut<R>, options: &R::Options) -> (u64, u64) {
        let players = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let mut rng = GameRng::from_seed(1);
        let mut moves = Vec::new();
        let (mut positions, mut rule) = (0, 0);
        for seed in 0..15 {
            let mut state = game.setup(options, &players, seed, 0).unwrap();
            while let Some(&seat) = game.to_act(&state).first() {
                let legal = game.legal_actions(&state, seat);
                game.legal_moves_into(&state, &mut moves);
                if state.board().phase() == Phase::Move {
                    let listed: Vec<YutAction<R::Action>> = moves
                        .iter()
                        .map(|m| YutAction::Move {
                            throw_index: m.throw_index,
                            from: m.from,
                        })
                        .collect();
                    assert_eq!(listed, legal);
                    positions += 1;
                } else {
                    assert!(moves.is_empty());
                }
                if state.board().phase() == Phase::Throw {
                    assert_eq!(legal, [YutAction::Throw]);
                }
                rule += u64::from(state.board().phase() == Phase::Rule);
                let pick = legal[rng.below(legal.len() as u32) as usize].clone();
                game.apply(&mut state, seat, &pick, 0).unwrap();
            }
        }
        (positions, rule)
    }
    let (positions, rule) = check(&Yut::standard(), &yut::YutOptions::default());
    assert!(positions > 100 && rule == 0);
    let (positions, rule) = check(&yut_augments::game(), &yut_augments::app_options());
    assert!(positions > 100 && rule > 15, "{rule} drafts");

    // With the layer, draft choices are decisions: more than with the same games without.
    let players = vec!["p1".to_string(), "p2".to_string()];
    let with = play_games(
        &yut_augments::game(),
        &yut_augments::app_options(),
        &players,
        7,
        20,
    )
    .unwrap();
    let plain = play_games(
        &yut_augments::game(),
        &yut_augments::plain_options(yut::Preset::App),
        &players,
        7,
        20,
    )
    .unwrap();
    assert!(with > 0 && plain > 0);
    // An empty pack plays exactly as the base game: the same decisions.
    let base = play_games(
        &Yut::standard(),
        &yut::Preset::App.options(),
        &players,
        7,
        20,
    )
    .unwrap();
    assert_eq!(plain, base);
}

#[test]
fn the_decisions_are_the_same_on_any_number_of_threads() {
    for preset in ["standard", "app"] {
        let flags = |threads: &str| {
            args(&[
                "--games",
                "41",
                "--players",
                "3",
                "--preset",
                preset,
                "--seed",
                "11",
                "--threads",
                threads,
            ])
        };
        let one = measure(&flags("1")).unwrap();
        assert_eq!(one.per_thread.len(), 1);
        assert_eq!(one.per_thread[0].games, 41);
        assert_eq!(one.per_thread[0].decisions, one.total.decisions);
        for threads in [2, 3, 7] {
            let many = measure(&flags(&threads.to_string())).unwrap();
            assert_eq!(many.total.games, 41);
            assert_eq!(
                many.total.decisions, one.total.decisions,
                "{preset}, {threads} threads"
            );
            assert_eq!(many.per_thread.len(), threads);
            // Each thread played its share, and its decisions are those of its games
            // played alone.
            for (t, part) in many.per_thread.iter().enumerate() {
                let range = share(41, t, threads);
                assert_eq!(part.games, range.end - range.start);
                let alone = match preset {
                    "standard" => play_game_range(
                        &Yut::standard(),
                        &yut::Preset::Standard.options(),
                        &["p1".into(), "p2".into(), "p3".into()],
                        11,
                        range,
                    ),
                    _ => play_game_range(
                        &yut_augments::game(),
                        &yut_augments::app_options(),
                        &["p1".into(), "p2".into(), "p3".into()],
                        11,
                        range,
                    ),
                };
                assert_eq!(part.decisions, alone.unwrap());
            }
            assert_eq!(
                many.per_thread.iter().map(|p| p.decisions).sum::<u64>(),
                many.total.decisions
            );
        }
    }
    // A different seed plays different games (the count is not a constant).
    let other = measure(&args(&["--games", "41", "--players", "3", "--seed", "12"])).unwrap();
    let same = measure(&args(&["--games", "41", "--players", "3", "--seed", "11"])).unwrap();
    assert_ne!(other.total.decisions, same.total.decisions);
    // More threads than games: the extra threads play nothing, the games are the same.
    let few = measure(&args(&["--games", "2", "--threads", "3"])).unwrap();
    assert_eq!(
        few.per_thread.iter().map(|p| p.games).collect::<Vec<_>>(),
        [0, 1, 1]
    );
    assert_eq!(
        few.total.decisions,
        run(&args(&["--games", "2"])).unwrap().decisions
    );
}

#[test]
fn a_bad_thread_count_is_refused_with_a_clear_error() {
    // `--threads=VALUE`, so that `-1` is read as the value, not as a flag.
    let parse = |threads: &str| {
        ThroughputArgs::try_parse_from([
            "throughput",
            "--games",
            "1",
            &format!("--threads={threads}"),
        ])
    };
    assert_eq!(parse("2").unwrap().threads, 2);
    assert_eq!(
        parse(&MAX_THREADS.to_string()).unwrap().threads,
        MAX_THREADS
    );
    assert_eq!(args(&[]).threads, 1, "one thread by default");
    for bad in ["0", "-1", "two", "", "1.5", &(MAX_THREADS + 1).to_string()] {
        let err = parse(bad).unwrap_err();
        assert_eq!(
            err.kind(),
            clap::error::ErrorKind::ValueValidation,
            "{bad:?}: {err}"
        );
        let text = err.to_string();
        assert!(
            text.contains(&format!("invalid value '{bad}' for '--threads <THREADS>'")),
            "{bad:?}: {text}"
        );
    }
    // The range is named, so the user sees what is allowed.
    let text = parse("0").unwrap_err().to_string();
    assert!(text.contains(&format!("1..={MAX_THREADS}")), "{text}");
}
