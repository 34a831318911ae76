//! Any action from anyone at any phase of Yut Nori with the augment layer: every action
//! kind with every argument (draft indices up to `u32::MAX` included), from every seated
//! player, from spectators and unknown ids, by seat numbers past the table, with stale and
//! future `turnSeq`s, with forced chance outcomes, in every phase (the draft too) including
//! after the game ended. Each is accepted — and then the state passes the check — or
//! refused with a typed error and the state left exactly as it was. The sweep is
//! `game_core::testing::hammer`; standard Yut Nori's is in `yut/tests`.

use game_core::testing::{hammer_all, states_by_phase};
use yut::testing::{every_action, phase_key, seat_may_act};
use yut::{Phase, ThrowChance};
use yut_augments::AugmentAction;

#[test]
fn augmented_yut_in_every_phase() {
    let game = yut_augments::game();
    let states = states_by_phase(&game, &yut_augments::app_options(), 2, phase_key);
    let phases: Vec<_> = states.iter().map(|s| s.board().phase()).collect();
    for p in [Phase::Rule, Phase::Throw, Phase::Move, Phase::Finished] {
        assert!(phases.contains(&p), "{phases:?}");
    }
    let rule: Vec<AugmentAction> = [0, 1, 2, 3, u32::MAX]
        .into_iter()
        .map(|index| AugmentAction::ChooseAugment { index })
        .collect();
    let actions = every_action(&rule);
    let tally = hammer_all(&game, &states, &actions, &ThrowChance::ALL, seat_may_act);
    assert!(
        tally.accepted > 0 && tally.refused > 10 * tally.accepted,
        "{tally:?}"
    );
}
