// Whether a fix names one nearest station (nearestCandidates.js): the halfway line between the
// nearest station and another lies (dᵢ² − d₁²) ÷ 2D from the fix; the fix's accuracy crossing it
// makes the other a candidate. At the nearest station that is half the distance between the two.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { nearestCandidates, halfwayDistance, accuracyLabel } = await appModule('nearestCandidates.js');
const { nearest, metres } = await appModule('nearby.js');
const { Catalog } = await appModule('catalog.js');
const { smallCatalogDoc } = await import('./support/smallCatalog.mjs');

// Three stations on a meridian, 1 km and 3 km north of the first (1° of latitude ≈ 111.3 km).
const at = (id, lat) => ({ id, lat: Math.round(lat * 1e6), lng: 139_000_000 });
const KM = 1 / 111.3195;
const line = [at(1, 35), at(2, 35 + KM), at(3, 35 + 3 * KM)];
const gap12 = metres(35, 139, line[1].lat / 1e6, 139);

test('standing at the nearest station: ambiguous exactly when the accuracy is more than half the distance to the second', () => {
  const hits = nearest(line, 35, 139, 0);
  assert.ok(Math.abs(halfwayDistance(hits[0], hits[1]) - gap12 / 2) < 1e-6, 'half the distance between the two stations');
  assert.deepEqual(nearestCandidates(hits, gap12 / 2 - 1), { ambiguous: false, candidates: [hits[0]] });
  const coarse = nearestCandidates(hits, gap12 / 2 + 1);
  assert.equal(coarse.ambiguous, true);
  assert.deepEqual(coarse.candidates.map((h) => h.station.id), [1, 2]);
  // 3 km accuracy: the third station (3 km away, halfway line at 1.5 km) is a candidate too.
  assert.deepEqual(nearestCandidates(hits, 3000).candidates.map((h) => h.station.id), [1, 2, 3]);
});

test('between two stations even a good fix cannot tell, and far away only a coarse one', () => {
  const midway = nearest(line, 35 + KM / 2 - 0.00001, 139, 0); // 1 m nearer station 1
  assert.equal(nearestCandidates(midway, 10).ambiguous, true, 'the halfway line is a metre away');
  assert.equal(nearestCandidates(midway, 0).ambiguous, false, 'an exact point names its station');
  // 20 km south: the halfway line between stations 1 and 2 is about 20.5 km away.
  const south = nearest(line, 35 - 20 * KM, 139, 0);
  assert.equal(nearestCandidates(south, 5_000).ambiguous, false);
  assert.equal(nearestCandidates(south, 25_000).ambiguous, true);
});

test('stations at one point are one place: never an alternative to each other', () => {
  const catalog = new Catalog(smallCatalogDoc());
  // The three 津駅 share a point; 一身田 is about 2.9 km north of it, 津新町 about 2.2 km south.
  const hits = nearest(catalog.enabledStations, 34.734, 136.51, 0);
  const exact = nearestCandidates(hits, 10);
  assert.equal(exact.ambiguous, false);
  assert.deepEqual(exact.candidates.map((h) => h.station.id), [201111, 300260, 301230]);
  const coarse = nearestCandidates(hits, 3000);
  assert.equal(coarse.ambiguous, true);
  assert.deepEqual(coarse.candidates.map((h) => h.station.id), [201111, 300260, 301230, 301231, 201112]);
});

test('an unknown accuracy counts as none; no station, no candidate', () => {
  const hits = nearest(line, 35, 139, 0);
  assert.equal(nearestCandidates(hits, NaN).ambiguous, false);
  assert.deepEqual(nearestCandidates([], 5000), { ambiguous: false, candidates: [] });
});

test('the accuracy as the sentence says it', () => {
  assert.equal(accuracyLabel(849.6, 'ja'), '約850 m');
  assert.equal(accuracyLabel(3000, 'ja'), '約3 km');
  assert.equal(accuracyLabel(3400, 'en'), 'about 3 km');
  assert.equal(accuracyLabel(999.7, 'ja'), '約1 km');
  assert.equal(accuracyLabel(20_000, 'en'), 'about 20 km');
});
