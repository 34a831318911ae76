'use strict';
// One Card through the package: every answer carries the caller's projection of the
// events, and random 3–5-player games show no player or spectator a card another player
// holds at that moment, nor the draw pile (the method of game-host/tests/leaks.rs).

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry, GameError } = require('..');
const { rng, refused } = require('../lib/helpers.js');

const reg = new Registry();

/** The hands and the draw pile, from the stored state (never sent to a player). */
function secrets(m) {
  const state = JSON.parse(m.stateJson());
  return { hands: state.hands, pile: state.drawPile };
}

/** Whether `text` names `card` as a whole word (not inside a longer word or code). */
function names(text, card) {
  const word = (c) => c !== undefined && /[A-Za-z0-9]/.test(c);
  for (let at = text.indexOf(card); at >= 0; at = text.indexOf(card, at + 1)) {
    if (!word(text[at - 1]) && !word(text[at + card.length])) return true;
  }
  return false;
}

/**
 * What one message to the player at `seat` (a spectator: -1) may not name: the cards the
 * other players hold now, and the draw pile's cards but those the recipient knows
 * (`known`: what they held before the change, and their own hand put under the pile).
 */
function forbidden(hands, pile, known, seat) {
  const out = new Set();
  hands.forEach((h, s) => {
    if (s !== seat) h.forEach((c) => out.add(c));
  });
  for (const c of pile) if (!(seat >= 0 && known[seat].has(c))) out.add(c);
  return out;
}

function assertClean(message, bad) {
  for (const card of bad) assert.ok(!names(message, card), `${card} shown in ${message}`);
}

/** The cards `player` drew in a change's events and applied timeouts, as they see them. */
function drawnBy(change, player) {
  const events = [...change.applied.flatMap((a) => a.events), ...change.events];
  return events.filter((e) => e.type === 'drew' && e.player === player).flatMap((e) => e.cards ?? []);
}

/** The (player, count) of every bankruptcy in a change's events and applied timeouts. */
function bankruptcies(change) {
  const events = [...change.applied.flatMap((a) => a.events), ...change.events];
  return events.filter((e) => e.type === 'bankrupt').map((e) => [e.player, e.count]);
}

/** A refusal as the message the caller gets. */
function refusal(e) {
  if (!(e instanceof GameError)) throw e;
  return JSON.stringify({ error: { code: e.code, message: e.message, reason: e.reason }, applied: e.applied });
}

/**
 * One random step: a tick, a presence change, or an action of the mover or a caller
 * (sometimes a card of the sender's own whether it fits or not). Returns who asked (-1: a
 * spectator's tick) and the message they got.
 */
function randomStep(m, pick, ids, clock) {
  const n = ids.length;
  clock.now += 1000;
  const roll = pick(20);
  if (roll === 0) {
    clock.now += 70000;
    const seat = pick(n + 1) - 1;
    return [seat, JSON.stringify(m.tick(clock.now, seat < 0 ? undefined : ids[seat]))];
  }
  const status = m.status();
  if (roll === 1) {
    const seat = pick(n);
    try {
      m.setConnected(ids[seat], pick(2) === 0, clock.now);
      return [seat, JSON.stringify(m.lastApplied())];
    } catch (e) {
      return [seat, refusal(e)];
    }
  }
  const callers = status.mayAct;
  const mover = status.toAct[0];
  let p;
  if (mover !== undefined && (callers.length === 0 || pick(2) === 0)) p = mover;
  else if (callers.length > 0) p = callers[pick(callers.length)];
  else p = ids[0];
  const seat = ids.indexOf(p);
  const legal = m.legal(p);
  let action;
  if (roll === 2 || legal.length === 0) {
    const own = secrets(m).hands[seat];
    action = own.length > 0 ? { type: 'PLAY', card: own[0] } : { type: 'DRAW' };
  } else {
    action = legal[pick(legal.length)];
  }
  try {
    return [seat, JSON.stringify(m.play(p, action, { now: clock.now }))];
  } catch (e) {
    return [seat, refusal(e)];
  }
}

test('each caller gets their own projection of a draw', () => {
  const m = reg.create({ game: 'one-card', players: ['a', 'b', 'c'], seed: 4 });
  const mover = m.status().toAct[0];
  const others = ['a', 'b', 'c'].filter((p) => p !== mover);
  const { events } = m.play(mover, { type: 'DRAW' });
  const drawn = events[0].cards;
  assert.equal(drawn.length, 1, JSON.stringify(events));
  assert.deepEqual(m.events(mover).events, events);
  for (const viewer of [...others, undefined]) {
    const seen = m.events(viewer).events[0];
    assert.deepEqual(seen, { type: 'drew', player: mover, count: 1 }, `${viewer}`);
  }
  refused(() => m.events('zed'), 'NOT_SEATED');
  refused(() => m.tick(60000, 'zed'), 'NOT_SEATED');
  // A timeout's draw: its drawer sees the card, the others the count.
  const late = m.status().toAct[0];
  const applied = m.tick(60000, late);
  assert.ok(applied.length >= 1);
  assert.equal(applied[0].player, late);
  assert.ok(Array.isArray(applied[0].events[0].cards), JSON.stringify(applied));
  const spectator = m.events().applied;
  assert.equal(spectator[0].events[0].count, applied[0].events[0].cards.length);
  assert.equal(spectator[0].events[0].cards, undefined);
  const other = ['a', 'b', 'c'].find((p) => p !== late);
  assert.equal(m.events(other).applied[0].events[0].cards, undefined);
});

test('random 3–5-player games show no one a card another holds, nor the draw pile', () => {
  let checked = 0;
  let ownCardsSeen = 0;
  let bankrupt = 0;
  for (let game = 0; game < 12; game++) {
    const pick = rng(1000 + game);
    const n = 3 + (game % 3);
    const ids = Array.from({ length: n }, (_, i) => `p${i}`);
    const options = [{ ranking: 'all' }, { bankruptAt: 15, ranking: 'all' }, { handSize: 5, turnSeconds: 15 }, {}][
      game % 4
    ];
    const m = reg.create({ game: 'one-card', players: ids, options, seed: game });
    const clock = { now: 0 };
    for (let step = 0; step < 600 && !m.status().over; step++) {
      const before = secrets(m);
      const [asker, message] = randomStep(m, pick, ids, clock);
      const { hands, pile } = secrets(m);
      // What each player knows of the draw pile: the cards they held, and, when they went
      // bankrupt in this change, the cards they drew for it (their hand went into the
      // pile, shuffled in).
      const known = before.hands.map((h) => new Set(h));
      const change = m.events();
      for (const [player] of bankruptcies(change)) {
        drawnBy(m.events(player), player).forEach((c) => known[ids.indexOf(player)].add(c));
        bankrupt++;
      }
      assertClean(JSON.stringify(change), forbidden(hands, pile, known, -1));
      assertClean(message, forbidden(hands, pile, known, asker));
      checked += 2;
      // Every player reads the change, their view and their legal actions.
      ids.forEach((viewer, seat) => {
        const bad = forbidden(hands, pile, known, seat);
        const seen = JSON.stringify(m.events(viewer));
        assertClean(seen, bad);
        assertClean(JSON.stringify(m.view(viewer)), bad);
        assertClean(JSON.stringify(m.legal(viewer)), bad);
        checked += 3;
        if (hands[seat].some((c) => names(seen, c))) ownCardsSeen++;
      });
      assertClean(JSON.stringify(m.view()), forbidden(hands, pile, known, -1));
    }
  }
  assert.ok(checked > 10000, `${checked} messages`);
  // The check can fail: a player's own drawn cards do reach them, and bankruptcies put
  // hands into the pile.
  assert.ok(ownCardsSeen > 0 && bankrupt > 0, `${ownCardsSeen} ${bankrupt}`);
});
