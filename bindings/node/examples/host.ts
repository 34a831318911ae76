// A small game host over the package, as a TypeScript server would write one, for any of
// its games (Yut and One Card below): one match, each message acted with the `turnSeq` the
// player saw, every player sent their own view and change after each one, seats filled by
// the game's own bots, and one timer armed at `status().nextTickAt` with `wakeAt` (the
// engine's timeouts and a disconnected player's grace, however far: a 30-day grace does
// not fire early). The transport is left out (`send` stands for a WebSocket's):
// `onMessage` is what a socket's message handler calls. No cast, no `any`: wire input is
// proved with `isAction`, errors with `GameError.is`.

import { GameError, Registry, isAction, wakeAt } from "party-games";
import type { Alarm, Bot, BotKind, GameId, Match, Options } from "party-games";

/** Where the host's messages go: one player's socket. */
export type Send = (player: string, message: object) => void;

/** A seat: a person, or a bot of one of the game's kinds. */
export interface Seat<G extends GameId> {
  player: string;
  bot?: BotKind<G>;
}

/** How a room is set up. */
export interface RoomOptions<G extends GameId> {
  game: G;
  seats: Seat<G>[];
  /** The game's options; left out: its defaults. */
  options?: Options[G];
  send: Send;
  /** The host's clock in milliseconds (a test's own); left out: `Date.now`. */
  clock?: () => number;
  /** How long a disconnected player is waited for; left out: the game's grace. */
  graceMs?: number;
  /** Seeds the match and its bots, for a game that replays; left out: from the OS. */
  seed?: number;
}

/** One match, its bots and its timer. */
export class Room<G extends GameId> {
  readonly match: Match<G>;
  private readonly bots = new Map<string, Bot<G>>();
  private readonly send: Send;
  private readonly clock: () => number;
  private alarm: Alarm | undefined;

  constructor(registry: Registry, options: RoomOptions<G>) {
    const { game, seats, seed, graceMs } = options;
    this.send = options.send;
    this.clock = options.clock ?? Date.now;
    const players = seats.map((s) => s.player);
    this.match = registry.create({ game, players, options: options.options, now: this.clock(), seed, graceMs });
    seats.forEach((seat, i) => {
      if (seat.bot !== undefined) {
        this.bots.set(seat.player, registry.bot(game, seat.bot, seed === undefined ? undefined : seed + i));
      }
    });
    this.changed();
  }

  /** A message from `player`'s socket: `{action, turnSeq}` as JSON, acted and answered. */
  onMessage(player: string, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.send(player, { error: "BAD_JSON" });
      return;
    }
    const game = this.match.status().game;
    if (
      typeof message !== "object" ||
      message === null ||
      !("action" in message) ||
      !("turnSeq" in message) ||
      typeof message.turnSeq !== "number" ||
      !isAction(game, message.action)
    ) {
      this.send(player, { error: "BAD_MESSAGE" });
      return;
    }
    try {
      this.match.act(player, message.action, { turnSeq: message.turnSeq, now: this.clock() });
    } catch (e) {
      if (!GameError.is(e, this.match)) throw e;
      // The timeouts taken before the refusal stand: the others must see them too.
      if (e.applied.length > 0) this.changed();
      // `JSON.stringify(e)` keeps the code, the Korean message and the reason.
      this.send(player, { error: e });
      return;
    }
    this.changed();
  }

  /** A socket opened or closed: the engine plays a disconnected player's turn after the grace. */
  onPresence(player: string, connected: boolean): void {
    const events = this.match.setConnected(player, connected, this.clock());
    if (events.length > 0 || this.match.lastApplied().length > 0) this.changed();
    else this.arm();
  }

  /** Stops the timer (the room closed). */
  close(): void {
    this.alarm?.cancel();
    this.alarm = undefined;
  }

  /**
   * After a change: each player their own view and change (hidden information stays
   * hidden), then the bots' moves (each a change too), then the timer re-armed.
   */
  private changed(): void {
    this.broadcast();
    while (this.playBot()) this.broadcast();
    this.arm();
  }

  /** Each person their own view, change and the status. */
  private broadcast(): void {
    const status = this.match.status();
    for (const player of status.players) {
      if (this.bots.has(player)) continue;
      this.send(player, { view: this.match.view(player), change: this.match.events(player), status });
      if (status.over) this.send(player, { outcome: this.match.outcome() });
    }
  }

  /** One move of the first bot that has one; whether one moved. */
  private playBot(): boolean {
    const status = this.match.status();
    for (const player of [...status.toAct, ...status.mayAct]) {
      const bot = this.bots.get(player);
      if (bot === undefined) continue;
      if (bot.play(this.match, player, { turnSeq: status.turnSeq, now: this.clock() }) !== null) return true;
    }
    return false;
  }

  /** One timer a match, at the time the engine asks to be woken. */
  private arm(): void {
    this.alarm?.cancel();
    this.alarm = wakeAt(
      this.match.status().nextTickAt,
      () => {
        this.alarm = undefined;
        if (this.match.tick(this.clock()).length > 0) this.changed();
        else this.arm();
      },
      this.clock,
    );
  }
}

/**
 * A demonstration without sockets: a Yut match of a person against the `policy` bot (a
 * throw, a move out of turn refused, a disconnection), and a One Card match of a person
 * and two bots. Returns what each person was sent.
 */
export function demo(): string[] {
  const log: string[] = [];
  const registry = new Registry();
  let turnSeq = 0;
  const send: Send = (player, message) => {
    if ("status" in message && typeof message.status === "object" && message.status !== null) {
      if ("turnSeq" in message.status && typeof message.status.turnSeq === "number") turnSeq = message.status.turnSeq;
    }
    log.push(`${player} <- ${JSON.stringify(message).slice(0, 100)}`);
  };
  const yut = new Room(registry, { game: "yut", seats: [{ player: "ana" }, { player: "bot", bot: "policy" }], send, seed: 7 });
  const toAct = yut.match.status().toAct;
  if (toAct.includes("ana")) {
    const legal = yut.match.view("ana").legalActions;
    yut.onMessage("ana", JSON.stringify({ action: legal[0], turnSeq }));
  }
  yut.onMessage("ana", JSON.stringify({ action: { type: "THROW" }, turnSeq: turnSeq + 100 }));
  yut.onPresence("ana", false);
  yut.close();
  const cards = new Room(registry, {
    game: "one-card",
    seats: [{ player: "ana" }, { player: "bot1", bot: "policy" }, { player: "bot2", bot: "random" }],
    send,
    seed: 3,
  });
  const first = cards.match.view("ana").legalActions[0];
  if (first !== undefined) cards.onMessage("ana", JSON.stringify({ action: first, turnSeq }));
  cards.close();
  return log;
}
