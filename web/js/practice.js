// A position to play one move in, checked by the engine: the tutorial's
// lessons (learn.js) and the puzzles (puzzles.js). The position is a record
// (record.md) with the learner to move; their move is appended and the
// record sent to POST /api/replay, which replays every move by the rules
// and either refuses it (naming the rule) or returns what happened. The
// board is the game's (board.js); the keys are the game's (arrows, R, F,
// 1–9, Enter, Esc).

import { api } from './api.js';
import { BoardView } from './board.js';
import { esc } from './dom.js';
import { has, listWords, t } from './i18n.js';
import { colorOf } from './meeple.js';
import { followerWords } from './review.js';
import { DIRS, HALVES, placeWords, tileWords } from './tiles.js';

export const ROLE_OF_KIND = { city: 'knight', road: 'thief', field: 'farmer', cloister: 'monk', garden: 'abbot' };
const TOUCH = window.matchMedia('(pointer: coarse)').matches;

// --- texts ---------------------------------------------------------------------
// Every word of the learning views is a message of web/i18n/LANG.ftl (its
// section "Tutorial, puzzles, review"): the lessons' own texts are
// `lesson-KEY-title`, `-intro`, `-goal` and `-done`.

const loaded = new Map(); // path -> Promise of its JSON

/** A static JSON file of the page, fetched once (again after a failure); `failed`: the message saying it could not be. */
export function staticJson(path, failed) {
  if (!loaded.has(path)) {
    loaded.set(path, fetch(path).then((r) => {
      if (!r.ok) throw new Error(t(failed, { status: r.status }));
      return r.json();
    }).catch((e) => { loaded.delete(path); throw e; }));
  }
  return loaded.get(path);
}

/** The tutorial's lessons (web/learn/lessons.json; their words are messages: `lesson-KEY-…`). */
export function learnData() {
  return staticJson('learn/lessons.json', 'learn-load-failed');
}


/**
 * The engine's refusal of POST /api/replay as the rule's stable code and
 * the parts a sentence needs, as the wire carries them: `rule` (the
 * engine's code of the rule the move breaks) and `facts` (`side`, `ours`,
 * `theirs` for an edge that does not match; `feature` for a feature that
 * holds a follower). A refusal that names no rule (a malformed record) is
 * `other`, with the engine's words.
 */
export function refusalRule(body) {
  const b = body || {};
  if (!b.rule) return { code: 'other', message: String(b.message || '').replace(/^move \d+: /, '') };
  const rule = { ...(b.facts || {}), code: b.rule };
  if (rule.code === 'feature_occupied') rule.role = ROLE_OF_KIND[rule.feature] || 'follower';
  return rule;
}

/**
 * A refusal (the error's body) explained in words: a rule the lessons have
 * no words for is `other`. The facts stay the engine's codes ('city',
 * 'north', 'knight'): the messages choose their words by them.
 */
export function explainRefusal(body) {
  const rule = refusalRule(body);
  if (rule.code === 'other' || !has(`learn-error-${rule.code}`)) {
    const message = String((body && body.message) || '').replace(/^move \d+: /, '');
    return { code: 'other', text: t('learn-error-other', { message }) };
  }
  return { code: rule.code, text: t(`learn-error-${rule.code}`, rule) };
}

/** A scoring in words: "3 points (road of 3 tiles)". */
export function scoredWords(e) {
  if (e.kind === 'goods' && e.when !== 'final') return t('learn-goods-taken');
  let what = e.kind === 'road' ? t('scored-road', { n: e.tiles })
    : e.kind === 'city' ? t('scored-city', { n: e.tiles, shields: e.shields || 0 })
      : e.kind === 'farm' ? t('scored-farm', { n: e.cities })
        : e.kind === 'cloister' || e.kind === 'garden' ? t(`scored-${e.kind}`)
          : e.kind === 'recall' ? t('learn-what-recall')
            : e.kind === 'goods' ? t('learn-what-goods') : e.kind;
  if (e.when === 'final') what = t('learn-what-final', { what });
  return t('learn-points', { points: e.points, what });
}

// --- the position ----------------------------------------------------------------

/** The follower choices on a tile as it lies: [{key, kind: 'meeple'|'abbot'|'recall', spot, label}]. */
export function spotChoices(tiles, tile, rot, { followers = true, abbot = false, recall = false } = {}) {
  const g = tiles.geom(tile);
  if (!g) return [];
  const out = [];
  for (const seg of g.def.segments) {
    let spot;
    if (seg.kind === 'city' || seg.kind === 'road') spot = DIRS[(DIRS.indexOf(seg.edges[0]) + rot) % 4];
    else if (seg.kind === 'field') {
      if (!seg.halves || !seg.halves.length) continue;
      spot = HALVES[(HALVES.indexOf(seg.halves[0]) + 2 * rot) % 8];
    } else if (seg.kind === 'cloister') spot = 'C';
    else if (seg.kind === 'garden') spot = 'G';
    else continue;
    // In words by where it lies on the tile as turned: "knight in the north city".
    if (followers && seg.kind !== 'garden') {
      out.push({ key: `meeple:${spot}`, kind: 'meeple', spot, role: ROLE_OF_KIND[seg.kind], label: tiles.spotLabel(tile, rot, spot) });
    }
    if (abbot && (seg.kind === 'cloister' || seg.kind === 'garden')) {
      out.push({ key: `abbot:${spot}`, kind: 'abbot', spot, role: 'abbot', label: tiles.spotLabel(tile, rot, spot, true) });
    }
  }
  if (recall) out.push({ key: 'recall', kind: 'recall', spot: null, role: 'abbot', label: t('learn-recall') });
  return out;
}

/** A move in words, as a player says it: "a tile with a city, north of the start, turned 90°, knight in the north city". */
export function moveWords(tiles, m) {
  return t('learn-move', { tile: tileWords(m.tile), place: placeWords(m.at[0], m.at[1]), deg: m.rot * 90, follower: followerWords(m, tiles) });
}

/**
 * The events a move brought, from a replay: its own turn's and, unless
 * `final` is false (a puzzle's record stops at the tile to play: its end is
 * not the game's), the final scoring's.
 */
export function moveEvents(replay, final = true) {
  const last = replay.steps[replay.steps.length - 1];
  return final ? last.events : last.events.filter((e) => e.when !== 'final' && e.type !== 'end');
}

export class Practice {
  /**
   * @param {HTMLElement} host the element to fill (a board and a move panel)
   * @param {import('./tiles.js').TileSet} tiles
   * @param {{record: object, tile: string, head: string, check: Function, onDone?: Function}} spec
   *   `record`: the position (the learner to move); `tile`: the tile to lay;
   *   `head`: HTML above the move; `check(replay, move)` → `{ok, text}` for a legal move.
   */
  constructor(host, tiles, spec) {
    this.host = host;
    this.tiles = tiles;
    this.spec = spec;
    this.sel = { placed: null, rot: 0, action: null };
    this.busy = false;
    this.outcome = null; // after a move: { ok, text, replay? }
    host.innerHTML = `
      <div class="game-layout practice">
        <div class="board-wrap"><div class="board-area"></div><div class="banner practice-banner" aria-hidden="true"></div></div>
        <aside class="sidebar">
          <section class="practice-head">${spec.head}</section>
          <section class="practice-move"></section>
          <section class="practice-result" role="status" aria-live="polite"></section>
          <p id="board-help" class="sr-only">${esc(t('learn-keys'))}</p>
        </aside>
      </div>`;
    this.board = new BoardView(host.querySelector('.board-area'), tiles, {
      interactive: true,
      onCell: (x, y) => this.place(x, y),
      onSpot: (key) => this.pick(this.choices().find((c) => c.key === key) || null, true),
      onGhost: () => (TOUCH ? this.play() : this.rotate(1)),
    });
    this.keys = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keys);
    this.start();
  }

  destroy() {
    document.removeEventListener('keydown', this.keys);
    this.board.destroy();
  }

  $(sel) { return this.host.querySelector(sel); }

  async start() {
    try {
      this.base = await api.replayRecord(JSON.stringify(this.spec.record));
      this.tiles.need(this.base.expansions);
    } catch (e) {
      this.$('.practice-result').innerHTML = `<p class="bad">${esc(e.message)}</p>`;
      return;
    }
    const step = this.base.steps[this.base.steps.length - 1];
    this.seat = step.to_move;
    this.me = this.base.players[this.seat];
    this.supply = step.supply[this.seat];
    const rules = this.base.rules || {};
    this.abbotRule = !!rules.abbot;
    this.abbotOut = step.followers.some((f) => f.seat === this.seat && f.role === 'abbot');
    this.reset();
    this.board.fit();
  }

  /** Back to the position before the move. */
  reset() {
    this.outcome = null;
    this.sel = { placed: null, rot: this.sel.rot, action: null };
    this.board.setTiles(this.base.board);
    this.draw();
  }

  /**
   * The cells where the tile fits in some rotation (the engine's list,
   * `legal` of POST /api/replay), each with the rotations that fit: [{x, y, rots}].
   */
  cells() {
    const out = new Map();
    for (const p of this.base.legal || []) {
      if (p.tile !== this.spec.tile) continue;
      const k = `${p.at[0]},${p.at[1]}`;
      if (!out.has(k)) out.set(k, { x: p.at[0], y: p.at[1], rots: [] });
      if (!out.get(k).rots.includes(p.rot)) out.get(k).rots.push(p.rot);
    }
    return [...out.values()];
  }

  choices() {
    if (!this.sel.placed) return [];
    const { x, y, rot } = this.sel.placed;
    const out = spotChoices(this.tiles, this.spec.tile, rot, {
      followers: this.supply > 0, abbot: this.abbotRule && !this.abbotOut, recall: this.abbotRule && this.abbotOut,
    });
    // The expansions' figures where the engine allows them (`legal`: the big
    // follower, the builder, the pig), one choice per segment.
    const legal = (this.base.legal || []).find((p) => p.tile === this.spec.tile && p.at[0] === x && p.at[1] === y && p.rot === rot);
    for (const figure of ['big', 'builder', 'pig']) {
      const seen = new Set();
      for (const spot of (legal && legal[figure]) || []) {
        const seg = this.tiles.segmentAt(this.spec.tile, rot, spot);
        if (seen.has(seg)) continue;
        seen.add(seg);
        const kind = this.tiles.spotKind(this.spec.tile, rot, spot);
        out.push({ key: `${figure}:${spot}`, kind: figure, spot, role: figure === 'big' ? ROLE_OF_KIND[kind] : figure,
          big: figure === 'big', label: this.tiles.spotLabel(this.spec.tile, rot, spot, false, figure) });
      }
    }
    return out;
  }

  /** The move as the record writes it. */
  move() {
    const { placed, action } = this.sel;
    const mv = { tile: this.spec.tile, at: [placed.x, placed.y], rot: placed.rot };
    if (action && action.kind === 'meeple') mv.meeple = action.spot;
    if (action && action.kind === 'abbot') mv.abbot = action.spot;
    if (action && action.kind === 'recall') mv.recall = true;
    if (action && ['big', 'builder', 'pig'].includes(action.kind)) mv[action.kind] = action.spot;
    // A builder's second part is marked so (the position says it is one).
    if (this.spec.bonus) mv.bonus = this.spec.bonus;
    return mv;
  }

  draw() {
    if (!this.base) return;
    const color = this.me.color;
    const step = this.outcome && this.outcome.replay
      ? this.outcome.replay.steps[this.outcome.replay.steps.length - 1]
      : this.base.steps[this.base.steps.length - 1];
    const followers = step.followers.map((f) => ({ ...f, color: this.base.players[f.seat].color }));
    const { placed, action } = this.sel;
    if (this.outcome && this.outcome.replay) {
      this.board.clearInteraction();
    } else {
      // Lit: where the tile fits, brighter where it fits as it is turned now (as in a game).
      this.board.setTargets(this.cells().filter((c) => !placed || c.x !== placed.x || c.y !== placed.y)
        .map((c) => ({ x: c.x, y: c.y, now: c.rots.includes(this.sel.rot) })), color);
      if (placed) {
        this.board.setGhost({ tile: this.spec.tile, ...placed, solid: true, color });
        this.board.setSpots(this.choices().filter((c) => c.spot && (!action || action.key !== c.key)).map((c) => ({
          key: c.key, spot: c.spot, tile: this.spec.tile, rot: placed.rot, x: placed.x, y: placed.y, color,
          abbot: c.kind === 'abbot', title: c.label, offset: c.kind === 'abbot' && c.spot === 'C' ? [16, -12] : null,
        })));
        if (action && action.spot) {
          followers.push({ seat: this.seat, at: [placed.x, placed.y], spot: action.spot, role: action.role, color, pending: true,
            tileInfo: { tile: this.spec.tile, rot: placed.rot } });
        }
      } else {
        this.board.setGhost(null);
        this.board.setSpots([]);
      }
    }
    this.board.setFollowers(followers);
    this.renderMove();
  }

  renderMove() {
    const panel = this.$('.practice-move');
    const { placed, action } = this.sel;
    const rot = placed ? placed.rot : this.sel.rot;
    const c = colorOf(this.me.color);
    const done = this.outcome && this.outcome.replay;
    const choices = this.choices();
    const picker = placed && !done && choices.length ? `<div class="spot-picker" role="group" aria-label="${esc(t('spot-picker'))}">
        <button class="btn small${action ? '' : ' on'}" data-act="none" aria-pressed="${!action}">${esc(t('learn-no-follower'))}</button>
        ${choices.map((ch, i) => `<button class="btn small${action && action.key === ch.key ? ' on' : ''}" data-act="spot" data-key="${ch.key}" aria-pressed="${!!(action && action.key === ch.key)}">${TOUCH ? '' : `<kbd>${i + 1}</kbd> `}${esc(ch.label)}</button>`).join('')}
      </div>` : '';
    panel.innerHTML = `
      <div class="tile-row">
        <button class="btn icon" data-act="ccw" aria-label="${esc(t('turn-left'))}" ${done ? 'disabled' : ''}>⟲</button>
        <button class="big-tile" data-act="cw" style="--pc:${c.fill}" aria-label="${esc(t('tile-yours-turn', { tile: tileWords(this.spec.tile) }))}" ${done ? 'disabled' : ''}>
          <svg viewBox="0 0 100 100" class="tile-pic big"><use href="#tile-${this.spec.tile}" style="transform: rotate(${rot * 90}deg); transform-origin: 50px 50px"/></svg>
        </button>
        <button class="btn icon" data-act="cw" aria-label="${esc(t('turn-right'))}" ${done ? 'disabled' : ''}>⟳</button>
      </div>
      <p class="tile-info">${placed ? esc(t('learn-placed', { place: placeWords(placed.x, placed.y), deg: placed.rot * 90 })) : esc(t('learn-place-first'))}</p>
      ${picker}
      <div class="actions">
        ${done
    ? `<button class="btn" data-act="retry">${esc(t('learn-retry'))}</button>`
    : `<button class="btn" data-act="undo" ${placed ? '' : 'disabled'}>${esc(t('learn-undo'))}${TOUCH ? '' : ' <kbd>Esc</kbd>'}</button>
        <button class="btn primary" data-act="play" ${placed && !this.busy ? '' : 'disabled'}>${esc(t('learn-check'))}${TOUCH ? '' : ' <kbd>⏎</kbd>'}</button>`}
      </div>`;
    // What is chosen, for tests and tools: "x,y,rot" and the follower's key.
    panel.dataset.placed = placed ? `${placed.x},${placed.y},${placed.rot}` : '';
    panel.dataset.action = action ? action.key : '';
    panel.onclick = (e) => {
      const b = e.target.closest('[data-act]');
      if (!b || b.disabled) return;
      const act = b.dataset.act;
      if (act === 'cw') this.rotate(1);
      else if (act === 'ccw') this.rotate(-1);
      else if (act === 'none') this.pick(null);
      else if (act === 'spot') this.pick(this.choices().find((ch) => ch.key === b.dataset.key) || null);
      else if (act === 'undo') this.undo();
      else if (act === 'play') this.play();
      else if (act === 'retry') { this.reset(); this.result(''); }
    };
  }

  result(html) {
    const box = this.$('.practice-result');
    box.innerHTML = html;
    // On a phone the verdict lies under the board: bring it into view.
    if (html && box.scrollIntoView && box.getBoundingClientRect().bottom > innerHeight) box.scrollIntoView({ block: 'nearest' });
  }

  // --- input -------------------------------------------------------------------

  place(x, y) {
    if (!this.base || this.busy || (this.outcome && this.outcome.replay)) return;
    const { placed } = this.sel;
    if (placed && placed.x === x && placed.y === y) { if (TOUCH) this.play(); else this.rotate(1); return; }
    if (!this.cells().some((c) => c.x === x && c.y === y)) return;
    this.sel.placed = { x, y, rot: this.sel.rot };
    this.sel.action = null;
    this.board.reveal(x, y, TOUCH ? 200 : 0);
    this.draw();
  }

  rotate(dir) {
    if (!this.base || this.busy || (this.outcome && this.outcome.replay)) return;
    this.sel.rot = (this.sel.rot + (dir > 0 ? 1 : 3)) % 4;
    if (this.sel.placed) { this.sel.placed.rot = this.sel.rot; this.sel.action = null; }
    this.draw();
  }

  pick(choice, toggle = false) {
    if (!this.sel.placed || this.busy || (this.outcome && this.outcome.replay)) return;
    const cur = this.sel.action;
    this.sel.action = choice && !(toggle && cur && cur.key === choice.key) ? choice : null;
    this.draw();
  }

  undo() {
    if (this.outcome && this.outcome.replay) { this.reset(); return; }
    if (this.sel.action) this.sel.action = null;
    else if (this.sel.placed) this.sel.placed = null;
    this.board.setCursor(null);
    this.draw();
  }

  /** Moves the tile to the nearest free cell in the direction (dx, dy). */
  moveCursor(dx, dy) {
    if (!this.base || (this.outcome && this.outcome.replay)) return;
    const from = this.sel.placed || { x: 0, y: 0 };
    const ahead = this.cells().filter((c) => (c.x - from.x) * dx + (c.y - from.y) * dy > 0);
    const pool = ahead.length ? ahead : this.sel.placed ? [] : this.cells();
    if (!pool.length) return;
    const cost = (c) => Math.abs((c.x - from.x) * dx + (c.y - from.y) * dy) + 2.5 * Math.abs((c.x - from.x) * dy + (c.y - from.y) * dx);
    const best = pool.reduce((a, b) => (cost(b) < cost(a) ? b : a));
    this.place(best.x, best.y);
    this.board.setCursor(best);
  }

  stepSpot(dir) {
    const choices = this.choices();
    if (!choices.length) return;
    const at = choices.findIndex((c) => this.sel.action && c.key === this.sel.action.key);
    const next = ((at + 1 + dir + choices.length + 1) % (choices.length + 1)) - 1;
    this.pick(next < 0 ? null : choices[next]);
  }

  onKey(e) {
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const onControl = e.target && e.target.closest && e.target.closest('button, a, summary');
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) { e.preventDefault(); this.moveCursor(...dirs[e.key]); }
    else if (e.key === 'r' || e.key === 'R') { e.preventDefault(); this.rotate(e.shiftKey ? -1 : 1); }
    else if (e.key === 'f' || e.key === 'F') { e.preventDefault(); this.stepSpot(e.shiftKey ? -1 : 1); }
    else if (/^[1-9]$/.test(e.key) && this.sel.placed) {
      const choice = this.choices()[Number(e.key) - 1];
      if (choice) { e.preventDefault(); this.pick(choice); }
    } else if (e.key === 'Enter' && !onControl) { e.preventDefault(); this.play(); }
    else if (e.key === 'Escape') { e.preventDefault(); this.undo(); }
    else if (e.key === '+' || e.key === '=') this.board.zoomBy(1.25);
    else if (e.key === '-') this.board.zoomBy(0.8);
    else if (e.key === '0') { this.board.follow = true; this.board.fit(true); }
  }

  // --- the check -------------------------------------------------------------------

  /** Sends the position with the move to the engine; says what the rules and the goal make of it. */
  async play() {
    if (!this.base || this.busy || !this.sel.placed || (this.outcome && this.outcome.replay)) {
      if (this.base && !this.sel.placed) this.result(`<p>${esc(t('learn-place-first'))}</p>`);
      return;
    }
    const mv = this.move();
    const record = { ...this.spec.record, moves: [...this.spec.record.moves, mv] };
    this.busy = true;
    this.result(`<p class="muted">${esc(t('learn-checking'))}</p>`);
    let replay = null;
    try {
      replay = await api.replayRecord(JSON.stringify(record));
    } catch (e) {
      this.busy = false;
      if (e.code !== 'bad_request') { this.result(`<p class="bad">${esc(e.message)}</p>`); this.renderMove(); return; }
      const why = explainRefusal(e.body);
      this.outcome = { ok: false, code: why.code };
      this.result(`<div class="verdict bad" data-code="${why.code}"><p><b>${esc(t('learn-refused'))}</b></p><p>${esc(why.text)}</p></div>`);
      this.renderMove();
      return;
    }
    this.busy = false;
    const verdict = this.spec.check(replay, mv, this);
    this.outcome = { ...verdict, replay };
    this.board.setTiles(replay.board, { at: mv.at, color: this.me.color });
    // The verdict speaks of the board (the city closed, the farm, what
    // scored): the whole of it in view, however close the tile was looked at.
    this.board.follow = true;
    this.board.fit(true);
    this.draw();
    const scored = moveEvents(replay, this.spec.final !== false).filter((e) => e.type === 'score' || e.type === 'recall')
      .map((e) => `<li>${esc(listWords(e.to.map((s) => replay.players[s].name)))} +${esc(scoredWords(e))}</li>`).join('');
    this.result(`<div class="verdict ${verdict.ok ? 'ok' : 'bad'}" data-code="${verdict.ok ? 'ok' : 'goal'}">
      ${verdict.html}${scored ? `<ul class="scored">${scored}</ul>` : ''}</div>`);
    if (verdict.ok && this.spec.onDone) this.spec.onDone(this);
  }

  /** Draws a move on the board as a suggestion (the lesson's solution, a puzzle's answer). */
  show(mv) {
    this.reset();
    const spot = mv.meeple || mv.abbot;
    this.sel = { placed: { x: mv.at[0], y: mv.at[1], rot: mv.rot }, rot: mv.rot, action: null };
    const figure = ['big', 'builder', 'pig'].find((f) => mv[f]);
    const choice = this.choices().find((c) => (mv.recall ? c.kind === 'recall'
      : figure ? c.kind === figure && this.tiles.segmentAt(mv.tile, mv.rot, c.spot) === this.tiles.segmentAt(mv.tile, mv.rot, mv[figure])
        : c.spot === spot && c.kind === (mv.abbot ? 'abbot' : 'meeple')));
    this.sel.action = choice || null;
    this.board.reveal(mv.at[0], mv.at[1]);
    this.draw();
  }
}
