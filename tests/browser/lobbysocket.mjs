// A lobby websocket from Node, for the browser tests' other people: a
// person on another address (loopback is a /8: 127.0.0.2 is another
// client), who opens a table or waits for "Play now" while the socket is
// open. Node 20 has no WebSocket client: this speaks the protocol's few
// frames itself (text, ping, pong, close; the server sends no fragments).
import http from 'node:http';
import crypto from 'node:crypto';
import { BASE } from './lib.mjs';

export class LobbySocket {
  /** Opens `/api/lobby/ws` from `from`, naming `device`, with a session `cookie` (`name=value`). */
  static open({ from = '127.0.0.1', device, cookie } = {}) {
    const url = new URL(`/api/lobby/ws${device ? `?device=${device}` : ''}`, BASE);
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        localAddress: from,
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Key': crypto.randomBytes(16).toString('base64'),
          'Sec-WebSocket-Version': '13',
          ...(cookie ? { Cookie: cookie } : {}),
        },
      });
      req.on('upgrade', async (_res, socket, head) => {
        const ws = new LobbySocket(socket, head);
        ws.first = await ws.next((m) => m.type === 'tables');
        resolve(ws);
      });
      req.on('response', (res) => reject(new Error(`the lobby's socket was refused: ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
  }

  constructor(socket, head) {
    this.socket = socket;
    this.buf = head && head.length ? Buffer.from(head) : Buffer.alloc(0);
    this.unread = [];
    this.waiting = [];
    this.nextRef = 1;
    this.closed = false;
    socket.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.read(); });
    socket.on('close', () => { this.closed = true; });
    socket.on('error', () => { this.closed = true; });
    this.read();
  }

  read() {
    for (;;) {
      const b = this.buf;
      if (b.length < 2) return;
      const opcode = b[0] & 0x0f;
      let len = b[1] & 0x7f;
      let at = 2;
      if (len === 126) { if (b.length < 4) return; len = b.readUInt16BE(2); at = 4; }
      else if (len === 127) { if (b.length < 10) return; len = Number(b.readBigUInt64BE(2)); at = 10; }
      if (b.length < at + len) return;
      const payload = b.subarray(at, at + len);
      this.buf = b.subarray(at + len);
      if (opcode === 1) this.deliver(JSON.parse(payload.toString('utf8')));
      else if (opcode === 9) this.frame(10, payload);
      else if (opcode === 8) { this.closed = true; this.socket.end(); }
    }
  }

  deliver(m) {
    const i = this.waiting.findIndex((w) => w.match(m));
    if (i >= 0) this.waiting.splice(i, 1)[0].resolve(m);
    else this.unread.push(m);
  }

  frame(opcode, payload) {
    if (this.closed) return;
    const mask = crypto.randomBytes(4);
    const len = payload.length;
    const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len])
      : Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff]);
    const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
    this.socket.write(Buffer.concat([head, mask, body]));
  }

  /** The next message `match` accepts (read already, or to come within `ms`). */
  next(match, ms = 15_000) {
    const i = this.unread.findIndex(match);
    if (i >= 0) return Promise.resolve(this.unread.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const w = { match, resolve };
      this.waiting.push(w);
      setTimeout(() => {
        const k = this.waiting.indexOf(w);
        if (k >= 0) { this.waiting.splice(k, 1); reject(new Error('no such lobby message in time')); }
      }, ms);
    });
  }

  /** Sends `msg` with a `ref` of its own: the answer naming it. */
  ask(msg) {
    const ref = this.nextRef++;
    this.frame(1, Buffer.from(JSON.stringify({ ...msg, ref })));
    return this.next((m) => m.ref === ref);
  }

  /** Waits for this socket's wait to be paired: the wait. */
  async paired(ms) {
    if (this.unread.some((m) => m.type === 'wait')) return (await this.next((m) => m.type === 'wait')).wait;
    return (await this.next((m) => m.type === 'wait', ms)).wait;
  }

  close() {
    this.frame(8, Buffer.alloc(0));
    this.socket.end();
  }
}
