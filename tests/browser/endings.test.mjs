// Resigning and aborting in a real Chromium (docs/web.md, "Resigning,
// aborting and leaving"), two people on two devices (browser contexts) at
// phone size (390×844, touch; the buttons in the game's menu drawer) and
// on a desktop (1366×768):
//  * a game between Ada and Bruno: Ada's Resign button opens its dialog by
//    Enter, Escape closes it and the focus is back on the button; axe finds
//    nothing with the dialog open; Cancel leaves the game as it was; then
//    she resigns: her page and Bruno's say the game is over and Bruno won.
//  * a fresh game aborted through its dialog before anyone moved: both
//    pages show the aborted banner.
//  * nothing is wider than the screen at 390 px, the dialog open or not.
// And the dialogs in German: no English left in them or on the page.
//
// Needs a running server: BASE_URL.
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launchBrowser, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';
import { noEnglish } from './english.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1366, height: 768 } };

/**
 * A game of Ada (seat 0) and Bruno (seat 1), each on a device of their own
 * (`device`: the context's options) with their seat's token, its page open.
 */
async function twoPeople(browser, device) {
  const created = await api('/api/games', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seats: [{ kind: 'human', name: 'Ada' }, { kind: 'remote', name: 'Bruno' }] }),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { id } = created.body;
  const tokens = [0, 1].map((seat) => created.body.tokens.find((x) => x.seat === seat).token);
  const pages = [];
  for (const token of tokens) {
    const page = await (await browser.newContext(device)).newPage();
    await page.goto(`${BASE}/#/`);
    await page.evaluate(([id, token]) => localStorage.setItem('carcassonne.tokens', JSON.stringify({ [id]: [token] })), [id, token]);
    await page.goto(`${BASE}/#/game/${id}`);
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
    pages.push(page);
  }
  return { id, tokens, ada: pages[0], bruno: pages[1] };
}

/** Presses a button as the device's person would: a tap on a touch screen, a click otherwise. */
const press = (locator, touch) => (touch ? locator.tap() : locator.click());

/** The page's width beyond the screen's, in px (0 when nothing is wider). */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const dialog = (page) => page.locator('.ending-dialog[role="dialog"]');

/** On a phone the endings are in the game's menu drawer: opens it (as its person would, a tap). */
async function showEndings(page, touch) {
  await page.locator('.endings-panel [data-act]').first().waitFor({ state: 'attached' });
  if (touch) {
    await page.tap('.drawer-toggle');
    await page.waitForSelector('.drawer .endings-panel [data-act]');
  }
}

for (const [size, device] of [['phone', PHONE], ['desktop', DESKTOP]]) {
  const touch = size === 'phone';

  test(`${size}: resigning asks first; Cancel changes nothing; the other side sees the game over and its winner`, async () => {
    const browser = await launchBrowser();
    try {
      const { id, tokens, ada, bruno } = await twoPeople(browser, device);
      const errors = [...watchErrors(ada), ...watchErrors(bruno)];
      await showEndings(ada, touch);
      const resign = ada.locator('.clock-panel [data-act="resign"][data-seat="0"]');
      await resign.waitFor();
      assert.equal(await ada.locator('.clock-panel [data-act="resign"]').count(), 1, 'one seat here: one Resign button');
      const before = (await api(`/api/games/${id}?token=${tokens[0]}`)).body;
      assert.equal(before.status, 'playing');

      // The keyboard: Enter on the button opens the dialog, the focus in it;
      // Tab stays in it; Escape closes it and the focus is back on the button.
      await resign.focus();
      await ada.keyboard.press('Enter');
      await dialog(ada).waitFor();
      assert.equal(await dialog(ada).getAttribute('aria-modal'), 'true');
      assert.ok(await ada.evaluate(() => !!document.activeElement.closest('.ending-dialog')), 'the focus is in the dialog');
      for (let i = 0; i < 3; i++) {
        await ada.keyboard.press('Tab');
        assert.ok(await ada.evaluate(() => !!document.activeElement.closest('.ending-dialog')), 'Tab keeps the focus in the dialog');
      }
      assert.equal(await ada.locator('#ending-title').innerText(), 'Resign this game?');
      assert.match(await ada.locator('#ending-text').innerText(), /the other player wins/);
      await checkA11y(ada, `the resign dialog (${size})`);
      assert.equal(await overflow(ada), 0, 'nothing wider than the screen, the dialog open');
      const box = await dialog(ada).boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= device.viewport.width, `the dialog fits the screen: ${JSON.stringify(box)}`);
      await shot(ada, `endings-${size}-resign-dialog`);
      await ada.keyboard.press('Escape');
      await dialog(ada).waitFor({ state: 'detached' });
      assert.ok(await ada.evaluate(() => document.activeElement.matches('[data-act="resign"][data-seat="0"]')), 'the focus is back on Resign');

      // Cancel: the game is as it was.
      await press(resign, touch);
      await dialog(ada).waitFor();
      await press(dialog(ada).locator('[data-end="cancel"]'), touch);
      await dialog(ada).waitFor({ state: 'detached' });
      const after = (await api(`/api/games/${id}?token=${tokens[0]}`)).body;
      assert.equal(after.status, 'playing');
      assert.equal(after.version, before.version);
      assert.deepEqual(after.clock.resigned || [], before.clock.resigned || []);

      // Resigned: the game is over, Bruno won, on both pages and in the state.
      await press(resign, touch);
      await dialog(ada).waitFor();
      await press(dialog(ada).locator('[data-end="go"]'), touch);
      await dialog(ada).waitFor({ state: 'detached' });
      for (const page of [ada, bruno]) {
        await page.waitForFunction(() => document.querySelector('#app').dataset.status === 'finished', null, { timeout: 15_000 });
        await page.waitForSelector('.banner.over');
      }
      assert.match(await bruno.locator('.banner').innerText(), /you win/);
      assert.match(await ada.locator('.banner').innerText(), /Game over — .*Bruno/);
      assert.doesNotMatch(await ada.locator('.banner').innerText(), /Ada/);
      assert.match(await bruno.locator('.log').innerText(), /Ada resigned/);
      assert.match(await bruno.locator('.tile-panel').innerText(), /ended before its last tile/, 'not "all tiles are placed"');
      const over = (await api(`/api/games/${id}`)).body;
      assert.equal(over.status, 'finished');
      assert.deepEqual(over.winners, [1]);
      assert.equal(await ada.locator('.clock-panel [data-act="resign"]').count(), 0, 'nothing left to resign');
      if (touch) assert.equal(await overflow(bruno), 0, 'nothing wider than the screen, the game over');
      await shot(bruno, `endings-${size}-resigned-other-side`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  test(`${size}: a fresh game aborted through its dialog shows the aborted banner on both sides`, async () => {
    const browser = await launchBrowser();
    try {
      const { id, ada, bruno } = await twoPeople(browser, device);
      const errors = [...watchErrors(ada), ...watchErrors(bruno)];
      await showEndings(bruno, touch);
      const abort = bruno.locator('.clock-panel [data-act="abort"]');
      await abort.waitFor();
      await press(abort, touch);
      await dialog(bruno).waitFor();
      assert.match(await bruno.locator('#ending-text').innerText(), /no result/);
      await checkA11y(bruno, `the abort dialog (${size})`);
      if (touch) assert.equal(await overflow(bruno), 0, 'nothing wider than the screen, the dialog open');
      await shot(bruno, `endings-${size}-abort-dialog`);
      await press(dialog(bruno).locator('[data-end="go"]'), touch);
      for (const page of [ada, bruno]) {
        await page.waitForSelector('.banner.over', { timeout: 15_000 });
        assert.match(await page.locator('.banner').innerText(), /Bruno aborted the game/);
      }
      assert.equal((await api(`/api/games/${id}`)).body.status, 'aborted');
      if (touch) assert.equal(await overflow(ada), 0, 'nothing wider than the screen, the game aborted');
      await checkA11y(ada, `an aborted game (${size})`);
      await shot(ada, `endings-${size}-aborted`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}

test('in German: the dialogs and the buttons say nothing in English', async () => {
  const browser = await launchBrowser();
  try {
    const { ada } = await twoPeople(browser, { ...DESKTOP, locale: 'de-DE' });
    const errors = watchErrors(ada);
    await ada.locator('.clock-panel [data-act="resign"]').waitFor();
    await noEnglish(ada, 'de', 'the game with its ending buttons');
    for (const act of ['resign', 'leave', 'abort']) {
      // (Leaving a casual duel ends it as it stands: the dialog says so.)
      await ada.locator(`.clock-panel [data-act="${act}"]`).click();
      await dialog(ada).waitFor();
      await noEnglish(ada, 'de', `the ${act} dialog`, '.ending-dialog');
      if (act === 'leave') assert.equal(await ada.locator('#ending-text').innerText(), 'Die Partie endet sofort mit dem aktuellen Punktestand.');
      if (act === 'resign') {
        assert.equal(await ada.locator('#ending-title').innerText(), 'Diese Partie aufgeben?');
        await shot(ada, 'endings-de-resign-dialog');
      }
      await ada.locator('[data-end="cancel"]').click();
      await dialog(ada).waitFor({ state: 'detached' });
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
