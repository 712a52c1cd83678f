// The chat as its reader sees it (web/js/chatlog.js) in node, no browser:
// mutes by seat and by spectator number, never by name; a muted spectator
// who comes back under a new number is hidden until "Show"; the page keeps
// the last 1000 spectators' messages.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// web/ has no package.json saying its .js files are modules: loaded as one.
const source = readFileSync(new URL('../../web/js/chatlog.js', import.meta.url), 'utf8');
const { MAX_SPECTATOR_MESSAGES, mute, outOfSight, overflow, readMutes, showNew, unmute, whose } = await import(`data:text/javascript,${encodeURIComponent(source)}`);

const player = (seq, seat, name) => ({ seq, seat, name, text: `${name} plays` });
const spectator = (seq, n, name, account = false) => ({ seq, spectator: n, name, text: `${name} watches`, ...(account ? { account } : {}) });

test('muting the spectator Bob leaves the player Bob alone, and the other way round', () => {
  const bobPlays = player(1, 1, 'Bob');
  const bobWatches = spectator(2, 1, 'Bob', true);
  const chat = [bobPlays, bobWatches];
  assert.notEqual(whose(bobPlays), whose(bobWatches));
  const m = mute(readMutes(null), bobWatches, chat);
  assert.equal(outOfSight(m, bobWatches), 'muted');
  assert.equal(outOfSight(m, bobPlays), null, 'the player Bob still speaks');
  assert.equal(outOfSight(m, spectator(3, 1, 'Bob', true)), 'muted', 'the account, wherever it writes from');
  const p = mute(readMutes(null), bobPlays, chat);
  assert.equal(outOfSight(p, bobPlays), 'muted');
  assert.equal(outOfSight(p, bobWatches), null);
  assert.equal(outOfSight(p, player(4, 0, 'Bob')), null, 'another seat of the same name');
});

test('a muted spectator back under a new number is hidden until shown', () => {
  const chat = [spectator(1, 1, 'Spectator 1'), spectator(2, 2, 'Spectator 2'), player(3, 0, 'Ada')];
  let m = mute(readMutes(null), chat[1], chat);
  assert.equal(outOfSight(m, chat[1]), 'muted');
  assert.equal(outOfSight(m, chat[0]), null, 'a spectator from before the mute');
  const back = spectator(4, 3, 'Spectator 3');
  assert.equal(outOfSight(m, back), 'new', 'new address, new browser: hidden');
  assert.equal(outOfSight(m, spectator(5, 4, 'Eve', true)), null, 'a signed-in spectator is not new in that sense');
  assert.equal(outOfSight(m, player(6, 1, 'Bob')), null);
  m = showNew(m);
  assert.equal(outOfSight(m, back), null, 'shown');
  assert.equal(outOfSight(m, chat[1]), 'muted', 'the muted stay muted');
  // A second mute hides those who came after it, again.
  m = mute(m, back, [...chat, back]);
  assert.equal(outOfSight(m, spectator(7, 5, 'Spectator 5')), 'new');
  // Stored and read back (localStorage holds JSON).
  const again = readMutes(JSON.parse(JSON.stringify(m)));
  assert.deepEqual(again, m);
  // No spectator muted any more: newcomers show.
  m = unmute(unmute(m, whose(back)), whose(chat[1]));
  assert.equal(outOfSight(m, spectator(8, 6, 'Spectator 6')), null);
  assert.deepEqual(m.people, []);
});

test('what an older page stored (a list of names) mutes nobody', () => {
  const m = readMutes(['Bob']);
  assert.deepEqual(m, { people: [], after: null, shown: false });
  assert.equal(outOfSight(m, player(1, 1, 'Bob')), null);
  assert.equal(whose({ seq: 2, name: 'Spectator 1', text: 'an older server' }), null);
});

test('a page keeps the last 1000 spectators\' messages, and every player\'s', () => {
  const messages = new Map();
  for (let seq = 1; seq <= 1020; seq++) {
    messages.set(seq, seq % 100 === 0 ? player(seq, 0, 'Ada') : spectator(seq, seq % 7, `Spectator ${seq % 7}`));
  }
  assert.equal(MAX_SPECTATOR_MESSAGES, 1000);
  const gone = overflow(messages);
  assert.deepEqual(gone, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'the oldest spectators\' (1010 of them, 10 players\')');
  for (const seq of gone) messages.delete(seq);
  assert.deepEqual(overflow(messages), []);
  assert.equal([...messages.values()].filter((m) => m.seat != null).length, 10);
});
