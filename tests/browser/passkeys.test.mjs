// Passkeys in a real Chromium with its virtual authenticator (CDP's
// WebAuthn domain: CTAP2, internal, resident keys, user verified): sign up
// with a password, add a passkey on #/account, sign out, sign in with the
// passkey, see it used, remove it; axe finds nothing (light and dark); a
// phone (390 px) and the narrowest (320 px) fit.
//
// Passkeys need a domain name: the page is opened at localhost (the
// server's development relying party), whatever BASE_URL's address is.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, SIGNED_OUT, launchBrowser, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const url = new URL(BASE);
const local = ['127.0.0.1', 'localhost'].includes(url.hostname);
const LOCAL = `${url.protocol}//localhost:${url.port}`;

/** Fits the viewport's width: nothing wider than the page. */
async function fitsWidth(page, what) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, width: innerWidth }));
  assert.ok(scroll <= width, `${what}: ${scroll} px wide in a ${width} px window`);
}

/** The account's link and "Sign out" (icons on a phone) fit the top bar, clear of the colours switch. */
async function topBarFits(page, what) {
  const bar = await page.evaluate(() => {
    const r = (s) => document.querySelector(s).getBoundingClientRect();
    return { link: [r('.account-link').left, r('.account-link').right], out: [r('.account-signout').left, r('.account-signout').right], theme: r('.theme-toggle').left, width: innerWidth };
  });
  assert.ok(bar.link[0] > 0 && bar.link[1] <= bar.out[0] && bar.out[1] <= bar.theme && bar.theme < bar.width, `${what}: ${JSON.stringify(bar)}`);
}

test('add a passkey, sign out, sign in with it, remove it', { skip: !local && 'passkeys need the server at localhost' }, async () => {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    // Sign up with a password; the recovery page points to passkeys.
    const name = `Pia ${Date.now().toString(36)}`;
    await page.goto(`${LOCAL}/#/signup`);
    await page.waitForSelector('.account-form');
    await page.fill('#account-name', name);
    await page.fill('#account-password', 'correct horse battery');
    await page.click('.account-form button[type=submit]');
    await page.waitForSelector('.recovery-code');
    await page.click('a[href="#/account"]:has-text("add a passkey")');

    // #/account: none yet; add one, named.
    await page.waitForSelector('.passkey-none');
    assert.match(await page.textContent('.account-who'), new RegExp(`Signed in as ${name}`));
    await checkA11y(page, 'account page, no passkey');
    await page.fill('#passkey-name', 'Test phone');
    await page.click('.passkey-add button[type=submit]');
    await page.waitForSelector('.passkey-item');
    assert.equal(await page.textContent('.passkey-name'), 'Test phone');
    assert.match(await page.textContent('.passkey-dates'), /not used yet/);
    assert.match(await page.textContent('.passkey-status'), /Passkey added/);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0].isResidentCredential, true, 'a discoverable credential');
    assert.equal(credentials[0].rpId, 'localhost');
    await fitsWidth(page, 'account page on a phone');
    await shot(page, 'passkeys-account');
    await checkA11y(page, 'account page with a passkey');

    await topBarFits(page, 'phone');

    // Sign out; on the sign-in page the browser offers the passkey in the
    // name field (conditional UI), which the virtual authenticator takes at once.
    await page.click('.account-signout');
    await page.waitForSelector(SIGNED_OUT);
    await page.click(SIGNED_OUT);
    await page.waitForSelector('.account-signout');
    assert.equal(await page.getAttribute('.account-link', 'aria-label'), `Account of ${name}`);
    await page.waitForFunction(() => location.hash === '#/'); // (page.url() may lag behind the page)

    // Where the browser has no such offer: "Sign in with a passkey", no name typed.
    await page.addInitScript(() => {
      window.PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await page.click('.account-signout');
    await page.waitForSelector(SIGNED_OUT);
    await page.goto(`${LOCAL}/#/signin`);
    await page.reload();
    await page.waitForSelector('.passkey-signin-button');
    assert.equal(await page.getAttribute('#account-name', 'autocomplete'), 'username webauthn');
    assert.equal(await page.evaluate(() => PublicKeyCredential.isConditionalMediationAvailable()), false);
    await checkA11y(page, 'sign-in page with passkeys');
    await fitsWidth(page, 'sign-in page on a phone');
    await shot(page, 'passkeys-signin');
    await page.click('.passkey-signin-button');
    await page.waitForSelector('.account-signout');
    assert.equal(await page.getAttribute('.account-link', 'aria-label'), `Account of ${name}`);
    await page.waitForFunction(() => location.hash === '#/'); // (page.url() may lag behind the page)

    // The passkey shows its use; removed, it is gone.
    await page.click('.account-link');
    await page.waitForSelector('.passkey-item');
    assert.match(await page.textContent('.passkey-dates'), /last used/);
    await page.click('.passkey-remove');
    await page.waitForSelector('.passkey-none');
    assert.match(await page.textContent('.passkey-status'), /removed/);

    // The narrowest phone, and dark mode.
    await page.setViewportSize({ width: 320, height: 640 });
    await fitsWidth(page, 'account page at 320 px');
    await topBarFits(page, '320 px');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await page.waitForSelector('.passkey-none');
    await shot(page, 'passkeys-account-dark-320');
    await checkA11y(page, 'account page, dark, 320 px');

    // A sign-in with a passkey the server no longer has is refused, plainly.
    await page.click('.account-signout');
    await page.waitForSelector(SIGNED_OUT);
    await page.goto(`${LOCAL}/#/signin`);
    await page.waitForSelector('.passkey-signin-button');
    await page.click('.passkey-signin-button');
    await page.waitForFunction(() => document.querySelector('.passkey-error')?.textContent.length > 0);
    assert.match(await page.textContent('.passkey-error'), /not accepted/);
    await checkA11y(page, 'sign-in page, passkey refused, dark');
    // (The refused passkey's 401 is the one error the browser logs.)
    assert.deepEqual(errors.filter((e) => !e.includes('status of 401')), []);
  } finally {
    await browser.close();
  }
});
