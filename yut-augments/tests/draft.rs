//! The draft (README, The draft): at the side's own 1st, 6th and 12th turns, before the first
//! throw; three candidates from the slot's enabled augments with the game RNG; team sides
//! draft as a team; the first candidate on timeout; empty slots skipped; fewer than three
//! offered when fewer are enabled.

mod common;

use common::*;
use game_core::{Game, GameError};
use yut::rules::{Rules, WithRules};
use yut::testing::Script;
use yut::{Mode, Phase, ThrowChance as C, Yut, YutAction, YutEvent, YutOptions};
use yut_augments::{
    Augment as A, AugmentAction, AugmentConfig, AugmentEvent, Augments, Slot, app_options,
};

fn choose(index: u32) -> YutAction<AugmentAction> {
    YutAction::Rule(AugmentAction::ChooseAugment { index })
}

fn setup(config: AugmentConfig, base: YutOptions, players: usize, seed: u64) -> Script<Augments> {
    Script::setup(
        Yut::new(Augments),
        &WithRules {
            base,
            rules: config,
        },
        players,
        seed,
    )
    .expect("setup")
}

fn offered(events: &[Event]) -> Vec<(u8, u8, Slot, Vec<A>)> {
    events
        .iter()
        .filter_map(|e| match e {
            YutEvent::Rule(AugmentEvent::AugmentOffered {
                side,
                seat,
                slot,
                candidates,
            }) => Some((*side, *seat, *slot, candidates.to_vec())),
            _ => None,
        })
        .collect()
}

fn draft_candidates(s: &Script<Augments>) -> Vec<A> {
    s.state
        .rules()
        .draft
        .as_ref()
        .map(|d| d.candidates.to_vec())
        .unwrap_or_default()
}

#[test]
fn the_first_turn_starts_with_a_draft_of_three_start_augments() {
    let mut s = setup(AugmentConfig::app(), YutOptions::default(), 2, 7);
    assert_eq!(s.phase(), Phase::Rule);
    let side = s.side();
    let log: Vec<Event> = s.state.log().iter().cloned().collect();
    let offers = offered(&log);
    assert_eq!(offers.len(), 1);
    let (oside, seat, slot, candidates) = offers[0].clone();
    assert_eq!(
        (oside, usize::from(seat), slot),
        (side, s.seat(), Slot::Start)
    );
    assert_eq!(candidates.len(), 3);
    assert!(candidates.iter().all(|a| a.slot() == Slot::Start));
    assert!(
        candidates[0] != candidates[1]
            && candidates[1] != candidates[2]
            && candidates[0] != candidates[2]
    );
    // The view shows the candidates with their names and texts.
    let view = serde_json::to_value(s.view(None)).unwrap();
    assert_eq!(view["draft"]["slot"], "start");
    assert_eq!(view["draft"]["candidates"][1]["id"], candidates[1].id());
    assert_eq!(view["draft"]["candidates"][1]["name"], candidates[1].name());
    assert_eq!(view["draft"]["candidates"][1]["text"], candidates[1].text());
    // Choosing takes the candidate and the turn goes on with the throw.
    let seat = s.seat();
    let ev = s.act(seat, choose(1));
    assert!(ev.iter().any(|e| matches!(
        e,
        YutEvent::Rule(AugmentEvent::AugmentChosen { id, index: 1, seat: Some(_), .. }) if *id == candidates[1]
    )));
    assert_eq!(s.phase(), Phase::Throw);
    assert!(s.state.rules().sides[usize::from(side)].owns(candidates[1]));
    assert!(s.state.rules().draft.is_none());
    assert!(s.view(None).rules.draft.is_none());
    check(&s);
}

#[test]
fn the_draft_is_drawn_with_the_game_rng() {
    let a = setup(AugmentConfig::app(), YutOptions::default(), 2, 11);
    let b = setup(AugmentConfig::app(), YutOptions::default(), 2, 11);
    assert_eq!(draft_candidates(&a), draft_candidates(&b));
    let sets: std::collections::BTreeSet<Vec<A>> = (0..12)
        .map(|seed| draft_candidates(&setup(AugmentConfig::app(), YutOptions::default(), 2, seed)))
        .collect();
    assert!(sets.len() > 3, "different seeds offer different candidates");
}

/// Side 0 is about to start its `turn`-th turn: side 1 throws a backdo with nothing on the
/// board, the result is dropped and the turn passes.
fn start_turn_of_side_zero(config: AugmentConfig, turn: u16) -> (Script<Augments>, Vec<Event>) {
    let mut s = script(config);
    s.set_turns(0, turn - 1);
    s.set_turn(1);
    let ev = s.throw(C::Backdo);
    assert_eq!(s.seat(), 0);
    assert_eq!(s.state.board().sides()[0].turns, turn);
    (s, ev)
}

#[test]
fn the_sixth_turn_drafts_a_middle_augment_before_the_first_throw() {
    let (mut s, ev) = start_turn_of_side_zero(AugmentConfig::app(), 6);
    assert_eq!(s.phase(), Phase::Rule);
    let offers = offered(&ev);
    assert_eq!(offers.len(), 1);
    assert_eq!(offers[0].2, Slot::Middle);
    assert!(offers[0].3.iter().all(|a| a.slot() == Slot::Middle));
    let err = s.try_throw(C::Gae).unwrap_err();
    assert_eq!(err.code(), "NOT_THROW_PHASE", "no throw before the choice");
    s.act(0, choose(0));
    assert_eq!(s.state.rules().sides[0].owned[0].id, offers[0].3[0]);
    s.throw(C::Gae);
    check(&s);
}

#[test]
fn the_twelfth_turn_drafts_a_finish_augment() {
    let (s, ev) = start_turn_of_side_zero(AugmentConfig::app(), 12);
    assert_eq!(s.phase(), Phase::Rule);
    assert_eq!(offered(&ev)[0].2, Slot::Finish);
}

#[test]
fn other_turns_draft_nothing() {
    for turn in [2, 5, 7, 11, 13] {
        let (s, ev) = start_turn_of_side_zero(AugmentConfig::app(), turn);
        assert_eq!(s.phase(), Phase::Throw, "turn {turn}");
        assert!(offered(&ev).is_empty());
    }
}

#[test]
fn an_empty_slot_is_skipped() {
    let config = pack(&[A::Payback, A::SecondLook, A::YutLeap]);
    let s = setup(config.clone(), YutOptions::default(), 2, 3);
    assert_eq!(
        s.phase(),
        Phase::Throw,
        "no start augment enabled: no draft"
    );
    assert!(offered(&s.state.log().iter().cloned().collect::<Vec<_>>()).is_empty());
    let (s, _) = start_turn_of_side_zero(config, 6);
    assert_eq!(s.phase(), Phase::Rule);
    let mut c = draft_candidates(&s);
    c.sort();
    assert_eq!(
        c,
        vec![A::Payback, A::SecondLook],
        "the slot's enabled ones only"
    );
}

#[test]
fn fewer_than_three_enabled_are_all_offered() {
    for seed in 0..6 {
        let s = setup(
            pack(&[A::MoBonus, A::FirstStep]),
            YutOptions::default(),
            2,
            seed,
        );
        let mut c = draft_candidates(&s);
        c.sort();
        assert_eq!(c, vec![A::FirstStep, A::MoBonus]);
    }
    let s = setup(pack(&[A::DoEcho]), YutOptions::default(), 2, 0);
    assert_eq!(draft_candidates(&s), vec![A::DoEcho]);
}

#[test]
fn timeout_takes_the_first_candidate() {
    let mut s = setup(AugmentConfig::app(), YutOptions::default(), 2, 5);
    let first = draft_candidates(&s)[0];
    let side = s.side();
    let deadline = s.state.board().deadline().expect("a deadline");
    let applied = s.tick(deadline);
    assert_eq!(applied.len(), 1);
    assert!(applied[0].auto);
    assert_eq!(applied[0].action, choose(0));
    assert_eq!(s.state.rules().sides[usize::from(side)].owned[0].id, first);
    assert_eq!(s.phase(), Phase::Throw);
}

#[test]
fn team_sides_draft_as_a_team_and_the_member_to_act_chooses() {
    let base = YutOptions {
        mode: Mode::Team,
        ..YutOptions::default()
    };
    let mut s = setup(AugmentConfig::app(), base, 4, 9);
    let seat = s.seat();
    let side = s.side();
    let mate = (seat + 2) % 4;
    let err = s.try_act(mate, choose(0)).unwrap_err();
    assert_eq!(err.code(), "NOT_YOUR_TURN");
    let err = s.try_act((seat + 1) % 4, choose(0)).unwrap_err();
    assert_eq!(err.code(), "NOT_YOUR_TURN");
    s.act(seat, choose(2));
    assert_eq!(s.state.rules().sides[usize::from(side)].owned.len(), 1);
    // The turn ends; the other team drafts on its first turn.
    s.throw(C::Gae);
    s.play(0, yut::Origin::HOME);
    assert_eq!(s.phase(), Phase::Rule);
    assert_ne!(s.side(), side);
    let other = s.seat();
    s.act(other, choose(0));
    s.throw(C::Geol);
    s.play(0, yut::Origin::HOME);
    // The team's second turn, by the other member: no draft, the team owns one augment.
    assert_eq!(s.seat(), mate);
    assert_eq!(s.phase(), Phase::Throw);
    assert_eq!(s.state.rules().sides[usize::from(side)].owned.len(), 1);
    check(&s);
}

#[test]
fn a_wrong_choice_is_refused_with_a_typed_error_and_changes_nothing() {
    let mut s = setup(AugmentConfig::app(), YutOptions::default(), 2, 1);
    let seat = s.seat();
    let before = s.json();
    let err = s.try_act(seat, choose(3)).unwrap_err();
    assert_eq!(err.code(), "UNKNOWN_CANDIDATE");
    assert!(err.message().starts_with("그런 증강 후보는 없어요."));
    assert_eq!(s.json(), before);
    s.act(seat, choose(0));
    let before = s.json();
    let err = s.try_act(seat, choose(0)).unwrap_err();
    assert_eq!(err.code(), "WRONG_PHASE");
    assert_eq!(s.json(), before);
    // The layer's own answer when asked outside a draft.
    let err = Augments
        .validate_action(
            s.state.board(),
            s.state.rules(),
            seat,
            &AugmentAction::ChooseAugment { index: 0 },
        )
        .unwrap_err();
    assert_eq!(err.code(), "NO_DRAFT");
    assert_eq!(err.message(), "지금은 증강을 고를 때가 아니에요.");
}

#[test]
fn the_legal_actions_of_a_draft_are_its_candidates() {
    let s = setup(AugmentConfig::app(), YutOptions::default(), 2, 1);
    let seat = s.seat();
    assert_eq!(
        s.game.legal_actions(&s.state, seat),
        vec![choose(0), choose(1), choose(2)]
    );
    assert!(s.game.legal_actions(&s.state, 1 - seat).is_empty());
}

#[test]
fn a_team_keeps_its_pick_when_the_chooser_concedes_mid_draft() {
    let base = YutOptions {
        mode: Mode::Team,
        ..YutOptions::default()
    };
    let mut s = setup(AugmentConfig::app(), base, 4, 9);
    let side = s.side();
    let first = draft_candidates(&s)[0];
    let seat = s.seat();
    let ev = s.act(seat, YutAction::Concede);
    assert!(ev.iter().any(|e| matches!(
        e,
        YutEvent::Rule(AugmentEvent::AugmentChosen {
            seat: None,
            index: 0,
            ..
        })
    )));
    assert_eq!(s.state.rules().sides[usize::from(side)].owned[0].id, first);
    assert_ne!(s.side(), side);
    assert_eq!(s.phase(), Phase::Rule, "the other team drafts");
    check(&s);
}

#[test]
fn a_conceded_individual_side_takes_no_pick() {
    let mut s = setup(AugmentConfig::app(), YutOptions::default(), 3, 2);
    let side = s.side();
    let seat = s.seat();
    s.act(seat, YutAction::Concede);
    assert!(s.state.rules().sides[usize::from(side)].owned.is_empty());
    assert_eq!(s.phase(), Phase::Rule);
    assert_ne!(s.side(), side);
    check(&s);
}

#[test]
fn the_app_preset_starts_a_drafting_game() {
    let game = Yut::new(Augments);
    let players = yut::testing::players(2);
    let state = game.setup(&app_options(), &players, 42, 0).unwrap();
    assert_eq!(state.board().phase(), Phase::Rule);
    assert_eq!(state.board().options(), &yut::Preset::App.options());
    game.check_state(&state).unwrap();
}

#[test]
fn times_out_answers_like_the_timeout_action() {
    // The draft's rule phase included: the augment layer's timeout action decides there.
    let game = yut::Yut::new(yut_augments::Augments);
    game_core::testing::assert_times_out_agrees(&game, &yut_augments::app_options(), 2);
}

#[test]
fn first_to_act_is_the_first_of_to_act() {
    // The draft's rule phase included: the seat to act chooses there.
    let game = yut::Yut::new(yut_augments::Augments);
    game_core::testing::assert_first_to_act_agrees(&game, &yut_augments::app_options(), 2);
}
