// The page's link to the server when the network comes and goes: the
// service worker that keeps the app shell (so the game opens offline), and
// what a game page says while its connection is down.
import { t } from './i18n.js';

/**
 * Registers the service worker (web/sw.js) once the page has loaded (its
 * copies then take nothing from the first visit), and hands it the files
 * this page loaded, so that it keeps every module of the shell from the
 * first visit on, whatever their number. Does nothing where service workers
 * are not available (plain http on another host than localhost, old browsers).
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const keep = () => {
    const urls = performance.getEntriesByType('resource')
      .map((e) => new URL(e.name, location.href))
      .filter((u) => u.origin === location.origin && !u.pathname.startsWith('/api/'))
      .map((u) => u.pathname);
    navigator.serviceWorker.ready.then((reg) => {
      if (reg.active) reg.active.postMessage({ type: 'keep', urls: [...new Set(urls)] });
    });
  };
  const register = () => navigator.serviceWorker.register('/sw.js', { scope: '/' })
    .then(keep, () => { /* no worker: the game still works online */ });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

const BACK_ONLINE_MS = 3000;

/**
 * What a game page says about its connection, in `note` (a polite live
 * region that stays in the page, so that every change is announced):
 * nothing while connected; "offline" when the device has no network;
 * "reconnecting" when the socket dropped but the network is there; "back
 * online" for a moment once the socket is open again. Also marks `root` with
 * the class `offline` meanwhile.
 *
 * The socket (a GameSocket) reconnects by itself with backoff, and at once
 * when the network returns. One case it cannot see: a socket that stayed
 * "open" through a network change (a phone that moved from Wi-Fi to mobile
 * data) may be dead; when the device was offline meanwhile, it is replaced
 * by a new one, which resyncs the whole state.
 */
export class ConnectionStatus {
  constructor(note, root, socket) {
    this.note = note;
    this.root = root;
    this.socket = socket; // () => the GameSocket (made after this)
    this.down = false;
    this.wentOffline = false;
    this.timer = null;
    this.onOffline = () => {
      this.wentOffline = true;
      this.set('offline');
    };
    this.onOnline = () => {
      const s = this.socket();
      if (s && this.wentOffline && s.ws && s.ws.readyState === WebSocket.OPEN) s.reconnect(s.tokens);
      this.wentOffline = false;
      if (this.down) this.show();
    };
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
  }

  /** The socket's news: 'online' or 'offline'. */
  set(status) {
    const down = status === 'offline';
    if (down === this.down && !down) return;
    const was = this.down;
    this.down = down;
    this.root.classList.toggle('offline', down);
    if (down) this.show();
    else if (was) this.say(t('back-online'), 'back', BACK_ONLINE_MS);
  }

  show() {
    if (navigator.onLine === false) this.say(t('offline-note'), 'off');
    else this.say(t('connection-lost'), 'off');
  }

  say(text, kind, forMs = 0) {
    clearTimeout(this.timer);
    if (this.note.textContent !== text) {
      this.note.innerHTML = '';
      const span = document.createElement('span');
      span.className = kind;
      span.textContent = text;
      this.note.append(span);
    }
    this.note.dataset.state = kind;
    if (forMs) this.timer = setTimeout(() => { this.note.textContent = ''; this.note.dataset.state = ''; }, forMs);
  }

  destroy() {
    clearTimeout(this.timer);
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
  }
}
