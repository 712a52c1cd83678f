// The seats' colours stay apart for people with colour-vision deficiencies:
// each pair, as protanopes, deuteranopes and tritanopes see it (Machado,
// Oliveira and Fernandes 2009, full severity), differs by at least MIN_DE
// in CIELAB (ΔE*76). Runs in Node alone: no browser, no server.
import test from 'node:test';
import assert from 'node:assert/strict';
import { PLAYER_COLORS } from '../../web/js/meeple.js';

const MIN_DE = 22;

const MACHADO = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
  'normal vision': [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
};

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

function linearRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => toLinear(v / 255));
}

function lab([r, g, b]) {
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const seen = (hex, m) => {
  const c = linearRgb(hex);
  return lab(m.map((row) => Math.min(1, Math.max(0, row[0] * c[0] + row[1] * c[1] + row[2] * c[2]))));
};

test('the six seat colours stay apart under protanopia, deuteranopia and tritanopia', () => {
  const names = Object.keys(PLAYER_COLORS);
  assert.equal(names.length, 6);
  for (const [vision, m] of Object.entries(MACHADO)) {
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = seen(PLAYER_COLORS[names[i]].fill, m), b = seen(PLAYER_COLORS[names[j]].fill, m);
        const de = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
        assert.ok(de >= MIN_DE, `${vision}: ${names[i]} and ${names[j]} differ by only ΔE ${de.toFixed(1)}`);
      }
    }
  }
});

test('each seat colour has a mark of its own', () => {
  const marks = Object.values(PLAYER_COLORS).map((c) => c.mark);
  assert.equal(new Set(marks).size, marks.length);
});
