'use strict';
// The disconnect grace set per match with `create({graceMs})`.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry, GameError } = require('..');

const reg = new Registry();
const untimed = { turnSeconds: null };

test('a match with graceMs 1000 acts for a disconnected player at +1000, not +5000', () => {
  for (const [graceMs, after] of [[1000, 1000], [undefined, 5000]]) {
    const m = reg.create({ game: 'rps', players: ['a', 'b'], options: untimed, seed: 1, now: 10000, graceMs });
    m.setConnected('b', false, 10000);
    assert.equal(m.status().nextTickAt, 10000 + after);
    assert.deepEqual(m.tick(10000 + after - 1), []);
    const done = m.tick(10000 + after);
    assert.equal(done.length, 1);
    assert.equal(done[0].player, 'b');
    assert.equal(done[0].auto, true);
  }
});

test('the stored state and the record keep the grace', () => {
  const m = reg.create({ game: 'rps', players: ['a', 'b'], options: untimed, seed: 1, graceMs: 1000 });
  const state = m.stateJson();
  assert.equal(JSON.parse(state).table.graceMs, 1000);
  const restored = reg.restore('rps', state);
  restored.setConnected('a', false, 50);
  assert.equal(restored.status().nextTickAt, 1050);
  assert.deepEqual(m.record().entries, [{ kind: 'grace', graceMs: 1000 }]);
  const replayed = reg.load(m.record());
  assert.equal(replayed.stateJson(), state);
  // Without graceMs, the state is stored as before: no field.
  const plain = reg.create({ game: 'rps', players: ['a', 'b'], seed: 1 });
  assert.equal(JSON.parse(plain.stateJson()).table.graceMs, undefined);
  assert.deepEqual(plain.record().entries, []);
});

test('a negative, fractional or too long grace is a typed error', () => {
  const create = (graceMs) => () => reg.create({ game: 'rps', players: ['a', 'b'], seed: 1, graceMs });
  for (const bad of [-1, 1.5, Number.NaN, '1000']) {
    assert.throws(create(bad), (e) => e instanceof GameError && e.code === 'BAD_REQUEST' && e.reason.field === 'graceMs', String(bad));
  }
  // Past the engine's MAX_TIME (2^53 - 1 less a u32 of seconds), an integer still exact.
  assert.throws(
    create(Number.MAX_SAFE_INTEGER),
    (e) => e instanceof GameError && e.code === 'INVALID_OPTION' && e.reason.option === 'graceMs',
  );
  assert.doesNotThrow(create(0));
});
