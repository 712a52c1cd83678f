// Chat and rematch in a game (docs/web.md, "Chat and rematch"): the chat
// panel (quick phrases, free text, mute a person by seat or spectator
// number: chatlog.js, chat off for this browser, the chat's download when
// every player agreed) and the rematch box of the results dialog. Every
// name and message is put in as text, never as HTML.

import { addTokens, request, spectatorToken } from './api.js';
import { t } from './i18n.js';
import { mute, outOfSight, overflow, readMutes, showNew, unmute } from './chatlog.js';
import { block, reportDialog, signedInName } from './moderation.js';

/** Quick phrases (one tap on a phone). */
/** The quick phrases (their messages): sent in the sender's language. */
export const PHRASES = ['chat-phrase-good-game', 'chat-phrase-nice-move', 'chat-phrase-one-moment', 'chat-phrase-your-turn', 'chat-phrase-thanks'];
/** The longest message, in characters (the server's cap). */
export const MAX_CHARS = 200;

const OFF_KEY = 'carcassonne.chat.off';
const MUTED_KEY = 'carcassonne.chat.muted';
const PENDING_KEY = 'carcassonne.rematch';

function load(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) || 'null') ?? fallback; } catch { return fallback; }
}
function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: for this page only */ }
}

/** An element with text (never HTML) and attributes. */
function el(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  if (text != null) e.textContent = text;
  return e;
}

const q = (tokens) => (tokens.length ? `?token=${tokens.join(',')}` : '');

export const chatApi = {
  get: (id, tokens) => request('GET', `/api/games/${encodeURIComponent(id)}/chat${q(tokens)}`),
  say: (id, tokens, text) => request('POST', `/api/games/${encodeURIComponent(id)}/chat${tokens.length ? q(tokens) : `?spectator=${spectatorToken()}`}`, { text }),
  consent: (id, tokens, include) =>
    request('POST', `/api/games/${encodeURIComponent(id)}/chat/consent${q(tokens)}`, { include }),
  rematch: (id, tokens) => request('POST', `/api/games/${encodeURIComponent(id)}/rematch${q(tokens)}`, {}),
  downloadUrl: (id) => `/api/games/${encodeURIComponent(id)}/chat/download`,
};

/**
 * The chat of game `id` in `root` (a section of the game's sidebar).
 * `socket` is the game's GameSocket; `state()` gives the game's state.
 */
export class ChatPanel {
  constructor(root, id, tokens, socket, state) {
    this.root = root;
    this.id = id;
    this.tokens = tokens;
    this.socket = socket;
    this.state = state;
    this.messages = new Map(); // seq → message
    this.after = { consent: [], accepted: [], game: null };
    this.off = false; // the game's chat is off (for everyone)
    this.rematchBox = null;
    socket.onOther = (msg) => this.onMessage(msg);
    this.me = null; // the signed-in account's name: it may block and report
    this.build();
    this.refresh();
    signedInName().then((me) => { this.me = me; this.draw(); });
  }

  destroy() {
    this.socket.onOther = null;
  }

  get hidden() { return load(OFF_KEY, false) === true; }
  /** Whom this browser muted in this game (chatlog.js). */
  mutes() { return readMutes(load(MUTED_KEY, {})[this.id]); }
  setMutes(mutes) { const all = load(MUTED_KEY, {}); all[this.id] = mutes; save(MUTED_KEY, all); }
  player() { const s = this.state(); return !!(s && s.you && s.you.length); }

  build() {
    const r = this.root;
    r.replaceChildren();
    const head = el('div', { class: 'chat-head' });
    // On a phone the chat folds away under its heading (the board needs the room); open on a desktop.
    this.open = !window.matchMedia('(max-width: 820px)').matches;
    this.unread = 0;
    const h2 = el('h2', { id: 'chat-title' });
    this.toggle = el('button', { type: 'button', class: 'chat-toggle', 'aria-controls': 'chat-body' });
    h2.append(this.toggle);
    head.append(h2);
    const onLabel = el('label', { class: 'chat-switch' });
    this.onBox = el('input', { type: 'checkbox', class: 'chat-on' });
    onLabel.append(this.onBox, document.createTextNode(` ${t('chat-show')}`));
    head.append(onLabel);
    r.append(head);
    this.body = el('div', { class: 'chat-body', id: 'chat-body' });
    this.note = el('p', { class: 'muted chat-note' });
    this.log = el('div', { class: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-labelledby': 'chat-title', tabindex: '0' });
    this.list = el('ul', { class: 'chat-list', 'data-empty': t('chat-empty') });
    this.log.append(this.list);
    this.phrases = el('div', { class: 'chat-phrases', role: 'group', 'aria-label': t('chat-phrases') });
    for (const id of PHRASES) this.phrases.append(el('button', { type: 'button', class: 'btn chip', 'data-phrase': t(id) }, t(id)));
    this.form = el('form', { class: 'chat-form' });
    const label = el('label', { for: 'chat-input', class: 'sr-only' }, t('chat-message'));
    this.input = el('input', { id: 'chat-input', type: 'text', maxlength: String(MAX_CHARS), autocomplete: 'off', placeholder: t('chat-message') });
    this.form.append(label, this.input, el('button', { type: 'submit', class: 'btn' }, t('chat-send')));
    this.status = el('p', { class: 'chat-status', role: 'status' });
    this.newNote = el('p', { class: 'chat-new-hidden muted' });
    this.mutedList = el('p', { class: 'chat-muted muted' });
    this.consentBox = el('div', { class: 'chat-consent' });
    this.body.append(this.note, this.log, this.newNote, this.phrases, this.form, this.status, this.mutedList, this.consentBox);
    r.append(this.body);

    this.toggle.onclick = () => { this.open = !this.open; this.unread = 0; this.draw(); };
    this.onBox.checked = !this.hidden;
    this.onBox.onchange = () => { save(OFF_KEY, !this.onBox.checked); this.draw(); };
    this.phrases.onclick = (e) => {
      const b = e.target.closest('button[data-phrase]');
      if (b) this.send(b.dataset.phrase);
    };
    this.form.onsubmit = (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (text) this.send(text);
    };
    this.log.onclick = async (e) => {
      const r = e.target.closest('button[data-report]');
      const line = r && this.messages.get(Number(r.dataset.report));
      if (line) {
        reportDialog({ what: { game: this.id, seq: line.seq }, name: this.who(line), text: line.text, tokens: this.tokens, from: r });
        return;
      }
      const k = e.target.closest('button[data-block]');
      const author = k && this.messages.get(Number(k.dataset.block));
      if (author) {
        // Blocked: the server no longer sends their lines here; read the chat again.
        if (await block({ game: this.id, seq: author.seq })) this.refresh();
        return;
      }
      const b = e.target.closest('button[data-mute]');
      const m = b && this.messages.get(Number(b.dataset.mute));
      if (!m) return;
      this.setMutes(mute(this.mutes(), m, this.messages.values()));
      this.say(t('chat-muted-one', { name: this.who(m) }));
      this.draw();
    };
    this.newNote.onclick = (e) => {
      if (!e.target.closest('button')) return;
      this.setMutes(showNew(this.mutes()));
      this.draw();
    };
    this.mutedList.onclick = (e) => {
      const b = e.target.closest('button[data-unmute]');
      const p = b && this.mutes().people.find((x) => x.key === b.dataset.unmute);
      if (!p) return;
      this.setMutes(unmute(this.mutes(), p.key));
      this.say(t('chat-unmuted-one', { name: this.who(p) }));
      this.draw();
    };
  }

  /** The chat as the server has it (on opening, and after the socket reconnects). */
  async refresh() {
    try {
      const v = await chatApi.get(this.id, this.tokens);
      this.off = !!v.off;
      this.messages.clear();
      for (const m of v.messages) this.messages.set(m.seq, m);
      this.setAfter(v.rematch);
      this.draw();
    } catch { /* the game's own errors are shown elsewhere */ }
  }

  onMessage(msg) {
    if (msg.type === 'chat') {
      if (!this.messages.has(msg.message.seq) && !this.open && !outOfSight(this.mutes(), msg.message)) this.unread++;
      this.messages.set(msg.message.seq, msg.message);
      this.prune();
      this.draw();
    } else if (msg.type === 'rematch') this.setAfter(msg);
    else if (msg.type === 'accepted') this.setAfter(msg.after);
    else if (msg.type === 'error') this.say(msg.message || msg.error);
  }

  /** Past the most spectators' messages a page keeps, their oldest go (as on the server). */
  prune() {
    for (const seq of overflow(this.messages)) this.messages.delete(seq);
  }

  /** After the game ends, players read the spectators' chat too: read it again. */
  finished() { this.refresh(); }

  async send(text) {
    this.say('');
    const body = { type: 'chat', text };
    if (this.socket.send(body)) { this.input.value = ''; return; }
    try {
      const v = await chatApi.say(this.id, this.tokens, text);
      this.messages.set(v.message.seq, v.message);
      this.input.value = '';
      this.draw();
    } catch (e) { this.say(e.message); }
  }

  say(text) { this.status.textContent = text; }

  /** A writer's name as the chat shows it (a spectator's marked so): of a message, or of a muted person. */
  who(x) {
    const spectator = x.kind ? x.kind !== 'player' : x.seat == null;
    return spectator ? t('chat-watching', { name: x.name }) : x.name;
  }

  draw() {
    // Someone to talk to: a seat played online, or spectators (this page
    // watching); at one screen against bots the panel keeps out of the way.
    const s0 = this.state();
    this.root.hidden = !!s0 && this.player() && !this.off && !s0.players.some((p) => p.remote) && this.messages.size === 0;
    const hidden = this.hidden;
    this.toggle.textContent = this.unread ? t('chat-title-new', { n: this.unread }) : t('chat-title');
    this.toggle.setAttribute('aria-expanded', String(this.open && !hidden));
    this.toggle.disabled = hidden;
    this.body.classList.toggle('hidden', hidden || !this.open);
    if (hidden || !this.open) return;
    const off = this.off;
    this.note.textContent = off ? t('error-chat_off') : (this.player() ? t('chat-note') : '');
    this.note.classList.toggle('hidden', !this.note.textContent);
    this.phrases.classList.toggle('hidden', off);
    this.form.classList.toggle('hidden', off);
    const mutes = this.mutes();
    const all = [...this.messages.values()].sort((a, b) => a.seq - b.seq);
    const items = all.filter((m) => !outOfSight(mutes, m));
    const fresh = all.filter((m) => outOfSight(mutes, m) === 'new').length;
    const s = this.state();
    const mine = new Set(s && s.you ? s.you : []);
    this.list.replaceChildren(...items.map((m) => {
      const li = el('li', { class: m.seat == null ? 'chat-msg spectator' : 'chat-msg' });
      li.append(el('span', { class: 'chat-name' }, this.who(m)), document.createTextNode(': '), el('span', { class: 'chat-text' }, m.text));
      const others = m.seat != null ? !mine.has(m.seat) : !(m.account && this.me && m.name === this.me);
      if ((m.seat == null && m.spectator != null && others) || (m.seat != null && others)) {
        li.append(document.createTextNode(' '), el('button', { type: 'button', class: 'link chat-mute', 'data-mute': String(m.seq), 'aria-label': t('chat-mute-name', { name: this.who(m) }) }, t('chat-mute')));
      }
      // A signed-in reader (or a player) reports a line; a signed-in reader blocks a signed-in author.
      if (others && (this.me || this.player())) {
        li.append(document.createTextNode(' '), el('button', { type: 'button', class: 'link chat-mute chat-report', 'data-report': String(m.seq), 'aria-label': t('mod-report-line', { name: this.who(m) }) }, t('mod-report')));
      }
      if (others && this.me && m.member) {
        li.append(document.createTextNode(' '), el('button', { type: 'button', class: 'link chat-mute chat-block', 'data-block': String(m.seq), 'aria-label': t('mod-block-name', { name: this.who(m) }) }, t('mod-block')));
      }
      return li;
    }));
    this.log.scrollTop = this.log.scrollHeight;
    this.newNote.replaceChildren();
    this.newNote.classList.toggle('hidden', !fresh);
    if (fresh) {
      this.newNote.append(document.createTextNode(`${t('chat-new-hidden', { n: fresh })} `), el('button', { type: 'button', class: 'link chat-show-new' }, t('chat-show-new')));
    }
    this.mutedList.replaceChildren();
    if (mutes.people.length) {
      this.mutedList.append(document.createTextNode(`${t('chat-muted')} `));
      for (const p of mutes.people) {
        this.mutedList.append(el('button', { type: 'button', class: 'link', 'data-unmute': p.key, 'aria-label': t('chat-unmute-name', { name: this.who(p) }) }, this.who(p)), document.createTextNode(' '));
      }
    }
    this.drawConsent();
  }

  setAfter(after) {
    if (!after) return;
    this.after = { consent: after.consent || [], accepted: after.accepted || [], game: after.game || null };
    this.drawConsent();
    this.drawRematch();
    this.follow();
  }

  /** The player's say on the chat's download, and the download once all agreed. */
  drawConsent() {
    const s = this.state();
    const box = this.consentBox;
    box.replaceChildren();
    if (!s || this.off) return;
    const humans = s.players.filter((p) => p.kind !== 'bot').map((p) => p.seat ?? s.players.indexOf(p));
    const agreed = humans.filter((h) => this.after.consent.includes(h)).length;
    if (this.player()) {
      const label = el('label');
      const box2 = el('input', { type: 'checkbox', class: 'chat-include' });
      box2.checked = s.you.every((p) => this.after.consent.includes(p));
      box2.onchange = async () => {
        try { this.setAfter((await chatApi.consent(this.id, this.tokens, box2.checked)).rematch); } catch (e) { this.say(e.message); }
      };
      label.append(box2, document.createTextNode(` ${t('chat-offer')}`));
      box.append(label);
    }
    box.append(el('p', { class: 'muted' }, t('chat-agreed', { agreed, n: humans.length })));
    if (s.status === 'finished' && agreed === humans.length) {
      box.append(el('a', { class: 'btn', href: chatApi.downloadUrl(this.id), download: '' }, t('chat-download')));
    }
  }

  // --- rematch ---------------------------------------------------------------

  /** The rematch part of the results dialog, in `box`. */
  renderRematch(box) {
    this.rematchBox = box;
    this.drawRematch();
  }

  drawRematch() {
    const box = this.rematchBox;
    const s = this.state();
    if (!box || !box.isConnected || !s) return;
    box.replaceChildren();
    const humans = s.players.map((p, i) => ({ ...p, i })).filter((p) => p.kind !== 'bot');
    const waiting = humans.filter((p) => !this.after.accepted.includes(p.i)).map((p) => p.name);
    const mineAccepted = this.player() && s.you.every((p) => this.after.accepted.includes(p));
    const status = el('p', { class: 'rematch-status', role: 'status' });
    if (this.after.game) status.textContent = t('rematch-ready');
    else if (this.after.accepted.length) status.textContent = t('rematch-waiting', { names: waiting.join(', ') });
    if (this.player() && !mineAccepted && !this.after.game) {
      const b = el('button', { type: 'button', class: 'btn primary rematch' }, t('rematch'));
      b.title = t('rematch-help');
      b.onclick = () => this.accept(b);
      box.append(b);
    } else if (this.after.game && !pendingFor(this.id)) {
      box.append(el('a', { class: 'btn', href: `#/game/${this.after.game}` }, t('rematch-watch')));
    }
    box.append(status);
  }

  async accept(button) {
    button.disabled = true;
    try {
      const v = await chatApi.rematch(this.id, this.tokens);
      const pending = load(PENDING_KEY, {});
      pending[this.id] = v.tokens.map((t) => t.token);
      save(PENDING_KEY, pending);
      this.setAfter(v.rematch);
    } catch (e) {
      button.disabled = false;
      this.say(e.message);
      const st = this.rematchBox && this.rematchBox.querySelector('.rematch-status');
      if (st) st.textContent = e.message;
    }
  }

  /** Once the rematch is made, a player who accepted here moves to it with their new seat. */
  follow() {
    const game = this.after.game;
    const tokens = pendingFor(this.id);
    if (!game || !tokens) return;
    addTokens(game, tokens);
    const pending = load(PENDING_KEY, {});
    delete pending[this.id];
    save(PENDING_KEY, pending);
    location.hash = `#/game/${game}`;
  }
}

function pendingFor(id) {
  const p = load(PENDING_KEY, {})[id];
  return Array.isArray(p) && p.length ? p : null;
}
