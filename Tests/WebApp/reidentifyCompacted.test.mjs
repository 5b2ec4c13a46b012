// A copy found forked at a seq its own events had already been compacted to (Schemas/phone-app.md
// "The stored form", merge.md §10): the re-identification moves those events out of the chunk as
// well, in its one strict transaction, so that the server's versions pulled afterwards under the
// old id are the only ones held there, and the replica opens again as the server's copies see it.
//
// How it comes about: two copies of one replica part after seq 2; the copy's events 3–4 reach
// the server, are acknowledged and compacted; the server is then restored from a backup older
// than them, the original pushes its own events 3–5, and the copy syncs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeIndexedDb } from './support/fakeIndexedDb.mjs';
import { FakeServer } from './support/fakeServer.mjs';

const { Ledger } = await appModule('ledger.js');
const { IndexedDbStore, MemoryStore } = await appModule('store.js');
const { SyncSession } = await appModule('sync.js');
const { Api } = await appModule('api.js');
const { readFrames } = await appModule('recordFrames.js');
const { sameContent } = await appModule('records.js');

const NOW = 1_760_000_000_000;
let counter = 0;
const nextDevice = () => (0x9000 + ++counter).toString(16).padStart(16, '0');
const open = (store) => Ledger.open(store, { now: NOW, newDevice: nextDevice, deviceName: 'phone' });
const sync = (ledger, server) => new SyncSession({ ledger, api: new Api(server.fetch, 'http://server.test'), now: () => NOW, newDevice: nextDevice }).run('secret');
const rows = (ledger) => JSON.stringify(ledger.fold.rows());

/** The server restored from a backup that holds only `device`'s first `keep` events. */
function restoreServer(server, device, keep) {
  const dropped = new Set(server.byDevice.get(device).slice(keep));
  server.byDevice.set(device, server.byDevice.get(device).slice(0, keep));
  server.log = server.log.filter((r) => !dropped.has(r));
}

/** Every event of `device` held in the store's chunks. */
function chunkEvents(chunks, device) {
  return chunks.flatMap((c) => readFrames(c.bytes).events).filter((e) => e.kind !== 'device_name' && e.device === device);
}

const stores = {
  memory: async () => {
    const store = new MemoryStore();
    return { store, chunks: () => store.chunks, reopen: async () => store };
  },
  indexedDb: async () => {
    const idb = new FakeIndexedDb();
    const store = await IndexedDbStore.open(idb, 'reidentify');
    return { store, chunks: () => idb.all('chunks'), reopen: () => IndexedDbStore.open(idb, 'reidentify') };
  },
};

for (const [kind, make] of Object.entries(stores)) {
  test(`${kind}: a fork below the compacted seq rewrites the chunk; nothing is lost and the server's versions stand`, async () => {
    const server = new FakeServer({ now: () => NOW });
    const original = await open(new MemoryStore());
    await original.edit(1_130_101, { compDate: 20_240_101 }, NOW + 1);
    await sync(original, server);
    assert.equal(original.held(original.device), 1n, 'one edit; the name is seq 0');
    await original.edit(1_130_102, { compDate: 20_240_102 }, NOW + 2);
    await sync(original, server);

    // The site data copied to a second browser.
    const { store, chunks, reopen } = await make();
    await store.commit({ identity: structuredClone(original.store.identity), put: [...original.store.records.values()], meta: Object.fromEntries(original.store.meta) });
    const copy = await open(store);
    assert.equal(copy.device, original.device);
    const device = copy.device;
    await copy.edit(1_130_103, { memo: 'the copy, first' }, NOW + 3);
    await copy.edit(1_130_104, { memo: 'the copy, second' }, NOW + 4);
    const pushed = await sync(copy, server);
    assert.equal(pushed.serverHas.get(device), 4n);
    assert.equal(await copy.compactOwn(1), 4, 'events 1–4 acknowledged and moved into a chunk');
    assert.deepEqual(chunkEvents(chunks(), device).map((e) => e.seq), [1n, 2n, 3n, 4n]);

    restoreServer(server, device, 2);
    await original.edit(1_130_105, { compDate: 20_240_105 }, NOW + 5);
    await original.edit(1_130_106, { compDate: 20_240_106 }, NOW + 6);
    await original.edit(1_130_107, { compDate: 20_240_107 }, NOW + 7);
    await sync(original, server);
    assert.equal(server.held(device), 5n);

    const report = await sync(copy, server);
    assert.equal(report.reidentified?.first, 3n, 'the copies part at seq 3, which the copy had compacted');
    assert.notEqual(copy.device, device);
    await sync(original, server);
    await sync(copy, server);
    assert.equal(rows(copy), rows(original));
    assert.deepEqual(original.fold.rows().map((r) => r.station), [1_130_101, 1_130_102, 1_130_103, 1_130_104, 1_130_105, 1_130_106, 1_130_107]);

    // What the store holds: the old id's events from seq 3 on only in the server's versions.
    const held = chunkEvents(chunks(), device);
    for (const e of held.filter((x) => x.seq >= 3n)) {
      assert.ok(sameContent(e, original.event(device, e.seq)), `event #${e.seq} of the old id is the server's`);
    }
    const last = original.held(device);
    assert.ok(last >= 5n);
    assert.deepEqual([...new Set(held.map((e) => e.seq))].sort((a, b) => Number(a - b)), Array.from({ length: Number(last) }, (_, i) => BigInt(i + 1)));

    // Opened again, the replica is what both copies see.
    const again = await open(await reopen());
    assert.equal(again.device, copy.device);
    assert.equal(rows(again), rows(original));
    assert.equal(again.held(device), last);
    for (let seq = 1n; seq <= last; seq++) assert.ok(sameContent(again.event(device, seq), original.event(device, seq)), `event #${seq}`);
    assert.equal(again.history(1_130_103)[0]?.memo, 'the copy, first', 'the moved event, under the new id');
    assert.equal(again.history(1_130_103)[0]?.device, copy.device);
  });
}
