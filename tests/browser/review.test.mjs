// The search's review in the replay viewer: a finished game between two
// bots is reviewed on the server in the background (the panel shows the
// progress), then each move says what the search would have played, and
// the curve of expected margins is drawn.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch, shot, api, BASE, watchErrors } from './lib.mjs';

test('a finished game shows the review in the replay viewer', async () => {
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
    assert.match(line, /^Move 1: (better was .+ \+\d+\.\d expected|the search agrees)/s);
    // Random moves lose points somewhere: some move has a better one.
    const review = (await api(`/api/games/${id}/review`)).body.review;
    const worst = review.moves.reduce((a, m) => (m.lost > a.lost ? m : a));
    assert.ok(worst.lost >= 0.05);
    await page.fill('.turn-input', String(worst.turn));
    await page.dispatchEvent('.turn-input', 'change');
    const worse = await page.textContent('.review-panel .review-line');
    assert.ok(worse.includes(`Move ${worst.turn}: better was`), worse);
    assert.ok(worse.includes(`+${worst.lost.toFixed(1)} expected`), worse);
    await shot(page, 'review-01-worst-move');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
