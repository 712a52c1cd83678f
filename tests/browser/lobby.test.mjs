// The lobby (#/lobby) in a real Chromium, two devices (browser contexts,
// each its own storage and websockets): one opens a table, the other sees
// it appear live and sits down; the table is full, the game starts and both
// land in it holding their seats. "Play now" pairs a page with someone
// waiting elsewhere for the same clock (another address: a lobby socket from 127.0.0.2,
// lobbysocket.mjs; one address waits once). At desktop size and on a
// 390 × 844 phone; axe-core finds nothing on the lobby (light and dark);
// nothing is wider than a 320 px phone. What a page holds lives while it
// is open: a host's page closed closes its table on the others' lists; one
// browser's second tab does not wait twice, and a tab closed stops waiting.
// A table kept for regulars offers newcomers no seat.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launchBrowser, shot, signUp, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';
import { LobbySocket } from './lobbysocket.mjs';

const DESKTOP = { viewport: { width: 1280, height: 860 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** The seat tokens a page keeps for a game. */
async function tokensOf(page, game) {
  return page.evaluate((id) => JSON.parse(localStorage.getItem('carcassonne.tokens') || '{}')[id] || [], game);
}

/** Waits for the game screen's first state. */
async function loaded(page) {
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined, null, { timeout: 20_000 });
}

/** The seats a page's game view calls its own. */
async function mySeats(page) {
  const game = page.url().split('/').pop();
  const tokens = await tokensOf(page, game);
  const state = await page.evaluate(async ([id, t]) => (await fetch(`/api/games/${id}?token=${t.join(',')}`)).json(), [game, tokens]);
  return state.players.filter((p) => p.you).map((p) => p.name);
}

for (const [size, device] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`a table opened on one device appears live on another, who sits down; both land in the game (${size})`, async () => {
    const browser = await launchBrowser();
    try {
      const host = await (await browser.newContext(device)).newPage();
      const guest = await (await browser.newContext(device)).newPage();
      const errors = [...watchErrors(host), ...watchErrors(guest)];
      await guest.goto(`${BASE}/#/lobby`);
      await guest.waitForSelector('.lobby-live:text("Live")');
      await host.goto(`${BASE}/#/lobby`);
      await host.waitForSelector('.lobby-live:text("Live")');
      const hostName = `Hana ${size}`;
      await host.fill('.ot-name', hostName);
      await host.click('.ot-go');
      await host.waitForSelector(`.lobby-table:has-text("${hostName}") .start`);

      // The other device sees it come, without reloading.
      const table = guest.locator(`.lobby-table:has-text("${hostName}")`);
      await table.waitFor({ timeout: 10_000 });
      // …and a screen reader hears of it in the status line.
      assert.match(await guest.textContent('.lobby-live[role="status"]'), new RegExp(`New table: ${hostName}'s, 1 seat free`));
      await checkA11y(guest, `the lobby with a table (${size})`);
      await shot(guest, `lobby-${size}-table`);
      await guest.fill('.ot-name', `Gus ${size}`);
      await table.locator('.sit').first().click();

      // Full: it starts, and both are taken to the game, each in their own seat.
      await Promise.all([host.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 15_000 }), guest.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 15_000 })]);
      assert.equal(host.url().split('/').pop(), guest.url().split('/').pop(), 'the same game');
      await Promise.all([loaded(host), loaded(guest)]);
      assert.deepEqual(await mySeats(host), [hostName]);
      assert.deepEqual(await mySeats(guest), [`Gus ${size}`]);
      await shot(guest, `lobby-${size}-game`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  test(`Play now pairs a page with someone waiting elsewhere (${size})`, async () => {
    const browser = await launchBrowser();
    const other = await LobbySocket.open({ from: '127.0.0.2' });
    try {
      const page = await (await browser.newContext(device)).newPage();
      const errors = watchErrors(page);
      await page.goto(`${BASE}/#/lobby`);
      await page.waitForSelector('.lobby-live:text("Live")');
      await page.fill('.pn-name', `Pia ${size}`);
      await page.selectOption('.pn-after', ''); // no bot: a person
      // Every clock, the same list as a table's (and the form's), and Play now pairs by it.
      const values = (sel) => page.$$eval(`${sel} option`, (os) => os.map((o) => o.value));
      assert.deepEqual(await values('.pn-clock'), ['none', 'rt:2:1', 'rt:5:3', 'rt:10:5', 'rt:25:10', 'turn:1', 'turn:3', 'turn:7']);
      assert.deepEqual(await values('.ot-clock'), await values('.pn-clock'));
      await page.selectOption('.pn-clock', 'rt:5:3');
      await page.click('.pn-go');
      await page.waitForSelector('.pn-status:text("Looking for a player")');
      const untimed = await LobbySocket.open({ from: '127.0.0.3' });
      const apart = await untimed.ask({ type: 'play-now', name: `Rex ${size}` });
      untimed.close();
      assert.equal(apart.wait.state, 'waiting', 'another clock is not paired');
      const theirs = await other.ask({ type: 'play-now', name: `Quin ${size}`, clock: { kind: 'realtime', minutes: 5, increment: 3 } });
      assert.equal(theirs.type, 'waiting', JSON.stringify(theirs));
      assert.equal(theirs.wait.state, 'paired', 'paired at once with the page waiting');
      await page.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 15_000 });
      assert.equal(page.url().split('/').pop(), theirs.wait.game, 'paired into one game');
      await loaded(page);
      assert.deepEqual(await mySeats(page), [`Pia ${size}`]);
      const state = await (await fetch(`${BASE}/api/games/${theirs.wait.game}?token=${theirs.token}`)).json();
      assert.deepEqual(state.players.filter((p) => p.you).map((p) => p.name), [`Quin ${size}`]);
      assert.deepEqual([state.clock.kind, state.clock.minutes, state.clock.increment], ['realtime', 5, 3]);
      assert.deepEqual(errors, []);
    } finally {
      other.close();
      await browser.close();
    }
  });
}

test('one browser waits once: its second tab is refused, and a tab closed stops waiting', async () => {
  const browser = await launchBrowser();
  const sockets = [];
  try {
    const context = await browser.newContext(DESKTOP);
    const [first, second] = [await context.newPage(), await context.newPage()];
    for (const page of [first, second]) {
      await page.goto(`${BASE}/#/lobby`);
      await page.waitForSelector('.lobby-live:text("Live")');
      await page.selectOption('.pn-after', '');
    }
    await first.click('.pn-go');
    await first.waitForSelector('.pn-status:text("Looking for a player")');
    await second.click('.pn-go');
    await second.waitForSelector('.toast:text-matches("waiting already", "i")');
    assert.equal(await second.isVisible('.pn-cancel'), false, 'the second tab is not waiting');
    // The first tab goes: its wait goes with it, and nobody is paired with it.
    await first.close();
    const other = await LobbySocket.open({ from: '127.0.0.3' });
    sockets.push(other);
    await new Promise((r) => setTimeout(r, 300));
    const theirs = await other.ask({ type: 'play-now', name: 'Rue' });
    assert.equal(theirs.wait.state, 'waiting', `not paired with a tab closed: ${JSON.stringify(theirs)}`);
    // The second tab may wait now: it is paired with them at once.
    await second.click('.pn-go');
    await second.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 15_000 });
    const wait = await other.paired();
    assert.equal(second.url().split('/').pop(), wait.game);
  } finally {
    for (const s of sockets) s.close();
    await browser.close();
  }
});

test('a table goes from the others\' lists when its host\'s page closes', async () => {
  const browser = await launchBrowser();
  try {
    const host = await (await browser.newContext(DESKTOP)).newPage();
    const guest = await (await browser.newContext(DESKTOP)).newPage();
    const errors = watchErrors(guest);
    await guest.goto(`${BASE}/#/lobby`);
    await guest.waitForSelector('.lobby-live:text("Live")');
    await host.goto(`${BASE}/#/lobby`);
    await host.waitForSelector('.lobby-live:text("Live")');
    await host.fill('.ot-name', 'Hedda');
    await host.click('.ot-go');
    await guest.locator('.lobby-table:has-text("Hedda")').waitFor({ timeout: 10_000 });
    await host.close();
    await guest.locator('.lobby-table:has-text("Hedda")').waitFor({ state: 'detached', timeout: 10_000 });
    assert.match(await guest.textContent('.lobby-live[role="status"]'), /Hedda's table closed/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the lobby passes axe-core in the dark and fits a 320 px phone', async () => {
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ ...PHONE, viewport: { width: 320, height: 640 }, colorScheme: 'dark' })).newPage();
    await page.goto(`${BASE}/#/lobby`);
    await page.waitForSelector('.lobby-live:text("Live")');
    await page.fill('.ot-name', 'Dora');
    await page.selectOption('.ot-seat[data-i="0"] .ot-kind', 'bot');
    await page.click('.ot-add');
    await page.click('.ot-go');
    await page.waitForSelector('.lobby-table:has-text("Dora") .start');
    await checkA11y(page, 'the lobby in the dark at 320 px');
    const wide = await page.evaluate(() => [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .map((el) => el.className || el.tagName));
    assert.deepEqual(wide, [], 'nothing is wider than the phone');
    const bar = await page.evaluate(() => [...document.querySelectorAll('.topbar > a, .topbar > button, .account-nav a, .account-nav button')]
      .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => [r.left, r.right]));
    for (let i = 1; i < bar.length; i++) assert.ok(bar[i][0] >= bar[i - 1][1], `the top bar's items ${i - 1} and ${i} do not overlap`);
    assert.ok(bar[bar.length - 1][1] <= 320, 'the top bar fits');
    await shot(page, 'lobby-320-dark');
    // By keyboard: the host's Start button is reachable and starts the table (one bot: two players).
    await page.focus('.lobby-table:has-text("Dora") .start');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 15_000 });
    await loaded(page);
  } finally {
    await browser.close();
  }
});

// A host may keep their table for regulars (people with a history here):
// the table says so, a page without a history is offered no seat there and
// a sit asked anyway is refused, plainly, in the page's language. (On this
// server no account is a day old: the regulars sitting down are
// crates/server/tests/lobby.rs's.)
test('a table for regulars only offers its seats to no newcomer', async () => {
  const browser = await launchBrowser();
  const sockets = [];
  try {
    const host = await (await browser.newContext(DESKTOP)).newPage();
    const guest = await (await browser.newContext(PHONE)).newPage();
    const errors = [...watchErrors(host), ...watchErrors(guest)];
    // A guest cannot ask for it: signed-in hosts only.
    await host.goto(`${BASE}/#/lobby`);
    await host.waitForSelector('.lobby-live:text("Live")');
    await host.check('.ot-known');
    await host.click('.ot-go');
    await host.waitForSelector('.toast:has-text("sign in")', { timeout: 10_000 });
    const hostName = `Rhea r${Date.now().toString(36).slice(-6)}`;
    await signUp(host, hostName);
    await host.goto(`${BASE}/#/lobby`);
    await host.waitForSelector('.lobby-live:text("Live")');
    await host.check('.ot-known');
    await host.click('.ot-go');
    await host.waitForSelector(`.lobby-table:has-text("${hostName}") .start`);
    await guest.goto(`${BASE}/#/lobby`);
    await guest.waitForSelector('.lobby-live:text("Live")');
    const table = guest.locator(`.lobby-table:has-text("${hostName}")`);
    await table.waitFor({ timeout: 10_000 });
    assert.match(await table.locator('h3').textContent(), /regulars only/);
    assert.equal(await table.locator('button.sit').count(), 0, 'no seat offered to a newcomer');
    assert.match(await table.locator('.lobby-seats').textContent(), /for regulars/);
    await checkA11y(guest, 'the lobby with a table for regulars (phone)');
    await table.scrollIntoViewIfNeeded();
    await shot(guest, 'lobby-regulars-table-phone');
    // A sit asked anyway, from another address: refused, the seat still open.
    const id = await table.getAttribute('data-id');
    const other = await LobbySocket.open({ from: '127.0.0.7' });
    sockets.push(other);
    assert.equal(other.first.known, false);
    const refused = await other.ask({ type: 'sit', table: id, seat: 1, name: 'Nova' });
    assert.equal(refused.error, 'needs_history', JSON.stringify(refused));
    assert.match(refused.message, /people with a history/);
    const listed = (await (await fetch(`${BASE}/api/lobby/tables/${id}`)).json());
    assert.deepEqual([listed.free, listed.known_only], [1, true]);
    // In German: the badge and the seat say it.
    const de = await (await browser.newContext({ ...DESKTOP, locale: 'de-DE' })).newPage();
    await de.goto(`${BASE}/#/lobby`);
    const deTable = de.locator(`.lobby-table:has-text("${hostName}")`);
    await deTable.waitFor({ timeout: 10_000 });
    assert.match(await deTable.textContent(), /nur Stammgäste/);
    assert.match(await deTable.textContent(), /für Stammgäste/);
    assert.deepEqual(errors, []);
  } finally {
    for (const s of sockets) s.close();
    await browser.close();
  }
});

// The Big Box (issue 47): the table form offers its preset; a Big Box table
// says its rules in words and carries its pool; "Play now" asks for a rule
// family and pairs only with someone waiting for the same one, on its preset.
// The waits paired come from addresses of their own (lobbysocket.mjs).
test('a Big Box table says its rules, and Play now pairs only by the same rule family', async () => {
  const browser = await launchBrowser();
  const sockets = [];
  try {
    const host = await (await browser.newContext(DESKTOP)).newPage();
    const guest = await (await browser.newContext(PHONE)).newPage();
    const errors = [...watchErrors(host), ...watchErrors(guest)];
    for (const page of [guest, host]) {
      await page.goto(`${BASE}/#/lobby`);
      await page.waitForSelector('.lobby-live:text("Live")');
    }
    const presets = await host.$$eval('.ot-preset option', (os) => os.map((o) => [o.value, o.textContent]));
    assert.ok(presets.some(([v, text]) => v === 'big-box' && text === 'Big Box'), JSON.stringify(presets));
    const hostName = 'Bea Bigbox';
    await host.fill('.ot-name', hostName);
    await host.selectOption('.ot-preset', 'big-box');
    await host.click('.ot-go');
    await host.waitForSelector(`.lobby-table:has-text("${hostName}") .start`);
    const table = guest.locator(`.lobby-table:has-text("${hostName}")`);
    await table.waitFor({ timeout: 10_000 });
    assert.equal(await table.getAttribute('data-preset'), 'big-box');
    assert.equal(await table.getAttribute('data-pool'), 'big-box-duel');
    assert.match(await table.textContent(), /Rules: Big Box/);
    assert.match(await table.textContent(), /The Big Box/, 'its headline');
    await checkA11y(guest, 'the lobby with a Big Box table (phone)');
    await shot(guest, 'lobby-big-box-table-phone');
    // The host closes it: gone from the other's list.
    await host.click(`.lobby-table:has-text("${hostName}") .stand`);
    await table.waitFor({ state: 'detached', timeout: 10_000 });

    // Play now: the page asks for the rule family chosen (its wait itself
    // may be refused here: this browser's address has had its pairings of
    // the hour from the tests above, and a new account counts by address).
    const values = await host.$$eval('.pn-rules option', (os) => os.map((o) => o.value));
    assert.deepEqual(values, ['base', 'big-box']);
    const asked = new Promise((resolve) => {
      host.on('websocket', (ws) => ws.on('framesent', (f) => {
        const m = JSON.parse(String(f.payload));
        if (m.type === 'play-now') resolve(m);
      }));
    });
    // The socket the page has is older than the listener: a fresh page.
    await host.reload();
    await host.waitForSelector('.lobby-live:text("Live")');
    await host.selectOption('.pn-after', '');
    await host.selectOption('.pn-rules', 'big-box');
    await host.click('.pn-go');
    assert.equal((await asked).rules, 'big-box');
    assert.deepEqual(errors.filter((e) => !/status of 429/.test(e)), []);

    // Waits for the Big Box pair only with each other, on its preset.
    const first = await LobbySocket.open({ from: '127.0.0.4' });
    sockets.push(first);
    const mine = await first.ask({ type: 'play-now', name: 'Pia Bigbox', rules: 'big-box' });
    assert.deepEqual([mine.wait.state, mine.wait.family], ['waiting', 'big-box'], JSON.stringify(mine));
    const base = await LobbySocket.open({ from: '127.0.0.5' });
    sockets.push(base);
    const apart = await base.ask({ type: 'play-now', name: 'Rex Base' });
    assert.deepEqual([apart.wait.state, apart.wait.family], ['waiting', 'base'], 'the base game is not paired with the Big Box');
    const other = await LobbySocket.open({ from: '127.0.0.6' });
    sockets.push(other);
    const theirs = await other.ask({ type: 'play-now', name: 'Quin Bigbox', rules: 'big-box' });
    assert.equal(theirs.wait.state, 'paired', `paired at once with the Big Box wait: ${JSON.stringify(theirs)}`);
    const state = await (await fetch(`${BASE}/api/games/${theirs.wait.game}?token=${theirs.token}`)).json();
    assert.equal(state.rules.preset, 'big-box', 'played on the Big Box preset');
    assert.deepEqual(state.players.map((p) => p.name).sort(), ['Pia Bigbox', 'Quin Bigbox']);
  } finally {
    for (const s of sockets) s.close();
    await browser.close();
  }
});
