// `npm run build`: builds the package's own native module with cargo (release, stripped:
// see the workspace's Cargo.toml), copies it to index.node and to
// native/party-games.PLATFORM.node (the file the package ships; index.js loads it first),
// then generates index.d.ts from the games' JSON Schemas, read from the module just
// built (lib/declarations.mjs). Nothing is downloaded: cargo builds from the workspace,
// the compiler packages come from the lockfile. A game author's addon is built by the
// package's `party-games-addon` command instead (bin/party-games-addon.mjs).

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cargoBuild } from '../lib/cargo.mjs';
import { declarations } from '../lib/declarations.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const root = path.resolve(here, '../..');

const library = cargoBuild(['-p', 'party-games-node'], root, (target) => target.name === 'party_games_node');
const local = path.join(here, 'index.node');
fs.copyFileSync(library, local);
// The file the package ships for this platform (package.json `files`: `native/`), under
// the name napi-rs gives it; index.js loads it first.
const require = createRequire(import.meta.url);
const { nativeFile } = require('../lib/platform.js');
const shipped = path.join(here, nativeFile());
fs.mkdirSync(path.dirname(shipped), { recursive: true });
fs.copyFileSync(library, shipped);
const { NativeRegistry } = require(local);
fs.writeFileSync(path.join(here, 'index.d.ts'), await declarations(new NativeRegistry()));
console.log(`built ${shipped}, index.node and index.d.ts`);
