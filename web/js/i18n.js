// The page's words in English, German and French: one Fluent file per
// language (web/i18n/LANG.ftl), the same files the server formats its own
// words from (crates/server/src/i18n.rs, with the fluent-bundle crate).
//
// The language: the person's pick (kept in localStorage), else the first of
// the browser's languages (navigator.languages) this game speaks, else
// English; switched with the selector at the page's foot. The messages load before any module that imports this one runs
// (top-level await), so `t()` may be called anywhere, even at module level.
//
// The formatter is a small subset of Fluent, written here (no build step, no
// vendored package): messages, terms (-term), attributes (.attr), variables
// ({ $name }), message and term references, string and number literals, and
// select expressions on a variable (plural categories, `pluralOf`, or exact
// values). The server's test parses the same
// files with the real Fluent parser, so a file this formatter reads wrongly
// but Fluent rejects fails there; tests/browser/i18n.test.mjs checks that
// every message formats here.

export const LANGS = ['en', 'de', 'fr'];
/** Each language's name in itself, for the selector. */
export const LANG_NAMES = { en: 'English', de: 'Deutsch', fr: 'Français' };
const KEY = 'carcassonne.lang';

/** The language in force: 'en', 'de' or 'fr'. */
export const lang = chooseLanguage();

function chooseLanguage() {
  try {
    const kept = localStorage.getItem(KEY);
    if (LANGS.includes(kept)) return kept;
  } catch { /* private mode */ }
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

/** Switches the language, keeps the pick, and reloads the page (at the same view). */
export function setLanguage(l) {
  if (!LANGS.includes(l)) return;
  try { localStorage.setItem(KEY, l); } catch { /* this page only */ }
  location.reload();
}

// ---- the Fluent subset ----

/**
 * A .ftl file cut into its entries: { id: the entry's text } (terms keep their leading '-'), at each line
 * that does not start with a blank. An entry's lines are read when it is first looked up ([`entryOf`]): a
 * page formats a few dozen of the file's messages, and this runs before the first screen.
 */
function indexFtl(text) {
  const entries = {};
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n(?=\S)/)) {
    const head = /^(-?[a-zA-Z][\w-]*)[ \t]*=/.exec(block);
    if (head) entries[head[1]] = block; // else a comment, or a line that is no entry
  }
  return entries;
}

/** A bundle's entry `id` ({ value, attrs: { name: pattern } }, each pattern its text until first used), or undefined. */
function entryOf(bundle, id) {
  const e = bundle.entries[id];
  return typeof e === 'string' ? (bundle.entries[id] = readEntry(e)) : e;
}

/** Parses a .ftl file into { id: { value, attrs: { name: pattern } } }, every entry read. */
export function parseFtl(text) {
  const bundle = { entries: indexFtl(text) };
  for (const id of Object.keys(bundle.entries)) entryOf(bundle, id);
  return bundle.entries;
}

/** One entry of a .ftl file (its head line and the indented or blank lines after it): its value and attributes. */
function readEntry(block) {
  const lines = block.split('\n');
  const head = /^(-?[a-zA-Z][\w-]*)\s*=\s?(.*)$/.exec(lines[0]);
  const valueLines = [head[2]];
  const attrs = [];
  let target = valueLines;
  for (const line of lines.slice(1)) {
    const attr = /^\s+\.([a-zA-Z][\w-]*)\s*=\s?(.*)$/.exec(line);
    if (attr) {
      target = [attr[2]];
      attrs.push([attr[1], target]);
    } else {
      target.push(line.trim() === '' ? '' : line);
    }
  }
  const entry = { value: null, attrs: {} };
  const v = joinPattern(valueLines);
  if (v !== '') entry.value = v;
  for (const [name, ls] of attrs) entry.attrs[name] = joinPattern(ls);
  return entry;
}

/** A value's lines as one text: the common indentation of the continuation lines removed. */
function joinPattern(ls) {
  while (ls.length > 1 && ls[ls.length - 1].trim() === '') ls.pop();
  const first = ls[0].trim();
  const rest = ls.slice(1);
  const indents = rest.filter((l) => l.trim()).map((l) => /^ */.exec(l)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  const body = rest.map((l) => l.slice(cut));
  return (first === '' ? body : [first, ...body]).join('\n');
}

/** An entry's value (`attr` null) or attribute, parsed (once: kept in the entry); null if it has none. */
function patternOf(entry, attr) {
  const holder = attr ? entry.attrs : entry;
  const key = attr || 'value';
  const p = holder[key];
  if (typeof p !== 'string') return p || null;
  return (holder[key] = parsePattern(p));
}

/** A pattern: a list of strings and placeables. */
function parsePattern(src) {
  const p = { src, i: 0 };
  return readPattern(p, null);
}

function readPattern(p, stopAtVariant) {
  const parts = [];
  let text = '';
  while (p.i < p.src.length) {
    const c = p.src[p.i];
    if (stopAtVariant && c === '}') break;
    if (stopAtVariant && c === '\n' && /^\n\s*(\*?\[|\})/.test(p.src.slice(p.i))) break;
    if (c === '{') {
      if (text) { parts.push(text); text = ''; }
      p.i++;
      parts.push(readPlaceable(p));
      continue;
    }
    text += c;
    p.i++;
  }
  if (text) parts.push(text);
  // A variant's pattern: its leading and trailing blank space is not text.
  if (stopAtVariant && parts.length) {
    if (typeof parts[0] === 'string') parts[0] = parts[0].replace(/^\s+/, '');
    const last = parts.length - 1;
    if (typeof parts[last] === 'string') parts[last] = parts[last].replace(/\s+$/, '');
  }
  return parts;
}

function skipWs(p) {
  while (p.i < p.src.length && /\s/.test(p.src[p.i])) p.i++;
}

function readExpression(p) {
  skipWs(p);
  const rest = p.src.slice(p.i);
  let m;
  if ((m = /^"((?:[^"\\]|\\.)*)"/.exec(rest))) {
    p.i += m[0].length;
    return { type: 'str', value: m[1].replace(/\\u([0-9a-fA-F]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16))).replace(/\\(.)/g, '$1') };
  }
  if ((m = /^-?\d+(\.\d+)?/.exec(rest))) {
    p.i += m[0].length;
    return { type: 'num', value: Number(m[0]) };
  }
  if ((m = /^\$([a-zA-Z][\w-]*)/.exec(rest))) {
    p.i += m[0].length;
    return { type: 'var', name: m[1] };
  }
  if ((m = /^(-?[a-zA-Z][\w-]*)(\.([a-zA-Z][\w-]*))?/.exec(rest))) {
    p.i += m[0].length;
    return { type: 'ref', id: m[1], attr: m[3] || null };
  }
  throw new Error(`Fluent: cannot read "${rest.slice(0, 20)}"`);
}

function readPlaceable(p) {
  const selector = readExpression(p);
  skipWs(p);
  if (p.src.startsWith('->', p.i)) {
    p.i += 2;
    const variants = [];
    let def = 0;
    for (;;) {
      skipWs(p);
      if (p.src[p.i] === '}') { p.i++; break; }
      if (p.i >= p.src.length) throw new Error('Fluent: unclosed select');
      let isDefault = false;
      if (p.src[p.i] === '*') { isDefault = true; p.i++; }
      const m = /^\[\s*([^\]\s]+)\s*\]/.exec(p.src.slice(p.i));
      if (!m) throw new Error(`Fluent: bad variant near "${p.src.slice(p.i, p.i + 20)}"`);
      p.i += m[0].length;
      if (isDefault) def = variants.length;
      variants.push({ key: m[1], pattern: readPattern(p, true) });
    }
    return { type: 'select', selector, variants, def };
  }
  if (p.src[p.i] !== '}') throw new Error(`Fluent: expected } near "${p.src.slice(p.i, p.i + 20)}"`);
  p.i++;
  return selector;
}

function formatPattern(bundle, parts, args, depth) {
  if (depth > 10) return '???';
  let out = '';
  for (const part of parts) out += typeof part === 'string' ? part : formatExpr(bundle, part, args, depth);
  return out;
}

function formatExpr(bundle, e, args, depth) {
  switch (e.type) {
    case 'str': return e.value;
    case 'num': return String(e.value);
    case 'var': {
      const v = args ? args[e.name] : undefined;
      if (v === undefined || v === null) return `{$${e.name}}`;
      return typeof v === 'number' ? numberWords(v, bundle.lang) : String(v);
    }
    case 'ref': {
      const entry = entryOf(bundle, e.id);
      if (!entry) return `{${e.id}}`;
      const pat = patternOf(entry, e.attr);
      if (!pat) return `{${e.id}}`;
      // Terms see only the arguments given to them (none here); messages see the caller's.
      return formatPattern(bundle, pat, e.id.startsWith('-') ? {} : args, depth + 1);
    }
    case 'select': {
      let key;
      if (e.selector.type === 'var') key = args ? args[e.selector.name] : undefined;
      else key = formatExpr(bundle, e.selector, args, depth);
      let chosen = e.variants.find((v) => String(v.key) === String(key));
      if (!chosen && typeof key === 'number') {
        const cat = pluralOf(key, bundle.lang);
        chosen = e.variants.find((v) => v.key === cat);
      }
      return formatPattern(bundle, (chosen || e.variants[e.def]).pattern, args, depth);
    }
    default: return '';
  }
}

// ---- formatters ----

const formatters = new Map();

/**
 * An Intl formatter (`Intl.NumberFormat`, …) for the language in force with these options, made once and kept:
 * making one costs far more than using it (a page's first, about 100 ms on a slow phone, the locale's data).
 */
export function intl(Kind, options = {}, l = lang) {
  const key = `${Kind.name} ${l} ${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Kind(l, options);
    formatters.set(key, f);
  }
  return f;
}

/**
 * A number's plural category (CLDR's, as `Intl.PluralRules` gives it). Whole numbers of at least 0 in the three
 * languages here are worked out at once (en, de: "one" for 1; fr: "one" for 0 and 1, "many" for whole millions),
 * others through Intl: a page's first Intl.PluralRules costs about 100 ms on a slow phone, in a game page's first
 * task. tests/browser/i18n.test.mjs checks this against Intl.PluralRules.
 */
export function pluralOf(n, l = lang) {
  if (Number.isInteger(n) && n >= 0) {
    if (l === 'en' || l === 'de') return n === 1 ? 'one' : 'other';
    if (l === 'fr') return n < 2 ? 'one' : n % 1000000 === 0 ? 'many' : 'other';
  }
  return intl(Intl.PluralRules, {}, l).select(n);
}

/**
 * A number in a language's digits. Whole numbers from 0 to 999 are written alike in every language here (no
 * grouping, no sign) and skip Intl: a page's first Intl.NumberFormat costs about 100 ms on a slow phone.
 */
function numberWords(v, l) {
  return Number.isInteger(v) && v >= 0 && v < 1000 ? String(v) : intl(Intl.NumberFormat, {}, l).format(v);
}

/**
 * Words as a list in the language in force: "Ada, Bea, and Cy" (the messages `list-two` and `list-end`: made
 * from the language's file, not Intl.ListFormat, whose first making costs about 100 ms on a slow phone).
 */
export function listWords(parts) {
  if (parts.length < 2) return parts.join('');
  const last = parts[parts.length - 1];
  if (parts.length === 2) return t('list-two', { first: parts[0], last });
  return t('list-end', { rest: parts.slice(0, -1).join(', '), last });
}

// ---- the messages in force ----

async function loadBundle(l) {
  try {
    const resp = await fetch(`/i18n/${l}.ftl`);
    if (!resp.ok) return { lang: l, entries: {} };
    return { lang: l, entries: indexFtl(await resp.text()) };
  } catch {
    return { lang: l, entries: {} };
  }
}

const [english, chosen] = await Promise.all([loadBundle('en'), lang === 'en' ? null : loadBundle(lang)]);
const bundles = chosen ? [chosen, english] : [english];

/** Whether a message exists (in the language in force, or English). */
export function has(id) {
  return bundles.some((b) => { const e = entryOf(b, id); return !!(e && e.value); });
}

/**
 * A message's words: `t('nav-new-game')`, `t('banner-waiting', { name })`,
 * an attribute with `t('rule-farms.about')`. Falls back to English, then to
 * the id itself (so a missing message shows, and the tests catch it).
 */
export function t(id, args) {
  const [msg, attr] = id.split('.');
  for (const b of bundles) {
    const entry = entryOf(b, msg);
    if (!entry) continue;
    const pat = patternOf(entry, attr);
    if (pat) return formatPattern(b, pat, args, 0);
  }
  return id;
}

/** Every message id of a language's file (for the tests). */
export function messageIds(which = 'en') {
  const b = which === 'en' ? english : chosen;
  return b ? Object.keys(b.entries) : [];
}

/** Fills an element tree's marked words: a data-i18n attribute names the message of its text, data-i18n-attr the messages of attributes (attr:key;attr:key). */
export function translateTree(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(';')) {
      const [attr, id] = pair.split(':');
      if (attr && id) el.setAttribute(attr, t(id));
    }
  }
}

/** Sets <html lang>, translates the page's fixed words, and puts the language selector in the page's footer. */
export function installLanguage() {
  document.documentElement.lang = lang;
  translateTree(document);
  document.title = t('app-title');
  const meta = document.querySelector('meta[name="description"]');
  if (meta) meta.content = t('app-description');
  if (document.querySelector('.lang-select')) return;
  const footer = document.createElement('footer');
  footer.className = 'site-footer';
  const label = document.createElement('label');
  label.htmlFor = 'lang-select';
  label.textContent = t('lang-select-label');
  const sel = document.createElement('select');
  sel.id = 'lang-select';
  sel.className = 'lang-select';
  for (const l of LANGS) {
    const o = document.createElement('option');
    o.value = l;
    o.lang = l;
    o.textContent = LANG_NAMES[l];
    sel.appendChild(o);
  }
  sel.value = lang;
  sel.onchange = () => setLanguage(sel.value);
  footer.append(label, ' ', sel);
  document.body.appendChild(footer);
}

/** A server error's words: the message for its code in the language in force, else the server's own. */
export function errorText(e) {
  const code = e && e.code;
  if (code && has(`error-${code}`) && (lang !== 'en' || !e.message)) return t(`error-${code}`, e.body || {});
  return (e && e.message) || t('error-unknown');
}

/** A message as a sentence: capital first, full stop last. */
export function sentence(m) {
  const s = String(m || t('something-wrong'));
  return `${s[0].toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}`;
}
