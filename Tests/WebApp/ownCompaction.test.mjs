// The compaction of this device's own records (Schemas/phone-app.md "The stored form"): once the
// server acknowledged at least COMPACT_AT of them, the acknowledged events move into a chunk in
// one strict transaction with the completions snapshot stamped again; the rest stay one per
// value; the replica opens again with every record once; a refused transaction changes nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeIndexedDb } from './support/fakeIndexedDb.mjs';
import { FakeServer } from './support/fakeServer.mjs';

const { Ledger } = await appModule('ledger.js');
const { IndexedDbStore, MemoryStore } = await appModule('store.js');
const { COMPACT_AT } = await appModule('ownCompaction.js');
const { SyncSession } = await appModule('sync.js');
const { Api } = await appModule('api.js');
const { readFrames } = await appModule('recordFrames.js');
const { App } = await appModule('app.js');
const { eventKey, toStored } = await appModule('records.js');

const NOW = 1_750_000_000_000;
let counter = 0;
const nextDevice = () => (0x8000 + ++counter).toString(16).padStart(16, '0');
const open = (store, early = false) => Ledger.open(store, { now: NOW, newDevice: nextDevice, deviceName: 'phone' }, { early });
const rows = (ledger) => JSON.stringify(ledger.fold.rows());

/** A replica with `n` edits of its own, the server said to hold the first `acknowledged`. */
async function edited(store, n, acknowledged) {
  const phone = await open(store);
  for (let i = 1; i <= n; i++) await phone.edit(1_130_000 + i, { compDate: 20_130_901, memo: `m${i}` }, NOW + i);
  await phone.setMeta({ sync: { serverHas: { [phone.device]: String(acknowledged) } } });
  return phone;
}

/** The seqs of this device's events stored one per value, ascending. */
const singles = (values, device) => values.filter((s) => s.kind !== 'device_name' && s.device === device).map((s) => Number(s.seq)).sort((a, b) => a - b);
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('exactly the acknowledged events move into one chunk; the others and the name stay one per value', async () => {
  const store = new MemoryStore();
  const phone = await edited(store, 300, 280);
  const commits = store.commits;
  assert.equal(await phone.compactOwn(), 280);
  assert.equal(store.commits, commits + 1, 'one transaction');
  assert.equal(store.durabilities.at(-1), 'strict');
  assert.equal(store.chunks.length, 1);
  const moved = readFrames(store.chunks[0].bytes).events;
  assert.equal(store.chunks[0].count, 280);
  assert.deepEqual(moved.map((e) => Number(e.seq)), range(1, 280));
  assert.ok(moved.every((e) => e.device === phone.device && e.hlc === phone.event(phone.device, e.seq).hlc));
  assert.deepEqual(singles([...store.records.values()], phone.device), range(281, 300));
  assert.ok(store.records.has(`name:${phone.device}`));
  // The snapshot was stamped in that transaction: it matches the stores, and opens the map early.
  const again = await open(store, true);
  assert.ok(again.early);
  await again.loaded;
  assert.equal(rows(again), rows(phone));
  assert.equal(again.held(phone.device), 300n);
  assert.equal(again.allRecords().length, phone.allRecords().length);
  assert.equal(await again.compactOwn(), 0, 'nothing new was acknowledged');
});

test('fewer acknowledged events than the threshold: nothing is written', async () => {
  const store = new MemoryStore();
  const phone = await edited(store, COMPACT_AT, COMPACT_AT - 1);
  const commits = store.commits;
  assert.equal(await phone.compactOwn(), 0);
  assert.equal(store.commits, commits);
  assert.equal(store.chunks.length, 0);
  // Once enough are acknowledged since, all of them move, and a reopened replica counts from there.
  await phone.setMeta({ sync: { serverHas: { [phone.device]: String(COMPACT_AT) } } });
  assert.equal(await phone.compactOwn(), COMPACT_AT);
  for (let i = 1; i <= 3; i++) await phone.edit(1_140_000 + i, { compDate: 20_140_101 }, NOW + 1000 + i);
  await phone.setMeta({ sync: { serverHas: { [phone.device]: String(COMPACT_AT + 3) } } });
  const again = await open(store);
  const before = store.commits;
  assert.equal(await again.compactOwn(), 0, 'three acknowledged since the last compaction');
  assert.equal(store.commits, before);
});

test('a record held both in a chunk and as a value is read once', async () => {
  const store = new MemoryStore();
  const phone = await edited(store, 260, 260);
  assert.equal(await phone.compactOwn(), 260);
  // As an interrupted older version could leave it: a moved record also one per value.
  const twice = phone.event(phone.device, 7n);
  store.records.set(eventKey(phone.device, 7n), toStored(twice));
  const again = await open(store);
  assert.equal(again.held(phone.device), 260n);
  assert.equal(again.eventCount(), 260);
  assert.deepEqual(again.history(twice.station).map((e) => e.seq), [7n]);
  assert.equal(rows(again), rows(phone));
});

test('after a sync the app compacts what the server acknowledged, and nothing more', async () => {
  const server = new FakeServer({ now: () => NOW + 10_000 });
  const store = new MemoryStore();
  const phone = await edited(store, 300, 0);
  const report = await new SyncSession({ ledger: phone, api: new Api(server.fetch, 'http://server.test'), now: () => NOW + 10_000, newDevice: nextDevice }).run('secret');
  assert.equal(report.serverHas.get(phone.device), 300n);
  await phone.edit(1_150_000, { memo: 'after the sync' }, NOW + 20_000);
  assert.equal(await phone.compactOwn(), 300);
  assert.deepEqual(singles([...store.records.values()], phone.device), [301]);
  const again = await open(store);
  assert.equal(again.held(phone.device), 301n);
  assert.equal(rows(again), rows(phone));
});

test('App: a completed sync compacts what the server acknowledged', async () => {
  const server = new FakeServer({ now: () => NOW });
  const store = new MemoryStore();
  const app = new App({ store, fetch: server.fetch, now: () => NOW, newDevice: nextDevice, deviceName: 'phone' });
  await app.start();
  await app.pair('ABCD-EFGH');
  await app.running;
  clearTimeout(app.timer);
  for (let i = 1; i <= COMPACT_AT; i++) await app.replica.edit(1_130_000 + i, { compDate: 20_130_901 }, NOW);
  server.offline = true;
  await app.syncNow();
  clearTimeout(app.timer);
  assert.equal(singles([...store.records.values()], app.replica.device).length, COMPACT_AT, 'an offline sync acknowledges nothing, so nothing moves');
  server.offline = false;
  await app.syncNow();
  clearTimeout(app.timer);
  assert.equal(app.state, 'ok');
  assert.deepEqual(singles([...store.records.values()], app.replica.device), []);
  assert.equal(store.chunks.at(-1).count, COMPACT_AT);
});

test('IndexedDB: one strict transaction, stamped; a refused one leaves the store as it was', async () => {
  const idb = new FakeIndexedDb();
  const store = await IndexedDbStore.open(idb, 'compaction');
  const phone = await edited(store, 270, 265);
  const before = { records: idb.all('records'), chunks: idb.all('chunks'), meta: idb.all('meta') };
  // The browser refuses the chunk (a full storage, as another browser may say it).
  idb.failPutsWith = 'QuotaExceededError';
  await assert.rejects(phone.compactOwn(), (error) => error.name === 'StoreError' && error.reason === 'full');
  assert.deepEqual({ records: idb.all('records'), chunks: idb.all('chunks'), meta: idb.all('meta') }, before);
  idb.failPutsWith = null;
  const durabilities = idb.durabilities.length;
  assert.equal(await phone.compactOwn(), 265);
  assert.deepEqual(idb.durabilities.slice(durabilities), ['strict'], 'one read-write transaction, strict');
  assert.deepEqual(singles(idb.all('records'), phone.device), range(266, 270));
  assert.deepEqual(idb.all('meta').find((v) => v && v.format === 1)?.replica, {
    chunks: 1, lastChunk: 1, records: 6, lastRecord: `name:${phone.device}`,
  });
  const again = await open(await IndexedDbStore.open(idb, 'compaction'), true);
  assert.ok(again.early, 'the snapshot still matches the stores');
  await again.loaded;
  assert.equal(again.held(phone.device), 270n);
  assert.equal(rows(again), rows(phone));
});
