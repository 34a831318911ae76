'use strict';
// The games' own bots (`Registry.bot`), as the server offers them: every kind of every
// built-in game plays a whole seeded game in every seat, a seeded bot picks alike, and a
// bot only reads the match it is asked about.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry, GameError } = require('..');
const { refused } = require('../lib/helpers.js');

const reg = new Registry();

/** The seats of a game: two, or three where the game is better with more. */
function seats(game) {
  return game === 'one-card' ? ['a', 'b', 'c'] : ['a', 'b'];
}

/**
 * A whole game of `game` with every seat a bot of `kind` (seeded from `seed`): the record
 * and the number of actions. A seat that may call (One Card's) is asked after those to act.
 */
function botGame(game, kind, seed) {
  const players = seats(game);
  const m = reg.create({ game, players, seed, now: 0 });
  const bots = new Map(players.map((p, i) => [p, reg.bot(game, kind, seed * 10 + i)]));
  let actions = 0;
  for (let step = 0; step < 20000 && !m.status().over; step++) {
    const status = m.status();
    let acted = false;
    for (const player of [...status.toAct, ...status.mayAct]) {
      const played = bots.get(player).play(m, player, { turnSeq: status.turnSeq });
      if (played !== null) {
        acted = true;
        actions++;
        break;
      }
    }
    assert.ok(acted, `${game} ${kind}: no bot had an action at ${JSON.stringify(status)}`);
  }
  assert.equal(m.status().over, true, `${game} ${kind} seed ${seed}: no end`);
  assert.notEqual(m.outcome(), null);
  return { record: m.record(), actions };
}

test('every kind of every game plays a whole seeded game in every seat', () => {
  assert.deepEqual(reg.botKinds('yut'), ['policy', 'strong', 'random', 'pimc', 'ismcts']);
  assert.deepEqual(reg.botKinds('one-card'), ['policy', 'ismcts', 'random', 'pimc']);
  assert.deepEqual(reg.botKinds('rps'), ['random', 'pimc', 'ismcts']);
  for (const game of reg.games()) {
    for (const kind of reg.botKinds(game)) {
      const { record, actions } = botGame(game, kind, 5);
      assert.ok(actions > 0, `${game} ${kind}`);
      // Seeded bots pick alike: the same game again, action for action.
      assert.deepEqual(botGame(game, kind, 5).record, record, `${game} ${kind}`);
      // The record replays to the same end.
      assert.deepEqual(reg.load(record).outcome(), reg.load(record).outcome());
    }
  }
});

test('a bot reads the match and changes nothing; the host acts with its choice', () => {
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 3 });
  const bot = reg.bot('yut', 'policy', 1);
  assert.equal(bot.game, 'yut');
  assert.equal(bot.kind, 'policy');
  const player = m.status().toAct[0];
  const other = player === 'a' ? 'b' : 'a';
  const before = m.stateJson();
  const action = bot.choose(m, player);
  assert.deepEqual(action, { type: 'THROW' });
  assert.equal(m.stateJson(), before);
  // Not to act: no action.
  assert.equal(bot.choose(m, other), null);
  m.act(player, action);
  assert.equal(m.status().turnSeq, 1);
});

test("a bot's refusals: an unknown kind, another game's match, a player not seated", () => {
  const e = refused(() => reg.bot('rps', 'policy'), 'UNKNOWN_BOT');
  assert.deepEqual(e.reason.bots, ['random', 'pimc', 'ismcts']);
  refused(() => reg.bot('chess', 'random'), 'UNKNOWN_GAME');
  refused(() => reg.bot('rps', 'random', -1), 'BAD_REQUEST');
  const yutBot = reg.bot('yut', 'random', 1);
  const rps = reg.create({ game: 'rps', players: ['a', 'b'], seed: 1 });
  assert.equal(refused(() => yutBot.choose(rps, 'a'), 'BAD_REQUEST').reason.field, 'match');
  refused(() => yutBot.choose({}, 'a'), 'BAD_REQUEST');
  const yut = reg.create({ game: 'yut', players: ['a', 'b'], seed: 1 });
  refused(() => yutBot.choose(yut, 'zed'), 'NOT_SEATED');
  // An unseeded bot plays too.
  const free = reg.bot('rps', 'random');
  assert.equal(free.play(rps, 'a').status.toAct.length, 1);
  assert.ok(GameError.is(refused(() => free.choose(rps, ''), 'BAD_REQUEST')));
});

test("a bot takes a timed-out player's turn as the game's own bot would", () => {
  // The host asks the policy bot before the deadline and acts with it: the engine's own
  // timeout action for Yut is the policy bot's.
  const m = reg.create({ game: 'yut', players: ['a', 'b'], seed: 9, now: 0 });
  const t = reg.create({ game: 'yut', players: ['a', 'b'], seed: 9, now: 0 });
  const bot = reg.bot('yut', 'policy', 0);
  for (let i = 0; i < 12; i++) {
    const { toAct, deadline } = m.status();
    const action = bot.choose(m, toAct[0]);
    m.act(toAct[0], action, { now: deadline - 1 });
    const applied = t.tick(t.status().deadline);
    assert.deepEqual(applied[0].action, action);
  }
});
