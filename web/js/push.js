// "Notify me": Web Push for the seats this browser holds in a game. The
// toggle asks the browser's permission, subscribes through the service
// worker (web/sw.js shows the notification and opens the game when it is
// clicked), and hands the subscription to the server, bound to the seats by
// their tokens (POST /api/push/subscribe). Switched off, the server forgets
// this browser for those seats (POST /api/push/unsubscribe). Which games
// notify is kept in localStorage (docs/web.md, "Notifications").

import { request } from './api.js';
import { toast } from './dom.js';
import { errorText, lang, t } from './i18n.js';

const KEY = 'carcassonne.push';
/** How long the service worker may take to be ready before we give up. */
const READY_MS = 8000;

const ICON = (on) => `<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
  <rect x="6.5" y="2.5" width="11" height="19" rx="2.2" fill="none" stroke="currentColor" stroke-width="2"/>
  <path d="M10.5 18.5h3" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>
  ${on ? '<circle cx="18" cy="6" r="4" fill="currentColor"/>' : ''}</svg>`;

/** Whether this browser can receive Web Push here (a secure page, a service worker, the Push API). */
export function pushSupported() {
  return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function followed() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}') || {}; } catch { return {}; }
}

function setFollowed(id, on) {
  const all = followed();
  if (on) all[id] = true; else delete all[id];
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode: forgotten with the tab */ }
}

/** The base64url VAPID key as the Push API wants it. */
function keyBytes(b64) {
  const s = b64.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(s + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Why switching failed, in words: a server refusal in the page's language, else the browser's message. */
function reasonOf(e) {
  return e && e.message ? errorText(e) : String(e);
}

async function registration() {
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(t('push-no-worker'))), READY_MS));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

/**
 * The "Notify me" toggle of game `id` on `button` (a `.tool` button), for the
 * seats `tokens` hold. Hidden for spectators. Its states: on, off, busy,
 * blocked (permission denied) and unavailable (no Push API here), each said
 * in its title and its label, and `aria-pressed` for on and off.
 */
export function mountPushToggle(button, id, tokens) {
  if (!button) return;
  if (!tokens.length) { button.hidden = true; return; }
  let state = 'off';
  const label = document.createElement('span');
  label.className = 'sr-only';

  const render = () => {
    const on = state === 'on';
    button.dataset.state = state;
    button.classList.toggle('on', on);
    button.setAttribute('aria-pressed', String(on));
    button.setAttribute('aria-busy', String(state === 'busy'));
    const text = t(`push-${state}`);
    button.title = text;
    label.textContent = text;
    button.innerHTML = ICON(on);
    button.appendChild(label);
  };

  const fail = (message) => {
    state = 'off';
    render();
    toast(message, 'error', 5000);
  };

  const switchOn = async () => {
    if (Notification.permission === 'denied') { state = 'blocked'; render(); return; }
    state = 'busy';
    render();
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        state = permission === 'denied' ? 'blocked' : 'off';
        render();
        return;
      }
      const reg = await registration();
      let sub = await reg.pushManager.getSubscription();
      if (!sub) {
        const { key } = await request('GET', '/api/push/key');
        sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
      }
      await request('POST', '/api/push/subscribe', { subscription: sub.toJSON(), game: id, tokens: tokens.join(','), lang });
      setFollowed(id, true);
      state = 'on';
      render();
      toast(t('push-will-notify'));
    } catch (e) {
      fail(t('push-on-failed', { reason: reasonOf(e) }));
    }
  };

  const switchOff = async () => {
    state = 'busy';
    render();
    try {
      const reg = await registration();
      const sub = await reg.pushManager.getSubscription();
      if (sub) await request('POST', '/api/push/unsubscribe', { endpoint: sub.endpoint, game: id, tokens: tokens.join(',') });
      setFollowed(id, false);
      state = 'off';
      render();
      toast(t('push-no-more'));
    } catch (e) {
      state = 'on';
      render();
      toast(t('push-off-failed', { reason: reasonOf(e) }), 'error', 5000);
    }
  };

  // The permission is asked of the browser (a round trip to its process,
  // slow on a phone): in a task of its own, after the page's first drawing;
  // the button shows then.
  button.hidden = true;
  setTimeout(() => {
    if (!pushSupported()) state = 'unavailable';
    else if (Notification.permission === 'denied') state = 'blocked';
    else if (followed()[id] && Notification.permission === 'granted') state = 'on';
    render();
    button.hidden = false;
  }, 0);
  button.addEventListener('click', () => {
    if (state === 'on') switchOff();
    else if (state === 'off' || state === 'blocked') switchOn();
    else if (state === 'unavailable') toast(t('push-cannot'), 'info', 5000);
  });
}
