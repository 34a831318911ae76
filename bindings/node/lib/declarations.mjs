// index.d.ts from a registry's JSON Schemas, read from a native module (the package's own,
// or a game author's addon): each schema compiled with json-schema-to-typescript, the
// maps over the game ids, then the API (lib/api.d.ts) typed over them. Used by
// `npm run build` in the repository and by the `party-games-addon` command an author runs.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The compiler, imported when first needed: a host that only runs the package never needs it. */
async function compiler() {
  try {
    return (await import('json-schema-to-typescript')).compile;
  } catch (e) {
    if (e && e.code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(
        'party-games: generating index.d.ts needs json-schema-to-typescript beside the package: ' +
          '`npm install --save-dev json-schema-to-typescript@16.0.0` (the version the package declares as its peer)',
      );
    }
    throw e;
  }
}

/** `yut-augments` → `YutAugments`. */
function pascal(id) {
  return id
    .split(/[-_]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

const TYPES = ['options', 'action', 'view', 'event', 'outcome', 'error'];
/** The per-game maps of index.d.ts, keyed by game id. */
const MAPS = { options: 'Options', action: 'Actions', view: 'Views', event: 'Events', outcome: 'Outcomes', error: 'Errors' };

/**
 * The declarations: each schema compiled into its own namespace (schemas of one game
 * share definition names), its title re-exported, the maps over the game ids, and the
 * API typed over them.
 */
export async function declarations(registry) {
  const compile = await compiler();
  const games = JSON.parse(registry.games());
  const out = ['// Generated from the engine\'s JSON Schemas (party-games lib/declarations.mjs). Do not edit.', ''];
  const titles = {};
  /** Compiles one schema into namespace `ns`; returns the names it declares. */
  const compileInto = async (ns, schema, title) => {
    const ts = quiet(await compile(tidy(schema), title, { bannerComment: '' }));
    out.push(`declare namespace ${ns} {`, ts.trim(), '}');
    return [...ts.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
  };
  for (const game of games) {
    const schemas = JSON.parse(registry.schemas(game));
    titles[game] = {};
    // The game's schemas compiled as one, so that a definition they share (One Card's
    // 54-card union) is declared once: each schema a property of one root, their
    // definitions merged (the schemas of one game define a name alike, so the first
    // wins); every named type under the game's namespace (`Yut.LegalMove`), since two
    // games may name theirs alike.
    const $defs = {};
    const properties = {};
    for (const type of TYPES) {
      const { $defs: defs = {}, $schema, ...schema } = schemas[type];
      schema.title ??= `${pascal(game)}${pascal(type)}`;
      titles[game][type] = schema.title;
      properties[type] = schema;
      for (const [name, def] of Object.entries(defs)) $defs[name] ??= def;
    }
    // A definition that is one of the roots (One Card's view lists `OneCardAction`s) is
    // that root, not a second type of the same name (`OneCardAction1`).
    const moved = {};
    for (const type of TYPES) {
      if ($defs[titles[game][type]] !== undefined) {
        delete $defs[titles[game][type]];
        moved[`#/$defs/${titles[game][type]}`] = `#/properties/${type}`;
      }
    }
    const ns = `__${pascal(game)}`;
    const root = `${pascal(game)}WireTypes`;
    const combined = JSON.parse(
      JSON.stringify({ title: root, type: 'object', properties, required: TYPES, additionalProperties: false, $defs }),
      (key, value) => (key === '$ref' && typeof value === 'string' && moved[value] !== undefined ? moved[value] : value),
    );
    const named = await compileInto(ns, combined, root);
    for (const type of TYPES) {
      if (!named.includes(titles[game][type])) throw new Error(`${game}: the ${type} schema compiled to no type ${titles[game][type]}`);
      out.push(`export type ${titles[game][type]} = ${ns}.${titles[game][type]};`);
    }
    out.push(
      '',
      `/** The named types of ${JSON.stringify(game)}'s wire format, as its JSON Schemas define them. */`,
      `export declare namespace ${pascal(game)} {`,
      ...named.filter((name) => name !== root).map((name) => `  export type ${name} = ${ns}.${name};`),
      '}',
      '',
    );
  }
  await compileInto('__MatchRecord', recordSchema(registry), 'MatchRecord');
  out.push('export type MatchRecord = __MatchRecord.MatchRecord;', '');
  out.push(`/** The games of the registry. */`, `export type GameId = ${games.map((g) => JSON.stringify(g)).join(' | ')};`, '');
  for (const type of TYPES) {
    out.push(`/** Each game's ${type} type. */`, `export interface ${MAPS[type]} {`);
    for (const game of games) out.push(`  ${JSON.stringify(game)}: ${titles[game][type]};`);
    out.push('}', '');
  }
  out.push(`/** Each game's bot kinds (\`Registry.bot\`), the game's preferred first. */`, 'export interface BotKinds {');
  for (const game of games) {
    const kinds = JSON.parse(registry.botKinds(game));
    out.push(`  ${JSON.stringify(game)}: ${kinds.map((k) => JSON.stringify(k)).join(' | ')};`);
  }
  out.push('}', '');
  out.push(fs.readFileSync(path.join(here, 'api.d.ts'), 'utf8'));
  return out.join('\n');
}

/**
 * The record's schema, as the declarations must say it. The engine's leaves `options`
 * untyped (any JSON, which json-schema-to-typescript compiles to an object type), but a
 * restored match's record has `null` there (its `base` holds the state): typed as both.
 */
function recordSchema(registry) {
  const schema = JSON.parse(registry.recordSchema());
  const { description } = schema.properties.options;
  schema.properties.options = {
    description,
    anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }],
  };
  return schema;
}

/**
 * The compiler's output without its notes on where a type was referenced from (`This
 * interface was referenced by ...'s JSON-Schema definition via ...`), which name the
 * schema machinery, not the wire.
 */
function quiet(ts) {
  return ts
    .replace(/^[ \t]*\/\*\*\n[ \t]*\* This interface was referenced by [^\n]*\n[ \t]*\* via the [^\n]*\n[ \t]*\*\/\n/gm, '')
    .replace(/\n[ \t]*\*\n[ \t]*\* This interface was referenced by [^\n]*\n[ \t]*\* via the [^\n]*/g, '')
    .replace(/\n[ \t]*\* This interface was referenced by [^\n]*\n[ \t]*\* via the [^\n]*/g, '');
}

/**
 * The schema with its descriptions in TypeScript's terms: the engine's doc comments name
 * Rust (`None`, paths like `Game::event_for`), which a TypeScript reader meets as
 * `null`/left out and as plain names.
 */
function tidy(schema) {
  return JSON.parse(JSON.stringify(schema), (key, value) => {
    if (key !== 'description' || typeof value !== 'string') return value;
    return value
      .replace(/\[`([^`]+)`\]\([^)]*\)/g, '`$1`')
      .replace(/\[`([^`]+)`\]/g, '`$1`')
      .replace(/`None`/g, '`null`')
      .replace(/\bNone\b/g, 'null')
      .replace(/`Some\(([^)`]*)\)`/g, '`$1`')
      .replace(/`(?:[A-Za-z_][A-Za-z0-9_]*::)+([A-Za-z_][A-Za-z0-9_]*)`/g, '`$1`')
      .replace(/ \(`[A-Z]`\)/g, '')
      .replace(/\bthis enum\b/g, 'this union');
  });
}
