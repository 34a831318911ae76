// `npm run bench [-- --games N] [-- --runs R]`: uniform-random 2-player Yut games through
// the package, in two loops that both pick uniformly among the legal actions in JS:
//
// - the object loop: each decision `status()`, `legal(player)`, then `act(player, action)`
//   with the action object picked;
// - the fast loop: each decision `legalCount(player)`, then `playLegal(player, index)`,
//   whose `status` gives the next player (its events are left unread);
// - the advance loop: `legalCount` once a game, then each decision `advance(index)`, whose
//   answer is the next decision's number of legal actions (one call a decision, no events
//   written).
//
// Then, in the same run, the engine's own `throughput` example on the same games, the same
// calls made in Rust without Node (`cargo run -p party-games-node --example erased`), and
// what the crossing into JavaScript costs per call: a call that does almost nothing, and
// each call of the fast loop (the package's time per call minus the same call's in Rust).
// Each figure is the best of R runs (3 by default): the machine may be shared.

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Registry } = require('../index.js');
const { rng } = require('../lib/helpers.js');

const here = fileURLToPath(new URL('..', import.meta.url));
const root = path.resolve(here, '../..');
const flag = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const GAMES = flag('--games', 20000);
const RUNS = flag('--runs', 3);

const reg = new Registry();
const newGame = (g) => reg.create({ game: 'yut', players: ['p1', 'p2'], seed: 1 + g });

/** The object loop over `n` games; returns the decisions. */
function objectLoop(n) {
  const pick = rng(1);
  let decisions = 0;
  for (let g = 0; g < n; g++) {
    const m = newGame(g);
    for (;;) {
      const status = m.status();
      if (status.over) break;
      const player = status.toAct[0];
      const legal = m.legal(player);
      m.act(player, legal[pick(legal.length)]);
      decisions++;
    }
  }
  return decisions;
}

const now = () => process.hrtime.bigint();

/**
 * The fast loop over `n` games; returns the decisions. With `spent`, each call is timed
 * into it (nanoseconds: `legalCount`, `playLegal`, and `empty`, a timed region with
 * nothing in it, the timer's own cost).
 */
function fastLoop(n, spent) {
  const pick = rng(1);
  let decisions = 0;
  for (let g = 0; g < n; g++) {
    const m = newGame(g);
    let status = m.status();
    while (!status.over) {
      const player = status.toAct[0];
      if (spent) {
        let t = now();
        const count = m.legalCount(player);
        spent.legalCount += now() - t;
        const i = pick(count);
        t = now();
        status = m.playLegal(player, i).status;
        spent.playLegal += now() - t;
        t = now();
        spent.empty += now() - t;
      } else {
        status = m.playLegal(player, pick(m.legalCount(player))).status;
      }
      decisions++;
    }
  }
  return decisions;
}

/** The advance loop over `n` games; returns the decisions. */
function advanceLoop(n) {
  const pick = rng(1);
  let decisions = 0;
  for (let g = 0; g < n; g++) {
    const m = newGame(g);
    for (let count = m.legalCount(m.status().toAct[0]); count > 0; decisions++) {
      count = m.advance(pick(count));
    }
  }
  return decisions;
}

const seconds = (t) => Number(now() - t) / 1e9;

/** One run of `loop` over `GAMES` games: games and decisions per second. */
function run(loop) {
  const t = now();
  const decisions = loop(GAMES);
  const s = seconds(t);
  return { gps: GAMES / s, dps: decisions / s, perGame: decisions / GAMES };
}

/** The faster of two figures (by games per second). */
const faster = (a, b) => (!a || b.gps > a.gps ? b : a);

/** Microseconds per call of `f`, over `n` calls (best of `RUNS`). */
function perCall(n, f) {
  let top = Infinity;
  for (let r = 0; r < RUNS; r++) {
    const t = now();
    for (let i = 0; i < n; i++) f();
    top = Math.min(top, (seconds(t) / n) * 1e6);
  }
  return top;
}

/** Microseconds per call of each call of the fast loop, timed call by call in `n` games. */
function fastCalls(n) {
  const spent = { legalCount: 0n, playLegal: 0n, empty: 0n };
  const decisions = fastLoop(n, spent);
  const us = (ns) => Number(ns - spent.empty) / 1e3 / decisions;
  return { legalCount: us(spent.legalCount), playLegal: us(spent.playLegal) };
}

const m = newGame(0);
const calls = {
  // A call that does almost nothing on either side: the outcome of a match not over (`null`).
  nothing: perCall(200000, () => m.outcome()),
  status: perCall(200000, () => m.status()),
  legal: perCall(200000, () => m.legal('p2')),
  legalCount: perCall(200000, () => m.legalCount('p2')),
  view: perCall(50000, () => m.view('p1')),
};
let inGames = { legalCount: Infinity, playLegal: Infinity };
for (let r = 0; r < RUNS; r++) {
  const c = fastCalls(Math.min(2000, GAMES));
  inGames = { legalCount: Math.min(inGames.legalCount, c.legalCount), playLegal: Math.min(inGames.playLegal, c.playLegal) };
}

/** The output of a cargo example: its `per call:` line (µs by name) and its last line's figures. */
function cargo(args) {
  const run = spawnSync('cargo', ['run', '--release', '--quiet', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`cargo run ${args.join(' ')} exited with ${run.status}`);
  const lines = run.stdout.trim().split('\n');
  const last = lines.at(-1);
  const per = {};
  for (const [, name, us] of (lines.find((l) => l.startsWith('per call:')) ?? '').matchAll(/(\w+) ([\d.]+) µs/g)) {
    per[name] = Number(us);
  }
  return {
    gps: Number(/games\/s: ([\d.]+)/.exec(last)[1]),
    dps: Number(/decisions\/s: ([\d.]+)/.exec(last)[1]),
    per,
  };
}

// Each run: the package's two loops, the engine's own figure (typed, no JSON, no record)
// and the package's two loops made in Rust without Node (the erased layer and the
// binding's calls, JSON text in and out), one after the other, so that a busy moment of
// the machine slows all of them alike; the best of the runs is kept for each.
objectLoop(Math.min(1000, GAMES)); // warm-up
fastLoop(Math.min(1000, GAMES));
advanceLoop(Math.min(1000, GAMES));
let object;
let fast;
let advance;
let native;
let erasedObject;
let erasedFast;
let erasedAdvance;
for (let r = 0; r < RUNS; r++) {
  object = faster(object, run(objectLoop));
  fast = faster(fast, run(fastLoop));
  advance = faster(advance, run(advanceLoop));
  native = faster(native, cargo(['--example', 'throughput', '--', '--games', String(GAMES), '--players', '2', '--seed', '1']));
  erasedObject = faster(erasedObject, cargo(['-p', 'party-games-node', '--example', 'erased', '--', String(GAMES), 'object']));
  erasedFast = faster(erasedFast, cargo(['-p', 'party-games-node', '--example', 'erased', '--', String(GAMES), 'fast']));
  erasedAdvance = faster(erasedAdvance, cargo(['-p', 'party-games-node', '--example', 'erased', '--', String(GAMES), 'advance']));
}
// What crossing into JS adds to each call of a loop: the package's time per decision minus
// the Rust one's, over the loop's calls per decision.
const crossing = (pkg, rust, callsPerDecision) => ((1 / pkg.dps - 1 / rust.dps) / callsPerDecision) * 1e6;

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const ratio = (x) => (x / native.gps).toFixed(3);
const us = (x) => x.toFixed(2);
const meets = (x) => (x / native.gps >= 0.1 ? 'meets' : 'falls below');
console.log(`games: ${GAMES} (2-player yut, uniform among legal actions), best of ${RUNS} runs, node ${process.version}`);
console.log(`native (throughput example): games/s: ${fmt(native.gps)} decisions/s: ${fmt(native.dps)}`);
console.log(
  `package, object loop (status, legal, act): games/s: ${fmt(object.gps)} decisions/s: ${fmt(object.dps)} decisions/game: ${object.perGame.toFixed(1)}`,
);
console.log(`package, fast loop (legalCount, playLegal): games/s: ${fmt(fast.gps)} decisions/s: ${fmt(fast.dps)}`);
console.log(`package, advance loop (advance): games/s: ${fmt(advance.gps)} decisions/s: ${fmt(advance.dps)}`);
console.log(`the object loop's calls in Rust, no Node: games/s: ${fmt(erasedObject.gps)} decisions/s: ${fmt(erasedObject.dps)}`);
console.log(`the fast loop's calls in Rust, no Node: games/s: ${fmt(erasedFast.gps)} decisions/s: ${fmt(erasedFast.dps)}`);
console.log(`the advance loop's calls in Rust, no Node: games/s: ${fmt(erasedAdvance.gps)} decisions/s: ${fmt(erasedAdvance.dps)}`);
console.log(
  `package / native: object loop ${ratio(object.gps)}, fast loop ${ratio(fast.gps)}, advance loop ${ratio(advance.gps)} (the aim, 0.1: the advance loop ${meets(advance.gps)} it)`,
);
console.log(
  `crossing into JS, per call: object loop ${us(crossing(object, erasedObject, 3))} µs, fast loop ${us(crossing(fast, erasedFast, 2))} µs, advance loop ${us(crossing(advance, erasedAdvance, 1))} µs (package minus Rust)`,
);
console.log(
  `fast loop call by call: legalCount ${us(inGames.legalCount)} µs (Rust ${us(erasedFast.per.legalCount)}), playLegal ${us(inGames.playLegal)} µs (Rust ${us(erasedFast.per.playLegal)})`,
);
console.log(
  `one position: a call returning null ${us(calls.nothing)} µs, status ${us(calls.status)} µs, legal ${us(calls.legal)} µs, legalCount ${us(calls.legalCount)} µs, view ${us(calls.view)} µs`,
);
