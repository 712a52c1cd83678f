// A person's game, in a real Chromium: start a game against a bot with one
// click, play it to the end by clicking cells, rotations and follower spots,
// check the final screen against the server, reload mid-game, replay it.
// (Two people on two devices: friends.test.mjs.)
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, shot, api, BASE, clickCentre, firstOnBoard, nextTurn, version, watchErrors } from './lib.mjs';

test('a whole game against a bot, played by clicking', async () => {
  const { context, close } = await launch();
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    await shot(page, '01-home');

    // One click: you against a bot, standard rules.
    await page.click('.new-game .start');
    await page.waitForURL(/#\/game\/[a-z0-9]+$/);
    const id = page.url().split('/').pop();
    assert.equal(await nextTurn(page), 'mine');
    await page.waitForSelector('.target');
    await shot(page, '02-first-turn');

    // The remaining tiles name each tile by letter and course name.
    await page.click('[data-act="toggle-remaining"]');
    const title = await page.getAttribute('.remaining-grid .rem[title^="D "]', 'title');
    assert.match(title, /^D \(CRFR50\): \d+ of \d+ left$/);
    await page.click('[data-act="toggle-remaining"]');

    let turn = 0;
    let deployed = 0;
    let undone = false;
    for (;;) {
      const state = await nextTurn(page);
      if (state === 'over') break;
      const v = await version(page);
      // Each turn opens with the tile turned a way it fits somewhere.
      assert.ok(await page.locator('.target.fits').count() > 0, `turn ${turn}: the tile opens in a rotation that fits`);

      // Rotate before placing, now and then, with R or the panel's button.
      if (turn % 3 === 1) await page.keyboard.press('r');
      if (turn % 5 === 2) await page.click('.tile-panel button[data-act="rot-cw"].btn');
      if (turn % 7 === 4) await page.click('.tile-panel button.big-tile');
      // A cell where the tile fits as it is turned; if there is none, turn it until there is.
      for (let i = 0; i < 4 && (await page.locator('.target.fits').count()) === 0; i++) await page.keyboard.press('r');
      const fits = page.locator('.target.fits');
      const n = await fits.count();
      assert.ok(n > 0, 'the tile fits somewhere in some rotation');
      await clickCentre(page, fits.nth((turn * 7) % n));
      await page.waitForSelector('.ghost-tile.solid', { timeout: 5000 }).catch(async (e) => {
        await shot(page, 'failure');
        throw new Error(`turn ${turn}: clicking a legal cell placed no tile (${e.message})`);
      });

      // Undo once, then place again.
      if (!undone && turn === 1) {
        await page.keyboard.press('Escape');
        await page.waitForSelector('.ghost-tile.solid', { state: 'detached' });
        // The cells are drawn again after the undo: click one once they are
        // there (a click on a cell being replaced places nothing; try again),
        // and one that a panel or a toast does not cover.
        for (let tries = 0; ; tries++) {
          const again = page.locator('.target.fits');
          await again.first().waitFor();
          const i = await firstOnBoard(again);
          assert.ok(i >= 0, 'after the undo some cell where the tile fits is in view');
          await clickCentre(page, again.nth(i));
          const placed = await page.waitForSelector('.ghost-tile.solid', { timeout: 3000 }).then(() => true, () => false);
          if (placed) break;
          if (tries >= 3) await shot(page, 'failure-after-undo');
          assert.ok(tries < 3, 'clicking a legal cell after an undo placed no tile');
        }
        undone = true;
      }
      // After placing, turn it among the rotations that fit at that cell.
      if (turn % 4 === 3) await page.keyboard.press('r');

      if (turn === 12) await shot(page, '04-mid-game');
      // Deploy a follower every other turn, when a spot is offered: with a
      // mouse "Confirm each move" is off, so the spot chosen plays the move.
      const spots = page.locator('.layer-spots .spot');
      if (turn % 2 === 0 && (await spots.count()) > 0) {
        await clickCentre(page, spots.nth(turn % (await spots.count())));
        deployed++;
      } else if (turn % 4 === 0) await page.keyboard.press('Enter');
      else await page.click('.tile-panel [data-act="confirm"]');
      await page.waitForFunction((v0) => Number(document.querySelector('#app').dataset.version) > v0, v);
      if (deployed === 1 && turn % 2 === 0) await shot(page, '03-follower-played');
      turn++;
      assert.ok(turn < 80, 'the game ends');

      // Reload in the middle: the game carries on where it was.
      if (turn === 10) {
        const before = await version(page);
        await page.reload();
        await page.waitForFunction(() => document.querySelector('#app').dataset.version !== undefined);
        assert.ok((await version(page)) >= before, 'the reloaded game is where it was');
        const tiles = await page.locator('.layer-tiles .placed').count();
        assert.ok(tiles >= before + 1, 'every placed tile is drawn again');
      }
    }
    assert.ok(turn >= 30, `we played ${turn} turns`);
    assert.ok(deployed > 0, 'followers were deployed');

    // The results: a breakdown per player and a score chart, matching the server.
    await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
    await page.waitForTimeout(400);
    await shot(page, '05-results');
    const { body: game } = await api(`/api/games/${id}`);
    assert.equal(game.status, 'finished');
    const totals = await page.locator('.breakdown .total-row td').allTextContents();
    const expected = [...game.players.map((p) => p.score)].sort((a, b) => b - a).map(String);
    assert.deepEqual(totals, expected);
    const lines = await page.locator('.results-dialog svg.chart polyline').count();
    assert.equal(lines, game.players.length);
    const kinds = await page.locator('.breakdown tbody tr th').allTextContents();
    for (const k of ['Roads', 'Cities', 'Cloisters', 'Farms', 'Total']) assert.ok(kinds.includes(k), `a ${k} row`);

    // Closing the results shows the final board and the scores beside it.
    await page.click('.results-dialog [data-close]');
    await page.waitForTimeout(300);
    await shot(page, '06-final-board');
    const shown = await page.locator('.players-panel .score-num').allTextContents();
    assert.deepEqual(shown.map(Number), game.players.map((p) => p.score));
    const log = await page.locator('.log .final-scoring').count();
    assert.equal(log, 1, 'the log shows the final scoring');

    // Zoom with the wheel and drag the board: nothing breaks.
    const board = page.locator('svg.board');
    const box = await board.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 60, { steps: 5 });
    await page.mouse.up();
    await shot(page, '07-zoomed');

    // The replay viewer steps through the same game.
    await page.goto(`${BASE}/#/replay/${id}`);
    await page.waitForSelector('.replay-bar');
    // A replay opens at turn 0: the start tile alone, not the final table.
    assert.equal(await page.inputValue('.scrub'), '0');
    assert.equal(await page.locator('.layer-tiles .placed').count(), 1, 'the start tile alone');
    assert.equal(await page.locator('.layer-followers .follower').count(), 0, 'no follower yet');
    assert.equal(await page.textContent('.replay-banner'), 'The start tile');
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    assert.equal(await page.locator('.layer-tiles .placed').count(), 1, 'the start tile alone again');
    await page.keyboard.press('ArrowRight');
    const banner = page.locator('.replay-banner');
    assert.match(await banner.textContent(), /^Turn 1: You place\b/, 'you place, not "You places"');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('.layer-tiles .placed').count(), 3);
    // The turn's tile is shown, not named by its internal letter.
    assert.equal(await banner.locator('svg.tile-pic').count(), 1, 'the tile placed is drawn');
    assert.doesNotMatch(await banner.textContent(), /places [A-Z]/);
    await page.fill('.turn-input', '20');
    await page.dispatchEvent('.turn-input', 'change');
    assert.equal(await page.locator('.layer-tiles .placed').count(), 21);
    await page.waitForTimeout(400);
    await shot(page, '08-replay');
    await page.click('.replay-bar [data-go="last"]');
    const finalScores = await page.locator('.players-panel .score-num').allTextContents();
    assert.deepEqual(finalScores.map(Number), game.players.map((p) => p.score));

    // The record downloads, and opening it as a file replays it.
    const { status: rs, body: record } = await api(`/api/games/${id}/record`);
    assert.equal(rs, 200);
    assert.equal(record.format, 1);
    assert.equal(record.moves.length, game.version);
    await page.goto(`${BASE}/#/`);
    await page.setInputFiles('.record-file', {
      name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)),
    });
    await page.waitForURL(/#\/replay\/file$/);
    await page.waitForSelector('.replay-bar');
    assert.equal(Number(await page.locator('.scrub').getAttribute('max')), record.moves.length);
    assert.equal(await page.inputValue('.scrub'), '0', 'a record opens at turn 0 too');
    await page.click('.replay-bar [data-go="last"]');
    const fileScores = await page.locator('.players-panel .score-num').allTextContents();
    assert.deepEqual(fileScores.map(Number), game.players.map((p) => p.score));

    // The games list shows it, finished.
    await page.goto(`${BASE}/#/games`);
    await page.waitForSelector(`tr[data-id="${id}"]`);
    assert.match(await page.locator(`tr[data-id="${id}"] .status`).textContent(), /finished/);
    await shot(page, '09-games');

    // Another browser, with no seat in it, does not see that game in its
    // list; it sees a public game, to watch.
    const { body: pub } = await api('/api/games', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seats: [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }], public: true }),
    });
    const other = await launch();
    try {
      const p2 = await other.context.newPage();
      await p2.goto(`${BASE}/#/games`);
      await p2.waitForSelector(`.public-games-list tr[data-id="${pub.id}"]`);
      assert.equal(await p2.locator(`tr[data-id="${id}"]`).count(), 0, 'a game it holds no seat in is not listed');
      assert.match(await p2.locator(`tr[data-id="${pub.id}"] .gactions a`).first().textContent(), /^(Watch|View)$/);
      // Strangers' games are apart from its own: "Your games" has none.
      assert.equal(await p2.locator('.games-list tr').count(), 0, 'a fresh visitor has no games of its own');
      assert.match(await p2.textContent('.games-list'), /No games yet/);
    } finally {
      await other.close();
    }

    assert.deepEqual(errors, [], 'no error in the page');
  } finally {
    await close();
  }
});

test('"Confirm each move": off with a mouse (a spot picked plays), on when ticked (the spot waits for Confirm), kept on this device', async () => {
  const { context, close } = await launch();
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    await page.click('.new-game .start');
    await page.waitForURL(/#\/game\/[a-z0-9]+$/);
    const box = page.locator('.game-settings .confirm-moves');
    assert.equal(await box.isChecked(), false, 'off by default with a mouse');
    await box.check();
    await page.reload();
    await page.waitForSelector('.game-settings .confirm-moves');
    assert.equal(await page.locator('.game-settings .confirm-moves').isChecked(), true, 'the choice is kept');
    // On: a spot (or None) only chooses; Confirm plays. Played until some
    // turn offers a spot.
    let checked = false;
    for (let turn = 0; turn < 30 && !checked; turn++) {
      assert.equal(await nextTurn(page), 'mine');
      const v = await version(page);
      for (let i = 0; i < 4 && (await page.locator('.target.fits').count()) === 0; i++) await page.keyboard.press('r');
      await clickCentre(page, page.locator('.target.fits').first());
      await page.waitForSelector('.ghost-tile.solid');
      await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
      if ((await page.locator('.spot-picker [data-act="spot"]').count()) > 0) {
        await page.click('.spot-picker [data-act="spot"]');
        await page.waitForSelector('.follower.pending');
        await page.click('.spot-picker [data-act="no-spot"]');
        await page.waitForSelector('.follower.pending', { state: 'detached' });
        await page.waitForTimeout(300);
        assert.equal(await version(page), v, 'with "Confirm each move" on, a spot or None plays nothing');
        assert.match(await page.textContent('.tile-panel .tile-info'), /press F to deploy a follower/);
        checked = true;
      }
      await page.click('.tile-panel [data-act="confirm"]');
      await page.waitForFunction((v0) => Number(document.querySelector('#app').dataset.version) > v0, v);
    }
    assert.ok(checked, 'some turn offered a spot');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
