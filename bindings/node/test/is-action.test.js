'use strict';
// `isAction`: the runtime guard for wire input, as strict as the match's own reading.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Registry, GameError, isAction } = require('..');

test('an action of the game is one; a typo, an extra field or a wrong type is not', () => {
  assert.equal(isAction('yut', { type: 'THROW' }), true);
  assert.equal(isAction('yut', { type: 'MOVE', throwIndex: 0, from: 'home' }), true);
  assert.equal(isAction('rps', { type: 'PICK', hand: 'rock' }), true);
  // Legal or not is the match's to judge: a well-formed move is an action all the same.
  assert.equal(isAction('yut', { type: 'MOVE', throwIndex: 7, from: 'home' }), true);
  for (const [game, value] of [
    ['yut', { type: 'THORW' }],
    ['yut', { type: 'THROW', force: 1 }],
    ['yut', { type: 'MOVE', throwIndex: '0', from: 'home' }],
    ['rps', { type: 'PICK', hand: 'rock', speed: 2 }],
    ['rps', { type: 'PICK', hand: 3 }],
    ['rps', { type: 'PICK' }],
    // Another game's action.
    ['rps', { type: 'THROW' }],
    ['yut', ['THROW']],
    ['yut', 'THROW'],
    ['yut', null],
    ['yut', undefined],
    ['yut', { type: 'THROW', toJSON() { throw new Error('no'); } }],
    ['yut', { type: 'THROW', n: 10n }],
  ]) {
    assert.equal(isAction(game, value), false, `${game}: ${String(value && value.type)}`);
  }
});

test('what isAction accepts, a match reads without BAD_JSON', () => {
  const m = new Registry().create({ game: 'rps', players: ['a', 'b'], seed: 1 });
  const wire = JSON.parse('{"type":"PICK","hand":"paper"}');
  assert.ok(isAction('rps', wire));
  assert.equal(m.act('a', wire).length > 0, true);
  const typo = JSON.parse('{"type":"PICK","hand":"paper","note":"x"}');
  assert.equal(isAction('rps', typo), false);
  assert.throws(() => m.act('b', typo), (e) => e instanceof GameError && e.code === 'BAD_JSON');
});

test('an unknown game throws the registry code', () => {
  assert.throws(
    () => isAction('chess', { type: 'MOVE' }),
    (e) => e instanceof GameError && e.code === 'UNKNOWN_GAME' && e.reason.game === 'chess',
  );
  // Even for a value that is no action at all.
  assert.throws(() => isAction('chess', 7), (e) => e instanceof GameError && e.code === 'UNKNOWN_GAME');
  assert.throws(() => isAction(7, { type: 'THROW' }), (e) => e instanceof GameError && e.code === 'BAD_REQUEST');
});
