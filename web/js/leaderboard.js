// The leaderboard (#/leaderboard): the best established players of each
// rating pool (two players; three to six), and the bots' fixed ratings.
// Names are text (esc), never HTML.

import { request } from './api.js';
import { esc } from './dom.js';
import { playerLink } from './profile.js';

const POOLS = [['duel', 'Two players'], ['multi', 'Three to six players']];

export class LeaderboardScreen {
  constructor(root) {
    this.root = root;
    root.innerHTML = '<div class="profile-page leaderboard"><p class="muted" role="status">Loading the leaderboard…</p></div>';
    this.load();
  }

  destroy() {}

  async load() {
    const page = this.root.querySelector('.leaderboard');
    let b;
    try {
      b = await request('GET', '/api/leaderboard');
    } catch (e) {
      page.innerHTML = `<section class="card"><h1>Leaderboard</h1><p role="alert">${esc(e.message)}</p></section>`;
      return;
    }
    document.title = 'Leaderboard — Carcassonne';
    const list = (rows) => (rows.length ? `<table class="board-table">
        <thead><tr><th scope="col">#</th><th scope="col">Player</th><th scope="col">Rating</th><th scope="col">Games</th></tr></thead>
        <tbody>${rows.map((r) => `<tr><td>${r.rank}</td><td><a href="${playerLink(r.name)}">${esc(r.name)}</a></td>
          <td>${Math.round(r.rating)} <span class="muted">± ${Math.round(2 * r.deviation)}</span></td><td>${r.games}</td></tr>`).join('')}</tbody>
      </table>` : `<p class="muted">Nobody yet: a player is listed after ${b.provisional_games} rated games.</p>`);
    page.innerHTML = `
      <header class="profile-head"><h1>Leaderboard</h1>
        <p class="muted">Rated games only. A rating is provisional for its first ${b.provisional_games} games.</p></header>
      ${POOLS.map(([pool, title]) => `<section class="card" aria-labelledby="lb-${pool}"><h2 id="lb-${pool}">${title}</h2>${list(b[pool] || [])}</section>`).join('')}
      <section class="card" aria-labelledby="lb-bots"><h2 id="lb-bots">Bots</h2>
        <p class="muted">Fixed ratings, measured by bots playing each other; they do not move.</p>
        <table class="board-table"><thead><tr><th scope="col">Bot</th><th scope="col">Rating</th></tr></thead>
          <tbody>${b.bots.map((x) => `<tr><td>${esc(x.level)}</td><td>${Math.round(x.rating)}</td></tr>`).join('')}</tbody></table>
      </section>`;
  }
}
