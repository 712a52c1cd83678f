// Profiles (#/player/NAME): a player's ratings, one per pool (players'
// count and rule family: the base game, the Big Box), each with its history as a chart
// (inline SVG, with a table for screen readers and keyboards), the games
// they hold a seat in with results and links to replays and reviews, and
// win rates by rule preset and by player count. Also: the seats this browser
// holds are linked to the signed-in account (linkHeldSeats), so that a guest
// who signs up keeps their games.
// Text from the server goes in as text (esc), never as HTML.

import { knownGames, request, tokensFor } from './api.js';
import { ago, esc } from './dom.js';
import { errorText, has, intl, lang, t } from './i18n.js';
import { poolWords, presetName } from './rules.js';
import { block, moderationApi, reportDialog, signedInName, unblock } from './moderation.js';

const LINKED_KEY = 'carcassonne.linked';

/** A rating pool's name with its method ('duel', 'multi', 'big-box-duel', 'big-box-multi'). */
function poolName(pool) {
  return has(`profile-pool-${pool}`) ? t(`profile-pool-${pool}`) : pool;
}


/** A rating as a whole number, without a thousands separator (ratings read as one figure). */
export function ratingText(r) {
  return intl(Intl.NumberFormat, { maximumFractionDigits: 0, useGrouping: false }).format(r);
}

/** A count in the page's language. */
function count(n) {
  return intl(Intl.NumberFormat).format(n);
}

/** A preset's name, or the name as the server gives it. */
function presetWords(name) {
  return has(`preset-${name}`) ? presetName(name) : name;
}

/** A bot level's name: the message for the built-in ones, else as the server says it. */
export function levelName(name) {
  return has(`bot-level-${name}`) ? t(`bot-level-${name}`) : name;
}

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

/** A day as a short date in the page's language ("12 Nov"). */
function shortDate(ms) {
  return new Date(ms).toLocaleDateString(lang, { day: 'numeric', month: 'short' });
}

/** A rating history as an SVG line chart with its axes (ratings on the
 * left, the games' dates below), described in words for screen readers. */
function chart(history) {
  if (history.length < 1) return '';
  const points = [{ r: history[0].before, at: history[0].at }, ...history.map((h) => ({ r: h.after, at: h.at }))];
  const rs = points.map((p) => p.r);
  const step = 50;
  const lo = Math.floor((Math.min(...rs) - 10) / step) * step;
  const hi = Math.max(lo + step, Math.ceil((Math.max(...rs) + 10) / step) * step);
  const [w, h, left, bottom] = [340, 150, 44, 22];
  const x = (i) => left + 6 + (i * (w - left - 14)) / Math.max(1, points.length - 1);
  const y = (r) => h - bottom - ((r - lo) * (h - bottom - 8)) / (hi - lo);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.r).toFixed(1)}`).join(' ');
  const ticks = [lo, Math.round((lo + hi) / 2), hi];
  const yAxis = ticks.map((r) => `<line class="grid" x1="${left}" x2="${w - 4}" y1="${y(r).toFixed(1)}" y2="${y(r).toFixed(1)}"/>
      <text class="axis" x="${left - 6}" y="${(y(r) + 4).toFixed(1)}" text-anchor="end">${ratingText(r)}</text>`).join('');
  // Dates under the first game, the last and (with room) one between.
  const shown = [...new Set([1, points.length > 4 ? Math.round(points.length / 2) : 1, points.length - 1])].filter((i) => i < points.length);
  const anchor = (i) => (i === points.length - 1 ? 'end' : i <= 1 ? 'start' : 'middle');
  const xAxis = shown.map((i) => `<text class="axis" x="${x(i).toFixed(1)}" y="${h - 6}" text-anchor="${anchor(i)}">${esc(shortDate(points[i].at))}</text>`).join('');
  const label = t('profile-chart', {
    n: history.length,
    first: ratingText(points[0].r),
    last: ratingText(points[points.length - 1].r),
    low: ratingText(Math.min(...rs)),
    high: ratingText(Math.max(...rs)),
  });
  return `<svg class="rating-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(label)}">
      <g aria-hidden="true">${yAxis}<line class="axis-line" x1="${left}" x2="${w - 4}" y1="${h - bottom}" y2="${h - bottom}"/>${xAxis}</g>
      <path d="${path}" fill="none" stroke="currentColor" stroke-width="2"/>
      ${points.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.r).toFixed(1)}" r="2.5" fill="currentColor"/>`).join('')}
    </svg>`;
}

/** The game list's filters: (name, choices as [value, message]). */
const FILTERS = [
  ['rated', [['all', 'profile-filter-all'], ['rated', 'profile-filter-rated'], ['casual', 'profile-filter-casual']]],
  ['clock', [['all', 'profile-filter-all'], ['none', 'clock-none'], ['realtime', 'profile-filter-realtime'], ['turn', 'profile-filter-turn']]],
  ['result', [['all', 'profile-filter-all'], ['won', 'profile-result-won'], ['lost', 'profile-result-lost'], ['shared win', 'profile-result-shared-win'], ['in play', 'profile-result-in-play']]],
];

/** Whether game `g` passes the filters' values `f`. */
function passes(g, f) {
  return (f.rated === 'all' || (f.rated === 'rated') === g.rated)
    && (f.clock === 'all' || f.clock === (g.clock || 'none'))
    && (f.result === 'all' || f.result === g.result);
}

/** A game's result for its player ('won', 'lost', 'shared win', 'in play') in words. */
function resultWords(result) {
  const key = `profile-result-${String(result).replace(/ /g, '-')}`;
  return has(key) ? t(key) : result;
}

function rate(tally) {
  return tally.games ? intl(Intl.NumberFormat, { style: 'percent', maximumFractionDigits: 0 }).format(tally.wins / tally.games) : '–';
}

/** #/player/NAME */
export class ProfileScreen {
  constructor(root, name) {
    this.root = root;
    root.innerHTML = `<div class="profile-page"><p class="muted" role="status">${esc(t('profile-loading'))}</p></div>`;
    this.load(name);
  }

  destroy() {}

  /** Block / Unblock and Report, for a signed-in visitor on another's profile. */
  async moderation(head, name) {
    const me = await signedInName();
    if (!me || me.toLowerCase() === name.toLowerCase() || !head.isConnected) return;
    let blocked = false;
    try { blocked = (await moderationApi.blocks()).blocks.some((b) => b.name === name); } catch { return; }
    const box = document.createElement('p');
    box.className = 'profile-actions';
    const blockBtn = document.createElement('button');
    blockBtn.type = 'button';
    blockBtn.className = 'btn profile-block';
    const reportBtn = document.createElement('button');
    reportBtn.type = 'button';
    reportBtn.className = 'btn profile-report';
    reportBtn.textContent = t('mod-report');
    reportBtn.setAttribute('aria-label', t('mod-report-name', { name }));
    const draw = () => {
      blockBtn.textContent = t(blocked ? 'mod-unblock' : 'mod-block');
      blockBtn.setAttribute('aria-label', t(blocked ? 'mod-unblock-name' : 'mod-block-name', { name }));
      blockBtn.setAttribute('aria-pressed', String(blocked));
    };
    draw();
    blockBtn.onclick = async () => {
      blockBtn.disabled = true;
      if (blocked ? await unblock(name) : await block({ name })) blocked = !blocked;
      blockBtn.disabled = false;
      draw();
    };
    reportBtn.onclick = () => reportDialog({ what: { name }, name, from: reportBtn });
    box.append(blockBtn, ' ', reportBtn);
    head.append(box);
  }

  async load(name) {
    const page = this.root.querySelector('.profile-page');
    let p;
    try {
      p = await request('GET', `/api/players/${encodeURIComponent(name)}`);
    } catch (e) {
      page.innerHTML = `<section class="card"><h1>${esc(t('profile-not-found'))}</h1>
        <p>${esc(e.status === 404 ? t('profile-nobody', { name }) : errorText(e))}</p>
        <p><a href="#/leaderboard">${esc(t('profile-see-leaderboard'))}</a></p></section>`;
      return;
    }
    document.title = t('profile-page-title', { name: p.name });
    const byPool = {};
    for (const h of p.history) (byPool[h.pool] ||= []).push(h);
    const ratings = p.ratings.length ? p.ratings.map((r) => `
        <section class="card rating-card" aria-labelledby="pool-${esc(r.pool)}">
          <h2 id="pool-${esc(r.pool)}">${esc(poolName(r.pool))}</h2>
          <p class="rating-now"><span class="rating-value">${ratingText(r.rating)}</span>
            <span class="muted">± ${ratingText(2 * r.deviation)}</span>
            ${r.provisional ? `<span class="badge provisional" title="${esc(t('profile-provisional-title', { n: p.provisional_games }))}">${esc(t('profile-provisional'))}</span>` : ''}</p>
          <p class="muted">${esc(t('profile-rated-games', { n: r.games }))}</p>
          ${chart(byPool[r.pool] || [])}
          <details class="history"><summary>${esc(t('profile-history'))}</summary>
            <table class="history-table"><caption class="sr-only">${esc(t('profile-history-caption'))}</caption>
              <thead><tr><th scope="col">${esc(t('profile-col-game'))}</th><th scope="col">${esc(t('profile-col-place'))}</th><th scope="col">${esc(t('profile-col-before'))}</th><th scope="col">${esc(t('profile-col-after'))}</th></tr></thead>
              <tbody>${(byPool[r.pool] || []).map((h) => `<tr><td><a href="#/replay/${encodeURIComponent(h.game)}">${esc(h.game)}</a></td>
                <td>${count(h.place)}</td><td>${ratingText(h.before)}</td><td>${ratingText(h.after)}</td></tr>`).join('')}</tbody>
            </table></details>
        </section>`).join('') : `<section class="card"><h2>${esc(t('profile-ratings'))}</h2><p class="muted">${esc(t('profile-no-rated'))}</p></section>`;
    const players = (g) => g.players.map((pl, i) => {
      const who = pl.player ? `<a href="${playerLink(pl.player)}">${esc(pl.player)}</a>` : esc(pl.name);
      const bot = pl.bot ? ` <span class="muted">${esc(t('profile-bot', { level: levelName(pl.bot) }))}</span>` : '';
      return `<span class="${i === g.seat ? 'me' : ''}">${who}${bot} ${count(pl.score)}</span>`;
    }).join(', ');
    const games = p.games.length ? `<div class="profile-filters" role="group" aria-label="${esc(t('profile-filters'))}">${FILTERS.map(([name, choices]) => `
        <label class="opt">${esc(t(`profile-filter-${name}-label`))} <select data-filter="${name}">${choices.map(([v, id]) => `<option value="${esc(v)}">${esc(t(id))}</option>`).join('')}</select></label>`).join('')}</div>
      <p class="muted profile-filter-none" role="status" hidden>${esc(t('profile-filter-none'))}</p>
      <ul class="profile-games">${p.games.map((g, i) => `
        <li data-game="${i}"><span class="result ${g.result.replace(' ', '-')}">${esc(resultWords(g.result))}</span>
          ${g.rated ? `<span class="badge">${esc(t('profile-rated'))}</span>` : ''}
          ${g.rating_after !== undefined ? `<span class="muted">${ratingText(g.rating_before)} → ${ratingText(g.rating_after)}</span>` : ''}
          <span class="players">${players(g)}</span>
          <span class="muted game-rules">${esc(presetWords(g.preset))}${g.pool ? ` · ${esc(t('profile-game-pool', { pool: poolWords(g.pool) }))}` : ''} · ${esc(ago(g.at))}</span>
          ${g.finished ? `<a href="#/replay/${encodeURIComponent(g.id)}">${esc(t('profile-replay'))}</a>
            <a href="#/replay/${encodeURIComponent(g.id)}?review">${esc(t('profile-review'))}</a>`
            : `<a href="#/game/${encodeURIComponent(g.id)}">${esc(t(tokensFor(g.id).length ? 'game-row-continue' : 'profile-watch'))}</a>`}</li>`).join('')}</ul>`
      : `<p class="muted">${esc(t('profile-no-games'))}</p>`;
    const table = (rows, cell, head) => `<table class="rates">
        <thead><tr><th scope="col">${esc(head)}</th><th scope="col">${esc(t('profile-games'))}</th><th scope="col">${esc(t('profile-col-won'))}</th><th scope="col">${esc(t('profile-col-win-rate'))}</th></tr></thead>
        <tbody>${rows.map((x) => `<tr><td>${esc(cell(x))}</td><td>${count(x.games)}</td><td>${count(x.wins)}</td><td>${rate(x)}</td></tr>`).join('')}</tbody></table>`;
    const since = new Date(p.since).toLocaleDateString(lang, { year: 'numeric', month: 'long', day: 'numeric' });
    page.innerHTML = `
      <header class="profile-head"><h1>${esc(p.name)}</h1>
        <p class="muted">${esc(t('profile-since', { date: since }))} · <a href="#/leaderboard">${esc(t('profile-leaderboard'))}</a></p></header>
      <div class="profile-ratings">${ratings}</div>
      <section class="card"><h2>${esc(t('profile-games'))}</h2>${games}</section>
      <section class="card"><h2>${esc(t('profile-win-rates'))}</h2>
        ${p.by_preset.length ? `<h3>${esc(t('profile-by-rules'))}</h3>${table(p.by_preset, (x) => presetWords(x.preset), t('profile-col-rules'))}
          <h3>${esc(t('profile-by-players'))}</h3>${table(p.by_players, (x) => count(x.players), t('profile-col-players'))}` : `<p class="muted">${esc(t('profile-no-finished'))}</p>`}
      </section>`;
    this.moderation(page.querySelector('.profile-head'), p.name);
    const selects = [...page.querySelectorAll('[data-filter]')];
    const filter = () => {
      const f = Object.fromEntries(selects.map((el) => [el.dataset.filter, el.value]));
      let shown = 0;
      for (const li of page.querySelectorAll('.profile-games li')) {
        li.hidden = !passes(p.games[Number(li.dataset.game)], f);
        if (!li.hidden) shown += 1;
      }
      page.querySelector('.profile-filter-none').hidden = shown > 0;
    };
    for (const el of selects) el.addEventListener('change', filter);
  }
}
