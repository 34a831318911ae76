'use strict';
// Shared by the tests and the benchmark: a seeded generator, a random play-out, the
// tests' check of a refusal, and the setups and choices of the tests of the calls by index.

const assert = require('node:assert/strict');

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

/**
 * Runs `f`, which must throw the package's `GameError` with `code`, a Korean message, an object `reason` and an `applied` array; returns it.
 */
function refused(f, code) {
  const { GameError } = require('../index.js');
  let thrown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof GameError, `expected a GameError ${code}, got ${thrown}`);
  assert.ok(thrown instanceof Error);
  assert.equal(thrown.name, 'GameError');
  assert.equal(thrown.code, code, JSON.stringify({ message: thrown.message, reason: thrown.reason }));
  assert.equal(typeof thrown.message, 'string');
  assert.match(thrown.message, /[가-힣]/, 'the message is the Korean text');
  assert.equal(typeof thrown.reason, 'object');
  assert.ok(Array.isArray(thrown.applied));
  return thrown;
}

/** Player ids `p1` .. `pn`. */
const players = (n) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

/** A match of every built-in game, in setups that reach each part of its rules. */
const SETUPS = [
  { game: 'yut', players: players(2), seed: 1 },
  { game: 'yut', players: players(4), seed: 2, options: { mode: 'team' } },
  { game: 'yut-augments', players: players(3), seed: 3 },
  { game: 'rps', players: players(2), seed: 4, options: { winsNeeded: 2 } },
];

/** The index of a legal action that does not concede (conceding ends a game at once). */
function pickIndex(legal, pick) {
  const playable = legal.map((a, i) => [a, i]).filter(([a]) => a.type !== 'CONCEDE');
  return playable.length ? playable[pick(playable.length)][1] : legal.length - 1;
}

module.exports = { rng, playOut, refused, players, SETUPS, pickIndex };
