// Chat and rematch in a real Chromium: two devices (each its own browser
// context: storage, websockets) hold the two seats of a game; they chat by
// typing and by a quick phrase, one mutes the other, axe finds nothing with
// the chat panel open; the game is played out (through the API, to be quick),
// both accept the rematch in the results dialog and each lands in the new
// game with their new seat. One device is a desktop, the other a 390×844 phone.
// A spectator mutes a signed-in spectator named as a player (the player
// still speaks) and a spectator who comes back from another browser.
//
// Needs a running server: BASE_URL (default http://127.0.0.1:8080).
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, launchBrowser, playOut, press, shot, signUp, watchErrors } from './lib.mjs';
import { checkA11y } from './a11y.mjs';

const json = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const logText = (page) => page.locator('.chat-log').innerText();

/** Opens the chat panel (folded on a phone). */
async function openChat(page) {
  await page.waitForSelector('.chat-toggle');
  if ((await page.getAttribute('.chat-toggle', 'aria-expanded')) !== 'true') await page.click('.chat-toggle');
  await page.waitForSelector('.chat-panel .chat-body', { state: 'visible' });
}

test('two players chat, mute, and play a rematch', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    const made = await api('/api/games', json({ seats: [{ kind: 'human', name: 'Ada' }, { kind: 'remote', name: 'Bob' }] }));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    const tokens = [];
    for (const t of made.body.tokens) tokens[t.seat] = t.token;

    const ctxA = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const ctxB = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const pa = await ctxA.newPage();
    const pb = await ctxB.newPage();
    watchErrors(pa, errors);
    watchErrors(pb, errors);
    await pa.goto(`${BASE}/#/game/${id}?join=${tokens[0]}`);
    await pb.goto(`${BASE}/#/game/${id}?join=${tokens[1]}`);
    // On the phone the chat is folded at first, and says when a message came.
    await pb.waitForSelector('.chat-toggle[aria-expanded="false"]');
    for (const p of [pa, pb]) await p.waitForSelector('.chat-panel .chat-form', { state: 'attached' });
    await openChat(pa);

    // Typed text, and text stays text.
    await pa.fill('#chat-input', 'Hello Bob <b>hi</b>');
    await pa.press('#chat-input', 'Enter');
    await pb.waitForFunction(() => document.querySelector('.chat-toggle')?.textContent === 'Chat (1 new)');
    await openChat(pb);
    await pb.waitForFunction(() => document.querySelector('.chat-log')?.innerText.includes('Hello Bob <b>hi</b>'));
    assert.equal(await pb.locator('.chat-log b').count(), 0, 'no markup from a message');
    assert.match(await logText(pb), /Ada: Hello Bob/);
    // A quick phrase from the phone.
    await pb.locator('.chat-phrases button', { hasText: 'Nice move' }).tap();
    await pa.waitForFunction(() => document.querySelector('.chat-log')?.innerText.includes('Bob: Nice move'));
    // Spectators' chat stays with the spectators while the game is in play.
    const spect = await api(`/api/games/${id}/chat`, json({ text: 'I am watching' }));
    assert.equal(spect.status, 200, JSON.stringify(spect.body));
    await shot(pb, '60-chat-phone');
    // With the chat open the board is short: its buttons stay apart.
    const tools = await pb.evaluate(() => [...document.querySelectorAll('.board-wrap .tool')]
      .map((e) => ({ c: e.className, r: e.getBoundingClientRect() })).filter((t) => t.r.width > 0)
      .map(({ c, r }) => ({ c, left: r.left, right: r.right, top: r.top, bottom: r.bottom })));
    for (const [i, a] of tools.entries()) {
      for (const b of tools.slice(i + 1)) {
        assert.ok(a.right <= b.left || a.left >= b.right || a.bottom <= b.top || a.top >= b.bottom, `the board's buttons apart: ${JSON.stringify([a, b])}`);
      }
    }

    // Ada mutes Bob: his messages leave her screen, and new ones do not show.
    await pa.getByRole('button', { name: 'Mute Bob' }).first().click();
    await pa.waitForFunction(() => !document.querySelector('.chat-log').innerText.includes('Nice move'));
    await pb.locator('.chat-phrases button', { hasText: 'One moment' }).tap();
    await pb.waitForFunction(() => document.querySelector('.chat-log').innerText.includes('Bob: One moment'));
    await pa.waitForTimeout(500);
    assert.doesNotMatch(await logText(pa), /One moment/);
    assert.doesNotMatch(await logText(pa), /I am watching/, 'players do not read the spectators during the game');
    assert.match(await pa.locator('.chat-muted').innerText(), /Muted: Bob/);
    await checkA11y(pa, 'a game with the chat panel open (desktop)');
    await checkA11y(pb, 'a game with the chat panel open (phone)');
    // The mute is kept in the browser: after a reload Bob stays muted.
    await pa.reload();
    await openChat(pa);
    await pa.waitForFunction(() => document.querySelector('.chat-log')?.innerText.includes('Ada: Hello Bob'));
    assert.doesNotMatch(await logText(pa), /Bob: /);
    // Hiding the chat hides it for this viewer only.
    await pa.uncheck('.chat-on');
    assert.equal(await pa.locator('.chat-body').isVisible(), false);
    await pa.check('.chat-on');

    // The end, then the rematch: both accept in the results dialog.
    await playOut(id, tokens);
    for (const p of [pa, pb]) {
      await p.waitForFunction(() => document.querySelector('#app')?.dataset.status === 'finished', null, { timeout: 90_000 });
      // The results open by themselves at the end (on a large screen); else from the banner.
      const shown = await p.waitForSelector('.results-dialog', { state: 'visible', timeout: 5000 }).then(() => true, () => false);
      if (!shown) await p.locator('[data-open-results], .show-results').first().click();
      await p.waitForSelector('.results-dialog .rematch');
    }
    assert.match(await logText(pa), /I am watching/, 'after the end players read the spectators too');
    await checkA11y(pb, 'the results dialog with the rematch (phone)');
    await press(pa, '.results-dialog .rematch');
    await pb.waitForFunction(() => /waiting for Bob/.test(document.querySelector('.rematch-status')?.textContent || ''));
    await shot(pb, '61-rematch-waiting-phone');
    await press(pb, '.results-dialog .rematch', { tap: true });
    await pa.waitForURL((u) => !u.href.endsWith(id) && /#\/game\/[a-z0-9]+$/.test(u.href));
    await pb.waitForURL((u) => !u.href.endsWith(id) && /#\/game\/[a-z0-9]+$/.test(u.href));
    const newA = pa.url().split('/').pop(), newB = pb.url().split('/').pop();
    assert.equal(newA, newB, 'both land in the same new game');
    assert.notEqual(newA, id);
    // Each holds their own seat there, rotated: Bob moves first now.
    for (const [p, seat] of [[pa, 1], [pb, 0]]) {
      await p.waitForFunction(() => document.querySelector('#app')?.dataset.version === '0');
      const held = await p.evaluate((g) => JSON.parse(localStorage.getItem('carcassonne.tokens'))[g], newA);
      assert.equal(held.length, 1);
      const { body: s } = await api(`/api/games/${newA}?token=${held[0]}`);
      assert.deepEqual(s.you, [seat]);
    }
    await shot(pa, '62-rematch-landed');
    assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  } finally {
    await browser.close();
  }
});

test('a spectator mutes by whose a message is: a signed-in spectator named as a player, a spectator from another browser', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    // The player and a signed-in spectator share a name (an account's is unique, a seat's need not be).
    const name = `Quill${Date.now() % 100000}`;
    const made = await api('/api/games', json({ seats: [{ kind: 'human', name: 'Ada' }, { kind: 'remote', name }] }));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    const player = made.body.tokens.find((t) => t.seat === 1).token;
    assert.equal((await api(`/api/games/${id}/chat?token=${player}`, json({ text: 'I play' }))).status, 200);
    const ctxM = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const member = await ctxM.newPage();
    watchErrors(member, errors);
    await signUp(member, name);
    await member.goto(`${BASE}/#/game/${id}`);
    await openChat(member);
    await member.fill('#chat-input', 'I watch');
    await member.press('#chat-input', 'Enter');
    await member.waitForFunction((n) => document.querySelector('.chat-log')?.innerText.includes(`${n} (watching): I watch`), name);
    // A spectator not signed in (this machine's address), from a browser of its own.
    const troll = (text, token) => api(`/api/games/${id}/chat?spectator=${token}`, json({ text }));
    const first = await troll('boo', '0123456789abcdef0123456789abcdef');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const trollName = first.body.message.name;

    const ctxV = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const viewer = await ctxV.newPage();
    watchErrors(viewer, errors);
    await viewer.goto(`${BASE}/#/game/${id}`);
    await openChat(viewer);
    await viewer.waitForFunction(() => document.querySelector('.chat-log')?.innerText.includes('boo'));
    await viewer.getByRole('button', { name: `Mute ${name} (watching)`, exact: true }).click();
    await viewer.waitForFunction(() => !document.querySelector('.chat-log').innerText.includes('I watch'));
    assert.match(await logText(viewer), new RegExp(`${name}: I play`), 'the player of the same name still speaks');
    await viewer.getByRole('button', { name: `Mute ${trollName} (watching)`, exact: true }).click();
    await viewer.waitForFunction(() => !document.querySelector('.chat-log').innerText.includes('boo'));
    // Back in another browser (another spectator token) from the same address: the same spectator, muted.
    const again = await troll('boo again', 'fedcba9876543210fedcba9876543210');
    assert.equal(again.body.message.name, trollName);
    await member.waitForFunction(() => document.querySelector('.chat-log')?.innerText.includes('boo again'));
    await viewer.waitForTimeout(500);
    assert.doesNotMatch(await logText(viewer), /boo again/);
    const muted = await viewer.locator('.chat-muted').innerText();
    assert.match(muted, new RegExp(`${name} \\(watching\\)`));
    assert.match(muted, new RegExp(`${trollName} \\(watching\\)`));
    await checkA11y(viewer, 'a spectator\'s chat with two people muted');
    // Kept in this browser, by whose the messages are.
    await viewer.reload();
    await openChat(viewer);
    await viewer.waitForFunction((n) => document.querySelector('.chat-log')?.innerText.includes(`${n}: I play`), name);
    assert.doesNotMatch(await logText(viewer), /I watch|boo/);
    assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  } finally {
    await browser.close();
  }
});

test('a game made with no chat says so and offers no way to write, on a 320 px phone', async () => {
  const browser = await launchBrowser();
  const errors = [];
  try {
    const ctx = await browser.newContext({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    watchErrors(page, errors);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.new-game .start');
    await page.check('.new-game .chat-off');
    await page.click('.new-game .start');
    await page.waitForURL(/#\/game\/[a-z0-9]+$/);
    await openChat(page);
    await page.waitForFunction(() => document.querySelector('.chat-note')?.textContent === 'Chat is off in this game.');
    assert.equal(await page.locator('.chat-form').isVisible(), false);
    assert.equal(await page.locator('.chat-phrases').isVisible(), false);
    const id = page.url().split('/').pop();
    const r = await api(`/api/games/${id}/chat`, json({ text: 'hello' }));
    assert.equal(r.body.error, 'chat_off');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 320, `nothing sticks out of a 320 px screen (${width})`);
    await checkA11y(page, 'a game with no chat, chat panel open (320 px)');
    assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  } finally {
    await browser.close();
  }
});
