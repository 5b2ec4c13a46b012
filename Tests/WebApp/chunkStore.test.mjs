import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';
import { FakeIndexedDb } from './support/fakeIndexedDb.mjs';

const { Ledger } = await appModule('ledger.js');
const { IndexedDbStore, MemoryStore } = await appModule('store.js');
const { SyncSession } = await appModule('sync.js');
const { Api } = await appModule('api.js');
const { fromWire, toStored } = await appModule('records.js');
const { readFrames, writeFrames } = await appModule('recordFrames.js');

const NOW = 1_750_000_000_000;
let counter = 0;
const nextDevice = () => (0x5000 + ++counter).toString(16).padStart(16, '0');
const open = (store, name = 'phone') => Ledger.open(store, { now: NOW, newDevice: nextDevice, deviceName: name });
const rows = (ledger) => JSON.stringify(ledger.fold.rows());
const OTHER = '00000000000000b2';

/** A server holding `n` station edits of OTHER (and its name). */
function seeded(n, frames) {
  const server = new FakeServer({ now: () => NOW });
  server.frames = frames;
  const records = [fromWire({ kind: 'device_name', device: OTHER, hlc: String(BigInt(NOW - 5000) << 16n), name: 'laptop' })];
  for (let i = 1; i <= n; i++) {
    records.push(fromWire({ kind: 'station_edit', device: OTHER, seq: i, hlc: String(BigInt(NOW - 4000 + i) << 16n), station: 1_130_000 + (i % 700), comp_date: 20_130_901, ...(i % 10 === 0 ? { memo: `メモ ${i}` } : {}) }));
  }
  server.seed(records);
  return server;
}

const sync = (ledger, server) => new SyncSession({ ledger, api: new Api(server.fetch, 'http://server.test'), now: () => NOW, newDevice: nextDevice }).run('secret');

test('a pull answered with record frames is stored as they came, one chunk a page, and opens again as the same replica', async () => {
  const server = seeded(5000, true);
  const store = new MemoryStore();
  const phone = await open(store);
  await phone.edit(1_130_001, { memo: 'mine' }, NOW);
  const report = await sync(phone, server);
  assert.equal(report.pulled, 5000);
  const pull = server.requests.filter((r) => r.path === '/v1/pull');
  assert.equal(pull[0].body.limit, 2000, 'the first page as JSON would be');
  assert.equal(pull[1].body.limit, 100_000, 'then the pages frames allow');
  assert.ok(store.chunks.length >= 2);
  assert.equal(store.chunks.reduce((n, c) => n + c.count, 0), 5001, "the other device's events and its name");
  assert.ok(store.chunks.every((c) => readFrames(c.bytes).events.length === c.count));
  assert.ok([...store.records.values()].every((r) => r.device === phone.device), "only this device's records one per value");
  const again = await open(store);
  assert.equal(rows(again), rows(phone));
  assert.equal(again.held(OTHER), 5000n);
  assert.equal(again.deviceName(OTHER), 'laptop');
  assert.deepEqual(again.history(1_130_010).map((e) => e.seq), phone.history(1_130_010).map((e) => e.seq));
});

test('a JSON answer (a server without frames) is stored as chunks written by the app', async () => {
  const server = seeded(2500, false);
  const store = new MemoryStore();
  const phone = await open(store);
  await sync(phone, server);
  assert.equal(store.chunks.length, 2, 'a chunk a page');
  assert.equal(store.chunks.reduce((n, c) => n + c.count, 0), 2501);
  assert.equal(rows(await open(store)), rows(phone));
});

test('a page holding records already held is written again without them', async () => {
  const store = new MemoryStore();
  const phone = await open(store);
  const events = Array.from({ length: 4 }, (_, i) => fromWire({ kind: 'station_edit', device: OTHER, seq: i + 1, hlc: String(BigInt(NOW - 100 + i) << 16n), station: 1_130_105, comp_date: 1 }));
  await phone.receive(events.slice(0, 2), NOW, undefined, writeFrames(events.slice(0, 2)));
  await phone.receive(events, NOW, undefined, writeFrames(events));
  assert.deepEqual(store.chunks.map((c) => c.count), [2, 2]);
  assert.deepEqual(readFrames(store.chunks[1].bytes).events.map((e) => e.seq), [3n, 4n]);
  assert.equal((await open(store)).held(OTHER), 4n);
});

test("a replica from before chunks: other devices' records move into one chunk at its first open, in one strict commit, and nothing is lost", async () => {
  const idb = new FakeIndexedDb();
  // Version 1 as it was: identity, records, meta.
  idb.version = 1;
  for (const name of ['identity', 'records', 'meta']) idb.stores.set(name, { keyPath: name === 'records' ? 'key' : null, data: new Map() });
  const device = '0000000000000a11';
  idb.stores.get('identity').data.set('self', { device, name: 'phone', nextSeq: '2', lastHlc: String(BigInt(NOW) << 16n), markOwed: false });
  const held = [
    { kind: 'device_name', device, hlc: String(BigInt(NOW - 9) << 16n), name: 'phone' },
    { kind: 'station_edit', device, seq: 1, hlc: String(BigInt(NOW - 8) << 16n), station: 1_130_105, memo: 'mine' },
    { kind: 'device_name', device: OTHER, hlc: String(BigInt(NOW - 7) << 16n), name: 'laptop' },
    ...Array.from({ length: 300 }, (_, i) => ({ kind: 'station_edit', device: OTHER, seq: i + 1, hlc: String(BigInt(NOW - 5000 + i) << 16n), station: 1_130_000 + i, comp_date: 20_100_101 })),
    { kind: 'knowledge_mark', device: OTHER, seq: 301, hlc: String(BigInt(NOW - 6) << 16n), knowledge: { [device]: 1 } },
  ].map((w) => toStored(fromWire(w)));
  for (const s of held) idb.stores.get('records').data.set(s.key, s);
  idb.stores.get('meta').data.set('user', 'alice');

  const store = await IndexedDbStore.open(/** @type {any} */ (idb));
  assert.equal(idb.version, 2);
  const phone = await open(store);
  assert.deepEqual(idb.durabilities, ['strict'], 'one strict commit');
  assert.deepEqual(idb.all('records').map((r) => r.key).sort(), [`${device}:00000000000000000001`, `name:${device}`]);
  assert.deepEqual(idb.all('chunks').map((c) => c.count), [302]);
  assert.equal(phone.held(OTHER), 301n);
  assert.equal(phone.fold.memo(1_130_105), 'mine');
  assert.equal(phone.deviceName(OTHER), 'laptop');
  assert.equal(phone.getMeta('user'), 'alice');
  const again = await open(await IndexedDbStore.open(/** @type {any} */ (idb)));
  assert.deepEqual(idb.durabilities, ['strict'], 'moved once');
  assert.equal(rows(again), rows(phone));
  assert.equal(again.allRecords().length, phone.allRecords().length);
});

test('signing out with erasing clears the chunks too', async () => {
  const idb = new FakeIndexedDb();
  const store = await IndexedDbStore.open(/** @type {any} */ (idb));
  const phone = await open(store);
  await sync(phone, seeded(10, true));
  assert.equal(idb.all('chunks').length, 1);
  await store.commit({ clear: true });
  const { chunks, ...held } = await store.load();
  assert.deepEqual(held, { identity: null, records: [], chunkKeys: [], meta: new Map() });
  assert.deepEqual(await chunks(), []);
});

for (const [kind, make] of [['memory', async () => new MemoryStore()], ['IndexedDB', () => IndexedDbStore.open(/** @type {any} */ (new FakeIndexedDb()))]]) {
  test(`${kind}: a snapshot's chunks are those its keys were read with, the ones still there`, async () => {
    const store = await make();
    const frame = (n) => ({ bytes: writeFrames([fromWire({ kind: 'station_edit', device: OTHER, seq: n, hlc: String(BigInt(NOW + n) << 16n), station: 1_130_001, comp_date: 20_130_901 })]), count: 1 });
    await store.commit({ chunks: [frame(1), frame(2)] });
    const snapshot = await store.load();
    assert.equal(snapshot.chunkKeys.length, 2);
    // Another tab, between the two reads: one chunk deleted, one added.
    await store.commit({ dropChunks: [snapshot.chunkKeys[0]], chunks: [frame(3)] });
    const chunks = await snapshot.chunks();
    assert.deepEqual(chunks.map((c) => c.key), [snapshot.chunkKeys[1]]);
    assert.deepEqual(readFrames(chunks[0].bytes).events.map((e) => e.seq), [2n]);
    assert.equal((await store.load()).chunkKeys.length, 2, 'the added chunk is read at the next open');
  });
}
