// Conflicts in the app (Schemas/merge.md §5, §6 and §6.1): which edits lost, and settling them as
// `oritsubushi conflicts resolve STATION --keep both` does; the cases of the Swift suites
// ConflictDetectorTests and ConflictSettlementTests, on the app's ledger and sync.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';

const { Ledger, EditError } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');
const { Api } = await appModule('api.js');
const { SyncSession } = await appModule('sync.js');
const { CausalHistory } = await appModule('causalHistory.js');
const { conflictsAmong, stationConflicts, lostEdits } = await appModule('conflicts.js');
const { settleConflicts } = await appModule('conflictSettlement.js');
const { eventKey } = await appModule('records.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const HOUR = 3_600_000;
const A = '00000000000000a1', B = '00000000000000b2';

/** A station edit of 120004 at hlc (ms << 16). */
const edit = (device, seq, ms, fields) => ({ kind: 'station_edit', device, seq: BigInt(seq), hlc: BigInt(ms) << 16n, station: 120004, compDate: null, memo: null, origin: 'user', ...fields });
const mark = (device, seq, ms, knowledge) => ({ kind: 'knowledge_mark', device, seq: BigInt(seq), hlc: BigInt(ms) << 16n, knowledge: Object.entries(knowledge).map(([d, s]) => [d, BigInt(s)]) });

/** The conflicts of a set of events, as [field, winner id, loser id]. */
function found(events) {
  const history = new CausalHistory();
  for (const e of events.filter((x) => x.kind === 'knowledge_mark')) {
    const list = history.marks.get(e.device) ?? [];
    list.push({ seq: e.seq, knowledge: new Map(e.knowledge) });
    list.sort((x, y) => (x.seq < y.seq ? -1 : 1));
    history.marks.set(e.device, list);
  }
  return conflictsAmong(events.filter((x) => x.kind === 'station_edit'), history)
    .map((c) => [c.field, `${c.winner.device.slice(-2)}#${c.winner.seq}`, `${c.loser.device.slice(-2)}#${c.loser.seq}`]);
}

test('concurrent edits with different values conflict; the later hlc wins', () => {
  assert.deepEqual(found([edit(A, 1, 2000, { compDate: 19990000 }), edit(B, 1, 1000, { compDate: 20050000 })]), [['date', 'a1#1', 'b2#1']]);
  // Both fields, date before memo, each loser once.
  assert.deepEqual(found([edit(A, 1, 2000, { compDate: 19990000, memo: 'phone' }), edit(B, 1, 1000, { compDate: 20050000, memo: 'tablet' })]),
    [['date', 'a1#1', 'b2#1'], ['memo', 'a1#1', 'b2#1']]);
  // Equal hlcs: the higher device id wins.
  assert.deepEqual(found([edit(A, 1, 1000, { memo: 'x' }), edit(B, 1, 1000, { memo: 'y' })]), [['memo', 'b2#1', 'a1#1']]);
});

test('equal values, a device\'s own earlier edit, and an edit seen through a knowledge mark are no conflict', () => {
  assert.deepEqual(found([edit(A, 1, 2000, { compDate: 19990000 }), edit(B, 1, 1000, { compDate: 19990000 })]), [], 'the same date');
  assert.deepEqual(found([edit(A, 1, 1000, { memo: 'caf\u00e9' }), edit(B, 1, 2000, { memo: 'cafe\u0301' })]), [], 'NFC and NFD of one memo');
  assert.deepEqual(found([edit(A, 1, 1000, { memo: 'a' }), edit(A, 2, 2000, { memo: 'b' })]), [], 'one device');
  // A's second edit was written after a mark that holds B#1: it has seen it.
  assert.deepEqual(found([edit(B, 1, 1000, { memo: 'b' }), edit(A, 1, 500, { memo: 'x' }), mark(A, 2, 1500, { [B]: 1 }), edit(A, 3, 2000, { memo: 'a' })]),
    [], 'B#1 through the mark, A#1 as A\'s own');
  // The mark comes after the edit: it does not count for it.
  assert.deepEqual(found([edit(B, 1, 1000, { memo: 'b' }), edit(A, 1, 2000, { memo: 'a' }), mark(A, 2, 2500, { [B]: 1 })]), [['memo', 'a1#1', 'b2#1']]);
  // A mark that holds less than the loser's seq does not cover it.
  assert.deepEqual(found([edit(B, 1, 900, { memo: 'b0' }), edit(B, 2, 1000, { memo: 'b' }), mark(A, 1, 1500, { [B]: 1 }), edit(A, 2, 2000, { memo: 'a' })]),
    [['memo', 'a1#2', 'b2#2']]);
});

test('the edits that lost, by event, with the fields they lost', () => {
  const events = [edit(A, 1, 2000, { compDate: 19990000, memo: 'phone' }), edit(B, 1, 1000, { compDate: 20050000, memo: 'tablet' }), edit(B, 2, 1100, { memo: 'x' })];
  const history = new CausalHistory();
  const lost = lostEdits(conflictsAmong(events, history));
  assert.deepEqual([...lost], [[eventKey(B, 1n), ['date', 'memo']], [eventKey(B, 2n), ['memo']]]);
});

// MARK: - Through sync, as the Swift suite ConflictSettlementTests does with merge

let deviceCounter = 0x5000;
const newDevice = () => (deviceCounter++).toString(16).padStart(16, '0');
const replica = (name) => Ledger.open(new MemoryStore(), { now: NOW, newDevice, deviceName: name });
const sync = (ledger, server, now = NOW) => new SyncSession({ ledger, api: new Api(server.fetch, 'http://server.test'), now: () => now, newDevice }).run('secret');
const fields = (ledger) => stationConflicts(ledger, 120004).map((c) => c.field);

/** Two replicas with a date and a memo conflict on 120004 (phone wins both: its clock is 2 h ahead). */
async function conflicting() {
  const server = new FakeServer({ now: () => NOW + 3 * HOUR });
  const phone = await replica('phone'), tablet = await replica('tablet');
  await phone.edit(120004, { compDate: 19990000, memo: 'phone' }, NOW + 2 * HOUR);
  await tablet.edit(120004, { compDate: 20050000, memo: 'tablet' }, NOW);
  await sync(phone, server, NOW + 2 * HOUR);
  await sync(tablet, server);
  await sync(phone, server, NOW + 2 * HOUR);
  return { server, phone, tablet };
}

for (const side of ['tablet', 'phone']) {
  test(`resolved on the ${side}: the winners' values stay, and after sync no replica lists the conflict`, async () => {
    const { server, phone, tablet } = await conflicting();
    assert.deepEqual(fields(phone), ['date', 'memo']);
    assert.deepEqual(fields(tablet), ['date', 'memo']);
    const here = side === 'tablet' ? tablet : phone, there = side === 'tablet' ? phone : tablet;
    const lostBefore = lostEdits(stationConflicts(here, 120004));
    assert.deepEqual([...lostBefore.values()], [['date', 'memo']], 'the tablet\'s edit lost both fields');
    const commits = here.store.durabilities.length;
    const { event, settled } = await settleConflicts(here, 120004, NOW + 2 * HOUR + 10);
    assert.deepEqual(settled.map((c) => c.field), ['date', 'memo']);
    assert.equal(event.compDate, 19990000);
    assert.equal(event.memo, 'phone');
    assert.equal(event.device, here.device);
    assert.deepEqual(here.store.durabilities.slice(commits), ['strict'], 'one strict commit');
    assert.deepEqual(fields(here), [], 'settled on this device at once');
    assert.equal(here.fold.compDate(120004), 19990000);
    assert.equal(here.fold.memo(120004), 'phone');
    await sync(here, server, NOW + 2 * HOUR + 20);
    await sync(there, server, NOW + 2 * HOUR + 30);
    for (const ledger of [phone, tablet]) {
      assert.deepEqual(fields(ledger), []);
      assert.equal(ledger.fold.compDate(120004), 19990000);
      assert.equal(ledger.fold.memo(120004), 'phone');
    }
    assert.equal(JSON.stringify(phone.fold.rows()), JSON.stringify(tablet.fold.rows()));
  });
}

test('a station without a conflict is refused and nothing is written', async () => {
  const phone = await replica('phone');
  await phone.edit(120004, { compDate: 19990000, memo: 'x' }, NOW);
  const commits = phone.store.commits;
  await assert.rejects(settleConflicts(phone, 120004, NOW + 1), (e) => e instanceof EditError && /no conflict/.test(e.message));
  await assert.rejects(settleConflicts(phone, 202919, NOW + 1), EditError);
  assert.equal(phone.store.commits, commits);
});

test('when the sync stopped before its knowledge mark, the settling edit writes the owed mark first', async () => {
  const server = new FakeServer({ now: () => NOW + 3 * HOUR });
  const phone = await replica('phone'), tablet = await replica('tablet');
  await tablet.edit(120004, { memo: 'tablet' }, NOW + 2 * HOUR);
  await sync(tablet, server, NOW + 2 * HOUR);
  await phone.edit(120004, { memo: 'phone' }, NOW);
  // The pulled page is stored; the mark that follows it in a sync is not written.
  await phone.receive(server.log, NOW);
  assert.equal(phone.identity.markOwed, true);
  assert.deepEqual(fields(phone), ['memo']);
  const seq = phone.identity.nextSeq;
  const { event } = await settleConflicts(phone, 120004, NOW + 10);
  const written = phone.byDevice.get(phone.device).slice(Number(seq) - 1);
  assert.deepEqual(written.map((r) => r.kind), ['knowledge_mark', 'station_edit']);
  assert.deepEqual(written[0].knowledge, [[tablet.device, tablet.held(tablet.device)]]);
  assert.equal(event.seq, seq + 1n);
  assert.equal(event.memo, 'tablet');
  assert.equal(phone.identity.markOwed, false);
  assert.deepEqual(fields(phone), []);
  await sync(phone, server, NOW + 20);
  await sync(tablet, server, NOW + 2 * HOUR + 30);
  assert.deepEqual(fields(tablet), []);
});

test('the settling edit is the person\'s own: read back after its strict commit, and a refusal has its sentence', async () => {
  const { tablet } = await conflicting();
  const seq = tablet.identity.nextSeq;
  tablet.store.garbleWrites = 2;
  await assert.rejects(settleConflicts(tablet, 120004, NOW + 2 * HOUR + 10), (e) => e.name === 'StoreError');
  assert.equal(tablet.identity.nextSeq, seq, 'garbled twice: nothing counts as written');
  assert.deepEqual(fields(tablet), ['date', 'memo'], 'the conflict is still shown');
  tablet.store.garbleWrites = 1;
  const { event } = await settleConflicts(tablet, 120004, NOW + 2 * HOUR + 20);
  const stored = tablet.store.records.get(eventKey(event.device, event.seq));
  assert.equal(stored?.hlc, event.hlc.toString(), 'garbled once: written again, and the disk holds what was written');
  assert.deepEqual(fields(tablet), []);

  const { setLanguage, t } = await appModule('i18n.js');
  const { editRefusalText } = await appModule('refusals.js');
  setLanguage('ja');
  const refusal = await settleConflicts(tablet, 120004, NOW + 2 * HOUR + 30).catch((e) => e);
  assert.ok(refusal instanceof EditError && refusal.reason === 'no-conflict');
  assert.equal(editRefusalText(refusal), t('conflict.none'));
  const { App } = await appModule('app.js');
  const app = new App({ store: new MemoryStore(), fetch: async () => { throw new TypeError('offline'); }, now: () => NOW, newDevice, deviceName: 'phone' });
  await app.start();
  assert.deepEqual(await app.resolveConflicts(120004), { ok: false, message: t('conflict.none') }, '駅\'s button on a station without one');
});
