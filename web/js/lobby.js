// The lobby (#/lobby): "Play now" (paired with someone waiting for the same
// rule family, the standard preset or the Big Box, or a bot after the wait
// chosen), open tables (each saying its rules, and its host's rating in its pool) listed live over /api/lobby/ws, a
// table to open (its seats kept for regulars, people with a history, if the
// host asks), seats to sit down at and stand up from. The page's socket
// holds what it opened, sat at or waits for: those live while it is open
// (the server lets them go when it closes), and the page holds them again
// when it reconnects. The seat token a sit-down hands over is kept like
// every other seat's (api.js addTokens) once the table's game starts;
// until then it is kept here, per table.

import { ApiError, addTokens, lastName, rememberName, request } from './api.js';
import { clockOfChoice, clockOptions } from './clock.js';
import { dismissToast, esc, toast } from './dom.js';
import { errorText, has, intl, lang, t } from './i18n.js';
import { headlineOf, poolWords, presetName } from './rules.js';

const SEATS_KEY = 'carcassonne.lobby';
/** The refusal of a message the socket could not carry (not open, or closed before the answer). */
const noConnection = () => new ApiError({ error: 'network', message: t('error-network') }, 0);
const DEVICE_KEY = 'carcassonne.lobby.device';

/**
 * This browser's own id, kept in its storage (shared by its tabs): the
 * server never pairs two waits of one device, nor lets it wait twice.
 */
function deviceId() {
  try {
    let id = localStorage.getItem(DEVICE_KEY);
    if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
      id = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
      localStorage.setItem(DEVICE_KEY, id);
    }
    return id;
  } catch {
    return null; // private mode: the address still tells people apart
  }
}

function loadSeats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}') || {}; } catch { return {}; }
}

function saveSeats(all) {
  try { localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch { /* private mode: seats last this tab */ }
}

function keepSeat(table, seat, token, host) {
  const all = loadSeats();
  all[table] = { seat, token, host };
  saveSeats(all);
}

function dropSeat(table) {
  const all = loadSeats();
  delete all[table];
  saveSeats(all);
}

/** A time control (the clocks' JSON, `null` for none) in words. */
function clockWords(clock) {
  if (clock && clock.kind === 'realtime') return t('clock-realtime', { m: clock.minutes, s: clock.increment || 0 });
  if (clock && clock.kind === 'turn') return t('clock-turn', { n: clock.days });
  return t('clock-none');
}

/** A bot level's name: the message for the built-in ones, else as the server says it. */
function levelName(name) {
  return has(`bot-level-${name}`) ? t(`bot-level-${name}`) : name;
}

/** The presets a table may play: the new-game form's (the Big Box's among them, rated in pools of its own). */
function tablePresets(options) {
  return (options.presets || []).map((p) => p.name);
}

/** A rating as a whole number, without a thousands separator (ratings read as one figure). */
const ratingText = (r) => intl(Intl.NumberFormat, { maximumFractionDigits: 0, useGrouping: false }).format(r);

export class LobbyScreen {
  constructor(root, options) {
    this.root = root;
    this.options = options;
    this.tables = new Map();
    this.ws = null;
    this.closed = false;
    this.wait = null; // { id, token, since, timer }
    this.asked = new Map(); // ref → { resolve, reject }
    this.nextRef = 1;
    this.otherSeats = [{ kind: 'open' }];
    // "Your table is open", "You sat down": true while the table waits, let go when it starts or closes.
    this.tableToasts = new Set();
    this.render();
    this.showAccountName();
    this.connect();
  }

  destroy() {
    this.closed = true;
    this.dropTableToasts();
    clearTimeout(this.reconnectTimer);
    if (this.wait) clearInterval(this.wait.timer);
    // Closing the socket lets go of what it holds: the page's open tables close, its wait ends.
    if (this.ws) this.ws.close();
  }

  /** Lets the toasts about a table waiting go (its game started, or it closed). */
  dropTableToasts() {
    for (const el of this.tableToasts) dismissToast(el);
    this.tableToasts.clear();
  }

  /** Signed in, a person sits under their account's name: the name fields show it, not to be changed. */
  async showAccountName() {
    let name = null;
    try { name = (await request('GET', '/api/me')).name; } catch { /* a guest */ }
    if (name === null || name === undefined || this.closed) return;
    for (const input of this.root.querySelectorAll('.pn-name, .ot-name')) {
      input.value = name;
      input.readOnly = true;
      input.title = t('lobby-signed-in-name', { name });
    }
  }

  levels(selected) {
    const levels = this.options.bot_levels || [];
    const chosen = selected || this.options.default_bot_level;
    return levels.map((l) => `<option value="${esc(l.name)}" ${l.name === chosen ? 'selected' : ''}>${esc(l.program ? l.name : levelName(l.name))}</option>`).join('');
  }

  render() {
    const presetTitle = (name) => (has(`lobby-preset-${name}`) ? t(`lobby-preset-${name}`) : name);
    const presets = tablePresets(this.options).map((name) => `<option value="${esc(name)}">${esc(presetTitle(name))}</option>`).join('');
    this.root.innerHTML = `
      <div class="lobby">
        <h1>${esc(t('lobby-title'))}</h1>
        <p><a href="#/watch">${esc(t('lobby-watch'))}</a></p>
        <div class="lobby-grid">
          <section class="card play-now" aria-labelledby="play-now-title">
            <h2 id="play-now-title">${esc(t('lobby-play-now'))}</h2>
            <p class="muted">${esc(t('lobby-play-now-about'))}</p>
            <label class="opt">${esc(t('lobby-your-name'))} <input class="pn-name" autocomplete="nickname" maxlength="40" value="${esc(lastName())}"></label>
            <label class="opt">${esc(t('lobby-bot-after'))}
              <select class="pn-after">
                <option value="15">${esc(t('clock-seconds', { n: 15 }))}</option><option value="30" selected>${esc(t('clock-seconds', { n: 30 }))}</option>
                <option value="60">${esc(t('clock-minutes', { n: 1 }))}</option><option value="">${esc(t('lobby-never'))}</option>
              </select></label>
            <label class="opt">${esc(t('seat-bot-level'))} <select class="pn-level">${this.levels()}</select></label>
            <label class="opt">${esc(t('clock-control'))} <select class="pn-clock">${clockOptions()}</select></label>
            <label class="opt">${esc(t('lobby-pn-rules'))} <select class="pn-rules">
                <option value="base">${esc(t('lobby-pn-rules-base'))}</option><option value="big-box">${esc(t('lobby-pn-rules-big-box'))}</option>
              </select></label>
            <div class="row">
              <button class="btn primary big pn-go" type="button">${esc(t('lobby-play-now'))}</button>
              <button class="btn pn-cancel" type="button" hidden>${esc(t('lobby-stop-waiting'))}</button>
            </div>
            <p class="pn-status" role="status" aria-live="polite"></p>
          </section>
          <section class="card open-table" aria-labelledby="open-title">
            <h2 id="open-title">${esc(t('lobby-open-title'))}</h2>
            <label class="opt">${esc(t('lobby-your-name'))} <input class="ot-name" autocomplete="nickname" maxlength="40" value="${esc(lastName())}"></label>
            <fieldset class="ot-seats"><legend>${esc(t('lobby-other-seats'))}</legend><div class="ot-seat-list"></div>
              <button class="link ot-add" type="button">${esc(t('lobby-add-seat'))}</button></fieldset>
            <label class="opt">${esc(t('home-rules'))} <select class="ot-preset">${presets}</select></label>
            <label class="opt">${esc(t('clock-control'))} <select class="ot-clock">${clockOptions()}</select></label>
            <label class="opt check"><input type="checkbox" class="ot-rated"><span>${esc(t('lobby-rated'))}</span></label>
            <label class="opt check"><input type="checkbox" class="ot-known"><span>${esc(t('lobby-known-only'))}</span></label>
            <button class="btn primary ot-go" type="button">${esc(t('lobby-open-go'))}</button>
          </section>
        </div>
        <section class="card tables-card" aria-labelledby="tables-title">
          <h2 id="tables-title">${esc(t('lobby-tables-title'))}</h2>
          <p class="lobby-live muted" role="status" aria-live="polite">${esc(t('lobby-connecting'))}</p>
          <ul class="lobby-tables"></ul>
        </section>
      </div>`;
    this.renderSeatForm();
    const $ = (s) => this.root.querySelector(s);
    $('.pn-go').addEventListener('click', () => this.playNow());
    $('.pn-cancel').addEventListener('click', () => this.stopWaiting());
    $('.ot-add').addEventListener('click', () => {
      if (this.otherSeats.length < 5) this.otherSeats.push({ kind: 'open' });
      this.renderSeatForm();
    });
    $('.ot-go').addEventListener('click', () => this.openTable());
    $('.lobby-tables').addEventListener('click', (e) => this.onTableClick(e));
  }

  renderSeatForm() {
    const list = this.root.querySelector('.ot-seat-list');
    list.innerHTML = this.otherSeats.map((s, i) => `
      <div class="ot-seat" data-i="${i}">
        <label>${esc(t('lobby-seat', { n: i + 2 }))}
          <select class="ot-kind"><option value="open" ${s.kind === 'open' ? 'selected' : ''}>${esc(t('lobby-seat-open'))}</option>
            <option value="bot" ${s.kind === 'bot' ? 'selected' : ''}>${esc(t('seat-bot'))}</option></select></label>
        ${s.kind === 'bot' ? `<label>${esc(t('lobby-level'))} <select class="ot-level">${this.levels(s.level)}</select></label>` : ''}
        ${this.otherSeats.length > 1 ? `<button class="link ot-remove" type="button" aria-label="${esc(t('lobby-remove-seat', { n: i + 2 }))}">${esc(t('seat-remove'))}</button>` : ''}
      </div>`).join('');
    list.querySelectorAll('.ot-seat').forEach((row) => {
      const i = Number(row.dataset.i);
      row.querySelector('.ot-kind').addEventListener('change', (e) => {
        this.otherSeats[i] = e.target.value === 'bot' ? { kind: 'bot', level: this.options.default_bot_level } : { kind: 'open' };
        this.renderSeatForm();
      });
      row.querySelector('.ot-level')?.addEventListener('change', (e) => { this.otherSeats[i].level = e.target.value; });
      row.querySelector('.ot-remove')?.addEventListener('click', () => {
        this.otherSeats.splice(i, 1);
        this.renderSeatForm();
      });
    });
    this.root.querySelector('.ot-add').hidden = this.otherSeats.length >= 5;
  }

  // --- the live list ---------------------------------------------------------

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const device = deviceId();
    const ws = new WebSocket(`${proto}://${location.host}/api/lobby/ws${device ? `?device=${device}` : ''}`);
    this.ws = ws;
    const again = this.connectedOnce;
    this.connectedOnce = true;
    ws.addEventListener('open', () => this.holdAgain(again));
    ws.addEventListener('message', (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.ref !== undefined && this.asked.has(m.ref)) {
        const { resolve, reject } = this.asked.get(m.ref);
        this.asked.delete(m.ref);
        if (m.type === 'error') reject(new ApiError(m, 0));
        else resolve(m);
        return;
      }
      if (m.type === 'tables') {
        this.tables = new Map(m.tables.map((x) => [x.id, x]));
        // Whether this person has a history: the seats of tables kept for such people are theirs to take.
        this.known = m.known === true;
        this.root.querySelector('.lobby-live').textContent = t('lobby-live');
        this.renderTables();
      } else if (m.type === 'table') {
        // Said once, in the status line (the list itself is redrawn quietly).
        if (!this.tables.has(m.table.id) && m.table.state === 'open') this.say(t('lobby-new-table', { host: m.table.host, free: m.table.free }));
        this.tables.set(m.table.id, m.table);
        this.renderTables();
      } else if (m.type === 'gone') {
        const gone = this.tables.get(m.id);
        if (gone && gone.state === 'open') this.say(t('lobby-table-gone', { host: gone.host }));
        this.tables.delete(m.id);
        if (loadSeats()[m.id]) {
          dropSeat(m.id);
          this.dropTableToasts();
          toast(t('lobby-your-table-gone'));
        }
        this.renderTables();
      } else if (m.type === 'wait') {
        if (this.wait && this.wait.id === m.wait.id) this.onWait(m.wait);
      } else if (m.type === 'wait-gone') {
        if (this.wait && this.wait.id === m.id) this.waitEnded();
      }
    });
    ws.addEventListener('close', () => {
      for (const { reject } of this.asked.values()) reject(noConnection());
      this.asked.clear();
      if (this.closed) return;
      this.root.querySelector('.lobby-live').textContent = t('lobby-reconnecting');
      this.reconnectTimer = setTimeout(() => this.connect(), 2000);
    });
  }

  /** Sends `msg` on the socket: the answer naming it (an `ApiError` for a refusal, or no connection). */
  ask(msg) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(noConnection());
    const ref = this.nextRef++;
    return new Promise((resolve, reject) => {
      this.asked.set(ref, { resolve, reject });
      ws.send(JSON.stringify({ ...msg, ref }));
    });
  }

  /**
   * On a socket: the seats this browser keeps, held again (another tab of
   * it may hold them too); those that went are let go, said only when this
   * page had been holding them (`again`: a reconnection).
   */
  async holdAgain(again) {
    for (const [id, s] of Object.entries(loadSeats())) {
      this.ask({ type: 'hold', table: id, token: s.token }).catch((err) => {
        if (err.code === 'not_found' || err.code === 'unauthorized') {
          dropSeat(id);
          if (again) toast(t('lobby-your-table-gone'));
          this.renderTables();
        }
      });
    }
    if (this.wait) {
      const { id, token } = this.wait;
      try {
        const r = await this.ask({ type: 'hold', wait: id, token });
        if (this.wait && this.wait.id === id) this.onWait(r.wait);
      } catch (err) {
        if (this.wait && this.wait.id === id && err.code !== 'network') this.waitEnded();
      }
    }
  }

  /** A word for screen readers (and everyone) in the list's status line. */
  say(text) {
    const live = this.root.querySelector('.lobby-live');
    if (live) live.textContent = text;
  }

  /** A table's rules in a sentence: the engine's (English), or the same from the messages (or none). */
  headline(tb) {
    const rules = tb.rules || {};
    const preset = (this.options.presets || []).find((p) => p.name === (rules.preset || 'standard'));
    if (lang === 'en') return tb.headline;
    // A preset the form's options leave out (the Big Box, while the new-game
    // form does not offer it): its name says it, in the table's facts.
    return preset ? headlineOf(preset, rules) : '';
  }

  renderTables() {
    const seats = loadSeats();
    // The button in focus keeps it through the redraw (keyboard users).
    const focused = document.activeElement?.closest?.('.lobby-tables button');
    const keep = focused ? { cls: [...focused.classList].find((c) => ['sit', 'stand', 'start'].includes(c)), table: focused.dataset.table, seat: focused.dataset.seat } : null;
    // A table I sit at has started: off to the game.
    for (const tb of this.tables.values()) {
      const mine = seats[tb.id];
      if (mine && tb.state === 'started' && tb.game) {
        addTokens(tb.game, [mine.token]);
        dropSeat(tb.id);
        this.dropTableToasts();
        location.hash = `#/game/${tb.game}`;
        return;
      }
    }
    const list = this.root.querySelector('.lobby-tables');
    const open = [...this.tables.values()].filter((tb) => tb.state === 'open');
    if (!open.length) {
      list.innerHTML = `<li class="muted">${esc(t('lobby-no-tables'))}</li>`;
      return;
    }
    list.innerHTML = open.map((tb) => {
      const mine = seats[tb.id];
      const seatItems = tb.seats.map((s, i) => {
        let who;
        if (s.kind === 'open') {
          who = mine ? `<span class="muted">${esc(t('lobby-open'))}</span>`
            : tb.known_only && !this.known ? `<span class="muted">${esc(t('lobby-known-only-seat'))}</span>`
            : `<button class="btn small sit" type="button" data-table="${esc(tb.id)}" data-seat="${i}" aria-label="${esc(t('lobby-sit-label', { n: i + 1, host: tb.host }))}">${esc(t('lobby-sit'))}</button>`;
        } else if (s.kind === 'bot') {
          who = `${esc(s.name)} <span class="muted">${esc(t('lobby-bot-seat', { level: levelName(s.level) }))}</span>`;
        } else {
          who = `${esc(s.name)}${s.host ? ` <span class="muted">${esc(t('lobby-host'))}</span>` : ''}${mine && mine.seat === i ? ` <strong>${esc(t('lobby-you'))}</strong>` : ''}`;
        }
        return `<li>${esc(t('lobby-seat-of', { n: i + 1 }))} ${who}</li>`;
      }).join('');
      const actions = !mine ? ''
        : mine.host
          ? `<button class="btn primary small start" type="button" data-table="${esc(tb.id)}">${esc(t('lobby-start'))}</button>
             <button class="btn small stand" type="button" data-table="${esc(tb.id)}">${esc(t('lobby-close-table'))}</button>`
          : `<button class="btn small stand" type="button" data-table="${esc(tb.id)}">${esc(t('lobby-stand'))}</button>`;
      const preset = (tb.rules && tb.rules.preset) || 'standard';
      const facts = [t('lobby-table-rules', { preset: presetName(preset) }), clockWords(tb.clock), t('lobby-seats-free', { free: tb.free, total: tb.seats.length })];
      // The host's rating in the table's pool (its players' count and rule family).
      if (tb.rating != null) facts.push(t('lobby-host-rating', { rating: `${ratingText(tb.rating)}${tb.provisional ? '?' : ''}`, pool: poolWords(tb.pool) }));
      return `
        <li class="lobby-table" data-id="${esc(tb.id)}" data-preset="${esc(preset)}" data-pool="${esc(tb.pool || '')}">
          <h3>${esc(t('lobby-table-of', { host: tb.host }))} <span class="badge">${esc(t(tb.rated ? 'lobby-badge-rated' : 'lobby-badge-casual'))}</span>${tb.known_only ? ` <span class="badge">${esc(t('lobby-badge-known'))}</span>` : ''}</h3>
          <p>${esc(this.headline(tb))} <a href="#/rules/${encodeURIComponent(tb.rules_code)}">${esc(t('lobby-the-rules'))}</a></p>
          <p class="muted">${facts.map(esc).join(' · ')}</p>
          <ul class="lobby-seats" aria-label="${esc(t('lobby-seats'))}">${seatItems}</ul>
          ${actions ? `<div class="row">${actions}</div>` : ''}
        </li>`;
    }).join('');
    if (keep && keep.cls) {
      const again = [...list.querySelectorAll(`button.${keep.cls}`)].find((b) => b.dataset.table === keep.table && (keep.seat === undefined || b.dataset.seat === keep.seat));
      (again || list.querySelector(`.lobby-table[data-id="${CSS.escape(keep.table || '')}"] button`))?.focus();
    }
  }

  async onTableClick(e) {
    const btn = e.target.closest('button');
    if (!btn) return;
    const id = btn.dataset.table;
    const mine = loadSeats()[id];
    try {
      if (btn.classList.contains('sit')) {
        const name = this.root.querySelector('.ot-name').value.trim() || this.root.querySelector('.pn-name').value.trim();
        if (name) rememberName(name);
        const r = await this.ask({ type: 'sit', table: id, seat: Number(btn.dataset.seat), ...(name ? { name } : {}) });
        keepSeat(id, r.seat, r.token, false);
        this.tableToasts.add(toast(t('lobby-sat-down')));
        this.tables.set(r.table.id, r.table);
        this.renderTables();
      } else if (btn.classList.contains('stand') && mine) {
        await request('POST', `/api/lobby/tables/${encodeURIComponent(id)}/stand`, { token: mine.token });
        dropSeat(id);
        this.renderTables();
      } else if (btn.classList.contains('start') && mine) {
        const r = await request('POST', `/api/lobby/tables/${encodeURIComponent(id)}/start`, { token: mine.token });
        this.tables.set(r.table.id, r.table);
        this.renderTables();
      }
    } catch (err) {
      if (err.code === 'unauthorized' || err.code === 'not_found') dropSeat(id);
      toast(errorText(err), 'error', 5000);
    }
  }

  async openTable() {
    const $ = (s) => this.root.querySelector(s);
    const name = $('.ot-name').value.trim();
    if (name) rememberName(name);
    const clock = clockOfChoice($('.ot-clock').value);
    const body = {
      ...(name ? { name } : {}),
      seats: [{ kind: 'me' }, ...this.otherSeats.map((s) => (s.kind === 'bot' ? { kind: 'bot', level: s.level } : { kind: 'open' }))],
      rules: { preset: $('.ot-preset').value || 'standard' },
      ...(clock ? { clock } : {}),
      rated: $('.ot-rated').checked,
      ...($('.ot-known').checked ? { known_only: true } : {}),
    };
    try {
      const r = await this.ask({ type: 'open', ...body });
      keepSeat(r.table.id, r.seat, r.token, true);
      this.tables.set(r.table.id, r.table);
      this.renderTables();
      this.tableToasts.add(toast(t('lobby-table-opened')));
      this.root.querySelector(`.lobby-table[data-id="${r.table.id}"] .start`)?.focus();
    } catch (err) {
      toast(errorText(err), 'error', 5000);
    }
  }

  // --- Play now --------------------------------------------------------------

  async playNow() {
    const $ = (s) => this.root.querySelector(s);
    const name = $('.pn-name').value.trim();
    if (name) rememberName(name);
    const after = $('.pn-after').value;
    const clock = clockOfChoice($('.pn-clock').value);
    const body = {
      ...(name ? { name } : {}),
      ...(after ? { bot_after: Number(after), level: $('.pn-level').value } : {}),
      ...(clock ? { clock } : {}),
      rules: $('.pn-rules').value,
    };
    try {
      const r = await this.ask({ type: 'play-now', ...body });
      this.wait = { id: r.wait.id, token: r.token, since: Date.now() - r.wait.waited_ms, timer: null };
      $('.pn-go').hidden = true;
      $('.pn-cancel').hidden = false;
      this.wait.timer = setInterval(() => this.sayLooking(), 1000);
      this.onWait(r.wait);
    } catch (err) {
      toast(errorText(err), 'error', 5000);
    }
  }

  /** Where the wait stands: paired (off to the game), or still looking. */
  onWait(w) {
    if (w.state === 'paired' && w.game) {
      addTokens(w.game, [this.wait.token]);
      clearInterval(this.wait.timer);
      this.wait = null;
      this.root.querySelector('.pn-status').textContent = t(w.bot ? 'lobby-paired-bot' : 'lobby-paired');
      location.hash = `#/game/${w.game}`;
      return;
    }
    this.sayLooking();
  }

  /** The wait so far, said every 5 seconds (a screen reader is not flooded). */
  sayLooking() {
    if (!this.wait) return;
    const status = this.root.querySelector('.pn-status');
    const s = Math.floor((Date.now() - this.wait.since) / 1000);
    if (s % 5 === 0 || !status.textContent) status.textContent = t('lobby-looking', { s });
  }

  /** The wait ended without a game (cancelled elsewhere, or its socket was gone too long). */
  waitEnded() {
    this.resetWait();
    this.root.querySelector('.pn-status').textContent = t('lobby-wait-ended');
  }

  async stopWaiting() {
    if (!this.wait) return;
    const { id, token } = this.wait;
    try {
      await request('POST', `/api/lobby/play-now/${encodeURIComponent(id)}/cancel`, { token });
      this.resetWait();
      this.root.querySelector('.pn-status').textContent = t('lobby-stopped');
    } catch (err) {
      // Paired meanwhile: the socket brings the game.
      if (err.code === 'already_paired') return;
      toast(errorText(err), 'error', 5000);
      this.resetWait();
    }
  }

  resetWait() {
    if (this.wait) clearInterval(this.wait.timer);
    this.wait = null;
    this.root.querySelector('.pn-go').hidden = false;
    this.root.querySelector('.pn-cancel').hidden = true;
  }
}
