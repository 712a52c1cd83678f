// States that come faster than the page draws them (docs/web.md, "Inside"): a game page at desktop
// size is kept busy for three seconds while ten moves are played over the API; once free, it draws
// the latest state (after the first, at most) — not the ten one by one, each a layout of the whole
// board — and still says all ten moves to screen readers.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launchBrowser, watchErrors } from './lib.mjs';

const postJson = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('states that come while the page is busy are drawn once, the latest, and every move is said', async () => {
  const browser = await launchBrowser();
  try {
    const made = await api('/api/games', postJson({ seats: [{ kind: 'human', name: 'Ada' }, { kind: 'human', name: 'Bob' }] }));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { id } = made.body;
    const tokens = made.body.tokens.map((t) => t.token);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/`);
    await page.evaluate(([id, token]) => localStorage.setItem('carcassonne.tokens', JSON.stringify({ [id]: [token] })), [id, tokens[0]]);
    await page.goto(`${BASE}/#/game/${id}`);
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.version === '0');
    // Every version the page draws, in turn, and all it says.
    await page.evaluate(() => {
      window.drawn = [];
      window.said = [];
      const app = document.querySelector('#app');
      new MutationObserver(() => window.drawn.push(app.dataset.version)).observe(app, { attributes: true, attributeFilter: ['data-version'] });
      const announcer = document.querySelector('.announcer');
      new MutationObserver(() => { if (announcer.textContent) window.said.push(announcer.textContent); })
        .observe(announcer, { childList: true, characterData: true, subtree: true });
    });

    const busy = page.evaluate(() => { for (const end = performance.now() + 3000; performance.now() < end;); });
    await new Promise((done) => setTimeout(done, 300));
    for (let k = 0; k < 10; k++) {
      const s = (await api(`/api/games/${id}?token=${tokens.join(',')}`)).body;
      const p = s.legal[(k * 5) % s.legal.length];
      const r = await api(`/api/games/${id}/moves?token=${tokens[s.turn.seat]}`, postJson({ version: s.version, tile: p.tile, at: p.at, rot: p.rot }));
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    await busy;
    await page.waitForFunction(() => document.querySelector('#app').dataset.version === '10', null, { timeout: 15_000 });
    const drawn = await page.evaluate(() => window.drawn);
    // The first may be drawn alone (the socket hands its messages over as they are read); the rest
    // wait for it and are drawn once, the latest.
    assert.ok(drawn.length <= 2 && drawn.at(-1) === '10', `the ten states drawn as ${drawn.join(', ')}`);
    // What the ten moves did, said: each of them by its player.
    const saidAll = () => page.evaluate(() => window.said.join(' '));
    await page.waitForFunction(() => (window.said.join(' ').match(/ laid /g) || []).length >= 10, null, { timeout: 5000 })
      .catch(async (e) => { throw new Error(`${e.message}: "${await saidAll()}"`); });
    const said = await saidAll();
    assert.equal((said.match(/You laid /g) || []).length, 5, said);
    assert.equal((said.match(/Bob laid /g) || []).length, 5, said);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

// A builder's second tile (the Big Box) is said as a builder's whether the page draws the state that
// asks for it or gets it together with the next (a bot plays its two tiles 60 ms apart, and a busy
// page draws only the latest state): the game page's words for each pair of states, in the page.
test('a builder\'s second tile is said once, also when it comes with the next state', async () => {
  const browser = await launchBrowser();
  try {
    const made = await api('/api/games', postJson({ seats: [{ kind: 'human', name: 'Ada' }, { kind: 'human', name: 'Bob' }], rules: { preset: 'big-box' } }));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { id } = made.body;
    const token = made.body.tokens[0].token;
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/`);
    await page.evaluate(([id, token]) => localStorage.setItem('carcassonne.tokens', JSON.stringify({ [id]: [token] })), [id, token]);
    await page.goto(`${BASE}/#/game/${id}`);
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.version === '0');
    const start = (await api(`/api/games/${id}?token=${token}`)).body;
    const said = await page.evaluate(async (s0) => {
      const { GameScreen } = await import('/js/game.js');
      const words = (prev, s) => GameScreen.prototype.movesInWords.call({ state: s, builderWords: GameScreen.prototype.builderWords }, prev, s);
      // Seat `seat` lays a tile, its builder asks for a second, and the second is laid.
      const laid = (seat, x, bonus) => ({ type: 'tile', turn: s0.log.length + x, seat, tile: 'A', at: [x, 0], rot: 0, ...(bonus ? { bonus } : {}) });
      const out = {};
      for (const seat of [0, 1]) {
        const asks = { ...s0, version: 1, log: [...s0.log, laid(seat, 1)], turn: { ...s0.turn, seat, bonus: 'builder' } };
        const after = { ...s0, version: 2, log: [...asks.log, laid(seat, 2, 'builder')], turn: { ...s0.turn, seat: 1 - seat } };
        out[seat] = { together: words(s0, after), asks: words(s0, asks), then: words(asks, after) };
      }
      return out;
    }, start);
    const once = (text, re) => assert.equal((text.match(new RegExp(re.source, 'g')) || []).length, 1, text);
    for (const [seat, who, builder] of [[0, 'You', 'you play'], [1, 'Bob', 'Bob plays']]) {
      const w = said[seat];
      // Both states at once: the second tile said as the builder's, before it is laid.
      once(w.together, new RegExp(`Builder: ${builder} a second tile\\. ${who} laid`));
      assert.match(w.together, new RegExp(`^${who} laid .*\\. Builder: ${builder} a second tile\\. ${who} laid [^.]*\\.$`), w.together);
      // One by one: said with the state that asks for it, not again with the tile.
      once(w.asks, new RegExp(`Builder: ${builder} a second tile`));
      assert.doesNotMatch(w.then, /Builder/, w.then);
      assert.match(w.then, new RegExp(`^${who} laid`), w.then);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
