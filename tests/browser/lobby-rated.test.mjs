// From the lobby to the ratings, in a real Chromium, at desktop size and on
// a 390×844 phone: two people sign up; one opens a rated table in the lobby
// (#/lobby); the other sees it appear live, marked rated with the host's
// rating, and sits down; the table is full, the game starts and both land
// in it, marked rated, with no hint offered; the game is played to its end
// (its moves over the API with the seats' tokens the pages keep, to be
// quick); the results dialog says what it did to both ratings, and both
// profiles show the rated game and the new ratings. Then the host's tables
// show the host's rating in each table's pool: the base game's, moved; the
// Big Box's (a rated Big Box table), a new player's start.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launchBrowser, playOut, press, shot, signUp, waitShown, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const DEVICES = {
  desktop: { viewport: { width: 1280, height: 860 } },
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
};

for (const [size, device] of Object.entries(DEVICES)) {
  test(`a rated table from the lobby, played to its end, moves both ratings on the profiles (${size})`, async () => {
    const browser = await launchBrowser();
    try {
      const stamp = Date.now().toString(36);
      const [hostName, guestName] = [`Hal ${stamp}`, `Gia ${stamp}`];
      const host = await (await browser.newContext(device)).newPage();
      const guest = await (await browser.newContext(device)).newPage();
      const errors = [...watchErrors(host), ...watchErrors(guest)];
      await signUp(host, hostName);
      await signUp(guest, guestName);

      await guest.goto(`${BASE}/#/lobby`);
      await guest.waitForSelector('.lobby-live:text("Live")');
      await host.goto(`${BASE}/#/lobby`);
      await host.waitForSelector('.lobby-live:text("Live")');
      // Signed in, the name is the account's.
      assert.equal(await host.inputValue('.ot-name'), hostName);
      assert.equal(await host.getAttribute('.ot-name', 'readonly'), '');
      await press(host, '.ot-rated', { check: true });
      await press(host, '.ot-go');
      await host.waitForSelector(`.lobby-table:has-text("${hostName}") .start`);

      // The other device sees it come: rated, with the host's rating.
      const table = guest.locator(`.lobby-table:has-text("${hostName}")`);
      await table.waitFor({ timeout: 10_000 });
      assert.match(await table.textContent(), /rated/);
      assert.match(await table.textContent(), /host rated 1500\?/);
      await checkA11y(guest, `the lobby with a rated table (${size})`);
      await shot(guest, `lobby-rated-${size}`);
      await press(guest, `.lobby-table:has-text("${hostName}") .sit`);

      await Promise.all([host, guest].map((p) => p.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 15_000 })));
      const id = host.url().split('/').pop();
      assert.equal(guest.url().split('/').pop(), id, 'the same game');
      await Promise.all([host, guest].map((p) => p.waitForFunction(
        () => document.querySelector('#app')?.dataset.version !== undefined, null, { timeout: 20_000 })));

      // The game says it is rated, and offers no hint.
      for (const page of [host, guest]) {
        assert.equal(await page.textContent('.rated-mark'), 'Rated');
        assert.equal(await page.locator('.hint-btn').count(), 0);
      }

      // Each page holds its own seat, under its account's name.
      const tokens = [];
      const seats = {};
      for (const [page, name] of [[host, hostName], [guest, guestName]]) {
        const kept = await page.evaluate((g) => JSON.parse(localStorage.getItem('carcassonne.tokens') || '{}')[g] || [], id);
        assert.equal(kept.length, 1, `${name} holds one seat`);
        const { body } = await api(`/api/games/${id}?token=${kept[0]}`);
        assert.equal(body.rated, true, 'the game is rated');
        const seat = body.players.findIndex((p) => p.you);
        assert.equal(body.players[seat].name, name);
        tokens[seat] = kept[0];
        seats[name] = seat;
      }
      const scores = await playOut(id, tokens);

      // The results dialog says what the game did to both ratings.
      await waitShown(guest, '.results-dialog .rating-changes li', { errors, direct: `/api/games/${id}/ratings` });
      const changes = await guest.locator('.rating-changes li').allTextContents();
      assert.equal(changes.length, 2, changes.join(' | '));
      for (const [name, seat] of Object.entries(seats)) {
        const other = scores[1 - seat];
        const after = scores[seat] > other ? '1662' : scores[seat] < other ? '1338' : '1500';
        assert.ok(changes.some((c) => c.includes(name) && new RegExp(`1500 → ${after}`).test(c.replace(/\s+/g, ' '))),
          `${name} (seat ${seat}) scored ${scores}: ${changes.join(' | ')}`);
      }
      await shot(guest, `lobby-rated-${size}-results`);

      for (const [page, name] of [[host, hostName], [guest, guestName]]) {
        const seat = seats[name];
        await page.goto(`${BASE}/#/player/${encodeURIComponent(name)}`);
        await waitShown(page, '.profile-games li', { errors, direct: `/api/players/${encodeURIComponent(name)}` });
        const li = page.locator('.profile-games li').first();
        assert.match(await li.textContent(), /rated/);
        assert.equal(await li.locator(`a[href="#/replay/${id}"]`).count(), 1, 'a link to the replay');
        const other = scores[1 - seat];
        const expected = scores[seat] > other ? 1662 : scores[seat] < other ? 1338 : 1500;
        assert.equal(Number(await page.textContent('.rating-value')), expected, `${name} (seat ${seat}) scored ${scores}`);
      }
      await shot(guest, `lobby-rated-${size}-profile`);

      // The host's rating a table shows is the one of the table's pool: the
      // base game's as it now stands; a new player's start in the Big Box.
      const hostSeat = seats[hostName];
      const hostRating = scores[hostSeat] > scores[1 - hostSeat] ? '1662' : scores[hostSeat] < scores[1 - hostSeat] ? '1338' : '1500';
      await host.goto(`${BASE}/#/lobby`);
      await host.waitForSelector('.lobby-live:text("Live")');
      await guest.goto(`${BASE}/#/lobby`);
      await guest.waitForSelector('.lobby-live:text("Live")');
      await press(host, '.ot-rated', { check: true });
      await press(host, '.ot-go');
      const baseTable = guest.locator(`.lobby-table[data-pool="duel"]:has-text("${hostName}")`);
      await baseTable.waitFor({ timeout: 10_000 });
      assert.match(await baseTable.textContent(), new RegExp(`host rated ${hostRating}\\? \\(base game, two players\\)`));
      await press(host, `.lobby-table:has-text("${hostName}") .stand`);
      await baseTable.waitFor({ state: 'detached', timeout: 10_000 });
      await host.selectOption('.ot-preset', 'big-box');
      await press(host, '.ot-rated', { check: true });
      await press(host, '.ot-go');
      const bigTable = guest.locator(`.lobby-table[data-pool="big-box-duel"]:has-text("${hostName}")`);
      await bigTable.waitFor({ timeout: 10_000 });
      const text = (await bigTable.textContent()).replace(/\s+/g, ' ');
      assert.match(text, /rated/);
      assert.match(text, /Rules: Big Box/);
      assert.match(text, /host rated 1500\? \(Big Box, two players\)/);
      await checkA11y(guest, `the lobby with a rated Big Box table (${size})`);
      await press(host, `.lobby-table:has-text("${hostName}") .stand`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}
