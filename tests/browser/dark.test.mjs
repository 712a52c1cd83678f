// Dark mode: it follows the system (prefers-color-scheme), a switch in the
// top bar overrides it and the choice is kept; axe-core (contrast
// included) finds nothing on any view in dark, on a desk and on a phone.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, GAMES_LOADED, api, launch, nextTurn, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const theme = (page) => page.evaluate(() => document.documentElement.dataset.theme);
// The switch is in index.html before the script runs: wait for theme.js to
// have made it work.
const themed = (page) => page.waitForFunction(() => document.querySelector('.theme-toggle')?.onclick);
const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function finishedGame() {
  const created = await api('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seats: [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }] }) });
  assert.equal(created.status, 201);
  for (let i = 0; i < 900; i++) {
    if ((await api(`/api/games/${created.body.id}`)).body.status === 'finished') return created.body.id;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the bots did not finish');
}

test('a dark system gets a dark page before any script runs (no light flash)', async () => {
  const pages = {};
  for (const colorScheme of ['light', 'dark']) {
    const { context, close } = await launch({ colorScheme, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${BASE}/#/`);
      pages[colorScheme] = await background(page);
    } finally {
      await close();
    }
  }
  const { context, close } = await launch({ colorScheme: 'dark' });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/`);
    await themed(page);
    assert.equal(await background(page), pages.dark, 'the script keeps the dark the page started with');
    assert.notEqual(pages.dark, pages.light);
  } finally {
    await close();
  }
});

test('a browser without light-dark() gets the same colours, set by theme.js', async () => {
  const seen = {};
  for (const old of [false, true]) {
    const { context, close } = await launch({ colorScheme: 'dark' });
    try {
      if (old) {
        await context.addInitScript(() => {
          const real = CSS.supports.bind(CSS);
          CSS.supports = (...args) => !args.join(' ').includes('light-dark') && real(...args);
        });
      }
      const page = await context.newPage();
      await page.goto(`${BASE}/#/`);
      await themed(page);
      const look = () => page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
      const dark = await look();
      await page.click('.theme-toggle'); // auto → dark
      await page.click('.theme-toggle'); // dark → light
      const ink = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--ink').trim());
      seen[old] = { dark, light: await look(), ink };
    } finally {
      await close();
    }
  }
  assert.deepEqual([seen.true.dark, seen.true.light], [seen.false.dark, seen.false.light]);
  assert.notDeepEqual(seen.true.dark, seen.true.light);
  assert.match(seen.true.ink, /^#[0-9a-f]{6}$/i, 'each colour set plainly on <html>');
});

test('the theme follows the system, and the switch overrides it and is kept', async () => {
  const { context, close } = await launch({ colorScheme: 'dark' });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/`);
    await themed(page);
    assert.equal(await theme(page), 'dark', 'a dark system gives a dark page');
    const bg = () => background(page);
    const dark = await bg();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 5000 })
      .catch(() => assert.fail('the page follows the system as it changes'));
    assert.notEqual(await bg(), dark);
    // The switch: system → dark → light → system.
    await page.click('.theme-toggle');
    assert.equal(await theme(page), 'dark');
    await page.reload();
    await themed(page);
    assert.equal(await theme(page), 'dark', 'the choice is kept');
    assert.match(await page.getAttribute('.theme-toggle', 'aria-label'), /^dark colours/);
    await page.click('.theme-toggle');
    assert.equal(await theme(page), 'light', 'then light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    assert.equal(await theme(page), 'light', 'a chosen theme does not follow the system');
    await page.click('.theme-toggle');
    assert.equal(await theme(page), 'dark', 'back to the system: dark');
  } finally {
    await close();
  }
});

for (const [device, options] of [['desk', { viewport: { width: 1366, height: 860 } }], ['phone', PHONE]]) {
  test(`every view in dark passes axe on a ${device}`, async () => {
    const done = await finishedGame();
    const { context, close } = await launch({ ...options, colorScheme: 'dark' });
    try {
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${BASE}/#/`);
      await page.waitForSelector(GAMES_LOADED);
      assert.equal(await theme(page), 'dark');
      await shot(page, `dark-${device}-01-home`);
      await checkA11y(page, 'start page in dark');
      await page.goto(`${BASE}/#/new`);
      await page.waitForSelector('body[data-screen="new"] .new-game .start');
      await page.click('.more-rules summary');
      await checkA11y(page, 'new-game form in dark');

      // A game: the tile placed, its spots offered.
      await page.click('.new-game .start');
      await page.waitForURL(/#\/game\/[a-z0-9]+$/);
      assert.equal(await nextTurn(page), 'mine');
      await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
      const t = await page.locator('.target').first().boundingBox();
      if (device === 'phone') await page.touchscreen.tap(t.x + t.width / 2, t.y + t.height / 2);
      else await page.mouse.click(t.x + t.width / 2, t.y + t.height / 2);
      await page.waitForSelector('.ghost-tile.solid');
      await shot(page, `dark-${device}-02-game`);
      await checkA11y(page, 'game in dark');
      if (device === 'phone') {
        await page.tap('.drawer-toggle');
        await page.waitForSelector('.drawer .log-panel');
        await checkA11y(page, 'log drawer in dark');
        await page.tap('.drawer-close');
      }

      // The results of a finished game, its replay with the review, the rules page.
      await page.goto(`${BASE}/#/game/${done}`);
      await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
      await shot(page, `dark-${device}-03-results`);
      await checkA11y(page, 'results in dark');
      await page.goto(`${BASE}/#/replay/${done}`);
      await page.waitForSelector('.review-panel svg.review-curve', { timeout: 180_000 });
      await page.keyboard.press('End');
      await shot(page, `dark-${device}-04-replay`);
      await checkA11y(page, 'replay and review in dark');
      const code = (await api('/api/rules', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ preset: 'standard', farms: 'per-city' }) })).body.code;
      await page.goto(`${BASE}/#/rules/${code}`);
      await page.waitForSelector('.rules-head h1');
      await checkA11y(page, 'rules page in dark');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
