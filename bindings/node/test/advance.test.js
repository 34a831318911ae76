'use strict';
// `advance(index)`: the first player to act plays their legal action at the index, at the
// match's clock, without the events crossing; it answers the next decision's number of
// legal actions. Checked against `actLegal` on a second match from the same seed: the same
// choices give the same status at every step, the same record and the same stored state.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry } = require('..');
const { rng, refused, SETUPS, pickIndex } = require('../lib/helpers.js');

const reg = new Registry();

test('advance plays as actLegal for the first to act and answers the next legal count', () => {
  for (const setup of SETUPS) {
    const a = reg.create({ ...setup, now: 1000 });
    const b = reg.create({ ...setup, now: 1000 });
    const pick = rng(setup.seed);
    let count = b.legalCount(b.status().toAct[0]);
    let steps = 0;
    while (!a.status().over) {
      assert.ok(steps < 5000, `${setup.game}: does not end`);
      const p = a.status().toAct[0];
      assert.equal(count, a.legalCount(p), `${setup.game} step ${steps}`);
      const i = pickIndex(a.legal(p), pick);
      a.actLegal(p, i);
      count = b.advance(i);
      assert.deepEqual(b.lastApplied(), []);
      assert.deepEqual(b.status(), a.status(), `${setup.game} step ${steps}`);
      steps++;
    }
    assert.equal(count, 0, `${setup.game}: over`);
    assert.ok(steps > 2, setup.game);
    assert.deepEqual(b.record(), a.record(), setup.game);
    assert.equal(b.stateJson(), a.stateJson(), setup.game);
    assert.deepEqual(b.outcome(), a.outcome(), setup.game);
    // Its record replays like any other.
    assert.equal(reg.load(b.record()).stateJson(), b.stateJson(), setup.game);
    // Over: refused, nothing changed.
    const before = b.stateJson();
    for (const i of [0, 3]) refused(() => b.advance(i), 'GAME_OVER');
    assert.equal(b.stateJson(), before);
  }
});

test('advance refuses an index past the list, or not an index, and changes nothing', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
  const n = m.legalCount(m.status().toAct[0]);
  const before = m.stateJson();
  for (const i of [n, n + 1, 2 ** 53 - 1]) {
    assert.deepEqual(refused(() => m.advance(i), 'UNKNOWN_ACTION_INDEX').reason, { index: i, count: n });
  }
  for (const bad of [-1, 0.5, Number.NaN, Infinity, 2 ** 53, '0', null, undefined]) {
    assert.equal(refused(() => m.advance(bad), 'BAD_REQUEST').reason.field, 'index', String(bad));
  }
  assert.equal(m.stateJson(), before);
  assert.deepEqual(m.record().entries, []);
  assert.equal(typeof m.advance(n - 1), 'number');
  assert.equal(m.record().entries.length, 1);
});

test('a thousand random games by advance, the record read only at the end', () => {
  const pick = rng(7);
  let decisions = 0;
  for (let g = 0; g < 1000; g++) {
    const m = reg.create({ game: 'yut', players: ['p1', 'p2'], seed: 100 + g });
    let n = m.legalCount(m.status().toAct[0]);
    let here = 0;
    while (n > 0) {
      n = m.advance(pick(n));
      here++;
    }
    decisions += here;
    assert.ok(m.status().over);
    if (g % 100 === 0) {
      // One entry per decision (no clock moved, so no timeout), replaying to the state.
      const record = m.record();
      assert.equal(record.entries.length, here);
      assert.ok(record.entries.every((e) => e.kind === 'act'));
      assert.equal(reg.load(record).stateJson(), m.stateJson());
    }
  }
  assert.ok(decisions > 1000 * 20);
});

/** Two matches restored from one stored state: one for `advance`, one for `actLegal`. */
function twins(state) {
  return [reg.restore('rps', state), reg.restore('rps', state)];
}

/** The refusal of `f` as data (`f` is called once: a refusal may still change the match). */
function refusal(f) {
  try {
    f();
  } catch (e) {
    assert.equal(e.name, 'GameError', String(e));
    return { code: e.code, message: e.message, reason: e.reason, applied: e.applied };
  }
  assert.fail(`${f}: not refused`);
}

test('advance takes the timeouts due at the clock first and reports them, as actLegal does', () => {
  const stored = (options, edit) => {
    const m = reg.create({ game: 'rps', players: ['a', 'b'], seed: 2, options, now: 0 });
    edit(m);
    return m.stateJson();
  };
  // Stored at its deadline (15 s a round): both players' timeouts are due at the clock.
  const atDeadline = (options) => stored(options, () => {}).replace('"clock":0', '"clock":15000');
  // One round to win: the timeouts end the match, and the index is then refused.
  const [a, b] = twins(atDeadline({ winsNeeded: 1 }));
  const byIndex = refusal(() => b.actLegal('a', 0));
  assert.equal(byIndex.code, 'GAME_OVER');
  assert.equal(byIndex.applied.length, 2);
  assert.deepEqual(refusal(() => a.advance(0)), byIndex);
  assert.deepEqual(a.lastApplied(), byIndex.applied);
  assert.deepEqual(a.record(), b.record(), 'the timeouts stand, recorded alike');
  assert.equal(a.stateJson(), b.stateJson());
  // Three rounds to win: the next round begins, and the index is then played in it. So
  // is a disconnected player's grace ended at the clock (the deadline still ahead).
  const graceEnded = stored({}, (m) => m.setConnected('b', false, 0)).replace('"clock":0', '"clock":6000');
  for (const [what, state, taken] of [
    ['at the deadline', atDeadline({}), 2],
    ['after a grace', graceEnded, 1],
  ]) {
    const [x, y] = twins(state);
    const n = x.advance(0);
    y.actLegal('a', 0);
    assert.equal(x.lastApplied().length, taken, what);
    assert.deepEqual(x.lastApplied(), y.lastApplied(), what);
    assert.deepEqual(x.status(), y.status(), what);
    assert.equal(n, y.legalCount(y.status().toAct[0]), what);
    assert.deepEqual(x.record(), y.record(), what);
    assert.equal(reg.load(x.record()).stateJson(), x.stateJson(), `${what}: the record replays`);
    // The next call took none.
    x.advance(0);
    assert.deepEqual(x.lastApplied(), [], what);
  }
});
