// Puzzles (#/puzzles, #/puzzles/ID, #/puzzles/today): positions from games
// where one move is clearly best (web/puzzles/puzzles.json, made by
// `carcassonne puzzles`; docs/web.md). The position is shown as the player
// to move saw it (the draws so far, the bag only as counts); the engine
// checks the move (practice.js) and it is compared with the answer: the
// same cell, the same turn of the tile (or one leading to the same
// position) and the same follower. Solved ones are kept in this browser.
// Every word is a message (web/i18n/LANG.ftl, `puzzle-…`); a puzzle's
// explanation is made here from the JSON's moves and numbers, in the
// language in force.

import { esc } from './dom.js';
import { intl, listWords, t } from './i18n.js';
import { markIcon } from './meeple.js';
import { Practice, moveEvents, moveWords, staticJson } from './practice.js';
import { tileSvg } from './tiles.js';

const SOLVED_KEY = 'carcassonne.puzzles.solved';
const DIR_CODES = ['north', 'east', 'south', 'west'];
const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0]];

function solvedSet() {
  try { return new Set(JSON.parse(localStorage.getItem(SOLVED_KEY) || '[]')); } catch { return new Set(); }
}

function markSolved(id) {
  const s = solvedSet();
  s.add(id);
  localStorage.setItem(SOLVED_KEY, JSON.stringify([...s]));
}

/** The puzzle of the day: one per UTC date, in turn. */
export function puzzleOfTheDay(puzzles, now = Date.now()) {
  return puzzles[Math.floor(now / 86_400_000) % puzzles.length];
}

/** Whether two moves are the same answer: cell, turn (as laid) and follower on the same segment. */
function sameMove(tiles, a, b) {
  if (a.tile !== b.tile || a.at[0] !== b.at[0] || a.at[1] !== b.at[1] || a.rot !== b.rot) return false;
  if (!!a.recall !== !!b.recall || !!a.abbot !== !!b.abbot || !!a.meeple !== !!b.meeple) return false;
  const spot = (m) => m.meeple || m.abbot;
  return !spot(a) || tiles.segmentAt(a.tile, a.rot, spot(a)) === tiles.segmentAt(b.tile, b.rot, spot(b));
}

/**
 * What lies around a cell, as a player says it: "beside the city to the
 * north and the cloister to the east" (the features of the tiles next to it
 * that face it, or a cloister there).
 */
function besideWords(tiles, board, at) {
  const parts = [];
  STEPS.forEach(([dx, dy], d) => {
    const n = board.find((b) => b.at[0] === at[0] + dx && b.at[1] === at[1] + dy);
    if (!n) return;
    const facing = tiles.edgesAt(n.tile, n.rot)[(d + 2) % 4];
    const geom = tiles.geom(n.tile);
    const what = geom && geom.def.cloister ? 'cloister' : facing === 'city' || facing === 'road' ? facing : null;
    if (what) parts.push(t('puzzle-beside-part', { what, dir: DIR_CODES[d] }));
  });
  if (!parts.length) return '';
  return t('puzzle-beside', { list: listWords(parts) });
}

/** An answer in words, as the review says a move. */
function answerWords(tiles, board, m) {
  const beside = besideWords(tiles, board, m.at);
  return beside ? t('puzzle-answer-beside', { move: moveWords(tiles, m), beside }) : moveWords(tiles, m);
}

/** Expected points with one decimal, in the language in force (`sign`: always signed, "+3.5", "−1.0"). */
function decimal(v, sign = false) {
  const s = intl(Intl.NumberFormat, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: sign ? 'always' : 'auto' }).format(v);
  return s.replace(/^-/, '−');
}

export class PuzzlesScreen {
  constructor(root, tiles, id = null) {
    this.root = root;
    this.tiles = tiles;
    this.practice = null;
    root.innerHTML = `<div class="loading">${esc(t('puzzle-loading'))}</div>`;
    staticJson('puzzles/puzzles.json', 'puzzle-load-failed').then((data) => {
      this.puzzles = data.puzzles;
      this.selection = data.selection;
      const p = id === 'today' ? puzzleOfTheDay(this.puzzles) : this.puzzles.find((q) => q.id === id);
      if (p) this.puzzle(p); else this.list();
    }).catch((e) => { root.innerHTML = `<div class="fatal"><p>${esc(e.message)}</p><p><a href="#/">${esc(t('back-to-start'))}</a></p></div>`; });
  }

  destroy() {
    if (this.practice) this.practice.destroy();
  }

  list() {
    document.title = `${t('puzzle-title')} — Carcassonne`;
    const solved = solvedSet();
    const today = puzzleOfTheDay(this.puzzles);
    const n = this.puzzles.filter((p) => solved.has(p.id)).length;
    this.root.innerHTML = `<div class="learn-list">
      <h1>${esc(t('puzzle-title'))}</h1>
      <p>${esc(t('puzzle-intro', { gap: this.selection.min_gap }))}</p>
      <p class="learn-links"><a class="btn primary today" href="#/puzzles/today">${esc(t('puzzle-today'))}${solved.has(today.id) ? ' ✓' : ''}</a>
        <a class="btn" href="#/learn">${esc(t('learn-title'))}</a></p>
      <p class="muted">${esc(t('puzzle-progress', { done: n, total: this.puzzles.length }))}</p>
      <ol class="puzzle-list">${this.puzzles.map((p) => `<li class="${solved.has(p.id) ? 'done' : ''}">
        <a href="#/puzzles/${esc(p.id)}">${tileSvg(p.tile, 0, 22)} ${esc(t('puzzle-name', { turn: p.turn, legal: p.legal }))}</a>
        ${solved.has(p.id) ? `<span class="badge ok">✓ ${esc(t('puzzle-solved-badge'))}</span>` : ''}</li>`).join('')}</ol>
    </div>`;
  }

  puzzle(p) {
    const i = this.puzzles.indexOf(p);
    const next = this.puzzles[(i + 1) % this.puzzles.length];
    // The player to move is "You"; the others by seat.
    const players = p.record.players.map((_, s) => (s === p.seat ? t('learn-you') : t('puzzle-player', { n: s + 1 })));
    const record = { ...p.record, players };
    const bag = Object.values(p.remaining).reduce((a, b) => a + b, 0);
    const isToday = puzzleOfTheDay(this.puzzles) === p;
    document.title = `${t('puzzle-title')} — Carcassonne`;
    const head = `<p class="muted"><a href="#/puzzles">${esc(t('puzzle-all'))}</a>${isToday ? ` · ${esc(t('puzzle-today'))}` : ''}</p>
      <h1 class="lesson-title">${esc(t('puzzle-name', { turn: p.turn, legal: p.legal }))}</h1>
      <p class="puzzle-facts">${p.scores.map((sc, s) => `${s === p.seat ? `<b>${esc(players[s])}</b>` : esc(players[s])}: ${sc}`).join(' · ')} · ${esc(t('puzzle-bag', { count: bag }))}</p>
      <p class="goal"><b>${esc(t('learn-goal-label'))}</b> ${esc(t('puzzle-goal', { gap: Math.floor(p.gap) }))}</p>
      <details class="puzzle-bag"><summary>${esc(t('puzzle-bag-list'))}</summary>
        <p>${Object.entries(p.remaining).map(([t, k]) => `<span class="bag-tile">${tileSvg(t, 0, 26)}×${k}</span>`).join(' ')}</p></details>
      <p class="learn-tools"><button class="btn small show-answer">${esc(t('puzzle-show'))}</button>
        <a class="btn small next-puzzle" href="#/puzzles/${esc(next.id)}">${esc(t('puzzle-next'))}</a></p>`;
    this.practice = new Practice(this.root, this.tiles, {
      record, tile: p.tile, head, final: false,
      check: (replay, mv) => this.check(p, replay, mv),
      onDone: () => markSolved(p.id),
    });
    this.root.querySelector('.show-answer').onclick = () => this.showAnswer(p);
  }

  /** The answer in words: the best move, beside what, and how much better than the next. */
  explain(p) {
    const board = this.practice.base.board;
    return t('puzzle-explain', {
      best: answerWords(this.tiles, board, p.best),
      margin: decimal(p.best_margin, true),
      second: answerWords(this.tiles, board, p.second),
      gap: decimal(p.gap),
    });
  }

  showAnswer(p) {
    this.practice.show(p.best);
    this.practice.result(`<div class="verdict" data-code="answer"><p>${esc(this.explain(p))}</p></div>`);
  }

  check(p, replay, mv) {
    if (p.answers.some((a) => sameMove(this.tiles, a, mv))) {
      return { ok: true, html: `<p><b>${esc(t('puzzle-right'))}</b> ${esc(this.explain(p))}</p>` };
    }
    // Legal, but not the answer: what it did now, and the answer.
    const now = moveEvents(replay, false).filter((e) => e.type === 'score' && e.to.includes(p.seat));
    const scored = now.reduce((a, e) => a + e.points, 0);
    const beside = besideWords(this.tiles, this.practice.base.board, p.best.at);
    return {
      ok: false,
      html: `<p>${markIcon(replay.players[p.seat].color, 13)} ${esc(t('puzzle-wrong', { yours: moveWords(this.tiles, mv), scored }))}</p>
        ${beside ? `<p>${esc(t('puzzle-hint', { beside }))}</p>` : ''}`,
    };
  }
}
