// Hints on the game page: the search's best move for the seat to move
// (POST /api/games/{id}/hint), drawn on the board as a review's better move
// is (the tile ghosted in place, the follower on its spot) and said in a
// player's words ("north of the cloister, knight in the north city: about
// 5 points more than your average move"), in a live region. Only in casual
// games against bots and at one screen: never online with other people.

import { request } from './api.js';
import { errorText, t } from './i18n.js';
import { followerWords, gainWords, whereWords } from './review.js';
import { ROLE_OF_KIND } from './tiles.js';

/** Whether hints are given in this game: it is on, and nobody plays it from elsewhere. */
export function hintsAllowed(s) {
  // (The server refuses them too: `no_hints`.)
  return !!s && s.status === 'playing' && !s.rated && !s.players.some((p) => p.remote);
}

/** A hint's gain in words: "about 5 points more than your average move". */
export function hintGainWords(gain) {
  if (!(gain >= 0.05)) return t('hint-gain-none');
  return t('hint-gain', { gain: gainWords(gain) });
}

export class Hints {
  /**
   * @param box the element (a live region) the hint's words go in
   * @param opts `id` (the game), `tiles` (the tile set), `tokens()` (the
   *   seat tokens this browser holds), `onChange()` (draw again), `say(text)`
   */
  constructor(box, { id, tiles, tokens, onChange, say }) {
    this.box = box;
    this.text = box.querySelector('.hint-text');
    this.id = id;
    this.tiles = tiles;
    this.tokens = tokens;
    this.onChange = onChange;
    this.say = say;
    this.current = null; // { version, seat, move, gain, words }
    this.busy = false;
    box.querySelector('.close').onclick = () => this.clear();
  }

  /** The hint for the state's position, if one is shown. */
  shown(s) {
    return this.current && s && this.current.version === s.version ? this.current : null;
  }

  /** Asks the server for the seat to move's hint, and shows it. */
  async ask(s) {
    if (this.busy || !hintsAllowed(s)) return;
    this.busy = true;
    this.onChange();
    this.show(t('hint-looking'), false);
    try {
      const tokens = this.tokens();
      const h = await request('POST', `/api/games/${encodeURIComponent(this.id)}/hint${tokens.length ? `?token=${tokens.join(',')}` : ''}`, { version: s.version });
      const before = s.board.map((t) => ({ tile: t.tile, at: t.at, rot: t.rot }));
      const gardens = !!(s.rules && s.rules.abbot);
      const where = whereWords(h.move, before, this.tiles, null, { gardens, followers: s.followers || [], names: s.players.map((p) => p.name) });
      const words = t('hint-words', { where, follower: followerWords(h.move, this.tiles), gain: hintGainWords(h.gain) });
      this.current = { version: h.version, seat: h.seat, move: h.move, gain: h.gain, words };
      this.show(words, true);
    } catch (e) {
      this.current = null;
      const why = ['rate_limited', 'busy', 'stale_version'].includes(e.code) ? t(`hint-error-${e.code}`)
        : t('hint-error-other', { message: errorText(e) });
      this.show(why, true);
    } finally {
      this.busy = false;
      this.onChange();
    }
  }

  show(text, announce) {
    this.text.textContent = text;
    this.box.classList.remove('hidden');
    if (announce) this.say(text);
  }

  /** Forgets the hint (the game moved on, or closed). */
  clear() {
    if (!this.current && this.box.classList.contains('hidden')) return;
    this.current = null;
    this.box.classList.add('hidden');
    this.text.textContent = '';
    this.onChange();
  }

  /** The hinted tile as the board draws a better move: ghosted in place. */
  ghost(s) {
    const h = this.shown(s);
    if (!h) return null;
    const m = h.move;
    return { tile: m.tile, x: m.at[0], y: m.at[1], rot: m.rot || 0, advice: true, color: s.players[h.seat].color };
  }

  /** The hinted follower, as a pending one on its spot (or null). */
  follower(s) {
    const h = this.shown(s);
    const m = h && h.move;
    const spot = m && (m.meeple || m.big || m.builder || m.pig || m.abbot);
    if (!spot) return null;
    const rot = m.rot || 0;
    const figure = m.abbot ? 'abbot' : m.builder ? 'builder' : m.pig ? 'pig' : null;
    return {
      seat: h.seat, at: m.at, spot, color: s.players[h.seat].color, pending: true, hint: true, tileInfo: { tile: m.tile, rot },
      role: figure || ROLE_OF_KIND[this.tiles.spotKind(m.tile, rot, spot)] || 'knight', big: !!m.big,
    };
  }
}
