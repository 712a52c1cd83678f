// The games to watch (#/watch) in a real Chromium: a public rated game
// between two people (their ratings beside their names, first; in the game
// too, each player sees the other's) and a
// public casual game against a bot are listed; a private game is not; the
// page is reached from the lobby and the front page, passes axe-core, fits
// a 320 px phone, and says so plainly in German.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launchBrowser, playOut, ratedGameFrom, shot, signUp, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

/** The games the server lists to watch now. */
const watchList = async () => (await (await fetch(`${BASE}/api/watch`)).json()).games;

/** The served list once it holds game `id` or is full of games rated at
 * least `top` (read again while the server's list, kept 5 s, catches up). */
async function served(id, top) {
  let games = [];
  for (let i = 0; i < 12; i++) {
    games = await watchList();
    if (games.some((g) => g.id === id)) return games;
    if (games.length === 50 && games.every((g) => (g.top ?? -1) >= top)) return games;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`game ${id} (top ${top}) not among ${games.length} listed: ${JSON.stringify(games.map((g) => g.top))}`);
}

/** Whether game `id` is listed on `page`'s Watch page, reading it again
 * while the server's list (read at most every 5 s) catches up; false at
 * once if the server no longer lists it (it ended meanwhile). Each time,
 * the page's list is waited for: shown and loaded (a page just opened or
 * reloaded has none yet, and a check then would only ever see none). */
async function listed(page, id) {
  for (let i = 0; i < 12; i++) {
    await page.waitForFunction(() => {
      const list = document.querySelector('.watch-list');
      return list && !list.querySelector('[role="status"]');
    }, null, { timeout: 20_000 });
    if (await page.$(`.watch-list tr[data-id="${id}"]`)) return true;
    if (!(await watchList()).some((g) => g.id === id)) return false;
    await page.waitForTimeout(1000);
    await page.reload();
  }
  const shows = await page.$eval('.watch-list', (b) => b.innerText.slice(0, 400)).catch((e) => String(e));
  console.log(`game ${id} listed by the server but not on the page, which shows: ${shows}`);
  return false;
}

test('the games to watch: public games in play, rated players first, with their ratings', async () => {
  const browser = await launchBrowser();
  try {
    const stamp = Date.now().toString(36).slice(-6);
    const ada = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const bob = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    const errors = watchErrors(ada);
    const [adaName, bobName] = [`Ada w${stamp}`, `Bob w${stamp}`];
    await signUp(ada, adaName);
    await signUp(bob, bobName);
    // A rated duel played out gives them ratings; then a public rated one in play.
    const first = await ratedGameFrom(ada);
    await bob.goto(`${BASE}/#/game/${first.id}?join=${first.tokens[1]}`);
    await bob.waitForSelector('.players-panel');
    await playOut(first.id, first.tokens);
    // Ada's rated game (from her page, signed in); a guest's casual and private ones.
    const rated = await ada.evaluate(async () => (await fetch('/api/games', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seats: [{ kind: 'human' }, { kind: 'remote' }], rated: true, public: true }),
    })).json());
    const asGuest = (body) => fetch(`${BASE}/api/games`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: BASE }, body: JSON.stringify(body),
    }).then((r) => r.json());
    const made = {
      rated,
      casual: await asGuest({ seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }], public: true }),
      hidden: await asGuest({ seats: [{ kind: 'human' }, { kind: 'human' }] }),
    };
    const bobSeat = made.rated.tokens.find((x) => x.seat === 1).token;
    await bob.goto(`${BASE}/#/game/${made.rated.id}?join=${bobSeat}`);
    // (Bob's page showed his finished game before: wait for this one.)
    await bob.waitForSelector('#app[data-status="playing"] .players-panel');
    // In the game, whom one plays: both players' ratings beside their names.
    await bob.waitForFunction(() => document.querySelectorAll('.players-panel .prating').length === 2);
    const shown = await bob.$$eval('.players-panel .prating', (els) => els.map((e) => e.textContent));
    assert.ok(shown.every((r) => /^\d+$/.test(r)), `ratings: ${shown}`);
    assert.ok(await bob.$eval('.players-panel', (p) => p.scrollWidth <= p.clientWidth + 1), 'the strip fits the phone');
    // (The first game's results, due a moment after its end, never open over this one.)
    await bob.waitForTimeout(1200);
    assert.ok(await bob.$eval('.overlay.results', (o) => o.classList.contains('hidden')), 'no results dialog of another game');
    await shot(bob, 'watch-rated-game-phone');
    // The list as served: highest first. On a busy server (the suite's
    // other games in play) fifty games whose players rate higher may fill
    // it: then the rows checked are the top rated game's.
    const top = Math.max(...shown.map(Number));
    const games = await served(made.rated.id, top);
    const ids = games.map((g) => g.id);
    const tops = games.map((g) => (g.top == null ? -1 : g.top));
    assert.deepEqual(tops, [...tops].sort((a, b) => b - a), 'the highest rated first');
    assert.ok(ids.includes(made.casual.id) || ids.length === 50, 'the casual public game, unless 50 rated ones come first');
    assert.ok(!ids.includes(made.hidden.id), 'not a private game');
    assert.ok(!ids.includes(first.id), 'not a finished game');
    const ours = ids.includes(made.rated.id);
    const ratedIn = (list) => (ours ? list.find((g) => g.id === made.rated.id)
      : list.find((g) => g.rated && g.players.length === 2 && g.ratings.every((r) => r != null)));
    let checked = ratedIn(games);
    assert.ok(checked, 'a rated game between two rated players is listed');
    // From the lobby's link.
    await ada.goto(`${BASE}/#/lobby`);
    await ada.click('a[href="#/watch"] >> text=Games in play, to watch');
    // (Another test's game, checked when fifty rate higher than ours, may end
    // meanwhile, a clock's game by its time: then the next one is checked.)
    for (let tries = 1; !(await listed(ada, checked.id)); tries++) {
      assert.ok(!ours && tries < 4, 'the rated game appears');
      checked = ratedIn(await watchList());
      assert.ok(checked, 'a rated game between two rated players is still listed');
    }
    const row = ada.locator(`.watch-list tr[data-id="${checked.id}"]`);
    assert.match(await row.textContent(), /rated/);
    assert.equal(await row.locator('.grating').count(), 2, 'both players\' ratings');
    const names = ours ? [adaName, bobName] : checked.players.map((p) => p.player);
    for (const name of names) assert.ok((await row.textContent()).includes(name), `the account's name ${name}`);
    assert.match(await row.locator('.grating').first().textContent(), /^\(\d+\)$/);
    assert.equal(await row.locator(`a[href="#/game/${checked.id}"]`).count(), 1, 'a link to watch it');
    await checkA11y(ada, 'the games to watch');
    // On a phone, from the front page's link; 320 px wide.
    await bob.goto(`${BASE}/#/`);
    await bob.click('a[href="#/watch"] >> text=All games to watch');
    await bob.waitForSelector('.watch-list table, .watch-list p:not([role])');
    await shot(bob, 'watch-phone');
    await bob.setViewportSize({ width: 320, height: 700 });
    assert.ok(await bob.evaluate(() => document.scrollingElement.scrollWidth <= 320), 'fits 320 px');
    // German.
    const de = await (await browser.newContext({ locale: 'de-DE' })).newPage();
    await de.goto(`${BASE}/#/watch`);
    await de.waitForSelector('.watch-list table, .watch-list p:not([role])');
    assert.equal(await de.textContent('.watch-page h1'), 'Partien zum Zuschauen');
    assert.equal(await de.title(), 'Partien zum Zuschauen — Carcassonne');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
