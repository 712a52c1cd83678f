// Web Push in a real Chromium (docs/web.md, "Notifications"): the game
// page's "Notify me" toggle for a seat this browser holds, its states (off,
// on, blocked, hidden for a spectator), keyboard use, axe, phone size; the
// service worker's `push` and `notificationclick` handlers.
//
// Headless Chromium has no push service to register with (Debian's build
// has no Google push service key, and this machine no network): tried by
// hand, a real `pushManager.subscribe` never answered (no answer in 5 s). It
// is not tried here, since it would reach out to the browser vendor's push
// service. So the browser's push service is stood in for by a subscription the test makes in the page
// (a P-256 key and auth secret of the page's own, an https endpoint): the
// page hands it to the server as the browser's would, and the server checks
// and keeps it. The encryption and the request to the push service are
// tested end to end in crates/server/tests/push.rs. A push message is
// delivered to the service worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage), and the notification it shows is read
// back.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launch, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

/** A game of two people; this browser holds the first seat. */
async function newGame() {
  const { status, body } = await api('/api/games', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seats: [{ kind: 'human', name: 'Ada' }, { kind: 'human', name: 'Bob' }] }),
  });
  assert.equal(status, 201, JSON.stringify(body));
  return { id: body.id, token: body.tokens[0].token };
}

/**
 * Stands in for the browser's push service: `pushManager.subscribe` and
 * `getSubscription` give a subscription with a real P-256 key and auth
 * secret made in the page, and an https endpoint (unsubscribe forgets it).
 */
function fakePushService() {
  // Kept for the tab (as a browser keeps its subscription across reloads).
  const saved = sessionStorage.getItem('fake-push');
  let sub = null;
  const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const make = async () => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const raw = await crypto.subtle.exportKey('raw', pair.publicKey);
    const auth = crypto.getRandomValues(new Uint8Array(16));
    const endpoint = `https://push.example.com/send/${b64(crypto.getRandomValues(new Uint8Array(12)))}`;
    return wrap({ endpoint, expirationTime: null, keys: { p256dh: b64(raw), auth: b64(auth) } });
  };
  const wrap = (json) => {
    sessionStorage.setItem('fake-push', JSON.stringify(json));
    return { endpoint: json.endpoint, toJSON: () => json, unsubscribe: async () => { sub = null; sessionStorage.removeItem('fake-push'); return true; } };
  };
  if (saved) sub = wrap(JSON.parse(saved));
  window.__realSubscribe = PushManager.prototype.subscribe;
  PushManager.prototype.subscribe = async function subscribe(options) {
    if (!options || !options.userVisibleOnly || !(options.applicationServerKey instanceof Uint8Array) || options.applicationServerKey.length !== 65) {
      throw new Error('subscribe: userVisibleOnly and a 65-byte applicationServerKey are needed');
    }
    window.__subscribedWith = options.applicationServerKey.length;
    sub = sub || await make();
    return sub;
  };
  PushManager.prototype.getSubscription = async function getSubscription() { return sub; };
}

/** What `f` gives in the page once it gives something, or null after `ms`. */
async function poll(page, f, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await page.evaluate(f);
    if (v !== null && v !== undefined) return v;
    if (Date.now() >= end) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function openGame(context, id, token) {
  const page = await context.newPage();
  await page.addInitScript(([gameId, t]) => {
    localStorage.setItem('carcassonne.tokens', JSON.stringify({ [gameId]: [t] }));
  }, [id, token]);
  await page.goto(`${BASE}/#/game/${id}`);
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
  // The service worker controls the page once it is ready.
  await page.evaluate(() => navigator.serviceWorker.ready);
  return page;
}

test('the Notify me toggle subscribes a seat, says so, and unsubscribes; axe finds nothing', async () => {
  const { context, close } = await launch();
  try {
    await context.grantPermissions(['notifications'], { origin: BASE });
    const { id, token } = await newGame();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.addInitScript(fakePushService);
    await page.addInitScript(([gameId, t]) => {
      localStorage.setItem('carcassonne.tokens', JSON.stringify({ [gameId]: [t] }));
    }, [id, token]);
    const requests = [];
    page.on('request', (r) => { if (r.url().includes('/api/push/')) requests.push({ url: r.url(), body: r.postData() }); });
    await page.goto(`${BASE}/#/game/${id}`);
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
    await page.evaluate(() => navigator.serviceWorker.ready);

    const toggle = page.locator('.push-toggle');
    await toggle.waitFor({ state: 'visible' });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.match(await toggle.getAttribute('title'), /Notify me when it is my turn: off/);
    assert.match(await toggle.textContent(), /Notify me when it is my turn/, 'a name for screen readers');
    await checkA11y(page, 'game page, notifications off');

    // By keyboard: focus the toggle, press Enter.
    await toggle.focus();
    const onAnswer = page.waitForResponse((r) => r.url().endsWith('/api/push/subscribe'), { timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.push-toggle').getAttribute('aria-pressed') === 'true', null, { timeout: 15_000 });
    assert.equal(await page.evaluate(() => window.__subscribedWith), 65, 'subscribed with the server\'s 65-byte key');
    const sent = requests.find((r) => r.url.endsWith('/api/push/subscribe'));
    assert.ok(sent, 'the subscription went to the server');
    const body = JSON.parse(sent.body);
    assert.equal(body.game, id);
    assert.equal(body.tokens, token);
    assert.equal(body.lang, 'en', 'the notifications in the page\'s language');
    assert.match(body.subscription.endpoint, /^https:\/\/push\.example\.com\//);
    assert.equal((await onAnswer).status(), 200, 'the server kept it');
    await page.waitForSelector('.toast:has-text("You will be notified")');
    await checkA11y(page, 'game page, notifications on');
    await shot(page, 'push-on');

    // Kept across a reload.
    await page.reload();
    await page.waitForFunction(() => document.querySelector('.push-toggle')?.getAttribute('aria-pressed') === 'true', null, { timeout: 15_000 });

    // Off: the server forgets this browser for the seat.
    requests.length = 0;
    // (Its answer is awaited as such: a response event may reach the test
    // after the toggle has already changed.)
    const offAnswer = page.waitForResponse((r) => r.url().endsWith('/api/push/unsubscribe'), { timeout: 15_000 });
    await page.click('.push-toggle');
    await page.waitForFunction(() => document.querySelector('.push-toggle').getAttribute('aria-pressed') === 'false', null, { timeout: 15_000 });
    const off = requests.find((r) => r.url.endsWith('/api/push/unsubscribe'));
    assert.ok(off, 'the unsubscription went to the server');
    assert.equal(JSON.parse(off.body).game, id);
    assert.equal((await offAnswer).status(), 200);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('blocked notifications say so; a spectator has no toggle; phone sizes fit, light and dark', async () => {
  for (const [viewport, colorScheme] of [[{ width: 390, height: 844 }, 'light'], [{ width: 320, height: 640 }, 'dark']]) {
    const { context, close } = await launch({ viewport, isMobile: true, hasTouch: true, colorScheme });
    try {
      const { id, token } = await newGame();
      const page = await context.newPage();
      await page.addInitScript(() => {
        // As a browser whose person said no.
        Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
        Notification.requestPermission = async () => 'denied';
      });
      await page.addInitScript(([gameId, t]) => {
        localStorage.setItem('carcassonne.tokens', JSON.stringify({ [gameId]: [t] }));
      }, [id, token]);
      await page.goto(`${BASE}/#/game/${id}`);
      await page.waitForFunction(() => document.querySelector('.push-toggle')?.dataset.state === 'blocked', null, { timeout: 15_000 });
      assert.match(await page.getAttribute('.push-toggle', 'title'), /blocked/);
      // On screen, clear of the sound toggle, the menu and the turn banner.
      const boxes = await page.evaluate(() => ['.push-toggle', '.sound-toggle', '.drawer-toggle', '.banner'].map((s) => {
        const r = document.querySelector(s).getBoundingClientRect();
        return { s, left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: r.width };
      }));
      const [p, ...others] = boxes;
      assert.ok(p.left >= 0 && p.right <= viewport.width, `inside the screen: ${JSON.stringify(p)}`);
      for (const o of others.filter((b) => b.w > 0)) {
        assert.ok(p.right <= o.left || p.left >= o.right || p.bottom <= o.top || p.top >= o.bottom, `apart from ${o.s}: ${JSON.stringify(boxes)}`);
      }
      await checkA11y(page, `game page, notifications blocked, ${viewport.width} px, ${colorScheme}`);
      await shot(page, `push-blocked-${viewport.width}-${colorScheme}`);

      // A spectator (no seat here) has no toggle.
      const spectator = await context.newPage();
      await spectator.addInitScript(() => localStorage.removeItem('carcassonne.tokens'));
      await spectator.goto(`${BASE}/#/game/${id}`);
      await spectator.waitForFunction(() => document.querySelector('#app')?.dataset.version !== undefined);
      assert.equal(await spectator.locator('.push-toggle').isVisible(), false);
    } finally {
      await close();
    }
  }
});

test('the service worker shows a pushed message, linking to its game (never off the site)', async () => {
  const { context, close } = await launch();
  try {
    await context.grantPermissions(['notifications'], { origin: BASE });
    const { id, token } = await newGame();
    const page = await openGame(context, id, token);
    const cdp = await context.newCDPSession(page);
    const registrations = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    const end = Date.now() + 30_000;
    while (!registrations.some((r) => r.scopeURL.startsWith(BASE)) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const reg = registrations.find((r) => r.scopeURL.startsWith(BASE));
    assert.ok(reg, 'the service worker is registered');
    // A push reaches an activated worker only: wait for it (installing, it
    // first keeps the shell, which takes a while on a busy machine).
    assert.ok(await poll(page, async () => {
      const r = await navigator.serviceWorker.ready;
      return r.active && r.active.state === 'activated' ? true : null;
    }, 30_000), 'the service worker is activated');
    // Delivered, and delivered again should a busy machine's worker, just
    // stopped or starting, drop it: the notifications `f` finds in the page.
    const deliver = async (message, f) => {
      for (let attempt = 1; ; attempt++) {
        await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(BASE).origin, registrationId: reg.registrationId, data: JSON.stringify(message) });
        const found = await poll(page, f, 10_000);
        if (found !== null) return found;
        const worker = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none');
        assert.ok(attempt < 3, `a notification shown for ${message.kind} (the worker: ${worker})`);
      }
    };
    const message = { kind: 'turn', game: id, seat: 0, title: 'Your turn', body: `Your turn in game ${id}`, url: `/#/game/${id}` };
    const shown = await deliver(message, async () => {
      const r = await navigator.serviceWorker.ready;
      const n = await r.getNotifications();
      return n.length ? n.map((x) => ({ title: x.title, body: x.body, tag: x.tag, url: x.data && x.data.url })) : null;
    });
    assert.deepEqual(shown, [{ title: 'Your turn', body: `Your turn in game ${id}`, tag: `turn-${id}`, url: `/#/game/${id}` }]);
    // A message whose link leaves the site opens the site's home instead.
    const urls = await deliver({ kind: 'invite', game: 'x', title: 'Hi', body: 'b', url: 'https://evil.example/' }, async () => {
      const n = await (await navigator.serviceWorker.ready).getNotifications({ tag: 'invite-x' });
      return n.length ? n.map((x) => x.data.url) : null;
    });
    assert.deepEqual(urls, ['/']);
  } finally {
    await close();
  }
});
