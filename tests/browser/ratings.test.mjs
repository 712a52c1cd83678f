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
import { BASE, api, launchBrowser, playOut, ratedGameFrom, shot, signUp, waitShown, watchErrors } from './lib.mjs';
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
      await waitShown(page, '.profile-games li', { direct: `/api/players/${encodeURIComponent(name)}` });
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

// The Big Box (issue 47): ratings are kept per pool of rule family. A rated
// Big Box duel moves the players' Big Box ratings only: the profile shows
// each pool's rating (the base game's first) with its own chart, and its
// games list says each game's rules and pool; the results dialog says the
// pool; the leaderboard's rule-set choice (base game, Big Box) is kept in
// the address.
test('a rated Big Box game moves the Big Box pool only; the leaderboard is chosen by rule set', async () => {
  const browser = await launchBrowser();
  try {
    const stamp = Date.now().toString(36);
    const [adaName, bobName] = [`Ada bb ${stamp}`, `Bob bb ${stamp}`];
    const ada = await (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage();
    const bob = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    const errors = [...watchErrors(ada), ...watchErrors(bob)];
    await signUp(ada, adaName);
    await signUp(bob, bobName);
    /** A rated duel of Ada's on `rules`, Bob's seat linked from his page, played out: its id and scores. */
    const duel = async (rules) => {
      const created = await ada.evaluate(async (r) => {
        const resp = await fetch('/api/games', {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ seats: [{ kind: 'human' }, { kind: 'remote' }], rated: true, rules: r }),
        });
        return { status: resp.status, body: await resp.json() };
      }, rules);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const { id } = created.body;
      const tokens = [0, 1].map((seat) => created.body.tokens.find((x) => x.seat === seat).token);
      const linked = await bob.evaluate(async ([game, token]) => (await (await fetch('/api/account/seats', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats: [{ game, token }] }),
      })).json()).linked, [id, tokens[1]]);
      assert.deepEqual(linked, [{ game: id, seat: 1 }]);
      await ada.evaluate(([game, token]) => {
        const all = JSON.parse(localStorage.getItem('carcassonne.tokens') || '{}');
        all[game] = [token];
        localStorage.setItem('carcassonne.tokens', JSON.stringify(all));
      }, [id, tokens[0]]);
      return { id, scores: await playOut(id, tokens) };
    };
    const base = await duel({ preset: 'standard' });
    const { body: before } = await api(`/api/players/${encodeURIComponent(adaName)}`);
    const big = await duel({ preset: 'big-box' });

    await ada.goto(`${BASE}/#/player/${encodeURIComponent(adaName)}`);
    await waitShown(ada, '.profile-games li', { direct: `/api/players/${encodeURIComponent(adaName)}` });
    const cards = ada.locator('.rating-card');
    assert.deepEqual(await cards.locator('h2').allTextContents(), ['Base game, two players (Glicko-2)', 'Big Box, two players (Glicko-2)']);
    const baseRating = Number(await cards.nth(0).locator('.rating-value').textContent());
    assert.equal(baseRating, Math.round(before.ratings[0].rating), 'the base game\'s rating stays as it was');
    const expected = big.scores[0] > big.scores[1] ? 1662 : big.scores[0] < big.scores[1] ? 1338 : 1500;
    assert.equal(Number(await cards.nth(1).locator('.rating-value').textContent()), expected, `the Big Box's from 1500: ${big.scores}`);
    for (const i of [0, 1]) {
      assert.match(await cards.nth(i).locator('.rating-chart').getAttribute('aria-label'), /Rating over 1 rated game: from 1500/, 'a chart each');
    }
    const games = ada.locator('.profile-games li');
    assert.match(await games.nth(0).locator('.game-rules').textContent(), /Big Box · rated: Big Box, two players/);
    assert.match(await games.nth(1).locator('.game-rules').textContent(), /standard · rated: base game, two players/);
    assert.ok((await games.nth(0).locator(`a[href="#/replay/${big.id}"]`).count()) === 1);
    assert.ok((await games.nth(1).locator(`a[href="#/replay/${base.id}"]`).count()) === 1);
    await checkA11y(ada, 'a profile with two pools');

    // The results dialog of the Big Box game says its pool.
    await ada.goto(`${BASE}/#/game/${big.id}`);
    await ada.waitForSelector('.results-dialog .rating-changes li', { timeout: 20_000 });
    assert.equal(await ada.textContent('.results-dialog .rating-pool'), 'Rating pool: Big Box, two players');

    // The leaderboard: the base game's pools, then the Big Box's by choice, in the address.
    await bob.goto(`${BASE}/#/leaderboard`);
    await bob.waitForSelector('#lb-bots');
    const pools = () => bob.$$eval('.leaderboard section[data-pool]', (ss) => ss.map((s) => [s.dataset.pool, s.querySelector('h2').textContent]));
    assert.deepEqual(await pools(), [['duel', 'Base game · Two players'], ['multi', 'Base game · Three to six players']]);
    assert.equal(await bob.getAttribute('.leaderboard-families [aria-current="page"]', 'data-family'), 'base');
    await bob.click('.leaderboard-families a[data-family="big-box"]');
    await bob.waitForURL(/#\/leaderboard\/big-box$/);
    await bob.waitForSelector('section[data-pool="big-box-duel"]');
    assert.deepEqual(await pools(), [['big-box-duel', 'Big Box · Two players'], ['big-box-multi', 'Big Box · Three to six players']]);
    await bob.reload();
    await bob.waitForSelector('section[data-pool="big-box-duel"]');
    assert.equal(await bob.getAttribute('.leaderboard-families [aria-current="page"]', 'data-family'), 'big-box', 'the address keeps the choice');
    assert.equal(await bob.locator('section[aria-labelledby="lb-bots"] tbody tr').count(), 4, 'the bots\' ratings, the same in every pool');
    await checkA11y(bob, 'the Big Box leaderboard on a phone');
    await bob.setViewportSize({ width: 320, height: 700 });
    assert.ok(await bob.evaluate(() => document.scrollingElement.scrollWidth) <= 320, 'the leaderboard fits 320 px');
    await shot(bob, 'ratings-leaderboard-big-box-phone');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
