// Followers: the meeple (standing for knights, thieves and monks, lying for
// farmers) and the abbot, in the players' colours.

export const PLAYER_COLORS = {
  yellow: { fill: '#f2c318', edge: '#6b5200', text: '#3b2d00' },
  red: { fill: '#d8352b', edge: '#5e1410', text: '#fff' },
  green: { fill: '#2f9e44', edge: '#124019', text: '#fff' },
  blue: { fill: '#2563d4', edge: '#0e2a63', text: '#fff' },
  black: { fill: '#2a2a2a', edge: '#d9d9d9', text: '#fff' },
  pink: { fill: '#ef6fab', edge: '#6e1f45', text: '#fff' },
};

export function colorOf(name) {
  return PLAYER_COLORS[name] || PLAYER_COLORS.yellow;
}

// The classic meeple, 100 × 100, feet at the bottom.
const MEEPLE =
  'M50 2C63 2 70 11 68 23C67 28 65 31 63 33L86 40C97 43 98 59 87 62L70 65L85 91C88 97 85 100 79 100L61 100L50 84L39 100L21 100C15 100 12 97 15 91L30 65L13 62C2 59 3 43 14 40L37 33C35 31 33 28 32 23C30 11 37 2 50 2Z';
// The abbot: a hooded figure in a long habit.
const ABBOT =
  'M50 0C60 0 66 8 66 18C66 24 64 28 62 31C74 35 80 44 82 58L90 100L10 100L18 58C20 44 26 35 38 31C36 28 34 24 34 18C34 8 40 0 50 0Z';

/**
 * A follower at (x, y) in board units (feet at the point, or the centre for
 * a lying farmer). `size` is its height in board units.
 */
export function followerSvg(color, role, x, y, size = 30, extra = '') {
  const c = colorOf(color);
  const s = size / 100;
  const lying = role === 'farmer';
  const shape = role === 'abbot' ? ABBOT : MEEPLE;
  // Standing: centred on the spot, a little above it; lying: on its side.
  const t = lying
    ? `translate(${x} ${y}) rotate(-90) scale(${s * 0.92}) translate(-50 -50)`
    : `translate(${x} ${y}) scale(${s}) translate(-50 -62)`;
  const shadow = lying
    ? `<ellipse cx="${x}" cy="${y + size * 0.2}" rx="${size * 0.5}" ry="${size * 0.16}" fill="rgba(0,0,0,.35)"/>`
    : `<ellipse cx="${x}" cy="${y + size * 0.36}" rx="${size * 0.36}" ry="${size * 0.11}" fill="rgba(0,0,0,.35)"/>`;
  const mark = role === 'abbot'
    ? `<path d="M50 40v26M40 50h20" stroke="${c.edge}" stroke-width="6" stroke-linecap="round"/>` : '';
  return `<g class="follower ${role} ${extra}">${shadow}<g transform="${t}">
    <path d="${shape}" fill="${c.fill}" stroke="${c.edge}" stroke-width="6" stroke-linejoin="round"/>
    <path d="M38 14C42 8 52 7 57 10" stroke="rgba(255,255,255,.45)" stroke-width="5" stroke-linecap="round" fill="none"/>
    ${mark}</g></g>`;
}

/** A small standalone meeple icon (for panels). */
export function meepleIcon(color, { size = 18, hollow = false, role = 'knight' } = {}) {
  const c = colorOf(color);
  const shape = role === 'abbot' ? ABBOT : MEEPLE;
  const fill = hollow ? 'none' : c.fill;
  const stroke = hollow ? 'rgba(60,45,30,.35)' : c.edge;
  return `<svg class="meeple-icon${hollow ? ' hollow' : ''}" viewBox="-4 -4 108 108" width="${size}" height="${size}">
    <path d="${shape}" fill="${fill}" stroke="${stroke}" stroke-width="7" stroke-linejoin="round"/></svg>`;
}
