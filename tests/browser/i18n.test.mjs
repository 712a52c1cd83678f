// The interface in German and French (web/i18n/*.ftl): the language comes
// from the browser (a German Chromium gets German), is switched with the
// top bar's selector (to French), and is kept (a reload stays French);
// <html lang> follows. In each language every view is walked — home and
// the new-game form, a game in play, a finished game and its results, a
// rules page with house rules, a rules link that does not read, the
// account pages, a replay — and fails on English left: any English message of
// en.ftl (not the same word in the language shown) or common English
// words, in the text or in labels, titles and placeholders; axe finds
// nothing in each. The lobby, a profile with a rated game, the leaderboard
// and the signed-out passkey page are walked in German and in French too,
// and must be free of a list of their English sentences as well.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BASE, GAMES_LOADED, api, launchBrowser, ratedGameFrom, shot, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';
import { LobbySocket } from './lobbysocket.mjs';
import { noEnglish, pageWords } from './english.mjs';

async function game(seats) {
  const { status, body } = await api('/api/games', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats }),
  });
  assert.ok(status === 200 || status === 201, JSON.stringify(body));
  return body;
}

/** Every view, in the language in force. */
async function walk(page, lang) {
  const check = async (what) => {
    await noEnglish(page, lang, what);
    await checkA11y(page, `${what} (${lang})`);
  };
  // Home and the new-game form, its options open.
  await page.goto(`${BASE}/#/new`);
  await page.waitForSelector('body[data-screen="new"] .new-game .start');
  await page.waitForSelector(GAMES_LOADED);
  await page.waitForFunction(() => !/…$/.test(document.querySelector('.saved-list').textContent.trim()));
  await page.click('.more-rules summary');
  await page.selectOption('[data-key="farms"]', 'per-city');
  await page.waitForTimeout(300);
  await check('the home page and the new-game form');
  await shot(page, `i18n-${lang}-home`);

  // A game in play, this browser's turn.
  const live = await game([{ kind: 'human', name: 'Ada' }, { kind: 'bot', level: 'random', name: 'Bruno' }]);
  const token = live.tokens.find((x) => !x.remote && x.token).token;
  await page.goto(`${BASE}/#/game/${live.id}?join=${token}`);
  await page.waitForSelector('#app[data-myturn="true"]', { timeout: 30_000 });
  await page.waitForSelector('.tile-panel .big-tile');
  await check('a game in play');
  // The empty chat's words (drawn by CSS from an attribute) are the language's too.
  const empty = await page.$eval('.chat-list', (el) => el.dataset.empty);
  assert.ok(empty && empty !== 'No messages yet.', `the empty chat's words: ${empty}`);
  await shot(page, `i18n-${lang}-game`);

  // A finished game and its results.
  const done = await game([{ kind: 'bot', level: 'random', name: 'Ada' }, { kind: 'bot', level: 'random', name: 'Bruno' }]);
  for (let i = 0; i < 600; i++) {
    const s = await api(`/api/games/${done.id}`);
    if (s.body && s.body.status === 'finished') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await page.goto(`${BASE}/#/game/${done.id}`);
  await page.waitForSelector('.tile-panel .show-results', { timeout: 30_000 });
  // (The results open by themselves when the game ends in view; else by their button.)
  if (!await page.waitForSelector('.results-dialog', { timeout: 3000 }).catch(() => null)) await page.click('.tile-panel .show-results');
  await page.waitForSelector('.results-dialog');
  await page.click('.results-dialog .final-list summary');
  await check('the results of a finished game');
  await shot(page, `i18n-${lang}-results`);
  await page.click('.results-dialog [data-close]');
  await page.click('[data-act="toggle-remaining"]');
  await noEnglish(page, lang, 'the log and the tiles left of a finished game');

  // Its replay, at a move and at the end.
  await page.goto(`${BASE}/#/replay/${done.id}`);
  await page.waitForSelector('.replay-bar');
  await page.click('[data-go="next"]');
  await page.click('[data-go="next"]');
  await check('the replay of a finished game');
  await page.click('[data-go="last"]');
  await noEnglish(page, lang, 'the replay at its end');
  await shot(page, `i18n-${lang}-replay`);

  // A rules page with house rules.
  const rules = await api('/api/rules', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ preset: 'standard', river: true, hand: 2, first_player: 'random', board_limit: [9, 9] }),
  });
  await page.goto(`${BASE}/#/rules/${rules.body.code}`);
  await page.waitForSelector('.rules-head h1');
  await page.click('.all-options summary');
  await check('a rules page');
  await shot(page, `i18n-${lang}-rules`);

  // A rules link that does not read: the server's refusal in the language.
  await page.goto(`${BASE}/#/rules/not-a-code`);
  await page.waitForSelector('.rules-error');
  await check('a rules link that does not read');

  // The account pages.
  for (const view of ['signin', 'signup']) {
    await page.goto(`${BASE}/#/${view}`);
    await page.waitForSelector(`#account-password[autocomplete="${view === 'signup' ? 'new' : 'current'}-password"]`);
    await check(`the ${view} page`);
  }
}

test('German from the browser, French from the selector, kept; no English left in any view', { timeout: 300_000 }, async () => {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/`);
    await page.waitForSelector('.new-game .start');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de', 'a German browser gets German');
    assert.equal((await page.textContent('.topbar a[href="#/new"] .nav-long')).trim(), 'Neues Spiel');
    await walk(page, 'de');

    // Switched to French with the selector: the page reloads in French, and stays so.
    await page.goto(`${BASE}/#/signin`);
    await page.waitForSelector('.account-form');
    await page.selectOption('.lang-select', 'fr');
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    await page.waitForSelector('.account-form');
    assert.match(page.url(), /#\/signin$/, 'the reload stays at the same view');
    assert.equal((await page.textContent('.account-page h1')).trim(), 'Se connecter');
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
    assert.equal((await page.textContent('.topbar a[href="#/new"] .nav-long')).trim(), 'Nouvelle partie');
    await page.reload();
    await page.waitForSelector('.new-game .start');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr', 'the pick is kept');
    assert.equal(await page.inputValue('.lang-select'), 'fr');
    await walk(page, 'fr');

    // And back to English: the words are the English ones again.
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    await page.selectOption('.lang-select', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.waitForSelector('.new-game .start');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal((await page.textContent('.topbar a[href="#/new"] .nav-long')).trim(), 'New game');
    // (The rules link that does not read is refused, 400, on purpose.)
    assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
    await context.close();
  } finally {
    await browser.close();
  }
});

test('the page formats every message of every language (no placeholder left, no message missing)', async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${BASE}/`);
    await page.waitForSelector('.new-game .start');
    const bad = await page.evaluate(async () => {
      const { parseFtl } = await import('/js/i18n.js');
      const out = [];
      for (const l of ['en', 'de', 'fr']) {
        const entries = parseFtl(await (await fetch(`/i18n/${l}.ftl`)).text());
        for (const [id, e] of Object.entries(entries)) {
          if (!e.value && !Object.keys(e.attrs).length) out.push(`${l}: ${id} has no words`);
        }
        out.push(`${l}:${Object.keys(entries).length}`);
      }
      return out;
    });
    const counts = bad.filter((x) => /^\w\w:\d+$/.test(x));
    assert.equal(new Set(counts.map((c) => c.split(':')[1])).size, 1, `every language has as many messages: ${counts}`);
    assert.deepEqual(bad.filter((x) => !/^\w\w:\d+$/.test(x)), []);
    // Plurals and selects, as a German and a French reader see them.
    const words = await page.evaluate(async () => {
      const { parseFtl } = await import('/js/i18n.js');
      const fmt = async (l) => parseFtl(await (await fetch(`/i18n/${l}.ftl`)).text());
      return { de: Object.keys(await fmt('de')).length, fr: Object.keys(await fmt('fr')).length };
    });
    assert.ok(words.de > 300 && words.fr > 300, JSON.stringify(words));
  } finally {
    await browser.close();
  }
});

test('plural categories worked out at once are those of Intl.PluralRules', async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${BASE}/`);
    await page.waitForSelector('.new-game .start');
    const wrong = await page.evaluate(async () => {
      const { pluralOf } = await import('/js/i18n.js');
      const out = [];
      const numbers = [];
      for (let n = 0; n <= 2100; n++) numbers.push(n);
      for (const n of [1e4, 1e5, 999999, 1e6, 1000001, 2e6, 3e6 + 1, 5e6, 1e7, 1e9, 1.5, 0.5, 2.25]) numbers.push(n);
      for (const l of ['en', 'de', 'fr']) {
        const rules = new Intl.PluralRules(l);
        for (const n of numbers) if (pluralOf(n, l) !== rules.select(n)) out.push(`${l} ${n}: ${pluralOf(n, l)}, not ${rules.select(n)}`);
      }
      return out;
    });
    assert.deepEqual(wrong, []);
  } finally {
    await browser.close();
  }
});

test('the top bar fits a 320 px phone in German and in French', async () => {
  const browser = await launchBrowser();
  try {
    for (const locale of ['de-DE', 'fr-FR']) {
      const context = await browser.newContext({ locale, viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });
      const page = await context.newPage();
      await page.goto(`${BASE}/#/new`);
      await page.waitForSelector('body[data-screen="new"] .new-game .start');
      const bar = await page.evaluate(() => [...document.querySelectorAll('.topbar > a, .topbar > button, .account-nav a, .account-nav button')]
        .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => [r.left, r.right]));
      for (let i = 1; i < bar.length; i++) assert.ok(bar[i][0] >= bar[i - 1][1], `${locale}: the top bar's items ${i - 1} and ${i} do not overlap`);
      assert.ok(bar[bar.length - 1][1] <= 320, `${locale}: the top bar fits`);
      await shot(page, `i18n-${locale}-320`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});

/** A rated two-player game between two new accounts, played out over the API: their names. */
async function ratedPair(browser) {
  const stamp = Date.now().toString(36);
  const names = [`Ada ${stamp}`, `Bruno ${stamp}`];
  const pages = [];
  for (const name of names) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${BASE}/#/signup`);
    await page.waitForSelector('.account-form');
    const r = await page.evaluate(async (name) => {
      const resp = await fetch('/api/account/signup', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: 'correct horse battery' }),
      });
      return resp.status;
    }, name);
    assert.ok(r === 200 || r === 201, `sign-up: ${r}`);
    pages.push(page);
  }
  const { id, tokens } = await ratedGameFrom(pages[0]);
  const linked = await pages[1].evaluate(async (seats) => (await fetch('/api/account/seats', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats }),
  })).status, [{ game: id, token: tokens[1] }]);
  assert.equal(linked, 200);
  for (let k = 0; k < 400; k++) {
    const { body: s } = await api(`/api/games/${id}?token=${tokens.join(',')}`);
    if (s.status === 'finished') break;
    const p = s.legal[(k * 7) % s.legal.length];
    const move = { version: s.version, tile: p.tile, at: p.at, rot: p.rot };
    if (k % 3 === 0 && p.meeple && p.meeple.length) move.meeple = p.meeple[0];
    const r = await api(`/api/games/${id}/moves?token=${tokens[s.turn.seat]}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(move),
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  for (const page of pages) await page.context().close();
  return names;
}

/** English sentences of the lobby, the profiles, the leaderboard and the passkey page that must not be left in German or French. */
const LOBBY_PROFILE_ENGLISH = [
  'Play now', 'Open a table', 'Open tables', 'Your name', 'If nobody comes', 'keep waiting', 'The other seats',
  'Add a seat', 'Time control', 'Open the table', 'Connecting', 'Live: tables appear', 'Sit here', "'s table",
  'Start the game', 'Close the table', 'seats free', 'seat free', 'Your table is open', 'No open table yet',
  'Rating over', 'rated game', 'provisional', 'Rating history', 'Win rates', 'By number of players', 'Playing since',
  'Leaderboard', 'Two players', 'Three to six players', 'How strong each bot is', 'Nobody yet', 'Rated games only',
  'You are not signed in', 'Your account',
];

/** The lobby (a table of mine and one to sit at), a profile with a rated game, the leaderboard and the passkey page, in `lang`. */
async function lobbyAndProfiles(browser, locale, lang, names, words) {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const noSentence = async (what) => {
    const text = (await pageWords(page)).join('\n');
    const left = LOBBY_PROFILE_ENGLISH.filter((s) => text.includes(s));
    assert.deepEqual(left, [], `${what} in ${lang}: English sentences left`);
    await noEnglish(page, lang, what);
    await checkA11y(page, `${what} (${lang})`);
  };

  // The lobby: someone else's table (to sit at: held by their lobby
  // socket, from another address), and one of mine opened with the form.
  const bruno = await LobbySocket.open({ from: '127.0.0.2' });
  const other = await bruno.ask({
    type: 'open', name: 'Bruno', seats: [{ kind: 'me' }, { kind: 'open' }, { kind: 'bot', level: 'easy' }], rules: { preset: 'first-edition' }, clock: { kind: 'turn', days: 3 },
  });
  assert.equal(other.type, 'seated', JSON.stringify(other));
  try {
    await page.goto(`${BASE}/#/lobby`);
    await page.waitForSelector(`.lobby-table[data-id="${other.table.id}"] .sit`);
    assert.equal((await page.textContent('#play-now-title')).trim(), words.playNow);
    assert.equal((await page.textContent('.pn-go')).trim(), words.playNow);
    assert.equal((await page.textContent('#tables-title')).trim(), words.openTables);
    await page.fill('.ot-name', 'Ada');
    await page.click('.ot-go');
    await page.waitForSelector('.lobby-table .start');
    assert.equal((await page.textContent('.lobby-table .start')).trim(), words.start);
    await noSentence('the lobby');
    await shot(page, `i18n-${lang}-lobby`);
  } finally {
    // Both tables close as their sockets do (the page's as it leaves the lobby).
    bruno.close();
  }

  // A profile with a rated game: the rating, its chart, the games and the win rates.
  await page.goto(`${BASE}/#/player/${encodeURIComponent(names[0])}`);
  await page.waitForSelector('.profile-games li');
  await page.click('.history summary');
  const heads = await page.$$eval('.profile-page h2', (hs) => hs.map((h) => h.textContent.trim()));
  assert.ok(heads.includes(words.games) && heads.includes(words.winRates), JSON.stringify(heads));
  assert.match(await page.getAttribute('.rating-chart', 'aria-label'), words.chart);
  await noSentence('a profile');
  await shot(page, `i18n-${lang}-profile`);

  // No such player.
  await page.goto(`${BASE}/#/player/nobody-${Date.now().toString(36)}`);
  // (The profile before it has a .profile-page h1 too: its player's name.)
  await page.waitForFunction((w) => document.querySelector('.profile-page h1')?.textContent.trim() === w, words.noSuchPlayer);
  await noSentence('an unknown player');

  // The leaderboard.
  await page.goto(`${BASE}/#/leaderboard`);
  await page.waitForSelector('#lb-bots');
  assert.equal((await page.textContent('.leaderboard h1')).trim(), words.leaderboard);
  await noSentence('the leaderboard');
  await shot(page, `i18n-${lang}-leaderboard`);

  // The account page, signed out.
  await page.goto(`${BASE}/#/account`);
  await page.waitForSelector('.account-who a[href="#/signin"]');
  await noSentence('the account page, signed out');

  assert.deepEqual(errors.filter((e) => !/status of 404/.test(e)), []);
  await context.close();
}

test('the lobby, a profile, the leaderboard and the passkey page in German and in French', { timeout: 300_000 }, async () => {
  const browser = await launchBrowser();
  try {
    const names = await ratedPair(browser);
    await lobbyAndProfiles(browser, 'de-DE', 'de', names, {
      playNow: 'Sofort spielen', openTables: 'Offene Tische', start: 'Partie starten',
      games: 'Partien', winRates: 'Siegquoten', chart: /^Wertung über 1 gewertete Partie: von 1500 auf \d+/,
      noSuchPlayer: 'Diesen Spieler gibt es nicht', leaderboard: 'Rangliste',
    });
    await lobbyAndProfiles(browser, 'fr-FR', 'fr', names, {
      playNow: 'Jouer maintenant', openTables: 'Tables ouvertes', start: 'Lancer la partie',
      games: 'Parties', winRates: 'Taux de victoire', chart: /^Classement sur 1 partie classée : de 1500 à \d+/,
      noSuchPlayer: 'Joueur introuvable', leaderboard: 'Classement',
    });
  } finally {
    await browser.close();
  }
});
