// Playing with friends on other devices, in a real Chromium: each device is
// its own browser context (its own storage and websockets). The creator
// invites a friend from the new-game form, reads the link (and its QR code)
// from the Invite panel; the friend opens the link and they play a whole game
// by clicking, turn about; the friend reloads midway and keeps the seat; a
// third device watches through the spectator link. Also: presence (online /
// offline dots) and the turn notification (title, favicon, sound toggle).
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, clickCentre, launchBrowser, shot, version, watchErrors } from './lib.mjs';

const VIEWPORT = { width: 1280, height: 860 };
const MARK = /^● Your turn/;

/** Fills the new-game form: seat 1 here, the others invited friends; returns the game's id. */
async function createInviteGame(page, me, friends) {
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('.new-game .start');
  await page.fill('.seat[data-i="0"] .seat-name', me);
  for (let i = 0; i < friends.length; i++) {
    if ((await page.locator('.seat').count()) < i + 2) await page.click('.add-seat');
    const seat = `.seat[data-i="${i + 1}"]`;
    await page.selectOption(`${seat} .seat-kind`, 'human');
    await page.selectOption(`${seat} .seat-where`, 'invite');
    await page.fill(`${seat} .seat-name`, friends[i]);
  }
  await page.click('.new-game .start');
  await page.waitForURL(/#\/game\/[a-z0-9]+$/);
  await loaded(page);
  return page.url().split('/').pop();
}

/** Waits for the game screen's first state. */
async function loaded(page) {
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
}

/** The invite link of a seat, as the creator's Invite panel shows it. */
async function inviteLink(page, seat) {
  await page.waitForSelector(`.invite-panel .invite[data-seat="${seat}"] .invite-link`);
  return page.inputValue(`.invite-panel .invite[data-seat="${seat}"] .invite-link`);
}

/** Whether a page's own view says it is its turn (or the game is over). */
async function turnOf(pages, timeout = 30_000) {
  const end = Date.now() + timeout;
  for (;;) {
    for (const [name, page] of Object.entries(pages)) {
      const d = await page.evaluate(() => ({ ...document.querySelector('#app').dataset }));
      if (d.status === 'finished') return 'over';
      if (d.myturn === 'true') return name;
    }
    assert.ok(Date.now() < end, 'someone gets the turn');
    await new Promise((r) => setTimeout(r, 40));
  }
}

/**
 * One move by clicking: a cell where the tile fits as it is turned (turning
 * it with R if it fits nowhere yet), a follower now and then, Enter.
 */
async function playMove(page, n, { follower = false } = {}) {
  const v = await version(page);
  for (let i = 0; i < 4 && (await page.locator('.target.fits').count()) === 0; i++) await page.keyboard.press('r');
  const fits = page.locator('.target.fits');
  const count = await fits.count();
  assert.ok(count > 0, 'the tile fits somewhere');
  await clickCentre(page, fits.nth(n % count));
  await page.waitForSelector('.ghost-tile.solid', { timeout: 5000 });
  // With a mouse "Confirm each move" is off: a spot chosen plays the move.
  const spots = page.locator('.layer-spots .spot');
  const k = follower ? await spots.count() : 0;
  if (k > 0) await clickCentre(page, spots.nth(n % k));
  else await page.keyboard.press('Enter');
  await page.waitForFunction((v0) => Number(document.querySelector('#app').dataset.version) > v0, v);
}

/** Pretends the tab is hidden (or visible again), as when another tab is in front. */
async function setHidden(page, hidden) {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

test('a friend joins with the invite link and they play a whole game; a spectator watches', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    // Device A: the creator, Ada, here; seat 2 is Bob, invited.
    const ctxA = await browser.newContext({ viewport: VIEWPORT });
    const pa = await ctxA.newPage();
    watchErrors(pa, errors);
    await pa.goto(`${BASE}/#/`);
    await pa.waitForSelector('.new-game .start');
    assert.equal(await pa.locator('.seat').count(), 2);
    assert.equal(await pa.inputValue('.seat[data-i="1"] .seat-kind'), 'bot', 'the default is still a bot');
    await pa.fill('.seat[data-i="0"] .seat-name', 'Ada');
    await pa.selectOption('.seat[data-i="1"] .seat-kind', 'human');
    assert.equal(await pa.inputValue('.seat[data-i="1"] .seat-where'), 'here', 'a person plays here unless invited');
    await pa.selectOption('.seat[data-i="1"] .seat-where', 'invite');
    await pa.fill('.seat[data-i="1"] .seat-name', 'Bob');
    await shot(pa, '11-new-game-invite');
    await pa.click('.new-game .start');
    await pa.waitForURL(/#\/game\/[a-z0-9]+$/);
    const id = pa.url().split('/').pop();
    await loaded(pa);

    // The Invite panel is open while Bob has not come: his link and its QR code, and the link to watch.
    await pa.waitForSelector('.invite-panel[open].pending');
    const invite = await inviteLink(pa, 1);
    assert.match(invite, new RegExp(`^${BASE.replace(/[.]/g, '\\.')}/#/game/${id}\\?join=[0-9a-f]{16,64}$`));
    const watch = await pa.inputValue('.invite-panel .invite.spectate .invite-link');
    assert.equal(watch, `${BASE}/#/game/${id}`);
    await pa.waitForFunction(() => [...document.querySelectorAll('.invite-panel img.qr')]
      .every((img) => img.src.startsWith('blob:') && img.complete && img.naturalWidth > 0));
    assert.equal(await pa.locator('.invite-panel img.qr').count(), 2, 'a QR code for Bob and one for watchers');
    assert.match(await pa.locator('.invite-panel summary').textContent(), /waiting for Bob/);
    // Ada's browser holds her seat only: Bob's token is for Bob.
    const held = await pa.evaluate((gid) => JSON.parse(localStorage.getItem('carcassonne.tokens'))[gid], id);
    assert.equal(held.length, 1);
    assert.ok(!invite.includes(held[0]));
    assert.equal(await pa.locator('.player[data-seat="0"] .tag.you').count(), 1);
    assert.equal(await pa.locator('.player[data-seat="1"] .tag.you').count(), 0);
    assert.equal(await pa.locator('.player[data-seat="1"] .presence.off').count(), 1, 'Bob is not here yet');
    await pa.waitForTimeout(300);
    await shot(pa, '12-invite-panel');
    // A click on a QR code shows it large.
    await pa.click('.invite-panel .invite[data-seat="1"] .qr-btn');
    await pa.waitForSelector('.qr-dialog img.qr.big');
    await shot(pa, '13-qr-large');
    await pa.click('.qr-dialog .close');

    // Device B: Bob opens his link; the token leaves the address bar and stays on the device.
    const ctxB = await browser.newContext({ viewport: VIEWPORT });
    const pb = await ctxB.newPage();
    watchErrors(pb, errors);
    await pb.goto(invite);
    await loaded(pb);
    assert.ok(!pb.url().includes('join='), 'the token leaves the address bar');
    assert.match(pb.url(), new RegExp(`#/game/${id}$`));
    assert.equal(await pb.locator('.player[data-seat="1"] .tag.you').count(), 1, 'Bob holds seat 2');
    assert.equal(await pb.locator('.invite-panel').count(), 0, 'no invite panel for the invited');
    // Ada sees Bob arrive; the panel folds away.
    await pa.waitForSelector('.player[data-seat="1"] .presence.on');
    await pa.waitForSelector('.invite-panel:not([open]):not(.pending)');
    await pa.waitForTimeout(300);
    await shot(pa, '14-invite-folded');

    // Device C: someone with the spectator link watches.
    const ctxC = await browser.newContext({ viewport: VIEWPORT });
    const pc = await ctxC.newPage();
    watchErrors(pc, errors);
    await pc.goto(watch);
    await loaded(pc);
    assert.ok(await pc.locator('.watch-badge').isVisible(), 'the spectator is told they are watching');
    assert.match(await pc.locator('.watch-badge').textContent(), /Watching/);
    assert.equal(await pc.locator('.tag.you').count(), 0);
    assert.equal(await pa.locator('.watch-badge').isVisible(), false);

    // They play the whole game by clicking, turn about.
    const pages = { A: pa, B: pb };
    let moves = 0;
    let reloaded = false;
    const played = { A: 0, B: 0 };
    for (;;) {
      const who = await turnOf(pages);
      if (who === 'over') break;
      const me = pages[who], other = pages[who === 'A' ? 'B' : 'A'];
      if (!reloaded && moves >= 34 && who === 'B') {
        // Midway, Bob reloads: the device still holds his seat.
        await pb.reload();
        await loaded(pb);
        assert.equal(await pb.locator('.player[data-seat="1"] .tag.you').count(), 1, 'Bob keeps his seat');
        await pb.waitForFunction(() => document.querySelector('#app').dataset.myturn === 'true');
        reloaded = true;
      }
      if (moves % 10 === 1) {
        // The one to play has the marked title; the other has not.
        assert.match(await me.title(), MARK);
        await other.waitForFunction(() => !document.title.startsWith('●'));
        assert.equal(await pc.title(), 'Watching — Carcassonne');
      }
      await playMove(me, moves, { follower: moves % 5 === 0 });
      played[who]++;
      moves++;
      if (moves % 12 === 0) {
        // The spectator sees each move as it is played.
        const v = await version(me);
        await pc.waitForFunction((v0) => Number(document.querySelector('#app').dataset.version) >= v0, v);
        assert.equal(await pc.locator('.layer-tiles .placed').count(), await me.locator('.layer-tiles .placed').count());
        assert.equal(await pc.locator('.target').count(), 0, 'a spectator gets no legal cells');
      }
      if (moves === 20) await shot(pc, '15-spectator-mid-game');
      assert.ok(moves < 90, 'the game ends');
    }
    assert.ok(reloaded, 'Bob reloaded midway');
    assert.ok(moves >= 60, `a whole game: ${moves} moves`);
    assert.ok(played.A > 20 && played.B > 20, `both played (${played.A} and ${played.B})`);

    // All three see the end and the same final scores, the server's.
    const { body: game } = await api(`/api/games/${id}`);
    assert.equal(game.status, 'finished');
    const scores = game.players.map((p) => p.score);
    for (const page of [pa, pb, pc]) {
      await page.waitForFunction(() => document.querySelector('#app').dataset.status === 'finished');
      await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
      const shown = await page.locator('.players-panel .score-num').allTextContents();
      assert.deepEqual(shown.map(Number), scores);
      const totals = await page.locator('.breakdown .total-row td').allTextContents();
      assert.deepEqual(totals.map(Number), [...scores].sort((a, b) => b - a));
      assert.equal(await page.locator('.log .final-scoring').count(), 1);
      assert.doesNotMatch(await page.title(), MARK);
    }
    await pc.waitForTimeout(400);
    await shot(pc, '16-spectator-results');

    // Bob closes his browser: Ada sees him go.
    await ctxB.close();
    await pa.waitForSelector('.player[data-seat="1"] .presence.off');
    assert.deepEqual(errors, [], 'no error in the pages');
  } finally {
    await browser.close();
  }
});

test('presence: the creator sees the friend come and go; waiting for a friend to join', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    const ctxA = await browser.newContext({ viewport: VIEWPORT });
    const pa = await ctxA.newPage();
    watchErrors(pa, errors);
    await createInviteGame(pa, 'Ada', ['Bob']);
    const invite = await inviteLink(pa, 1);
    assert.equal(await pa.locator('.player[data-seat="0"] .presence.on').count(), 1, 'Ada is here');
    assert.equal(await pa.locator('.player[data-seat="1"] .presence.off').count(), 1);
    assert.match(await pa.locator('.player[data-seat="1"] .player-status').textContent(), /not joined yet/);

    // Ada plays; then it is Bob's turn and he has not come.
    await playMove(pa, 0);
    await pa.waitForFunction(() => /Waiting for Bob to join/.test(document.querySelector('.banner').textContent));
    await shot(pa, '17-waiting-to-join');

    // Bob opens the link: online.
    const ctxB = await browser.newContext({ viewport: VIEWPORT });
    const pb = await ctxB.newPage();
    watchErrors(pb, errors);
    await pb.goto(invite);
    await loaded(pb);
    await pa.waitForSelector('.player[data-seat="1"] .presence.on');
    await pa.waitForFunction(() => /Waiting for Bob$/.test(document.querySelector('.banner').textContent.trim()));
    assert.equal(await pb.locator('.player[data-seat="0"] .presence.on').count(), 1, 'Bob sees Ada online');

    // Bob's device goes away: offline, and Ada is told; her invite panel
    // no longer says everyone is here.
    await ctxB.close();
    await pa.waitForSelector('.player[data-seat="1"] .presence.off');
    await pa.waitForFunction(() => /Waiting for Bob \(offline\)/.test(document.querySelector('.banner').textContent));
    const summary = await pa.locator('.invite-panel .invite-sum').textContent();
    assert.match(summary, /Bob left/);
    assert.doesNotMatch(summary, /everyone is here/);
    assert.match(await pa.locator('.player[data-seat="1"] .player-status').textContent(), /offline/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('turn notification: a marked title (kept while the tab is hidden) and an optional sound', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    const ctxA = await browser.newContext({ viewport: VIEWPORT });
    const pa = await ctxA.newPage();
    watchErrors(pa, errors);
    await createInviteGame(pa, 'Ada', ['Bob']);
    const invite = await inviteLink(pa, 1);
    const ctxB = await browser.newContext({ viewport: VIEWPORT });
    const pb = await ctxB.newPage();
    watchErrors(pb, errors);
    await pb.goto(invite);
    await loaded(pb);

    // Ada's turn first: her title is marked, Bob's is not.
    await pa.waitForFunction(() => document.querySelector('#app').dataset.myturn === 'true');
    assert.match(await pa.title(), MARK);
    assert.equal(await pa.locator('link[rel="icon"]').getAttribute('href'), 'favicon-turn.svg');
    assert.equal(await pb.title(), 'Carcassonne');
    assert.equal(await pb.locator('link[rel="icon"]').getAttribute('href'), 'favicon.svg');

    // The sound is off until switched on, and the choice is remembered.
    assert.equal(await pb.getAttribute('.sound-toggle', 'aria-pressed'), 'false');
    await pb.click('.sound-toggle');
    assert.equal(await pb.getAttribute('.sound-toggle', 'aria-pressed'), 'true');
    assert.equal(await pb.evaluate(() => localStorage.getItem('carcassonne.sound')), 'on');

    // Bob's tab is in the background when his turn comes: marked title, a beep.
    await setHidden(pb, true);
    await playMove(pa, 0);
    assert.doesNotMatch(await pa.title(), MARK);
    await pb.waitForFunction(() => document.title.startsWith('● Your turn'));
    await pb.waitForFunction(() => document.querySelector('#app').dataset.beeps === '1');
    // He plays (say, from the notification) and the tab stays hidden: the
    // marker stays until he looks at the tab again.
    await playMove(pb, 0);
    assert.match(await pb.title(), MARK);
    await pa.waitForFunction(() => document.title.startsWith('● Your turn'));
    await setHidden(pb, false);
    await pb.waitForFunction(() => document.title === 'Carcassonne');
    assert.equal(await pb.locator('link[rel="icon"]').getAttribute('href'), 'favicon.svg');

    // After a reload the sound stays on.
    await pb.reload();
    await loaded(pb);
    assert.equal(await pb.getAttribute('.sound-toggle', 'aria-pressed'), 'true');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('reconnecting: a dropped connection comes back by itself and catches up; refusals are not alarming', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    const ctxA = await browser.newContext({ viewport: VIEWPORT });
    const pa = await ctxA.newPage();
    watchErrors(pa, errors);
    await createInviteGame(pa, 'Ada', ['Bob']);
    const invite = await inviteLink(pa, 1);

    // Bob's websocket goes through the test, which can cut it (as a flaky network would).
    const ctxB = await browser.newContext({ viewport: VIEWPORT });
    let down = false;
    const links = [];
    await ctxB.routeWebSocket(/\/api\/games\/.*\/ws/, (ws) => {
      if (down) { ws.close({ code: 1011, reason: 'network down' }).catch(() => {}); return; }
      links.push({ ws, server: ws.connectToServer() });
    });
    const pb = await ctxB.newPage();
    watchErrors(pb, errors);
    await pb.goto(invite);
    await loaded(pb);
    await pa.waitForSelector('.player[data-seat="1"] .presence.on');
    assert.equal(await pb.locator('.offline-note').isVisible(), false);

    // The network drops: Bob's screen says it is reconnecting. (Ada's cannot
    // tell yet: the server sees a dropped connection only when it closes, and
    // Playwright keeps the routed one open on the server's side.)
    down = true;
    const link = links.at(-1);
    await link.server.close({ code: 1001 });
    await link.ws.close({ code: 1011, reason: 'network down' });
    await pb.waitForSelector('.offline-note', { state: 'visible' });
    assert.match(await pb.locator('.offline-note').textContent(), /Reconnecting/);
    await shot(pb, '18-reconnecting');

    // Ada plays meanwhile; when the network is back, Bob catches up and plays.
    await playMove(pa, 0);
    assert.equal(await version(pb), 0, 'Bob has not seen it yet');
    down = false;
    await pb.waitForSelector('.offline-note', { state: 'hidden', timeout: 20_000 });
    await pb.waitForFunction(() => document.querySelector('#app').dataset.version === '1');
    await pb.waitForFunction(() => document.querySelector('#app').dataset.myturn === 'true');
    assert.equal(await pb.locator('.layer-tiles .placed').count(), 2);

    // Refusals for the rate or an old version: no error, the game goes on.
    const now = links.at(-1).ws;
    now.send(JSON.stringify({ type: 'error', error: 'stale_version', message: 'the game has moved on' }));
    now.send(JSON.stringify({ type: 'error', error: 'rate_limited', message: 'too many requests' }));
    await pb.waitForSelector('.toast.info');
    assert.equal(await pb.locator('.toast.error').count(), 0, 'no error shown');
    await playMove(pb, 0);
    await pa.waitForFunction(() => document.querySelector('#app').dataset.version === '2');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('a link whose token holds no seat: the device watches, and says so', async () => {
  const browser = await launchBrowser();
  try {
    const ctxA = await browser.newContext({ viewport: VIEWPORT });
    const pa = await ctxA.newPage();
    const id = await createInviteGame(pa, 'Ada', ['Bob']);
    const ctxB = await browser.newContext({ viewport: VIEWPORT });
    const pb = await ctxB.newPage();
    await pb.goto(`${BASE}/#/game/${id}?join=${'0'.repeat(32)}`);
    await pb.waitForSelector('.toast.error');
    assert.match(await pb.locator('.toast.error').first().textContent(), /no seat/);
    await loaded(pb);
    assert.ok(await pb.locator('.watch-badge').isVisible());
    assert.equal(await pb.evaluate((gid) => (JSON.parse(localStorage.getItem('carcassonne.tokens') || '{}'))[gid], id), undefined,
      'the useless token is forgotten');
    // No such game: said plainly.
    await pb.goto(`${BASE}/#/game/nosuchgame`);
    await pb.waitForSelector('.fatal h2');
    assert.match(await pb.locator('.fatal h2').textContent(), /No such game/);
  } finally {
    await browser.close();
  }
});
