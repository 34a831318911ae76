// The API, typed over the maps above (lib/api.d.ts, appended by lib/declarations.mjs).

/** Where a match stands. */
export interface Status<G extends GameId = GameId> {
  game: G;
  /** The seated players' ids, in seat order (one array shared by every status). */
  players: readonly string[];
  /** The action sequence number to send back as `turnSeq`. */
  turnSeq: number;
  /** The players whose move is awaited. */
  toAct: string[];
  /**
   * The players who may act now besides those of `toAct`, waited for by no one (One
   * Card's `ONE_CARD` and `CATCH` calls): empty for most games.
   */
  mayAct: string[];
  /** When the current decision times out: the countdown players see. */
  deadline: number | null;
  /** When `tick` would act: arm the match's timer here. */
  nextTickAt: number | null;
  /** The latest time of an input that changed the match. */
  clock: number;
  over: boolean;
}

/** An action the engine applied: a timeout taken (`auto`) or a due action. */
export interface Applied<G extends GameId = GameId> {
  player: string;
  action: Actions[G];
  events: Events[G][];
  auto?: boolean;
}

/** A change as one viewer sees it: the request's events and the timeouts taken first. */
export interface Change<G extends GameId = GameId> {
  events: Events[G][];
  applied: Applied<G>[];
}

/** A game's JSON Schemas. */
export interface Schemas {
  options: object;
  action: object;
  view: object;
  event: object;
  outcome: object;
  error: object;
}

/**
 * A match record (`record()`), typed by its game: what `load` takes to give a
 * `Match<G>`. It holds the seed: keep it on the server.
 */
export type RecordOf<G extends GameId = GameId> = G extends GameId ? Omit<MatchRecord, "game"> & { game: G } : never;
export type { RecordOf as Record };

/**
 * A stored state parsed: what `JSON.parse(m.stateJson())` gives, which `restore` takes as
 * well as the text.
 */
export type StoredState = { [key: string]: unknown };

export interface CreateOptions<G extends GameId> {
  game: G;
  /** Player ids in seat order (at most 256): each 1 to 128 bytes of well-formed text. */
  players: string[];
  /** The game's options; none: its defaults. */
  options?: Options[G];
  /** An integer from 0 to 2^53 - 1; none: one from the operating system. */
  seed?: number;
  /** Host time in milliseconds; none: 0. */
  now?: number;
  /**
   * How long a disconnected player is waited for in this match, in milliseconds (an
   * integer up to the engine's MAX_TIME); none: the game's grace (5 s for the built-in
   * games). Kept in the stored state and the record.
   */
  graceMs?: number;
}

/** An action of game `G`: what `isAction(game, value)` proves `value` to be. */
export type Action<G extends GameId = GameId> = Actions[G];

/** The options of game `G`: what `isOptions(game, value)` proves `value` to be. */
export type GameOptions<G extends GameId = GameId> = Options[G];

/** A bot kind of game `G` (`Registry.botKinds`). */
export type BotKind<G extends GameId = GameId> = BotKinds[G];

/**
 * Whether `value` is an action of `game` as a match reads one (strictly: an unknown
 * `type`, an unknown field or a wrong type is not), so that wire input needs no cast. The
 * shape only: whether the action is legal now is the match's to judge. An unknown game
 * throws `GameError` (`UNKNOWN_GAME`).
 */
export declare function isAction<G extends GameId>(game: G, value: unknown): value is Action<G>;

/**
 * Whether `value` are options `create` takes for `game`, for some number of players:
 * strictly (an unknown field, a wrong type or a value out of range is not), so that wire
 * input needs no cast. An unknown game throws `GameError` (`UNKNOWN_GAME`).
 */
export declare function isOptions<G extends GameId>(game: G, value: unknown): value is Options[G];

/**
 * The longest delay `setTimeout` takes, 2^31 - 1 ms (about 24.8 days): Node takes a
 * longer one as 1 ms, so a timer armed straight at a far deadline (a 30-day grace) would
 * fire at once, again and again. `wakeAt` waits in steps of at most this.
 */
export declare const MAX_TIMEOUT_MS: number;

/** A timer `wakeAt` armed. */
export interface Alarm {
  /** Stops it (nothing happens if it fired already). */
  cancel(): void;
}

/**
 * Calls `callback` once at the time `at` (milliseconds on `clock`, by default
 * `Date.now`), never before it however far it is (a wait past `MAX_TIMEOUT_MS` is
 * taken in steps), and at once if `at` has passed. `null` arms nothing. Arm a match's
 * timer with it: `wakeAt(m.status().nextTickAt, () => m.tick(Date.now()))`.
 */
export declare function wakeAt(at: number | null, callback: () => void, clock?: () => number): Alarm;

/** The options of the acting calls. */
export interface ActOptions {
  /** The `turnSeq` the player saw: a stale one is refused with `STALE_TURN_SEQ`. */
  turnSeq?: number;
  /** Host time in milliseconds; none: the match's clock. */
  now?: number;
}

/**
 * What `play` and `playLegal` give: the action's events, the timeouts taken before it and
 * the status after it, from one call. `events` is parsed the first time it is read (a bot
 * that never reads it does not pay for the parse); `JSON.stringify` writes all three.
 */
export declare class Played<G extends GameId = GameId> {
  private constructor();
  readonly events: Events[G][];
  readonly applied: Applied<G>[];
  readonly status: Status<G>;
  toJSON(): { events: Events[G][]; applied: Applied<G>[]; status: Status<G> };
}

/** One match. Every method may throw `GameError`. */
export declare class Match<G extends GameId = GameId> {
  private constructor();
  status(): Status<G>;
  /** A player's view; no player: the spectator's. */
  view(player?: string): Views[G];
  legal(player: string): Actions[G][];
  /** How many legal actions the player has: `legal(player).length`, without building them. */
  legalCount(player: string): number;
  /**
   * Acts; returns the action's events. Timeouts due at `now` are taken first: they are
   * `lastApplied()` afterwards, and `GameError.applied` when the action is then refused.
   */
  act(player: string, action: Actions[G], opts?: ActOptions): Events[G][];
  /**
   * `act` with the player's legal action at `index` in `legal(player)`, in one call. The
   * index is judged against the list before the timeouts due at `now` are taken; after
   * the checks no timeout can change (`NOT_SEATED`, `STALE_TURN_SEQ`, `GAME_OVER`), an
   * index past its end is `UNKNOWN_ACTION_INDEX` (`reason: {index, count}`).
   */
  actLegal(player: string, index: number, opts?: ActOptions): Events[G][];
  /** `act`, giving the events, the timeouts and the status after it from one call. */
  play(player: string, action: Actions[G], opts?: ActOptions): Played<G>;
  /** `actLegal`, giving the events, the timeouts and the status after it from one call. */
  playLegal(player: string, index: number, opts?: ActOptions): Played<G>;
  /**
   * For bots, simulations and benchmarks that need only the position: the first player to
   * act (`status().toAct[0]`) plays their legal action at `index`, at the match's clock,
   * played and recorded as `actLegal` plays and records it, but without writing its events
   * (one call per decision, the cheapest). Returns how many legal actions the player to act
   * next has, the bound of the next call's index: 0 when no one is to act (always once the
   * match is over). A match that is over is `GAME_OVER`, an index past the end
   * `UNKNOWN_ACTION_INDEX` (`reason: {index, count}`). Timeouts are due at the clock only
   * when a deadline or a disconnected player's grace has passed (a stored state); they
   * are then taken first, as `actLegal` takes them: `lastApplied()`, and
   * `GameError.applied` when the index is then refused.
   */
  advance(index: number): number;
  /**
   * The timeouts taken before the last acting call (`act`, `actLegal`, `play`,
   * `playLegal`, `advance`) or `setConnected`; `[]` after one refused before it acted.
   */
  lastApplied(): Applied<G>[];
  /**
   * Moves the clock to `now`: the timeouts taken, their events as `player` sees them (none:
   * a spectator).
   */
  tick(now: number, player?: string): Applied<G>[];
  /**
   * The change the last acting call, `setConnected` or `tick` made, as `player` sees it
   * (left out: a spectator): each viewer gets their own projection of a game's private
   * events (One Card's `drew`). Empty after a call that changed nothing (a refused
   * `act`, a `setConnected` that changed nothing, a `tick` that took nothing) and after
   * `advance`, so that a host sends each change once.
   */
  events(player?: string): Change<G>;
  /**
   * Marks a player connected or not, after the timeouts due at `now` (in `lastApplied()`):
   * the events to push to every viewer, `presenceChanged` (none when nothing changed). A
   * disconnected player's turn is played by the engine once the deadline or the match's
   * grace ends, whichever comes first: `status().nextTickAt`. The grace is the game's (5 s
   * for the built-in games) unless `create` was given `graceMs`.
   */
  setConnected(player: string, connected: boolean, now?: number): Events[G][];
  /**
   * The match record (it holds the seed: keep it on the server). A restored match's
   * record has `options: null` and `seed: 0`: its `base` holds the stored state.
   */
  record(): RecordOf<G>;
  /** The full state for storage (it holds the RNG: never send it). */
  stateJson(): string;
  outcome(): Outcomes[G] | null;
}

/**
 * A bot of game `G`, of a kind the game offers: the game's own bots, as the server offers
 * them. It sees what its seat sees. Seeded, it picks alike for the same positions.
 */
export declare class Bot<G extends GameId = GameId> {
  private constructor();
  /** The game the bot plays. */
  readonly game: G;
  /** The bot's kind. */
  readonly kind: BotKind<G>;
  /**
   * The action the bot picks for `player` in `match` now, or `null` when the player has
   * none (not to act, nor allowed to; the match over). It changes nothing: act with it,
   * for a seat the host fills with a bot or for a player whose time is running out. A
   * player who is not seated throws `GameError` (`NOT_SEATED`).
   */
  choose(match: Match<G>, player: string): Actions[G] | null;
  /** `choose`, then `match.play(player, action, opts)`: `null` when the bot has no action. */
  play(match: Match<G>, player: string, opts?: ActOptions): Played<G> | null;
}

/** The games of the registry (the package's: one-card, rps, yut, yut-augments). */
export declare class Registry {
  constructor();
  games(): GameId[];
  schemas(game: GameId): Schemas;
  defaultOptions<G extends GameId>(game: G): Options[G];
  recordSchema(): object;
  create<G extends GameId>(opts: CreateOptions<G>): Match<G>;
  /** The kinds of bot that play `game`, the game's preferred first (`random` is always one). */
  botKinds<G extends GameId>(game: G): BotKind<G>[];
  /**
   * A bot of `kind` for matches of `game`, seeded with `seed` (an integer from 0 to
   * 2^53 - 1; left out: one from the operating system).
   */
  bot<G extends GameId>(game: G, kind: BotKind<G>, seed?: number): Bot<G>;
  /**
   * Replays a record (`record()`, typed by its game, or its JSON text, which gives a
   * match of any game: `status().game` says which); a tampered record throws `GameError`.
   */
  load<G extends GameId>(record: RecordOf<G>): Match<G>;
  load(record: string | MatchRecord): Match;
  /**
   * Restores a stored state (`stateJson()`, or its parsed object), validated; a tampered
   * state throws `GameError`.
   */
  restore<G extends GameId>(game: G, state: string | StoredState): Match<G>;
}

/**
 * The package's own refusals, for any game: an argument of the wrong type or range
 * (`BAD_REQUEST`, with the argument in `field` when there is one) and a bug in the engine
 * (`INTERNAL_ERROR`; the match it happened in is dropped).
 */
export type PackageError =
  | { code: "BAD_REQUEST"; message: string; reason: { field?: string; detail: string } }
  | { code: "INTERNAL_ERROR"; message: string; reason: { detail: string } };

/** What every `GameError` has beside its code, message and reason. */
export interface GameErrorFields<G extends GameId = GameId> extends Error {
  /** Timeouts applied before the refusal (they stand). */
  readonly applied: Applied<G>[];
  /** `{name, code, message, reason, applied}`: `JSON.stringify` keeps the message. */
  toJSON(): { name: string; code: string; message: string; reason: object; applied: Applied<G>[] };
}

/** Every key of any member of the union `T`. */
type KeysOf<T> = T extends unknown ? keyof T : never;

/**
 * The union `T` with each member's missing keys present as `?: undefined`: a reason that
 * is one of several shapes (a code's own, or the replay's `{entry, error}` a record was
 * refused with) reads without `in`, `e.reason.entry === undefined` telling them apart.
 */
type Exclusive<T, K extends PropertyKey = KeysOf<T>> = T extends unknown
  ? T & { [P in Exclude<K, keyof T>]?: undefined }
  : never;

/** An error body with its reason made `Exclusive`. */
type Readable<E> = E extends { code: infer C; message: string; reason: infer R }
  ? { code: C; message: string; reason: Exclusive<R> }
  : E;

/** Each game's error bodies, over a union of game ids. */
type ErrorsOf<G extends GameId> = G extends GameId ? Readable<Errors[G]> : never;

/**
 * A refusal: `code` is stable, `message` the Korean text for the player, `reason` the
 * code's own fields. A union discriminated by `code`, from the game's error schema (every
 * code its matches give, each with its reason) and the package's own codes: after
 * `e.code === "STALE_TURN_SEQ"`, `e.reason.expected` is a number. Typed over the match's
 * game: `GameError.is(e, m)` proves a thrown value to be a `GameError<G>` of a
 * `Match<G>`; `instanceof GameError` gives the union over every game.
 */
export type GameError<G extends GameId = GameId> = GameErrorFields<G> & (ErrorsOf<G> | PackageError);
export declare const GameError: {
  readonly prototype: GameError;
  new (body: never): GameError;
  /**
   * Whether `e` is a `GameError` (of this package); given the match the call was made on,
   * typed for its game.
   */
  is<G extends GameId = GameId>(e: unknown, match?: Match<G>): e is GameError<G>;
};
