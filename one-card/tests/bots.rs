//! The policy bot: it decides from its player's view only, always has a legal action when
//! its seat may act, and beats random play clearly.

mod common;

use common::{c, default_position, ids, rig};
use game_core::GameState;
use game_core::{Bot, Game, GameExt, GameRng, RandomBot, Viewer};
use one_card::bots::PolicyBot;
use one_card::{Card, OneCard, OneCardAction, OneCardOptions, OneCardState, Suit};

/// A bot of either kind, for the table loop.
enum Seat {
    Policy(PolicyBot),
    Random(RandomBot),
}

impl Seat {
    fn choose(&mut self, state: &OneCardState, seat: usize) -> Option<OneCardAction> {
        match self {
            Seat::Policy(b) => b.choose(&OneCard, state, seat),
            Seat::Random(b) => b.choose(&OneCard, state, seat),
        }
    }
}

/// Plays one game to its end as a host does (`game-server`'s actor): each round the
/// seats that may call (besides the mover) go first, in an order left to `race`, and then
/// the mover. Every choice must be accepted. Returns the final state.
fn play_out(
    options: &OneCardOptions,
    bots: &mut [Seat],
    seed: u64,
    race: &mut GameRng,
) -> OneCardState {
    let n = bots.len();
    let mut state = OneCard.setup(options, &ids(n), seed, 0).unwrap();
    for step in 0..20_000u64 {
        if OneCard.is_over(&state) {
            return state;
        }
        let mover = OneCard.first_to_act(&state).unwrap();
        let mut callers: Vec<usize> = (0..n)
            .filter(|&s| s != mover && OneCard.may_act(&state, s))
            .collect();
        if !callers.is_empty() {
            let first = race.below(callers.len() as u32) as usize;
            callers.rotate_left(first);
        }
        for seat in callers.into_iter().chain([mover]) {
            if !OneCard.may_act(&state, seat) {
                continue;
            }
            let action = bots[seat]
                .choose(&state, seat)
                .unwrap_or_else(|| panic!("seat {seat} may act but has no action"));
            OneCard
                .apply(&mut state, seat, &action, step)
                .unwrap_or_else(|e| panic!("{action:?} by seat {seat} refused: {e:?}"));
            if OneCard.is_over(&state) {
                return state;
            }
        }
    }
    panic!("game {seed} did not end");
}

/// Of `games` 4-player games, how many the policy bot won against three random bots,
/// its seat going round the table from game to game.
fn policy_wins(games: u64) -> u64 {
    let options = OneCardOptions::default();
    let mut race = GameRng::from_seed(99);
    let mut wins = 0;
    for game in 0..games {
        let policy_seat = (game % 4) as usize;
        let mut bots: Vec<Seat> = (0..4u64)
            .map(|s| {
                let seed = game * 8 + s;
                if s as usize == policy_seat {
                    Seat::Policy(PolicyBot::new(seed))
                } else {
                    Seat::Random(RandomBot::new(seed))
                }
            })
            .collect();
        let state = play_out(&options, &mut bots, 1_000 + game, &mut race);
        let outcome = OneCard.outcome(&state).unwrap();
        wins += u64::from(outcome.winner_seat == policy_seat);
    }
    wins
}

#[test]
fn the_policy_bot_beats_three_random_bots_clearly() {
    // Random play wins a quarter of these games; the policy bot wins most of them (the
    // 2,000-game figure is in `policy_win_rate_over_2000_games`). A third of the games is
    // far beyond anything random play reaches over 200 games.
    let games = 200;
    let wins = policy_wins(games);
    assert!(wins * 3 > games * 2, "the policy bot won {wins} of {games}");
}

/// The figure for the docs: `cargo test -p one-card --release --test bots -- --ignored
/// --nocapture`.
#[test]
#[ignore = "a measurement: 2,000 games"]
fn policy_win_rate_over_2000_games() {
    let games = 2_000;
    let wins = policy_wins(games);
    let p = wins as f64 / games as f64;
    let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
    println!(
        "policy vs 3 random, 4 players, {games} games: {wins} wins, {:.1} % ± {:.1} %",
        p * 100.0,
        half * 100.0
    );
    assert!(wins * 3 > games * 2);
}

/// A copy of `state` that shows `seat` the same view: every card `seat` does not see (the
/// other hands and the draw pile) dealt again from a shuffle, each hand keeping its count,
/// and the RNG re-seeded.
fn unseen_reshuffled(state: &OneCardState, seat: usize, seed: u64) -> OneCardState {
    let other = OneCard.fork(state, seed ^ 0x5eed);
    rig(&other, |p| {
        let mut unseen: Vec<Card> = p.draw_pile.clone();
        for (s, hand) in p.hands.iter().enumerate() {
            if s != seat {
                unseen.extend(hand);
            }
        }
        let mut rng = GameRng::from_seed(seed);
        for i in (1..unseen.len()).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            unseen.swap(i, j);
        }
        let mut rest = unseen.into_iter();
        for (s, hand) in p.hands.iter_mut().enumerate() {
            if s != seat {
                for card in hand.iter_mut() {
                    *card = rest.next().unwrap();
                }
            }
        }
        for card in p.draw_pile.iter_mut() {
            *card = rest.next().unwrap();
        }
    })
}

#[test]
fn the_policy_bot_decides_from_its_players_view_only() {
    let mut compared = 0;
    let mut differ = 0;
    for n in 2..=5 {
        let mut state = OneCard
            .setup(&OneCardOptions::default(), &ids(n), n as u64, 0)
            .unwrap();
        let mut random = RandomBot::new(7);
        for step in 0..300u64 {
            let Some(mover) = OneCard.first_to_act(&state) else {
                break;
            };
            for seat in (0..n).filter(|&s| OneCard.may_act(&state, s)) {
                let other = unseen_reshuffled(&state, seat, step);
                let id = &state.table().players()[seat];
                let view = OneCard.view(&state, Viewer::Player(id));
                assert_eq!(view, OneCard.view(&other, Viewer::Player(id)));
                differ += usize::from(other.hands() != state.hands());
                for bot_seed in 0..3 {
                    let a = PolicyBot::new(bot_seed).choose(&OneCard, &state, seat);
                    let b = PolicyBot::new(bot_seed).choose(&OneCard, &other, seat);
                    assert_eq!(a, b, "{n} players, step {step}, seat {seat}");
                    assert!(view.legal_actions.contains(&a.unwrap()));
                }
                compared += 1;
            }
            let action = random.choose(&OneCard, &state, mover).unwrap();
            OneCard.apply(&mut state, mover, &action, step).unwrap();
        }
    }
    assert!(
        compared > 200 && differ * 2 > compared,
        "{compared} {differ}"
    );
}

#[test]
fn the_policy_bot_answers_attacks_with_its_weakest_answer() {
    let state = default_position(&[&["2S", "CJ", "AH", "9C"], &["3C", "4C"]], "2H");
    let state = rig(&state, |p| p.attack = 2);
    let action = PolicyBot::new(1).choose(&OneCard, &state, 0);
    assert_eq!(action, Some(common::play("2S")));
    // No answer: it draws.
    let state = default_position(&[&["3S", "9C"], &["3C", "4C"]], "2H");
    let state = rig(&state, |p| p.attack = 2);
    let action = PolicyBot::new(1).choose(&OneCard, &state, 0);
    assert_eq!(action, Some(OneCardAction::Draw));
}

#[test]
fn the_policy_bot_keeps_its_specials_and_follows_its_longest_suit() {
    // A Q moves play on: it goes before the plain cards, the 7 and the 2.
    let state = default_position(
        &[&["2H", "7H", "3S", "9H", "QH"], &["3C", "4C", "5C"]],
        "3H",
    );
    let a = PolicyBot::new(1).choose(&OneCard, &state, 0).unwrap();
    assert_eq!(a, common::play("QH"));
    // Of two plain cards, the one of its longest suit (hearts).
    let state = default_position(&[&["2H", "7H", "3S", "9H"], &["3C", "4C", "5C"]], "3H");
    let a = PolicyBot::new(1).choose(&OneCard, &state, 0).unwrap();
    assert_eq!(a, common::play("9H"));
    // Only a 7 fits: it declares the suit it holds most after the 7.
    let state = default_position(&[&["7H", "3C", "4C", "5S"], &["3D", "4D", "5D"]], "9H");
    let a = PolicyBot::new(1).choose(&OneCard, &state, 0).unwrap();
    assert_eq!(
        a,
        OneCardAction::Play {
            card: c("7H"),
            suit: Some(Suit::Clubs)
        }
    );
    // The next player holds two cards: it attacks.
    let state = default_position(&[&["2H", "9H", "3C"], &["3D", "4D"]], "3H");
    let a = PolicyBot::new(1).choose(&OneCard, &state, 0).unwrap();
    assert_eq!(a, common::play("2H"));
}

#[test]
fn the_policy_bot_calls_and_catches_at_once() {
    let mut state = default_position(&[&["5H", "6H"], &["3C", "4C"], &["8D", "9D"]], "9H");
    OneCard
        .apply(&mut state, 0, &common::play("5H"), 1)
        .unwrap();
    assert_eq!(state.call(), Some(0));
    let caller = PolicyBot::new(1).choose(&OneCard, &state, 0);
    assert_eq!(caller, Some(OneCardAction::OneCard));
    for seat in [1, 2] {
        let catch = PolicyBot::new(1).choose(&OneCard, &state, seat);
        assert_eq!(
            catch,
            Some(OneCardAction::Catch {
                player: "p0".into()
            })
        );
    }
}
