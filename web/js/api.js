// Talking to the server: JSON over HTTP, game updates over a websocket, and
// the seats this browser holds (their tokens, kept in localStorage).

import { lang, t } from './i18n.js';

export class ApiError extends Error {
  constructor(body, status) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.code = body && body.error ? body.error : 'network';
    this.body = body;
    this.status = status;
  }
}

/**
 * `fetch`, with a refusal for the address's request rate (429 `rate_limited`: the server turned the
 * request away before doing anything) asked again after half a second, one and two: a burst of the
 * page's requests, or of others' behind the same address, costs a moment, not an error on screen.
 * Other refusals, a quota's included, come back at once.
 */
export async function fetchPatiently(path, init) {
  for (let attempt = 0; ; attempt++) {
    const resp = await fetch(path, init);
    if (resp.status !== 429 || attempt >= 3) return resp;
    const body = await resp.clone().json().catch(() => null);
    if (!body || body.error !== 'rate_limited') return resp;
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
  }
}

export async function request(method, path, body) {
  let resp;
  try {
    resp = await fetchPatiently(path, {
      method,
      // The server says its refusals (and the rules page) in the page's language.
      headers: { 'accept-language': lang, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
    });
  } catch (e) {
    throw new ApiError({ error: 'network', message: t('error-network') }, 0);
  }
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!resp.ok) throw new ApiError(data, resp.status);
  return data;
}

export const api = {
  tiles: () => request('GET', '/api/tiles'),
  options: () => request('GET', '/api/options'),
  /** The public games and those named (the ones this browser holds a seat in or invited to). */
  games: (ids) => request('GET', `/api/games${ids.length ? `?ids=${ids.map(encodeURIComponent).join(',')}` : ''}`),
  create: (form) => request('POST', '/api/games', form),
  state: (id, tokens) => request('GET', `/api/games/${encodeURIComponent(id)}${tokens.length ? `?token=${tokens.join(',')}` : ''}`),
  replayOf: (id) => request('GET', `/api/games/${encodeURIComponent(id)}/replay`),
  gameRatings: (id) => request('GET', `/api/games/${encodeURIComponent(id)}/ratings`),
  replayRecord: (text) => request('POST', '/api/replay', text),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
  /** A rule set's page: its summary, options and code (refused plainly if the code does not read). */
  rules: (code) => request('GET', `/api/rules/${encodeURIComponent(code)}`),
  /** The same for a rule set being built (a record's `rules` object). */
  rulesOf: (rules) => request('POST', '/api/rules', rules),
  /** The rule sets this browser keeps on the server. */
  savedRules: () => {
    const key = rulesKey();
    return key ? request('GET', `/api/rulesets?key=${key}`) : Promise.resolve({ sets: [] });
  },
  saveRules: async (name, code) => {
    const key = rulesKey();
    const saved = await request('POST', '/api/rulesets', { name, code, ...(key ? { key } : {}) });
    setRulesKey(saved.key);
    return saved.set;
  },
  renameRules: (id, name) => request('POST', `/api/rulesets/${encodeURIComponent(id)}`, { key: rulesKey(), name }),
  deleteRules: (id) => request('POST', `/api/rulesets/${encodeURIComponent(id)}`, { key: rulesKey(), delete: true }),
};

/** The address of a rule set's page. */
export function rulesLink(code) {
  return `${location.origin}${location.pathname}#/rules/${code}`;
}

// The key this browser's saved rule sets are kept under (the server keeps its hash).
const RULES_KEY = 'carcassonne.rules-key';

function rulesKey() {
  try {
    const k = localStorage.getItem(RULES_KEY);
    return k && /^[0-9a-f]{32}$/.test(k) ? k : null;
  } catch { return null; }
}

function setRulesKey(key) {
  try { localStorage.setItem(RULES_KEY, key); } catch { /* private mode: the sets last this tab */ }
}

// --- QR codes ------------------------------------------------------------------

const qrCache = new Map(); // text -> Promise<blob URL>

/**
 * A QR code of `text` as a blob URL of the server's SVG (the page's CSP
 * allows blob: images). Cached per text; a refusal for the rate is retried.
 */
export function qrUrl(text) {
  if (!qrCache.has(text)) {
    const load = async () => {
      const resp = await fetchPatiently('/api/qr', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }),
      });
      if (!resp.ok) throw new ApiError(await resp.json().catch(() => null), resp.status);
      return URL.createObjectURL(await resp.blob());
    };
    const p = load();
    p.catch(() => qrCache.delete(text));
    qrCache.set(text, p);
  }
  return qrCache.get(text);
}

/** The address of a game (with a seat's token for an invite link). */
export function gameLink(id, token = null) {
  return `${location.origin}${location.pathname}#/game/${id}${token ? `?join=${token}` : ''}`;
}

// --- seats held by this browser ----------------------------------------------

const TOKENS_KEY = 'carcassonne.tokens';

function loadTokens() {
  try { return JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}') || {}; } catch { return {}; }
}

export function tokensFor(id) {
  const all = loadTokens();
  return Array.isArray(all[id]) ? all[id] : [];
}

export function addTokens(id, tokens) {
  const all = loadTokens();
  const have = new Set(Array.isArray(all[id]) ? all[id] : []);
  for (const t of tokens) if (/^[0-9a-f]{8,64}$/.test(t)) have.add(t);
  all[id] = [...have];
  try { localStorage.setItem(TOKENS_KEY, JSON.stringify(all)); } catch { /* private mode: seats last this tab */ }
}

/** The games this browser holds a seat in or made invitations for, newest last (at most 200). */
export function knownGames() {
  const ids = [...Object.keys(loadTokens()), ...Object.keys(loadInvites())];
  return [...new Set(ids)].slice(-200);
}

// The spectator token this browser keeps, made here at random: sent with a
// spectator's chat (`?spectator=`), so that they stay the same spectator
// of a game from another address (docs/web.md, "Chat and rematch").
const SPECTATOR_KEY = 'carcassonne.spectator';
let spectatorMade = null;

export function spectatorToken() {
  try {
    const k = localStorage.getItem(SPECTATOR_KEY);
    if (k && /^[0-9a-f]{32}$/.test(k)) return k;
  } catch { /* private mode: made for this page */ }
  spectatorMade = spectatorMade || [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  try { localStorage.setItem(SPECTATOR_KEY, spectatorMade); } catch { /* private mode: this page's alone */ }
  return spectatorMade;
}

/** Forgets this browser's seats in a game (their tokens were refused). */
export function dropTokens(id) {
  const all = loadTokens();
  delete all[id];
  try { localStorage.setItem(TOKENS_KEY, JSON.stringify(all)); } catch { /* ignore */ }
}

// Invited seats: the creator keeps their tokens to show the links again, but
// never plays with them (the server keeps only hashes, so this is the only copy).
const INVITES_KEY = 'carcassonne.invites';

function loadInvites() {
  try { return JSON.parse(localStorage.getItem(INVITES_KEY) || '{}') || {}; } catch { return {}; }
}

/** The invites this browser made for a game: [{seat, token}]. */
export function invitesFor(id) {
  const all = loadInvites();
  return Array.isArray(all[id]) ? all[id].filter((i) => Number.isInteger(i.seat) && /^[0-9a-f]{8,64}$/.test(i.token)) : [];
}

export function saveInvites(id, invites) {
  if (!invites.length) return;
  const all = loadInvites();
  all[id] = invites.map(({ seat, token }) => ({ seat, token }));
  try { localStorage.setItem(INVITES_KEY, JSON.stringify(all)); } catch { /* private mode: links last this tab */ }
}

/** The turn sound (off unless switched on). */
export function soundOn() {
  try { return localStorage.getItem('carcassonne.sound') === 'on'; } catch { return false; }
}

export function setSound(on) {
  try { localStorage.setItem('carcassonne.sound', on ? 'on' : 'off'); } catch { /* ignore */ }
}

/**
 * "Confirm each move": on, a move is played only by Confirm (or Enter, or a
 * second tap on the tile); off, picking a follower spot (or None) plays it at
 * once. On by default on touch screens, off with a mouse, as lichess does.
 */
export function confirmMoves() {
  try {
    const kept = localStorage.getItem('carcassonne.confirm-moves');
    if (kept === 'on' || kept === 'off') return kept === 'on';
  } catch { /* private mode: the default */ }
  return window.matchMedia('(pointer: coarse)').matches;
}

export function setConfirmMoves(on) {
  try { localStorage.setItem('carcassonne.confirm-moves', on ? 'on' : 'off'); } catch { /* ignore */ }
}

export function rememberName(name) {
  try { localStorage.setItem('carcassonne.name', name); } catch { /* ignore */ }
}

export function lastName() {
  try { return localStorage.getItem('carcassonne.name') || ''; } catch { return ''; }
}

/**
 * A protocol 2 update applied to `state` (at revision `rev`): a new state
 * object (the old one is left as it was), or null when the update does not
 * follow from this state (the client then asks for the whole state).
 */
export function applyUpdate(state, rev, msg) {
  if (!state || msg.base !== rev) return null;
  const next = { ...state, ...(msg.changes || {}) };
  for (const [key, items] of Object.entries(msg.append || {})) next[key] = (state[key] || []).concat(items);
  return next;
}

/**
 * A live connection to one game (websocket protocol 2): calls `onState(state)` for every update and
 * `onError(error)` for refusals; reconnects with backoff (and a little
 * jitter) when dropped, at once when the tab comes back or the network
 * returns. `onStatus` hears 'online' and 'offline'; `onRefused` hears of a
 * socket that closed before it ever opened (a bad token, a missing game).
 */
/** Refusals of a chat message (chat.js shows them, not the game). */
const CHAT_ERRORS = new Set(['chat_off', 'empty_message', 'message_too_long', 'chat_too_fast', 'chat_full', 'chat_crowded']);

export class GameSocket {
  constructor(id, tokens, { onState, onError, onStatus, onRefused }) {
    this.id = id;
    this.tokens = tokens;
    this.onState = onState;
    this.onError = onError;
    this.onStatus = onStatus || (() => {});
    this.onRefused = onRefused || (() => {});
    this.closed = false;
    this.delay = 500;
    this.timer = null;
    this.wake = () => {
      if (this.closed || document.hidden) return;
      if (!this.ws || this.ws.readyState === WebSocket.CLOSED) {
        clearTimeout(this.timer);
        this.delay = 500;
        this.connect();
      }
    };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    this.timer = null;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const q = this.tokens.length ? `&token=${this.tokens.join(',')}` : `&spectator=${spectatorToken()}`;
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(this.id)}/ws?protocol=2${q}`);
    this.ws = ws;
    let opened = false;
    ws.onopen = () => { opened = true; this.onStatus('online'); };
    ws.onmessage = (ev) => {
      this.delay = 500; // a connection that works: the next drop retries soon
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === 'state') {
        this.state = msg.state;
        this.rev = msg.rev;
        this.onState(msg.state);
      } else if (msg.type === 'update') {
        const next = applyUpdate(this.state, this.rev, msg);
        if (!next) { this.send({ type: 'sync' }); return; } // a gap: the whole state again
        this.state = next;
        this.rev = msg.rev;
        this.onState(next);
      } else if (msg.type === 'error' && this.onOther && CHAT_ERRORS.has(msg.error)) this.onOther(msg);
      else if (msg.type === 'error') this.onError(msg);
      else if (this.onOther) this.onOther(msg); // chat and rematch (chat.js)
    };
    ws.onclose = () => {
      if (this.closed || this.ws !== ws) return;
      this.onStatus('offline');
      if (!opened) this.onRefused();
      const wait = this.delay * (0.8 + Math.random() * 0.4);
      this.delay = Math.min(this.delay * 2, 10000);
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  /** Connects again now, with other tokens (none: as a spectator). */
  reconnect(tokens) {
    this.tokens = tokens;
    clearTimeout(this.timer);
    const old = this.ws;
    this.ws = null;
    if (old) { old.onclose = null; old.close(); }
    this.delay = 500;
    this.connect();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /**
   * A move: over the socket, or over HTTP when the socket is not open (refused
   * in a crowd, or reconnecting). The state that comes back, or the refusal,
   * goes where the socket's would.
   */
  sendMove(mv) {
    if (this.send(mv)) return;
    const body = { ...mv };
    delete body.type;
    const q = this.tokens.length ? `?token=${this.tokens.join(',')}` : '';
    fetchPatiently(`/api/games/${encodeURIComponent(this.id)}/moves${q}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    }).then(async (r) => {
      const v = await r.json().catch(() => null);
      if (r.ok && v) { this.state = v; this.rev = undefined; this.onState(v); }
      else this.onError(v || { error: 'network', message: t('move-not-sent') });
    }).catch(() => this.onError({ error: 'network', message: t('move-not-sent') }));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.wake);
    if (this.ws) this.ws.close();
  }
}
