// The installable app: the manifest and the service worker pass Chromium's
// installability check; the app reopens offline (the home page from the
// worker's copy); a game page that loses the network says so, politely and
// to screen readers, and reconnects by itself when the network is back. On
// a phone (390 × 844).
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launch, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** Waits until a service worker controls the page (after the first load it takes over at once). */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 30_000 });
  }
}

/** Waits until the worker holds every module the page loaded (it is handed the list after load). */
async function shellKept(page) {
  await page.waitForFunction(async () => {
    const want = performance.getEntriesByType('resource').map((e) => new URL(e.name))
      .filter((u) => u.origin === location.origin && !u.pathname.startsWith('/api/')).map((u) => u.pathname);
    const names = await caches.keys();
    if (!names.length) return false;
    const cache = await caches.open(names.find((n) => n.startsWith('carcassonne-')));
    for (const p of [...want, '/', '/api/tiles', '/api/options']) if (!(await cache.match(p))) return false;
    return true;
  }, null, { timeout: 30_000, polling: 200 });
}

test('the manifest describes an app with the icons it needs', async () => {
  const resp = await fetch(`${BASE}/manifest.webmanifest`);
  assert.equal(resp.status, 200);
  assert.match(resp.headers.get('content-type'), /^application\/manifest\+json/);
  const m = await resp.json();
  assert.equal(m.display, 'standalone');
  assert.equal(m.start_url, '/');
  assert.equal(m.scope, '/');
  const sizes = (purpose) => m.icons.filter((i) => i.purpose === purpose && i.type === 'image/png').map((i) => i.sizes);
  assert.ok(sizes('any').includes('192x192') && sizes('any').includes('512x512'), 'PNG icons of 192 and 512');
  assert.ok(sizes('maskable').length > 0, 'a maskable icon');
  for (const icon of m.icons) {
    const r = await fetch(new URL(icon.src, BASE));
    assert.equal(r.status, 200, icon.src);
    assert.equal(r.headers.get('content-type'), icon.type, icon.src);
    if (icon.type === 'image/png') {
      // The PNG's own header says its size (bytes 16–23: width, height).
      const b = Buffer.from(await r.arrayBuffer());
      assert.equal(`${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`, icon.sizes, icon.src);
    }
  }
  const sw = await fetch(`${BASE}/sw.js`);
  assert.equal(sw.status, 200);
  assert.match(sw.headers.get('content-type'), /^(text|application)\/javascript/);
  // The worker keeps at installation every module the page imports at boot
  // (app.js and what it imports, followed through the static imports).
  const text = await sw.text();
  const kept = new Set([...text.matchAll(/'(\/js\/[a-z]+\.js)'/g)].map((m) => m[1]));
  const seen = new Set();
  const todo = ['/js/app.js'];
  while (todo.length) {
    const path = todo.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const src = await (await fetch(`${BASE}${path}`)).text();
    for (const m of src.matchAll(/^import [^;]*? from '\.\/([a-z]+\.js)';/gm)) todo.push(`/js/${m[1]}`);
  }
  assert.deepEqual([...seen].filter((p) => !kept.has(p)), [], 'every module of the boot is kept at installation');
});

test('the app installs and reopens offline; a game page says it is offline and reconnects', async () => {
  const { context, close } = await launch(PHONE);
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/`);
    await page.waitForSelector('.new-game .start');
    await controlled(page);
    await shellKept(page);

    // Chromium's own check: installable, nothing missing.
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'Chromium finds the app installable');
    const { url: manifestUrl, errors: manifestErrors } = await cdp.send('Page.getAppManifest');
    assert.equal(manifestUrl, `${BASE}/manifest.webmanifest`);
    assert.deepEqual(manifestErrors, []);
    // What Safari's "Add to Home Screen" reads.
    assert.equal(await page.getAttribute('link[rel="apple-touch-icon"]', 'href'), '/icons/apple-touch-icon.png');
    assert.equal(await page.getAttribute('meta[name="apple-mobile-web-app-title"]', 'content'), 'Carcassonne');

    // Offline, the app opens from the worker's copy.
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('.new-game .start');
    assert.equal(await page.locator('.fatal').count(), 0, 'the boot data came from the copy');
    await shot(page, 'pwa-01-home-offline');
    await checkA11y(page, 'the home page offline');

    // A game against a bot, this browser holding the human seat.
    await context.setOffline(false);
    const created = await api('/api/games', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seats: [{ kind: 'human', name: 'Ann' }, { kind: 'bot', level: 'random' }] }),
    });
    assert.equal(created.status, 201);
    const { id, tokens: [{ token }] } = created.body;
    await page.goto(`${BASE}/#/game/${id}?join=${token}`);
    await page.waitForSelector('#app[data-myturn="true"]');
    const note = page.locator('.offline-note');
    assert.equal(await note.getAttribute('role'), 'status');
    assert.equal(await note.getAttribute('aria-live'), 'polite');
    assert.equal((await note.textContent()).trim(), '', 'nothing said while connected');

    // The network drops: the page says so.
    await context.setOffline(true);
    await page.waitForFunction(() => /offline/i.test(document.querySelector('.offline-note').textContent));
    assert.ok(await page.locator('#app.offline').count(), 'the game is marked offline');
    await shot(page, 'pwa-02-game-offline');
    await checkA11y(page, 'a game page offline');

    // Reloaded while offline: the game page opens from the copy and says it
    // cannot reach the server ("offline" when the browser knows it has no
    // network, which Chromium's emulation does not always tell a new page).
    await page.reload();
    await page.waitForFunction(() => /offline|connection lost/i.test(document.querySelector('.offline-note')?.textContent || ''));
    assert.equal(await page.locator('.fatal').count(), 0, 'the boot data came from the copy');

    // The network returns: the page reconnects by itself and gets the game again.
    await context.setOffline(false);
    await page.waitForSelector('#app[data-myturn="true"]', { timeout: 20_000 });
    await page.waitForFunction(() => !document.querySelector('#app.offline'));
    assert.match(await note.textContent(), /back online/i);
    await shot(page, 'pwa-03-game-back-online');
    await checkA11y(page, 'a game page back online');
    // The note goes once said.
    await page.waitForFunction(() => document.querySelector('.offline-note').textContent === '', null, { timeout: 10_000 });
    assert.deepEqual(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|WebSocket|Failed to load resource|server cannot be reached/.test(e)), []);
  } finally {
    await close();
  }
});
