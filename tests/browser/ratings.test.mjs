// Ratings in a real Chromium: two people sign up; Ada creates a rated
// two-player game and invites Bob, who opens the link signed in (his seat
// is linked to his account); the moves are driven over the API to keep it
// fast; at the end both profiles (#/player/NAME) show the game and the new
// ratings, with the chart (its axes: ratings and dates) and its table, and the game list filtered (rated, clock, result); the leaderboard shows the bots'
// fixed ratings. axe finds nothing on the profile and the leaderboard, on
// a desktop, on a phone (390×844) in dark mode; nothing overflows at 320 px.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launchBrowser, playOut, ratedGameFrom, shot, signUp, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

test('a rated game between two people moves both ratings, shown on their profiles', async () => {
  const browser = await launchBrowser();
  try {
    const stamp = Date.now().toString(36);
    const [adaName, bobName] = [`Ada ${stamp}`, `Bob ${stamp}`];
    const adaContext = await browser.newContext({ viewport: { width: 1200, height: 860 } });
    const bobContext = await browser.newContext({
      viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, colorScheme: 'dark',
    });
    const ada = await adaContext.newPage();
    const bob = await bobContext.newPage();
    const errors = [...watchErrors(ada), ...watchErrors(bob)];
    await signUp(ada, adaName);
    await signUp(bob, bobName);

    // Ada creates the rated game from her page (her session's cookie goes with it).
    const { id, tokens } = await ratedGameFrom(ada);

    // Bob opens the invitation signed in: his seat becomes his account's.
    await bob.goto(`${BASE}/#/game/${id}?join=${tokens[1]}`);
    await bob.waitForSelector('.account-name', { state: 'attached' });
    for (let i = 0; ; i++) {
      const { body } = await api(`/api/players/${encodeURIComponent(bobName)}`);
      if (body.games.length === 1) break;
      assert.ok(i < 100, 'Bob\'s seat is linked');
      await new Promise((r) => setTimeout(r, 100));
    }

    // His own game in play, on his profile: a link to go on playing, not to watch.
    await bob.goto(`${BASE}/#/player/${encodeURIComponent(bobName)}`);
    await bob.waitForSelector('.profile-games li');
    assert.equal(await bob.textContent(`.profile-games li a[href="#/game/${id}"]`), 'Continue');
    await bob.goto(`${BASE}/#/`);

    const scores = await playOut(id, tokens);

    for (const [page, name, seat] of [[ada, adaName, 0], [bob, bobName, 1]]) {
      await page.goto(`${BASE}/#/player/${encodeURIComponent(name)}`);
      await page.waitForSelector('.profile-games li');
      assert.equal(await page.textContent('.profile-head h1'), name);
      const li = page.locator('.profile-games li').first();
      assert.match(await li.textContent(), /rated/);
      assert.equal(await li.locator('a[href$="?review"]').count(), 1, 'a link to the review');
      assert.equal(await li.locator(`a[href="#/replay/${id}"]`).count(), 1, 'a link to the replay');
      const rating = Number(await page.textContent('.rating-value'));
      const other = scores[1 - seat];
      const expected = scores[seat] > other ? 1662 : scores[seat] < other ? 1338 : 1500;
      assert.equal(rating, expected, `${name} scored ${scores}`);
      assert.match(await page.textContent('.rating-card'), /provisional/);
      const label = await page.getAttribute('.rating-chart', 'aria-label');
      assert.match(label, /Rating over 1 rated game: from 1500 to \d+/);
      assert.equal(await page.locator('.history-table tbody tr').count(), 1, 'the chart as a table too');
      // The chart's axes: three ratings on the left, the game's date below.
      const axis = await page.$$eval('.rating-chart text.axis', (ts) => ts.map((x) => x.textContent));
      assert.equal(axis.length, 4, `three ratings and a date: ${axis}`);
      assert.ok(axis.slice(0, 3).every((x) => /^\d+$/.test(x)), `ratings: ${axis}`);
      assert.equal(axis[3], new Date().toLocaleDateString('en', { day: 'numeric', month: 'short' }), 'today, the game\'s date');
      // The game list's filters: rated, clock, result.
      const result = scores[seat] > scores[1 - seat] ? 'won' : scores[seat] < scores[1 - seat] ? 'lost' : 'shared win';
      for (const [filter, value, kept] of [['rated', 'casual', 0], ['rated', 'rated', 1], ['clock', 'realtime', 0], ['clock', 'none', 1],
        ['result', result === 'won' ? 'lost' : 'won', 0], ['result', result, 1]]) {
        await page.selectOption(`[data-filter="${filter}"]`, value);
        assert.equal(await page.locator('.profile-games li:visible').count(), kept, `${filter} ${value}`);
        assert.equal(await page.isVisible('.profile-filter-none'), kept === 0, `${filter} ${value}: said when none`);
        await page.selectOption(`[data-filter="${filter}"]`, 'all');
      }
      await checkA11y(page, `${name}'s profile`);
    }
    await shot(bob, 'ratings-profile-phone-dark');
    // 320 px: nothing wider than the screen.
    await bob.setViewportSize({ width: 320, height: 700 });
    const wide = await bob.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(wide <= 320, `the profile fits 320 px (${wide})`);

    // The leaderboard: nobody established after one game; the bots' ratings.
    await ada.goto(`${BASE}/#/leaderboard`);
    await ada.waitForSelector('#lb-bots');
    assert.match(await ada.textContent('.leaderboard'), /listed after 5 rated games/);
    assert.equal(await ada.locator('section[aria-labelledby="lb-bots"] tbody tr').count(), 4);
    await checkA11y(ada, 'leaderboard');
    await bob.setViewportSize({ width: 390, height: 844 });
    await bob.goto(`${BASE}/#/leaderboard`);
    await bob.waitForSelector('#lb-bots');
    await checkA11y(bob, 'leaderboard on a phone, dark');
    await bob.setViewportSize({ width: 320, height: 700 });
    const wideBoard = await bob.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(wideBoard <= 320, `the leaderboard fits 320 px (${wideBoard})`);
    await bob.setViewportSize({ width: 390, height: 844 });
    await shot(bob, 'ratings-leaderboard-phone-dark');

    // An unknown player: said plainly.
    await ada.goto(`${BASE}/#/player/nobody-${stamp}`);
    await ada.waitForSelector('.profile-page h1');
    assert.equal(await ada.textContent('.profile-page h1'), 'No such player');
    assert.deepEqual(errors.filter((e) => !e.includes('status of 404')), []);
  } finally {
    await browser.close();
  }
});
