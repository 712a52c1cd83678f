// The operator's page (#/admin; docs/web.md, "Blocking and reporting"): the
// players' reports, newest first (the open ones, or all), each with what
// was reported, whom, why, the line's text, the note, the reporter, when,
// how many open reports there are against that account, and whether it is
// muted or closed now; and what the operator does about it: mute (a choice
// of hours, or lift the mute), rename, close (confirmed: nothing reopens an
// account), resolve. Only for the accounts `serve --admin` names: to anyone
// else the server answers as for a page it does not have, and this page
// sends them to the front page. The outcome of each action is said in a
// live region at the page's top; a refusal beside the report it is about.
// Each report's buttons are described by its heading (a screen reader says
// whom they act on). Text from the server goes in as text, never as HTML.

import { request } from './api.js';
import { esc } from './dom.js';
import { errorText, intl, t } from './i18n.js';

export const adminApi = {
  reports: (all) => request('GET', `/api/admin/reports${all ? '?all=1' : ''}`),
  mute: (name, hours) => request('POST', '/api/admin/mute', { name, hours }),
  rename: (name, newName) => request('POST', '/api/admin/rename', { name, new: newName }),
  close: (name) => request('POST', '/api/admin/close', { name }),
  resolve: (report) => request('POST', '/api/admin/resolve', { report }),
};

/** The mutes offered, in hours (0 lifts a mute). */
export const MUTE_HOURS = [1, 24, 72, 168, 720, 0];

function hoursText(h) {
  if (h === 0) return t('admin-unmute');
  return h % 24 === 0 ? t('admin-days', { n: h / 24 }) : t('admin-hours', { n: h });
}

function when(ms) {
  return intl(Intl.DateTimeFormat, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

/** Whom a report is about, as its heading says it. */
function whom(r) {
  if (!r.member) return t('admin-whom-guest', { name: r.name });
  if (r.name_now === null) return t('admin-whom-deleted', { name: r.name });
  if (r.name_now !== r.name) return t('admin-whom-renamed', { name: r.name, now: r.name_now });
  return r.name;
}

function reportHtml(r) {
  const id = `admin-report-${r.id}`;
  const title = r.what === 'chat' ? t('admin-what-chat', { name: whom(r) }) : t('admin-what-name', { name: whom(r) });
  const facts = [
    [t('admin-reason'), esc(t(`mod-reason-${r.reason}`))],
    [t('admin-reporter'), r.reporter === null ? esc(t('admin-reporter-guest')) : `<a href="#/player/${encodeURIComponent(r.reporter)}">${esc(r.reporter)}</a>`],
    [t('admin-when'), `<time datetime="${new Date(r.at).toISOString()}">${esc(when(r.at))}</time>`],
  ];
  if (r.member) facts.push([t('admin-against'), esc(intl(Intl.NumberFormat).format(r.against))]);
  if (r.game) facts.push([t('admin-game'), `<a href="#/game/${encodeURIComponent(r.game)}">${esc(r.game)}</a>`]);
  const state = [];
  if (r.muted_until !== null && r.muted_until > Date.now()) state.push(t('admin-state-muted', { until: when(r.muted_until) }));
  if (r.closed_at !== null) state.push(t('admin-state-closed', { when: when(r.closed_at) }));
  if (state.length) facts.push([t('admin-state'), `<strong>${esc(state.join(' · '))}</strong>`]);
  if (r.resolved_at !== null) facts.push([t('admin-resolved-at'), `<time datetime="${new Date(r.resolved_at).toISOString()}">${esc(when(r.resolved_at))}</time>`]);
  const name = r.name_now;
  // A closed account can still be renamed; muting or closing it again does nothing.
  const open = r.closed_at === null;
  const actions = name === null ? '' : `
    <div class="admin-actions">
      ${open ? `<form class="admin-mute" data-name="${esc(name)}" novalidate>
        <label for="${id}-hours">${esc(t('admin-mute-for'))}</label>
        <select id="${id}-hours" name="hours">${MUTE_HOURS.map((h) => `<option value="${h}"${h === 24 ? ' selected' : ''}>${esc(hoursText(h))}</option>`).join('')}</select>
        <button type="submit" class="btn small" aria-describedby="${id}">${esc(t('admin-mute'))}</button>
      </form>` : ''}
      <form class="admin-rename" data-name="${esc(name)}" novalidate>
        <label for="${id}-new">${esc(t('admin-new-name'))}</label>
        <input id="${id}-new" name="new" required maxlength="64" autocomplete="off" autocapitalize="none" spellcheck="false">
        <button type="submit" class="btn small" aria-describedby="${id}">${esc(t('admin-rename'))}</button>
      </form>
      ${open ? `<button type="button" class="btn small danger" data-act="close" data-name="${esc(name)}"
        aria-describedby="${id}">${esc(t('admin-close'))}</button>` : ''}
    </div>`;
  return `<li class="card admin-report${r.resolved_at !== null ? ' resolved' : ''}" data-id="${r.id}" aria-labelledby="${id}">
    <h2 id="${id}" tabindex="-1">${esc(title)}</h2>
    <dl class="admin-facts">${facts.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${v}</dd></div>`).join('')}</dl>
    ${r.text !== null ? `<blockquote class="report-line">${esc(r.text)}</blockquote>` : ''}
    ${r.note ? `<p class="admin-note"><span class="muted">${esc(t('admin-note'))}</span> ${esc(r.note)}</p>` : ''}
    ${actions}
    ${r.resolved_at === null ? `<button type="button" class="btn small primary" data-act="resolve"
      aria-describedby="${id}">${esc(t('admin-resolve'))}</button>` : ''}
    <p class="account-error admin-error" role="alert"></p>
  </li>`;
}

export class AdminScreen {
  constructor(root) {
    this.root = root;
    this.all = false;
    document.title = t('admin-page-title');
    root.innerHTML = `
      <div class="admin-page">
        <section class="card admin-head" aria-labelledby="admin-title">
          <h1 id="admin-title" tabindex="-1">${esc(t('admin-title'))}</h1>
          <p class="muted">${esc(t('admin-about'))}</p>
          <label class="admin-all"><input type="checkbox" name="all"> ${esc(t('admin-show-all'))}</label>
        </section>
        <p class="admin-outcome" role="status" aria-live="polite"></p>
        <p class="muted admin-loading">${esc(t('admin-loading'))}</p>
        <p class="muted admin-none" hidden></p>
        <ul class="admin-list"></ul>
      </div>`;
    root.querySelector('input[name="all"]').addEventListener('change', (e) => {
      this.all = e.target.checked;
      this.load();
    });
    const list = root.querySelector('.admin-list');
    list.addEventListener('submit', (e) => {
      e.preventDefault();
      const form = e.target;
      if (form.classList.contains('admin-mute')) this.mute(form);
      if (form.classList.contains('admin-rename')) this.rename(form);
    });
    list.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-act]');
      if (!b) return;
      if (b.dataset.act === 'close') this.close(b);
      if (b.dataset.act === 'resolve') this.resolve(b);
    });
    this.load();
  }

  destroy() {
    document.title = t('app-title');
  }

  /** Reads the reports again; then the focus goes back to report `focusId`'s heading (or the page's). */
  async load(focusId = null) {
    let answer;
    try {
      answer = await adminApi.reports(this.all);
    } catch (e) {
      if (e.status === 404) { location.replace('#/'); return; }
      this.root.querySelector('.admin-loading').textContent = errorText(e);
      return;
    }
    this.root.querySelector('.admin-loading').hidden = true;
    const none = this.root.querySelector('.admin-none');
    none.textContent = t(this.all ? 'admin-none-all' : 'admin-none');
    none.hidden = answer.reports.length > 0;
    this.root.querySelector('.admin-list').innerHTML = answer.reports.map(reportHtml).join('');
    if (focusId !== null) {
      const h = this.root.querySelector(`[data-id="${focusId}"] h2`) || this.root.querySelector('#admin-title');
      h.focus();
    }
  }

  /** Runs `action` for the report holding `el`: its outcome said, the list read again; a refusal said beside it. */
  async act(el, action) {
    const item = el.closest('.admin-report');
    const error = item.querySelector('.admin-error');
    const buttons = [...item.querySelectorAll('button')];
    error.textContent = '';
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const said = await action();
      this.root.querySelector('.admin-outcome').textContent = said;
      await this.load(item.dataset.id);
    } catch (e) {
      error.textContent = errorText(e);
      buttons.forEach((b) => { b.disabled = false; });
    }
  }

  mute(form) {
    const hours = Number(form.hours.value);
    this.act(form, async () => {
      const v = await adminApi.mute(form.dataset.name, hours);
      return v.muted_until === null ? t('admin-unmuted', { name: v.name })
        : t('admin-muted', { name: v.name, until: when(v.muted_until) });
    });
  }

  rename(form) {
    this.act(form, async () => {
      const v = await adminApi.rename(form.dataset.name, form.new.value);
      return t('admin-renamed', { was: v.was, name: v.name });
    });
  }

  close(button) {
    const name = button.dataset.name;
    if (!window.confirm(t('admin-close-confirm', { name }))) return;
    this.act(button, async () => {
      const v = await adminApi.close(name);
      return t(v.closed ? 'admin-closed' : 'admin-closed-already', { name: v.name });
    });
  }

  resolve(button) {
    const id = Number(button.closest('.admin-report').dataset.id);
    this.act(button, async () => {
      await adminApi.resolve(id);
      return t('admin-resolved', { id });
    });
  }
}
