// Clocks and turn-based games in a real Chromium, two devices (browser
// contexts) playing each other:
//  * a real-time game made with the new-game form's custom clock (1 minute
//    each): both clocks show, the running one counts down; it runs out; the
//    other player, offered to end the casual game or play on, plays on: a
//    bot takes the seat and moves for it; its player's page says the bot
//    plays on (a flag that fell is for good); axe finds nothing on the
//    page with clocks. A game made and left before anyone moved shows as
//    aborted once its first clock runs out.
//  * a turn-based game (3 days a move): the "your turn" list in the top bar
//    of the other device shows it once it is their turn, leads to it, and
//    the game shows "2 days left"; at phone size (390×844), axe 0.
//
// The server's real-time minute may be shortened for tests
// (CARCASSONNE_TEST_MINUTE_MS, .ci/browser sets it): the test reads it from
// a game's clock. Needs a running server: BASE_URL.
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launchBrowser, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

/** The server's real-time minute, in ms (a 1-minute game's clock). */
async function minuteMs() {
  const { status, body } = await api('/api/games', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seats: [{ kind: 'human' }, { kind: 'human' }], clock: { kind: 'realtime', minutes: 1, increment: 0 } }),
  });
  assert.equal(status, 201, JSON.stringify(body));
  return body.state.clock.remaining[1];
}

async function loaded(page) {
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
}

/** Makes a game from the form: seat 1 here, seat 2 an invited friend, with the clock chosen. */
async function createWithClock(page, clock) {
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('.new-game .start');
  await page.fill('.seat[data-i="0"] .seat-name', 'Ada');
  if ((await page.locator('.seat').count()) < 2) await page.click('.add-seat');
  await page.selectOption('.seat[data-i="1"] .seat-kind', 'human');
  await page.selectOption('.seat[data-i="1"] .seat-where', 'invite');
  await page.fill('.seat[data-i="1"] .seat-name', 'Bob');
  await clock(page);
  await page.click('.new-game .start');
  await page.waitForURL(/#\/game\/[a-z0-9]+$/);
  await loaded(page);
  const id = page.url().split('/').pop();
  await page.waitForSelector('.invite-panel .invite[data-seat="1"] .invite-link', { state: 'attached' });
  const link = await page.inputValue('.invite-panel .invite[data-seat="1"] .invite-link');
  return { id, link };
}

const seatClock = (page, seat) => page.locator(`.seat-clock[data-seat="${seat}"]`);

/** Seconds a clock's text shows ("0:08" → 8). */
function seconds(text) {
  const [m, s] = text.split(':').map(Number);
  return m * 60 + s;
}

test('a real-time game: clocks run, one runs out, a bot takes the seat for good', async () => {
  const minute = await minuteMs();
  assert.ok(minute <= 30_000, `this test needs a short test minute (CARCASSONNE_TEST_MINUTE_MS), not ${minute} ms`);
  const browser = await launchBrowser();
  try {
    const ada = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const bob = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const errors = [...watchErrors(ada), ...watchErrors(bob)];
    const { id, link } = await createWithClock(ada, async (page) => {
      await page.selectOption('.clock-choice', 'custom');
      await page.fill('.clock-minutes', '1');
      await page.fill('.clock-increment', '0');
    });
    await bob.goto(link);
    await loaded(bob);
    const { body: s0 } = await api(`/api/games/${id}`);
    // The first to play moves at once (a real-time game where nobody moved
    // would be aborted when the first clock runs out): then the other's
    // clock runs; `first` names that seat from here on.
    const starter = s0.turn.seat === 0 ? ada : bob;
    const token = await starter.evaluate((g) => JSON.parse(localStorage.getItem('carcassonne.tokens'))[g][0], id);
    const { body: own } = await api(`/api/games/${id}?token=${token}`);
    const p = own.legal[0];
    const moved = await api(`/api/games/${id}/moves?token=${token}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ version: own.version, tile: p.tile, at: p.at, rot: p.rot }),
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const first = 1 - s0.turn.seat;
    const mover = first === 0 ? ada : bob;
    const other = first === 0 ? bob : ada;
    // Meanwhile a game made and left before anyone moved: aborted when its
    // first clock runs out, and its page says so.
    const { body: left } = await api('/api/games', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seats: [{ kind: 'human' }, { kind: 'human' }], clock: { kind: 'realtime', minutes: 1, increment: 0 } }),
    });
    // Both clocks show on both pages; the running one counts down, the other stands.
    for (const page of [ada, bob]) {
      await seatClock(page, 0).waitFor();
      await seatClock(page, 1).waitFor();
    }
    const before = seconds(await seatClock(other, first).innerText());
    const standing = await seatClock(other, 1 - first).innerText();
    await other.waitForTimeout(2200);
    const after = seconds(await seatClock(other, first).innerText());
    assert.ok(after < before, `the running clock counts down: ${before} then ${after}`);
    assert.equal(await seatClock(other, 1 - first).innerText(), standing, 'the other clock stands still');
    assert.equal(await seatClock(other, first).getAttribute('role'), 'timer');
    assert.equal(await seatClock(other, first).getAttribute('aria-live'), null, 'a clock is not read out every second');
    await checkA11y(ada, 'the game with clocks');
    await ada.emulateMedia({ colorScheme: 'dark' });
    await checkA11y(ada, 'the game with clocks, in dark mode');
    await ada.emulateMedia({ colorScheme: null });
    await shot(other, 'clocks-running');

    // Nobody moves: the clock runs out; the other player is offered to hand the seat to a bot.
    await other.waitForSelector(`.seat-clock[data-seat="${first}"].out`, { timeout: minute * 2 });
    // (A casual game: the choice is to end it as it stands or to play on
    // against a bot; the end is endings.test.mjs's and the server's tests'.)
    const choice = other.locator('.clock-panel .flag-choice');
    await choice.waitFor({ timeout: 10_000 });
    assert.match(await choice.innerText(), /ran out of time\. End the game now/);
    await checkA11y(other, 'the choice at a casual flag');
    await shot(other, 'clocks-handover');
    await choice.locator(`[data-act="handover"][data-seat="${first}"]`).click();
    // The bot moves for the seat: the game goes on; the log says what happened.
    await other.waitForFunction(() => Number(document.querySelector('#app').dataset.version) >= 2, null, { timeout: 30_000 });
    await other.waitForFunction((seat) => /bot \(normal\) plays/.test(document.querySelector(`.seat-clock[data-seat="${seat}"]`)?.textContent || ''), first);
    const log = await other.locator('.log .clock-log').innerText();
    assert.match(log, /ran out of time/);
    assert.match(log, /A normal bot plays for/);

    // Its flag fell: the seat moves no more, its page says so and offers
    // no way back (a seat that was only away is taken back at once: the
    // server tests, tests/clocks.rs).
    const note = mover.locator('.clock-panel .takeback');
    await note.waitFor({ timeout: 10_000 });
    assert.match(await note.innerText(), /Your time ran out/);
    assert.equal(await mover.locator('.clock-panel [data-act="back"]').count(), 0);
    const { body: s1 } = await api(`/api/games/${id}`);
    assert.equal(s1.clock.standin[first], 'normal');
    assert.ok(s1.clock.expired.includes(first));

    const gone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    errors.push(...watchErrors(gone));
    await gone.goto(`${BASE}/#/game/${left.id}`);
    await gone.waitForSelector('.banner.over', { timeout: minute * 2 });
    assert.match(await gone.locator('.banner').innerText(), /Game aborted/);
    assert.match(await gone.locator('.log').innerText(), /before anyone moved/);
    await checkA11y(gone, 'an aborted game, at phone size');
    await shot(gone, 'clocks-aborted');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('a turn-based game: the "your turn" list on every page, days left', async () => {
  const browser = await launchBrowser();
  try {
    const ada = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const bob = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })).newPage();
    const errors = [...watchErrors(ada), ...watchErrors(bob)];
    const { id, link } = await createWithClock(ada, (page) => page.selectOption('.clock-choice', 'turn:3'));
    await bob.goto(link);
    await loaded(bob);
    // Bob goes elsewhere: the home page.
    await bob.goto(`${BASE}/#/`);
    await bob.waitForSelector('.new-game .start');
    const { body: s0 } = await api(`/api/games/${id}`);
    assert.equal(s0.clock.kind, 'turn');
    let turn = s0.turn.seat;
    if (turn === 1) {
      // Bob is to move at once: his list has the game.
      await bob.waitForSelector('.yourturn-nav:not([hidden])', { timeout: 30_000 });
    } else {
      // Ada's page says how long she has, then she moves (through the page's own token).
      await ada.waitForFunction(() => /2 days left/.test(document.querySelector('.seat-clock[data-seat="0"]')?.textContent || ''));
      assert.ok(await bob.locator('.yourturn-nav').isHidden(), 'not Bob\'s turn yet');
      await ada.evaluate(async (id) => {
        const tokens = JSON.parse(localStorage.getItem('carcassonne.tokens'))[id];
        const s = await (await fetch(`/api/games/${id}?token=${tokens.join(',')}`)).json();
        const p = s.legal[0];
        const r = await fetch(`/api/games/${id}/moves?token=${tokens.join(',')}`, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ version: s.version, tile: p.tile, at: p.at, rot: p.rot }),
        });
        if (!r.ok) throw new Error(await r.text());
      }, id);
      turn = 1;
      // The list refreshes when the screen changes (and every 20 s).
      await bob.goto(`${BASE}/#/games`);
      await bob.waitForSelector('.yourturn-nav:not([hidden])', { timeout: 30_000 });
    }
    assert.equal(turn, 1);
    const btn = bob.locator('.yourturn-btn');
    assert.match(await btn.innerText(), /1/);
    assert.match(await btn.getAttribute('aria-expanded'), /false/);
    await btn.click();
    const entry = bob.locator('.yourturn-menu a');
    await entry.waitFor();
    assert.match(await entry.innerText(), /Bob vs Ada/);
    assert.match(await entry.innerText(), /2 days left/);
    // At phone size the count sits on the brand's mark: it covers no link
    // or button of the bar, and the bar still fits.
    const bar = await bob.evaluate(() => {
      const box = (e) => { const r = e.getBoundingClientRect(); return { cls: e.className || e.tagName, left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
      const badge = box(document.querySelector('.yourturn-btn'));
      const others = [...document.querySelectorAll('.topbar a:not(.brand), .topbar button:not(.yourturn-btn)')].filter((e) => e.offsetParent).map(box);
      return { badge, others };
    });
    for (const o of bar.others) {
      const apart = o.left >= bar.badge.right || o.right <= bar.badge.left || o.top >= bar.badge.bottom || o.bottom <= bar.badge.top;
      assert.ok(apart, `the count covers ${o.cls}: ${JSON.stringify(bar)}`);
      assert.ok(o.right <= 390, `the top bar fits: ${JSON.stringify(bar)}`);
    }
    await checkA11y(bob, 'the "your turn" list open, at 390×844');
    await shot(bob, 'clocks-yourturn-phone');
    // Keyboard: Escape closes the list.
    await bob.keyboard.press('Escape');
    assert.equal(await bob.locator('.yourturn-menu').isHidden(), true);
    await btn.click();
    await entry.click();
    await bob.waitForURL(new RegExp(`#/game/${id}$`));
    await loaded(bob);
    await bob.waitForFunction(() => /2 days left/.test(document.querySelector('.seat-clock[data-seat="1"]')?.textContent || ''));
    // On the game itself the list does not name it.
    await bob.waitForFunction(() => document.querySelector('.yourturn-nav').hidden);
    await checkA11y(bob, 'a turn-based game at 390×844');
    await shot(bob, 'clocks-turn-phone');
    // In dark mode too, the list open.
    await bob.emulateMedia({ colorScheme: 'dark' });
    await bob.goto(`${BASE}/#/games`);
    await bob.waitForSelector('.yourturn-nav:not([hidden])', { timeout: 30_000 });
    await bob.click('.yourturn-btn');
    await checkA11y(bob, 'the "your turn" list in dark mode');
    await shot(bob, 'clocks-yourturn-dark');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
