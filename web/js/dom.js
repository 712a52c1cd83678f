// Small DOM helpers.

import { t } from './i18n.js';

/** Escapes text for HTML. */
// The page's next task: at once when the browser can (scheduler.yield, not
// clamped as nested timers are), else a timer. Long work split by it lets the
// page answer (and paint) in between.
export const nextTask = () => (globalThis.scheduler && scheduler.yield ? scheduler.yield() : new Promise((r) => setTimeout(r)));
// A task when the page has nothing else to do (scheduler.postTask's background priority), else a timer.
export const backgroundTask = () => (globalThis.scheduler && scheduler.postTask
  ? scheduler.postTask(() => {}, { priority: 'background' }) : new Promise((r) => setTimeout(r)));

export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

export function $(sel, root = document) {
  return root.querySelector(sel);
}

export function $$(sel, root = document) {
  return [...root.querySelectorAll(sel)];
}

/** A short-lived message at the bottom of the screen: its element (for `dismissToast`). */
export function toast(text, kind = 'info', ms = 3200) {
  let box = document.querySelector('.toasts');
  if (!box) {
    box = document.createElement('div');
    box.className = 'toasts';
    // A landmark of its own, read out as messages come.
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', t('toasts-label'));
    box.setAttribute('aria-live', 'polite');
    document.body.appendChild(box);
  }
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.textContent = text;
  box.appendChild(el);
  setTimeout(() => el.classList.add('out'), ms);
  setTimeout(() => el.remove(), ms + 400);
  return el;
}

/** Lets a toast go at once (what it said no longer holds). */
export function dismissToast(el) {
  if (!el || !el.isConnected || el.classList.contains('out')) return;
  el.classList.add('out');
  setTimeout(() => el.remove(), 400);
}

/** Lets the toasts on screen go at once (a dialog opening over them). */
export function dismissToasts() {
  for (const el of document.querySelectorAll('.toasts .toast:not(.out)')) dismissToast(el);
}

/** "3 min ago" for a Unix time in milliseconds. */
export function ago(ms) {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  if (s < 60) return t('just-now');
  if (s < 3600) return t('minutes-ago', { n: Math.floor(s / 60) });
  if (s < 86400) return t('hours-ago', { n: Math.floor(s / 3600) });
  return new Date(ms).toLocaleDateString(document.documentElement.lang || undefined);
}

/** Copies a link: the clipboard API where the page may use it, else the old way. */
export function copyText(input) {
  const done = () => toast(t('link-copied'));
  const old = () => {
    input.focus();
    input.select();
    try { if (document.execCommand('copy')) { done(); return; } } catch { /* below */ }
    toast(t('copy-by-hand'), 'info');
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, old);
  else old();
}
