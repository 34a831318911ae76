// The engine's JSON Schemas generate TypeScript that fits the wire exactly: TypeScript
// generated with json-schema-to-typescript (default settings) from the `schema` example's
// files accepts real options, actions, events, views, outcomes and errors of every game
// under `tsc --strict`, narrows unions by `type`, and refuses typos. Each typo has a
// corrected twin among the accepted values, so a typo cannot fail for another reason.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { compileFromFile } from 'json-schema-to-typescript';

import { Samples, TRACES, addSessions, addTrace, example } from '../lib/wire.mjs';

const GAMES = ['yut', 'yut-augments', 'rps', 'one-card'];
const TYPES = ['options', 'action', 'view', 'event', 'outcome', 'error'];
/** How many values of each type go into the compiled files (views are large). */
const CAPS = { options: 50, action: 300, view: 120, event: 400, outcome: 20, error: 60 };

const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'party-games-ts-'));
const samples = new Samples();
/** The generated type name of each game's type, read from its schema's title. */
const titles = {};
/** The name each test file imports it under, so that a title regression fails only the title test. */
const names = Object.fromEntries(
  GAMES.map((game) => [game, Object.fromEntries(TYPES.map((type) => [type, `${pascal(game)}_${type}`]))]),
);

/** \`yut-augments\` → \`YutAugments\`. */
function pascal(id) {
  return id
    .split(/[-_]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

before(async () => {
  const schemas = path.join(work, 'schemas');
  example('schema', [schemas]);
  for (const game of GAMES) {
    titles[game] = {};
    fs.mkdirSync(path.join(work, game));
    for (const type of TYPES) {
      const file = path.join(schemas, game, `${type}.json`);
      titles[game][type] = JSON.parse(fs.readFileSync(file, 'utf8')).title;
      fs.writeFileSync(path.join(work, game, `${type}.d.ts`), await compileFromFile(file));
    }
  }
  for (const args of TRACES) addTrace(samples, example('host', ['--trace', ...args]));
  await addSessions(samples);
});

after(() => fs.rmSync(work, { recursive: true, force: true }));

/** The import lines of every generated type of every game. */
function imports() {
  return GAMES.flatMap((game) =>
    TYPES.map((type) => `import type { ${titles[game][type]} as ${names[game][type]} } from './${game}/${type}';`),
  ).join('\n');
}

/** Runs `tsc --strict --noEmit` on `files` (in the work directory); returns its result. */
function compile(files) {
  const run = spawnSync(
    tsc,
    ['--strict', '--noEmit', '--target', 'es2022', '--module', 'preserve', '--moduleResolution', 'bundler', ...files],
    { cwd: work, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Writes `name` in the work directory. */
function write(name, text) {
  fs.writeFileSync(path.join(work, name), `${text}\n`);
  return name;
}

/** A typed constant holding `value` as a literal (JSON is a TypeScript expression). */
function constant(name, type, value) {
  return `export const ${name}: ${type} = ${JSON.stringify(value)};`;
}

/**
 * The typos, each `[game, type, what, correct, typo]`: the correct value compiles, the
 * typo must not. Values come from real data where a whole object is needed.
 */
function typos() {
  const view = (game) => samples.get(game, 'view')[0];
  const without = (value, field) => {
    const v = structuredClone(value);
    assert.ok(field in v, `no ${field} to drop`);
    delete v[field];
    return v;
  };
  const renamed = (value, from, to) => {
    const { [from]: kept, ...rest } = value;
    return { ...rest, [to]: kept };
  };
  const error = (game) => samples.get(game, 'error')[0];
  const moved = samples.find('yut', 'event', (e) => e.type === 'moved');
  const captured = samples.find('yut', 'event', (e) => e.type === 'captured');
  const fired = samples.find('yut-augments', 'event', (e) => e.type === 'augmentFired');
  const revealed = samples.find('rps', 'event', (e) => e.type === 'revealed');
  const move = { type: 'MOVE', throwIndex: 0, from: 'home' };
  return [
    ['yut', 'action', 'type THORW', { type: 'THROW' }, { type: 'THORW' }],
    ['yut', 'action', 'field form for from', move, renamed(move, 'from', 'form')],
    ['yut', 'action', 'extra field on THROW', { type: 'THROW' }, { type: 'THROW', force: 'mo' }],
    ['yut', 'action', 'throwIndex as a string', move, { ...move, throwIndex: '0' }],
    ['yut', 'event', 'type movd', moved, { ...moved, type: 'movd' }],
    ['yut', 'event', 'victim for victimSide', captured, renamed(captured, 'victimSide', 'victim')],
    ['yut', 'options', 'nakPercent 7', { nakPercent: 10 }, { nakPercent: 7 }],
    ['yut', 'options', 'pieces 9', { pieces: 5 }, { pieces: 9 }],
    ['yut', 'options', 'turnSeconds 45', { turnSeconds: 60 }, { turnSeconds: 45 }],
    ['yut', 'options', 'mode teams', { mode: 'team' }, { mode: 'teams' }],
    ['yut', 'options', 'unknown option', { pieces: 3 }, { piece: 3 }],
    ['yut', 'view', 'view without lastThrow', view('yut'), without(view('yut'), 'lastThrow')],
    ['yut', 'view', 'view without turn', view('yut'), without(view('yut'), 'turn')],
    ['yut', 'view', 'view with an unknown field', view('yut'), { ...view('yut'), extra: 1 }],
    ['yut', 'error', 'error without message', error('yut'), without(error('yut'), 'message')],
    ['yut-augments', 'action', 'CHOOSE_AUGMENT with idx', { type: 'CHOOSE_AUGMENT', index: 0 }, { type: 'CHOOSE_AUGMENT', idx: 0 }],
    ['yut-augments', 'action', 'type THORW', { type: 'THROW' }, { type: 'THORW' }],
    ['yut-augments', 'event', 'effect extraStep', fired, { ...fired, effect: 'extraStep' }],
    ['yut-augments', 'options', 'augment wings', { augments: ['first-step'] }, { augments: ['wings'] }],
    ['yut-augments', 'options', 'nakPercent 7', { nakPercent: 3, truce: false }, { nakPercent: 7, truce: false }],
    ['yut-augments', 'view', 'view without draft', view('yut-augments'), without(view('yut-augments'), 'draft')],
    ['rps', 'action', 'hand rok', { type: 'PICK', hand: 'rock' }, { type: 'PICK', hand: 'rok' }],
    ['rps', 'action', 'extra field on RANDOM', { type: 'RANDOM' }, { type: 'RANDOM', hand: 'rock' }],
    ['rps', 'event', 'type reveal', revealed, { ...revealed, type: 'reveal' }],
    ['rps', 'options', 'winsNeeded 10', { winsNeeded: 9 }, { winsNeeded: 10 }],
    ['rps', 'view', 'view without lastRound', view('rps'), without(view('rps'), 'lastRound')],
  ];
}

/** Code that compiles only if each union narrows by its tag and is closed. */
function narrowing() {
  const n = (game) => names[game];
  return `
export function yutMove(a: ${n('yut').action}): number {
  if (a.type === "MOVE") {
    const index: number = a.throwIndex;
    return index;
  }
  return -1;
}
export function yutActions(a: ${n('yut').action}): string {
  switch (a.type) {
    case "THROW":
    case "CONCEDE":
      return a.type;
    case "MOVE":
      return String(a.from);
    default: {
      const none: never = a;
      return none;
    }
  }
}
export function yutCapture(e: ${n('yut').event}): number {
  if (e.type === "captured") {
    const victim: number = e.victimSide;
    return victim;
  }
  return -1;
}
export function yutView(v: ${n('yut').view}): number | null {
  const seat: number | null = v.turn === null ? null : v.turn.seat;
  const nak: boolean = v.lastThrow !== null && v.lastThrow.result === "nak";
  return nak ? null : seat;
}
export function augmentsActions(a: ${n('yut-augments').action}): number {
  switch (a.type) {
    case "CHOOSE_AUGMENT": {
      const index: number = a.index;
      return index;
    }
    case "THROW":
    case "MOVE":
    case "CONCEDE":
      return -1;
    default: {
      const none: never = a;
      return none;
    }
  }
}
export function augmentsSteps(e: ${n('yut-augments').event}): number {
  if (e.type === "augmentFired" && e.effect === "extraSteps") {
    const steps: number = e.steps;
    return steps;
  }
  if (e.type === "moved") {
    const count: number = e.count;
    return count;
  }
  return 0;
}
export function augmentsDraft(v: ${n('yut-augments').view}): number {
  return v.draft === null ? 0 : v.draft.candidates.length;
}
export function rpsPick(a: ${n('rps').action}): "rock" | "paper" | "scissors" | null {
  switch (a.type) {
    case "PICK":
      return a.hand;
    case "RANDOM":
    case "CONCEDE":
      return null;
    default: {
      const none: never = a;
      return none;
    }
  }
}
export const yutPieces: Array<NonNullable<${n('yut').options}["pieces"]>> = [2, 3, 4, 5];
export const yutNak: Array<NonNullable<${n('yut').options}["nakPercent"]>> = [0, 3, 5, 10];
export const yutSeconds: Array<${n('yut').options}["turnSeconds"]> = [15, 30, 60, null, undefined];
`;
}

test('every root type is named after its game and type', () => {
  for (const game of GAMES) {
    for (const type of TYPES) {
      const expected = `${pascal(game)}${pascal(type)}`;
      assert.equal(titles[game][type], expected);
      const declared = fs.readFileSync(path.join(work, game, `${type}.d.ts`), 'utf8');
      assert.match(declared, new RegExp(`^export (type|interface) ${expected}\\b`, 'm'));
      // One declaration per type: a definition copied under a numbered name (`Nodes1`)
      // means the schema confuses the generator.
      const copies = [...declared.matchAll(/^export (?:type|interface) ([A-Za-z]+)\d+\b/gm)].map((m) => m[1]);
      assert.deepEqual(copies, [], `${game} ${type}`);
    }
  }
});

test('real wire data of every game compiles against the generated types', () => {
  const files = [];
  let count = 0;
  for (const game of GAMES) {
    const lines = [imports()];
    for (const type of TYPES) {
      let values = samples.get(game, type, CAPS[type]);
      if (type === 'view') values = [...samples.get(game, 'finalView', 4), ...values];
      assert.ok(values.length > 0, `no ${game} ${type} values`);
      count += values.length;
      lines.push(`export const ${type}s: ${names[game][type]}[] = [\n${values.map((v) => JSON.stringify(v)).join(',\n')}\n];`);
    }
    files.push(write(`${game}-data.ts`, lines.join('\n')));
  }
  const controls = typos().map(([game, type, , good], i) => constant(`control${i}`, names[game][type], good));
  files.push(write('controls.ts', [imports(), ...controls].join('\n')));
  files.push(write('narrowing.ts', [imports(), narrowing()].join('\n')));
  const { status, output } = compile(files);
  assert.equal(status, 0, `tsc refused real data (${count} values):\n${output.slice(0, 4000)}`);
  // The drafts and team games did make it into the data.
  assert.ok(samples.get('yut-augments', 'view').some((v) => v.draft !== null), 'no view with a draft');
  assert.ok(samples.get('yut', 'view').some((v) => v.players.length === 4), 'no 4-player yut view');
  assert.ok(samples.get('yut-augments', 'action').some((a) => a.type === 'CHOOSE_AUGMENT'), 'no draft action');
});

test('typos do not compile, each on its own', () => {
  const list = typos();
  // `@ts-expect-error` fails the compilation when the next line compiles: one run checks
  // every typo separately, and tsc names the line of each one that got through.
  const lines = [imports()];
  const lineOf = new Map();
  list.forEach(([game, type, what, , bad], i) => {
    lines.push(`// @ts-expect-error ${game} ${type}: ${what}`);
    lines.push(constant(`typo${i}`, names[game][type], bad));
    lineOf.set(imports().split('\n').length + 2 * i + 1, `${game} ${type}: ${what}`);
  });
  const file = write('typos.ts', lines.join('\n'));
  const { status, output } = compile([file]);
  const passed = [...output.matchAll(/typos\.ts\((\d+),\d+\): error TS2578/g)].map((m) => lineOf.get(Number(m[1])));
  assert.deepEqual(passed, [], `typos that compiled:\n${passed.join('\n')}`);
  assert.equal(status, 0, `tsc failed on the typos file for another reason:\n${output.slice(0, 4000)}`);
});

test("the host protocol's requests and replies generate types that refuse typos", async () => {
  const schemas = path.join(work, 'schemas', 'host');
  fs.mkdirSync(path.join(work, 'host'), { recursive: true });
  const types = { request: 'HostRequest', 'reply-act': 'ActReply', 'reply-error': 'ErrorReply', status: 'Status' };
  for (const [file, title] of Object.entries(types)) {
    const schema = path.join(schemas, `${file}.json`);
    assert.equal(JSON.parse(fs.readFileSync(schema, 'utf8')).title, title, file);
    fs.writeFileSync(path.join(work, 'host', `${file}.d.ts`), await compileFromFile(schema));
  }
  const head = [
    "import type { HostRequest } from './host/request';",
    "import type { ActReply } from './host/reply-act';",
    "import type { ErrorReply } from './host/reply-error';",
  ].join('\n');
  const good = [
    { op: 'act', id: 7, match: 'm1', player: 'a', action: { type: 'THROW' }, turnSeq: 3, now: 1000 },
    { op: 'create', game: 'yut', players: ['a', 'b'], options: { pieces: 3 } },
    { op: 'restore', game: 'yut', state: '{}' },
    { op: 'tick', match: 'm1', now: 5 },
  ];
  const bad = [
    ['turnseq', { op: 'act', match: 'm1', player: 'a', action: {}, turnseq: 3 }],
    ['turnSeq null', { op: 'act', match: 'm1', player: 'a', action: {}, turnSeq: null }],
    ['tick without now', { op: 'tick', match: 'm1' }],
    ['op jump', { op: 'jump' }],
    ['connected as a string', { op: 'presence', match: 'm1', player: 'a', connected: 'yes' }],
  ];
  const lines = [head, ...good.map((r, i) => constant(`ok${i}`, 'HostRequest', r))];
  lines.push(`export function narrow(r: HostRequest, a: ActReply, e: ErrorReply): number {
  if (r.op === 'act') { const p: string = r.player; void p; }
  const t: number | null = a.nextTickAt;
  const code: string = e.error.code;
  void code;
  return (t ?? 0) + a.turnSeq + a.applied.length;
}`);
  const offset = lines.join('\n').split('\n').length;
  bad.forEach(([what, r], i) => {
    lines.push(`// @ts-expect-error ${what}`);
    lines.push(constant(`bad${i}`, 'HostRequest', r));
  });
  const file = write('host-requests.ts', lines.join('\n'));
  const { status, output } = compile([file]);
  const passed = [...output.matchAll(/host-requests\.ts\((\d+),\d+\): error TS2578/g)].map(
    (m) => bad[(Number(m[1]) - offset - 1) / 2]?.[0] ?? m[1],
  );
  assert.deepEqual(passed, [], `host request typos that compiled:\n${passed.join('\n')}`);
  assert.equal(status, 0, `tsc refused the host protocol's types:\n${output.slice(0, 4000)}`);
});
