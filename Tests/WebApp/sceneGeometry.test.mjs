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
