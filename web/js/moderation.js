// Blocking and reporting (docs/web.md, "Blocking and reporting"): block or
// unblock an account (from its profile, or a chat line's author), report a
// name or a chat line (a dialog: the reason, a short note), and the list of
// accounts one blocks on the account page. The server hides a blocked
// account's chat lines; the page reads the chat again after a block.
// Text from the server goes in as text, never as HTML.

import { request } from './api.js';
import { esc, toast } from './dom.js';
import { errorText, t } from './i18n.js';

/** The reasons a report gives (the server's list). */
export const REASONS = ['offensive_name', 'abusive_chat', 'cheating', 'other'];
/** The longest note, in characters (the server's cap). */
export const MAX_NOTE = 200;

export const moderationApi = {
  blocks: () => request('GET', '/api/account/blocks'),
  /** `what`: `{ name }` or `{ game, seq }`. */
  block: (what) => request('POST', '/api/account/blocks', what),
  unblock: (name) => request('POST', '/api/account/unblock', { name }),
  report: (what, tokens = []) =>
    request('POST', `/api/reports${tokens.length ? `?token=${tokens.join(',')}` : ''}`, what),
};

/** The signed-in account's name (null when signed out). */
export function signedInName() {
  return request('GET', '/api/me').then((v) => v.name ?? null, () => null);
}

/** Blocks `what` (a name, or a chat line's author): the name blocked, told in a toast; null if refused. */
export async function block(what) {
  try {
    const v = await moderationApi.block(what);
    toast(t('mod-blocked', { name: v.blocked }));
    return v.blocked;
  } catch (e) {
    toast(errorText(e), 'error');
    return null;
  }
}

/** Unblocks the account named `name`: whether it worked (told in a toast). */
export async function unblock(name) {
  try {
    const v = await moderationApi.unblock(name);
    toast(t('mod-unblocked', { name: v.unblocked }));
    return true;
  } catch (e) {
    toast(errorText(e), 'error');
    return false;
  }
}

/**
 * The report dialog: `what` names the thing (`{ name }` or `{ game, seq }`),
 * `name` whom it is about, `text` a chat line's words (shown), `tokens` the
 * seats a guest holds in the line's game; `from` gets the focus back.
 * `reason` is chosen first (offensive name for a name, abusive chat for a line).
 */
export function reportDialog({ what, name, text = null, tokens = [], from = null }) {
  const o = document.createElement('div');
  o.className = 'overlay report-overlay';
  const first = what.name ? 'offensive_name' : 'abusive_chat';
  const reasons = REASONS.map((r) => `<label class="report-reason"><input type="radio" name="report-reason" value="${r}"
      ${r === first ? 'checked' : ''}> ${esc(t(`mod-reason-${r}`))}</label>`).join('');
  o.innerHTML = `<div class="dialog report-dialog" role="dialog" aria-modal="true" aria-labelledby="report-title">
    <h3 id="report-title">${esc(t('mod-report-title', { name }))}</h3>
    ${text != null ? `<blockquote class="report-line">${esc(text)}</blockquote>` : ''}
    <form class="report-form" novalidate>
      <fieldset><legend>${esc(t('mod-reason'))}</legend>${reasons}</fieldset>
      <label class="report-note-label" for="report-note">${esc(t('mod-note'))}</label>
      <textarea id="report-note" class="report-note" rows="3" maxlength="${MAX_NOTE}"></textarea>
      <p class="muted">${esc(t('mod-report-help'))}</p>
      <p class="account-error report-error" role="alert"></p>
      <div class="dialog-actions"><button type="button" class="btn" data-report="cancel">${esc(t('mod-cancel'))}</button>
        <button type="submit" class="btn primary" data-report="send">${esc(t('mod-report-send'))}</button></div>
    </form></div>`;
  document.body.appendChild(o);
  // Modal: its keys (Escape, Tab kept inside) never reach the page behind,
  // wherever the focus went (a button disabled while sending drops it).
  const onKey = (e) => {
    e.stopPropagation();
    if (e.key === 'Escape') { e.preventDefault(); close(); }
    if (e.key === 'Tab') {
      const f = [...o.querySelectorAll('input:checked, textarea, button:not([disabled])')];
      const i = f.indexOf(document.activeElement);
      e.preventDefault();
      f[(i + (e.shiftKey ? f.length - 1 : 1) + f.length) % f.length].focus();
    }
  };
  const close = () => {
    document.removeEventListener('keydown', onKey, true);
    o.remove();
    if (from && from.isConnected) from.focus();
  };
  document.addEventListener('keydown', onKey, true);
  o.querySelector('[data-report="cancel"]').onclick = close;
  o.onclick = (e) => { if (e.target === o) close(); };
  const form = o.querySelector('form');
  const send = o.querySelector('[data-report="send"]');
  form.onsubmit = async (e) => {
    e.preventDefault();
    send.disabled = true;
    const reason = form.querySelector('input[name="report-reason"]:checked').value;
    const note = form.querySelector('.report-note').value;
    try {
      await moderationApi.report({ ...what, reason, note }, tokens);
      close();
      toast(t('mod-reported'));
    } catch (err) {
      form.querySelector('.report-error').textContent = errorText(err);
      send.disabled = false;
      send.focus();
    }
  };
  o.querySelector('input[name="report-reason"]:checked').focus();
  return o;
}

/** The account page's list of blocked accounts, each with "Unblock", in `root`. */
export class BlocksSection {
  constructor(root) {
    this.root = root;
    root.setAttribute('aria-labelledby', 'blocks-title');
    root.innerHTML = `<h2 id="blocks-title">${esc(t('mod-blocks-title'))}</h2>
      <p class="muted">${esc(t('mod-blocks-text'))}</p><ul class="blocks-list"></ul>
      <p class="muted blocks-none" hidden>${esc(t('mod-blocks-none'))}</p>`;
    root.querySelector('.blocks-list').addEventListener('click', async (e) => {
      const b = e.target.closest('button[data-unblock]');
      if (!b) return;
      b.disabled = true;
      if (await unblock(b.dataset.unblock)) this.load();
      else b.disabled = false;
    });
    this.load();
  }

  async load() {
    const list = this.root.querySelector('.blocks-list');
    let blocks = [];
    try { blocks = (await moderationApi.blocks()).blocks; } catch { /* signed out: the page says so */ }
    list.replaceChildren(...blocks.map((b) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `#/player/${encodeURIComponent(b.name)}`;
      a.textContent = b.name;
      const btn = document.createElement('button');
      btn.type = 'button';
      btn.className = 'btn small';
      btn.dataset.unblock = b.name;
      btn.textContent = t('mod-unblock');
      btn.setAttribute('aria-label', t('mod-unblock-name', { name: b.name }));
      li.append(a, ' ', btn);
      return li;
    }));
    this.root.querySelector('.blocks-none').hidden = blocks.length > 0;
  }
}
