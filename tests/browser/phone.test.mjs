// A whole game on a phone (390 × 844, touch), played by tapping as a
// newcomer would: on every turn the tile and Confirm are on screen and the
// page never scrolls; a spot for a follower is picked from the buttons
// under the tile; the log is in a drawer. Also the start page at 320 px.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, GAMES_LOADED, launch, nextTurn, shot, version, wake, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** Whether an element lies wholly within the viewport. */
async function inViewport(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  }, selector);
}

/** Whether anything on the page has scrolled, or could. */
const scrolled = (page) => page.evaluate(() => window.scrollY !== 0 || window.scrollX !== 0
  || document.documentElement.scrollHeight > window.innerHeight || document.documentElement.scrollWidth > window.innerWidth
  || document.querySelector('main').scrollTop !== 0);

/** Taps a lit cell whose middle is on the board's visible part (not under the banner or a button). */
async function tapCell(page, n) {
  const spots = await page.evaluate(() => {
    const wrap = document.querySelector('.board-wrap').getBoundingClientRect();
    const covered = [...document.querySelectorAll('.banner, .board-wrap .tool, .board-tools')].map((e) => e.getBoundingClientRect());
    return [...document.querySelectorAll('.target')].map((t) => t.getBoundingClientRect())
      .map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width }))
      .filter((p) => p.x > wrap.left + 4 && p.x < wrap.right - 4 && p.y > wrap.top + 4 && p.y < wrap.bottom - 4
        && !covered.some((c) => p.x >= c.left && p.x <= c.right && p.y >= c.top && p.y <= c.bottom));
  });
  if (!spots.length) return null;
  const s = spots[n % spots.length];
  await page.touchscreen.tap(s.x, s.y);
  return s;
}

/** Waits for the tile a tap previews. A page left without animation frames
 * (headless Chromium's, see `wake`) is woken; a tap that still did not take
 * (the view moved under it on a busy machine) is made again, as a player would. */
async function previewed(page, n) {
  const seen = (timeout) => page.waitForSelector('.ghost-tile.solid', { timeout }).then(() => true, () => false);
  if (await seen(3000)) return;
  await wake(page);
  if (await seen(2000)) return;
  await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
  assert.ok(await tapCell(page, n), 'a lit cell to tap again');
  await page.waitForSelector('.ghost-tile.solid', { timeout: 10_000 });
}

test('a whole game on a phone, played by tapping', async () => {
  const { context, close } = await launch(PHONE);
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    await page.tap('.new-game .start');
    await page.waitForURL(/#\/game\/[a-z0-9]+$/);
    assert.equal(await nextTurn(page), 'mine');
    // No keyboard hints on a touch screen.
    assert.equal(await page.locator('.tile-panel kbd:visible, .banner kbd:visible').count(), 0);
    await shot(page, 'phone-01-first-turn');
    await checkA11y(page, 'game on a phone');

    let turn = 0;
    let deployed = 0;
    let smallest = Infinity;
    let tappedAgain = 0;
    for (;;) {
      if ((await nextTurn(page)) === 'over') break;
      const v = await version(page);
      await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
      assert.ok(await inViewport(page, '.tile-panel .big-tile'), `turn ${turn}: the tile is on screen`);
      assert.ok(await inViewport(page, '.tile-panel [data-act="confirm"]'), `turn ${turn}: Confirm is on screen`);
      assert.ok(!(await scrolled(page)), `turn ${turn}: the page does not scroll`);

      // Tap once: the tile is previewed there, nothing is played yet.
      let tapped = await tapCell(page, turn * 5);
      if (tapped) smallest = Math.min(smallest, tapped.w);
      if (!tapped) {
        await page.tap('.zoom-fit');
        await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
        tapped = await tapCell(page, turn * 5);
      }
      assert.ok(tapped, `turn ${turn}: a lit cell to tap`);
      await previewed(page, turn * 5);
      assert.equal(await version(page), v, 'a tap previews, it does not play');
      // (A move sent would change the version only when the server answers; it ends "my turn" at once.)
      assert.equal(await page.getAttribute('#app', 'data-myturn'), 'true', 'a tap previews, it sends nothing');
      assert.match(await page.textContent('.banner'), /tap the tile again|pick a spot/, 'the banner says how to lay it');
      await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
      // The view came to the tile: its follower spots are big enough to touch, or picked from buttons.
      // (Its size as drawn, not as the pulse happens to scale it now.)
      const ring = await page.evaluate(() => {
        const r = document.querySelector('.layer-spots .spot-ring');
        const k = Number(/scale\(([\d.]+)\)/.exec(document.querySelector('.camera').getAttribute('transform'))[1]);
        return r ? 2 * Number(r.getAttribute('r')) * k : null;
      });
      if (ring !== null) assert.ok(ring >= 44, `turn ${turn}: a spot's ring is ${ring.toFixed(0)} px across`);
      const picks = page.locator('.spot-picker [data-act="spot"]');
      if (turn % 2 === 0 && (await picks.count()) > 0) {
        const box = await picks.first().boundingBox();
        assert.ok(box.height >= 44, 'the spot buttons are big enough to touch');
        const pick = picks.nth(turn % (await picks.count()));
        await pick.tap();
        // (A player whose tap did not take taps again; twice, it must.)
        if (!(await page.waitForSelector('.follower.pending', { timeout: 3000 }).catch(() => null))) await pick.tap();
        await page.waitForSelector('.follower.pending', { timeout: 10_000 }).catch(async (e) => {
          await shot(page, 'phone-failure');
          const why = await page.evaluate(() => ({
            picked: [...document.querySelectorAll('.spot-picker .btn')].map((b) => `${b.textContent.trim()}:${b.getAttribute('aria-pressed')}`),
            followers: document.querySelectorAll('.layer-followers .follower').length,
          }));
          throw new Error(`turn ${turn}: no follower after tapping a spot (${JSON.stringify(why)}; ${e.message})`);
        });
        // On a phone "Confirm each move" is on: the spot chosen plays nothing yet.
        assert.equal(await version(page), v, 'a spot tapped on a phone waits for Confirm');
        assert.equal(await page.getAttribute('#app', 'data-myturn'), 'true', 'a spot tapped sends nothing');
        deployed++;
        if (deployed === 1) await shot(page, 'phone-02-follower');
      }
      assert.ok(await inViewport(page, '.tile-panel [data-act="confirm"]'), `turn ${turn}: Confirm is still on screen`);
      assert.ok(!(await scrolled(page)), `turn ${turn}: the page still does not scroll`);
      if (turn === 15) {
        await shot(page, 'phone-03-mid-game');
        await page.tap('.drawer-toggle');
        await page.waitForSelector('.drawer .log-turn');
        await shot(page, 'phone-04-log-drawer');
        await checkA11y(page, 'the log drawer on a phone');
        await page.tap('.drawer-close');
      }
      if (turn % 3 === 1) {
        // Tap the previewed tile again: it is laid (with the follower chosen, if any).
        // A point of the tile where nothing lies over it (no spot, follower, button or banner).
        const points = await page.evaluate(() => {
          const g = document.querySelector('.ghost-tile.solid').getBoundingClientRect();
          return [[0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85], [0.5, 0.15], [0.15, 0.5], [0.5, 0.85], [0.85, 0.5]]
            .map(([fx, fy]) => ({ x: g.x + g.width * fx, y: g.y + g.height * fy }))
            .filter((p) => {
              const top = document.elementFromPoint(p.x, p.y);
              // Well clear of every spot (their rings pulse, so their edges move).
              const near = [...document.querySelectorAll('.layer-spots .spot')].some((sp) => {
                const r = sp.getBoundingClientRect();
                return p.x > r.left - 12 && p.x < r.right + 12 && p.y > r.top - 12 && p.y < r.bottom + 12;
              });
              return top && top.closest('.ghost-tile') && !near;
            });
        });
        if (points.length) { await page.touchscreen.tap(points[0].x, points[0].y); tappedAgain++; }
        else await page.tap('.tile-panel [data-act="confirm"]');
      } else {
        await page.tap('.tile-panel [data-act="confirm"]');
      }
      await page.waitForFunction((v0) => Number(document.querySelector('#app').dataset.version) > v0, v, { timeout: 10_000 })
        .catch(async (e) => { await shot(page, 'phone-failure'); throw new Error(`turn ${turn}: the tile was not laid (${e.message})`); });
      turn++;
      assert.ok(turn < 80, 'the game ends');
    }
    assert.ok(turn >= 30, `we played ${turn} turns`);
    assert.ok(deployed > 0, 'followers were deployed');
    assert.ok(smallest >= 44, `every cell offered at the start of a turn is at least 44 px (${smallest.toFixed(0)})`);
    assert.ok(tappedAgain > 5, `tiles were laid by tapping them again (${tappedAgain} times)`);
    await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
    // No toast of the final scoring left over the dialog.
    await page.waitForFunction(() => !document.querySelector('.toasts .toast:not(.out)'), null, { timeout: 1000 });
    await shot(page, 'phone-05-results');
    // Behind the results, the whole board (not the last tile, however close it was looked at),
    // as large as it fits, with followers big enough to see.
    await page.tap('.results-dialog [data-close]');
    await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
    const end = await page.evaluate(() => {
      const wrap = document.querySelector('.board-wrap').getBoundingClientRect();
      const tiles = [...document.querySelectorAll('.layer-tiles .placed')].map((t) => t.getBoundingClientRect());
      const box = { l: Math.min(...tiles.map((r) => r.left)), r: Math.max(...tiles.map((r) => r.right)), t: Math.min(...tiles.map((r) => r.top)), b: Math.max(...tiles.map((r) => r.bottom)) };
      const followers = [...document.querySelectorAll('.layer-followers .follower')].map((f) => f.getBoundingClientRect());
      return { wrap: { l: wrap.left, r: wrap.right, t: wrap.top, b: wrap.bottom, w: wrap.width, h: wrap.height }, box, tile: tiles[0].width, smallest: Math.min(...followers.map((f) => Math.max(f.width, f.height))) };
    });
    assert.ok(end.box.l >= end.wrap.l - 1 && end.box.r <= end.wrap.r + 1 && end.box.t >= end.wrap.t - 1 && end.box.b <= end.wrap.b + 1,
      `every tile is in view at the end (${JSON.stringify(end)})`);
    // Tight: the board fills the width or the height (bar the banner and a small margin).
    assert.ok(end.box.r - end.box.l >= end.wrap.w * 0.85 || end.box.b - end.box.t >= (end.wrap.h - 56) * 0.85,
      `the board fills the screen (${JSON.stringify(end)})`);
    assert.ok(end.smallest >= 13, `the smallest follower is ${end.smallest.toFixed(1)} px`);
    await shot(page, 'phone-05b-board-at-the-end');
    assert.deepEqual(errors, []);

    // The start page lists the game and fits the phone (nothing cut off at the right).
    await page.goto(`${BASE}/#/games`);
    await page.waitForSelector('.games-list tr');
    const wide = await page.evaluate(() => [...document.querySelectorAll('main *')]
      .filter((el) => !el.closest('.hero-tiles') && el.getBoundingClientRect().right > window.innerWidth + 1).length);
    assert.equal(wide, 0, 'nothing on the start page is wider than the phone');
    await shot(page, 'phone-06-games');
  } finally {
    await close();
  }
});

test('pinch zooms the board on a phone', async () => {
  const { context, close } = await launch(PHONE);
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    await page.tap('.new-game .start');
    await page.waitForURL(/#\/game\/[a-z0-9]+$/);
    assert.equal(await nextTurn(page), 'mine');
    // Pinch to zoom, two fingers apart: the board grows.
    const scale = () => page.evaluate(() => Number(/scale\(([\d.]+)\)/.exec(document.querySelector('.camera').getAttribute('transform'))[1]));
    await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
    const before = await scale();
    const box = await page.locator('svg.board').boundingBox();
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const cdp = await context.newCDPSession(page);
    const touch = (type, d) => cdp.send('Input.dispatchTouchEvent', {
      type, touchPoints: type === 'touchEnd' ? [] : [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }],
    });
    await touch('touchStart', 30);
    for (const d of [45, 60, 75, 90]) await touch('touchMove', d);
    await touch('touchEnd', 0);
    assert.ok((await scale()) > before * 1.5, `a pinch zooms in (${before.toFixed(2)} → ${(await scale()).toFixed(2)})`);
    // And a tap after it still previews the tile.
    await page.tap('.zoom-fit');
    await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
    assert.ok(await tapCell(page, 0), 'a lit cell to tap');
    await page.waitForSelector('.ghost-tile.solid', { timeout: 5000 });
  } finally {
    await close();
  }
});

test('the start page and the new-game form fit a 320 px phone', async () => {
  const { context, close } = await launch({ ...PHONE, viewport: { width: 320, height: 640 } });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/new`);
    await page.waitForSelector('body[data-screen="new"] .new-game .start');
    await page.click('.add-seat');
    await page.click('.more-rules summary');
    const wide = await page.evaluate(() => [...document.querySelectorAll('main *')]
      .filter((el) => !el.closest('.hero-tiles') && el.getBoundingClientRect().right > window.innerWidth + 1)
      .map((el) => el.className || el.tagName));
    assert.deepEqual(wide, [], 'nothing is wider than the phone');
    // The top bar's links, the account's and the theme switch sit side by side, none over another.
    const bar = await page.evaluate(() => [...document.querySelectorAll('.topbar > a, .topbar > button, .account-nav a, .account-nav button')]
      .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => [r.left, r.right]));
    for (let i = 1; i < bar.length; i++) assert.ok(bar[i][0] >= bar[i - 1][1], `the top bar's items ${i - 1} and ${i} do not overlap`);
    assert.ok(bar[bar.length - 1][1] <= 320, 'the top bar fits');
    await shot(page, 'phone-07-new-game-320');
  } finally {
    await close();
  }
});

test('the new-game form says each seat\'s kind whole on a 390 px phone, in English, German and French', async () => {
  for (const lang of ['en', 'de', 'fr']) {
    const { context, close } = await launch({ ...PHONE, viewport: { width: 390, height: 844 } });
    try {
      await context.addInitScript((l) => localStorage.setItem('carcassonne.lang', l), lang);
      const page = await context.newPage();
      await page.goto(`${BASE}/#/new`);
      await page.waitForSelector('body[data-screen="new"] .new-game .start');
      // Each select as wide as its longest option needs (its max-content width).
      const cut = await page.evaluate(() => [...document.querySelectorAll('.seat select')].map((sel) => {
        const now = sel.getBoundingClientRect().width;
        const was = sel.style.width;
        sel.style.width = 'max-content';
        const needs = sel.getBoundingClientRect().width;
        sel.style.width = was;
        return { cls: sel.className, text: sel.selectedOptions[0]?.textContent, now, needs };
      }).filter((s) => s.now + 1 < s.needs));
      assert.deepEqual(cut, [], `${lang}: a seat's choice is cut`);
      await shot(page, `phone-08-seats-${lang}`);
    } finally {
      await close();
    }
  }
});

test('the front page fits a 390 px phone in English, German and French', async () => {
  for (const lang of ['en', 'de', 'fr']) {
    const { context, close } = await launch({ ...PHONE, viewport: { width: 390, height: 844 } });
    try {
      await context.addInitScript((l) => localStorage.setItem('carcassonne.lang', l), lang);
      const page = await context.newPage();
      await page.goto(`${BASE}/#/`);
      await page.waitForSelector('.new-game .start');
      await page.waitForSelector(GAMES_LOADED);
      const wide = await page.evaluate(() => [...document.querySelectorAll('body *')]
        .filter((el) => !el.closest('.hero-tiles, .toasts') && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > window.innerWidth + 1)
        .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`));
      assert.deepEqual(wide, [], `${lang}: nothing wider than the phone`);
      assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth), `${lang}: no sideways scrolling`);
    } finally {
      await close();
    }
  }
});
