// The base map (baseMap.js) and the file it draws (geo/japan.json, written by Tools/map-geography):
// the rings and borders decode from their differences, the level follows the zoom, the file is the
// format and small enough on the wire, its coast puts the stations on land, its borders part the
// prefectures and meet the coast, and a frame draws only what the view can show.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { appDir, appModule, conformanceDir } from './support/paths.mjs';

const {
  decodeRing, decodeLine, decodeBaseMap, levelFor, drawBaseMap, loadBaseMap, bordersShown, tracePaths, BaseMapError, METRES_PER_UNIT,
  BORDER_MIN_METRES_PER_PX,
} = await appModule('baseMap.js');
const { X_SCALE, project } = await appModule('mapCore.js');

const file = readFileSync(path.join(appDir, 'geo/japan.json'));
const base = decodeBaseMap(JSON.parse(file.toString('utf8')));

/** A document of one level whose single ring is a square of side 1° around (lat, lng). */
function squareDoc(tolerances = [1000]) {
  const unit = 100; // 1e-4°
  const ring = [1_394_000, 356_000, 10_000, 0, 0, 10_000, -10_000, 0];
  const border = [1_399_000, 356_000, 0, 10_000]; // across the square, north along 139.9° E
  return {
    format: 1, unit, source: 'test',
    levels: tolerances.map((t) => ({ tolerance: t, bbox: [35_000_000, 139_000_000, 37_000_000, 141_000_000], land: [ring], lakes: [], borders: [border] })),
  };
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
    ['borders', { ...good, levels: [{ ...good.levels[0], borders: 'x' }] }],
    ['a border', { ...good, levels: [{ ...good.levels[0], borders: [[1, 2]] }] }],
  ]) {
    assert.throws(() => decodeBaseMap(doc), BaseMapError, what);
  }
  const { borders: _, ...withoutBorders } = good.levels[0];
  assert.deepEqual(decodeBaseMap({ ...good, levels: [withoutBorders] }).levels[0].borders, [], 'a level without borders has none');
});

test('a border decodes as an open line of two points or more', () => {
  const line = decodeLine([1_399_000, 356_000, 0, 10_000], 100);
  assert.equal(line.points.length, 4);
  const [a, b] = [project(35_600_000, 139_900_000), project(36_600_000, 139_900_000)];
  assert.ok(Math.abs(line.points[0] - a.x) < 1e-9 && Math.abs(line.points[3] - b.y) < 1e-9);
  assert.equal(line.minX, line.maxX);
  for (const bad of [[1, 2], [1, 2, 3], [1, 2, 3.5, 4]]) {
    assert.throws(() => decodeLine(bad, 100), BaseMapError, JSON.stringify(bad));
  }
  assert.throws(() => decodeRing([1, 2, 3, 4], 100), BaseMapError, 'a ring needs three points');
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

test('geo/japan.json: three levels, under 400 KB gzipped with its licences, which are beside it', () => {
  assert.deepEqual(base.levels.map((l) => l.tolerance), [2000, 400, 80]);
  const points = base.levels.map((l) => [...l.land, ...l.lakes].reduce((n, r) => n + r.points.length / 2, 0));
  assert.ok(points[0] < points[1] && points[1] < points[2], `each level finer: ${points}`);
  const borderPoints = base.levels.map((l) => l.borders.reduce((n, r) => n + r.points.length / 2, 0));
  assert.ok(borderPoints[0] > 0 && borderPoints[0] <= borderPoints[1] && borderPoints[1] <= borderPoints[2], `borders at each level: ${borderPoints}`);
  const licence = readFileSync(path.join(appDir, 'geo/LICENSE.txt'), 'utf8');
  const bordersLicence = readFileSync(path.join(appDir, 'geo/LICENSE-japanmap.txt'), 'utf8');
  const gzipped = gzipSync(file).length + gzipSync(licence).length + gzipSync(bordersLicence).length;
  assert.ok(gzipped <= 400_000, `${gzipped} bytes gzipped`);
  assert.match(licence, /GSHHG/);
  assert.match(licence, /GNU LESSER GENERAL PUBLIC LICENSE\s+Version 3/);
  assert.match(licence, /GNU GENERAL PUBLIC LICENSE\s+Version 3/);
  assert.match(licence.slice(0, 2000), /japanmap[\s\S]*geo\/LICENSE-japanmap\.txt/, 'the notice names the borders\' source and its licence\'s file');
  assert.match(bordersLicence, /japanmap 0\.6\.0/);
  assert.match(bordersLicence, /Copyright 2022 Saito Tsutomu/);
  assert.match(bordersLicence, /Apache License\s+Version 2\.0, January 2004/);
  assert.match(base.source, /GSHHG 2\.3\.7/);
  assert.match(base.source, /japanmap 0\.6\.0/);
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

/** A context that counts what it is asked to draw, and what is stroked dashed. */
function countingContext() {
  const calls = { lineTo: 0, moveTo: 0, fill: 0, stroke: 0, clip: 0, rect: [], dashed: [] };
  let dash = [];
  const ctx = {
    fillStyle: '', strokeStyle: '', lineWidth: 1,
    save() {}, restore() { dash = []; }, beginPath() {}, closePath() {},
    moveTo() { calls.moveTo++; }, lineTo() { calls.lineTo++; },
    rect(...a) { calls.rect.push(a); }, fill() { calls.fill++; }, clip() { calls.clip++; },
    stroke() { calls.stroke++; if (dash.length > 0) calls.dashed.push(this.strokeStyle); },
    setLineDash(d) { dash = d; },
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
  const coarsest = [...base.levels[0].land, ...base.levels[0].lakes, ...base.levels[0].borders].reduce((n, r) => n + r.points.length / 2, 0);
  assert.ok(all.calls.lineTo <= coarsest, `all Japan draws the coarsest level: ${all.calls.lineTo} ≤ ${coarsest}`);
  assert.equal(near.calls.clip, 1, 'the strokes are clipped to the level\'s box');
});

test('the borders are drawn from all Japan down to a city\'s zoom, not closer', () => {
  const scaleFor = (metresPerPixel) => METRES_PER_UNIT / metresPerPixel;
  assert.equal(bordersShown(scaleFor(5000)), true, 'all Japan');
  assert.equal(bordersShown(2.5), true, 'a city: the scale of a view centred on the person, 44 m a pixel');
  assert.equal(bordersShown(scaleFor(BORDER_MIN_METRES_PER_PX)), true);
  assert.equal(bordersShown(scaleFor(BORDER_MIN_METRES_PER_PX - 1)), false);
  assert.equal(bordersShown(scaleFor(5)), false, 'a street');
  const square = decodeBaseMap(squareDoc());
  const centre = project(36_100_000, 139_900_000);
  const near = countingContext();
  drawBaseMap(near.ctx, square, { cx: centre.x, cy: centre.y, scale: scaleFor(100) }, 390, 788);
  assert.deepEqual(near.calls.dashed, ['#b4aea3'], 'one dashed stroke, the borders\'');
  const close = countingContext();
  drawBaseMap(close.ctx, square, { cx: centre.x, cy: centre.y, scale: scaleFor(5) }, 390, 788);
  assert.deepEqual(close.calls.dashed, [], 'none at a street\'s zoom');
});

test('only the rings and borders that reach into the view are traced', () => {
  const square = decodeBaseMap(squareDoc()).levels[0];
  const { ctx, calls } = countingContext();
  const at = (/** @type {number} */ x) => x;
  const b = square.borders[0];
  assert.equal(tracePaths(ctx, square.borders, { left: b.minX - 1, right: b.maxX + 1, top: b.minY, bottom: b.maxY }, at, at, false), 1);
  assert.equal(calls.moveTo, 1);
  assert.equal(calls.lineTo, 1);
  assert.equal(tracePaths(ctx, square.borders, { left: b.maxX + 1, right: b.maxX + 2, top: b.minY, bottom: b.maxY }, at, at, false), 0, 'east of it');
  assert.equal(tracePaths(ctx, square.land, { left: 0, right: 1, top: 0, bottom: 1 }, at, at, true), 0, 'far from it');
  assert.equal(calls.moveTo, 1, 'nothing more traced');
});

test('the borders part the prefectures: no border between two stations of one prefecture that stand close', () => {
  const finest = base.levels[base.levels.length - 1];
  const crossings = (a, b) => finest.borders.reduce((n, line) => {
    const p = line.points;
    let c = 0;
    for (let k = 2; k < p.length; k += 2) if (segmentsCross(a, b, { x: p[k - 2], y: p[k - 1] }, { x: p[k], y: p[k + 1] })) c++;
    return n + c;
  }, 0);
  // 大宮 (埼玉) and 東京 (東京) lie across one border, 名古屋 (愛知) and 岐阜 (岐阜) across one;
  // 東京 and 新宿 both within 東京都.
  const at = (lat, lng) => project(lat, lng);
  assert.equal(crossings(at(35_906_000, 139_624_000), at(35_681_000, 139_767_000)), 1, '大宮 → 東京');
  assert.equal(crossings(at(35_681_000, 139_767_000), at(35_690_000, 139_700_000)), 0, '東京 → 新宿');
  assert.equal(crossings(at(35_171_000, 136_882_000), at(35_409_000, 136_757_000)), 1, '名古屋 → 岐阜');
});

/** @param {{x: number, y: number}} a @param {{x: number, y: number}} b @param {{x: number, y: number}} c @param {{x: number, y: number}} d */
function segmentsCross(a, b, c, d) {
  const side = (p, q, r) => Math.sign((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
  return side(a, b, c) !== side(a, b, d) && side(c, d, a) !== side(c, d, b);
}

/** The distance (map units) from a point to a ring's edges; Infinity when far outside its bounds. */
function distanceToRing(ring, x, y) {
  if (x < ring.minX - 1 || x > ring.maxX + 1 || y < ring.minY - 1 || y > ring.maxY + 1) return Infinity;
  const p = ring.points;
  let best = Infinity;
  for (let k = 0, j = p.length - 2; k < p.length; j = k, k += 2) {
    const vx = p[k] - p[j], vy = p[k + 1] - p[j + 1];
    const length2 = vx * vx + vy * vy;
    const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - p[j]) * vx + (y - p[j + 1]) * vy) / length2));
    best = Math.min(best, Math.hypot(p[j] + t * vx - x, p[j + 1] + t * vy - y));
  }
  return best;
}

test('the borders meet the coast: each end is a coast point, or where a border meets two others', () => {
  const finest = base.levels[base.levels.length - 1];
  const ends = finest.borders.flatMap((l) => [[l.points[0], l.points[1]], [l.points[l.points.length - 2], l.points[l.points.length - 1]]]);
  const metres = (/** @type {number[]} */ a, /** @type {number[]} */ b) => Math.hypot(a[0] - b[0], a[1] - b[1]) * METRES_PER_UNIT;
  let onCoast = 0;
  for (const end of ends) {
    const others = ends.filter((e) => metres(e, end) < 1).length;
    if (others >= 2) continue; // three prefectures meet here
    const toCoast = Math.min(...finest.land.map((r) => distanceToRing(r, end[0], end[1]))) * METRES_PER_UNIT;
    // The end is on GSHHG's coast before simplifying; the finest level's is within its 80 m.
    assert.ok(toCoast < 100, `a border's end at ${end} is ${toCoast.toFixed(0)} m from the coast`);
    onCoast++;
  }
  assert.ok(onCoast >= 30, `${onCoast} borders' ends on the coast`);
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
