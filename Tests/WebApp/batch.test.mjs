import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { planBatch, BatchError } = await appModule('batchPlan.js');
const { editMany } = await appModule('ledgerBatch.js');
const { batchResultText, batchRefusalText } = await appModule('batchText.js');
const { StationPicks } = await appModule('stationPicks.js');
const { Ledger } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');
const { Catalog } = await appModule('catalog.js');
const { App } = await appModule('app.js');
const { setLanguage, t } = await appModule('i18n.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0); // 2024-05-03 12:00 in Japan
const TODAY = { year: 2024, month: 5, day: 3 };
const catalog = new Catalog(smallCatalogDoc());
const knows = (s) => catalog.station(s) !== undefined;

/** @param {unknown} fn @param {string} reason @param {number[]} [stations] */
function refuses(fn, reason, stations) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof BatchError, String(error));
    assert.equal(error.reason, reason);
    if (stations) assert.deepEqual(error.stations, stations);
    return true;
  });
}

test('the rules of complete --batch: checked before anything, one refusal refuses all', () => {
  const dates = new Map([[201111, 20130901]]);
  const context = { compDateOf: (s) => dates.get(s) ?? 0, knows, today: TODAY };
  refuses(() => planBatch([], 20130901, context), 'empty');
  refuses(() => planBatch([201111], 20130230, context), 'invalid');
  refuses(() => planBatch([201111], 20240504, context), 'future');
  refuses(() => planBatch([201111], 20240600, context), 'future', undefined);
  refuses(() => planBatch([201111], 20250000, context), 'future');
  refuses(() => planBatch([201111, 999999, 0, 201112, 5000000000], 20130901, context), 'station', [999999, 0, 5000000000]);
  refuses(() => planBatch([201111, 201112, 201111], 20130901, context), 'duplicate', [201111]);
  assert.deepEqual(planBatch([201112, 201111, 306100], 20130901, context),
    { compDate: 20130901, changes: [201112, 306100], unchanged: [201111] }, 'a station at that date is left as it is; disabled stations may be recorded');
  assert.deepEqual(planBatch([201111], 20240503, context).changes, [201111], 'today may be recorded');
  assert.deepEqual(planBatch([201111], 20240500, context).changes, [201111], 'this month, day unknown');
  assert.deepEqual(planBatch([201111], 1, context).changes, [201111], 'date unknown');
  assert.deepEqual(planBatch([201111], 0, context).changes, [201111], 'none, as the CLI allows');
});

test('a station that changed after its row was shown refuses the batch', () => {
  const dates = new Map([[201111, 20130901]]);
  const context = { compDateOf: (s) => dates.get(s) ?? 0, knows, today: TODAY, seen: new Map([[201111, 0], [201112, 0]]) };
  refuses(() => planBatch([201111, 201112], 20140101, context), 'stale', [201111]);
  context.seen.set(201111, 20130901);
  assert.deepEqual(planBatch([201111, 201112], 20140101, context).changes, [201111, 201112]);
});

test('editMany: one event per changed station, one strict commit read back, consecutive seqs and rising hlcs', async () => {
  const store = new MemoryStore();
  const ledger = await Ledger.open(store, { now: NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });
  await ledger.edit(201111, { compDate: 20130901 }, NOW);
  const changed = [];
  ledger.onChange((s) => changed.push(s));
  store.durabilities.length = 0;
  const commits = store.commits;
  const { plan, events } = await editMany(ledger, [201112, 201111, 300260], 20130901, NOW, { knows });
  assert.deepEqual(plan.changes, [201112, 300260]);
  assert.deepEqual(plan.unchanged, [201111]);
  assert.equal(store.commits - commits, 1, 'one commit');
  assert.deepEqual(store.durabilities, ['strict']);
  assert.deepEqual(events.map((e) => [e.station, e.compDate, e.memo, e.origin, e.seq]), [[201112, 20130901, null, 'user', 2n], [300260, 20130901, null, 'user', 3n]]);
  assert.ok(events[0].hlc < events[1].hlc && events[0].hlc > ledger.history(201111)[0].hlc);
  assert.equal(ledger.identity.nextSeq, 4n);
  assert.equal(ledger.fold.compDate(300260), 20130901);
  assert.deepEqual(changed, [[201112, 300260]]);
  assert.equal(store.identity.nextSeq, '4', 'the identity committed with the events');

  const again = await editMany(ledger, [201112, 300260], 20130901, NOW, { knows });
  assert.deepEqual(again.events, [], 'nothing changes: nothing is written');
  assert.equal(store.commits - commits, 1);

  store.garbleWrites = 1;
  const garbled = await editMany(ledger, [301230], 1, NOW, { knows });
  assert.equal(garbled.events.length, 1, 'a write that read back wrong is written again');
  assert.equal([...store.records.values()].find((r) => r.station === 301230)?.compDate, 1, 'what the disk holds is what was written');

  await assert.rejects(editMany(ledger, [301231, 999999], 1, NOW, { knows }), BatchError);
  assert.equal(ledger.fold.compDate(301231), 0, 'a refused batch writes nothing');
});

test('App.recordMany: one sentence, the date remembered, a refusal names the stations', async () => {
  setLanguage('ja');
  const store = new MemoryStore();
  const app = new App({ store, fetch: new FakeServer().fetch, now: () => NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });
  await app.start();
  assert.equal((await app.recordMany([201111], 20130901)).message, t('noCatalog'));
  app.catalog = catalog;
  const answer = await app.recordMany([201111, 201112], 20130901, new Map([[201111, 0], [201112, 0]]));
  assert.deepEqual(answer, { ok: true, recorded: 2, message: '2駅に「2013年9月1日」を記録しました。' });
  assert.equal(app.replica.getMeta('lastDate'), 20130901);
  assert.equal((await app.recordMany([201111, 300260], 20130901)).message, '1駅に「2013年9月1日」を記録しました（1駅はすでにこの日付なので記録していません）。');
  assert.equal((await app.recordMany([201111], 20130901)).message, '選んだ1駅はすべてすでに「2013年9月1日」なので、何も記録しませんでした。');
  const stale = await app.recordMany([301230, 201112], 20140101, new Map([[301230, 0], [201112, 0]]));
  assert.equal(stale.ok, false);
  assert.equal(stale.stale, true);
  assert.equal(stale.message, '一身田駅の記録が表示中に別の端末で変わったため、何も記録しませんでした。新しい内容を確認して、もう一度記録してください。');
  assert.equal(app.compDate(301230), 0);
  assert.match((await app.recordMany([201111], 20240504)).message, /未来の日付/);
  assert.equal((await app.recordMany([], 20130901)).message, 'まとめて記録する駅を選んでください。');

  store.failWith = Object.assign(new Error('full'), { name: 'QuotaExceededError' });
  const kept = await app.recordMany([301230, 301231], 20130901);
  assert.equal(kept.kept, true);
  assert.equal(app.edits.unsaved.count, 2, 'each station kept to retry');
  clearTimeout(app.edits.unsavedTimer ?? undefined);
  app.cancelScheduledSync();
});

test('the sentences in English', () => {
  setLanguage('en');
  assert.equal(batchResultText({ compDate: 20130900, changes: [1, 2, 3], unchanged: [] }), 'Recorded 2013-09 for 3 stations.');
  assert.equal(batchRefusalText(new BatchError('x', 'duplicate', [201111]), 20130901, catalog, NOW), 'A station was picked twice (津駅), so nothing was recorded.');
  assert.equal(batchRefusalText(new BatchError('x', 'future'), 20240504, catalog, NOW), t('edit.future', '2024-05-04', '2024-05-03'));
  setLanguage('ja');
});

test('picks: in the order picked, with the date each row showed; a redrawn list keeps what it still shows', () => {
  const picks = new StationPicks();
  picks.set(3, 0, true);
  picks.set(1, 20130901, true);
  picks.set(2, 0, true);
  picks.set(2, 0, false);
  assert.equal(picks.size, 2);
  assert.deepEqual(picks.stations(), [3, 1]);
  assert.deepEqual([...picks.seen()], [[3, 0], [1, 20130901]]);
  const listed = new Map([[1, 1], [4, 0]]);
  picks.keepListed((s) => listed.get(s));
  assert.deepEqual([...picks.seen()], [[1, 1]], 'the date shown now; a station no longer listed is dropped');
  assert.ok(picks.has(1) && !picks.has(3));
  picks.clear();
  assert.equal(picks.size, 0);
});
