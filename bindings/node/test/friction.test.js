'use strict';
// What a TypeScript host meets first: `players` in the status, `events` empty after a
// call that changed nothing, an error's JSON keeping its message, `isOptions`, and a timer
// (`wakeAt`) that neither spins nor fires early for a deadline past setTimeout's range.

const assert = require('node:assert/strict');
const { mock, test } = require('node:test');

const { Registry, GameError, isOptions, wakeAt, MAX_TIMEOUT_MS } = require('..');
const { refused } = require('../lib/helpers.js');

const reg = new Registry();
const DAY = 24 * 60 * 60 * 1000;
const none = { events: [], applied: [] };

test('the status lists the players in seat order', () => {
  const m = reg.create({ game: 'one-card', players: ['x', 'y', 'z'], seed: 1 });
  assert.deepEqual(m.status().players, ['x', 'y', 'z']);
  assert.equal(m.status().players, m.status().players);
  assert.ok(Object.isFrozen(m.status().players));
});

test('events answers nothing after a call that changed nothing', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 2, now: 0 });
  const first = m.status().toAct[0];
  const other = first === 'a' ? 'b' : 'a';
  m.act(first, { type: 'THROW' }, { now: 10 });
  assert.notDeepEqual(m.events(other), none);
  // Refused by the engine: nothing changed.
  refused(() => m.act(other, { type: 'THROW' }, { now: 11 }), 'NOT_YOUR_TURN');
  assert.deepEqual(m.events(other), none);
  assert.deepEqual(m.events(), none);
  // A presence that changes something, then the same again: nothing the second time.
  assert.equal(m.setConnected(other, false, 12).length, 1);
  assert.equal(m.events(first).events.length, 1);
  assert.deepEqual(m.setConnected(other, false, 13), []);
  assert.deepEqual(m.events(first), none);
  // Refused before it crossed (a bad argument), and a tick that took nothing.
  m.setConnected(other, true, 14);
  refused(() => m.act(first, 'THROW'), 'BAD_REQUEST');
  assert.deepEqual(m.events(first), none);
  m.setConnected(other, false, 15);
  assert.deepEqual(m.tick(16), []);
  assert.deepEqual(m.events(first), none);
  // A timeout taken is a change again.
  assert.equal(m.tick(m.status().nextTickAt).length, 1);
  assert.equal(m.events(first).applied.length, 1);
});

test("an error's JSON keeps its message, code and reason", () => {
  const m = reg.create({ game: 'rps', players: ['a', 'b'], seed: 1 });
  const e = refused(() => m.act('zed', { type: 'PICK', hand: 'rock' }), 'NOT_SEATED');
  const json = JSON.parse(JSON.stringify(e));
  assert.equal(json.message, e.message);
  assert.ok(json.message.length > 0);
  assert.equal(json.code, 'NOT_SEATED');
  assert.deepEqual(json.reason, e.reason);
  assert.deepEqual(json.applied, []);
  assert.equal(json.name, 'GameError');
  assert.ok(GameError.is(e));
  assert.ok(!GameError.is(new Error('x')));
  assert.ok(!GameError.is({ code: 'NOT_SEATED' }));
});

test('isOptions: what create takes, strictly', () => {
  assert.equal(isOptions('yut', {}), true);
  assert.equal(isOptions('yut', reg.defaultOptions('yut')), true);
  assert.equal(isOptions('yut', { nakPercent: 10, mode: 'team' }), true);
  assert.equal(isOptions('yut', { nakPercent: 7 }), false);
  assert.equal(isOptions('yut', { nakPercnt: 10 }), false);
  assert.equal(isOptions('yut', { nakPercent: '10' }), false);
  assert.equal(isOptions('one-card', { handSize: 5 }), true);
  assert.equal(isOptions('one-card', { handSize: 9 }), false);
  assert.equal(isOptions('rps', { winsNeeded: 2 }), true);
  assert.equal(isOptions('rps', [1]), false);
  assert.equal(isOptions('rps', null), false);
  assert.equal(isOptions('rps', 'x'), false);
  refused(() => isOptions('chess', {}), 'UNKNOWN_GAME');
});

test('wakeAt: a 30-day grace neither spins nor fires early', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  const m = reg.create({ game: 'rps', players: ['a', 'b'], options: { turnSeconds: null }, graceMs: 30 * DAY, now: Date.now() });
  m.setConnected('b', false, Date.now());
  const at = m.status().nextTickAt;
  assert.equal(at, 1_000_000 + 30 * DAY);
  assert.ok(at - Date.now() > MAX_TIMEOUT_MS);
  const warnings = [];
  const onWarning = (w) => w.name === 'TimeoutOverflowWarning' && warnings.push(w);
  process.on('warning', onWarning);
  const fired = [];
  const spy = mock.fn(() => {
    fired.push(Date.now());
    m.tick(Date.now());
  });
  // The mock takes any delay as given; Node's own takes one past MAX_TIMEOUT_MS as 1 ms
  // (the spin): every delay asked for must be in range, and few.
  const delays = [];
  const mocked = globalThis.setTimeout;
  globalThis.setTimeout = (f, ms, ...rest) => {
    delays.push(ms);
    return mocked(f, ms, ...rest);
  };
  t.after(() => {
    globalThis.setTimeout = mocked;
  });
  wakeAt(at, spy);
  // Step through the month a day at a time: nothing before the grace ends.
  for (let day = 0; day < 30; day++) {
    t.mock.timers.tick(DAY - (day === 29 ? 1 : 0));
    if (day < 29) assert.equal(spy.mock.callCount(), 0, `fired on day ${day + 1}`);
  }
  assert.equal(spy.mock.callCount(), 0, 'fired a millisecond early');
  t.mock.timers.tick(1);
  assert.deepEqual(fired, [at]);
  assert.equal(m.status().toAct.length, 1, "b's pick was taken");
  t.mock.timers.tick(40 * DAY);
  assert.equal(spy.mock.callCount(), 1, 'fired once');
  assert.ok(delays.every((ms) => ms >= 0 && ms <= MAX_TIMEOUT_MS), delays.join());
  assert.equal(delays.length, 2, `two waits for 30 days: ${delays.join()}`);
  process.off('warning', onWarning);
  assert.deepEqual(warnings.map((w) => w.name), []);
});

test('wakeAt: a past time fires at once (after the caller returns), null never, cancel stops it', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 5000 });
  const calls = [];
  wakeAt(4000, () => calls.push('past'));
  assert.deepEqual(calls, []);
  const never = wakeAt(null, () => calls.push('null'));
  const cancelled = wakeAt(6000, () => calls.push('cancelled'));
  cancelled.cancel();
  never.cancel();
  t.mock.timers.tick(0);
  t.mock.timers.tick(10_000);
  assert.deepEqual(calls, ['past']);
  // A clock of the host's own.
  let now = 0;
  wakeAt(100, () => calls.push('own clock'), () => now);
  t.mock.timers.tick(100);
  assert.deepEqual(calls, ['past'], 'the own clock has not moved');
  now = 100;
  t.mock.timers.tick(100);
  assert.deepEqual(calls, ['past', 'own clock']);
  refused(() => wakeAt('soon', () => {}), 'BAD_REQUEST');
});
