'use strict';
// The calls that save crossings: `legalCount`, `actLegal` (acting by the index of a legal
// action), `play` and `playLegal` (the events, the timeouts and the status from one call).
// Each is checked against the object API it stands for: on a twin match (the same record
// loaded) the same choices give the same events, the same status and the same record,
// and every refusal is the object API's, or the index's own `UNKNOWN_ACTION_INDEX`.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry, GameError, Played } = require('..');
const { rng, refused, SETUPS, pickIndex } = require('../lib/helpers.js');

const reg = new Registry();

/** The error as the object the wire sends. */
function body(f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof GameError, String(e));
    return { code: e.code, message: e.message, reason: e.reason, applied: e.applied };
  }
  assert.fail('no refusal');
}

/** A twin of `m`: the same record, loaded. */
const twin = (m) => reg.load(m.record());


test('legalCount is the length of legal, for every player at every step of every game', () => {
  for (const setup of SETUPS) {
    const m = reg.create(setup);
    const pick = rng(setup.seed);
    let steps = 0;
    for (; steps < 5000; steps++) {
      for (const p of setup.players) assert.equal(m.legalCount(p), m.legal(p).length, `${setup.game} ${p}`);
      const { toAct, over } = m.status();
      if (over) break;
      const p = toAct[pick(toAct.length)];
      m.act(p, m.legal(p)[pickIndex(m.legal(p), pick)]);
    }
    assert.ok(steps > 2 && m.status().over, setup.game);
    for (const p of setup.players) assert.equal(m.legalCount(p), 0, `${setup.game}: over`);
  }
  const m = reg.create(SETUPS[0]);
  const e = refused(() => m.legalCount('zed'), 'NOT_SEATED');
  assert.deepEqual(e.reason, { player: 'zed' });
  assert.deepEqual(body(() => m.legalCount('zed')), body(() => m.legal('zed')));
  assert.equal(refused(() => m.legalCount(1), 'BAD_REQUEST').reason.field, 'player');
});

test('actLegal is act with the legal action at the index', () => {
  for (const setup of SETUPS) {
    const base = reg.create({ ...setup, now: 1000 });
    const pick = rng(setup.seed);
    for (let step = 0; step < 12 && !base.status().over; step++) {
      const { toAct, turnSeq } = base.status();
      const p = toAct[pick(toAct.length)];
      const legal = base.legal(p);
      for (const [i, action] of legal.entries()) {
        const a = twin(base);
        const b = twin(base);
        const opts = { turnSeq, now: 2000 + step };
        assert.deepEqual(b.actLegal(p, i, opts), a.act(p, action, opts), `${setup.game} step ${step} index ${i}`);
        assert.deepEqual(b.lastApplied(), a.lastApplied());
        assert.deepEqual(b.status(), a.status());
        assert.deepEqual(b.record(), a.record());
      }
      base.actLegal(p, pickIndex(legal, pick), { now: 2000 + step });
    }
  }
});

test('an index past the end of the list is refused with UNKNOWN_ACTION_INDEX and changes nothing', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
  const p = m.status().toAct[0];
  const n = m.legalCount(p);
  const before = m.stateJson();
  for (const call of [(i) => m.actLegal(p, i), (i) => m.playLegal(p, i), (i) => m.actLegal(p, i, { turnSeq: 0 })]) {
    for (const i of [n, n + 1, 2 ** 53 - 1]) {
      const e = refused(() => call(i), 'UNKNOWN_ACTION_INDEX');
      assert.deepEqual(e.reason, { index: i, count: n });
      assert.deepEqual(e.applied, []);
    }
  }
  assert.equal(m.stateJson(), before);
  assert.deepEqual(m.record().entries, []);
  // Not an index at all: BAD_REQUEST naming it, as for every other number.
  for (const bad of [-1, 0.5, Number.NaN, Infinity, 2 ** 53, '0', null, undefined]) {
    const e = refused(() => m.actLegal(p, bad), 'BAD_REQUEST');
    assert.equal(e.reason.field, 'index', String(bad));
    assert.equal(refused(() => m.playLegal(p, bad), 'BAD_REQUEST').reason.field, 'index');
  }
  assert.equal(m.stateJson(), before);
  // In range it acts.
  assert.ok(m.actLegal(p, n - 1).length > 0);
});

test('the wrong player: not seated as act refuses it, not to act an empty list', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
  const first = m.status().toAct[0];
  const other = first === 'a' ? 'b' : 'a';
  for (const call of [() => m.actLegal('zed', 0), () => m.playLegal('zed', 0)]) {
    assert.deepEqual(body(call), body(() => m.act('zed', { type: 'THROW' })));
  }
  // Seated but not to act: no legal action to name (the object API's act says why).
  assert.equal(m.legalCount(other), 0);
  assert.deepEqual(refused(() => m.actLegal(other, 0), 'UNKNOWN_ACTION_INDEX').reason, { index: 0, count: 0 });
  refused(() => m.act(other, { type: 'THROW' }), 'NOT_YOUR_TURN');
  refused(() => m.play(other, { type: 'THROW' }), 'NOT_YOUR_TURN');
  // The wrong JS type, as in act.
  assert.equal(refused(() => m.actLegal(7, 0), 'BAD_REQUEST').reason.field, 'player');
  assert.equal(refused(() => m.play(7, { type: 'THROW' }), 'BAD_REQUEST').reason.field, 'player');
  assert.equal(m.status().turnSeq, 0);
});

test('a stale turnSeq is refused before the index is judged', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1, now: 1000 });
  const { toAct, nextTickAt } = m.status();
  const p = toAct[0];
  for (const i of [0, 99]) {
    for (const call of [() => m.actLegal(p, i, { turnSeq: 3 }), () => m.playLegal(p, i, { turnSeq: 3 })]) {
      const e = refused(call, 'STALE_TURN_SEQ');
      assert.deepEqual(e.reason, { got: 3, expected: 0 });
    }
  }
  assert.deepEqual(body(() => m.actLegal(p, 0, { turnSeq: 3 })), body(() => m.act(p, { type: 'THROW' }, { turnSeq: 3 })));
  // Late with the turnSeq the player saw: the timeout is taken first, then it is stale;
  // what was taken stands, in the error and in lastApplied().
  const late = refused(() => m.playLegal(p, 0, { turnSeq: 0, now: nextTickAt }), 'STALE_TURN_SEQ');
  assert.ok(late.applied.length >= 1 && late.applied[0].auto);
  assert.deepEqual(m.lastApplied(), late.applied);
  assert.equal(m.status().turnSeq, late.applied.length);
  // The wrong option, as in act.
  assert.equal(refused(() => m.actLegal(p, 0, { turnseq: 0 }), 'BAD_REQUEST').reason.field, 'turnseq');
  assert.equal(refused(() => m.playLegal(p, 0, { now: -1 }), 'BAD_REQUEST').reason.field, 'now');
});

test('a match that is over refuses every index with GAME_OVER, as act refuses an action', () => {
  for (const setup of SETUPS) {
    const m = reg.create(setup);
    const pick = rng(setup.seed);
    let last;
    for (let s = m.status(); !s.over; s = m.status()) {
      const p = s.toAct[pick(s.toAct.length)];
      const legal = m.legal(p);
      const i = pickIndex(legal, pick);
      last = legal[i];
      m.actLegal(p, i);
    }
    const before = m.stateJson();
    for (const p of setup.players) {
      const e = body(() => m.act(p, last));
      assert.equal(e.code, 'GAME_OVER', setup.game);
      for (const i of [0, 5]) {
        assert.deepEqual(body(() => m.actLegal(p, i)), e, `${setup.game}: actLegal`);
        assert.deepEqual(body(() => m.playLegal(p, i)), e, `${setup.game}: playLegal`);
      }
      assert.deepEqual(body(() => m.play(p, last)), e, `${setup.game}: play`);
    }
    assert.equal(m.stateJson(), before);
  }
});

test('play and playLegal give the events, the timeouts and the status of one call', () => {
  let acceptedAfterTimeouts = 0;
  for (const setup of SETUPS) {
    const m = reg.create({ ...setup, now: 1000 });
    const pick = rng(setup.seed);
    let timeouts = 0;
    for (let step = 0; step < 40 && !m.status().over; step++) {
      const s = m.status();
      const p = s.toAct[pick(s.toAct.length)];
      const legal = m.legal(p);
      const i = pickIndex(legal, pick);
      // Every fourth step late (the timeouts first, judged after them, no turnSeq).
      const now = step % 4 === 3 && s.nextTickAt !== null ? s.nextTickAt : s.clock + 500;
      const a = twin(m);
      let expected;
      try {
        expected = { events: a.act(p, legal[i], { now }) };
      } catch (e) {
        expected = { error: e };
      }
      const byIndex = step % 2 === 0;
      let played;
      try {
        played = byIndex ? m.playLegal(p, i, { now }) : m.play(p, legal[i], { now });
      } catch (e) {
        assert.ok(expected.error, `${setup.game} step ${step}: refused only here: ${e.code}`);
        assert.deepEqual(
          { code: e.code, message: e.message, reason: e.reason, applied: e.applied },
          { code: expected.error.code, message: expected.error.message, reason: expected.error.reason, applied: expected.error.applied },
        );
        assert.deepEqual(m.lastApplied(), e.applied);
        assert.equal(m.stateJson(), a.stateJson());
        timeouts += e.applied.length > 0 ? 1 : 0;
        continue;
      }
      assert.ok(!expected.error, `${setup.game} step ${step}: refused only by act`);
      assert.ok(played instanceof Played);
      assert.deepEqual(played.status, m.status(), `${setup.game} step ${step}: the status after it`);
      assert.deepEqual(played.status, a.status());
      assert.deepEqual(played.applied, a.lastApplied());
      assert.deepEqual(played.applied, m.lastApplied());
      timeouts += played.applied.length > 0 ? 1 : 0;
      acceptedAfterTimeouts += played.applied.length > 0 ? 1 : 0;
      assert.deepEqual(played.events, expected.events, `${setup.game} step ${step}: events`);
      assert.equal(played.events, played.events, 'parsed once, then kept');
      assert.deepEqual(JSON.parse(JSON.stringify(played)), {
        events: expected.events,
        applied: played.applied,
        status: played.status,
      });
      const { events, status } = played;
      assert.deepEqual(events, expected.events);
      assert.equal(status, played.status);
      assert.deepEqual(m.record(), a.record());
    }
    assert.ok(timeouts > 0, `${setup.game}: a late play took timeouts first`);
  }
  assert.ok(acceptedAfterTimeouts > 0, 'a play accepted after the timeouts it took');
  // play refuses as act refuses: a malformed action is the game's BAD_JSON.
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
  const p = m.status().toAct[0];
  assert.deepEqual(body(() => m.play(p, { type: 'THORW' })), body(() => m.act(p, { type: 'THORW' })));
  assert.equal(refused(() => m.play(p, 'THROW'), 'BAD_REQUEST').reason.field, 'action');
});

test('a whole game with the fast calls gives the record of the same choices made with objects', () => {
  for (const setup of SETUPS) {
    // The object API: status, legal, then act with the object picked.
    const slow = reg.create({ ...setup, now: 0 });
    let pick = rng(setup.seed);
    const chosen = [];
    for (let s = slow.status(); !s.over; s = slow.status()) {
      const p = s.toAct[pick(s.toAct.length)];
      const legal = slow.legal(p);
      // Never conceding: rps lists CONCEDE last, the other games do not list it.
      const concedes = legal.filter((a) => a.type === 'CONCEDE').length;
      assert.equal(concedes, setup.game === 'rps' ? 1 : 0);
      if (concedes) assert.equal(legal.at(-1).type, 'CONCEDE');
      const i = pick(legal.length - concedes);
      chosen.push(i);
      slow.act(p, legal[i], { turnSeq: s.turnSeq, now: s.clock + 300 });
    }
    // The fast calls: the status from playLegal, legalCount, and the index alone.
    const fast = reg.create({ ...setup, now: 0 });
    pick = rng(setup.seed);
    let s = fast.status();
    let decisions = 0;
    while (!s.over) {
      const p = s.toAct[pick(s.toAct.length)];
      const n = fast.legalCount(p);
      // The same pick as above, among the actions before rps's CONCEDE.
      const i = pick(n - (setup.game === 'rps' ? 1 : 0));
      assert.equal(i, chosen[decisions], `${setup.game}: decision ${decisions}`);
      s = fast.playLegal(p, i, { turnSeq: s.turnSeq, now: s.clock + 300 }).status;
      decisions++;
    }
    assert.equal(decisions, chosen.length);
    assert.ok(decisions > 4, `${setup.game}: ${decisions} decisions`);
    assert.deepEqual(fast.record(), slow.record(), setup.game);
    assert.equal(fast.stateJson(), slow.stateJson());
    assert.deepEqual(fast.outcome(), slow.outcome());
    assert.deepEqual(s, slow.status());
  }
});
