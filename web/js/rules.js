// The rules page (#/rules/CODE): a rule set in plain words, laid out for a
// phone at the table; its link and QR code to share; saving it by name; and
// starting a game with it.

import { api, qrUrl, rulesLink } from './api.js';
import { copyText, esc, toast } from './dom.js';

/** A short title for a record's `rules` object: "Rules: standard + 2 options". */
export function rulesTitle(rules) {
  const r = rules || {};
  const preset = String(r.preset || 'standard').replace('-', ' ');
  const n = Object.keys(r).filter((k) => k !== 'preset').length;
  return `Rules: ${preset}${n ? ` + ${n} option${n > 1 ? 's' : ''}` : ''}`;
}

/** A message as a sentence: capital first, full stop last. */
function sentence(m) {
  const t = String(m || 'something went wrong');
  return `${t[0].toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

export class RulesScreen {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.root.innerHTML = '<div class="rules-page"><p class="loading">Loading the rules…</p></div>';
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
            <h1>These rules cannot be read</h1>
            <p>${esc(sentence(e.message))}</p>
            <p>Check that the whole link was copied, or ask for it again.</p>
            <p><a class="btn primary" href="#/">Back to the start page</a></p>
          </section>
        </div>`;
      return;
    }
    this.render();
  }

  render() {
    const p = this.page;
    const link = rulesLink(p.code);
    const changed = p.options.filter((o) => o.changed);
    const inForce = changed.length
      ? `<ul class="in-force">${changed.map((o) => `<li><b>${esc(o.label)}</b>: ${esc(o.value_words)}
          <span class="muted">(${esc(p.preset.replace('-', ' '))}: ${esc(o.preset_value_words)})</span><br>${esc(o.line || o.about)}</li>`).join('')}</ul>`
      : `<p>None: the ${esc(p.preset.replace('-', ' '))} rules as they are.</p>`;
    const sections = p.summary.map((s) => `
      <section class="card rules-section${s.title === 'Farms' ? ' farms' : ''}">
        <h2>${esc(s.title)}</h2>
        ${s.lines.map((l) => `<p${l.startsWith('Example:') ? ' class="example"' : ''}>${esc(l)}</p>`).join('')}
      </section>`).join('');
    this.root.innerHTML = `
      <div class="rules-page">
        <header class="rules-head">
          <h1>${esc(rulesTitle(p.rules).replace(/^Rules: /, 'The rules: '))}</h1>
          <p class="preset-summary">${esc(p.preset_summary)}</p>
          <p class="rules-text"><code>${esc(p.text)}</code></p>
          <div class="rules-actions">
            <a class="btn primary" href="#/new?rules=${esc(p.code)}">Start a game with these rules</a>
            <button class="btn" data-act="to-share">Share or save</button>
          </div>
        </header>
        <section class="card options-in-force">
          <h2>House rules and options in force</h2>
          ${inForce}
        </section>
        ${sections}
        <section class="card share-rules" id="share">
          <h2>Share these rules</h2>
          <p class="muted">Friends open the link or scan the code to read them at the table.</p>
          <div class="share-row">
            <img class="qr" alt="QR code of the link to these rules" width="160" height="160">
            <div class="share-main">
              <label for="rules-link">Link</label>
              <input id="rules-link" class="rules-link" readonly value="${esc(link)}" spellcheck="false">
              <button class="btn" data-act="copy">Copy link</button>
            </div>
          </div>
          <form class="save-rules">
            <label for="rules-name">Save them on this server as</label>
            <div class="save-row">
              <input id="rules-name" class="rules-name" maxlength="24" placeholder="Our table’s rules" autocomplete="off">
              <button class="btn" type="submit">Save</button>
            </div>
          </form>
        </section>
        <details class="card all-options">
          <summary>Every option and what it does</summary>
          <dl>${p.options.map((o) => `<dt>${esc(o.label)} <span class="muted">— ${esc(o.value_words)}</span></dt><dd>${esc(o.about)}</dd>`).join('')}</dl>
        </details>
      </div>`;
    const $ = (s) => this.root.querySelector(s);
    const img = $('img.qr');
    qrUrl(link).then((url) => { img.src = url; }, () => { img.alt = 'No QR code: copy the link instead'; });
    $('[data-act="to-share"]').onclick = () => { $('.share-rules').scrollIntoView({ behavior: 'smooth' }); $('.rules-link').focus({ preventScroll: true }); };
    $('[data-act="copy"]').onclick = () => copyText($('.rules-link'));
    $('.rules-link').onfocus = (e) => e.target.select();
    $('.save-rules').onsubmit = async (e) => {
      e.preventDefault();
      const name = $('.rules-name').value.trim() || 'Our table’s rules';
      try {
        await api.saveRules(name, p.code);
        toast(`Saved as “${name}”: find them on the start page`);
        $('.rules-name').value = '';
      } catch (err) {
        toast(err.message, 'error', 5000);
      }
    };
  }
}
