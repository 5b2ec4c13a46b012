// A full storage, on the IndexedDB store itself (an IndexedDB in memory: support/fakeIndexedDb.mjs)
// rather than MemoryStore: a commit the quota refuses leaves nothing of itself, an own edit is
// said in one sentence, kept and saved by the retry, a sync's pulled page is stored whole or not
// at all and the sync says so once (Schemas/phone-app.md "A full storage").
import test, { mock } from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { enableMockTimers } from './support/nodeVersions.mjs';
import { FakeServer } from './support/fakeServer.mjs';
import { FakeIndexedDb } from './support/fakeIndexedDb.mjs';

const { readFrames } = await appModule('recordFrames.js');

/** The records of `device` the fake IndexedDB holds, per record or in chunks. */
function storedOf(idb, device) {
  const chunked = idb.all('chunks').flatMap((c) => readFrames(c.bytes).events);
  return [...idb.all('records'), ...chunked].filter((r) => r.device === device && r.kind !== 'device_name').length;
}

const { App } = await appModule('app.js');
const { Ledger } = await appModule('ledger.js');
const { IndexedDbStore, StoreError } = await appModule('store.js');
const { fromWire } = await appModule('records.js');
const { EditDraft } = await appModule('editDraft.js');
const { t } = await appModule('i18n.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const OTHER = '00000000000000aa';
const memo = (n) => `${n}番線：${'乗り換えの通路が長い。'.repeat(20)}`;

/** @param {FakeIndexedDb} idb */
async function openApp(idb, server = new FakeServer({ now: () => NOW })) {
  const store = await IndexedDbStore.open(/** @type {any} */ (idb));
  const app = new App({ store, fetch: server.fetch, now: () => NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });
  await app.start();
  return { app, server };
}

/** What the console says while `body` runs: the browser tests fail on any error there. */
async function console_(body) {
  const said = [];
  const saved = { error: console.error, warn: console.warn };
  console.error = (...args) => said.push(['error', ...args]);
  console.warn = (...args) => said.push(['warn', ...args]);
  const unhandled = (/** @type {unknown} */ reason) => said.push(['unhandled rejection', reason]);
  process.on('unhandledRejection', unhandled);
  try {
    await body();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    Object.assign(console, saved);
    process.off('unhandledRejection', unhandled);
  }
  return said;
}

test('a commit the quota refuses leaves nothing of itself, and the cause is a full storage', async () => {
  const idb = new FakeIndexedDb();
  const store = await IndexedDbStore.open(/** @type {any} */ (idb));
  const ledger = await Ledger.open(store, { now: NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });
  await ledger.edit(120004, { memo: memo(1) }, NOW);
  const before = JSON.stringify([...idb.stores].map(([name, s]) => [name, [...s.data]]));

  idb.quotaBytes = idb.usage() + 100;
  await assert.rejects(ledger.edit(120005, { memo: memo(2) }, NOW + 1000),
    (error) => error instanceof StoreError && error.reason === 'full' && error.cause?.name === 'QuotaExceededError');
  assert.equal(JSON.stringify([...idb.stores].map(([name, s]) => [name, [...s.data]])), before, 'the disk holds what it held');
  assert.equal(idb.durabilities.at(-1), 'strict', 'the refused commit was the strict one of an own edit');
  assert.equal(ledger.identity.nextSeq, 2n, 'memory unchanged: nothing counts as saved');
  assert.equal(ledger.fold.memo(120005), '');

  idb.quotaBytes = null;
  assert.ok(await ledger.edit(120005, { memo: memo(2) }, NOW + 2000));
  const reopened = await Ledger.open(store, { now: NOW, newDevice: () => 'ffffffffffffffff', deviceName: 'x' });
  assert.equal(reopened.fold.memo(120005), memo(2));
});

test('a put the browser fails aborts its whole transaction: no other write of the change is stored', async () => {
  const idb = new FakeIndexedDb();
  const store = await IndexedDbStore.open(/** @type {any} */ (idb));
  await store.commit({ identity: { device: '0123456789abcdef', name: 'phone', nextSeq: '1', lastHlc: '0', markOwed: false }, meta: { token: 'a' } });

  idb.failPutsWith = 'QuotaExceededError';
  await assert.rejects(store.commit({
    identity: { device: '0123456789abcdef', name: 'phone', nextSeq: '3', lastHlc: '9', markOwed: false },
    remove: ['nothing'], meta: { token: 'b', lastDate: 20240503 },
  }), (error) => error instanceof StoreError && error.reason === 'full');
  const held = await store.load();
  assert.equal(held.identity?.nextSeq, '1', 'the identity of before');
  assert.deepEqual([...held.meta], [['token', 'a']], 'the settings of before: none of the change landed');
});

test('an own edit the quota refuses is said in one sentence, kept, and saved by the retry once there is room', async () => {
  const idb = new FakeIndexedDb();
  const { app } = await openApp(idb);
  const banners = [], retried = [];
  app.on('storage', (m) => banners.push(m));
  app.on('retried', (stations) => retried.push(...stations));
  enableMockTimers(mock, ['setTimeout']);
  await new Promise((resolve) => setImmediate(resolve)); // node's warning that mock timers are experimental
  try {
    const said = await console_(async () => {
      idb.quotaBytes = idb.usage() + 50;
      const answer = await app.edit(120004, { memo: memo(3) });
      assert.deepEqual(answer, { ok: false, changed: false, kept: true, message: t('edit.fullKept') });
      assert.deepEqual(banners, [t('edit.fullKept')], 'said once, in the banner too');
      assert.equal(app.edits.unsaved.count, 1);
      assert.equal(idb.all('records').some((r) => r.memo === memo(3)), false, 'not on the disk');

      mock.timers.tick(5000);
      for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(app.edits.unsaved.count, 1, 'still refused: still kept');
      assert.deepEqual(retried, []);

      idb.quotaBytes = null;
      mock.timers.tick(5000);
      for (let i = 0; i < 50 && retried.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    });
    assert.deepEqual(said, [], 'nothing on the console');
    assert.deepEqual(retried, [120004], 'the retry saved it');
    assert.equal(app.edits.unsaved.count, 0);
    assert.equal(banners.at(-1), t('edit.retriedSaved'));
    assert.equal(idb.all('records').filter((r) => r.memo === memo(3)).length, 1, 'on the disk, once');
    assert.equal(idb.durabilities.at(-1), 'strict');
  } finally {
    mock.timers.reset();
  }
});

test('a page the sync pulls into a full storage is stored whole or not at all, and a storage that stays full is said once', async () => {
  const idb = new FakeIndexedDb();
  const server = new FakeServer({ now: () => NOW });
  const events = Array.from({ length: 300 }, (_, i) => fromWire({
    kind: 'station_edit', device: OTHER, seq: i + 1, hlc: String(BigInt(NOW - 10_000 + i) << 16n), station: 120000 + i, memo: memo(i),
  }));
  server.seed(events);
  const { app } = await openApp(idb, server);
  await app.replica.setMeta({ token: 'secret', user: 'alice' });
  const banners = [];
  app.on('storage', (m) => banners.push(m));

  idb.quotaBytes = idb.usage() + 20_000;
  const said = await console_(async () => {
    await app.syncNow();
    await app.syncNow();
  });
  assert.deepEqual(said, [], 'nothing on the console');
  assert.equal(app.state, 'error');
  assert.equal(app.syncError, t('failure.full'));
  assert.deepEqual(banners, [t('failure.full')], 'said once over two syncs the full storage stopped');
  assert.equal(storedOf(idb, OTHER), 0, 'no part of the page on the disk');
  assert.equal(app.replica.held(OTHER), 0n, 'nor in memory');

  idb.quotaBytes = null;
  await app.syncNow();
  assert.equal(app.state, 'ok');
  assert.equal(storedOf(idb, OTHER), 300, 'the whole page, once there is room');
  assert.equal(app.replica.fold.memo(120299), memo(299));

  idb.quotaBytes = idb.usage() + 10;
  server.seed([fromWire({ kind: 'station_edit', device: OTHER, seq: 301, hlc: String(BigInt(NOW) << 16n), station: 120300, memo: memo(300) })]);
  await app.syncNow();
  assert.deepEqual(banners, [t('failure.full'), t('failure.full')], 'a full storage after a sync that succeeded is said again');
  app.cancelScheduledSync();
});

test('a field whose stored value becomes what the person typed is settled, not a change from elsewhere', () => {
  const draft = new EditDraft({ compDate: 0, memo: '' });
  // The person typed a memo; the storage refused it; the retry saved it underneath the form.
  const rebased = draft.rebase({ compDate: 0, memo: '新幹線ホーム' }, { compDate: 0, memo: '新幹線ホーム' });
  assert.deepEqual(rebased, { inputs: { compDate: 0, memo: '新幹線ホーム' }, moved: [], conflicts: [] });
  assert.deepEqual(draft.changes({ compDate: 0, memo: '新幹線ホーム' }), {}, 'nothing left to save');
  assert.deepEqual(draft.seen({ memo: '新幹線ホーム、8番線' }), { memo: '新幹線ホーム' }, 'a later save is against the saved memo');
});
