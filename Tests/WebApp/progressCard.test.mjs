// The progress card's parts that need no canvas (progressCard.js): where each part goes, the
// leading prefectures, the stations as dots fitted into the map's box.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { cardLayout, leadingPrefectures, mapDots, cardFileName, CARD_SIZE } = await appModule('progressCard.js');
const { Catalog } = await appModule('catalog.js');

const catalog = new Catalog(smallCatalogDoc());
const inside = (r, outer) => r.x >= outer.x && r.y >= outer.y && r.x + r.width <= outer.x + outer.width && r.y + r.height <= outer.y + outer.height;
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('every part inside the card, none over another, at the card size and a smaller one', () => {
  for (const [w, h] of [[CARD_SIZE, CARD_SIZE], [600, 600], [1200, 900]]) {
    const layout = cardLayout(w, h);
    const parts = ['title', 'totals', 'map', 'prefectures', 'footer'].map((k) => [k, layout[k]]);
    for (const [k, r] of parts) {
      assert.ok(inside(r, { x: 0, y: 0, width: w, height: h }), `${w}×${h}: ${k} inside`);
      assert.ok(r.width > 0 && r.height > 0, `${w}×${h}: ${k} not empty`);
    }
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j < parts.length; j++) assert.ok(!overlap(parts[i][1], parts[j][1]), `${w}×${h}: ${parts[i][0]} and ${parts[j][0]}`);
    }
    assert.ok(layout.map.width > layout.prefectures.width, 'the map is the larger part');
  }
});

test('the leading prefectures: by completed share, then completed stations, then code; none without a completion', () => {
  assert.deepEqual(leadingPrefectures(catalog, () => 0), []);
  const dates = new Map([[202945, 20130901], [201111, 20130901], [300260, 20130901]]);
  const leading = leadingPrefectures(catalog, (id) => dates.get(id) ?? 0);
  assert.deepEqual(leading.map((p) => [p.code, p.name, p.completed, p.total, p.permille]), [[14, '神奈川県', 1, 1, 1000], [24, '三重県', 2, 6, 333]]);
  assert.equal(leadingPrefectures(catalog, (id) => dates.get(id) ?? 0, 1).length, 1);
});

test('every enabled station a dot inside the map box, Japan\'s proportions kept, centred', () => {
  const box = { x: 50, y: 200, width: 500, height: 700 };
  const done = new Set([202945]);
  const dots = mapDots(catalog, (id) => (done.has(id) ? 20130901 : 0), box);
  assert.equal(dots.xs.length, catalog.enabledStations.length);
  const i = catalog.enabledStations.findIndex((s) => s.id === 202945);
  assert.equal(dots.done[i], 1);
  assert.equal([...dots.done].filter((d) => d === 1).length, 1);
  const xs = [...dots.xs], ys = [...dots.ys];
  for (let k = 0; k < xs.length; k++) assert.ok(xs[k] >= box.x - 1e-9 && xs[k] <= box.x + box.width + 1e-9 && ys[k] >= box.y - 1e-9 && ys[k] <= box.y + box.height + 1e-9);
  // One side fills the box; the other is centred in it.
  const w = Math.max(...xs) - Math.min(...xs), h = Math.max(...ys) - Math.min(...ys);
  assert.ok(Math.abs(w - box.width) < 1e-6 || Math.abs(h - box.height) < 1e-6);
  assert.ok(Math.abs((Math.min(...xs) + Math.max(...xs)) / 2 - (box.x + box.width / 2)) < 1e-6);
  assert.ok(Math.abs((Math.min(...ys) + Math.max(...ys)) / 2 - (box.y + box.height / 2)) < 1e-6);
  // 小田原 (east) is right of 津, and north of it is up.
  const tsu = catalog.enabledStations.findIndex((s) => s.id === 201111);
  assert.ok(xs[i] > xs[tsu] && ys[i] < ys[tsu]);
});

test('the file is named by the day', () => {
  assert.equal(cardFileName(20250102), 'oritsubushi-progress-20250102.png');
});

test('沖縄県 in an inset at the main islands\' scale, in the open sea at the bottom right; none without it', () => {
  const box = { x: 0, y: 0, width: 600, height: 700 };
  assert.equal(mapDots(catalog, () => 0, box).inset, null);
  const doc = smallCatalogDoc();
  doc.stations.push({ id: 302880, name: '那覇空港駅', yomi: 'なはくうこう', wiki: '', pref: 47, lat: 26206000, lng: 127652000, weight: 13,
    operator: 50050, lines: [], enabled: true, address: '' });
  const withOkinawa = new Catalog(doc);
  const dots = mapDots(withOkinawa, () => 0, box);
  const plain = mapDots(catalog, () => 0, box);
  const i = withOkinawa.enabledStations.findIndex((s) => s.id === 302880);
  const { inset } = dots;
  assert.ok(inset && dots.xs[i] >= inset.x && dots.xs[i] <= inset.x + inset.width && dots.ys[i] >= inset.y && dots.ys[i] <= inset.y + inset.height);
  assert.ok(inside(inset, box));
  // The main islands are placed as without 沖縄県.
  const j = withOkinawa.enabledStations.findIndex((s) => s.id === 202945), k = catalog.enabledStations.findIndex((s) => s.id === 202945);
  assert.equal(dots.xs[j], plain.xs[k]);
  assert.equal(dots.ys[j], plain.ys[k]);
});
