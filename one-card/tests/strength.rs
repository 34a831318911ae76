//! Measurements, not checks (every test is ignored): how game-core's information-set
//! search plays One Card against the policy bot; what its random play-outs are like; and,
//! as a prototype kept to this file, what play-outs that play as people play would change
//! ([`Guided`]: One Card itself must keep `random_legal_action` uniform).
//!
//! `cargo test -p one-card --release --test strength -- --ignored --nocapture`

mod common;

use std::time::{Duration, Instant};

use common::ids;
use game_core::search::{Ismcts, Pimc};
use game_core::{Bot, Fair, Game, GameExt, GameRng};
use one_card::bots::PolicyBot;
use one_card::{OneCard, OneCardAction, OneCardOptions, OneCardState, Suit};

/// Games per pairing: seats alternate from game to game.
const GAMES: u64 = 200;

/// Plays one 2-player game to its end as a host does: the seats that may call (besides
/// the mover) first, in an order left to `race`, then the mover. Returns the final state
/// and the time (wall, and on the CPU) and count of `timed`'s decisions.
fn duel(
    bots: &mut [Box<dyn Bot<OneCard>>; 2],
    timed: usize,
    seed: u64,
    race: &mut GameRng,
) -> (OneCardState, Duration, Duration, u64) {
    let options = OneCardOptions::default();
    let mut state = OneCard.setup(&options, &ids(2), seed, 0).unwrap();
    let (mut spent, mut on_cpu, mut decisions) = (Duration::ZERO, Duration::ZERO, 0);
    for step in 0..20_000u64 {
        let Some(mover) = OneCard.first_to_act(&state) else {
            break;
        };
        let mut seats: Vec<usize> = (0..2)
            .filter(|&s| s != mover && OneCard.may_act(&state, s))
            .collect();
        if seats.len() > 1 {
            let first = race.below(seats.len() as u32) as usize;
            seats.rotate_left(first);
        }
        seats.push(mover);
        for seat in seats {
            if !OneCard.may_act(&state, seat) {
                continue;
            }
            let start = Instant::now();
            let cpu = thread_cpu();
            let action = bots[seat].choose(&OneCard, &state, seat).unwrap();
            if seat == timed {
                spent += start.elapsed();
                on_cpu += thread_cpu().saturating_sub(cpu);
                decisions += 1;
            }
            OneCard.apply(&mut state, seat, &action, step).unwrap();
            if OneCard.is_over(&state) {
                return (state, spent, on_cpu, decisions);
            }
        }
    }
    panic!("game {seed} did not end");
}

/// The time this thread has spent on the CPU (Linux's `/proc/thread-self/schedstat`; zero
/// elsewhere): on a loaded machine, the wall clock times the neighbours too.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// Plays [`GAMES`] games of `make(seed)` against the policy bot, seats alternating, and
/// prints its wins with a 95 % interval and its time per decision.
fn against_policy(name: &str, make: impl Fn(u64) -> Box<dyn Bot<OneCard>>) {
    let mut race = GameRng::from_seed(99);
    let (mut wins, mut decisions) = (0u64, 0u64);
    let (mut spent, mut on_cpu) = (Duration::ZERO, Duration::ZERO);
    for game in 0..GAMES {
        let seat = (game % 2) as usize;
        let searcher = make(game * 2 + 1);
        let policy: Box<dyn Bot<OneCard>> = Box::new(PolicyBot::new(game * 2));
        let mut bots = if seat == 0 {
            [searcher, policy]
        } else {
            [policy, searcher]
        };
        let (state, t, c, d) = duel(&mut bots, seat, 5_000 + game, &mut race);
        wins += u64::from(OneCard.payoff(&state, seat) == Some(1.0));
        spent += t;
        on_cpu += c;
        decisions += d;
        if (game + 1) % 25 == 0 {
            println!("{name}: {wins} of {} games won so far", game + 1);
        }
    }
    let p = wins as f64 / GAMES as f64;
    let half = 1.96 * (p * (1.0 - p) / GAMES as f64).sqrt();
    println!(
        "{name} vs policy, 2 players, {GAMES} games: {wins} wins, {:.1} % ± {:.1} %, \
         {:.2} ms per decision on the CPU ({:.2} ms wall) over {decisions} decisions",
        p * 100.0,
        half * 100.0,
        on_cpu.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
        spent.as_secs_f64() * 1000.0 / decisions.max(1) as f64
    );
}

#[test]
#[ignore = "a measurement: 200 games at 1,000 iterations a decision"]
fn fair_ismcts_against_policy() {
    against_policy("Fair(Ismcts 1000)", |seed| {
        Box::new(Fair::new(Ismcts::new(seed, 1_000), seed))
    });
}

#[test]
#[ignore = "a measurement: 200 games at 1,000 iterations a decision"]
fn cheating_ismcts_against_policy() {
    against_policy("Ismcts 1000 sees_everything", |seed| {
        Box::new(Ismcts::new(seed, 1_000).sees_everything())
    });
}

/// What play-outs from states of real 2-player games (the policy bot on both seats) are
/// like, for each way of playing them: how long they run, how many end with a hand
/// emptied rather than a bankruptcy, and how often their winner is the real game's (the
/// signal a search gets from one play-out; 50 % is none).
#[test]
#[ignore = "a measurement"]
fn play_outs() {
    play_outs_by("uniform", &OneCard);
    play_outs_by("guided", &Guided { policy_like: false });
    play_outs_by("policy-like", &Guided { policy_like: true });
}

fn play_outs_by<G>(name: &str, game: &G)
where
    G: Game<State = OneCardState, Action = OneCardAction>,
{
    let options = OneCardOptions::default();
    let (mut lengths, mut emptied, mut agree) = (Vec::new(), 0, 0);
    let mut rng = GameRng::from_seed(1);
    for game_seed in 0..50u64 {
        // Positions from a policy-played game, every 4th move.
        let mut state = OneCard
            .setup(&options, &ids(2), 5_000 + game_seed, 0)
            .unwrap();
        let mut policy = [PolicyBot::new(game_seed), PolicyBot::new(game_seed + 1)];
        let mut positions = Vec::new();
        for step in 0..2_000u64 {
            let Some(mover) = OneCard.first_to_act(&state) else {
                break;
            };
            if step % 4 == 0 {
                positions.push(state.clone());
            }
            let a = policy[mover].choose(&OneCard, &state, mover).unwrap();
            OneCard.apply(&mut state, mover, &a, step).unwrap();
        }
        let winner = OneCard.outcome(&state).unwrap().winner_seat;
        for position in positions {
            for _ in 0..20 {
                let mut sim = OneCard.fork(&position, rng.next_u32().into());
                let mut n = 0u32;
                while let Some(seat) = game.first_to_act(&sim) {
                    let a = game.random_legal_action(&sim, seat, &mut rng).unwrap();
                    game.apply(&mut sim, seat, &a, 0).unwrap();
                    n += 1;
                    if n == 2_000 {
                        break;
                    }
                }
                lengths.push(n);
                emptied += usize::from(!sim.finished().is_empty());
                agree += usize::from(OneCard.payoff(&sim, winner) == Some(1.0));
            }
        }
    }
    lengths.sort_unstable();
    let at = |q: f64| lengths[((lengths.len() - 1) as f64 * q) as usize];
    let mean = lengths.iter().map(|&n| f64::from(n)).sum::<f64>() / lengths.len() as f64;
    let capped = lengths.iter().filter(|&&n| n >= 2_000).count();
    let total = lengths.len() as f64;
    println!(
        "{} {name} play-outs: mean {mean:.0} steps, median {}, 90 % {}, max {}, {capped} cut \
         at 2,000; {:.1} % end with a hand emptied; {:.1} % won by the real game's winner",
        lengths.len(),
        at(0.5),
        at(0.9),
        lengths[lengths.len() - 1],
        emptied as f64 * 100.0 / total,
        agree as f64 * 100.0 / total,
    );
}

/// A prototype, for the measurement only: One Card exactly, but for the play-outs the
/// searches run ([`Game::random_legal_action`], which for One Card itself must stay
/// uniform). One play-out move in [`UNIFORM_ONE_IN`] is uniform; the others play as
/// people play instead of a uniform pick that draws so often that most random games end
/// in a bankruptcy whatever the position was: a random playable card whenever the seat
/// holds one (a draw only when it holds none), or with `policy_like` the card the policy
/// bot's rules of thumb pick (the weakest answer to an attack; else a K, J or Q before a
/// plain card before a 7 before an attack card; a 7 declaring the suit held most).
#[derive(Clone, Copy, Debug)]
struct Guided {
    policy_like: bool,
}

/// One play-out move in this many is uniform.
const UNIFORM_ONE_IN: u32 = 10;

/// The policy bot's rules of thumb, cheap enough for a play-out: the play it would pick
/// from `seat`'s hand (ties drawn from `rng`), else DRAW.
fn policy_like(state: &OneCardState, seat: usize, rng: &mut GameRng) -> Option<OneCardAction> {
    let legal = OneCard.legal_actions(state, seat);
    let hand = &state.hands()[seat];
    let held = |suit, except| {
        hand.iter()
            .filter(|&&c| c != except && c.suit() == Some(suit))
            .count()
    };
    let (mut best, mut best_cost, mut ties) = (None, i32::MAX, 0u32);
    for action in &legal {
        let OneCardAction::Play { card, suit } = action else {
            continue;
        };
        if let Some(suit) = *suit
            && Suit::ALL
                .iter()
                .any(|&s| held(s, *card) > held(suit, *card))
        {
            continue;
        }
        let cost = if state.attack() > 0 {
            card.attack() as i32
        } else {
            let kind = match (card.attack(), card.rank()) {
                (0, Some(13)) => -2,
                (0, Some(11 | 12)) => -1,
                (0, Some(7)) => 2,
                (0, _) => 0,
                _ => 3,
            };
            kind * 100 - card.suit().map_or(0, |s| held(s, *card) as i32)
        };
        if cost < best_cost {
            (best, best_cost, ties) = (Some(action), cost, 1);
        } else if cost == best_cost {
            ties += 1;
            if rng.below(ties) == 0 {
                best = Some(action);
            }
        }
    }
    best.cloned().or_else(|| {
        legal
            .iter()
            .find(|a| **a == OneCardAction::Draw)
            .or(legal.first())
            .cloned()
    })
}

impl Game for Guided {
    type Options = OneCardOptions;
    type State = OneCardState;
    type Action = OneCardAction;
    type View = one_card::OneCardView;
    type Event = one_card::OneCardEvent;
    type Outcome = one_card::OneCardOutcome;
    type Chance = ();
    type Error = one_card::OneCardError;

    fn id(&self) -> &'static str {
        "one-card-guided"
    }
    fn setup(
        &self,
        options: &OneCardOptions,
        players: &[game_core::PlayerId],
        seed: u64,
        now: game_core::Millis,
    ) -> Result<OneCardState, Self::Error> {
        OneCard.setup(options, players, seed, now)
    }
    fn step_into(
        &self,
        state: &mut OneCardState,
        seat: usize,
        action: &Self::Action,
        chance: Option<&()>,
        now: game_core::Millis,
        events: &mut Vec<Self::Event>,
    ) {
        OneCard.step_into(state, seat, action, chance, now, events);
    }
    fn step_quiet(
        &self,
        state: &mut OneCardState,
        seat: usize,
        action: &Self::Action,
        chance: Option<&()>,
        now: game_core::Millis,
        scratch: &mut Vec<Self::Event>,
    ) {
        OneCard.step_quiet(state, seat, action, chance, now, scratch);
    }
    fn validate(
        &self,
        state: &OneCardState,
        seat: usize,
        action: &Self::Action,
    ) -> Result<(), Self::Error> {
        OneCard.validate(state, seat, action)
    }
    fn view(&self, state: &OneCardState, viewer: game_core::Viewer<'_>) -> Self::View {
        OneCard.view(state, viewer)
    }
    fn to_act(&self, state: &OneCardState) -> Vec<usize> {
        OneCard.to_act(state)
    }
    fn may_act(&self, state: &OneCardState, seat: usize) -> bool {
        OneCard.may_act(state, seat)
    }
    fn first_to_act(&self, state: &OneCardState) -> Option<usize> {
        OneCard.first_to_act(state)
    }
    fn timeout_action(&self, state: &OneCardState, seat: usize) -> Option<Self::Action> {
        OneCard.timeout_action(state, seat)
    }
    fn legal_actions(&self, state: &OneCardState, seat: usize) -> Vec<Self::Action> {
        OneCard.legal_actions(state, seat)
    }
    fn legal_action_count(&self, state: &OneCardState, seat: usize) -> usize {
        OneCard.legal_action_count(state, seat)
    }
    fn legal_action(
        &self,
        state: &OneCardState,
        seat: usize,
        index: usize,
    ) -> Option<Self::Action> {
        OneCard.legal_action(state, seat, index)
    }
    fn random_legal_action(
        &self,
        state: &OneCardState,
        seat: usize,
        rng: &mut GameRng,
    ) -> Option<Self::Action> {
        if rng.below(UNIFORM_ONE_IN) == 0 {
            return OneCard.random_legal_action(state, seat, rng);
        }
        if self.policy_like {
            return policy_like(state, seat, rng);
        }
        // The plays are listed first, then DRAW (then a call, never made in a play-out).
        let n = OneCard.legal_action_count(state, seat);
        let plays = (0..n)
            .take_while(|&i| {
                matches!(
                    OneCard.legal_action(state, seat, i),
                    Some(OneCardAction::Play { .. })
                )
            })
            .count();
        if plays == 0 {
            return OneCard.legal_action(state, seat, 0);
        }
        OneCard.legal_action(state, seat, rng.below(plays as u32) as usize)
    }
    fn outcome(&self, state: &OneCardState) -> Option<Self::Outcome> {
        OneCard.outcome(state)
    }
    fn check_state(&self, state: &OneCardState) -> Result<(), Self::Error> {
        OneCard.check_state(state)
    }
    fn restore(&self, json: &str) -> Result<OneCardState, Self::Error> {
        OneCard.restore(json)
    }
    fn resample_from_infostate(
        &self,
        state: &OneCardState,
        seat: usize,
        rng: &mut GameRng,
    ) -> OneCardState {
        OneCard.resample_from_infostate(state, seat, rng)
    }
    fn payoff(&self, state: &OneCardState, seat: usize) -> Option<f64> {
        OneCard.payoff(state, seat)
    }
}

/// A bot of [`Guided`] playing One Card: the two share their states and actions.
struct OnGuided<B> {
    game: Guided,
    bot: B,
}

impl<B: Bot<Guided>> Bot<OneCard> for OnGuided<B> {
    fn choose(&mut self, _: &OneCard, state: &OneCardState, seat: usize) -> Option<OneCardAction> {
        self.bot.choose(&self.game, state, seat)
    }
}

/// Fair ISMCTS of `iterations` on [`Guided`] play-outs.
fn guided(policy_like: bool, iterations: u32, seed: u64) -> Box<dyn Bot<OneCard>> {
    Box::new(OnGuided {
        game: Guided { policy_like },
        bot: Fair::new(Ismcts::new(seed, iterations), seed),
    })
}

#[test]
#[ignore = "a measurement: 200 games at 1,000 iterations a decision"]
fn fair_ismcts_with_guided_play_outs_against_policy() {
    against_policy("Fair(Ismcts 1000), guided play-outs", |seed| {
        guided(false, 1_000, seed)
    });
}

#[test]
#[ignore = "a measurement: 200 games at 1,000 iterations a decision"]
fn fair_ismcts_with_policy_like_play_outs_against_policy() {
    against_policy("Fair(Ismcts 1000), policy-like play-outs", |seed| {
        guided(true, 1_000, seed)
    });
}

#[test]
#[ignore = "a measurement: 200 games at 4,000 iterations a decision"]
fn fair_ismcts_4000_against_policy() {
    against_policy("Fair(Ismcts 4000)", |seed| {
        Box::new(Fair::new(Ismcts::new(seed, 4_000), seed))
    });
}

#[test]
#[ignore = "a measurement: 200 games at 4,000 iterations a decision"]
fn fair_ismcts_4000_with_policy_like_play_outs_against_policy() {
    against_policy("Fair(Ismcts 4000), policy-like play-outs", |seed| {
        guided(true, 4_000, seed)
    });
}

#[test]
#[ignore = "a measurement: 200 games at 1,000 iterations a decision"]
fn fair_ismcts_exploring_less_against_policy() {
    against_policy("Fair(Ismcts 1000, exploration 0.25)", |seed| {
        Box::new(Fair::new(
            Ismcts::new(seed, 1_000).with_exploration(0.25),
            seed,
        ))
    });
}

#[test]
#[ignore = "a measurement: 200 games at 1,000 iterations a decision"]
fn fair_ismcts_exploring_more_against_policy() {
    against_policy("Fair(Ismcts 1000, exploration 1.2)", |seed| {
        Box::new(Fair::new(
            Ismcts::new(seed, 1_000).with_exploration(1.2),
            seed,
        ))
    });
}

#[test]
#[ignore = "a measurement: 200 games at the default budget"]
fn fair_pimc_against_policy() {
    against_policy("Fair(Pimc 16 x 8)", |seed| {
        Box::new(Fair::new(Pimc::with_seed(seed), seed))
    });
}
