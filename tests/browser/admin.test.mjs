// The operator's page (#/admin) in a real Chromium. The server runs with
// `--admin Operator` (.ci/browser). A player reports another's chat line;
// the operator finds the link on the account page, reads the report
// (reason, text, note, reporter, how many against the account), mutes the
// reported account (whose chat is then refused; the report says the mute), is asked to confirm a
// closure (and says no), resolves the report (it leaves the open ones, and
// shows among all); the page on a 390×844 phone in dark mode, and axe finds
// nothing. A player who is not an operator has no link, and #/admin sends
// them to the front page (the API answers 404).
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launchBrowser, shot, signUp, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const json = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const OPERATOR = 'Operator';
const PASSWORD = 'correct horse battery';

/** A same-site request from the page (its session cookie): status and body. */
function fetchFrom(page, path, body) {
  return page.evaluate(async ([p, b]) => {
    const init = b === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) };
    const r = await fetch(p, init);
    return { status: r.status, body: await r.json() };
  }, [path, body]);
}

/** Signs the operator up, or in if an earlier run on this server did. */
async function signInOperator(page) {
  const up = await fetchFrom(page, '/api/account/signup', { name: OPERATOR, password: PASSWORD });
  if (up.status !== 201) {
    const signin = await fetchFrom(page, '/api/account/signin', { name: OPERATOR, password: PASSWORD });
    assert.equal(signin.status, 200, JSON.stringify(signin.body));
  }
}

test('the operator reads a report, mutes the account, resolves the report; others have no page', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    const made = await api('/api/games', json({ seats: [{ kind: 'human', name: 'P1' }, { kind: 'human', name: 'P2' }] }));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const game = made.body.id;
    const n = Math.floor(Math.random() * 1e6);
    const mia = `Mia${n}`, rex = `Rex${n}`;

    // Rex says a line; Mia reports it.
    const ctxM = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const ctxR = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const pm = await ctxM.newPage();
    const pr = await ctxR.newPage();
    watchErrors(pm, errors);
    watchErrors(pr, errors);
    await signUp(pm, mia);
    await signUp(pr, rex);
    const said = await fetchFrom(pr, `/api/games/${game}/chat`, { text: 'you all play badly' });
    assert.equal(said.status, 200, JSON.stringify(said.body));
    const seq = said.body.message.seq;
    const reported = await fetchFrom(pm, '/api/reports', { game, seq, reason: 'abusive_chat', note: `rude ${n}` });
    assert.equal(reported.status, 200, JSON.stringify(reported.body));
    const reportId = reported.body.report;

    // Mia is no operator: no link on her account page, no page, a 404 from the API.
    await pm.goto(`${BASE}/#/account`);
    await pm.waitForSelector('.settings-body .card');
    assert.equal(await pm.locator('.settings-admin, a[href="#/admin"]').count(), 0);
    await pm.goto(`${BASE}/#/admin`);
    await pm.waitForFunction(() => location.hash === '#/');
    assert.equal(await pm.locator('.admin-page').count(), 0);
    assert.equal((await fetchFrom(pm, '/api/admin/reports')).status, 404);

    // The operator: the link on the account page, then the page.
    const ctxO = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const po = await ctxO.newPage();
    watchErrors(po, errors);
    await po.goto(`${BASE}/#/`);
    await signInOperator(po);
    await po.goto(`${BASE}/#/account`);
    await po.reload();
    await po.getByRole('link', { name: 'Open the reports' }).click();
    await po.waitForFunction(() => location.hash === '#/admin');
    const item = po.locator(`.admin-report[data-id="${reportId}"]`);
    await item.waitFor();
    const heading = await item.locator('h2').innerText();
    assert.equal(heading, `Chat message by ${rex}`);
    const text = await item.innerText();
    for (const want of ['Abusive chat', 'you all play badly', `rude ${n}`, mia, game]) assert.ok(text.includes(want), `${want} in ${text}`);
    assert.match(await item.locator('.admin-facts').innerText(), /Open reports against this account\s+1/);
    await checkA11y(po, 'the admin page (desktop, light)');
    await shot(po, '96-admin-desktop');

    // Close asks first, and says it cannot be undone; declined, nothing happens.
    let asked = null;
    po.once('dialog', (d) => { asked = d.message(); d.dismiss(); });
    await item.getByRole('button', { name: 'Close the account' }).click();
    assert.match(asked || '', /cannot be undone/);
    assert.equal((await fetchFrom(pr, '/api/me')).body.name, rex, 'still signed in');

    // Mute for a day, by keyboard: the outcome said; Rex's chat refused.
    await item.getByLabel('Mute for').selectOption({ label: '1 day' });
    await item.getByRole('button', { name: 'Mute', exact: true }).focus();
    await po.keyboard.press('Enter');
    await po.waitForFunction((name) => document.querySelector('.admin-outcome')?.textContent.startsWith(`${name} may not chat until`), rex);
    // The focus is back on the report's heading (the list was read again), which says the mute.
    await po.waitForFunction((id) => document.activeElement?.id === `admin-report-${id}`, reportId);
    assert.match(await item.locator('.admin-facts').innerText(), /Account\s+muted until/);
    assert.equal(await po.locator('.admin-outcome').getAttribute('role'), 'status');
    const refused = await fetchFrom(pr, `/api/games/${game}/chat`, { text: 'still here' });
    assert.deepEqual([refused.status, refused.body.error], [403, 'muted']);

    // A refusal is said beside its report: a name taken.
    await item.getByLabel('New name').fill(mia.toUpperCase());
    await item.getByRole('button', { name: 'Rename' }).click();
    await po.waitForFunction((id) => /taken/.test(document.querySelector(`.admin-report[data-id="${id}"] .admin-error`)?.textContent || ''), reportId);
    assert.equal((await fetchFrom(pr, '/api/me')).body.name, rex, 'not renamed');

    // Resolve: out of the open reports, among all of them with when.
    await item.getByRole('button', { name: 'Resolve' }).click();
    await po.waitForFunction((id) => document.querySelector('.admin-outcome')?.textContent === `Report ${id} is resolved.`, reportId);
    await item.waitFor({ state: 'detached' });
    await po.getByLabel('Show resolved reports too').check();
    await item.waitFor();
    assert.match(await item.locator('.admin-facts').innerText(), /Resolved/);
    assert.equal(await item.getByRole('button', { name: 'Resolve' }).count(), 0);

    // On a phone in dark mode, in German: the page fits, axe finds nothing.
    const ctxP = await browser.newContext({
      viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'dark', locale: 'de-DE',
      storageState: await ctxO.storageState(),
    });
    const pp = await ctxP.newPage();
    watchErrors(pp, errors);
    await pp.goto(`${BASE}/#/admin`);
    await pp.waitForSelector('.admin-page');
    assert.equal(await pp.locator('h1').innerText(), 'Meldungen');
    await pp.getByLabel('Auch erledigte Meldungen zeigen').check();
    await pp.locator(`.admin-report[data-id="${reportId}"]`).waitFor();
    assert.ok(await pp.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
    // The footer is below the page, not over it.
    const [cardBottom, footerTop] = await pp.evaluate(() => {
      document.querySelector('main').scrollTop = 1e6;
      const cards = [...document.querySelectorAll('.admin-report')];
      return [cards[cards.length - 1].getBoundingClientRect().bottom, document.querySelector('.site-footer').getBoundingClientRect().top];
    });
    assert.ok(cardBottom <= footerTop + 1, `the last report (${cardBottom}) ends above the footer (${footerTop})`);
    const german = await pp.locator(`.admin-report[data-id="${reportId}"]`).innerText();
    for (const want of [`Chatnachricht von ${rex}`, 'Grund', 'Beleidigungen im Chat', 'Gemeldet von', 'Erledigt', 'Stumm für', 'Konto schließen']) {
      assert.ok(german.includes(want), `${want} in ${german}`);
    }
    await shot(pp, '96-admin-phone-dark');
    await checkA11y(pp, 'the admin page (phone, dark)');

    // The refusals were on purpose (403 muted, 404 for Mia, 409 the name): nothing else went wrong.
    assert.deepEqual(errors.filter((e) => !/status of (403|404|409)/.test(e)), []);
  } finally {
    await browser.close();
  }
});
