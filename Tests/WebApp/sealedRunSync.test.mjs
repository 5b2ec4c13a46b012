// Sealed runs in the app's sync (Schemas/encryption.md §3.5 "Who makes runs", §11 "Fork
// detection on pulls"): how a push cuts each device's events into runs, pages of runs, the
// device's own fork check against a stored run's bounds, the server's digest entries with
// `first` and `last` checked, and a sealed sync through a scripted server that keeps runs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeSealedServer } from './support/fakeSealedServer.mjs';

const { importDataKey } = await appModule('crypto/dataKey.js');
const { KeyRing } = await appModule('crypto/keyRing.js');
const { sealRun } = await appModule('crypto/runSealer.js');
const { sealRecord, storedForm } = await appModule('crypto/recordSealer.js');
const { encodeBlocks } = await appModule('blockEncoder.js');
const { cutRuns } = await appModule('runCut.js');
const { MAX_RUN_RECORD_BYTES } = await appModule('sealedLayout.js');
const { sealPieces, sealedDigest, sealedFork, SealedRecordError } = await appModule('sealedSync.js');
const { pushPages, SEALED_PAGE_BYTES, SEALED_PAGE_RECORDS } = await appModule('pushPages.js');
const { writeSealedFrames } = await appModule('recordFrames.js');
const { pullSealed, writeFramesBody } = await appModule('accountApi.js');
const { Api, FRAMES_TYPE, MalformedAnswer } = await appModule('api.js');
const { stringify } = await appModule('bigjson.js');
const { encode } = await appModule('records.js');
const { Ledger } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');
const { SyncSession, SyncFailure } = await appModule('sync.js');
const { keepKey } = await appModule('keyStore.js');

const KEY = new Uint8Array(32).fill(9);
const A = '00000000000000a1', B = '00000000000000b2';
const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);

const edit = (seq, device = A, memo = null) => ({ kind: 'station_edit', device, seq: BigInt(seq), hlc: (BigInt(NOW - 100_000) + BigInt(seq)) << 16n, station: 1130101 + (seq % 50), compDate: 20240501, memo, origin: 'user' });
const edits = (from, to, device = A) => Array.from({ length: to - from + 1 }, (_, i) => edit(from + i, device));
const name = (device) => ({ kind: 'device_name', device, seq: 0n, hlc: BigInt(NOW) << 16n, name: 'phone' });
/** What each piece holds, as [first, last] (a name: 'name'). */
const shape = (pieces) => pieces.map(({ events }) => (events[0].kind === 'device_name' ? 'name' : [Number(events[0].seq), Number(events.at(-1).seq)]));

// MARK: - Who makes runs

// Runs are cut by their records' bytes (§3.5): 1,578 memo-less edits (38 bytes each) are 59,964
// bytes, a 1,579th would pass 60,000.
test('a push cuts runs by their records\' bytes; what would be a run of its own is a kind-5 record', async () => {
  assert.equal(MAX_RUN_RECORD_BYTES, 60_000);
  assert.deepEqual(shape(cutRuns(edits(1, 1578))), [[1, 1578]]);
  assert.deepEqual(shape(cutRuns(edits(1, 1579))), [[1, 1578], [1579, 1579]]);
  assert.deepEqual(shape(cutRuns(edits(1, 1580))), [[1, 1578], [1579, 1580]]);
  assert.deepEqual(shape(cutRuns(edits(1, 3157))), [[1, 1578], [1579, 3156], [3157, 3157]]);
  const key = await importDataKey(KEY, 1);
  const pieces = cutRuns(edits(1, 1579));
  const sealed = await sealPieces(pieces, key);
  assert.deepEqual(sealed.map((r) => [r.kind, r.first ?? null, r.seq]), [[7, 1n, 1578n], [5, null, 1579n]]);
  assert.deepEqual(sealed.map((r) => storedForm(r).length), pieces.map((p) => p.length), 'each piece weighs what it seals to');
  assert.deepEqual(shape(cutRuns([edit(7)])), [[7, 7]]);
  assert.equal((await sealPieces(cutRuns([edit(7)]), key))[0].kind, 5, 'a lone event');
});

test('a run holds consecutive seqs of one device only; names are sealed alone', async () => {
  const events = [name(A), ...edits(1, 3), edit(5), edit(6), edit(8), ...edits(1, 2, B), name(B), edit(3, B)];
  assert.deepEqual(shape(cutRuns(events)), ['name', [1, 3], [5, 6], [8, 8], [1, 2], 'name', [3, 3]]);
  const sealed = await sealPieces(cutRuns(events), await importDataKey(KEY, 1));
  assert.deepEqual(sealed.map((r) => r.kind), [6, 7, 7, 5, 7, 6, 5]);
  assert.deepEqual(sealed.map((r) => r.device), [A, A, A, A, B, B, B]);
});

test("a run ends before its records' raw lengths would together pass 60,000 bytes; its padded block stays within 65,472", async () => {
  // 15 edits of 3,962 bytes (a memo of 3,924) and one sized so that the 16 records are exactly 60,000 bytes.
  const raw = (list) => list.reduce((n, e) => n + encode(e).length, 0);
  const events = Array.from({ length: 15 }, (_, i) => edit(i + 1, A, 'm'.repeat(3924)));
  const exact = [...events, edit(16, A, 'x'.repeat(60_000 - raw(events) - 38))];
  assert.equal(raw(exact), 60_000);
  assert.deepEqual(shape(cutRuns(exact)), [[1, 16]], 'exactly 60,000 bytes: one run');
  const over = [...exact.slice(0, 15), { ...exact[15], memo: exact[15].memo + 'x' }];
  assert.equal(raw(over), 60_001);
  assert.deepEqual(shape(cutRuns(over)), [[1, 15], [16, 16]], 'one byte more: the last event goes on, alone');
  assert.deepEqual(shape(cutRuns([...over, edit(17), edit(18)])), [[1, 15], [16, 18]]);
  // The longest run of the rule seals: its block, whatever its records hold, fits 65,472.
  const key = await importDataKey(KEY, 1);
  const [run] = await sealPieces(cutRuns(exact), key);
  assert.ok(encodeBlocks(exact).length <= 65_472);
  assert.equal(storedForm(run).length, cutRuns(exact)[0].length, 'it weighs what it seals to');
  const marks = Array.from({ length: 3 }, (_, i) => ({ kind: 'knowledge_mark', device: A, seq: BigInt(i + 1), hlc: BigInt(NOW) << 16n,
    knowledge: Array.from({ length: 1200 }, (_, j) => [(BigInt(j) * 0x10000000000n + 1n).toString(16).padStart(16, '0'), 0xffffffffffffn]) }));
  assert.deepEqual(shape(cutRuns(marks)), [[1, 3]]);
  assert.equal(storedForm((await sealPieces(cutRuns(marks), key))[0]).length, cutRuns(marks)[0].length);
});

test("a push's pages of runs stay under the byte bound: a run is one record, its frames weigh what it does", async () => {
  const events = Array.from({ length: 800 }, (_, i) => edit(i + 1, A, 'm'.repeat(3000)));
  const pieces = cutRuns(events);
  assert.ok(pieces.length > 35, `${pieces.length} runs`);
  const pages = [...pushPages(pieces, (p) => p.length, { records: SEALED_PAGE_RECORDS, bytes: SEALED_PAGE_BYTES })];
  assert.ok(pages.length >= 2, `${pages.length} pages`);
  const key = await importDataKey(KEY, 1);
  for (const page of pages) {
    const weight = page.reduce((n, p) => n + p.length, 0);
    assert.ok(weight < SEALED_PAGE_BYTES + 65_536, `a page of ${weight} bytes`);
    const frames = writeSealedFrames(await sealPieces(page, key));
    assert.ok(frames.length > weight * 0.95 && frames.length < weight * 1.01 + 1024, `frames of ${frames.length} bytes for ${weight}`);
  }
  assert.deepEqual(pages.flat().flatMap((p) => p.events), events);
});

// MARK: - The device's own fork check

test('the fork check seals the events first … last as one run when the server states its bounds', async () => {
  const key = await importDataKey(KEY, 1);
  const ring = new KeyRing([key]);
  const own = new Map(edits(1, 6).map((e) => [e.seq, e]));
  const eventAt = (device, seq) => (device === A ? own.get(seq) : undefined);
  const stored = async (events) => ({ digest: sealedDigest(await sealRun(events, key)), epoch: 1, first: events[0].seq, last: events.at(-1).seq });
  const at = new Map([[A, 3n]]);
  assert.equal(await sealedFork(new Map([[A, await stored(edits(2, 4))]]), at, eventAt, ring), null, 'the same run');
  assert.equal(await sealedFork(new Map([[A, await stored([edit(3)])]]), at, eventAt, ring), null, 'a run of one event');
  const other = await stored([edit(2), { ...edit(3), compDate: 20240502 }, edit(4)]);
  assert.deepEqual(await sealedFork(new Map([[A, other]]), at, eventAt, ring), { device: A, seq: 3n }, 'a run that differs');
  assert.deepEqual(await sealedFork(new Map([[A, { ...other, digest: (await stored(edits(2, 4))).digest, first: 3n }]]), at, eventAt, ring), { device: A, seq: 3n },
    'the same events under other bounds are another run');
  // This device lacks #7: no comparison, whatever the digest.
  assert.equal(await sealedFork(new Map([[A, { ...other, first: 2n, last: 7n }]]), at, eventAt, ring), null, 'a run not all held');
  assert.equal(await sealedFork(new Map([[A, { digest: '0'.repeat(32), epoch: 1, first: 3n, last: 3000n }]]), at, eventAt, ring), null);
  // Without bounds, the event alone, as before runs.
  assert.equal(await sealedFork(new Map([[A, { digest: sealedDigest(await sealRecord(encode(edit(3)), key)), epoch: 1 }]]), at, eventAt, ring), null);
  assert.deepEqual(await sealedFork(new Map([[A, { digest: (await stored([edit(3)])).digest, epoch: 1 }]]), at, eventAt, ring), { device: A, seq: 3n }, 'a kind-5 check against a run digest');
  await assert.rejects(sealedFork(new Map([[A, { ...other, first: 4n, last: 6n }]]), at, eventAt, ring), MalformedAnswer, 'bounds that do not hold the seq');
  await assert.rejects(sealedFork(new Map([[A, { ...other, epoch: 2 }]]), at, eventAt, ring), (error) => error instanceof SealedRecordError && error.reason === 'missing');
  // Own events too long for one run differ from any run the server could hold.
  const long = new Map(Array.from({ length: 20 }, (_, i) => [BigInt(i + 1), edit(i + 1, A, 'm'.repeat(4000))]));
  const fork = await sealedFork(new Map([[A, { ...other, first: 1n, last: 20n }]]), at, (d, s) => long.get(s), ring);
  assert.deepEqual(fork, { device: A, seq: 3n });
});

// MARK: - The server's digest entries

/** The have_checks a pull page decodes to, from a header's value. */
async function haveChecks(value) {
  const header = { count: 0, more: false, cursor: 0, server_has: {}, have_checks: value, server_digests: {} };
  const fetch = async () => new Response(writeFramesBody(header, new Uint8Array(0)), { status: 200, headers: { 'Content-Type': FRAMES_TYPE } });
  return (await pullSealed(new Api(fetch, ''), 't', { have: {}, have_digests: {} })).haveChecks;
}

test('a digest entry carries first and last both or neither, 1 ≤ first ≤ last < 2^64; anything else is malformed', async () => {
  const digest = 'ab'.repeat(16);
  assert.deepEqual(await haveChecks({ [A]: { digest, epoch: 2, first: 3, last: 9 } }), new Map([[A, { digest, epoch: 2, first: 3n, last: 9n }]]));
  assert.deepEqual(await haveChecks({ [A]: { digest, epoch: 2, first: 4, last: 4 } }), new Map([[A, { digest, epoch: 2, first: 4n, last: 4n }]]));
  assert.deepEqual(await haveChecks({ [A]: { digest, epoch: 2, first: 1, last: 18446744073709551615n } }).then((m) => m.get(A).last), 18446744073709551615n);
  assert.deepEqual(await haveChecks({ [A]: { digest, epoch: 2 } }), new Map([[A, { digest, epoch: 2 }]]));
  const malformed = [
    { digest, epoch: 2, first: 3 }, { digest, epoch: 2, last: 3 }, { digest, epoch: 2, first: 0, last: 3 },
    { digest, epoch: 2, first: 4, last: 3 }, { digest, epoch: 2, first: '3', last: 4 }, { digest, epoch: 2, first: 3, last: null },
    { digest, epoch: 2, first: -1, last: 3 }, { digest, epoch: 2, first: 1.5, last: 3 }, { digest, epoch: 2, first: 1, last: 18446744073709551616n },
    { epoch: 2, first: 1, last: 3 },
  ];
  for (const entry of malformed) {
    await assert.rejects(haveChecks({ [A]: entry }), (error) => error instanceof MalformedAnswer && error.message === "the sync server's have_checks is not the sync API's", stringify(entry));
  }
});

// MARK: - A sealed sync through a server that keeps runs

async function replica(deviceName, device) {
  return Ledger.open(new MemoryStore(), { now: NOW, newDevice: () => device, deviceName });
}

const session = (ledger, server) => new SyncSession({ ledger, api: new Api(server.fetch, 'http://server.test'), now: () => NOW, newDevice: () => 'ffffffffffffff01' });

test('a sealed sync pushes runs, another device opens them, compares its own copies by run, and finds a forged run', async () => {
  const key = await importDataKey(KEY, 1, { extractable: true });
  const server = new FakeSealedServer({ fingerprint: key.fingerprint });
  const phone = await replica('phone', A), laptop = await replica('laptop', B);
  await keepKey(phone, key);
  await keepKey(laptop, key);
  for (let i = 0; i < 5; i++) await phone.edit(202919 + i, { compDate: 20240503, memo: `駅 ${i}` }, NOW);
  assert.equal((await session(phone, server).run('secret')).pushed, 6, 'five events and the name');
  assert.deepEqual(server.log.map((r) => [r.kind, r.first ?? null, r.seq]), [[7, 1n, 5n], [6, null, 0n]]);

  await session(laptop, server).run('secret');
  assert.equal(laptop.history(202923)[0].memo, '駅 4');
  assert.equal(laptop.held(A), 5n);
  // Its next pull states the run's bounds: the laptop seals its copy of #1–#5 and finds it equal.
  await session(laptop, server).run('secret');
  const pulls = server.requests.filter((r) => r.path === '/v1/pull');
  assert.ok(pulls.length >= 3);

  // The server's run replaced by one of other content under the same bounds and epoch.
  const forged = await sealRun([...[1, 2, 3, 4].map((s) => laptop.event(A, BigInt(s))), { ...laptop.event(A, 5n), memo: '偽' }], key);
  const held = server.log.findIndex((r) => r.kind === 7);
  server.log[held] = forged;
  server.byDevice.set(A, Array(5).fill(forged));
  const fork = await session(laptop, server).run('secret').then(() => null, (error) => error);
  assert.ok(fork instanceof SyncFailure && fork.kind === 'fork', String(fork));
});

test('a device pushes another device\'s 1,579 events as a run and a kind-5 record; a third device reads all of them', async () => {
  const key = await importDataKey(KEY, 1, { extractable: true });
  const server = new FakeSealedServer({ fingerprint: key.fingerprint });
  const relay = await replica('relay', B);
  await keepKey(relay, key);
  const device = '00000000000000c3';
  await relay.receive(edits(1, 1579, device), NOW);
  await session(relay, server).run('secret');
  assert.deepEqual(server.log.filter((r) => r.device === device).map((r) => [r.kind, r.first ?? null, r.seq]), [[7, 1n, 1578n], [5, null, 1579n]]);
  const reader = await replica('reader', '00000000000000d4');
  await keepKey(reader, key);
  await session(reader, server).run('secret');
  assert.equal(reader.held(device), 1579n);
  assert.deepEqual(reader.event(device, 1500n), edit(1500, device));
  // Sent again (the server lost nothing): the same cut, the same bytes, duplicates.
  const again = await sealPieces(cutRuns(edits(1, 1579, device)), key);
  assert.deepEqual(again.map((r) => storedForm(r)), server.log.filter((r) => r.device === device).map((r) => storedForm(r)));
});
