#!/usr/bin/env node
// `npx party-games-addon [--manifest-path Cargo.toml] --out DIR`: builds a game author's
// addon crate (README, *Your own game in Node*) and writes DIR/index.node (the addon),
// DIR/index.js and DIR/lib/platform.js (the package's JavaScript layer) and
// DIR/index.d.ts (typed by the addon's registry: the author's games and bot kinds).
//
// Cargo runs in the crate's folder with its own target folder (or `CARGO_TARGET_DIR` if
// the author set one) and lockfile; nothing is written into this package, whose own
// module stays the prebuilt one. Generating index.d.ts needs json-schema-to-typescript
// installed beside the package (its optional peer dependency).

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cargoBuild } from '../lib/cargo.mjs';
import { declarations } from '../lib/declarations.mjs';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const usage = 'usage: party-games-addon [--manifest-path PATH/Cargo.toml] --out DIR';

/** `--name value` from the command line, or undefined. */
function flag(name) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) fail(`--${name} needs a value\n${usage}`);
  return value;
}

function fail(message) {
  console.error(`party-games-addon: ${message}`);
  process.exit(2);
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
const manifest = path.resolve(flag('manifest-path') ?? 'Cargo.toml');
if (!fs.existsSync(manifest)) fail(`no ${manifest}\n${usage}`);
const outFlag = flag('out');
if (outFlag === undefined) fail(`--out is required\n${usage}`);
const out = path.resolve(outFlag);
const inside = path.relative(pkg, out);
if (inside === '' || !(inside.startsWith('..') || path.isAbsolute(inside))) {
  fail(`--out ${out} is inside the package itself: give a folder of your own`);
}

const crate = path.dirname(manifest);
const library = cargoBuild(['--manifest-path', manifest], crate, (_, msg) => msg.manifest_path === manifest);
fs.mkdirSync(path.join(out, 'lib'), { recursive: true });
const target = path.join(out, 'index.node');
fs.copyFileSync(library, target);
fs.copyFileSync(path.join(pkg, 'index.js'), path.join(out, 'index.js'));
fs.copyFileSync(path.join(pkg, 'lib', 'platform.js'), path.join(out, 'lib', 'platform.js'));
const { NativeRegistry } = createRequire(import.meta.url)(target);
fs.writeFileSync(path.join(out, 'index.d.ts'), await declarations(new NativeRegistry()));
console.log(`built ${target}, index.js and index.d.ts in ${out}`);
