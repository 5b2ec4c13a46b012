// Where this device's own events are (savedState.js): on this device until a push was
// acknowledged for their seq, on the server after, across a reload; and how many only this device
// holds, the count ログアウト warns about.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';

const { App } = await appModule('app.js');
const { MemoryStore } = await appModule('store.js');
const { savedState, unsentOwnCount, acknowledgedSeq } = await appModule('savedState.js');
const { setLanguage } = await appModule('i18n.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
setLanguage('ja');

function makeApp(server, store = new MemoryStore()) {
  return new App({ store, fetch: server.fetch, now: () => NOW, newDevice: () => '0123456789abcdef', deviceName: 'iPhone Safari' });
}

const other = (seq, station) => ({ kind: 'station_edit', device: 'fedcba9876543210', seq: BigInt(seq), hlc: BigInt(NOW - 60_000) << 16n, station, compDate: 20240101, memo: null, origin: 'user' });

test('an own edit is on this device until a push is acknowledged, then on the server, across a reload', async () => {
  const server = new FakeServer({ now: () => NOW });
  server.seed([other(1, 7)]);
  const store = new MemoryStore();
  const app = makeApp(server, store);
  await app.start();
  await app.pair('ABCD-EFGH');
  await app.running;
  const ledger = app.replica;
  const first = await app.replica.edit(5, { compDate: 20240503 }, NOW);
  const second = await app.replica.edit(6, { memo: 'ホーム' }, NOW);
  assert.equal(savedState(ledger, first), 'device');
  assert.equal(savedState(ledger, second), 'device');
  assert.equal(unsentOwnCount(ledger), 2);
  assert.equal(savedState(ledger, ledger.history(7)[0]), null, "another device's event came from the server");

  await app.syncNow();
  assert.equal(savedState(ledger, first), 'server');
  assert.equal(savedState(ledger, second), 'server');
  assert.equal(unsentOwnCount(ledger), 0);
  assert.equal(acknowledgedSeq(ledger), ledger.held(ledger.device));

  const third = await app.replica.edit(8, { compDate: 20240503 }, NOW);
  assert.equal(savedState(ledger, third), 'device');
  const reopened = makeApp(server, store);
  await reopened.start();
  const [again] = reopened.replica.history(8);
  assert.equal(savedState(reopened.replica, again), 'device', 'still unsent after a reload');
  assert.equal(savedState(reopened.replica, reopened.replica.history(5)[0]), 'server', 'the acknowledgement survives a reload');
  assert.equal(unsentOwnCount(reopened.replica), 1);
});

test('before any sync every own event is on this device only; received events are not counted', async () => {
  const server = new FakeServer({ now: () => NOW });
  const app = makeApp(server);
  await app.start();
  assert.equal(acknowledgedSeq(app.replica), 0n);
  await app.replica.edit(5, { compDate: 20240503 }, NOW);
  await app.replica.receive([other(1, 7), other(2, 8)], NOW);
  assert.equal(unsentOwnCount(app.replica), 1);
});
