// Puzzles (#/puzzles) in a real Chromium: a puzzle shows only what its
// player saw, a legal move that is not the answer is explained (what it
// does, where to look) and not counted, the answer is accepted and
// explained as the review says moves, the solved puzzle is remembered, the
// puzzle of the day is the date's, and axe-core finds nothing to fix.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openView, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';
import { footerOverTilePanel, keyMove, staticJson } from './practice.mjs';

const puzzles = () => staticJson('puzzles/puzzles.json');

test('the shipped puzzles show no hidden information and replay on the server', async () => {
  const data = await puzzles();
  assert.ok(data.puzzles.length >= 5, 'a starter set');
  for (const p of data.puzzles) {
    const deck = p.record.deck;
    assert.equal(deck[deck.length - 1] === p.tile || deck.includes(p.tile), true, `${p.id}: the tile to play was drawn`);
    assert.equal(p.record.seed, undefined, `${p.id}: no seed (it would give the bag's order away)`);
    assert.equal(p.record.moves.length + 1, p.turn);
    assert.ok(p.gap >= data.selection.min_gap, `${p.id}: clear by the threshold`);
    const r = await fetch(`${BASE}/api/replay`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...p.record, moves: [...p.record.moves, p.best] }),
    });
    assert.equal(r.status, 200, `${p.id}: the answer is legal`);
  }
});

test('a wrong answer is explained, the answer solves the puzzle and is remembered', async () => {
  const data = await puzzles();
  const p = data.puzzles[0];
  const { context, close } = await launch({ viewport: { width: 1280, height: 820 } });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/puzzles`);
    await page.waitForSelector('.puzzle-list li');
    assert.equal(await page.locator('.puzzle-list li').count(), data.puzzles.length);
    await checkA11y(page, 'the puzzles list');
    // The puzzle of the day is the date's.
    const day = Math.floor(Date.now() / 86_400_000) % data.puzzles.length;
    await page.click('a.today');
    await page.waitForSelector('.practice-move .big-tile');
    assert.equal(await page.getAttribute('.next-puzzle', 'href'), `#/puzzles/${data.puzzles[(day + 1) % data.puzzles.length].id}`);

    await openView(page, `${BASE}/#/puzzles/${encodeURIComponent(p.id)}`);
    await page.waitForSelector('.practice-move .big-tile');
    await checkA11y(page, 'a puzzle');
    // The runner-up: legal, not the answer.
    await keyMove(page, p.second);
    const wrong = page.locator('.practice-result .verdict.bad');
    await wrong.waitFor();
    const why = await wrong.textContent();
    assert.ok(/not the clearly best move/.test(why), `a wrong answer is explained: ${why}`);
    assert.ok(/Yours: /.test(why) && /scores \d+ now/.test(why), `what it does: ${why}`);
    await shot(page, 'puzzle-wrong');
    await page.keyboard.press('Escape');
    // The answer.
    await keyMove(page, p.best);
    const right = page.locator('.practice-result .verdict.ok');
    await right.waitFor();
    const said = await right.textContent();
    assert.ok(/Right!/.test(said) && /The best move: a tile with/.test(said) && /points behind/.test(said), `explained: ${said}`);
    await shot(page, 'puzzle-solved');
    // Remembered.
    await page.goto(`${BASE}/#/puzzles`);
    await page.reload();
    await page.waitForSelector('.puzzle-list li');
    assert.equal(await page.locator('.puzzle-list li.done').count(), 1);
    assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  } finally {
    await close();
  }
});

test('a puzzle on a phone: the answer shown on the board and said', async () => {
  const data = await puzzles();
  const { context, close } = await launch({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/puzzles/${encodeURIComponent(data.puzzles[0].id)}`);
    await page.waitForSelector('.practice-move .big-tile');
    assert.equal(await footerOverTilePanel(page), false, 'the language footer is not drawn over the tile panel');
    await page.click('.show-answer');
    await page.waitForSelector('.practice-result [data-code="answer"]');
    assert.equal(await page.getAttribute('.practice-move', 'data-placed'), `${data.puzzles[0].best.at.join(',')},${data.puzzles[0].best.rot}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1), 'no sideways scrolling');
    await shot(page, 'puzzle-answer-phone');
  } finally {
    await close();
  }
});
