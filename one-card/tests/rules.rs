//! One test (or a few) for each rule of RULES.md, on positions built card by card.

mod common;

use common::{c, default_position, ids, play, position, rig};
use game_core::GameExt;
use game_core::{Game, GameError, GameState, Viewer};
use one_card::{
    Card, Direction, OneCard, OneCardAction, OneCardEvent, OneCardOptions, OneCardState, Ranking,
    SeatStatus, Suit,
};

fn seven(card: &str, suit: Suit) -> OneCardAction {
    OneCardAction::Play {
        card: c(card),
        suit: Some(suit),
    }
}

/// Applies `action` for `seat`, which must be accepted.
fn act(state: &mut OneCardState, seat: usize, action: &OneCardAction) -> Vec<OneCardEvent> {
    OneCard
        .apply(state, seat, action, 1_000)
        .unwrap_or_else(|e| panic!("seat {seat} {action:?}: {e}"))
}

/// Applies `action` for `seat`, which must be refused with `code` and change nothing.
fn refused(state: &mut OneCardState, seat: usize, action: &OneCardAction, code: &str) {
    let before = state.clone();
    let err = OneCard.apply(state, seat, action, 1_000).unwrap_err();
    assert_eq!(err.code(), code, "seat {seat} {action:?}: {err}");
    assert_eq!(*state, before);
}

fn drawn(events: &[OneCardEvent]) -> Vec<Vec<Card>> {
    events
        .iter()
        .filter_map(|e| match e {
            OneCardEvent::Drew { cards, .. } => cards.clone(),
            _ => None,
        })
        .collect()
}

#[test]
fn the_deal_gives_hand_size_cards_each_and_turns_up_one() {
    for n in 2..=5 {
        for hand_size in 5..=8u8 {
            let options = OneCardOptions {
                hand_size,
                ..OneCardOptions::default()
            };
            let state = OneCard.setup(&options, &ids(n), 42, 0).unwrap();
            assert!(
                state
                    .hands()
                    .iter()
                    .all(|h| h.len() == usize::from(hand_size))
            );
            assert_eq!(state.discard().len(), 1);
            assert_eq!(state.draw_pile().len(), 54 - 1 - n * usize::from(hand_size));
            assert_eq!((state.turn(), state.attack(), state.suit()), (0, 0, None));
            assert_eq!(state.direction(), Direction::Forward);
            // The same seed deals the same cards; another seed deals others.
            assert_eq!(OneCard.setup(&options, &ids(n), 42, 0).unwrap(), state);
            assert_ne!(
                OneCard.setup(&options, &ids(n), 43, 0).unwrap().hands(),
                state.hands()
            );
        }
    }
    for n in [0, 1, 6] {
        let err = OneCard
            .setup(&OneCardOptions::default(), &ids(n), 1, 0)
            .unwrap_err();
        assert_eq!(err.code(), "BAD_PLAYER_COUNT");
    }
    let bad = [
        r#"{"handSize":4}"#,
        r#"{"handSize":9}"#,
        r#"{"bankruptAt":14}"#,
        r#"{"bankruptAt":31}"#,
        r#"{"turnSeconds":20}"#,
    ];
    for json in bad {
        let options: OneCardOptions = serde_json::from_str(json).unwrap();
        let err = OneCard.setup(&options, &ids(2), 1, 0).unwrap_err();
        assert_eq!(err.code(), "INVALID_OPTION", "{json}");
    }
    assert!(serde_json::from_str::<OneCardOptions>(r#"{"ranking":"last"}"#).is_err());
}

#[test]
fn a_special_card_turned_up_at_the_start_has_no_effect() {
    // A 2 turned up attacks no one: the first player matches it like any card.
    let mut state = default_position(&[&["5H", "9D"], &["3C", "4C"]], "2H");
    assert_eq!(state.attack(), 0);
    refused(&mut state, 0, &play("9D"), "CARD_DOES_NOT_MATCH");
    act(&mut state, 0, &play("5H"));
    assert_eq!(state.turn(), 1);
    // A joker turned up lets anything follow.
    let mut state = default_position(&[&["5H", "9D"], &["3C", "4C"]], "BJ");
    act(&mut state, 0, &play("9D"));
}

#[test]
fn a_card_follows_the_top_cards_suit_or_rank() {
    let mut state = default_position(&[&["5H", "9D", "3S", "6C"], &["3C", "4C"]], "9H");
    refused(&mut state, 0, &play("3S"), "CARD_DOES_NOT_MATCH");
    refused(&mut state, 0, &play("KH"), "CARD_NOT_HELD");
    refused(&mut state, 1, &play("3C"), "NOT_YOUR_TURN");
    let legal = OneCard.legal_actions(&state, 0);
    assert_eq!(legal, [play("5H"), play("9D"), OneCardAction::Draw]);
    act(&mut state, 0, &play("9D"));
    assert_eq!(state.top(), Some(c("9D")));
}

#[test]
fn a_joker_goes_on_anything_and_anything_goes_on_a_joker() {
    let mut state = default_position(&[&["BJ", "3S", "4S"], &["3C", "4C", "KD"]], "9H");
    act(&mut state, 0, &play("BJ"));
    assert_eq!(state.attack(), 5);
    act(&mut state, 1, &OneCardAction::Draw);
    assert_eq!(state.hands()[1].len(), 8);
    // The attack taken, the joker on top lets any card follow.
    act(&mut state, 0, &play("3S"));
}

#[test]
fn each_attack_adds_its_cards_and_draw_takes_the_total() {
    for (card, total) in [("2H", 2), ("AH", 3), ("AS", 5), ("BJ", 5), ("CJ", 7)] {
        let top = if card.ends_with('S') { "9S" } else { "9H" };
        let mut state = default_position(&[&[card, "3D"], &["3C", "4C"]], top);
        act(&mut state, 0, &play(card));
        assert_eq!(state.attack(), total, "{card}");
        refused(&mut state, 1, &play("3C"), "MUST_ANSWER_ATTACK");
        let events = act(&mut state, 1, &OneCardAction::Draw);
        assert_eq!(drawn(&events)[0].len(), total as usize, "{card}");
        assert_eq!(state.attack(), 0);
        assert_eq!(state.turn(), 0);
    }
}

#[test]
fn attacks_add_up_along_the_answer_table() {
    // ♥2, ♥A (same suit), ♣A, then the black joker and the colour joker: 2+3+3+5+7.
    let mut state = default_position(
        &[&["2H", "AC", "CJ", "3D", "4D"], &["AH", "BJ", "5S", "6S"]],
        "9H",
    );
    act(&mut state, 0, &play("2H"));
    act(&mut state, 1, &play("AH"));
    assert_eq!(state.attack(), 5);
    act(&mut state, 0, &play("AC"));
    act(&mut state, 1, &play("BJ"));
    act(&mut state, 0, &play("CJ"));
    assert_eq!(state.attack(), 20);
    // Nothing answers the colour joker.
    assert_eq!(OneCard.legal_actions(&state, 1), [OneCardAction::Draw]);
    let events = act(&mut state, 1, &OneCardAction::Draw);
    assert_eq!(drawn(&events)[0].len(), 20);
}

#[test]
fn the_answer_table_is_what_legal_actions_offer() {
    let hand: &[&str] = &["2S", "2D", "AH", "AD", "AS", "BJ", "CJ", "9H"];
    for (attacker, answers) in [
        ("2H", vec!["2S", "2D", "AH", "BJ", "CJ"]),
        ("2S", vec!["2D", "AS", "BJ", "CJ"]),
        ("AC", vec!["AH", "AD", "AS", "BJ", "CJ"]),
        ("AS", vec!["BJ", "CJ"]),
        ("BJ", vec!["CJ"]),
    ] {
        let mut hand = hand.to_vec();
        hand.retain(|&h| h != attacker);
        let mut answers = answers;
        answers.retain(|&a| a != attacker);
        // The attacker on top as if seat 0 just played it.
        let state = default_position(&[&["3D"], &hand], attacker);
        let state = rig(&state, |p| {
            p.attack = c(attacker).attack();
            p.turn = 1;
        });
        let legal = OneCard.legal_actions(&state, 1);
        let mut expected: Vec<_> = answers.iter().map(|a| play(a)).collect();
        expected.push(OneCardAction::Draw);
        assert_eq!(legal, expected, "against {attacker}");
    }
}

#[test]
fn j_skips_the_next_player() {
    let mut state = default_position(&[&["JH", "3D"], &["3C", "4C"], &["5C", "6C"]], "9H");
    let events = act(&mut state, 0, &play("JH"));
    assert!(events.contains(&OneCardEvent::Skipped {
        player: "p1".into()
    }));
    assert_eq!(state.turn(), 2);
    // Two players: the one who played the J moves again.
    let mut state = default_position(&[&["JH", "3H"], &["3C", "4C"]], "9H");
    act(&mut state, 0, &play("JH"));
    assert_eq!(state.turn(), 0);
}

#[test]
fn q_reverses_the_direction() {
    let mut state = default_position(
        &[&["QH", "3D"], &["3C", "QC"], &["5C", "6C"], &["7D", "8D"]],
        "9H",
    );
    act(&mut state, 0, &play("QH"));
    assert_eq!((state.direction(), state.turn()), (Direction::Backward, 3));
    refused(&mut state, 3, &play("8D"), "CARD_DOES_NOT_MATCH");
}

#[test]
fn q_with_two_players_gives_the_same_player_another_move() {
    let mut state = default_position(&[&["QH", "3H"], &["3C", "4C"]], "9H");
    act(&mut state, 0, &play("QH"));
    assert_eq!(state.turn(), 0);
    act(&mut state, 0, &play("3H"));
    assert!(state.over());
}

#[test]
fn k_plays_again() {
    let mut state = default_position(&[&["KH", "3H", "4D"], &["3C", "4C"], &["5C", "6C"]], "9H");
    act(&mut state, 0, &play("KH"));
    assert_eq!(state.turn(), 0);
    refused(&mut state, 1, &play("3C"), "NOT_YOUR_TURN");
    act(&mut state, 0, &play("3H"));
    assert_eq!(state.turn(), 1);
}

#[test]
fn seven_declares_the_suit_to_follow() {
    let mut state = default_position(&[&["7H", "3D", "4D"], &["3C", "4H", "7S"]], "9H");
    refused(&mut state, 0, &play("7H"), "SUIT_REQUIRED");
    refused(
        &mut state,
        0,
        &OneCardAction::Play {
            card: c("3D"),
            suit: Some(Suit::Clubs),
        },
        "SUIT_ONLY_WITH_SEVEN",
    );
    let legal = OneCard.legal_actions(&state, 0);
    assert_eq!(legal.len(), 5, "a 7 for each suit and DRAW: {legal:?}");
    act(&mut state, 0, &seven("7H", Suit::Clubs));
    assert_eq!(state.suit(), Some(Suit::Clubs));
    refused(&mut state, 1, &play("4H"), "CARD_DOES_NOT_MATCH");
    assert_eq!(
        OneCard.legal_actions(&state, 1),
        [
            play("3C"),
            seven("7S", Suit::Spades),
            seven("7S", Suit::Hearts),
            seven("7S", Suit::Diamonds),
            seven("7S", Suit::Clubs),
            OneCardAction::Draw
        ]
    );
    act(&mut state, 1, &play("3C"));
    assert_eq!(state.suit(), None);
}

#[test]
fn one_card_is_called_or_caught_until_the_next_play_or_draw() {
    let mut state = default_position(&[&["5H", "6H"], &["3C", "4C"], &["5C", "6C"]], "9H");
    act(&mut state, 0, &play("5H"));
    assert_eq!(state.call(), Some(0));
    // Only the mover is waited for; the calls are open besides.
    assert_eq!(OneCard.to_act(&state), [1]);
    assert!((0..3).all(|s| OneCard.may_act(&state, s)));
    assert_eq!(OneCard.legal_actions(&state, 0), [OneCardAction::OneCard]);
    let catch = OneCardAction::Catch {
        player: "p0".into(),
    };
    assert_eq!(
        OneCard.legal_actions(&state, 2),
        std::slice::from_ref(&catch)
    );
    assert!(
        OneCard
            .legal_actions(&state, 1)
            .ends_with(&[OneCardAction::Draw, catch.clone()])
    );
    refused(&mut state, 0, &catch, "CANNOT_CATCH_SELF");
    refused(&mut state, 2, &OneCardAction::OneCard, "NO_CALL_WINDOW");
    refused(
        &mut state,
        2,
        &OneCardAction::Catch {
            player: "p1".into(),
        },
        "NO_CALL_WINDOW",
    );
    let deadline = state.table().deadline_at();
    let events = act(&mut state, 2, &catch);
    assert_eq!(state.hands()[0].len(), 2);
    assert_eq!(state.call(), None);
    assert_eq!(drawn(&events)[0].len(), 1);
    // A call has no timer of its own: the mover's deadline stands.
    assert_eq!((state.turn(), state.table().deadline_at()), (1, deadline));
    refused(&mut state, 1, &catch, "NO_CALL_WINDOW");

    // Called first, it can no longer be caught.
    let mut state = default_position(&[&["5H", "6H"], &["3C", "4C"]], "9H");
    act(&mut state, 0, &play("5H"));
    act(&mut state, 0, &OneCardAction::OneCard);
    refused(&mut state, 1, &catch, "NO_CALL_WINDOW");
    assert_eq!(state.hands()[0].len(), 1);

    // Neither called nor caught: the next move closes the window.
    let mut state = default_position(&[&["5H", "6H"], &["3C", "4C"]], "9H");
    act(&mut state, 0, &play("5H"));
    act(&mut state, 1, &OneCardAction::Draw);
    refused(&mut state, 1, &catch, "NO_CALL_WINDOW");
    refused(&mut state, 0, &OneCardAction::OneCard, "NO_CALL_WINDOW");
}

#[test]
fn without_one_card_calls_there_is_no_window() {
    let options = OneCardOptions {
        one_card_call: false,
        ..OneCardOptions::default()
    };
    let mut state = position(options, &[&["5H", "6H"], &["3C", "4C"]], "9H");
    act(&mut state, 0, &play("5H"));
    assert_eq!(state.call(), None);
    assert!(!OneCard.may_act(&state, 0));
    refused(&mut state, 0, &OneCardAction::OneCard, "NO_CALL_WINDOW");
    refused(
        &mut state,
        1,
        &OneCardAction::Catch {
            player: "p0".into(),
        },
        "NO_CALL_WINDOW",
    );
}

/// A position where seat 0 holds `n` spades and clubs (no heart, no 9) facing `9H`.
fn heavy(options: OneCardOptions, players: usize, n: usize) -> OneCardState {
    let hand: Vec<String> = Card::all()
        .filter(|x| matches!(x.suit(), Some(Suit::Spades | Suit::Clubs)) && x.rank() != Some(9))
        .take(n)
        .map(|x| x.to_string())
        .collect();
    let hand: Vec<&str> = hand.iter().map(String::as_str).collect();
    let others: Vec<&[&str]> = [
        &["3D", "4D"][..],
        &["5D", "6D"],
        &["8D", "10D"],
        &["JD", "QD"],
    ][..players - 1]
        .to_vec();
    let mut hands = vec![&hand[..]];
    hands.extend(others);
    position(options, &hands, "9H")
}

#[test]
fn holding_bankrupt_at_cards_puts_a_player_out_and_their_cards_under_the_pile() {
    let options = OneCardOptions {
        bankrupt_at: Some(15),
        ..OneCardOptions::default()
    };
    let mut state = heavy(options.clone(), 3, 14);
    let pile = state.draw_pile().len();
    let events = act(&mut state, 0, &OneCardAction::Draw);
    assert!(events.contains(&OneCardEvent::Bankrupt {
        player: "p0".into(),
        count: 15
    }));
    assert_eq!(state.status()[0], SeatStatus::Bankrupt);
    assert!(state.hands()[0].is_empty());
    assert_eq!(state.draw_pile().len(), pile - 1 + 15);
    assert_eq!(state.turn(), 1);
    assert!(!state.over());
    // Two players: the other wins.
    let mut state = heavy(options, 2, 14);
    act(&mut state, 0, &OneCardAction::Draw);
    let outcome = OneCard.outcome(&state).unwrap();
    assert_eq!((outcome.winner.as_str(), outcome.ranks), ("p1", vec![2, 1]));
    // Without bankruptcy, the hand just grows.
    let options = OneCardOptions {
        bankrupt_at: None,
        ..OneCardOptions::default()
    };
    let mut state = heavy(options, 2, 20);
    act(&mut state, 0, &OneCardAction::Draw);
    assert_eq!(state.hands()[0].len(), 21);
}

#[test]
fn an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top() {
    let mut state = default_position(&[&["5H", "6H"], &["3C", "4C"]], "9H");
    // Move the draw pile under the top card, as if played.
    state = rig(&state, |p| {
        let pile = std::mem::take(&mut p.draw_pile);
        p.discard.splice(0..0, pile);
    });
    let events = act(&mut state, 0, &OneCardAction::Draw);
    assert!(events.contains(&OneCardEvent::Reshuffled { count: 49 }));
    assert_eq!(state.discard(), [c("9H")]);
    assert_eq!((state.draw_pile().len(), state.hands()[0].len()), (48, 3));
}

/// `players` seats without bankruptcy, seat 1 holding every card but the other hands'
/// (two each) and the top card `top`: both piles exhausted. Seat 0 moves.
fn exhausted(players: usize, top: &str) -> OneCardState {
    let hands: [&[&str]; 5] = [
        &["5H", "6H"],
        &["3C", "4C"],
        &["8D", "9D"],
        &["JD", "QD"],
        &["5S", "6S"],
    ];
    let state = position(
        OneCardOptions {
            bankrupt_at: None,
            ..OneCardOptions::default()
        },
        &hands[..players],
        top,
    );
    rig(&state, |p| {
        let rest = std::mem::take(&mut p.draw_pile);
        p.hands[1].extend(rest);
    })
}

#[test]
fn a_draw_that_finds_no_card_at_all_puts_the_drawer_out_bankrupt() {
    let mut state = exhausted(3, "9H");
    let events = act(&mut state, 0, &OneCardAction::Draw);
    assert_eq!(drawn(&events), [Vec::<Card>::new()]);
    assert!(events.contains(&OneCardEvent::Bankrupt {
        player: "p0".into(),
        count: 2
    }));
    assert_eq!(state.status()[0], SeatStatus::Bankrupt);
    // Their cards were shuffled into the draw pile, and play goes on.
    let mut pile = state.draw_pile().to_vec();
    pile.sort_by_key(|c| c.to_string());
    assert_eq!(pile, [c("5H"), c("6H")]);
    assert_eq!((state.turn(), state.over()), (1, false));
    let top = *state.draw_pile().last().unwrap();
    let events = act(&mut state, 1, &OneCardAction::Draw);
    assert_eq!(drawn(&events), [vec![top]]);
    assert_eq!(state.turn(), 2);
    // With two players the other one wins; the bankrupt ranks last.
    let mut state = exhausted(2, "9H");
    act(&mut state, 0, &OneCardAction::Draw);
    let outcome = OneCard.outcome(&state).unwrap();
    assert_eq!((outcome.winner.as_str(), outcome.ranks), ("p1", vec![2, 1]));
}

#[test]
fn with_both_piles_nearly_exhausted_a_draw_takes_what_there_is() {
    // An attack of 2 with one card under the top: that one card is drawn, and the drawer
    // stays in the game.
    let mut under = None;
    let mut state = rig(&exhausted(2, "2H"), |p| {
        let card = p.hands[1].pop().unwrap();
        p.discard.insert(0, card);
        p.attack = 2;
        under = Some(card);
    });
    let under = under.unwrap();
    let events = act(&mut state, 0, &OneCardAction::Draw);
    assert_eq!(drawn(&events), [vec![under]]);
    assert_eq!(state.hands()[0].len(), 3);
    assert_eq!(state.discard(), [c("2H")]);
    assert_eq!((state.status()[0], state.turn()), (SeatStatus::Playing, 1));
}

/// Ticks at each `next_tick_at` until the game is over; how many ticks it took, each of
/// which must act. `None` past `bound` ticks.
fn ticks_to_the_end(state: &mut OneCardState, bound: usize) -> Option<usize> {
    let mut ticks = 0;
    while let Some(at) = OneCard.next_tick_at(state) {
        if ticks >= bound {
            return None;
        }
        assert!(
            !OneCard.tick(state, at).is_empty(),
            "a tick at {at} took nothing"
        );
        ticks += 1;
    }
    assert!(OneCard.is_over(state), "waits with nothing timed");
    Some(ticks)
}

#[test]
fn games_of_timeouts_only_always_end() {
    // Every timeout is a draw. A draw takes a card from the draw pile or the discard pile
    // under its top, or finds none and puts the drawer out, whose cards then refill the
    // draw pile: at most 53 cards to take plus 53 each of the n - 1 who can go out, and n
    // draws that find none, so 54 n ticks at most.
    let options = [
        OneCardOptions::default(),
        OneCardOptions {
            bankrupt_at: None,
            ranking: Ranking::All,
            ..OneCardOptions::default()
        },
        OneCardOptions {
            bankrupt_at: None,
            hand_size: 5,
            turn_seconds: Some(15),
            ..OneCardOptions::default()
        },
    ];
    let mut longest = Vec::new();
    for n in 3..=5 {
        let mut most = 0;
        for o in &options {
            for seed in 0..20 {
                let bound = 54 * n;
                // From the deal, and from a game some random moves in.
                let fresh = OneCard.setup(o, &ids(n), seed, 0).unwrap();
                let mut played = fresh.clone();
                let mut bot = game_core::RandomBot::new(seed);
                for step in 0..seed * 3 {
                    let Some(seat) = OneCard.first_to_act(&played) else {
                        break;
                    };
                    let action = game_core::Bot::choose(&mut bot, &OneCard, &played, seat);
                    OneCard
                        .apply(&mut played, seat, &action.unwrap(), step)
                        .unwrap();
                }
                for mut state in [fresh, played] {
                    let ticks = ticks_to_the_end(&mut state, bound);
                    let ticks = ticks.unwrap_or_else(|| {
                        panic!("{n} players, {o:?}, seed {seed}: no end in {bound} ticks")
                    });
                    most = most.max(ticks);
                }
            }
        }
        longest.push(most);
    }
    // The bankrupt_at: null games are the long ones: every card is drawn before anyone
    // goes out.
    assert!(longest.iter().all(|&t| t > 40), "{longest:?}");
}

#[test]
fn ranking_first_ends_at_the_first_empty_hand() {
    let mut state = default_position(&[&["5H"], &["3C", "4C"], &["5C", "6C"]], "9H");
    let events = act(&mut state, 0, &play("5H"));
    assert!(events.contains(&OneCardEvent::Finished {
        player: "p0".into(),
        rank: 1
    }));
    assert!(state.over());
    assert_eq!(OneCard.to_act(&state), Vec::<usize>::new());
    assert_eq!(state.table().deadline_at(), None);
    let outcome = OneCard.outcome(&state).unwrap();
    assert_eq!(
        (outcome.winner.as_str(), outcome.ranks),
        ("p0", vec![1, 2, 2])
    );
    refused(&mut state, 1, &OneCardAction::Draw, "GAME_OVER");
}

#[test]
fn ranking_all_plays_on_and_ranks_the_bankrupt_last_latest_first() {
    let options = OneCardOptions {
        ranking: Ranking::All,
        bankrupt_at: Some(15),
        ..OneCardOptions::default()
    };
    let mut state = heavy(options, 4, 14);
    // p0 goes bankrupt first; then p1 and p2 finish; p3 is left.
    act(&mut state, 0, &OneCardAction::Draw);
    state = rig(&state, |p| {
        p.hands[1] = vec![c("3H")];
        p.hands[2] = vec![c("4H")];
        p.hands[3] = vec![c("5D"), c("6D")];
        p.refill_draw_pile();
    });
    act(&mut state, 1, &play("3H"));
    assert!(!state.over());
    assert_eq!(state.turn(), 2);
    act(&mut state, 2, &play("4H"));
    assert!(state.over());
    let outcome = OneCard.outcome(&state).unwrap();
    assert_eq!(outcome.ranks, [4, 1, 2, 3]);
    assert_eq!(outcome.winner, "p1");
}

#[test]
fn ranking_all_orders_the_bankrupt_in_reverse() {
    let options = OneCardOptions {
        ranking: Ranking::All,
        bankrupt_at: Some(15),
        ..OneCardOptions::default()
    };
    let mut state = heavy(options, 3, 14);
    act(&mut state, 0, &OneCardAction::Draw);
    // p1 now goes bankrupt too: p2, the last left, ranks first.
    state = rig(&state, |p| {
        // 14 cards none of which plays on the 9H (the pile's order is the seed's: the
        // leaver's cards were shuffled into it).
        let mut hand = std::mem::take(&mut p.hands[1]);
        hand.retain(|x| x.suit() != Some(Suit::Hearts) && x.rank() != Some(9) && !x.is_joker());
        while hand.len() < 14 {
            let at = p
                .draw_pile
                .iter()
                .position(|x| {
                    x.suit() != Some(Suit::Hearts) && x.rank() != Some(9) && !x.is_joker()
                })
                .unwrap();
            hand.push(p.draw_pile.remove(at));
        }
        hand.truncate(14);
        p.hands[1] = hand;
        p.refill_draw_pile();
    });
    assert_eq!(state.hands()[1].len(), 14);
    act(&mut state, 1, &OneCardAction::Draw);
    let outcome = OneCard.outcome(&state).unwrap();
    assert_eq!(outcome.ranks, [3, 2, 1]);
}

#[test]
fn the_mover_who_times_out_draws_the_pending_attack() {
    let mut state = default_position(&[&["2H", "3D"], &["3C", "4C"]], "9H");
    act(&mut state, 0, &play("2H"));
    let deadline = state.table().deadline_at().unwrap();
    assert_eq!(OneCard.timeout_action(&state, 1), Some(OneCardAction::Draw));
    assert_eq!(OneCard.timeout_action(&state, 0), None);
    assert!(OneCard.tick(&mut state, deadline - 1).is_empty());
    let applied = OneCard.tick(&mut state, deadline);
    assert_eq!(applied.len(), 1);
    assert!(applied[0].auto);
    assert_eq!(applied[0].action, OneCardAction::Draw);
    assert_eq!(state.hands()[1].len(), 4);
    assert_eq!(state.turn(), 0);
}

#[test]
fn a_conceding_player_leaves_like_the_bankrupt() {
    let mut state = default_position(&[&["2H", "3D"], &["3C", "4C"], &["5C", "6C"]], "9H");
    act(&mut state, 0, &play("2H"));
    // Anyone still in the game may concede, at any time: here not the mover.
    act(&mut state, 2, &OneCardAction::Concede);
    assert_eq!((state.turn(), state.attack()), (1, 2));
    // The mover concedes: the attack leaves with them.
    act(&mut state, 1, &OneCardAction::Concede);
    assert!(state.over());
    assert_eq!(OneCard.outcome(&state).unwrap().ranks, [1, 2, 2]);
    // The leavers' cards are in the draw pile, shuffled in.
    for card in ["3C", "4C", "5C", "6C"] {
        assert!(state.draw_pile().contains(&c(card)), "{card}");
    }
    assert!(
        !OneCard
            .legal_actions(&state, 0)
            .contains(&OneCardAction::Concede)
    );
}

#[test]
fn a_player_sees_their_own_hand_and_only_counts_of_the_rest() {
    let state = default_position(&[&["5H", "6H"], &["3C", "4C", "8C"]], "9H");
    let view = OneCard.view(&state, Viewer::Player("p1"));
    assert_eq!(view.hand, Some(vec![c("3C"), c("4C"), c("8C")]));
    assert_eq!(view.hand_counts, [2, 3]);
    assert_eq!(view.discard_top, Some(c("9H")));
    assert_eq!(view.draw_pile_count, 54 - 6);
    assert_eq!(view.turn, Some(0));
    assert!(view.legal_actions.is_empty());
    let spectator = OneCard.view(&state, Viewer::Spectator);
    assert_eq!(spectator.hand, None);
    let json = serde_json::to_value(&spectator).unwrap();
    assert!(json.get("hand").is_none());
    for key in [
        "handCounts",
        "discardTop",
        "drawPileCount",
        "attack",
        "suit",
        "direction",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
}

#[test]
fn wire_names() {
    let json = |a: &OneCardAction| serde_json::to_string(a).unwrap();
    assert_eq!(
        json(&seven("7H", Suit::Spades)),
        r#"{"type":"PLAY","card":"7H","suit":"S"}"#
    );
    assert_eq!(json(&play("10S")), r#"{"type":"PLAY","card":"10S"}"#);
    assert_eq!(json(&OneCardAction::Draw), r#"{"type":"DRAW"}"#);
    assert_eq!(json(&OneCardAction::OneCard), r#"{"type":"ONE_CARD"}"#);
    assert_eq!(
        json(&OneCardAction::Catch {
            player: "p1".into()
        }),
        r#"{"type":"CATCH","player":"p1"}"#
    );
    assert_eq!(json(&OneCardAction::Concede), r#"{"type":"CONCEDE"}"#);
    for a in [
        seven("7H", Suit::Spades),
        play("BJ"),
        OneCardAction::OneCard,
    ] {
        assert_eq!(serde_json::from_str::<OneCardAction>(&json(&a)).unwrap(), a);
    }
    for bad in [
        r#"{"type":"ONE_CARD","player":"p1"}"#,
        r#"{"type":"PLAY","card":"7H","suit":"X"}"#,
        r#"{"type":"PLAY"}"#,
        r#"{"type":"CATCH"}"#,
        r#"{"type":"PASS"}"#,
        r#"["DRAW"]"#,
    ] {
        assert!(serde_json::from_str::<OneCardAction>(bad).is_err(), "{bad}");
    }
    let options = serde_json::to_value(OneCardOptions::default()).unwrap();
    assert_eq!(
        options,
        serde_json::json!({"handSize":7,"bankruptAt":20,"oneCardCall":true,"ranking":"first","turnSeconds":30})
    );
    let drew = OneCardEvent::Drew {
        player: "p0".into(),
        cards: Some(vec![c("CJ")]),
        count: None,
    };
    assert_eq!(
        serde_json::to_string(&drew).unwrap(),
        r#"{"type":"drew","player":"p0","cards":["CJ"]}"#
    );
}

/// A leaver's cards are shuffled into the whole draw pile with the table's RNG: put under
/// it in the order they were held, they told the leaver (and whoever the leaver tells)
/// the order of the pile's bottom. Bankrupt or conceding alike.
#[test]
fn a_leavers_cards_are_shuffled_into_the_draw_pile() {
    let options = OneCardOptions {
        bankrupt_at: Some(15),
        ..OneCardOptions::default()
    };
    for concede in [false, true] {
        let mut state = heavy(options.clone(), 3, 14);
        let action = if concede {
            OneCardAction::Concede
        } else {
            OneCardAction::Draw
        };
        // What putting the hand under the pile as held would give (after the draw's card).
        let mut hand = state.hands()[0].clone();
        let mut pile = state.draw_pile().to_vec();
        if !concede {
            hand.extend(pile.pop());
        }
        let under: Vec<Card> = hand.iter().chain(&pile).copied().collect();
        act(&mut state, 0, &action);
        assert!(state.hands()[0].is_empty());
        let after = state.draw_pile().to_vec();
        assert_ne!(
            after, under,
            "concede {concede}: the hand lies under the pile as held"
        );
        assert_ne!(
            after[..hand.len()],
            hand[..],
            "concede {concede}: the pile's bottom is the hand as held"
        );
        let (mut a, mut b) = (after.clone(), under.clone());
        a.sort_by_key(|c| c.to_string());
        b.sort_by_key(|c| c.to_string());
        assert_eq!(a, b, "the same cards");
        OneCard.check_state(&state).unwrap();
    }
}
