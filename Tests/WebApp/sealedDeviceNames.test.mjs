// An encrypted account's device names, kept by the server only sealed (Schemas/encryption.md §8,
// "Device names"; sealedDeviceName.js): the layout of a sealed name and what does not open (the
// bytes Swift makes are Conformance/encryption.jsonl's `seal-name` cases, encryption.test.mjs);
// a sync names a device whose token has no sealed name, once; the devices screen opens the names
// with the key ring, says "(sealed name)" for one it cannot open, renames with a sealed name, and
// signs a device out by its id.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeSealedServer } from './support/fakeSealedServer.mjs';

const { Ledger } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');
const { Api } = await appModule('api.js');
const { App } = await appModule('app.js');
const { DeviceManager } = await appModule('deviceManager.js');
const { SyncSession } = await appModule('sync.js');
const { loadKeys } = await appModule('keyStore.js');
const { KeyRing } = await appModule('crypto/keyRing.js');
const { randomDataKey } = await appModule('crypto/dataKey.js');
const { sealRecord, storedForm } = await appModule('crypto/recordSealer.js');
const { encode } = await appModule('records.js');
const { base64url, fromBase64url } = await appModule('linkKey.js');
const { deviceRows } = await appModule('devices.js');
const { openDeviceName, sealDeviceName } = await appModule('sealedDeviceName.js');
const { setLanguage, t } = await appModule('i18n.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
let counter = 0x7000;
const nextDevice = () => (counter++).toString(16).padStart(16, '0');
setLanguage('en');

const nameRecord = (name, device = '80000000000000a1') => ({ kind: 'device_name', device, seq: 0n, hlc: 1_764_000_000_000n << 16n, name });

test('a sealed name is `sealed:` and the base64url of one kind-6 record; it opens only under its epoch\'s key', async () => {
  const key = await randomDataKey(1, { extractable: true });
  const ring = new KeyRing([key]);
  const text = await sealDeviceName(nameRecord('Pixel 8 はな'), key);
  assert.match(text, /^sealed:[A-Za-z0-9_-]+$/);
  const bytes = fromBase64url(text.slice(7));
  const plain = encode(nameRecord('Pixel 8 はな'));
  const padded = Math.ceil(plain.length / 32) * 32;
  assert.equal(bytes[0], 6, 'kind 6');
  assert.equal(bytes[1], 0, 'flags 0');
  assert.equal(bytes[2] | (bytes[3] << 8), 24 + padded + 16, 'device, epoch, nonce, then the padded ciphertext and its tag');
  assert.equal(bytes.length, 4 + 24 + padded + 16);
  assert.equal(Buffer.from(bytes.subarray(4, 12)).toString('hex'), 'a100000000000080', 'the device in the clear');
  assert.equal(bytes[12] | (bytes[13] << 8), 1, 'the epoch in the clear');
  assert.equal(text, await sealDeviceName(nameRecord('Pixel 8 はな'), key), 'deterministic');
  assert.equal(await openDeviceName(text, ring), 'Pixel 8 はな');

  const longest = await sealDeviceName(nameRecord('駅'.repeat(85)), key);
  assert.ok(longest.length <= 1024, 'a name of 255 bytes fits the server\'s 1,024 characters');
  assert.equal(await openDeviceName(longest, ring), '駅'.repeat(85));

  const other = new KeyRing([await randomDataKey(1, { extractable: true })]);
  const later = new KeyRing([await randomDataKey(2, { extractable: true })]);
  const event = storedForm(await sealRecord(encode({ kind: 'catalog_version', device: '80000000000000a1', seq: 4n, hlc: 1n << 16n, catalogVersion: 176 }), key));
  for (const [label, wrong, withRing] of [
    ['another key of the epoch', text, other],
    ['a ring without the epoch', text, later],
    ['no ring', text, null],
    ['a name in the clear', 'Pixel 8', ring],
    ['not base64url', 'sealed:***', ring],
    ['a sealed event', `sealed:${base64url(event)}`, ring],
    ['two sealed names', `sealed:${base64url(new Uint8Array([...bytes, ...bytes]))}`, ring],
    ['one cut short', `sealed:${base64url(bytes.subarray(0, bytes.length - 1))}`, ring],
    ['longer than 1,024 characters', `${text}${'A'.repeat(1024)}`, ring],
  ]) {
    assert.equal(await openDeviceName(wrong, withRing), null, label);
  }
});

test('a sync names a device whose token has no sealed name, with its own name record sealed, once', async () => {
  const server = new FakeSealedServer();
  const phone = await Ledger.open(new MemoryStore(), { now: NOW, newDevice: nextDevice, deviceName: 'はなのiPhone' });
  const sync = () => new SyncSession({ ledger: phone, api: new Api(server.fetch, 'http://server.test'), now: () => NOW, newDevice: nextDevice }).run('secret');
  await sync();
  const renames = () => server.requests.filter((r) => r.path === '/v1/devices/rename');
  assert.equal(renames().length, 1);
  const sent = renames()[0].body.name;
  assert.match(sent, /^sealed:/);
  const ring = await loadKeys(phone);
  assert.equal(sent, await sealDeviceName(phone.names.get(phone.device), ring.current), "the replica's own name record");
  assert.equal(await openDeviceName(server.devices[0].name, ring), 'はなのiPhone');
  assert.ok(!JSON.stringify(server.requests.map((r) => r.body)).includes('はな'), 'no name in the clear');
  await sync();
  assert.equal(renames().length, 1, 'named already: not again');
});

test('the devices screen opens sealed names, says which it cannot, renames sealed and signs out by id', async () => {
  const server = new FakeSealedServer();
  const phone = new App({ store: new MemoryStore(), fetch: server.fetch, now: () => NOW, newDevice: nextDevice, deviceName: 'iPhone' });
  await phone.start();
  await phone.pair('ABCD-EFGH', 'iPhone');
  await phone.running;
  const ring = await loadKeys(phone.replica);
  assert.ok(ring, 'the first device made the key');
  const stranger = await randomDataKey(1, { extractable: true });
  server.devices.push(
    { id: '0f0e0d0c0b0a', name: await sealDeviceName(nameRecord('Pixel Chrome', '0000000000000b0b'), ring.current), created: 1, last_sync: null, this_device: false },
    { id: '0a0b0c0d0e0f', name: await sealDeviceName(nameRecord('unknown', '0000000000000c0c'), stranger), created: 2, last_sync: null, this_device: false });
  const devices = new DeviceManager(phone);
  const list = await devices.list();
  assert.ok(list.ok);
  assert.deepEqual(deviceRows(list.value).map((r) => r.name), ['iPhone', 'Pixel Chrome', t('devices.sealedName')]);
  assert.equal(t('devices.sealedName'), '(sealed name)');

  const renamed = await devices.rename('  通勤用  ');
  assert.equal(renamed.message, t('devices.renamed', '通勤用'));
  assert.equal(renamed.ok && renamed.value.name, '通勤用');
  const sent = server.requests.filter((r) => r.path === '/v1/devices/rename').at(-1).body.name;
  assert.match(sent, /^sealed:/);
  assert.equal(sent, await sealDeviceName(phone.replica.names.get(phone.replica.device), ring.current), 'the record the replica wrote');
  assert.equal(phone.replica.deviceName(phone.replica.device), '通勤用');
  const again = await devices.list();
  assert.deepEqual(again.ok && again.value.map((d) => d.name), ['通勤用', 'Pixel Chrome', null]);

  const revoked = await devices.revoke(again.ok && again.value[1]);
  assert.equal(revoked.message, t('devices.revoked', 'Pixel Chrome'));
  assert.equal(server.requests.at(-1).body.id, '0f0e0d0c0b0a');
  assert.deepEqual(server.devices.map((d) => d.id), ['a1b2c3d4e5f6', '0a0b0c0d0e0f']);
});

test('without the key, a rename of an encrypted account is refused in the app\'s words', async () => {
  const server = new FakeSealedServer({ fingerprint: 'ABCD-EFGH' });
  const desk = new App({ store: new MemoryStore(), fetch: server.fetch, now: () => NOW, newDevice: nextDevice, deviceName: 'desk' });
  await desk.start();
  await desk.pair('ABCD-EFGH', 'desk');
  await desk.running;
  const answer = await new DeviceManager(desk).rename('desk 2');
  assert.deepEqual(answer, { ok: false, message: t('devices.renameNoKey') });
  assert.equal(server.requests.at(-1).body.name, 'desk 2', 'sent in the clear, refused by the server');
  assert.equal(server.devices[0].name, null);
});
