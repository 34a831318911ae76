'use strict';
// The party-games engine in-process: a thin layer over the native module (built by
// `npm run build` into index.node). Values cross as JSON text in the JSON host's wire
// format and are parsed here (the status as numbers in a buffer each match keeps, a
// seated player as a seat number); every refusal is thrown as a `GameError` carrying the
// engine's code, Korean message and reason. Arguments of the wrong JS type are refused
// here with `BAD_REQUEST` (as the JSON host refuses them); numbers are range-checked by
// the native side (integers from 0 to 2^53 - 1).

const path = require('node:path');

function loadNative() {
  const file = path.join(__dirname, 'index.node');
  try {
    return require(file);
  } catch (e) {
    if (e && e.code === 'MODULE_NOT_FOUND') {
      throw new Error(`party-games: ${file} is missing; run \`npm run build\` in ${__dirname}`);
    }
    throw e;
  }
}

const native = loadNative();

/** A refusal by the engine (or of a malformed argument): `code` is stable, `message` Korean. */
class GameError extends Error {
  constructor(body, applied = []) {
    super(body.message);
    this.name = 'GameError';
    /** The stable machine code (`NOT_YOUR_TURN`, `STALE_TURN_SEQ`, `BAD_REQUEST`, ...). */
    this.code = body.code;
    /** Machine-readable detail: always an object. */
    this.reason = body.reason;
    /** Timeouts applied before the refusal (they stand): `[{player, action, events, auto}]`. */
    this.applied = applied;
  }
}

const BAD_REQUEST_MESSAGE = '요청 형식이 올바르지 않아요.';

function badRequest(field, detail) {
  return new GameError({ code: 'BAD_REQUEST', message: BAD_REQUEST_MESSAGE, reason: { field, detail } });
}

/** The native error (its message is `{"error", "applied"}`) as a `GameError`. */
function toGameError(e) {
  if (e instanceof GameError) return e;
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

function optNum(field, v) {
  if (present(field, v) && typeof v !== 'number') {
    throw badRequest(field, `\`${field}\` must be an integer from 0 to 2^53 - 1`);
  }
  return v;
}

/** JSON text of an object argument. */
function objectText(field, v) {
  if (!isObject(v)) throw badRequest(field, `\`${field}\` must be a JSON object`);
  try {
    return JSON.stringify(v);
  } catch (e) {
    throw badRequest(field, `\`${field}\` is not JSON: ${e.message}`);
  }
}

function only(field, obj, keys) {
  if (!isObject(obj)) throw badRequest(field, `\`${field}\` must be an object`);
  for (const k of Object.keys(obj)) {
    if (!keys.includes(k) && obj[k] !== undefined) throw badRequest(k, `unknown field \`${k}\``);
  }
}

/** `opts` of the acting calls: `{turnSeq?, now?}`. */
function actOpts(opts) {
  if (!present('opts', opts)) return NO_OPTS;
  only('opts', opts, ['turnSeq', 'now']);
  return { turnSeq: optNum('turnSeq', opts.turnSeq), now: optNum('now', opts.now) };
}

const NO_OPTS = Object.freeze({ turnSeq: undefined, now: undefined });

function index(v) {
  if (typeof v !== 'number') throw badRequest('index', '`index` must be an integer from 0 to 2^53 - 1');
  return v;
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

  /** @internal */
  constructor(m, token) {
    if (token !== INTERNAL) throw new TypeError('a Match comes from Registry.create, load or restore');
    this.#m = m;
    this.#game = native.matchGame(m);
    this.#players = native.matchPlayers(m);
    this.#seats = new Map(this.#players.map((p, i) => [p, i]));
    const bytes = new ArrayBuffer(8 * (STATUS_HEAD + this.#players.length));
    this.#buffer = Buffer.from(bytes);
    this.#slots = new Float64Array(bytes);
  }

  /** The status the native side wrote into the buffer. */
  #status() {
    const f = this.#slots;
    const n = f[5];
    const toAct = [];
    for (let i = 0; i < n; i++) toAct.push(this.#players[f[STATUS_HEAD + i]]);
    return {
      game: this.#game,
      turnSeq: f[0],
      toAct,
      deadline: f[1] < 0 ? null : f[1],
      nextTickAt: f[2] < 0 ? null : f[2],
      clock: f[3],
      over: f[4] === 1,
    };
  }

  /** The seat of a seated id, or -1 (then the id itself is sent, and refused natively). */
  #seat(player) {
    const seat = this.#seats.get(player);
    return seat === undefined ? -1 : seat;
  }

  /**
   * A native acting call, `f(m, seat, id, arg, turnSeq, now, status)`, with the player as
   * a seat or an id (its arguments checked already). Returns the native text; a refusal's
   * timeouts are `lastApplied()` and the error's `applied`.
   */
  #acting(f, player, arg, opts, status) {
    const seat = this.#seat(player);
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
    if (text.charCodeAt(0) === 91 /* '[' */) {
      this.#applied = [];
      return parse ? JSON.parse(text) : text;
    }
    const { events, applied } = JSON.parse(text);
    this.#applied = applied;
    return events;
  }

  /** `{game, turnSeq, toAct, deadline, nextTickAt, clock, over}`. */
  status() {
    try {
      native.matchStatus(this.#m, this.#buffer);
    } catch (e) {
      throw toGameError(e);
    }
    return this.#status();
  }

  /** A player's view; no player: the spectator's. */
  view(player) {
    let seat;
    let id;
    if (present('player', player)) {
      str('player', player);
      seat = this.#seat(player);
      if (seat < 0) {
        seat = undefined;
        id = player;
      }
    }
    try {
      return JSON.parse(native.matchView(this.#m, seat, id));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The player's legal actions. */
  legal(player) {
    str('player', player);
    const seat = this.#seat(player);
    try {
      return JSON.parse(native.matchLegal(this.#m, seat < 0 ? 0 : seat, seat < 0 ? player : undefined));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** How many legal actions the player has: `legal(player).length`, without building them. */
  legalCount(player) {
    str('player', player);
    const seat = this.#seat(player);
    try {
      return native.matchLegalCount(this.#m, seat < 0 ? 0 : seat, seat < 0 ? player : undefined);
    } catch (e) {
      throw toGameError(e);
    }
  }

  /**
   * Acts; returns the action's events. Timeouts due at `now` are taken first: they are
   * `lastApplied()` afterwards, and `GameError.applied` when the action is then refused.
   */
  act(player, action, opts) {
    str('player', player);
    const text = objectText('action', action);
    return this.#played(this.#acting(native.matchAct, player, text, actOpts(opts)), true);
  }

  /** `act(player, legal(player)[index], opts)` in one call; an index past the end is refused. */
  actLegal(player, i, opts) {
    str('player', player);
    index(i);
    return this.#played(this.#acting(native.matchActLegal, player, i, actOpts(opts)), true);
  }

  /** `act`, giving `{events, applied, status}`: the status after it, in the same call. */
  play(player, action, opts) {
    str('player', player);
    const text = objectText('action', action);
    const o = actOpts(opts);
    return this.#answer(this.#played(this.#acting(native.matchAct, player, text, o, this.#buffer), false));
  }

  /** `actLegal`, giving `{events, applied, status}` as `play` does. */
  playLegal(player, i, opts) {
    str('player', player);
    index(i);
    const o = actOpts(opts);
    return this.#answer(this.#played(this.#acting(native.matchActLegal, player, i, o, this.#buffer), false));
  }

  /**
   * For bots, simulations and benchmarks that need only the position: the first player to
   * act plays their legal action at `index`, at the match's clock, recorded as `actLegal`
   * records it, without writing its events. Returns how many legal actions the player to
   * act next has (0 when no one is to act: always once the match is over), the bound of
   * the next call's index.
   */
  advance(i) {
    index(i);
    this.#applied = [];
    try {
      return native.matchAdvance(this.#m, i);
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** `{events, applied, status}` of `play` and `playLegal`. */
  #answer(events) {
    return new Played(events, this.#applied, this.#status());
  }

  /** The timeouts taken before the last acting call or `setConnected` (usually none). */
  lastApplied() {
    return this.#applied;
  }

  /** Moves the clock to `now`: the timeouts taken, `[{player, action, events, auto}]`. */
  tick(now) {
    if (typeof now !== 'number') throw badRequest('now', '`now` must be an integer from 0 to 2^53 - 1');
    try {
      return JSON.parse(native.matchTick(this.#m, now));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** Marks a player connected or not (after the timeouts due at `now`). */
  setConnected(player, connected, now) {
    str('player', player);
    if (typeof connected !== 'boolean') throw badRequest('connected', '`connected` must be true or false');
    optNum('now', now);
    const seat = this.#seat(player);
    let text;
    try {
      text = native.matchSetConnected(this.#m, seat < 0 ? 0 : seat, seat < 0 ? player : undefined, connected, now);
    } catch (e) {
      const err = toGameError(e);
      this.#applied = err.applied;
      throw err;
    }
    this.#applied = JSON.parse(text).applied;
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

/** The built-in games: yut, yut-augments, rps. */
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
    str('game', game);
    try {
      return JSON.parse(this.#r.schemas(game));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The game's default options. */
  defaultOptions(game) {
    str('game', game);
    try {
      return JSON.parse(this.#r.defaultOptions(game));
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The JSON Schema of a match record. */
  recordSchema() {
    return JSON.parse(this.#r.recordSchema());
  }

  /** A new match: no options are the game's defaults, no seed one from the OS, no now 0. */
  create(opts) {
    only('create', opts, ['game', 'players', 'options', 'seed', 'now']);
    const { game, players, options, seed, now } = opts;
    str('game', game);
    if (!Array.isArray(players) || !players.every((p) => typeof p === 'string')) {
      throw badRequest('players', '`players` must be an array of strings');
    }
    const optionsText = present('options', options) ? objectText('options', options) : undefined;
    optNum('seed', seed);
    optNum('now', now);
    try {
      return new Match(this.#r.create(game, players, optionsText, seed, now), INTERNAL);
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The match a record replays to; a tampered record is refused. */
  load(record) {
    const text = typeof record === 'string' ? record : objectText('record', record);
    try {
      return new Match(this.#r.load(text), INTERNAL);
    } catch (e) {
      throw toGameError(e);
    }
  }

  /** The match a stored state (`stateJson()`, or its parsed object) restores to, validated. */
  restore(game, stateJson) {
    str('game', game);
    const text = typeof stateJson === 'string' ? stateJson : objectText('state', stateJson);
    try {
      return new Match(this.#r.restore(game, text), INTERNAL);
    } catch (e) {
      throw toGameError(e);
    }
  }
}

module.exports = { Registry, Match, Played, GameError };
