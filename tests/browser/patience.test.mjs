// The page's requests turned away for the address's request rate (429
// `rate_limited`: the server did nothing) are asked again after a moment,
// so a burst behind one address costs a wait, not an error on screen; any
// other refusal (a quota's 429 included) is said at once. The server's
// answers are stood in for by Playwright's routing, a request at a time.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, watchErrors } from './lib.mjs';

const refusal = (error, message) => ({
  status: 429, contentType: 'application/json', body: JSON.stringify({ error, message }),
});

test('a request refused for the rate is asked again and the page shows the answer; a quota is said at once', async () => {
  const { context, close } = await launch();
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');

    // Twice refused for the rate, then the server's own answer (nobody has this name).
    let asked = 0;
    await page.route('**/api/players/**', (route) => (++asked <= 2 ? route.fulfill(refusal('rate_limited', 'too many requests: wait a moment and try again')) : route.continue()));
    const start = Date.now();
    await page.goto(`${BASE}/#/player/Nobody%20here`);
    await page.waitForSelector('.profile-page h1:text("No such player")', { timeout: 15_000 });
    assert.equal(asked, 3, 'asked three times');
    assert.ok(Date.now() - start >= 1400, 'after half a second and a second');
    assert.match(await page.textContent('.profile-page'), /Nobody plays here under the name “Nobody here”/);
    await page.unroute('**/api/players/**');

    // A quota's refusal is not asked again: said on the page at once.
    asked = 0;
    await page.route('**/api/players/**', (route) => { asked += 1; return route.fulfill(refusal('quota_exceeded', 'this address created as many games as it may')); });
    await page.goto(`${BASE}/#/player/Somebody`);
    // (The page before said "No such player" too: wait for this one's words.)
    await page.waitForSelector('.profile-page:has-text("as many games as it may")', { timeout: 5_000 });
    assert.equal((await page.textContent('.profile-page h1')).trim(), 'No such player');
    assert.equal(asked, 1, 'asked once');
    assert.match(await page.textContent('.profile-page'), /as many games as it may/);
    // The refusals and the unknown name, as the browser reports them, are the only console errors.
    assert.ok(errors.every((e) => /status of (429|404)/.test(e)), errors.join(' | '));
  } finally {
    await close();
  }
});
