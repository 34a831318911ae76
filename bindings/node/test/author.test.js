'use strict';
// The author route (README, *Your own game in Node*): a game kept outside this package
// (`pig`, standing for an author's game) reaches a Node host through the author's own
// small addon crate (tests/author), which gives the binding its registry. Built with the
// package's `party-games-addon` command, it is played through the package's JavaScript
// layer, and its declarations type the author's game. (scripts/node-author-test takes the
// same route from an empty folder outside the repository, as the README writes it.) The
// build takes the workspace's lockfile but a target folder of its own (target/author-test):
// in the workspace's, a workspace build between two of the addon's once left the addon
// seeing two `Registry` types (E0308), and the package's own module must not be touched.

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after, before, test } = require('node:test');

const { rng, playOut } = require('../lib/helpers.js');

const pkg = path.resolve(__dirname, '..');
const root = path.resolve(pkg, '../..');
const crate = path.join(pkg, 'tests', 'author');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'party-games-author-'));
let author;

before(() => {
  // The workspace's versions (the copy is ignored by git: tests/author/.gitignore).
  const lock = path.join(crate, 'Cargo.lock');
  if (!fs.existsSync(lock)) fs.copyFileSync(path.join(root, 'Cargo.lock'), lock);
  const run = spawnSync(
    process.execPath,
    [path.join(pkg, 'bin', 'party-games-addon.mjs'), '--manifest-path', path.join(crate, 'Cargo.toml'), '--out', work],
    {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, CARGO_TARGET_DIR: path.join(root, 'target', 'author-test') },
    },
  );
  if (run.error) throw run.error;
  assert.equal(run.status, 0, run.stdout);
  author = require(path.join(work, 'index.js'));
});

test('the command refuses to write into the package itself', () => {
  const run = spawnSync(
    process.execPath,
    [path.join(pkg, 'bin', 'party-games-addon.mjs'), '--manifest-path', path.join(crate, 'Cargo.toml'), '--out', pkg],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 2);
  assert.match(run.stderr, /inside the package itself/);
  const none = spawnSync(process.execPath, [path.join(pkg, 'bin', 'party-games-addon.mjs')], { cwd: work, encoding: 'utf8' });
  assert.equal(none.status, 2);
});

after(() => fs.rmSync(work, { recursive: true, force: true }));

/** `f` throws the author's module's own `GameError` (a class of its copy of index.js) with `code`. */
function refused(f, code) {
  assert.throws(f, (e) => e instanceof author.GameError && e.code === code, code);
}

test("the author's registry: their game beside the built-in ones", () => {
  const reg = new author.Registry();
  assert.deepEqual(reg.games(), ['one-card', 'pig', 'rps', 'yut', 'yut-augments']);
  assert.equal(reg.schemas('pig').action.title, 'PigAction');
  // The package's own module is untouched: the built-in games only.
  const { Registry } = require('..');
  assert.deepEqual(new Registry().games(), ['one-card', 'rps', 'yut', 'yut-augments']);
});

test("the author's game plays to its end, replays and restores", () => {
  const reg = new author.Registry();
  const m = reg.create({ game: 'pig', players: ['a', 'b'], seed: 5 });
  const steps = playOut(m, rng(5));
  assert.ok(steps > 10, `${steps} actions`);
  assert.equal(m.status().over, true);
  assert.notEqual(m.outcome(), null);
  assert.deepEqual(reg.load(m.record()).outcome(), m.outcome());
  assert.equal(reg.restore('pig', m.stateJson()).stateJson(), m.stateJson());
  refused(() => m.act('a', { type: 'ROLL' }), 'GAME_OVER');
  refused(() => reg.create({ game: 'pig', players: ['a'] }), 'BAD_PLAYER_COUNT');
});

test("the declarations type the author's game", () => {
  const text = `
import { Registry } from "./index.js";
import type { Match, PigAction } from "./index.js";
const reg = new Registry();
const m: Match<"pig"> = reg.create({ game: "pig", players: ["a", "b"], seed: 1 });
const legal: PigAction[] = m.legal("a");
const shown: PigAction[] = m.view("a").legalActions;
const played = reg.bot("pig", "random", 1).play(m, "a");
// @ts-expect-error a bot kind the author's game does not offer
reg.bot("pig", "policy");
m.act("a", { type: "ROLL" });
// @ts-expect-error a typo in the author's action
m.act("a", { type: "ROL" });
// @ts-expect-error a Yut action on the author's game
m.act("a", { type: "THROW" });
`;
  fs.writeFileSync(path.join(work, 'author.ts'), text);
  const tsc = path.join(pkg, 'node_modules', '.bin', 'tsc');
  const run = spawnSync(
    tsc,
    ['--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', 'author.ts'],
    { cwd: work, encoding: 'utf8' },
  );
  if (run.error) throw run.error;
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
});
