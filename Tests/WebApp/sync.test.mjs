import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';

const { Ledger } = await appModule('ledger.js');
const { MemoryStore, StoreError } = await appModule('store.js');
const { Api } = await appModule('api.js');
const { SyncSession, SyncFailure, SIGNED_OUT, UNREACHABLE, pendingCount, serverEventCount } = await appModule('sync.js');
const { fromWire } = await appModule('records.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
let deviceCounter = 0x1000;
const nextDevice = () => (deviceCounter++).toString(16).padStart(16, '0');

async function replica(name, store = new MemoryStore()) {
  return Ledger.open(store, { now: NOW, newDevice: nextDevice, deviceName: name });
}

function session(ledger, server, options = {}) {
  return new SyncSession({ ledger, api: new Api(server.fetch, 'http://server.test'), now: () => NOW, newDevice: nextDevice, ...options });
}

const rows = (ledger) => JSON.stringify(ledger.fold.rows());

test('two devices converge through the server', async () => {
  const server = new FakeServer({ now: () => NOW });
  const phone = await replica('iPhone Safari'), laptop = await replica('laptop');
  await phone.edit(202919, { compDate: 20240503 }, NOW);
  await laptop.edit(202919, { memo: '東京駅' }, NOW + 5);
  await laptop.edit(300260, { compDate: 20130901 }, NOW + 6);
  const first = await session(phone, server).run('secret');
  assert.equal(first.pushed, 2, 'the event and the device name');
  await session(laptop, server).run('secret');
  await session(phone, server).run('secret');
  assert.equal(rows(phone), rows(laptop));
  assert.deepEqual(phone.fold.rows(), [
    { station: 202919, compDate: 20240503, memo: '東京駅' }, { station: 300260, compDate: 20130901, memo: '' },
  ]);
  assert.equal(pendingCount(phone), 0);
  assert.equal(phone.deviceName(laptop.device), 'laptop');
  // Knowledge marks: exchanging them again reaches a fixed point.
  await session(laptop, server).run('secret');
  const size = server.log.length;
  await session(phone, server).run('secret');
  await session(laptop, server).run('secret');
  assert.equal(server.log.length, size);
  assert.ok(phone.allRecords().some((r) => r.kind === 'knowledge_mark' && r.device === phone.device));
});

test('pull pages and push pages are bounded', async () => {
  const server = new FakeServer({ now: () => NOW });
  const other = '00000000000000aa';
  const seeded = [];
  for (let i = 1; i <= 2500; i++) {
    seeded.push(fromWire({ kind: 'station_edit', device: other, seq: i, hlc: String((BigInt(NOW - 100000 + i)) << 16n), station: 120000 + i, comp_date: 1 }));
  }
  server.seed(seeded);
  const phone = await replica('phone');
  for (let i = 0; i < 700; i++) await phone.edit(200000 + i, { compDate: 20240101 }, NOW + i);
  const report = await session(phone, server, { pageSize: 600, pushSize: 250 }).run('secret');
  assert.equal(report.pulled, 2500);
  const pulls = server.requests.filter((r) => r.path === '/v1/pull');
  assert.ok(pulls.length >= 5, `${pulls.length} pull pages`);
  assert.ok(pulls.every((r) => r.body.limit === 600 && typeof r.body.have_digests === 'object'));
  const pushes = server.requests.filter((r) => r.path === '/v1/push');
  assert.ok(pushes.length >= 3 && pushes.every((r) => r.body.records.length <= 250));
  assert.equal(server.held(phone.device), 701n, '700 edits and the knowledge mark');
  assert.equal(phone.fold.compDate(120001), 1);
  // Every pull names the digest of the last event held of every device.
  const last = pulls[pulls.length - 1].body;
  assert.equal(BigInt(last.have[other]), 2500n);
  assert.equal(last.have_digests[other], phone.digestOf(phone.event(other, 2500n)));
});

test('a revoked token: one sentence, edits kept', async () => {
  const server = new FakeServer({ now: () => NOW });
  const phone = await replica('phone');
  await phone.edit(1, { compDate: 1 }, NOW);
  await assert.rejects(session(phone, server).run('revoked'), (e) => e instanceof SyncFailure && e.kind === 'signed-out' && e.message === SIGNED_OUT);
  assert.equal(pendingCount(phone), 1);
  assert.equal(phone.getMeta('sync').lastError, SIGNED_OUT);
});

test('offline: the edits queue and the app says so', async () => {
  const server = new FakeServer({ now: () => NOW });
  server.offline = true;
  const phone = await replica('phone');
  await phone.edit(1, { compDate: 1 }, NOW);
  await phone.edit(2, { compDate: 1 }, NOW + 1);
  await assert.rejects(session(phone, server, { online: () => false }).run('secret'), (e) => e.kind === 'offline' && /2 edits are saved on this device/.test(e.message));
  server.offline = false;
  await session(phone, server).run('secret');
  assert.equal(pendingCount(phone), 0);
  assert.equal(phone.getMeta('sync').lastError, null);
  assert.equal(phone.getMeta('sync').lastSync, NOW);
});

test('a server that does not answer while the device is online is unreachable, not offline', async () => {
  const server = new FakeServer({ now: () => NOW });
  const phone = await replica('phone');
  await phone.edit(1, { compDate: 1 }, NOW);
  server.offline = true;
  await assert.rejects(session(phone, server, { online: () => true }).run('secret'), (e) => e.kind === 'unreachable' && e.message === UNREACHABLE);
  server.offline = false;
  for (const status of [502, 503, 504]) {
    server.intercept = () => new Response('<html>Bad Gateway</html>', { status });
    await assert.rejects(session(phone, server).run('secret'), (e) => e.kind === 'unreachable', `a gateway's ${status}`);
  }
  // The server's own 503 says the user's stored data is damaged: an answer, not a lost server.
  server.intercept = () => server.error(503, 'unavailable', "this user's stored data is damaged");
  await assert.rejects(session(phone, server).run('secret'), (e) => e.kind === 'damaged');
  server.intercept = null;
  await session(phone, server).run('secret');
  assert.equal(pendingCount(phone), 0);
});

test('each stored pull page reports the progress and saves what the server holds with it', async () => {
  const server = new FakeServer({ now: () => NOW });
  const other = '00000000000000aa';
  const seeded = [];
  for (let i = 1; i <= 1000; i++) {
    seeded.push(fromWire({ kind: 'station_edit', device: other, seq: i, hlc: String((BigInt(NOW - 100000 + i)) << 16n), station: 120000 + i, comp_date: 1 }));
  }
  server.seed(seeded);
  const phone = await replica('phone');
  const seen = [];
  const progress = ({ received, serverHas }) => {
    // The counts the screen shows while the sync runs: what is stored, and nothing of it unsent.
    seen.push({ received, held: phone.eventCount(), pending: pendingCount(phone), server: serverEventCount(phone), has: serverHas.get(other) });
  };
  await session(phone, server, { pageSize: 300, onProgress: progress }).run('secret');
  assert.deepEqual(seen.slice(0, 4).map((p) => p.received), [300, 600, 900, 1000]);
  assert.ok(seen.slice(4).every((p) => p.received === 1000), 'a later round brings nothing more');
  assert.ok(seen.slice(0, 4).every((p) => p.held === p.received && p.pending === 0 && p.server === 1000 && p.has === 1000n), JSON.stringify(seen, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
});

test('a malformed page stores nothing', async () => {
  const server = new FakeServer({ now: () => NOW });
  const phone = await replica('phone');
  const good = { kind: 'station_edit', device: '00000000000000aa', seq: 1, hlc: '100000', station: 5, comp_date: 1 };
  const badPages = [
    [good, { ...good, seq: 2, comp_date: 20130230 }],
    [good, { ...good, seq: 2, memo: 'x'.repeat(4097), comp_date: null }],
    [good, { ...good, seq: 2, device: 'ZZ' }],
    [good, { ...good, seq: 2, hlc: 5 }],
    [good, { ...good, seq: 2, station: 0 }],
    [good, { ...good, kind: 'unknown' }],
  ];
  for (const records of badPages) {
    server.intercept = (path) => (path === '/v1/pull'
      ? server.json(200, { records, more: false, cursor: 2, server_has: { '00000000000000aa': 2 }, server_digests: {} }) : undefined);
    const before = phone.store.commits;
    await assert.rejects(session(phone, server).run('secret'), (e) => e.kind === 'malformed' && /nothing of that answer was saved/.test(e.message));
    assert.equal(phone.held('00000000000000aa'), 0n);
    assert.equal(phone.store.commits - before, 1, 'only the error bookkeeping is written');
  }
  for (const answer of ['not json', '{"records":[],"more":"no"}', '[]']) {
    server.intercept = (path) => (path === '/v1/pull' ? new Response(answer, { status: 200 }) : undefined);
    await assert.rejects(session(phone, server).run('secret'), (e) => e.kind === 'malformed');
  }
  // A gap inside an otherwise well-formed page is refused too.
  server.intercept = (path) => (path === '/v1/pull'
    ? server.json(200, { records: [good, { ...good, seq: 3 }], more: false, cursor: 2, server_has: {}, server_digests: {} }) : undefined);
  await assert.rejects(session(phone, server).run('secret'), (e) => e.kind === 'refused' && /#3 where #2 must come next/.test(e.message));
  assert.equal(phone.held('00000000000000aa'), 0n);
});

test('server refusals read as one sentence each', async () => {
  const server = new FakeServer({ now: () => NOW });
  const phone = await replica('phone');
  await phone.edit(1, { compDate: 1 }, NOW);
  server.intercept = (path) => (path === '/v1/pull' ? server.error(503, 'unavailable', 'damaged') : undefined);
  await assert.rejects(session(phone, server).run('secret'), (e) => e.kind === 'damaged' && /stored data for this account is damaged/.test(e.message));
  server.intercept = null;
  // A clock that ran fast: the server refuses events dated more than a day ahead.
  const fast = await replica('fast');
  await fast.edit(1, { compDate: 1 }, NOW + 3 * 86_400_000);
  await assert.rejects(session(fast, server).run('secret'), (e) => e.kind === 'clock' && /clock is fast/.test(e.message));
});

test('a copied replica is re-identified and both copies converge (merge.md §10)', async () => {
  const server = new FakeServer({ now: () => NOW });
  const original = await replica('phone');
  await original.edit(10, { compDate: 20240101 }, NOW);
  await original.edit(11, { compDate: 20240102 }, NOW + 1);
  await session(original, server).run('secret');
  // The site data is copied to a second browser (a restored backup).
  const copyStore = new MemoryStore();
  Object.assign(copyStore, structuredClone({ identity: original.store.identity, records: original.store.records, meta: original.store.meta }));
  const copy = await replica('ignored', copyStore);
  assert.equal(copy.device, original.device);
  await original.edit(12, { compDate: 20240103 }, NOW + 2);
  await session(original, server).run('secret');
  await copy.edit(13, { memo: 'the copy' }, NOW + 3);
  await copy.edit(14, { compDate: 1 }, NOW + 4);
  const report = await session(copy, server).run('secret');
  assert.ok(report.reidentified, 'the copy took a new device id');
  assert.equal(report.reidentified.oldDevice, original.device);
  assert.notEqual(copy.device, original.device);
  assert.equal(report.reidentified.first, 3n);
  assert.equal(copy.held(copy.device), 3n, 'two moved events and a knowledge mark');
  await session(original, server).run('secret');
  await session(copy, server).run('secret');
  assert.equal(rows(original), rows(copy));
  assert.deepEqual(original.fold.rows().map((r) => r.station), [10, 11, 12, 13, 14]);
  assert.equal(copy.deviceName(copy.device), 'phone', 'the same name under the new id');
});

test('a copy ahead of the server is caught by server_digests before anything is pushed', async () => {
  const server = new FakeServer({ now: () => NOW });
  const original = await replica('phone');
  await original.edit(10, { compDate: 20240101 }, NOW);
  await session(original, server).run('secret');
  const copyStore = new MemoryStore();
  Object.assign(copyStore, structuredClone({ identity: original.store.identity, records: original.store.records, meta: original.store.meta }));
  const copy = await replica('ignored', copyStore);
  await original.edit(11, { compDate: 20240102 }, NOW + 1);
  await session(original, server).run('secret');
  await copy.edit(12, { compDate: 20240103 }, NOW + 2);
  await copy.edit(13, { compDate: 20240104 }, NOW + 3);
  const report = await session(copy, server).run('secret');
  assert.equal(report.reidentified?.first, 2n);
  await session(original, server).run('secret');
  assert.equal(rows(original), rows(copy));
  assert.deepEqual(copy.fold.rows().map((r) => r.station), [10, 11, 12, 13]);
});

test('a fork of another device is refused, nothing written', async () => {
  const server = new FakeServer({ now: () => NOW });
  const phone = await replica('phone');
  await phone.edit(1, { compDate: 1 }, NOW);
  await session(phone, server).run('secret');
  server.intercept = (path) => (path === '/v1/pull' ? server.error(409, 'fork', 'differs', { device: '00000000000000aa', seq: 4 }) : undefined);
  const before = phone.allRecords().length;
  await assert.rejects(session(phone, server).run('secret'), (e) => e.kind === 'fork' && /00000000000000aa's event #4 differs/.test(e.message));
  assert.equal(phone.allRecords().length, before);
});

test('a failed write saves nothing and says so in one sentence', async () => {
  const store = new MemoryStore();
  const phone = await replica('phone', store);
  store.failWith = Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
  await assert.rejects(phone.edit(1, { compDate: 1 }, NOW), (e) => e instanceof StoreError && /storage for the app is full/.test(e.message));
  assert.equal(phone.fold.compDate(1), 0);
  assert.equal(phone.held(phone.device), 0n);
  store.failWith = null;
  assert.ok(await phone.edit(1, { compDate: 1 }, NOW));
  assert.equal(phone.held(phone.device), 1n);
});

test('an edit that changes nothing appends nothing; only changed fields enter the event', async () => {
  const phone = await replica('phone');
  const e1 = await phone.edit(5, { compDate: 20130901, memo: 'a' }, NOW);
  assert.equal(e1.compDate, 20130901);
  assert.equal(await phone.edit(5, { compDate: 20130901, memo: 'a' }, NOW + 1), null);
  const e2 = await phone.edit(5, { compDate: 20130901, memo: 'b' }, NOW + 2);
  assert.equal(e2.compDate, null);
  assert.equal(e2.memo, 'b');
  assert.equal(await phone.edit(6, { compDate: 0 }, NOW), null, 'un-completing a station never completed');
  assert.ok(e2.hlc > e1.hlc);
  // Reopening reads everything back.
  const again = await Ledger.open(phone.store, { now: NOW, newDevice: nextDevice, deviceName: 'x' });
  assert.equal(again.device, phone.device);
  assert.equal(again.identity.nextSeq, 3n);
  assert.equal(rows(again), rows(phone));
});

test('writes never interleave: edits made while a page is stored take distinct seqs', async () => {
  const phone = await replica('phone');
  const other = '00000000000000aa';
  const page = [];
  for (let i = 1; i <= 50; i++) page.push(fromWire({ kind: 'station_edit', device: other, seq: i, hlc: String(BigInt(NOW - 1000 + i) << 16n), station: 300000 + i, comp_date: 1 }));
  const writes = [phone.receive(page, NOW)];
  for (let i = 0; i < 20; i++) writes.push(phone.edit(100 + i, { compDate: 20240101 }, NOW + i));
  writes.push(phone.appendKnowledgeMarkIfOwed(NOW + 50));
  await Promise.all(writes);
  const own = phone.byDevice.get(phone.device);
  assert.deepEqual(own.map((e) => e.seq), Array.from({ length: own.length }, (_, i) => BigInt(i + 1)));
  assert.equal(own.length, 21);
  assert.equal(phone.store.records.size, 1 + 21, "every record of this device's stored under its own key");
  assert.deepEqual(phone.store.chunks.map((c) => c.count), [50], 'the page in one chunk');
  const again = await Ledger.open(phone.store, { now: NOW, newDevice: nextDevice, deviceName: 'x' });
  assert.equal(again.identity.nextSeq, 22n);
  assert.equal(rows(again), rows(phone));
});

test('a server that never moves on is refused, not looped on', async () => {
  const server = new FakeServer({ now: () => NOW });
  const phone = await replica('phone');
  server.intercept = (path) => (path === '/v1/pull'
    ? server.json(200, { records: [], more: true, cursor: 0, server_has: {}, server_digests: {} }) : undefined);
  await assert.rejects(session(phone, server).run('secret'), (e) => e.kind === 'malformed');
});
