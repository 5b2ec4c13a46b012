// One frame's overlay (mapOverlay.js) over the v176 catalogue: one pin per point coloured by all,
// some or none completed; the hubs of Tokyo named at a zoom showing Tokyo; no bubble over a pin or
// a name; the counts leave out what a pin stands for; the names stay put while the view pans.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, conformanceDir } from './support/paths.mjs';

const { buildOverlay, PIN_RADIUS } = await appModule('mapOverlay.js');
const { Landmarks } = await appModule('mapLandmarks.js');
const { MapIndex } = await appModule('mapRule.js');
const { project } = await appModule('mapCore.js');
const { Catalog } = await appModule('catalog.js');
const { buildScene, viewBox } = await appModule('map.js');
const { sceneGeometry } = await appModule('sceneGeometry.js');
const { COMPLETION_COLOURS } = await appModule('completionColours.js');
const { PIN_MARGIN } = await appModule('mapLabels.js');

const catalog = new Catalog(JSON.parse(readFileSync(path.join(conformanceDir, 'catalog.json'), 'utf8')));
// Completed: JR East's 東京 (its point shares JR Central's two: some), and 池袋 of JR East.
const completed = new Set([202919, 204602]);
const scene = buildScene(catalog, (id) => (completed.has(id) ? 20130901 : 0), sceneGeometry(catalog, ''));
const entries = catalog.enabledStations.map((s) => ({ id: s.id, lat: s.lat, lng: s.lng, weight: s.weight }));
const index = new MapIndex(entries, 100);
const landmarks = new Landmarks(entries.map((e) => ({ ...e, lines: scene.hubLines[scene.indexOf.get(e.id)] })));
const measure = (text) => text.length * 12;
const nameOf = (id) => catalog.station(id)?.name.trim() ?? '';
const tokyo = project(35_681_236, 139_767_125);

const frame = (view, width = 390, height = 700) => buildOverlay({ index, landmarks, scene, view, width, height, nameOf, measure, selected: null });
const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

test('at a zoom showing Tokyo the four hubs are named pins', () => {
  for (const height of [560, 650, 788]) {
    for (const scale of [1.3, 1.7, 2.2, 2.5, 3]) {
      const o = frame({ cx: tokyo.x, cy: tokyo.y, scale }, 390, height);
      const named = new Set(o.labels.filter((l) => l.inView).map((l) => l.text));
      for (const hub of ['東京駅', '渋谷駅', '池袋駅', '上野駅']) assert.ok(named.has(hub), `${height} px, scale ${scale} (level ${o.zoom}): ${hub}`);
    }
  }
});

test('one pin per point, green, red or half and half', () => {
  const o = frame({ cx: tokyo.x, cy: tokyo.y, scale: 2.5 });
  const keys = o.points.map((p) => `${Math.round(p.px * 100)},${Math.round(p.py * 100)}`);
  assert.equal(new Set(keys).size, keys.length, 'no two pins at one point');
  const at = (name) => o.points.find((p) => nameOf(p.station) === name && p.inView);
  const tokyoPin = at('東京駅');
  assert.deepEqual([...tokyoPin.stations].sort(), [120001, 120049, 202919]);
  assert.equal(tokyoPin.stations[0], 202919, 'the completed station first');
  assert.equal(tokyoPin.state, 'some');
  assert.deepEqual([tokyoPin.colours.left, tokyoPin.colours.right], [COMPLETION_COLOURS.done, COMPLETION_COLOURS.rest]);
  assert.equal(at('池袋駅').state, 'all');
  assert.equal(at('池袋駅').colours.left, COMPLETION_COLOURS.done);
  assert.equal(at('上野駅').state, 'none');
  assert.equal(o.labels.find((l) => l.text === '池袋駅').state, 'all');
});

test('no bubble covers a pin, a name or another bubble', () => {
  for (const [view, what] of [
    [{ cx: tokyo.x, cy: tokyo.y, scale: 2.5 }, 'Tokyo'],
    [{ cx: tokyo.x, cy: tokyo.y, scale: 0.6 }, 'Kanto'],
    [{ cx: 135_500 * 0.809, cy: -34_700, scale: 1.5 }, 'Osaka'],
    [{ cx: 137_000 * 0.809, cy: -36_500, scale: 0.02 }, 'Japan'],
  ]) {
    const o = frame(view);
    const rects = [
      ...o.points.map((p) => [p.px - p.radius - PIN_MARGIN, p.py - p.radius - PIN_MARGIN, p.px + p.radius + PIN_MARGIN, p.py + p.radius + PIN_MARGIN]),
      ...o.labels.map((l) => [l.x, l.y - 7, l.x + measure(l.text), l.y + 7]),
    ];
    o.bubbles.forEach((b, k) => {
      const r = [b.px - b.radius, b.py - b.radius, b.px + b.radius, b.py + b.radius];
      for (const other of rects) assert.equal(overlaps(r, other), false, `${what}: the bubble of ${b.cell.count}`);
      o.bubbles.slice(k + 1).forEach((c) => assert.ok(Math.hypot(b.px - c.px, b.py - c.py) >= b.radius + c.radius, `${what}: two bubbles`));
    });
    assert.ok(o.points.length > 0, `${what} has pins`);
  }
});

test('the counts hold every station of the view but those a pin stands for', () => {
  const view = { cx: tokyo.x, cy: tokyo.y, scale: 2.5 };
  const o = frame(view);
  const box = viewBox(view, 390, 700);
  const inBox = catalog.enabledStations.filter((s) => s.lat >= box.south && s.lat < box.north && s.lng >= box.west && s.lng < box.east);
  const standFor = new Set(o.points.flatMap((p) => p.stations));
  const counted = o.bubbles.reduce((n, b) => n + b.cell.count, 0);
  const free = inBox.filter((s) => !standFor.has(s.id)).length;
  assert.ok(counted <= free, `${counted} counted, ${free} without a pin`);
  assert.ok(counted >= free * 0.6, `most of them are counted (a bubble without room is left out): ${counted} of ${free}`);
});

test('the names do not change while the view pans a little', () => {
  const a = frame({ cx: tokyo.x, cy: tokyo.y, scale: 2.5 });
  const b = frame({ cx: tokyo.x + 20, cy: tokyo.y - 10, scale: 2.5 });
  const inner = (l, dx, dy) => l.px > 80 + dx && l.px < 310 + dx && l.py > 120 + dy && l.py < 580 + dy;
  const namesA = a.labels.filter((l) => inner(l, 0, 0)).map((l) => `${l.station}:${Math.round(l.x - l.px)},${Math.round(l.y - l.py)}`).sort();
  const namesB = b.labels.filter((l) => inner(l, 0, 0)).filter((l) => a.labels.some((m) => m.station === l.station && inner(m, 0, 0)))
    .map((l) => `${l.station}:${Math.round(l.x - l.px)},${Math.round(l.y - l.py)}`).sort();
  const common = namesB.filter((n) => namesA.includes(n));
  assert.ok(common.length >= namesB.length * 0.9, `the same names, placed the same: ${common.length} of ${namesB.length}`);
  assert.equal(PIN_RADIUS, 7);
});
