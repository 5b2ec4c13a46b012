// The base map (baseMap.js) and the file it draws (geo/japan.json, written by Tools/map-geography):
// the rings decode from their differences, the level follows the zoom, the file is the format and
// small enough on the wire, its coast puts the stations on land, and a frame draws only what the
// view can show.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { appDir, appModule, conformanceDir } from './support/paths.mjs';

const { decodeRing, decodeBaseMap, levelFor, drawBaseMap, loadBaseMap, BaseMapError, METRES_PER_UNIT } = await appModule('baseMap.js');
const { X_SCALE, project } = await appModule('mapCore.js');

const file = readFileSync(path.join(appDir, 'geo/japan.json'));
const base = decodeBaseMap(JSON.parse(file.toString('utf8')));

/** A document of one level whose single ring is a square of side 1° around (lat, lng). */
function squareDoc(tolerances = [1000]) {
  const unit = 100; // 1e-4°
  const ring = [1_394_000, 356_000, 10_000, 0, 0, 10_000, -10_000, 0];
  return { format: 1, unit, source: 'test', levels: tolerances.map((t) => ({ tolerance: t, bbox: [35_000_000, 139_000_000, 37_000_000, 141_000_000], land: [ring], lakes: [] })) };
}

test('a ring decodes from its first point and the differences, in map units', () => {
  const ring = decodeRing([1_394_000, 356_000, 10_000, 0, 0, 10_000, -10_000, 0], 100);
  const expected = [[35_600_000, 139_400_000], [35_600_000, 140_400_000], [36_600_000, 140_400_000], [36_600_000, 139_400_000]];
  assert.equal(ring.points.length, 8);
  expected.forEach(([lat, lng], k) => {
    const p = project(lat, lng);
    assert.ok(Math.abs(ring.points[2 * k] - p.x) < 1e-9 && Math.abs(ring.points[2 * k + 1] - p.y) < 1e-9, `point ${k}`);
  });
  assert.equal(ring.minX, project(0, 139_400_000).x);
  assert.equal(ring.maxY, -35_600);
  for (const bad of [[1, 2, 3, 4], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6.5], 'x', null]) {
    assert.throws(() => decodeRing(bad, 100), BaseMapError, JSON.stringify(bad));
  }
});

test('a document that is not the format is refused with a reason', () => {
  const good = squareDoc();
  assert.equal(decodeBaseMap(good).levels.length, 1);
  for (const [what, doc] of [
    ['format', { ...good, format: 2 }],
    ['unit', { ...good, unit: 0 }],
    ['levels', { ...good, levels: [] }],
    ['tolerance', { ...good, levels: [{ ...good.levels[0], tolerance: -1 }] }],
    ['box', { ...good, levels: [{ ...good.levels[0], bbox: [37_000_000, 139_000_000, 35_000_000, 141_000_000] }] }],
    ['land', { ...good, levels: [{ ...good.levels[0], land: undefined }] }],
  ]) {
    assert.throws(() => decodeBaseMap(doc), BaseMapError, what);
  }
});

test('the level drawn is the coarsest whose tolerance is under two pixels, else the finest', () => {
  const b = decodeBaseMap(squareDoc([80, 2000, 400]));
  assert.deepEqual(b.levels.map((l) => l.tolerance), [2000, 400, 80], 'coarsest first');
  const scaleFor = (metresPerPixel) => METRES_PER_UNIT / metresPerPixel;
  assert.equal(levelFor(b, scaleFor(5000)).tolerance, 2000, 'all Japan: 5 km a pixel');
  assert.equal(levelFor(b, scaleFor(1000)).tolerance, 2000, '2,000 m is two pixels');
  assert.equal(levelFor(b, scaleFor(999)).tolerance, 400);
  assert.equal(levelFor(b, scaleFor(200)).tolerance, 400);
  assert.equal(levelFor(b, scaleFor(100)).tolerance, 80);
  assert.equal(levelFor(b, scaleFor(44)).tolerance, 80, 'a city: 44 m a pixel, the finest there is');
  assert.equal(levelFor(b, scaleFor(5)).tolerance, 80);
});

test('geo/japan.json: three levels, under 400 KB gzipped, its licence beside it', () => {
  assert.deepEqual(base.levels.map((l) => l.tolerance), [2000, 400, 80]);
  const points = base.levels.map((l) => [...l.land, ...l.lakes].reduce((n, r) => n + r.points.length / 2, 0));
  assert.ok(points[0] < points[1] && points[1] < points[2], `each level finer: ${points}`);
  const gzipped = gzipSync(file).length;
  assert.ok(gzipped <= 400_000, `${gzipped} bytes gzipped`);
  const licence = readFileSync(path.join(appDir, 'geo/LICENSE.txt'), 'utf8');
  assert.match(licence, /GSHHG/);
  assert.match(licence, /GNU LESSER GENERAL PUBLIC LICENSE\s+Version 3/);
  assert.match(licence, /GNU GENERAL PUBLIC LICENSE\s+Version 3/);
  assert.match(base.source, /GSHHG 2\.3\.7/);
});

/** Whether a map point lies inside a ring (even-odd). */
function inside(ring, x, y) {
  const p = ring.points;
  let odd = false;
  for (let k = 0, j = p.length - 2; k < p.length; j = k, k += 2) {
    if ((p[k + 1] > y) !== (p[j + 1] > y) && x < ((p[j] - p[k]) * (y - p[k + 1])) / (p[j + 1] - p[k + 1]) + p[k]) odd = !odd;
  }
  return odd;
}
const onLand = (level, x, y) => level.land.some((r) => x >= r.minX && x <= r.maxX && y >= r.minY && y <= r.maxY && inside(r, x, y))
  && !level.lakes.some((r) => x >= r.minX && x <= r.maxX && y >= r.minY && y <= r.maxY && inside(r, x, y));

test('at the finest level the stations stand on land (but for a few on newer reclaimed land)', () => {
  const catalog = JSON.parse(readFileSync(path.join(conformanceDir, 'catalog.json'), 'utf8'));
  const stations = catalog.stations.filter((s) => s.enabled);
  const finest = base.levels[base.levels.length - 1];
  const offshore = stations.filter((s) => { const p = project(s.lat, s.lng); return !onLand(finest, p.x, p.y); });
  assert.ok(offshore.length <= stations.length * 0.01, `${offshore.length} of ${stations.length} stations in the sea: ${offshore.slice(0, 20).map((s) => s.name)}`);
  for (const name of ['東京駅', '札幌駅', '那覇空港駅', '鹿児島中央駅', '稚内駅']) {
    const s = stations.find((t) => t.name === name);
    const p = project(s.lat, s.lng);
    assert.ok(onLand(finest, p.x, p.y), name);
  }
  const lake = project(35_250_000, 136_080_000); // 琵琶湖, off 彦根
  assert.equal(onLand(finest, lake.x, lake.y), false, 'Biwa-ko is water');
});

/** A context that counts what it is asked to draw. */
function countingContext() {
  const calls = { lineTo: 0, moveTo: 0, fill: 0, stroke: 0, clip: 0, rect: [] };
  const ctx = {
    fillStyle: '', strokeStyle: '', lineWidth: 1,
    save() {}, restore() {}, beginPath() {}, closePath() {},
    moveTo() { calls.moveTo++; }, lineTo() { calls.lineTo++; },
    rect(...a) { calls.rect.push(a); }, fill() { calls.fill++; }, stroke() { calls.stroke++; }, clip() { calls.clip++; },
    fillRect() {},
  };
  return { ctx, calls };
}

test('a frame draws the rings its view can show, of the level its zoom chooses', () => {
  const tokyo = project(35_681_236, 139_767_125);
  const near = countingContext();
  drawBaseMap(near.ctx, base, { cx: tokyo.x, cy: tokyo.y, scale: 2.5 }, 390, 788);
  const all = countingContext();
  drawBaseMap(all.ctx, base, { cx: 135 * 1000 * X_SCALE, cy: -35_000, scale: 0.019 }, 390, 788);
  assert.ok(near.calls.moveTo > 0 && all.calls.moveTo > 0);
  const finestPoints = base.levels[2].land.reduce((n, r) => n + r.points.length / 2, 0);
  assert.ok(near.calls.lineTo < finestPoints / 4, `a view of Tokyo draws ${near.calls.lineTo} of the finest level's ${finestPoints} points`);
  const coarsest = base.levels[0].land.reduce((n, r) => n + r.points.length / 2, 0) + base.levels[0].lakes.reduce((n, r) => n + r.points.length / 2, 0);
  assert.ok(all.calls.lineTo <= coarsest, `all Japan draws the coarsest level: ${all.calls.lineTo} ≤ ${coarsest}`);
  assert.equal(near.calls.clip, 1, 'the strokes are clipped to the level\'s box');
});

test('a base map that cannot be had leaves the map without it', async () => {
  const debug = console.debug;
  console.debug = () => {};
  try {
    assert.equal(await loadBaseMap(async () => new Response('no', { status: 404 })), null);
    assert.equal(await loadBaseMap(async () => { throw new TypeError('Failed to fetch'); }), null);
    assert.equal(await loadBaseMap(async () => new Response('{"format": 9}')), null);
    const ok = await loadBaseMap(async (url) => { assert.equal(url, 'geo/japan.json'); return new Response(JSON.stringify(squareDoc())); });
    assert.equal(ok?.levels.length, 1);
  } finally {
    console.debug = debug;
  }
});
