import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { Ledger } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');
const { fromWire } = await appModule('records.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const OTHER = '00000000000000aa';

test('the person\'s edits and the settings commit strictly; only records pulled from the server commit relaxed', async () => {
  const store = new MemoryStore();
  const ledger = await Ledger.open(store, { now: NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });
  assert.ok(store.durabilities.length > 0 && store.durabilities.every((d) => d === 'strict'), `opening: ${store.durabilities}`);

  store.durabilities.length = 0;
  await ledger.edit(120004, { memo: '新幹線ホーム' }, NOW);
  assert.deepEqual(store.durabilities, ['strict'], 'an edit');

  store.durabilities.length = 0;
  await ledger.receive([fromWire({ kind: 'station_edit', device: OTHER, seq: 1, hlc: String(BigInt(NOW + 5000) << 16n), station: 120004, memo: 'CLI' })], NOW);
  assert.deepEqual(store.durabilities, ['relaxed'], 'a pulled page');

  store.durabilities.length = 0;
  await ledger.setMeta({ sync: { lastSync: NOW } });
  assert.deepEqual(store.durabilities, ['strict'], 'the sync bookkeeping, after the records it covers');
});

test('a new name for this device is one strict commit of a name record; a clear deletes everything held', async () => {
  const store = new MemoryStore();
  const ledger = await Ledger.open(store, { now: NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });
  await ledger.edit(120004, { memo: '新幹線ホーム' }, NOW);
  store.durabilities.length = 0;
  const record = await ledger.rename('通勤用', NOW);
  assert.deepEqual(store.durabilities, ['strict']);
  assert.equal(record.kind, 'device_name');
  assert.equal(ledger.deviceName(ledger.device), '通勤用');
  assert.equal(store.identity.name, '通勤用');
  assert.equal(store.records.get('name:0123456789abcdef').name, '通勤用', 'the one name record of the device, replaced');
  assert.equal(await ledger.rename('通勤用', NOW), null, 'the same name again writes nothing');
  await assert.rejects(ledger.rename('', NOW), /1 to 255 bytes/);
  const reopened = await Ledger.open(store, { now: NOW, newDevice: () => 'ffffffffffffffff', deviceName: 'x' });
  assert.equal(reopened.deviceName(reopened.device), '通勤用');

  store.durabilities.length = 0;
  await store.commit({ clear: true });
  assert.deepEqual(store.durabilities, ['strict']);
  const { chunks, ...held } = await store.load();
  assert.deepEqual(held, { identity: null, records: [], chunkKeys: [], meta: new Map() });
  assert.deepEqual(await chunks(), []);
});

test('an own edit is read back after its commit: a garbled write is written again; garbled twice, nothing counts as saved', async () => {
  const store = new MemoryStore();
  const ledger = await Ledger.open(store, { now: NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });

  store.garbleWrites = 1;
  const event = await ledger.edit(120004, { memo: '一度目は化けた' }, NOW);
  assert.ok(event, 'saved on the second write');
  const stored = [...store.records.values()].find((r) => r.memo === '一度目は化けた');
  assert.equal(stored?.hlc, event.hlc.toString(), 'what the disk holds is what was written');

  store.garbleWrites = 2;
  const seqBefore = ledger.identity.nextSeq;
  await assert.rejects(ledger.edit(120004, { memo: '二度とも化けた' }, NOW + 1000), (error) => error.name === 'StoreError');
  assert.equal(ledger.identity.nextSeq, seqBefore, 'memory unchanged: the edit is not counted as saved');
  assert.equal(ledger.fold.get(120004)?.memo, '一度目は化けた');
});

test('an edit the storage refuses is kept and saved by the retry once the storage takes it again', async () => {
  const { App } = await appModule('app.js');
  const store = new MemoryStore();
  const app = new App({ store, fetch: async () => { throw new TypeError('offline'); }, now: () => NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });
  await app.start();
  /** @type {string[]} */
  const said = [];
  app.on('storage', (message) => said.push(String(message)));
  const quota = new Error('the quota');
  quota.name = 'QuotaExceededError';
  store.failWith = quota;
  const answer = await app.edit(120004, { memo: '容量不足' });
  assert.equal(answer.ok, false);
  assert.equal(answer.kept, true, 'kept to retry');
  assert.equal(app.edits.unsaved.count, 1);
  assert.ok(said.length === 1 && said[0].includes('空き容量が足りない') && said[0].includes('消えてはいません'), `said once: ${said}`);

  store.failWith = null;
  await app.edits.unsaved.retry(async (station, fields) => { await app.replica.edit(station, fields, NOW + 1000); });
  assert.equal(app.edits.unsaved.count, 0, 'saved by the retry');
  assert.equal(app.replica.fold.get(120004)?.memo, '容量不足');
  assert.ok([...store.records.values()].some((r) => r.memo === '容量不足'), 'on the disk');
  if (app.edits.unsavedTimer) clearTimeout(app.edits.unsavedTimer);
});
