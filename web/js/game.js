// The game screen: the board, the tile to place (rotate with R or a click),
// legal cells, a ghost of the tile, follower spots, confirm (Enter) and undo
// (Esc); scores, followers, the bag and the log around it; the results at the end.

import { api, confirmMoves, dropTokens, gameLink, GameSocket, invitesFor, qrUrl, setConfirmMoves, setSound, soundOn, tokensFor } from './api.js';
import { BoardView } from './board.js';
import { ChatPanel } from './chat.js';
import { Hints, hintsAllowed } from './hint.js';
import { clockLogHtml, Clocks } from './clock.js';
import { ConnectionStatus } from './connection.js';
import { copyText, dismissToasts, esc, nextTask, toast } from './dom.js';
import { errorText, lang, listWords, t } from './i18n.js';
import { rulesTitle } from './rules.js';
import { colorOf, markIcon, meepleIcon } from './meeple.js';
import { breakdownHtml, chartSvg, goodsResultsHtml, logHtml, playersHtml, remainingHtml, roleWords, scoredHtml, scoringText, scoringWhy, winText } from './panels.js';
import { placeWords, ROLE_OF_KIND, tileSvg, tileWords } from './tiles.js';
import { mountPushToggle } from './push.js';
import { Takebacks } from './takeback.js';

/** A touch screen: no keyboard hints, and the board zooms in to the tile being placed. */
const TOUCH = window.matchMedia('(pointer: coarse)').matches;
/** The smallest a tile being placed is shown on a touch screen, in pixels (its spots then stay touchable). */
const TOUCH_TILE_PX = 200;
/** The Hint button's picture: a light bulb. */
const BULB = '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 2a7 7 0 0 0-4 12.7V17a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1v-2.3A7 7 0 0 0 12 2zm-3 18h6v1a1 1 0 0 1-1 1h-4a1 1 0 0 1-1-1z"/></svg>';
const MENU = '<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>';

export class GameScreen {
  constructor(root, tiles, id) {
    this.root = root;
    this.tiles = tiles;
    this.id = id;
    this.tokens = tokensFor(id);
    this.state = null;
    this.sel = null; // { version, tile, rot, placed: {x, y, rot} | null, action: {kind, spot} | null }
    this.pending = false;
    this.hover = null;
    this.shownResults = false;
    this.showRemaining = false;
    this.invites = invitesFor(id); // the links this browser made for invited seats
    this.seen = new Set(); // seats seen online since the page opened
    this.invitesPending = null; // whether some invited friend has not come yet
    this.inviteToggled = false; // the person opened or closed the panel themselves
    this.wasMyTurn = null;
    this.attention = false; // the turn came while the tab was hidden
    this.beeps = 0;
    this.render();
    // Take back my move: first in the endings' row (clock.js draws it).
    const takeback = { acts: ['takeback'], html: (s) => this.takebacks.askHtml(s), act: (a, b) => this.takebacks.ask(b) };
    this.clocks = new Clocks(root, { id, tokens: this.tokens, say: (t) => this.say(t), extra: takeback });
    this.takebacks = new Takebacks(root, { id, tokens: this.tokens, say: (t) => this.say(t) });
    this.board = new BoardView(root.querySelector('.board-area'), tiles, {
      interactive: true,
      onCell: (x, y) => this.clickCell(x, y),
      onSpot: (key) => this.clickSpot(key),
      // On a touch screen the first tap previews the tile and a second tap on it lays it; a click turns it.
      onGhost: () => (TOUCH ? this.confirm() : this.rotate(1)),
      onHover: (cell) => this.hoverCell(cell),
    });
    this.hints = new Hints(this.$('.hint-box'), {
      id, tiles, tokens: () => this.tokens, onChange: () => { if (this.state) this.draw(); }, say: (t) => this.say(t),
    });
    this.keys = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keys);
    this.visible = () => {
      if (!document.hidden && this.attention) { this.attention = false; this.updateTitle(); }
    };
    document.addEventListener('visibilitychange', this.visible);
    this.connection = new ConnectionStatus(root.querySelector('.offline-note'), root, () => this.socket);
    // The socket and the chat (its request, its panel) in a task of their own: the screen is drawn first.
    this.socket = null;
    this.chat = null;
    nextTask().then(() => {
      if (this.destroyed) return;
      this.socket = new GameSocket(id, this.tokens, {
        onState: (s) => this.queueState(s),
        onError: (e) => this.onError(e),
        onStatus: (s) => {
          this.connection.set(s);
          if (s === 'online' && this.chat) this.chat.refresh(); // messages missed while away
        },
        onRefused: () => this.checkRefusal(),
      });
      // Made before any state comes: the first state decides whether the chat shows (onState).
      this.chat = new ChatPanel(this.$('.chat-panel'), id, this.tokens, this.socket, () => this.state);
    });
  }

  destroy() {
    // Timers still pending (the results after the final scoring, the
    // ratings asked again) do nothing once another screen holds the root.
    this.destroyed = true;
    document.title = t('app-title');
    setFavicon(false);
    document.removeEventListener('keydown', this.keys);
    document.removeEventListener('visibilitychange', this.visible);
    if (this.chat) this.chat.destroy();
    cancelAnimationFrame(this.framing);
    if (this.socket) this.socket.close();
    this.clocks.destroy();
    this.takebacks.destroy();
    this.connection.destroy();
    this.board.destroy();
  }

  render() {
    this.root.innerHTML = `
      <div class="game-layout loading">
        <div class="board-wrap">
          <div class="board-area"></div>
          <div class="banner"></div>
          <div class="sr-only announcer" role="status" aria-live="polite"></div>
          <p class="sr-only" id="board-help">${esc(t('game-board-help'))}</p>
          <div class="why-box hidden" role="status"><span class="why-text"></span><button class="close" aria-label="${esc(t('close'))}" title="${esc(t('close'))}">×</button></div>
          <div class="hint-box hidden" role="status" aria-live="polite"><span class="hint-text"></span><button class="close" aria-label="${esc(t('hint-close'))}" title="${esc(t('close'))}">×</button></div>
          <div class="offline-note" role="status" aria-live="polite"></div>
          <div class="watch-badge hidden" title="${esc(t('game-watching-help'))}">${EYE} ${esc(t('game-watching'))}</div>
          <button class="tool sound-toggle" data-act="sound"></button>
          <button class="tool push-toggle" data-act="push" hidden></button>
          <button class="tool drawer-toggle" aria-expanded="false" aria-controls="game-drawer" title="${esc(t('game-drawer'))}">${MENU}<span class="sr-only">${esc(t('game-drawer'))}</span></button>
          ${this.invites.length ? '<details class="invite-panel"></details>' : ''}
        </div>
        <aside class="sidebar">
          <section class="players-panel" aria-label="${esc(t('game-players'))}"></section>
          <section class="tile-panel" aria-label="${esc(t('game-your-move'))}"></section>
          <section class="chat-panel" aria-labelledby="chat-title"></section>
          <div class="drawer" id="game-drawer">
            <div class="drawer-head"><h2>${esc(t('game-menu-title'))}</h2><button class="btn drawer-close">${esc(t('game-back-to-board'))}</button></div>
            <section class="bag-panel"></section>
            <section class="log-panel"><h3 id="log-title">${esc(t('game-log'))}</h3><div class="log" tabindex="0" role="log" aria-labelledby="log-title"></div></section>
            <section class="game-links"></section>
            <section class="game-settings">
              <label><input type="checkbox" class="confirm-moves"> ${esc(t('setting-confirm-moves'))}</label>
              <p class="muted" id="confirm-moves-help">${esc(t('setting-confirm-moves-help'))}</p>
            </section>
          </div>
        </aside>
      </div>
      <div class="overlay results hidden"></div>`;
    this.$ = (s) => this.root.querySelector(s);
    this.$('.tile-panel').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-act]');
      if (!b || b.disabled) return;
      const act = b.dataset.act;
      if (act === 'rot-cw') this.rotate(1);
      else if (act === 'rot-ccw') this.rotate(-1);
      else if (act === 'confirm') this.confirm();
      else if (act === 'undo') this.undo();
      else if (act === 'hint') this.askHint();
      else if (act === 'hand') this.chooseHandTile(b.dataset.tile);
      else if (act === 'recall') this.clickSpot('recall:');
      else if (act === 'spot') this.clickSpot(b.dataset.spot);
      else if (act === 'no-spot') { this.sel.action = null; this.draw(); if (!confirmMoves()) this.confirm(); }
    });
    this.$('.drawer-toggle').onclick = () => this.toggleDrawer();
    // A scoring in the log, chosen: why it scored, on the board and in words.
    this.$('.log').addEventListener('click', (e) => {
      const b = e.target.closest('button.why');
      if (b) this.explain(Number(b.dataset.ev));
    });
    this.$('.why-box .close').onclick = () => this.explain(null);
    this.$('.drawer-close').onclick = () => { this.toggleDrawer(false); this.$('.drawer-toggle').focus(); };
    this.$('.bag-panel').addEventListener('click', (e) => {
      if (e.target.closest('[data-act="toggle-remaining"]')) {
        this.showRemaining = !this.showRemaining;
        this.renderBag();
      }
    });
    this.$('.game-links').addEventListener('click', (e) => {
      const b = e.target.closest('[data-act]');
      if (!b) return;
      if (b.dataset.act === 'results') this.openResults();
    });
    this.$('.sound-toggle').onclick = () => {
      setSound(!soundOn());
      this.renderSound();
      if (soundOn()) beep(); // a sample, and the click lets the page play sound
    };
    this.renderSound();
    const quick = this.$('.confirm-moves');
    quick.checked = confirmMoves();
    quick.setAttribute('aria-describedby', 'confirm-moves-help');
    quick.onchange = () => { setConfirmMoves(quick.checked); if (this.state) this.draw(); };
    mountPushToggle(this.$('.push-toggle'), this.id, this.tokens);
    if (this.invites.length) this.buildInvites();
  }

  renderSound() {
    const b = this.$('.sound-toggle'), on = soundOn();
    b.innerHTML = bellIcon(on);
    b.title = on ? t('game-sound-on') : t('game-sound-off');
    b.setAttribute('aria-pressed', String(on));
    b.classList.toggle('on', on);
  }

  // --- invites ---------------------------------------------------------------

  /** The creator's panel: each invited seat's link and QR code, and the link to watch. */
  buildInvites() {
    const panel = this.$('.invite-panel');
    const local = /^(localhost|127\.|\[::1\])/.test(location.hostname);
    const row = (cls, seat, link, label) => `
      <div class="invite ${cls}" ${seat != null ? `data-seat="${seat}"` : ''}>
        <button class="qr-btn" title="${esc(t('invite-qr-larger'))}"><img class="qr" alt="${esc(t('invite-qr-alt', { label: label.replace(/<[^>]+>/g, '') }))}"></button>
        <div class="invite-main">
          <div class="invite-name">${label}</div>
          <input class="invite-link" readonly value="${esc(link)}" aria-label="${esc(label)}" spellcheck="false">
          <button class="btn small" data-act="copy">${esc(t('copy-link'))}</button>
        </div>
      </div>`;
    panel.innerHTML = `
      <summary><span class="invite-title">${esc(t('invite-title'))}</span> <span class="invite-sum"></span></summary>
      <p class="muted invite-help">${esc(t('invite-help'))}</p>
      ${this.invites.map((inv) => row('seat-invite', inv.seat, gameLink(this.id, inv.token),
    `<span class="presence off"></span><b class="who">${esc(t('invite-seat', { n: inv.seat + 1 }))}</b> <span class="invite-status muted">${esc(t('invite-not-joined'))}</span>`)).join('')}
      ${row('spectate', null, gameLink(this.id), `<b>${esc(t('invite-anyone'))}</b> <span class="muted">${esc(t('invite-can-watch'))}</span>`)}
      ${local ? `<p class="invite-warn">${esc(t('invite-local', { host: location.hostname }))} <code>--addr 0.0.0.0:8080</code></p>` : ''}`;
    for (const el of panel.querySelectorAll('.invite')) {
      const link = el.querySelector('.invite-link').value;
      const img = el.querySelector('img.qr');
      qrUrl(link).then((url) => { img.src = url; }, () => { img.closest('.qr-btn').classList.add('failed'); });
      el.querySelector('[data-act="copy"]').onclick = () => copyText(el.querySelector('.invite-link'));
      el.querySelector('.invite-link').onfocus = (e) => e.target.select();
      el.querySelector('.qr-btn').onclick = () => {
        const seat = el.dataset.seat;
        const name = seat != null && this.state ? this.state.players[+seat].name : null;
        this.showQr(img.src, link, name ? t('invite-scan-to-play', { name }) : t('invite-scan-to-watch'));
      };
    }
    panel.addEventListener('toggle', () => {
      if (panel.open !== this.inviteOpenWanted) this.inviteToggled = true;
      this.insetBoard();
    });
  }

  /** Keeps the board's framing clear of the open invite panel (on wide screens). */
  insetBoard() {
    const panel = this.$('.invite-panel');
    const wide = this.$('.board-wrap').clientWidth > 640;
    const left = panel && panel.open && wide ? panel.offsetLeft + panel.offsetWidth + 12 : 12;
    if (this.board.margins.left === left) return;
    this.board.margins.left = left;
    if (this.board.follow) this.board.fit(!!this.state);
  }

  updateInvites() {
    const panel = this.$('.invite-panel');
    if (!panel) return;
    const s = this.state;
    const waiting = [];
    const left = [];
    for (const inv of this.invites) {
      const p = s.players[inv.seat];
      const el = panel.querySelector(`.invite[data-seat="${inv.seat}"]`);
      if (!p || !el) continue;
      el.style.setProperty('--pc', colorOf(p.color).fill);
      el.querySelector('.who').textContent = p.name;
      el.querySelector('.presence').className = `presence ${p.online ? 'on' : 'off'}`;
      el.querySelector('.invite-status').textContent = p.online ? t('invite-here') : this.seen.has(p.seat) ? t('invite-left') : t('invite-not-joined');
      el.classList.toggle('joined', p.online);
      if (!p.online && !this.seen.has(p.seat)) waiting.push(p.name);
      else if (!p.online) left.push(p.name);
    }
    const pending = waiting.length > 0 && s.status === 'playing';
    panel.classList.toggle('pending', pending);
    // Someone who came and went is not "here": say who left.
    const sum = pending ? `· ${t('invite-waiting-for', { names: waiting.join(', ') })}`
      : s.status !== 'playing' ? ''
        : left.length ? `· ${t('invite-names-left', { names: left.join(', ') })}` : `· ${t('invite-everyone-here')}`;
    panel.querySelector('.invite-sum').textContent = sum;
    panel.querySelector('.invite-title').textContent = pending ? t('invite-title') : t('invite-links');
    if (pending !== this.invitesPending && !this.inviteToggled) {
      // Open while someone has yet to come; folded away once all are here.
      this.inviteOpenWanted = pending;
      panel.open = pending;
    }
    this.invitesPending = pending;
  }

  showQr(src, link, label) {
    if (!src) return;
    const o = this.$('.overlay.results');
    o.innerHTML = `<div class="dialog qr-dialog" role="dialog" aria-label="${esc(t('qr-code'))}">
      <button class="close" title="${esc(t('close'))}" aria-label="${esc(t('close'))}">×</button>
      <h3>${esc(label)}</h3>
      <img class="qr big" src="${esc(src)}" alt="${esc(t('qr-code'))}">
      <p class="muted qr-text">${esc(link)}</p></div>`;
    o.classList.remove('hidden');
    const close = () => o.classList.add('hidden');
    o.querySelector('.close').onclick = close;
    o.onclick = (e) => { if (e.target === o) close(); };
  }

  /** The socket closed before it opened: a token the game refuses, or no such game. */
  async checkRefusal() {
    if (this.checking) return;
    this.checking = true;
    try {
      await api.state(this.id, this.tokens);
    } catch (e) {
      if (e.code === 'unauthorized' && this.tokens.length) {
        dropTokens(this.id);
        this.tokens = [];
        toast(t('game-no-seat'), 'error', 6000);
        this.socket.reconnect([]);
      } else if (e.code === 'not_found') {
        this.socket.close();
        this.root.innerHTML = `<div class="fatal"><h2>${esc(t('game-not-found'))}</h2><p>${esc(t('game-not-found-text', { id: this.id }))}</p><p><a href="#/">${esc(t('game-start-new'))}</a></p></div>`;
      }
    } finally {
      this.checking = false;
    }
  }

  // --- state -----------------------------------------------------------------

  get myTurn() {
    const s = this.state;
    return !!(s && s.status === 'playing' && s.turn && s.you.includes(s.turn.seat) && Array.isArray(s.legal) && s.legal.length);
  }

  /**
   * A state from the socket, handled in a task of its own; those that come while it waits (a bot's
   * quick moves, a game played out at once, a slow device still drawing the last one) are handled
   * once, the latest. Each draw lays the whole board out: a page that drew every state fell seconds
   * behind the game (a game played out over the API in CI: its results on a desktop-sized page 20 s
   * late, the page's other work queued behind). What the states passed over did is said all the same:
   * `announce` reads every move between the state handled last and the one handled now.
   */
  queueState(s) {
    if (this.queued) {
      if (!olderState(s, this.queued)) this.queued = s;
      return;
    }
    this.queued = s;
    setTimeout(() => {
      const next = this.queued;
      this.queued = null;
      if (!this.destroyed) this.onState(next);
    });
  }

  onState(s) {
    const prev = this.state;
    if (prev && olderState(s, prev)) return;
    this.state = s;
    // The pictures of an expansion's tiles, drawn the first time a game plays it.
    this.tiles.need(s.expansions);
    // The chat again: at first (with the seats known), and at the end (players then read the spectators too).
    if (this.chat && (!prev || prev.status !== s.status)) this.chat.finished();
    this.clocks.update(s);
    this.takebacks.update(s);
    if (!prev) {
      // Shown whole, nothing shifts: the chat decides now, with the seats known, whether it is there (at one
      // screen against bots it is not), rather than when its own answer comes, maybe after the first paint.
      if (this.chat) this.chat.draw();
      this.root.querySelector('.game-layout').classList.remove('loading');
    }
    this.index = indexLegal(s.legal);
    if (!this.sel || this.sel.version !== s.version) {
      const tile = s.turn && s.turn.tiles.length ? s.turn.tiles[0] : null;
      this.sel = { version: s.version, tile, rot: this.fittingRot(tile), placed: null, action: null };
      this.pending = false;
    } else if (this.pending) {
      // The same version again (a reconnect): our move was not played; the
      // placement stays for another try.
      this.pending = false;
    }
    if (prev) this.announce(prev, s);
    if (prev && prev.version !== s.version) { this.explain(null); this.hints.clear(); }
    // A bot program replaced by the built-in bot: said once, when it happens.
    if (s.notice && (!prev || !prev.notice || prev.notice.version !== s.notice.version) && s.notice.version >= s.version - 1) {
      toast(s.notice.text, 'info', 6000);
    }
    if (!this.myTurn) this.offView = 0;
    // At the end the whole board, as large as it fits (however close the last move was looked at).
    if (s.status === 'finished' && !this.board.tight) {
      this.board.tight = true;
      this.board.follow = true;
      this.board.fit(!!prev);
    }
    this.draw();
    if (TOUCH && this.myTurn && (!prev || prev.version !== s.version)) this.frameTurn();
    if (s.status === 'finished' && !this.shownResults) {
      this.shownResults = true;
      setTimeout(() => this.openResults(), prev ? 900 : 0);
    }
  }

  /**
   * On a touch screen each turn starts with the cells where the tile fits in view, big enough to tap
   * (those that cannot all be are counted, and said: framed again once the words are in, as they take room).
   * Done in the next frame, before it is painted: measuring the board at once would lay the page out
   * within the state's own task (the first state's layout is a long one), and again in the frame.
   */
  frameTurn() {
    const host = this.board.host;
    host.dataset.moving = '1'; // the view is about to move (as while it moves)
    cancelAnimationFrame(this.framing);
    this.framing = requestAnimationFrame(() => {
      delete host.dataset.moving;
      if (!this.myTurn) return;
      // The panel is drawn again (and the board framed again) only when the count it says changes.
      for (let i = 0; i < 2; i++) {
        const said = this.offView;
        this.offView = this.board.frameCells(this.cellsFor(this.sel.tile), 48);
        if (this.offView === said) break;
        this.renderTilePanel();
      }
    });
  }

  onError(e) {
    // A refusal comes alone: ask for the state as it is (but not when
    // refused for going too fast), so the screen resyncs; a placement not
    // played stays for another try.
    this.pending = false;
    if (e.error !== 'rate_limited') this.socket.send({ type: 'sync' });
    if (e.error === 'stale_version') { /* the game moved on: the state follows */ }
    else if (e.error === 'rate_limited') toast(t('game-too-fast'), 'info', 2000);
    else toast(e.error === 'illegal_move' && lang === 'en' ? t('game-illegal', { reason: e.message }) : errorText({ code: e.error, message: e.message, body: e }), 'error');
    this.draw();
  }

  /** Says something to screen readers (the live region). */
  say(text) {
    const el = this.$('.announcer');
    if (!el) return;
    // Emptied first, so that the same words twice are said twice.
    el.textContent = '';
    requestAnimationFrame(() => { el.textContent = text; });
  }

  /** Each move just played, in words: "Ada laid a tile with a city east of the start, with a knight; Ada +4, city of 2 tiles." */
  movesInWords(prev, s) {
    const fresh = s.log.slice(prev.log.length);
    const name = (seat) => (s.you.length === 1 && s.you[0] === seat ? t('seat-you') : s.players[seat].name);
    const out = [];
    // A builder's second tile is said before it is laid, unless the state
    // that asked for it was said already (a bot's two tiles may come at once).
    let bonusSaid = !!(prev.turn && prev.turn.bonus === 'builder');
    for (const e of fresh) {
      const who = (seats) => listWords(seats.map(name));
      if (e.type === 'tile') {
        if (e.bonus === 'builder' && !bonusSaid) out.push(this.builderWords(e.seat));
        bonusSaid = false;
        out.push(t(e.at[0] || e.at[1] ? 'said-laid' : 'said-laid-start', { name: name(e.seat), tile: tileWords(e.tile), place: placeWords(e.at[0], e.at[1]) }));
      } else if (e.type === 'deploy' && out.length) out[out.length - 1] += t('said-with', { role: roleWords(e.role, e.big) });
      else if (e.type === 'score') out.push(t(e.points == null ? 'said-took' : 'said-scored', { names: who(e.to), points: e.points, what: scoringText(e).replace(/<[^>]+>/g, '') }));
      else if (e.type === 'recall') out.push(t('said-recalled', { names: who(e.to), points: e.points }));
      else if (e.type === 'discard') out.push(t('said-discarded', { tile: tileWords(e.tile) }));
      else if (e.type === 'reshuffle') out.push(t('said-reshuffled', { tile: tileWords(e.tile) }));
      else if (e.type === 'bonus') out.push(t('said-bonus', { name: name(e.seat) }));
      else if (e.type === 'end') out.push(t('said-end', { winners: winText(e.winners, s.players).replace(/<[^>]+>/g, '') }));
    }
    // The builder's second tile (Traders & Builders), said as it comes.
    if (s.turn && s.turn.bonus === 'builder' && fresh.length) out.push(this.builderWords(s.turn.seat));
    return out.length ? `${out.join('. ')}.` : '';
  }

  /** The builder's second tile in words: "Builder: Ada plays a second tile" ("you play" for this screen's one seat). */
  builderWords(seat) {
    const s = this.state;
    return s.you.length === 1 && s.you[0] === seat ? t('builder-bonus-you') : t('builder-bonus', { name: s.players[seat].name });
  }

  /** Toasts for what others just did: scorings; and every move in words for screen readers. */
  announce(prev, s) {
    let words = this.movesInWords(prev, s);
    if (this.myTurn && s.version !== prev.version) {
      const cells = this.cellsFor(this.sel.tile).length;
      words += ` ${t('said-your-turn', { tile: tileWords(this.sel.tile), n: cells })}`;
    }
    if (words.trim()) this.say(words.trim());
    const fresh = s.log.slice(prev.log.length);
    for (const e of fresh) {
      if (e.type === 'score' && e.when === 'completed') {
        const who = e.to.map((i) => s.players[i].name).join(' & ');
        // Goods taken with a city pay no points: the words say what was taken.
        const pts = e.points == null ? '' : ` +${e.points}`;
        toast(`${who}${pts} · ${scoringText(e).replace(/<[^>]+>/g, '')}`, 'score');
      }
    }
    for (const p of s.players) {
      const before = prev.players[p.seat];
      if (before && p.score > before.score) {
        const row = this.$(`.player[data-seat="${p.seat}"]`);
        if (row) row.dataset.gain = `+${p.score - before.score}`;
      }
    }
  }

  // --- drawing -----------------------------------------------------------------

  /**
   * The screen for the state. What a player looks at first (the board, the players, the tile and the
   * banner) at once; the rest (the title, the bag, the log, the links) with it, or for the first state in the next
   * task, so that the page's first drawing is two short tasks rather than a long one.
   */
  draw() {
    const s = this.state;
    if (!s) return;
    let joined = false;
    for (const p of s.players) {
      if (p.online && p.kind !== 'bot' && !this.seen.has(p.seat)) { this.seen.add(p.seat); joined = true; }
    }
    if (s.rated && s.status === 'playing' && (joined || !this.ratings)) this.loadRatings();
    const lastTile = [...s.log].reverse().find((e) => e.type === 'tile');
    this.board.setTiles(s.board, lastTile && s.board.length > 1
      ? { at: lastTile.at, color: s.players[lastTile.seat].color } : null);
    if (!this.sel.placed || !this.myTurn) this.board.setCursor(null);
    this.drawInteraction();
    this.board.setLabel(this.myTurn && this.sel.tile
      ? t('board-label-mine', { n: s.board.length, tile: tileWords(this.sel.tile), cells: this.cellsFor(this.sel.tile).length })
      : t('board-label', { n: s.board.length }));
    this.renderPlayers();
    this.renderTilePanel();
    this.renderBanner();
    if (this.drawnOnce) {
      this.drawRest();
      return;
    }
    this.drawnOnce = true;
    nextTask().then(() => { if (!this.destroyed) this.drawRest(); });
  }

  /** The rest of the screen for the state (draw). */
  drawRest() {
    const s = this.state;
    this.notifyTurn();
    this.$('.watch-badge').classList.toggle('hidden', s.you.length > 0);
    this.renderBag();
    this.$('.log').innerHTML = logHtml(s.log, s.players) + clockLogHtml(s);
    this.renderLinks();
    this.updateInvites();
    // For people nothing; for tests and tools, the state at a glance (once all of it is drawn).
    Object.assign(this.root.dataset, { version: s.version, status: s.status, myturn: this.myTurn && !this.pending });
  }

  // --- turn notification ---------------------------------------------------------

  /** When the turn comes to this browser: a marked title (kept while the tab is hidden) and, if wanted, a beep. */
  notifyTurn() {
    const mine = this.myTurn;
    if (mine && this.wasMyTurn === false) {
      if (document.hidden) this.attention = true;
      if (soundOn()) { beep(); this.beeps++; this.root.dataset.beeps = this.beeps; }
    }
    this.wasMyTurn = mine;
    if (!document.hidden) this.attention = false;
    this.updateTitle();
  }

  updateTitle() {
    const s = this.state;
    const mark = this.myTurn || this.attention;
    document.title = mark ? t('title-your-turn')
      : s.status !== 'playing' ? t('title-game-over')
        : s.you.length ? t('app-title') : t('title-watching');
    setFavicon(mark);
  }

  drawInteraction() {
    const s = this.state, sel = this.sel;
    const followers = s.followers.map((f) => ({ ...f, color: s.players[f.seat].color }));
    if (!this.myTurn || this.pending || !sel.tile) {
      this.board.clearInteraction();
      if (this.pending && sel.placed) {
        this.board.setGhost({ tile: sel.tile, ...sel.placed, solid: true, color: this.me().color });
        this.pushPendingFollower(followers);
      }
      this.board.setFollowers(followers);
      return;
    }
    const me = this.me();
    const cells = this.cellsFor(sel.tile);
    if (!sel.placed) {
      this.board.setTargets(cells.map((c) => ({ x: c.x, y: c.y, now: c.rots.includes(sel.rot) })), me.color);
      this.board.setSpots([]);
      this.drawHoverGhost();
      const hinted = this.hints.follower(s);
      if (hinted) followers.push(hinted);
    } else {
      const { x, y, rot } = sel.placed;
      this.board.setTargets(cells.filter((c) => c.x !== x || c.y !== y).map((c) => ({ x: c.x, y: c.y, now: false })), me.color);
      this.board.setGhost({ tile: sel.tile, x, y, rot, solid: true, color: me.color });
      const choices = this.spotChoices();
      const monk = new Set(choices.filter((c) => !c.abbot).map((c) => c.spot));
      // Beside the monk's spot when both may go on the cloister; the Big Box's figures beside a follower's.
      const shared = new Set(choices.filter((c) => c.kind === 'meeple').map((c) => c.spot));
      const aside = { big: [17, -13], builder: [-17, -13], pig: [17, 13] };
      const spots = choices.map((c) => ({ ...c, tile: sel.tile, rot, x, y, color: me.color, title: c.label,
        offset: c.abbot && monk.has(c.spot) ? [16, -12] : aside[c.kind] && shared.has(c.spot) ? aside[c.kind] : null }));
      // The selected spot shows its follower instead of a marker.
      this.board.setSpots(spots.filter((sp) => !sp.selected));
      this.pushPendingFollower(followers);
    }
    this.board.setFollowers(followers);
  }

  /** The follower spots the player may choose on the placed tile: [{key, label, selected}] (none without followers). */
  spotChoices() {
    const sel = this.sel;
    if (!sel.placed || !this.state.turn) return [];
    const p = this.state.players[this.state.turn.seat];
    const entry = this.entry(sel.tile, sel.placed.x, sel.placed.y, sel.placed.rot);
    if (!entry) return [];
    const selKey = sel.action ? `${sel.action.kind}:${sel.action.spot}` : null;
    const out = [];
    // The big follower (Inns & Cathedrals), the builder and the pig (Traders & Builders): each a choice of its own.
    const add = (kind, spot, extra = {}) => out.push({
      key: `${kind}:${spot}`, kind, spot, selected: selKey === `${kind}:${spot}`, ...extra,
      label: this.tiles.spotLabel(sel.tile, sel.placed.rot, spot, kind === 'abbot', extra.figure),
    });
    if (p.supply > 0) for (const spot of entry.meeple) add('meeple', spot);
    if (p.big === true) for (const spot of entry.big) add('big', spot, { figure: 'big' });
    if (p.builder === true) for (const spot of entry.builder) add('builder', spot, { figure: 'builder' });
    if (p.pig === true) for (const spot of entry.pig) add('pig', spot, { figure: 'pig' });
    if (p.abbot === true) for (const spot of entry.abbot) add('abbot', spot, { abbot: true });
    // Two spots the same in words (two fields both to the north): told apart by number.
    for (const c of out) {
      const same = out.filter((d) => d.label === c.label);
      if (same.length > 1) c.dup = same.indexOf(c) + 1;
    }
    out.forEach((c, i) => { c.n = i + 1; if (c.dup) c.label = `${c.label} (${c.dup})`; });
    return out;
  }

  pushPendingFollower(followers) {
    const sel = this.sel;
    if (!sel.placed || !sel.action || sel.action.kind === 'recall') return;
    const kind = this.tiles.spotKind(sel.tile, sel.placed.rot, sel.action.spot);
    const figure = sel.action.kind;
    const role = ['abbot', 'builder', 'pig'].includes(figure) ? figure : ROLE_OF_KIND[kind] || 'knight';
    followers.push({
      seat: this.state.turn.seat, at: [sel.placed.x, sel.placed.y], spot: sel.action.spot, role, big: figure === 'big',
      color: this.me().color, pending: true, tileInfo: { tile: sel.tile, rot: sel.placed.rot },
    });
  }

  drawHoverGhost() {
    const sel = this.sel;
    const rest = () => this.board.setGhost(this.myTurn ? this.hints.ghost(this.state) : null); // the hint, if one is shown
    if (!this.myTurn || sel.placed || !this.hover) { if (!sel.placed) rest(); return; }
    const cell = this.cellsFor(sel.tile).find((c) => c.x === this.hover.x && c.y === this.hover.y);
    if (!cell) { rest(); return; }
    const rot = cell.rots.includes(sel.rot) ? sel.rot : nextRot(cell.rots, sel.rot, 1);
    this.board.setGhost({ tile: sel.tile, x: cell.x, y: cell.y, rot, solid: false, color: this.me().color });
  }

  me() {
    const s = this.state;
    return s.turn ? s.players[s.turn.seat] : s.players[s.you[0] || 0];
  }

  /** A rated game's players' ratings now (each seat of an account), shown beside their names: whom one plays. */
  async loadRatings(tries = 0) {
    this.ratings ||= new Map();
    if (this.destroyed) return;
    try {
      const r = await api.gameRatings(this.id);
      if (r.settled) return;
      for (const p of r.players) if (p.rating != null) this.ratings.set(p.seat, p.rating);
      if (this.state && !this.destroyed) this.renderPlayers();
      // A seat taken a moment ago is linked to its account just after: ask again a few times.
      const people = this.state ? this.state.players.filter((p) => p.kind !== 'bot').length : 0;
      if (r.players.length < people && tries < 4) setTimeout(() => this.loadRatings(tries + 1), 2000);
    } catch { /* the names alone, then */ }
  }

  renderPlayers() {
    const s = this.state;
    this.$('.players-panel').innerHTML = playersHtml(s.players, {
      turnSeat: s.turn ? s.turn.seat : null, thinking: s.thinking, winners: s.winners, finished: s.status === 'finished', seen: this.seen,
      ratings: this.ratings,
    });
    for (const row of this.root.querySelectorAll('.player[data-gain]')) delete row.dataset.gain;
    this.clocks.render();
  }

  renderBanner() {
    const s = this.state, b = this.$('.banner');
    let text = '', cls = '';
    if (s.status === 'finished') {
      const youWon = s.winners.length === 1 && s.you.includes(s.winners[0]) && s.you.length === 1;
      text = `${youWon ? esc(t('banner-you-win')) : t('banner-game-over', { winners: winText(s.winners, s.players) })} <button class="link" data-open-results>${esc(t('banner-see-results'))}</button>`;
      cls = 'over';
    } else if (s.status === 'aborted') {
      const by = abortedBy(s);
      text = esc(by != null ? t('banner-aborted-by', { name: by }) : t('banner-aborted'));
      cls = 'over';
    } else if (this.pending) {
      text = esc(t('banner-placing'));
    } else if (this.myTurn) {
      const p = s.players[s.turn.seat];
      const who = (s.turn.bonus === 'builder' ? `${esc(this.builderWords(p.seat))} · ` : '')
        + (s.you.length > 1 ? t('banner-named-turn', { name: esc(p.name) }) : esc(t('banner-your-turn')));
      const spots = this.sel.placed ? this.spotChoices().length : 0;
      text = !this.sel.placed
        ? t(TOUCH ? 'banner-tap-cell' : 'banner-place', { who, r: '<kbd>R</kbd>' })
        : spots
          ? t(TOUCH ? 'banner-pick-spot-touch' : 'banner-pick-spot', { who, enter: `<kbd>${esc(t('key-enter'))}</kbd>` })
          : t(TOUCH ? 'banner-lay-touch' : 'banner-lay', { who, enter: `<kbd>${esc(t('key-enter'))}</kbd>` });
      cls = 'mine';
    } else if (s.turn) {
      const p = s.players[s.turn.seat];
      const bonus = s.turn.bonus === 'builder' ? `${esc(this.builderWords(p.seat))} · ` : '';
      text = bonus + (s.thinking === s.turn.seat
        ? `${t('banner-thinking', { name: esc(p.name) })}<span class="dots"><i>.</i><i>.</i><i>.</i></span>`
        : p.online === false && p.remote && !this.seen.has(p.seat) ? t('banner-waiting-join', { name: esc(p.name) })
          : p.online === false ? t('banner-waiting-offline', { name: esc(p.name) })
            : t('banner-waiting', { name: esc(p.name) }));
    }
    b.className = `banner ${cls}`;
    b.style.setProperty('--pc', s.turn ? colorOf(s.players[s.turn.seat].color).fill : '#8a5a2b');
    b.innerHTML = text;
    const open = b.querySelector('[data-open-results]');
    if (open) open.onclick = () => this.openResults();
  }

  renderTilePanel() {
    const s = this.state, sel = this.sel, panel = this.$('.tile-panel');
    if (s.status === 'aborted') {
      this.tilePanelHtml = null;
      panel.innerHTML = `<h3>${esc(t('game-aborted'))}</h3><p class="muted">${esc(t(abortedBy(s) != null ? 'end-aborted-why' : 'game-aborted-why'))}</p>`;
      return;
    }
    if (s.status === 'finished' || !s.turn) {
      // Ended before its last tile (a resignation, a casual flag): said so.
      const early = s.clock && s.clock.ended;
      this.tilePanelHtml = null;
      panel.innerHTML = `<h3>${esc(t('game-over'))}</h3><p class="muted">${esc(t(early ? 'game-ended-early' : 'game-all-placed'))}</p>
        <button class="btn primary show-results">${esc(t('results'))}</button>`;
      panel.querySelector('.show-results').onclick = () => this.openResults();
      return;
    }
    const p = s.players[s.turn.seat];
    const mine = this.myTurn;
    const tile = sel.tile;
    const rot = sel.placed ? sel.placed.rot : sel.rot;
    let info = '';
    if (mine && !this.pending) {
      const cells = this.cellsFor(tile);
      const now = cells.filter((c) => c.rots.includes(rot)).length;
      if (sel.placed) {
        const n = this.spotChoices().length;
        const entry = this.entry(tile, sel.placed.x, sel.placed.y, sel.placed.rot);
        const any = entry ? entry.meeple.length + entry.abbot.length + entry.big.length + entry.builder.length + entry.pig.length : 0;
        const deploy = `info-deploy${TOUCH ? '-touch' : ''}${confirmMoves() ? '' : '-quick'}`;
        info = esc(n ? t(deploy, { n })
          : any ? t('info-no-follower-left')
            : t('info-no-follower-fits'));
      } else {
        const away = this.offView ? ` ${esc(t('info-off-view', { n: this.offView }))}` : '';
        info = (now
          ? t(cells.length > now ? 'info-fits-of' : 'info-fits', { n: now, b: `<b>${now}</b>`, all: cells.length })
          : `<span class="warn">${esc(t('info-no-fit'))}</span> — ${esc(t('info-fits-turned', { n: cells.length }))} ${TOUCH ? esc(t('info-tap-turn')) : t('info-press-r', { r: '<kbd>R</kbd>' })}`) + away;
      }
    }
    const hand = s.turn.tiles.length > 1 && mine
      ? `<div class="hand"><span class="muted">${esc(t('hand-choose'))}</span>${s.turn.tiles.map((x) => `<button class="hand-tile${x === tile ? ' on' : ''}" data-act="hand" data-tile="${x}">${tileSvg(x, 0, 44)}</button>`).join('')}</div>`
      : '';
    const held = s.you.map((i) => s.players[i]).filter((pl) => pl.seat !== s.turn.seat && pl.hand && pl.hand.length);
    const waiting = held.length
      ? `<div class="hand"><span class="muted">${esc(held.length > 1 ? t('hand-yours-many') : t('hand-yours'))}</span>${held.flatMap((pl) => pl.hand).map((x) => tileSvg(x, 0, 36)).join('')}</div>`
      : '';
    const action = sel.action;
    let confirmLabel = t('confirm');
    if (sel.placed) {
      if (!action) confirmLabel = t('confirm-no-follower');
      else if (action.kind === 'recall') confirmLabel = t('confirm-recall');
      else if (action.kind === 'abbot') confirmLabel = t('confirm-abbot');
      else if (action.kind === 'builder' || action.kind === 'pig') confirmLabel = t('confirm-role', { role: t(`role-${action.kind}`) });
      else if (action.kind === 'big') confirmLabel = t('confirm-role', { role: roleWords(ROLE_OF_KIND[this.tiles.spotKind(tile, sel.placed.rot, action.spot)] || 'follower', true) });
      else confirmLabel = t('confirm-role', { role: t(`role-${ROLE_OF_KIND[this.tiles.spotKind(tile, sel.placed.rot, action.spot)] || 'follower'}`) });
    }
    confirmLabel = esc(confirmLabel);
    const entry = sel.placed ? this.entry(tile, sel.placed.x, sel.placed.y, sel.placed.rot) : null;
    const recall = entry && entry.recall
      ? `<button class="btn small${action && action.kind === 'recall' ? ' on' : ''}" data-act="recall" aria-pressed="${!!(action && action.kind === 'recall')}">${esc(t('recall-abbot'))}</button>` : '';
    // Every follower spot as a button: big enough to touch whatever the zoom, and reachable by keyboard.
    const choices = sel.placed && mine && !this.pending ? this.spotChoices() : [];
    // With the Big Box's figures each button shows the figure's shape too.
    const figures = choices.some((c) => c.figure);
    const icon = (c) => (figures ? meepleIcon(p.color, { size: c.figure === 'big' ? 20 : 16, role: c.figure === 'big' ? 'big' : c.figure || (c.abbot ? 'abbot' : 'knight') }) : '');
    const picker = choices.length ? `<div class="spot-picker${figures ? ' figures' : ''}" role="group" aria-label="${esc(t(figures ? 'spot-picker-figures' : 'spot-picker'))}">
        <button class="btn small${action ? '' : ' on'}" data-act="no-spot" aria-pressed="${!action}">${esc(t('spot-none'))}</button>
        ${choices.map((c) => `<button class="btn small${c.selected ? ' on' : ''}${c.figure ? ` figure-${c.figure}` : ''}" data-act="spot" data-spot="${c.key}" aria-pressed="${c.selected}"><kbd class="spot-n">${c.n}</kbd> ${icon(c)}${esc(c.label)}</button>`).join('')}
      </div>` : '';
    const second = s.turn.bonus === 'builder' ? `<p class="builder-note">${meepleIcon(p.color, { size: 16, role: 'builder' })} ${esc(this.builderWords(p.seat))}</p>` : '';
    const html = `
      <div class="tile-head">
        <h3>${esc(mine ? t('tile-yours') : t('tile-of', { name: p.name }))}</h3>
        <span class="muted">${esc(t('tile-turn-bag', { turn: s.turn.number, left: s.tiles_left }))}</span>
      </div>
      <div class="tile-row">
        ${mine ? `<button class="btn icon" data-act="rot-ccw" title="${esc(t('turn-left'))}${TOUCH ? '' : ' (Shift+R)'}" aria-label="${esc(t('turn-left'))}">⟲</button>` : ''}
        <${mine ? 'button' : 'div'} class="big-tile${tile ? '' : ' hidden-tile'}" style="--pc:${colorOf(p.color).fill}"
          ${mine ? `data-act="rot-cw" title="${esc(TOUCH ? t('tap-to-turn') : t('click-to-turn'))}" aria-label="${esc(t('tile-yours-turn', { tile: tile ? tileWords(tile) : '' }))}"` : `role="img" aria-label="${esc(tile ? tileWords(tile) : t('tile-hidden'))}"`}>
          ${tile ? `<svg viewBox="0 0 100 100" class="tile-pic big"><use href="#tile-${tile}" style="transform: rotate(${rot * 90}deg); transform-origin: 50px 50px"/></svg>` : `<span>${s.turn.count || ''}</span>`}
        </${mine ? 'button' : 'div'}>
        ${mine ? `<button class="btn icon" data-act="rot-cw" title="${esc(t('turn-right'))}${TOUCH ? '' : ' (R)'}" aria-label="${esc(t('turn-right'))}">⟳</button>` : ''}
        ${mine && hintsAllowed(s) && !this.pending ? `<button class="btn icon hint-btn" data-act="hint" aria-keyshortcuts="H" title="${esc(t('hint-title'))}${TOUCH ? '' : ' (H)'}" aria-label="${esc(this.hints.busy ? t('hint-thinking') : t('hint'))}" ${this.hints.busy ? 'disabled' : ''}>${BULB}</button>` : ''}
      </div>
      ${second}${hand}${mine ? '' : waiting}
      <p class="tile-info">${mine ? info : esc(s.thinking === s.turn.seat ? t('tile-thinking', { name: p.name }) : t('tile-to-play', { name: p.name }))}</p>
      ${picker}
      ${mine ? `<div class="actions">
        ${recall}
        <button class="btn" data-act="undo" ${sel.placed && !this.pending ? '' : 'disabled'}>${esc(t('undo'))}${TOUCH ? '' : ` <kbd>${esc(t('key-esc'))}</kbd>`}</button>
        <button class="btn primary" data-act="confirm" ${sel.placed && !this.pending ? '' : 'disabled'}>${confirmLabel}${TOUCH ? '' : ' <kbd>⏎</kbd>'}</button>
      </div>` : ''}`;
    // Drawn again only when it changed: a state that changes nothing here
    // (someone's presence, another's chat) never replaces a button under a
    // finger or the keyboard's focus.
    if (html !== this.tilePanelHtml) {
      panel.innerHTML = html;
      this.tilePanelHtml = html;
    }
  }

  renderBag() {
    const s = this.state;
    if (!s) return;
    this.$('.bag-panel').innerHTML = `
      <div class="bag-head"><span>${t('bag-left', { n: s.tiles_left, b: `<b>${s.tiles_left}</b>` })}</span>
        <button class="link" data-act="toggle-remaining">${esc(this.showRemaining ? t('bag-hide') : t('bag-show'))}</button></div>
      ${this.showRemaining ? remainingHtml(s.remaining, s.deck_counts) : ''}`;
  }

  renderLinks() {
    const s = this.state;
    this.$('.game-links').innerHTML = `
      <div class="links">
        ${s.status === 'finished' ? `<button class="link" data-act="results">${esc(t('results'))}</button> · ` : ''}
        <a href="${api.recordUrl(s.id)}" download>${esc(t('download-record'))}</a> ·
        <a href="#/replay/${s.id}">${esc(t('game-row-replay'))}</a> ·
        <a href="#/">${esc(t('all-games'))}</a>
      </div>
      <div class="rules muted">${s.rated ? `<span class="rated-mark">${esc(t('game-rated'))}</span> · ` : ''}<a href="#/rules/${esc(s.rules_code)}">${esc(rulesTitle(s.rules))}</a>${s.you.length ? '' : ` · ${esc(t('you-are-watching'))}`}</div>`;
  }

  openResults() {
    const s = this.state;
    if (!s || s.status !== 'finished' || this.destroyed) return;
    const scores = s.players.map((p) => p.score);
    const youWon = s.winners.length === 1 && s.you.includes(s.winners[0]) && s.you.length === 1;
    const title = youWon ? esc(t('results-you-win')) : s.winners.length > 1 ? t('results-tie', { winners: winText(s.winners, s.players) }) : t('results-winner', { winners: winText(s.winners, s.players) });
    const o = this.$('.overlay.results');
    o.innerHTML = `<div class="dialog results-dialog" role="dialog" aria-label="${esc(t('results-final'))}">
      <button class="close" title="${esc(t('close'))}" aria-label="${esc(t('close'))}">×</button>
      <h2>${title}</h2>
      <p class="muted">${esc(t('results-after', { n: s.version }))} · ${s.rated ? `${esc(t('game-rated'))} · ` : ''}<a href="#/rules/${esc(s.rules_code)}">${esc(rulesTitle(s.rules))}</a></p>
      ${s.rated ? '<div class="results-ratings" aria-live="polite"></div>' : ''}
      ${breakdownHtml(s.breakdown, s.players, scores)}
      ${goodsResultsHtml(s.log, s.players)}
      <details class="final-list"><summary>${esc(t('results-one-by-one'))}</summary>
        <ul class="log">${s.log.map((e, i) => (e.type === 'score' && e.when === 'final' ? scoredHtml(e, i, s.players) : '')).join('')}</ul></details>
      <h3>${esc(t('results-chart'))}</h3>
      ${chartSvg(s.score_history, s.players)}
      <div class="legend">${s.players.map((p) => `<span style="--pc:${colorOf(p.color).fill}"><i></i>${markIcon(p.color, 13)} ${esc(p.name)}</span>`).join('')}</div>
      <div class="rematch-box"></div>
      <div class="dialog-actions">
        <button class="btn" data-close>${esc(t('results-look'))}</button>
        <a class="btn" href="#/replay/${s.id}?review" title="${esc(t('results-review-help'))}">${esc(t('results-review'))}</a>
        <a class="btn" href="#/replay/${s.id}">${esc(t('game-row-replay'))}</a>
        <a class="btn" href="${api.recordUrl(s.id)}" download>${esc(t('download-record'))}</a>
        <a class="btn primary" href="#/new">${esc(t('nav-new-game'))}</a>
      </div></div>`;
    o.classList.remove('hidden');
    // The final scoring's toasts would cover the dialog on a phone: it says them all.
    dismissToasts();
    if (this.chat) this.chat.renderRematch(o.querySelector('.rematch-box'));
    const ratings = o.querySelector('.results-ratings');
    if (ratings) import('./ratingchanges.js').then((m) => m.showRatingChanges(ratings, s.id)).catch(() => {});
    const close = () => o.classList.add('hidden');
    o.querySelector('.close').onclick = close;
    o.querySelector('[data-close]').onclick = close;
    o.onclick = (e) => {
      if (e.target === o) close();
      const why = e.target.closest('button.why');
      if (why) { close(); this.explain(Number(why.dataset.ev)); }
    };
    o.querySelector('.close').focus();
  }

  /** Shows why the scoring `log[i]` scored (null: stops showing). */
  explain(i) {
    const s = this.state, box = this.$('.why-box');
    if (i == null || !s || !s.log[i] || s.log[i].type !== 'score') {
      this.board.setWhy(null);
      box.classList.add('hidden');
      return;
    }
    const why = scoringWhy(s.log, i, s.board, s.players, this.tiles);
    this.board.setWhy(why);
    box.querySelector('.why-text').textContent = why.text;
    box.classList.remove('hidden');
    if (this.root.classList.contains('drawer-open')) this.toggleDrawer(false);
    this.board.frameAround(why.cells);
  }

  // --- legal moves -------------------------------------------------------------

  /** Cells where `tile` fits, with the rotations that fit: [{x, y, rots}]. */
  cellsFor(tile) {
    const m = this.index.get(tile);
    if (!m) return [];
    return [...m.values()].map((c) => ({ x: c.x, y: c.y, rots: [...c.rots.keys()].sort() }));
  }

  /** The first rotation (from upright, clockwise) in which `tile` fits somewhere: the tile is shown so at a turn's start. */
  fittingRot(tile) {
    const fits = new Set(this.cellsFor(tile).flatMap((c) => c.rots));
    return [0, 1, 2, 3].find((r) => fits.has(r)) ?? 0;
  }

  entry(tile, x, y, rot) {
    const c = this.index.get(tile)?.get(`${x},${y}`);
    return c ? c.rots.get(rot) : null;
  }

  // --- input -------------------------------------------------------------------

  hoverCell(cell) {
    this.hover = cell;
    if (this.state && this.myTurn && !this.sel.placed && !this.pending) this.drawHoverGhost();
  }

  clickCell(x, y) {
    if (!this.myTurn || this.pending) return;
    const sel = this.sel;
    if (sel.placed && sel.placed.x === x && sel.placed.y === y) { if (TOUCH) this.confirm(); else this.rotate(1); return; }
    const cell = this.cellsFor(sel.tile).find((c) => c.x === x && c.y === y);
    if (!cell) return;
    const rot = cell.rots.includes(sel.rot) ? sel.rot : nextRot(cell.rots, sel.rot, 1);
    sel.placed = { x, y, rot };
    sel.rot = rot;
    sel.action = null;
    // The view follows the tile; on a touch screen it comes close enough to touch its spots.
    this.board.reveal(x, y, TOUCH ? TOUCH_TILE_PX : 0);
    this.draw();
  }

  /** Opens or closes the drawer (the log, the tiles left and the links) on a phone. */
  toggleDrawer(open = !this.root.classList.contains('drawer-open')) {
    this.root.classList.toggle('drawer-open', open);
    this.$('.drawer-toggle').setAttribute('aria-expanded', String(open));
    if (open) this.$('.drawer-close').focus();
  }

  /**
   * The keyboard's cursor: moves the tile to the nearest cell where it fits
   * in the direction (dx, dy), from where it lies (or the last tile laid).
   */
  moveCursor(dx, dy) {
    if (!this.myTurn || this.pending) return;
    const cells = this.cellsFor(this.sel.tile);
    if (!cells.length) return;
    const s = this.state;
    const last = [...s.log].reverse().find((e) => e.type === 'tile');
    const from = this.sel.placed || (last ? { x: last.at[0], y: last.at[1] } : { x: 0, y: 0 });
    const ahead = cells.filter((c) => (c.x - from.x) * dx + (c.y - from.y) * dy > 0);
    const cost = (c) => Math.abs((c.x - from.x) * dx + (c.y - from.y) * dy) + 2.5 * Math.abs((c.x - from.x) * dy + (c.y - from.y) * dx);
    // Only ever in the direction pressed: with no cell that way the tile stays (and says so).
    const pool = ahead;
    if (!pool.length) { this.say(`${t('said-no-cell', { dir: dx > 0 ? 'east' : dx < 0 ? 'west' : dy > 0 ? 'south' : 'north' })} ${this.sel.placed ? this.placementText() : t('said-other-arrow')}`); return; }
    const best = pool.reduce((a, b) => (cost(b) < cost(a) ? b : a));
    this.clickCell(best.x, best.y);
    this.board.setCursor(best);
    this.sayPlacement();
  }

  /** The tile being placed, in words (after a key moved or turned it). */
  sayPlacement() {
    if (this.sel.placed) this.say(this.placementText());
  }

  placementText() {
    const sel = this.sel;
    if (!sel.placed) return '';
    const cell = this.cellsFor(sel.tile).find((c) => c.x === sel.placed.x && c.y === sel.placed.y);
    const ways = cell ? cell.rots.length : 0;
    const spots = this.spotChoices();
    const where = placeWords(sel.placed.x, sel.placed.y);
    return `${t('said-placed', { place: `${where[0].toUpperCase()}${where.slice(1)}`, deg: sel.placed.rot * 90, ways })} ${spots.length
      ? t('said-spots', { n: spots.length, spots: spots.map((c) => c.label).join(', ') }) : t('said-no-spot')}`;
  }

  /** Steps through the follower spots (and none), `dir` +1 or -1. */
  stepSpot(dir) {
    if (!this.myTurn || this.pending || !this.sel.placed) return;
    const choices = this.spotChoices();
    if (!choices.length) { this.say(t('said-no-spot-here')); return; }
    const at = choices.findIndex((c) => c.selected); // -1: none
    const next = ((at + 1 + dir + choices.length + 1) % (choices.length + 1)) - 1;
    this.pickSpot(next < 0 ? null : choices[next]);
  }

  /** A spot chosen (by F or a number key); `play`: the choice is the move's last (a number key). */
  pickSpot(choice, play = false) {
    this.sel.action = choice ? { kind: choice.kind, spot: choice.spot } : null;
    this.draw();
    this.say(choice ? `${choice.label[0].toUpperCase()}${choice.label.slice(1)}.` : t('said-no-follower'));
    if (play && choice && !confirmMoves()) this.confirm();
  }

  clickSpot(key) {
    if (!this.myTurn || this.pending || !this.sel.placed) return;
    const [kind, spot] = key.split(':');
    const cur = this.sel.action;
    this.sel.action = cur && cur.kind === kind && cur.spot === spot ? null : { kind, spot };
    this.draw();
    // Without "confirm each move", the spot chosen plays the move.
    if (this.sel.action && !confirmMoves()) this.confirm();
  }

  rotate(dir) {
    if (!this.myTurn || this.pending) return;
    const sel = this.sel;
    if (sel.placed) {
      const cell = this.cellsFor(sel.tile).find((c) => c.x === sel.placed.x && c.y === sel.placed.y);
      if (!cell) return;
      if (cell.rots.length === 1) { toast(t('only-one-way'), 'info', 1400); return; }
      const rot = nextRot(cell.rots, sel.placed.rot, dir);
      sel.placed.rot = rot;
      sel.rot = rot;
      sel.action = null;
    } else {
      sel.rot = (sel.rot + (dir > 0 ? 1 : 3)) % 4;
    }
    this.draw();
  }

  chooseHandTile(tile) {
    if (!this.myTurn || this.pending) return;
    Object.assign(this.sel, { tile, placed: null, action: null, rot: this.fittingRot(tile) });
    this.draw();
  }

  undo() {
    if (this.pending) return;
    const sel = this.sel;
    if (sel.action) sel.action = null;
    else if (sel.placed) sel.placed = null;
    else return;
    this.draw();
  }

  confirm() {
    if (!this.myTurn || this.pending || !this.sel.placed) return;
    const sel = this.sel;
    const mv = { type: 'move', version: this.state.version, tile: sel.tile, at: [sel.placed.x, sel.placed.y], rot: sel.placed.rot };
    // The figure's key is the record's: meeple, big, builder, pig, abbot.
    if (sel.action && sel.action.kind !== 'recall') mv[sel.action.kind] = sel.action.spot;
    if (sel.action && sel.action.kind === 'recall') mv.recall = true;
    // The builder's second tile says so (the record's `bonus`).
    if (this.state.turn.bonus) mv.bonus = this.state.turn.bonus;
    this.socket.sendMove(mv);
    this.pending = true;
    this.draw();
  }

  /** Asks the search for the seat to move's best move (the Hint button, H). */
  askHint() {
    if (!this.myTurn || this.pending) return;
    if (!hintsAllowed(this.state)) { this.say(t('hint-none-online')); return; }
    const h = this.hints.shown(this.state);
    if (h) { this.board.reveal(h.move.at[0], h.move.at[1]); this.say(h.words); return; }
    this.explain(null);
    this.hints.ask(this.state).then(() => {
      const shown = this.hints.shown(this.state);
      if (shown) this.board.reveal(shown.move.at[0], shown.move.at[1]);
    });
  }

  onKey(e) {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA' || e.target.tagName === 'SELECT')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const resultsOpen = !this.$('.overlay.results').classList.contains('hidden');
    if (resultsOpen) {
      if (e.key === 'Escape') this.$('.overlay.results').classList.add('hidden');
      return;
    }
    if (e.key === 'Escape' && this.root.classList.contains('drawer-open')) { this.toggleDrawer(false); return; }
    // Keys on a focused button or link are theirs (Enter presses it).
    const onControl = e.target && e.target.closest && e.target.closest('button, a, summary, [role="log"]');
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key] && this.myTurn && !(onControl && e.target.closest('[role="log"]'))) { e.preventDefault(); this.moveCursor(...dirs[e.key]); }
    else if (e.key === 'r' || e.key === 'R') { e.preventDefault(); this.rotate(e.shiftKey ? -1 : 1); this.sayPlacement(); }
    else if (e.key === 'f' || e.key === 'F') { e.preventDefault(); this.stepSpot(e.shiftKey ? -1 : 1); }
    else if ((e.key === 'h' || e.key === 'H') && this.myTurn) { e.preventDefault(); this.askHint(); }
    else if (/^[1-9]$/.test(e.key) && this.sel && this.sel.placed) {
      const choice = this.spotChoices()[Number(e.key) - 1];
      if (choice) { e.preventDefault(); this.pickSpot(choice, true); }
    } else if (e.key === 'Enter' && !onControl) {
      e.preventDefault();
      if (this.sel && this.sel.placed) this.confirm();
      else if (this.myTurn) this.say(t('said-move-first'));
    } else if (e.key === 'Escape') { e.preventDefault(); this.undo(); this.board.setCursor(null); }
    else if (e.key === '+' || e.key === '=') this.board.zoomBy(1.25);
    else if (e.key === '-') this.board.zoomBy(0.8);
    else if (e.key === '0') { this.board.follow = true; this.board.fit(true); }
  }
}

/** Whether state `s` is older than `than`, arriving late (a game taken back has a lower version, and one more takeback granted). */
function olderState(s, than) {
  const order = (x) => [(x.takeback && x.takeback.granted) || 0, x.version];
  const [was, now] = [order(than), order(s)];
  return now[0] < was[0] || (now[0] === was[0] && now[1] < was[1]);
}

/** The next rotation in `rots` after `from`, going `dir` (+1 clockwise). */
function nextRot(rots, from, dir) {
  for (let i = 1; i <= 4; i++) {
    const r = (from + dir * i + 8) % 4;
    if (rots.includes(r)) return r;
  }
  return rots[0];
}

/** tile -> "x,y" -> {x, y, rots: rot -> entry}. */
function indexLegal(legal) {
  const m = new Map();
  for (const e of legal || []) {
    if (!m.has(e.tile)) m.set(e.tile, new Map());
    const byCell = m.get(e.tile);
    const key = `${e.at[0]},${e.at[1]}`;
    if (!byCell.has(key)) byCell.set(key, { x: e.at[0], y: e.at[1], rots: new Map() });
    byCell.get(key).rots.set(e.rot, {
      meeple: e.meeple || [], abbot: e.abbot || [], recall: !!e.recall, big: e.big || [], builder: e.builder || [], pig: e.pig || [],
    });
  }
  return m;
}

const EYE = '<svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/></svg>';

/** A bell, struck through when off. */
function bellIcon(on) {
  return `<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
    <path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6z" fill="${on ? 'currentColor' : 'none'}" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>
    <path d="M10 19a2 2 0 0 0 4 0" fill="none" stroke="currentColor" stroke-width="1.8"/>
    ${on ? '' : '<path d="M4 4l16 16" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'}</svg>`;
}

/** The tab's icon, with a red dot while it is your turn. */
function setFavicon(mark) {
  const link = document.querySelector('link[rel="icon"]');
  const href = mark ? 'favicon-turn.svg' : 'favicon.svg';
  if (link && link.getAttribute('href') !== href) link.setAttribute('href', href);
}

let audio = null;

/** A short two-note chime, made with WebAudio (no sound file). */
function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const t = audio.currentTime + 0.02;
    for (const [f, dt] of [[660, 0], [880, 0.13]]) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, t + dt);
      gain.gain.exponentialRampToValueAtTime(0.18, t + dt + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + dt + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(t + dt);
      osc.stop(t + dt + 0.25);
    }
  } catch { /* no audio here */ }
}

/** The name of the player who aborted the game, if one did (not a clock). */
function abortedBy(s) {
  const ev = s.clock && (s.clock.events || []).find((e) => e.what === 'aborted');
  return ev && ev.by != null && s.players[ev.by] ? s.players[ev.by].name : null;
}
