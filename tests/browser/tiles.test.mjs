// Every tile drawn from the engine's data, with its follower spots: each
// spot lies inside the tile, on its own kind of ground, apart from the
// others. Leaves a gallery screenshot of all tiles to look at.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { launch, BASE, SHOTS } from './lib.mjs';

test('every tile is drawn and its follower spots are legible', async () => {
  const { context, close } = await launch({ viewport: { width: 1500, height: 1000 } });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/`);
    await page.waitForFunction(() => window.carcassonne && window.carcassonne.tiles);
    const { problems, count } = await page.evaluate(() => {
      const tiles = window.carcassonne.tiles;
      const out = [];
      const ctx = document.createElement('canvas').getContext('2d');
      const inCity = (p) => (c) => ctx.isPointInPath(new Path2D(c.d), p[0], p[1]);
      const onRoad = (p) => (r) => r.points.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < 5);
      for (const id of tiles.ids()) {
        const g = tiles.geom(id);
        g.anchors.forEach((a, i) => {
          const kind = g.def.segments[i].kind;
          if (!a) { out.push(`${id}: the ${kind} (segment ${i}) has no spot`); return; }
          if (a[0] < 4 || a[0] > 96 || a[1] < 4 || a[1] > 96) out.push(`${id}: the ${kind} spot ${a} is at the edge`);
          if (kind === 'field' && g.cities.some(inCity(a))) out.push(`${id}: a field spot lies in a city`);
          if (kind === 'field' && g.roads.some(onRoad(a))) out.push(`${id}: a field spot lies on a road`);
          if (kind === 'city' && !g.cities.some((c) => c.seg === i && inCity(a)(c))) out.push(`${id}: a city spot lies outside its city`);
          if (kind === 'road' && !g.roads.some((r) => r.seg === i && onRoad(a)(r))) out.push(`${id}: a road spot lies off its road`);
        });
        for (let x = 0; x < g.anchors.length; x++) for (let y = x + 1; y < g.anchors.length; y++) {
          const p = g.anchors[x], q = g.anchors[y];
          if (p && q && Math.hypot(p[0] - q[0], p[1] - q[1]) < 12) out.push(`${id}: the spots of segments ${x} and ${y} overlap`);
        }
      }
      return { problems: out, count: tiles.ids().length };
    });
    assert.ok(count >= 24, 'the base tiles at least');
    assert.deepEqual(problems, []);
    // The CMSC 22001 course names come with the tile data, for the 24 base tiles.
    const courses = await page.evaluate(() => {
      const tiles = window.carcassonne.tiles;
      return Object.fromEntries(tiles.ids().filter((id) => tiles.geom(id).def.course).map((id) => [id, tiles.geom(id).def.course]));
    });
    assert.equal(Object.keys(courses).length, 24);
    assert.equal(courses.D, 'CRFR50');
    assert.equal(courses.A, 'FFRFL50');

    // The gallery: every tile large, its spots marked by kind.
    await page.evaluate(() => {
      const tiles = window.carcassonne.tiles;
      const colors = { city: '#b3261e', road: '#333', field: '#1b5e20', cloister: '#6a1b9a', garden: '#0d47a1' };
      const cells = tiles.ids().map((id) => {
        const g = tiles.geom(id);
        const marks = g.anchors.map((a, i) => (a ? `<circle cx="${a[0]}" cy="${a[1]}" r="3.5" fill="${colors[g.def.segments[i].kind]}" stroke="#fff" stroke-width="1.2"/>` : '')).join('');
        return `<figure style="margin:0;text-align:center;font:12px sans-serif;color:#f3e6cc">
          <svg viewBox="0 0 100 100" width="150" height="150"><use href="#tile-${id}"/>${marks}</svg><figcaption>${id}${g.def.course ? ` · ${g.def.course}` : ''}</figcaption></figure>`;
      });
      const defs = document.getElementById('tile-defs-holder').outerHTML;
      document.body.innerHTML = `<div style="display:grid;grid-template-columns:repeat(9,160px);gap:6px;padding:10px;background:#2f4236">${cells.join('')}</div>${defs}`;
    });
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, '00-tiles.png'), fullPage: true });
  } finally {
    await close();
  }
});
