// Real wire data of every registered game, from the engine's own examples: the JSON
// host's trace mode (seeded bot games: options, actions, events, views, refused actions'
// errors) and a session with the JSON host (rps, spectator views, legal action lists).

import { spawn, spawnSync } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repo = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs `cargo run --release --example NAME -- ARGS` at the root; returns its stdout. */
export function example(name, args) {
  const run = spawnSync('cargo', ['run', '--release', '--quiet', '--example', name, '--', ...args], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`example ${name} ${args.join(' ')} exited with ${run.status}`);
  return run.stdout;
}

/** Distinct values per game and wire type. */
export class Samples {
  #values = new Map();

  add(game, type, value) {
    const key = `${game}/${type}`;
    if (!this.#values.has(key)) this.#values.set(key, new Map());
    this.#values.get(key).set(JSON.stringify(value), value);
  }

  /** At most `cap` of the values of `game`'s `type`, spread evenly over all of them. */
  get(game, type, cap = Infinity) {
    const all = [...(this.#values.get(`${game}/${type}`) ?? new Map()).values()];
    if (all.length <= cap) return all;
    return Array.from({ length: cap }, (_, i) => all[Math.floor((i * all.length) / cap)]);
  }

  /** The first value of `game`'s `type` that `pick` accepts; throws when there is none. */
  find(game, type, pick) {
    const found = this.get(game, type).find(pick);
    if (found === undefined) throw new Error(`no ${game} ${type} of the kind the test needs`);
    return structuredClone(found);
  }
}

/** Trace runs: both yut games, 2 to 4 players, team play, the draft, timeouts, refusals; One Card. */
export const TRACES = [
  ['--games', '2', '--seed', '1', '--illegal', '5', '--timeouts', '5'],
  ['--games', '1', '--seed', '7', '--players', '3', '--options', '{"pieces":2,"nakPercent":10,"turnSeconds":null,"ranking":"all"}'],
  ['--games', '1', '--seed', '11', '--players', '4', '--mode', 'team', '--illegal', '5'],
  ['--games', '2', '--seed', '21', '--preset', 'app', '--illegal', '5', '--timeouts', '5'],
  ['--games', '1', '--seed', '31', '--game', 'yut-augments', '--players', '4', '--mode', 'team'],
  ['--games', '3', '--seed', '41', '--game', 'one-card', '--players', '4', '--illegal', '10', '--timeouts', '10'],
];

/** Adds the lines of one trace to `samples`. */
export function addTrace(samples, text) {
  let game;
  for (const line of text.split('\n').filter(Boolean)) {
    const entry = JSON.parse(line);
    if (entry.setup) {
      game = entry.setup.game;
      samples.add(game, 'options', entry.setup.options);
      continue;
    }
    samples.add(game, 'action', entry.action);
    for (const e of entry.events ?? []) samples.add(game, 'event', e);
    if (entry.error) samples.add(game, 'error', entry.error);
    samples.add(game, entry.view.result ? 'finalView' : 'view', entry.view);
    if (entry.view.result) samples.add(game, 'outcome', entry.view.result);
  }
}

/** Host sessions: every game, with the views of every seat and of a spectator. */
export const SESSIONS = [
  { game: 'rps', options: { winsNeeded: 2 }, players: 2, seed: 5 },
  { game: 'rps', options: { winsNeeded: 1, turnSeconds: null }, players: 2, seed: 6 },
  { game: 'yut', options: { mode: 'team', nakPercent: 5 }, players: 4, seed: 8 },
  { game: 'yut-augments', options: { augments: ['first-step', 'second-look', 'do-echo'] }, players: 3, seed: 9 },
  { game: 'one-card', options: { handSize: 5, ranking: 'all' }, players: 3, seed: 10 },
];

/** A small seeded generator (mulberry32), so that sessions are the same every run. */
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

/** Plays the `SESSIONS` through one JSON host process, adding what it sends to `samples`. */
export async function addSessions(samples) {
  const host = spawn('cargo', ['run', '--release', '--quiet', '--example', 'host'], {
    cwd: repo,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const replies = readline.createInterface({ input: host.stdout })[Symbol.asyncIterator]();
  const ask = async (request) => {
    host.stdin.write(`${JSON.stringify(request)}\n`);
    const { value, done } = await replies.next();
    if (done) throw new Error(`the host stopped before answering ${JSON.stringify(request)}`);
    return JSON.parse(value);
  };
  const ok = (reply) => {
    if (!reply.ok) throw new Error(`host refused: ${JSON.stringify(reply)}`);
    return reply;
  };
  try {
    for (const [i, s] of SESSIONS.entries()) {
      const match = `s${i}`;
      const players = Array.from({ length: s.players }, (_, k) => `p${k + 1}`);
      const pick = rng(s.seed);
      samples.add(s.game, 'options', s.options);
      let status = ok(await ask({ op: 'create', game: s.game, players, options: s.options, seed: s.seed, match }));
      for (let step = 0; !status.over && step < 2000; step++) {
        for (const player of [...players, undefined]) {
          const { view } = ok(await ask({ op: 'view', match, player }));
          samples.add(s.game, 'view', view);
        }
        const player = status.toAct[pick(status.toAct.length)];
        const { actions } = ok(await ask({ op: 'legal', match, player }));
        actions.forEach((a) => samples.add(s.game, 'action', a));
        const idle = players.find((p) => !status.toAct.includes(p));
        const playable = actions.filter((a) => a.type !== 'CONCEDE');
        if (idle && playable.length > 0 && pick(8) === 0) {
          const refused = await ask({ op: 'act', match, player: idle, action: playable[0] });
          if (refused.ok) throw new Error(`${idle} acted out of turn: ${JSON.stringify(refused)}`);
          samples.add(s.game, 'error', refused.error);
        }
        const action = playable.length > 0 ? playable[pick(playable.length)] : actions[0];
        status = ok(await ask({ op: 'act', match, player, action }));
        status.events.forEach((e) => samples.add(s.game, 'event', e));
      }
      const { outcome } = ok(await ask({ op: 'outcome', match }));
      if (outcome === null) throw new Error(`session ${match} (${s.game}) did not end`);
      samples.add(s.game, 'outcome', outcome);
      const { view } = ok(await ask({ op: 'view', match }));
      samples.add(s.game, 'finalView', view);
    }
  } finally {
    host.stdin.end();
  }
}
