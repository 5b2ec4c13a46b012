// The completions snapshot (Schemas/phone-app.md "The completions snapshot"): stored with each
// pulled chunk and after a sync, stamped with the records it reflects; at open the map reads it
// while the records are decoded in slices; one that does not match the records read is ignored;
// a write made before the records are decoded waits for them and is kept once.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeIndexedDb } from './support/fakeIndexedDb.mjs';

const { Ledger } = await appModule('ledger.js');
const { IndexedDbStore, MemoryStore } = await appModule('store.js');
const { COMPLETIONS_KEY } = await appModule('completionsSnapshot.js');
const { fromWire } = await appModule('records.js');
const { writeFrames } = await appModule('recordFrames.js');

const NOW = 1_750_000_000_000;
let counter = 0;
const nextDevice = () => (0x7000 + ++counter).toString(16).padStart(16, '0');
const open = (store, early = true) => Ledger.open(store, { now: NOW, newDevice: nextDevice, deviceName: 'phone' }, { early });
const rows = (ledger) => JSON.stringify(ledger.fold.rows());
const OTHER = '00000000000000c3';
const STATIONS = 300;

/** `n` station edits of OTHER from seq `from`, each a date, every tenth a memo. */
function edits(n, from = 1) {
  return Array.from({ length: n }, (_, i) => fromWire({
    kind: 'station_edit', device: OTHER, seq: from + i, hlc: String(BigInt(NOW - 100_000 + from + i) << 16n),
    station: 1_130_000 + ((from + i) % STATIONS), comp_date: 20_130_901 + ((from + i) % 20), ...((from + i) % 10 === 0 ? { memo: `メモ ${from + i}` } : {}),
  }));
}

/** A replica holding 5,000 events of OTHER in two chunks, its snapshot stored with the second. */
async function pulledReplica(store = new MemoryStore()) {
  const phone = await open(store);
  for (const page of [edits(2000), edits(3000, 2001)]) await phone.receive(page, NOW, undefined, writeFrames(page));
  return { store, phone };
}

test('each pulled chunk is stored with a snapshot stamped with the records it reflects', async () => {
  const { store, phone } = await pulledReplica();
  const stored = store.meta.get(COMPLETIONS_KEY);
  assert.equal(stored.format, 1);
  assert.deepEqual(stored.replica, { chunks: 2, lastChunk: 2, records: 1, lastRecord: `name:${phone.device}` });
  assert.equal(stored.stations.length, STATIONS);
  const i = [...stored.stations].indexOf(1_130_010);
  assert.equal(stored.dates[i], phone.fold.compDate(1_130_010));
  assert.equal(stored.memos[i], phone.fold.memo(1_130_010));
  assert.equal(Math.floor(stored.updated[i] / 1000), phone.fold.updateSeconds(1_130_010));
  assert.equal(phone.getMeta(COMPLETIONS_KEY), undefined, 'not a setting');
});

test('opening reads a matching snapshot at once, decodes the records after it, then reads their fold', async () => {
  const { store, phone } = await pulledReplica();
  const again = await open(store);
  assert.ok(again.early, 'the snapshot is used');
  assert.equal(again.eventCount() < 5000, true, 'returned before the records are decoded');
  for (let s = 1_130_000; s < 1_130_000 + STATIONS; s++) assert.equal(again.compDate(s), phone.fold.compDate(s));
  let notified = null;
  again.onChange((stations) => { notified = stations; });
  await again.loaded;
  assert.equal(again.early, null);
  assert.equal(notified, null, 'the screens draw everything again from the fold');
  assert.equal(again.eventCount(), 5000);
  assert.equal(rows(again), rows(phone));
  assert.equal(again.savedRevision, again.revision, 'the stored snapshot stands: nothing to store again');
});

test('a snapshot that does not match the records read is ignored, and the records are decoded first', async () => {
  const cases = {
    'an edit after it': async (store, phone) => { await phone.edit(1_130_001, { memo: 'after' }, NOW); },
    'another last chunk key': async (store) => { store.meta.get(COMPLETIONS_KEY).replica.lastChunk = 7; },
    'another record count': async (store) => { store.meta.get(COMPLETIONS_KEY).replica.records = 0; },
    'another format': async (store) => { store.meta.get(COMPLETIONS_KEY).format = 2; },
    'rows of unequal lengths': async (store) => { store.meta.get(COMPLETIONS_KEY).memos.pop(); },
    'a chunk added without it': async (store) => { store.chunks.push({ key: 3, bytes: writeFrames(edits(1, 5001)), count: 1 }); },
  };
  for (const [name, spoil] of Object.entries(cases)) {
    const { store, phone } = await pulledReplica();
    await spoil(store, phone);
    const again = await open(store);
    assert.equal(again.early, null, name);
    assert.equal(again.eventCount(), ['a chunk added without it', 'an edit after it'].includes(name) ? 5001 : 5000, name);
    assert.equal(again.compDate(1_130_010), again.fold.compDate(1_130_010), name);
    if (name === 'an edit after it') assert.equal(again.fold.memo(1_130_001), 'after');
  }
});

test('a snapshot whose rows lie (written by another tab, say) is replaced by the fold once decoded', async () => {
  const { store, phone } = await pulledReplica();
  const stored = store.meta.get(COMPLETIONS_KEY);
  stored.dates[0] = 1;
  const again = await open(store);
  assert.equal(again.compDate(stored.stations[0]), 1, 'read until the records are decoded');
  await again.loaded;
  assert.equal(again.compDate(stored.stations[0]), phone.fold.compDate(stored.stations[0]));
  assert.notEqual(again.savedRevision, again.revision);
  await again.saveCompletions();
  assert.equal(store.meta.get(COMPLETIONS_KEY).dates[0], phone.fold.compDate(stored.stations[0]), 'stored again');
});

test('an edit made while the records are decoded waits for them, and is kept once', async () => {
  const { store } = await pulledReplica();
  const again = await open(store);
  assert.ok(again.early);
  const station = 1_130_010, held = edits(5000).filter((e) => e.station === station).at(-1);
  // The same date as the records' fold: no event (checked against the full fold, not the snapshot).
  const same = again.edit(station, { compDate: /** @type {number} */ (held.compDate) }, NOW);
  const changed = again.edit(station, { compDate: 20_240_101, memo: 'during' }, NOW);
  assert.equal(await same, null);
  const event = await changed;
  assert.equal(event.seq, 1n, "this device's first event");
  assert.equal(again.fold.compDate(station), 20_240_101);
  const reopened = await open(store);
  await reopened.loaded;
  assert.equal(reopened.held(again.device), 1n, 'kept once');
  assert.equal(reopened.fold.memo(station), 'during');
  assert.equal(reopened.eventCount(), 5001);
});

test('after a sync the snapshot is stored again when the records changed, and only then', async () => {
  const { store, phone } = await pulledReplica();
  await phone.edit(1_130_002, { memo: 'mine' }, NOW);
  const commits = store.commits;
  await phone.saveCompletions();
  assert.equal(store.commits, commits + 1);
  assert.deepEqual(store.durabilities.at(-1), 'relaxed');
  await phone.saveCompletions();
  assert.equal(store.commits, commits + 1, 'nothing changed since');
  const again = await open(store);
  assert.ok(again.early);
  assert.equal(again.compDate(1_130_002), phone.fold.compDate(1_130_002));
});

test('IndexedDB: the snapshot is stamped inside the chunk\'s transaction, and a replica with a damaged chunk refuses writes', async () => {
  const idb = new FakeIndexedDb();
  const store = await IndexedDbStore.open(idb, 'snapshot');
  const { phone } = await pulledReplica(store);
  assert.deepEqual(idb.all('meta').find((v) => v && v.format === 1)?.replica, { chunks: 2, lastChunk: 2, records: 1, lastRecord: `name:${phone.device}` });
  const again = await open(await IndexedDbStore.open(idb, 'snapshot'));
  assert.ok(again.early);
  await again.loaded;
  assert.equal(rows(again), rows(phone));
  // A chunk spoilt under a matching snapshot: the map drew, the decode finds it, writes refuse.
  const chunk = idb.stores.get('chunks').data.get('1');
  chunk.bytes[chunk.bytes.length - 1] ^= 0xff;
  const spoilt = await open(await IndexedDbStore.open(idb, 'snapshot'));
  assert.ok(spoilt.early);
  await assert.rejects(spoilt.loaded, (error) => error.reason === 'unreadable');
  await assert.rejects(spoilt.edit(1_130_001, { memo: 'lost?' }, NOW), (error) => error.reason === 'unreadable');
});
