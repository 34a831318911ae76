'use strict';
// The party-games engine in-process: a thin layer over the native module (shipped in
// native/ for each supported platform; `npm run build` makes this machine's). Values cross as JSON text in the JSON host's wire
// format and are parsed here (the status as numbers in a buffer each match keeps, a
// seated player as a seat number); every refusal is thrown as a `GameError` carrying the
// engine's code, Korean message and reason. Arguments are refused here with `BAD_REQUEST`
// naming the field, as the JSON host refuses them, before anything crosses: the wrong JS
// type, an id that is not 1 to 128 bytes of well-formed text, a players list that is not
// up to MAX_SEATS strings; numbers are range-checked by the native side (integers from 0
// to 2^53 - 1). Node-API's own conversions are never left to judge an argument: they
// turn a lone surrogate into U+FFFD (so two ids would be one) and reserve an array's
// whole length before reading it (a sparse array of 2^32 - 1 aborts the process).

const fs = require('node:fs');
const path = require('node:path');
const { nativeFile, platformName } = require('./lib/platform.js');

// The module for this platform as the package ships it (`native/`), else `index.node`: a
// local `npm run build`, or a game author's addon built beside this file.
function loadNative() {
  const shipped = path.join(__dirname, nativeFile());
  const local = path.join(__dirname, 'index.node');
  const file = fs.existsSync(shipped) ? shipped : local;
  try {
    return require(file);
  } catch (e) {
    if (e && e.code === 'MODULE_NOT_FOUND') {
      throw new Error(
        `party-games: no native module for ${platformName()} (looked for ${shipped} and ${local}); ` +
          `build one with \`npm run build\` in a checkout of the repository`,
      );
    }
    throw e;
  }
}

const native = loadNative();

/** The longest id (player, game), in UTF-8 bytes, as in the JSON host. */
const MAX_ID_BYTES = 128;
/**
 * The most players `create` takes. No built-in game seats more than 4; the bound keeps a
 * players list that crosses small (the JSON host's is its 1 MiB line).
 */
const MAX_SEATS = 256;
/** The longest caller text (a key, a thrown message) quoted in a `reason`, in UTF-16 units. */
const MAX_QUOTE = 256;

/** The `GameError`s this module made: told apart without touching the thrown value (a Proxy's traps). */
const issued = new WeakSet();

/** A refusal by the engine (or of a malformed argument): `code` is stable, `message` Korean. */
class GameError extends Error {
  constructor(body, applied = []) {
    super(body.message);
    issued.add(this);
    this.name = 'GameError';
    /** The stable machine code (`NOT_YOUR_TURN`, `STALE_TURN_SEQ`, `BAD_REQUEST`, ...). */
    this.code = body.code;
    /** Machine-readable detail: always an object. */
    this.reason = body.reason;
    /** Timeouts applied before the refusal (they stand): `[{player, action, events, auto}]`. */
    this.applied = applied;
  }

  /** Whether `e` is a `GameError` (told apart without touching `e`: a Proxy's traps). */
  static is(e) {
    return issued.has(e);
  }

  /**
   * `{name, code, message, reason, applied}`: what `JSON.stringify` writes (an `Error`'s
   * own `message` is not enumerable, and would be dropped).
   */
  toJSON() {
    return { name: this.name, code: this.code, message: this.message, reason: this.reason, applied: this.applied };
  }
}

const BAD_REQUEST_MESSAGE = '요청 형식이 올바르지 않아요.';

function badRequest(field, detail) {
  return new GameError({ code: 'BAD_REQUEST', message: BAD_REQUEST_MESSAGE, reason: { field: quote(field), detail } });
}

/** Caller text cut for a `reason`. */
function quote(text) {
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
}

/** What a caller's value threw, as text for a `reason.detail` (reading it may throw too). */
function cause(e) {
  try {
    return quote(String(e instanceof Error ? e.message : e));
  } catch {
    return 'an exception that cannot be shown';
  }
}

/**
 * Runs `f`, which reads a caller's value: whatever that value throws (a getter, a
 * Proxy's trap, a `toJSON`) is `BAD_REQUEST` naming `field`.
 */
function reading(field, f, what = 'could not be read') {
  try {
    return f();
  } catch (e) {
    if (issued.has(e)) throw e;
    throw badRequest(field, `\`${quote(field)}\` ${what}: ${cause(e)}`);
  }
}

/** The native error (its message is `{"error", "applied"}`) as a `GameError`. */
function toGameError(e) {
  if (issued.has(e)) return e;
  const text = e && typeof e.message === 'string' ? e.message : String(e);
  if (text.startsWith('{"error"')) {
    const { error, applied } = JSON.parse(text);
    return new GameError(error, applied);
  }
  // A Node-API argument conversion the checks below did not foresee.
  return new GameError({ code: 'BAD_REQUEST', message: BAD_REQUEST_MESSAGE, reason: { detail: text } });
}

function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function present(field, v) {
  if (v === null) throw badRequest(field, `\`${field}\` must not be null (leave it out instead)`);
  return v !== undefined;
}

function str(field, v) {
  if (typeof v !== 'string') throw badRequest(field, `\`${field}\` must be a string`);
  return v;
}

/** A string that is well-formed UTF-16: Node-API would turn a lone surrogate into U+FFFD. */
function wellFormed(field, v) {
  if (!v.isWellFormed()) {
    throw badRequest(field, `\`${field}\` must be well-formed text (it holds a lone surrogate)`);
  }
  return v;
}

/** An id (player, game): a string of 1 to 128 bytes of well-formed text, as the JSON host reads one. */
function id(field, v) {
  str(field, v);
  wellFormed(field, v);
  // UTF-8 takes 1 to 3 bytes a UTF-16 unit: only a length between the bounds is measured.
  const n = v.length;
  if (n === 0 || n > MAX_ID_BYTES || (n > MAX_ID_BYTES / 3 && Buffer.byteLength(v, 'utf8') > MAX_ID_BYTES)) {
    throw badRequest(field, `\`${field}\` must be 1 to ${MAX_ID_BYTES} bytes`);
  }
  return v;
}

function optNum(field, v) {
  if (present(field, v) && typeof v !== 'number') {
    throw badRequest(field, `\`${field}\` must be an integer from 0 to 2^53 - 1`);
  }
  return v;
}

/** JSON text of an object argument, as `JSON.stringify` writes it. */
function objectText(field, v) {
  const text = reading(
    field,
    () => {
      if (!isObject(v)) throw badRequest(field, `\`${field}\` must be a JSON object`);
      return JSON.stringify(v);
    },
    'is not JSON',
  );
  // A `toJSON` that gives undefined (or a function) writes nothing at all.
  if (typeof text !== 'string') throw badRequest(field, `\`${field}\` is not JSON: it writes as nothing`);
  return text;
}

/** A JSON text argument (a record, a state): well-formed, so that it crosses as it is. */
function jsonText(field, v) {
  return wellFormed(field, v);
}

/**
 * The values of `keys` in the options object `obj`, read as `JSON.stringify` reads an
 * object: its own enumerable properties, each once; an inherited one is not read (a
 * property set on `Object.prototype` changes nothing). Any other own field that is not
 * undefined is refused, as the JSON host refuses an unknown field.
 */
function fields(name, obj, keys) {
  const values = keys.map(() => undefined);
  const own = reading(name, () => {
    if (!isObject(obj)) throw badRequest(name, `\`${name}\` must be an object`);
    return Object.keys(obj);
  });
  for (const k of own) {
    const v = reading(k, () => obj[k]);
    const i = keys.indexOf(k);
    if (i >= 0) values[i] = v;
    else if (v !== undefined) throw badRequest(k, `unknown field \`${quote(k)}\``);
  }
  return values;
}

const ACT_KEYS = ['turnSeq', 'now'];

/** `opts` of the acting calls: `{turnSeq?, now?}`. */
function actOpts(opts) {
  if (!present('opts', opts)) return NO_OPTS;
  const [turnSeq, now] = fields('opts', opts, ACT_KEYS);
  return { turnSeq: optNum('turnSeq', turnSeq), now: optNum('now', now) };
}

const NO_OPTS = Object.freeze({ turnSeq: undefined, now: undefined });

function index(v) {
  if (typeof v !== 'number') throw badRequest('index', '`index` must be an integer from 0 to 2^53 - 1');
  return v;
}

/**
 * `create`'s players, copied into a plain array of strings: every index present (own)
 * and a well-formed string, at most MAX_SEATS of them. The copy is what crosses, so a
 * Proxy or an accessor is read once, here. Their lengths are the game's to judge
 * (`BAD_PLAYERS`, as in the JSON host).
 */
function playerIds(v) {
  return reading('players', () => {
    const field = 'players';
    if (!Array.isArray(v)) throw badRequest(field, '`players` must be an array of strings');
    const n = v.length;
    if (!Number.isSafeInteger(n) || n < 0) throw badRequest(field, '`players` has no valid length');
    if (n > MAX_SEATS) throw badRequest(field, `\`players\` must list at most ${MAX_SEATS} players, not ${n}`);
    const ids = [];
    for (let i = 0; i < n; i++) {
      if (!Object.hasOwn(v, i)) throw badRequest(field, `\`players\` has a hole at index ${i}`);
      const p = v[i];
      if (typeof p !== 'string') throw badRequest(field, `\`players[${i}]\` must be a string`);
      if (!p.isWellFormed()) {
        throw badRequest(field, `\`players[${i}]\` must be well-formed text (it holds a lone surrogate)`);
      }
      ids.push(p);
    }
    return ids;
  });
}

/** Slots of the status buffer before the seats to act. */
const { STATUS_HEAD } = native;

/**
 * What `play` and `playLegal` give: the action's `events`, the timeouts `applied` before
 * it and the `status` after it. The events cross as JSON text and are parsed the first
 * time `events` is read (then kept): a caller that never reads them does not pay for the
 * parse. `JSON.stringify` writes all three.
 */
class Played {
  #events;
  #text;

  /** @internal */
  constructor(events, applied, status) {
    if (typeof events === 'string') this.#text = events;
    else this.#events = events;
    /** The timeouts taken before the action, `[{player, action, events, auto}]`. */
    this.applied = applied;
    /** The status after the action. */
    this.status = status;
  }

  /** The action's events. */
  get events() {
    if (this.#events === undefined) {
      this.#events = JSON.parse(this.#text);
      this.#text = undefined;
    }
    return this.#events;
  }

  toJSON() {
    return { events: this.events, applied: this.applied, status: this.status };
  }
}

/** One match. Every method may throw `GameError`. */
class Match {
  #m;
  #game;
  #players;
  /** Player id → seat, for the ids that are seated: a seat crosses as a number. */
  #seats;
  #buffer;
  #slots;
  #applied = [];
  /**
   * Whether the last call that may change the match was refused before it crossed: it
   * changed nothing, and `events` answers nothing (the native side clears its own last
   * change for the calls that cross).
   */
  #quiet = false;

  /** @internal */
  constructor(m, token) {
    if (token !== INTERNAL) throw new TypeError('a Match comes from Registry.create, load or restore');
    this.#m = m;
    handles.set(this, m);
    this.#game = native.matchGame(m);
    // Frozen: every status shares it, so that `status()` costs no copy.
    this.#players = Object.freeze(native.matchPlayers(m));
    this.#seats = new Map(this.#players.map((p, i) => [p, i]));
    // Room for every seat twice: the seats to act and those that may act are apart in
    // every game, but a game's status is not the package's to trust.
    const bytes = new ArrayBuffer(8 * (STATUS_HEAD + 2 * this.#players.length));
    this.#buffer = Buffer.from(bytes);
    this.#slots = new Float64Array(bytes);
  }

  /** The status the native side wrote into the buffer. */
  #status() {
    const f = this.#slots;
    const n = f[5];
    const toAct = [];
    for (let i = 0; i < n; i++) toAct.push(this.#players[f[STATUS_HEAD + i]]);
    const mayAct = [];
    for (let i = n, end = n + f[6]; i < end; i++) mayAct.push(this.#players[f[STATUS_HEAD + i]]);
    return {
      game: this.#game,
      players: this.#players,
      turnSeq: f[0],
      toAct,
      mayAct,
      deadline: f[1] < 0 ? null : f[1],
      nextTickAt: f[2] < 0 ? null : f[2],
      clock: f[3],
      over: f[4] === 1,
    };
  }

  /**
   * The seat of a seated id, or -1 for any other id (then the id itself is sent, and
   * refused natively): checked as an id first, so that only a well-formed id of at most
   * 128 bytes crosses. A seated id is one the engine accepted, and needs no check.
   */
  #seat(player) {
    const seat = this.#seats.get(player);
    if (seat !== undefined) return seat;
    id('player', player);
    return -1;
  }

  /**
   * A native acting call, `f(m, seat, id, arg, turnSeq, now, status)`, with the player as
   * a seat or an id (its arguments checked already). Returns the native text; a refusal's
   * timeouts are `lastApplied()` and the error's `applied`.
   */
  #acting(f, seat, player, arg, opts, status) {
    this.#quiet = false;
    try {
      return f(this.#m, seat < 0 ? 0 : seat, seat < 0 ? player : undefined, arg, opts.turnSeq, opts.now, status);
    } catch (e) {
      const err = toGameError(e);
      this.#applied = err.applied;
      throw err;
    }
  }

  /** The native answer of an acting call: the events (parsed or as text) and the timeouts. */
  #played(text, parse) {
    if (text.charCodeAt(0) === 91 /* '[' */) return parse ? JSON.parse(text) : text;
    const { events, applied } = JSON.parse(text);
    this.#applied = applied;
    return events;
  }

  /**
   * Starts a call that may change the match: no timeouts taken yet, and nothing changed
   * until it crosses.
   */
  #begin() {
    this.#applied = [];
    this.#quiet = true;
  }

  /** `{game, players, turnSeq, toAct, mayAct, deadline, nextTickAt, clock, over}`. */
  status() {
    try {
      native.matchStatus(this.#m, this.#buffer);
    } catch (e) {
      throw toGameError(e);
    }
    return this.#status();
  }

  /**
   * A viewer as the native calls take one, `[seat, id]`: a seated player by seat, any
   * other id by id, no player (the spectator) as neither.
   */
  #viewer(player) {
    if (!present('player', player)) return [undefined, undefined];
    const seat = this.#seat(player);
    return seat < 0 ? [undefined, player] : [seat, undefined];
  }

  /** A player's view; no player: the spectator's. */
  view(player) {
    const [seat, who] = this.#viewer(player);
    try {
      return JSON.parse(native.matchView(this.#m, seat, who));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /**
   * The change the last `act`, `actLegal`, `play`, `playLegal`, `setConnected` or `tick`
   * made (none after one that changed nothing, such as a refused `act`, nor after
   * `advance`) as `player` sees it, no player: a spectator. `{events, applied}`: a game
   * with private events (One Card's `drew`) shows each viewer their own projection. A
   * player who is not seated is `NOT_SEATED`.
   */
  events(player) {
    const [seat, who] = this.#viewer(player);
    if (this.#quiet) return { events: [], applied: [] };
    try {
      return JSON.parse(native.matchEvents(this.#m, seat, who));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The player's legal actions. */
  legal(player) {
    const seat = this.#seat(player);
    try {
      return JSON.parse(native.matchLegal(this.#m, seat < 0 ? 0 : seat, seat < 0 ? player : undefined));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** How many legal actions the player has: `legal(player).length`, without building them. */
  legalCount(player) {
    const seat = this.#seat(player);
    try {
      return native.matchLegalCount(this.#m, seat < 0 ? 0 : seat, seat < 0 ? player : undefined);
    } catch (e) {
      throw toGameError(e);
    }
  }

  // The acting calls clear `lastApplied()` first: a call refused here, before it crosses,
  // took no timeouts either.

  /**
   * Acts; returns the action's events. Timeouts due at `now` are taken first: they are
   * `lastApplied()` afterwards, and `GameError.applied` when the action is then refused.
   */
  act(player, action, opts) {
    this.#begin();
    const seat = this.#seat(player);
    const text = objectText('action', action);
    return this.#played(this.#acting(native.matchAct, seat, player, text, actOpts(opts)), true);
  }

  /** `act(player, legal(player)[index], opts)` in one call; an index past the end is refused. */
  actLegal(player, i, opts) {
    this.#begin();
    const seat = this.#seat(player);
    index(i);
    return this.#played(this.#acting(native.matchActLegal, seat, player, i, actOpts(opts)), true);
  }

  /** `act`, giving `{events, applied, status}`: the status after it, in the same call. */
  play(player, action, opts) {
    this.#begin();
    const seat = this.#seat(player);
    const text = objectText('action', action);
    const o = actOpts(opts);
    return this.#answer(this.#played(this.#acting(native.matchAct, seat, player, text, o, this.#buffer), false));
  }

  /** `actLegal`, giving `{events, applied, status}` as `play` does. */
  playLegal(player, i, opts) {
    this.#begin();
    const seat = this.#seat(player);
    index(i);
    const o = actOpts(opts);
    return this.#answer(this.#played(this.#acting(native.matchActLegal, seat, player, i, o, this.#buffer), false));
  }

  /**
   * For bots, simulations and benchmarks that need only the position: the first player to
   * act plays their legal action at `index`, at the match's clock, recorded as `actLegal`
   * records it, without writing its events. Returns how many legal actions the player to
   * act next has (0 when no one is to act: always once the match is over), the bound of
   * the next call's index. Timeouts due at the clock are taken first, as `actLegal` takes
   * them: `lastApplied()`, and `GameError.applied` when the index is then refused.
   */
  advance(i) {
    this.#begin();
    index(i);
    let answer;
    this.#quiet = false;
    try {
      answer = native.matchAdvance(this.#m, i);
    } catch (e) {
      const err = toGameError(e);
      this.#applied = err.applied;
      throw err;
    }
    // A number, unless timeouts were taken first: then `{count, applied}` as text.
    if (typeof answer === 'number') return answer;
    const { count, applied } = JSON.parse(answer);
    this.#applied = applied;
    return count;
  }

  /** `{events, applied, status}` of `play` and `playLegal`. */
  #answer(events) {
    return new Played(events, this.#applied, this.#status());
  }

  /** The timeouts taken before the last acting call or `setConnected` (usually none). */
  lastApplied() {
    return this.#applied;
  }

  /**
   * Moves the clock to `now`: the timeouts taken, `[{player, action, events, auto}]`, their
   * events as `player` sees them (no player: a spectator; one not seated is `NOT_SEATED`,
   * refused before the clock moves). `events(other)` gives another viewer's projection.
   */
  tick(now, player) {
    this.#quiet = true;
    if (typeof now !== 'number') throw badRequest('now', '`now` must be an integer from 0 to 2^53 - 1');
    const [seat, who] = this.#viewer(player);
    this.#quiet = false;
    try {
      return JSON.parse(native.matchTick(this.#m, now, seat, who));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /**
   * Marks a player connected or not, after the timeouts due at `now` (in `lastApplied()`):
   * the events to push (`presenceChanged`; none when nothing changed).
   */
  setConnected(player, connected, now) {
    this.#begin();
    const seat = this.#seat(player);
    if (typeof connected !== 'boolean') throw badRequest('connected', '`connected` must be true or false');
    optNum('now', now);
    let text;
    this.#quiet = false;
    try {
      text = native.matchSetConnected(this.#m, seat < 0 ? 0 : seat, seat < 0 ? player : undefined, connected, now);
    } catch (e) {
      const err = toGameError(e);
      this.#applied = err.applied;
      throw err;
    }
    const { events, applied } = JSON.parse(text);
    this.#applied = applied;
    return events;
  }

  /** The match record (it holds the seed: keep it on the server). */
  record() {
    try {
      return JSON.parse(native.matchRecord(this.#m));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The full state for storage, as JSON text (it holds the RNG: never send it). */
  stateJson() {
    try {
      return native.matchStateJson(this.#m);
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The outcome, or null until the match is over. */
  outcome() {
    try {
      return JSON.parse(native.matchOutcome(this.#m));
    } catch (e) {
      throw toGameError(e);
    }
  }
}

const INTERNAL = Symbol('party-games internal');

/** Each match's native value, for a `Bot` to read the match with. */
const handles = new WeakMap();

/**
 * A bot of one game, of a kind the game offers (`Registry.botKinds`): the game's own
 * bots, as the server offers them. `choose` reads a match and answers the action the bot
 * picks for a player, which the host then acts with: for a seat it fills with a bot, or
 * for a player whose time ran out (before the deadline: the engine's own timeout action
 * is what `tick` takes). A bot sees what its seat sees. Seeded, it picks alike for the
 * same positions.
 */
class Bot {
  #b;

  /** @internal */
  constructor(b, game, kind, token) {
    if (token !== INTERNAL) throw new TypeError('a Bot comes from Registry.bot');
    this.#b = b;
    /** The game the bot plays. */
    this.game = game;
    /** The bot's kind. */
    this.kind = kind;
    Object.freeze(this);
  }

  /**
   * The action the bot picks for `player` in `match` now, or `null` when the player has
   * none (not to act, nor allowed to; the match over). It changes nothing: act with it.
   * A match of another game is `BAD_REQUEST` (field `match`), a player not seated
   * `NOT_SEATED`.
   */
  choose(match, player) {
    const m = handles.get(match);
    if (m === undefined) throw badRequest('match', '`match` must be a match that create, load or restore gave');
    id('player', player);
    try {
      return JSON.parse(native.botChoose(this.#b, m, 0, player));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /**
   * `choose`, then `match.play(player, action, opts)` with the action: the `Played`
   * answer, or `null` (nothing played) when the bot has no action for the player.
   */
  play(match, player, opts) {
    const action = this.choose(match, player);
    return action === null ? null : match.play(player, action, opts);
  }
}

/** The built-in games: one-card, rps, yut, yut-augments. */
class Registry {
  #r;

  constructor() {
    try {
      this.#r = new native.NativeRegistry();
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The game ids, sorted. */
  games() {
    return JSON.parse(this.#r.games());
  }

  /** The game's JSON Schemas: `{options, action, view, event, outcome, error}`. */
  schemas(game) {
    id('game', game);
    try {
      return JSON.parse(this.#r.schemas(game));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The game's default options. */
  defaultOptions(game) {
    id('game', game);
    try {
      return JSON.parse(this.#r.defaultOptions(game));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The kinds of bot that play the game (`bot`), the game's preferred first; `random` is always one. */
  botKinds(game) {
    id('game', game);
    try {
      return JSON.parse(this.#r.botKinds(game));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /**
   * A bot of `kind` for matches of `game`, seeded with `seed` (an integer from 0 to
   * 2^53 - 1; none: one from the OS). A kind the game does not offer is `UNKNOWN_BOT`.
   */
  bot(game, kind, seed) {
    id('game', game);
    str('kind', kind);
    optNum('seed', seed);
    try {
      return new Bot(this.#r.bot(game, kind, seed), game, kind, INTERNAL);
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The JSON Schema of a match record. */
  recordSchema() {
    return JSON.parse(this.#r.recordSchema());
  }

  /**
   * A new match: no options are the game's defaults, no seed one from the OS, no now 0,
   * no graceMs the game's grace.
   */
  create(opts) {
    const [game, players, options, seed, now, graceMs] = fields('create', opts, CREATE_KEYS);
    id('game', game);
    const ids = playerIds(players);
    const optionsText = present('options', options) ? objectText('options', options) : undefined;
    optNum('seed', seed);
    optNum('now', now);
    optNum('graceMs', graceMs);
    try {
      return new Match(this.#r.create(game, ids, optionsText, seed, now, graceMs), INTERNAL);
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The match a record (`record()`, or its JSON text) replays to; a tampered record is refused. */
  load(record) {
    const text = typeof record === 'string' ? jsonText('record', record) : objectText('record', record);
    try {
      return new Match(this.#r.load(text), INTERNAL);
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The match a stored state (`stateJson()`, or its parsed object) restores to, validated. */
  restore(game, state) {
    id('game', game);
    const text = typeof state === 'string' ? jsonText('state', state) : objectText('state', state);
    try {
      return new Match(this.#r.restore(game, text), INTERNAL);
    } catch (e) {
      throw toGameError(e);
    }
  }
}

const CREATE_KEYS = ['game', 'players', 'options', 'seed', 'now', 'graceMs'];

/** The registry `isAction` reads with, made at its first call. */
let reader;

/**
 * Whether `value` is an action of `game` as a match reads one (strictly: an unknown
 * `type`, an unknown field or a wrong type is not), so that wire input needs no cast. The
 * shape only: whether the action is legal now is the match's to judge. A value that is
 * not a JSON object, or whose reading throws, is not an action; an unknown game is
 * `UNKNOWN_GAME`.
 */
function isAction(game, value) {
  id('game', game);
  let text;
  try {
    text = isObject(value) ? JSON.stringify(value) : undefined;
  } catch {
    return false;
  }
  try {
    reader ??= new native.NativeRegistry();
    // The game is judged even for a value that is no object: an unknown id always throws.
    return reader.isAction(game, typeof text === 'string' ? text : '') === true;
  } catch (e) {
    throw toGameError(e);
  }
}

/**
 * Whether `value` are options `create` takes for `game`: their shape and their values,
 * for some number of players (strictly, as `create` reads them: an unknown field, a wrong
 * type or a value out of range is not). A value that is not a JSON object, or whose
 * reading throws, is not; an unknown game is `UNKNOWN_GAME`.
 */
function isOptions(game, value) {
  id('game', game);
  let text;
  try {
    text = isObject(value) ? JSON.stringify(value) : undefined;
  } catch {
    return false;
  }
  try {
    reader ??= new native.NativeRegistry();
    return reader.isOptions(game, typeof text === 'string' ? text : '') === true;
  } catch (e) {
    throw toGameError(e);
  }
}

/**
 * The longest delay `setTimeout` takes, 2^31 - 1 ms (about 24.8 days): a longer one is
 * taken as 1 ms (with a `TimeoutOverflowWarning`), so a timer armed straight at a far
 * deadline fires at once, again and again.
 */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Calls `callback` once at the time `at` (milliseconds on `clock`, by default
 * `Date.now`), never before it however far it is: a wait past `MAX_TIMEOUT_MS` is taken
 * in steps of at most that, and a timer that wakes early (the clock moved back, or
 * `setTimeout`'s rounding) waits again for the rest. `null` arms nothing. The answer's
 * `cancel()` stops it. Arm a match's timer with it: `wakeAt(m.status().nextTickAt, ...)`.
 */
function wakeAt(at, callback, clock = Date.now) {
  if (at !== null && (typeof at !== 'number' || Number.isNaN(at))) {
    throw badRequest('at', '`at` must be a number of milliseconds or null');
  }
  if (typeof callback !== 'function') throw badRequest('callback', '`callback` must be a function');
  let handle;
  const step = () => {
    const left = at - clock();
    if (left <= 0) {
      handle = undefined;
      callback();
      return;
    }
    handle = setTimeout(step, Math.min(left, MAX_TIMEOUT_MS));
  };
  if (at !== null) handle = setTimeout(step, Math.min(Math.max(0, at - clock()), MAX_TIMEOUT_MS));
  return {
    cancel() {
      if (handle !== undefined) clearTimeout(handle);
      handle = undefined;
    },
  };
}

module.exports = { Registry, Match, Played, GameError, Bot, isAction, isOptions, wakeAt, MAX_TIMEOUT_MS };
