// Takebacks on the game screen (docs/web.md, "Takebacks"): in a casual game
// a player asks to take back their last move (no confirmation: it is
// harmless, the others decide); the others get Accept and Decline; every
// player and spectator sees the request and hears its outcome (the page's
// live region, and a toast). Everything comes from the state's
// `may_take_back` and `takeback` (services/takebacks.rs); what the server
// does comes back through the game's websocket.

import { request } from './api.js';
import { esc, toast } from './dom.js';
import { errorText, listWords, t } from './i18n.js';

/** The phone's layout (style.css, "Phones"): the move's panel is at the bottom, the request shows at the top. */
const PHONE = window.matchMedia('(max-width: 480px)');

export class Takebacks {
  /**
   * `root`: the game screen; `say`: words for screen readers; `tokens`:
   * this browser's seat tokens. The button to ask is drawn with the
   * endings (clock.js asks `askHtml` and hands its clicks to `ask`).
   */
  constructor(root, { id, tokens, say }) {
    this.root = root;
    this.id = id;
    this.tokens = tokens;
    this.say = say;
    this.state = null;
    this.timer = null;
    this.busy = false;
    // The request and its answers: under the endings (on a phone at the
    // top, under the players: the move's panel is at the bottom).
    this.panel = document.createElement('section');
    this.panel.className = 'takeback-panel hidden';
    this.panel.setAttribute('aria-label', t('takeback-panel'));
    this.panel.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-act]');
      if (b) this.send(b, `takeback/${b.dataset.act}`);
    });
    this.place = () => {
      if (PHONE.matches) (root.querySelector('.clock-panel') || root.querySelector('.players-panel')).after(this.panel);
      else (root.querySelector('.endings-panel') || root.querySelector('.tile-panel')).after(this.panel);
    };
    this.place();
    PHONE.addEventListener('change', this.place);
  }

  destroy() {
    PHONE.removeEventListener('change', this.place);
    clearTimeout(this.timer);
  }

  name(seat) {
    const s = this.state;
    return s.players[seat] ? s.players[seat].name : t('clock-seat', { n: seat + 1 });
  }

  /** A new state: its request drawn, and what changed said once. */
  update(s) {
    const prev = this.state;
    this.state = s;
    const was = prev && prev.takeback, now = s.takeback;
    if (now && prev) {
      const fresh = !was || was.number !== now.number;
      if (now.status === 'pending' && fresh) {
        const text = this.requestText(now);
        this.say(text);
        // Those asked are shown it too, wherever they look.
        if (now.waiting.some((i) => s.you.includes(i))) toast(text, 'info', 5000);
      }
      else if (now.status !== 'pending' && (fresh || was.status !== now.status)) this.tell(now);
    }
    clearTimeout(this.timer);
    if (now && now.status === 'pending' && now.left_ms != null) {
      // Lapsed unanswered: drawn again (and said) when its time is up.
      const number = now.number;
      this.timer = setTimeout(() => {
        const cur = this.state && this.state.takeback;
        if (!cur || cur.number !== number || cur.status !== 'pending') return;
        cur.status = 'lapsed';
        this.tell(cur);
        this.render();
      }, now.left_ms + 250);
    }
    this.render();
    // The button asked with went (drawn again by the endings, after this):
    // a keyboard's focus goes on to the board.
    const asking = this.asking;
    if (asking) {
      requestAnimationFrame(() => {
        if (asking.isConnected) return;
        this.asking = null;
        if (!document.activeElement || document.activeElement === document.body) this.focusBoard();
      });
    }
  }

  /** The request in words, as this viewer reads it. */
  requestText(r) {
    const s = this.state;
    const waiting = listWords(r.waiting.map((i) => this.name(i)));
    if (s.you.includes(r.seat)) return t('takeback-waiting', { names: waiting });
    if (r.waiting.some((i) => s.you.includes(i))) {
      return r.moves > 1
        ? t('takeback-asks-many', { name: this.name(r.seat), n: r.move_number, count: r.moves - 1 })
        : t('takeback-asks', { name: this.name(r.seat), n: r.move_number });
    }
    return t('takeback-asks-others', { name: this.name(r.seat), names: waiting });
  }

  /** A request's outcome: said, and shown a moment. */
  tell(r) {
    const s = this.state;
    let text;
    if (r.status === 'granted') text = s.you.includes(r.seat) ? t('takeback-granted-yours') : t('takeback-granted', { n: r.move_number });
    else if (r.status === 'declined') text = t('takeback-declined', { name: this.name(r.declined_by) });
    else text = t('takeback-lapsed');
    this.say(text);
    toast(text, 'info', 5000);
  }

  render() {
    const s = this.state;
    const r = s && s.status === 'playing' ? s.takeback : null;
    let html = '';
    if (r && r.status === 'pending') {
      const mine = r.waiting.some((i) => s.you.includes(i));
      html = `<div class="takeback-request${mine ? ' asks-me' : ''}" data-number="${r.number}">
        <p>${esc(this.requestText(r))}</p>
        ${mine ? `<div class="takeback-answers"><button class="btn small primary" data-act="accept">${esc(t('takeback-accept'))}</button>
        <button class="btn small" data-act="decline">${esc(t('takeback-decline'))}</button></div>` : ''}</div>`;
    }
    // Drawn again only when it changes: a button under a finger stays.
    if (this.panel.dataset.html !== html) {
      const focused = this.panel.contains(document.activeElement);
      this.panel.dataset.html = html;
      this.panel.innerHTML = html;
      // A keyboard's focus on a button that went (answered) goes on to the
      // board, where play goes on.
      if (focused && !this.panel.contains(document.activeElement)) this.focusBoard();
    }
    this.panel.classList.toggle('hidden', !html);
  }

  focusBoard() {
    this.root.querySelector('.board-area [role="application"]')?.focus({ preventScroll: true });
  }

  /** The button to ask, for the endings' row: only when this viewer may ask now. */
  askHtml(s) {
    if (s.status !== 'playing' || !s.may_take_back) return '';
    return `<button class="btn small" data-act="takeback" title="${esc(t('takeback-ask-help'))}">${esc(t('takeback-ask'))}</button>`;
  }

  /** Asks, at once: harmless, the others decide. */
  ask(b) {
    this.asking = b;
    this.send(b, 'takeback');
  }

  /** Sends what button `b` says (`path` under the game's), busy until the answer. */
  async send(b, path) {
    if (this.busy) return;
    const q = this.tokens.length ? `?token=${this.tokens.join(',')}` : '';
    // (The button keeps a keyboard's focus meanwhile.)
    this.busy = true;
    const buttons = [...b.parentElement.querySelectorAll('button')];
    for (const x of buttons) x.setAttribute('aria-disabled', 'true');
    try {
      await request('POST', `/api/games/${encodeURIComponent(this.id)}/${path}${q}`, {});
    } catch (err) {
      toast(errorText(err), 'error');
      for (const x of buttons) x.removeAttribute('aria-disabled');
      this.asking = null;
    } finally {
      this.busy = false;
    }
  }
}
