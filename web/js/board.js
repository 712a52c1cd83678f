// The board: placed tiles, followers, legal cells, the tile being placed and
// its follower spots, with zoom and pan (wheel, drag, pinch).

import { esc } from './dom.js';
import { t } from './i18n.js';
import { followerSvg, colorOf } from './meeple.js';

const T = 100; // board units per tile
const REDUCED_MOTION = window.matchMedia('(prefers-reduced-motion: reduce)');
const NS = 'http://www.w3.org/2000/svg';

export class BoardView {
  /**
   * @param {HTMLElement} host
   * @param {import('./tiles.js').TileSet} tiles
   * @param {{onCell?: Function, onSpot?: Function, onGhost?: Function, onHover?: Function, interactive?: boolean}} handlers
   *   `interactive`: the board takes the keyboard focus (the game handles its keys).
   */
  constructor(host, tiles, handlers = {}) {
    this.tiles = tiles;
    this.h = handlers;
    this.host = host;
    host.classList.add('board-host');
    host.innerHTML = `
      <svg class="board" xmlns="${NS}" ${handlers.interactive
    ? 'tabindex="0" role="application" aria-roledescription="board" aria-describedby="board-help"'
    : 'role="img"'} aria-label="${esc(t('board'))}">
        <g class="camera">
          <g class="layer-tiles"></g>
          <g class="layer-marks"></g>
          <g class="layer-targets"></g>
          <g class="layer-ghost"></g>
          <g class="layer-followers"></g>
          <g class="layer-spots"></g>
          <g class="layer-why"></g>
        </g>
      </svg>
      <div class="board-tools">
        <button class="tool zoom-in" title="${esc(t('zoom-in'))} (+)" aria-label="${esc(t('zoom-in'))}">+</button>
        <button class="tool zoom-out" title="${esc(t('zoom-out'))} (−)" aria-label="${esc(t('zoom-out'))}">−</button>
        <button class="tool zoom-fit" title="${esc(t('zoom-fit'))} (0)" aria-label="${esc(t('zoom-fit'))}">⤢</button>
      </div>`;
    this.svg = host.querySelector('svg.board');
    this.camera = host.querySelector('.camera');
    this.layers = {
      tiles: host.querySelector('.layer-tiles'),
      marks: host.querySelector('.layer-marks'),
      targets: host.querySelector('.layer-targets'),
      ghost: host.querySelector('.layer-ghost'),
      followers: host.querySelector('.layer-followers'),
      spots: host.querySelector('.layer-spots'),
      why: host.querySelector('.layer-why'),
    };
    this.cam = { x: 0, y: 0, k: 0.6 };
    this.margins = { top: 56, bottom: handlers.bottomMargin || 12, left: 12, right: 56 };
    this.follow = true; // refit as the board grows until the player moves the view
    this.placed = new Map(); // "x,y" -> {tile, rot}
    this.bounds = null;
    host.querySelector('.zoom-in').onclick = () => this.zoomBy(1.25);
    host.querySelector('.zoom-out').onclick = () => this.zoomBy(0.8);
    host.querySelector('.zoom-fit').onclick = () => { this.follow = true; this.fit(true); };
    this.installGestures();
    this.resizeObserver = new ResizeObserver((entries) => {
      for (const e of entries) {
        if (e.target === this.svg && e.borderBoxSize && e.borderBoxSize[0]) {
          this.seen = { w: e.borderBoxSize[0].inlineSize, h: e.borderBoxSize[0].blockSize };
        }
      }
      if (this.follow) this.fit(); else this.apply();
    });
    this.resizeObserver.observe(host);
    this.resizeObserver.observe(this.svg);
  }

  destroy() {
    this.resizeObserver.disconnect();
  }

  /** What a screen reader says the board is. */
  setLabel(text) {
    if (this.svg.getAttribute('aria-label') !== text) this.svg.setAttribute('aria-label', text);
  }

  // --- camera ---------------------------------------------------------------

  apply() {
    const { x, y, k } = this.cam;
    this.camera.setAttribute('transform', `translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${k.toFixed(4)})`);
    // Zoomed far out, followers grow so that they stay visible.
    if (this.followers && Math.abs(this.followerSize() - this.drawnFollowerSize) > 1) this.setFollowers(this.followers);
  }

  /**
   * A follower's height in board units: 26 (a quarter tile), but never under
   * 16 px on screen, up to 60 (a board some 17 tiles wide fitted to a phone
   * still shows followers 13 px tall or more).
   */
  followerSize() {
    return Math.min(60, Math.max(26, 16 / this.cam.k));
  }

  size() {
    const r = this.svg.getBoundingClientRect();
    return { w: r.width || 800, h: r.height || 600, left: r.left, top: r.top };
  }

  /**
   * The board's size as last laid out (the resize observer's), rather than a layout forced now, in the
   * middle of drawing a state (one layout more a state: over 60 states of a desktop-sized page in
   * headless Chromium, 230 ms of `getBoundingClientRect` before, none after). If the size changes with
   * that drawing, the observer fits again before the frame is painted. Measured only before the
   * observer has said.
   */
  laidOut() {
    return this.seen && this.seen.w && this.seen.h ? this.seen : this.size();
  }

  /**
   * Frames every tile and the cells around them (where a tile may go); once
   * `this.tight` (the game is over) the tiles alone, as large as they fit.
   */
  fit(animate = false) {
    const b = this.bounds || { minX: 0, maxX: 0, minY: 0, maxY: 0 };
    const { w, h } = this.laidOut();
    // Leave room for the banner above and the zoom buttons at the side.
    const m = this.tight ? { ...this.margins, left: 8, right: 8, bottom: 8 } : this.margins;
    const aw = Math.max(100, w - m.left - m.right), ah = Math.max(100, h - m.top - m.bottom);
    const around = this.tight ? 1.2 : 3;
    const cols = b.maxX - b.minX + around, rows = b.maxY - b.minY + around;
    const k = Math.max(0.12, Math.min(1.45, Math.min(aw / (cols * T), ah / (rows * T))));
    const cx = ((b.minX + b.maxX + 1) / 2) * T, cy = ((b.minY + b.maxY + 1) / 2) * T;
    const target = { k, x: m.left + aw / 2 - cx * k, y: m.top + ah / 2 - cy * k };
    if (animate) this.animateTo(target); else { this.cam = target; this.apply(); }
  }

  animateTo(target, ms = 260) {
    if (REDUCED_MOTION.matches) { cancelAnimationFrame(this.anim); delete this.host.dataset.moving; this.cam = target; this.apply(); return; }
    const from = { ...this.cam };
    const t0 = performance.now();
    cancelAnimationFrame(this.anim);
    this.host.dataset.moving = '1';
    const step = (now) => {
      const t = Math.min(1, (now - t0) / ms), e = t * (2 - t);
      this.cam = { x: from.x + (target.x - from.x) * e, y: from.y + (target.y - from.y) * e, k: from.k + (target.k - from.k) * e };
      this.apply();
      if (t < 1) this.anim = requestAnimationFrame(step);
      else delete this.host.dataset.moving;
    };
    this.anim = requestAnimationFrame(step);
  }

  /** Whether every tile and the cells around them are in view. */
  boundsVisible() {
    const b = this.bounds;
    if (!b) return true;
    const { w, h } = this.laidOut();
    const { x, y, k } = this.cam;
    const m = this.margins;
    return x + (b.minX - 1) * T * k >= m.left - 2 && y + (b.minY - 1) * T * k >= m.top - 2
      && x + (b.maxX + 2) * T * k <= w - m.right + 2 && y + (b.maxY + 2) * T * k <= h - m.bottom + 2;
  }

  zoomAt(factor, sx, sy) {
    const k = Math.max(0.08, Math.min(3, this.cam.k * factor));
    const f = k / this.cam.k;
    this.cam = { k, x: sx - (sx - this.cam.x) * f, y: sy - (sy - this.cam.y) * f };
    this.apply();
  }

  zoomBy(factor) {
    const { w, h } = this.size();
    this.follow = false;
    this.zoomAt(factor, w / 2, h / 2);
  }

  /** Screen point (client coordinates) to board units. */
  toBoard(clientX, clientY) {
    const { left, top } = this.size();
    return [(clientX - left - this.cam.x) / this.cam.k, (clientY - top - this.cam.y) / this.cam.k];
  }

  installGestures() {
    const svg = this.svg;
    const pointers = new Map();
    let drag = null;
    let pinch = null;
    this.dragged = false;

    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const { left, top } = this.size();
      this.follow = false;
      const factor = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018));
      this.zoomAt(factor, e.clientX - left, e.clientY - top);
    }, { passive: false });

    svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      // A first finger (or the mouse) starts a new gesture: forget any pointer whose end was never seen.
      if (e.isPrimary) { pointers.clear(); pinch = null; }
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) {
        drag = { x: e.clientX, y: e.clientY, cx: this.cam.x, cy: this.cam.y, moved: false };
        this.dragged = false;
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), k: this.cam.k, cam: { ...this.cam }, mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
        drag = null;
      }
    });
    svg.addEventListener('pointermove', (e) => {
      if (!pointers.has(e.pointerId)) {
        if (this.h.onHover) this.h.onHover(this.cellAt(e.clientX, e.clientY));
        return;
      }
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch && pointers.size >= 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        const { left, top } = this.size();
        this.cam = { ...pinch.cam };
        this.follow = false;
        this.zoomAt(d / pinch.d, pinch.mx - left, pinch.my - top);
        const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
        this.cam.x += mx - pinch.mx; this.cam.y += my - pinch.my;
        this.apply();
        this.dragged = true;
      } else if (drag) {
        const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (!drag.moved && Math.hypot(dx, dy) > 5) {
          drag.moved = true;
          this.dragged = true;
          svg.setPointerCapture(e.pointerId);
          svg.classList.add('panning');
        }
        if (drag.moved) {
          this.follow = false;
          this.cam.x = drag.cx + dx; this.cam.y = drag.cy + dy;
          this.apply();
        }
      }
    });
    const up = (e) => {
      const wasDrag = this.dragged;
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) {
        svg.classList.remove('panning');
        const d = drag;
        drag = null;
        if (e.type === 'pointerup' && d && !wasDrag) this.click(e);
      }
    };
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', up);
    svg.addEventListener('pointerleave', () => { if (this.h.onHover && pointers.size === 0) this.h.onHover(null); });
  }

  cellAt(clientX, clientY) {
    const [bx, by] = this.toBoard(clientX, clientY);
    return { x: Math.floor(bx / T), y: Math.floor(by / T), fx: bx / T - Math.floor(bx / T), fy: by / T - Math.floor(by / T) };
  }

  click(e) {
    const el = e.target.closest ? e.target.closest('[data-spot]') : null;
    if (el && this.h.onSpot) { this.h.onSpot(el.dataset.spot); return; }
    const ghost = e.target.closest ? e.target.closest('.ghost-tile') : null;
    if (ghost && this.h.onGhost) { this.h.onGhost(); return; }
    const cell = this.cellAt(e.clientX, e.clientY);
    if (this.h.onCell) this.h.onCell(cell.x, cell.y);
  }

  // --- drawing --------------------------------------------------------------

  /** Draws the placed tiles; new ones drop in. `last` is the latest placement. */
  setTiles(board, last = null) {
    const seen = new Set();
    let grew = false;
    for (const t of board) {
      const key = `${t.at[0]},${t.at[1]}`;
      seen.add(key);
      const cur = this.placed.get(key);
      if (cur && cur.tile === t.tile && cur.rot === t.rot) continue;
      if (cur) cur.el.remove();
      const el = document.createElementNS(NS, 'g');
      el.setAttribute('class', 'placed' + (this.placed.size > 0 ? ' fresh' : ''));
      el.setAttribute('transform', `translate(${t.at[0] * T} ${t.at[1] * T})`);
      el.innerHTML = `<g class="drop"><use href="#tile-${t.tile}" transform="rotate(${t.rot * 90} 50 50)"/></g>`;
      el.dataset.x = t.at[0]; el.dataset.y = t.at[1];
      this.layers.tiles.appendChild(el);
      this.placed.set(key, { tile: t.tile, rot: t.rot, el });
      grew = true;
    }
    for (const [key, v] of this.placed) if (!seen.has(key)) { v.el.remove(); this.placed.delete(key); }
    if (grew || !this.bounds) {
      const xs = board.map((t) => t.at[0]), ys = board.map((t) => t.at[1]);
      this.bounds = xs.length
        ? { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) }
        : null;
      // Keep the view still under the player's hand unless the board outgrows it.
      if (this.follow && (this.placed.size <= 1 || !this.boundsVisible())) this.fit(this.placed.size > 1);
    }
    this.setLast(last);
  }

  /** Outlines the latest placed tile in its player's colour. */
  setLast(last) {
    const m = this.layers.marks;
    for (const el of [...m.children]) if (!el.classList.contains('cursor')) el.remove();
    if (!last) return;
    const c = colorOf(last.color);
    m.insertAdjacentHTML('afterbegin', `<rect class="last-move" x="${last.at[0] * T + 1.5}" y="${last.at[1] * T + 1.5}" width="${T - 3}" height="${T - 3}"
      rx="3" fill="none" stroke="${c.fill}" stroke-width="4"/>`);
  }

  /** Followers on the board: [{seat, at, spot, role, big, color}]. `pending` ones are drawn as ghosts. */
  setFollowers(followers) {
    const out = [];
    this.followers = followers;
    const size = (this.drawnFollowerSize = this.followerSize());
    for (const f of followers) {
      const t = this.placed.get(`${f.at[0]},${f.at[1]}`) || f.tileInfo;
      if (!t) continue;
      const [px, py] = this.tiles.spotPoint(t.tile, t.rot, f.spot);
      out.push(followerSvg(f.color, f.role, f.at[0] * T + px, f.at[1] * T + py, size, f.pending ? 'pending' : '', !!f.big));
    }
    this.layers.followers.innerHTML = out.join('');
  }

  /**
   * Legal cells: `cells` is [{x, y, now}] where `now` says the tile fits there
   * in the current rotation.
   */
  setTargets(cells, color) {
    const c = colorOf(color || 'yellow');
    this.layers.targets.innerHTML = cells.map(({ x, y, now }) =>
      `<rect class="target ${now ? 'fits' : 'fits-other'}" data-x="${x}" data-y="${y}" x="${x * T + 4}" y="${y * T + 4}"
        width="${T - 8}" height="${T - 8}" rx="8" style="--pc:${c.fill}"/>`).join('');
  }

  /** The tile being placed (or previewed on hover; or, `advice`, a better move shown). */
  setGhost(ghost) {
    const g = this.layers.ghost;
    if (!ghost) { g.innerHTML = ''; return; }
    const { tile, x, y, rot, solid, color, advice } = ghost;
    const c = colorOf(color || 'yellow');
    g.innerHTML = `<g class="ghost-tile ${advice ? 'advice' : solid ? 'solid' : 'preview'}" transform="translate(${x * T} ${y * T})">
      <use href="#tile-${tile}" transform="rotate(${rot * 90} 50 50)"/>
      <rect x="1.5" y="1.5" width="${T - 3}" height="${T - 3}" rx="3" fill="none" stroke="${c.fill}" stroke-width="4" class="ghost-frame"/>
    </g>`;
  }

  /**
   * Clickable follower spots on the tile being placed. A spot of the Big
   * Box's figures (`figure`: 'big', 'builder', 'pig') has a ring of its own
   * shape: two rings, a square, a diamond.
   */
  setSpots(spots) {
    const out = [];
    for (const s of spots || []) {
      const [px, py] = this.tiles.spotPoint(s.tile, s.rot, s.spot);
      const c = colorOf(s.color);
      const [ox, oy] = s.offset || [0, 0];
      const cx = s.x * T + px + ox, cy = s.y * T + py + oy;
      const ring = s.figure === 'builder' ? `<rect x="${cx - 10}" y="${cy - 10}" width="20" height="20" rx="2" class="spot-ring"/>`
        : s.figure === 'pig' ? `<path d="M${cx} ${cy - 13}L${cx + 13} ${cy}L${cx} ${cy + 13}L${cx - 13} ${cy}Z" class="spot-ring"/>`
          : s.figure === 'big' ? `<circle cx="${cx}" cy="${cy}" r="14" class="spot-ring outer"/><circle cx="${cx}" cy="${cy}" r="10" class="spot-ring"/>`
            : `<circle cx="${cx}" cy="${cy}" r="11" class="spot-ring"/>`;
      out.push(`<g class="spot${s.selected ? ' selected' : ''}${s.abbot ? ' abbot' : ''}${s.figure ? ` ${s.figure}` : ''}" data-spot="${s.key}" style="--pc:${c.fill}">
        ${ring}
        ${s.n ? `<text x="${cx}" y="${cy + 4.5}" class="spot-letter" text-anchor="middle">${s.n}</text>`
    : s.abbot ? `<text x="${cx}" y="${cy + 4.5}" class="spot-letter" text-anchor="middle">A</text>` : `<circle cx="${cx}" cy="${cy}" r="5" class="spot-dot"/>`}
        <title>${s.n ? `${s.n}: ` : ''}${s.title || s.spot}</title></g>`);
    }
    this.layers.spots.innerHTML = out.join('');
  }

  /**
   * Lights what a scoring was for: its tiles (`cells`, [[x, y]]) outlined
   * and the rest of the board dimmed, and its followers ([{at, spot, tile,
   * rot, role, color, gone}], `gone`: already home) drawn over it. `null`: none.
   */
  setWhy(why) {
    const g = this.layers.why;
    if (!why) { g.innerHTML = ''; return; }
    const lit = new Set(why.cells.map(([x, y]) => `${x},${y}`));
    const dim = [...this.placed.keys()].filter((k) => !lit.has(k)).map((k) => {
      const [x, y] = k.split(',').map(Number);
      return `<rect x="${x * T}" y="${y * T}" width="${T}" height="${T}" class="why-dim"/>`;
    });
    const outline = why.cells.map(([x, y]) => `<rect x="${x * T + 2}" y="${y * T + 2}" width="${T - 4}" height="${T - 4}" rx="4" class="why-tile" data-x="${x}" data-y="${y}"/>`);
    const size = this.followerSize();
    const men = why.followers.map((f) => {
      const [px, py] = this.tiles.spotPoint(f.tile, f.rot, f.spot);
      // At the end, a follower outnumbered on what scored is drawn apart: it did not count.
      const cls = f.outnumbered ? 'why-outnumbered' : `why-follower${f.gone ? ' pending' : ''}`;
      return followerSvg(f.color, f.role, f.at[0] * T + px, f.at[1] * T + py, size, cls, !!f.big);
    });
    g.innerHTML = dim.join('') + outline.join('') + men.join('');
  }

  clearInteraction() {
    this.setTargets([]);
    this.setGhost(null);
    this.setSpots([]);
  }

  /**
   * Pans so that a cell is in view (for a placement off screen) and, given
   * `minPx`, zooms in until a tile is at least that many pixels wide (so
   * that its follower spots can be touched).
   */
  reveal(x, y, minPx = 0) {
    const { w, h } = this.size();
    const k = Math.max(this.cam.k, Math.min(3, minPx / T));
    const sx = this.cam.x + (x + 0.5) * T * this.cam.k, sy = this.cam.y + (y + 0.5) * T * this.cam.k;
    const m = T * this.cam.k;
    if (k === this.cam.k && sx > m && sy > m && sx < w - m && sy < h - m) return;
    if (k !== this.cam.k) this.follow = false;
    const mx = this.margins, cx = mx.left + (w - mx.left - mx.right) / 2, cy = mx.top + (h - mx.top - mx.bottom) / 2;
    this.animateTo({ k, x: cx - (x + 0.5) * T * k, y: cy - (y + 0.5) * T * k });
  }

  /**
   * Frames cells (those where a tile fits), each at least `minPx` pixels
   * wide, clear of the banner and the buttons: all of them if they fit on
   * screen so, else as many as fit (the largest group). Returns how many
   * are left out of view.
   */
  frameCells(cells, minPx = 0) {
    if (!cells.length) return 0;
    const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
    const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    const { w, h } = this.size();
    const m = this.margins;
    const aw = Math.max(100, w - m.left - m.right), ah = Math.max(100, h - m.top - m.bottom);
    const k = Math.max(minPx / T, Math.min(1.45, aw / ((maxX - minX + 1) * T), ah / ((maxY - minY + 1) * T)));
    // How many cells across and down are in view at that size.
    const across = aw / (k * T), down = ah / (k * T);
    const inside = (c, mx, my) => Math.abs(c.x + 0.5 - mx) <= across / 2 - 0.5 + 1e-9 && Math.abs(c.y + 0.5 - my) <= down / 2 - 0.5 + 1e-9;
    let mx = (minX + maxX + 1) / 2, my = (minY + maxY + 1) / 2;
    if (!cells.every((c) => inside(c, mx, my))) {
      // Too many to show at a touchable size: the window that holds the most of them.
      let best = -1;
      for (const a of cells) {
        for (const b of cells) {
          // A window with `a` at its left edge and `b` at its top edge.
          const wx = a.x + across / 2, wy = b.y + down / 2;
          const n = cells.filter((c) => inside(c, wx, wy)).length;
          if (n > best) { best = n; mx = wx; my = wy; }
        }
      }
    }
    this.follow = false;
    this.animateTo({ k, x: m.left + aw / 2 - mx * T * k, y: m.top + ah / 2 - my * T * k });
    return cells.filter((c) => !inside(c, mx, my)).length;
  }

  /** Frames cells ([[x, y]]) with a cell's margin round them (a scoring with its surroundings). */
  frameAround(cells) {
    if (!cells.length) return;
    const xs = cells.map(([x]) => x), ys = cells.map(([, y]) => y);
    this.frameCells([{ x: Math.min(...xs) - 1, y: Math.min(...ys) - 1 }, { x: Math.max(...xs) + 1, y: Math.max(...ys) + 1 }]);
  }

  /** The on-screen radius, in pixels, of a follower spot's ring. */
  spotRadiusPx() {
    return 11 * this.cam.k;
  }

  /** Marks the keyboard's cell (none: `null`). */
  setCursor(cell) {
    let c = this.layers.marks.querySelector('.cursor');
    if (!cell) { if (c) c.remove(); return; }
    if (!c) {
      c = document.createElementNS(NS, 'rect');
      c.setAttribute('class', 'cursor');
      this.layers.marks.appendChild(c);
    }
    for (const [k, v] of Object.entries({ x: cell.x * T - 3, y: cell.y * T - 3, width: T + 6, height: T + 6, rx: 6 })) c.setAttribute(k, v);
  }
}
