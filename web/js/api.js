// Talking to the server: JSON over HTTP, game updates over a websocket, and
// the seats this browser holds (their tokens, kept in localStorage).

export class ApiError extends Error {
  constructor(body, status) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.code = body && body.error ? body.error : 'network';
    this.body = body;
    this.status = status;
  }
}

async function request(method, path, body) {
  let resp;
  try {
    resp = await fetch(path, {
      method,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
      body: body !== undefined ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
    });
  } catch (e) {
    throw new ApiError({ error: 'network', message: 'the server cannot be reached' }, 0);
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
  games: () => request('GET', '/api/games'),
  create: (form) => request('POST', '/api/games', form),
  state: (id, tokens) => request('GET', `/api/games/${encodeURIComponent(id)}${tokens.length ? `?token=${tokens.join(',')}` : ''}`),
  replayOf: (id) => request('GET', `/api/games/${encodeURIComponent(id)}/replay`),
  replayRecord: (text) => request('POST', '/api/replay', text),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
};

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

export function rememberName(name) {
  try { localStorage.setItem('carcassonne.name', name); } catch { /* ignore */ }
}

export function lastName() {
  try { return localStorage.getItem('carcassonne.name') || ''; } catch { return ''; }
}

/**
 * A live connection to one game: calls `onState(state)` for every update and
 * `onError(error)` for refusals; reconnects with backoff when dropped.
 */
export class GameSocket {
  constructor(id, tokens, { onState, onError, onStatus }) {
    this.id = id;
    this.tokens = tokens;
    this.onState = onState;
    this.onError = onError;
    this.onStatus = onStatus || (() => {});
    this.closed = false;
    this.delay = 500;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const q = this.tokens.length ? `?token=${this.tokens.join(',')}` : '';
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(this.id)}/ws${q}`);
    this.ws = ws;
    ws.onopen = () => { this.delay = 500; this.onStatus('online'); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === 'state') this.onState(msg.state);
      else if (msg.type === 'error') this.onError(msg);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus('offline');
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
