// The landmarks the app adds to the shared rule's pins (mapLandmarks.js), over the v176 catalogue
// of the conformance corpus: a function of the station, the level and the filter, so they never
// flicker while panning and zooming in never removes one; apart by the level's spacing; the hubs
// of Tokyo at a zoom showing Tokyo. The shared rule's own answers are untouched (conformance.test.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, conformanceDir } from './support/paths.mjs';

const { Landmarks, landmarkWeight, landmarkOrder, shownPins, withoutRepresented, LANDMARK_SPACING } = await appModule('mapLandmarks.js');
const { MapIndex, boxFromCenter, boxContains, FINEST_LEVEL } = await appModule('mapRule.js');
const { project } = await appModule('mapCore.js');
const { Catalog } = await appModule('catalog.js');
const { buildScene } = await appModule('map.js');
const { sceneGeometry } = await appModule('sceneGeometry.js');

const catalog = new Catalog(JSON.parse(readFileSync(path.join(conformanceDir, 'catalog.json'), 'utf8')));
const scene = buildScene(catalog, () => 0, sceneGeometry(catalog, ''));
const entries = catalog.enabledStations.map((s) => ({ id: s.id, lat: s.lat, lng: s.lng, weight: s.weight }));
const withLines = entries.map((e) => ({ ...e, lines: scene.hubLines[scene.indexOf.get(e.id)] }));
const index = new MapIndex(entries, 100);
const landmarks = new Landmarks(withLines);
const idOf = (name, operator) => catalog.enabledStations.find((s) => s.name === name && (operator === undefined || s.operator === operator)).id;

test('the weight admitted grows with the zoom level', () => {
  for (let z = 0; z < FINEST_LEVEL; z++) assert.ok(landmarkWeight(z) <= landmarkWeight(z + 1), `level ${z}`);
  assert.equal(landmarkWeight(5), 0, 'none below all of Japan');
  assert.equal(landmarkWeight(13), 3, 'a city: up to weight 3');
});

test('hubs first: weight, then the lines of the place, then s_id', () => {
  const tokyo = scene.hubLines[scene.indexOf.get(120001)];
  assert.equal(tokyo, 8, '東京: JR East 5, JR Central 1 + 1, the Metro 1');
  const sorted = [...withLines].sort(landmarkOrder);
  assert.equal(sorted[0].id, 120001, '東京 leads');
});

test('a landmark stays one at every finer level, and landmarks of a level keep its spacing', () => {
  const byId = new Map(withLines.map((e) => [e.id, e]));
  for (const [id, minZoom] of landmarks.minZoomById) {
    assert.ok(byId.get(id).weight <= landmarkWeight(minZoom), `${id} is light enough at ${minZoom}`);
  }
  for (const zoom of [6, 8, 10, 12, 13, 14, 16]) {
    const shown = [...landmarks.minZoomById].filter(([, z]) => z <= zoom).map(([id]) => project(byId.get(id).lat, byId.get(id).lng));
    const spacing = (LANDMARK_SPACING * 2 ** (FINEST_LEVEL - zoom)) / 1000;
    let closest = Infinity;
    for (let a = 0; a < shown.length; a++) for (let b = a + 1; b < shown.length; b++) {
      closest = Math.min(closest, Math.hypot(shown[a].x - shown[b].x, shown[a].y - shown[b].y));
    }
    assert.ok(closest >= spacing, `level ${zoom}: ${shown.length} landmarks, closest ${closest} < ${spacing}`);
  }
});

const ids = (pins) => new Set(pins.map((p) => p.entry.id));

test('panning never removes a pin that stays in view, zooming in never removes one', () => {
  const centre = [35_681_236, 139_767_125];
  for (const span of [400_000, 800_000, 3_000_000, 12_000_000]) {
    const a = boxFromCenter(centre[0], centre[1], span, span / 2);
    const b = boxFromCenter(centre[0] + span / 5, centre[1] - span / 7, span, span / 2);
    const pa = shownPins(index, landmarks, a).pins, pb = shownPins(index, landmarks, b).pins;
    const inBoth = (p) => boxContains(a, p.entry.lat, p.entry.lng) && boxContains(b, p.entry.lat, p.entry.lng);
    assert.deepEqual([...ids(pa.filter(inBoth))].sort(), [...ids(pb.filter(inBoth))].sort(), `span ${span}: the same pins where the boxes meet`);
    const closer = boxFromCenter(centre[0], centre[1], span / 3, span / 6);
    const pc = ids(shownPins(index, landmarks, closer).pins);
    for (const p of pa) if (boxContains(closer, p.entry.lat, p.entry.lng)) assert.ok(pc.has(p.entry.id), `span ${span}: ${p.entry.id} kept when zooming in`);
  }
});

test('at a zoom showing Tokyo, 東京, 渋谷, 池袋 and 上野 are pins', () => {
  const hubs = [idOf('東京駅', 10103), idOf('渋谷駅', 10102), idOf('池袋駅', 10102), idOf('上野駅', 10102)];
  for (const span of [250_000, 350_000, 500_000, 700_000, 1_000_000]) {
    const box = boxFromCenter(35_690_000, 139_740_000, span, Math.round(span / 1.6));
    const { zoom, pins } = shownPins(index, landmarks, box);
    const shown = ids(pins);
    for (const id of hubs) assert.ok(shown.has(id) || pins.some((p) => p.entry.lat === catalog.station(id).lat && p.entry.lng === catalog.station(id).lng), `span ${span} (level ${zoom}): ${catalog.station(id).name}`);
  }
});

test('the per-cell counts leave out what a pin stands for', () => {
  const cells = [{ cellX: 1, cellY: 2, count: 3, lat: 0, lng: 0, meanLat: 20, meanLng: 30 }, { cellX: 5, cellY: 5, count: 1, lat: 0, lng: 0, meanLat: 7, meanLng: 7 }];
  const shift = FINEST_LEVEL - 20;
  // Grid x of lng, y of lat (mapRule.js): find positions in those cells at level 20.
  const inCell = (cx, cy, dx = 0) => ({ lng: ((cx << shift) - 180_000_000) + dx, lat: (cy << shift) - 90_000_000 });
  const a = inCell(1, 2), b = inCell(5, 5);
  const out = withoutRepresented(cells, 20, [a, b]);
  assert.equal(out.length, 1, 'a cell left with none is dropped');
  assert.equal(out[0].count, 2);
  assert.ok(Math.abs(out[0].meanLat - (20 * 3 - a.lat) / 2) < 1e-6);
  assert.ok(Math.abs(out[0].meanLng - (30 * 3 - a.lng) / 2) < 1e-6);
  assert.equal(cells[0].count, 3, 'the cells given are not changed');
});

test('levels worked out as views first need them give the landmarks of all levels at once', () => {
  const lazy = new Landmarks(withLines);
  const japan = boxFromCenter(37_000_000, 137_000_000, 24_000_000, 30_000_000);
  const first = lazy.shownIn(japan, 7);
  assert.equal(lazy.through, 7, 'a view of all Japan works out levels up to 7 alone');
  assert.deepEqual(first.map((e) => e.id), landmarks.shownIn(japan, 7).map((e) => e.id));
  const tokyo = boxFromCenter(35_681_236, 139_767_125, 200_000, 100_000);
  for (const zoom of [13, 9, 16]) {
    assert.deepEqual(lazy.shownIn(tokyo, zoom).map((e) => e.id), landmarks.shownIn(tokyo, zoom).map((e) => e.id), `level ${zoom}`);
  }
  assert.deepEqual([...lazy.minZoomById].sort((a, b) => a[0] - b[0]), [...landmarks.minZoomById].sort((a, b) => a[0] - b[0]));
});
