//! Any action from anyone at any phase of standard Yut Nori: every action kind with every
//! argument (throw indices up to `u32::MAX`, nodes up to 255), from every seated player,
//! from spectators and unknown ids, by seat numbers past the table, with stale and future
//! `turnSeq`s, with forced chance outcomes, in every phase including after the game ended.
//! Each is accepted — and then the state passes the check — or refused with a typed error
//! and the state left exactly as it was. Only the player whose turn it is acts (concede
//! aside); spectators never do. The sweep is `game_core::testing::hammer`; the augment
//! layer's is in `yut-augments/tests`, rock-paper-scissors' in `game-core/tests`.

use game_core::testing::{hammer_all, states_by_phase};
use yut::testing::{every_action, phase_key, seat_may_act};
use yut::{Phase, ThrowChance, Yut, YutOptions};

#[test]
fn standard_yut_in_every_phase() {
    let game = Yut::standard();
    let actions = every_action(&[]);
    // Individual play, and team play (where only the member whose turn it is acts).
    for (mode, n) in [(yut::Mode::Individual, 3), (yut::Mode::Team, 4)] {
        let options = YutOptions {
            mode,
            nak_percent: 10,
            ..YutOptions::default()
        };
        let states = states_by_phase(&game, &options, n, phase_key);
        let phases: Vec<_> = states.iter().map(|s| s.board().phase()).collect();
        for p in [Phase::Throw, Phase::Move, Phase::Finished] {
            assert!(phases.contains(&p), "{phases:?}");
        }
        let tally = hammer_all(&game, &states, &actions, &ThrowChance::ALL, seat_may_act);
        assert!(
            tally.accepted > 0 && tally.refused > 10 * tally.accepted,
            "{tally:?}"
        );
    }
}
