// The front page: a new game in one click (you against a bot), every option
// of the engine, the list of games, and opening a record to replay.

import { addTokens, api, knownGames, lastName, rememberName, saveInvites, tokensFor } from './api.js';
import { ago, esc, toast } from './dom.js';
import { colorOf, markIcon, meepleIcon } from './meeple.js';
import { rulesTitle } from './rules.js';

export class HomeScreen {
  constructor(root, tiles, options, { section = 'home', rulesCode = null, onReplayFile } = {}) {
    this.root = root;
    this.tiles = tiles;
    this.options = options;
    this.onReplayFile = onReplayFile;
    this.seats = [
      { kind: 'human', where: 'here', name: lastName() || 'You' },
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
      toast('The form holds those rules: pick the players and start');
    } catch (e) {
      toast(`Those rules cannot be read: ${e.message}`, 'error', 6000);
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
            <p>Lay tiles, build cities, roads and cloisters, and place your followers to score.</p>
            <p><a class="btn lobby-link" href="#/lobby">Play people online: the lobby</a></p>
          </div>
        </header>
        <div class="home-grid">
          <section class="card new-game">
            <h2>New game</h2>
            <div class="seats"></div>
            <button class="link add-seat">+ Add a player</button>
            <h3>Rules</h3>
            <div class="rules-form"></div>
            <button class="link share-rules-btn">Share these rules</button>
            <label class="opt check public-game"><input type="checkbox" class="public"><span>List this game for everyone to watch</span></label>
            <button class="btn primary big start">Start game</button>
          </section>
          <div class="side-cards">
          <section class="card games-card">
            <div class="card-head"><h2>Your games</h2>
              <label class="btn small file-btn">Open a record… <input type="file" accept=".json,application/json" class="record-file sr-only"></label>
            </div>
            <div class="games-list"><p class="muted">Loading…</p></div>
          </section>
          <section class="card saved-card">
            <h2>Saved rules</h2>
            <div class="saved-list"><p class="muted">Loading…</p></div>
          </section>
          </div>
        </div>
        <section class="card how">
          <h2>How to play</h2>
          <ol>
            <li><b>Place the tile.</b> Highlighted cells show where it fits; <span class="kbd-only">press <kbd>R</kbd> (or click the tile) to turn it</span><span class="touch-only">tap your tile to turn it</span>. Edges must match: city to city, road to road, field to field.</li>
            <li><b>Deploy a follower</b> — or not. <span class="kbd-only">Click a circle on the new tile</span><span class="touch-only">Tap a circle on the new tile, or pick a spot under it</span>: a knight in a city, a thief on a road, a monk in a cloister, a farmer lying in a field. The feature must be free.</li>
            <li><b>Confirm</b><span class="kbd-only"> with <kbd>Enter</kbd>; <kbd>Esc</kbd> takes back what you chose</span><span class="touch-only">; Undo takes back what you chose</span>. Completed roads, cities and cloisters score at once and your followers come home.</li>
            <li class="kbd-only"><b>By keyboard:</b> the arrow keys move your tile between the cells where it fits, <kbd>R</kbd> and <kbd>Shift</kbd>+<kbd>R</kbd> turn it, <kbd>F</kbd> (or <kbd>1</kbd>–<kbd>9</kbd>) picks a follower's spot.</li>
          </ol>
          <p class="muted">At the end, unfinished features score less, and farmers score the completed cities next to their fields.</p>
        </section>
      </div>`;
    const $ = (s) => this.root.querySelector(s);
    $('.add-seat').onclick = () => {
      if (this.seats.length >= this.options.max_players) return;
      this.seats.push({ kind: 'bot', level: this.options.default_bot_level, name: '' });
      this.renderSeats();
    };
    $('.start').onclick = () => this.start();
    $('.share-rules-btn').onclick = async () => {
      try {
        const page = await api.rulesOf(this.rules);
        location.hash = `#/rules/${page.code}`;
      } catch (e) {
        toast(e.message, 'error');
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
      const levels = o.bot_levels.map((l) => `<option value="${l.name}" ${s.level === l.name ? 'selected' : ''} title="${esc(l.description)}">${l.name}</option>`).join('');
      return `<div class="seat" data-i="${i}" style="--pc:${colorOf(color).fill}">
        <span class="seat-color" title="${color}">${meepleIcon(color, { size: 24 })}</span>
        <select class="seat-kind" aria-label="Player ${i + 1}">
          <option value="human" ${s.kind === 'human' ? 'selected' : ''}>Person</option>
          <option value="bot" ${s.kind === 'bot' ? 'selected' : ''}>Bot</option>
        </select>
        <input class="seat-name" maxlength="${o.max_name}" placeholder="${s.kind === 'bot' ? 'bot name (optional)' : s.where === 'invite' ? 'friend’s name' : `Player ${i + 1}`}" value="${esc(s.name || '')}">
        ${s.kind === 'bot' ? `<select class="seat-level" aria-label="Bot level">${levels}</select>`
    : `<select class="seat-where" aria-label="Where player ${i + 1} plays" title="Here: at this screen (take turns). Invite: a friend plays on their own device with a link.">
            <option value="here" ${s.where !== 'invite' ? 'selected' : ''}>Here (this screen)</option>
            <option value="invite" ${s.where === 'invite' ? 'selected' : ''}>Invite a friend (link)</option>
          </select>`}
        <button class="icon remove" title="Remove" ${this.seats.length <= o.min_players ? 'disabled' : ''}>×</button>
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

  /** The rule set in a sentence as changed (the engine's headline: farm scoring as set, not the preset's). */
  updateHeadline() {
    const el = this.root.querySelector('.rules-form .preset-text');
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
        return `<label class="opt"><span>${esc(opt.label)}</span>
          <select data-key="${opt.key}" data-json="1">${opt.values.map((x) => `<option value='${JSON.stringify(x)}' ${JSON.stringify(x) === cur ? 'selected' : ''}>${x ? `${x[0]} × ${x[1]}` : 'no limit'}</option>`).join('')}</select></label>`;
      }
      if (opt.type === 'choice' && opt.values) {
        return `<label class="opt"><span>${esc(opt.label)}</span>
          <select data-key="${opt.key}">${opt.values.map((x, i) => `<option value="${x}" ${x === v ? 'selected' : ''}>${esc((opt.value_labels || [])[i] || x)}</option>`).join('')}</select></label>`;
      }
      if (opt.type === 'bool') {
        return `<label class="opt check"><input type="checkbox" data-key="${opt.key}" ${v ? 'checked' : ''}><span>${esc(opt.label)}</span></label>`;
      }
      if (opt.type === 'number') {
        return `<label class="opt"><span>${esc(opt.label)}</span><input type="number" data-key="${opt.key}" min="${opt.min}" max="${opt.max}" value="${v}"></label>`;
      }
      if (opt.type === 'choice') {
        return `<label class="opt check"><input type="checkbox" data-key="${opt.key}" data-value='${JSON.stringify(opt.value)}' ${this.rules[opt.key] !== undefined ? 'checked' : ''}><span>${esc(opt.label)}</span></label>`;
      }
      return '';
    }).join('');
    const box = this.root.querySelector('.rules-form');
    box.innerHTML = `
      <div class="presets">${o.presets.map((p) => `<button class="preset${p.name === preset.name ? ' on' : ''}" data-preset="${p.name}">${p.name.replace('-', ' ')}</button>`).join('')}</div>
      <p class="muted preset-text">${esc(preset.summary || '')}</p>
      <details class="more-rules"><summary>Options</summary>${rows}</details>`;
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
      const created = await api.create({ seats, rules: this.rules, ...(listed ? { public: true } : {}) });
      // Seats played here: their tokens. Invited seats: kept only to show their links.
      addTokens(created.id, created.tokens.filter((t) => !t.remote).map((t) => t.token));
      saveInvites(created.id, created.tokens.filter((t) => t.remote));
      location.hash = `#/game/${created.id}`;
    } catch (e) {
      toast(e.message, 'error');
      btn.disabled = false;
    }
  }

  /** The rule sets this browser keeps: open, start with, rename, delete. */
  async loadSaved() {
    const box = this.root.querySelector('.saved-list');
    try {
      const { sets } = await api.savedRules();
      if (!sets.length) {
        box.innerHTML = '<p class="muted">Your table’s house rules, kept here: build them in the form, then “Share these rules” and save them.</p>';
        return;
      }
      box.innerHTML = `<ul class="saved">${sets.map((r) => `<li data-id="${esc(r.id)}" data-code="${esc(r.code)}">
          <a class="saved-name" href="#/rules/${esc(r.code)}">${esc(r.name)}</a>
          <span class="saved-actions">
            <a class="btn small primary" href="#/new?rules=${esc(r.code)}">Start a game</a>
            <button class="btn small" data-act="rename">Rename</button>
            <button class="btn small" data-act="delete" aria-label="Delete ${esc(r.name)}">Delete</button>
          </span></li>`).join('')}</ul>`;
      for (const li of box.querySelectorAll('li')) {
        const name = sets.find((r) => r.id === li.dataset.id).name;
        li.querySelector('[data-act="rename"]').onclick = () => this.renameSaved(li, name);
        li.querySelector('[data-act="delete"]').onclick = async () => {
          if (!window.confirm(`Delete the saved rules “${name}”?`)) return;
          try { await api.deleteRules(li.dataset.id); this.loadSaved(); } catch (e) { toast(e.message, 'error'); }
        };
      }
    } catch (e) {
      box.innerHTML = `<p class="error">${esc(e.message)}</p>`;
    }
  }

  renameSaved(li, name) {
    const form = document.createElement('form');
    form.className = 'rename-form';
    form.innerHTML = `<input class="rename" maxlength="${this.options.max_name}" value="${esc(name)}" aria-label="New name for ${esc(name)}">
      <button class="btn small primary" type="submit">Rename</button> <button class="btn small" type="button" data-act="cancel">Cancel</button>`;
    li.replaceChildren(form);
    const input = form.querySelector('input');
    input.focus();
    input.select();
    form.querySelector('[data-act="cancel"]').onclick = () => this.loadSaved();
    form.onsubmit = async (e) => {
      e.preventDefault();
      try { await api.renameRules(li.dataset.id, input.value); this.loadSaved(); } catch (err) { toast(err.message, 'error'); }
    };
  }

  async loadGames() {
    const box = this.root.querySelector('.games-list');
    try {
      // The server lists the games this browser holds a seat in, and public ones.
      const { games } = await api.games(knownGames());
      if (!games.length) { box.innerHTML = '<p class="muted">No games yet: start one!</p>'; return; }
      box.innerHTML = `<table class="games"><tbody>${games.map((g) => gameRow(g)).join('')}</tbody></table>`;
    } catch (e) {
      box.innerHTML = `<p class="error">${esc(e.message)}</p>`;
    }
  }
}

function gameRow(g) {
  const players = g.players.map((p) => `<span class="gp${g.winners.includes(p.seat) ? ' won' : ''}" style="--pc:${colorOf(p.color).fill}">
      ${markIcon(p.color, 12)}${esc(p.name)}${p.kind === 'bot' ? ' <small>bot</small>' : ''} <b>${p.score}</b></span>`).join('');
  const status = g.status === 'finished'
    ? `<span class="status done">finished · ${g.moves} turns</span>`
    : `<span class="status live">turn ${g.moves + 1}${g.to_move != null ? ` · ${esc(g.players[g.to_move].name)} to play` : ''}</span>`;
  return `<tr data-id="${g.id}">
    <td class="gplayers">${players}<div class="gmeta">${status} · ${ago(g.updated_at)}${g.rules_code ? ` · <a href="#/rules/${esc(g.rules_code)}">${esc(rulesTitle(g.rules))}</a>` : ''}</div></td>
    <td class="gactions">
      ${gameLinkButton(g)}
      <a class="btn small" href="#/replay/${g.id}">Replay</a>
      <a class="btn small" href="${api.recordUrl(g.id)}" download title="Download the record">⤓</a>
    </td></tr>`;
}

/** Continue a game this browser plays in; watch one it does not; view one that ended. */
function gameLinkButton(g) {
  const label = g.status === 'finished' ? 'View' : tokensFor(g.id).length ? 'Continue' : 'Watch';
  return `<a class="btn small${label === 'Continue' ? ' primary' : ''}" href="#/game/${g.id}">${label}</a>`;
}

/** A decorative strip of tiles for the header, drawn from the tile data. */
function heroStrip() {
  const strip = [['N', 1], ['D', 0], ['U', 1], ['B', 0], ['V', 1], ['F', 0], ['L', 0], ['M', 2], ['A', 2], ['X', 0], ['R', 0], ['J', 3], ['E', 2], ['W', 0]];
  const row = (tiles) => tiles.map(([id, r]) => `<svg viewBox="0 0 100 100" class="hero-tile"><use href="#tile-${id}" transform="rotate(${r * 90} 50 50)"/></svg>`).join('');
  const more = strip.map(([id, r], i) => [id, (r + i) % 4]).reverse();
  return row([...strip, ...more.slice(0, 3)]) + row([...more, ...strip.slice(0, 3)]) + row([...strip.slice(5), ...more]);
}
