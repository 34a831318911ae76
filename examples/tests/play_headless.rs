//! The terminal game driven headless: whole bot games under many options, a scripted
//! person who types wrong things, end of input, conceding, refused options.

use clap::Parser;
use examples::play::{PlayArgs, PlayEnd, PlayError, run};

/// Runs `play` with `args` (plus `--fast`), `input` as the people's keyboard, no terminal.
fn play(args: &[&str], input: &str) -> (Result<PlayEnd, PlayError>, String) {
    let args = PlayArgs::parse_from(["play", "--fast"].into_iter().chain(args.iter().copied()));
    let mut out = Vec::new();
    let end = run(&args, false, input.as_bytes(), &mut out);
    (end, String::from_utf8(out).unwrap())
}

fn finished(end: Result<PlayEnd, PlayError>) -> yut::YutResult {
    match end {
        Ok(PlayEnd::Finished(result)) => result,
        other => panic!("expected a finished game, got {other:?}"),
    }
}

#[test]
fn the_default_game_is_played_to_the_end_and_drawn() {
    let (end, out) = play(&[], "");
    let result = finished(end);
    assert_eq!(result.winners.len(), 1);
    // The board, the panel and the narration.
    assert!(out.contains("10 ─── 9 ─── 8 ─── 7 ─── 6 ─── "), "{out}");
    assert!(out.contains(" │             22              │"));
    assert!(out.contains("대기(waiting)") && out.contains("남(finished)"));
    // One word per idea: waiting is 대기, finished is 남, in every line.
    // (Node names such as 18(날걸) keep their traditional 날.)
    for other in ["home", "(done)", "(goal)", "날(", "날!"] {
        assert!(!out.contains(other), "{other:?} in the output");
    }
    // A node keeps its number when a piece stands on it, and the panel lists the stacks.
    assert!(out.contains("판 위(on board): "), "{out}");
    assert!(out.contains("남!(finishes)") || out.contains("남! 말 "));
    assert!(out.contains("윷 던지기(throw) ["));
    assert!(out.contains("차례(turn) → "));
    assert!(out.contains("잡기!") || out.contains("업기!"));
    assert!(out.contains("모두 남! "));
    assert!(out.contains("결과(result): "));
    assert!(out.contains("1등"));
    assert!(!out.contains('\x1b'), "no escape codes without a terminal");
    // No line is wider than the board plus the panel.
    assert!(
        out.lines()
            .all(|l| examples::style::display_width(l) <= 120)
    );
    // Reproducible: the same seed prints the same game.
    let (_, again) = play(&[], "");
    assert_eq!(out, again);
    let (_, other) = play(&["--seed", "2"], "");
    assert_ne!(out, other);
}

#[test]
fn bot_games_finish_under_every_option() {
    let cases: &[&[&str]] = &[
        &["--players", "3"],
        &["--players", "4", "--ranking", "all", "--bot", "random"],
        &["--mode", "team"],
        &["--mode", "team", "--players", "8", "--pieces", "2"],
        &["--preset", "app", "--pieces", "5"],
        &["--no-backdo", "--finish", "reach", "--sticks", "fair"],
        &[
            "--backdo-from-do",
            "finish",
            "--nak",
            "10",
            "--no-backdo-capture-bonus",
        ],
        &[
            "--backdo-from-do",
            "home",
            "--turn-seconds",
            "none",
            "--bot",
            "random",
        ],
    ];
    for (i, case) in cases.iter().enumerate() {
        let seed = (i + 40).to_string();
        let mut args = case.to_vec();
        args.extend(["--seed", &seed]);
        let (end, out) = play(&args, "");
        let result = finished(end);
        assert!(!result.ranking.is_empty(), "{case:?}");
        assert!(out.contains("결과(result)"), "{case:?}");
    }
    let (end, out) = play(&["--mode", "team", "--players", "6"], "");
    finished(end);
    assert!(out.contains("청팀") && out.contains("홍팀"));
    let (end, out) = play(&["--players", "4"], "");
    finished(end);
    for shape in ["●", "▲", "■", "★"] {
        assert!(out.contains(shape));
    }
}

#[test]
fn a_person_who_types_wrong_things_gets_messages_and_can_finish() {
    // Each round of inputs: nonsense, a number in the throw phase, Enter (throw), Enter
    // again (in the move phase: not a throw), raw moves the engine refuses, help, an index
    // out of the list, then the first listed move.
    let round = "hello\n7\n\n\nm 9 home\nm 0 27\nm x y\n?\n0\n1\n";
    let input = round.repeat(400);
    let (end, out) = play(&["--humans", "0", "--seed", "5"], &input);
    let result = finished(end);
    assert!(!result.winners.is_empty());
    assert!(out.contains("P1> "), "the person is prompted");
    for message in [
        // parse messages
        "알 수 없는 입력이에요",
        "목록에 없는 번호예요",
        "결과 번호(throw index)는 0부터 세는 숫자예요",
        // the engine's own messages
        "지금은 말을 움직일 차례가 아니에요.",
        "지금은 윷을 던질 차례가 아니에요.",
        "그런 윷 결과는 없어요.",
        "그 말은 움직일 수 없어요.",
        // help, the move list and the hint
        "이 화면: 규칙과 입력 (this screen: the rules in force and the keys)",
        "규칙(rules in force)",
        // what can be typed now, at every prompt
        "입력(type): Enter = 윷 던지기(throw)",
        "= 그 수 두기(play that move) · 추천(hint) ",
        "· ? = 규칙·도움말(rules & help) · q = 기권(concede)",
        // the English glosses of the refusals
        "(not understood)",
        "(not on the list: pick 1–",
        "(the throw index is a number counted from 0)",
        "— it is not time to move a piece (NOT_MOVE_PHASE)",
        "— it is not time to throw (NOT_THROW_PHASE)",
        "— there is no such thrown result (UNKNOWN_THROW_INDEX)",
        "— that piece cannot move (CANNOT_MOVE)",
        "움직일 수를 고르세요",
        "추천(hint)",
    ] {
        assert!(out.contains(message), "missing {message:?}");
    }
    assert!(out.contains("(NOT_MOVE_PHASE)") && out.contains("(UNKNOWN_THROW_INDEX)"));
}

#[test]
fn every_line_a_person_sees_fits_120_columns() {
    // Help, a wrong word, a refused move, a concede declined, then throw and move: in
    // every mode, with the widest panels (eight players, four sides with augments).
    let input = "?\nhello\nm 0 27\nq\nn\n\n1\n".repeat(500);
    for args in [
        &["--humans", "0", "--seed", "5"][..],
        &["--preset", "app", "--humans", "0,1", "--seed", "6"],
        &[
            "--mode",
            "team",
            "--players",
            "8",
            "--humans",
            "0,3",
            "--seed",
            "9",
            "--preset",
            "app",
        ],
        &[
            "--players",
            "4",
            "--humans",
            "0,1,2,3",
            "--preset",
            "app",
            "--seed",
            "2",
        ],
    ] {
        let (end, out) = play(args, &input);
        finished(end);
        // Without a terminal nothing echoes the input, so a prompt and the next line share
        // one line here.
        let out = out.replace("> ", ">\n");
        assert!(widest(&out) <= 120, "{args:?}: {}", widest(&out));
    }
}

#[test]
fn people_in_both_teams_can_play_a_whole_game() {
    let input = "\n1\n".repeat(2000);
    let (end, out) = play(
        &["--mode", "team", "--humans", "0,1,2,3", "--seed", "9"],
        &input,
    );
    finished(end);
    for p in ["P1> ", "P2> ", "P3> ", "P4> "] {
        assert!(out.contains(p), "{p}");
    }
    assert!(out.contains("사람(human): P1·P3"));
}

#[test]
fn end_of_input_stops_the_game_cleanly() {
    let (end, out) = play(&["--humans", "0,1"], "");
    assert!(matches!(end, Ok(PlayEnd::InputClosed)));
    assert!(out.contains("input closed"));
    let (end, _) = play(&["--humans", "1"], "\n\n\n1\n");
    assert!(matches!(
        end,
        Ok(PlayEnd::InputClosed) | Ok(PlayEnd::Finished(_))
    ));
    // Bytes that are not UTF-8 are refused like any other wrong input.
    let args = PlayArgs::parse_from(["play", "--fast", "--humans", "0,1"]);
    let mut out = Vec::new();
    let end = run(&args, false, &b"\xff\xfe\n"[..], &mut out).unwrap();
    assert_eq!(end, PlayEnd::InputClosed);
    assert!(String::from_utf8(out).unwrap().contains("not UTF-8"));
}

#[test]
fn conceding_ends_a_two_player_game() {
    let (end, out) = play(&["--humans", "0"], "q\ny\n");
    let result = finished(end);
    assert_eq!(result.winners, ["P2"]);
    assert!(out.contains(
        "  정말 기권할까요? 게임이 바로 끝나고 P2이(가) 이겨요.\n  (concede? the game ends now and P2 wins)\n"
    ));
    assert!(out.contains("P1 기권?(concede?) y/n> "));
    assert!(out.contains("기권(conceded)"));
    assert!(out.contains("상대 기권"));
    // Three players: the others play on after one concedes.
    let (end, out) = play(&["--players", "3", "--humans", "2"], "q\nyes\n");
    let result = finished(end);
    assert_eq!(result.ranking.last().unwrap().players, ["P3"]);
    assert!(out.contains(
        "(concede? you leave the game, your pieces leave the board, the others play on)"
    ));
    // A team member leaves alone while a teammate plays on.
    let (end, out) = play(&["--mode", "team", "--humans", "0"], "q\ny\n");
    finished(end);
    assert!(out.contains("(concede? you leave; your team plays on without you)"));
}

#[test]
fn q_asks_first_and_anything_but_yes_plays_on() {
    // No, Enter and a stray word all keep the game going; the throw that follows is the
    // same as without them.
    let (end, out) = play(&["--humans", "0", "--seed", "5"], "q\nn\nq\n\nq\nmaybe\n");
    assert_eq!(end.unwrap(), PlayEnd::InputClosed);
    assert_eq!(
        out.matches("기권하지 않았어요 — 계속해요 (not conceded; play on)")
            .count(),
        3
    );
    assert!(!out.contains("기권(conceded)"));
    let (_, plain) = play(&["--humans", "0", "--seed", "5"], "\n");
    let (_, after_no) = play(&["--humans", "0", "--seed", "5"], "q\nn\n\n");
    let throw = |out: &str| {
        out.lines()
            .find_map(|l| l.split_once("● P1 윷 던지기(throw)"))
            .map(|(_, throw)| throw.to_owned())
    };
    assert!(throw(&plain).is_some());
    assert_eq!(throw(&plain), throw(&after_no));
    // The end of input while asked stops the game without conceding.
    let (end, out) = play(&["--humans", "0"], "q\n");
    assert_eq!(end.unwrap(), PlayEnd::InputClosed);
    assert!(!out.contains("기권(conceded)"));
}

#[test]
fn refused_options_are_the_engine_s_typed_errors_with_exit_code_2() {
    for (args, code) in [
        (&["--players", "5"][..], "BAD_PLAYER_COUNT"),
        (&["--players", "1"][..], "BAD_PLAYER_COUNT"),
        (
            &["--mode", "team", "--players", "5"][..],
            "BAD_PLAYER_COUNT",
        ),
        (&["--pieces", "6"][..], "INVALID_OPTION"),
        (&["--nak", "7"][..], "INVALID_OPTION"),
        (&["--turn-seconds", "20"][..], "INVALID_OPTION"),
    ] {
        let (end, out) = play(args, "");
        match end {
            Err(PlayError::Setup(e)) => {
                use game_core::GameError;
                assert_eq!(e.code(), code, "{args:?}");
                let err = PlayError::Setup(e);
                assert_eq!(err.exit_code(), 2);
                assert!(err.to_string().starts_with(&format!("오류 [{code}]: ")));
            }
            other => panic!("{args:?}: {other:?}"),
        }
        assert!(out.is_empty(), "nothing is drawn for refused options");
    }
    let (end, _) = play(&["--humans", "2"], "");
    let err = end.unwrap_err();
    assert!(matches!(err, PlayError::Args(_)));
    assert_eq!(err.exit_code(), 2);
    assert!(PlayArgs::try_parse_from(["play", "--mode", "solo"]).is_err());
}

#[test]
fn colours_only_on_a_terminal_and_never_with_no_color() {
    let args = PlayArgs::parse_from(["play", "--fast", "--seed", "3"]);
    let mut out = Vec::new();
    run(&args, true, std::io::empty(), &mut out).unwrap();
    let coloured = String::from_utf8(out).unwrap();
    assert!(coloured.contains("\x1b[1;34m●"));
    assert!(!coloured.contains("\x1b[2J"), "--fast scrolls");

    let args = PlayArgs::parse_from(["play", "--fast", "--seed", "3", "--no-color"]);
    let mut out = Vec::new();
    run(&args, true, std::io::empty(), &mut out).unwrap();
    let plain = String::from_utf8(out).unwrap();
    assert!(!plain.contains('\x1b'));
    let (_, headless) = play(&["--seed", "3"], "");
    assert_eq!(plain, headless);

    // Paced on a terminal: the screen is redrawn after every action.
    let args = PlayArgs::parse_from(["play", "--delay", "0", "--seed", "3", "--pieces", "2"]);
    let mut out = Vec::new();
    run(&args, true, std::io::empty(), &mut out).unwrap();
    let redrawn = String::from_utf8(out).unwrap();
    assert!(redrawn.matches("\x1b[2J").count() > 10);
    assert!(redrawn.contains("결과(result)"));
}

/// The widest line of `out`, in terminal columns.
fn widest(out: &str) -> usize {
    out.lines()
        .map(examples::style::display_width)
        .max()
        .unwrap_or(0)
}

#[test]
fn the_app_preset_plays_the_whole_augment_layer_on_screen() {
    let (end, out) = play(&["--preset", "app", "--seed", "4"], "");
    finished(end);
    for text in [
        "증강(augments): 18개 전부(all 18) · 첫 잡힘 완충(cushion) 켬(on) · 쉼 약속(truce) 켬(on)",
        // The draft: the slot, the candidates with name, id and effect text, the choice.
        "시작 증강 고르기(augment draft, start) — 후보(candidates):",
        "중간 증강 고르기(augment draft, middle)",
        "   1) 「",
        "증강 선택(chose): 「",
        // Each side's augments with uses left, the house rules.
        "● P1 증강(augments, uses left) ",
        "▲ P2 증강(augments, uses left) ",
        "  완충(cushion) ",
        "  쉼 약속(truce) ",
        // What the augments did, in Korean with the augment's name.
        "   ✦ ",
        "결과(result): ",
    ] {
        assert!(out.contains(text), "missing {text:?}");
    }
    // Every augment's line names it with its text.
    let chosen = out
        .lines()
        .filter(|l| l.contains("증강 선택(chose): 「"))
        .count();
    assert!(
        chosen >= 4,
        "each side drafts at turns 1 and 6 at least: {chosen}"
    );
    assert!(widest(&out) <= 120, "{}", widest(&out));
    // Reproducible.
    let (_, again) = play(&["--preset", "app", "--seed", "4"], "");
    assert_eq!(out, again);

    // Every bot kind drafts, in every mode.
    for args in [
        &["--preset", "app", "--bot", "random", "--seed", "8"][..],
        &[
            "--preset", "app", "--bot", "strong", "--pieces", "2", "--seed", "9",
        ],
        &["--preset", "app", "--mode", "team", "--seed", "10"],
        &[
            "--preset",
            "app",
            "--players",
            "3",
            "--bot",
            "random",
            "--seed",
            "11",
        ],
    ] {
        let (end, out) = play(args, "");
        finished(end);
        assert!(out.contains("증강 선택(chose): 「"), "{args:?}");
        assert!(widest(&out) <= 120, "{args:?}: {}", widest(&out));
    }
}

#[test]
fn packs_are_chosen_with_flags_and_no_augments_plays_the_app_base_rules() {
    let (end, out) = play(&["--preset", "app", "--no-augments"], "");
    finished(end);
    assert!(!out.contains("증강"), "no layer");
    assert!(out.contains("fair(배 0.5)") && out.contains("대기로(waiting)"));

    let (end, out) = play(
        &[
            "--augments",
            "first-step,yut-leap",
            "--no-truce",
            "--seed",
            "3",
        ],
        "",
    );
    finished(end);
    assert!(out.contains(
        "증강(augments): 2개: 첫걸음 한 칸 · 윷 도약 · 첫 잡힘 완충(cushion) 끔(off) · 쉼 약속(truce) 끔(off)"
    ));
    assert!(out.contains("realistic(배 0.6)"), "the standard base rules");
    assert!(!out.contains("  쉼 약속(truce) "));

    let (end, out) = play(
        &["--preset", "app", "--augments", "none", "--no-cushion"],
        "",
    );
    finished(end);
    assert!(out.contains(
        "증강(augments): 없음(no draft) · 첫 잡힘 완충(cushion) 끔(off) · 쉼 약속(truce) 켬(on)"
    ));
    assert!(!out.contains("고르기(augment draft"));

    // A pack the engine refuses is its typed error; unknown ids and conflicts are clap's.
    let (end, out) = play(&["--augments", "do-echo,do-echo"], "");
    match end {
        Err(err @ PlayError::Setup(_)) => {
            assert_eq!(err.exit_code(), 2);
            assert!(
                err.to_string().starts_with("오류 [INVALID_OPTION]: "),
                "{err}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(out.is_empty());
    assert!(PlayArgs::try_parse_from(["play", "--augments", "wings"]).is_err());
    assert!(PlayArgs::try_parse_from(["play", "--no-augments", "--augments", "all"]).is_err());
    assert!(PlayArgs::try_parse_from(["play", "--no-augments", "--truce"]).is_err());
}

#[test]
fn a_person_drafts_by_number_after_a_bad_choice() {
    // At P1's first draft: help, a number off the list, a raw index the engine refuses,
    // then the second candidate. Afterwards Enter and 1 are enough for every phase (later
    // drafts refuse Enter with the engine's message and take 1).
    let input = format!("?\n9\nc 7\n2\n{}", "\n1\n".repeat(3000));
    let (end, out) = play(&["--preset", "app", "--humans", "0", "--seed", "6"], &input);
    finished(end);
    for text in [
        "P1 차례 — 시작 증강을 고르세요 (choose an augment)",
        "← 시간이 다 되면 이것(timeout pick)",
        "c I           증강 후보를 직접 고르기",
        "목록에 없는 번호예요: 9. 1~3 중에서 골라 주세요 (not on the list: pick 1–3).",
        "(UNKNOWN_CANDIDATE)",
        "P1 차례 — 중간 증강을 고르세요",
        "(NOT_THROW_PHASE)",
    ] {
        assert!(out.contains(text), "missing {text:?}");
    }
    // The second candidate of the first prompt is what P1 took.
    let lines: Vec<&str> = out.lines().collect();
    let prompt = lines
        .iter()
        .position(|l| l.contains("P1 차례 — 시작 증강을 고르세요"))
        .unwrap();
    // Each candidate has its English gloss on the line below.
    assert!(
        lines[prompt + 2].starts_with("      ("),
        "{}",
        lines[prompt + 2]
    );
    let second = lines[prompt + 3];
    assert!(second.starts_with("   2) 「"), "{second}");
    let label = second.trim_start_matches("   2) ");
    assert!(
        out.contains(&format!("● P1 증강 선택(chose): {label}")),
        "P1 took {label}"
    );
    // The engine's refusal came between the bad number and the good one.
    let bad = out.find("목록에 없는 번호예요: 9").unwrap();
    let refused = out.find("(UNKNOWN_CANDIDATE)").unwrap();
    let took = out
        .find(&format!("● P1 증강 선택(chose): {label}"))
        .unwrap();
    assert!(bad < refused && refused < took);
}

/// The lines `?` printed: from its heading to the keys line that follows it.
fn summary_of(out: &str) -> Vec<&str> {
    let lines: Vec<&str> = out.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains("규칙(rules in force)"))
        .expect("no summary");
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l.starts_with("  입력(type): "))
            .unwrap();
    lines[start..=end].to_vec()
}

#[test]
fn question_mark_shows_the_rules_in_force_on_one_screen() {
    let (_, out) = play(&["--humans", "0"], "?\n");
    let summary = summary_of(&out);
    for row in [
        "  모드(mode) ",
        "  참가자(players) ",
        "  말(pieces) ",
        "  윷가락(sticks) ",
        "  빽도(backdo) ",
        "  도에서 빽도(backdo from 도) ",
        "  남(finish rule) ",
        "  낙(nak) ",
        "  빽도 잡기 보너스(bonus) ",
        "  순위(ranking) ",
        "  시간(turn seconds) ",
    ] {
        assert!(
            summary.iter().any(|l| l.starts_with(row)),
            "missing {row:?}"
        );
    }
    let text = summary.join("\n");
    for value in [
        "개인전(individual)",
        "사람(human): P1 · 봇(bot, policy): P2",
        "편마다 4개 (4 per side)",
        "realistic — ",
        "참먹이로(chammeogi)",
        "pass — ",
        "0% — 낙 없음",
        "first — ",
        "30초(30 s)",
        "입력(what you can type):",
    ] {
        assert!(text.contains(value), "missing {value:?} in\n{text}");
    }
    assert!(!text.contains("증강"), "no augment rows without the layer");
    assert!(summary.len() <= 32, "one screen: {} lines", summary.len());
    assert!(
        summary
            .iter()
            .all(|l| examples::style::display_width(l) <= 120),
        "{text}"
    );

    // Every option changed shows its new value; the app preset adds the augment pack,
    // the cushion and the truce.
    let (_, out) = play(
        &[
            "--preset",
            "app",
            "--humans",
            "1",
            "--players",
            "3",
            "--ranking",
            "all",
            "--no-backdo",
            "--finish",
            "reach",
            "--nak",
            "10",
            "--no-backdo-capture-bonus",
            "--turn-seconds",
            "none",
            "--pieces",
            "2",
            "--no-truce",
            "--bot",
            "strong",
        ],
        "?\n",
    );
    let summary = summary_of(&out);
    let text = summary.join("\n");
    for value in [
        "3인(3 players) — 사람(human): P2 · 봇(bot, strong): P1, P3",
        "편마다 2개 (2 per side)",
        "fair — ",
        "끔(off) — 표시 가락만 배여도 도",
        "대기로(waiting) — ",
        "reach — ",
        "10% — ",
        "끔(off) — 빽도로 잡으면 더 던지지 않아요",
        "all — 끝까지",
        "없음(none) — 시간 제한 없음",
        "  증강(augment pack) ",
        "18개 전부(all 18)",
        "  첫 잡힘 완충(cushion) ",
        "  쉼 약속(truce) ",
        "c I ",
    ] {
        assert!(text.contains(value), "missing {value:?} in\n{text}");
    }
    let truce = summary
        .iter()
        .find(|l| l.starts_with("  쉼 약속(truce) "))
        .unwrap();
    assert!(
        truce.ends_with("끔(off) — 이 게임에서는 쓰지 않아요 (not used in this game)"),
        "{truce}"
    );
    assert!(summary.len() <= 36, "one screen: {} lines", summary.len());
    assert!(
        summary
            .iter()
            .all(|l| examples::style::display_width(l) <= 120),
        "{text}"
    );
    // A team game names the teams.
    let (_, out) = play(&["--mode", "team", "--humans", "0"], "?\n");
    assert!(
        summary_of(&out)
            .join("\n")
            .contains("● 청팀 P1·P3 vs ▲ 홍팀 P2·P4")
    );
}

#[test]
fn the_readme_shows_the_screens_the_game_prints() {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("## The terminal game").unwrap()..];
    let section = &section[..section.find("\n## ").unwrap()];
    let blocks: Vec<&str> = section
        .split("```text\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 2);
    // A person's prompt and a refused move (a terminal echoes what was typed; here the
    // input is no terminal, so nothing is echoed).
    let input = format!("{}\nm 0 27\n", "\n1\n".repeat(6));
    let (_, out) = play(&["--humans", "0", "--seed", "3"], &input);
    let prompt = blocks[0].replace("P1> m 0 27\n", "P1> ");
    let prompt = prompt.strip_suffix("P1>\n").unwrap();
    assert!(out.contains(prompt), "README:\n{prompt}\ngame:\n{out}");
    // The end of the default game.
    let (_, out) = play(&[], "");
    assert!(out.ends_with(blocks[1]), "README:\n{}", blocks[1]);
}

#[test]
fn help_uses_the_same_words_as_the_game() {
    use clap::CommandFactory;
    let help = PlayArgs::command().render_long_help().to_string();
    for word in [
        "a waiting piece (대기)",
        "a finished piece (남)",
        "Goes back to waiting (대기)",
        "Finishes (남) at once",
        "? shows the rules in force",
        "q concedes after asking",
        "yut/RULES.md",
    ] {
        assert!(help.contains(word), "missing {word:?}");
    }
    // `home` only as the engine's wire name that is still accepted.
    assert_eq!(help.matches("home").count(), 1, "{help}");
    assert!(help.contains("`home`, is accepted too"));
    let args = PlayArgs::parse_from(["play", "--backdo-from-do", "home"]);
    assert_eq!(args.options().backdo_from_do, yut::BackdoFromDo::Home);
    let args = PlayArgs::parse_from(["play", "--backdo-from-do", "waiting"]);
    assert_eq!(args.options().backdo_from_do, yut::BackdoFromDo::Home);
}
