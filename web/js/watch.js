// Games to watch (#/watch): the public games in play, the highest rated
// first (GET /api/watch, each seat's rating beside its name), lobby tables'
// and Play now's among them; read again every 15 s while the page is open.

import { request } from './api.js';
import { esc } from './dom.js';
import { errorText, t } from './i18n.js';
import { gameRow } from './home.js';

const EVERY_MS = 15_000;

export class WatchScreen {
  constructor(root) {
    this.root = root;
    document.title = t('watch-page-title');
    root.innerHTML = `<div class="profile-page watch-page">
      <header class="profile-head"><h1>${esc(t('watch-title'))}</h1><p class="muted">${esc(t('watch-about'))}</p></header>
      <section class="card" aria-labelledby="watch-list-title"><h2 id="watch-list-title" class="sr-only">${esc(t('watch-title'))}</h2>
        <div class="watch-list" aria-live="polite"><p class="muted" role="status">${esc(t('loading'))}</p></div></section></div>`;
    this.load();
    this.timer = setInterval(() => this.load(), EVERY_MS);
  }

  destroy() {
    clearInterval(this.timer);
  }

  async load() {
    const box = this.root.querySelector('.watch-list');
    try {
      const { games } = await request('GET', '/api/watch');
      box.innerHTML = games.length
        ? `<table class="games"><tbody>${games.map((g) => gameRow(g)).join('')}</tbody></table>`
        : `<p class="muted">${esc(t('watch-none'))}</p>`;
    } catch (e) {
      box.innerHTML = `<p class="error" role="alert">${esc(errorText(e))}</p>`;
    }
  }
}
