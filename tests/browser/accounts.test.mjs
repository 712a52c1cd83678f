// Accounts in a real Chromium: sign up on #/signup (the recovery code is
// shown once), the name in the top bar, sign out, sign in on #/signin; a
// wrong password says so; axe finds nothing on either page.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launchBrowser, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

test('sign up, see the recovery code, sign out and sign in again', async () => {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const name = `Ada ${Date.now().toString(36)}`;
    await page.goto(`${BASE}/#/signup`);
    await page.waitForSelector('.account-form');
    assert.equal(await page.getAttribute('#account-name', 'autocomplete'), 'username');
    assert.equal(await page.getAttribute('#account-password', 'autocomplete'), 'new-password');
    await checkA11y(page, 'sign-up page');
    await page.fill('#account-name', name);
    await page.fill('#account-password', 'correct horse battery');
    await page.click('.account-form button[type=submit]');
    await page.waitForSelector('.recovery-code');
    assert.match(await page.textContent('.recovery-code'), /^[0-9a-f]{32}$/);
    await page.waitForSelector('.account-signout');
    assert.equal(await page.textContent('.account-name'), name, 'in the top bar (hidden on a phone)');
    const bar = await page.evaluate(() => {
      const b = document.querySelector('.account-signout').getBoundingClientRect();
      return { right: b.right, bottom: b.bottom, top: document.querySelector('.topbar').getBoundingClientRect().bottom };
    });
    assert.ok(bar.right <= 390 && bar.bottom <= bar.top, `"Sign out" fits the phone's top bar: ${JSON.stringify(bar)}`);
    await shot(page, 'account-recovery-code');
    await checkA11y(page, 'recovery code');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'carcassonne_session');
    assert.ok(session && session.httpOnly && session.sameSite === 'Lax', JSON.stringify(cookies));
    assert.equal(await page.evaluate(() => document.cookie.includes('carcassonne_session')), false, 'not readable by scripts');

    await page.click('.account-signout');
    await page.waitForSelector('#account-nav a[href="#/signin"]');
    await page.click('#account-nav a[href="#/signin"]');
    await page.waitForSelector('.account-form');
    assert.equal(await page.getAttribute('#account-password', 'autocomplete'), 'current-password');
    await checkA11y(page, 'sign-in page');
    await page.fill('#account-name', name);
    await page.fill('#account-password', 'not the password');
    await page.click('.account-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('.account-error')?.textContent.length > 0);
    assert.match(await page.textContent('.account-error'), /Wrong name or password/);
    await page.fill('#account-password', 'correct horse battery');
    await page.click('.account-form button[type=submit]');
    await page.waitForSelector('.account-signout');
    assert.equal(await page.textContent('.account-name'), name);
    // (The wrong password's 401 is the one error the browser logs.)
    assert.deepEqual(errors.filter((e) => !e.includes('status of 401')), []);
  } finally {
    await browser.close();
  }
});
