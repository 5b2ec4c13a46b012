// The user's devices as 同期 manages them (deviceManager.js, app.js) against the fake server:
// pairing takes the name the server gives, the list, rename (409 and 422 in the app's words),
// a code for another device, signing another out, ログアウト (kept, erased, offline, local only),
// and a revoked token met by any request: said once, the token forgotten, nothing retried.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';

const { App } = await appModule('app.js');
const { DeviceManager } = await appModule('deviceManager.js');
const { MemoryStore } = await appModule('store.js');
const { setLanguage } = await appModule('i18n.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const REVOKED_JA = 'この端末はサインアウトされています（別の端末またはサーバー管理者が取り消しました）。もう一度ペアリングしてください。';
setLanguage('ja');

let devicesMade = 0;

async function paired(server = new FakeServer({ now: () => NOW }), store = new MemoryStore()) {
  const n = () => devicesMade++;
  const app = new App({ store, fetch: server.fetch, now: () => NOW, newDevice: () => `0123456789abcd${String(n()).padStart(2, '0')}`, deviceName: 'iPhone Safari 7KQM' });
  await app.start();
  const answer = await app.pair('ABCD-EFGH', 'iPhone Safari 7KQM');
  await app.running;
  return { app, server, store, devices: new DeviceManager(app), answer };
}

test('pairing asks for the name in the form and takes the name the server gives', async () => {
  const server = new FakeServer({ now: () => NOW });
  server.pairName = (asked) => `${asked} (2)`;
  const { app, answer } = await paired(server);
  assert.equal(server.requests.find((r) => r.path === '/v1/pair').body.device_name, 'iPhone Safari 7KQM');
  assert.equal(answer.message, 'ペアリングしました（alice）。この端末の名前は「iPhone Safari 7KQM (2)」です。');
  assert.equal(app.replica.deviceName(app.replica.device), 'iPhone Safari 7KQM (2)', 'the history shows the same name');
  assert.equal(app.replica.identity.name, 'iPhone Safari 7KQM (2)');
});

test('the list, and renaming this device: taken and refused names in the app\'s words', async () => {
  const { app, devices, server } = await paired();
  const list = await devices.list();
  assert.equal(list.ok, true);
  assert.deepEqual(list.ok && list.value.map((d) => [d.id, d.name, d.thisDevice]), [['a1b2c3d4e5f6', 'iPhone Safari 7KQM', true], ['0f0e0d0c0b0a', 'Pixel Chrome', false]]);

  assert.deepEqual(await devices.rename('Pixel Chrome'), { ok: false, message: 'ほかの端末がすでにこの名前を使っています。別の名前にしてください。' });
  assert.deepEqual(await devices.rename('  '), { ok: false, message: '名前を入力してください。' });
  server.intercept = (path) => (path === '/v1/devices/rename' ? server.error(422, 'invalid', 'bad name') : undefined);
  assert.match((await devices.rename('x')).message, /^同期サーバーがこの名前を受け付けませんでした。/);
  server.intercept = null;
  const renamed = await devices.rename('  通勤用  ');
  assert.equal(renamed.message, 'この端末の名前を「通勤用」に変更しました。');
  assert.equal(server.devices[0].name, '通勤用');
  assert.equal(app.replica.deviceName(app.replica.device), '通勤用');
});

test('a code for another device, and signing another device out', async () => {
  const { devices, server } = await paired();
  const link = await devices.link();
  assert.deepEqual(link.ok && link.value, { code: 'WXYZ-2345', expires: NOW + 600_000 });
  const [, pixel] = /** @type {any} */ (await devices.list()).value;
  const revoked = await devices.revoke(pixel);
  assert.equal(revoked.message, '「Pixel Chrome」をサインアウトさせました。');
  assert.deepEqual(/** @type {any} */ (await devices.list()).value.map((d) => d.id), ['a1b2c3d4e5f6']);
  assert.match((await devices.revoke(pixel)).message, /すでにサインアウトしています/, '404');
  assert.equal(server.devices[1].revoked, true);
});

test('ログアウト revokes the token at the server and forgets it here; the records stay unless erased', async () => {
  const { app, devices, server, store } = await paired();
  await app.replica.edit(5, { compDate: 20240503 }, NOW);
  const device = app.replica.device;
  const out = await devices.signOut();
  assert.deepEqual(out, { ok: true, message: 'ログアウトしました。記録はこの端末に残っています。' });
  assert.equal(server.devices[0].revoked, true);
  assert.equal(app.token, null);
  assert.equal(app.state, 'unpaired');
  assert.equal(app.replica.getMeta('user'), undefined);
  assert.equal(app.replica.fold.compDate(5), 20240503);
  assert.equal(app.replica.device, device);
  assert.equal(app.syncError, null, 'a sign-out asked for is no failure');

  const again = await paired(server, store);
  await again.app.replica.edit(6, { compDate: 20240503 }, NOW);
  const events = [];
  again.app.on('erased', () => events.push('erased'));
  const erased = await again.devices.signOut({ erase: true });
  assert.equal(erased.message, 'ログアウトし、この端末の記録を消去しました。');
  assert.deepEqual(events, ['erased']);
  assert.equal(again.app.replica.eventCount(), 0);
  assert.notEqual(again.app.replica.device, device, 'a new device id');
  assert.equal(again.app.catalog, null);
  assert.equal(store.records.size, 1, 'only the new name record is held');
});

test('ログアウト with the server out of reach changes nothing, unless asked to forget the token here only', async () => {
  const { app, devices, server } = await paired();
  server.offline = true;
  const refused = await devices.signOut({ erase: true });
  assert.equal(refused.ok, false);
  assert.equal(refused.offline, true);
  assert.match(refused.message, /^同期サーバーに接続できないため、ログアウトしませんでした。/);
  assert.equal(app.token, 'secret');
  const local = await devices.signOut({ localOnly: true });
  assert.equal(local.ok, true);
  assert.equal(app.token, null);
  assert.equal(server.devices[0].revoked, false, 'the server still holds the token; another device can sign it out');
});

test('a revoked token met by any request is said once in Japanese, forgotten, and not retried; the records stay', async () => {
  const { app, devices, server } = await paired();
  await app.replica.edit(5, { compDate: 20240503 }, NOW);
  clearTimeout(app.timer);
  server.devices[0].revoked = true;
  const said = [];
  app.on('signed-out', (message) => said.push(message));
  const list = await devices.list();
  assert.deepEqual(list, { ok: false, message: REVOKED_JA });
  await app.syncNow();
  await devices.list();
  assert.deepEqual(said, [REVOKED_JA], 'said once');
  assert.equal(app.token, null);
  assert.equal(app.state, 'unpaired');
  assert.equal(app.syncError, REVOKED_JA);
  const before = server.requests.length;
  app.scheduleSync(0);
  await app.syncNow();
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(server.requests.length, before, 'nothing is sent after');
  assert.equal(app.replica.fold.compDate(5), 20240503);
});

test('a sync that meets a revoked token says so, and says it again after a reload', async () => {
  const { app, server, store } = await paired();
  server.devices[0].revoked = true;
  await app.syncNow();
  assert.equal(app.syncError, REVOKED_JA);
  const reopened = new App({ store, fetch: server.fetch, now: () => NOW, newDevice: () => 'ffffffffffffffff', deviceName: 'x' });
  await reopened.start();
  assert.equal(reopened.syncError, REVOKED_JA, 'in Japanese, not the saved English sentence');
});
