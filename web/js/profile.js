// Profiles (#/player/NAME): a player's ratings, their history as a chart
// (inline SVG, with a table for screen readers and keyboards), the games
// they hold a seat in with results and links to replays and reviews, and
// win rates by rule preset and by player count. Also: the seats this browser
// holds are linked to the signed-in account (linkHeldSeats), so that a guest
// who signs up keeps their games.
// Text from the server goes in as text (esc), never as HTML.

import { knownGames, request, tokensFor } from './api.js';
import { ago, esc } from './dom.js';

const LINKED_KEY = 'carcassonne.linked';
const POOL_NAMES = { duel: 'Two players (Glicko-2)', multi: 'Three to six players (Weng-Lin)' };

function linkedSet() {
  try { return new Set(JSON.parse(localStorage.getItem(LINKED_KEY) || '[]')); } catch { return new Set(); }
}

/**
 * Links the seats this browser holds (their tokens) to the signed-in
 * account, each once: after signing up or in, and after taking an invited seat.
 */
export async function linkHeldSeats() {
  const done = linkedSet();
  const held = [];
  for (const game of knownGames()) {
    for (const token of tokensFor(game)) {
      if (!done.has(`${game}:${token}`)) held.push({ game, token });
    }
  }
  for (let i = 0; i < held.length; i += 50) {
    const part = held.slice(i, i + 50);
    try {
      await request('POST', '/api/account/seats', { seats: part });
    } catch {
      return; // signed out, or the server is away: tried again next time
    }
    for (const h of part) done.add(`${h.game}:${h.token}`);
  }
  try { localStorage.setItem(LINKED_KEY, JSON.stringify([...done].slice(-1000))); } catch { /* private mode */ }
}

export function playerLink(name) {
  return `#/player/${encodeURIComponent(name)}`;
}

/** A rating history as an SVG line chart, described in words for screen readers. */
function chart(history) {
  if (history.length < 1) return '';
  const points = [{ r: history[0].before }, ...history.map((h) => ({ r: h.after }))];
  const rs = points.map((p) => p.r);
  const lo = Math.min(...rs) - 20;
  const hi = Math.max(...rs) + 20;
  const w = 320;
  const h = 120;
  const x = (i) => 8 + (i * (w - 16)) / Math.max(1, points.length - 1);
  const y = (r) => h - 8 - ((r - lo) * (h - 16)) / (hi - lo);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.r).toFixed(1)}`).join(' ');
  const first = Math.round(points[0].r);
  const last = Math.round(points[points.length - 1].r);
  const label = `Rating over ${history.length} rated game${history.length === 1 ? '' : 's'}: from ${first} to ${last}, lowest ${Math.round(Math.min(...rs))}, highest ${Math.round(Math.max(...rs))}.`;
  return `<svg class="rating-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(label)}">
      <path d="${path}" fill="none" stroke="currentColor" stroke-width="2"/>
      ${points.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.r).toFixed(1)}" r="2.5" fill="currentColor"/>`).join('')}
    </svg>`;
}

function rate(t) {
  return t.games ? `${Math.round((100 * t.wins) / t.games)} %` : '–';
}

/** #/player/NAME */
export class ProfileScreen {
  constructor(root, name) {
    this.root = root;
    root.innerHTML = '<div class="profile-page"><p class="muted" role="status">Loading the profile…</p></div>';
    this.load(name);
  }

  destroy() {}

  async load(name) {
    const page = this.root.querySelector('.profile-page');
    let p;
    try {
      p = await request('GET', `/api/players/${encodeURIComponent(name)}`);
    } catch (e) {
      page.innerHTML = `<section class="card"><h1>No such player</h1>
        <p>${e.status === 404 ? `Nobody plays here under the name “${esc(name)}”.` : esc(e.message)}</p>
        <p><a href="#/leaderboard">See the leaderboard</a></p></section>`;
      return;
    }
    document.title = `${p.name} — Carcassonne`;
    const byPool = {};
    for (const h of p.history) (byPool[h.pool] ||= []).push(h);
    const ratings = p.ratings.length ? p.ratings.map((r) => `
        <section class="card rating-card" aria-labelledby="pool-${esc(r.pool)}">
          <h2 id="pool-${esc(r.pool)}">${esc(POOL_NAMES[r.pool] || r.pool)}</h2>
          <p class="rating-now"><span class="rating-value">${Math.round(r.rating)}</span>
            <span class="muted">± ${Math.round(2 * r.deviation)}</span>
            ${r.provisional ? `<span class="badge provisional" title="Fewer than ${p.provisional_games} rated games">provisional</span>` : ''}</p>
          <p class="muted">${r.games} rated game${r.games === 1 ? '' : 's'}</p>
          ${chart(byPool[r.pool] || [])}
          <details class="history"><summary>Rating history as a table</summary>
            <table class="history-table"><caption class="sr-only">Rating after each rated game</caption>
              <thead><tr><th scope="col">Game</th><th scope="col">Place</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
              <tbody>${(byPool[r.pool] || []).map((h) => `<tr><td><a href="#/replay/${encodeURIComponent(h.game)}">${esc(h.game)}</a></td>
                <td>${h.place}</td><td>${Math.round(h.before)}</td><td>${Math.round(h.after)}</td></tr>`).join('')}</tbody>
            </table></details>
        </section>`).join('') : '<section class="card"><h2>Ratings</h2><p class="muted">No rated games yet.</p></section>';
    const players = (g) => g.players.map((pl, i) => {
      const who = pl.player ? `<a href="${playerLink(pl.player)}">${esc(pl.player)}</a>` : esc(pl.name);
      const bot = pl.bot ? ` <span class="muted">(${esc(pl.bot)} bot)</span>` : '';
      return `<span class="${i === g.seat ? 'me' : ''}">${who}${bot} ${pl.score}</span>`;
    }).join(', ');
    const games = p.games.length ? `<ul class="profile-games">${p.games.map((g) => `
        <li><span class="result ${g.result.replace(' ', '-')}">${esc(g.result)}</span>
          ${g.rated ? '<span class="badge">rated</span>' : ''}
          ${g.rating_after !== undefined ? `<span class="muted">${Math.round(g.rating_before)} → ${Math.round(g.rating_after)}</span>` : ''}
          <span class="players">${players(g)}</span>
          <span class="muted">${esc(g.preset)} · ${ago(g.at)}</span>
          ${g.finished ? `<a href="#/replay/${encodeURIComponent(g.id)}">Replay</a>
            <a href="#/replay/${encodeURIComponent(g.id)}?review">Review</a>`
            : `<a href="#/game/${encodeURIComponent(g.id)}">Watch</a>`}</li>`).join('')}</ul>`
      : '<p class="muted">No games yet.</p>';
    const table = (rows, key, head) => `<table class="rates">
        <thead><tr><th scope="col">${head}</th><th scope="col">Games</th><th scope="col">Won</th><th scope="col">Win rate</th></tr></thead>
        <tbody>${rows.map((t) => `<tr><td>${esc(t[key])}</td><td>${t.games}</td><td>${t.wins}</td><td>${rate(t)}</td></tr>`).join('')}</tbody></table>`;
    page.innerHTML = `
      <header class="profile-head"><h1>${esc(p.name)}</h1>
        <p class="muted">Playing since ${new Date(p.since).toLocaleDateString()} · <a href="#/leaderboard">Leaderboard</a></p></header>
      <div class="profile-ratings">${ratings}</div>
      <section class="card"><h2>Games</h2>${games}</section>
      <section class="card"><h2>Win rates</h2>
        ${p.by_preset.length ? `<h3>By rules</h3>${table(p.by_preset, 'preset', 'Rules')}
          <h3>By number of players</h3>${table(p.by_players, 'players', 'Players')}` : '<p class="muted">No finished games yet.</p>'}
      </section>`;
  }
}
