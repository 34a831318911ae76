'use strict';
// The package and the JSON host give the same values: one seeded session of every game
// played through both (the host as `cargo run --release --example host`), comparing the
// status, every seat's and the spectator's view, the legal actions, the events, the
// timeouts, the records and the error bodies (code, Korean message and reason).

const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { test } = require('node:test');

const { Registry, GameError } = require('..');
const { rng } = require('../lib/helpers.js');

const root = path.resolve(__dirname, '../../..');

function startHost() {
  const host = spawn('cargo', ['run', '--release', '--quiet', '--example', 'host'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const replies = readline.createInterface({ input: host.stdout })[Symbol.asyncIterator]();
  // A request as a line of text: JSON.stringify cannot write some (a key given twice).
  const askLine = async (line) => {
    host.stdin.write(`${line}\n`);
    const { value, done } = await replies.next();
    if (done) throw new Error(`the host stopped before answering ${line}`);
    return JSON.parse(value);
  };
  const ask = (request) => askLine(JSON.stringify(request));
  return { ask, askLine, close: () => host.stdin.end() };
}

/** The package's answer as the host's reply: `{ok: true, ...}` or `{ok: false, error, applied}`. */
function local(f) {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof GameError)) throw e;
    return { ok: false, error: { code: e.code, message: e.message, reason: e.reason }, applied: e.applied };
  }
}

function same(host, mine, what) {
  assert.equal(mine.ok, host.ok, `${what}: ${JSON.stringify({ host, mine })}`);
  if (!host.ok) {
    assert.deepEqual(mine.error, host.error.error ?? host.error, what);
    assert.deepEqual(mine.applied, host.applied ?? [], `${what}: applied`);
  }
}

/** The JSON host's status in a reply, with the players the package's status lists too. */
function status(reply, players) {
  const { id, ok, match, events, applied, ...rest } = reply;
  return { ...rest, players };
}

const SESSIONS = [
  { game: 'yut', players: ['a', 'b'], seed: 5, options: { nakPercent: 5 } },
  { game: 'yut', players: ['a', 'b', 'c', 'd'], seed: 6, options: { mode: 'team' } },
  { game: 'yut-augments', players: ['a', 'b', 'c'], seed: 7 },
  { game: 'rps', players: ['a', 'b'], seed: 8, options: { winsNeeded: 2 } },
  { game: 'one-card', players: ['a', 'b', 'c'], seed: 9, options: { handSize: 5 } },
];

test('the package and the JSON host answer alike', async () => {
  const reg = new Registry();
  const host = startHost();
  const seen = { refused: 0, tick: 0, late: 0, presence: 0, act: 0, over: 0 };
  try {
    const games = await host.ask({ op: 'games' });
    assert.deepEqual(reg.games(), games.games);
    for (const [i, s] of SESSIONS.entries()) {
      const id = `s${i}`;
      const created = await host.ask({ op: 'create', match: id, ...s, now: 1000 });
      assert.ok(created.ok, JSON.stringify(created));
      const m = reg.create({ ...s, now: 1000 });
      assert.deepEqual(m.status(), status(created, s.players), `${s.game}: created`);
      const pick = rng(s.seed);
      let now = 1000;
      // Whether the last call changed the match: after one that did not, the package's
      // `events` answers nothing, where the JSON host's repeats the change before.
      let changed = true;
      const none = { events: [], applied: [] };
      for (let step = 0; step < 400; step++) {
        const st = m.status();
        if (st.over) break;
        for (const player of [...s.players, undefined]) {
          const hv = await host.ask({ op: 'view', match: id, ...(player ? { player } : {}) });
          assert.deepEqual(m.view(player), hv.view, `${s.game} step ${step}: view of ${player ?? 'the spectator'}`);
          // The last change as each viewer sees it (One Card's draws differ by viewer).
          const he = await host.ask({ op: 'events', match: id, ...(player ? { player } : {}) });
          const change = { events: he.events, applied: he.applied };
          assert.deepEqual(m.events(player), changed ? change : none, `${s.game} step ${step}: events of ${player ?? 'the spectator'}`);
        }
        const player = st.toAct[pick(st.toAct.length)];
        const legal = await host.ask({ op: 'legal', match: id, player });
        assert.deepEqual(m.legal(player), legal.actions, `${s.game} step ${step}: legal`);
        // Now and then: a refusal, a timeout by tick, a late act, a disconnection.
        const idle = s.players.find((p) => !st.toAct.includes(p));
        const roll = pick(10);
        if (roll === 0 && idle) {
          const action = legal.actions.find((a) => a.type !== 'CONCEDE');
          const h = await host.ask({ op: 'act', match: id, player: idle, action, now });
          same(h, local(() => m.act(idle, action, { now })), `${s.game} step ${step}: act out of turn`);
          seen.refused += h.ok ? 0 : 1;
          changed = h.ok || (h.applied ?? []).length > 0;
        } else if (roll === 1 && st.nextTickAt !== null) {
          now = st.nextTickAt;
          // Seen by each player in turn, and by a spectator.
          const viewer = s.players[step % (s.players.length + 1)];
          const h = await host.ask({ op: 'tick', match: id, now, ...(viewer ? { player: viewer } : {}) });
          assert.deepEqual(m.tick(now, viewer), h.applied, `${s.game} step ${step}: tick`);
          seen.tick += h.applied.length > 0 ? 1 : 0;
          changed = h.applied.length > 0;
          continue;
        } else if (roll === 2 && st.nextTickAt !== null) {
          // A late act with the turnSeq the player saw: the timeouts first, then stale.
          now = st.nextTickAt;
          const action = legal.actions[0];
          const h = await host.ask({ op: 'act', match: id, player, action, turnSeq: st.turnSeq, now });
          const mine = local(() => m.act(player, action, { turnSeq: st.turnSeq, now }));
          same(h, mine, `${s.game} step ${step}: late act`);
          seen.late += (h.applied ?? []).length > 0 ? 1 : 0;
          changed = h.ok || (h.applied ?? []).length > 0;
          if (h.ok) {
            assert.deepEqual(mine.value, h.events);
            assert.deepEqual(m.lastApplied(), h.applied);
          }
          continue;
        } else if (roll === 3) {
          const who = s.players[pick(s.players.length)];
          const connected = pick(2) === 0;
          const h = await host.ask({ op: 'presence', match: id, player: who, connected, now });
          const pushed = m.setConnected(who, connected, now);
          assert.deepEqual(m.lastApplied(), h.applied, `${s.game} step ${step}: presence`);
          changed = pushed.length > 0 || h.applied.length > 0;
          seen.presence++;
          assert.deepEqual(m.status(), status(h, s.players));
          continue;
        }
        const playable = legal.actions.filter((a) => a.type !== 'CONCEDE');
        const action = playable[pick(playable.length)];
        now += 700;
        const h = await host.ask({ op: 'act', match: id, player, action, turnSeq: st.turnSeq, now });
        const mine = local(() => m.act(player, action, { turnSeq: st.turnSeq, now }));
        same(h, mine, `${s.game} step ${step}: act`);
        changed = h.ok || (h.applied ?? []).length > 0;
        if (h.ok) {
          assert.deepEqual(mine.value, h.events, `${s.game} step ${step}: events`);
          seen.act++;
          assert.deepEqual(m.lastApplied(), h.applied);
          assert.deepEqual(m.status(), status(h, s.players));
        }
      }
      seen.over += m.status().over ? 1 : 0;
      const record = await host.ask({ op: 'record', match: id });
      assert.deepEqual(m.record(), record.record, `${s.game}: record`);
      const outcome = await host.ask({ op: 'outcome', match: id });
      assert.deepEqual(m.outcome(), outcome.outcome, `${s.game}: outcome`);
    }

    // Refusals outside a match: the same bodies.
    const refusals = [
      [{ op: 'create', game: 'chess', players: ['a', 'b'] }, () => reg.create({ game: 'chess', players: ['a', 'b'] })],
      [
        { op: 'create', game: 'yut', players: ['a', 'b'], options: { nakPercent: 7 } },
        () => reg.create({ game: 'yut', players: ['a', 'b'], options: { nakPercent: 7 } }),
      ],
      [{ op: 'create', game: 'yut', players: ['a'] }, () => reg.create({ game: 'yut', players: ['a'] })],
      [{ op: 'create', game: 'rps', players: ['a', 'a'] }, () => reg.create({ game: 'rps', players: ['a', 'a'] })],
      [{ op: 'restore', game: 'yut', state: '{"board":1}' }, () => reg.restore('yut', '{"board":1}')],
      [{ op: 'schemas', game: 'go' }, () => reg.schemas('go')],
    ];
    for (const [request, f] of refusals) same(await host.ask(request), local(f), JSON.stringify(request));
    const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
    await host.ask({ op: 'create', match: 'x', game: 'yut', players: ['a', 'b'], seed: 1 });
    for (const [request, f] of [
      [{ op: 'act', match: 'x', player: 'zed', action: { type: 'THROW' } }, () => m.act('zed', { type: 'THROW' })],
      [{ op: 'act', match: 'x', player: 'a', action: { type: 'THORW' } }, () => m.act('a', { type: 'THORW' })],
      [{ op: 'act', match: 'x', player: 'b', action: { type: 'THROW' }, turnSeq: 3 }, () => m.act('b', { type: 'THROW' }, { turnSeq: 3 })],
      [{ op: 'view', match: 'x', player: 'zed' }, () => m.view('zed')],
      [{ op: 'legal', match: 'x', player: 'zed' }, () => m.legal('zed')],
    ]) {
      same(await host.ask(request), local(f), JSON.stringify(request));
    }
    // BAD_REQUEST: the same code and field (the detail's wording is each side's own).
    const h = await host.ask({ op: 'act', match: 'x', player: 'a', action: { type: 'THROW' }, now: -1 });
    const mine = local(() => m.act('a', { type: 'THROW' }, { now: -1 }));
    assert.equal(mine.error.code, h.error.code);
    assert.equal(mine.error.message, h.error.message);
    assert.equal(mine.error.reason.field, h.error.reason.field);
  } finally {
    host.close();
  }
  for (const [what, n] of Object.entries(seen)) assert.ok(n > 0, `the session never hit ${what}: ${JSON.stringify(seen)}`);
  console.log(JSON.stringify(seen));
});

/** The refusal's code, message and field (a BAD_REQUEST's detail is each side's own wording). */
function gist(error) {
  return { code: error.code, message: error.message, field: error.reason.field };
}

test('ids, lone surrogates and repeated keys are refused as the JSON host refuses them', async () => {
  const reg = new Registry();
  const host = startHost();
  try {
    const m = reg.create({ game: 'rps', players: ['a', 'b'], seed: 3 });
    assert.ok((await host.ask({ op: 'create', match: 'x', game: 'rps', players: ['a', 'b'], seed: 3 })).ok);
    const long = 'z'.repeat(129);
    const wide = '가'.repeat(43); // 129 bytes in 43 UTF-16 units
    const fits = '😀'.repeat(32); // 128 bytes
    const lone = 'x\uD800';
    const cases = [
      [{ op: 'view', match: 'x', player: long }, () => m.view(long)],
      [{ op: 'legal', match: 'x', player: wide }, () => m.legal(wide)],
      [{ op: 'act', match: 'x', player: '', action: { type: 'RANDOM' } }, () => m.act('', { type: 'RANDOM' })],
      [{ op: 'act', match: 'x', player: lone, action: { type: 'RANDOM' } }, () => m.act(lone, { type: 'RANDOM' })],
      [{ op: 'presence', match: 'x', player: long, connected: false }, () => m.setConnected(long, false)],
      [{ op: 'schemas', game: long }, () => reg.schemas(long)],
      [{ op: 'schemas', game: lone }, () => reg.schemas(lone)],
      [{ op: 'create', game: '', players: ['a', 'b'] }, () => reg.create({ game: '', players: ['a', 'b'] })],
      [{ op: 'create', game: 'rps', players: ['a', lone] }, () => reg.create({ game: 'rps', players: ['a', lone] })],
      [{ op: 'restore', game: wide, state: m.stateJson() }, () => reg.restore(wide, m.stateJson())],
    ];
    for (const [request, f] of cases) {
      const h = await host.ask(request);
      const mine = local(f);
      assert.equal(h.ok, false, JSON.stringify(request));
      assert.deepEqual(gist(mine.error), gist(h.error), JSON.stringify(request).slice(0, 200));
    }
    // An id of 128 bytes is an id: not seated, named whole, the same body.
    same(await host.ask({ op: 'view', match: 'x', player: fits }), local(() => m.view(fits)), 'a 128-byte id');
    // A key given twice in a record: the host reads the record as JSON, the package as text.
    const record = JSON.stringify(m.record());
    const twice = record.replace('"seed":3', '"seed":3,"seed":4');
    assert.notEqual(twice, record);
    const h = await host.askLine(`{"op":"load","record":${twice}}`);
    assert.deepEqual(gist(local(() => reg.load(twice)).error), gist(h.error));
    assert.equal(h.error.reason.field, 'record');
  } finally {
    host.close();
  }
});

test('seed, turnSeq and now past 2^53 - 1 are refused alike, word for word', async () => {
  const reg = new Registry();
  const host = startHost();
  try {
    const m = reg.create({ game: 'rps', players: ['a', 'b'], seed: 3 });
    assert.ok((await host.ask({ op: 'create', match: 'x', game: 'rps', players: ['a', 'b'], seed: 3 })).ok);
    const create = (extra) => [
      { op: 'create', game: 'rps', players: ['a', 'b'], ...extra },
      () => reg.create({ game: 'rps', players: ['a', 'b'], ...extra }),
    ];
    let cases = 0;
    for (const n of [2 ** 53, 2 ** 53 + 2, 2 ** 64, -1, 1.5]) {
      for (const [request, f] of [
        create({ seed: n }),
        create({ now: n }),
        [{ op: 'act', match: 'x', player: 'a', action: { type: 'RANDOM' }, turnSeq: n }, () => m.act('a', { type: 'RANDOM' }, { turnSeq: n })],
        [{ op: 'act', match: 'x', player: 'a', action: { type: 'RANDOM' }, now: n }, () => m.act('a', { type: 'RANDOM' }, { now: n })],
        [{ op: 'tick', match: 'x', now: n }, () => m.tick(n)],
      ]) {
        const h = await host.ask(request);
        assert.equal(h.ok, false, JSON.stringify(request));
        same(h, local(f), JSON.stringify(request));
        cases++;
      }
    }
    assert.equal(cases, 25);
    // 2^53 - 1 itself is a count for both.
    const max = Number.MAX_SAFE_INTEGER;
    const [request, f] = create({ seed: max, now: max });
    assert.ok((await host.ask(request)).ok);
    assert.equal(f().status().clock, max - (2 ** 32 - 1) * 1000);
    assert.equal(m.status().turnSeq, 0, 'nothing was played');
  } finally {
    host.close();
  }
});
