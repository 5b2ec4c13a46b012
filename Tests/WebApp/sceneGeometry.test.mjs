// The scene's geometry kept beside the catalogue (Schemas/phone-app.md "The scene kept with the
// catalogue"): a scene built from the kept copy, as IndexedDB gives it back, is the scene built
// from a fresh one; the copy is used only for the catalogue and the form it was worked out from.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, conformanceDir } from './support/paths.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';
import { FakeIndexedDb } from './support/fakeIndexedDb.mjs';

const { Catalog } = await appModule('catalog.js');
const { buildScene } = await appModule('map.js');
const { GEOMETRY_FORMAT, GEOMETRY_KEY, catalogKey, keepGeometry, keptGeometry, sceneGeometry } = await appModule('sceneGeometry.js');
const { Ledger } = await appModule('ledger.js');
const { IndexedDbStore } = await appModule('store.js');

const NOW = 1_770_000_000_000;
const catalog = new Catalog(JSON.parse(readFileSync(path.join(conformanceDir, 'catalog.json'), 'utf8')));
const completed = new Set(catalog.enabledStations.filter((_, i) => i % 3 === 0).map((s) => s.id));
const compDate = (/** @type {number} */ id) => (completed.has(id) ? 20_130_901 : 0);

/** A scene as plain values, to compare two. */
const plain = (scene) => ({
  ...scene, ids: [...scene.ids], xs: [...scene.xs], ys: [...scene.ys], completed: [...scene.completed],
  indexOf: [...scene.indexOf], lineCounts: [...scene.lineCounts], hubLines: [...scene.hubLines],
  samePoint: [...scene.samePoint].sort(), lines: scene.lines.map((l) => ({ ...l, points: [...l.points] })), revision: 0,
});

async function replicaWith(catalogDoc, etag, name) {
  const idb = new FakeIndexedDb();
  const ledger = await Ledger.open(await IndexedDbStore.open(idb, name), { now: NOW, newDevice: () => '00000000000000c1', deviceName: 'phone' });
  await ledger.setMeta({ catalog: { text: JSON.stringify(catalogDoc), etag, version: catalogDoc.version } });
  return { ledger, reopen: async () => Ledger.open(await IndexedDbStore.open(idb, name), { now: NOW, newDevice: () => '00000000000000c2', deviceName: 'phone' }) };
}

test('a scene from the kept geometry, read back from IndexedDB, is the scene from a fresh one', async () => {
  const doc = JSON.parse(readFileSync(path.join(conformanceDir, 'catalog.json'), 'utf8'));
  const { ledger, reopen } = await replicaWith(doc, '"v1"', 'geometry');
  assert.equal(keptGeometry(ledger, catalog), null, 'nothing kept yet');
  const fresh = sceneGeometry(catalog, catalogKey(ledger));
  await keepGeometry(ledger, fresh);
  const again = await reopen();
  const kept = keptGeometry(again, catalog);
  assert.ok(kept, 'the kept geometry is found after a reopen');
  assert.ok(kept !== fresh);
  assert.ok(kept.samePoint.length > 0 && kept.lineIds.length > 0, 'the catalogue has shared points and ordered lines');
  assert.deepEqual(plain(buildScene(catalog, compDate, kept)), plain(buildScene(catalog, compDate, fresh)));
  const scene = buildScene(catalog, compDate, kept);
  assert.equal(scene.completed.reduce((a, b) => a + b, 0), completed.size);
});

test('the kept geometry is refused for another catalogue, another form or damaged arrays', async () => {
  const small = new Catalog(smallCatalogDoc());
  const { ledger } = await replicaWith(smallCatalogDoc(), '"s1"', 'refusals');
  const geometry = sceneGeometry(small, catalogKey(ledger));
  assert.equal(geometry.format, GEOMETRY_FORMAT);
  assert.deepEqual([...geometry.samePoint], [3, 0, 3, 5], 'the three 津駅 at one point, as indices in s_id order');
  const keep = (value) => ledger.takeMeta({ [GEOMETRY_KEY]: value });
  keep(geometry);
  assert.equal(keptGeometry(ledger, small), geometry);
  const cases = {
    'another catalogue': { ...geometry, catalog: '176 "other"' },
    'another form': { ...geometry, format: GEOMETRY_FORMAT + 1 },
    'a station that is not the catalogue\'s': { ...geometry, ids: Int32Array.from(geometry.ids, (id, i) => (i === 1 ? id + 1 : id)) },
    'an array of another type': { ...geometry, xs: Array.from(geometry.xs) },
    'too few stations': { ...geometry, hubLines: geometry.hubLines.subarray(1) },
    'a line through a station it does not have': { ...geometry, linePoints: Int32Array.from(geometry.linePoints, (i) => i + 100) },
    'a group past the end': { ...geometry, samePoint: Int32Array.of(5, 0, 2) },
    'a shared point of one station': { ...geometry, samePoint: Int32Array.of(1, 0) },
  };
  for (const [why, value] of Object.entries(cases)) {
    keep(value);
    assert.equal(keptGeometry(ledger, small), null, why);
  }
  // A catalogue held without an ETag has no key: nothing is kept for it.
  await ledger.setMeta({ catalog: { text: JSON.stringify(smallCatalogDoc()), etag: null, version: 176 } });
  keep({ ...geometry, catalog: '' });
  assert.equal(catalogKey(ledger), '');
  assert.equal(keptGeometry(ledger, small), null);
});

const { MapIndex, boxFromCenter, keptIndexFits } = await appModule('mapRule.js');
const { PIN_INDEX_KEY, keepPinIndex, keptPinIndex } = await appModule('sceneGeometry.js');

const entries = catalog.enabledStations.map((s) => ({ id: s.id, lat: s.lat, lng: s.lng, weight: s.weight }));

/** Boxes over Japan at spans from the whole country to a few streets. */
function* boxes() {
  for (const span of [20_000_000, 4_000_000, 800_000, 150_000, 30_000, 5_000]) {
    for (let lat = 31_000_000; lat <= 44_000_000; lat += 2_600_000) {
      for (let lng = 130_000_000; lng <= 145_000_000; lng += 3_000_000) yield boxFromCenter(lat, lng, span, span);
    }
  }
}

for (const limit of [0, 4, 100]) {
  test(`a pin index built from its kept form answers as the index it was kept from (limit ${limit})`, async () => {
    const { ledger, reopen } = await replicaWith(JSON.parse(readFileSync(path.join(conformanceDir, 'catalog.json'), 'utf8')), '"v1"', `pins-${limit}`);
    const fresh = new MapIndex(entries, limit);
    await keepPinIndex(ledger, new MapIndex(entries, limit));
    const kept = keptPinIndex(await reopen(), entries, limit);
    assert.ok(kept, 'found after a reopen');
    assert.equal(kept.nextLevel, 30, 'nothing left to work out');
    let compared = 0;
    for (const box of boxes()) {
      assert.deepEqual(kept.query(box), fresh.query(box));
      assert.deepEqual(kept.hidden(box), fresh.hidden(box));
      compared += fresh.query(box).pins.length;
    }
    assert.ok(compared > 50, `the boxes held pins (${compared})`);
    assert.deepEqual([...kept.minZoomById], [...fresh.minZoomById]);
    assert.equal(keptPinIndex(ledger, entries, limit === 100 ? 50 : 100), null, 'another limit');
  });
}

test('a kept pin index is refused for another catalogue, another form, or arrays that cannot be one', async () => {
  const { ledger } = await replicaWith(JSON.parse(readFileSync(path.join(conformanceDir, 'catalog.json'), 'utf8')), '"v1"', 'pins-refused');
  const kept = new MapIndex(entries, 100).kept();
  const stored = { format: 1, catalog: catalogKey(ledger), ...kept };
  ledger.takeMeta({ [PIN_INDEX_KEY]: stored });
  assert.ok(keptPinIndex(ledger, entries, 100));
  const swapped = Int32Array.from(kept.order);
  swapped[0] = swapped[1];
  const cases = {
    'another catalogue': { ...stored, catalog: '176 "other"' },
    'another form': { ...stored, format: 2 },
    'an order with a station twice': { ...stored, order: swapped },
    'ranks out of range': { ...stored, ranks: Int32Array.from(kept.ranks, (r) => r + 1) },
    'fewer min_zooms': { ...stored, minZooms: kept.minZooms.subarray(1) },
    'a plain array': { ...stored, order: Array.from(kept.order) },
  };
  for (const [why, value] of Object.entries(cases)) {
    ledger.takeMeta({ [PIN_INDEX_KEY]: value });
    assert.equal(keptPinIndex(ledger, entries, 100), null, why);
  }
  assert.equal(keptIndexFits(entries.slice(1), 100, kept), false, 'other entries');
});

test('a full storage refuses the kept forms quietly: the next start works them out again', async () => {
  const idb = new FakeIndexedDb();
  const ledger = await Ledger.open(await IndexedDbStore.open(idb, 'full'), { now: NOW, newDevice: () => '00000000000000c3', deviceName: 'phone' });
  await ledger.setMeta({ catalog: { text: '{}', etag: '"f"', version: 176 } });
  idb.failPutsWith = 'QuotaExceededError';
  await keepGeometry(ledger, sceneGeometry(catalog, catalogKey(ledger)));
  await keepPinIndex(ledger, new MapIndex(entries, 100));
  idb.failPutsWith = null;
  const again = await Ledger.open(await IndexedDbStore.open(idb, 'full'), { now: NOW, newDevice: () => 'x', deviceName: 'phone' });
  assert.equal(keptGeometry(again, catalog), null);
  assert.equal(keptPinIndex(again, entries, 100), null);
  assert.equal(again.getMeta('catalog').etag, '"f"', 'what was saved before is there');
});
