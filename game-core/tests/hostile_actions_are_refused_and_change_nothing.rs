//! Any action from anyone at any phase of rock-paper-scissors: every action with every
//! hand, from every seated player, from spectators and unknown ids, by seat numbers past
//! the table, with stale and future `turnSeq`s, with forced chance outcomes, in every phase
//! including after the game ended. Each is accepted — and then the state passes the check —
//! or refused with a typed error and the state left exactly as it was. The sweep is
//! `game_core::testing::hammer`; Yut Nori's are in `yut/tests` and `yut-augments/tests`.

use game_core::rps::{Hand, Rps, RpsOptions};
use game_core::testing::{RPS_ACTIONS, hammer_all, states_by_phase};

#[test]
fn rps_in_every_phase() {
    let options = RpsOptions {
        wins_needed: 2,
        ..RpsOptions::default()
    };
    let states = states_by_phase(&Rps, &options, 2, |s| {
        format!(
            "{:?} {:?}",
            s.picks().map(|p| p.is_some()),
            s.winner().is_some()
        )
    });
    assert!(states.len() >= 4, "{}", states.len());
    // Both seats pick at the same time; each only for itself (checked by `picks`).
    let tally = hammer_all(&Rps, &states, &RPS_ACTIONS, &Hand::ALL, |_, _, _| true);
    assert!(
        tally.accepted > 0 && tally.refused > tally.accepted,
        "{tally:?}"
    );
}
