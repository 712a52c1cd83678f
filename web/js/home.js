// The front page: a new game in one click (you against a bot), every option
// of the engine, the list of games, and opening a record to replay.

import { addTokens, api, knownGames, lastName, rememberName, saveInvites, tokensFor } from './api.js';
import { clockFormHtml, readClockForm, wireClockForm } from './clock.js';
import { ago, esc, toast } from './dom.js';
import { colorOf, markIcon, meepleIcon } from './meeple.js';
import { headlineOf, presetName, optionLabel, optionValueWords, rulesTitle } from './rules.js';
import { errorText, lang, listWords, t } from './i18n.js';

export class HomeScreen {
  constructor(root, tiles, options, { section = 'home', rulesCode = null, onReplayFile } = {}) {
    this.root = root;
    this.tiles = tiles;
    this.options = options;
    this.onReplayFile = onReplayFile;
    this.seats = [
      { kind: 'human', where: 'here', name: lastName() || t('seat-you') },
      { kind: 'bot', level: options.default_bot_level, name: '' },
    ];
    this.rules = { preset: 'standard' };
    this.render();
    this.loadGames();
    this.loadSaved();
    if (rulesCode) this.prefill(rulesCode);
    else if (section === 'games') this.root.querySelector('.games-card')?.scrollIntoView();
    else if (section === 'new') this.root.querySelector('.new-game')?.scrollIntoView();
  }

  /** Fills the form with a rule set from its code ("Start a game with these rules"). */
  async prefill(code) {
    try {
      const page = await api.rules(code);
      this.rules = { ...page.rules };
      this.rulesOpen = Object.keys(this.rules).length > 1;
      this.renderRules();
      this.root.querySelector('.new-game')?.scrollIntoView();
      toast(t('home-rules-prefilled'));
    } catch (e) {
      toast(t('home-rules-unreadable', { reason: errorText(e) }), 'error', 6000);
    }
  }

  destroy() {}

  render() {
    this.root.innerHTML = `
      <div class="home">
        <header class="hero">
          <div class="hero-tiles">${heroStrip()}</div>
          <div class="hero-text">
            <h1>Carcassonne</h1>
            <p>${esc(t('home-tagline'))}</p>
            <p><a class="btn lobby-link" href="#/lobby">${esc(t('home-lobby-link'))}</a></p>
          </div>
        </header>
        <div class="home-grid">
          <section class="card new-game">
            <h2>${esc(t('home-new-game'))}</h2>
            <div class="seats"></div>
            <button class="link add-seat">${esc(t('home-add-player'))}</button>
            <h3>${esc(t('home-rules'))}</h3>
            <div class="rules-form"></div>
            <button class="link share-rules-btn">${esc(t('home-share-rules'))}</button>
            ${clockFormHtml()}
            <label class="opt check public-game"><input type="checkbox" class="public"><span>${esc(t('home-public'))}</span></label>
            <label class="opt check rated-game"><input type="checkbox" class="rated"><span>${esc(t('home-rated'))}</span></label>
            <label class="opt check chat-off-game"><input type="checkbox" class="chat-off"><span>${esc(t('home-chat-off'))}</span></label>
            <button class="btn primary big start">${esc(t('home-start'))}</button>
          </section>
          <div class="side-cards">
          <section class="card games-card">
            <div class="card-head"><h2>${esc(t('home-your-games'))}</h2>
              <label class="btn small file-btn">${esc(t('home-open-record'))} <input type="file" accept=".json,application/json" class="record-file sr-only"></label>
            </div>
            <div class="games-list"><p class="muted pending">${esc(t('loading'))}</p></div>
          </section>
          <section class="card public-games-card" hidden>
            <h2>${esc(t('home-public-games'))}</h2>
            <div class="public-games-list"></div>
            <p><a href="#/watch">${esc(t('home-watch-all'))}</a></p>
          </section>
          <section class="card saved-card">
            <h2>${esc(t('home-saved-rules'))}</h2>
            <div class="saved-list"><p class="muted pending">${esc(t('loading'))}</p></div>
          </section>
          </div>
        </div>
        <section class="card how">
          <h2>${esc(t('how-title'))}</h2>
          <ol>
            <li><b>${esc(t('how-place'))}</b> ${esc(t('how-place-fits'))} <span class="kbd-only">${esc(t('how-place-kbd'))}</span><span class="touch-only">${esc(t('how-place-touch'))}</span>. ${esc(t('how-place-edges'))}</li>
            <li><b>${esc(t('how-deploy'))}</b> ${esc(t('how-deploy-or-not'))} <span class="kbd-only">${esc(t('how-deploy-kbd'))}</span><span class="touch-only">${esc(t('how-deploy-touch'))}</span>: ${esc(t('how-deploy-where'))}</li>
            <li><b>${esc(t('how-confirm'))}</b><span class="kbd-only"> ${esc(t('how-confirm-kbd'))}</span><span class="touch-only">${esc(t('how-confirm-touch'))}</span>. ${esc(t('how-confirm-scores'))}</li>
            <li class="kbd-only"><b>${esc(t('how-keyboard'))}</b> ${esc(t('how-keyboard-keys'))}</li>
          </ol>
          <p class="muted">${esc(t('how-end'))}</p>
        </section>
      </div>`;
    const $ = (s) => this.root.querySelector(s);
    $('.add-seat').onclick = () => {
      if (this.seats.length >= this.options.max_players) return;
      this.seats.push({ kind: 'bot', level: this.options.default_bot_level, name: '' });
      this.renderSeats();
    };
    $('.start').onclick = () => this.start();
    wireClockForm(this.root.querySelector('.new-game'));
    $('.share-rules-btn').onclick = async () => {
      try {
        const page = await api.rulesOf(this.rules);
        location.hash = `#/rules/${page.code}`;
      } catch (e) {
        toast(errorText(e), 'error');
      }
    };
    $('.record-file').onchange = (e) => {
      const f = e.target.files && e.target.files[0];
      if (!f) return;
      f.text().then((text) => this.onReplayFile && this.onReplayFile(text, f.name));
    };
    this.renderSeats();
    this.renderRules();
  }

  renderSeats() {
    const o = this.options;
    const box = this.root.querySelector('.seats');
    box.innerHTML = this.seats.map((s, i) => {
      const color = o.colors[i];
      const levels = o.bot_levels.map((l) => `<option value="${l.name}" ${s.level === l.name ? 'selected' : ''} title="${esc(l.program ? l.description : t(`bot-level-${l.name}.about`))}">${esc(l.program ? l.name : t(`bot-level-${l.name}`))}</option>`).join('');
      return `<div class="seat" data-i="${i}" style="--pc:${colorOf(color).fill}">
        <span class="seat-color" title="${esc(t(`color-${color}`))}">${meepleIcon(color, { size: 24 })}</span>
        <select class="seat-kind" aria-label="${esc(t('seat-player', { n: i + 1 }))}">
          <option value="human" ${s.kind === 'human' ? 'selected' : ''}>${esc(t('seat-person'))}</option>
          <option value="bot" ${s.kind === 'bot' ? 'selected' : ''}>${esc(t('seat-bot'))}</option>
        </select>
        <input class="seat-name" maxlength="${o.max_name}" placeholder="${esc(s.kind === 'bot' ? t('seat-bot-name') : s.where === 'invite' ? t('seat-friend-name') : t('seat-player', { n: i + 1 }))}" aria-label="${esc(t('seat-name-label', { n: i + 1 }))}" value="${esc(s.name || '')}">
        ${s.kind === 'bot' ? `<select class="seat-level" aria-label="${esc(t('seat-bot-level'))}">${levels}</select>`
    : `<select class="seat-where" aria-label="${esc(t('seat-where', { n: i + 1 }))}" title="${esc(t('seat-where-help'))}">
            <option value="here" ${s.where !== 'invite' ? 'selected' : ''}>${esc(t('seat-here'))}</option>
            <option value="invite" ${s.where === 'invite' ? 'selected' : ''}>${esc(t('seat-invite'))}</option>
          </select>`}
        <button class="icon remove" title="${esc(t('seat-remove'))}" aria-label="${esc(t('seat-remove'))}" ${this.seats.length <= o.min_players ? 'disabled' : ''}>×</button>
      </div>`;
    }).join('');
    box.querySelectorAll('.seat').forEach((row) => {
      const i = +row.dataset.i;
      row.querySelector('.seat-kind').onchange = (e) => {
        this.seats[i].kind = e.target.value;
        if (e.target.value === 'bot') { this.seats[i].level = this.seats[i].level || this.options.default_bot_level; this.seats[i].name = ''; }
        else this.seats[i].name = '';
        this.renderSeats();
      };
      row.querySelector('.seat-name').oninput = (e) => { this.seats[i].name = e.target.value; };
      const lvl = row.querySelector('.seat-level');
      if (lvl) lvl.onchange = (e) => { this.seats[i].level = e.target.value; };
      const where = row.querySelector('.seat-where');
      if (where) where.onchange = (e) => { this.seats[i].where = e.target.value; this.renderSeats(); };
      row.querySelector('.remove').onclick = () => { this.seats.splice(i, 1); this.renderSeats(); };
    });
    this.root.querySelector('.add-seat').style.visibility = this.seats.length >= this.options.max_players ? 'hidden' : '';
  }

  /** The expansions the rule set plays (Inns & Cathedrals, Traders & Builders), in a sentence; '' for none. */
  expansionsText() {
    const o = this.options;
    const preset = o.presets.find((p) => p.name === this.rules.preset) || o.presets[0];
    const on = ['inns_cathedrals', 'traders_builders'].filter((k) => (this.rules[k] !== undefined ? this.rules[k] : preset.values[k]));
    return on.length ? t('rules-expansions', { list: listWords(on.map((k) => t(`expansion-${k}`))) }) : '';
  }

  /** The rule set in a sentence as changed (the engine's headline: farm scoring as set, not the preset's). */
  updateHeadline() {
    const line = this.root.querySelector('.rules-form .expansions-text');
    if (line) line.textContent = this.expansionsText();
    const el = this.root.querySelector('.rules-form .preset-text');
    if (lang !== 'en') {
      // The engine says it in English: here the same sentence is made from the messages.
      const o = this.options;
      const preset = o.presets.find((p) => p.name === this.rules.preset) || o.presets[0];
      el.textContent = headlineOf(preset, this.rules);
      return;
    }
    const asked = (this.headlineAsked = (this.headlineAsked || 0) + 1);
    api.rulesOf(this.rules).then((page) => {
      if (asked === this.headlineAsked && el.isConnected) el.textContent = page.preset_summary;
    }, () => {});
  }

  renderRules() {
    const o = this.options;
    const preset = o.presets.find((p) => p.name === this.rules.preset) || o.presets[0];
    const value = (opt) => (this.rules[opt.key] !== undefined ? this.rules[opt.key] : preset.values[opt.key]);
    const rows = o.options.map((opt) => {
      const v = value(opt);
      if (opt.type === 'limit') {
        const cur = JSON.stringify(v ?? null);
        return `<label class="opt"><span>${esc(optionLabel(opt))}</span>
          <select data-key="${opt.key}" data-json="1">${opt.values.map((x) => `<option value='${JSON.stringify(x)}' ${JSON.stringify(x) === cur ? 'selected' : ''}>${esc(x ? `${x[0]} × ${x[1]}` : t('rule-value-no-limit'))}</option>`).join('')}</select></label>`;
      }
      if (opt.type === 'choice' && opt.values) {
        return `<label class="opt"><span>${esc(optionLabel(opt))}</span>
          <select data-key="${opt.key}">${opt.values.map((x, i) => `<option value="${x}" ${x === v ? 'selected' : ''}>${esc(optionValueWords(opt, i))}</option>`).join('')}</select></label>`;
      }
      if (opt.type === 'bool') {
        return `<label class="opt check"><input type="checkbox" data-key="${opt.key}" ${v ? 'checked' : ''}><span>${esc(optionLabel(opt))}</span></label>`;
      }
      if (opt.type === 'number') {
        return `<label class="opt"><span>${esc(optionLabel(opt))}</span><input type="number" data-key="${opt.key}" min="${opt.min}" max="${opt.max}" value="${v}"></label>`;
      }
      if (opt.type === 'choice') {
        return `<label class="opt check"><input type="checkbox" data-key="${opt.key}" data-value='${JSON.stringify(opt.value)}' ${this.rules[opt.key] !== undefined ? 'checked' : ''}><span>${esc(optionLabel(opt))}</span></label>`;
      }
      return '';
    }).join('');
    const box = this.root.querySelector('.rules-form');
    box.innerHTML = `
      <div class="presets">${o.presets.map((p) => `<button class="preset${p.name === preset.name ? ' on' : ''}" data-preset="${p.name}">${esc(presetName(p.name))}</button>`).join('')}</div>
      <p class="muted preset-text">${esc(lang === 'en' ? preset.summary || '' : headlineOf(preset, this.rules))}</p>
      <p class="muted expansions-text" aria-live="polite">${esc(this.expansionsText())}</p>
      <details class="more-rules"><summary>${esc(t('home-options'))}</summary>${rows}</details>`;
    if (this.rulesOpen) box.querySelector('details').open = true;
    box.querySelector('details').ontoggle = (e) => { this.rulesOpen = e.target.open; };
    box.querySelectorAll('[data-preset]').forEach((b) => {
      b.onclick = () => { this.rules = { preset: b.dataset.preset }; this.renderRules(); };
    });
    // Options changed from the preset: the sentence says the rules as they are.
    if (Object.keys(this.rules).length > 1) this.updateHeadline();
    box.querySelectorAll('[data-key]').forEach((el) => {
      el.onchange = () => {
        const key = el.dataset.key;
        if (el.type === 'checkbox' && el.dataset.value) {
          if (el.checked) this.rules[key] = JSON.parse(el.dataset.value); else delete this.rules[key];
        } else if (el.type === 'checkbox') this.rules[key] = el.checked;
        else if (el.type === 'number') this.rules[key] = Number(el.value);
        else if (el.dataset.json) {
          const v = JSON.parse(el.value);
          if (v === null) delete this.rules[key]; else this.rules[key] = v;
        } else this.rules[key] = el.value;
        this.updateHeadline();
      };
    });
  }

  async start() {
    const btn = this.root.querySelector('.start');
    btn.disabled = true;
    const seats = this.seats.map((s) => (s.kind === 'bot'
      ? { kind: 'bot', level: s.level, ...(s.name.trim() ? { name: s.name.trim() } : {}) }
      : { kind: s.where === 'invite' ? 'remote' : 'human', ...(s.name.trim() ? { name: s.name.trim() } : {}) }));
    const firstHuman = this.seats.find((s) => s.kind === 'human' && s.where !== 'invite' && s.name.trim());
    if (firstHuman) rememberName(firstHuman.name.trim());
    try {
      const listed = this.root.querySelector('.new-game .public')?.checked || false;
      const rated = this.root.querySelector('.new-game .rated')?.checked || false;
      const chatOff = this.root.querySelector('.new-game .chat-off')?.checked || false;
      const clock = readClockForm(this.root.querySelector('.new-game'));
      const created = await api.create({ seats, rules: this.rules, ...(listed ? { public: true } : {}), ...(rated ? { rated: true } : {}), ...(chatOff ? { chat_off: true } : {}), ...clock });
      // Seats played here: their tokens. Invited seats: kept only to show their links.
      addTokens(created.id, created.tokens.filter((t) => !t.remote).map((t) => t.token));
      saveInvites(created.id, created.tokens.filter((t) => t.remote));
      location.hash = `#/game/${created.id}`;
    } catch (e) {
      toast(errorText(e), 'error');
      btn.disabled = false;
    }
  }

  /** The rule sets this browser keeps: open, start with, rename, delete. */
  async loadSaved() {
    const box = this.root.querySelector('.saved-list');
    try {
      const { sets } = await api.savedRules();
      if (!sets.length) {
        box.innerHTML = `<p class="muted">${esc(t('home-saved-none'))}</p>`;
        return;
      }
      box.innerHTML = `<ul class="saved">${sets.map((r) => `<li data-id="${esc(r.id)}" data-code="${esc(r.code)}">
          <a class="saved-name" href="#/rules/${esc(r.code)}">${esc(r.name)}</a>
          <span class="saved-actions">
            <a class="btn small primary" href="#/new?rules=${esc(r.code)}">${esc(t('home-saved-start'))}</a>
            <button class="btn small" data-act="rename">${esc(t('home-saved-rename'))}</button>
            <button class="btn small" data-act="delete" aria-label="${esc(t('home-saved-delete-named', { name: r.name }))}">${esc(t('home-saved-delete'))}</button>
          </span></li>`).join('')}</ul>`;
      for (const li of box.querySelectorAll('li')) {
        const name = sets.find((r) => r.id === li.dataset.id).name;
        li.querySelector('[data-act="rename"]').onclick = () => this.renameSaved(li, name);
        li.querySelector('[data-act="delete"]').onclick = async () => {
          if (!window.confirm(t('home-saved-delete-confirm', { name }))) return;
          try { await api.deleteRules(li.dataset.id); this.loadSaved(); } catch (e) { toast(errorText(e), 'error'); }
        };
      }
    } catch (e) {
      box.innerHTML = `<p class="error">${esc(errorText(e))}</p>`;
    }
  }

  renameSaved(li, name) {
    const form = document.createElement('form');
    form.className = 'rename-form';
    form.innerHTML = `<input class="rename" maxlength="${this.options.max_name}" value="${esc(name)}" aria-label="${esc(t('home-saved-new-name', { name }))}">
      <button class="btn small primary" type="submit">${esc(t('home-saved-rename'))}</button> <button class="btn small" type="button" data-act="cancel">${esc(t('cancel'))}</button>`;
    li.replaceChildren(form);
    const input = form.querySelector('input');
    input.focus();
    input.select();
    form.querySelector('[data-act="cancel"]').onclick = () => this.loadSaved();
    form.onsubmit = async (e) => {
      e.preventDefault();
      try { await api.renameRules(li.dataset.id, input.value); this.loadSaved(); } catch (err) { toast(errorText(err), 'error'); }
    };
  }

  async loadGames() {
    const box = this.root.querySelector('.games-list');
    try {
      // The server lists the games this browser holds a seat in (or an
      // invitation to), and public ones: the others' apart, to watch.
      const known = knownGames();
      const { games } = await api.games(known);
      const mine = games.filter((g) => known.includes(g.id));
      const others = games.filter((g) => !known.includes(g.id));
      const table = (list) => `<table class="games"><tbody>${list.map((g) => gameRow(g)).join('')}</tbody></table>`;
      box.innerHTML = mine.length ? table(mine) : `<p class="muted">${esc(t('home-no-games'))}</p>`;
      const card = this.root.querySelector('.public-games-card');
      card.hidden = !others.length;
      card.querySelector('.public-games-list').innerHTML = others.length ? table(others) : '';
    } catch (e) {
      box.innerHTML = `<p class="error">${esc(errorText(e))}</p>`;
    }
  }
}

/** A games-list row (also the Watch page's, whose games say each seat's `ratings`, its account's name `player`, and whether `rated`). */
export function gameRow(g) {
  const rating = (p) => (g.ratings?.[p.seat] != null ? ` <small class="grating">(${g.ratings[p.seat]})</small>` : '');
  const players = g.players.map((p) => `<span class="gp${g.winners.includes(p.seat) ? ' won' : ''}" style="--pc:${colorOf(p.color).fill}">
      ${markIcon(p.color, 12)}${esc(p.player || p.name)}${rating(p)}${p.kind === 'bot' ? ` <small>${esc(t('game-row-bot'))}</small>` : ''} <b>${p.score}</b></span>`).join('');
  const status = g.status === 'finished'
    ? `<span class="status done">${esc(t('game-row-finished', { turns: g.moves }))}</span>`
    : g.status === 'aborted' ? `<span class="status done">${esc(t('game-row-aborted'))}</span>`
    : `<span class="status live">${esc(t('game-row-turn', { n: g.moves + 1 }))}${g.to_move != null ? ` · ${esc(t('game-row-to-play', { name: g.players[g.to_move].name }))}` : ''}</span>`;
  return `<tr data-id="${g.id}">
    <td class="gplayers">${players}<div class="gmeta">${g.rated ? `<span class="badge">${esc(t('profile-rated'))}</span> ` : ''}${status} · ${ago(g.updated_at)}${g.rules_code ? ` · <a href="#/rules/${esc(g.rules_code)}">${esc(rulesTitle(g.rules))}</a>` : ''}</div></td>
    <td class="gactions">
      ${gameLinkButton(g)}
      <a class="btn small" href="#/replay/${g.id}">${esc(t('game-row-replay'))}</a>
      <a class="btn small" href="${api.recordUrl(g.id)}" download title="${esc(t('game-row-download'))}" aria-label="${esc(t('game-row-download'))}">⤓</a>
    </td></tr>`;
}

/** Continue a game this browser plays in; watch one it does not; view one that ended. */
function gameLinkButton(g) {
  const kind = g.status !== 'playing' ? 'view' : tokensFor(g.id).length ? 'continue' : 'watch';
  return `<a class="btn small${kind === 'continue' ? ' primary' : ''}" href="#/game/${g.id}">${esc(t(`game-row-${kind}`))}</a>`;
}

/** A decorative strip of tiles for the header, drawn from the tile data. */
function heroStrip() {
  const strip = [['N', 1], ['D', 0], ['U', 1], ['B', 0], ['V', 1], ['F', 0], ['L', 0], ['M', 2], ['A', 2], ['X', 0], ['R', 0], ['J', 3], ['E', 2], ['W', 0]];
  const row = (tiles) => tiles.map(([id, r]) => `<svg viewBox="0 0 100 100" class="hero-tile"><use href="#tile-${id}" transform="rotate(${r * 90} 50 50)"/></svg>`).join('');
  const more = strip.map(([id, r], i) => [id, (r + i) % 4]).reverse();
  return row([...strip, ...more.slice(0, 3)]) + row([...more, ...strip.slice(0, 3)]) + row([...strip.slice(5), ...more]);
}
