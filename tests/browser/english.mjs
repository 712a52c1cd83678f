// English left in a German or French page: the check the language tests
// share (i18n.test.mjs walks every view with it, endings.test.mjs a dialog).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ftl = (l) => readFileSync(join(here, '..', '..', 'web', 'i18n', `${l}.ftl`), 'utf8');

/** The plain messages of a file (no placeables): key → words. */
export function plainMessages(src) {
  const out = new Map();
  for (const line of src.split('\n')) {
    const m = /^([a-zA-Z][\w-]*) = ([^{]+)$/.exec(line);
    if (m) out.set(m[1], m[2].trim());
  }
  return out;
}

/** The English phrases that must not show in `lang`: en.ftl's words that the other file says otherwise. */
export function englishPhrases(lang) {
  const en = plainMessages(ftl('en'));
  const other = plainMessages(ftl(lang));
  const theirs = new Set([...other.values()].map((v) => v.toLowerCase()));
  // Every word of the other file: an English message of one word that is also a word there
  // ("Place" in French) reads as that language.
  const vocabulary = new Set(ftl(lang).toLowerCase().split(/[^\p{L}]+/u));
  const phrases = new Set();
  for (const [key, v] of en) {
    const words = v.replace(/[.…:!?]+$/, '').trim();
    if (words.length < 4 || !/[a-z]{3}/i.test(words)) continue;
    if (other.get(key) === v || theirs.has(words.toLowerCase()) || theirs.has(v.toLowerCase())) continue;
    if (/^\p{L}+$/u.test(words) && vocabulary.has(words.toLowerCase())) continue;
    phrases.add(words);
  }
  return [...phrases];
}

/** English words that never belong in German or French text. */
export const ENGLISH_WORDS = /(^|[^\p{L}])(the|and|your|with|you|is|are|of|turn|tiles?|game|player|cities|roads|farm)(?=$|[^\p{L}])/iu;

/** Every word the page shows or says: text nodes and the labels, titles, placeholders and alt texts. */
export async function pageWords(page, root = 'body') {
  return page.evaluate((root) => {
    const skip = (el) => el.closest('code, script, style, noscript, .lang-select, .recovery-code');
    const parts = [];
    const top = document.querySelector(root);
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement && !skip(n.parentElement) && n.nodeValue.trim()) parts.push(n.nodeValue.trim());
    }
    for (const el of top.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (skip(el)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v && v.trim()) parts.push(v.trim());
      }
    }
    if (root === 'body') parts.push(document.title);
    return parts;
  }, root);
}

const NAMES = ['Ada', 'Bruno'];

/** Fails on English left in the view, or in its part `root` (names of players aside). */
export async function noEnglish(page, lang, what, root = 'body') {
  const phrases = englishPhrases(lang);
  const found = [];
  for (const raw of await pageWords(page, root)) {
    let text = raw;
    for (const n of NAMES) text = text.replaceAll(n, ' ');
    const word = ENGLISH_WORDS.exec(text);
    if (word) found.push(`"${raw}" (the word "${word[2]}")`);
    for (const p of phrases) {
      const at = text.indexOf(p);
      if (at < 0) continue;
      const before = text[at - 1], after = text[at + p.length];
      if ((!before || !/\p{L}/u.test(before)) && (!after || !/\p{L}/u.test(after))) found.push(`"${raw}" (the message "${p}")`);
    }
  }
  assert.deepEqual([...new Set(found)], [], `${what} in ${lang}: English left`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `${what}: <html lang>`);
}
