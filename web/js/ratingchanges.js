// The results dialog of a rated game: what it did to each player's rating
// (GET /api/games/ID/ratings), "Ada 1500 → 1662 (+162)", each name a link
// to the profile, and the pool it was rated in. The result is applied as the game ends; until the
// server says it is, the box says so and asks again a few times.

import { request } from './api.js';
import { esc } from './dom.js';
import { intl, t } from './i18n.js';
import { poolWords } from './rules.js';

const TRIES = 5;
const AGAIN_MS = 1500;

/** Fills `box` with game `id`'s rating changes (nothing for a void or unrated game). */
export async function showRatingChanges(box, id, tries = 0) {
  let r;
  try {
    r = await request('GET', `/api/games/${encodeURIComponent(id)}/ratings`);
  } catch {
    box.replaceChildren();
    return;
  }
  if (!box.isConnected || !r.rated) return;
  if (!r.settled) {
    if (tries + 1 >= TRIES) { box.replaceChildren(); return; }
    box.innerHTML = `<p class="muted">${esc(t('results-ratings-pending'))}</p>`;
    setTimeout(() => showRatingChanges(box, id, tries + 1), AGAIN_MS);
    return;
  }
  if (!r.players.length) { box.replaceChildren(); return; }
  // Ratings read as one figure, without a thousands separator (as in the lobby and the profiles).
  const signed = intl(Intl.NumberFormat, { signDisplay: 'exceptZero', useGrouping: false });
  const plain = intl(Intl.NumberFormat, { useGrouping: false });
  // The pool whose ratings the game moved (its players' count and rule family).
  const pool = r.pool ? `<p class="muted rating-pool" data-pool="${esc(r.pool)}">${esc(t('results-ratings-pool', { pool: poolWords(r.pool) }))}</p>` : '';
  box.innerHTML = `<h3>${esc(t('results-ratings'))}</h3>${pool}
    <ul class="rating-changes">${r.players.map((p) => {
    const delta = p.after - p.before;
    return `<li><a href="#/player/${encodeURIComponent(p.player)}">${esc(p.player)}</a>
      ${plain.format(p.before)} → <strong>${plain.format(p.after)}</strong>
      <span class="${delta > 0 ? 'up' : delta < 0 ? 'down' : ''}">(${signed.format(delta)})</span></li>`;
  }).join('')}</ul>`;
}
