// A whole game by keyboard alone, in a real Chromium: Tab to the start
// button, then on each turn the arrow keys, R, F (a follower's spot) and
// Enter; a live region says every move in words. axe-core finds no
// violation on the start page, the new-game form, the game, the results
// and the replay (the rules page: rules.test.mjs).
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, GAMES_LOADED, launch, nextTurn, shot, version, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

/** Presses Tab until `selector` has the focus (at most `max` times). */
async function tabTo(page, selector, max = 80) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement && document.activeElement.matches(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reaches ${selector}`);
}

/** Whether the focused element shows a focus outline. */
const focusShows = (page) => page.evaluate(() => {
  const s = getComputedStyle(document.activeElement);
  return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
});

test('a whole game by keyboard alone, said in words; axe-core finds nothing to fix', async () => {
  const { context, close } = await launch({ viewport: { width: 1280, height: 860 } });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    await page.waitForSelector(GAMES_LOADED);
    await checkA11y(page, 'start page');
    await page.goto(`${BASE}/#/new`);
    await page.waitForSelector('body[data-screen="new"] .new-game .start');
    await page.click('.more-rules summary');
    await checkA11y(page, 'new-game form');
    await page.reload();
    await page.waitForSelector('.new-game .start');

    await tabTo(page, '.new-game .start');
    assert.ok(await focusShows(page), 'the focused button shows it');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/game\/[a-z0-9]+$/);
    const id = page.url().split('/').pop();
    assert.equal(await nextTurn(page), 'mine');
    // The board is reached by Tab and has a name.
    await tabTo(page, 'svg.board');
    assert.ok(await focusShows(page), 'the focused board shows it');
    assert.match(await page.getAttribute('svg.board', 'aria-label'), /^The board: 1 tile laid; your tile, a tile with .* fits in \d+ cells$/);
    await checkA11y(page, 'game');
    // With prefers-reduced-motion nothing on the page moves.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await page.evaluate(() => document.getAnimations().length), 0, 'no animation with reduced motion');
    await page.emulateMedia({ reducedMotion: null });
    // (Otherwise the cells where the tile fits as turned are outlined by marching dashes.)
    if (await page.locator('.target.fits').count()) {
      await page.waitForFunction(() => document.getAnimations().length > 0, null, { timeout: 5000 });
    }

    let turn = 0;
    let deployed = 0;
    let noneLeft = 0;
    let blockedSeen = 0;
    const said = [];
    const keys = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'];
    for (;;) {
      if ((await nextTurn(page)) === 'over') break;
      const v = await version(page);
      const text = await page.textContent('.announcer');
      if (text) said.push(text);
      // An arrow with no lit cell that way (from the last tile laid) leaves the tile where it is, and says so.
      const blocked = await page.evaluate(() => {
        const last = document.querySelector('.layer-marks .last-move');
        const from = last ? [Math.floor(Number(last.getAttribute('x')) / 100), Math.floor(Number(last.getAttribute('y')) / 100)] : [0, 0];
        const cells = [...document.querySelectorAll('.target')].map((t) => [Number(t.dataset.x), Number(t.dataset.y)]);
        const dirs = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
        return Object.keys(dirs).find((k) => !cells.some(([x, y]) => (x - from[0]) * dirs[k][0] + (y - from[1]) * dirs[k][1] > 0)) || null;
      });
      if (blocked) {
        await page.keyboard.press(blocked);
        await page.waitForFunction(() => /No cell further/.test(document.querySelector('.announcer').textContent));
        assert.equal(await page.locator('.ghost-tile.solid').count(), 0, `turn ${turn}: ${blocked} with no cell that way moves no tile`);
        blockedSeen++;
      }
      // Move the tile with the arrows until it lies somewhere (every cell the keys reach is legal).
      for (let i = 0; i < 8 && !(await page.locator('.ghost-tile.solid').count()); i++) await page.keyboard.press(keys[(turn + i) % 4]);
      assert.equal(await page.locator('.ghost-tile.solid').count(), 1, `turn ${turn}: the arrows lay the tile somewhere`);
      if (turn % 3 === 1) await page.keyboard.press(keys[(turn + 1) % 4]);
      if (turn % 4 === 2) await page.keyboard.press('r');
      await page.waitForFunction(() => /turned \d+°/.test(document.querySelector('.announcer').textContent));
      assert.equal(await page.locator('.board .cursor').count(), 1, 'the keyboard cursor shows');
      // A follower whenever one may go: the supply runs out, and then none is offered.
      const supply = Number((await page.textContent('.player.active .player-supply .sr-only')).split(' ')[0]);
      if (supply === 0) {
        noneLeft++;
        assert.doesNotMatch(await page.textContent('.banner'), /spot|follower/, 'no follower is offered when none is left');
        assert.equal(await page.locator('.spot-picker, .layer-spots .spot').count(), 0, 'no spot is offered when no follower is left');
        if (noneLeft === 1) await shot(page, 'keyboard-02-no-follower-left');
      } else if ((await page.locator('.spot-picker [data-act="spot"]').count()) > 0) {
        await page.keyboard.press('f');
        await page.waitForSelector('.follower.pending');
        deployed++;
      }
      if (turn === 3 && (await page.locator('.follower.pending').count())) {
        await page.keyboard.press('Escape');
        assert.equal(await page.locator('.follower.pending').count(), 0, 'Escape takes back the follower');
        await page.keyboard.press('Escape');
        assert.equal(await page.locator('.ghost-tile.solid').count(), 0, 'and then the tile');
        for (let i = 0; i < 4 && !(await page.locator('.ghost-tile.solid').count()); i++) await page.keyboard.press(keys[i]);
        await page.waitForSelector('.ghost-tile.solid');
      }
      if (turn === 6) await shot(page, 'keyboard-01-cursor');
      await page.keyboard.press('Enter');
      await page.waitForFunction((v0) => Number(document.querySelector('#app').dataset.version) > v0, v);
      turn++;
      assert.ok(turn < 80, 'the game ends');
    }
    assert.ok(turn >= 30, `we played ${turn} turns`);
    assert.ok(deployed > 0, 'followers were deployed by keyboard');
    assert.ok(noneLeft > 0, 'the supply ran out at least once');
    assert.ok(blockedSeen > 0, 'some turn had a direction with no cell, and its arrow moved nothing');
    assert.ok(said.some((t) => /laid a tile with .* (of|on) the start/.test(t)), `moves are said in words: ${said.slice(0, 3).join(' | ')}`);
    assert.ok(said.some((t) => /\+\d+, /.test(t)), 'scores are said in words');

    await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
    await page.waitForTimeout(300);
    await checkA11y(page, 'results');
    await page.keyboard.press('Escape');
    await page.goto(`${BASE}/#/replay/${id}`);
    await page.waitForSelector('.replay-bar');
    await page.keyboard.press('End');
    await checkA11y(page, 'replay');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
