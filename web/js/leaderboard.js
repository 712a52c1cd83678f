// The leaderboard (#/leaderboard, #/leaderboard/big-box): the best
// established players of each rating pool (two players; three to six) of
// the rule set chosen (the base game, or the Big Box: each keeps ratings of
// its own; the address keeps the choice), and the bots' fixed ratings (the
// same in every pool). Names are text (esc), never HTML.

import { request } from './api.js';
import { esc } from './dom.js';
import { errorText, intl, t } from './i18n.js';
import { levelName, playerLink, ratingText } from './profile.js';

/** The rule families, each its pools (the server's words) by player count. */
const FAMILIES = {
  base: [['duel', 'leaderboard-duel'], ['multi', 'leaderboard-multi']],
  'big-box': [['big-box-duel', 'leaderboard-duel'], ['big-box-multi', 'leaderboard-multi']],
};

export class LeaderboardScreen {
  constructor(root, family = 'base') {
    this.root = root;
    this.family = FAMILIES[family] ? family : 'base';
    root.innerHTML = `<div class="profile-page leaderboard"><p class="muted" role="status">${esc(t('leaderboard-loading'))}</p></div>`;
    this.load();
  }

  destroy() {}

  async load() {
    const page = this.root.querySelector('.leaderboard');
    let b;
    try {
      b = await request('GET', '/api/leaderboard');
    } catch (e) {
      page.innerHTML = `<section class="card"><h1>${esc(t('leaderboard-title'))}</h1><p role="alert">${esc(errorText(e))}</p></section>`;
      return;
    }
    document.title = t('leaderboard-page-title');
    const count = (n) => intl(Intl.NumberFormat).format(n);
    const list = (rows) => (rows.length ? `<table class="board-table">
        <thead><tr><th scope="col">${esc(t('leaderboard-col-rank'))}</th><th scope="col">${esc(t('leaderboard-col-player'))}</th><th scope="col">${esc(t('leaderboard-col-rating'))}</th><th scope="col">${esc(t('leaderboard-col-games'))}</th></tr></thead>
        <tbody>${rows.map((r) => `<tr><td>${count(r.rank)}</td><td><a href="${playerLink(r.name)}">${esc(r.name)}</a></td>
          <td>${ratingText(r.rating)} <span class="muted">± ${ratingText(2 * r.deviation)}</span></td><td>${count(r.games)}</td></tr>`).join('')}</tbody>
      </table>` : `<p class="muted">${esc(t('leaderboard-nobody', { n: b.provisional_games }))}</p>`);
    const choice = Object.keys(FAMILIES).map((f) => `<a class="btn small${f === this.family ? ' primary' : ''}" data-family="${f}"
        href="#/leaderboard${f === 'base' ? '' : `/${f}`}"${f === this.family ? ' aria-current="page"' : ''}>${esc(t(`rating-family-${f}`))}</a>`).join(' ');
    const family = t(`rating-family-${this.family}`);
    page.innerHTML = `
      <header class="profile-head"><h1>${esc(t('leaderboard-title'))}</h1>
        <p class="muted">${esc(t('leaderboard-about', { n: b.provisional_games }))}</p>
        <nav class="leaderboard-families row" aria-label="${esc(t('leaderboard-family'))}">${choice}</nav>
        <p class="muted">${esc(t('leaderboard-family-about'))}</p></header>
      ${FAMILIES[this.family].map(([pool, title]) => `<section class="card" data-pool="${pool}" aria-labelledby="lb-${pool}"><h2 id="lb-${pool}">${esc(family)} · ${esc(t(title))}</h2>${list(b[pool] || [])}</section>`).join('')}
      <section class="card" aria-labelledby="lb-bots"><h2 id="lb-bots">${esc(t('leaderboard-bots'))}</h2>
        <p class="muted">${esc(t('leaderboard-bots-about'))}</p>
        <table class="board-table"><thead><tr><th scope="col">${esc(t('leaderboard-col-bot'))}</th><th scope="col">${esc(t('leaderboard-col-rating'))}</th></tr></thead>
          <tbody>${b.bots.map((x) => `<tr><td>${esc(levelName(x.level))}</td><td>${ratingText(x.rating)}</td></tr>`).join('')}</tbody></table>
      </section>`;
  }
}
