'use strict';
// Arguments as the JSON host reads its fields, refused before they cross into the native
// module: a players list read in full (no hole, no sparse length Node-API would reserve),
// ids of 1 to 128 bytes of well-formed text (Node-API reads a lone surrogate as U+FFFD),
// a value that throws while read, a `toJSON` that writes nothing, only own properties,
// and `lastApplied()` cleared by every acting call, refused or not.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry, GameError } = require('..');
const { refused } = require('../lib/helpers.js');

const reg = new Registry();

/** `f` refused with BAD_REQUEST naming `field`; returns the error. */
function badRequest(f, field) {
  const e = refused(f, 'BAD_REQUEST');
  assert.equal(e.reason.field, field, `${f}: ${JSON.stringify(e.reason)}`);
  assert.equal(typeof e.reason.detail, 'string');
  return e;
}

/** A late rps act, so that `lastApplied()` holds the two timeouts it took first. */
function lateMatch() {
  const m = reg.create({ game: 'rps', players: ['a', 'b'], seed: 1 });
  m.act('a', { type: 'RANDOM' }, { now: 16000 });
  assert.equal(m.lastApplied().length, 2);
  return m;
}

test('a players list is read in full before it crosses, and only a list of strings crosses', () => {
  const holes = badRequest(() => reg.create({ game: 'yut', players: ['a', , 'b'] }), 'players'); // eslint-disable-line no-sparse-arrays
  assert.match(holes.reason.detail, /index 1/);
  // Sparse lists of any length: Node-API reserved the whole length (2^32 - 1 aborted
  // the process); they are refused by their length first.
  for (const n of [2 ** 32 - 1, 1e9, 257]) {
    const e = badRequest(() => reg.create({ game: 'yut', players: new Array(n) }), 'players');
    assert.match(e.reason.detail, /at most 256/);
  }
  const many = Array.from({ length: 257 }, (_, i) => `p${i}`);
  badRequest(() => reg.create({ game: 'yut', players: many }), 'players');
  // 256 strings cross, and the game judges the count, as in the JSON host.
  refused(() => reg.create({ game: 'yut', players: many.slice(0, 256) }), 'BAD_PLAYER_COUNT');
  badRequest(() => reg.create({ game: 'yut', players: ['a', 2] }), 'players');
  badRequest(() => reg.create({ game: 'yut', players: [undefined, 'b'] }), 'players');
  badRequest(() => reg.create({ game: 'yut', players: { 0: 'a', 1: 'b', length: 2 } }), 'players');
  // An index inherited from Array.prototype is a hole.
  Array.prototype[1] = 'b'; // eslint-disable-line no-extend-native
  try {
    badRequest(() => reg.create({ game: 'yut', players: ['a', , ] }), 'players'); // eslint-disable-line no-sparse-arrays
  } finally {
    delete Array.prototype[1];
  }
  // A Proxy of a list is read once, through its traps, into the list that crosses.
  const proxied = reg.create({ game: 'yut', players: new Proxy(['a', 'b'], {}), seed: 1 });
  assert.deepEqual(proxied.record().players, ['a', 'b']);
  const trap = new Proxy(['a', 'b'], {
    get(target, key) {
      if (key === '1') throw new Error('trap');
      return target[key];
    },
  });
  assert.match(badRequest(() => reg.create({ game: 'yut', players: trap }), 'players').reason.detail, /trap/);
  const getter = ['a', 'b'];
  Object.defineProperty(getter, 0, {
    get() {
      throw new Error('boom');
    },
  });
  badRequest(() => reg.create({ game: 'yut', players: getter }), 'players');
  const { proxy, revoke } = Proxy.revocable(['a', 'b'], {});
  revoke();
  badRequest(() => reg.create({ game: 'yut', players: proxy }), 'players');
});

test('a lone surrogate in any string argument is BAD_REQUEST naming it, never another id', () => {
  // Node-API reads '\uD800' as '\uFFFD': it acted for that seat, and two ids were one.
  const m = reg.create({ game: 'rps', players: ['\uFFFD', 'b'], seed: 1 });
  const lone = '\uD800';
  const calls = [
    () => m.act(lone, { type: 'RANDOM' }),
    () => m.actLegal(lone, 0),
    () => m.play(lone, { type: 'RANDOM' }),
    () => m.playLegal(lone, 0),
    () => m.view(lone),
    () => m.legal(lone),
    () => m.legalCount(lone),
    () => m.setConnected(lone, false),
  ];
  for (const f of calls) badRequest(f, 'player');
  assert.equal(m.status().turnSeq, 0, 'nothing was played');
  assert.deepEqual(m.record().entries, []);
  badRequest(() => reg.create({ game: 'rps', players: ['\uD800', '\uDBFF'] }), 'players');
  badRequest(() => reg.create({ game: 'rps', players: ['x\uDC00', 'b'] }), 'players');
  for (const f of [
    () => reg.schemas('yut\uD800'),
    () => reg.defaultOptions('yut\uD800'),
    () => reg.create({ game: 'rps\uD800', players: ['a', 'b'] }),
    () => reg.restore('rps\uD800', m.stateJson()),
  ]) {
    badRequest(f, 'game');
  }
  // Text arguments too; inside objects JSON.stringify escapes it and the engine refuses
  // the escape, naming the part.
  const record = JSON.stringify(m.record());
  badRequest(() => reg.load(record.replace('"b"', '"\uD800"')), 'record');
  badRequest(() => reg.restore('rps', m.stateJson().replace('"b"', '"\uD800"')), 'state');
  badRequest(() => reg.load({ ...m.record(), players: ['\uFFFD', '\uD800'] }), 'record');
  badRequest(() => m.act('b', { type: 'PICK', hand: '\uD800' }), 'action');
  // A pair is well formed: an id like any other.
  const emoji = reg.create({ game: 'rps', players: ['😀', 'b'], seed: 1 });
  assert.deepEqual(emoji.status().toAct, ['😀', 'b']);
  assert.ok(emoji.act('😀', { type: 'RANDOM' }).length > 0);
});

test('ids are 1 to 128 bytes, as in the JSON host: NOT_SEATED names at most that', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
  const tooLong = ['z'.repeat(129), '가'.repeat(43), '😀'.repeat(33), 'z'.repeat(2 ** 20), ''];
  for (const id of tooLong) {
    for (const f of [
      () => m.view(id),
      () => m.legal(id),
      () => m.legalCount(id),
      () => m.act(id, { type: 'THROW' }),
      () => m.playLegal(id, 0),
      () => m.setConnected(id, true),
    ]) {
      assert.match(badRequest(f, 'player').reason.detail, /1 to 128 bytes/);
    }
    badRequest(() => reg.schemas(id), 'game');
    badRequest(() => reg.create({ game: id, players: ['a', 'b'] }), 'game');
  }
  // At the bound: an id, not seated, named whole.
  for (const id of ['z'.repeat(128), '가'.repeat(42), '😀'.repeat(32)]) {
    assert.deepEqual(refused(() => m.view(id), 'NOT_SEATED').reason, { player: id });
  }
  // A seated id's length is the game's: the engine keeps ids to 1..128 bytes itself.
  refused(() => reg.create({ game: 'rps', players: ['z'.repeat(129), 'b'] }), 'BAD_PLAYERS');
});

test('a value that throws while read is BAD_REQUEST naming its field, never a raw error', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
  const first = m.status().toAct[0];
  const throwing = (key, value = new Error('boom')) => ({
    game: 'yut',
    players: ['a', 'b'],
    get [key]() {
      throw value;
    },
  });
  for (const key of ['game', 'players', 'options', 'seed', 'now']) {
    const e = badRequest(() => reg.create(throwing(key)), key);
    assert.match(e.reason.detail, /boom/);
  }
  // What is thrown need not be an Error, nor be readable.
  const hostile = new Proxy(
    {},
    {
      getPrototypeOf() {
        throw new Error('trap');
      },
      get() {
        throw new Error('trap');
      },
    },
  );
  for (const value of [Symbol('s'), hostile, undefined, 'x'.repeat(10000)]) {
    const e = badRequest(() => reg.create(throwing('seed', value)), 'seed');
    assert.ok(e.reason.detail.length < 400, 'a thrown message is cut');
  }
  const keys = new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('keys');
      },
    },
  );
  badRequest(() => reg.create(keys), 'create');
  badRequest(() => m.act(first, { type: 'THROW' }, keys), 'opts');
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  badRequest(() => reg.create(proxy), 'create');
  badRequest(() => m.act(first, proxy), 'action');
  badRequest(() => reg.create({ game: 'yut', players: ['a', 'b'], options: proxy }), 'options');
  badRequest(() => reg.load(proxy), 'record');
  badRequest(() => reg.restore('yut', proxy), 'state');
  badRequest(
    () =>
      m.act(
        first,
        { type: 'THROW' },
        {
          get turnSeq() {
            throw new Error('boom');
          },
        },
      ),
    'turnSeq',
  );
  // A toJSON that writes nothing (undefined, a function) or throws names the part.
  for (const toJSON of [() => undefined, () => () => 1]) {
    badRequest(() => m.act(first, { toJSON }), 'action');
    badRequest(() => m.play(first, { toJSON }), 'action');
    badRequest(() => reg.create({ game: 'yut', players: ['a', 'b'], options: { toJSON } }), 'options');
    badRequest(() => reg.load({ toJSON }), 'record');
    badRequest(() => reg.restore('yut', { toJSON }), 'state');
  }
  const thrower = {
    toJSON() {
      throw new Error('boom');
    },
  };
  badRequest(() => reg.load(thrower), 'record');
  // A toJSON that writes the action is the action.
  assert.ok(m.act(first, { toJSON: () => ({ type: 'THROW' }) }).length > 0);
  assert.equal(m.status().turnSeq, 1);
});

test('only own properties are read: a property set on Object.prototype changes nothing', () => {
  const polluted = { seed: 42, now: 99_000, turnSeq: 7, options: { nakPercent: 7 }, game: 'rps', players: ['x'] };
  for (const [key, value] of Object.entries(polluted)) Object.prototype[key] = value; // eslint-disable-line no-extend-native
  try {
    const seeds = new Set();
    for (let i = 0; i < 3; i++) {
      const m = reg.create({ game: 'yut', players: ['a', 'b'] });
      const { seed, startedAt, options } = m.record();
      seeds.add(seed);
      assert.equal(startedAt, 0);
      assert.equal(options.nakPercent, 0);
      // No turnSeq or now from the prototype: not stale, at the match's clock.
      const p = m.status().toAct[0];
      assert.ok(m.act(p, { type: 'THROW' }, {}).length > 0);
      assert.equal(m.status().clock, 0);
    }
    assert.ok(!seeds.has(42) && seeds.size === 3, [...seeds].join());
    badRequest(() => reg.create({ players: ['a', 'b'] }), 'game');
  } finally {
    for (const key of Object.keys(polluted)) delete Object.prototype[key];
  }
  // Own but not enumerable: not read (as JSON.stringify does not write it).
  const opts = { game: 'yut', players: ['a', 'b'] };
  Object.defineProperty(opts, 'seed', { value: 'not read', enumerable: false });
  assert.ok(reg.create(opts));
});

test('every acting call clears lastApplied(), whether it is refused here, natively or not at all', () => {
  const refusedHere = [
    (m) => m.act('b', { type: 'RANDOM' }, { turnSeq: '3' }),
    (m) => m.act('b', 'RANDOM'),
    (m) => m.act(7, { type: 'RANDOM' }),
    (m) => m.actLegal('b', '0'),
    (m) => m.play('b', { type: 'RANDOM' }, { turnseq: 1 }),
    (m) => m.playLegal('b', 0, { now: null }),
    (m) => m.advance(-1),
    (m) => m.setConnected('b', 'no'),
    (m) => m.setConnected('\uD800', false),
  ];
  for (const f of refusedHere) {
    const m = lateMatch();
    const e = refused(() => f(m), 'BAD_REQUEST');
    assert.deepEqual(e.applied, []);
    assert.deepEqual(m.lastApplied(), [], f.toString());
  }
  const refusedNatively = [
    (m) => m.act('b', { type: 'RANDOM' }, { turnSeq: 99 }),
    (m) => m.actLegal('b', 99),
    (m) => m.act('zed', { type: 'RANDOM' }),
    (m) => m.act('b', { type: 'RANDOM' }, { now: -1 }),
  ];
  for (const f of refusedNatively) {
    const m = lateMatch();
    assert.throws(() => f(m), GameError);
    assert.deepEqual(m.lastApplied(), [], f.toString());
  }
  for (const f of [(m) => m.act('b', { type: 'RANDOM' }), (m) => m.advance(0), (m) => m.setConnected('b', false)]) {
    const m = lateMatch();
    f(m);
    assert.deepEqual(m.lastApplied(), [], f.toString());
  }
});
