'use strict';
// 1,000 random games through the package (every other one by `advance`) without a leak:
// the JS heap and the process's RSS (which holds the native matches) measured after a
// warm-up and after the games, both after a full garbage collection.

const assert = require('node:assert/strict');
const { test } = require('node:test');
const v8 = require('node:v8');
const vm = require('node:vm');

const { Registry, GameError } = require('..');
const { rng, playOut } = require('../lib/helpers.js');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function games(reg, n, seed) {
  const pick = rng(seed);
  for (let i = 0; i < n; i++) {
    const game = ['yut', 'yut-augments', 'rps', 'one-card'][i % 4];
    const m = reg.create({ game, players: ['a', 'b'], seed: seed + i });
    if (i % 2) {
      // Every other game by `advance`: its record is written only when asked for below.
      for (let n = m.legalCount(m.status().toAct[0]); n > 0; ) n = m.advance(pick(n));
    } else {
      playOut(m, pick);
    }
    // The paths that allocate on the way out: errors, records, states, views.
    try {
      m.act('a', { type: 'THROW' });
    } catch (e) {
      assert.ok(e instanceof GameError);
    }
    reg.load(m.record());
    reg.restore(game, m.stateJson());
    m.view();
  }
}

async function settle() {
  // The native matches are freed by finalizers that Node runs after the collection, on
  // a later turn of the event loop: a few rounds with pauses let them all run.
  for (let i = 0; i < 6; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage();
}

test('1,000 random games without a leak', async () => {
  const reg = new Registry();
  // The warm-up is as long as the measured run: V8 does not see the native memory its
  // small wrappers hold, so the peak of matches awaiting collection (and the allocator's
  // high-water mark) is reached in the warm-up; a leak grows past it.
  games(reg, 1000, 1);
  const before = await settle();
  games(reg, 1000, 5000);
  const after = await settle();
  const mib = (b) => (b / 2 ** 20).toFixed(1);
  const heap = after.heapUsed - before.heapUsed;
  const rss = after.rss - before.rss;
  console.log(
    `heap ${mib(before.heapUsed)} → ${mib(after.heapUsed)} MiB, rss ${mib(before.rss)} → ${mib(after.rss)} MiB`,
  );
  // A leaked match (a state and its record: tens of KiB each) over 1,000 games would show
  // as tens of MiB.
  assert.ok(heap < 4 * 2 ** 20, `the heap grew ${mib(heap)} MiB`);
  assert.ok(rss < 16 * 2 ** 20, `the RSS grew ${mib(rss)} MiB`);
});
