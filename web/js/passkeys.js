// Passkeys (docs/web.md, *Passkeys*): "Sign in with a passkey" on the
// sign-in page (and the browser's own offer in the name field: conditional
// UI, `autocomplete="username webauthn"`), and the account page (#/account)
// where a signed-in account adds, lists and removes its passkeys.
//
// The server hands over WebAuthn options as JSON (binary fields base64url)
// with a challenge token; the browser's answer goes back the same way.

import { request } from './api.js';
import { esc } from './dom.js';
import { lang, t } from './i18n.js';

/** Whether this browser can use passkeys at all. */
export function passkeysSupported() {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

/** Whether this browser can, and the server takes passkeys at this address. */
async function passkeysHere() {
  if (!passkeysSupported()) return false;
  try {
    return (await request('GET', '/api/passkeys/available')).available === true;
  } catch {
    return false;
  }
}

function fromB64u(s) {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function toB64u(buf) {
  const bytes = new Uint8Array(buf);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const withIds = (list) => (list || []).map((c) => ({ ...c, id: fromB64u(c.id) }));

function creationOptions(pk) {
  return {
    ...pk,
    challenge: fromB64u(pk.challenge),
    user: { ...pk.user, id: fromB64u(pk.user.id) },
    excludeCredentials: withIds(pk.excludeCredentials),
  };
}

function requestOptions(pk) {
  return { ...pk, challenge: fromB64u(pk.challenge), allowCredentials: withIds(pk.allowCredentials) };
}

/** Only the client extension results the server reads (no binary ones). */
function extensions(cred) {
  const all = cred.getClientExtensionResults ? cred.getClientExtensionResults() : {};
  return all.credProps ? { credProps: all.credProps } : {};
}

function registrationJSON(cred) {
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toB64u(cred.rawId),
    type: cred.type,
    response: {
      attestationObject: toB64u(r.attestationObject),
      clientDataJSON: toB64u(r.clientDataJSON),
      ...(r.getTransports ? { transports: r.getTransports() } : {}),
    },
    extensions: extensions(cred),
  };
}

function assertionJSON(cred) {
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toB64u(cred.rawId),
    type: cred.type,
    response: {
      authenticatorData: toB64u(r.authenticatorData),
      clientDataJSON: toB64u(r.clientDataJSON),
      signature: toB64u(r.signature),
      userHandle: r.userHandle ? toB64u(r.userHandle) : null,
    },
    extensions: {},
  };
}

/** What to tell a person whose passkey did not work. */
function passkeyMessage(e) {
  if (e && e.name === 'NotAllowedError') return t('passkey-not-used');
  if (e && e.name === 'InvalidStateError') return t('passkey-already-added');
  if (e && e.code === 'challenge_expired') return t('error-challenge_expired');
  if (e && e.code === 'passkey_refused') return t('passkey-refused');
  if (e && e.code === 'passkeys_unavailable') return t('error-passkeys_unavailable');
  const m = String((e && e.message) || t('passkey-failed'));
  return `${m[0].toUpperCase()}${m.slice(1)}${/[.!?]$/.test(m) ? '' : '.'}`;
}

/**
 * Offers passkeys on the sign-in form: a "Sign in with a passkey" button
 * after it, and the browser's offer in the name field where it has one.
 * `signedIn(answer)` runs once the server has started a session. Returns
 * `{ stop() }` (the pending offer is withdrawn when the page changes).
 */
export function offerPasskeySignIn(form, signedIn) {
  if (!passkeysSupported()) return { stop() {} };
  let pending = null; // { controller, done }
  let stopped = false;
  const box = document.createElement('div');
  box.className = 'passkey-signin';
  box.hidden = true;
  box.innerHTML = `<p class="passkey-or muted">${esc(t('passkey-or'))}</p>
    <button type="button" class="btn passkey-signin-button">${esc(t('passkey-sign-in'))}</button>
    <p class="passkey-error account-error" role="alert"></p>`;
  form.after(box);
  const button = box.querySelector('button');
  const error = box.querySelector('.passkey-error');

  const withdraw = async () => {
    if (!pending) return;
    const p = pending;
    pending = null;
    p.controller.abort();
    await p.done.catch(() => {});
  };

  /** One ceremony: `conditional` waits on the name field's offer. */
  const ceremony = async (conditional) => {
    await withdraw();
    const controller = new AbortController();
    const run = (async () => {
      const start = await request('POST', '/api/passkeys/signin/start', {});
      const publicKey = requestOptions(start.options.publicKey);
      const cred = await navigator.credentials.get({
        publicKey,
        signal: controller.signal,
        ...(conditional ? { mediation: 'conditional' } : {}),
      });
      if (!cred) throw new DOMException('no passkey', 'NotAllowedError');
      return request('POST', '/api/passkeys/signin/finish', { challenge: start.challenge, credential: assertionJSON(cred) });
    })();
    pending = { controller, done: run };
    try {
      const answer = await run;
      if (pending && pending.done === run) pending = null;
      await signedIn(answer);
    } catch (e) {
      if (pending && pending.done === run) pending = null;
      if (stopped || controller.signal.aborted || (e && e.name === 'AbortError')) return;
      if (conditional && e && e.code === 'passkeys_unavailable') { box.hidden = true; return; }
      error.textContent = passkeyMessage(e);
      if (conditional && e && e.code === 'challenge_expired') offerInField();
    }
  };

  const offerInField = async () => {
    const available = window.PublicKeyCredential.isConditionalMediationAvailable
      && await window.PublicKeyCredential.isConditionalMediationAvailable().catch(() => false);
    if (available && !stopped) ceremony(true);
  };

  button.addEventListener('click', async () => {
    error.textContent = '';
    button.disabled = true;
    try {
      await ceremony(false);
    } finally {
      button.disabled = false;
      if (!stopped && !pending) offerInField();
    }
  });
  passkeysHere().then((here) => {
    if (!here || stopped) return;
    box.hidden = false;
    offerInField();
  });
  return {
    stop() {
      stopped = true;
      withdraw();
    },
  };
}

function when(ms) {
  return new Date(ms).toLocaleDateString(lang, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The passkeys of the signed-in account, a part of the account page (settings.js). */
export class PasskeysSection {
  /** `onAccountChange` redraws the page when the session turns out to be gone. */
  constructor(root, onAccountChange) {
    this.root = root;
    this.onAccountChange = onAccountChange;
    root.setAttribute('aria-labelledby', 'passkeys-title');
    this.load();
  }

  destroy() {}

  async load() {
    const body = this.root;
    body.innerHTML = `
      <h2 id="passkeys-title">${esc(t('passkeys-title'))}</h2>
      <p class="muted">${esc(t('passkeys-about'))}</p>
      <ul class="passkey-list" aria-labelledby="passkeys-title"></ul>
      <form class="account-form passkey-add" novalidate>
        <label for="passkey-name">${esc(t('passkeys-name-label'))}</label>
        <input id="passkey-name" name="passkeyName" maxlength="40" placeholder="${esc(t('passkeys-name-placeholder'))}" autocomplete="off">
        <button class="btn primary" type="submit">${esc(t('passkeys-add'))}</button>
      </form>
      <p class="passkey-status" role="status" aria-live="polite"></p>`;
    const form = body.querySelector('.passkey-add');
    form.hidden = true;
    passkeysHere().then((here) => {
      form.hidden = !here;
      if (here) return;
      this.say(passkeysSupported() ? t('error-passkeys_unavailable')
        : t('passkeys-no-browser'));
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.add(form);
    });
    try {
      this.render((await request('GET', '/api/passkeys')).passkeys);
    } catch (e) {
      this.say(passkeyMessage(e));
    }
  }

  say(text) {
    const status = this.root.querySelector('.passkey-status');
    if (status) status.textContent = text;
  }

  render(passkeys) {
    const list = this.root.querySelector('.passkey-list');
    if (!list) return;
    list.replaceChildren();
    if (!passkeys.length) {
      const li = document.createElement('li');
      li.className = 'passkey-none muted';
      li.textContent = t('passkeys-none');
      list.append(li);
      return;
    }
    for (const p of passkeys) {
      const li = document.createElement('li');
      li.className = 'passkey-item';
      const text = document.createElement('div');
      const name = document.createElement('strong');
      name.className = 'passkey-name';
      name.textContent = p.name;
      const dates = document.createElement('span');
      dates.className = 'muted passkey-dates';
      dates.textContent = `${t('passkeys-added-on', { date: when(p.created_at) })} · ${p.used_at ? t('passkeys-last-used', { date: when(p.used_at) }) : t('passkeys-not-used')}`;
      text.append(name, document.createElement('br'), dates);
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'btn passkey-remove';
      remove.textContent = t('passkeys-remove');
      remove.setAttribute('aria-label', t('passkeys-remove-named', { name: p.name }));
      remove.addEventListener('click', () => this.remove(p, remove));
      li.append(text, remove);
      list.append(li);
    }
  }

  async add(form) {
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    this.say(t('passkeys-waiting'));
    try {
      const start = await request('POST', '/api/passkeys/register/start', {});
      const cred = await navigator.credentials.create({ publicKey: creationOptions(start.options.publicKey) });
      if (!cred) throw new DOMException('no passkey', 'NotAllowedError');
      const name = form.passkeyName.value.trim();
      const answer = await request('POST', '/api/passkeys/register/finish', {
        challenge: start.challenge,
        credential: registrationJSON(cred),
        ...(name ? { name } : {}),
      });
      form.passkeyName.value = '';
      this.render(answer.passkeys);
      this.say(t('passkeys-added'));
    } catch (e) {
      if (e && e.code === 'not_signed_in') { if (this.onAccountChange) this.onAccountChange(); return; }
      this.say(passkeyMessage(e));
    } finally {
      button.disabled = false;
    }
  }

  async remove(p, button) {
    button.disabled = true;
    try {
      const answer = await request('POST', '/api/passkeys/delete', { id: p.id });
      this.render(answer.passkeys);
      this.say(t('passkeys-removed', { name: p.name }));
      const add = this.root.querySelector('.passkey-add button');
      if (add) add.focus();
    } catch (e) {
      button.disabled = false;
      this.say(passkeyMessage(e));
    }
  }
}
