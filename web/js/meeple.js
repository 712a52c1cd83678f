// Followers: the meeple (standing for knights, thieves and monks, lying for
// farmers) and the abbot, in the players' colours; the Big Box's figures
// each by a shape of its own: the big follower (a broader meeple with a
// belt), the builder (a tall pawn with a cap) and the pig.

// The seats' colours: Okabe and Ito's palette, with the blue darkened and
// the pink lightened, so that every pair stays apart (ΔE*76 ≥ 22) under
// protanopia, deuteranopia and tritanopia (tests/browser/colors.test.mjs);
// each colour also has its own mark (a shape): colour is never the only cue.
export const PLAYER_COLORS = {
  yellow: { fill: '#f0e442', edge: '#5c5300', text: '#2b2600', mark: 'circle' },
  red: { fill: '#d55e00', edge: '#4d2200', text: '#fff', mark: 'triangle' },
  green: { fill: '#009e73', edge: '#003d2c', text: '#fff', mark: 'square' },
  blue: { fill: '#004f8c', edge: '#001f38', text: '#fff', mark: 'diamond' },
  black: { fill: '#2a2a2a', edge: '#d9d9d9', text: '#fff', mark: 'star' },
  pink: { fill: '#e8a0c8', edge: '#5a2346', text: '#2b1020', mark: 'cross' },
};

const MARK_PATHS = {
  circle: 'M50 22a28 28 0 1 1 0 56a28 28 0 1 1 0-56z',
  triangle: 'M50 18L82 76H18z',
  square: 'M24 24H76V76H24z',
  diamond: 'M50 14L86 50L50 86L14 50z',
  star: 'M50 12L60 39L89 39L66 57L74 86L50 69L26 86L34 57L11 39L40 39z',
  cross: 'M38 14H62V38H86V62H62V86H38V62H14V38H38z',
};

/** A seat's mark (its colour's shape) as SVG path data in a 100 × 100 box. */
export function markPath(color) {
  return MARK_PATHS[colorOf(color).mark] || MARK_PATHS.circle;
}

/** A small standalone mark: the colour's shape, filled with it and outlined. */
export function markIcon(color, size = 14) {
  const c = colorOf(color);
  return `<svg class="seat-mark" viewBox="0 0 100 100" width="${size}" height="${size}" aria-hidden="true">`
    + `<path d="${markPath(color)}" fill="${c.fill}" stroke="${c.edge}" stroke-width="9" stroke-linejoin="round"/></svg>`;
}

export function colorOf(name) {
  return PLAYER_COLORS[name] || PLAYER_COLORS.yellow;
}

// The classic meeple, 100 × 100, feet at the bottom.
const MEEPLE =
  'M50 2C63 2 70 11 68 23C67 28 65 31 63 33L86 40C97 43 98 59 87 62L70 65L85 91C88 97 85 100 79 100L61 100L50 84L39 100L21 100C15 100 12 97 15 91L30 65L13 62C2 59 3 43 14 40L37 33C35 31 33 28 32 23C30 11 37 2 50 2Z';
// The abbot: a hooded figure in a long habit.
const ABBOT =
  'M50 0C60 0 66 8 66 18C66 24 64 28 62 31C74 35 80 44 82 58L90 100L10 100L18 58C20 44 26 35 38 31C36 28 34 24 34 18C34 8 40 0 50 0Z';

// The builder: a tall pawn, its cap's brim wider than its head.
const BUILDER =
  'M50 4C59 4 64 10 64 18L74 20L74 26L64 27C63 33 59 37 54 38L62 44L72 92C73 98 70 100 64 100L36 100C30 100 27 98 28 92L38 44L46 38C41 37 37 33 36 27L26 26L26 20L36 18C36 10 41 4 50 4Z';
// The pig, seen from the side (snout to the east), standing on its legs.
const PIG =
  'M8 58C8 42 24 34 44 34L56 34L62 18L70 36C78 39 82 44 84 48L96 48C98 48 98 50 98 52L98 64C98 66 96 66 94 66L84 66C81 72 76 76 72 78L72 100L58 100L58 84L34 84L34 100L20 100L20 80C12 76 8 68 8 58Z';
// The big follower: the meeple, broader.
const BIG =
  'M50 0C65 0 73 10 71 23C70 28 68 31 66 33L91 40C102 43 103 60 91 63L73 66L89 91C92 97 89 100 83 100L62 100L50 84L38 100L17 100C11 100 8 97 11 91L27 66L9 63C-3 60 -2 43 9 40L34 33C32 31 30 28 29 23C27 10 35 0 50 0Z';

/** A figure's outline: `role` as the server says it, `big` the big follower. */
function shapeOf(role, big) {
  if (role === 'abbot') return ABBOT;
  if (role === 'builder') return BUILDER;
  if (role === 'pig') return PIG;
  return big ? BIG : MEEPLE;
}

/** The marks drawn over a figure's outline (100 × 100, the seat's mark aside). */
function figureMarks(role, big, c) {
  if (role === 'abbot') return `<path d="M50 70v20M42 78h16" stroke="${c.edge}" stroke-width="6" stroke-linecap="round"/>`;
  if (role === 'pig') return `<circle cx="80" cy="44" r="3.5" fill="${c.edge}"/><path d="M8 50c-6-2-6-10 0-10" stroke="${c.edge}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
  if (big) return '<path d="M24 56H76" stroke="rgba(255,255,255,.9)" stroke-width="7" stroke-linecap="round"/>';
  return '';
}

/**
 * A follower at (x, y) in board units (feet at the point, or the centre for
 * a lying farmer). `size` is its height in board units.
 */
export function followerSvg(color, role, x, y, size = 30, extra = '', big = false) {
  const c = colorOf(color);
  if (big) size *= 1.25;
  const s = size / 100;
  const lying = role === 'farmer';
  const shape = shapeOf(role, big);
  // Standing: centred on the spot, a little above it; lying: on its side.
  const t = lying
    ? `translate(${x} ${y}) rotate(-90) scale(${s * 0.92}) translate(-50 -50)`
    : `translate(${x} ${y}) scale(${s}) translate(-50 -62)`;
  const shadow = lying
    ? `<ellipse cx="${x}" cy="${y + size * 0.2}" rx="${size * 0.5}" ry="${size * 0.16}" fill="rgba(0,0,0,.35)"/>`
    : `<ellipse cx="${x}" cy="${y + size * 0.36}" rx="${size * 0.36}" ry="${size * 0.11}" fill="rgba(0,0,0,.35)"/>`;
  // The seat's mark on the body, small and light (the abbot's cross below it).
  const at = role === 'pig' ? 'translate(32 44) scale(.26)' : 'translate(35 36) scale(.3)';
  const seat = `<g transform="${at}"><path d="${markPath(color)}" fill="${c.edge}" stroke="rgba(255,255,255,.85)" stroke-width="10" stroke-linejoin="round"/></g>`;
  const mark = figureMarks(role, big, c);
  const shine = role === 'pig' ? '' : '<path d="M38 14C42 8 52 7 57 10" stroke="rgba(255,255,255,.45)" stroke-width="5" stroke-linecap="round" fill="none"/>';
  return `<g class="follower ${role}${big ? ' big' : ''} ${extra}">${shadow}<g transform="${t}">
    <path d="${shape}" fill="${c.fill}" stroke="${c.edge}" stroke-width="6" stroke-linejoin="round"/>
    ${shine}
    ${seat}${mark}</g></g>`;
}

/** A small standalone meeple icon (for panels): `role` 'abbot', 'builder', 'pig' or 'big' (the big follower) for those. */
export function meepleIcon(color, { size = 18, hollow = false, role = 'knight', marked = size >= 22 } = {}) {
  const c = colorOf(color);
  const big = role === 'big';
  const shape = shapeOf(role, big);
  const fill = hollow ? 'none' : c.fill;
  const stroke = hollow ? 'currentColor' : c.edge;
  const mark = marked && !hollow
    ? `<g transform="translate(33 33) scale(.34)"><path d="${markPath(color)}" fill="${c.edge}" stroke="rgba(255,255,255,.85)" stroke-width="10" stroke-linejoin="round"/></g>` : '';
  return `<svg class="meeple-icon${hollow ? ' hollow' : ''}" data-color="${PLAYER_COLORS[color] ? color : 'yellow'}"${hollow ? ' style="color: var(--muted); opacity: .75"' : ''} viewBox="-4 -4 108 108" width="${size}" height="${size}" aria-hidden="true">
    <path d="${shape}" fill="${fill}" stroke="${stroke}" stroke-width="7" stroke-linejoin="round"/>${mark}${!hollow && (big || role === 'pig') ? figureMarks(role, big, c) : ''}</svg>`;
}
