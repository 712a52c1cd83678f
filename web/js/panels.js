// Pieces of the screens around the board: players and scores, the game log,
// the tiles left, the end-of-game breakdown and the score chart.

import { esc } from './dom.js';
import { listWords, t } from './i18n.js';
import { colorOf, markIcon, markPath, meepleIcon } from './meeple.js';
import { goodsIcon, ROLE_OF_KIND, tileLabel, tileSvg } from './tiles.js';

export const FOLLOWERS = 7;

/** The goods, in the order of a player's `goods` counts (Traders & Builders). */
export const GOODS = ['wine', 'wheat', 'cloth'];

const KIND_LABEL = {
  road: t('kind-roads'), city: t('kind-cities'), cloister: t('kind-cloisters'), farm: t('kind-farms'), garden: t('kind-gardens'), recall: t('kind-recalls'),
  goods: t('kind-goods'),
};

/** A figure in words: "big knight" for the big follower (`big`), else its role's word. */
export function roleWords(role, big = false) {
  return big ? t('role-big', { role: t(`role-${role}`) }) : t(`role-${role}`);
}

/** A seat's goods tokens: three counts, each with its symbol (games with goods only). */
export function goodsHtml(goods) {
  if (!Array.isArray(goods)) return '';
  const words = t('goods-held', { wine: goods[0], wheat: goods[1], cloth: goods[2] });
  return `<div class="player-goods" title="${esc(words)}">${GOODS.map((g, i) => `<span class="good" data-good="${g}">${goodsIcon(g, 16)}<b>${goods[i]}</b></span>`).join('')}<span class="sr-only">${esc(words)}</span></div>`;
}

/** The score with laps of the 50-space track shown as the boxes' point tiles do. */
export function scoreHtml(score) {
  const laps = Math.floor(score / 50);
  const badge = laps > 0 ? `<span class="lap" title="${esc(t('score-laps', { n: laps * 50 }))}">${laps * 50}</span>` : '';
  const pos = score % 50;
  return `<span class="score-num">${score}</span>${badge}
    <span class="track" title="${esc(t('score-track', { n: pos }))}"><span style="width:${(pos / 50) * 100}%"></span></span>`;
}

/**
 * The players' panel. `p` has seat, name, kind, level, color, score, supply, you;
 * `ratings` (a rated game in play) maps a seat to its player's rating.
 */
export function playersHtml(players, { turnSeat = null, thinking = null, winners = [], finished = false, seen = null, ratings = null } = {}) {
  return players.map((p) => {
    const c = colorOf(p.color);
    const active = !finished && p.seat === turnSeat;
    const won = finished && winners.includes(p.seat);
    const meeples = [];
    for (let i = 0; i < FOLLOWERS; i++) meeples.push(meepleIcon(p.color, { size: 15, hollow: i >= p.supply }));
    if (p.abbot === true || p.abbot === false) {
      meeples.push(`<span class="abbot-slot" title="${esc(p.abbot ? t('abbot-in-supply') : t('abbot-on-board'))}">${meepleIcon(p.color, { size: 17, hollow: !p.abbot, role: 'abbot' })}</span>`);
    }
    // The Big Box's figures, each its own shape, hollow while on the board.
    const figures = [];
    for (const [key, role] of [['big', 'big'], ['builder', 'builder'], ['pig', 'pig']]) {
      if (p[key] !== true && p[key] !== false) continue;
      const words = t(p[key] ? 'figure-home' : 'figure-away', { figure: t(`figure-${key}`) });
      figures.push(`<span class="figure-slot" data-figure="${key}" data-home="${p[key]}" title="${esc(words)}">${meepleIcon(p.color, { size: key === 'big' ? 19 : 17, hollow: !p[key], role })}<span class="sr-only">${esc(words)}</span></span>`);
    }
    const hand = p.hand && p.hand.length && !(p.seat === turnSeat && !finished)
      ? `<span class="hand-mini" title="${esc(t('tiles-in-hand'))}">${p.hand.map((t) => tileSvg(t, 0, 16)).join('')}</span>`
      : p.hand_count && !p.hand ? `<span class="hand-mini muted" title="${esc(t('tiles-in-hand'))}">${esc(t('tiles-in-hand-n', { n: p.hand_count }))}</span>` : '';
    const who = p.kind === 'bot'
      ? `<span class="tag bot" title="${esc(t('tag-bot-title'))}">${esc(t('game-row-bot'))} · ${esc(t(`bot-level-${p.level}`) === `bot-level-${p.level}` ? p.level : t(`bot-level-${p.level}`))}</span>`
      : p.you ? `<span class="tag you">${esc(t('tag-you'))}</span>` : '';
    // Presence (live games only): whether a screen holding the seat is connected.
    const presence = typeof p.online === 'boolean'
      ? `<span class="presence ${p.online ? 'on' : 'off'}" title="${esc(p.online ? t('online') : t('offline'))}"></span>` : '';
    const away = typeof p.online === 'boolean' && !p.online && !finished
      ? `<span class="away">${esc(p.remote && seen && !seen.has(p.seat) ? t('invite-not-joined') : t('offline'))}</span>` : '';
    const status = thinking === p.seat
      ? `<span class="thinking">${esc(t('status-thinking'))}<i>.</i><i>.</i><i>.</i></span>`
      : active ? `<span class="to-play">${esc(t('status-to-play'))}</span>${away ? ` · ${away}` : ''}` : won ? `<span class="winner">★ ${esc(t('status-winner'))}</span>` : away;
    return `<div class="player${active ? ' active' : ''}${won ? ' won' : ''}" data-seat="${p.seat}" style="--pc:${c.fill}">
      <div class="player-color">${meepleIcon(p.color, { size: 26 })}</div>
      <div class="player-main">
        <div class="player-name">${presence}<span class="name">${esc(p.name)}</span>${ratings?.has(p.seat) ? ` <span class="prating" title="${esc(t('player-rating-title'))}">${ratings.get(p.seat)}</span>` : ''}${who}</div>
        <div class="player-supply" title="${esc(t('supply', { n: p.supply, all: FOLLOWERS }))}">${meeples.join('')}<span class="sr-only">${esc(t('supply', { n: p.supply, all: FOLLOWERS }))}</span></div>
        <div class="supply-count" aria-hidden="true">${meepleIcon(p.color, { size: 13, marked: false })}×${p.supply}</div>
        ${figures.length || Array.isArray(p.goods) ? `<div class="player-box">${figures.length ? `<span class="player-figures">${figures.join('')}</span>` : ''}${goodsHtml(p.goods)}</div>` : ''}
        <div class="player-status">${status}${hand}</div>
      </div>
      <div class="player-score">${scoreHtml(p.score)}</div>
    </div>`;
  }).join('');
}

function names(seats, players) {
  return seats.map((s) => {
    const p = players[s];
    return p ? `<b class="pname">${markIcon(p.color, 12)}${esc(p.name)}</b>` : esc(t('invite-seat', { n: s }));
  }).join(' & ');
}

/** "Ada wins", "Ada & Bob win", "You win". */
export function winText(seats, players, label = null) {
  const text = label || seats.map((s) => esc(players[s].name)).join(' & ');
  const plural = seats.length !== 1 || (seats.length === 1 && players[seats[0]].name === 'You');
  return t('win-text', { names: text, n: plural ? 2 : 1 });
}

/** Goods tokens in words: "1 wine, 2 cloth". */
export function goodsWords(goods) {
  return GOODS.filter((g) => goods && goods[g]).map((g) => t('goods-count', { good: g, n: goods[g] })).join(', ');
}

/** One scoring, in words. */
export function scoringText(e) {
  const w = e.when === 'final' ? ` <span class="final">${esc(t('at-the-end'))}</span>` : '';
  // Inns & Cathedrals, Traders & Builders: what made it pay more.
  const more = [e.inn && t('scored-with-inn'), e.cathedral && t('scored-with-cathedral'), e.pig && t('scored-with-pig', { n: e.pig })]
    .filter(Boolean).map((x) => `, ${esc(x)}`).join('');
  switch (e.kind) {
    case 'road': return `${esc(t('scored-road', { n: e.tiles }))}${more}${w}`;
    case 'city': return `${esc(t('scored-city', { n: e.tiles, shields: e.shields || 0 }))}${more}${w}`;
    case 'cloister': return `${esc(t('scored-cloister'))}${w}`;
    case 'garden': return `${esc(t('scored-garden'))}${w}`;
    case 'farm': return `${esc(t('scored-farm', { n: e.cities }))}${more}${w}`;
    case 'goods': return e.when === 'final'
      ? `${esc(t('scored-goods-final', { good: e.good, n: e.count }))}${w}`
      : esc(t('scored-goods-taken', { goods: goodsWords(e.goods) }));
    case 'recall': return esc(t('abbot-recalled'));
    default: return `${esc(e.kind)}${w}`;
  }
}

/** A scoring (`log[i]`) as a button: chosen, the board shows why it scored (scoringWhy). */
export function scoredHtml(e, i, players) {
  const beaten = outnumberedWords(e, players);
  // Goods taken with a city pay no points: their symbols instead.
  const pts = e.points == null ? GOODS.filter((g) => e.goods && e.goods[g]).map((g) => goodsIcon(g, 14)).join('') : `+${e.points}`;
  return `<li class="scored${e.kind === 'goods' ? ' goods' : ''}"><button class="why" data-ev="${i}" title="${esc(t('show-why'))}"><span class="pts">${pts}</span> ${names(e.to, players)} · ${scoringText(e)}${beaten ? ` <span class="outnumbered">${esc(t('outnumbered', { who: beaten }))}</span>` : ''}</button></li>`;
}

/**
 * A final scoring's followers that did not count, by seat, in words
 * ("Bob's knight", "Bob's 2 knights and Cy's farmer"); '' when every one counted.
 */
export function outnumberedWords(e, players) {
  const by = new Map();
  for (const f of e.followers || []) {
    if (f.counted || f.role === 'builder' || f.role === 'pig') continue; // no follower: never outnumbered
    const key = `${f.seat}:${f.role}`;
    by.set(key, { seat: f.seat, role: f.role, n: (by.get(key)?.n || 0) + 1 });
  }
  const who = (seat) => (players[seat] ? players[seat].name : t('clock-seat', { n: seat + 1 }));
  const parts = [...by.values()].map(({ seat, role, n }) => t('outnumbered-part', { name: who(seat), role: t(`role-${role}`), n }));
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} ${t('word-and')} ${parts[parts.length - 1]}` : parts[0] || '';
}

/** The game log, newest turn first: each turn's tile, follower and scorings. */
export function logHtml(log, players, { upTo = null } = {}) {
  const turns = new Map();
  const finals = [];
  let end = null;
  const index = new Map(log.map((e, i) => [e, i]));
  const scored = (e) => scoredHtml(e, index.get(e), players);
  for (const e of log) {
    if (e.type === 'end') { end = e; continue; }
    if (e.turn == null) { finals.push(e); continue; }
    if (upTo != null && e.turn > upTo) continue;
    if (!turns.has(e.turn)) turns.set(e.turn, []);
    turns.get(e.turn).push(e);
  }
  const rows = [];
  if (end || finals.length) {
    const items = finals.filter((e) => e.type === 'score').map(scored);
    const winners = end ? `<li class="winners">★ ${winText(end.winners, players, names(end.winners, players))}</li>` : '';
    rows.push(`<div class="log-turn final-scoring"><div class="log-head">${esc(t('final-scoring'))}</div><ul>${winners}${items.join('')}</ul></div>`);
  }
  for (const [turn, evs] of [...turns.entries()].sort((a, b) => b[0] - a[0])) {
    const tile = evs.find((e) => e.type === 'tile');
    const deploy = evs.find((e) => e.type === 'deploy');
    const p = tile ? players[tile.seat] : null;
    const items = [];
    for (const e of evs) {
      if (e.type === 'score') items.push(scored(e));
      else if (e.type === 'discard') items.push(`<li class="discard">${tileSvg(e.tile, 0, 16)} ${esc(t('log-discarded'))}</li>`);
      else if (e.type === 'recall') items.push(`<li class="scored"><span class="pts">+${e.points}</span> ${names(e.to, players)} · ${esc(t('abbot-recalled'))}</li>`);
      else if (e.type === 'reshuffle') items.push(`<li class="discard">${tileSvg(e.tile, 0, 16)} ${esc(t('log-reshuffled'))}</li>`);
      else if (e.type === 'bonus') items.push(`<li class="bonus">${t('log-bonus', { name: names([e.seat], players) })}</li>`);
    }
    // The builder's second tile (Traders & Builders).
    if (tile && tile.bonus === 'builder') items.unshift(`<li class="bonus builder-bonus">${t('builder-bonus', { name: names([tile.seat], players) })}</li>`);
    const what = tile
      ? `${tileSvg(tile.tile, tile.rot, 20)} ${names([tile.seat], players)}${deploy ? ` · ${esc(roleWords(deploy.role, deploy.big))}` : ''}`
      : '';
    rows.push(`<div class="log-turn${items.length ? ' has-score' : ''}" style="--pc:${p ? colorOf(p.color).fill : '#999'}">
      <div class="log-head"><span class="turn-no">${turn}</span> ${what}</div>${items.length ? `<ul>${items.join('')}</ul>` : ''}</div>`);
  }
  return rows.join('') || `<div class="log-empty">${esc(t('log-empty'))}</div>`;
}

/** The tiles still in the bag, by kind. */
export function remainingHtml(remaining, deckCounts) {
  const ids = Object.keys(deckCounts).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return `<div class="remaining-grid">${ids.map((id) => {
    const n = remaining[id] || 0;
    return `<div class="rem${n ? '' : ' gone'}" title="${esc(t('remaining-title', { tile: tileLabel(id), n, all: deckCounts[id] }))}">${tileSvg(id, 0, 38)}<span>${n}</span></div>`;
  }).join('')}</div>`;
}

/**
 * The goods majorities of the final scoring (Traders & Builders): for each
 * kind, who held the most (10 points each) and how many, or that nobody
 * held any. '' in a game without goods.
 */
export function goodsResultsHtml(log, players) {
  if (!players.some((p) => Array.isArray(p.goods))) return '';
  const finals = log.filter((e) => e.type === 'score' && e.kind === 'goods' && e.when === 'final');
  const rows = GOODS.map((g, i) => {
    const e = finals.find((x) => x.good === g);
    const held = players.map((p) => `${p.name} ${(p.goods || [])[i] || 0}`).join(', ');
    const what = e
      ? t('results-goods-won', { good: g, names: names(e.to, players), n: e.to.length, points: e.points, count: e.count })
      : esc(t('results-goods-none', { good: g }));
    return `<li data-good="${g}">${goodsIcon(g, 20)} <span>${what}</span> <small class="muted">(${esc(held)})</small></li>`;
  });
  return `<section class="goods-results"><h3>${esc(t('results-goods'))}</h3><ul>${rows.join('')}</ul></section>`;
}

/** Points by kind per player, during the game and at the end. */
export function breakdownHtml(breakdown, players, scores) {
  const kinds = ['road', 'city', 'cloister', 'farm'];
  for (const b of breakdown) for (const side of ['during', 'final']) for (const k of Object.keys(b[side] || {})) {
    if (!kinds.includes(k)) kinds.push(k);
  }
  if (!kinds.includes('garden') && breakdown.some((b) => (b.during || {}).garden || (b.final || {}).garden)) kinds.push('garden');
  const order = players.map((p, i) => i).sort((a, b) => scores[b] - scores[a]);
  const head = order.map((i) => `<th scope="col">${markIcon(players[i].color, 13)} ${esc(players[i].name)}</th>`).join('');
  const rows = kinds.map((k) => {
    const cells = order.map((i) => {
      const d = (breakdown[i].during || {})[k] || 0, f = (breakdown[i].final || {})[k] || 0;
      const detail = d && f ? `<small>${esc(t('plus-at-the-end', { d, f }))}</small>` : f ? `<small>${esc(t('at-the-end'))}</small>` : '';
      return `<td>${d + f || '–'}${detail}</td>`;
    }).join('');
    return `<tr><th scope="row">${KIND_LABEL[k] || esc(k)}</th>${cells}</tr>`;
  }).join('');
  const total = order.map((i) => `<td class="total">${scores[i]}</td>`).join('');
  return `<table class="breakdown"><thead><tr><td></td>${head}</tr></thead><tbody>${rows}
    <tr class="total-row"><th scope="row">${esc(t('total'))}</th>${total}</tr></tbody></table>`;
}

/** Scores after each move, one line per player. */
export function chartSvg(history, players, { width = 560, height = 240, mark = null } = {}) {
  const n = history.length;
  if (n < 2) return '';
  const max = Math.max(10, ...history.flat());
  const pad = { l: 34, r: 12, t: 12, b: 26 };
  const W = width - pad.l - pad.r, H = height - pad.t - pad.b;
  const x = (i) => pad.l + (i / (n - 1)) * W;
  const y = (v) => pad.t + H - (v / max) * H;
  const step = max > 150 ? 50 : max > 60 ? 20 : 10;
  const grid = [];
  for (let v = 0; v <= max; v += step) {
    grid.push(`<line x1="${pad.l}" x2="${pad.l + W}" y1="${y(v)}" y2="${y(v)}" class="grid"/>
      <text x="${pad.l - 6}" y="${y(v) + 4}" class="axis" text-anchor="end">${v}</text>`);
  }
  const tstep = n > 60 ? 10 : 5;
  for (let i = 0; i < n - tstep / 2; i += tstep) grid.push(`<text x="${x(i)}" y="${height - 8}" class="axis" text-anchor="middle">${i}</text>`);
  const lines = players.map((p, s) => {
    const pts = history.map((row, i) => `${x(i).toFixed(1)},${y(row[s] || 0).toFixed(1)}`).join(' ');
    const c = colorOf(p.color);
    // Each line ends in its seat's mark: colour is not the only cue.
    const ex = x(n - 1), ey = y(history[n - 1][s] || 0);
    return `<polyline points="${pts}" fill="none" stroke="${c.fill}" stroke-width="2.6" stroke-linejoin="round"/>
      <path d="${markPath(p.color)}" transform="translate(${ex - 6} ${ey - 6}) scale(.12)" fill="${c.fill}" stroke="${c.edge}" stroke-width="10"/>`;
  }).join('');
  const marker = mark != null ? `<line x1="${x(mark)}" x2="${x(mark)}" y1="${pad.t}" y2="${pad.t + H}" class="mark"/>` : '';
  const label = t('chart-label', { scores: players.map((p, s) => `${p.name} ${history[n - 1][s] || 0}`).join(', ') });
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMidYMid meet" role="img" aria-label="${esc(label)}">
    ${grid.join('')}${marker}${lines}
    <text x="${pad.l + W}" y="${height - 8}" class="axis" text-anchor="end">${esc(t('chart-axis-turn'))}</text></svg>`;
}

const ROLES_OF_SCORING = { road: ['thief'], city: ['knight'], cloister: ['monk', 'abbot'], garden: ['abbot'], farm: ['farmer'] };

/**
 * Why the scoring `log[i]` scored: its tiles (from the server's `cover`,
 * indices into `board`, the tiles in the order laid), the followers on it
 * — those that came home right after it, for a feature completed; at the
 * end, those the entry names (`followers`, each `counted` or outnumbered)
 * — and the sum in words.
 */
export function scoringWhy(log, i, board, players, tiles) {
  const e = log[i];
  const cells = (e.cover || []).map((k) => board[k]).filter(Boolean).map((t) => t.at);
  const onBoard = new Map(board.map((t) => [`${t.at[0]},${t.at[1]}`, t]));
  let men = [];
  for (let j = i + 1; e.when === 'completed' && j < log.length && log[j].type === 'return'; j++) {
    const t = onBoard.get(`${log[j].at[0]},${log[j].at[1]}`);
    const role = log[j].role || (t ? ROLE_OF_KIND[tiles.spotKind(t.tile, t.rot, log[j].spot)] : null);
    men.push({ ...log[j], role: role || 'knight', gone: true });
  }
  if (e.when === 'final') men = (e.followers || []).map((f) => ({ ...f, outnumbered: !f.counted && f.role !== 'builder' && f.role !== 'pig' }));
  men = men.filter((f) => onBoard.has(`${f.at[0]},${f.at[1]}`)).map((f) => {
    const t = onBoard.get(`${f.at[0]},${f.at[1]}`);
    return { ...f, tile: t.tile, rot: t.rot, color: players[f.seat].color };
  });
  return { cells, followers: men, text: whyWords(e, men, players) };
}

/** The sum of a scoring in words, and who had the majority (messages `why-…`). */
function whyWords(e, men, players) {
  const final = e.when === 'final';
  const tiles = e.tiles || 0, shields = e.shields || 0, points = e.points;
  let sum;
  if (e.kind === 'road') sum = t(final ? 'why-road-final' : 'why-road', { tiles, points });
  else if (e.kind === 'city') {
    const each = final || points !== 2 * (tiles + shields) ? 1 : 2;
    sum = t('why-city', { state: final ? 'final' : each === 1 ? 'small' : 'done', tiles, shields, each, points });
  } else if (e.kind === 'cloister' || e.kind === 'garden') {
    sum = final ? t('why-cloister-final', { kind: e.kind, around: points - 1, points }) : t('why-cloister', { kind: e.kind, points });
  } else if (e.kind === 'farm') {
    const cities = e.cities || 0;
    sum = t('why-farm', { cities, each: cities ? points / cities : 0, points });
  } else sum = t('why-points', { points });
  // Who had the majority: the followers counted per seat (a big follower two; a builder or a pig none).
  const count = new Map();
  const counting = men.filter((f) => f.role !== 'builder' && f.role !== 'pig');
  for (const f of counting) count.set(f.seat, (count.get(f.seat) || 0) + (f.big ? 2 : 1));
  const role = counting[0] ? counting[0].role : (ROLES_OF_SCORING[e.kind] || ['follower'])[0];
  const roles = t('why-roles', { role });
  const who = (seat) => (players[seat] ? players[seat].name : t('clock-seat', { n: seat + 1 }));
  const win = e.to.map(who);
  let most;
  if (!count.size) most = t('why-most', { names: listWords(win), n: e.to.length, roles, points });
  else if (count.size === 1) {
    const [[seat, n]] = [...count.entries()];
    most = t('why-alone', { name: who(seat), n, role: t(`role-${role}`), roles, code: role });
  } else {
    const tally = [...count.entries()].sort((a, b) => b[1] - a[1]).map(([seat, n]) => `${who(seat)} ${n}`).join(', ');
    most = e.to.length > 1
      ? t('why-tie', { roles, tally, names: listWords(win), points })
      : t('why-beat', { roles, tally, name: win[0], points });
  }
  if (!final || !men.length) return `${sum} ${most}`;
  const beaten = outnumberedWords({ followers: men }, players);
  const n = men.filter((f) => f.counted).length;
  const counted = beaten ? t('why-counted-beaten', { n, beaten, m: men.filter((f) => !f.counted).length }) : t('why-counted', { n });
  return `${sum} ${most} ${counted}`;
}
