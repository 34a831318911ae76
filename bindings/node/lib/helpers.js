'use strict';
// Shared by the tests and the benchmark: a seeded generator and a random play-out.

/** A small seeded generator (mulberry32): `pick(n)` is uniform in 0..n. */
function rng(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/**
 * Plays `m` to its end: each step a player to act, an action uniform among their legal
 * ones (never CONCEDE). `onStep(m, player, action, events)` sees every step. Returns
 * the number of actions.
 */
function playOut(m, pick, onStep, maxSteps = 20000, partial = false) {
  for (let step = 0; step < maxSteps; step++) {
    const status = m.status();
    if (status.over) return step;
    const player = status.toAct[pick(status.toAct.length)];
    const legal = m.legal(player).filter((a) => a.type !== 'CONCEDE');
    const action = legal[pick(legal.length)];
    const events = m.act(player, action);
    if (onStep) onStep(m, player, action, events);
  }
  if (partial) return maxSteps;
  throw new Error(`no end after ${maxSteps} actions`);
}

module.exports = { rng, playOut };
