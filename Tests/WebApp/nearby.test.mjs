import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { metres, distanceLabel, nearest, EARTH_RADIUS } = await appModule('nearby.js');

test('labels at the boundaries, as GreatCircle.label', () => {
  assert.equal(distanceLabel(0), 'すぐそば');
  assert.equal(distanceLabel(10), 'すぐそば');
  assert.equal(distanceLabel(10.0001), '約10 m');
  assert.equal(distanceLabel(999.9), '約999 m');
  assert.equal(distanceLabel(1000), '約1.0 km');
  assert.equal(distanceLabel(1449), '約1.4 km');
  assert.equal(distanceLabel(1450), '約1.5 km');
  assert.equal(distanceLabel(9949), '約9.9 km');
  assert.equal(distanceLabel(9960), '約10.0 km');
  assert.equal(distanceLabel(9999.9), '約10.0 km');
  assert.equal(distanceLabel(10_000), '約10 km');
  assert.equal(distanceLabel(12_999), '約12 km');
});

test('haversine on the apps\' sphere', () => {
  assert.equal(metres(35, 135, 35, 135), 0);
  const oneDegree = metres(0, 0, 1, 0);
  assert.ok(Math.abs(oneDegree - (Math.PI / 180) * EARTH_RADIUS) < 1e-6);
  // 10 m apart must still read すぐそば reliably.
  const d = metres(35.256281, 139.155442, 35.256281 + 0.00008, 139.155442);
  assert.ok(d > 8 && d < 10, String(d));
});

test('nearest first, ties by s_id, limited, filtered', () => {
  const at = (id, lat, lng) => ({ id, lat, lng });
  const stations = [at(304332, 35256281, 139155442), at(120004, 35256281, 139155442), at(300291, 35260000, 139155442), at(202945, 35256281, 139155442)];
  const list = nearest(stations, 35.256281, 139.155442, 3);
  assert.deepEqual(list.map((h) => h.station.id), [120004, 202945, 304332]);
  assert.equal(distanceLabel(list[0].metres), 'すぐそば');
  const far = nearest(stations, 35.256281, 139.155442, 0, (s) => s.id === 300291);
  assert.deepEqual(far.map((h) => h.station.id), [300291]);
  assert.equal(distanceLabel(far[0].metres), '約413 m');
});

test('today only where you are: within the fix\'s accuracy plus the margin', async () => {
  const { withinReach, REACH_MARGIN_M, FIX_MAX_AGE_MS } = await appModule('nearby.js');
  assert.equal(withinReach(0, 10), true);
  assert.equal(withinReach(10 + REACH_MARGIN_M, 10), true);
  assert.equal(withinReach(10 + REACH_MARGIN_M + 1, 10), false);
  assert.equal(withinReach(384_000, 10), false, '古津賀駅 from the open sea at 30.0, 135.0');
  assert.equal(withinReach(2_000, 5_000), true, 'an approximate fix reaches further');
  assert.equal(withinReach(600, NaN), false, 'an unknown accuracy counts as none');
  assert.equal(withinReach(NaN, 10), false);
  assert.ok(REACH_MARGIN_M >= 200 && REACH_MARGIN_M <= 1000, 'a few hundred metres');
  assert.ok(FIX_MAX_AGE_MS <= 5_000, 'a cached fix at most a few seconds old');
});
