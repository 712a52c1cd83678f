// The service worker: keeps a copy of the app shell (the page, its style,
// its modules, icons) and of the two documents the page loads at boot (the
// tiles and the rule options), so that the game opens offline.
//
// Network first, always: while the server answers, every file comes from it
// (revalidated by its ETag, the hash of its content, so an unchanged file
// costs a 304) and the copy is refreshed; the copy is used only when the
// network fails or takes longer than NETWORK_WAIT_MS. So a new version of
// the game reaches the page on its next online load, and an old worker can
// never pin anyone to old code. Game moves, lists and websockets are never
// touched here: only the shell and the boot data are kept.

// Change when what is kept, or how, changes: the old copies are dropped on activation.
const CACHE = 'carcassonne-shell-v2';
const NETWORK_WAIT_MS = 4000;

// Kept at installation: the page and every module it imports at boot
// (tests/browser/pwa.test.mjs checks the list against the page's imports).
// The page also hands over every file it loaded (connection.js), so a module
// missing here is kept from the first visit too.
const SHELL = [
  '/',
  '/css/style.css',
  '/js/app.js',
  '/js/account.js',
  '/js/api.js',
  '/js/board.js',
  '/js/chat.js',
  '/js/chatlog.js',
  '/js/clock.js',
  '/js/connection.js',
  '/js/dom.js',
  '/js/game.js',
  '/js/hint.js',
  '/js/home.js',
  '/js/i18n.js',
  '/js/meeple.js',
  '/js/moderation.js',
  '/js/panels.js',
  '/js/passkeys.js',
  '/js/push.js',
  '/js/replay.js',
  '/js/review.js',
  '/js/rules.js',
  '/js/takeback.js',
  '/js/theme.js',
  '/js/tiles.js',
  '/i18n/en.ftl',
  '/i18n/de.ftl',
  '/i18n/fr.ftl',
  '/js/yourturn.js',
  '/favicon.svg',
  '/favicon-turn.svg',
  '/manifest.webmanifest',
  '/icons/icon-192.png',
  '/icons/apple-touch-icon.png',
];
const BOOT_DATA = ['/api/tiles', '/api/options'];

/** A same-origin path this worker keeps: the shell's files and the boot data, never other API calls. */
function kept(url) {
  if (url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith('/api/')) return BOOT_DATA.includes(url.pathname);
  return url.pathname !== '/sw.js';
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...SHELL, ...BOOT_DATA].map((p) => new Request(p, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('carcassonne-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The page's list of the files it loaded: kept when not kept yet.
self.addEventListener('message', (event) => {
  const msg = event.data;
  if (!msg || msg.type !== 'keep' || !Array.isArray(msg.urls)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const u of msg.urls.slice(0, 100)) {
      if (typeof u !== 'string') continue;
      const url = new URL(u, self.location.origin);
      if (!kept(url) || await cache.match(url.pathname)) continue;
      try {
        const resp = await fetch(url.pathname);
        if (resp.ok) await cache.put(url.pathname, resp);
      } catch { /* offline: kept on a later load */ }
    }
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (!kept(url)) return; // the browser's own way, untouched
  // The app is one page (its screens are in the address's #), kept with its query dropped.
  const key = url.pathname === '/index.html' ? '/' : url.pathname;
  event.respondWith(networkFirst(req, key, event));
});

async function networkFirst(req, key, event) {
  const cache = await caches.open(CACHE);
  const fromNetwork = fetch(req).then((resp) => {
    if (resp.ok && resp.type === 'basic') {
      const copy = resp.clone();
      event.waitUntil(cache.put(key, copy));
    }
    return resp;
  });
  fromNetwork.catch(() => {}); // answered from the copy below
  let timer;
  const slow = new Promise((resolve) => { timer = setTimeout(resolve, NETWORK_WAIT_MS); });
  try {
    const first = await Promise.race([fromNetwork, slow]);
    if (first) return first;
    // The network is slow: the copy if there is one, else keep waiting.
    return (await cache.match(key)) || await fromNetwork;
  } catch {
    const copy = await cache.match(key);
    if (copy) return copy;
    throw new TypeError('offline, and not kept');
  } finally {
    clearTimeout(timer);
  }
}

// Web Push (docs/web.md, "Notifications"): the server's message, decrypted
// by the browser, shown as a notification; a click focuses the game's page
// (or opens it). Only a path of this site is ever opened.
self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  const text = (v, max, fallback) => (typeof v === 'string' && v ? v.slice(0, max) : fallback);
  const title = text(data.title, 100, 'Carcassonne');
  const body = text(data.body, 300, '');
  const url = typeof data.url === 'string' && data.url.startsWith('/#/') ? data.url : '/';
  const tag = typeof data.game === 'string' ? `${text(data.kind, 20, 'game')}-${data.game}` : undefined;
  event.waitUntil(self.registration.showNotification(title, {
    body, tag, icon: '/icons/icon-192.png', badge: '/favicon.svg', data: { url },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data && typeof event.notification.data.url === 'string' ? event.notification.data.url : '/';
  const url = new URL(path.startsWith('/') ? path : '/', self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = windows.find((c) => c.url === url);
    if (same) return same.focus();
    const ours = windows.find((c) => new URL(c.url).origin === self.location.origin && 'navigate' in c);
    if (ours) { await ours.focus(); return ours.navigate(url); }
    return self.clients.openWindow(url);
  })());
});
