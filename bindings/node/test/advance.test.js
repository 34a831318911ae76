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
