//! What each row of the report plays: the configurations, and one game of one.

use std::cell::Cell;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use game_core::playout::{Choice, Ended, MAX_DECISIONS, Playout};
use game_core::{Bot, Game};
use yut::rules::{RuleOptions, WithRules};
use yut::{Preset, Rules, Yut, YutAction, YutEvent, YutOptions, YutState};
use yut_augments::{Augment, AugmentConfig, AugmentEvent, Augments, HouseRule, Source};

use super::{GameSpec, GameSummary};
use yut::{PolicyBot, StrongBot, StrongParams};

/// What a configuration measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The same player at every seat: first-seat advantage, length, throw frequencies.
    Baseline,
    /// The subject (a bot) against the rest.
    HeadToHead {
        /// What the subject is, for the report ("strong bot").
        subject: String,
        /// What it plays against ("policy bot").
        opponent: String,
    },
    /// The side that holds an augment or a house rule against the side that does not,
    /// the policy bot at both seats; the holder is the subject.
    Holder {
        /// What the holder holds.
        held: Held,
    },
}

impl Kind {
    /// Whether the games come in pairs with the subject in seat 0, then seat 1.
    pub fn paired(&self) -> bool {
        !matches!(self, Kind::Baseline)
    }
}

/// What the holder of a [`Kind::Holder`] row holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// An augment, from the side's turn where the draft would offer it.
    Augment(Augment),
    /// A house rule, from the start.
    House(HouseRule),
}

impl Held {
    /// The eighteen augments in table order, then the cushion and the truce.
    pub fn all() -> Vec<Held> {
        Augment::ALL
            .into_iter()
            .map(Held::Augment)
            .chain([HouseRule::Cushion, HouseRule::Truce].map(Held::House))
            .collect()
    }

    /// The id (`first-step`, `cushion`, ...).
    pub fn id(self) -> &'static str {
        match self {
            Held::Augment(a) => a.id(),
            Held::House(HouseRule::Cushion) => "cushion",
            Held::House(HouseRule::Truce) => "truce",
        }
    }

    /// The Korean name.
    pub fn name(self) -> &'static str {
        match self {
            Held::Augment(a) => a.name(),
            Held::House(h) => h.name(),
        }
    }

    /// What it is, for the report: `start (turn 1), unlimited`, `house rule`.
    pub fn what(self) -> String {
        match self {
            Held::Augment(a) => {
                let uses = match a.uses() {
                    None => "unlimited".to_owned(),
                    Some(1) => "once".to_owned(),
                    Some(n) => format!("{n} uses"),
                };
                format!("{} (turn {}), {uses}", a.slot().wire(), a.slot().turn())
            }
            Held::House(_) => "house rule (from the start)".to_owned(),
        }
    }

    /// The `augmentFired` source it is announced as.
    fn source(self) -> Source {
        match self {
            Held::Augment(a) => Source::Augment(a),
            Held::House(h) => Source::House(h),
        }
    }
}

/// Plays one game of a configuration.
pub type PlayFn = dyn Fn(&GameSpec) -> Result<GameSummary, String> + Send + Sync;

/// One row of the report: a named way to play games.
#[derive(Clone)]
pub struct Config {
    /// Name, unique in the list (it also seeds the games).
    pub name: String,
    /// What it measures.
    pub kind: Kind,
    /// The base options, for the exact throw table and the report.
    pub options: YutOptions,
    /// Plays one game.
    pub play: Arc<PlayFn>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// Plays one game of `game` under `options`, one bot per seat, from `seed`.
pub fn play_game<R: Rules>(
    game: &Yut<R>,
    options: &R::Options,
    seed: u64,
    bots: &mut [&mut dyn Bot<Yut<R>>],
) -> Result<GameSummary, String> {
    play_game_with(game, options, seed, bots, &mut |_| {}, &mut |_| {})
}

/// What [`play_game_with`] shows each action's events to.
pub type EventHook<'a, R> = dyn FnMut(&[YutEvent<<R as Rules>::Event>]) + 'a;

/// [`play_game`] with two hooks: `before` may change the state before every decision
/// (the holder rows grant an augment there), `after` sees each action's events.
pub fn play_game_with<R: Rules>(
    game: &Yut<R>,
    options: &R::Options,
    seed: u64,
    bots: &mut [&mut dyn Bot<Yut<R>>],
    before: &mut dyn FnMut(&mut YutState<R>),
    after: &mut EventHook<'_, R>,
) -> Result<GameSummary, String> {
    let players: Vec<String> = (1..=bots.len()).map(|i| format!("p{i}")).collect();
    let mut state: YutState<R> = game
        .setup(options, &players, seed, 0)
        .map_err(|e| format!("setup: {e}"))?;
    let first_seat = state.board().current_seat();
    before(&mut state);
    let summary = Playout::new(0)
        .run(
            game,
            &mut state,
            |state: &YutState<R>, seat| {
                Choice::<_, ()>::Act(
                    bots[seat]
                        .choose(game, state, seat)
                        .unwrap_or(YutAction::Throw),
                )
            },
            |state: &mut YutState<R>, step| {
                after(step.events);
                before(state);
                ControlFlow::Continue(())
            },
        )
        .map_err(|r| format!("seed {seed}: seat {} {:?}: {}", r.seat, r.action, r.error))?;
    if summary.ended == Ended::Capped {
        return Err(format!("seed {seed}: no end after {MAX_DECISIONS} actions"));
    }
    let decisions = u32::try_from(summary.decisions).unwrap_or(u32::MAX);
    let outcome = game
        .outcome(&state)
        .ok_or_else(|| format!("seed {seed}: no outcome"))?;
    let winners = outcome
        .winners
        .iter()
        .filter_map(|p| players.iter().position(|q| q == p))
        .collect();
    Ok(GameSummary {
        seats: players.len(),
        first_seat,
        winners,
        subject_seat: 0,
        turns: state
            .board()
            .sides()
            .iter()
            .map(|s| u32::from(s.turns))
            .sum(),
        decisions,
        throws: state.board().stats().clone(),
        fired: 0,
        searches: 0,
        search_time: Duration::ZERO,
    })
}

/// [`StrongBot`] with a stopwatch on the decisions it searches.
struct Timed {
    bot: StrongBot,
    time: Duration,
}

impl<R: Rules> Bot<Yut<R>> for Timed {
    fn choose(
        &mut self,
        game: &Yut<R>,
        state: &YutState<R>,
        seat: usize,
    ) -> Option<YutAction<R::Action>> {
        let before = self.bot.stats().searched;
        let start = Instant::now();
        let action = self.bot.choose(game, state, seat);
        if self.bot.stats().searched > before {
            self.time += start.elapsed();
        }
        action
    }
}

/// A two-player baseline: the policy bot at both seats, under the rules `game` and
/// `options`.
pub fn baseline<R: Rules>(name: &str, game: Yut<R>, options: R::Options) -> Config {
    let base = options.base().clone();
    Config {
        name: name.to_owned(),
        kind: Kind::Baseline,
        options: base,
        play: Arc::new(move |spec: &GameSpec| {
            let (mut a, mut b) = (PolicyBot::default(), PolicyBot::default());
            play_game(&game, &options, spec.seed, &mut [&mut a, &mut b])
        }),
    }
}

/// The strong bot against the policy bot, two players, seats swapped by `spec`.
pub fn strong_vs_policy<R: Rules>(name: &str, game: Yut<R>, options: R::Options) -> Config {
    strong_vs_policy_with(name, game, options, StrongParams::default())
}

/// [`strong_vs_policy`] with the strong bot's parameters given.
pub fn strong_vs_policy_with<R: Rules>(
    name: &str,
    game: Yut<R>,
    options: R::Options,
    params: StrongParams,
) -> Config {
    let base = options.base().clone();
    Config {
        name: name.to_owned(),
        kind: Kind::HeadToHead {
            subject: "strong bot".to_owned(),
            opponent: "policy bot".to_owned(),
        },
        options: base,
        play: Arc::new(move |spec: &GameSpec| {
            let mut strong = Timed {
                bot: StrongBot::with_params(spec.seed ^ 0x5EED_0F57_A0B0_7000, params),
                time: Duration::ZERO,
            };
            let mut policy = PolicyBot::default();
            let mut seats: [&mut dyn Bot<Yut<R>>; 2] = if spec.subject_seat == 0 {
                [&mut strong, &mut policy]
            } else {
                [&mut policy, &mut strong]
            };
            let mut summary = play_game(&game, &options, spec.seed, &mut seats)?;
            summary.subject_seat = spec.subject_seat;
            summary.searches = strong.bot.stats().searched;
            summary.search_time = strong.time;
            Ok(summary)
        }),
    }
}

/// The row of `held`: the app base rules under `yut-augments` with the empty pack, the
/// policy bot at both seats, the holder's side (the one of seat `spec.subject_seat`)
/// holding `held` and the other side not (see [`crate::balance`]). Named
/// `augment ID` or `house ID`.
///
/// ```
/// use examples::balance::{Held, GameSpec, holder};
/// let config = holder(Held::Augment(yut_augments::Augment::YutLeap));
/// assert_eq!(config.name, "augment yut-leap");
/// let a = (config.play)(&GameSpec { index: 0, seed: 9, subject_seat: 0 }).unwrap();
/// let b = (config.play)(&GameSpec { index: 1, seed: 9, subject_seat: 1 }).unwrap();
/// assert_eq!((a.subject_seat, b.subject_seat), (0, 1));
/// assert_eq!(a.first_seat, b.first_seat); // one seed, the seats swapped
/// ```
pub fn holder(held: Held) -> Config {
    let game = yut_augments::game();
    let options = WithRules {
        base: Preset::App.options(),
        rules: AugmentConfig::none(),
    };
    let base = options.base.clone();
    let name = match held {
        Held::Augment(_) => format!("augment {}", held.id()),
        Held::House(_) => format!("house {}", held.id()),
    };
    Config {
        name,
        kind: Kind::Holder { held },
        options: base,
        play: Arc::new(move |spec: &GameSpec| {
            let (mut a, mut b) = (PolicyBot::default(), PolicyBot::default());
            let seat = spec.subject_seat as u8;
            let side: Cell<Option<usize>> = Cell::new(None);
            let mut given = false;
            let mut fired = 0u32;
            let mut before = |state: &mut YutState<Augments>| {
                if given {
                    return;
                }
                let s = side.get().unwrap_or_else(|| {
                    state
                        .board()
                        .sides()
                        .iter()
                        .position(|s| s.members.contains(&seat))
                        .unwrap_or(0)
                });
                side.set(Some(s));
                let Some(turns) = state.board().sides().get(s).map(|side| side.turns) else {
                    return;
                };
                let Some(mine) = state.rules_mut().sides.get_mut(s) else {
                    return;
                };
                match held {
                    Held::Augment(a) if turns >= a.slot().turn() => mine.grant(a),
                    Held::Augment(_) => return,
                    Held::House(HouseRule::Cushion) => mine.cushion = true,
                    Held::House(HouseRule::Truce) => mine.truce = true,
                }
                given = true;
            };
            let source = held.source();
            let mut after = |events: &[YutEvent<AugmentEvent>]| {
                for e in events {
                    if let YutEvent::Rule(AugmentEvent::AugmentFired { side: s, id, .. }) = e
                        && *id == source
                        && side.get() == Some(usize::from(*s))
                    {
                        fired += 1;
                    }
                }
            };
            let mut summary = play_game_with(
                &game,
                &options,
                spec.seed,
                &mut [&mut a, &mut b],
                &mut before,
                &mut after,
            )?;
            summary.subject_seat = spec.subject_seat;
            summary.fired = fired;
            Ok(summary)
        }),
    }
}

/// The built-in configurations (see [`crate::balance`]).
pub fn configs() -> Vec<Config> {
    let mut list = vec![
        baseline("standard", Yut::standard(), Preset::Standard.options()),
        baseline("app", Yut::standard(), Preset::App.options()),
        baseline(
            "app + augments",
            yut_augments::game(),
            yut_augments::app_options(),
        ),
        strong_vs_policy(
            "strong vs policy",
            Yut::standard(),
            Preset::Standard.options(),
        ),
    ];
    list.extend(Held::all().into_iter().map(holder));
    list
}
