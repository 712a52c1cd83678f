// Hints in a game against bots: H (or the Hint button) asks the search for
// the best move; the tile is ghosted in place at its rotation, the follower
// (if any) stands on its spot, and the words ("… about 5 points more than
// your average move") are in a live region. On a phone (390×844, dark) the
// button is reached by touch. An online game with a person shows no Hint
// button. axe-core finds nothing to fix with a hint shown.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, gameAgainstBot, launch, nextTurn, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';


/** What the board shows of the hint: the advice ghost's cell and rotation, the pending followers. */
const drawn = (page) => page.evaluate(() => {
  const g = document.querySelector('.layer-ghost .ghost-tile.advice');
  const use = g && g.querySelector('use');
  return {
    ghost: g ? { transform: g.getAttribute('transform'), tile: use.getAttribute('href'), rot: use.getAttribute('transform') } : null,
    followers: document.querySelectorAll('.layer-followers .follower.pending').length,
    words: document.querySelector('.hint-box:not(.hidden) .hint-text')?.textContent || null,
    role: document.querySelector('.hint-box')?.getAttribute('role'),
    live: document.querySelector('.hint-box')?.getAttribute('aria-live'),
    said: document.querySelector('.announcer')?.textContent || '',
  };
});

/** Checks that the board and the words show the hint `h` (the server's answer). */
async function checkShown(page, h, label) {
  await page.waitForFunction(() => /Hint: /.test(document.querySelector('.announcer')?.textContent || ''));
  const d = await drawn(page);
  const m = h.move;
  assert.ok(d.ghost, `${label}: the hinted tile is ghosted`);
  assert.equal(d.ghost.transform, `translate(${m.at[0] * 100} ${m.at[1] * 100})`, `${label}: in its cell`);
  assert.equal(d.ghost.tile, `#tile-${m.tile}`, `${label}: the hinted tile`);
  assert.equal(d.ghost.rot, `rotate(${(m.rot || 0) * 90} 50 50)`, `${label}: at its rotation`);
  assert.equal(d.followers, m.meeple || m.abbot ? 1 : 0, `${label}: its follower on its spot (${JSON.stringify(m)})`);
  assert.match(d.words, /^Hint: .+, .+ — (about \d+ points? more|a little more \(\d\.\d points?\)) than your average move\.$|^Hint: .+ — about as good as your average move/, `${label}: ${d.words}`);
  assert.equal(d.role, 'status', `${label}: the words are in a live region`);
  assert.equal(d.live, 'polite');
  assert.equal(d.said, d.words, `${label}: and said to screen readers`);
  return d;
}

test('H asks for a hint: drawn on the board, said in words; axe-core finds nothing to fix', async () => {
  const { context, close } = await launch({ viewport: { width: 1280, height: 860 } });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await gameAgainstBot(page);
    assert.equal(await nextTurn(page), 'mine');
    await page.waitForSelector('.tile-panel button[data-act="hint"]');
    assert.equal(await page.getAttribute('.tile-panel button[data-act="hint"]', 'aria-keyshortcuts'), 'H');
    const answer = page.waitForResponse((r) => r.url().includes('/hint') && r.request().method() === 'POST');
    await page.locator('svg.board').focus();
    await page.keyboard.press('h');
    const resp = await answer;
    assert.equal(resp.status(), 200);
    const h = await resp.json();
    await checkShown(page, h, 'by keyboard');
    await checkA11y(page, 'game with a hint shown');
    await shot(page, 'hint-desktop');
    // The button again: the same hint, no new search.
    let asked = 0;
    page.on('request', (r) => { if (r.url().includes('/hint')) asked++; });
    await page.click('.tile-panel button[data-act="hint"]');
    await checkShown(page, h, 'the button again');
    assert.equal(asked, 0, 'the hint shown is not asked again');
    // Closed, the hint leaves the board.
    await page.evaluate(() => document.querySelector('.hint-box .close').click());
    assert.equal((await drawn(page)).ghost, null, 'closed, the hint leaves the board');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('on a phone (390×844, dark), the Hint button shows the hint in view', async () => {
  const { context, close } = await launch({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, colorScheme: 'dark' });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await gameAgainstBot(page);
    assert.equal(await nextTurn(page), 'mine');
    const button = page.locator('.tile-panel button[data-act="hint"]');
    await button.scrollIntoViewIfNeeded();
    const answer = page.waitForResponse((r) => r.url().includes('/hint') && r.request().method() === 'POST');
    await button.tap();
    const h = await (await answer).json();
    await checkShown(page, h, 'phone');
    const box = await page.locator('.hint-box').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the hint's words fit the screen's width: ${JSON.stringify(box)}`);
    await checkA11y(page, 'phone game with a hint shown (dark)');
    await shot(page, 'hint-phone-dark');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an online game with a person shows no Hint button (and the server refuses one)', async () => {
  const { context, close } = await launch({ viewport: { width: 1280, height: 860 } });
  try {
    const page = await context.newPage();
    const created = await api('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seats: [{ kind: 'human', name: 'Ada' }, { kind: 'remote', name: 'Bob' }] }) });
    const { id, tokens, state } = created.body;
    const mine = tokens.find((t) => !t.remote).token;
    const theirs = tokens.find((t) => t.remote).token;
    const toMove = state.turn.seat === tokens.find((t) => !t.remote).seat ? mine : theirs;
    await page.goto(`${BASE}/#/`);
    await page.evaluate(([id, token]) => localStorage.setItem('carcassonne.tokens', JSON.stringify({ [id]: [token] })), [id, toMove]);
    await page.goto(`${BASE}/#/game/${id}`);
    assert.equal(await nextTurn(page), 'mine');
    await page.waitForSelector('.tile-panel .actions');
    assert.equal(await page.locator('button[data-act="hint"]').count(), 0, 'no Hint button');
    const asked = [];
    page.on('request', (r) => { if (r.url().endsWith('/hint')) asked.push(r.url()); });
    await page.keyboard.press('h');
    await page.waitForFunction(() => /No hints in a game played online/.test(document.querySelector('.announcer')?.textContent));
    assert.deepEqual(asked, [], 'the page asks the server for no hint');
    const refused = await api(`/api/games/${id}/hint`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: toMove }) });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'no_hints');
    assert.equal((await drawn(page)).ghost, null);
  } finally {
    await close();
  }
});
