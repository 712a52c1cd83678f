// The search's review in the replay viewer: a finished game between two
// bots is reviewed on the server in the background (the panel shows the
// progress), then each move says, in a player's words, what the search
// would have played ("north of the cloister, knight in the north city:
// about 5 points more"), and draws it on the board when chosen (the tile
// ghosted in place at its rotation, the follower on its spot); the results
// dialog links to it; the curve of expected margins is drawn.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, shot, api, BASE, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

/** What a player must never read: engine coordinates ("at 1,-2"), spot codes ("follower Nw"), raw margins. */
const ENGINE = /-?\d+,-?\d+|\b(?:follower|abbot) [A-Z][a-z]?\b|\b[NESW][nesw]?\b|expected margin/;

test('a finished game shows the review in the replay viewer, in words and on the board', async () => {
  const created = await api('/api/games', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seats: [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }] }),
  });
  assert.equal(created.status, 201);
  const id = created.body.id;
  let state;
  for (let i = 0; i < 600; i++) {
    state = (await api(`/api/games/${id}`)).body;
    if (state.status === 'finished') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(state.status, 'finished', 'the bots finish their game');

  const { context, close } = await launch();
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/replay/${id}`);
    await page.waitForSelector('.review-panel h2');
    // Ready within the time limit: the curve and a line per move.
    await page.waitForSelector('.review-panel svg.review-curve', { timeout: 180_000 });
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    const line = await page.textContent('.review-panel .review-line');
    assert.match(line, /^Move 1, .+: (better was .+: (about \d+ points? more|a little more \(\d\.\d points?\))\.|the search agrees\.)/s);
    // Random moves lose points somewhere: some move has a better one.
    const review = (await api(`/api/games/${id}/review`)).body.review;
    const worst = review.moves.reduce((a, m) => (m.lost > a.lost ? m : a));
    assert.ok(worst.lost >= 1, 'some random move loses a point or more');
    await page.fill('.turn-input', String(worst.turn));
    await page.dispatchEvent('.turn-input', 'change');
    const worse = (await page.textContent('.review-panel .review-line')).replace(/\s+/g, ' ');
    assert.ok(worse.includes(`Move ${worst.turn}, `) && worse.includes('better was'), worse);
    assert.ok(worse.includes(`about ${Math.round(worst.lost)} point${Math.round(worst.lost) === 1 ? '' : 's'} more`), worse);
    const words = await page.textContent('.review-panel .better-words');
    assert.doesNotMatch(words, ENGINE, `no engine coordinates or spot codes: "${words}"`);
    // Where, by a neighbour or the start; the follower by its role.
    const DIR = '(north|south|east|west)(-(east|west))?';
    const NEIGHBOUR = `(beside the (cloister|garden)|${DIR} of (the cloister|the garden|the city|the road|the field|the start tile|the tile with a (city|road)))( with .+’s (knight|thief|monk|farmer|abbot))?`;
    assert.match(words, new RegExp(`^(the same place(, turned .+)?|${NEIGHBOUR}( and ${NEIGHBOUR})?|.+ of the start), `));
    const b = worst.best;
    const role = b.meeple || b.abbot ? /^.+, (knight in the|thief on the|farmer on the|monk in the|abbot in the) /.test(words) : /, (no follower|recalling the abbot)$/.test(words);
    assert.ok(role, `the follower by its role: "${words}"`);

    // Chosen, it is drawn: the board as it was before the move, the better tile ghosted in place, its follower on its spot.
    await page.click('[data-act="show-better"]');
    const ghost = await page.waitForSelector('.ghost-tile.advice');
    assert.equal(await ghost.getAttribute('transform'), `translate(${b.at[0] * 100} ${b.at[1] * 100})`);
    assert.equal(await page.getAttribute('.ghost-tile.advice use', 'transform'), `rotate(${(b.rot || 0) * 90} 50 50)`);
    if (b.meeple || b.abbot) assert.equal(await page.locator('.layer-followers .follower.pending').count(), 1, 'the follower stands on its spot');
    const tilesBefore = await page.locator('.layer-tiles .placed').count();
    assert.equal(tilesBefore, worst.turn, 'the board as it was before the move (the start tile and the moves before it)');
    assert.match(await page.textContent('.replay-banner'), new RegExp(`Move ${worst.turn}: better for .+ was`));
    await shot(page, 'review-01-worst-move');
    await checkA11y(page, 'review with a better move drawn');
    await page.click('[data-act="show-better"]');
    await page.waitForSelector('.ghost-tile.advice', { state: 'detached' });
    // The names in the totals read on the panel (not a seat colour as text).
    const colours = await page.$$eval('.review-totals .pname', (els) => els.map((e) => getComputedStyle(e).color));
    const ink = await page.evaluate(() => getComputedStyle(document.body).color);
    assert.ok(colours.length === 2 && colours.every((c) => c === ink), `names in the ink colour: ${colours}`);

    // From the results: "Review the game" opens the replay on the move to learn most from, drawn.
    await page.goto(`${BASE}/#/game/${id}`);
    await page.waitForSelector('.overlay.results:not(.hidden) .results-dialog');
    await page.click('.results-dialog a[href$="?review"]');
    await page.waitForSelector('.ghost-tile.advice', { timeout: 30_000 });
    assert.equal(Number(await page.inputValue('.turn-input')), worst.turn, 'at the move that lost the most');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the review on a phone: worded, and drawn where it can be seen', async () => {
  const created = await api('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seats: [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }] }) });
  const id = created.body.id;
  for (let i = 0; i < 600; i++) {
    if ((await api(`/api/games/${id}`)).body.status === 'finished') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const { context, close } = await launch({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/replay/${id}?review`);
    const ghost = await page.waitForSelector('.ghost-tile.advice', { timeout: 180_000 });
    await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
    const r = await ghost.boundingBox();
    const wrap = await page.locator('.board-wrap').boundingBox();
    assert.ok(r.x >= wrap.x && r.x + r.width <= wrap.x + wrap.width && r.y >= wrap.y && r.y + r.height <= wrap.y + wrap.height,
      'the better move is in view on the board');
    await shot(page, 'review-02-phone-board');
    await page.locator('.review-panel').scrollIntoViewIfNeeded();
    await shot(page, 'review-03-phone-words');
  } finally {
    await close();
  }
});

test('a move is named by its neighbours and the followers on them, as a player checks it at a glance', async () => {
  const { context, close } = await launch();
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    const said = await page.evaluate(async () => {
      const { whereWords } = await import('/js/review.js');
      const { TileSet } = await import('/js/tiles.js');
      const tiles = new TileSet(await (await fetch('/api/tiles')).json());
      // The start (D: a city north, a road west to east) and a cloister (B) south of it.
      // And E (a city north, fields elsewhere) two east of the start.
      const before = [{ tile: 'D', at: [0, 0], rot: 0 }, { tile: 'B', at: [0, 1], rot: 0 }, { tile: 'E', at: [2, 0], rot: 0 }];
      const names = ['Ada', 'Bob'];
      const monk = { seat: 1, at: [0, 1], spot: 'C', role: 'monk' };
      const knight = { seat: 0, at: [0, 0], spot: 'N', role: 'knight' };
      const farmer = { seat: 0, at: [0, 0], spot: 'Sw', role: 'farmer' };
      const w = (at, followers) => whereWords({ at }, before, tiles, null, { followers, names });
      return {
        besideMonk: w([1, 1], [monk]),
        cloisterBare: w([1, 1], []),
        cityKnight: w([0, -1], [knight]),
        cityBare: w([0, -1], []),
        twoBare: w([-1, 0], []),
        twoMonk: w([-1, 0], [monk, knight]),
        farmerField: w([-1, 1], [farmer]),
        fieldFarmer: w([2, 1], [{ seat: 0, at: [2, 0], spot: 'Se', role: 'farmer' }]),
        fieldBare: w([2, 1], []),
      };
    });
    assert.deepEqual(said, {
      besideMonk: 'beside the cloister with Bob’s monk',
      cloisterBare: 'east of the cloister',
      cityKnight: 'north of the city with Ada’s knight',
      cityBare: 'north of the city',
      // Nobody's follower singles one out: the two most notable neighbours.
      twoBare: 'north-west of the cloister and west of the road',
      twoMonk: 'beside the cloister with Bob’s monk',
      // A knight on the start's city does not stand beside (-1, 1); the start's field does not touch it.
      farmerField: 'west of the cloister',
      fieldFarmer: 'south of the field with Ada’s farmer',
      // A field's side with nobody on it: by what the tile shows.
      fieldBare: 'south of the tile with a city',
    });
  } finally {
    await close();
  }
});
