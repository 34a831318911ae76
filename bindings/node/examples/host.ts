// A small game host over the package, as a TypeScript server would write one: one match of
// two players, each message acted with the `turnSeq` the player saw, every player sent their
// own view after each change, and one timer armed at `status().nextTickAt` (timeouts and a
// disconnected player's grace are the engine's: the host only wakes it). The transport is left
// out (`send` stands for a WebSocket's): `onMessage` is what a socket's message handler calls.

import { GameError, Registry } from "party-games";
import type { Actions, GameId, Match } from "party-games";

/** What a client sends: an action and the `turnSeq` of the view it acted on. */
interface ActMessage<G extends GameId> {
  action: Actions[G];
  turnSeq: number;
}

/** Where the host's messages go: one player's socket. */
type Send = (player: string, message: object) => void;

/** One match and its timer. */
export class Room<G extends GameId> {
  private readonly match: Match<G>;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    registry: Registry,
    game: G,
    private readonly players: string[],
    private readonly send: Send,
    private readonly now: () => number = Date.now,
  ) {
    this.match = registry.create({ game, players, now: this.now() });
    this.broadcast();
  }

  /** A message from `player`'s socket: parsed, acted, answered. */
  onMessage(player: string, text: string): void {
    let message: ActMessage<G>;
    try {
      // The engine judges the action itself (a malformed one is `BAD_REQUEST`): the host
      // only needs the two fields to exist.
      message = JSON.parse(text) as ActMessage<G>;
    } catch {
      this.send(player, { error: "BAD_JSON" });
      return;
    }
    try {
      this.match.act(player, message.action, { turnSeq: message.turnSeq, now: this.now() });
    } catch (e) {
      if (!(e instanceof GameError)) throw e;
      const refused = e as GameError<G>;
      // The timeouts taken before the refusal stand: the others must see them too.
      if (refused.applied.length > 0) this.broadcast();
      this.send(player, { error: refused.code, message: refused.message, reason: refused.reason });
      return;
    }
    this.broadcast();
  }

  /** A socket opened or closed: the engine plays a disconnected player's turn after a grace. */
  onPresence(player: string, connected: boolean): void {
    const events = this.match.setConnected(player, connected, this.now());
    if (events.length > 0 || this.match.lastApplied().length > 0) this.broadcast();
  }

  /** Each player their own view (hidden information stays hidden), then the timer re-armed. */
  private broadcast(): void {
    const status = this.match.status();
    for (const player of this.players) {
      this.send(player, {
        view: this.match.view(player),
        change: this.match.events(player),
        turnSeq: status.turnSeq,
        toAct: status.toAct,
        deadline: status.deadline,
      });
    }
    if (status.over) for (const player of this.players) this.send(player, { outcome: this.match.outcome() });
    this.arm(status.nextTickAt);
  }

  /** One timer a match, at the time the engine asks to be woken. */
  private arm(at: number | null): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (at === null) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.match.tick(Math.max(at, this.now())).length > 0) this.broadcast();
      else this.arm(this.match.status().nextTickAt);
    }, Math.max(0, at - this.now()));
  }

  /** Stops the timer (the room closed). */
  close(): void {
    this.arm(null);
  }
}

/** A demonstration without sockets: a throw, a refusal, a disconnection. */
export function demo(): string[] {
  const log: string[] = [];
  let turnSeq = 0;
  let toAct: string[] = [];
  const room = new Room(new Registry(), "yut", ["ana", "bo"], (player, message) => {
    if ("turnSeq" in message && typeof message.turnSeq === "number") turnSeq = message.turnSeq;
    if ("toAct" in message && Array.isArray(message.toAct)) toAct = message.toAct;
    log.push(`${player} <- ${JSON.stringify(message).slice(0, 80)}`);
  });
  const [first, second] = toAct[0] === "ana" ? ["ana", "bo"] : ["bo", "ana"];
  room.onMessage(first, JSON.stringify({ action: { type: "THROW" }, turnSeq }));
  // A throw is followed by the thrower's move: the other is out of turn, refused to them alone.
  room.onMessage(second, JSON.stringify({ action: { type: "THROW" }, turnSeq }));
  room.onPresence(second, false);
  room.close();
  return log;
}
