//! A stored augmented state from outside is checked the way a new game is: every field of
//! real mid-game states of the augment layer (an open draft, drafted augments with uses
//! left, cushions, the truce, piggyback marks) is mutated in turn — numbers nudged and made
//! huge or negative, booleans flipped, strings replaced by nonsense or by every other wire
//! word (another phase, status, result, slot or augment id), arrays shortened and
//! lengthened, nulls filled. Each mutation is refused with `CORRUPT_STATE`, or loads a
//! state that passes `check_state` and plays on: the player to act always has a legal
//! action, every legal action is accepted and the check holds after each.

use game_core::GameExt;
use game_core::{Bot, Game, GameError, RandomBot};
use serde_json::Value;
use yut::rules::WithRules;
use yut::testing::{json_at as at, json_mutations, json_paths, json_under as under};
use yut::{Mode, Phase, Yut, YutOptions};
use yut_augments::{AugmentConfig, Augments};

type AugmentedGame = Yut<Augments>;

/// Mid-game states of a few seeded games with the whole pack, as JSON: a draft open at the
/// first turn, a middle draft open, a move phase with augments drafted, and a late state.
fn mid_game_states() -> Vec<Value> {
    let game = Yut::new(Augments);
    let mut out = Vec::new();
    // Seeds whose games reach a middle draft within the steps taken.
    for (seed, players, mode, picks) in [
        (11u64, 2usize, Mode::Individual, [0usize, 70, 140]),
        (13, 4, Mode::Team, [2, 60, 180]),
    ] {
        let options = WithRules {
            base: YutOptions {
                mode,
                nak_percent: 5,
                ..yut::Preset::App.options()
            },
            rules: AugmentConfig::app(),
        };
        let ids = yut::testing::players(players);
        let mut state = game.setup(&options, &ids, seed, 0).unwrap();
        let mut bot = RandomBot::new(seed);
        let mut middle_draft = false;
        for step in 0..=picks[2] {
            if game.is_over(&state) {
                break;
            }
            let open_middle = state
                .rules()
                .draft
                .as_ref()
                .is_some_and(|d| d.slot == yut_augments::Slot::Middle);
            if picks.contains(&step) || (open_middle && !middle_draft) {
                middle_draft |= open_middle;
                // A short log keeps the test fast; the log only feeds the view.
                let mut short = serde_json::to_value(&state).unwrap();
                let log = short["log"].as_array_mut().expect("the log is an array");
                log.drain(..log.len().saturating_sub(3));
                out.push(short);
            }
            let seat = game.to_act(&state)[0];
            let action = bot.choose(&game, &state, seat).unwrap();
            game.apply(&mut state, seat, &action, step as u64).unwrap();
        }
    }
    // What the states cover, so that the mutations reach every part of the layer.
    let all = Value::Array(out.clone()).to_string();
    for must in [
        "\"phase\":\"rule\"",
        "\"slot\":\"middle\"",
        "\"usesLeft\":1",
    ] {
        assert!(all.contains(must), "no state has {must}");
    }
    out
}

/// The wire words a string of the state can hold, in groups of one kind: phases, piece
/// statuses, throw results, draft slots, augment ids, option values. Swapping a word for
/// another of its kind is the subtle tampering a nonsense string cannot show.
const WORDS: &[&[&str]] = &[
    &["throw", "move", "rule", "finished"],
    &["home", "board", "done", "goal"],
    &["do", "gae", "geol", "yut", "mo", "backdo", "nak"],
    &["start", "middle", "finish"],
    &[
        "first-step",
        "twin-entry",
        "do-echo",
        "erase-backdo",
        "walk-together",
        "mo-bonus",
        "soft-landing",
        "payback",
        "piggyback-dash",
        "second-look",
        "corner-clap",
        "double-hunt",
        "low-threshold",
        "one-line-wind",
        "goal-cheer",
        "iron-stack",
        "comeback-wind",
        "yut-leap",
    ],
    &["individual", "team"],
    &["fair", "realistic"],
    &["chammeogi", "home", "finish"],
    &["pass", "reach"],
    &["first", "all"],
];

/// A loaded state must play on: someone may act, has a legal action, and every step keeps
/// the check.
#[track_caller]
fn plays_on(game: &AugmentedGame, mut state: yut::YutState<Augments>, what: &str) {
    let mut bot = RandomBot::new(7);
    for step in 0..6 {
        game.check_state(&state)
            .unwrap_or_else(|e| panic!("{what}: step {step}: {e:?}"));
        let Some(&seat) = game.to_act(&state).first() else {
            assert!(game.is_over(&state), "{what}: nobody to act");
            return;
        };
        let Some(action) = bot.choose(game, &state, seat) else {
            panic!("{what}: the seat to act has no legal action (stuck)");
        };
        game.apply(&mut state, seat, &action, 1_000 + step)
            .unwrap_or_else(|e| panic!("{what}: legal action {action:?} refused: {e:?}"));
    }
    game.check_state(&state).unwrap();
}

#[test]
fn every_mutated_field_is_refused_or_loads_fully_valid() {
    let game = Yut::new(Augments);
    let (mut refused, mut loaded) = (0usize, 0usize);
    let mut seen_rules = 0usize;
    for original in mid_game_states() {
        for path in json_paths(&original) {
            // The RNG's internal words are opaque: any value is a valid generator state.
            if under(&path, "rng") {
                continue;
            }
            // The recent-event log only feeds the view: the plain mutations suffice there.
            let deep = !under(&path, "log");
            seen_rules += usize::from(under(&path, "rules"));
            let here = at(&mut original.clone(), &path).clone();
            for replacement in json_mutations(&here, if deep { WORDS } else { &[] }) {
                let mut tampered = original.clone();
                *at(&mut tampered, &path) = replacement.clone();
                let what = format!("{path:?} = {replacement}");
                match game.restore(&tampered.to_string()) {
                    Err(e) => {
                        assert_eq!(e.code(), "CORRUPT_STATE", "{what}: {e:?}");
                        refused += 1;
                    }
                    Ok(state) => {
                        loaded += 1;
                        plays_on(&game, state, &what);
                    }
                }
            }
        }
    }
    assert!(seen_rules > 50, "the layer's own fields were mutated");
    assert!(refused > loaded, "refused {refused}, loaded {loaded}");
}

/// Regression: a state in the rule phase with no draft open loaded, and then nobody could
/// act (no legal action, no timeout action): the game was stuck for good. Found by the
/// wire-word swaps of the test above; refused since by the base check (`Rules::waiting`).
#[test]
fn a_rule_phase_without_a_draft_is_refused() {
    let (game, state) = app_game(2);
    assert_eq!(state.board().phase(), Phase::Rule);
    let mut v = serde_json::to_value(&state).unwrap();
    v["rules"]["draft"] = Value::Null;
    assert_refused(&game, &v, "rule phase");
}

/// A new game of `players` under the full `app` pack, from seed 4 (its first turn drafts).
fn app_game(players: usize) -> (AugmentedGame, yut::YutState<Augments>) {
    let game = Yut::new(Augments);
    let state = game
        .setup(
            &yut_augments::app_options(),
            &yut::testing::players(players),
            4,
            0,
        )
        .unwrap();
    (game, state)
}

/// Asserts that `game` refuses the stored state `v` with `CORRUPT_STATE`, its detail
/// saying `says`.
fn assert_refused(game: &AugmentedGame, v: &Value, says: &str) {
    let err = game.restore(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), "CORRUPT_STATE");
    assert!(
        err.body().reason["detail"].to_string().contains(says),
        "{err:?}"
    );
}

/// The layer's part of each side holds at most four sides (`yut::MAX_SIDES`, as a board
/// does): five (beside a board of four) are refused as the state is read, the detail
/// saying so.
#[test]
fn a_layer_state_of_more_than_four_sides_is_refused() {
    let (game, state) = app_game(4);
    let mut v = serde_json::to_value(&state).unwrap();
    assert!(game.restore(&v.to_string()).is_ok());
    let side = v["rules"]["sides"][0].clone();
    v["rules"]["sides"] = Value::from(vec![side; 5]);
    assert_refused(&game, &v, "at most 4 sides");
}

/// The layer's state is checked against the game's own pack: a side cannot own, nor a
/// draft offer, an augment outside it, and no side keeps a cushion or a truce the game was
/// set up without. Each tampering of the options below is refused with a sentence that
/// says so; the untouched state loads.
#[test]
fn a_state_at_odds_with_its_pack_is_refused() {
    let game = Yut::new(Augments);
    let players = yut::testing::players(2);
    let mut state = game
        .setup(&yut_augments::app_options(), &players, 4, 0)
        .unwrap();
    // The first draft is open: choose, then play on to the next turn's start.
    let draft = state.rules().draft.clone().expect("the first turn drafts");
    let offered = draft.candidates[1];
    let chosen = draft.candidates[0];
    let seat = game.to_act(&state)[0];
    let choose = game.legal_actions(&state, seat)[0];
    game.apply(&mut state, seat, &choose, 1).unwrap();
    assert!(state.rules().sides[usize::from(draft.side)].owns(chosen));
    let v = serde_json::to_value(&state).unwrap();
    game.restore(&v.to_string())
        .expect("the untouched state loads");

    let without = |id: yut_augments::Augment| {
        let mut t = v.clone();
        t["options"]["augments"]
            .as_array_mut()
            .unwrap()
            .retain(|a| a != &serde_json::to_value(id).unwrap());
        t
    };
    let refused = |t: Value, says: &str| {
        let err = game.restore(&t.to_string()).unwrap_err();
        assert_eq!(err.code(), "CORRUPT_STATE", "{says}");
        let detail = err.body().reason["detail"].to_string();
        assert!(detail.contains(says), "{err:?} should say {says}");
    };
    refused(without(chosen), "outside the pack");

    let mut t = v.clone();
    t["options"]["cushion"] = Value::Bool(false);
    refused(t, "cushion the game is without");
    let mut t = v.clone();
    t["options"]["truce"] = Value::Bool(false);
    refused(t, "truce the game is without");

    // An open draft offering what the pack lacks.
    let state = game
        .setup(&yut_augments::app_options(), &players, 4, 0)
        .unwrap();
    let mut t = serde_json::to_value(&state).unwrap();
    t["options"]["augments"]
        .as_array_mut()
        .unwrap()
        .retain(|a| a != &serde_json::to_value(offered).unwrap());
    refused(t, "bad draft candidate");
}
