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
