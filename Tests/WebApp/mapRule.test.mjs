import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const rule = await appModule('mapRule.js');
const { MapIndex, compareMorton, mortonHigh, mortonLow, reverse29, gridX, gridY, zoomFor, cellsPerAxis, allowance, boxFromCenter, boxFromEdges, boxContains } = rule;

// A BigInt transcription of MapGrid.swift, the reference for the Number-only comparisons.
const M = (1n << 64n) - 1n;
function spread(value) {
  let v = value & 0xffffffffn;
  v = (v | (v << 16n)) & 0x0000ffff0000ffffn;
  v = (v | (v << 8n)) & 0x00ff00ff00ff00ffn;
  v = (v | (v << 4n)) & 0x0f0f0f0f0f0f0f0fn;
  v = (v | (v << 2n)) & 0x3333333333333333n;
  v = (v | (v << 1n)) & 0x5555555555555555n;
  return v;
}
const morton = (x, y) => spread(BigInt(x)) | (spread(BigInt(y)) << 1n);
function thinningKey(code) {
  let v = code;
  v = ((v >> 1n) & 0x5555555555555555n) | ((v & 0x5555555555555555n) << 1n);
  v = ((v >> 2n) & 0x3333333333333333n) | ((v & 0x3333333333333333n) << 2n);
  v = ((v >> 4n) & 0x0f0f0f0f0f0f0f0fn) | ((v & 0x0f0f0f0f0f0f0f0fn) << 4n);
  v = ((v >> 8n) & 0x00ff00ff00ff00ffn) | ((v & 0x00ff00ff00ff00ffn) << 8n);
  v = ((v >> 16n) & 0x0000ffff0000ffffn) | ((v & 0x0000ffff0000ffffn) << 16n);
  v = ((v >> 32n) | (v << 32n)) & M;
  return v >> 6n;
}
const sign = (v) => (v < 0n ? -1 : v > 0n ? 1 : 0);

/** A small deterministic generator. */
function random(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

test('Z order and the thinning order equal MapGrid.swift\'s 58-bit codes', () => {
  const next = random(7);
  const points = [[0, 0], [2 ** 29 - 1, 2 ** 29 - 1], [1, 0], [0, 1], [2 ** 28, 0], [0, 2 ** 28]];
  for (let i = 0; i < 400; i++) points.push([Math.floor(next() * 2 ** 29), Math.floor(next() * 2 ** 29)]);
  for (let i = 0; i < 200; i++) { // near neighbours: the hard cases
    const [x, y] = points[i];
    points.push([x ^ (1 << Math.floor(next() * 29)), y ^ (1 << Math.floor(next() * 29))]);
  }
  for (let i = 0; i < points.length; i++) {
    for (let j = 0; j < points.length; j += 7) {
      const [x1, y1] = points[i], [x2, y2] = points[j];
      const c1 = morton(x1, y1), c2 = morton(x2, y2);
      assert.equal(Math.sign(compareMorton(x1, y1, x2, y2)), sign(c1 - c2));
      const t = Math.sign(compareMorton(reverse29(y1), reverse29(x1), reverse29(y2), reverse29(x2)));
      assert.equal(t, sign(thinningKey(c1) - thinningKey(c2)));
    }
  }
  assert.equal(thinningKey(1n), 1n << 57n);
  // The code's two halves, as MapIndex sorts by them.
  for (const [x, y] of points) {
    const code = morton(x, y);
    assert.equal(BigInt(mortonHigh(x, y)), code >> 28n, `high half of (${x}, ${y})`);
    assert.equal(BigInt(mortonLow(x, y)), code & ((1n << 28n) - 1n), `low half of (${x}, ${y})`);
    let reversed = 0;
    for (let b = 0; b < 29; b++) reversed = reversed * 2 + (Math.floor(x / 2 ** b) % 2);
    assert.equal(reverse29(x), reversed, `bits of ${x} reversed`);
  }
});

test('limit, m, allowance and zoom as Schemas/map.md §4', () => {
  assert.deepEqual([50, 100, 150, 200, 8].map(cellsPerAxis), [7, 10, 12, 14, 2]);
  assert.deepEqual([50, 100, 150, 200, 8].map(allowance), [1, 1, 1, 1, 2]);
  assert.equal(allowance(0), null);
  assert.equal(cellsPerAxis(0), 10);
  assert.equal(zoomFor(1, 100), 29);
  assert.equal(zoomFor(9, 100), 29);
  assert.equal(zoomFor(10, 100), 28);
  assert.equal(zoomFor(9 * 2 ** 29, 100), 0);
  assert.equal(zoomFor(10 * 2 ** 29, 100), 0);
  const box = boxFromCenter(35_681_000, 139_767_000, 100_000, 100_000);
  assert.deepEqual(box, { south: 35_631_000, west: 139_717_000, north: 35_731_000, east: 139_817_000, span: 100_000 });
  assert.deepEqual(boxFromCenter(89_990_000, 179_990_000, 100_001, 100_001),
    { south: 89_940_000, west: 179_940_000, north: 90_000_001, east: 180_000_001, span: 100_001 });
  assert.equal(gridX(-181_000_000), 0);
  assert.equal(gridY(95_000_000), 180_000_000 + 5_000_000);
});

/** Stations clustered like a country: some cities, some countryside, shared positions. */
function country(n, seed) {
  const next = random(seed);
  const stations = [];
  const cities = [[35_680_000, 139_760_000], [34_700_000, 135_500_000], [43_060_000, 141_350_000]];
  for (let i = 0; i < n; i++) {
    const [clat, clng] = cities[i % 3];
    const spreadDeg = i % 4 === 0 ? 2_000_000 : 150_000;
    const lat = Math.round(clat + (next() - 0.5) * spreadDeg), lng = Math.round(clng + (next() - 0.5) * spreadDeg);
    stations.push({ id: 120000 + i, lat, lng, weight: [1, 2, 3, 5, 7, 9, 11, 12, 13, 13, 13, 13][Math.floor(next() * 12)] });
  }
  stations.push({ ...stations[0], id: 500000 }, { ...stations[0], id: 500001 }); // identical positions
  return stations;
}

/** The rule by its definition (map.md §5), brute force. */
function referenceMinZoom(stations, limit) {
  const a = allowance(limit);
  const key = (s) => [s.weight, thinningKey(morton(gridX(s.lng), gridY(s.lat))), s.id];
  const precedes = (p, q) => { const kp = key(p), kq = key(q); return kp[0] - kq[0] || sign(kp[1] - kq[1]) || kp[2] - kq[2]; };
  return new Map(stations.map((s) => {
    for (let z = 0; z <= 29; z++) {
      const shift = 29 - z;
      const cell = (t) => [gridX(t.lng) >> shift, gridY(t.lat) >> shift].join();
      const ahead = stations.filter((t) => cell(t) === cell(s) && precedes(t, s) < 0).length;
      if (ahead < a) return [s.id, z];
    }
    return [s.id, Infinity];
  }));
}

test('min_zoom is the definition\'s first level, for limits 4, 8, 100', () => {
  const stations = country(160, 3);
  for (const limit of [4, 8, 100]) {
    const index = new MapIndex(stations, limit);
    const expected = referenceMinZoom(stations, limit);
    for (const s of stations) assert.equal(index.minZoomById.get(s.id), expected.get(s.id), `station ${s.id} limit ${limit}`);
  }
  assert.ok([...new MapIndex(stations, 0).minZoomById.values()].every((z) => z === 0));
});

test('pins: the box\'s stations shown at its level, in priority order, never more than the limit', () => {
  const stations = country(3000, 11);
  const next = random(5);
  for (const limit of [0, 8, 50, 100]) {
    const index = new MapIndex(stations, limit);
    for (let i = 0; i < 60; i++) {
      const span = Math.floor(10_000 + next() * 4_000_000);
      const box = boxFromCenter(Math.round(35_000_000 + next() * 8_000_000), Math.round(135_000_000 + next() * 6_000_000), span, Math.floor(span * 1.2));
      const { zoom, pins } = index.query(box);
      assert.equal(zoom, zoomFor(box.span, limit));
      if (limit > 0) assert.ok(pins.length <= limit, `${pins.length} pins for limit ${limit}`);
      const expected = stations.filter((s) => boxContains(box, s.lat, s.lng) && index.minZoomById.get(s.id) <= zoom).map((s) => s.id).sort();
      assert.deepEqual(pins.map((p) => p.entry.id).sort(), expected);
      const ranks = pins.map((p) => index.ranks[index.entries.indexOf(p.entry)]);
      assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));
      if (limit === 0) assert.equal(pins.length, stations.filter((s) => boxContains(box, s.lat, s.lng)).length);
      // Hidden counts cover every station in the box that has no pin.
      const hidden = index.hidden(box).reduce((n, c) => n + c.count, 0);
      assert.equal(hidden + pins.length, stations.filter((s) => boxContains(box, s.lat, s.lng)).length);
    }
  }
});

test('panning and zooming in never remove a pin that stays in the box', () => {
  const stations = country(3000, 23);
  const index = new MapIndex(stations, 100);
  const next = random(9);
  for (let i = 0; i < 200; i++) {
    const dLat = Math.floor(20_000 + next() * 3_000_000), dLng = Math.floor(dLat * (0.5 + next()));
    const lat = Math.round(34_000_000 + next() * 10_000_000), lng = Math.round(135_000_000 + next() * 7_000_000);
    const before = index.query(boxFromCenter(lat, lng, dLat, dLng));
    const moves = [
      boxFromCenter(lat + Math.round((next() - 0.5) * dLat), lng + Math.round((next() - 0.5) * dLng), dLat, dLng), // pan
      boxFromCenter(lat + Math.round((next() - 0.5) * dLat / 4), lng, Math.max(1, Math.floor(dLat * next())), Math.max(1, Math.floor(dLng * next()))), // zoom in
    ];
    for (const box of moves) {
      if (box.span > boxFromCenter(lat, lng, dLat, dLng).span) continue;
      const after = new Set(index.query(box).pins.map((p) => p.entry.id));
      for (const p of before.pins) {
        if (boxContains(box, p.entry.lat, p.entry.lng)) assert.ok(after.has(p.entry.id), `pin ${p.entry.id} vanished`);
      }
    }
  }
});

test('hidden counts sit in fixed cells of the zoom level', () => {
  const stations = country(2000, 31);
  const index = new MapIndex(stations, 100);
  const box = boxFromEdges(34_000_000, 134_000_000, 37_000_000, 141_000_000);
  const cells = index.hidden(box);
  const zoom = zoomFor(box.span, 100), size = 2 ** (29 - zoom);
  for (const c of cells) {
    assert.ok(c.count > 0);
    assert.equal(gridX(c.lng) >> (29 - zoom), c.cellX);
    assert.equal(gridY(c.lat) >> (29 - zoom), c.cellY);
    assert.equal(Math.floor(gridX(Math.round(c.meanLng)) / size), c.cellX);
  }
  // A box inside one cell's neighbourhood sees the same cell ids.
  const shifted = boxFromEdges(34_100_000, 134_100_000, 37_100_000, 141_100_000);
  const ids = new Set(cells.map((c) => `${c.cellX},${c.cellY}`));
  assert.ok(index.hidden(shifted).some((c) => ids.has(`${c.cellX},${c.cellY}`)));
});

test('1,000 queries over 10,000 stations (time printed, not asserted)', () => {
  const stations = country(10_000, 41);
  let start = performance.now();
  const index = new MapIndex(stations, 100);
  const built = performance.now() - start;
  start = performance.now();
  for (let i = 0; i < 1000; i++) {
    const box = boxFromCenter(35_680_000 + i * 1000, 139_760_000, 600_000, 300_000);
    index.query(box);
    index.hidden(box);
  }
  console.log(`# map index of 10,000 stations: built in ${built.toFixed(1)} ms; 1,000 queries with counts in ${(performance.now() - start).toFixed(1)} ms`);
});

test('levels worked out as the views need them give what every level worked out at once gives', () => {
  const stations = country(3000, 13);
  const next = random(17);
  for (const limit of [8, 100]) {
    const lazy = new MapIndex(stations, limit);
    const whole = new MapIndex(stations, limit);
    const every = whole.minZoomById;
    assert.equal(lazy.nextLevel, 0, 'nothing worked out before a view asks');
    const japan = boxFromCenter(37_000_000, 138_000_000, 4_000_000, 4_000_000);
    lazy.query(japan);
    assert.equal(lazy.nextLevel, zoomFor(japan.span, limit) + 1, 'a view works out the levels up to its own');
    for (let i = 0; i < 40; i++) {
      const span = Math.floor(10_000 + next() * 4_000_000);
      const box = boxFromCenter(Math.round(35_000_000 + next() * 8_000_000), Math.round(135_000_000 + next() * 6_000_000), span, span);
      const zoom = zoomFor(box.span, limit);
      assert.deepEqual(lazy.query(box), whole.query(box));
      assert.deepEqual(lazy.hidden(box), whole.hidden(box));
      for (const s of stations.slice(0, 200)) {
        const z = every.get(s.id);
        assert.equal(lazy.minZoomWithin(s.id, zoom), z <= zoom ? z : Infinity);
      }
    }
    assert.equal(lazy.minZoomWithin(-1, 29), undefined, 'a station the index does not hold');
    assert.deepEqual(lazy.minZoomById, every);
  }
});
