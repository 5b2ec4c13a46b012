// The app's side of end-to-end encryption (Schemas/encryption.md §11 "The client"): the key kept
// in IndexedDB wrapped under a non-extractable key, written strictly; the first device makes and
// registers the key; a device without it never pushes; sealed pushes and pulls against a scripted
// server; the device's own fork check; the key chain; a link carries the key; the kit.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeSealedServer } from './support/fakeSealedServer.mjs';
import { FakeIndexedDb } from './support/fakeIndexedDb.mjs';

const { Ledger } = await appModule('ledger.js');
const { MemoryStore, IndexedDbStore } = await appModule('store.js');
const { Api } = await appModule('api.js');
const { App } = await appModule('app.js');
const { DeviceManager } = await appModule('deviceManager.js');
const { SyncSession, SyncFailure } = await appModule('sync.js');
const { KEYS_META, keepKey, loadKeys } = await appModule('keyStore.js');
const { fetchAccount, PLAINTEXT, hexOf } = await appModule('accountApi.js');
const { importDataKey, randomDataKey } = await appModule('crypto/dataKey.js');
const { wrapKey } = await appModule('crypto/keyWrap.js');
const { sealRecord, storedForm } = await appModule('crypto/recordSealer.js');
const { encode } = await appModule('records.js');
const { linkOffer, receiveLinkKey } = await appModule('linkKey.js');
const { kitDue, markRehearsed, recoverFromKit, rehearsalNumbers, wordsMatch } = await appModule('kitRehearsal.js');
const { syncFailureText } = await appModule('refusals.js');
const { setLanguage, t } = await appModule('i18n.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
let counter = 0x5000;
const nextDevice = () => (counter++).toString(16).padStart(16, '0');
setLanguage('en');

async function replica(name, store = new MemoryStore()) {
  return Ledger.open(store, { now: NOW, newDevice: nextDevice, deviceName: name });
}

function session(ledger, server, options = {}) {
  return new SyncSession({ ledger, api: new Api(server.fetch, 'http://server.test'), now: () => NOW, newDevice: nextDevice, ...options });
}

/** Whether `needle`'s UTF-8 bytes occur in `haystack`. */
function contains(haystack, needle) {
  const n = new TextEncoder().encode(needle);
  outer: for (let i = 0; i + n.length <= haystack.length; i++) {
    for (let j = 0; j < n.length; j++) if (haystack[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
}

async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SyncFailure, String(error));
    return error;
  }
  assert.fail('the sync did not fail');
}

test('the keys are kept in meta wrapped under a non-extractable key, written strictly', async () => {
  const factory = new FakeIndexedDb();
  const ledger = await replica('phone', await IndexedDbStore.open(factory, 'keys'));
  const key = await randomDataKey(1, { extractable: true });
  const before = factory.durabilities.length;
  await keepKey(ledger, key, { made: true });
  assert.deepEqual(factory.durabilities.slice(before), ['strict']);
  // Read back from a second opening: the CryptoKey came through structured clone.
  const again = await replica('phone', await IndexedDbStore.open(factory, 'keys'));
  const stored = again.getMeta(KEYS_META);
  assert.equal(stored.wrappingKey.extractable, false);
  assert.equal(stored.wrappingKey.algorithm.name, 'AES-GCM');
  assert.equal(stored.keys.length, 1);
  assert.equal(stored.keys[0].wrapped.length, 64);
  assert.ok(!contains(stored.keys[0].wrapped, String.fromCharCode(...key.bytes().subarray(0, 8))), 'no raw key bytes');
  const ring = await loadKeys(again);
  assert.equal(ring.current.fingerprint, key.fingerprint);
  assert.deepEqual([...ring.made], [1]);
  // A second key of the next epoch: both kept, the newest current.
  const next = await randomDataKey(2, { extractable: true });
  await keepKey(again, next);
  const both = await loadKeys(again);
  assert.deepEqual(both.keys.map((k) => k.epoch), [1, 2]);
  assert.equal(both.current.fingerprint, next.fingerprint);
});

test('a server without /v1/account (404) serves a plaintext account', async () => {
  const api = new Api(async () => new Response('{"error":"not_found","message":"no"}', { status: 404 }), '');
  assert.equal(await fetchAccount(api, 't'), PLAINTEXT);
});

test('the first device makes the key, registers it, and pushes only sealed records; another device reads them through a link', async () => {
  const server = new FakeSealedServer();
  const phone = await replica('iPhone');
  await phone.edit(202919, { compDate: 20240503, memo: '東京駅の秘密' }, NOW);
  const s = session(phone, server);
  const report = await s.run('secret');
  assert.equal(s.madeKey, true);
  assert.equal(report.pushed, 2, 'the event and the device name');
  const ring = await loadKeys(phone);
  assert.equal(server.account.fingerprint, ring.current.fingerprint);
  assert.ok(server.log.every((r) => r.kind === 5 || r.kind === 6));
  assert.ok(server.pushedBodies.every((b) => !contains(b, '東京駅の秘密') && !contains(b, 'iPhone')), 'no memo or name in the clear');
  assert.ok(server.requests.filter((r) => r.path === '/v1/pull').every((r) => r.accept === 'application/x-oritsubushi-frames'));
  assert.ok(kitDue(ring), 'the kit is due until it is rehearsed');

  // A second device without the key never pushes.
  const laptop = await replica('laptop');
  await laptop.edit(300260, { compDate: 20130901 }, NOW + 1);
  const requestsBefore = server.requests.length;
  const refused = await failure(session(laptop, server).run('secret'));
  assert.equal(refused.kind, 'key');
  assert.equal(refused.cause.reason, 'missing');
  assert.equal(syncFailureText('key', { key: 'missing' }), t('key.missing'));
  assert.deepEqual(server.requests.slice(requestsBefore).map((r) => r.path), ['/v1/account'], 'nothing pulled or pushed');

  // The phone makes a link; the laptop takes its key and both read each other's records.
  const offer = await linkOffer(ring.current);
  assert.equal(offer.secret.length, 43);
  assert.match(offer.wrappedKey, /^[0-9a-f]{128}$/);
  const received = await receiveLinkKey(offer.wrappedKey, offer.secret, 1);
  assert.equal(received.fingerprint, ring.current.fingerprint);
  assert.equal(await receiveLinkKey(offer.wrappedKey, offer.secret.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), 1), null, 'another secret does not open it');
  await keepKey(laptop, received);
  await session(laptop, server).run('secret');
  assert.equal(laptop.history(202919)[0].memo, '東京駅の秘密');
  await session(phone, server).run('secret');
  assert.equal(phone.compDate(300260), 20130901);
  assert.equal(phone.deviceName(laptop.device), 'laptop');
});

test("edits dated more than a day ahead of the server's clock are not sent: the device checks what the server cannot read", async () => {
  const server = new FakeSealedServer();
  server.date = NOW - 2 * 86_400_000;
  const phone = await replica('iPhone');
  await phone.edit(202919, { compDate: 20240503 }, NOW);
  const refused = await failure(session(phone, server).run('secret'));
  assert.equal(refused.kind, 'clock');
  assert.match(refused.message, /ahead of the sync server's clock/);
  assert.equal(syncFailureText('clock', {}), t('failure.clock'));
  assert.ok(!server.requests.some((r) => r.path === '/v1/push'), 'nothing pushed');
  assert.equal(server.log.length, 0);

  server.date = NOW;
  const report = await session(phone, server).run('secret');
  assert.equal(report.pushed, 2, 'sent once the clocks agree');
});

test("a key whose fingerprint is not the account's, or of an older epoch, is refused before anything is pushed", async () => {
  const other = await randomDataKey(1, { extractable: true });
  const server = new FakeSealedServer({ fingerprint: 'AAAA-BBBB' });
  const phone = await replica('phone');
  await keepKey(phone, other);
  await phone.edit(202919, { compDate: 20240503 }, NOW);
  const refused = await failure(session(phone, server).run('secret'));
  assert.equal(refused.cause.reason, 'other');
  const rotated = new FakeSealedServer({ epoch: 2, fingerprint: 'AAAA-BBBB' });
  const stale = await failure(session(phone, rotated).run('secret'));
  assert.equal(stale.cause.reason, 'rotated');
  assert.equal(syncFailureText('key', { key: 'rotated' }), t('key.rotated'));
  assert.ok(![...server.requests, ...rotated.requests].some((r) => r.path === '/v1/push' || r.path === '/v1/pull'));
});

test('older epochs are read with keys from the key chain', async () => {
  const one = await randomDataKey(1, { extractable: true });
  const two = await randomDataKey(2, { extractable: true });
  const server = new FakeSealedServer({ epoch: 2, fingerprint: two.fingerprint });
  server.account.key_chain = { 1: hexOf(await wrapKey(one, two.chainKey, 'chain')) };
  // Another device's event sealed under epoch 1, before the rotation.
  const other = await replica('old');
  await other.edit(202919, { memo: '古い鍵' }, NOW);
  server.seed(await Promise.all(other.allRecords().map((e) => sealRecord(encode(e), one))));
  const phone = await replica('phone');
  await keepKey(phone, two);
  await phone.edit(300260, { compDate: 20130901 }, NOW + 1);
  await session(phone, server).run('secret');
  assert.equal(phone.history(202919)[0].memo, '古い鍵');
  assert.deepEqual((await loadKeys(phone)).keys.map((k) => k.epoch), [1, 2], 'the chain key is kept');
  assert.ok(server.log.filter((r) => r.device === phone.device).every((r) => r.epoch === 2), 'pushes seal under the current epoch');
});

test("the device's own fork check: the server's sealed copy differs from the event held here", async () => {
  const key = await randomDataKey(1, { extractable: true });
  const server = new FakeSealedServer({ fingerprint: key.fingerprint });
  const a = await replica('a'), b = await replica('b');
  await keepKey(a, key);
  await keepKey(b, key);
  await a.edit(202919, { compDate: 20240503 }, NOW);
  await session(a, server).run('secret');
  await session(b, server).run('secret');
  assert.equal(b.compDate(202919), 20240503);
  // The server's copy of a's event #1 is replaced by another event under the same id.
  const held = server.byDevice.get(a.device)[0];
  const forged = { ...b.event(a.device, 1n), compDate: 20240504 };
  const copy = await sealRecord(encode(forged), key);
  assert.notDeepEqual(storedForm(copy), storedForm(held));
  server.byDevice.get(a.device)[0] = copy;
  server.log[server.log.indexOf(held)] = copy;
  const fork = await failure(session(b, server).run('secret'));
  assert.equal(fork.kind, 'fork');
});

test('a link from 「別の端末を追加」 carries the key; a code without one says how to get it', async () => {
  const server = new FakeSealedServer();
  const make = (name) => new App({ store: new MemoryStore(), fetch: server.fetch, now: () => NOW, newDevice: nextDevice, deviceName: name });
  const phone = make('iPhone');
  await phone.start();
  server.pairKey = null;
  // No device has made the account's key: this one will, so pairing says nothing of a key.
  const first = await phone.pair('ABCD-EFGH', 'iPhone');
  assert.equal(first.message, t('pair.okNamed', 'alice', 'iPhone'));
  await phone.running;
  // This app is the first device: it made the key.
  const ring = await loadKeys(phone.replica);
  assert.ok(ring && kitDue(ring));
  const link = await new DeviceManager(phone).link();
  assert.ok(link.ok);
  assert.equal(link.value.fingerprint, ring.current.fingerprint);
  assert.equal(link.value.secret.length, 43);
  assert.match(server.requests.find((r) => r.path === '/v1/devices/link').body.wrapped_key, /^[0-9a-f]{128}$/);
  const tablet = make('iPad');
  await tablet.start();
  const joined = await tablet.pair(link.value.code, 'iPad', link.value.secret);
  assert.equal(joined.message, t('pair.okKey', 'alice', 'iPad', ring.current.fingerprint));
  await tablet.running;
  assert.equal(tablet.syncError, null);
  assert.equal((await loadKeys(tablet.replica)).current.fingerprint, ring.current.fingerprint);
  assert.equal(kitDue(await loadKeys(tablet.replica)), null, 'a received key has no kit to show here');
  // An operator's code (no key) on an account whose key exists: said, and the sync refused.
  const desk = make('desk');
  await desk.start();
  const plain = await desk.pair('ABCD-EFGH', 'desk');
  assert.equal(plain.message, t('pair.encryptedNoKey', 'alice'));
  await desk.running;
  assert.equal(desk.syncError, t('key.missing'));
});

test('the kit: rehearsal of two words, and recovery checked against the account', async () => {
  for (let i = 0; i < 50; i++) {
    const [a, b] = rehearsalNumbers();
    assert.ok(a >= 1 && b <= 16 && a < b);
  }
  assert.deepEqual(rehearsalNumbers(() => 0.999), [15, 16]);
  assert.deepEqual(rehearsalNumbers(() => 0), [1, 2]);
  const key = await importDataKey(new Uint8Array(32).fill(7), 1, { extractable: true });
  const phone = await replica('phone');
  const ring = await keepKey(phone, key, { made: true });
  const due = kitDue(ring);
  assert.equal(due.words.length, 16);
  const w = due.words;
  assert.ok(wordsMatch(w, [3, 9], [w[2].toLowerCase(), ` ${w[8].slice(0, 2)}-${w[8].slice(2)} `]));
  assert.ok(!wordsMatch(w, [3, 9], [w[2], w[2] === w[8] ? 'ZZZZ' : w[2]]));
  assert.ok(!wordsMatch(w, [3, 9], [w[2], '']));
  await markRehearsed(phone);
  assert.equal(kitDue(await loadKeys(phone)), null);

  const server = new FakeSealedServer({ fingerprint: key.fingerprint });
  const api = new Api(server.fetch, '');
  const laptop = await replica('laptop');
  assert.deepEqual(await recoverFromKit(laptop, api, 'secret', 'not a kit'), { ok: false, message: t('kit.unreadable') });
  const recovered = await recoverFromKit(laptop, api, 'secret', due.text.toLowerCase());
  assert.deepEqual(recovered, { ok: true, message: t('kit.recovered', key.fingerprint) });
  assert.equal((await loadKeys(laptop)).current.fingerprint, key.fingerprint);
  const rotated = new FakeSealedServer({ epoch: 2, fingerprint: 'AAAA-BBBB' });
  assert.equal((await recoverFromKit(laptop, new Api(rotated.fetch, ''), 'secret', due.text)).message, t('kit.oldEpoch', 1, 2));
  const another = new FakeSealedServer({ fingerprint: 'AAAA-BBBB' });
  assert.equal((await recoverFromKit(await replica('x'), new Api(another.fetch, ''), 'secret', due.text)).message, t('kit.notAccount', key.fingerprint, 'AAAA-BBBB'));
});

test('a pulled record that does not open under its epoch\'s key stops the sync, and nothing of its page is kept', async () => {
  const key = await randomDataKey(1, { extractable: true });
  const server = new FakeSealedServer({ fingerprint: key.fingerprint });
  const other = await replica('other');
  await other.edit(202919, { memo: 'x' }, NOW);
  const sealed = await Promise.all(other.allRecords().map((e) => sealRecord(encode(e), key)));
  const event = sealed.find((r) => r.kind === 5);
  event.ciphertext = event.ciphertext.slice();
  event.ciphertext[0] ^= 1;
  server.seed(sealed);
  const phone = await replica('phone');
  await keepKey(phone, key);
  const refused = await failure(session(phone, server).run('secret'));
  assert.equal(refused.kind, 'key');
  assert.equal(refused.cause.reason, 'record');
  assert.equal(syncFailureText('key', { key: 'record' }), t('key.record'));
  assert.equal(phone.history(202919).length, 0);
});
