// House rules at the table, in a real Chromium on a phone-sized screen:
// build rules in the new-game form → "Share these rules" → the rules page's
// link (and QR code) → open it on another device → "Start a game with these
// rules" → the game's record carries exactly those rules. Also: saving,
// renaming and deleting rule sets on the start page, the game linking to
// its rules page, and plain messages for codes that do not read.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launchBrowser, openView, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** Whether the page scrolls sideways (nothing may be cut off on a phone). */
const overflowsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth
  || [...document.querySelectorAll('main, main *')].some((el) => el.getBoundingClientRect().right > window.innerWidth + 1
    && getComputedStyle(el).position !== 'fixed' && el.closest('.hero-tiles') === null));

test('a rule set goes from the form to a link, to another phone, and into a game', async () => {
  const browser = await launchBrowser();
  try {
    // --- the first phone builds house rules in the form and shares them
    const a = await browser.newContext(PHONE);
    const page = await a.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/new`);
    await page.waitForSelector('body[data-screen="new"] .new-game .start');
    await page.click('[data-preset="first-edition"]');
    await page.click('.more-rules summary');
    await page.check('[data-key="river"]');
    await page.fill('[data-key="hand"]', '2');
    await page.dispatchEvent('[data-key="hand"]', 'change');
    await page.check('[data-key="hand_visible"]');
    await page.selectOption('[data-key="farms"]', 'per-farm-once');
    await page.click('.share-rules-btn');
    await page.waitForURL(/#\/rules\/[A-Za-z0-9_-]+$/);
    await page.waitForSelector('.rules-head h1');
    const link = await page.inputValue('.rules-link');
    assert.ok(link.startsWith(`${BASE}/#/rules/`), link);
    await page.waitForFunction(() => document.querySelector('.share-rules img.qr')?.naturalWidth > 0);
    const text = await page.textContent('.rules-page');
    assert.match(text, /river tiles/, 'the summary speaks of the river');
    assert.match(text, /at most once/, 'the farm rule in its own words');
    assert.match(text, /Example:/, 'with a worked example');
    assert.equal(await page.locator('.in-force li').count(), 4, 'four options differ from the preset');
    assert.ok(!(await overflowsSideways(page)), 'the rules page fits a phone');
    await shot(page, 'rules-page-phone');
    await checkA11y(page, 'rules page');

    // Save them by name; they are listed on the start page, renamed, deleted.
    await page.fill('.rules-name', 'Our table’s rules');
    await page.click('.save-rules button[type="submit"]');
    await page.waitForSelector('.toast:has-text("Saved as")');
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.saved-list li');
    assert.equal(await page.textContent('.saved-list .saved-name'), 'Our table’s rules');
    await page.click('.saved-list [data-act="rename"]');
    await page.fill('.saved-list input.rename', 'Friday night');
    await page.click('.saved-list .rename-form button[type="submit"]');
    await page.waitForSelector('.saved-list .saved-name:has-text("Friday night")');
    assert.ok(!(await overflowsSideways(page)), 'the start page fits a phone');
    await shot(page, 'rules-saved-phone');

    // --- another phone (its own storage) opens the shared link
    const b = await browser.newContext(PHONE);
    const other = await b.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(link);
    await other.waitForSelector('.rules-head h1');
    // The title says the rule set once, in words; the code is for the command line, by the link.
    assert.match(await other.textContent('.rules-head h1'), /^The rules: first edition \+ \d options$/);
    assert.equal(await other.locator('.rules-head code').count(), 0, 'no raw code in the title block');
    assert.equal(await other.textContent('.rules-text code'), 'first-edition,farms=per-farm-once,river=true,hand=2,hand_visible=true');
    await other.click('text=Start a game with these rules');
    await other.waitForSelector('.new-game .start');
    await other.waitForSelector('.saved-list > :not(.pending)');
    assert.equal(await other.locator('.saved-list li').count(), 0, 'saved rule sets stay with their visitor');
    await other.waitForFunction(() => document.querySelector('[data-preset="first-edition"]')?.classList.contains('on'));
    assert.equal(await other.inputValue('[data-key="hand"]'), '2');
    assert.ok(await other.isChecked('[data-key="river"]'));
    await other.click('.new-game .start');
    await other.waitForURL(/#\/game\/[a-z0-9]+$/);
    const id = other.url().split('/').pop();
    // The game links to its rules page rather than showing raw text (on a phone, in the drawer).
    await other.waitForSelector('.drawer-toggle');
    await other.tap('.drawer-toggle');
    await other.waitForSelector('.game-links .rules a[href^="#/rules/"]');
    const rulesHref = await other.getAttribute('.game-links .rules a', 'href');
    assert.equal(rulesHref, `#/rules/${link.split('/').pop()}`);
    const record = await api(`/api/games/${id}/record`);
    assert.equal(record.status, 200);
    assert.deepEqual(record.body.rules, { preset: 'first-edition', farms: 'per-farm-once', river: true, hand: 2, hand_visible: true },
      'the record carries exactly the shared rules');

    // Delete the saved set on the first phone.
    page.once('dialog', (d) => d.accept());
    await page.click('.saved-list [data-act="delete"]');
    await page.waitForSelector('.saved-list p.muted');
    assert.deepEqual(errors, []);
    assert.deepEqual(otherErrors.filter((e) => !e.includes('400')), []);
  } finally {
    await browser.close();
  }
});

test('codes that do not read get a plain message and a way back', async () => {
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext(PHONE)).newPage();
    // Corrupt, unknown bits, and a code from a later version (2).
    for (const [code, words] of [['!!nonsense', /cannot be read/], ['AQCAAQAA', /cannot be read/], ['AgAAAQAA', /later version/]]) {
      await openView(page, `${BASE}/#/rules/${encodeURIComponent(code)}`);
      await page.waitForSelector('.rules-error');
      assert.match(await page.textContent('.rules-error'), words, code);
    }
    await shot(page, 'rules-page-later-version');
    await page.click('.rules-error a');
    await page.waitForSelector('.new-game .start');
    // The new-game form with a bad code in its address says so and keeps the usual rules.
    await page.goto(`${BASE}/#/new?rules=broken`);
    await page.waitForSelector('.toast.error');
    assert.ok(await page.locator('[data-preset="standard"].on').count());
  } finally {
    await browser.close();
  }
});

/** A message's words in the page's language (web/i18n/*.ftl). */
const message = (page, id) => page.evaluate(async (key) => (await import('/js/i18n.js')).t(key), id);

test('the Big Box rules page shows each part with its worked example, in English, German and French', async () => {
  const examples = (await (await fetch(`${BASE}/rules/examples.json`)).json()).examples;
  const browser = await launchBrowser();
  try {
    for (const [locale, on] of [['en-GB', 'on'], ['de-DE', 'an'], ['fr-FR', 'activé']]) {
      const page = await (await browser.newContext({ ...PHONE, locale })).newPage();
      const errors = watchErrors(page);
      // The rules in words open the page as their code does.
      await page.goto(`${BASE}/#/rules/big-box`);
      await page.waitForSelector('.rules-section.big-box[data-ready="1"]');
      const keys = await page.$$eval('.rules-example', (els) => els.map((e) => e.dataset.example));
      assert.deepEqual(keys, examples.map((e) => e.key), `${locale}: every part has its example`);
      for (const e of examples) {
        const fig = page.locator(`[data-example="${e.key}"]`);
        // The board: the record's tiles as the engine laid them, its figures, the tiles' pictures drawn.
        const drawn = await fig.evaluate((el) => ({
          tiles: el.querySelectorAll('svg.example-board use').length,
          figures: el.querySelectorAll('svg.example-board .follower').length,
          pictures: [...el.querySelectorAll('svg.example-board use')].every((u) => document.querySelector(u.getAttribute('href'))),
        }));
        assert.equal(drawn.tiles, e.record.moves.length + 1, `${locale} ${e.key}: its tiles`);
        assert.ok(drawn.figures > 0 && drawn.pictures, `${locale} ${e.key}: its figures and pictures`);
        // The points worked out, in the page's language.
        assert.equal((await fig.locator('figcaption').textContent()).trim(), await message(page, `rules-ex-${e.key}`));
        assert.equal((await fig.locator('h3').textContent()).trim(), await message(page, `rules-ex-${e.key}-title`));
      }
      // The Big Box's figures by their shapes (meeple.js): the big follower, the builder, the pig.
      for (const [key, figure] of [['big-follower', 'big'], ['builder', 'builder'], ['pig', 'pig']]) {
        assert.ok(await page.locator(`[data-example="${key}"] svg.example-board .follower.${figure}`).count() > 0, `${locale} ${key}: drawn as a ${figure}`);
      }
      const switches = await page.$$eval('.bb-switches li', (els) => els.map((e) => e.textContent));
      assert.equal(switches.length, 6, `${locale}: the six parts`);
      assert.ok(switches.every((s) => s.includes(`: ${on}`)), `${locale}: every part on: ${switches}`);
      assert.ok(!(await overflowsSideways(page)), `${locale}: fits a phone`);
      if (locale === 'en-GB') await checkA11y(page, 'the Big Box rules page');
      await page.locator('[data-example="big-follower"]').scrollIntoViewIfNeeded();
      await shot(page, `rules-big-box-${locale}`);
      assert.deepEqual(errors, []);
    }

    // A part switched off: said so, and no example of it; the other expansion's parts are not shown.
    const page = await (await browser.newContext(PHONE)).newPage();
    await page.goto(`${BASE}/#/rules/standard,inns_cathedrals=true,cathedrals=false`);
    await page.waitForSelector('.rules-section.big-box[data-ready="1"]');
    assert.deepEqual(await page.$$eval('.rules-example', (els) => els.map((e) => e.dataset.example)), ['inn', 'big-follower']);
    assert.match(await page.textContent('.bb-switches [data-part="cathedrals"]'), /off in these rules/);
    assert.equal(await page.locator('.bb-switches li').count(), 3);

    // Without farmers no pig is placed: no pig example; another farm rule: the example says whose rule it follows.
    await openView(page, `${BASE}/#/rules/standard,traders_builders=true,farms=off`);
    await page.waitForSelector('.rules-section.big-box[data-ready="1"]');
    assert.deepEqual(await page.$$eval('.rules-example', (els) => els.map((e) => e.dataset.example)), ['goods', 'builder']);
    await openView(page, `${BASE}/#/rules/standard,traders_builders=true,farms=per-city`);
    await page.waitForSelector('.rules-section.big-box[data-ready="1"] [data-example="pig"] .farm-note');
    await openView(page, `${BASE}/#/rules/big-box`);
    await page.waitForSelector('.rules-section.big-box[data-ready="1"]');
    assert.equal(await page.locator('.farm-note').count(), 0, 'the standard farm rule needs no note');

    // Without an expansion: no such part, and neither its module nor the expansions' pictures load.
    const plain = await (await browser.newContext(PHONE)).newPage();
    await plain.goto(`${BASE}/#/rules/standard`);
    await plain.waitForSelector('.rules-head h1');
    await plain.waitForSelector('#tile-defs #tile-D', { state: 'attached' });
    assert.equal(await plain.locator('.rules-section.big-box').count(), 0);
    assert.equal(await plain.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.includes('rulesexamples'))), false);
    assert.equal(await plain.locator('#tile-IC02').count(), 0, 'the expansions\' tiles are not drawn');
  } finally {
    await browser.close();
  }
});
