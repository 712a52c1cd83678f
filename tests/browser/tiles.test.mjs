// Every tile drawn from the engine's data, with its follower spots: each
// spot lies inside the tile, on its own kind of ground, apart from the
// others. Leaves a gallery screenshot of all tiles to look at. The
// expansions' tiles: drawn only when asked for, each with its marks.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { launch, shot, BASE, SHOTS } from './lib.mjs';

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
    assert.ok(count >= 24 + 41, "the base tiles and the expansions' at least");
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
      const cells = tiles.ids().filter((id) => document.getElementById(`tile-${id}`)).map((id) => {
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

test("the expansions' tiles are drawn only when asked for, each with its marks", async () => {
  const { context, close } = await launch({ viewport: { width: 1500, height: 1000 } });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/#/`);
    await page.waitForFunction(() => window.carcassonne && window.carcassonne.tiles);
    const defs = await page.evaluate(() => {
      const tiles = window.carcassonne.tiles;
      const of = (e) => tiles.data.tiles.filter((d) => d.expansion === e).map((d) => d.id);
      const drawn = (ids) => ids.filter((id) => document.getElementById(`tile-${id}`)).length;
      return {
        base: of(null).length, baseDrawn: drawn(of(null)),
        inns: of('inns_cathedrals'), traders: of('traders_builders'),
        expDrawn: drawn([...of('inns_cathedrals'), ...of('traders_builders')]),
        // Geometry worked out for an expansion tile at boot would be work the boot need not do.
        expBuilt: [...of('inns_cathedrals'), ...of('traders_builders')].filter((id) => tiles.byId.get(id)).length,
      };
    });
    assert.equal(defs.baseDrawn, defs.base, 'the boot draws every tile of no expansion');
    assert.equal(defs.inns.length, 17);
    assert.equal(defs.traders.length, 24);
    assert.deepEqual([defs.expDrawn, defs.expBuilt], [0, 0], "and no expansion's tile, nor its geometry");

    // One expansion asked for: its tiles, not the other's; asking again draws nothing twice.
    const counts = await page.evaluate(async () => {
      const tiles = window.carcassonne.tiles;
      await Promise.all([tiles.need(['inns_cathedrals']), tiles.need(['inns_cathedrals'])]);
      const n = (p) => document.querySelectorAll(`#tile-defs > g[id^="tile-${p}"]`).length;
      return [n('IC'), n('TB')];
    });
    assert.deepEqual(counts, [17, 0]);
    await page.evaluate(() => window.carcassonne.tiles.need(['inns_cathedrals', 'traders_builders']));
    const found = await page.evaluate(() => {
      const tiles = window.carcassonne.tiles;
      const out = {};
      for (const d of tiles.data.tiles.filter((x) => x.expansion)) {
        const g = document.getElementById(`tile-${d.id}`);
        const count = (sel) => (g ? g.querySelectorAll(sel).length : -1);
        out[d.id] = {
          drawn: !!g, copies: document.querySelectorAll(`[id="tile-${d.id}"]`).length,
          inn: count('.mark-inn'), cathedral: count('.mark-cathedral'),
          wine: count('.goods-wine'), wheat: count('.goods-wheat'), cloth: count('.goods-cloth'),
          want: {
            inn: d.segments.filter((s) => s.inn).length, cathedral: d.segments.filter((s) => s.cathedral).length,
            wine: d.segments.filter((s) => s.goods === 'wine').length, wheat: d.segments.filter((s) => s.goods === 'wheat').length,
            cloth: d.segments.filter((s) => s.goods === 'cloth').length,
          },
        };
      }
      return out;
    });
    for (const [id, f] of Object.entries(found)) {
      assert.ok(f.drawn, `${id} has a picture`);
      assert.equal(f.copies, 1, `${id} is drawn once`);
      for (const mark of ['inn', 'cathedral', 'wine', 'wheat', 'cloth']) assert.equal(f[mark], f.want[mark], `${id}: its ${mark} marks`);
    }
    // Each kind of mark is on some tile, with the tile data's examples.
    assert.deepEqual([found.IC13.inn, found.IC11.cathedral, found.TB17.wine, found.TB04.wheat, found.TB11.cloth], [1, 1, 1, 1, 1]);
    assert.equal(found.D, undefined);
    // And in words.
    const words = await page.evaluate(async () => {
      const { tileWords } = await import('/js/tiles.js');
      return ['IC13', 'IC11', 'TB17', 'TB04', 'TB11'].map(tileWords);
    });
    assert.match(words[0], /an inn/);
    assert.match(words[1], /a cathedral/);
    assert.match(words[2], /wine/);
    assert.match(words[3], /wheat/);
    assert.match(words[4], /cloth/);

    // The gallery at 120 and at 64 px, in the light and the dark theme.
    mkdirSync(SHOTS, { recursive: true });
    for (const theme of ['light', 'dark']) {
      await page.evaluate((theme) => {
        document.documentElement.dataset.theme = theme;
        const tiles = window.carcassonne.tiles;
        const ids = tiles.data.tiles.filter((d) => d.expansion).map((d) => d.id);
        const row = (size) => ids.map((id) => `<figure style="margin:0;text-align:center;font:11px sans-serif">
          <svg viewBox="0 0 100 100" width="${size}" height="${size}"><use href="#tile-${id}"/></svg><figcaption>${id}</figcaption></figure>`).join('');
        const holder = document.getElementById('tile-defs-holder');
        document.body.innerHTML = `<div style="background:var(--paper);color:var(--ink);padding:8px">
          <div style="display:grid;grid-template-columns:repeat(11,126px);gap:4px">${row(120)}</div>
          <div style="display:grid;grid-template-columns:repeat(21,66px);gap:3px;margin-top:8px">${row(64)}</div></div>`;
        document.body.append(holder);
      }, theme);
      await page.screenshot({ path: join(SHOTS, `00-tiles-expansions-${theme}.png`), fullPage: true });
    }
  } finally {
    await close();
  }
});

test('a Big Box record opened from disk draws its expansion tiles', async () => {
  // The first 36 moves of `carcassonne play --rules big-box --seed 3 --save …` (the server replays and checks them).
  const record = readFileSync(new URL('./big-box.record.json', import.meta.url));
  const { context, close } = await launch({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${BASE}/#/`);
    await page.waitForFunction(() => window.carcassonne && window.carcassonne.tiles);
    await page.setInputFiles('.record-file', { name: 'big-box.json', mimeType: 'application/json', buffer: record });
    await page.waitForURL(/#\/replay\/file$/);
    await page.waitForSelector('.replay-bar');
    await page.click('.replay-bar [data-go="last"]');
    // Every expansion tile on the board has its picture (drawn when the replay named its expansions).
    await page.waitForFunction(() => {
      const uses = [...document.querySelectorAll('svg.board use')].map((u) => u.getAttribute('href'));
      const exp = uses.filter((h) => /^#tile-(IC|TB)/.test(h));
      return exp.length >= 10 && exp.every((h) => document.querySelector(h));
    }, null, { timeout: 10000 });
    assert.deepEqual(errors, []);
    await shot(page, '00-tiles-big-box-replay');
  } finally {
    await close();
  }
});
