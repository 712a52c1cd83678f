// The replay viewer: a stored game or a record file, step by step
// (forward, back, jump to a turn, play).

import { t } from './i18n.js';
import { api } from './api.js';
import { BoardView } from './board.js';
import { esc } from './dom.js';
import { rulesTitle } from './rules.js';
import { colorOf, markIcon } from './meeple.js';
import { breakdownHtml, chartSvg, logHtml, playersHtml, scoringWhy } from './panels.js';
import { ReviewPanel, tHtml } from './review.js';
import { ROLE_OF_KIND, tileSvg } from './tiles.js';

const icon = (d) => `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="${d}" fill="currentColor"/></svg>`;
const ICONS = {
  first: icon('M3 5h2v14H3zM13 5v14l-8-7zM21 5v14l-8-7z'),
  prev: icon('M18 5v14L7 12z'),
  play: icon('M7 5v14l11-7z'),
  pause: icon('M7 5h4v14H7zM13 5h4v14h-4z'),
  next: icon('M6 5v14l11-7zM16 5h2v14h-2z'),
  last: icon('M3 5v14l8-7zM11 5v14l8-7zM19 5h2v14h-2z'),
};

export class ReplayScreen {
  constructor(root, tiles, replay, { id = null, title = 'Replay', review = false } = {}) {
    this.root = root;
    this.tiles = tiles;
    this.r = replay;
    this.tiles.need(replay.expansions);
    this.id = id;
    this.title = title;
    // A replay starts at the beginning: the start tile alone.
    this.k = 0;
    this.timer = null;
    this.render();
    this.board = new BoardView(root.querySelector('.board-area'), tiles, { bottomMargin: 76 });
    // A stored finished game gets the search's review (review.js).
    this.better = null; // a review's better move, drawn on the board
    this.review = id && replay.finished
      ? new ReviewPanel(root.querySelector('.review-panel'), id, replay.players, {
        tiles,
        gardens: !!(replay.rules && replay.rules.abbot),
        boardBefore: (turn) => {
          const step = this.r.steps[Math.max(0, turn - 1)];
          return { tiles: this.r.board.slice(0, step.tiles), followers: step.followers };
        },
        onPick: (k) => { this.stop(); this.go(k); },
        onBetter: (m) => { this.stop(); this.better = m; this.go(this.k); },
        // Come from the results: the move to learn most from, its better one drawn.
        onReady: (r) => { if (review) this.openWorst(r); },
      })
      : null;
    this.keys = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keys);
    this.go(this.k);
  }

  destroy() {
    this.stop();
    document.removeEventListener('keydown', this.keys);
    this.board.destroy();
    if (this.review) this.review.destroy();
  }

  get last() { return this.r.steps.length - 1; }

  render() {
    const n = this.last;
    this.root.innerHTML = `
      <div class="game-layout replay">
        <div class="board-wrap">
          <div class="board-area"></div>
          <div class="banner replay-banner"></div>
          <div class="why-box hidden" role="status"><span class="why-text"></span><button class="close" aria-label="${esc(t('close'))}" title="${esc(t('close'))}">×</button></div>
          <div class="replay-bar">
            <button class="btn icon" data-go="first" title="${esc(t('replay-first'))} (Home)">${ICONS.first}</button>
            <button class="btn icon" data-go="prev" title="${esc(t('replay-back'))} (←)">${ICONS.prev}</button>
            <button class="btn icon play" data-go="play" title="${esc(t('replay-play'))} (Space)">${ICONS.play}</button>
            <button class="btn icon" data-go="next" title="${esc(t('replay-forward'))} (→)">${ICONS.next}</button>
            <button class="btn icon" data-go="last" title="${esc(t('replay-end'))} (End)">${ICONS.last}</button>
            <input type="range" class="scrub" min="0" max="${n}" value="${this.k}" aria-label="${esc(t('replay-turn'))}">
            <label class="jump"><span class="jump-word">${esc(t('chart-axis-turn'))}</span> <input type="number" class="turn-input" min="0" max="${n}" value="${this.k}"> / ${n}</label>
          </div>
        </div>
        <aside class="sidebar">
          <section class="replay-head"><h1 class="replay-title">${esc(this.title)}</h1>
            <p class="muted"><a href="#/rules/${esc(this.r.rules_code)}">${esc(rulesTitle(this.r.rules))}</a> · ${esc(this.r.finished ? t('replay-finished') : t('replay-unfinished'))}</p>
            ${this.id ? `<p class="links"><a href="#/game/${this.id}">${esc(t('replay-back-to-game'))}</a> · <a href="${api.recordUrl(this.id)}" download>${esc(t('download-record'))}</a> · <a href="#/">${esc(t('all-games'))}</a></p>` : `<p class="links"><a href="#/">${esc(t('all-games'))}</a></p>`}
          </section>
          <section class="players-panel"></section>
          <section class="chart-panel"></section>
          <section class="review-panel"></section>
          <section class="log-panel"><h2 id="replay-log-title">${esc(t('replay-log'))}</h2><div class="log" tabindex="0" role="log" aria-labelledby="replay-log-title"></div></section>
          ${this.r.finished ? `<section class="final-panel"><h2>${esc(t('final-scoring'))}</h2><div class="final"></div></section>` : ''}
        </aside>
      </div>`;
    this.root.querySelector('.replay-bar').addEventListener('click', (e) => {
      const b = e.target.closest('[data-go]');
      if (!b) return;
      const g = b.dataset.go;
      if (g === 'first') this.go(0);
      else if (g === 'prev') this.go(this.k - 1);
      else if (g === 'next') this.go(this.k + 1);
      else if (g === 'last') this.go(this.last);
      else if (g === 'play') this.toggle();
    });
    // A scoring in the log, chosen: why it scored, on the board and in words.
    this.root.querySelector('.log').addEventListener('click', (e) => {
      const b = e.target.closest('button.why');
      if (b) this.explain(Number(b.dataset.ev));
    });
    this.root.querySelector('.why-box .close').onclick = () => this.explain(null);
    this.root.querySelector('.scrub').oninput = (e) => { this.stop(); this.go(+e.target.value); };
    this.root.querySelector('.turn-input').onchange = (e) => { this.stop(); this.go(+e.target.value); };
    if (this.r.finished) {
      const scores = this.r.steps[this.last].scores;
      this.root.querySelector('.final').innerHTML = breakdownHtml(this.r.breakdown, this.r.players, scores);
    }
  }

  /** Goes to the move that lost the most and draws its better one. */
  openWorst(review) {
    const worst = review.moves.reduce((a, m) => (m.lost > (a ? a.lost : 0.05) ? m : a), null);
    if (!worst) return;
    this.stop();
    this.go(worst.turn);
    this.review.toggleBetter(true);
    this.root.querySelector('.review-panel').scrollIntoView({ block: 'nearest' });
  }

  go(k) {
    k = Math.max(0, Math.min(this.last, Number.isFinite(k) ? Math.round(k) : 0));
    this.k = k;
    if (this.better && this.better.turn !== k) this.better = null;
    const better = this.better;
    const step = this.r.steps[k];
    const players = this.r.players.map((p, i) => ({ ...p, kind: 'human', score: step.scores[i], supply: step.supply[i] }));
    // A better move drawn: the board as it was before the move, the better one ghosted in place.
    const shown = better ? this.r.steps[k - 1] : step;
    const board = this.r.board.slice(0, shown.tiles);
    const lastTile = board.length > 1 && k > 0 && !better ? board[board.length - 1] : null;
    const mover = k > 0 ? this.r.steps[k].events.find((e) => e.type === 'tile') : null;
    this.board.setTiles(board, lastTile && mover ? { at: lastTile.at, color: this.r.players[mover.seat].color } : null);
    if (this.board.follow) this.board.fit(true);
    const followers = shown.followers.map((f) => ({ ...f, color: this.r.players[f.seat].color }));
    if (better) {
      const b = better.best, color = this.r.players[better.seat].color;
      this.board.setGhost({ tile: b.tile, x: b.at[0], y: b.at[1], rot: b.rot || 0, advice: true, color });
      const spot = b.meeple || b.abbot;
      if (spot) {
        followers.push({ seat: better.seat, at: b.at, spot, color, pending: true, tileInfo: { tile: b.tile, rot: b.rot || 0 },
          role: b.abbot ? 'abbot' : ROLE_OF_KIND[this.tiles.spotKind(b.tile, b.rot || 0, spot)] || 'knight' });
      }
      this.board.reveal(b.at[0], b.at[1]);
    } else this.board.setGhost(null);
    this.board.setFollowers(followers);
    const done = k === this.last && this.r.finished;
    this.root.querySelector('.players-panel').innerHTML = playersHtml(players, {
      turnSeat: step.to_move, finished: done, winners: done ? this.r.winners : [],
    });
    const events = this.r.steps.slice(1, k + 1).flatMap((s) => s.events);
    this.events = events;
    this.explain(null);
    this.root.querySelector('.log').innerHTML = logHtml(events, this.r.players);
    this.root.querySelector('.chart-panel').innerHTML = this.r.steps.length > 2
      ? `<h2>${esc(t('replay-scores'))}</h2>${chartSvg(this.r.score_history, this.r.players, { width: 320, height: 150, mark: k })}` : '';
    if (this.review) this.review.show(k);
    this.root.querySelector('.scrub').value = k;
    this.root.querySelector('.turn-input').value = k;
    const banner = this.root.querySelector('.replay-banner');
    if (k === 0) banner.innerHTML = esc(t('replay-start-tile'));
    else if (better) {
      const p = this.r.players[better.seat];
      banner.innerHTML = tHtml('review-banner', {
        name: `<b class="pname">${markIcon(p.color, 13)}${esc(p.name)}</b>`, tile: tileSvg(better.best.tile, better.best.rot || 0, 22),
      }, { turn: k, better: this.review.words(better.best, k, better.move) });
    } else if (mover) {
      const p = this.r.players[mover.seat];
      const deploy = this.r.steps[k].events.find((e) => e.type === 'deploy');
      // ("You place", not "You places".)
      banner.innerHTML = t('replay-banner', {
        k, name: `<b class="pname">${markIcon(p.color, 13)}${esc(p.name)}</b>`, you: p.name === 'You' ? 'yes' : 'no',
        tile: tileSvg(mover.tile, mover.rot || 0, 22),
        deploy: deploy ? t('replay-with', { role: esc(t(`role-${deploy.role}`)) }) : '',
        done: done ? t('replay-final') : '',
      });
    }
    banner.style.setProperty('--pc', mover ? colorOf(this.r.players[mover.seat].color).fill : '#8a5a2b');
  }

  /** Shows why the scoring `events[i]` (the log as shown) scored; null: stops. */
  explain(i) {
    const box = this.root.querySelector('.why-box');
    const e = i == null ? null : this.events[i];
    if (!e || e.type !== 'score') {
      this.board.setWhy(null);
      box.classList.add('hidden');
      return;
    }
    const why = scoringWhy(this.events, i, this.r.board, this.r.players, this.tiles);
    this.board.setWhy(why);
    box.querySelector('.why-text').textContent = why.text;
    box.classList.remove('hidden');
    this.board.frameAround(why.cells);
  }

  toggle() {
    if (this.timer) this.stop();
    else {
      if (this.k >= this.last) this.go(0);
      this.root.querySelector('.play').innerHTML = ICONS.pause;
      this.timer = setInterval(() => {
        if (this.k >= this.last) this.stop(); else this.go(this.k + 1);
      }, 700);
    }
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    const b = this.root.querySelector('.play');
    if (b) b.innerHTML = ICONS.play;
  }

  onKey(e) {
    if (e.target && (e.target.tagName === 'INPUT' && e.target.type === 'number')) return;
    if (e.key === 'ArrowRight') { this.stop(); this.go(this.k + 1); }
    else if (e.key === 'ArrowLeft') { this.stop(); this.go(this.k - 1); }
    else if (e.key === 'Home') { this.stop(); this.go(0); }
    else if (e.key === 'End') { this.stop(); this.go(this.last); }
    else if (e.key === ' ') { e.preventDefault(); this.toggle(); }
  }
}
