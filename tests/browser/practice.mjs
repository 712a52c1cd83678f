// Playing a move in a practice position (the tutorial's lessons, the
// puzzles: web/js/practice.js) by keyboard alone, as learn.test.mjs and
// puzzles.test.mjs do.
import assert from 'node:assert/strict';
import { BASE } from './lib.mjs';

/** A static JSON file the page reads (lessons, puzzles). */
export async function staticJson(path) {
  const r = await fetch(`${BASE}/${path}`);
  assert.equal(r.status, 200, path);
  return r.json();
}

/** What the move panel holds: the placement "x,y,rot" and the follower's key. */
const chosen = (page) => page.evaluate(() => {
  const p = document.querySelector('.practice-move');
  return { placed: p.dataset.placed, action: p.dataset.action };
});

/** The key of a move's follower choice, as the page names it. */
const actionKey = (mv) => {
  if (mv.recall) return 'recall';
  const kind = ['abbot', 'meeple', 'big', 'builder', 'pig'].find((k) => mv[k]);
  return kind ? `${kind}:${mv[kind]}` : '';
};

const ARROWS = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'];

/** The cell the tile lies on ("x,y"), '' for none. */
const cellOf = async (page) => (await chosen(page)).placed.split(',').slice(0, 2).join(',');

/**
 * Brings the tile to `at` by the arrows. First straight towards it; when
 * that wanders (an arrow goes to the nearest lit cell that way, which may
 * lie past the one wanted), the shortest sequence of arrows from no tile
 * placed, tried breadth first (Escape takes the tile back between tries).
 */
async function arrowsTo(page, at) {
  const want = `${at[0]},${at[1]}`;
  for (let i = 0; i < 12; i++) {
    const { placed } = await chosen(page);
    const [x, y] = placed ? placed.split(',').map(Number) : [0, 0];
    if (placed && x === at[0] && y === at[1]) return;
    const keys = [];
    if (x !== at[0]) keys.push(at[0] > x ? 'ArrowRight' : 'ArrowLeft');
    if (y !== at[1]) keys.push(at[1] > y ? 'ArrowDown' : 'ArrowUp');
    if (!placed && !keys.length) keys.push('ArrowRight');
    // Try the first direction; if it leads nowhere new, the other.
    await page.keyboard.press(keys[i % keys.length] || keys[0]);
  }
  const unplace = async () => {
    for (let i = 0; i < 4 && (await chosen(page)).placed; i++) await page.keyboard.press('Escape');
  };
  const seen = new Set(['']);
  const queue = [[]];
  while (queue.length) {
    const path = queue.shift();
    for (const key of ARROWS) {
      await unplace();
      for (const k of [...path, key]) await page.keyboard.press(k);
      const cell = await cellOf(page);
      if (cell === want) return;
      if (!seen.has(cell)) { seen.add(cell); queue.push([...path, key]); }
    }
  }
}

/** Makes `mv` by keyboard alone: arrows to its cell, R to its rotation, F to its follower. */
export async function keyMove(page, mv) {
  await page.waitForSelector('.practice-move .big-tile');
  await arrowsTo(page, mv.at);
  let { placed } = await chosen(page);
  assert.equal(placed.split(',').slice(0, 2).join(','), `${mv.at[0]},${mv.at[1]}`, 'the arrows reach the cell');
  for (let i = 0; i < 4 && Number(placed.split(',')[2]) !== mv.rot; i++) {
    await page.keyboard.press('r');
    ({ placed } = await chosen(page));
  }
  assert.equal(Number(placed.split(',')[2]), mv.rot, 'R turns the tile');
  // The same follower: the same kind on the same segment (a segment has several spot names).
  const same = () => page.evaluate(([m, want]) => {
    const got = document.querySelector('.practice-move').dataset.action;
    if (!want || !got || want === 'recall' || got === 'recall') return got === want;
    const seg = (key) => window.carcassonne.tiles.segmentAt(m.tile, m.rot, key.split(':')[1]);
    return got.split(':')[0] === want.split(':')[0] && seg(got) === seg(want);
  }, [mv, actionKey(mv)]);
  for (let i = 0; i < 12 && !(await same()); i++) await page.keyboard.press('f');
  assert.ok(await same(), `F chooses the follower ${actionKey(mv)}`);
  await page.keyboard.press('Enter');
}


/** Whether the language footer is drawn over the practice screen's tile panel (a phone's bug once). */
export async function footerOverTilePanel(page) {
  return page.evaluate(() => {
    const f = document.querySelector('.site-footer');
    const p = document.querySelector('.practice-move');
    if (!f || !p || getComputedStyle(f).display === 'none') return false;
    const a = f.getBoundingClientRect();
    const b = p.getBoundingClientRect();
    return a.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  });
}
