//! The checks of a state from outside ([`Game::check_state`](game_core::Game::check_state)):
//! everything play can reach, nothing else.

use crate::{
    DECK_SIZE, MAX_ATTACK, OneCardError, OneCardState, PLAYER_COUNTS, SeatStatus, corrupt,
};

/// Refuses a state play cannot reach, with `CORRUPT_STATE` naming what is wrong.
pub(crate) fn check(state: &OneCardState) -> Result<(), OneCardError> {
    let table = &state.table;
    table.check()?;
    let n = table.players().len();
    if !PLAYER_COUNTS.contains(&n) {
        return Err(corrupt("2 to 5 players must be seated"));
    }
    state
        .options
        .validate()
        .map_err(|e| corrupt(format!("options: {e}")))?;
    if state.hands.len() != n || state.status.len() != n {
        return Err(corrupt("hands and standings must list every seat"));
    }
    // Every card exactly once, in the hands and the two piles. Counted before anything is
    // indexed, so that no list longer than the deck is walked further than needed.
    let total = state.draw_pile.len()
        + state.discard.len()
        + state.hands.iter().map(Vec::len).sum::<usize>();
    if total != DECK_SIZE {
        return Err(corrupt(format!("{total} cards instead of {DECK_SIZE}")));
    }
    let mut seen = [false; DECK_SIZE];
    let all = state
        .hands
        .iter()
        .flatten()
        .chain(&state.draw_pile)
        .chain(&state.discard);
    for card in all {
        if std::mem::replace(&mut seen[card.index()], true) {
            return Err(corrupt(format!("{card} is there twice")));
        }
    }
    let Some(top) = state.top() else {
        return Err(corrupt("the discard pile is empty"));
    };
    // Standings against the lists of who finished and who is out.
    let listed = |list: &[usize], fits: fn(SeatStatus) -> bool| -> Result<(), OneCardError> {
        let mut once = [false; 5];
        for &seat in list {
            if seat >= n || std::mem::replace(&mut once[seat], true) {
                return Err(corrupt("a seat listed twice or past the table"));
            }
            if !fits(state.status[seat]) {
                return Err(corrupt("a listed seat's standing does not match"));
            }
        }
        let count = state.status.iter().filter(|&&s| fits(s)).count();
        if count != list.len() {
            return Err(corrupt("a standing missing from its list"));
        }
        Ok(())
    };
    listed(&state.finished, |s| s == SeatStatus::Finished)?;
    listed(&state.out, |s| {
        matches!(s, SeatStatus::Bankrupt | SeatStatus::Conceded)
    })?;
    for (seat, hand) in state.hands.iter().enumerate() {
        let playing = state.status[seat] == SeatStatus::Playing;
        if playing == hand.is_empty() {
            return Err(corrupt(format!(
                "seat {seat}: a hand must be empty exactly when its player is out"
            )));
        }
        if playing
            && state
                .options
                .bankrupt_at
                .is_some_and(|at| hand.len() >= usize::from(at))
        {
            return Err(corrupt(format!(
                "seat {seat} holds bankruptAt cards or more"
            )));
        }
    }
    if state.attack > MAX_ATTACK || (state.attack > 0 && top.attack() == 0) {
        return Err(corrupt("a pending attack no card on top made"));
    }
    if state.suit.is_some() && top.rank() != Some(7) {
        return Err(corrupt("a declared suit without a 7 on top"));
    }
    if state.over != state.end_reached() {
        return Err(corrupt("the game's end does not match the standings"));
    }
    if state.turn >= n {
        return Err(corrupt("the seat to move is not a seat"));
    }
    if state.over {
        if state.call.is_some() || state.attack > 0 || table.deadline_at().is_some() {
            return Err(corrupt("a call, an attack or a deadline after the end"));
        }
        return Ok(());
    }
    if state.status[state.turn] != SeatStatus::Playing {
        return Err(corrupt("the seat to move is out of the game"));
    }
    if let Some(holder) = state.call
        && (!state.options.one_card_call
            || holder >= n
            || state.status[holder] != SeatStatus::Playing
            || state.hands[holder].len() != 1)
    {
        return Err(corrupt("a one-card window for a seat without one card"));
    }
    let expected = state
        .options
        .turn_seconds
        .map(|s| table.decision_since().saturating_add(u64::from(s) * 1000));
    if table.deadline_at() != expected {
        return Err(corrupt("the deadline does not match turnSeconds"));
    }
    Ok(())
}
