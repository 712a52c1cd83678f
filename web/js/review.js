// The search's review of a finished game in the replay viewer: per move
// what the search would have played instead, in a player's words ("north
// of the cloister, knight in the city: about 5 points more") and, when
// chosen, drawn on the board; and the curve of each player's expected
// margin (GET /api/games/{id}/review; docs/ai.md, "Game review"). Its
// words are messages (web/i18n/LANG.ftl, `review-…`), shared with the
// hint's sentence (hint.js).

import { fetchPatiently } from './api.js';
import { esc } from './dom.js';
import { errorText, intl, t } from './i18n.js';
import { colorOf, markIcon } from './meeple.js';
import { DIRS, HALVES, placeWords, ROLE_OF_KIND, tileSvg } from './tiles.js';

const POLL_MS = 1500;

const DIR8 = { '0,-1': 'north', '1,-1': 'north-east', '1,0': 'east', '1,1': 'south-east', '0,1': 'south', '-1,1': 'south-west', '-1,0': 'west', '-1,-1': 'north-west' };
const EDGE = { '0,-1': 0, '1,0': 1, '0,1': 2, '-1,0': 3 }; // a tile's edge (N E S W) toward a direction

/**
 * A message with some arguments that are HTML (a name with its mark, a tile's
 * picture): the words escaped, the HTML put in as it is.
 */
export function tHtml(id, html = {}, args = {}) {
  const marks = {};
  Object.keys(html).forEach((k, i) => { marks[k] = `\u0001${i}\u0001`; });
  const words = esc(t(id, { ...args, ...marks }));
  return words.replace(/\u0001(\d+)\u0001/g, (_, i) => html[Object.keys(html)[Number(i)]]);
}

/** Expected points with one decimal, in the language in force. */
function decimal(v) {
  return intl(Intl.NumberFormat, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v);
}

/**
 * Where a move lies, as a player checks it at a glance: by the tiles next
 * to it on the board as it was, a neighbour with a follower first — "beside
 * the cloister with Bob's monk", "south of the city with Ada's knight" —
 * then a cloister or garden around it, a city, road or the start tile it
 * touches, a tile with a city or road on its far side; a second
 * neighbour joins the first when nobody's follower singles it out ("south
 * of the city and west of the road"). Gardens count only where the Abbot is
 * played (elsewhere they are just drawn). By the start's steps only when
 * nothing of note lies beside it.
 * `before`: [{tile, at, rot}] the tiles laid before the move; `followers`:
 * [{seat, at, spot, role}] standing then; `names`: each seat's name.
 */
export function whereWords(m, before, tiles, played = null, { gardens = false, followers = [], names = [] } = {}) {
  if (played && played.at[0] === m.at[0] && played.at[1] === m.at[1]) {
    const turn = ((m.rot || 0) - (played.rot || 0) + 4) % 4;
    return turn ? t('review-same-place-turned', { turn }) : t('review-same-place');
  }
  const at = new Map(before.map((t) => [`${t.at[0]},${t.at[1]}`, t]));
  const start = before[0];
  // The follower standing on a segment of the neighbour `n` (its index), if any.
  const holder = (n, seg) => seg >= 0 && followers.find((f) => f.at[0] === n.at[0] && f.at[1] === n.at[1]
    && tiles.segmentAt(n.tile, n.rot || 0, f.spot) === seg);
  const found = [];
  for (const [key, dir] of Object.entries(DIR8)) {
    const [dx, dy] = key.split(',').map(Number);
    const n = at.get(`${m.at[0] + dx},${m.at[1] + dy}`);
    if (!n) continue;
    // Where the move lies from that tile: the opposite way.
    const from = DIR8[`${-dx},${-dy}`];
    const g = tiles.geom(n.tile);
    const def = g ? g.def : {};
    const rot = n.rot || 0;
    let rank = 0, what = '', seg = -1;
    if (def.cloister) { rank = 5; what = 'cloister'; seg = tiles.segmentAt(n.tile, rot, 'C'); }
    else if (def.garden && gardens) { rank = 4; what = 'garden'; seg = tiles.segmentAt(n.tile, rot, 'G'); }
    else if (!(dx && dy)) {
      // The neighbour's edge that faces the move, and its segment there.
      const e = EDGE[`${-dx},${-dy}`];
      const edge = tiles.edgesAt(n.tile, rot)[e];
      if (edge === 'city' || edge === 'road') { rank = edge === 'city' ? 3 : 2; what = edge; seg = tiles.segmentAt(n.tile, rot, DIRS[e]); }
      else if (n === start) { rank = 1; what = 'start'; }
      else { what = 'field'; seg = tiles.segmentAt(n.tile, rot, HALVES[2 * e]); }
    }
    const f = holder(n, seg);
    if (what === 'field' && !f) {
      // A field's side with nobody on it, of a tile that shows a city or a road elsewhere: named by that.
      const shows = tiles.edgesAt(n.tile, rot);
      if (shows.includes('city')) { rank = 0.5; what = 'city-tile'; }
      else if (shows.includes('road')) { rank = 0.4; what = 'road-tile'; }
    }
    const held = !!f && names[f.seat] !== undefined;
    if (held) rank += 10;
    else if (!rank) continue;
    const plain = t('review-where', { from, what });
    const text = !held ? plain
      : t('review-held', { where: what === 'cloister' || what === 'garden' ? t('review-beside', { what }) : plain, name: names[f.seat], role: f.role });
    found.push({ rank, text, plain, held });
  }
  if (!found.length) return placeWords(m.at[0], m.at[1]);
  found.sort((a, b) => b.rank - a.rank);
  const [best, next] = found;
  if (best.held || !next || next.plain === best.plain) return best.text;
  return t('review-where-and', { first: best.text, second: next.text });
}

/** The follower of a move in words: "knight in the north city", "no follower". */
export function followerWords(m, tiles) {
  if (m.meeple) return tiles.spotLabel(m.tile, m.rot || 0, m.meeple);
  if (m.abbot) return tiles.spotLabel(m.tile, m.rot || 0, m.abbot, true);
  const figure = ['big', 'builder', 'pig'].find((f) => m[f]);
  if (figure) return tiles.spotLabel(m.tile, m.rot || 0, m[figure], false, figure);
  if (m.recall) return t('review-follower-recall');
  return t('review-follower-none');
}

/** Expected points, as a player would round them: "about 5 points more", "a little more (0.3 points)". */
export function gainWords(lost) {
  if (lost < 0.95) return t('review-gain-little', { points: decimal(lost) });
  return t('review-gain-about', { n: Math.round(lost) });
}

const signed = (v) => `${v >= 0 ? '+' : '−'}${decimal(Math.abs(v))}`;

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
    const dots = own.filter((m) => m.lost >= 1).map((m) => `<circle cx="${x(m.turn).toFixed(1)}" cy="${y(m.played_margin).toFixed(1)}" r="${Math.min(6, 2 + m.lost / 3).toFixed(1)}" fill="${c.fill}" stroke="${c.edge}" stroke-width="1"><title>${esc(t('review-curve-dot', { turn: m.turn, lost: signed(-m.lost) }))}</title></circle>`).join('');
    return `<polyline points="${pts}" fill="none" stroke="${c.fill}" stroke-width="2" stroke-linejoin="round"/>${dots}`;
  }).join('');
  const marker = mark > 0 && mark <= n ? `<line x1="${x(mark)}" x2="${x(mark)}" y1="${pad.t}" y2="${pad.t + H}" class="mark"/>` : '';
  return `<svg class="chart review-curve" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMidYMid meet">
    ${axis}${marker}${lines}<text x="${pad.l + W}" y="${height - 6}" class="axis" text-anchor="end">${esc(t('review-curve-axis'))}</text></svg>`;
}

export class ReviewPanel {
  /**
   * @param el the sidebar section to fill
   * @param id the stored game's id
   * @param players the replay's players (names and colours)
   * @param opts `tiles` (the tile set), `boardBefore(turn)` (the tiles laid
   *   before a move and the followers standing then: {tiles, followers}), `onPick(turn)` (the curve was clicked), `onBetter(move | null)`
   *   (draw a move's better one on the board, or stop), `onReady(review)`,
   *   `gardens` (the Abbot is played: gardens are features)
   */
  constructor(el, id, players, { tiles, boardBefore, onPick, onBetter = () => {}, onReady = () => {}, gardens = false }) {
    this.gardens = gardens;
    this.el = el;
    this.id = id;
    this.players = players;
    this.tiles = tiles;
    this.boardBefore = boardBefore;
    this.onPick = onPick;
    this.onBetter = onBetter;
    this.onReady = onReady;
    this.k = 0;
    this.drawn = null; // the move whose better one is drawn on the board
    this.review = null;
    this.progress = null;
    this.message = null;
    this.timer = null;
    this.gone = false;
    this.el.addEventListener('click', (e) => {
      if (e.target.closest('[data-act="show-better"]')) { this.toggleBetter(); return; }
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
      resp = await fetchPatiently(`/api/games/${encodeURIComponent(this.id)}/review`);
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
      this.message = body && body.error ? errorText({ code: body.error, message: body.message, body })
        : body && body.message ? body.message : t('review-load-failed');
    }
    this.render();
    if (this.review) this.onReady(this.review);
  }

  /** The move shown now (the replay's step), or null. */
  get move() {
    return this.review && this.k > 0 ? this.review.moves[this.k - 1] || null : null;
  }

  show(k) {
    this.k = k;
    if (this.drawn && this.drawn.turn !== k) this.drawn = null;
    this.render();
  }

  /** Draws the shown move's better one on the board, or stops. */
  toggleBetter(on = !this.drawn) {
    const m = this.move;
    this.drawn = on && m && m.lost >= 0.05 ? m : null;
    this.onBetter(this.drawn);
    this.render();
    const b = this.el.querySelector('[data-act="show-better"]');
    if (b) b.focus();
  }

  /** A move in words: "north of the cloister, knight in the north city". */
  words(m, turn, played = null) {
    const { tiles: before, followers } = this.boardBefore(turn);
    const names = this.players.map((p) => p.name);
    return t('review-move', { where: whereWords(m, before, this.tiles, played, { gardens: this.gardens, followers, names }), follower: followerWords(m, this.tiles) });
  }

  render() {
    if (this.gone) return;
    if (!this.review) {
      this.shownKey = null;
      const head = `<h2>${esc(t('review-title'))}</h2>`;
      this.el.innerHTML = this.progress
        ? `${head}<p class="muted">${esc(t('review-progress', { done: this.progress.done, total: this.progress.total }))}</p>`
        : this.message ? `${head}<p class="muted">${esc(this.message)}</p>` : '';
      return;
    }
    const moves = this.review.moves;
    const m = this.move;
    const name = (seat) => {
      const p = this.players[seat];
      return p ? `<b class="pname">${markIcon(p.color, 12)}${esc(p.name)}</b>` : esc(t('clock-seat', { n: seat + 1 }));
    };
    let line;
    if (!m) line = `<p class="muted">${esc(t('review-step'))}</p>`;
    else if (m.lost >= 0.05) {
      const drawn = this.drawn === m;
      line = `<p class="review-line">${tHtml('review-better', {
        name: name(m.seat),
        tile: tileSvg(m.best.tile, m.best.rot || 0, 20),
        better: `<b class="better-words">${esc(this.words(m.best, m.turn, m.move))}</b>`,
      }, { turn: m.turn, gain: gainWords(m.lost) })}</p>
        <p class="muted played-words">${esc(t('review-played', { move: this.words(m.move, m.turn) }))}</p>
        <button class="btn small" data-act="show-better" aria-pressed="${drawn}">${esc(t(drawn ? 'review-back-to-played' : 'review-show-better'))}</button>`;
    } else {
      line = `<p class="review-line">${tHtml('review-agrees', { name: name(m.seat) }, { turn: m.turn })}</p>`;
    }
    const totals = this.players.map((p, s) => `${name(s)} ${signed(-(this.review.lost[s] || 0))}`).join(' · ');
    // Drawn again only when it changed (a button under the pointer stays the same button).
    const key = `${this.k}:${this.drawn ? this.drawn.turn : ''}`;
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.el.innerHTML = `<h2>${esc(t('review-title'))}</h2>${line}${curveSvg(moves, this.players, this.k)}
      <p class="muted review-totals">${tHtml('review-totals', { totals })} <span title="${esc(t('review-totals-about', { budget: this.review.budget }))}">ⓘ</span></p>`;
  }
}
