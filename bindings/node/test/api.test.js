'use strict';
// The package's API: whole games, the error paths with the engine's codes and reasons,
// record and state round trips, tampering, timeouts, secrecy of views, team play with
// the augment layer.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry } = require('..');
const { rng, playOut, refused } = require('../lib/helpers.js');

const reg = new Registry();
const players = (n) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

test('the registry lists every built-in game and its schemas', () => {
  assert.deepEqual(reg.games(), ['one-card', 'rps', 'yut', 'yut-augments']);
  for (const game of reg.games()) {
    const s = reg.schemas(game);
    assert.deepEqual(Object.keys(s).sort(), ['action', 'error', 'event', 'options', 'outcome', 'view']);
    for (const schema of Object.values(s)) assert.equal(typeof schema.title, 'string');
  }
});

test('a whole game of each built-in game', () => {
  const setups = [
    { game: 'yut', players: players(2), seed: 1 },
    { game: 'yut', players: players(3), seed: 2, options: { pieces: 2 } },
    { game: 'yut-augments', players: players(2), seed: 3 },
    { game: 'rps', players: players(2), seed: 4, options: { winsNeeded: 2 } },
  ];
  for (const setup of setups) {
    const m = reg.create(setup);
    assert.equal(m.status().game, setup.game);
    const steps = playOut(m, rng(setup.seed), (m2, player, action, events) => {
      assert.ok(Array.isArray(events) && events.length > 0, `${setup.game}: events of ${JSON.stringify(action)}`);
      for (const e of events) assert.equal(typeof e.type, 'string');
    });
    assert.ok(steps > 2);
    const status = m.status();
    assert.equal(status.over, true);
    assert.deepEqual(status.toAct, []);
    assert.notEqual(m.outcome(), null);
    if (setup.game !== 'rps') assert.deepEqual(m.view().result, m.outcome(), 'the final view carries the outcome');
  }
});

test('a team game with the augment layer plays to the end', () => {
  const m = reg.create({ game: 'yut-augments', players: players(4), seed: 31, options: { mode: 'team' } });
  let drafted = 0;
  playOut(m, rng(31), (_m, _p, action) => {
    if (action.type === 'CHOOSE_AUGMENT') drafted++;
  });
  assert.ok(drafted > 0, 'the draft was played');
  const outcome = m.outcome();
  assert.notEqual(outcome, null);
  assert.equal(m.view('p1').options.mode, 'team');
});

test('every error path is a GameError with the engine code and reason', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
  const first = m.status().toAct[0];
  const other = first === 'a' ? 'b' : 'a';
  refused(() => m.act('zed', { type: 'THROW' }), 'NOT_SEATED');
  refused(() => m.view('zed'), 'NOT_SEATED');
  refused(() => m.legal('zed'), 'NOT_SEATED');
  refused(() => m.act(other, { type: 'THROW' }), 'NOT_YOUR_TURN');
  refused(() => m.act(first, { type: 'MOVE', throwIndex: 0, from: 'home' }), 'NOT_MOVE_PHASE');
  const bad = refused(() => m.act(first, { type: 'THORW' }), 'BAD_JSON');
  assert.equal(bad.reason.part, 'action');
  const stale = refused(() => m.act(first, { type: 'THROW' }, { turnSeq: 5 }), 'STALE_TURN_SEQ');
  assert.deepEqual(stale.reason, { got: 5, expected: 0 });
  // A refused request changes nothing.
  assert.equal(m.status().turnSeq, 0);

  const opt = refused(() => reg.create({ game: 'yut', players: ['a', 'b'], options: { nakPercent: 7 } }), 'INVALID_OPTION');
  assert.equal(opt.reason.option, 'nakPercent');
  refused(() => reg.create({ game: 'yut', players: ['a', 'b'], options: { piece: 3 } }), 'INVALID_OPTION');
  const count = refused(() => reg.create({ game: 'yut', players: ['a'] }), 'BAD_PLAYER_COUNT');
  assert.equal(count.reason.players, 1);
  refused(() => reg.create({ game: 'yut', players: ['a', 'a'] }), 'BAD_PLAYERS');
  refused(() => reg.create({ game: 'yut', players: ['a', ''] }), 'BAD_PLAYERS');
  const unknown = refused(() => reg.create({ game: 'chess', players: ['a', 'b'] }), 'UNKNOWN_GAME');
  assert.equal(unknown.reason.game, 'chess');
  refused(() => reg.schemas('chess'), 'UNKNOWN_GAME');

  // Values of the wrong JS type or range: BAD_REQUEST naming the field, as the JSON host.
  const cases = [
    ['seed', () => reg.create({ game: 'yut', players: ['a', 'b'], seed: -1 })],
    ['seed', () => reg.create({ game: 'yut', players: ['a', 'b'], seed: 1.5 })],
    ['seed', () => reg.create({ game: 'yut', players: ['a', 'b'], seed: 2 ** 53 })],
    ['seed', () => reg.create({ game: 'yut', players: ['a', 'b'], seed: '1' })],
    ['seed', () => reg.create({ game: 'yut', players: ['a', 'b'], seed: null })],
    ['now', () => reg.create({ game: 'yut', players: ['a', 'b'], now: Number.NaN })],
    ['players', () => reg.create({ game: 'yut', players: 'ab' })],
    ['players', () => reg.create({ game: 'yut', players: ['a', 2] })],
    ['options', () => reg.create({ game: 'yut', players: ['a', 'b'], options: [] })],
    ['game', () => reg.create({ players: ['a', 'b'] })],
    ['sede', () => reg.create({ game: 'yut', players: ['a', 'b'], sede: 1 })],
    ['action', () => m.act(first, 'THROW')],
    ['action', () => m.act(first, null)],
    ['player', () => m.act(1, { type: 'THROW' })],
    ['turnSeq', () => m.act(first, { type: 'THROW' }, { turnSeq: -1 })],
    ['turnseq', () => m.act(first, { type: 'THROW' }, { turnseq: 0 })],
    ['now', () => m.act(first, { type: 'THROW' }, { now: Infinity })],
    ['now', () => m.tick(-5)],
    ['now', () => m.tick()],
    ['connected', () => m.setConnected(first, 'yes')],
    ['now', () => m.setConnected(first, false, 0.5)],
    ['record', () => reg.load(42)],
    ['record', () => reg.load({ game: 'yut' })],
  ];
  for (const [field, f] of cases) {
    const e = refused(f, 'BAD_REQUEST');
    assert.equal(e.reason.field, field, f.toString());
    assert.equal(typeof e.reason.detail, 'string');
  }
  assert.equal(m.status().turnSeq, 0);

  const done = reg.create({ game: 'rps', players: ['a', 'b'], seed: 2, options: { winsNeeded: 1 } });
  playOut(done, rng(2));
  refused(() => done.act('a', { type: 'RANDOM' }), 'GAME_OVER');
  const rps = reg.create({ game: 'rps', players: ['a', 'b'], seed: 2 });
  rps.act('a', { type: 'PICK', hand: 'rock' });
  refused(() => rps.act('a', { type: 'PICK', hand: 'paper' }), 'ALREADY_PICKED');
});

test('record → load and stateJson → restore give the same state', () => {
  for (const game of ['yut', 'yut-augments', 'rps']) {
    const m = reg.create({ game, players: players(2), seed: 9, now: 1000 });
    const pick = rng(9);
    for (let i = 0; i < 15 && !m.status().over; i++) {
      const { toAct } = m.status();
      const player = toAct[pick(toAct.length)];
      const legal = m.legal(player).filter((a) => a.type !== 'CONCEDE');
      m.act(player, legal[pick(legal.length)], { now: 1000 + i * 500 });
    }
    m.setConnected('p2', false, 9000);
    const record = m.record();
    assert.equal(record.game, game);
    const loaded = reg.load(record);
    assert.equal(loaded.stateJson(), m.stateJson());
    assert.equal(reg.load(JSON.stringify(record)).stateJson(), m.stateJson());
    const restored = reg.restore(game, m.stateJson());
    assert.equal(restored.stateJson(), m.stateJson());
    assert.deepEqual(restored.status(), m.status());
    assert.deepEqual(restored.view('p1'), m.view('p1'));
    // Both go on the same way.
    playOut(loaded, rng(1));
    playOut(restored, rng(1));
    assert.equal(restored.stateJson(), loaded.stateJson());
  }
});

test('a tampered state and a tampered record are refused', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 4 });
  playOut(m, rng(4), undefined, 6, true);
  const state = JSON.parse(m.stateJson());
  state.board.turnOrder = [0, 0];
  const e = refused(() => reg.restore('yut', JSON.stringify(state)), 'CORRUPT_STATE');
  assert.equal(typeof e.reason.detail, 'string');
  refused(() => reg.restore('yut', '{"board":1}'), 'CORRUPT_STATE');
  refused(() => reg.restore('rps', m.stateJson()), 'CORRUPT_STATE');
  refused(() => reg.restore('chess', m.stateJson()), 'UNKNOWN_GAME');

  const record = m.record();
  const wrongVersion = { ...record, version: 999 };
  const v = refused(() => reg.load(wrongVersion), 'RECORD_UNSUPPORTED_VERSION');
  assert.equal(v.reason.found, 999);
  refused(() => reg.load({ ...record, game: 'chess' }), 'UNKNOWN_GAME');
  refused(() => reg.load({ ...record, options: { nakPercent: 7 } }), 'INVALID_OPTION');
  // An entry the game refuses on replay: its code, with the entry's index.
  const entries = structuredClone(record.entries);
  const i = entries.findIndex((x) => x.action && x.action.type === 'THROW');
  assert.ok(i >= 0, JSON.stringify(entries));
  entries[i].player = entries[i].player === 'a' ? 'b' : 'a';
  const r = refused(() => reg.load({ ...record, entries }), 'NOT_YOUR_TURN');
  assert.equal(r.reason.entry, i);
});

test('tick at nextTickAt acts for the player, and late actions keep the timeouts', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1, now: 1000 });
  const { nextTickAt, toAct, deadline } = m.status();
  assert.equal(typeof nextTickAt, 'number');
  assert.equal(deadline, nextTickAt);
  assert.deepEqual(m.tick(nextTickAt - 1), []);
  const applied = m.tick(nextTickAt);
  assert.ok(applied.length >= 1);
  assert.equal(applied[0].player, toAct[0]);
  assert.equal(applied[0].auto, true);
  assert.equal(applied[0].action.type, 'THROW');
  assert.ok(applied[0].events.length > 0);
  assert.equal(m.status().turnSeq, applied.length);

  // An act past the deadline: the timeout is taken first; a stale turnSeq is then refused,
  // and the error carries what was applied (also `lastApplied()`).
  const s = m.status();
  const late = refused(() => m.act(s.toAct[0], { type: 'THROW' }, { turnSeq: s.turnSeq, now: s.nextTickAt }), 'STALE_TURN_SEQ');
  assert.ok(late.applied.length >= 1);
  assert.equal(late.applied[0].auto, true);
  assert.deepEqual(m.lastApplied(), late.applied);
  assert.equal(m.status().turnSeq, s.turnSeq + late.applied.length);

  // A successful act returns its events; the timeouts before it are `lastApplied()`.
  const t = m.status();
  const player = t.toAct[0];
  m.act(player, m.legal(player)[0], { now: t.nextTickAt - 1 });
  assert.deepEqual(m.lastApplied(), []);

  // A disconnected player's grace: setConnected, then tick acts at nextTickAt.
  const p = reg.create({ game: 'rps', players: ['a', 'b'], seed: 3 });
  // setConnected answers the events a host pushes; a repeat changes nothing.
  assert.deepEqual(p.setConnected('a', false, 0), [
    { type: 'presenceChanged', player: 'a', connected: false, away: false },
  ]);
  assert.deepEqual(p.setConnected('a', false, 0), []);
  const at = p.status().nextTickAt;
  assert.equal(typeof at, 'number');
  assert.ok(p.tick(at).length >= 1);
});

test('views never carry the RNG or the seed', () => {
  const seed = 123456789;
  for (const game of ['yut', 'yut-augments', 'rps']) {
    const m = reg.create({ game, players: players(2), seed });
    const check = () => {
      const rngText = JSON.stringify(findKey(JSON.parse(m.stateJson()), 'rng'));
      assert.ok(rngText && rngText.length > 20, 'the state holds the RNG');
      for (const viewer of [undefined, 'p1', 'p2']) {
        const view = m.view(viewer);
        const text = JSON.stringify(view);
        assert.equal(findKey(view, 'rng'), undefined);
        assert.equal(findKey(view, 'seed'), undefined);
        assert.ok(!text.includes(String(seed)), `${game}: the seed in a view`);
        assert.ok(!text.includes(rngText.slice(0, 40)), `${game}: the RNG in a view`);
      }
    };
    check();
    playOut(m, rng(seed), (m2, _p, _a, _e) => {
      if (m2.status().turnSeq % 5 === 0) check();
    });
    check();
  }
});

/** The first value under `key` anywhere in `value`. */
function findKey(value, key) {
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, key)) return value[key];
  for (const v of Object.values(value)) {
    const found = findKey(v, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

test('no seed draws one from the OS, below 2^53 so that the record survives JSON', () => {
  const seeds = new Set();
  for (let i = 0; i < 10; i++) {
    const m = reg.create({ game: 'rps', players: ['a', 'b'] });
    const { seed } = m.record();
    assert.ok(Number.isSafeInteger(seed) && seed >= 0);
    seeds.add(seed);
    m.act('a', { type: 'RANDOM' });
    assert.equal(reg.load(m.record()).stateJson(), m.stateJson());
  }
  assert.equal(seeds.size, 10);
});
