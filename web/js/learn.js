// The tutorial (#/learn, #/learn/KEY): short lessons on the real board,
// each a position from web/learn/lessons.json that the engine sets up and
// checks (practice.js). Progress is kept in this browser (localStorage).
// Their words are messages (web/i18n/LANG.ftl): the page's `learn-…`, each
// lesson's `lesson-KEY-title`, `-intro`, `-goal` and `-done`.

import { esc } from './dom.js';
import { listWords, t } from './i18n.js';
import { Practice, learnData, moveEvents, moveWords, scoredWords } from './practice.js';

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
 * A lesson's steps: the lesson's own goal, solution and wrong moves, then
 * each of its `steps` (an expansion's lesson has several), each with its
 * position (the lesson's record, every earlier step's solution and the
 * moves played before the step) and its messages' prefix (`lesson-KEY`,
 * then `lesson-KEY-2`, …), as crates/core/tests/lessons.rs reads them.
 */
export function lessonSteps(lesson) {
  const out = [{ prefix: `lesson-${lesson.key}`, record: lesson.record, step: lesson }];
  (lesson.steps || []).forEach((step, i) => {
    const before = out[i];
    const record = { ...before.record, moves: [...before.record.moves, before.step.solution, ...step.moves] };
    out.push({ prefix: `lesson-${lesson.key}-${i + 2}`, record, step });
  });
  return out;
}

/**
 * Whether a replay meets a lesson's goal (the rule crates/core/tests/lessons.rs
 * checks the solutions with): each goal scoring (kind, points, to) matched by
 * one of the move's or the final scoring's (goods taken: no points to
 * match), the follower asked for deployed,
 * the figure asked for used by the move (`figure`: 'big'), and the learner
 * to move again (`bonus`: a builder's second part is due).
 */
export function meetsGoal(goal, events, mv = {}, again = false) {
  if ((goal.figure && !mv[goal.figure]) || (goal.bonus && !again)) return false;
  const left = events.filter((e) => e.type === 'score' || e.type === 'recall');
  for (const want of goal.events || []) {
    const i = left.findIndex((e) => e.kind === want.kind && (want.points === undefined || e.points === want.points)
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
    root.innerHTML = `<div class="loading">${esc(t('learn-loading'))}</div>`;
    learnData().then((data) => {
      this.data = data;
      const lesson = key && data.lessons.find((l) => l.key === key);
      if (lesson) this.lesson(lesson); else this.list();
    }).catch((e) => { root.innerHTML = `<div class="fatal"><p>${esc(e.message)}</p><p><a href="#/">${esc(t('back-to-start'))}</a></p></div>`; });
  }

  destroy() {
    if (this.practice) this.practice.destroy();
  }

  list() {
    document.title = `${t('learn-title')} — Carcassonne`;
    const done = lessonsDone();
    const lessons = this.data.lessons;
    const n = lessons.filter((l) => done.has(l.key)).length;
    this.root.innerHTML = `<div class="learn-list">
      <h1>${esc(t('learn-title'))}</h1>
      <p>${esc(t('learn-intro'))}</p>
      <p class="muted learn-progress">${esc(t('learn-progress', { done: n, total: lessons.length }))}</p>
      <ol class="lessons">${lessons.map((l) => `<li class="${done.has(l.key) ? 'done' : ''}">
        <a href="#/learn/${esc(l.key)}">${esc(t(`lesson-${l.key}-title`))}</a>
        ${done.has(l.key) ? `<span class="badge ok">✓ ${esc(t('learn-done-badge'))}</span>` : ''}</li>`).join('')}</ol>
      <p class="learn-links"><a class="btn primary" href="#/learn/${esc((lessons.find((l) => !done.has(l.key)) || lessons[0]).key)}">${esc(t(n ? 'learn-go-on' : 'learn-start'))}</a>
        <a class="btn" href="#/puzzles">${esc(t('puzzle-title'))}</a>
        ${n ? `<button class="btn small reset">${esc(t('learn-reset'))}</button>` : ''}</p>
    </div>`;
    const reset = this.root.querySelector('.reset');
    if (reset) reset.onclick = () => { localStorage.removeItem(DONE_KEY); this.list(); };
  }

  lesson(lesson, n = 0) {
    const lessons = this.data.lessons;
    const i = lessons.indexOf(lesson);
    const next = lessons[i + 1];
    const steps = lessonSteps(lesson);
    const { prefix, record: position, step } = steps[n];
    const more = n + 1 < steps.length;
    const title = t(`lesson-${lesson.key}-title`);
    document.title = `${title} — Carcassonne`;
    const head = `<p class="muted"><a href="#/learn">${esc(t('learn-back'))}</a> · ${esc(t('learn-lesson-of', { n: i + 1, total: lessons.length }))}</p>
      <h1 class="lesson-title">${esc(title)}</h1>
      ${steps.length > 1 ? `<p class="learn-step muted">${esc(t('learn-step-of', { n: n + 1, total: steps.length }))}</p>` : ''}
      <p>${esc(t(`${prefix}-intro`))}</p>
      <p class="goal"><b>${esc(t('learn-goal-label'))}</b> ${esc(t(`${prefix}-goal`))}</p>
      <p class="learn-tools"><button class="btn small show-me">${esc(t('learn-show'))}</button>
        ${next ? `<a class="btn small next-lesson" href="#/learn/${esc(next.key)}">${esc(t('learn-next'))}</a>` : ''}</p>`;
    // The learner is "You" in the language in force (the record's names are only shown).
    const record = { ...position, players: position.players.map((name, s) => (s === 0 ? t('learn-you') : name)) };
    if (this.practice) this.practice.destroy();
    this.practice = new Practice(this.root, this.tiles, {
      record,
      tile: step.solution.tile,
      bonus: step.solution.bonus,
      head,
      check: (replay, mv) => this.check(lesson, prefix, step, replay, mv, !more),
      onDone: () => {
        // A step done: the next one (a lesson of several); the last: the lesson done.
        if (more) {
          const tools = this.root.querySelector('.learn-tools');
          if (!tools.querySelector('.next-step')) tools.insertAdjacentHTML('afterbegin', `<button class="btn small primary next-step">${esc(t('learn-next-step'))}</button> `);
          const nextStep = tools.querySelector('.next-step');
          nextStep.onclick = () => this.lesson(lesson, n + 1);
          nextStep.focus();
          return;
        }
        markDone(lesson.key);
        const nextLink = this.root.querySelector('.next-lesson');
        if (nextLink) { nextLink.classList.add('primary'); nextLink.focus(); }
      },
    });
    this.root.querySelector('.show-me').onclick = () => {
      this.practice.show(step.solution);
      this.practice.result(`<p>${esc(moveWords(this.tiles, step.solution))}.</p>`);
    };
  }

  /** The goal's verdict on a legal move, in words. */
  check(lesson, prefix, step, replay, mv, lastStep) {
    const goal = step.goal || {};
    const events = moveEvents(replay);
    const after = replay.steps[replay.steps.length - 1];
    if (meetsGoal(goal, events, mv, after.to_move === 0)) {
      const last = lastStep && lesson === this.data.lessons[this.data.lessons.length - 1];
      return { ok: true, html: `<p><b>${esc(t('learn-solved'))}</b> ${esc(t(`${prefix}-done`))}</p>${last ? `<p>${esc(t('learn-finished-all'))}</p>` : ''}` };
    }
    const goalText = t(`${prefix}-goal`);
    const mine = events.filter((e) => (e.type === 'score' || e.type === 'recall') && e.to.includes(0));
    let text;
    if (goal.deploy && !(goal.events || []).length) text = t('learn-goal-miss-deploy', { role: goal.deploy });
    else if (mine.length) text = t('learn-goal-miss-scored', { scored: listWords(mine.map(scoredWords)), goal: goalText });
    else text = t('learn-goal-miss', { goal: goalText });
    return { ok: false, html: `<p>${esc(text)}</p>` };
  }
}
