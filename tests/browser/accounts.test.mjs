// Accounts in a real Chromium: sign up on #/signup (the recovery code is
// shown once), the name in the top bar, sign out, sign in on #/signin; a
// wrong password says so; axe finds nothing on either page.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SIGNED_OUT, api, launchBrowser, shot, watchErrors } from './lib.mjs';
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
    await page.waitForSelector(SIGNED_OUT);
    await page.click(SIGNED_OUT);
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

// Each password attempt counts against the name (5 at once, then one a
// minute: services/accounts.rs), so this walk makes five: the other
// device's sign-in, the change, the wrong and the right recovery code, the
// deletion. Wrong current passwords are refused in crates/server/tests.
test('change the password, sign out everywhere, recover with the code, delete the account', async () => {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const name = `Cy ${Date.now().toString(36)}`;
    await page.goto(`${BASE}/#/signup`);
    await page.waitForSelector('.account-form');
    await page.fill('#account-name', name);
    await page.fill('#account-password', 'first password 1');
    await page.click('.account-form button[type=submit]');
    const code = (await page.textContent('.recovery-code')).trim();

    // Another device signed in to the same account.
    const other = await (await browser.newContext()).newPage();
    await other.goto(`${BASE}/#/signin`);
    await other.waitForSelector('.account-form');
    await other.fill('#account-name', name);
    await other.fill('#account-password', 'first password 1');
    await other.click('.account-form button[type=submit]');
    await other.waitForSelector('.account-signout');

    // #/account: too short a password is refused in the page; a good one
    // changes it and signs the other device out.
    await page.goto(`${BASE}/#/account`);
    await page.waitForSelector('.settings-password');
    assert.match(await page.textContent('.account-who'), new RegExp(`Signed in as ${name}`));
    assert.equal(await page.getAttribute('#current-password', 'autocomplete'), 'current-password');
    assert.equal(await page.getAttribute('#new-password', 'autocomplete'), 'new-password');
    await checkA11y(page, 'account page');
    await shot(page, 'account-settings');
    await page.fill('#current-password', 'first password 1');
    await page.fill('#new-password', 'short');
    await page.click('.settings-password button[type=submit]');
    await page.waitForFunction(() => /8 characters/.test(document.querySelector('.settings-password .account-error').textContent));
    await page.fill('#new-password', 'second password 2');
    await page.click('.settings-password button[type=submit]');
    await page.waitForFunction(() => document.querySelector('.settings-done').textContent.length > 0);
    assert.match(await page.textContent('.settings-done'), /Password changed/);
    assert.equal(await page.inputValue('#current-password'), '', 'the fields are emptied');
    await other.reload();
    await other.waitForSelector(SIGNED_OUT);

    // Sign out everywhere: this device too.
    await page.click('.settings-everywhere');
    await page.waitForSelector(SIGNED_OUT);
    await page.waitForFunction(() => location.hash === '#/signin'); // (page.url() may lag behind the page)

    // The password forgotten: the recovery code sets a new one, signs in,
    // and a new code is shown; a wrong code changes nothing.
    await page.click('a[href="#/recover"]');
    await page.waitForSelector('.recover-form');
    await checkA11y(page, 'recovery page');
    await page.fill('#account-name', name);
    await page.fill('#recovery-code', 'ffffffffffffffffffffffffffffffff');
    await page.fill('#account-password', 'third password 3');
    await page.click('.recover-form button[type=submit]');
    await page.waitForFunction(() => /Wrong name or password/.test(document.querySelector('.account-error').textContent));
    await page.fill('#recovery-code', code);
    await page.click('.recover-form button[type=submit]');
    await page.waitForSelector('.recovery-code');
    const next = (await page.textContent('.recovery-code')).trim();
    assert.match(next, /^[0-9a-f]{32}$/);
    assert.notEqual(next, code, 'a code is used once');
    await page.waitForSelector('.account-signout');

    // Delete the account: signed out, the profile gone.
    await page.goto(`${BASE}/#/account`);
    await page.waitForSelector('.settings-delete');
    await page.fill('#delete-password', 'third password 3');
    await page.click('.settings-delete button[type=submit]');
    await page.waitForSelector('text=Your account is deleted');
    await page.waitForSelector(SIGNED_OUT);
    await checkA11y(page, 'account deleted');
    assert.equal((await api(`/api/players/${encodeURIComponent(name)}`)).status, 404);
    // The wrong recovery code's 401 is the one error the browser logs.
    assert.deepEqual(errors.filter((e) => !e.includes('status of 401')), []);
  } finally {
    await browser.close();
  }
});
