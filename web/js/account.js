// Accounts (optional: guests play as before): the sign-up and sign-in
// pages (#/signup, #/signin), the recovery code shown once after sign-up,
// a new password set with that code (#/recover, which shows the next code),
// and the signed-in name with "Sign out" in the top bar. The session is an
// HttpOnly cookie the page never reads: GET /api/me says who is signed in.

import { request } from './api.js';
import { esc } from './dom.js';
import { errorText, sentence, t } from './i18n.js';
import { offerPasskeySignIn } from './passkeys.js';

/**
 * Shows who is signed in (or the way to sign in) in the top bar, and says
 * which on the box (`data-account="in" | "out"`): the sign-in link in
 * index.html is there before anyone asked the server.
 */
export async function showAccount() {
  const box = document.getElementById('account-nav');
  if (!box) return;
  let name = null;
  try {
    name = (await request('GET', '/api/me')).name;
  } catch { /* shown as signed out */ }
  if (name === null || name === undefined) {
    box.innerHTML = `<a href="#/signin"><span class="nav-long">${esc(t('nav-sign-in'))}</span><span class="nav-short">${esc(t('nav-sign-in-short'))}</span></a>`;
    box.dataset.account = 'out';
    return;
  }
  // The seats this browser holds become the account's (ratings, profile).
  import('./profile.js').then((m) => m.linkHeldSeats()).catch(() => {});
  box.innerHTML = `<a class="account-link" href="#/account" aria-label="${esc(t('account-of', { name }))}"><span
    class="account-name">${esc(name)}</span><svg class="account-icon" viewBox="0 0 24 24" width="22" height="22"
    aria-hidden="true" focusable="false"><circle cx="12" cy="8" r="4"/><path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7z"/></svg></a>
    <button type="button" class="link account-signout"><svg class="account-icon" viewBox="0 0 24 24" width="22"
    height="22" aria-hidden="true" focusable="false"><path d="M10 3h8a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-8v-2h8V5h-8z"/><path
    d="M9 7l1.4 1.4L8.8 10H16v2H8.8l1.6 1.6L9 15l-4-4z"/></svg><span class="account-signout-text">${esc(t('account-sign-out'))}</span></button>`;
  box.dataset.account = 'in';
  box.querySelector('.account-signout').addEventListener('click', async () => {
    try { await request('POST', '/api/account/signout', {}); } catch { /* the cookie is gone either way */ }
    await showAccount();
    location.hash = '#/';
  });
}

/** #/signup and #/signin: forms password managers understand; #/recover. */
export class AccountScreen {
  constructor(root, mode) {
    this.root = root;
    if (mode === 'recover') {
      this.recoverForm();
      return;
    }
    const up = mode === 'signup';
    root.innerHTML = `
      <div class="account-page">
        <section class="card">
          <h1>${esc(up ? t('account-create-title') : t('nav-sign-in'))}</h1>
          <p class="muted">${up
    ? esc(t('account-why'))
    : `${esc(t('account-none'))} <a href="#/signup">${esc(t('account-create-one'))}</a>${esc(t('account-or-guest'))}`}</p>
          <form class="account-form" method="post" action="#" novalidate>
            <label for="account-name">${esc(t('account-name'))}</label>
            <input id="account-name" name="username" autocomplete="${up ? 'username' : 'username webauthn'}" required maxlength="64"
              autocapitalize="none" spellcheck="false">
            <label for="account-password">${esc(t('account-password'))}</label>
            <input id="account-password" name="password" type="password" required minlength="8" maxlength="256"
              autocomplete="${up ? 'new-password' : 'current-password'}">
            ${up ? `<p class="muted">${esc(t('account-password-min'))}</p>` : ''}
            <p class="account-error" role="alert"></p>
            <button class="btn primary" type="submit">${esc(up ? t('account-create') : t('nav-sign-in'))}</button>
          </form>
          ${up ? `<p>${esc(t('account-have-one'))} <a href="#/signin">${esc(t('nav-sign-in'))}</a>.</p>`
    : `<p><a href="#/recover">${esc(t('recover-forgot'))}</a></p>`}
        </section>
      </div>`;
    const form = root.querySelector('form');
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit(form, up);
    });
    this.passkeys = up ? null : offerPasskeySignIn(form, async () => {
      await showAccount();
      location.hash = '#/';
    });
  }

  destroy() {
    if (this.passkeys) this.passkeys.stop();
  }

  /** #/recover: a new password with the recovery code (every session ends). */
  recoverForm() {
    this.root.innerHTML = `
      <div class="account-page">
        <section class="card">
          <h1>${esc(t('recover-title'))}</h1>
          <p class="muted">${esc(t('recover-why'))}</p>
          <form class="account-form recover-form" method="post" action="#" novalidate>
            <label for="account-name">${esc(t('account-name'))}</label>
            <input id="account-name" name="username" autocomplete="username" required maxlength="64"
              autocapitalize="none" spellcheck="false">
            <label for="recovery-code">${esc(t('recover-code'))}</label>
            <input id="recovery-code" name="code" required maxlength="128" autocomplete="one-time-code"
              autocapitalize="none" spellcheck="false">
            <label for="account-password">${esc(t('settings-new-password'))}</label>
            <input id="account-password" name="password" type="password" required minlength="8" maxlength="256"
              autocomplete="new-password">
            <p class="muted">${esc(t('account-password-min'))}</p>
            <p class="account-error" role="alert"></p>
            <button class="btn primary" type="submit">${esc(t('recover-submit'))}</button>
          </form>
        </section>
      </div>`;
    const form = this.root.querySelector('form');
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const error = form.querySelector('.account-error');
      const button = form.querySelector('button[type=submit]');
      error.textContent = '';
      button.disabled = true;
      try {
        const answer = await request('POST', '/api/account/recover', {
          name: form.username.value, recovery_code: form.code.value.trim(), password: form.password.value,
        });
        await showAccount();
        this.showRecovery(answer, true);
      } catch (err) {
        error.textContent = sentence(errorText(err));
        button.disabled = false;
      }
    });
  }

  async submit(form, up) {
    const error = form.querySelector('.account-error');
    const button = form.querySelector('button[type=submit]');
    error.textContent = '';
    button.disabled = true;
    const body = { name: form.username.value, password: form.password.value };
    try {
      const answer = await request('POST', up ? '/api/account/signup' : '/api/account/signin', body);
      await showAccount();
      if (up) this.showRecovery(answer);
      else location.hash = '#/';
    } catch (e) {
      error.textContent = sentence(errorText(e));
      button.disabled = false;
    }
  }

  /** The recovery code, this once (after a recovery: the next one). */
  showRecovery(answer, recovered = false) {
    this.root.innerHTML = `
      <div class="account-page">
        <section class="card">
          <h1>${esc(t(recovered ? 'recover-done' : 'account-welcome', { name: answer.name }))}</h1>
          <p>${esc(t(recovered ? 'recover-next-code' : 'account-recovery'))}</p>
          <p><code class="recovery-code">${esc(answer.recovery_code)}</code></p>
          <p>${esc(t('account-passkey-also'))} <a href="#/account">${esc(t('account-add-passkey'))}</a></p>
          <a class="btn primary" href="#/">${esc(t('done'))}</a>
        </section>
      </div>`;
  }
}
