// The arithmetic of raster tiles on the map (tileGrid.js): the zoom nearest the map's scale, the
// tiles covering a view, and where each tile's strips go, so that a Web Mercator tile's content
// lies where the map (plain degrees, mapCore.js) draws the same place, within half a pixel over
// Japan, with no seam between strips or tiles.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { MAX_TILE_ZOOM, TILE_SIZE, ancestorAt, stripsOf, tileKey, tileRange, tileStrips, tileUrl, tileZoom, tilesOf } = await appModule('tileGrid.js');
const { X_SCALE, project, toScreen } = await appModule('mapCore.js');

/** The scale at which tiles of zoom z are exactly TILE_SIZE CSS pixels wide. */
const exactScale = (z) => (TILE_SIZE * 2 ** z) / (360000 * X_SCALE);
/** Web Mercator's row (fractional) of a latitude. */
const row = (lat, z) => {
  const phi = (lat * Math.PI) / 180;
  return ((1 - Math.asinh(Math.tan(phi)) / Math.PI) / 2) * 2 ** z;
};
const column = (lng, z) => ((lng + 180) / 360) * 2 ** z;
const view = (lat, lng, scale) => { const p = project(lat * 1e6, lng * 1e6); return { cx: p.x, cy: p.y, scale }; };

test('the zoom whose tiles are nearest 256 pixels wide, within 0…18', () => {
  for (let z = 0; z <= MAX_TILE_ZOOM; z++) {
    assert.equal(tileZoom(exactScale(z)), z);
    assert.equal(tileZoom(exactScale(z) * 1.41), z, 'just under half a zoom in');
    if (z > 0) assert.equal(tileZoom(exactScale(z) / 1.41), z, 'just under half a zoom out');
  }
  assert.equal(tileZoom(exactScale(5) * 1.42), 6, 'past half a zoom: the next');
  assert.equal(tileZoom(1e9), MAX_TILE_ZOOM);
  assert.equal(tileZoom(1e-9), 0);
  assert.equal(tileZoom(0), 0);
  // The map's own scales: all Japan on a phone, and a city (ui/mapScreen.js POSITION_SCALE).
  assert.equal(tileZoom(0.014), 4);
  assert.equal(tileZoom(2.5), 11);
});

test('the tiles covering a view: the columns and rows of its edges', () => {
  const v = view(35.681236, 139.767125, exactScale(11));
  const r = tileRange(v, 390, 700, 11);
  assert.equal(r.z, 11);
  const half = { lng: 195 / v.scale / 1000 / X_SCALE, lat: 350 / v.scale / 1000 };
  assert.equal(r.x0, Math.floor(column(139.767125 - half.lng, 11)));
  assert.equal(r.x1, Math.floor(column(139.767125 + half.lng, 11)));
  assert.equal(r.y0, Math.floor(row(35.681236 + half.lat, 11)));
  assert.equal(r.y1, Math.floor(row(35.681236 - half.lat, 11)));
  assert.ok(r.x0 <= 1819 && 1819 <= r.x1, '東京駅 is in column 1819');
  const tiles = tilesOf(r);
  assert.equal(tiles.length, (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1));
  assert.ok(tiles.length >= 6 && tiles.length <= 12, `a phone's view holds a handful: ${tiles.length}`);
  const mid = { x: (r.x0 + r.x1) / 2, y: (r.y0 + r.y1) / 2 };
  const d = tiles.map((t) => (t.x - mid.x) ** 2 + (t.y - mid.y) ** 2);
  assert.deepEqual(d, [...d].sort((a, b) => a - b), 'nearest the middle first');
});

test('a view past the world\'s edge asks for no tile; one at the edge is clamped', () => {
  assert.equal(tileRange(view(0, 400, 1), 100, 100, 3), null);
  assert.equal(tileRange(view(-89, 0, 1), 100, 100, 3), null);
  const edge = tileRange(view(84, 179.9, 0.05), 390, 700, 3);
  assert.equal(edge.x1, 7);
  assert.equal(edge.y0, 0);
});

test('a tile\'s strips: contiguous, meeting their neighbours, at whole device pixels', () => {
  const dpr = 2;
  for (const z of [3, 5, 7, 8, 12]) {
    const v = view(36, 138, exactScale(z));
    const t = { z, x: Math.floor(column(138, z)), y: Math.floor(row(36, z)) };
    const strips = tileStrips(v, 390, 700, t, dpr);
    assert.equal(strips.length, stripsOf(z));
    assert.equal(strips[0].top, 0);
    assert.equal(strips[strips.length - 1].bottom, 1);
    for (let k = 1; k < strips.length; k++) {
      assert.equal(strips[k].y, strips[k - 1].y + strips[k - 1].h, 'no gap between strips');
      assert.equal(strips[k].top, strips[k - 1].bottom);
    }
    for (const s of strips) for (const edge of [s.x, s.y, s.x + s.w, s.y + s.h]) assert.equal(edge * dpr, Math.round(edge * dpr));
    const right = tileStrips(v, 390, 700, { ...t, x: t.x + 1 }, dpr)[0];
    assert.equal(right.x, strips[0].x + strips[0].w, 'the next column starts where this one ends');
    const below = tileStrips(v, 390, 700, { ...t, y: t.y + 1 }, dpr)[0];
    const last = strips[strips.length - 1];
    assert.equal(below.y, last.y + last.h, 'the next row starts where this one ends');
    const width = strips[0].w;
    assert.ok(Math.abs(width - TILE_SIZE) <= 1, `a tile at its own zoom is 256 pixels wide: ${width}`);
  }
  assert.deepEqual([0, 2, 3, 4, 5, 6, 7, 8, 18].map(stripsOf), [8, 8, 8, 4, 4, 2, 2, 1, 1]);
});

test('a place in a tile is drawn where the map draws it, within half a pixel over Japan', () => {
  const dpr = 3;
  for (const z of [3, 4, 5, 6, 7, 8, 10, 14]) {
    let worst = 0;
    for (let lat = 24.25; lat <= 45.75; lat += 0.5) {
      const lng = 123 + (lat - 24) * 1.2;
      const v = view(lat, lng, exactScale(z));
      const t = { z, x: Math.floor(column(lng, z)), y: Math.floor(row(lat, z)) };
      const frac = row(lat, z) - t.y, fracX = column(lng, z) - t.x;
      const s = tileStrips(v, 390, 700, t, dpr).find((x) => x.top <= frac && frac <= x.bottom);
      const drawnY = s.y + ((frac - s.top) / (s.bottom - s.top)) * s.h;
      const drawnX = s.x + fracX * s.w;
      const at = toScreen(v, 390, 700, project(lat * 1e6, lng * 1e6).x, project(lat * 1e6, lng * 1e6).y);
      worst = Math.max(worst, Math.abs(drawnY - at.py), Math.abs(drawnX - at.px));
    }
    assert.ok(worst <= 0.5 + 1 / dpr, `zoom ${z}: ${worst.toFixed(3)} px`);
  }
});

test('keys, ancestors and URLs', () => {
  assert.equal(tileKey({ z: 11, x: 1819, y: 806 }), '11/1819/806');
  assert.deepEqual(ancestorAt({ z: 11, x: 1819, y: 806 }, 9), { z: 9, x: 454, y: 201 });
  assert.deepEqual(ancestorAt({ z: 5, x: 28, y: 12 }, 5), { z: 5, x: 28, y: 12 });
  assert.equal(tileUrl('https://t.example/{z}/{x}/{y}.png?k={z}', { z: 3, x: 7, y: 2 }), 'https://t.example/3/7/2.png?k=3');
});
