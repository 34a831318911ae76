//! Fuzz harnesses: deterministic functions that turn an arbitrary byte string into a game
//! session, or into JSON fed to the engine, and check every step.
//!
//! Each harness takes `&[u8]` and panics on a finding; it never panics otherwise, whatever
//! the bytes. The same byte string always does the same thing (the bytes choose the options,
//! the seed, every action and every clock value), so a crashing input is a reproducible
//! test case. Two drivers call them:
//!
//! - `cargo test -p fuzz --test fuzz_short`: a few thousand seeded pseudo-random inputs
//!   per harness, part of `cargo test --workspace`;
//! - `fuzz/cargo-fuzz/`: one cargo-fuzz (libFuzzer) target per harness for long,
//!   coverage-guided runs (the command is in `fuzz/cargo-fuzz/README.md`).
//!
//! | harness | what the bytes become |
//! |---|---|
//! | [`yut_actions`] | options, players, seed, then actions of standard Yut Nori |
//! | [`augment_actions`] | the same for Yut Nori with the augment layer |
//! | [`rps_actions`] | the same for rock-paper-scissors |
//! | [`one_card_actions`] | the same for One Card (hidden hands, the one-card calls) |
//! | [`restore_json`] | a JSON document (raw text, or a tampered real state) for `Game::restore` |
//! | [`registry_json`] | JSON options, actions and records for the type-erased registry |
//!
//! The action harnesses ([`session`]) check after every step: no panic; `check_state` holds;
//! every action the engine lists as legal is accepted; a refused input changed nothing (the
//! serialized state and the record compared byte for byte); a copy of the state serialized
//! and restored with `Game::restore` before the step does exactly what the live state does
//! (same events or same error, same state after); the view (of each viewer in turn) holds
//! no RNG key; and at the end the match record replays to the byte-identical state (when
//! no chance outcome was forced: `GameExt::apply_chance` is not recorded).
//!
//! The crate's tests (`tests/`) are the hostile-input tests that drive every game through
//! the registry with these generators ([`json_value`], [`tamper`]).

#![deny(missing_docs)]

use game_core::GameExt;
use game_core::GameState;
use game_core::rps::{Hand, Rps, RpsAction, RpsOptions};
use game_core::testing::{assert_no_rng_keys, assert_typed, json_at, json_paths, players};
use game_core::{
    DynMatch, ErrorBody, Game, GameError, HostError, Match, MatchRecord, Millis, PlayerId, Viewer,
};
use one_card::{
    Card, HAND_SIZES, OneCard, OneCardAction, OneCardOptions, OneCardState,
    Ranking as OneCardRanking, Suit,
};
use serde::Serialize;
use serde_json::{Value, json};
use yut::rules::WithRules;
use yut::{
    BackdoFromDo, FinishRule, Mode, Origin, Ranking, Standard, StickModel, ThrowChance, Yut,
    YutAction, YutOptions,
};
use yut_augments::{Augment, AugmentAction, AugmentConfig, Augments};

/// Steps one session takes at most, whatever the length of the input.
pub const MAX_STEPS: usize = 2_000;

/// Reads numbers from fuzz bytes, front to back; every read past the end gives zero.
///
/// ```
/// let mut b = fuzz::Bytes::new(&[1, 2, 3]);
/// assert_eq!(b.u16(), 0x0102);
/// assert_eq!(b.u8(), 3);
/// assert!(b.is_empty());
/// assert_eq!(b.u32(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The bytes not read yet (and marks them read).
    pub fn rest(&mut self) -> &'a [u8] {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        self.pos = self.data.len();
        rest
    }

    /// The next byte, or 0.
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// The next two bytes, big-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) << 8 | u16::from(self.u8())
    }

    /// The next four bytes, big-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from(self.u16()) << 16 | u32::from(self.u16())
    }

    /// The next eight bytes, big-endian.
    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) << 32 | u64::from(self.u32())
    }

    /// A coin from one byte.
    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// A number in `0..n` (0 when `n` is 0), from one byte when `n` fits one.
    pub fn below(&mut self, n: usize) -> usize {
        match n {
            0 => 0,
            1..=256 => usize::from(self.u8()) % n,
            _ => usize::from(self.u16()) % n,
        }
    }

    /// One of `items` (which must not be empty).
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// A game the action harness can drive: how bytes become its options, players, actions
/// and chance outcomes.
pub trait FuzzGame: Game + Clone + std::fmt::Debug {
    /// The codes a refused setup may carry.
    const SETUP_CODES: &'static [&'static str];

    /// Options and seated players, mostly valid, sometimes not (on purpose).
    fn fuzz_setup(&self, b: &mut Bytes) -> (Self::Options, Vec<PlayerId>);

    /// Any action, legal or not.
    fn fuzz_action(&self, b: &mut Bytes) -> Self::Action;

    /// Any chance outcome, possible or not.
    fn fuzz_chance(&self, b: &mut Bytes) -> Self::Chance;

    /// Whether the harness may force a chance outcome now (default: always).
    fn may_force(&self, _state: &Self::State) -> bool {
        true
    }
}

/// Forcing outcomes stops short of [`yut::MAX_PENDING`]: forcing 윷 or 모 sixty-odd times in
/// a row (which real throws never do) would pile up more pending results than a stored
/// state may hold, and `check_state` would rightly refuse the state.
fn yut_may_force<R: yut::Rules>(state: &yut::YutState<R>) -> bool {
    state.board().pending().len() + usize::from(state.board().throws_owed()) < yut::MAX_PENDING / 2
}

/// Player ids `p0`, `p1`, ... — or, one time in sixteen, a list the table must refuse or
/// a strange but valid one (empty, duplicated, oversized, unicode ids; any count up to 9).
fn fuzz_players(b: &mut Bytes, n: usize) -> Vec<PlayerId> {
    let mut ids = players(n);
    if b.below(16) == 0 {
        match b.below(6) {
            0 => ids.truncate(b.below(n + 1)),
            1 => ids.push("p0".into()),
            2 => ids[0] = String::new(),
            3 => ids[0] = "x".repeat(100 + b.below(60)),
            4 => ids[0] = "말🎲\u{0}\"\\".into(),
            _ => ids = (0..b.below(10)).map(|i| format!("q{i}")).collect(),
        }
    }
    ids
}

/// Base Yut Nori options and players: one time in eight an option is out of range.
fn yut_setup(b: &mut Bytes) -> (YutOptions, Vec<PlayerId>) {
    let team = b.below(4) == 0;
    let n = if team {
        b.pick(&[4, 6, 8])
    } else {
        2 + b.below(3)
    };
    let mut o = YutOptions {
        mode: if team { Mode::Team } else { Mode::Individual },
        pieces: 2 + b.below(4) as u8,
        stick_model: if b.bool() {
            StickModel::Fair
        } else {
            StickModel::Realistic
        },
        backdo: b.below(4) != 0,
        backdo_from_do: b.pick(&[
            BackdoFromDo::Chammeogi,
            BackdoFromDo::Finish,
            BackdoFromDo::Home,
        ]),
        finish_rule: if b.bool() {
            FinishRule::Reach
        } else {
            FinishRule::Pass
        },
        nak_percent: b.pick(&[0, 0, 3, 5, 10]),
        backdo_capture_bonus: b.bool(),
        ranking: if b.bool() {
            Ranking::All
        } else {
            Ranking::First
        },
        turn_seconds: b.pick(&[None, Some(15), Some(30), Some(60)]),
    };
    if b.below(8) == 0 {
        match b.below(4) {
            0 => o.pieces = b.u8(),
            1 => o.nak_percent = b.u8(),
            2 => o.turn_seconds = Some(b.u32()),
            _ => o.mode = Mode::Team,
        }
    }
    (o, fuzz_players(b, n))
}

/// A Yut Nori action: mostly throws and moves (any index, any node), rarely a concede,
/// and a rule action from `rule` when it gives one.
fn yut_action<X>(b: &mut Bytes, rule: impl FnOnce(&mut Bytes) -> Option<X>) -> YutAction<X> {
    match b.below(8) {
        0 | 1 => YutAction::Throw,
        2..=5 => {
            let throw_index = if b.below(8) == 0 {
                b.u32()
            } else {
                b.below(4) as u32
            };
            let from = if b.below(4) == 0 {
                Origin::HOME
            } else if b.below(8) == 0 {
                Origin::Node(b.u8())
            } else {
                Origin::Node(b.below(yut::graph::NODE_COUNT) as u8)
            };
            YutAction::Move { throw_index, from }
        }
        6 if b.below(64) == 0 => YutAction::Concede,
        7 => rule(b).map_or(YutAction::Throw, YutAction::Rule),
        _ => YutAction::Throw,
    }
}

/// Any throw outcome, nak included.
fn throw_chance(b: &mut Bytes) -> ThrowChance {
    b.pick(&ThrowChance::ALL)
}

const YUT_SETUP_CODES: &[&str] = &["INVALID_OPTION", "BAD_PLAYER_COUNT", "BAD_PLAYERS"];

impl FuzzGame for Yut<Standard> {
    const SETUP_CODES: &'static [&'static str] = YUT_SETUP_CODES;

    fn fuzz_setup(&self, b: &mut Bytes) -> (YutOptions, Vec<PlayerId>) {
        yut_setup(b)
    }

    fn fuzz_action(&self, b: &mut Bytes) -> YutAction {
        yut_action(b, |_| None)
    }

    fn fuzz_chance(&self, b: &mut Bytes) -> ThrowChance {
        throw_chance(b)
    }

    fn may_force(&self, state: &Self::State) -> bool {
        yut_may_force(state)
    }
}

/// An augment pack from bytes: any subset of the eighteen in any of two orders, each house
/// rule on or off; one time in sixteen an augment listed twice (refused).
fn augment_config(b: &mut Bytes) -> AugmentConfig {
    let mask = if b.below(4) == 0 {
        (1u32 << 18) - 1
    } else {
        b.u32() & ((1 << 18) - 1)
    };
    let mut augments: Vec<Augment> = Augment::ALL
        .into_iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, a)| a)
        .collect();
    if b.bool() {
        augments.reverse();
    }
    if b.below(16) == 0
        && let Some(&first) = augments.first()
    {
        augments.push(first);
    }
    AugmentConfig {
        augments,
        cushion: b.bool(),
        truce: b.bool(),
    }
}

impl FuzzGame for Yut<Augments> {
    const SETUP_CODES: &'static [&'static str] = YUT_SETUP_CODES;

    fn fuzz_setup(&self, b: &mut Bytes) -> (yut_augments::AugmentOptions, Vec<PlayerId>) {
        let (base, players) = yut_setup(b);
        let rules = augment_config(b);
        (WithRules { base, rules }, players)
    }

    fn fuzz_action(&self, b: &mut Bytes) -> YutAction<AugmentAction> {
        yut_action(b, |b| {
            let index = if b.below(8) == 0 {
                b.u32()
            } else {
                b.below(4) as u32
            };
            Some(AugmentAction::ChooseAugment { index })
        })
    }

    fn fuzz_chance(&self, b: &mut Bytes) -> ThrowChance {
        throw_chance(b)
    }

    fn may_force(&self, state: &Self::State) -> bool {
        yut_may_force(state)
    }
}

impl FuzzGame for Rps {
    const SETUP_CODES: &'static [&'static str] =
        &["INVALID_OPTION", "BAD_PLAYER_COUNT", "BAD_PLAYERS"];

    fn fuzz_setup(&self, b: &mut Bytes) -> (RpsOptions, Vec<PlayerId>) {
        let mut o = RpsOptions {
            wins_needed: 1 + b.below(5) as u8,
            turn_seconds: b.pick(&[None, Some(5), Some(15), Some(600)]),
        };
        if b.below(8) == 0 {
            if b.bool() {
                o.wins_needed = b.u8();
            } else {
                o.turn_seconds = Some(b.u32());
            }
        }
        (o, fuzz_players(b, 2))
    }

    fn fuzz_action(&self, b: &mut Bytes) -> RpsAction {
        match b.below(16) {
            0 if b.below(16) == 0 => RpsAction::Concede,
            0..=3 => RpsAction::Random,
            _ => RpsAction::Pick {
                hand: self.fuzz_chance(b),
            },
        }
    }

    fn fuzz_chance(&self, b: &mut Bytes) -> Hand {
        b.pick(&Hand::ALL)
    }
}

impl FuzzGame for OneCard {
    const SETUP_CODES: &'static [&'static str] =
        &["INVALID_OPTION", "BAD_PLAYER_COUNT", "BAD_PLAYERS"];

    /// 2 to 5 players and options in range; one time in eight an option out of range.
    fn fuzz_setup(&self, b: &mut Bytes) -> (OneCardOptions, Vec<PlayerId>) {
        let mut o = OneCardOptions {
            hand_size: b.pick(&HAND_SIZES.collect::<Vec<u8>>()),
            bankrupt_at: b.pick(&[None, Some(15), Some(20), Some(30)]),
            one_card_call: b.below(4) != 0,
            ranking: b.pick(&[OneCardRanking::First, OneCardRanking::All]),
            turn_seconds: b.pick(&one_card::TURN_SECONDS),
        };
        if b.below(8) == 0 {
            match b.below(3) {
                0 => o.hand_size = b.u8(),
                1 => o.bankrupt_at = Some(b.u8()),
                _ => o.turn_seconds = Some(b.u32()),
            }
        }
        let n = 2 + b.below(4);
        (o, fuzz_players(b, n))
    }

    /// Any card played (a suit with it or not, whatever the card), a draw, a call, a
    /// catch of anyone (seated or not), and rarely a concession.
    fn fuzz_action(&self, b: &mut Bytes) -> OneCardAction {
        match b.below(16) {
            0 if b.below(8) == 0 => OneCardAction::Concede,
            0..=2 => OneCardAction::Draw,
            3 | 4 => OneCardAction::OneCard,
            5 | 6 => OneCardAction::Catch {
                player: match b.below(8) {
                    7 => "watcher".to_owned(),
                    i => format!("p{i}"),
                },
            },
            _ => {
                let card = Card::all().nth(b.below(one_card::DECK_SIZE));
                let suit = (b.below(3) == 0).then(|| b.pick(&Suit::ALL));
                OneCardAction::Play {
                    card: card.unwrap_or(Card::BLACK_JOKER),
                    suit,
                }
            }
        }
    }

    fn fuzz_chance(&self, _b: &mut Bytes) {}

    /// One Card offers no chance outcomes ([`Game::chances`] lists none): none is forced,
    /// so that every session's record is replayed.
    fn may_force(&self, _state: &OneCardState) -> bool {
        false
    }
}

/// One input of a session.
#[derive(Clone, Debug)]
enum Op<G: Game> {
    /// `Match::act`.
    Act(PlayerId, G::Action),
    /// `Match::act_at` with the `turnSeq` the sender saw (maybe stale).
    ActAt(PlayerId, G::Action, u64),
    /// `Match::tick`.
    Tick,
    /// `Match::set_connected`.
    Presence(PlayerId, bool),
    /// `GameExt::apply_chance` (search tools; not recorded).
    Chance(usize, G::Action, G::Chance),
}

/// JSON of anything the engine returns (events, applied timeouts), for comparing.
fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("engine values serialize")
}

/// What an input did: the JSON of the timeouts it found due (taken first, whatever the
/// input's fate), and `Ok` with the JSON of what the input itself did or `Err` with the
/// error body.
type Performed = (String, Result<String, ErrorBody>);

/// Carries out `op` on `m` at `now`.
fn perform<G: Game + Clone>(m: &mut Match<G>, op: &Op<G>, now: Millis) -> Performed {
    let applied_json = |applied: &[game_core::Applied<G>]| {
        for a in applied {
            assert!(a.auto, "a timeout action not marked auto");
        }
        let json: Vec<_> = applied
            .iter()
            .map(|a| (&a.player, to_json(&a.action), to_json(&a.events)))
            .collect();
        to_json(&json)
    };
    let played = |p: game_core::Played<G>| {
        (
            applied_json(&p.applied),
            p.result.map(|e| to_json(&e)).map_err(|e| e.body()),
        )
    };
    match op {
        Op::Act(p, a) => played(m.play(p, a, None, now)),
        Op::ActAt(p, a, seq) => played(m.play(p, a, Some(*seq), now)),
        Op::Tick => (applied_json(&m.tick(now)), Ok(String::new())),
        Op::Presence(p, c) => played(m.set_connected(p, *c, now)),
        Op::Chance(seat, a, c) => {
            // A forced chance is no recorded input, so a match cannot take one: apply it to
            // a copy of the state and go on from that state as a restored match.
            let mut state = m.state().clone();
            let done = m.game().apply_chance(&mut state, *seat, a, c, now);
            if done.is_ok() {
                *m = Match::restore(m.game().clone(), &to_json(&state))
                    .unwrap_or_else(|e| panic!("a forced chance left a bad state: {:?}", e.body()));
            }
            (
                applied_json(&[]),
                done.map(|e| to_json(&e)).map_err(|e| e.body()),
            )
        }
    }
}

/// The invariants checked after every step, beyond `check_state`.
#[track_caller]
fn invariants<G: Game>(game: &G, state: &G::State, step: usize) {
    if let Err(e) = game.check_state(state) {
        panic!(
            "step {step}: check_state refused a live state: {:?}",
            e.body()
        );
    }
    let to_act = game.to_act(state);
    if game.is_over(state) {
        assert!(to_act.is_empty(), "someone acts after the end");
        assert_eq!(game.deadline(state), None, "a deadline after the end");
    } else {
        assert!(!to_act.is_empty(), "nobody may act in a game in progress");
        for &seat in &to_act {
            let legal = game.legal_actions(state, seat);
            assert!(
                !legal.is_empty(),
                "seat {seat} must act but has no legal action"
            );
            for a in &legal {
                if let Err(e) = game.validate(state, seat, a) {
                    panic!("listed legal action {a:?} refused: {:?}", e.body());
                }
            }
        }
    }
    let players = &state.table().players();
    let viewer = match step % (players.len() + 1) {
        i if i < players.len() => Viewer::Player(&players[i]),
        _ => Viewer::Spectator,
    };
    let view = serde_json::to_value(game.view(state, viewer)).expect("views serialize");
    assert_no_rng_keys(&view);
}

/// The action harness: options, players, seed and a sequence of inputs from `data`, every
/// step checked (see the module documentation). Panics on a finding.
pub fn session<G: FuzzGame>(game: &G, data: &[u8]) {
    let mut b = Bytes::new(data);
    let (options, players) = game.fuzz_setup(&mut b);
    let seed = b.u64();
    let mut now = Millis::from(b.u32());
    let mut m = match Match::new(game.clone(), options, players.clone(), seed, now) {
        Ok(m) => m,
        Err(e) => {
            let body = e.body();
            assert_typed(&body);
            assert!(G::SETUP_CODES.contains(&body.code.as_str()), "{body:?}");
            return;
        }
    };
    let mut chance_used = false;
    invariants(game, m.state(), 0);
    for step in 1..=MAX_STEPS {
        if b.is_empty() {
            break;
        }
        let before = to_json(&m.state());
        let restored = game.restore(&before).unwrap_or_else(|e| {
            panic!("step {step}: a live state does not restore: {:?}", e.body())
        });
        assert!(
            restored == *m.state(),
            "step {step}: restored state differs"
        );
        let mut shadow = Match::restore(game.clone(), &before).unwrap_or_else(|e| {
            panic!("step {step}: a live state does not restore: {:?}", e.body())
        });
        let entries = m.record().entries.len();

        // The clock: mostly forward a little, sometimes to the deadline, rarely anywhere a
        // host's clock can be (up to 2^53 - 1: a record of later times is refused on load).
        now = match b.below(16) {
            0 => game.deadline(m.state()).unwrap_or(now),
            1 if b.below(16) == 0 => b.u64(),
            _ => now.saturating_add(Millis::from(b.u16())),
        }
        .min(game_core::MAX_SAFE_INTEGER);
        let anyone = |b: &mut Bytes| match b.below(players.len() + 3) {
            i if i < players.len() => players[i].clone(),
            i if i == players.len() => "watcher".to_owned(),
            i if i == players.len() + 1 => String::new(),
            _ => "P0".to_owned(),
        };
        let op: Op<G> = match b.below(32) {
            // A legal action of someone who may act: the game moves on.
            0..=17 => {
                let to_act = game.to_act(m.state());
                if to_act.is_empty() {
                    Op::Act(anyone(&mut b), game.fuzz_action(&mut b))
                } else {
                    let seat = to_act[b.below(to_act.len())];
                    let legal = game.legal_actions(m.state(), seat);
                    let action = legal[b.below(legal.len())].clone();
                    Op::Act(players[seat].clone(), action)
                }
            }
            18..=23 => Op::Act(anyone(&mut b), game.fuzz_action(&mut b)),
            24 | 25 => {
                let current = game.turn_seq(m.state());
                let seq = match b.below(4) {
                    0 => current,
                    1 => current.wrapping_sub(1),
                    2 => current.wrapping_add(1),
                    _ => b.u64(),
                };
                Op::ActAt(anyone(&mut b), game.fuzz_action(&mut b), seq)
            }
            26..=28 => Op::Tick,
            29 => Op::Presence(anyone(&mut b), b.bool()),
            _ if game.may_force(m.state()) => {
                let seat = b.below(players.len() + 1);
                Op::Chance(seat, game.fuzz_action(&mut b), game.fuzz_chance(&mut b))
            }
            _ => Op::Tick,
        };
        chance_used |= matches!(op, Op::Chance(..));
        let got = perform(&mut m, &op, now);
        let again = perform(&mut shadow, &op, now);
        assert!(
            got == again,
            "step {step}: the restored copy answered {op:?} differently: {got:?} vs {again:?}"
        );
        // Timeouts found due stand whatever the input's fate; the input itself, refused,
        // changes nothing.
        if let (_, Err(body)) = &got {
            assert_typed(body);
        }
        if let (applied, Err(body)) = &got
            && applied == "[]"
        {
            assert_eq!(
                to_json(&m.state()),
                before,
                "step {step}: refused {op:?} ({}) changed the state",
                body.code
            );
            assert_eq!(
                m.record().entries.len(),
                entries,
                "a refused input was recorded"
            );
        }
        assert!(
            shadow.state() == m.state(),
            "step {step}: the restored copy went another way after {op:?}"
        );
        invariants(game, m.state(), step);
    }
    if !chance_used {
        let replayed = Match::replay(game.clone(), m.record())
            .unwrap_or_else(|e| panic!("the record does not replay: {:?}", e.body()));
        assert_eq!(
            to_json(&replayed.state()),
            to_json(&m.state()),
            "replay differs"
        );
        let record: MatchRecord = serde_json::from_str(&to_json(&m.record())).expect("record JSON");
        assert_eq!(&record, m.record(), "the record does not survive its JSON");
    }
}

/// [`session`] of standard Yut Nori.
pub fn yut_actions(data: &[u8]) {
    session(&Yut::standard(), data);
}

/// [`session`] of Yut Nori with the augment layer.
pub fn augment_actions(data: &[u8]) {
    session(&yut_augments::game(), data);
}

/// [`session`] of rock-paper-scissors.
pub fn rps_actions(data: &[u8]) {
    session(&Rps, data);
}

/// [`session`] of One Card.
pub fn one_card_actions(data: &[u8]) {
    session(&OneCard, data);
}

// ---- JSON ---------------------------------------------------------------------------

/// Object keys the JSON generator uses: every wire name the engine reads, and a few more.
const KEYS: &[&str] = &[
    "type",
    "throwIndex",
    "from",
    "hand",
    "index",
    "mode",
    "pieces",
    "stickModel",
    "backdo",
    "backdoFromDo",
    "finishRule",
    "nakPercent",
    "backdoCaptureBonus",
    "ranking",
    "turnSeconds",
    "winsNeeded",
    "augments",
    "cushion",
    "truce",
    "kind",
    "at",
    "player",
    "connected",
    "action",
    "game",
    "version",
    "options",
    "players",
    "seed",
    "startedAt",
    "entries",
    "board",
    "rules",
    "log",
    "table",
    "rng",
    "__proto__",
    "",
];

/// String values the JSON generator uses.
const WORDS: &[&str] = &[
    "THROW",
    "MOVE",
    "CONCEDE",
    "PICK",
    "RANDOM",
    "CHOOSE_AUGMENT",
    "home",
    "goal",
    "rock",
    "paper",
    "scissors",
    "individual",
    "team",
    "fair",
    "realistic",
    "chammeogi",
    "finish",
    "pass",
    "reach",
    "first",
    "all",
    "yut",
    "rps",
    "yut-augments",
    "first-step",
    "yut-leap",
    "act",
    "tick",
    "presence",
    "p0",
    "p1",
    "watcher",
    "",
    "\u{0}",
    "말",
];

/// Depth at which the generator stops nesting (except for its deliberately deep values).
const MAX_DEPTH: usize = 6;

/// An arbitrary JSON value from bytes: every type, huge and negative numbers, long and odd
/// strings, nested arrays and objects with the engine's own keys, and now and then a
/// deeply nested array.
pub fn json_value(b: &mut Bytes, depth: usize) -> Value {
    let kinds = if depth >= MAX_DEPTH { 9 } else { 13 };
    match b.below(kinds) {
        0 => Value::Null,
        1 => Value::Bool(b.bool()),
        2 => Value::from(b.u8() as i8),
        3 => Value::from(b.u64()),
        4 => Value::from(i64::MIN + i64::from(b.u8())),
        5 => Value::from(f64::from(b.u16()) * 1e300 / 7.0 - 3.5),
        6 => Value::from(b.pick(WORDS)),
        7 => Value::from(
            String::from_utf8_lossy(&(0..b.below(12)).map(|_| b.u8()).collect::<Vec<_>>())
                .into_owned(),
        ),
        8 => Value::from(
            b.pick(&["x", "윷", "\"", "\\"])
                .repeat(usize::from(b.u16())),
        ),
        9 | 10 => Value::Array((0..b.below(4)).map(|_| json_value(b, depth + 1)).collect()),
        11 => Value::Object(
            (0..b.below(5))
                .map(|_| (b.pick(KEYS).to_owned(), json_value(b, depth + 1)))
                .collect(),
        ),
        _ => {
            let mut v = Value::from(1);
            for _ in 0..b.below(200) {
                v = Value::Array(vec![v]);
            }
            v
        }
    }
}

/// A small, likely-meaningful change of one leaf: numbers nudged, flipped or made huge,
/// booleans flipped, arrays shortened or lengthened, keys dropped or added.
fn nudge(b: &mut Bytes, v: &Value) -> Value {
    match v {
        Value::Number(n) => {
            let x = n.as_i64().unwrap_or(0);
            match b.below(6) {
                0 => Value::from(x.wrapping_add(1)),
                1 => Value::from(x.wrapping_sub(1)),
                2 => Value::from(x.wrapping_mul(-1)),
                3 => Value::from(u64::from(b.u8())),
                4 => Value::from(b.pick(&[
                    u64::from(u8::MAX),
                    u64::from(u16::MAX),
                    u64::from(u32::MAX),
                    u64::MAX,
                ])),
                _ => Value::from(x as f64 + 0.5),
            }
        }
        Value::Bool(x) => Value::Bool(!x),
        Value::Array(a) => {
            let mut a = a.clone();
            if b.bool() || a.is_empty() {
                a.push(
                    a.first()
                        .cloned()
                        .unwrap_or_else(|| json_value(b, MAX_DEPTH)),
                );
            } else {
                a.remove(b.below(a.len()));
            }
            Value::Array(a)
        }
        Value::Object(m) => {
            let mut m = m.clone();
            if b.bool() && !m.is_empty() {
                let k = m.keys().nth(b.below(m.len())).cloned().unwrap_or_default();
                m.remove(&k);
            } else {
                m.insert(b.pick(KEYS).to_owned(), json_value(b, MAX_DEPTH));
            }
            Value::Object(m)
        }
        _ => json_value(b, MAX_DEPTH),
    }
}

/// Changes up to four nodes of `v`, chosen by the bytes: a small nudge or an arbitrary
/// value from [`json_value`].
pub fn tamper(b: &mut Bytes, v: &mut Value) {
    let mut all = json_paths(v);
    for _ in 0..1 + b.below(4) {
        let path = &all[b.below(all.len())];
        let node = json_at(v, path);
        *node = if b.bool() {
            nudge(b, node)
        } else {
            json_value(b, 2)
        };
        // The tree may have changed shape: later paths are taken again.
        all = json_paths(v);
    }
}

/// A real state of `game` after some legal steps chosen by the bytes (none if setup
/// refuses the options).
fn real_state<G: FuzzGame>(game: &G, b: &mut Bytes) -> Option<G::State> {
    let (options, players) = game.fuzz_setup(b);
    let mut state = game.setup(&options, &players, b.u64(), 0).ok()?;
    for step in 0..usize::from(b.u8()) * 2 {
        let Some(&seat) = game.to_act(&state).first() else {
            break;
        };
        let legal = game.legal_actions(&state, seat);
        let action = &legal[b.below(legal.len())];
        game.apply(&mut state, seat, action, step as Millis * 1_000)
            .expect("a legal action");
    }
    Some(state)
}

/// Restores `json` with `game`: refused with `CORRUPT_STATE`, or loaded fully valid, equal
/// after another save and restore, and playable for a few legal steps with `check_state`
/// holding after each.
fn restore_one<G: FuzzGame>(game: &G, json: &str, b: &mut Bytes) {
    let mut state = match game.restore(json) {
        Err(e) => {
            let body = e.body();
            assert_typed(&body);
            assert_eq!(body.code, "CORRUPT_STATE", "{body:?}");
            return;
        }
        Ok(state) => state,
    };
    let again = game
        .restore(&to_json(&state))
        .unwrap_or_else(|e| panic!("a restored state does not restore again: {:?}", e.body()));
    assert!(again == state, "a restored state changed on a second save");
    for step in 0..8 {
        invariants(game, &state, step);
        let Some(&seat) = game.to_act(&state).first() else {
            break;
        };
        let legal = game.legal_actions(&state, seat);
        let action = &legal[b.below(legal.len())];
        if let Err(e) = game.apply(&mut state, seat, action, 1_000_000 + step as Millis) {
            panic!(
                "a restored state refused its own legal action: {:?}",
                e.body()
            );
        }
        let before = to_json(&state);
        let junk = game.fuzz_action(b);
        if game.apply(&mut state, b.below(9), &junk, 0).is_err() {
            assert_eq!(
                to_json(&state),
                before,
                "a refused action changed a restored state"
            );
        }
    }
}

/// The restore harness: the bytes become a JSON document — raw text, or a real state of
/// one of the three games with up to four nodes tampered — and every game restores it
/// (see `restore_one`). Panics on a finding.
pub fn restore_json(data: &[u8]) {
    let mut b = Bytes::new(data);
    let json = match b.below(4) {
        0 => String::from_utf8_lossy(b.rest()).into_owned(),
        kind => {
            let value = match kind {
                1 => real_state(&Yut::standard(), &mut b).map(serde_json::to_value),
                2 => real_state(&yut_augments::game(), &mut b).map(serde_json::to_value),
                _ => real_state(&Rps, &mut b).map(serde_json::to_value),
            };
            let Some(Ok(mut value)) = value else {
                return;
            };
            tamper(&mut b, &mut value);
            value.to_string()
        }
    };
    restore_one(&Yut::standard(), &json, &mut b);
    restore_one(&yut_augments::game(), &json, &mut b);
    restore_one(&Rps, &json, &mut b);
}

/// Restores a registry match's stored state with its typed game (the full check), or
/// panics.
#[track_caller]
pub fn assert_valid(m: &dyn DynMatch) {
    let json = m.state_json().to_string();
    let ok = match m.game_id() {
        "yut" => Yut::standard()
            .restore(&json)
            .map(drop)
            .map_err(|e| e.body()),
        "yut-augments" => yut_augments::game()
            .restore(&json)
            .map(drop)
            .map_err(|e| e.body()),
        "rps" => Rps.restore(&json).map(drop).map_err(|e| e.body()),
        "one-card" => one_card::OneCard
            .restore(&json)
            .map(drop)
            .map_err(|e| e.body()),
        other => panic!("unknown game {other}"),
    };
    if let Err(body) = ok {
        panic!(
            "{}: a registry match holds a state that does not pass the check: {body:?}",
            m.game_id()
        );
    }
}

/// Panics unless a host error is typed; returns its body.
#[track_caller]
fn host_error(e: &HostError) -> ErrorBody {
    let body = e.body();
    assert_typed(&body);
    body
}

/// The registry harness: the bytes choose a game id (maybe unknown), JSON options (the
/// defaults tampered, or any JSON), players and seed; then actions as JSON (real legal
/// actions tampered, or any JSON) with or without a `turnSeq`, ticks, presence changes,
/// legal-action and view requests of anyone; then the match record, tampered, is replayed.
/// Every refusal is typed and changes nothing; every replay of the untampered record gives
/// the same state. Panics on a finding.
pub fn registry_json(data: &[u8]) {
    let mut b = Bytes::new(data);
    let registry = game_host::registry();
    let id = match b.below(8) {
        0 => b.pick(WORDS),
        i => ["yut", "yut-augments", "rps"][i % 3],
    };
    let options = match registry.get(id) {
        Ok(g) if b.below(4) != 0 => {
            let mut o = g.default_options();
            if b.bool() {
                tamper(&mut b, &mut o);
            }
            o
        }
        _ => json_value(&mut b, 0),
    };
    let n = if id == "rps" { 2 } else { 2 + b.below(3) };
    let players = fuzz_players(&mut b, n);
    let seed = b.u64();
    let mut m = match registry.create(id, &options, players.clone(), Some(seed), 0) {
        Ok(m) => m,
        Err(e) => {
            host_error(&e);
            return;
        }
    };
    let mut now: Millis = 0;
    for step in 0..MAX_STEPS {
        if b.is_empty() {
            break;
        }
        assert_valid(m.as_ref());
        let before = m.state_json();
        let entries = m.record().entries.len();
        let anyone = match b.below(players.len() + 2) {
            i if i < players.len() => players[i].clone(),
            i if i == players.len() => "watcher".to_owned(),
            _ => b.pick(WORDS).to_owned(),
        };
        now = now.saturating_add(Millis::from(b.u16()));
        match b.below(16) {
            0..=9 => {
                let who = m.to_act().first().cloned().unwrap_or(anyone);
                let legal = m.legal_actions(&who).unwrap_or_default();
                let mut action = if legal.is_empty() || b.below(4) == 0 {
                    json_value(&mut b, 0)
                } else {
                    legal[b.below(legal.len())].clone()
                };
                if b.below(4) == 0 {
                    tamper(&mut b, &mut action);
                }
                let seq = match b.below(4) {
                    0 => None,
                    1 => Some(b.u64()),
                    _ => Some(m.turn_seq()),
                };
                let played = m.act(&who, action, seq, now);
                if let Err(e) = &played.result {
                    host_error(e);
                    // Timeouts that were due stand; the refused action itself changed nothing.
                    if played.applied.is_empty() {
                        assert_eq!(m.state_json(), before, "a refused action changed the state");
                        assert_eq!(m.record().entries.len(), entries);
                    }
                }
            }
            10 | 11 => {
                if b.bool()
                    && let Some(deadline) = m.deadline()
                {
                    now = now.max(deadline);
                }
                for applied in m.tick(now) {
                    assert!(applied.auto);
                }
            }
            12 => {
                let played = m.set_connected(&anyone, b.bool(), now);
                let ticked = usize::from(!played.applied.is_empty());
                match &played.result {
                    Err(e) => {
                        host_error(e);
                    }
                    // Nothing changed: nothing but the due timeouts is recorded.
                    Ok(events) if events.is_empty() => {
                        assert_eq!(m.record().entries.len(), entries + ticked);
                        if ticked == 0 {
                            assert_eq!(
                                m.state_json(),
                                before,
                                "a no-op presence changed the state"
                            );
                        }
                    }
                    Ok(_) => assert_eq!(m.record().entries.len(), entries + ticked + 1),
                }
            }
            13 => {
                if let Err(e) = m.legal_actions(&anyone) {
                    host_error(&e);
                }
            }
            _ => {
                let viewer = if b.bool() {
                    Some(anyone.as_str())
                } else {
                    None
                };
                match m.view(viewer) {
                    Ok(view) => assert_no_rng_keys(&view),
                    Err(e) => assert_eq!(host_error(&e).code, "NOT_SEATED"),
                }
            }
        }
        if step % 64 == 63 {
            let again = registry
                .replay(m.record())
                .unwrap_or_else(|e| panic!("the record does not replay: {:?}", e.body()));
            assert_eq!(again.state_json(), m.state_json(), "replay differs");
        }
    }
    assert_valid(m.as_ref());
    // A tampered record: replayed to a valid state, or refused with a typed error.
    let mut record = serde_json::to_value(m.record()).expect("record JSON");
    if b.bool() {
        tamper(&mut b, &mut record);
    } else if let Some(entries) = record["entries"].as_array_mut() {
        entries.truncate(b.below(entries.len() + 1));
        if b.bool() {
            entries.push(
                json!({ "kind": "act", "at": 0, "player": "p0", "action": json_value(&mut b, 0) }),
            );
        }
    }
    let Ok(record) = serde_json::from_value::<MatchRecord>(record) else {
        return;
    };
    match registry.replay(&record) {
        Ok(m) => assert_valid(m.as_ref()),
        Err(e) => {
            host_error(&e);
        }
    }
}
