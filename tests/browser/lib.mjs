// Shared helpers: launch Debian's Chromium through playwright-core (no
// browser download), and talk to the server under test.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
/** The home screen's list of games once loaded (its "Loading…" line is `.pending`). */
export const GAMES_LOADED = '.games-list > :not(.pending)';
/**
 * Opens another view of the page already loaded: only the address's hash
 * changes, and the view before stays until the new one is drawn (some load
 * a module or data first). Returns once the view before is gone, so that
 * the next wait sees only the new view's elements.
 */
export async function openView(page, url) {
  // (The same address again changes nothing: it is loaded anew.)
  if (await page.evaluate((u) => location.href === u, url)) {
    await page.reload();
    return;
  }
  await page.evaluate(() => { for (const e of document.querySelectorAll('#app > *')) e.dataset.left = ''; });
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('#app > :not([data-left])'));
}
/** The top bar's sign-in link once the page has asked the server who is signed in. */
export const SIGNED_OUT = '#account-nav[data-account="out"] a[href="#/signin"]';
const here = dirname(fileURLToPath(import.meta.url));
export const SHOTS = process.env.SCREENSHOT_DIR || join(here, '..', '..', 'target', 'screenshots');

/**
 * A fresh Chromium profile (its own user data dir, removed on close).
 * Playwright passes the profile as `--user-data-dir` itself.
 */
export async function launch({ viewport = { width: 1400, height: 860 }, ...options } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'carcassonne-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport,
    ...options,
  });
  const close = async () => {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/**
 * One Chromium for several devices: each `browser.newContext()` is a separate
 * device (its own storage, cookies and websockets).
 */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/** Whether the page draws an animation frame within `ms` milliseconds. */
export function frameWithin(page, ms) {
  return page.evaluate((wait) => Promise.race([
    new Promise((f) => requestAnimationFrame(() => f(true))),
    new Promise((f) => setTimeout(() => f(false), wait)),
  ]), ms);
}

/**
 * Gives a page its animation frames back. Headless Chromium (156) at times stops drawing a page
 * while another of the test's pages plays: no animation frame for seconds, the page visible, its
 * timers running, its CSS animations stuck on their first frame, the page brought to the front or
 * its motion reduced no help. Playwright waits on frames to see that an element stands still and to
 * take a screenshot, so the test waited out its timeout (in CI on the chat's Rematch and the lobby's
 * "rated" box; on the debug server, one run in two of those two tests together). A change of the viewport's size wakes the
 * page: it is shrunk by a pixel and put back, and said in the log. A person's one page gets its
 * frames: this is the test's doing, not the page's.
 */
export async function wake(page) {
  const frame = () => frameWithin(page, 1000);
  if (await frame()) return;
  const size = page.viewportSize();
  await page.setViewportSize({ width: size.width, height: size.height - 1 });
  await page.setViewportSize(size);
  console.log(`# ${page.url()} had no animation frame in 1 s; woken by a resize: ${(await frame()) ? 'frames again' : 'still none'}`);
}

/**
 * Clicks, taps or checks an element once it stands still (read by timer), in a page woken first
 * ([`wake`]); if the action still misses, says what the page showed and sends the element its click
 * event directly (as the page's own code gets it, with no frame to wait for).
 */
export async function press(page, selector, { tap = false, check = false } = {}) {
  const el = page.locator(selector).first();
  const act = (timeout) => (check ? el.check({ timeout })
    : tap ? el.tap({ noWaitAfter: true, timeout }) : el.click({ noWaitAfter: true, timeout }));
  await el.waitFor({ state: 'visible', timeout: 20_000 });
  const box = () => el.evaluate((b) => {
    const r = b.getBoundingClientRect();
    return r.width > 0 ? `${r.x},${r.y},${r.width},${r.height}` : '';
  });
  for (let last = '', same = 0, end = Date.now() + 20_000; same < 3;) {
    assert.ok(Date.now() < end, `${selector} stands still`);
    await new Promise((f) => setTimeout(f, 250));
    const now = await box();
    same = now && now === last ? same + 1 : 0;
    last = now;
  }
  await wake(page);
  try {
    await act(10_000);
    return;
  } catch (e) {
    if (e.name !== 'TimeoutError') throw e;
    const raf = (await frameWithin(page, 2000)) ? 'raf' : 'no raf in 2 s';
    const seen = await el.evaluate((b) => {
      const r = b.getBoundingClientRect();
      return JSON.stringify({ vis: document.visibilityState, box: [r.x, r.y, r.width, r.height], focus: document.activeElement?.className, hash: location.hash });
    });
    console.log(`# the ${check ? 'check' : tap ? 'tap' : 'click'} on ${selector} missed (${e.message.split('\n')[0]}): ${raf} ${seen}`);
  }
  assert.equal(await el.isEnabled(), true, `${selector} is enabled`);
  if (check && (await el.isChecked())) return;
  await el.dispatchEvent('click');
  if (check) assert.equal(await el.isChecked(), true, `${selector} is checked`);
  console.log('# … and went through as a click event');
}

export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await wake(page);
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * One API request of the test's own: its status and JSON body. The tests share the pages' address
 * and play games out quickly, over the address's request rate at times: a refusal for the rate
 * (`rate_limited`, nothing done) is asked again a quarter of a second on, for up to 30 s, as the
 * page's own requests are (`fetchPatiently`); every other answer, a quota's 429 included, comes back.
 */
export async function api(path, init) {
  for (let i = 0; ; i++) {
    const resp = await fetch(BASE + path, init);
    const body = await resp.json().catch(() => null);
    if (resp.status !== 429 || body?.error !== 'rate_limited' || i >= 120) return { status: resp.status, body };
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** Clicks the centre of an element's box (as a person would, through the board's gestures). */
export async function clickCentre(page, locator) {
  // Wait for the board to stop moving (it pans to a new tile).
  await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
  const box = await locator.boundingBox();
  assert.ok(box, 'the element is on screen');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * The index of the first element of `locator` whose centre is on the board
 * itself (not under a panel, a toast or off screen): a click there reaches
 * the board. -1 if there is none.
 */
export async function firstOnBoard(locator) {
  return locator.evaluateAll((els) => els.findIndex((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return !!(hit && hit.closest('.board-host'));
  }));
}

/** Waits for our turn or the end; returns 'mine' or 'over'. */
export async function nextTurn(page, timeout = 60_000) {
  await page.waitForFunction(() => {
    const root = document.querySelector('#app');
    return root && (root.dataset.myturn === 'true' || root.dataset.status === 'finished');
  }, null, { timeout });
  return page.evaluate(() => (document.querySelector('#app').dataset.status === 'finished' ? 'over' : 'mine'));
}

/** The game version the page shows. */
export const version = (page) => page.evaluate(() => Number(document.querySelector('#app').dataset.version));

/** Collects the page's uncaught errors and console errors (and keeps count of its requests: [`watchRequests`]). */
export function watchErrors(page, errors = []) {
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  watchRequests(page);
  return errors;
}

/** Each watched page's requests not answered yet, with when each was sent. */
const unanswered = new WeakMap();

/** Keeps count of `page`'s requests not answered yet (for [`waitShown`]'s log). */
export function watchRequests(page) {
  if (unanswered.has(page)) return;
  const open = new Map();
  unanswered.set(page, open);
  page.on('request', (r) => open.set(r, Date.now()));
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/**
 * Waits for `selector` on `page`, in 3 s parts, the page checked for frames (woken if it has none)
 * between them ([`wake`]). Should `selector` still not show in `timeout` ms, fails saying what the
 * page showed, its requests not answered yet (how long each has waited), its `errors`, and how the
 * server answers `direct` (the same request, from the test) and in how long. (In CI a desktop-sized
 * page stayed on "Loading the profile…" after a game played out over the API: the page was still
 * drawing the game's states one by one, seconds behind, its fetch's answer queued after them; the
 * game page now draws only the latest of the states that wait, `GameScreen.queueState`.)
 */
export async function waitShown(page, selector, { timeout = 15_000, errors = [], direct } = {}) {
  for (const end = Date.now() + timeout; ;) {
    try {
      await page.waitForSelector(selector, { timeout: 3000 });
      return;
    } catch (e) {
      if (e.name !== 'TimeoutError') throw e;
    }
    if (Date.now() >= end) break;
    await wake(page);
  }
  const shown = (await page.textContent('body')).replace(/\s+/g, ' ').slice(0, 400);
  const open = [...(unanswered.get(page) || [])].map(([r, at]) => `${r.method()} ${r.url().replace(BASE, '')} for ${Date.now() - at} ms`);
  const frames = (await frameWithin(page, 1000)) ? 'frames drawn' : 'no frame in 1 s';
  let server = '';
  if (direct) {
    const start = Date.now();
    const answer = await api(direct);
    server = `; the server answered ${direct} from the test with ${answer.status} in ${Date.now() - start} ms`;
  }
  assert.fail(`${selector} not shown in ${timeout} ms on ${page.url().replace(BASE, '')}: the page showed "${shown}";`
    + ` unanswered: ${open.join(', ') || 'none'}; ${frames}; errors: ${errors.join(' | ') || 'none'}${server}`);
}

/** Signs up on #/signup as `name`; resolves once the recovery code shows. */
export async function signUp(page, name, password = 'correct horse battery') {
  await openView(page, `${BASE}/#/signup`);
  await page.waitForSelector('#account-password[autocomplete="new-password"]');
  await page.fill('#account-name', name);
  await page.fill('#account-password', password);
  await page.click('.account-form button[type=submit]');
  await page.waitForSelector('.recovery-code');
}

/**
 * Plays a game to its end over the API with every seat's token (`tokens[seat]`),
 * a spread of legal moves with a follower now and then: the final scores.
 */
export async function playOut(id, tokens) {
  for (let k = 0; k < 400; k++) {
    const { status, body: s } = await api(`/api/games/${id}?token=${tokens.join(',')}`);
    if (status !== 200) throw new Error(`the game's state: ${status} ${JSON.stringify(s)}`);
    if (s.status === 'finished') return s.players.map((p) => p.score);
    const seat = s.turn.seat;
    const p = s.legal[(k * 7) % s.legal.length];
    const move = { version: s.version, tile: p.tile, at: p.at, rot: p.rot };
    if (k % 3 === 0 && p.meeple && p.meeple.length) move.meeple = p.meeple[0];
    const r = await api(`/api/games/${id}/moves?token=${tokens[seat]}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(move),
    });
    if (r.status !== 200) throw new Error(`a move refused: ${r.status} ${JSON.stringify(r.body)}`);
  }
  throw new Error('the game did not end');
}

const postJson = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * A game of one person ("Ada") against `bot` (an easy bot by default), its
 * seat token kept in `page`'s storage, and opened there: its id.
 */
export async function gameAgainstBot(page, bot = { kind: 'bot', level: 'easy' }) {
  const created = await api('/api/games', postJson({ seats: [{ kind: 'human', name: 'Ada' }, bot] }));
  if (created.status !== 201) throw new Error(`a game against a bot: ${created.status} ${JSON.stringify(created.body)}`);
  const { id, tokens } = created.body;
  await page.goto(`${BASE}/#/`);
  await page.evaluate(([id, tokens]) => {
    localStorage.setItem('carcassonne.tokens', JSON.stringify({ [id]: tokens.filter((t) => !t.remote).map((t) => t.token) }));
  }, [id, tokens]);
  await page.goto(`${BASE}/#/game/${id}`);
  return id;
}

/** A game of `seats` bots (random ones by default), waited for to its end: its final state. */
export async function finishedBotGame(seats = [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }]) {
  const created = await api('/api/games', postJson({ seats }));
  if (created.status !== 201) throw new Error(`a bots' game: ${created.status} ${JSON.stringify(created.body)}`);
  for (let i = 0; i < 900; i++) {
    const s = (await api(`/api/games/${created.body.id}`)).body;
    if (s.status === 'finished') return s;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the bots did not finish');
}

/** A rated two-player game made from `page` (signed in: the cookie goes with it), the second seat invited: its id and tokens by seat. */
export async function ratedGameFrom(page) {
  const created = await page.evaluate(async () => {
    const r = await fetch('/api/games', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seats: [{ kind: 'human' }, { kind: 'remote' }], rated: true }),
    });
    return { status: r.status, body: await r.json() };
  });
  if (created.status !== 201) throw new Error(`a rated game: ${created.status} ${JSON.stringify(created.body)}`);
  const tokens = [0, 1].map((seat) => created.body.tokens.find((x) => x.seat === seat).token);
  return { id: created.body.id, tokens };
}
