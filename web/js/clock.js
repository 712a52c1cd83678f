// Clocks on the game screen (docs/web.md, "Clocks and turn-based games"):
// a clock per seat in the players' panel, counting down from what the
// server last sent (`state.clock.left_ms`, measured from when it came, so a
// wrong clock on this device does not matter); low time marked; the clock's
// news (a seat out of time, a bot standing in, its player back) in words,
// said once to screen readers; and, when the server allows it, handing a
// seat to a bot or taking one's own seat back.

import { request } from './api.js';
import { esc, toast } from './dom.js';
import { t } from './i18n.js';

/** Real time below which a clock is marked low (ms). */
const LOW_MS = 20_000;
const LEVELS = ['random', 'easy', 'normal', 'hard'];

/** A real-time clock: 9:05, 1:02:03, 0:07. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(r).padStart(2, '0')}`;
}

/** Time left for a move counted in days: "2 days left", "5 hours left", "12 minutes left". */
export function daysText(ms) {
  if (ms >= 2 * 86_400_000) return t('clock-days-left', { n: Math.floor(ms / 86_400_000) });
  if (ms >= 2 * 3_600_000) return t('clock-hours-left', { n: Math.floor(ms / 3_600_000) });
  if (ms >= 60_000) return t('clock-minutes-left', { n: Math.floor(ms / 60_000) });
  return ms > 0 ? t('clock-under-a-minute') : t('clock-out');
}

/** A real-time clock in words, for screen readers: "4 minutes 5 seconds". */
function clockWords(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60), r = s % 60;
  return m ? `${t('clock-minutes', { n: m })}${r ? ` ${t('clock-seconds', { n: r })}` : ''}` : t('clock-seconds', { n: r });
}

/** One line of the clock's news, in words. */
export function eventText(e, players) {
  const name = players[e.seat] ? players[e.seat].name : t('clock-seat', { n: e.seat + 1 });
  if (e.what === 'timeout') return t('clock-ran-out', { name });
  if (e.what === 'bot') {
    const level = t(`bot-level-${e.level}`);
    return e.by != null && players[e.by]
      ? t('clock-bot-plays-by', { level, name, by: players[e.by].name })
      : t('clock-bot-plays', { level, name });
  }
  if (e.what === 'back') return t('clock-back', { name });
  if (e.what === 'aborted') return e.by != null ? t('end-log-aborted', { name }) : t('clock-aborted', { name });
  if (e.what === 'resigned') return t('end-log-resigned', { name });
  if (e.what === 'left') return t('end-log-left', { name });
  if (e.what === 'ended') {
    const by = players[e.by] ? players[e.by].name : name;
    return e.by != null && e.by !== e.seat ? t('end-log-ended-flag', { name, by }) : t('end-log-ended', { name });
  }
  return `${name}: ${e.what}`;
}

/** The clock's news as lines of the game log. */
export function clockLogHtml(s) {
  const events = (s.clock && s.clock.events) || [];
  if (!events.length) return '';
  return `<div class="log-turn clock-log"><ul>${events.map((e) => `<li class="clock-event">${esc(t('clock-log-move', { n: e.turn }))}: ${esc(eventText(e, s.players))}</li>`).join('')}</ul></div>`;
}

/** The phone's layout (style.css, "Phones"): the game's drawer holds the log, the links and the endings. */
const PHONE = window.matchMedia('(max-width: 480px)');

export class Clocks {
  /**
   * `root`: the game screen; `say`: words for screen readers; `tokens`:
   * the seat tokens this browser holds (what the server does comes back
   * through the game's websocket).
   */
  constructor(root, { id, tokens, say, extra = null }) {
    this.root = root;
    this.id = id;
    this.tokens = tokens;
    this.say = say;
    // Another part's buttons first in the endings' row (takeback.js):
    // `html(state)` draws them, `act(act, button)` answers their `data-act`.
    this.extra = extra;
    this.state = null;
    this.received = 0;
    this.lowSaid = new Set(); // "version:seat" whose low time was said
    this.timer = setInterval(() => this.tick(), 250);
    this.panel = document.createElement('section');
    this.panel.className = 'clock-panel hidden';
    this.panel.setAttribute('aria-label', t('clock-panel'));
    const players = root.querySelector('.players-panel');
    if (players) players.after(this.panel);
    this.panel.addEventListener('click', (e) => this.onClick(e));
    // Resign, leave, abort: under the move's panel, so that they never push
    // Confirm below the fold; on a phone in the game's menu drawer (the
    // screen's strip above the board is for the players).
    this.endPanel = document.createElement('section');
    this.endPanel.className = 'clock-panel endings-panel hidden';
    this.endPanel.setAttribute('aria-label', t('end-panel'));
    this.endPanel.addEventListener('click', (e) => this.onClick(e));
    this.placeEndPanel = () => {
      const head = root.querySelector('.drawer-head');
      if (PHONE.matches && head) head.after(this.endPanel);
      else (root.querySelector('.tile-panel') || this.panel).after(this.endPanel);
    };
    this.placeEndPanel();
    PHONE.addEventListener('change', this.placeEndPanel);
  }

  destroy() {
    PHONE.removeEventListener('change', this.placeEndPanel);
    clearInterval(this.timer);
    document.querySelector('.ending-overlay')?.remove();
  }

  /** A new state: its clocks, counted from now. */
  update(s) {
    const prev = this.state;
    this.state = s;
    this.received = performance.now();
    const before = (prev && prev.clock && prev.clock.events) || [];
    const now = (s.clock && s.clock.events) || [];
    if (prev && now.length > before.length) {
      const fresh = now.slice(before.length).map((e) => eventText(e, s.players));
      this.say(`${fresh.join('. ')}.`);
      for (const line of fresh) toast(line, 'info', 5000);
    }
  }

  /** Time left now for seat `i` (ms), or null for none. */
  left(i) {
    const c = this.state && this.state.clock;
    if (!c) return null;
    const gone = performance.now() - this.received;
    if (c.running === i && c.left_ms != null) return Math.max(0, c.left_ms - gone);
    if (c.kind === 'realtime' && c.remaining) return c.remaining[i];
    return null;
  }

  /** The clocks into the players' panel (drawn afresh by the game), and the panel of actions. */
  render() {
    const s = this.state;
    const c = s && s.clock;
    const shown = c && (c.kind !== 'none' || c.standin.some(Boolean));
    for (const p of shown ? s.players : []) {
      const row = this.root.querySelector(`.player[data-seat="${p.seat}"] .player-main`);
      if (!row) continue;
      const el = document.createElement('div');
      el.className = 'seat-clock';
      el.dataset.seat = p.seat;
      el.setAttribute('role', 'timer'); // not live: never read out every second
      row.appendChild(el);
      this.paint(el, p.seat);
    }
    this.renderActions();
  }

  /** One seat's clock, as it stands now. */
  paint(el, seat) {
    const s = this.state, c = s.clock;
    const left = this.left(seat);
    const running = c.running === seat;
    const standin = c.standin[seat];
    const out = c.expired.includes(seat);
    let text = '';
    if (c.kind === 'realtime' && left != null) text = out ? t('clock-out') : clockText(left);
    else if (c.kind === 'turn' && running && left != null) text = daysText(left);
    else if (c.kind === 'turn' && out) text = t('clock-out');
    if (standin) text = `${text ? `${text} · ` : ''}${t('clock-standin', { level: t(`bot-level-${standin}`) })}`;
    const low = c.kind === 'realtime' && running && left != null && left < LOW_MS;
    el.classList.toggle('running', running);
    el.classList.toggle('low', low);
    el.classList.toggle('out', out);
    el.hidden = !text;
    if (el.textContent !== text) el.textContent = text;
    const words = c.kind === 'realtime' && left != null && !out
      ? `${s.players[seat].name}: ${t(running ? 'clock-left-running' : 'clock-left', { time: clockWords(left) })}`
      : `${s.players[seat].name}: ${text}`;
    if (el.getAttribute('aria-label') !== words) el.setAttribute('aria-label', words);
    // Low time on one's own clock: said once per move.
    const key = `${s.version}:${seat}`;
    if (low && s.you.includes(seat) && !this.lowSaid.has(key)) {
      this.lowSaid.add(key);
      this.say(t('clock-low', { time: clockWords(left) }));
    }
  }

  tick() {
    const c = this.state && this.state.clock;
    if (!c || c.running == null) return;
    const el = this.root.querySelector(`.seat-clock[data-seat="${c.running}"]`);
    if (el) this.paint(el, c.running);
  }

  /** Handing an away seat to a bot; taking one's own back. */
  renderActions() {
    const s = this.state, c = s && s.clock;
    if (!c || s.status !== 'playing') {
      // An ending asked about meanwhile is moot: the game is over.
      document.querySelector('.ending-overlay')?.remove();
      for (const panel of [this.panel, this.endPanel]) {
        panel.classList.add('hidden');
        panel.innerHTML = '';
        delete panel.dataset.html;
      }
      return;
    }
    const mine = s.you;
    const hand = mine.length ? c.may_hand_over.filter((i) => !mine.includes(i) && i !== c.may_end) : [];
    // A real-time seat whose flag fell moves no more: its bot plays on.
    const flagged = (i) => c.kind === 'realtime' && c.expired.includes(i);
    const back = mine.filter((i) => c.standin[i] && !flagged(i));
    const out = mine.filter((i) => c.standin[i] && flagged(i));
    const parts = [];
    for (const i of hand) {
      const p = s.players[i];
      const why = c.expired.includes(i) ? t('clock-handover-out', { name: p.name }) : t('clock-handover-away', { name: p.name, n: c.away_minutes });
      parts.push(`<div class="handover" data-seat="${i}">
        <p>${esc(why)}</p>
        <label>${esc(t('clock-bot-level'))} <select class="handover-level">${LEVELS.map((l) => `<option value="${l}"${l === 'normal' ? ' selected' : ''}>${esc(t(`bot-level-${l}`))}</option>`).join('')}</select></label>
        <button class="btn small" data-act="handover" data-seat="${i}">${esc(t('clock-handover', { name: p.name }))}</button>
      </div>`);
    }
    if (out.length) {
      parts.push(`<div class="takeback"><p>${esc(t('clock-flagged-note'))}</p></div>`);
    }
    if (back.length) {
      parts.push(`<div class="takeback"><p>${esc(t('clock-takeback-note'))}</p>
        <button class="btn small primary" data-act="back">${esc(t('clock-takeback'))}</button></div>`);
    }
    // A casual seat's flag fell: the others end the game or play on.
    if (c.may_end != null && mine.some((i) => i !== c.may_end)) {
      const p = s.players[c.may_end];
      parts.push(`<div class="flag-choice" role="group" aria-label="${esc(t('end-flag-title', { name: p.name }))}">
        <p>${esc(t('end-flag-text', { name: p.name }))}</p>
        <button class="btn small primary" data-act="finish">${esc(t('end-finish'))}</button>
        <button class="btn small" data-act="handover" data-seat="${c.may_end}">${esc(t('end-play-on'))}</button></div>`);
    }
    // Each seat of mine still in the game: resign, leave; the game: abort.
    const gone = new Set([...(c.resigned || []), ...(c.left || [])]);
    const seats = mine.filter((i) => !gone.has(i));
    let endings = '';
    const extra = this.extra ? this.extra.html(s) : '';
    if (seats.length || extra) {
      const named = (key, i) => (mine.length > 1 ? t(`${key}-seat`, { name: s.players[i].name }) : t(key));
      endings = `<div class="endings">${extra}${c.may_abort ? `<button class="btn small" data-act="abort">${esc(t('end-abort'))}</button>` : ''}${seats.map((i) => `<button class="btn small" data-act="resign" data-seat="${i}">${esc(named('end-resign', i))}</button><button class="btn small" data-act="leave" data-seat="${i}">${esc(named('end-leave', i))}</button>`).join('')}</div>`;
    }
    // Drawn again only when it changes: a choice being made stays.
    for (const [panel, html] of [[this.panel, parts.join('')], [this.endPanel, endings]]) {
      if (panel.dataset.html !== html) {
        panel.dataset.html = html;
        panel.innerHTML = html;
      }
      panel.classList.toggle('hidden', !html);
    }
  }

  async onClick(e) {
    const b = e.target.closest('button[data-act]');
    if (!b || b.disabled) return;
    const act = b.dataset.act;
    if (this.extra && this.extra.acts.includes(act)) {
      this.extra.act(act, b);
      return;
    }
    if (['abort', 'resign', 'leave', 'finish'].includes(act)) {
      this.confirmEnding(act, b);
      return;
    }
    b.disabled = true;
    const q = this.tokens.length ? `?token=${this.tokens.join(',')}` : '';
    try {
      if (b.dataset.act === 'handover') {
        const box = b.closest('.handover');
        const level = box ? box.querySelector('.handover-level').value : 'normal';
        await request('POST', `/api/games/${encodeURIComponent(this.id)}/handover${q}`, { seat: Number(b.dataset.seat), level });
      } else {
        await request('POST', `/api/games/${encodeURIComponent(this.id)}/back${q}`, {});
      }
    } catch (err) {
      toast(err.message, 'error');
      b.disabled = false;
    }
  }
}

/** What an ending does, in words: the dialog's text for `act` (rated or not). */
function endingText(act, s, seat) {
  const c = s.clock;
  const out = [...(c.resigned || []), ...(c.left || [])];
  const others = s.players.filter((p) => !out.includes(p.seat) && p.seat !== seat);
  // The game ends at once when one seat, or no person, would be left in it
  // (services/endings.rs).
  const duel = others.length <= 1;
  const ends = duel || !others.some((p) => p.kind === 'human');
  switch (act) {
    case 'abort': return t(s.rated ? 'end-abort-text-rated' : 'end-abort-text');
    case 'resign':
      if (duel) return t(s.rated ? 'end-resign-text-duel-rated' : 'end-resign-text-duel');
      if (ends) return t(s.rated ? 'end-resign-text-alone-rated' : 'end-resign-text-alone');
      return t(s.rated ? 'end-resign-text-rated' : 'end-resign-text');
    case 'leave':
      if (s.rated) return t(c.kind === 'none' ? 'end-leave-text-rated-untimed' : 'end-leave-text-rated');
      return t(ends ? 'end-leave-text-ends' : 'end-leave-text');
    default: return t('end-finish-text');
  }
}

Object.assign(Clocks.prototype, {
  /** Asks before an ending (a dialog: what it does, ratings included), then sends it. */
  confirmEnding(act, from) {
    const s = this.state, seat = from.dataset.seat != null ? Number(from.dataset.seat) : null;
    const o = document.createElement('div');
    o.className = 'overlay ending-overlay';
    o.innerHTML = `<div class="dialog ending-dialog" role="dialog" aria-modal="true" aria-labelledby="ending-title" aria-describedby="ending-text">
      <h3 id="ending-title">${esc(t(`end-${act}-title`))}</h3>
      <p id="ending-text">${esc(endingText(act, s, seat))}</p>
      <div class="dialog-actions"><button class="btn" data-end="cancel">${esc(t('end-cancel'))}</button>
      <button class="btn primary" data-end="go">${esc(t(`end-${act}-confirm`))}</button></div></div>`;
    document.body.appendChild(o);
    const close = () => { o.remove(); from.focus(); };
    const go = o.querySelector('[data-end="go"]');
    o.querySelector('[data-end="cancel"]').onclick = close;
    o.onclick = (e) => { if (e.target === o) close(); };
    o.onkeydown = (e) => {
      // The dialog is modal: its keys never reach the board (R rotates there).
      e.stopPropagation();
      if (e.key === 'Escape') { e.preventDefault(); close(); }
      if (e.key === 'Tab') {
        const f = [...o.querySelectorAll('button')];
        const i = f.indexOf(document.activeElement);
        e.preventDefault();
        f[(i + (e.shiftKey ? f.length - 1 : 1)) % f.length].focus();
      }
    };
    go.onclick = async () => {
      go.disabled = true;
      const q = this.tokens.length ? `?token=${this.tokens.join(',')}` : '';
      try {
        await request('POST', `/api/games/${encodeURIComponent(this.id)}/${act}${q}`, seat == null ? {} : { seat });
        o.remove();
      } catch (err) {
        toast(err.message, 'error');
        go.disabled = false;
      }
    };
    o.querySelector('[data-end="cancel"]').focus();
  },
});

// --- the new-game form's time control ------------------------------------------

/** Every time control offered, the same in the new-game form, the lobby's
 * tables and "Play now" (which pairs by it): (value, the clocks' JSON,
 * message, its arguments). */
const CLOCK_CHOICES = [
  ['none', null, 'clock-none'],
  ['rt:2:1', { kind: 'realtime', minutes: 2, increment: 1 }, 'clock-realtime', { m: 2, s: 1 }],
  ['rt:5:3', { kind: 'realtime', minutes: 5, increment: 3 }, 'clock-realtime', { m: 5, s: 3 }],
  ['rt:10:5', { kind: 'realtime', minutes: 10, increment: 5 }, 'clock-realtime', { m: 10, s: 5 }],
  ['rt:25:10', { kind: 'realtime', minutes: 25, increment: 10 }, 'clock-realtime', { m: 25, s: 10 }],
  ['turn:1', { kind: 'turn', days: 1 }, 'clock-turn', { n: 1 }],
  ['turn:3', { kind: 'turn', days: 3 }, 'clock-turn', { n: 3 }],
  ['turn:7', { kind: 'turn', days: 7 }, 'clock-turn', { n: 7 }],
];

/** The choices as `<option>`s (with `custom`, the form's own minutes, after the real-time ones). */
export function clockOptions({ custom = false } = {}) {
  const opts = CLOCK_CHOICES.map(([v, , id, args]) => `<option value="${v}">${esc(t(id, args))}</option>`);
  if (custom) opts.splice(CLOCK_CHOICES.findIndex(([v]) => v.startsWith('turn:')), 0, `<option value="custom">${esc(t('clock-custom'))}</option>`);
  return opts.join('');
}

/** The clocks' JSON of a choice (`null`: none). */
export function clockOfChoice(v) {
  return CLOCK_CHOICES.find(([c]) => c === v)?.[1] || null;
}

/** The time control's fields for the new-game form. */
export function clockFormHtml() {
  return `<fieldset class="clock-form">
    <legend>${esc(t('clock-legend'))}</legend>
    <label class="opt"><span>${esc(t('clock-control'))}</span><select class="clock-choice">${clockOptions({ custom: true })}</select></label>
    <div class="clock-custom" hidden>
      <label class="opt"><span>${esc(t('clock-minutes-each'))}</span><input type="number" class="clock-minutes" min="1" max="180" value="15"></label>
      <label class="opt"><span>${esc(t('clock-increment'))}</span><input type="number" class="clock-increment" min="0" max="180" value="10"></label>
    </div>
    <label class="opt"><span>${esc(t('clock-away'))}</span><input type="number" class="clock-away" min="1" max="10080" value="5"></label>
  </fieldset>`;
}

/** Shows the custom fields when chosen. */
export function wireClockForm(root) {
  const choice = root.querySelector('.clock-choice');
  if (!choice) return;
  choice.onchange = () => { root.querySelector('.clock-custom').hidden = choice.value !== 'custom'; };
}

/** The form's `clock` and `away_minutes` (fields of the creation request). */
export function readClockForm(root) {
  const choice = root.querySelector('.clock-choice');
  if (!choice) return {};
  const v = choice.value;
  const num = (sel) => Number(root.querySelector(sel).value);
  const out = {};
  if (v === 'custom') out.clock = { kind: 'realtime', minutes: num('.clock-minutes'), increment: num('.clock-increment') };
  else if (clockOfChoice(v)) out.clock = clockOfChoice(v);
  const away = num('.clock-away');
  if (away !== 5) out.away_minutes = away;
  return out;
}
