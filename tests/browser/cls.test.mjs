// Nothing moves once the game page shows (docs/performance.md, "The web
// page"): the layout shifts of a game page against a bot, loaded in a fresh
// browser on a phone (Lighthouse's mobile: 412 × 823, a CPU 4× slower) and
// on a desktop, add up to less than 0.05 (Lighthouse's CLS; "good" is under
// 0.1). Each page is loaded twice: as it comes, and with the chat's answer
// held back 1.5 s, the order a first visit often met (the state first, then
// the chat's answer): the chat panel, shown unfolded above the board, hid
// itself then and the board jumped 250 px up (0.21 on a phone).
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launchBrowser } from './lib.mjs';

const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1350, height: 940 } };
const MAX_CLS = 0.05;
const CHAT_DELAY_MS = 1500;

/** A game against a random bot: the page of its player (this browser holding the seat whose turn it is). */
async function gameUrl() {
  const created = await api('/api/games', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seats: [{ kind: 'human', name: 'Ann' }, { kind: 'bot', level: 'random' }] }),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { id, tokens: [{ token }] } = created.body;
  return `${BASE}/#/game/${id}?join=${token}`;
}

/** Records every layout shift of the page from its start, with what moved. */
function observeShifts() {
  window.__shifts = [];
  const name = (n) => {
    if (!n) return '?';
    const e = n.nodeType === 1 ? n : n.parentElement;
    if (!e) return n.nodeName;
    return e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') + (typeof e.className === 'string' && e.className.trim() ? `.${e.className.trim().split(/\s+/).join('.')}` : '');
  };
  const rect = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__shifts.push({
        at: Math.round(e.startTime), value: e.value, input: e.hadRecentInput,
        sources: (e.sources || []).map((s) => `${name(s.node)} ${rect(s.previousRect)} → ${rect(s.currentRect)}`),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** The layout shifts of a game page loaded in a fresh context of `browser`. */
async function shiftsOf(browser, device, { slowChat }) {
  // With the chat held back, no service worker: the route then sees every request.
  const context = await browser.newContext({ ...device, ...(slowChat ? { serviceWorkers: 'block' } : {}) });
  try {
    await context.addInitScript(observeShifts);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let answered = 0;
    if (slowChat) {
      await page.route(/\/api\/games\/[^/]+\/chat(\?|$)/, async (route) => {
        await new Promise((r) => setTimeout(r, CHAT_DELAY_MS));
        await route.continue().catch(() => {});
      });
      page.on('response', (r) => { if (/\/api\/games\/[^/]+\/chat(\?|$)/.test(r.url())) answered++; });
    }
    await page.goto(await gameUrl());
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.myturn === 'true', null, { timeout: 30_000 });
    // Held back, the chat answers twice (at the start, and again once the seats are known).
    for (let i = 0; slowChat && answered < 2 && i < 100; i++) await page.waitForTimeout(100);
    if (slowChat) assert.ok(answered >= 2, `the chat answered (${answered} answers)`);
    await page.waitForTimeout(2000); // the frames after: the board framed, the tiles' pictures in
    return page.evaluate(() => window.__shifts);
  } finally {
    await context.close();
  }
}

for (const [device, options] of [['phone', PHONE], ['desktop', DESKTOP]]) {
  for (const slowChat of [false, true]) {
    test(`a game page does not move once shown: ${device}${slowChat ? ', the chat answering after the state' : ''}`, async () => {
      const browser = await launchBrowser();
      try {
        const shifts = await shiftsOf(browser, options, { slowChat });
        const counted = shifts.filter((s) => !s.input);
        const cls = counted.reduce((sum, s) => sum + s.value, 0);
        const detail = counted.map((s) => `  ${s.value.toFixed(4)} at ${s.at} ms:\n${s.sources.map((x) => `    ${x}`).join('\n')}`).join('\n');
        assert.ok(cls < MAX_CLS, `layout shifts add up to ${cls.toFixed(4)} (at most ${MAX_CLS}):\n${detail}`);
      } finally {
        await browser.close();
      }
    });
  }
}
