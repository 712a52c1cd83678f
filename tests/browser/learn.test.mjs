// The tutorial (#/learn) as a newcomer meets it, in a real Chromium: on a
// phone-sized screen (390 × 844) every lesson is done by keyboard alone
// (the game's keys: arrows, R, F, Enter), each lesson's wrong move is
// explained in words (the rule it breaks, or the goal it misses), progress
// survives a reload, one lesson is done by touch, and axe-core finds nothing
// to fix on the list and a lesson.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launch, openView, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';
import { footerOverTilePanel, keyMove, staticJson } from './practice.mjs';

const PHONE = { width: 390, height: 844 };

const lessons = () => staticJson('learn/lessons.json');

/** A message's words as the page says them (web/i18n/*.ftl, in the page's language). */
const message = (page, id) => page.evaluate(async (key) => (await import('/js/i18n.js')).t(key), id);

test('a newcomer does every lesson by keyboard on a phone-sized screen; wrong moves are explained', async () => {
  const data = await lessons();
  const { context, close } = await launch({ viewport: PHONE });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/learn`);
    await page.waitForSelector('.lessons li');
    assert.equal(await page.locator('.lessons li').count(), data.lessons.length);
    await checkA11y(page, 'the lessons list');
    await shot(page, 'learn-list-phone');
    for (const [i, lesson] of data.lessons.entries()) {
      await openView(page, `${BASE}/#/learn/${lesson.key}`);
      // A lesson of several steps (an expansion's) is played step by step.
      const steps = [lesson, ...(lesson.steps || [])];
      for (const [n, step] of steps.entries()) {
        const prefix = n ? `lesson-${lesson.key}-${n + 1}` : `lesson-${lesson.key}`;
        if (n) {
          await page.click('.next-step');
          await page.waitForFunction((p) => document.querySelector('.learn-step')?.textContent.includes(String(p)), n + 1);
        }
        // (From one lesson to the next only the hash changes: the lesson before stays until this one is drawn.)
        const goal = await message(page, `${prefix}-goal`);
        await page.waitForFunction((g) => document.querySelector('.practice-head .goal')?.textContent.includes(g)
          && document.querySelector('.practice-move .big-tile'), goal, { timeout: 15_000 })
          .catch(() => assert.fail(`${prefix}: the goal is shown`));
        if (i === 0 || (n === 1 && lesson.key === 'traders-builders')) await checkA11y(page, 'a lesson');
        // Its wrong moves first: each explained, none accepted.
        for (const wrong of step.wrong) {
          await keyMove(page, wrong.move);
          const verdict = page.locator('.practice-result .verdict.bad');
          await verdict.waitFor();
          const code = await verdict.getAttribute('data-code');
          assert.equal(code, wrong.code || 'goal', `${lesson.key}: ${JSON.stringify(wrong.move)} is explained as ${wrong.code || 'a missed goal'}`);
          const text = await verdict.textContent();
          if (wrong.code) assert.ok(!text.includes('{$') && !/move \d+:/.test(text), `${lesson.key}: said in words: ${text}`);
          else assert.ok(/does not do what|lesson wants/.test(text), `${lesson.key}: the goal is named: ${text}`);
          if (i === 1) await shot(page, 'learn-wrong-phone');
          // Take it back (a refused move leaves the tile where it was; a legal one is undone).
          await page.keyboard.press('Escape');
          await page.keyboard.press('Escape');
          await page.keyboard.press('Escape');
        }
        await keyMove(page, step.solution);
        const ok = page.locator('.practice-result .verdict.ok');
        await ok.waitFor();
        assert.ok((await ok.textContent()).includes(await message(page, `${prefix}-done`)), `${prefix}: done`);
        if (i === 1 || i === 5 || n) await shot(page, `learn-${lesson.key}-${n + 1}-done-phone`);
        // Not done until its last step.
        const done = await page.evaluate(() => JSON.parse(localStorage.getItem('carcassonne.learn.done') || '[]'));
        assert.equal(done.includes(lesson.key), n === steps.length - 1, `${prefix}: the lesson is done after its last step only`);
      }
    }
    // Progress is kept: after a reload every lesson is marked done.
    await page.goto(`${BASE}/#/learn`);
    await page.reload();
    await page.waitForSelector('.lessons li');
    assert.equal(await page.locator('.lessons li.done').count(), data.lessons.length, 'progress survives a reload');
    // The page fits the phone: nothing scrolls sideways.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1), 'no sideways scrolling');
    // The engine's refusals are answers (400), not errors of the page.
    assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  } finally {
    await close();
  }
});

test('a lesson by touch: tap a cell, tap the turn button, tap the tile to lay it', async () => {
  const { context, close } = await launch({ viewport: PHONE, hasTouch: true, isMobile: true });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/#/learn/lay`);
    await page.waitForSelector('.practice-move .big-tile');
    await page.waitForSelector('.target');
    assert.equal(await footerOverTilePanel(page), false, 'the language footer is not drawn over the tile panel');
    // The cell east of the start.
    const target = page.locator('.target[data-x="1"][data-y="0"]');
    await page.waitForFunction(() => !document.querySelector('.board-host[data-moving]'));
    const box = await target.boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => document.querySelector('.practice-move').dataset.placed === '1,0,0');
    await page.tap('.practice-move [data-act="play"]');
    await page.locator('.practice-result .verdict.ok').waitFor();
    await shot(page, 'learn-lay-touch');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the lessons are served with the page and replay on the server', async () => {
  const data = await lessons();
  for (const lesson of data.lessons) {
    const { status } = await api('/api/replay', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(lesson.record),
    });
    assert.equal(status, 200, lesson.key);
  }
});
