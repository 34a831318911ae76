// `npm run bench [-- --games N]`: uniform-random 2-player Yut games through the package
// (each decision: `status`, `legal`, then `act` with an action picked uniformly among the
// legal ones), then the engine's own `throughput` example on the same number of games
// in the same run, and what one call into the native module costs.

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Registry } = require('../index.js');
const { rng } = require('../lib/helpers.js');

const here = fileURLToPath(new URL('..', import.meta.url));
const root = path.resolve(here, '../..');
const arg = process.argv.indexOf('--games');
const GAMES = arg > 0 ? Number(process.argv[arg + 1]) : 20000;

const reg = new Registry();

/** Plays `n` games; returns the decisions and the calls made. */
function play(n) {
  const pick = rng(1);
  let decisions = 0;
  let calls = 0;
  for (let g = 0; g < n; g++) {
    const m = reg.create({ game: 'yut', players: ['p1', 'p2'], seed: 1 + g });
    calls++;
    for (;;) {
      const status = m.status();
      calls++;
      if (status.over) break;
      const player = status.toAct[0];
      const legal = m.legal(player);
      const action = legal[pick(legal.length)];
      m.act(player, action);
      calls += 2;
      decisions++;
    }
  }
  return { decisions, calls };
}

/** Seconds per call of `f`, over `n` calls. */
function perCall(n, f) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  return Number(process.hrtime.bigint() - t) / 1e9 / n;
}

play(Math.min(1000, GAMES)); // warm-up
const start = process.hrtime.bigint();
const { decisions, calls } = play(GAMES);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const pkg = { gps: GAMES / seconds, dps: decisions / seconds, perCallUs: (seconds / calls) * 1e6 };

// The cost of the crossing alone: a call that does almost nothing on either side
// (`outcome()`: `null`), and the three calls of a decision on one position.
const m = reg.create({ game: 'yut', players: ['p1', 'p2'], seed: 1 });
const us = (s) => (s * 1e6).toFixed(2);
const crossing = {
  outcome: perCall(200000, () => m.outcome()),
  status: perCall(200000, () => m.status()),
  legal: perCall(200000, () => m.legal('p2')),
  view: perCall(50000, () => m.view('p1')),
};

/** The last line of a cargo example's output. */
function cargo(args) {
  const run = spawnSync('cargo', ['run', '--release', '--quiet', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`cargo run ${args.join(' ')} exited with ${run.status}`);
  const line = run.stdout.trim().split('\n').at(-1);
  return {
    gps: Number(/games\/s: ([\d.]+)/.exec(line)[1]),
    dps: Number(/decisions\/s: ([\d.]+)/.exec(line)[1]),
  };
}

// The engine's own figure (typed, no JSON), and the same calls as the package's in Rust
// (the erased JSON layer, without Node).
const native = cargo(['--example', 'throughput', '--', '--games', String(GAMES), '--players', '2', '--seed', '1']);
const erased = cargo(['-p', 'party-games-node', '--example', 'erased', '--', String(GAMES)]);
const nativeGps = native.gps;
const nativeDps = native.dps;
// What crossing into JS adds to each call: the package's time per call minus the erased
// layer's own.
const crossingUs = ((1 / pkg.dps - 1 / erased.dps) / (calls / decisions)) * 1e6;

const fmt = (x) => Math.round(x).toLocaleString('en-US');
console.log(`games: ${GAMES} (2-player yut, uniform among legal actions), node ${process.version}`);
console.log(`package: games/s: ${fmt(pkg.gps)} decisions/s: ${fmt(pkg.dps)} decisions/game: ${(decisions / GAMES).toFixed(1)}`);
console.log(`native (throughput example): games/s: ${fmt(nativeGps)} decisions/s: ${fmt(nativeDps)}`);
console.log(`erased JSON layer in Rust (the package's calls, no Node): games/s: ${fmt(erased.gps)} decisions/s: ${fmt(erased.dps)}`);
console.log(`package / native: ${(pkg.gps / nativeGps).toFixed(3)}, package / erased: ${(pkg.gps / erased.gps).toFixed(3)}`);
console.log(`crossing into JS: ${crossingUs.toFixed(2)} µs a call (package minus erased layer)`);
console.log(`per call in the games: ${pkg.perCallUs.toFixed(2)} µs (${(calls / decisions).toFixed(1)} calls a decision)`);
console.log(
  `per call on one position: outcome ${us(crossing.outcome)} µs, status ${us(crossing.status)} µs, legal ${us(crossing.legal)} µs, view ${us(crossing.view)} µs`,
);
