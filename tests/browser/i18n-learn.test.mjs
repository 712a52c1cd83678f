// The learning views in German and in French (web/i18n/*.ftl, section
// "Tutorial, puzzles, review"): a tutorial lesson (its texts, its buttons,
// a refused move explained by the rule it breaks, a missed goal, the
// solution and what it scored), the puzzles (the list, a puzzle and its
// answer in words), a finished game's review in the replay viewer (the
// panel, a better move in words, the banner), the "why" of a scoring on the
// board, and a hint's sentence. In each: the translated words show, and the
// English sentences of those views (and common English words) do not.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, finishedBotGame, gameAgainstBot, launch, nextTurn, openView, shot, watchErrors } from './lib.mjs';
import { keyMove, staticJson } from './practice.mjs';

/** English words that never belong in German or French text ("point" is French too). */
const ENGLISH = '(^|[^\\p{L}])(the|and|your|with|you|is|are|of|turn|turned|tiles?|game|player|cities|roads|farm|move|better|search|knight|thief|follower|lesson|puzzle|hint|WORDS)(?=$|[^\\p{L}])';
const ENGLISH_WORDS = {
  de: new RegExp(ENGLISH.replace('WORDS', 'points?'), 'iu'),
  fr: new RegExp(ENGLISH.replace('|WORDS', ''), 'iu'),
};
let lang = 'de'; // the language of the test running

/** Fails on English in `text` (the players' names taken out first). */
function noEnglish(text, what, names = []) {
  let t = text;
  for (const n of names) t = t.replaceAll(n, ' ');
  const word = ENGLISH_WORDS[lang].exec(t);
  assert.equal(word, null, `${what}: English word "${word && word[2]}" in: ${text}`);
}

/** Sentences of the English views that must not show in another language. */
const ENGLISH_SENTENCES = [
  'Learn to play', 'Roads and thieves', 'Show me', 'Play this move', 'Not allowed', 'Well done!',
  'already has a', 'That edge puts a', 'Puzzles', 'Puzzle of the day', 'Show the answer', 'The best move:',
  'Review', 'better was', 'the search agrees', 'Show it on the board', 'Points lost to better moves',
  'A finished', 'An unfinished', 'had the most', 'alone had', 'Hint:', 'than your average move',
];
function noEnglishSentences(text, what) {
  for (const s of ENGLISH_SENTENCES) assert.ok(!text.includes(s), `${what}: "${s}" shows in: ${text}`);
}

const WORDS = {
  de: {
    learn: 'Spielen lernen', road: 'Straßen und Wegelagerer', show: 'Zeig es mir', check: 'Diesen Zug spielen',
    refused: 'Nicht erlaubt', occupied: 'Auf dieser Straße steht schon ein Wegelagerer', edge: 'Diese Kante legt',
    solved: 'Gut gemacht!', scored: 'Straße aus 3 Plättchen', goalMiss: /die Lektion verlangt|was diese Lektion verlangt/,
    puzzles: 'Rätsel', today: 'Rätsel des Tages', answer: 'Der beste Zug:', showAnswer: 'Lösung zeigen',
    review: 'Analyse', line: /^Zug 1, .+: (besser war .+: (etwa \d+ Punkte? mehr|ein wenig mehr \(\d,\d Punkte\))\.|die Suche stimmt zu\.)/s,
    betterWas: 'besser war', showBetter: 'Auf dem Spielfeld zeigen', backToPlayed: 'Zurück zum gespielten Zug', banner: /^Zug \d+: besser für .+ war/,
    why: /= \d+ Punkte?\./, hint: /^Tipp: .+ – .+\.$/,
  },
  fr: {
    learn: 'Apprendre à jouer', road: 'Routes et voleurs', show: 'Montrez-moi', check: 'Jouer ce coup',
    refused: 'Interdit', occupied: 'Cette route a déjà un voleur', edge: 'Ce bord met',
    solved: 'Bravo !', scored: 'route de 3 tuiles', goalMiss: /la leçon demande|ce que demande cette leçon/,
    puzzles: 'Problèmes', today: 'Problème du jour', answer: 'Le meilleur coup :', showAnswer: 'Montrer la solution',
    review: 'Analyse', line: /^Coup 1, .+ : (mieux valait .+ : (environ \d+ points? de plus|un peu plus \(\d,\d point\))\.|la recherche est d’accord\.)/s,
    betterWas: 'mieux valait', showBetter: 'Le montrer sur le plateau', backToPlayed: 'Revenir au coup joué', banner: /^Coup \d+ : pour .+, mieux valait/,
    why: /= \d+ points?\./, hint: /^Conseil : .+ — .+\.$/,
  },
};

const text = async (page, sel) => (await page.textContent(sel)).replace(/\s+/g, ' ').trim();


async function lesson(page, lang, w) {
  const data = await staticJson('learn/lessons.json');
  await page.goto(`${BASE}/#/learn`);
  await page.waitForSelector('.lessons li');
  assert.equal(await text(page, '.learn-list h1'), w.learn, `${lang}: the tutorial's heading`);
  const list = await text(page, '.learn-list');
  noEnglish(list, `${lang}: the lessons list`);
  noEnglishSentences(list, `${lang}: the lessons list`);

  // The road lesson: its wrong move is refused, the rule said in the language.
  const road = data.lessons.find((l) => l.key === 'road');
  await page.goto(`${BASE}/#/learn/road`);
  await page.waitForSelector('.practice-move .big-tile');
  assert.equal(await text(page, '.lesson-title'), w.road);
  assert.equal(await text(page, '.show-me'), w.show);
  const head = await text(page, '.practice-head');
  noEnglish(head, `${lang}: the lesson's head`, ['Bea']);
  noEnglishSentences(head, `${lang}: the lesson's head`);
  await keyMove(page, road.wrong[0].move);
  const bad = page.locator('.practice-result .verdict.bad');
  await bad.waitFor();
  assert.equal(await bad.getAttribute('data-code'), 'feature_occupied');
  const refused = (await bad.textContent()).replace(/\s+/g, ' ');
  assert.ok(refused.includes(w.refused) && refused.includes(w.occupied), `${lang}: the refusal in words: ${refused}`);
  noEnglish(refused, `${lang}: a refusal`);
  noEnglishSentences(refused, `${lang}: a refusal`);
  await shot(page, `i18n-learn-${lang}-refused`);
  for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  // The move panel's words (a tile placed, its follower choices).
  await keyMove(page, road.solution);
  const ok = page.locator('.practice-result .verdict.ok');
  await ok.waitFor();
  const done = (await ok.textContent()).replace(/\s+/g, ' ');
  assert.ok(done.includes(w.solved) && done.includes(w.scored), `${lang}: solved, and what it scored: ${done}`);
  noEnglish(done, `${lang}: a solved lesson`, ['Bea']);
  noEnglish(await text(page, '.practice-move'), `${lang}: the move panel`);

  // The first lesson: an edge that does not match.
  const lay = data.lessons.find((l) => l.key === 'lay');
  await openView(page, `${BASE}/#/learn/lay`);
  await keyMove(page, lay.wrong[0].move);
  await page.locator('.practice-result .verdict.bad').waitFor();
  const edge = await text(page, '.practice-result');
  assert.ok(edge.includes(w.edge), `${lang}: ${edge}`);
  noEnglish(edge, `${lang}: an edge that does not match`);
  for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  // "Show me": the solution in words.
  await page.click('.show-me');
  const shown = await text(page, '.practice-result');
  noEnglish(shown, `${lang}: the solution in words`);

  // A legal move that misses the goal: the goal named.
  const city = data.lessons.find((l) => l.key === 'city');
  await openView(page, `${BASE}/#/learn/city`);
  await keyMove(page, city.wrong.find((x) => !x.code).move);
  await page.locator('.practice-result .verdict.bad[data-code="goal"]').waitFor();
  const miss = await text(page, '.practice-result');
  assert.match(miss, w.goalMiss, `${lang}: ${miss}`);
  noEnglish(miss, `${lang}: a missed goal`, ['Bea']);
}

async function puzzles(page, lang, w) {
  await page.goto(`${BASE}/#/puzzles`);
  await page.waitForSelector('.puzzle-list li');
  assert.equal(await text(page, '.learn-list h1'), w.puzzles, `${lang}: the puzzles' heading`);
  assert.ok((await text(page, '.today')).startsWith(w.today));
  const list = await text(page, '.learn-list');
  noEnglish(list, `${lang}: the puzzles list`);
  noEnglishSentences(list, `${lang}: the puzzles list`);
  await page.click('.puzzle-list li a');
  await page.waitForSelector('.practice-move .big-tile');
  await page.waitForSelector('.show-answer');
  assert.equal(await text(page, '.show-answer'), w.showAnswer);
  noEnglish(await text(page, '.practice-head'), `${lang}: a puzzle's head`);
  await page.click('.show-answer');
  const answer = await text(page, '.practice-result [data-code="answer"]');
  assert.ok(answer.startsWith(w.answer), `${lang}: the answer in words: ${answer}`);
  noEnglish(answer, `${lang}: a puzzle's answer`);
  noEnglishSentences(answer, `${lang}: a puzzle's answer`);
  await shot(page, `i18n-puzzle-${lang}-answer`);
}

async function review(page, lang, w, game) {
  const names = game.players.map((p) => p.name);
  await page.goto(`${BASE}/#/replay/${game.id}`);
  await page.waitForSelector('.review-panel h2');
  assert.equal(await text(page, '.review-panel h2'), w.review);
  await page.waitForSelector('.review-panel svg.review-curve', { timeout: 180_000 });
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  const line = await text(page, '.review-panel .review-line');
  assert.match(line, w.line, `${lang}: the first move's line`);
  // The move that lost the most: the better move in words, drawn on the board.
  const r = (await api(`/api/games/${game.id}/review`)).body.review;
  const worst = r.moves.reduce((a, m) => (m.lost > a.lost ? m : a));
  await page.fill('.turn-input', String(worst.turn));
  await page.dispatchEvent('.turn-input', 'change');
  await page.waitForSelector('.review-panel .better-words');
  assert.ok((await text(page, '.review-panel .review-line')).includes(w.betterWas));
  assert.equal(await text(page, '.review-panel [data-act="show-better"]'), w.showBetter);
  await page.click('.review-panel [data-act="show-better"]');
  await page.waitForSelector('.review-panel [data-act="show-better"][aria-pressed="true"]');
  assert.equal(await text(page, '.review-panel [data-act="show-better"]'), w.backToPlayed);
  assert.match(await text(page, '.replay-banner'), w.banner);
  const panel = await page.evaluate(() => {
    const el = document.querySelector('.review-panel');
    return [el.textContent, ...[...el.querySelectorAll('[title], [aria-label]')].map((x) => x.getAttribute('title') || x.getAttribute('aria-label'))].join(' ');
  });
  noEnglish(panel, `${lang}: the review panel`, names);
  noEnglishSentences(panel, `${lang}: the review panel`);
  noEnglish(await text(page, '.replay-banner'), `${lang}: the replay's banner`, names);
  await shot(page, `i18n-review-${lang}`);

  // The "why" of a scoring: at the end, every scoring in the log can be chosen.
  await page.click('[data-go="last"]');
  const whys = page.locator('.log button.why');
  const n = await whys.count();
  assert.ok(n > 0, 'scorings in the log');
  for (const i of [0, n - 1]) {
    await whys.nth(i).click();
    await page.waitForSelector('.why-box:not(.hidden) .why-text');
    const why = await text(page, '.why-box .why-text');
    assert.match(why, w.why, `${lang}: the sum in words: ${why}`);
    noEnglish(why, `${lang}: why a scoring scored`, names);
    noEnglishSentences(why, `${lang}: why a scoring scored`);
  }
}

async function hint(page, lang, w) {
  await gameAgainstBot(page, { kind: 'bot', level: 'easy', name: 'Bruno' });
  assert.equal(await nextTurn(page), 'mine');
  await page.waitForSelector('.tile-panel button[data-act="hint"]');
  await page.locator('svg.board').focus();
  await page.keyboard.press('h');
  await page.waitForFunction(() => /^(Tipp|Conseil) ?: /.test(document.querySelector('.hint-box:not(.hidden) .hint-text')?.textContent || ''));
  const words = await text(page, '.hint-box .hint-text');
  assert.match(words, w.hint, `${lang}: the hint's sentence`);
  noEnglish(words, `${lang}: the hint's sentence`, ['Ada', 'Bruno']);
  noEnglishSentences(words, `${lang}: the hint's sentence`);
}

for (const l of ['de', 'fr']) {
  test(`the tutorial, the puzzles, a review, the why of a scoring and a hint in ${l === 'de' ? 'German' : 'French'}`, { timeout: 420_000 }, async () => {
    lang = l;
    const game = await finishedBotGame([{ kind: 'bot', level: 'random', name: 'Ada' }, { kind: 'bot', level: 'random', name: 'Bruno' }]);
    const { context, close } = await launch({ viewport: { width: 1280, height: 860 }, locale: lang === 'de' ? 'de-DE' : 'fr-FR' });
    try {
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${BASE}/#/learn`);
      await page.waitForSelector('.lessons li');
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      const w = WORDS[lang];
      await lesson(page, lang, w);
      await puzzles(page, lang, w);
      await review(page, lang, w, game);
      await hint(page, lang, w);
      // The engine's refusals are answers (400), not errors of the page.
      assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
    } finally {
      await close();
    }
  });
}

// The expansions' lessons (several steps each) in German and French: the
// step's words, the next step's button, the builder and the big follower
// offered in the move panel in the language, and what a step scored.
const BIG_BOX_WORDS = {
  de: { step: 'Schritt 2 von 4', next: 'Nächster Schritt', builder: 'Baumeister', big: 'großer Gefolgsmann', goods: 'Warenmarker' },
  fr: { step: 'Étape 2 sur 4', next: 'Étape suivante', builder: 'bâtisseur', big: 'grand partisan', goods: 'jetons de marchandises' },
};
for (const l of ['de', 'fr']) {
  test(`the expansions' lessons in ${l === 'de' ? 'German' : 'French'}`, async () => {
    lang = l;
    const w = BIG_BOX_WORDS[l];
    const data = await staticJson('learn/lessons.json');
    const { context, close } = await launch({ viewport: { width: 1280, height: 860 }, locale: l === 'de' ? 'de-DE' : 'fr-FR' });
    try {
      const page = await context.newPage();
      const errors = watchErrors(page);
      // Traders & Builders: the goods taken, then the builder offered and placed.
      const tb = data.lessons.find((x) => x.key === 'traders-builders');
      await page.goto(`${BASE}/#/learn/traders-builders`);
      await keyMove(page, tb.solution);
      const ok = page.locator('.practice-result .verdict.ok');
      await ok.waitFor();
      const done = await text(page, '.practice-result');
      assert.ok(done.includes(w.goods), `${l}: the goods taken in words: ${done}`);
      noEnglish(done, `${l}: a step done`, ['Bea']);
      assert.equal(await text(page, '.next-step'), w.next);
      await page.click('.next-step');
      await page.waitForFunction((s) => document.querySelector('.learn-step')?.textContent.includes(s), w.step);
      const head = await text(page, '.practice-head');
      noEnglish(head, `${l}: a step's head`, ['Bea']);
      noEnglishSentences(head, `${l}: a step's head`);
      await page.click('.show-me');
      const panel = await text(page, '.practice-move');
      assert.ok(panel.includes(w.builder), `${l}: the builder offered: ${panel}`);
      assert.ok((await text(page, '.practice-result')).includes(w.builder), `${l}: the solution's builder in words`);
      noEnglish(panel, `${l}: the move panel with a builder`);
      await shot(page, `i18n-learn-${l}-builder`);
      // Inns & Cathedrals: the big follower offered.
      const ic = data.lessons.find((x) => x.key === 'inns-cathedrals');
      await page.goto(`${BASE}/#/learn/inns-cathedrals`);
      await keyMove(page, ic.solution);
      await page.locator('.practice-result .verdict.ok').waitFor();
      await page.click('.next-step');
      await page.waitForSelector('.practice-move .big-tile');
      await page.click('.show-me');
      const big = await text(page, '.practice-move');
      assert.ok(big.includes(w.big), `${l}: the big follower offered: ${big}`);
      noEnglish(await text(page, '.practice-result'), `${l}: the move in words`, ['Bea']);
      assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
    } finally {
      await close();
    }
  });
}
