// The rules page's Big Box part (#/rules/CODE with Inns & Cathedrals or
// Traders & Builders): each element of the expansions with a worked example
// — a small board drawn from a record the engine replays (POST /api/replay)
// and the points in words — and the parts the rule set switches on or off.
// The examples are web/rules/examples.json (crates/core/tests/lessons.rs
// checks their scorings, final scores and words against the engine); this
// module and the expansions' tile pictures load only for such a rule set.

import { api } from './api.js';
import { esc } from './dom.js';
import { t } from './i18n.js';
import { followerSvg } from './meeple.js';

const T = 100; // board units per tile
/** Each expansion's parts, as the engine's rule options name them. */
export const PARTS = {
  inns_cathedrals: ['inns', 'cathedrals', 'big_follower'],
  traders_builders: ['goods', 'builder', 'pig'],
};

/**
 * A small board: the record's tiles as the engine laid them and its figures
 * as they stood when the last tile was laid (those it scored too), the last
 * tile outlined. The big follower is drawn larger (the record's `big`).
 */
export function boardSvg(tiles, replay, record, label) {
  const b = replay.board;
  const xs = b.map((p) => p.at[0]), ys = b.map((p) => p.at[1]);
  const minX = Math.min(...xs), minY = Math.min(...ys);
  const w = Math.max(...xs) - minX + 1, h = Math.max(...ys) - minY + 1;
  const steps = replay.steps;
  const seen = new Set();
  const figures = [...(steps.length > 1 ? steps[steps.length - 2].followers : []), ...steps[steps.length - 1].followers]
    .filter((f) => { const k = `${f.seat}:${f.at}:${f.spot}:${f.role}`; if (seen.has(k)) return false; seen.add(k); return true; });
  const rotOf = new Map(b.map((p) => [`${p.at[0]},${p.at[1]}`, p]));
  const pics = b.map((p) => `<use href="#tile-${esc(p.tile)}" transform="translate(${p.at[0] * T} ${p.at[1] * T}) rotate(${p.rot * 90} 50 50)"/>`).join('');
  const figs = figures.map((f) => {
    const p = rotOf.get(`${f.at[0]},${f.at[1]}`);
    if (!p) return '';
    const [px, py] = tiles.spotPoint(p.tile, p.rot, f.spot);
    const color = replay.players[f.seat].color;
    // The big follower, builder and pig by their shapes (the replay says which is big).
    return followerSvg(color, f.role, f.at[0] * T + px, f.at[1] * T + py, 28, '', f.big === true);
  }).join('');
  const last = record.moves[record.moves.length - 1];
  const mark = `<rect x="${last.at[0] * T + 2}" y="${last.at[1] * T + 2}" width="${T - 4}" height="${T - 4}" rx="3" fill="none"
    stroke="currentColor" stroke-width="4" stroke-dasharray="10 6"/>`;
  return `<svg class="example-board" viewBox="${minX * T - 4} ${minY * T - 4} ${w * T + 8} ${h * T + 8}"
    width="${w * 88}" role="img" aria-label="${esc(label)}">${pics}${figs}${mark}</svg>`;
}

/**
 * The Big Box section of a rules page (`page`: GET /api/rules/CODE): the
 * parts switched on or off, and each part that is on with its example.
 * Fills `host`; the boards follow as their replays come back.
 */
export async function renderBigBox(host, page, tiles) {
  const value = (key) => (page.options.find((o) => o.key === key) || {}).value;
  const parts = Object.entries(PARTS).filter(([exp]) => value(exp) === true).flatMap(([, keys]) => keys);
  const r = await fetch('rules/examples.json');
  if (!r.ok) throw new Error(t('rules-examples-failed', { status: r.status }));
  const data = await r.json();
  // The pig needs farmers: without them (farms "off") no pig is ever placed.
  const shown = data.examples.filter((e) => parts.includes(e.option) && value(e.option) === true
    && !(e.option === 'pig' && value('farms') === 'off'));
  // The examples score farms as the standard rules do (each farm pays its majority).
  const farmNote = (e) => (e.option === 'pig' && value('farms') !== 'per-farm'
    ? `<p class="muted farm-note">${esc(t('rules-ex-farm-rule'))}</p>` : '');
  host.innerHTML = `
    <h2>${esc(t('rules-bb-title'))}</h2>
    <p>${esc(t('rules-bb-intro'))}</p>
    <h3>${esc(t('rules-bb-switches'))}</h3>
    <ul class="bb-switches">${parts.map((k) => `<li data-part="${k}"><b>${esc(t(`rule-${k}`))}</b>: ${esc(t(value(k) ? 'rules-bb-on' : 'rules-bb-off'))}
      <br><span class="muted">${esc(t(`rule-${k}.about`))}</span></li>`).join('')}</ul>
    ${shown.map((e) => `<figure class="rules-example" data-example="${esc(e.key)}">
      <h3>${esc(t(`rules-ex-${e.key}-title`))}</h3>
      <div class="example-board-box"><p class="muted">${esc(t('rules-loading'))}</p></div>
      <figcaption>${esc(t(`rules-ex-${e.key}`))}</figcaption>${farmNote(e)}
    </figure>`).join('')}`;
  // The expansions' tile pictures, drawn now that they are needed.
  const expansions = Object.keys(PARTS).filter((k) => value(k) === true);
  await tiles.need(expansions);
  await Promise.all(shown.map(async (e) => {
    const box = host.querySelector(`[data-example="${e.key}"] .example-board-box`);
    try {
      const replay = await api.replayRecord(JSON.stringify(e.record));
      box.innerHTML = boardSvg(tiles, replay, e.record, t(`rules-ex-${e.key}-title`));
    } catch (err) {
      box.innerHTML = `<p class="bad">${esc(err.message)}</p>`;
    }
  }));
  host.dataset.ready = '1';
}
