// Layout and wording that players met in Chromium (issue 46), on a phone
// (390 × 844) and a laptop (1366 × 768), light and dark, in English,
// German and French, each checked here:
//  1. a three-player game's strip on a phone: every name and the "you" tag whole;
//  2. a random bot's label ("Bot · zufällig") whole in the strip;
//  3. the review's banner in the replay wraps on a phone, never cut;
//  4. the lobby's "Your table is open" goes once the table's game starts;
//  5. in dark mode the black seat's followers are filled and stand out;
//  6. the tutorial and the puzzles light only the cells where the tile fits,
//     and a lesson done shows the whole board;
//  7. on a phone Resign / Leave / Abort are in the game's menu drawer, not
//     above the board (on a laptop under the move, as before);
//  8. on a phone the language footer lies below every page's content, never
//     over it (it scrolled under the footer on the account, profile and
//     leaderboard pages).
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launch, launchBrowser, openView, shot, signUp, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';
import { keyMove, staticJson } from './practice.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const LAPTOP = { viewport: { width: 1366, height: 768 } };
const LANGS = [['en', 'en-GB'], ['de', 'de-DE'], ['fr', 'fr-FR']];
const postJson = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A new game of `seats`, the first seat's page open in `context`: the page. */
async function openGame(context, seats) {
  const created = await api('/api/games', postJson({ seats }));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { id, tokens } = created.body;
  const page = await context.newPage();
  await page.goto(`${BASE}/#/`);
  await page.evaluate(([id, token]) => localStorage.setItem('carcassonne.tokens', JSON.stringify({ [id]: [token] })), [id, tokens.find((t) => t.seat === 0).token]);
  await page.goto(`${BASE}/#/game/${id}`);
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
  return page;
}

/**
 * The texts under `root` (elements `sel`) that are cut: shown, but wider
 * than their box (an ellipsis or a clip) or reaching out of `within`, their
 * nearest such ancestor. Each as "text: why".
 */
const cutTexts = (page, sel, within) => page.evaluate(([sel, within]) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || getComputedStyle(el).visibility === 'hidden') continue;
    const text = el.textContent.trim();
    if (el.scrollWidth > el.clientWidth + 1) out.push(`${text}: ${el.scrollWidth} px of text in ${el.clientWidth} px`);
    const box = el.closest(within)?.getBoundingClientRect();
    if (box && (r.left < box.left - 0.5 || r.right > box.right + 0.5)) out.push(`${text}: out of its box (${r.left.toFixed(0)}–${r.right.toFixed(0)} in ${box.left.toFixed(0)}–${box.right.toFixed(0)})`);
    if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`${text}: off screen`);
  }
  return out;
}, [sel, within]);

for (const [lang, locale] of LANGS) {
  test(`1. ${lang}: three players on a phone, every name and the "you" tag whole`, async () => {
    const { context, close } = await launch({ ...PHONE, locale });
    try {
      const page = await openGame(context, [{ kind: 'human', name: 'Player 1' }, { kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }]);
      const errors = watchErrors(page);
      await page.waitForSelector('.players-panel .player .tag.you');
      const you = await page.$eval('.players-panel .tag.you', (e) => ({ text: e.textContent.trim(), shown: e.getBoundingClientRect().width > 0 }));
      assert.ok(you.shown, `the "${you.text}" tag is shown`);
      assert.deepEqual(await cutTexts(page, '.players-panel .player-name .name, .players-panel .player-name .tag', '.player'), [], 'nothing cut in the strip');
      await shot(page, `layout-01-three-players-${lang}`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

for (const [size, device] of [['phone', PHONE], ['laptop', LAPTOP]]) {
  test(`2. German, ${size}: a random bot's label "Bot · zufällig" whole in the strip`, async () => {
    const { context, close } = await launch({ ...device, locale: 'de-DE' });
    try {
      const page = await openGame(context, [{ kind: 'human', name: 'Ada' }, { kind: 'bot', level: 'random' }]);
      const errors = watchErrors(page);
      const tag = page.locator('.players-panel .tag.bot');
      await tag.waitFor();
      assert.match(await tag.textContent(), /^Bot · zufällig$/);
      assert.deepEqual(await cutTexts(page, '.players-panel .player-name .name, .players-panel .player-name .tag', '.player'), [], 'nothing cut in the strip');
      await shot(page, `layout-02-bot-tag-de-${size}`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test('3. the review\'s banner on a phone wraps: never wider than its box, in each language', async () => {
  const created = await api('/api/games', postJson({ seats: [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }] }));
  assert.equal(created.status, 201);
  const { id } = created.body;
  for (let i = 0; i < 900 && (await api(`/api/games/${id}`)).body.status !== 'finished'; i++) await new Promise((r) => setTimeout(r, 200));
  for (const [lang, locale] of LANGS) {
    const { context, close } = await launch({ ...PHONE, locale });
    try {
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${BASE}/#/replay/${id}`);
      await page.waitForSelector('.review-panel svg.review-curve', { timeout: 180_000 });
      // The move with the most lost: the banner says the better one, its longest line.
      const moves = (await api(`/api/games/${id}/review`)).body.review.moves;
      const worst = moves.reduce((a, m) => (m.lost > a.lost ? m : a));
      await page.fill('.turn-input', String(worst.turn));
      await page.dispatchEvent('.turn-input', 'change');
      await page.tap('[data-act="show-better"]');
      await page.waitForSelector('.ghost-tile.advice');
      const b = await page.$eval('.replay-banner', (e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent.trim(), scroll: e.scrollWidth, client: e.clientWidth, left: r.left, right: r.right };
      });
      assert.ok(b.scroll <= b.client + 1, `${lang}: ${b.scroll} px of text in a ${b.client} px box: "${b.text}"`);
      assert.ok(b.left >= 0 && b.right <= 390, `${lang}: the banner is on screen (${b.left}–${b.right})`);
      await shot(page, `layout-03-review-banner-${lang}`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});

test('4. the lobby\'s "Your table is open" goes once the table\'s game starts', async () => {
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext(PHONE)).newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/lobby`);
    await page.waitForSelector('.lobby-live:text("Live")');
    await page.fill('.ot-name', 'Hana');
    // A bot in the second seat, a third open: the host may start it.
    await page.selectOption('.ot-seat[data-i="0"] .ot-kind', 'bot');
    await page.click('.ot-add');
    await page.click('.ot-go');
    await page.waitForSelector('.toast:text("Your table is open")');
    await page.tap('.lobby-table .start');
    await page.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 15_000 });
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
    const shown = await page.$$eval('.toast', (ts) => ts.filter((t) => !t.classList.contains('out') && getComputedStyle(t).opacity !== '0').map((t) => t.textContent));
    assert.deepEqual(shown.filter((t) => /table is open/.test(t)), [], 'the table\'s toast is gone in its game');
    await shot(page, 'layout-04-lobby-game');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

/** WCAG contrast ratio of two CSS colours "rgb(r, g, b)". */
function contrastOf(a, b) {
  const lum = (c) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) || []).map(Number).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

for (const [size, device] of [['phone', PHONE], ['laptop', LAPTOP]]) {
  test(`5. dark, ${size}: the black seat's followers are filled and stand out (3:1 or more)`, async () => {
    const { context, close } = await launch({ ...device, colorScheme: 'dark' });
    try {
      // Five seats: the fifth is black.
      const page = await openGame(context, [{ kind: 'human', name: 'Ada' }, ...[1, 2, 3, 4].map(() => ({ kind: 'bot', level: 'random' }))]);
      const errors = watchErrors(page);
      await page.waitForSelector('.player[data-seat="4"]');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      const icons = await page.$$eval('.player[data-seat="4"] .meeple-icon:not(.hollow)', (els) => els.filter((e) => e.getBoundingClientRect().width > 0).map((svg) => {
        // The colour behind: the first ancestor with an opaque background.
        let bg = 'rgb(0, 0, 0)';
        for (let e = svg.parentElement; e; e = e.parentElement) {
          const c = getComputedStyle(e).backgroundColor;
          const a = (c.match(/[\d.]+/g) || []).map(Number);
          if (a.length >= 3 && (a[3] ?? 1) >= 1) { bg = c; break; }
        }
        return { fill: getComputedStyle(svg.querySelector('path')).fill, bg };
      }));
      assert.ok(icons.length >= 1, 'the black seat\'s followers are drawn');
      for (const { fill, bg } of icons) {
        assert.notEqual(fill, 'none', 'filled, not hollow');
        const ratio = contrastOf(fill, bg);
        assert.ok(ratio >= 3, `a black follower ${fill} on ${bg}: contrast ${ratio.toFixed(2)}`);
      }
      await shot(page, `layout-05-dark-black-${size}`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

/** POST /api/replay of `record` (these checks ask it hundreds of times: `api` waits out the rate limit). */
const replay = (record) => api('/api/replay', postJson(record));

/** The engine's word on a move in a position (POST /api/replay): null if legal, else the rule it breaks. */
async function refusal(record, mv) {
  const r = await replay({ ...record, moves: [...record.moves, mv] });
  assert.ok(r.status === 200 || r.status === 400, `the replay answers: ${r.status} ${JSON.stringify(r.body)}`);
  return r.status === 200 ? null : (r.body && r.body.rule) || 'other';
}

/** Whether the engine takes `tile` at (x, y) in some turn (no follower). */
async function fitsSomeWay(record, tile, x, y) {
  for (let rot = 0; rot < 4; rot++) if ((await refusal(record, { tile, at: [x, y], rot })) === null) return true;
  return false;
}

/**
 * The cells a practice page lights (`lit`), those of them where the engine
 * takes the tile in no turn (`wrong`), and the empty cells beside the board
 * where it does fit but that are not lit (`missed`).
 */
async function litCells(page, record, tile) {
  // This position's board drawn (the start tile and the record's moves), its tile in hand, its cells lit.
  await page.waitForFunction(([n, tile]) => document.querySelectorAll('.layer-tiles .placed').length === n
    && document.querySelector('.practice-move .big-tile use')?.getAttribute('href') === `#tile-${tile}`
    && document.querySelectorAll('.layer-targets .target').length > 0, [record.moves.length + 1, tile]);
  const lit = await page.$$eval('.layer-targets .target', (ts) => ts.map((t) => `${t.dataset.x},${t.dataset.y}`));
  const wrong = [];
  for (const c of lit) if (!(await fitsSomeWay(record, tile, ...c.split(',').map(Number)))) wrong.push(c);
  const board = (await replay(record)).body.board.map((t) => `${t.at[0]},${t.at[1]}`);
  const beside = new Set();
  for (const c of board) {
    const [x, y] = c.split(',').map(Number);
    for (const [dx, dy] of [[0, -1], [1, 0], [0, 1], [-1, 0]]) beside.add(`${x + dx},${y + dy}`);
  }
  const missed = [];
  for (const c of beside) if (!board.includes(c) && !lit.includes(c) && (await fitsSomeWay(record, tile, ...c.split(',').map(Number)))) missed.push(c);
  return { lit, wrong, missed };
}

test('6. the tutorial and the puzzles light the cells where the tile fits, and only those', async () => {
  const { lessons } = await staticJson('learn/lessons.json');
  const { puzzles } = await staticJson('puzzles/puzzles.json');
  const { context, close } = await launch(LAPTOP);
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    const bad = [];
    const check = (what, { lit, wrong, missed }) => {
      if (wrong.length) bad.push(`${what}: ${wrong.length} of ${lit.length} lit cells where the tile fits no way (${wrong.join(' ')})`);
      if (missed.length) bad.push(`${what}: cells where it fits not lit (${missed.join(' ')})`);
    };
    // (Through a page without a board: the last position's board is never read for the next.)
    const open = async (hash) => {
      await page.goto(`${BASE}/#/learn`);
      await page.waitForFunction(() => document.querySelector('.lessons li') && !document.querySelector('.layer-tiles'));
      await page.goto(`${BASE}/${hash}`);
    };
    for (const lesson of lessons) {
      await open(`#/learn/${lesson.key}`);
      check(`lesson ${lesson.key}`, await litCells(page, lesson.record, lesson.solution.tile));
    }
    for (const p of puzzles.slice(0, 4)) {
      await open(`#/puzzles/${encodeURIComponent(p.id)}`);
      check(`puzzle ${p.id}`, await litCells(page, p.record, p.tile));
    }
    assert.deepEqual(bad, []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('6. a lesson done on a phone: the whole board in view, not the one tile zoomed', async () => {
  const { lessons } = await staticJson('learn/lessons.json');
  const { context, close } = await launch(PHONE);
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    for (const key of ['city', 'cloister', 'farm-per-farm']) {
      const lesson = lessons.find((l) => l.key === key);
      await openView(page, `${BASE}/#/learn/${key}`);
      await keyMove(page, lesson.solution);
      await page.locator('.practice-result .verdict.ok').waitFor();
      await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
      await page.evaluate(() => new Promise((r) => setTimeout(r, 350)));
      const out = await page.evaluate(() => {
        const wrap = document.querySelector('.board-wrap').getBoundingClientRect();
        return [...document.querySelectorAll('.layer-tiles .placed')].map((t) => t.getBoundingClientRect())
          .filter((r) => r.left < wrap.left - 1 || r.right > wrap.right + 1 || r.top < wrap.top - 1 || r.bottom > wrap.bottom + 1).length;
      });
      const all = await page.locator('.layer-tiles .placed').count();
      assert.equal(out, 0, `${key}: ${out} of ${all} tiles out of view after "Well done"`);
      await shot(page, `layout-06-done-${key}`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

/** A game of Ada (here) and Bruno (invited): Ada's page. */
async function duel(context) {
  return openGame(context, [{ kind: 'human', name: 'Ada' }, { kind: 'remote', name: 'Bruno' }]);
}

test('7. on a phone Resign, Leave and Abort are in the menu drawer, reachable by keyboard; nothing of them above the board', async () => {
  const { context, close } = await launch(PHONE);
  try {
    const page = await duel(context);
    const errors = watchErrors(page);
    await page.waitForSelector('.endings-panel [data-act="resign"]', { state: 'attached' });
    // Closed drawer: above the board the players (and the chat's bar), no endings.
    const above = await page.evaluate(() => {
      const top = document.querySelector('.board-wrap').getBoundingClientRect().top;
      return [...document.querySelectorAll('.sidebar section')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.height > 0 && r.bottom <= top + 1;
      }).map((e) => `${e.className} (${e.getBoundingClientRect().height.toFixed(0)} px)`);
    });
    assert.deepEqual(above.filter((c) => !/^(players-panel|chat-panel)/.test(c)), [], `above the board: ${above.join(', ')}`);
    assert.equal(await page.locator('.endings-panel [data-act="resign"]').isVisible(), false, 'Resign is not on the game screen itself');
    // By keyboard: the menu's button, Enter, then Tab reaches Resign in the drawer.
    await page.focus('.drawer-toggle');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.drawer .endings-panel [data-act="resign"]');
    assert.equal(await page.getAttribute('.drawer-toggle', 'aria-expanded'), 'true');
    let reached = false;
    for (let i = 0; i < 6 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => !!document.activeElement?.matches('.drawer .endings-panel [data-act="resign"]'));
    }
    assert.ok(reached, 'Tab from the drawer\'s top reaches Resign');
    for (const act of ['resign', 'leave', 'abort']) assert.ok(await page.locator(`.drawer .endings-panel [data-act="${act}"]`).isVisible(), `${act} in the drawer`);
    // Screen readers: the buttons are in a named region; the menu's button says what it holds.
    assert.ok(await page.$eval('.drawer .endings-panel', (e) => !!e.getAttribute('aria-label')));
    assert.match(await page.getAttribute('.drawer-toggle', 'title'), /ending the game/);
    await checkA11y(page, 'the drawer with the endings (phone)');
    await shot(page, 'layout-07-drawer-endings');
    // Enter on Resign asks; Escape closes the dialog and leaves the focus on Resign.
    await page.keyboard.press('Enter');
    await page.waitForSelector('.ending-dialog');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.ending-dialog', { state: 'detached' });
    assert.ok(await page.evaluate(() => document.activeElement?.matches('[data-act="resign"]')));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('7. on a laptop (and from 481 px) Resign stays under the move, in view; below 481 px it moves to the drawer and back', async () => {
  const { context, close } = await launch(LAPTOP);
  try {
    const page = await duel(context);
    const resign = page.locator('.endings-panel [data-act="resign"]');
    await resign.waitFor();
    assert.ok(await page.evaluate(() => {
      const r = document.querySelector('.endings-panel [data-act="resign"]').getBoundingClientRect();
      return r.bottom <= innerHeight && r.top >= 0 && document.querySelector('.tile-panel').compareDocumentPosition(document.querySelector('.endings-panel')) & Node.DOCUMENT_POSITION_FOLLOWING;
    }), 'under the move and in view');
    await shot(page, 'layout-07-laptop');
    // Between a phone and a laptop (481–820 px: the panels under the board, no drawer): under the board.
    for (const width of [600, 481]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForFunction(() => document.querySelector('.tile-panel').nextElementSibling?.classList.contains('endings-panel'));
      const { board, endings } = await page.evaluate(() => ({
        board: document.querySelector('.board-wrap').getBoundingClientRect().bottom,
        endings: document.querySelector('.endings-panel').getBoundingClientRect().top,
      }));
      assert.ok(endings >= board - 1, `${width} px: the endings (at ${endings.toFixed(0)}) under the board (to ${board.toFixed(0)})`);
      assert.ok(await resign.isVisible(), `${width} px: Resign shown`);
    }
    // Narrowed to a phone's width, they go into the drawer; widened again, back under the move.
    await page.setViewportSize({ width: 480, height: 900 });
    await page.waitForSelector('.drawer .endings-panel', { state: 'attached' });
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.waitForFunction(() => document.querySelector('.tile-panel').nextElementSibling?.classList.contains('endings-panel'));
    assert.ok(await resign.isVisible());
  } finally {
    await close();
  }
});

test('8. on a phone the language footer lies below each page, never over its content', async () => {
  const { context, close } = await launch(PHONE);
  try {
    const page = await context.newPage();
    const name = `Foot${Date.now() % 100000}`;
    await signUp(page, name);
    const pages = ['#/', '#/new', '#/games', '#/lobby', '#/watch', '#/learn', '#/puzzles', '#/leaderboard',
      '#/account', `#/player/${name}`, '#/rules/standard'];
    const over = [];
    for (const hash of pages) {
      await openView(page, `${BASE}/${hash}`);
      await page.waitForSelector('main#app > *:not(.loading)');
      await page.waitForTimeout(700); // the page's data drawn
      const r = await page.evaluate(() => {
        const main = document.querySelector('main#app');
        // To the end of whatever scrolls: the page, or main within it.
        main.scrollTop = main.scrollHeight;
        window.scrollTo(0, document.documentElement.scrollHeight);
        const f = document.querySelector('.site-footer').getBoundingClientRect();
        const clip = getComputedStyle(main).overflowY === 'visible' ? Infinity : main.getBoundingClientRect().bottom;
        let bottom = -Infinity;
        for (const el of main.querySelectorAll('*')) {
          const b = el.getBoundingClientRect();
          if (b.width > 0 && b.height > 0 && getComputedStyle(el).visibility !== 'hidden') bottom = Math.max(bottom, Math.min(b.bottom, clip));
        }
        return { bottom, footer: f.top, footerBottom: f.bottom, height: innerHeight };
      });
      if (r.bottom > r.footer + 1 || r.footerBottom > r.height + 1) over.push(`${hash}: content to ${r.bottom.toFixed(0)}, footer ${r.footer.toFixed(0)}–${r.footerBottom.toFixed(0)} of ${r.height}`);
    }
    assert.deepEqual(over, [], 'the footer below each page, and in view at its end');
  } finally {
    await close();
  }
});
