'use strict';
// The native module called directly, not through index.js, which checks every argument
// before it crosses: the native functions convert their arguments themselves, inside
// their panic guard, and a bounded conversion refuses a hostile value with the JSON
// host's BAD_REQUEST naming the argument. Before, Node-API's own conversion ran first: a
// sparse array of 2^32 - 1 players reserved its whole length and aborted the process.

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { test } = require('node:test');

const file = path.join(__dirname, '..', 'index.node');
const native = require(file);

/** The refusal `f` throws, read from the error's message as the native module writes it. */
function refusal(f) {
  let thrown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof Error, `expected a refusal, got ${thrown}`);
  const body = JSON.parse(thrown.message);
  assert.ok(Array.isArray(body.applied));
  assert.equal(typeof body.error.code, 'string');
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.reason, 'object');
  return body.error;
}

/** `f` refused with BAD_REQUEST naming `field`; returns the reason. */
function badRequest(f, field) {
  const error = refusal(f);
  assert.equal(error.code, 'BAD_REQUEST', `${f}: ${JSON.stringify(error)}`);
  assert.equal(error.reason.field, field, `${f}: ${JSON.stringify(error.reason)}`);
  assert.equal(typeof error.reason.detail, 'string');
  return error.reason;
}

const reg = new native.NativeRegistry();
const rps = () => reg.create('rps', ['a', 'b'], undefined, 1, 0);

test('a sparse players array of 2^32 - 1 is refused at once, and the process lives', () => {
  // In a child first: an abort there fails this test instead of ending the run.
  const script = `
    const native = require(${JSON.stringify(file)});
    const reg = new native.NativeRegistry();
    try {
      reg.create('yut', new Array(2 ** 32 - 1), undefined, 1, 0);
      console.log('accepted');
    } catch (e) {
      console.log(JSON.parse(e.message).error.code);
    }
  `;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.equal(child.signal, null, child.stderr);
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), 'BAD_REQUEST');
  for (const n of [2 ** 32 - 1, 1e9, 257]) {
    const started = process.hrtime.bigint();
    const reason = badRequest(() => reg.create('yut', new Array(n), undefined, 1, 0), 'players');
    assert.match(reason.detail, /at most 256/);
    assert.ok(process.hrtime.bigint() - started < 1_000_000_000n, 'refused by its length, not read');
  }
  const many = Array.from({ length: 257 }, (_, i) => `p${i}`);
  badRequest(() => reg.create('yut', many, undefined, 1, 0), 'players');
  // 256 entries are read, and the game judges the count.
  assert.equal(refusal(() => reg.create('yut', many.slice(0, 256), undefined, 1, 0)).code, 'BAD_PLAYER_COUNT');
  assert.equal(native.matchGame(rps()), 'rps', 'the module still answers');
});

test('every argument of the wrong type is BAD_REQUEST naming it', () => {
  const nested = { a: { b: { c: [1, { d: 'e' }] } } };
  const cases = [
    [() => reg.create(1, ['a', 'b']), 'game'],
    [() => reg.create(nested, ['a', 'b']), 'game'],
    [() => reg.create('rps', 'ab'), 'players'],
    [() => reg.create('rps', nested), 'players'],
    [() => reg.create('rps', ['a', , 'b']), 'players'], // eslint-disable-line no-sparse-arrays
    [() => reg.create('rps', ['a', 2]), 'players'],
    [() => reg.create('rps', [nested, 'b']), 'players'],
    [() => reg.create('rps', ['a', '\uD800']), 'players'],
    [() => reg.create('rps', new Proxy(['a', 'b'], {})), 'players'],
    [() => reg.create('rps', ['a', 'b'], nested), 'options'],
    [() => reg.create('rps', ['a', 'b'], undefined, 'x'), 'seed'],
    [() => reg.create('rps', ['a', 'b'], undefined, 2 ** 53), 'seed'],
    [() => reg.create('rps', ['a', 'b'], undefined, 1, {}), 'now'],
    [() => reg.create('rps', ['a', 'b'], undefined, 1, 1n), 'now'],
    [() => reg.schemas(), 'game'],
    [() => reg.schemas(Symbol('x')), 'game'],
    [() => reg.schemas('\uD800'), 'game'],
    [() => reg.defaultOptions([]), 'game'],
    [() => reg.load(42), 'record'],
    [() => reg.load(nested), 'record'],
    [() => reg.restore('rps', []), 'state'],
    [() => reg.restore(null, '{}'), 'game'],
  ];
  for (const [f, field] of cases) badRequest(f, field);
  const m = rps();
  const buffer = new Float64Array(16);
  const onMatch = [
    [() => native.matchGame(), 'match'],
    [() => native.matchGame({}), 'match'],
    [() => native.matchGame(reg), 'match'],
    [() => native.matchStatus(123, buffer), 'match'],
    [() => native.matchTick(nested, 0), 'match'],
    [() => native.matchAdvance('m', 0), 'match'],
    [() => native.matchStatus(m, 'buffer'), 'status'],
    [() => native.matchStatus(m, nested), 'status'],
    [() => native.matchView(m, 'a'), 'player'],
    [() => native.matchView(m, undefined, 7), 'player'],
    [() => native.matchLegal(m, {}, undefined), 'player'],
    [() => native.matchLegalCount(m, 0, nested), 'player'],
    [() => native.matchAct(m, 0, undefined, { type: 'RANDOM' }), 'action'],
    [() => native.matchAct(m, 0, undefined, '{"type":"RANDOM"}', 'x'), 'turnSeq'],
    [() => native.matchAct(m, 0, undefined, '{"type":"RANDOM"}', undefined, nested), 'now'],
    [() => native.matchAct(m, 0, undefined, '{"type":"RANDOM"}', undefined, undefined, 'out'), 'status'],
    [() => native.matchActLegal(m, 0, undefined, '0'), 'index'],
    [() => native.matchAdvance(m, null), 'index'],
    [() => native.matchTick(m, '5'), 'now'],
    [() => native.matchTick(m), 'now'],
    [() => native.matchTick(m, 2 ** 53), 'now'],
    [() => native.matchSetConnected(m, 0, undefined, 'yes'), 'connected'],
    [() => native.matchRecord(null), 'match'],
    [() => native.matchStateJson([m]), 'match'],
    [() => native.matchOutcome(undefined), 'match'],
  ];
  for (const [f, field] of onMatch) badRequest(f, field);
  // Nothing was played, and the match answers as before.
  assert.equal(JSON.parse(native.matchRecord(m)).entries.length, 0);
  native.matchStatus(m, buffer);
  assert.equal(buffer[0], 0, 'turnSeq');
  const events = JSON.parse(native.matchAct(m, 0, undefined, '{"type":"RANDOM"}', 0, 10));
  assert.ok(Array.isArray(events) && events.length > 0);
});

test('huge strings are read within their bound, and past it refused without a copy', () => {
  const big = 'x'.repeat(2 ** 24);
  assert.equal(refusal(() => reg.schemas(big)).code, 'UNKNOWN_GAME');
  assert.equal(badRequest(() => reg.load(big), 'record').field, 'record');
  const m = rps();
  assert.equal(refusal(() => native.matchView(m, undefined, big)).code, 'NOT_SEATED');
  badRequest(() => native.matchAct(m, 0, undefined, big), 'action');
  const past = 'x'.repeat(2 ** 26 + 1);
  assert.match(badRequest(() => reg.load(past), 'record').detail, /at most 67108864/);
  assert.match(badRequest(() => reg.restore('rps', past), 'state').detail, /at most 67108864/);
  assert.equal(native.matchGame(m), 'rps', 'the module still answers');
});
