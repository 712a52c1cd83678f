// The tutorial (#/learn, #/learn/KEY): short lessons on the real board,
// each a position from web/learn/lessons.json that the engine sets up and
// checks (practice.js). Progress is kept in this browser (localStorage).

import { esc } from './dom.js';
import { Practice, fill, learnData, moveEvents, moveWords } from './practice.js';

const DONE_KEY = 'carcassonne.learn.done';

export function lessonsDone() {
  try { return new Set(JSON.parse(localStorage.getItem(DONE_KEY) || '[]')); } catch { return new Set(); }
}

function markDone(key) {
  const done = lessonsDone();
  done.add(key);
  localStorage.setItem(DONE_KEY, JSON.stringify([...done]));
}

/**
 * Whether a replay meets a lesson's goal (the rule crates/core/tests/lessons.rs
 * checks the solutions with): each goal scoring (kind, points, to) matched by
 * one of the move's or the final scoring's, and the follower asked for deployed.
 */
export function meetsGoal(goal, events) {
  const left = events.filter((e) => e.type === 'score' || e.type === 'recall');
  for (const want of goal.events || []) {
    const i = left.findIndex((e) => e.kind === want.kind && e.points === want.points
      && JSON.stringify(e.to) === JSON.stringify(want.to));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return !goal.deploy || events.some((e) => e.type === 'deploy' && e.role === goal.deploy);
}

export class LearnScreen {
  constructor(root, tiles, key = null) {
    this.root = root;
    this.tiles = tiles;
    this.key = key;
    this.practice = null;
    root.innerHTML = '<div class="loading">Loading the lessons…</div>';
    learnData().then((data) => {
      this.data = data;
      this.msg = data.messages;
      const lesson = key && data.lessons.find((l) => l.key === key);
      if (lesson) this.lesson(lesson); else this.list();
    }).catch((e) => { root.innerHTML = `<div class="fatal"><p>${esc(e.message)}</p><p><a href="#/">Back</a></p></div>`; });
  }

  destroy() {
    if (this.practice) this.practice.destroy();
  }

  t(key, vars) { return fill(this.msg, key, vars); }

  list() {
    document.title = `${this.t('learn-title')} — Carcassonne`;
    const done = lessonsDone();
    const lessons = this.data.lessons;
    const n = lessons.filter((l) => done.has(l.key)).length;
    this.root.innerHTML = `<div class="learn-list">
      <h1>${esc(this.t('learn-title'))}</h1>
      <p>${esc(this.t('learn-intro'))}</p>
      <p class="muted learn-progress">${esc(this.t('learn-progress', { done: n, total: lessons.length }))}</p>
      <ol class="lessons">${lessons.map((l) => `<li class="${done.has(l.key) ? 'done' : ''}">
        <a href="#/learn/${esc(l.key)}">${esc(this.t(`learn-${l.key}-title`))}</a>
        ${done.has(l.key) ? `<span class="badge ok">✓ ${esc(this.t('learn-done-badge'))}</span>` : ''}</li>`).join('')}</ol>
      <p class="learn-links"><a class="btn primary" href="#/learn/${esc((lessons.find((l) => !done.has(l.key)) || lessons[0]).key)}">${esc(this.t(n ? 'learn-go-on' : 'learn-start'))}</a>
        <a class="btn" href="#/puzzles">Puzzles</a>
        ${n ? `<button class="btn small reset">${esc(this.t('learn-reset'))}</button>` : ''}</p>
    </div>`;
    const reset = this.root.querySelector('.reset');
    if (reset) reset.onclick = () => { localStorage.removeItem(DONE_KEY); this.list(); };
  }

  lesson(lesson) {
    const lessons = this.data.lessons;
    const i = lessons.indexOf(lesson);
    const next = lessons[i + 1];
    const title = this.t(`learn-${lesson.key}-title`);
    document.title = `${title} — Carcassonne`;
    const head = `<p class="muted"><a href="#/learn">${esc(this.t('learn-back'))}</a> · ${esc(this.t('learn-lesson-of', { n: i + 1, total: lessons.length }))}</p>
      <h1 class="lesson-title">${esc(title)}</h1>
      <p>${esc(this.t(`learn-${lesson.key}-intro`))}</p>
      <p class="goal"><b>${esc(this.t('learn-goal-label'))}</b> ${esc(this.t(`learn-${lesson.key}-goal`))}</p>
      <p class="learn-tools"><button class="btn small show-me">${esc(this.t('learn-show'))}</button>
        ${next ? `<a class="btn small next-lesson" href="#/learn/${esc(next.key)}">${esc(this.t('learn-next'))}</a>` : ''}</p>`;
    this.practice = new Practice(this.root, this.tiles, {
      record: lesson.record,
      tile: lesson.solution.tile,
      messages: this.msg,
      head,
      check: (replay) => this.check(lesson, replay),
      onDone: () => {
        markDone(lesson.key);
        const nextLink = this.root.querySelector('.next-lesson');
        if (nextLink) { nextLink.classList.add('primary'); nextLink.focus(); }
      },
    });
    this.root.querySelector('.show-me').onclick = () => {
      this.practice.show(lesson.solution);
      this.practice.result(`<p>${esc(moveWords(this.tiles, lesson.solution))}.</p>`);
    };
  }

  /** The goal's verdict on a legal move, in words. */
  check(lesson, replay) {
    const goal = lesson.goal || {};
    const events = moveEvents(replay);
    if (meetsGoal(goal, events)) {
      const last = lesson === this.data.lessons[this.data.lessons.length - 1];
      return { ok: true, html: `<p><b>${esc(this.t('learn-solved'))}</b> ${esc(this.t(`learn-${lesson.key}-done`))}</p>${last ? `<p>${esc(this.t('learn-finished-all'))}</p>` : ''}` };
    }
    const goalText = this.t(`learn-${lesson.key}-goal`);
    const mine = events.filter((e) => (e.type === 'score' || e.type === 'recall') && e.to.includes(0));
    let text;
    if (goal.deploy && !(goal.events || []).length) text = this.t('learn-goal-miss-deploy', { role: goal.deploy });
    else if (mine.length) text = this.t('learn-goal-miss-scored', { scored: mine.map((e) => `${e.points} (${e.kind})`).join(' and '), goal: goalText });
    else text = this.t('learn-goal-miss', { goal: goalText });
    return { ok: false, html: `<p>${esc(text)}</p>` };
  }
}
