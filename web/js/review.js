// The search's review of a finished game in the replay viewer: per move
// "better was …, +N expected", and the curve of each player's expected
// margin (GET /api/games/{id}/review; docs/ai.md, "Game review").

import { esc } from './dom.js';
import { colorOf } from './meeple.js';
import { tileSvg } from './tiles.js';

const POLL_MS = 1500;

/** A move in the record's form, drawn: its tile, where, and the follower. */
function moveHtml(m) {
  const extra = m.meeple ? ` + follower ${esc(m.meeple)}` : m.abbot ? ` + abbot ${esc(m.abbot)}` : m.recall ? ' + abbot recalled' : '';
  return `${tileSvg(m.tile, m.rot || 0, 20)} at ${m.at[0]},${m.at[1]}${extra}`;
}

const signed = (v) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)}`;

/** Each seat's expected margin after each of its moves, with the current move marked. */
function curveSvg(moves, players, mark, { width = 320, height = 150 } = {}) {
  const n = moves.length;
  if (n < 2) return '';
  const values = moves.map((m) => m.played_margin);
  const top = Math.max(5, ...values.map(Math.abs));
  const pad = { l: 34, r: 12, t: 10, b: 22 };
  const W = width - pad.l - pad.r, H = height - pad.t - pad.b;
  const x = (turn) => pad.l + ((turn - 1) / (n - 1)) * W;
  const y = (v) => pad.t + H / 2 - (v / top) * (H / 2);
  const axis = `<line x1="${pad.l}" x2="${pad.l + W}" y1="${y(0)}" y2="${y(0)}" class="grid"/>
    <text x="${pad.l - 6}" y="${y(top) + 4}" class="axis" text-anchor="end">${signed(top)}</text>
    <text x="${pad.l - 6}" y="${y(0) + 4}" class="axis" text-anchor="end">0</text>
    <text x="${pad.l - 6}" y="${y(-top) + 4}" class="axis" text-anchor="end">${signed(-top)}</text>`;
  const lines = players.map((p, s) => {
    const own = moves.filter((m) => m.seat === s);
    const c = colorOf(p.color);
    const pts = own.map((m) => `${x(m.turn).toFixed(1)},${y(m.played_margin).toFixed(1)}`).join(' ');
    // A dot where a move lost a point or more: bigger for bigger losses.
    const dots = own.filter((m) => m.lost >= 1).map((m) => `<circle cx="${x(m.turn).toFixed(1)}" cy="${y(m.played_margin).toFixed(1)}" r="${Math.min(6, 2 + m.lost / 3).toFixed(1)}" fill="${c.fill}" stroke="${c.edge}" stroke-width="1"><title>move ${m.turn}: ${signed(-m.lost)} expected</title></circle>`).join('');
    return `<polyline points="${pts}" fill="none" stroke="${c.fill}" stroke-width="2" stroke-linejoin="round"/>${dots}`;
  }).join('');
  const marker = mark > 0 && mark <= n ? `<line x1="${x(mark)}" x2="${x(mark)}" y1="${pad.t}" y2="${pad.t + H}" class="mark"/>` : '';
  return `<svg class="chart review-curve" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMidYMid meet">
    ${axis}${marker}${lines}<text x="${pad.l + W}" y="${height - 6}" class="axis" text-anchor="end">move</text></svg>`;
}

export class ReviewPanel {
  /**
   * @param el the sidebar section to fill
   * @param id the stored game's id
   * @param players the replay's players (names and colours)
   * @param onPick called with a move number when the curve is clicked
   */
  constructor(el, id, players, onPick) {
    this.el = el;
    this.id = id;
    this.players = players;
    this.onPick = onPick;
    this.k = 0;
    this.review = null;
    this.progress = null;
    this.message = null;
    this.timer = null;
    this.gone = false;
    this.el.addEventListener('click', (e) => {
      const svg = e.target.closest('svg.review-curve');
      if (!svg || !this.review) return;
      const r = svg.getBoundingClientRect();
      const n = this.review.moves.length;
      const f = ((e.clientX - r.left) / r.width * 320 - 34) / (320 - 46);
      this.onPick(Math.max(1, Math.min(n, Math.round(f * (n - 1)) + 1)));
    });
    this.load();
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.timer);
  }

  async load() {
    let resp, body = null;
    try {
      resp = await fetch(`/api/games/${encodeURIComponent(this.id)}/review`);
      body = await resp.json();
    } catch {
      resp = null;
    }
    if (this.gone) return;
    if (resp && resp.status === 200 && body.status === 'done') {
      this.review = body.review;
    } else if (resp && resp.status === 202) {
      this.progress = body;
      this.timer = setTimeout(() => this.load(), POLL_MS);
    } else if (resp && resp.status === 409) {
      this.message = null; // not finished: no review, no panel
    } else {
      this.message = body && body.message ? body.message : 'the review could not be loaded';
    }
    this.render();
  }

  show(k) {
    this.k = k;
    this.render();
  }

  render() {
    if (this.gone) return;
    if (!this.review) {
      this.el.innerHTML = this.progress
        ? `<h2>Review</h2><p class="muted">The search is reviewing the game: ${this.progress.done} of ${this.progress.total} moves…</p>`
        : this.message ? `<h2>Review</h2><p class="muted">${esc(this.message)}</p>` : '';
      return;
    }
    const moves = this.review.moves;
    const m = this.k > 0 ? moves[this.k - 1] || null : null;
    let line;
    if (!m) line = '<p class="muted">Step through the game to see what the search thought of each move.</p>';
    else if (m.lost >= 0.05) {
      line = `<p class="review-line">Move ${m.turn}: better was ${moveHtml(m.best)}, <b>${signed(m.lost)}</b> expected
        <span class="muted">(${signed(m.best_margin)} instead of ${signed(m.played_margin)})</span></p>`;
    } else {
      line = `<p class="review-line">Move ${m.turn}: the search agrees <span class="muted">(expected margin ${signed(m.played_margin)})</span></p>`;
    }
    const totals = this.players.map((p, s) => `<span style="color:${colorOf(p.color).fill}">${esc(p.name)}</span> ${signed(-(this.review.lost[s] || 0))}`).join(' · ');
    this.el.innerHTML = `<h2>Review</h2>${line}${curveSvg(moves, this.players, this.k)}
      <p class="muted">Expected points lost: ${totals} <span title="The search's value of its best move minus that of the move played, each the mean final margin over sampled tile orders (budget ${esc(this.review.budget)} a move)">ⓘ</span></p>`;
  }
}
