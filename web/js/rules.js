// The rules page (#/rules/CODE): a rule set in plain words, laid out for a
// phone at the table; its link and QR code to share; saving it by name; and
// starting a game with it.

import { api, qrUrl, rulesLink } from './api.js';
import { copyText, esc, toast } from './dom.js';
import { errorText, has, lang, sentence, t } from './i18n.js';

/** A short title for a record's `rules` object: "Rules: standard + 2 options"
 * (`message` "rules-page-title": "The rules: standard + 2 options"). */
export function rulesTitle(rules, message = 'rules-title') {
  const r = rules || {};
  const n = Object.keys(r).filter((k) => k !== 'preset').length;
  return t(message, { preset: presetName(r.preset || 'standard'), n });
}

/** A preset's name in words: "standard", "first edition". */
export function presetName(name) {
  return t(`preset-${name}`);
}

/** A rating pool in a few words: "Big Box, two players" (the server's
 * word as it is for one the messages do not know). */
export function poolWords(pool) {
  return has(`rating-pool-${pool}`) ? t(`rating-pool-${pool}`) : pool;
}

/** A rule option's label (its message, from the engine's key). */
export function optionLabel(opt) {
  return opt.message ? t(opt.message) : opt.label;
}

/** A rule option's explanation. */
export function optionAbout(opt) {
  return opt.message ? t(`${opt.message}.about`) : opt.about;
}

/** The words of a choice option's i-th value on the new-game form. */
export function optionValueWords(opt, i) {
  const key = (opt.value_messages || [])[i];
  return key ? t(key) : (opt.value_labels || [])[i] || opt.values[i];
}

/**
 * The rule set in a sentence, as the engine's headline says it (its preset,
 * how farmers score, whether small cities score less, whether house rules
 * change the preset), from the messages: `preset` is an entry of the
 * options' presets, `rules` a record's `rules` object.
 */
export function headlineOf(preset, rules) {
  const values = { ...preset.values, ...rules };
  const changed = Object.keys(rules).some((k) => k !== 'preset' && JSON.stringify(rules[k]) !== JSON.stringify(preset.values[k]));
  return t('headline', {
    title: t(`preset-${preset.name}-title`),
    changed: changed ? 'yes' : 'no',
    farms: t(`headline-farms-${values.farms}`),
    small: values.small_city ? 'yes' : 'no',
  });
}

/** Whether a rules page's rule set plays an expansion (Inns & Cathedrals, Traders & Builders). */
function hasBigBox(page) {
  return page.options.some((o) => (o.key === 'inns_cathedrals' || o.key === 'traders_builders') && o.value === true);
}

export class RulesScreen {
  constructor(root, code, options = null, tiles = null) {
    this.root = root;
    this.tiles = tiles;
    this.options = options;
    this.code = code;
    this.root.innerHTML = `<div class="rules-page"><p class="loading">${esc(t('rules-loading'))}</p></div>`;
    this.load();
  }

  destroy() {}

  async load() {
    try {
      this.page = await api.rules(this.code);
    } catch (e) {
      this.root.innerHTML = `
        <div class="rules-page">
          <section class="card rules-error" role="alert">
            <h1>${esc(t('rules-unreadable'))}</h1>
            <p>${esc(sentence(errorText(e)))}</p>
            <p>${esc(t('rules-unreadable-hint'))}</p>
            <p><a class="btn primary" href="#/">${esc(t('back-to-start'))}</a></p>
          </section>
        </div>`;
      return;
    }
    this.render();
  }

  /** The rule set in a sentence: the engine's, or the same made from the messages. */
  headline(p) {
    const preset = this.options && this.options.presets.find((x) => x.name === p.preset);
    return lang === 'en' || !preset ? p.preset_summary : headlineOf(preset, p.rules);
  }

  render() {
    const p = this.page;
    const link = rulesLink(p.code);
    const changed = p.options.filter((o) => o.changed);
    const words = (key, english) => (key ? t(key) : english);
    const inForce = changed.length
      ? `<ul class="in-force">${changed.map((o) => `<li><b>${esc(optionLabel(o))}</b>: ${esc(words(o.value_message, o.value_words))}
          <span class="muted">(${esc(presetName(p.preset))}: ${esc(words(o.preset_value_message, o.preset_value_words))})</span><br>${esc(lang === 'en' ? o.line || o.about : optionAbout(o))}</li>`).join('')}</ul>`
      : `<p>${esc(t('rules-none-changed', { preset: presetName(p.preset) }))}</p>`;
    const sections = p.summary.map((s) => `
      <section class="card rules-section${s.title === 'Farms' ? ' farms' : ''}">
        <h2>${esc(t(`rules-section-${s.title.toLowerCase().replace(/ /g, '-')}`))}</h2>
        ${s.lines.map((l, i) => `<p${s.title === 'Farms' && i === s.lines.length - 1 ? ' class="example"' : ''}>${esc(l)}</p>`).join('')}
      </section>`).join('');
    this.root.innerHTML = `
      <div class="rules-page">
        <header class="rules-head">
          <h1>${esc(rulesTitle(p.rules, 'rules-page-title'))}</h1>
          <p class="preset-summary">${esc(this.headline(p))}</p>
          <div class="rules-actions">
            <a class="btn primary" href="#/new?rules=${esc(p.code)}">${esc(t('rules-start'))}</a>
            <button class="btn" data-act="to-share">${esc(t('rules-share-or-save'))}</button>
          </div>
        </header>
        <section class="card options-in-force">
          <h2>${esc(t('rules-in-force'))}</h2>
          ${inForce}
        </section>
        ${sections}
        ${this.tiles && hasBigBox(p) ? '<section class="card rules-section big-box"></section>' : ''}
        <section class="card share-rules" id="share">
          <h2>${esc(t('rules-share'))}</h2>
          <p class="muted">${esc(t('rules-share-hint'))}</p>
          <div class="share-row">
            <img class="qr" alt="${esc(t('rules-qr-alt'))}" width="160" height="160">
            <div class="share-main">
              <label for="rules-link">${esc(t('rules-link'))}</label>
              <input id="rules-link" class="rules-link" readonly value="${esc(link)}" spellcheck="false">
              <button class="btn" data-act="copy">${esc(t('copy-link'))}</button>
              <p class="rules-text muted">${esc(t('rules-cli'))} <code>${esc(p.text)}</code></p>
            </div>
          </div>
          <form class="save-rules">
            <label for="rules-name">${esc(t('rules-save-as'))}</label>
            <div class="save-row">
              <input id="rules-name" class="rules-name" maxlength="24" placeholder="${esc(t('rules-default-name'))}" autocomplete="off">
              <button class="btn" type="submit">${esc(t('save'))}</button>
            </div>
          </form>
        </section>
        <details class="card all-options">
          <summary>${esc(t('rules-every-option'))}</summary>
          <dl>${p.options.map((o) => `<dt>${esc(optionLabel(o))} <span class="muted">— ${esc(words(o.value_message, o.value_words))}</span></dt><dd>${esc(optionAbout(o))}</dd>`).join('')}</dl>
        </details>
      </div>`;
    const $ = (s) => this.root.querySelector(s);
    // The Big Box's elements with worked examples: their module and pictures load only here.
    const bigBox = $('.rules-section.big-box');
    if (bigBox) {
      import('./rulesexamples.js').then((m) => m.renderBigBox(bigBox, p, this.tiles))
        .catch((e) => { bigBox.innerHTML = `<p class="bad">${esc(e.message)}</p>`; });
    }
    const img = $('img.qr');
    qrUrl(link).then((url) => { img.src = url; }, () => { img.alt = t('rules-qr-none'); });
    $('[data-act="to-share"]').onclick = () => { $('.share-rules').scrollIntoView({ behavior: 'smooth' }); $('.rules-link').focus({ preventScroll: true }); };
    $('[data-act="copy"]').onclick = () => copyText($('.rules-link'));
    $('.rules-link').onfocus = (e) => e.target.select();
    $('.save-rules').onsubmit = async (e) => {
      e.preventDefault();
      const name = $('.rules-name').value.trim() || t('rules-default-name');
      try {
        await api.saveRules(name, p.code);
        toast(t('rules-saved', { name }));
        $('.rules-name').value = '';
      } catch (err) {
        toast(errorText(err), 'error', 5000);
      }
    };
  }
}
