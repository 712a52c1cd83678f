// The account page (#/account) of a signed-in player: change the password
// (the other sessions end), the passkeys (passkeys.js), sign out on every
// device, and delete the account (the password asked again). Each form
// says what happened in its own live region; nothing here reads the
// session cookie (HttpOnly): GET /api/me says who is signed in, and
// whether they are an operator (a link to the admin page, #/admin).

import { request } from './api.js';
import { esc } from './dom.js';
import { errorText, sentence, t } from './i18n.js';
import { BlocksSection } from './moderation.js';
import { PasskeysSection } from './passkeys.js';

export class SettingsScreen {
  /** `onAccountChange` redraws the top bar after signing out or deleting. */
  constructor(root, onAccountChange) {
    this.root = root;
    this.onAccountChange = onAccountChange;
    this.passkeys = null;
    root.innerHTML = `
      <div class="account-page settings-page">
        <section class="card" aria-labelledby="settings-title">
          <h1 id="settings-title">${esc(t('settings-title'))}</h1>
          <p class="account-who muted"></p>
        </section>
        <div class="settings-body"></div>
      </div>`;
    this.load();
  }

  destroy() {
    if (this.passkeys) this.passkeys.destroy();
  }

  async load() {
    const who = this.root.querySelector('.account-who');
    const body = this.root.querySelector('.settings-body');
    let me = null;
    try { me = await request('GET', '/api/me'); } catch { /* shown as signed out */ }
    if (!me || me.name === null || me.name === undefined) {
      who.innerHTML = `${esc(t('settings-signed-out'))} <a href="#/signin">${esc(t('nav-sign-in'))}</a>`;
      return;
    }
    const name = me.name;
    who.innerHTML = `${esc(t('settings-signed-in-as', { name }))}
      <a href="#/player/${encodeURIComponent(name)}">${esc(t('account-profile'))}</a>`;
    body.innerHTML = `
      ${me.admin ? `<section class="card settings-admin" aria-labelledby="admin-link-title">
        <h2 id="admin-link-title">${esc(t('admin-title'))}</h2>
        <p class="muted">${esc(t('admin-link-text'))}</p>
        <a class="btn" href="#/admin">${esc(t('admin-open'))}</a>
      </section>` : ''}
      <section class="card" aria-labelledby="password-title">
        <h2 id="password-title">${esc(t('settings-password-title'))}</h2>
        <form class="account-form settings-password" method="post" action="#" novalidate>
          <input type="text" name="username" autocomplete="username" value="${esc(name)}" hidden>
          <label for="current-password">${esc(t('settings-current-password'))}</label>
          <input id="current-password" name="current" type="password" required maxlength="256"
            autocomplete="current-password">
          <label for="new-password">${esc(t('settings-new-password'))}</label>
          <input id="new-password" name="new" type="password" required minlength="8" maxlength="256"
            autocomplete="new-password" aria-describedby="new-password-hint">
          <p id="new-password-hint" class="muted">${esc(t('account-password-min'))} ${esc(t('settings-password-others'))}</p>
          <p class="account-error" role="alert"></p>
          <p class="settings-done" role="status"></p>
          <button class="btn primary" type="submit">${esc(t('settings-password-change'))}</button>
        </form>
      </section>
      <section class="card settings-passkeys"></section>
      <section class="card settings-blocks"></section>
      <section class="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">${esc(t('settings-sessions-title'))}</h2>
        <p class="muted">${esc(t('settings-sessions-text'))}</p>
        <p class="account-error settings-sessions-error" role="alert"></p>
        <button class="btn settings-everywhere" type="button">${esc(t('settings-sign-out-everywhere'))}</button>
      </section>
      <section class="card settings-danger" aria-labelledby="delete-title">
        <h2 id="delete-title">${esc(t('settings-delete-title'))}</h2>
        <p>${esc(t('settings-delete-text'))}</p>
        <form class="account-form settings-delete" method="post" action="#" novalidate>
          <input type="text" name="username" autocomplete="username" value="${esc(name)}" hidden>
          <label for="delete-password">${esc(t('settings-delete-password'))}</label>
          <input id="delete-password" name="password" type="password" required maxlength="256"
            autocomplete="current-password">
          <p class="account-error" role="alert"></p>
          <button class="btn danger" type="submit">${esc(t('settings-delete-button'))}</button>
        </form>
      </section>`;
    new BlocksSection(body.querySelector('.settings-blocks'));
    this.passkeys = new PasskeysSection(body.querySelector('.settings-passkeys'), async () => {
      await this.onAccountChange();
      this.load();
    });
    const password = body.querySelector('.settings-password');
    password.addEventListener('submit', (e) => {
      e.preventDefault();
      this.changePassword(password);
    });
    body.querySelector('.settings-everywhere').addEventListener('click', () => this.signOutEverywhere());
    const del = body.querySelector('.settings-delete');
    del.addEventListener('submit', (e) => {
      e.preventDefault();
      this.deleteAccount(del);
    });
  }

  /** Runs `act` with the form's button disabled; a refusal is said in the form. */
  async guarded(form, act) {
    const error = form.querySelector('.account-error');
    const button = form.querySelector('button[type=submit]');
    error.textContent = '';
    button.disabled = true;
    try {
      await act();
    } catch (e) {
      error.textContent = sentence(errorText(e));
    } finally {
      button.disabled = false;
    }
  }

  changePassword(form) {
    const done = form.querySelector('.settings-done');
    done.textContent = '';
    return this.guarded(form, async () => {
      if (form.new.value.length < 8) throw new Error(t('account-password-min'));
      await request('POST', '/api/account/password', { current: form.current.value, new: form.new.value });
      form.current.value = '';
      form.new.value = '';
      done.textContent = t('settings-password-changed');
    });
  }

  async signOutEverywhere() {
    const error = this.root.querySelector('.settings-sessions-error');
    error.textContent = '';
    try {
      await request('POST', '/api/account/signout-everywhere', {});
    } catch (e) {
      error.textContent = sentence(errorText(e));
      return;
    }
    await this.onAccountChange();
    location.hash = '#/signin';
  }

  deleteAccount(form) {
    return this.guarded(form, async () => {
      await request('POST', '/api/account/delete', { password: form.password.value });
      await this.onAccountChange();
      this.root.innerHTML = `
        <div class="account-page">
          <section class="card">
            <h1 tabindex="-1">${esc(t('settings-deleted-title'))}</h1>
            <p>${esc(t('settings-deleted-text'))}</p>
            <a class="btn primary" href="#/">${esc(t('done'))}</a>
          </section>
        </div>`;
      this.root.querySelector('h1').focus();
    });
  }
}
