// Takebacks in a real Chromium (docs/web.md, "Takebacks"), two people on
// two devices (browser contexts), at phone size (390×844, touch: the button
// in the game's menu drawer) and on a laptop (1366×768), light and dark:
//  * after their move, the mover's page offers "Take back my move" (with
//    the endings; the other's does not: they have not moved); asked, the
//    mover's page says
//    whom it waits for, the other's asks with Accept and Decline (reached
//    by the keyboard; axe finds nothing), a spectator's says so too;
//    answered by the keyboard, the focus goes on to the board;
//  * declined by the keyboard: both pages say so, nothing moved, and the
//    button is gone for that move;
//  * after a move each, asked again and accepted: the board goes back on
//    both pages (and the spectator's), the mover is to move;
//  * a rated game never shows the button.
//
// Needs a running server: BASE_URL.
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launchBrowser, ratedGameFrom, shot, signUp, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const LAPTOP = { viewport: { width: 1366, height: 768 } };

const postJson = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Opens game `id` in a new context of `browser` holding `tokens` (none: a spectator). */
async function open(browser, device, id, tokens) {
  const page = await (await browser.newContext(device)).newPage();
  await page.goto(`${BASE}/#/`);
  await page.evaluate(([id, tokens]) => localStorage.setItem('carcassonne.tokens', JSON.stringify({ [id]: tokens })), [id, tokens]);
  await page.goto(`${BASE}/#/game/${id}`);
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
  return page;
}

/** Plays a legal move (the `k`-th placement) for the seat to move, over the API: the version it was played at. */
async function playOne(id, tokens, k = 0) {
  const s = (await api(`/api/games/${id}?token=${tokens.join(',')}`)).body;
  const p = s.legal[k % s.legal.length];
  const r = await api(`/api/games/${id}/moves?token=${tokens[s.turn.seat]}`, postJson({ version: s.version, tile: p.tile, at: p.at, rot: p.rot }));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return s.version;
}

const waitVersion = (page, v) => page.waitForFunction((v) => Number(document.querySelector('#app').dataset.version) === v, v, { timeout: 15_000 });

/** The tiles the page's board draws. */
const tilesDrawn = (page) => page.evaluate(() => document.querySelectorAll('.board-area .layer-tiles g.placed').length);

/** The page's width beyond the screen's, in px. */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The "Take back my move" button, the drawer opened first on a phone. */
async function askButton(page, touch) {
  await page.locator('.endings-panel [data-act="takeback"]').waitFor({ state: 'attached', timeout: 15_000 });
  if (touch) {
    await page.tap('.drawer-toggle');
    await page.waitForSelector('.drawer .endings-panel [data-act="takeback"]');
  }
  return page.locator('.endings-panel [data-act="takeback"]');
}

async function closeDrawer(page, touch) {
  if (touch && await page.locator('.drawer-close').isVisible()) await page.tap('.drawer-close');
}

for (const [size, device, scheme] of [['phone', PHONE, 'dark'], ['laptop', LAPTOP, 'light']]) {
  const touch = size === 'phone';

  test(`${size} (${scheme}): asked, declined, asked again after a move each, accepted: both boards go back`, async () => {
    const browser = await launchBrowser();
    try {
      const created = await api('/api/games', postJson({ seats: [{ kind: 'human', name: 'Ada' }, { kind: 'remote', name: 'Bruno' }] }));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const { id } = created.body;
      const tokens = [0, 1].map((seat) => created.body.tokens.find((x) => x.seat === seat).token);
      const dev = { ...device, colorScheme: scheme };
      const pages = [await open(browser, dev, id, [tokens[0]]), await open(browser, dev, id, [tokens[1]])];
      const watcher = await open(browser, LAPTOP, id, []);
      const errors = [...watchErrors(pages[0]), ...watchErrors(pages[1]), ...watchErrors(watcher)];
      const first = (await api(`/api/games/${id}`)).body.turn.seat;
      const [mover, other] = [pages[first], pages[1 - first]];
      const names = ['Ada', 'Bruno'];

      const v0 = await playOne(id, tokens);
      for (const p of [...pages, watcher]) await waitVersion(p, v0 + 1);
      const drawnBefore = await tilesDrawn(other);
      // Only the one who moved may ask.
      const ask = await askButton(mover, touch);
      assert.equal(await other.locator('.endings-panel [data-act="takeback"]').count(), 0, 'the other has not moved');
      assert.equal(await watcher.locator('.endings-panel [data-act="takeback"]').count(), 0, 'a spectator does not ask');
      if (touch) await ask.tap();
      else {
        await ask.focus();
        await mover.keyboard.press('Enter');
      }
      await closeDrawer(mover, touch);
      await mover.locator('.takeback-panel .takeback-request').waitFor();
      if (!touch) {
        await mover.waitForFunction(() => document.activeElement.matches('.board-area [role="application"]'));
      }
      assert.match(await mover.locator('.takeback-panel').innerText(), new RegExp(`Asked ${names[1 - first]} to take back your move`));
      const prompt = other.locator('.takeback-panel .takeback-request.asks-me');
      await prompt.waitFor();
      assert.match(await prompt.innerText(), new RegExp(`${names[first]} asks to take back their move \\(move 1\\)`));
      await watcher.locator('.takeback-panel .takeback-request').waitFor();
      assert.match(await watcher.locator('.takeback-panel').innerText(), new RegExp(`waiting for ${names[1 - first]}`));
      await other.waitForFunction(() => /asks to take back/.test(document.querySelector('.announcer').textContent));
      await checkA11y(other, `the takeback prompt (${size}, ${scheme})`);
      assert.equal(await overflow(other), 0, 'nothing wider than the screen');
      const box = await prompt.boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= device.viewport.height, `the prompt is in sight: ${JSON.stringify(box)}`);
      await shot(other, `takeback-${size}-${scheme}-prompt`);
      await shot(mover, `takeback-${size}-${scheme}-asked`);

      // Declined by the keyboard: said on both pages, nothing moved, not asked again for that move.
      await other.locator('.takeback-panel [data-act="decline"]').focus();
      await other.keyboard.press('Enter');
      await mover.waitForFunction((n) => [...document.querySelectorAll('.toast')].some((t) => t.textContent.includes(`${n} declined the takeback`)), names[1 - first]);
      await prompt.waitFor({ state: 'detached' });
      assert.ok(await other.evaluate(() => document.activeElement.matches('.board-area [role="application"]')), 'the focus goes on to the board');
      await mover.locator('.takeback-panel .takeback-request').waitFor({ state: 'detached' });
      assert.equal((await api(`/api/games/${id}`)).body.version, v0 + 1, 'a decline takes nothing back');
      assert.equal(await mover.locator('.endings-panel [data-act="takeback"]').count(), 0, 'not asked again for the same move');
      const again = await api(`/api/games/${id}/takeback?token=${tokens[first]}`, postJson({}));
      assert.equal(again.body.error, 'takeback_declined');

      // A move each; the mover's new move is asked about and accepted.
      await playOne(id, tokens, 1);
      const v2 = await playOne(id, tokens, 2);
      for (const p of [...pages, watcher]) await waitVersion(p, v2 + 1);
      const beforeAccept = await tilesDrawn(other);
      assert.ok(beforeAccept >= drawnBefore + 2, `two more tiles drawn: ${drawnBefore} → ${beforeAccept}`);
      const ask2 = await askButton(mover, touch);
      await (touch ? ask2.tap() : ask2.click());
      await closeDrawer(mover, touch);
      await prompt.waitFor();
      assert.match(await prompt.innerText(), /move 3/);
      await (touch ? other.locator('.takeback-panel [data-act="accept"]').tap() : other.locator('.takeback-panel [data-act="accept"]').click());
      for (const p of [...pages, watcher]) await waitVersion(p, v2);
      await mover.waitForFunction(() => [...document.querySelectorAll('.toast')].some((t) => /your move is taken back/.test(t.textContent)));
      for (const p of [other, watcher]) {
        await p.waitForFunction(() => [...document.querySelectorAll('.toast')].some((t) => /move 3 was taken back/.test(t.textContent)));
      }
      for (const p of [...pages, watcher]) {
        assert.equal(await tilesDrawn(p), beforeAccept - 1, 'the board lost the tile taken back');
      }
      const s = (await api(`/api/games/${id}?token=${tokens[first]}`)).body;
      assert.equal(s.version, v2);
      assert.equal(s.turn.seat, first, 'the mover is to move again');
      await mover.waitForFunction(() => document.querySelector('#app').dataset.myturn === 'true');
      assert.equal(await other.locator('.takeback-panel .takeback-request').count(), 0);
      await shot(mover, `takeback-${size}-${scheme}-granted`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}

test('a rated game never offers a takeback', async () => {
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext(LAPTOP)).newPage();
    await signUp(page, `Tb${Date.now() % 1_000_000}`);
    const { id, tokens } = await ratedGameFrom(page);
    const s = (await api(`/api/games/${id}?token=${tokens.join(',')}`)).body;
    await playOne(id, tokens);
    const mover = await open(browser, LAPTOP, id, [tokens[s.turn.seat]]);
    await waitVersion(mover, s.version + 1);
    await mover.locator('.endings-panel [data-act="resign"]').waitFor({ state: 'attached' });
    assert.equal(await mover.locator('.endings-panel [data-act="takeback"]').count(), 0);
    const r = await api(`/api/games/${id}/takeback?token=${tokens[s.turn.seat]}`, postJson({}));
    assert.equal(r.status, 403);
    assert.equal(r.body.error, 'not_in_rated');
  } finally {
    await browser.close();
  }
});
