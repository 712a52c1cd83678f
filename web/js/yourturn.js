// "Your turn" in the top bar of every page (docs/web.md, "Clocks and
// turn-based games"): the games where a seat this browser holds is to move,
// asked of the server with the seat tokens kept here (POST /api/yourturn,
// which reads only the stored progress), every so often while the page is
// shown and at once when it is shown again or the screen changes. A button
// with their count opens the list; nothing shows while there are none.

import { request } from './api.js';
import { esc } from './dom.js';
import { daysText, clockText } from './clock.js';
import { t } from './i18n.js';

const TOKENS_KEY = 'carcassonne.tokens';
/** Seconds between two asks while the page is shown. */
const EVERY_S = 20;
/** The most games asked about (the server's bound). */
const MAX_GAMES = 100;

function held() {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}') || {}; } catch { all = {}; }
  const games = {};
  for (const id of Object.keys(all).slice(-MAX_GAMES)) {
    if (Array.isArray(all[id]) && all[id].length) games[id] = all[id].slice(0, 6);
  }
  return games;
}

/** The time left of one game's move, in words. */
function leftText(g) {
  if (g.left_ms == null) return '';
  return g.left_ms >= 3_600_000 ? daysText(g.left_ms) : t('clock-left', { time: clockText(g.left_ms) });
}

export class YourTurn {
  constructor(nav) {
    this.el = document.createElement('span');
    this.el.className = 'yourturn-nav';
    this.el.hidden = true;
    this.el.innerHTML = `<button class="yourturn-btn" aria-expanded="false" aria-controls="yourturn-list"></button>
      <div class="yourturn-menu" id="yourturn-list" hidden><h2 class="sr-only">${esc(t('yourturn-title'))}</h2><ul></ul></div>`;
    const account = nav.querySelector('#account-nav');
    nav.insertBefore(this.el, account);
    this.btn = this.el.querySelector('.yourturn-btn');
    this.menu = this.el.querySelector('.yourturn-menu');
    this.btn.onclick = () => this.open(this.menu.hidden);
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !this.menu.hidden) { this.open(false); this.btn.focus(); }
    });
    document.addEventListener('click', (e) => { if (!this.el.contains(e.target)) this.open(false); });
    this.menu.addEventListener('click', (e) => { if (e.target.closest('a')) this.open(false); });
    this.games = [];
    this.busy = false;
    const again = () => { if (!document.hidden) this.refresh(); };
    window.addEventListener('hashchange', again);
    document.addEventListener('visibilitychange', again);
    window.addEventListener('storage', (e) => { if (e.key === TOKENS_KEY) again(); });
    setInterval(again, EVERY_S * 1000);
    this.refresh();
  }

  open(on) {
    this.menu.hidden = !on;
    this.btn.setAttribute('aria-expanded', String(!!on));
  }

  async refresh() {
    const games = held();
    if (this.busy) return;
    if (!Object.keys(games).length) { this.show([]); return; }
    this.busy = true;
    try {
      const answer = await request('POST', '/api/yourturn', { games });
      this.show(answer.games || []);
    } catch { /* offline or refused: the list stays as it was */ }
    this.busy = false;
  }

  show(games) {
    this.games = games;
    // Not the game on screen: its own page says whose turn it is.
    const here = (location.hash.match(/^#\/game\/([^/?]+)/) || [])[1];
    const list = games.filter((g) => g.id !== here);
    this.el.hidden = !list.length;
    this.el.dataset.count = list.length;
    if (!list.length) this.open(false);
    const label = t('yourturn-count', { n: list.length });
    this.btn.innerHTML = `<span aria-hidden="true">${esc(t('yourturn'))}</span> <span class="yourturn-count" aria-hidden="true">${list.length}</span><span class="sr-only">${esc(label)}</span>`;
    this.menu.querySelector('ul').innerHTML = list.map((g) => {
      const others = g.names.filter((_, i) => i !== g.seat);
      const left = leftText(g);
      return `<li><a href="#/game/${encodeURIComponent(g.id)}">${esc(t('yourturn-game', { name: g.names[g.seat], others: others.join(', ') }))}${left ? ` <span class="muted">· ${esc(left)}</span>` : ''}</a></li>`;
    }).join('');
  }
}

/** Puts the list into the top bar. */
export function installYourTurn() {
  const nav = document.querySelector('.topbar');
  return nav ? new YourTurn(nav) : null;
}
