// Blocking and reporting in a real Chromium: two signed-in people watch a
// game (a desktop in light mode, a 390×844 phone in dark mode) and chat;
// one reports the other's line (the dialog: reason, note), then blocks its
// author from the line: their lines leave her screen and new ones never
// come; the account page lists whom she blocks, and "Unblock" brings their
// lines back. The profile page offers Block/Unblock and Report. axe finds
// nothing in the dialog.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launchBrowser, shot, signUp, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const json = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const logText = (page) => page.locator('.chat-log').innerText();

async function openChat(page) {
  await page.waitForSelector('.chat-toggle');
  if ((await page.getAttribute('.chat-toggle', 'aria-expanded')) !== 'true') await page.click('.chat-toggle');
  await page.waitForSelector('.chat-panel .chat-body', { state: 'visible' });
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
  await page.waitForFunction((t) => document.querySelector('.chat-log')?.innerText.includes(t), text);
}

test('report a chat line, block its author (their lines vanish), unblock', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    const made = await api('/api/games', json({ seats: [{ kind: 'human', name: 'P1' }, { kind: 'human', name: 'P2' }] }));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    const n = Math.floor(Math.random() * 1e6);
    const mia = `Mia${n}`, noa = `Noa${n}`;

    const ctxA = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const ctxB = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'dark' });
    const pa = await ctxA.newPage();
    const pb = await ctxB.newPage();
    watchErrors(pa, errors);
    watchErrors(pb, errors);
    await signUp(pa, mia);
    await signUp(pb, noa);
    await pa.goto(`${BASE}/#/game/${id}`);
    await pb.goto(`${BASE}/#/game/${id}`);
    await openChat(pa);
    await openChat(pb);
    await say(pb, 'first from Noa');
    await pa.waitForFunction(() => document.querySelector('.chat-log')?.innerText.includes('first from Noa'));
    await say(pa, 'hello from Mia');
    // Her own line has neither Report nor Block.
    const own = pa.locator('.chat-msg', { hasText: 'hello from Mia' });
    assert.equal(await own.locator('.chat-report, .chat-block').count(), 0);

    // Report Noa's line: the dialog, keyboard first.
    const report = pa.getByRole('button', { name: `Report this message by ${noa}` });
    await report.focus();
    await pa.keyboard.press('Enter');
    await pa.waitForSelector('.report-dialog');
    assert.match(await pa.locator('.report-dialog').innerText(), /first from Noa/);
    assert.equal(await pa.locator('input[name="report-reason"]:checked').getAttribute('value'), 'abusive_chat');
    await checkA11y(pa, 'the report dialog (desktop, light)');
    await pa.getByLabel('Something else').check();
    await pa.fill('#report-note', 'rude to everyone');
    await pa.getByRole('button', { name: 'Send the report' }).click();
    await pa.waitForSelector('.toast', { hasText: 'your report went' });
    await pa.waitForFunction(() => !document.querySelector('.report-dialog'));
    // The same line again: refused, said in the dialog.
    await report.click();
    await pa.getByRole('button', { name: 'Send the report' }).click();
    await pa.waitForFunction(() => /reported this already/.test(document.querySelector('.report-error')?.textContent || ''));
    await pa.keyboard.press('Escape');
    await pa.waitForFunction(() => !document.querySelector('.report-dialog'));

    // Block the line's author: their lines leave her screen.
    await pa.getByRole('button', { name: `Block ${noa}` }).first().click();
    await pa.waitForFunction(() => !document.querySelector('.chat-log').innerText.includes('first from Noa'));
    assert.match(await logText(pa), /hello from Mia/);
    await say(pb, 'second from Noa');
    await pa.waitForTimeout(800);
    assert.doesNotMatch(await logText(pa), /from Noa/, 'new lines of a blocked account never come');
    assert.match(await logText(pb), /hello from Mia/, 'the blocked one still reads');
    // On the phone (dark): Noa's report dialog about Mia's line.
    await pb.getByRole('button', { name: `Report this message by ${mia}` }).tap();
    await pb.waitForSelector('.report-dialog');
    await shot(pb, '95-report-dialog-phone-dark');
    await checkA11y(pb, 'the report dialog (phone, dark)');
    await pb.getByRole('button', { name: 'Cancel' }).tap();
    await shot(pa, '95-blocked-chat-desktop');

    // Her profile of Noa says it: Unblock, and Report.
    await pa.goto(`${BASE}/#/player/${encodeURIComponent(noa)}`);
    await pa.waitForSelector('.profile-block[aria-pressed="true"]');
    assert.equal(await pa.locator('.profile-block').innerText(), 'Unblock');
    assert.equal(await pa.locator('.profile-report').count(), 1);

    // The account page lists whom she blocks; Unblock brings the lines back.
    await pa.goto(`${BASE}/#/account`);
    await pa.waitForSelector('.blocks-list li');
    assert.match(await pa.locator('.settings-blocks').innerText(), new RegExp(noa));
    await pa.getByRole('button', { name: `Unblock ${noa}` }).click();
    await pa.waitForSelector('.blocks-none:not([hidden])');
    await pa.goto(`${BASE}/#/game/${id}`);
    await openChat(pa);
    await pa.waitForFunction(() => document.querySelector('.chat-log')?.innerText.includes('second from Noa'));
    assert.match(await logText(pa), /first from Noa/);

    // And from the profile: Block again, the button turns to Unblock.
    await pa.goto(`${BASE}/#/player/${encodeURIComponent(noa)}`);
    await pa.waitForSelector('.profile-block[aria-pressed="false"]');
    await pa.click('.profile-block');
    await pa.waitForSelector('.profile-block[aria-pressed="true"]');
    const blocks = await pa.evaluate(() => fetch('/api/account/blocks').then((r) => r.json()));
    assert.deepEqual(blocks.blocks.map((b) => b.name), [noa]);
    // The report made twice was refused (409) on purpose: nothing else went wrong.
    assert.deepEqual(errors.filter((e) => !/status of 409/.test(e)), []);
  } finally {
    await browser.close();
  }
});
