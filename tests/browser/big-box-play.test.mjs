// The Big Box (Inns & Cathedrals and Traders & Builders, with The River and
// The Abbot) played on the game page, in a real Chromium: the new-game form's
// `big-box` preset names its expansions; against an easy bot, the move panel
// offers the big follower, the builder and the pig on their spots (each a
// figure of its own shape), one chosen by keyboard and others by mouse;
// each player's figures and goods show in the players' panel and match the
// server; the builder's second tile is said on screen and to screen readers;
// the log names the expansions' events; the results show who won each goods
// majority. Then the same game on a phone: the figures and goods in the strip.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080); bots
// move fast with CARCASSONNE_BOT_DELAY_MS=60.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, shot, api, BASE, clickCentre, firstOnBoard, nextTurn, version, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

/** The game's state as this browser's seat sees it (its token from the page's storage). */
async function seatState(page, id) {
  const tokens = await page.evaluate((id) => JSON.parse(localStorage.getItem('carcassonne.tokens') || '{}')[id] || [], id);
  const { body } = await api(`/api/games/${id}?token=${tokens.join(',')}`);
  return body;
}

test('a Big Box game against a bot: the figures, goods and the builder\'s second tile on the page', async () => {
  const { context, close } = await launch();
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    // Everything said to screen readers, kept.
    await page.addInitScript(() => {
      window.saidWords = [];
      new MutationObserver(() => {
        const el = document.querySelector('.announcer');
        if (el && el.textContent && window.saidWords[window.saidWords.length - 1] !== el.textContent) window.saidWords.push(el.textContent);
      }).observe(document, { subtree: true, childList: true, characterData: true });
      // Every toast, kept to be read at the end (goods taken pay no points).
      window.toastsSeen = [];
      new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach((n) => {
        if (n.classList?.contains('toast')) window.toastsSeen.push(n.textContent);
      }))).observe(document, { childList: true, subtree: true });
    });
    // A game's draws are the server's: a builder's second tile, the big
    // follower and the builder offered, and goods taken are likely in one
    // game, not certain: up to three games are played until one shows them all.
    let id, used;
    for (let attempt = 1; ; attempt++) {
      await page.goto(`${BASE}/#/new`);
      await page.waitForSelector('body[data-screen="new"] .new-game .start');

      // The form: the Big Box preset, whose words name both expansions, and its options ticked.
      await page.click('.presets [data-preset="big-box"]');
      await page.waitForSelector('.presets [data-preset="big-box"].on');
      assert.match(await page.textContent('.rules-form .expansions-text'), /Inns & Cathedrals and Traders & Builders/);
      await page.click('.more-rules summary');
      assert.equal(await page.isChecked('[data-key="inns_cathedrals"]'), true);
      assert.equal(await page.isChecked('[data-key="traders_builders"]'), true);
      await page.click('.presets [data-preset="standard"]');
      assert.equal(await page.textContent('.rules-form .expansions-text'), '', 'the standard game plays no expansion');
      await page.click('.presets [data-preset="big-box"]');
      // Against an easy bot.
      await page.selectOption('.seat .seat-level', 'easy');
      await page.click('.new-game .start');
      await page.waitForURL(/#\/game\/[a-z0-9]+$/);
      id = page.url().split('/').pop();
      const first = await seatState(page, id);
      assert.deepEqual(first.expansions, ['inns_cathedrals', 'traders_builders']);

      // The players' panel: each seat's big follower, builder and pig, and three goods at 0.
      await page.waitForSelector('.players-panel .player-goods');
      for (const seat of [0, 1]) {
        const row = page.locator(`.player[data-seat="${seat}"]`);
        for (const f of ['big', 'builder', 'pig']) assert.equal(await row.locator(`.figure-slot[data-figure="${f}"][data-home="true"]`).count(), 1, `${f} at home`);
        assert.deepEqual(await row.locator('.player-goods .good b').allTextContents(), ['0', '0', '0']);
        assert.match(await row.locator('.player-goods .sr-only').textContent(), /goods: 0 wine, 0 wheat, 0 cloth/);
      }
      await shot(page, 'big-box-01-start');
      await checkA11y(page, 'a Big Box game: the players\' figures and goods');

      let turn = 0;
      used = { big: 0, builder: 0, pig: 0, keyboard: 0, bonus: 0 };
      for (;;) {
        const state = await nextTurn(page, 120_000);
        if (state === 'over') break;
        const v = await version(page);
        const s = await seatState(page, id);
        const me = s.you[0];
        if (s.turn.bonus === 'builder') {
          // My builder's second tile: said on screen, in the panel and the banner.
          used.bonus++;
          await page.waitForSelector('.tile-panel .builder-note');
          assert.match(await page.textContent('.banner'), /Builder: you play a second tile/);
          if (used.bonus === 1) await shot(page, 'big-box-02-builder-bonus');
        }
        // A cell on the board, the nearest to my builder if it stands (extending its road or city gives a second tile).
        for (let i = 0; i < 4 && (await page.locator('.target.fits').count()) === 0; i++) await page.keyboard.press('r');
        const builder = s.followers.find((f) => f.seat === me && f.role === 'builder');
        const fits = page.locator('.target.fits');
        const cells = await fits.evaluateAll((els) => els.map((el) => [Number(el.dataset.x), Number(el.dataset.y)]));
        // The board pans to each new tile: read the cells once it stands still.
        const still = () => page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
        await still();
        let pick = await firstOnBoard(fits);
        for (let tries = 0; pick < 0 && tries < 3; tries++) {
          // A toast or the banner may cover the only cells where the tile fits
          // (The River's often has one or two): wait the toasts out, then fit
          // the board ('0') or zoom out ('-').
          await page.waitForFunction(() => !document.querySelector('.toast'), null, { timeout: 8000 }).catch(() => {});
          if (tries > 0) await page.keyboard.press(tries === 1 ? '0' : '-');
          await still();
          pick = await firstOnBoard(fits);
        }
        if (pick < 0) await shot(page, 'big-box-no-cell-in-view');
        assert.ok(pick >= 0, `turn ${turn}: a cell where the tile fits is in view`);
        if (builder) {
          const dist = ([x, y]) => Math.abs(x - builder.at[0]) + Math.abs(y - builder.at[1]);
          const order = cells.map((c, i) => i).sort((a, b) => dist(cells[a]) - dist(cells[b]));
          for (const i of order) {
            if (await fits.nth(i).evaluate((el) => {
              const r = el.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return !!(hit && hit.closest('.board-host'));
            })) { pick = i; break; }
          }
        }
        await clickCentre(page, fits.nth(pick));
        await page.waitForSelector('.ghost-tile.solid', { timeout: 5000 });
        const choose = async (figure) => page.locator(`.spot-picker button[data-spot^="${figure}:"]`);
        const big = await choose('big'), builderB = await choose('builder'), pig = await choose('pig');
        if (!used.checked && (await big.count()) + (await builderB.count()) + (await pig.count()) > 0) {
          used.checked = 1;
          await checkA11y(page, 'the move panel offering the Big Box\'s figures');
          await shot(page, 'big-box-05-figures-offered');
        }
        if (await big.count() && (!used.big || (await builderB.count()) === 0)) {
          // The big follower: its spot on the board is two rings; its button names it and shows its shape.
          assert.ok(await page.locator('.layer-spots .spot.big .spot-ring.outer').count() > 0);
          assert.match(await big.first().textContent(), /big (knight|thief|farmer|monk|follower)/);
          assert.equal(await big.first().locator('svg.meeple-icon').count(), 1);
          if (!used.keyboard) {
            // By keyboard: the choice's number key plays it.
            const n = Number(await big.first().locator('kbd.spot-n').textContent());
            if (n <= 9) {
              await page.evaluate(() => document.activeElement && document.activeElement.blur());
              await page.keyboard.press(String(n));
              used.keyboard++;
            } else await big.first().click();
          } else await big.first().click();
          used.big++;
        } else if (await builderB.count()) {
          assert.ok(await page.locator('.layer-spots .spot.builder rect.spot-ring').count() > 0, 'the builder\'s spot is a square');
          assert.match(await builderB.first().textContent(), /builder/);
          await builderB.first().click();
          used.builder++;
        } else if (await pig.count()) {
          assert.ok(await page.locator('.layer-spots .spot.pig path.spot-ring').count() > 0, 'the pig\'s spot is a diamond');
          assert.match(await pig.first().textContent(), /pig/);
          await pig.first().click();
          used.pig++;
        } else if (turn % 3 === 0 && (await page.locator('.spot-picker button[data-spot^="meeple:"]').count())) {
          await page.locator('.spot-picker button[data-spot^="meeple:"]').first().click();
        } else await page.click('.tile-panel [data-act="confirm"]');
        await page.waitForFunction((v0) => Number(document.querySelector('#app').dataset.version) > v0, v, { timeout: 30_000 });
        if (used.big === 1 && turn < 40) {
          // The big follower on the board: larger, its own shape.
          await page.waitForSelector('.layer-followers .follower.big');
        }
        turn++;
        assert.ok(turn < 200, 'the game ends');
      }
      const { body: done } = await api(`/api/games/${id}`);
      const second = done.log.some((e) => e.type === 'tile' && e.bonus === 'builder');
      const goods = (await page.evaluate(() => window.toastsSeen)).some((x) => /goods taken: \d/.test(x));
      if ((used.big > 0 && used.builder > 0 && second && goods) || attempt === 3) break;
    }
    assert.ok(used.checked, 'the move panel offered a Big Box figure');
    assert.ok(used.big > 0 && used.builder > 0, `the big follower and the builder were played from the panel: ${JSON.stringify(used)}`);

    // The end: the server's log and the page agree.
    const { body: end } = await api(`/api/games/${id}`);
    assert.equal(end.status, 'finished');
    const seconds = end.log.filter((e) => e.type === 'tile' && e.bonus === 'builder');
    assert.ok(seconds.length > 0, 'some builder gave a second tile in the game');
    const said = await page.evaluate(() => window.saidWords);
    const bonusWords = said.filter((w) => /Builder: (.+ plays|you play) a second tile/.test(w));
    assert.ok(bonusWords.length > 0, `the builder's second tile was said to screen readers: ${said.slice(-5).join(' | ')}`);
    assert.deepEqual(said.filter((w) => /undefined|NaN/.test(w)), [], 'every move said in words (goods taken have no points)');
    // Every seat's goods, as the server counts them.
    for (const p of end.players) {
      const shown = await page.locator(`.player[data-seat="${p.seat}"] .player-goods .good b`).allTextContents();
      assert.deepEqual(shown.map(Number), p.goods, `${p.name}'s goods`);
    }

    // The results: the goods majorities, who got 10 for each kind.
    await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
    const finals = end.log.filter((e) => e.type === 'score' && e.kind === 'goods' && e.when === 'final');
    assert.ok(finals.length > 0, 'someone held goods at the end');
    assert.equal(await page.locator('.goods-results li').count(), 3);
    for (const e of finals) {
      const row = await page.textContent(`.goods-results li[data-good="${e.good}"]`);
      for (const seat of e.to) assert.ok(row.includes(end.players[seat].name), `${e.good}: ${row}`);
      assert.match(row, /\+10 \(\d+\)/);
    }
    assert.ok((await page.locator('.breakdown tbody tr th').allTextContents()).includes('Goods'), 'a Goods row in the breakdown');
    await shot(page, 'big-box-03-results');
    await checkA11y(page, 'the results with the goods majorities');

    // The log names the expansions' events: the second tiles, the figures, goods taken.
    await page.click('.results-dialog [data-close]');
    const log = await page.textContent('.log');
    assert.match(log, /Builder: .+ plays a second tile/);
    assert.match(log, /builder/);
    assert.match(log, /goods taken: \d/);
    assert.match(log, /big (knight|thief|farmer|monk)/);
    if (end.log.some((e) => e.type === 'deploy' && e.role === 'pig')) assert.match(log, /pig/);
    if (end.log.some((e) => e.inn)) assert.match(log, /with an inn/);
    if (end.log.some((e) => e.cathedral)) assert.match(log, /with a cathedral/);
    const toasts = await page.evaluate(() => window.toastsSeen);
    assert.ok(toasts.some((x) => /goods taken: \d/.test(x)), `a toast for goods taken: ${toasts.slice(-5).join(' | ')}`);
    assert.deepEqual(toasts.filter((x) => /undefined|NaN/.test(x)), []);
    assert.deepEqual(errors, []);

    // The same game on a phone: the figures and goods stay in the players' strip.
    await page.setViewportSize({ width: 390, height: 844 });
    const small = page;
    await small.reload();
    await small.waitForSelector('.players-panel .player-goods');
    await small.evaluate(() => document.querySelector('.overlay.results')?.classList.add('hidden'));
    for (const p of end.players) {
      const box = await small.locator(`.player[data-seat="${p.seat}"] .player-goods`).boundingBox();
      assert.ok(box && box.width > 20 && box.x >= 0 && box.x + box.width <= 390, `${p.name}'s goods in view on a phone`);
      assert.equal(await small.locator(`.player[data-seat="${p.seat}"] .figure-slot`).count(), 3);
    }
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, 'nothing sticks out sideways');
    await shot(small, 'big-box-04-phone');
  } finally {
    await close();
  }
});
