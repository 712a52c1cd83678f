// Why did this score: a scoring chosen in the log (or among the final
// scorings on the results) lights its tiles (the
// engine's `cover` of the scoring) and the followers it counted on the
// board, dims the rest, and says the sum in words (tiles, shields,
// completed cities for a farm, who had the majority) — in the game, in the
// replay, and on a phone (where the log's drawer gives way to the board).
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, finishedBotGame, launch, shot, watchErrors } from './lib.mjs';

/** A finished game between three random bots in which a feature was completed with a follower on it
 * (random bots leave one without such a scoring now and then: another game is played then). */
async function finishedGame({ outnumbered = false } = {}) {
  let fallback = null;
  for (let tries = 0; tries < 8; tries++) {
    const s = await finishedBotGame([{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }]);
    if (!s.log.some((e) => e.type === 'score' && e.when === 'completed')) continue;
    // Wanted: one where a follower was outnumbered at the end (most games of three random bots have one).
    if (!outnumbered || s.log.some((e) => e.type === 'score' && e.when === 'final' && e.followers.some((f) => !f.counted))) return s;
    fallback = fallback || s;
  }
  if (fallback) return fallback;
  throw new Error('eight games of random bots completed no feature');
}


/** The lit cells and followers on the board, and the words. */
const lit = (page) => page.evaluate(() => ({
  cells: [...document.querySelectorAll('.layer-why .why-tile')].map((r) => `${r.dataset.x},${r.dataset.y}`).sort(),
  followers: document.querySelectorAll('.layer-why .why-follower').length,
  outnumbered: document.querySelectorAll('.layer-why .why-outnumbered').length,
  text: document.querySelector('.why-box:not(.hidden) .why-text')?.textContent || null,
}));

/** Checks one scoring chosen in the log against the game's state. */
async function check(page, state, i, label) {
  const e = state.log[i];
  await page.click(`.log button.why[data-ev="${i}"]`);
  await page.waitForSelector('.why-box:not(.hidden)');
  const got = await lit(page);
  const want = e.cover.map((k) => `${state.board[k].at[0]},${state.board[k].at[1]}`).sort();
  assert.deepEqual(got.cells, want, `${label}: the scoring's tiles are lit`);
  assert.ok(got.text.includes(`= ${e.points} point`), `${label}: the sum is said: ${got.text}`);
  if (e.kind === 'road' || e.kind === 'city') {
    assert.equal(want.length, e.tiles, `${label}: a tile lit for each of the feature's tiles`);
    assert.ok(got.text.includes(`${e.tiles} tile`), got.text);
  }
  if (e.kind === 'city' && e.shields) assert.ok(got.text.includes(`${e.shields} shield`), got.text);
  if (e.kind === 'farm') assert.match(got.text, new RegExp(`supplying ${e.cities} completed cit`));
  if (e.when === 'completed') {
    // The followers it counted came home right after it: each is shown where it stood.
    let back = 0;
    for (let j = i + 1; j < state.log.length && state.log[j].type === 'return'; j++) back++;
    assert.equal(got.followers, back, `${label}: its followers are shown`);
  } else {
    // At the end the entry names the followers on what scored: those that counted are lit, the
    // outnumbered drawn apart and named.
    assert.ok(e.followers.length > 0, `${label}: the final scoring names its followers`);
    const counted = e.followers.filter((f) => f.counted);
    const beaten = e.followers.filter((f) => !f.counted);
    assert.ok(counted.length > 0 && counted.every((f) => e.to.includes(f.seat)), `${label}: the followers of the seats paid counted`);
    assert.ok(beaten.every((f) => !e.to.includes(f.seat)), `${label}: the others did not`);
    assert.equal(got.followers, counted.length, `${label}: the followers that counted are lit`);
    assert.equal(got.outnumbered, beaten.length, `${label}: the outnumbered are drawn apart`);
    assert.match(got.text, /had the most|alone had|A tie/, got.text);
    assert.match(got.text, /counted/, got.text);
    for (const f of beaten) assert.ok(got.text.includes(`${state.players[f.seat].name}'s`) && /outnumbered/.test(got.text), `${label}: the outnumbered are named: ${got.text}`);
  }
  const names = e.to.map((s) => state.players[s].name);
  for (const n of names) assert.ok(got.text.includes(n), `${label}: says who scored (${n}): ${got.text}`);
  return got;
}

test('a scoring chosen in the log is explained on the board, in the game and in the replay', async () => {
  const state = await finishedGame({ outnumbered: true });
  const first = (pred) => state.log.findIndex((e) => e.type === 'score' && pred(e));
  const city = first((e) => e.kind === 'city' && e.when === 'completed');
  const road = first((e) => e.kind === 'road' && e.when === 'completed');
  const farm = first((e) => e.kind === 'farm');
  const cloister = first((e) => e.kind === 'cloister');
  const completed = first((e) => e.when === 'completed');
  assert.ok(completed >= 0, 'random bots completed a feature');
  const { context, close } = await launch({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/game/${state.id}`);
    await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
    // A score on the results: the final scorings, one by one, each shown on the board when chosen.
    const finals = state.log.map((e, i) => (e.type === 'score' && e.when === 'final' ? i : -1)).filter((i) => i >= 0);
    if (finals.length) {
      await page.click('.results-dialog .final-list summary');
      assert.equal(await page.locator('.results-dialog .final-list button.why').count(), finals.length);
      await page.click(`.results-dialog button.why[data-ev="${finals[0]}"]`);
      await page.waitForSelector('.overlay.results.hidden', { state: 'attached' });
      const got = await lit(page);
      assert.equal(got.cells.length, state.log[finals[0]].cover.length, 'the final scoring chosen on the results is lit');
      assert.ok(got.text.includes(`= ${state.log[finals[0]].points} point`), got.text);
    } else {
      await page.click('.results-dialog [data-close]');
    }
    await check(page, state, completed, 'a completed feature');
    await shot(page, 'why-01-completed');
    if (city >= 0) await check(page, state, city, 'a completed city');
    if (road >= 0) await check(page, state, road, 'a completed road');
    if (farm >= 0) { await check(page, state, farm, 'a farm'); await shot(page, 'why-02-farm'); }
    if (cloister >= 0) await check(page, state, cloister, 'a cloister');
    // At the end: a feature left open, and one where a follower was outnumbered (if the bots left one).
    const open = first((e) => e.when === 'final' && e.kind !== 'farm');
    const beaten = first((e) => e.when === 'final' && e.followers.some((f) => !f.counted));
    if (open >= 0) await check(page, state, open, 'a feature scored at the end');
    if (beaten >= 0) { await check(page, state, beaten, 'a final scoring with a follower outnumbered'); await shot(page, 'why-04-outnumbered'); }
    await page.click('.why-box .close');
    assert.equal((await lit(page)).cells.length, 0, 'closed, nothing stays lit');

    // The replay: the same, at the end of the game.
    await page.goto(`${BASE}/#/replay/${state.id}`);
    await page.waitForSelector('.replay-bar');
    await page.keyboard.press('End');
    const replayLog = await page.evaluate(() => [...document.querySelectorAll('.log button.why')].length);
    assert.equal(replayLog, state.log.filter((e) => e.type === 'score').length, 'every scoring in the replay\'s log can be chosen');
    await page.click('.log button.why >> nth=0');
    await page.waitForSelector('.why-box:not(.hidden)');
    assert.ok((await lit(page)).cells.length > 0, 'the replay lights it too');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await lit(page)).cells.length, 0, 'another step, another board: nothing lit');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('on a phone the log gives way to the board that explains the scoring', async () => {
  const state = await finishedGame();
  const i = state.log.findIndex((e) => e.type === 'score');
  const { context, close } = await launch({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/game/${state.id}`);
    await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
    await page.tap('.results-dialog [data-close]');
    await page.tap('.drawer-toggle');
    await page.waitForSelector('.drawer .log-panel');
    await page.locator(`.log button.why[data-ev="${i}"]`).scrollIntoViewIfNeeded();
    await page.tap(`.log button.why[data-ev="${i}"]`);
    await page.waitForSelector('.why-box:not(.hidden)');
    assert.equal(await page.locator('.drawer-open').count(), 0, 'the drawer closed');
    await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
    // Every lit tile is in view, and the words too.
    const inView = await page.evaluate(() => {
      const wrap = document.querySelector('.board-wrap').getBoundingClientRect();
      return [...document.querySelectorAll('.why-tile'), document.querySelector('.why-box')].every((el) => {
        const r = el.getBoundingClientRect();
        return r.left >= wrap.left - 1 && r.right <= wrap.right + 1 && r.top >= wrap.top - 1 && r.bottom <= wrap.bottom + 1;
      });
    });
    assert.ok(inView, 'the lit tiles and the words are on screen');
    await shot(page, 'why-03-phone');
  } finally {
    await close();
  }
});
