'use strict';
// Every number that crosses into JavaScript is an exact integer (at most 2^53 - 1): at the
// end of the engine's clock (`game_core::MAX_TIME`, a u32 of seconds before 2^53 - 1, so
// that every deadline is exact), in a record or a state read from text (an integer past
// 2^53 - 1 is refused, after the engine's own checks), and in the `turnSeq` of a match
// restored near 2^53 (a call that could take it past is refused).

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry } = require('..');
const { refused, playOut, rng } = require('../lib/helpers.js');

const reg = new Registry();
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** `game_core::MAX_TIME`: the clock stops there. */
const MAX_TIME = MAX_SAFE - (2 ** 32 - 1) * 1000;

/** Every number anywhere in `value` is a safe integer (the views and records hold no fractions). */
function allExact(value, where) {
  if (typeof value === 'number') assert.ok(Number.isSafeInteger(value), `${where}: ${value}`);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) allExact(v, `${where}.${k}`);
  }
}

test('at the end of the clock every time that crosses is exact, ticks end the match, and the round trips hold', () => {
  const setups = [
    { game: 'yut', players: ['a', 'b'], seed: 1 },
    { game: 'yut-augments', players: ['a', 'b'], seed: 2 },
    { game: 'rps', players: ['a', 'b'], seed: 3, options: { turnSeconds: 600 } },
  ];
  for (const setup of setups) {
    for (const now of [MAX_SAFE, MAX_TIME, MAX_TIME - 1]) {
      const m = reg.create({ ...setup, now });
      const s = m.status();
      assert.equal(s.clock, Math.min(now, MAX_TIME), `${setup.game}: the clock stops at MAX_TIME`);
      // No deadline lies past the end of the clock: it is a time at which tick acts.
      assert.equal(s.deadline, MAX_TIME, `${setup.game}: ${s.deadline}`);
      assert.equal(s.nextTickAt, MAX_TIME, `${setup.game}: ${s.nextTickAt}`);
      allExact(s, 'status');
      // The stored deadline is the decision's start plus its limit, exact; it falls due
      // at the status's deadline, the end of the clock.
      const stored = Number(/"deadlineAt":(\d+)[,}]/.exec(m.stateJson())[1]);
      assert.ok(stored >= s.deadline && stored <= MAX_SAFE, `${setup.game}: stored ${stored}`);
      if (s.clock < MAX_TIME) {
        // Before the end, players act at the clock, in time.
        let steps = 0;
        playOut(
          m,
          rng(setup.seed),
          (m2) => {
            if (steps++ % 7 === 0) {
              allExact(m2.status(), 'status');
              allExact(m2.view(), 'view');
            }
          },
          40,
          true,
        );
      }
      // An input past the end of the clock is read at its end, where every decision is
      // due: the timeouts are taken first and answer it (its turnSeq is then stale).
      if (!m.status().over) {
        const { toAct, turnSeq } = m.status();
        const e = refused(
          () => m.act(toAct[0], m.legal(toAct[0])[0], { turnSeq, now: MAX_SAFE }),
          'STALE_TURN_SEQ',
        );
        assert.ok(e.applied.length > 0, `${setup.game}: the timeouts came first`);
        assert.equal(m.status().clock, MAX_TIME);
      }
      // Ticks at nextTickAt end it.
      let ticks = 0;
      for (let at = m.status().nextTickAt; at !== null; at = m.status().nextTickAt) {
        assert.ok(m.tick(at).length > 0, `${setup.game}: tick ${ticks} at ${at} took nothing`);
        assert.ok(++ticks < 10000, `${setup.game}: not over after ${ticks} ticks`);
      }
      assert.ok(m.status().over, `${setup.game}: over`);
      allExact(m.outcome(), 'outcome');
      const record = m.record();
      allExact(record, 'record');
      assert.equal(reg.load(record).stateJson(), m.stateJson(), `${setup.game}: load(record())`);
      const parsed = JSON.parse(m.stateJson());
      allExact(parsed, 'state');
      const back = reg.restore(setup.game, parsed);
      assert.equal(back.stateJson(), m.stateJson(), `${setup.game}: restore(JSON.parse(stateJson()))`);
      assert.deepEqual(back.status(), m.status());
      allExact(back.record(), 'restored record');
      assert.equal(reg.load(back.record()).stateJson(), back.stateJson());
    }
  }
});

test('a record or a state holding an integer past 2^53 - 1 is refused, after the engine judged it', () => {
  const m = reg.create({ game: 'rps', players: ['a', 'b'], seed: 3, now: 1000 });
  m.act('a', { type: 'RANDOM' }, { now: 2000 });
  const state = m.stateJson();
  const record = JSON.stringify(m.record());
  const swap = (text, from, to) => {
    assert.ok(text.includes(from), from);
    return text.replace(from, to);
  };
  // The engine's own refusal first: a turnSeq past 2^53 - 1 is a corrupt state.
  for (const n of ['9007199254740992', '18446744073709551615']) {
    refused(() => reg.restore('rps', swap(state, '"turnSeq":1', `"turnSeq":${n}`)), 'CORRUPT_STATE');
  }
  // What the engine takes but JavaScript would read rounded: refused here, naming the part.
  const word = /"word_pos":\d+/.exec(state)[0];
  for (const n of ['9007199254740992', '18446744073709551615']) {
    const e = refused(() => reg.restore('rps', swap(state, word, `"word_pos":${n}`)), 'BAD_REQUEST');
    assert.equal(e.reason.field, 'state');
    assert.match(e.reason.detail, new RegExp(n));
  }
  for (const [from, to] of [
    ['"at":2000', '"at":18446744073709551615'],
    ['"startedAt":1000', '"startedAt":9007199254740993'],
    ['"seed":3', '"seed":9007199254740993'],
  ]) {
    // A seed past it may be the engine's own refusal (a code of its own); refused either way.
    const e = refused(() => reg.load(swap(record, from, to)), refusalCode(() => reg.load(swap(record, from, to))));
    if (e.code === 'BAD_REQUEST') assert.equal(e.reason.field, 'record', from);
  }
  // A restored match's record holds its state: the same check.
  const restored = JSON.stringify(reg.restore('rps', state).record());
  const far = restored.replace(/"word_pos":\d+/, '"word_pos":9007199254740993');
  assert.equal(refused(() => reg.load(far), 'BAD_REQUEST').reason.field, 'record');
  // At 2^53 - 1 itself, and digits in a string: exact, taken.
  assert.ok(reg.restore('rps', swap(state, word, `"word_pos":${MAX_SAFE}`)));
  const named = reg.create({ game: 'rps', players: ['18446744073709551615', 'b'], seed: 1 });
  assert.ok(reg.load(named.record()));
  assert.ok(reg.restore('rps', named.stateJson()));
});

/** The code `f` is refused with. */
function refusalCode(f) {
  try {
    f();
  } catch (e) {
    return e.code;
  }
  assert.fail(`${f}: not refused`);
}

test('a match restored near 2^53 refuses a call that could take its turnSeq past 2^53 - 1', () => {
  const m = reg.create({ game: 'rps', players: ['a', 'b'], seed: 3, now: 1000 });
  const near = (n) => reg.restore('rps', m.stateJson().replace('"turnSeq":0', `"turnSeq":${n}`));
  // Two seats: a call applies at most a timeout each and an action, 3 in all.
  const x = near(MAX_SAFE - 3);
  x.act('a', { type: 'RANDOM' }, { turnSeq: MAX_SAFE - 3 });
  assert.equal(x.status().turnSeq, MAX_SAFE - 2);
  const before = x.stateJson();
  for (const f of [
    () => x.act('b', { type: 'RANDOM' }, { turnSeq: MAX_SAFE - 2 }),
    () => x.actLegal('b', 0),
    () => x.playLegal('b', 0),
    () => x.advance(0),
    () => x.tick(MAX_SAFE),
    () => x.setConnected('a', false),
  ]) {
    assert.match(refused(f, 'CORRUPT_STATE').reason.detail, /turnSeq/);
  }
  assert.equal(x.stateJson(), before, 'refused, nothing changed');
  // At 2^53 - 1 itself: restored, exact, and it takes no call.
  const end = near(MAX_SAFE);
  assert.equal(end.status().turnSeq, MAX_SAFE);
  refused(() => end.act('a', { type: 'RANDOM' }), 'CORRUPT_STATE');
  // Far enough from the end, a match plays on.
  const far = near(MAX_SAFE - 1000);
  playOut(far, rng(3), undefined, 100, true);
  assert.ok(Number.isSafeInteger(far.status().turnSeq));
});
