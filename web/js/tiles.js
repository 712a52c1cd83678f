// Tiles drawn from the engine's tile data (GET /api/tiles): every tile is an
// SVG group in its canonical orientation (north up, 100 × 100 units), built
// from its edges and segments, and placed on the board with a rotation.
//
// Follower anchors (where a meeple stands on a segment) come from the same
// geometry: cities and roads from their shapes, fields from a small raster of
// the tile in which each field is flood-filled from its half-edges.

import { backgroundTask, nextTask } from './dom.js';
import { listWords, t } from './i18n.js';

export const DIRS = ['N', 'E', 'S', 'W'];
export const HALVES = ['Nw', 'Ne', 'En', 'Es', 'Se', 'Sw', 'Ws', 'Wn'];
const EDGE_MID = [[50, 0], [100, 50], [50, 100], [0, 50]];

const ROAD_W = 10;
const RIVER_W = 17;

/** A point turned k quarter turns clockwise about the tile's centre. */
export function rotPoint(p, k) {
  let [x, y] = p;
  for (let i = 0; i < ((k % 4) + 4) % 4; i++) [x, y] = [100 - y, x];
  return [x, y];
}

// Paths are lists of commands: ['M', x, y], ['L', x, y], ['C', x1, y1, x2, y2, x, y], ['Z'].
function rotPath(cmds, k) {
  return cmds.map(([c, ...n]) => {
    const out = [c];
    for (let i = 0; i < n.length; i += 2) out.push(...rotPoint([n[i], n[i + 1]], k));
    return out;
  });
}

function pathString(cmds) {
  return cmds.map(([c, ...n]) => c + n.map((v) => +v.toFixed(2)).join(' ')).join(' ');
}

/** Points along a path (lines and cubic curves), for hit tests and midpoints. */
function samplePath(cmds, per = 24) {
  const pts = [];
  let cur = [0, 0];
  for (const [c, ...n] of cmds) {
    if (c === 'M') { cur = [n[0], n[1]]; pts.push(cur); }
    else if (c === 'L') {
      for (let i = 1; i <= per; i++) pts.push([cur[0] + (n[0] - cur[0]) * i / per, cur[1] + (n[1] - cur[1]) * i / per]);
      cur = [n[0], n[1]];
    } else if (c === 'C') {
      for (let i = 1; i <= per; i++) {
        const t = i / per, u = 1 - t;
        pts.push([
          u * u * u * cur[0] + 3 * u * u * t * n[0] + 3 * u * t * t * n[2] + t * t * t * n[4],
          u * u * u * cur[1] + 3 * u * u * t * n[1] + 3 * u * t * t * n[3] + t * t * t * n[5],
        ]);
      }
      cur = [n[4], n[5]];
    }
  }
  return pts;
}

const dirIndex = (d) => DIRS.indexOf(d);

/** The k that turns the reference edge set `ref` into `edges`, or -1. */
function turnOf(ref, edges) {
  const want = [...edges].map(dirIndex).sort().join();
  for (let k = 0; k < 4; k++) {
    if (ref.map((d) => (dirIndex(d) + k) % 4).sort().join() === want) return k;
  }
  return -1;
}

// City shapes by how many edges they reach and how, drawn for a reference
// edge set and turned into place.
const CITY_SHAPES = [
  {
    ref: ['N'],
    path: [['M', 0, 0], ['L', 100, 0], ['C', 80, 34, 20, 34, 0, 0], ['Z']],
    walls: [[['M', 100, 0], ['C', 80, 34, 20, 34, 0, 0]]],
    anchor: [40, 11], shield: [70, 9],
    // Reaching the SE corner (the expansions' IC07): a field between it and the E edge.
    reach: {
      corner: 1,
      path: [['M', 0, 0], ['L', 100, 0], ['C', 68, 30, 70, 70, 100, 100], ['C', 78, 50, 24, 40, 0, 0], ['Z']],
      walls: [[['M', 100, 0], ['C', 68, 30, 70, 70, 100, 100]], [['M', 100, 100], ['C', 78, 50, 24, 40, 0, 0]]],
      anchor: [52, 22], shield: [24, 9],
    },
  },
  {
    // Bowed towards the open corner, as on the printed tiles.
    ref: ['N', 'E'],
    path: [['M', 0, 0], ['L', 100, 0], ['L', 100, 100], ['C', 58, 92, 8, 42, 0, 0], ['Z']],
    walls: [[['M', 100, 100], ['C', 58, 92, 8, 42, 0, 0]]],
    anchor: [64, 36], shield: [84, 15],
    // With a road or river curving round the opposite corner: a straighter wall.
    tight: {
      path: [['M', 0, 0], ['L', 100, 0], ['L', 100, 100], ['C', 74, 70, 30, 26, 0, 0], ['Z']],
      walls: [[['M', 100, 100], ['C', 74, 70, 30, 26, 0, 0]]],
    },
    // With another city on the tile (the expansions'): bowed towards its own corner.
    shared: {
      path: [['M', 0, 0], ['L', 100, 0], ['L', 100, 100], ['C', 75, 45, 55, 25, 0, 0], ['Z']],
      walls: [[['M', 100, 100], ['C', 75, 45, 55, 25, 0, 0]]],
      anchor: [72, 28],
    },
    // Reaching the SW corner (TB09, TB15, TB23): fields between it and the S and W edges.
    reach: {
      corner: 2,
      path: [['M', 0, 0], ['L', 100, 0], ['L', 100, 100], ['C', 70, 72, 30, 72, 0, 100], ['C', 28, 70, 28, 30, 0, 0], ['Z']],
      walls: [[['M', 100, 100], ['C', 70, 72, 30, 72, 0, 100]], [['M', 0, 100], ['C', 28, 70, 28, 30, 0, 0]]],
      anchor: [58, 40],
    },
  },
  {
    ref: ['E', 'W'],
    path: [['M', 0, 0], ['C', 30, 26, 70, 26, 100, 0], ['L', 100, 100], ['C', 70, 74, 30, 74, 0, 100], ['Z']],
    walls: [[['M', 0, 0], ['C', 30, 26, 70, 26, 100, 0]], [['M', 100, 100], ['C', 70, 74, 30, 74, 0, 100]]],
    anchor: [50, 50], shield: [20, 50],
    // With another city at S (the expansions'): the lower wall drawn up, a field between them.
    shared: {
      other: 'S',
      path: [['M', 0, 0], ['C', 30, 26, 70, 26, 100, 0], ['L', 100, 100], ['C', 70, 40, 30, 40, 0, 100], ['Z']],
      walls: [[['M', 0, 0], ['C', 30, 26, 70, 26, 100, 0]], [['M', 100, 100], ['C', 70, 40, 30, 40, 0, 100]]],
      anchor: [50, 36], shield: [17, 42],
    },
  },
  {
    ref: ['N', 'E', 'W'],
    path: [['M', 0, 0], ['L', 100, 0], ['L', 100, 100], ['C', 70, 62, 30, 62, 0, 100], ['Z']],
    walls: [[['M', 100, 100], ['C', 70, 62, 30, 62, 0, 100]]],
    anchor: [50, 34], shield: [20, 20],
  },
  {
    ref: ['N', 'E', 'S', 'W'],
    path: [['M', 0, 0], ['L', 100, 0], ['L', 100, 100], ['L', 0, 100], ['Z']],
    walls: [],
    anchor: [50, 50], shield: [24, 24],
  },
];

/** A city's shape; `corners()`: the corners it reaches beyond its edges (`reachedCorners`). */
function cityShape(edges, curves, otherCities, corners) {
  for (const s of CITY_SHAPES) {
    if (s.ref.length !== edges.length) continue;
    let k = turnOf(s.ref, edges);
    if (k < 0) continue;
    // A city that reaches a corner beyond its edges (corners: 0 NE, 1 SE, 2 SW, 3 NW).
    if (s.reach && corners().includes((s.reach.corner + k) % 4)) {
      const shape = { ...s, ...s.reach };
      return {
        reach: true, path: rotPath(shape.path, k), walls: shape.walls.map((w) => rotPath(w, k)),
        anchor: rotPoint(shape.anchor, k), shield: rotPoint(shape.shield, k), shieldTurn: 0,
      };
    }
    // A curve through the two edges opposite this corner city.
    const opposite = edges.map((d) => DIRS[(dirIndex(d) + 2) % 4]).sort().join();
    let shape = s.tight && curves.some((c) => [...c].sort().join() === opposite) ? { ...s, ...s.tight } : s;
    if (s.shared && otherCities.length) {
      // Turned (a half turn, for a city through two opposite edges) so that the other city lies where the shape leaves room.
      const at = (kk) => DIRS[(dirIndex(s.shared.other || 'S') + kk) % 4];
      if (s.shared.other && !otherCities.includes(at(k)) && otherCities.includes(at(k + 2))) k += 2;
      shape = { ...s, ...s.shared };
    }
    return {
      path: rotPath(shape.path, k),
      walls: shape.walls.map((w) => rotPath(w, k)),
      anchor: rotPoint(shape.anchor, k),
      shield: rotPoint(shape.shield, k),
      shieldTurn: 0,
    };
  }
  return null;
}

/**
 * The corners a tile's one city reaches (0 NE, 1 SE, 2 SW, 3 NW): where the
 * two half-edges meeting at a corner belong to different fields, only a
 * city can part them (the expansions' IC07, TB09, TB15, TB23).
 */
function reachedCorners(segs) {
  const fieldOf = (h) => segs.findIndex((s) => s.kind === 'field' && s.halves.includes(HALVES[h]));
  return [0, 1, 2, 3].filter((i) => {
    const a = fieldOf(2 * i + 1), b = fieldOf((2 * i + 2) % 8);
    return a >= 0 && b >= 0 && a !== b;
  });
}

/** A road or river through two edges: straight across, or a curve round the corner. */
function throughPath(edges) {
  const [a, b] = edges.map(dirIndex);
  if ((a + 2) % 4 === b) return [['M', ...EDGE_MID[a]], ['L', ...EDGE_MID[b]]];
  const k = turnOf(['E', 'S'], edges);
  return rotPath([['M', 100, 50], ['C', 80, 50, 50, 80, 50, 100]], k);
}

// A tiny canvas to ask "is this point in that shape?" with the browser's own geometry.
let hitCtx = null;
function hitContext() {
  if (!hitCtx) {
    const c = document.createElement('canvas');
    c.width = c.height = 100;
    hitCtx = c.getContext('2d', { willReadFrequently: true });
  }
  return hitCtx;
}

/** Everything needed to draw one tile and to place followers on it. */
function buildGeometry(def) {
  const segs = def.segments;
  const g = {
    id: def.id, def, cities: [], roads: [], rivers: [], pond: null, cloister: null, garden: null,
    village: null, gates: [], bridges: [], farmhouses: [], anchors: new Array(segs.length).fill(null),
  };
  const ctx = hitContext();

  const curves = segs.filter((s) => s.kind === 'road' && s.edges.length === 2).map((s) => s.edges);
  if (def.river.length === 2) curves.push(def.river);
  segs.forEach((s, i) => {
    if (s.kind !== 'city') return;
    const others = segs.filter((o) => o !== s && o.kind === 'city').flatMap((o) => o.edges);
    const shape = cityShape(s.edges, curves, others, () => (others.length ? [] : reachedCorners(segs)));
    if (!shape) return;
    shape.seg = i;
    shape.d = pathString(shape.path);
    g.cities.push(shape);
    g.anchors[i] = shape.anchor;
  });
  const cityPaths = g.cities.map((c) => new Path2D(pathString(c.path)));
  const inCity = (p) => cityPaths.some((path) => ctx.isPointInPath(path, p[0], p[1]));

  // The river: through two edges, or from one edge to a spring or lake.
  if (def.river.length === 2) g.rivers.push(throughPath(def.river));
  else if (def.river.length === 1) {
    const d = dirIndex(def.river[0]);
    const lake = def.id === 'RV02' || /lake/i.test(def.id);
    g.rivers.push([['M', ...EDGE_MID[d]], ['L', 50, 50]]);
    g.pond = { x: 50, y: 50, r: lake ? 27 : 13, lake };
  }
  const riverPts = g.rivers.flatMap((r) => samplePath(r));
  const nearRiver = (p) => riverPts.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < RIVER_W / 2 + 2);

  const roadSegs = segs.map((s, i) => ({ s, i })).filter(({ s }) => s.kind === 'road');
  const deadEnds = roadSegs.filter(({ s }) => s.edges.length === 1).length;
  // A road from an edge runs to the gate of the city it meets (marching from the edge to the far side).
  const gateOf = (d) => {
    const from = EDGE_MID[d];
    for (let t = 0.02; t <= 1.98; t += 0.01) {
      const p = [from[0] + (50 - from[0]) * t, from[1] + (50 - from[1]) * t];
      if (inCity(p)) return p;
    }
    return null;
  };
  // Roads that end at a village: not where every road ends at a gate (the expansions' IC17), nor by a
  // bridge (TB03: the road from W passes over the other and ends at a farmhouse).
  const allToGates = () => g.cities.length && roadSegs.every(({ s }) => s.edges.length !== 1 || gateOf(dirIndex(s.edges[0])));
  const junction = (deadEnds >= 3 || (deadEnds === 2 && !def.cloister)) && !def.bridge && !allToGates();

  // The cloister stands in the middle, or on the bank away from its road when a river runs through.
  if (def.cloister) {
    let c = { x: 50, y: 50, s: 1 };
    if (def.river.length === 2 && roadSegs.length === 1) {
      const away = (dirIndex(roadSegs[0].s.edges[0]) + 2) % 4;
      const m = EDGE_MID[away];
      c = { x: (50 + m[0]) / 2, y: (50 + m[1]) / 2 + (away === 0 ? 2 : 0), s: 0.72 };
    }
    g.cloister = c;
    const ci = segs.findIndex((s) => s.kind === 'cloister');
    if (ci >= 0) g.anchors[ci] = [c.x + 1, c.y + 6 * c.s];
  }
  if (junction) {
    g.village = { x: 50, y: 50, span: null };
    // Between two caps on opposite edges (the expansions' IC09), it reaches both and parts the fields.
    const caps = segs.filter((s) => s.kind === 'city' && s.edges.length === 1).map((s) => dirIndex(s.edges[0]));
    if (caps.length === 2 && (caps[0] + 2) % 4 === caps[1]) g.village.span = caps[0] % 2 ? 'x' : 'y';
  }

  for (const { s, i } of roadSegs) {
    let path;
    if (s.edges.length === 2) path = throughPath(s.edges);
    else {
      const d = dirIndex(s.edges[0]);
      const from = EDGE_MID[d];
      let end = [50, 50];
      let gate = null;
      if (g.cloister) {
        // Stop at the cloister's door.
        const c = g.cloister;
        const dx = c.x - from[0], dy = c.y - from[1], len = Math.hypot(dx, dy);
        const stop = 13 * c.s;
        end = [c.x - dx / len * stop, c.y - dy / len * stop];
      } else if (!junction && g.cities.length && (gate = gateOf(d))) {
        // Run to the city gate.
        end = gate;
        g.gates.push({ x: gate[0], y: gate[1], dir: d });
      } else if (!junction && g.cities.length === 1 && !def.bridge) {
        // A road from an edge beside the city (the expansions' TB01): it turns to the gate.
        const c = g.cities[0];
        const side = DIRS.findIndex((dd) => def.segments[c.seg].edges.includes(dd) && dd !== DIRS[d] && (dirIndex(dd) + 2) % 4 !== d);
        if (side >= 0) {
          const m = EDGE_MID[side];
          for (let t = 0; t <= 1 && !gate; t += 0.01) {
            const p = [50 + (m[0] - 50) * t, 50 + (m[1] - 50) * t];
            if (inCity(p)) gate = p;
          }
          if (gate) {
            path = [['M', ...from], ['C', (from[0] + 50) / 2, (from[1] + 50) / 2, 50, 50, ...gate]];
            g.gates.push({ x: gate[0], y: gate[1], dir: (side + 2) % 4 });
          }
        }
      } else if (def.bridge) {
        // Past the middle, over the other road, to a farmhouse.
        end = [from[0] + (50 - from[0]) * 1.5, from[1] + (50 - from[1]) * 1.5];
        g.farmhouses.push({ x: end[0], y: end[1] });
      }
      path = path || [['M', ...from], ['L', ...end]];
    }
    const pts = samplePath(path, 48);
    g.roads.push({ seg: i, path, points: pts });
    // The thief stands on the middle of the road (off the junction).
    const mid = s.edges.length === 2 ? pts[Math.floor(pts.length / 2)] : pts[Math.floor(pts.length * 0.42)];
    g.anchors[i] = mid;
    // Bridges where the road crosses the river.
    if (riverPts.length) {
      const wet = pts.map(nearRiver);
      const a = wet.indexOf(true), b = wet.lastIndexOf(true);
      if (a >= 0) g.bridges.push({ from: pts[Math.max(0, a - 2)], to: pts[Math.min(pts.length - 1, b + 2)] });
    }
  }
  // A bridge tile's roads cross without meeting: the later road passes over the earlier ones.
  if (def.bridge) {
    g.roads.forEach((r, i) => {
      const under = g.roads.slice(0, i).flatMap((o) => o.points);
      const over = r.points.map((p) => under.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < ROAD_W / 2 + 3));
      const a = over.indexOf(true), b = over.lastIndexOf(true);
      if (a >= 0) g.bridges.push({ from: r.points[Math.max(0, a - 2)], to: r.points[Math.min(r.points.length - 1, b + 2)] });
      // Its thief stands off the bridge.
      if (a >= 0 && g.anchors[r.seg] && Math.hypot(g.anchors[r.seg][0] - 50, g.anchors[r.seg][1] - 50) < 12) {
        g.anchors[r.seg] = r.points[Math.floor(r.points.length * (r.points.length > 60 ? 0.2 : 0.25))];
      }
    });
  }
  // A road through a tile with a road anchor right on the village or cloister: nudge it.
  for (const { s, i } of roadSegs) {
    if (s.edges.length === 2 && g.anchors[i]) {
      const [x, y] = g.anchors[i];
      if (Math.hypot(x - 50, y - 50) < 4 && (g.village || g.cloister)) g.anchors[i] = [x + 6, y];
    }
  }

  placeMarks(g, inCity, nearRiver);

  // The farmers' spots cost a raster per tile: worked out when the tile's
  // geometry is first asked for (TileSet.geom) or, with a garden (which goes
  // where they say), drawn; so that the page opens quickly.
  g.fieldsPending = cityPaths;
  return g;
}

/**
 * Where the expansions' marks stand (`g.marks`: `{ kind, x, y, seg, good? }`):
 * a cathedral in the middle of its city (its knight in front of it), goods
 * where a city's shield would be, an inn (with its pond) beside its road on
 * the side away from cities, other roads and the tile's edge.
 */
function placeMarks(g, inCity, nearRiver) {
  g.marks = [];
  for (const c of g.cities) {
    const seg = g.def.segments[c.seg];
    if (seg.cathedral) {
      const [ax, ay] = c.anchor;
      g.marks.push({ kind: 'cathedral', x: ax, y: ay - 6, seg: c.seg });
      g.anchors[c.seg] = [ax + 19, ay + 20];
    }
    if (seg.goods) g.marks.push({ kind: 'goods', good: seg.goods, x: c.shield[0], y: c.shield[1], seg: c.seg });
  }
  const others = (r) => g.roads.filter((o) => o !== r).flatMap((o) => o.points);
  for (const r of g.roads) {
    if (!g.def.segments[r.seg].inn) continue;
    const near = others(r);
    const spot = g.anchors[r.seg];
    let best = null;
    for (const f of [0.5, 0.35, 0.65, 0.25, 0.75]) {
      const i = Math.round((r.points.length - 1) * f);
      const p = r.points[i], q = r.points[Math.min(r.points.length - 1, i + 1)], o = r.points[Math.max(0, i - 1)];
      const len = Math.hypot(q[0] - o[0], q[1] - o[1]) || 1;
      const nx = -(q[1] - o[1]) / len, ny = (q[0] - o[0]) / len;
      for (const side of [1, -1]) {
        const c = [p[0] + nx * side * 16, p[1] + ny * side * 16];
        const clear = (pt, d) => near.every((n) => Math.hypot(pt[0] - n[0], pt[1] - n[1]) > d);
        // The house and its pond: clear of cities and the river.
        const foot = [[0, 0], [-12, -11], [12, -11], [-12, 9], [12, 9], [side * nx < 0 ? -17 : 17, 8]].map(([dx, dy]) => [c[0] + dx, c[1] + dy]);
        const ok = c[0] > 13 && c[0] < 87 && c[1] > 13 && c[1] < 87 && !foot.some(inCity) && !foot.some(nearRiver) && clear(c, 16)
          && Math.hypot(c[0] - spot[0], c[1] - spot[1]) > 13
          && !(g.village && Math.hypot(c[0] - 50, c[1] - 50) < 22) && !(g.cloister && Math.hypot(c[0] - g.cloister.x, c[1] - g.cloister.y) < 26);
        // Of the places that are clear, the one farthest from the middle (roomier fields stay whole).
        const score = Math.hypot(c[0] - 50, c[1] - 50);
        if (ok && (!best || score > best.score + 0.5)) best = { x: c[0], y: c[1], score, side: nx * side < 0 ? -1 : 1 };
      }
      if (best) break;
    }
    if (!best) best = { x: spot[0], y: spot[1] - 14, side: 1 };
    g.marks.push({ kind: 'inn', x: best.x, y: best.y, seg: r.seg, pond: best.side });
  }
}

/** A tile's geometry with its fields' spots worked out. */
function fieldsOf(g) {
  for (const _ of fieldsInSteps(g)) { /* all at once */ }
  return g;
}

/**
 * The same a step at a time (a step: the raster, or one field's flood fill or
 * widest spot, a few ms each), for the page to answer in between. A tile's
 * steps left half done are finished by the next `fieldsOf`.
 */
function* fieldsInSteps(g) {
  if (!g.fieldsPending) return;
  g.fieldSteps = g.fieldSteps || fieldAnchors(g, g.fieldsPending);
  while (g.fieldsPending && !g.fieldSteps.next().done) yield;
  g.fieldsPending = null;
  g.fieldSteps = null;
}

/** 1 where a pixel of an RGBA raster is (mostly) opaque. */
function alphaMask(img, n) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = img[i * 4 + 3] > 100 ? 1 : 0;
  return out;
}

/**
 * Fields: rasterise the barriers (cities, roads, the river), flood each field
 * from its half-edges, and stand its farmer where the field is widest. A
 * garden goes to the widest spot of the largest field first. A generator:
 * it pauses after each step (never while the shared canvas is in use).
 */
function* fieldAnchors(g, cityPaths) {
  const ctx = hitContext();
  const N = 100;
  ctx.clearRect(0, 0, N, N);
  ctx.fillStyle = '#000';
  ctx.strokeStyle = '#000';
  ctx.lineCap = 'butt';
  for (const p of cityPaths) ctx.fill(p);
  // The walls of a city reaching a corner, lest the fields on either side meet there through a sliver.
  ctx.lineWidth = 4;
  for (const c of g.cities) if (c.reach) for (const w of c.walls) ctx.stroke(new Path2D(pathString(w)));
  ctx.lineWidth = ROAD_W + 2;
  for (const r of g.roads) ctx.stroke(new Path2D(pathString(r.path)));
  ctx.lineWidth = RIVER_W + 2;
  for (const r of g.rivers) ctx.stroke(new Path2D(pathString(r)));
  if (g.pond) { ctx.beginPath(); ctx.arc(g.pond.x, g.pond.y, g.pond.r + 1, 0, Math.PI * 2); ctx.fill(); }
  if (g.village && g.village.span === 'y') ctx.fillRect(42, 15, 16, 70);
  if (g.village && g.village.span === 'x') ctx.fillRect(15, 42, 70, 16);
  // A cloister at which two or more roads end (the expansions' IC04, TB10) parts the fields between them.
  if (g.cloister && g.roads.length >= 2) ctx.fillRect(g.cloister.x - 15, g.cloister.y - 15, 30, 30);
  const img = ctx.getImageData(0, 0, N, N).data;
  const barrier = alphaMask(img, N * N);
  yield;

  // Obstacles: not separators, but no place for a farmer.
  const obstacle = new Uint8Array(N * N);
  const block = (cx, cy, r) => {
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(N, cy + r); y++)
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(N, cx + r); x++)
        if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) < r) obstacle[y * N + x] = 1;
  };
  if (g.cloister) block(g.cloister.x, g.cloister.y - 2, 20 * g.cloister.s);
  if (g.village) block(50, 50, 15);
  for (const r of g.roads) {
    const a = g.anchors[r.seg];
    if (a) block(a[0], a[1], 9);
  }
  for (const c of g.cities) block(c.shield[0], c.shield[1], 9);
  for (const m of g.marks) if (m.kind === 'inn') block(m.x + m.pond * 4, m.y + 2, 16);
  yield;

  // Flood fill each field from its half-edges.
  const label = new Int16Array(N * N).fill(-1);
  const seedsOf = (h) => {
    const i = HALVES.indexOf(h), pts = [];
    const lo = i % 2 === 0 ? 3 : 53, hi = i % 2 === 0 ? 47 : 97;
    for (let t = lo; t <= hi; t++) {
      // Half-edges run clockwise: Nw Ne (top, west to east), En Es (right, north to south),
      // Se Sw (bottom, east to west), Ws Wn (left, south to north).
      if (i < 2) pts.push([t, 0]);
      else if (i < 4) pts.push([N - 1, t]);
      else if (i < 6) pts.push([N - 1 - t, N - 1]);
      else pts.push([0, N - 1 - t]);
    }
    return pts;
  };
  // (The loops are in plain functions, not in the generator: V8 optimises those mid-loop. Each does
  // a share of the work, the generator pausing in between: a step is about a millisecond.)
  const seeds = (si, s) => {
    const stack = [];
    // A field enclosed by cities (the expansions'): what is left once the others are filled.
    if (!s.halves.length) {
      for (let k = 0; k < N * N; k++) if (!barrier[k] && label[k] < 0) { label[k] = si; stack.push(k); }
    }
    for (const h of s.halves) for (const [x, y] of seedsOf(h)) {
      const k = y * N + x;
      if (!barrier[k] && label[k] < 0) { label[k] = si; stack.push(k); }
    }
    return stack;
  };
  // Grows field `si` from `stack` by up to `n` pixels; whether it has more to grow.
  const spread = (si, stack, n) => {
    const reach = (nk) => {
      if (!barrier[nk] && label[nk] < 0) { label[nk] = si; stack.push(nk); }
    };
    for (let i = 0; i < n && stack.length; i++) {
      const k = stack.pop(), x = k % N, y = (k / N) | 0;
      if (x + 1 < N) reach(k + 1);
      if (x > 0) reach(k - 1);
      if (y + 1 < N) reach(k + N);
      if (y > 0) reach(k - N);
    }
    return stack.length > 0;
  };
  const fields = [];
  const enclosedLast = [...g.def.segments.entries()].sort(([, a], [, b]) => !a.halves.length - !b.halves.length);
  for (const [si, s] of enclosedLast) {
    if (s.kind !== 'field') continue;
    fields.push(si);
    const stack = seeds(si, s);
    while (spread(si, stack, 2500)) yield;
    yield;
  }

  // Chamfer distance to anything that is not this field (the tile border included).
  const ROWS = 25; // rows of a pass a step
  const start = (si) => {
    const d = new Float32Array(N * N);
    for (let k = 0; k < N * N; k++) d[k] = label[k] === si && !obstacle[k] ? 1e6 : 0;
    return d;
  };
  // The forward pass over rows `from` to `to` (excluded), top to bottom.
  const forward = (d, from, to) => {
    // (Neighbours off the tile count as 0; the loops are written out, as they run at boot.)
    for (let y = from; y < to; y++) for (let x = 0; x < N; x++) {
      const k = y * N + x;
      if (!d[k]) continue;
      const up = y > 0;
      d[k] = Math.min(d[k], (x > 0 ? d[k - 1] : 0) + 1, (up ? d[k - N] : 0) + 1,
        (up && x > 0 ? d[k - N - 1] : 0) + 1.414, (up && x + 1 < N ? d[k - N + 1] : 0) + 1.414);
    }
  };
  // The backward pass over rows `from` down to `to` (excluded), bottom to top.
  const backward = (d, from, to) => {
    for (let y = from; y > to; y--) for (let x = N - 1; x >= 0; x--) {
      const k = y * N + x;
      if (!d[k]) continue;
      const down = y + 1 < N;
      d[k] = Math.min(d[k], (x + 1 < N ? d[k + 1] : 0) + 1, (down ? d[k + N] : 0) + 1,
        (down && x + 1 < N ? d[k + N + 1] : 0) + 1.414, (down && x > 0 ? d[k + N - 1] : 0) + 1.414);
    }
  };
  const spotOf = (si, d) => {
    let best = 0, area = 0, sx = 0, sy = 0;
    for (let k = 0; k < N * N; k++) {
      if (label[k] !== si) continue;
      area++; sx += k % N; sy += (k / N) | 0;
      if (d[k] > best) best = d[k];
    }
    if (!area || best <= 0) return { point: null, width: 0, area };
    // Among the widest spots, the one nearest the field's middle.
    const cx = sx / area, cy = sy / area;
    let bk = -1, bd = Infinity;
    for (let k = 0; k < N * N; k++) {
      if (label[k] !== si || d[k] < best * 0.8) continue;
      const dist = Math.hypot((k % N) - cx, ((k / N) | 0) - cy);
      if (dist < bd) { bd = dist; bk = k; }
    }
    return { point: [(bk % N) + 0.5, ((bk / N) | 0) + 0.5], width: best, area };
  };
  // A field's widest spot, a share of a pass at a time.
  function* widest(si) {
    const d = start(si);
    yield;
    for (let y = 0; y < N; y += ROWS) {
      forward(d, y, Math.min(N, y + ROWS));
      yield;
    }
    for (let y = N - 1; y >= 0; y -= ROWS) {
      backward(d, y, Math.max(-1, y - ROWS));
      yield;
    }
    return spotOf(si, d);
  }

  if (g.def.garden && fields.length) {
    const area = new Map(fields.map((si) => [si, 0]));
    ((count) => { for (let k = 0; k < N * N; k++) if (count.has(label[k])) count.set(label[k], count.get(label[k]) + 1); })(area);
    const largest = fields.map((si) => ({ si, area: area.get(si) })).sort((a, b) => b.area - a.area)[0];
    const p = (yield* widest(largest.si)).point || [30, 70];
    g.garden = { x: p[0], y: p[1] };
    block(p[0], p[1], 14);
    const gi = g.def.segments.findIndex((s) => s.kind === 'garden');
    if (gi >= 0) g.anchors[gi] = [p[0], p[1] + 2];
    yield;
  }
  for (const si of fields) {
    const w = yield* widest(si);
    g.anchors[si] = w.point || [50, 50];
    yield;
  }
}

// ---------------------------------------------------------------------------
// Drawing

const COLORS = {
  grass: '#8dbb57', grassDark: '#7aa948', grassLight: '#a2cb6a',
  city: '#dab27a', cityDark: '#b98d55', roof: '#b4553a', wall: '#6b4526', wallLight: '#cdb084',
  road: '#efe3c1', roadEdge: '#8f7b57',
  water: '#4f9fdc', waterDark: '#2d6aa3', waterLight: '#a8d6f4',
};

/** The patterns and filters tile drawings refer to; put once in the page. */
export function sharedDefs() {
  return `
  <pattern id="pat-grass" width="24" height="24" patternUnits="userSpaceOnUse">
    <rect width="24" height="24" fill="${COLORS.grass}"/>
    <path d="M3 6l1.2-3M6 7l-.6-3.4M15 17l1-3M18 18l-.5-3.2M11 11l.8-2.6M21 4l-.9-2.4M2 20l1-2.6" stroke="${COLORS.grassDark}" stroke-width="0.9" stroke-linecap="round" fill="none"/>
    <path d="M9 3l.6-2M20 12l.8-2.4M6 15l-.7-2.2" stroke="${COLORS.grassLight}" stroke-width="0.8" stroke-linecap="round" fill="none"/>
  </pattern>
  <pattern id="pat-city" width="40" height="40" patternUnits="userSpaceOnUse">
    <rect width="40" height="40" fill="${COLORS.city}"/>
    <g opacity="0.5"><rect x="3" y="4" width="11" height="3.5" fill="#b65a3e"/><rect x="3" y="7.5" width="11" height="3.5" fill="#9c4731"/><rect x="20" y="2" width="4.0" height="11" fill="#b65a3e"/><rect x="24.0" y="2" width="4.0" height="11" fill="#9c4731"/><rect x="31" y="8" width="7" height="3.0" fill="#b65a3e"/><rect x="31" y="11.0" width="7" height="3.0" fill="#9c4731"/><rect x="6" y="17" width="3.5" height="9" fill="#b65a3e"/><rect x="9.5" y="17" width="3.5" height="9" fill="#9c4731"/><rect x="17" y="21" width="12" height="3.5" fill="#b65a3e"/><rect x="17" y="24.5" width="12" height="3.5" fill="#9c4731"/><rect x="32" y="20" width="3.0" height="10" fill="#b65a3e"/><rect x="35.0" y="20" width="3.0" height="10" fill="#9c4731"/><rect x="2" y="31" width="9" height="3.0" fill="#b65a3e"/><rect x="2" y="34.0" width="9" height="3.0" fill="#9c4731"/><rect x="15" y="33" width="8" height="3.0" fill="#b65a3e"/><rect x="15" y="36.0" width="8" height="3.0" fill="#9c4731"/><rect x="27" y="32" width="11" height="3.0" fill="#b65a3e"/><rect x="27" y="35.0" width="11" height="3.0" fill="#9c4731"/></g>
  </pattern>
  <pattern id="pat-water" width="20" height="10" patternUnits="userSpaceOnUse">
    <rect width="20" height="10" fill="${COLORS.water}"/>
    <path d="M1 4q3-2 6 0M11 8q3-2 6 0" stroke="${COLORS.waterLight}" stroke-width="0.9" fill="none" opacity="0.8"/>
  </pattern>
  <radialGradient id="grad-garden" cx="0.5" cy="0.45" r="0.6">
    <stop offset="0" stop-color="#5fa246"/><stop offset="1" stop-color="#3f7d31"/>
  </radialGradient>
  <filter id="f-shadow" x="-30%" y="-30%" width="160%" height="160%">
    <feDropShadow dx="0" dy="1.2" stdDeviation="1.1" flood-color="#000" flood-opacity="0.45"/>
  </filter>`;
}

function shieldSvg(x, y, k) {
  // A small blue and white coat of arms, upright relative to its city.
  return `<g transform="translate(${x} ${y}) rotate(${k * 90})">
    <path d="M-7 -8h14v6c0 5.5-3.5 9-7 10.5C-3.5 7-7 3.5-7 -2z" fill="#1f4fa3" stroke="#f3efe2" stroke-width="1.6"/>
    <path d="M0 -7.5v15M-6.2 -1.5h12.4" stroke="#f3efe2" stroke-width="2.2"/>
  </g>`;
}

function cloisterSvg(c) {
  return `<g transform="translate(${c.x} ${c.y}) scale(${c.s})">
    <rect x="-22" y="-20" width="44" height="40" rx="7" fill="#a4cf6f" opacity="0.55"/>
    <rect x="-14" y="-5" width="28" height="19" fill="#efe6d2" stroke="#6b5a45" stroke-width="1.2"/>
    <path d="M-17 -4L0 -16L17 -4z" fill="#b4472f" stroke="#6d2a1c" stroke-width="1.1" stroke-linejoin="round"/>
    <rect x="-5" y="-27" width="10" height="14" fill="#efe6d2" stroke="#6b5a45" stroke-width="1.1"/>
    <path d="M-6.5 -26L0 -32L6.5 -26z" fill="#b4472f" stroke="#6d2a1c" stroke-width="1"/>
    <path d="M0 -38v6M-2.4 -35.6h4.8" stroke="#4a3a2a" stroke-width="1.3" stroke-linecap="round"/>
    <path d="M-3.5 14v-6a3.5 3.5 0 0 1 7 0v6z" fill="#5a4330"/>
    <circle cx="-8.5" cy="3" r="1.8" fill="#5a4330"/><circle cx="8.5" cy="3" r="1.8" fill="#5a4330"/>
  </g>`;
}

function villageSvg(v) {
  const house = (x, y, r, s = 1) => `<g transform="translate(${x} ${y}) rotate(${r}) scale(${s})">
      <rect x="-5" y="-3" width="10" height="8" fill="#f6f1e6" stroke="#6b5a45" stroke-width="0.8"/>
      <path d="M-6.5 -2.5L0 -8L6.5 -2.5z" fill="#c0533a" stroke="#6d2a1c" stroke-width="0.7" stroke-linejoin="round"/>
    </g>`;
  // A village reaching two caps: more houses towards each.
  const more = v.span ? [[1, -17, 4, 0.95], [-1.5, 19, -5, 0.9], [3, 28, 3, 0.85], [-2, -27, -3, 0.85]]
    .map(([a, b, r, sc]) => (v.span === 'y' ? house(a, b, r, sc) : `<g transform="rotate(90)">${house(a, b, r, sc)}</g>`)).join('') : '';
  return `<g transform="translate(${v.x} ${v.y})">
    <circle r="9" fill="${COLORS.road}"/>
    ${more}${house(-5, -3, -6, 1.05)}${house(5.5, -1, 8, 0.95)}${house(-1, 7, 0, 0.9)}
  </g>`;
}

function gardenSvg(p) {
  const dots = [[-5, -4, '#f4d03f'], [4, -5, '#f7f7f7'], [6, 3, '#e86a92'], [-3, 5, '#f7f7f7'], [0, 0, '#e86a92'], [-7, 2, '#f4d03f']];
  return `<g transform="translate(${p.x} ${p.y})">
    <rect x="-11" y="-10" width="22" height="20" rx="5" fill="url(#grad-garden)" stroke="#2f5f25" stroke-width="1.4"/>
    <path d="M-11 0h22M0 -10v20" stroke="#d9cfa8" stroke-width="1.6" opacity="0.9"/>
    ${dots.map(([x, y, c]) => `<circle cx="${x}" cy="${y}" r="1.5" fill="${c}"/>`).join('')}
  </g>`;
}

// The expansions' marks, told apart by shape as well as colour: an inn (a
// house with a pitched roof and a hanging sign, a pond beside it), a
// cathedral (a nave between two spired towers), goods on a pale disc (wine:
// a barrel; wheat: a sheaf; cloth: a bolt unrolling).
function innSvg(m) {
  return `<g class="mark-inn" transform="translate(${m.x.toFixed(1)} ${m.y.toFixed(1)})">
    <ellipse cx="${m.pond * 10}" cy="8" rx="7.5" ry="4.6" fill="${COLORS.waterDark}"/>
    <ellipse cx="${m.pond * 10}" cy="8" rx="6.2" ry="3.5" fill="${COLORS.water}"/>
    <path d="M${m.pond * 10 - 3} 7.5q2-1.4 4 0" stroke="${COLORS.waterLight}" stroke-width="0.9" fill="none"/>
    <rect x="-7" y="-3" width="14" height="10" fill="#f6f1e6" stroke="#4a3626" stroke-width="1"/>
    <path d="M-9.5 -2L0 -11L9.5 -2z" fill="#8a3a22" stroke="#4a2414" stroke-width="1" stroke-linejoin="round"/>
    <rect x="-2" y="1.5" width="4" height="5.5" fill="#5a4330"/>
    <rect x="3.2" y="0" width="2.6" height="2.6" fill="#f4d03f" stroke="#4a3626" stroke-width="0.5"/>
    <path d="M-7 0h-3.5v2.5" stroke="#4a3626" stroke-width="0.8" fill="none"/>
    <rect x="-12.2" y="2.5" width="3.6" height="3" fill="#f4d03f" stroke="#4a3626" stroke-width="0.6"/>
  </g>`;
}

function cathedralSvg(m) {
  return `<g class="mark-cathedral" transform="translate(${m.x.toFixed(1)} ${m.y.toFixed(1)})">
    <ellipse cx="0" cy="13" rx="20" ry="4" fill="#000" opacity="0.18"/>
    <rect x="-3" y="-4" width="19" height="16" fill="#ece6d8" stroke="#3d3a45" stroke-width="1.1"/>
    <path d="M-4 -3.5L6.5 -10L17 -3.5z" fill="#4d5d7a" stroke="#2a3344" stroke-width="1" stroke-linejoin="round"/>
    <rect x="-15" y="-8" width="7" height="20" fill="#ece6d8" stroke="#3d3a45" stroke-width="1.1"/>
    <rect x="-8" y="-8" width="7" height="20" fill="#ece6d8" stroke="#3d3a45" stroke-width="1.1"/>
    <path d="M-16 -8L-11.5 -21L-7 -8zM-9 -8L-4.5 -21L0 -8z" fill="#4d5d7a" stroke="#2a3344" stroke-width="1" stroke-linejoin="round"/>
    <circle cx="-8" cy="0" r="2.6" fill="#3d6fb6" stroke="#3d3a45" stroke-width="0.8"/>
    <path d="M-10 12v-5a2 2 0 0 1 4 0v5z" fill="#4a3626"/>
    <path d="M2 3v4M7 3v4M12 3v4" stroke="#3d3a45" stroke-width="1.6" stroke-linecap="round"/>
    <path d="M-11.5 -25v4M-13 -23.5h3M-4.5 -25v4M-6 -23.5h3" stroke="#3d3a45" stroke-width="0.9" stroke-linecap="round"/>
  </g>`;
}

const GOODS_SVG = {
  wine: `<path d="M-5 -6.5h10c1.8 3.6 1.8 9.4 0 13h-10c-1.8-3.6-1.8-9.4 0-13z" fill="#7b2352" stroke="#3a0f26" stroke-width="1"/>
    <path d="M-5.8 -3h11.6M-5.8 3h11.6" stroke="#2b1a12" stroke-width="1.4"/>
    <ellipse cx="0" cy="0" rx="1.3" ry="1.3" fill="#d9a0bd"/>`,
  wheat: `<path d="M0 8V-7M0 8L-5 -3M0 8L5 -3" stroke="#7a5a12" stroke-width="1.1" stroke-linecap="round" fill="none"/>
    ${[[0, -6], [0, -2.5], [-4.6, -2.8], [-3.4, 0.4], [4.6, -2.8], [3.4, 0.4]].map(([x, y]) => `<ellipse cx="${x}" cy="${y}" rx="1.5" ry="2.4" fill="#f2c230" stroke="#7a5a12" stroke-width="0.6"/>`).join('')}
    <path d="M-2.6 4.5h5.2" stroke="#7a5a12" stroke-width="1.6"/>`,
  cloth: `<path d="M-3 -2h9.5v9h-9.5z" fill="#2f5fb0" stroke="#142a52" stroke-width="0.9"/>
    <rect x="-7" y="-7" width="9" height="13" rx="3" fill="#4a7fd4" stroke="#142a52" stroke-width="1"/>
    <path d="M-7 -2.5h9M-7 1.5h9" stroke="#b9d1f5" stroke-width="0.9"/>`,
};

/** A goods token's symbol on its disc, standalone (panels: a player's goods, the results). */
export function goodsIcon(good, size = 16) {
  return `<svg class="goods-icon goods-${good}" viewBox="-11 -11 22 22" width="${size}" height="${size}" aria-hidden="true">
    <circle r="10" fill="#f7f0dc" stroke="#4a3626" stroke-width="1.4"/>${GOODS_SVG[good] || ''}</svg>`;
}

function goodsSvg(m) {
  return `<g class="mark-goods goods-${m.good}" transform="translate(${m.x.toFixed(1)} ${m.y.toFixed(1)}) scale(1.15)">
    <circle r="10" fill="#f7f0dc" stroke="#4a3626" stroke-width="1.4"/>${GOODS_SVG[m.good] || ''}</g>`;
}

const MARK_SVG = { inn: innSvg, cathedral: cathedralSvg, goods: goodsSvg };

/** The SVG body of a tile, canonical orientation, in a 100 × 100 box. */
export function tileBody(g) {
  const out = [];
  out.push(`<rect width="100" height="100" fill="url(#pat-grass)"/>`);
  // River.
  for (const r of g.rivers) {
    const d = pathString(r);
    out.push(`<path d="${d}" stroke="${COLORS.waterDark}" stroke-width="${RIVER_W + 3}" fill="none"/>`);
    out.push(`<path d="${d}" stroke="url(#pat-water)" stroke-width="${RIVER_W}" fill="none"/>`);
  }
  if (g.pond) {
    const { x, y, r, lake } = g.pond;
    out.push(`<ellipse cx="${x}" cy="${y}" rx="${r + 1.5}" ry="${(r + 1.5) * (lake ? 0.82 : 1)}" fill="${COLORS.waterDark}"/>`);
    out.push(`<ellipse cx="${x}" cy="${y}" rx="${r}" ry="${r * (lake ? 0.82 : 1)}" fill="url(#pat-water)"/>`);
    if (!lake) out.push(`<circle cx="${x}" cy="${y}" r="3.5" fill="${COLORS.waterLight}" opacity="0.85"/>`);
    else out.push(`<path d="M${x - 14} ${y + 8}q5-4 10 0M${x + 2} ${y - 6}q5-4 10 0" stroke="#dff1fb" stroke-width="1.2" fill="none"/>`);
  }
  // Cities.
  for (const c of g.cities) {
    const d = pathString(c.path);
    out.push(`<path d="${d}" fill="url(#pat-city)"/>`);
    for (const w of c.walls) {
      const wd = pathString(w);
      out.push(`<path d="${wd}" stroke="${COLORS.wall}" stroke-width="6" fill="none" stroke-linecap="round"/>`);
      out.push(`<path d="${wd}" stroke="${COLORS.wallLight}" stroke-width="2.2" fill="none" stroke-linecap="round"/>`);
    }
  }
  // Roads.
  for (const r of g.roads) {
    const d = pathString(r.path);
    out.push(`<path d="${d}" stroke="${COLORS.roadEdge}" stroke-width="${ROAD_W + 2.4}" fill="none"/>`);
    out.push(`<path d="${d}" stroke="${COLORS.road}" stroke-width="${ROAD_W}" fill="none"/>`);
  }
  for (const b of g.bridges) {
    const d = `M${b.from[0].toFixed(1)} ${b.from[1].toFixed(1)}L${b.to[0].toFixed(1)} ${b.to[1].toFixed(1)}`;
    out.push(`<path d="${d}" stroke="#5b4330" stroke-width="${ROAD_W + 6}" fill="none"/>`);
    out.push(`<path d="${d}" stroke="#a77c4f" stroke-width="${ROAD_W + 2}" fill="none"/>`);
    out.push(`<path d="${d}" stroke="#c89a66" stroke-width="${ROAD_W - 3}" stroke-dasharray="1.2 2" fill="none"/>`);
  }
  for (const gate of g.gates) {
    out.push(`<g transform="translate(${gate.x.toFixed(1)} ${gate.y.toFixed(1)}) rotate(${gate.dir * 90 + 180})">
      <path d="M-7 -1h14v4h-14z" fill="${COLORS.wall}"/><path d="M-4 3v-4a4 4 0 0 1 8 0v4z" fill="#3b2a1a"/></g>`);
  }
  if (g.village) out.push(villageSvg(g.village));
  for (const f of g.farmhouses) out.push(`<g transform="translate(${f.x.toFixed(1)} ${f.y.toFixed(1)})">
      <rect x="-6" y="-4" width="12" height="9" fill="#f6f1e6" stroke="#6b5a45" stroke-width="0.8"/>
      <path d="M-7.5 -3.5L0 -10L7.5 -3.5z" fill="#c0533a" stroke="#6d2a1c" stroke-width="0.7" stroke-linejoin="round"/></g>`);
  if (g.cloister) out.push(cloisterSvg(g.cloister));
  if (g.garden) out.push(gardenSvg(g.garden));
  for (const m of g.marks) out.push(MARK_SVG[m.kind](m));
  for (const c of g.cities) if (g.def.shield && c === g.cities[0]) out.push(shieldSvg(...c.shield, c.shieldTurn));
  out.push(`<rect x="0.25" y="0.25" width="99.5" height="99.5" fill="none" stroke="rgba(40,30,10,0.28)" stroke-width="0.5"/>`);
  return out.join('');
}

/** Course names (CMSC 22001, e.g. CRFR50 for D) of the base tiles, from the tile data. */
const courseNames = new Map();

/** A tile's letter and, for a base tile, its course name: "D (CRFR50)". */
const tileDefs = new Map(); // id -> the server's definition

/** A tile in words: "a tile with a city (with a shield) and a road". */
export function tileWords(id) {
  const def = tileDefs.get(id);
  if (!def) return t('tile-words-unknown', { id });
  const kinds = new Set(def.segments.map((seg) => seg.kind));
  const parts = [];
  if (def.cloister) parts.push(t('tile-part-cloister'));
  if (def.garden) parts.push(t('tile-part-garden'));
  if (kinds.has('city')) {
    const n = def.segments.filter((seg) => seg.kind === 'city').length;
    parts.push(t('tile-part-city', { n, shield: def.shield ? 'yes' : 'no' }));
  }
  if (def.segments.some((seg) => seg.cathedral)) parts.push(t('tile-part-cathedral'));
  for (const seg of def.segments) if (seg.goods) parts.push(t('tile-part-goods', { goods: seg.goods }));
  if (def.river && def.river.length) parts.push(t('tile-part-river'));
  if (kinds.has('road')) {
    const n = def.segments.filter((seg) => seg.kind === 'road').length;
    parts.push(t('tile-part-road', { n }));
  }
  if (def.segments.some((seg) => seg.inn)) parts.push(t('tile-part-inn'));
  if (!parts.length) return t('tile-words-fields');
  return t('tile-words', { list: listWords(parts) });
}

/** A cell in words, from the start tile: "the start", "east of the start", "2 north and 1 west of the start". */
/** Who stands on each kind of feature. */
export const ROLE_OF_KIND = { city: 'knight', road: 'thief', field: 'farmer', cloister: 'monk', garden: 'abbot' };

export function placeWords(x, y) {
  if (x === 0 && y === 0) return t('place-start');
  if (Math.abs(x) + Math.abs(y) === 1) return t('place-next', { dir: x > 0 ? 'east' : x < 0 ? 'west' : y > 0 ? 'south' : 'north' });
  const parts = [];
  if (y) parts.push(t('place-steps', { n: Math.abs(y), dir: y < 0 ? 'north' : 'south' }));
  if (x) parts.push(t('place-steps', { n: Math.abs(x), dir: x > 0 ? 'east' : 'west' }));
  return t('place-far', { parts: listWords(parts) });
}

export function tileLabel(id) {
  const course = courseNames.get(id);
  return course ? `${id} (${course})` : id;
}

/** The tile set: geometry per id, symbols for the page, spot lookups. */
export class TileSet {
  constructor(data) {
    this.data = data;
    this.byId = new Map(); // id -> its geometry, worked out when first needed (shape)
    for (const def of data.tiles) {
      this.byId.set(def.id, null);
      if (def.course) courseNames.set(def.id, def.course);
      tileDefs.set(def.id, def);
    }
    this.standardCounts = data.standard_counts;
    this.asked = new Set(); // the expansions' tiles drawn or being drawn (`need`)
  }

  ids() { return [...this.byId.keys()]; }
  has(id) { return this.byId.has(id); }
  geom(id) {
    const g = this.shape(id);
    return g && fieldsOf(g);
  }

  /** A tile's geometry, perhaps without its fields' spots yet (undefined for an unknown id). */
  shape(id) {
    if (!this.byId.has(id)) return undefined;
    let g = this.byId.get(id);
    if (!g) {
      g = buildGeometry(tileDefs.get(id));
      this.byId.set(id, g);
    }
    return g;
  }

  /** `<defs>` content: shared patterns and one `<g id="tile-ID">` per tile. */
  defs() {
    let s = sharedDefs();
    for (const id of this.byId.keys()) s += this.def(id);
    return s;
  }

  /**
   * The same into `el` (the page's `<defs>`), in short tasks, the page
   * answering in between. First every tile without a garden (a few ms of
   * work a task, then what it drew is parsed), put in at once (each change
   * of the page's `<defs>` restyles them all); then the tiles with a garden
   * (The Abbot's), whose pictures wait on their fields' raster, flood fills
   * and the largest field's widest spot (the heaviest work here: some ms a
   * step while the JIT warms), one step a task at background priority, put
   * in at the end.
   */
  async defsInSlices(el) {
    // An expansion's tiles wait until a game or a replay plays it (`need`).
    const ids = [...this.byId.keys()].filter((id) => !tileDefs.get(id).expansion);
    const garden = (id) => !!tileDefs.get(id).garden;
    await this.defsInto(el, sharedDefs(), ids.filter((id) => !garden(id)), 3, nextTask);
    await this.defsInto(el, '', ids.filter(garden), 0, backgroundTask);
  }

  /**
   * Draws into the page's `<defs>` the tiles of the expansions named (the
   * rule options' names a state or replay lists in `expansions`) not drawn
   * or asked for yet, in short tasks as at boot; resolves once they are in.
   */
  async need(expansions) {
    const names = new Set(expansions || []);
    const ids = [...this.byId.keys()].filter((id) => names.has(tileDefs.get(id).expansion) && !this.asked.has(id));
    if (!ids.length) return;
    for (const id of ids) this.asked.add(id);
    await this.defsInto(document.getElementById('tile-defs'), '', ids, 3, nextTask);
  }

  /** Adds to `el` the drawings `head` and those of tiles `ids`, in tasks of `sliceMs` of work, `next` between them. */
  async defsInto(el, head, ids, sliceMs, next) {
    const out = document.createElementNS(el.namespaceURI, 'defs'); // off the page: parsed, not styled
    let batch = ''; // drawings made and not parsed yet
    let since = -Infinity;
    const pause = async () => {
      if (performance.now() - since < sliceMs) return;
      if (batch) out.insertAdjacentHTML('beforeend', batch);
      batch = '';
      await next();
      since = performance.now();
    };
    await pause(); // (the first task is not the caller's)
    batch = head;
    for (const id of ids) {
      const g = this.shape(id);
      await pause();
      if (g.def.garden) {
        // The picture needs the garden's place only: the fields' own spots are finished when first asked for (geom).
        for (const _ of fieldsInSteps(g)) {
          if (g.garden) break;
          await pause();
        }
      }
      batch += this.def(id);
      await pause();
    }
    if (batch) out.insertAdjacentHTML('beforeend', batch);
    el.append(...out.childNodes);
  }

  def(id) {
    const g = this.shape(id);
    return `<g id="tile-${id}">${tileBody(g.def.garden ? fieldsOf(g) : g)}</g>`;
  }

  /** The segment a board spot names on a tile at rotation `rot` (canonical index), or -1. */
  segmentAt(id, rot, spot) {
    const g = this.shape(id);
    if (!g) return -1;
    const segs = g.def.segments;
    const di = DIRS.indexOf(spot);
    if (di >= 0) {
      const d = DIRS[(di - rot + 8) % 4];
      return segs.findIndex((s) => (s.kind === 'city' || s.kind === 'road') && s.edges.includes(d));
    }
    const hi = HALVES.indexOf(spot);
    if (hi >= 0) {
      const h = HALVES[(hi - 2 * rot + 16) % 8];
      return segs.findIndex((s) => s.kind === 'field' && s.halves.includes(h));
    }
    if (spot === 'I') return segs.findIndex((s) => s.kind === 'field' && !s.halves.length);
    if (spot === 'C') return segs.findIndex((s) => s.kind === 'cloister');
    if (spot === 'G') return segs.findIndex((s) => s.kind === 'garden');
    return -1;
  }

  /** Where a follower on `spot` stands, in board units within the tile (0–100). */
  spotPoint(id, rot, spot) {
    const g = this.geom(id);
    const si = this.segmentAt(id, rot, spot);
    if (!g || si < 0 || !g.anchors[si]) return [50, 50];
    return rotPoint(g.anchors[si], rot);
  }

  /** The kind of segment a spot names ('city', 'road', 'field', 'cloister', 'garden'). */
  spotKind(id, rot, spot) {
    const g = this.shape(id);
    const si = this.segmentAt(id, rot, spot);
    return si < 0 ? null : g.def.segments[si].kind;
  }

  /**
   * A follower spot in a player's words, by where it lies on the tile as
   * turned: "knight in the north city", "farmer on the south-west field",
   * "monk in the cloister" (`abbot`: the abbot on its cloister or garden).
   */
  spotLabel(id, rot, spot, abbot = false, figure = null) {
    const kind = this.spotKind(id, rot, spot);
    // `figure`: another figure than the spot's follower: 'big' (the follower's word, big), 'builder', 'pig'.
    const follower = t(`role-${abbot ? 'abbot' : ROLE_OF_KIND[kind] || 'follower'}`);
    const role = figure === 'big' ? t('role-big', { role: follower }) : figure ? t(`role-${figure}`) : follower;
    if (kind === 'cloister' || kind === 'garden') return t(`spot-${kind}`, { role });
    const [x, y] = this.spotPoint(id, rot, spot);
    const dx = x - 50, dy = y - 50;
    let where = '';
    if (Math.hypot(dx, dy) >= 12) {
      const ns = dy < -Math.abs(dx) * 0.41 ? 'north' : dy > Math.abs(dx) * 0.41 ? 'south' : '';
      const ew = dx > Math.abs(dy) * 0.41 ? 'east' : dx < -Math.abs(dy) * 0.41 ? 'west' : '';
      where = [ns, ew].filter(Boolean).join('-');
    }
    const at = ['city', 'road', 'field'].includes(kind) ? kind : 'tile';
    return t(`spot-${at}`, { role, where: where ? t(`dir-${where}`) : 'none' });
  }

  /** Canonical edge kinds after rotation, N E S W. */
  edgesAt(id, rot) {
    const e = this.shape(id).def.edges;
    return DIRS.map((_, i) => e[(i - rot + 8) % 4]);
  }
}

/** A standalone SVG of one tile (for panels and tables). */
export function tileSvg(id, rot = 0, size = 64, extraClass = '') {
  return `<svg class="tile-pic ${extraClass}" viewBox="0 0 100 100" width="${size}" height="${size}" role="img" aria-label="${tileWords(id)}">
    <use href="#tile-${id}" transform="rotate(${rot * 90} 50 50)"/></svg>`;
}
