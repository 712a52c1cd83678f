// Light or dark: the system's choice (prefers-color-scheme) unless the
// person picks one with the switch in the top bar; the pick is kept in
// localStorage. Sets data-theme="light" | "dark" on <html> (style.css).

import { t } from './i18n.js';

const KEY = 'carcassonne.theme';
const SYSTEM = window.matchMedia('(prefers-color-scheme: dark)');
const WORDS = { system: t('theme-system'), light: t('theme-light'), dark: t('theme-dark') };
const NEXT = { system: 'dark', dark: 'light', light: 'system' };
const ICONS = {
  system: '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><circle cx="12" cy="12" r="8" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 4a8 8 0 0 1 0 16z" fill="currentColor"/></svg>',
  light: '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><circle cx="12" cy="12" r="4.5" fill="currentColor"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
  dark: '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z" fill="currentColor"/></svg>',
};

/** The person's pick: 'system', 'light' or 'dark'. */
export function themeChoice() {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** The theme in force: 'light' or 'dark'. */
export function theme() {
  const c = themeChoice();
  return c === 'system' ? (SYSTEM.matches ? 'dark' : 'light') : c;
}

// style.css writes each colour once, as light-dark(light, dark). A browser
// without light-dark() (Safari before 17.5) reads none of them: each is set
// on <html> here instead, the light or the dark half.
const NATIVE = !window.CSS || CSS.supports('color', 'light-dark(#000, #fff)');

/** "a, b" at the top level of light-dark( … ): [a, b] (a colour may hold commas of its own). */
function halves(args) {
  let depth = 0;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '(') depth++;
    else if (args[i] === ')') depth--;
    else if (args[i] === ',' && depth === 0) return [args.slice(0, i).trim(), args.slice(i + 1).trim()];
  }
  return [args.trim(), args.trim()];
}

function palette(dark) {
  const root = document.documentElement;
  for (const sheet of document.styleSheets) {
    let rules;
    try { rules = sheet.cssRules; } catch { continue; }
    for (const rule of rules) {
      if (rule.selectorText !== ':root') continue;
      for (const name of rule.style) {
        const m = /^light-dark\((.*)\)$/.exec(rule.style.getPropertyValue(name).trim());
        if (m) root.style.setProperty(name, halves(m[1])[dark ? 1 : 0]);
      }
    }
  }
}

function apply() {
  // Written only when it changes: each write restyles the whole page.
  const root = document.documentElement;
  if (root.dataset.theme !== theme()) {
    root.dataset.theme = theme();
    if (!NATIVE) palette(theme() === 'dark');
  }
  const b = document.querySelector('.theme-toggle');
  if (!b) return;
  const c = themeChoice();
  const word = t(`theme-word-${c}`);
  if (b.dataset.choice !== c) {
    b.innerHTML = `${ICONS[c]}<span class="theme-word"></span>`;
    b.dataset.choice = c;
  }
  const w = b.querySelector('.theme-word');
  if (w.textContent !== word) w.textContent = word;
  b.title = t('theme-title', { now: WORDS[c], next: WORDS[NEXT[c]] });
  b.setAttribute('aria-label', t('theme-label', { word, now: WORDS[c], next: WORDS[NEXT[c]] }));
}

/**
 * Sets the theme now and makes the switch in the top bar work. The switch is
 * in index.html already (as "auto"), so that the top bar does not move when
 * this module runs after the first paint; made here if a page lacks it.
 */
export function installTheme() {
  apply();
  SYSTEM.addEventListener('change', apply);
  const bar = document.querySelector('.topbar');
  if (!bar) return;
  let b = bar.querySelector('.theme-toggle');
  if (b && b.onclick) return;
  if (!b) {
    b = document.createElement('button');
    b.className = 'theme-toggle';
    b.type = 'button';
    bar.appendChild(b);
  }
  b.onclick = () => {
    const next = NEXT[themeChoice()];
    try {
      if (next === 'system') localStorage.removeItem(KEY); else localStorage.setItem(KEY, next);
    } catch { /* private mode: this page only */ }
    apply();
  };
  apply();
}
