// What 同期 shows of the user's devices (devices.js), how /v1/devices answers are decoded
// (api.js parseDevice), and the name a new device suggests (device.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { deviceRows, checkDeviceName, groupCode, pairingLink, unsentWarning, deviceFailure } = await appModule('devices.js');
const { ApiError, MalformedAnswer, NetworkError, parseDevice, isRevoked } = await appModule('api.js');
const { distinctDeviceName, deviceNameFromUserAgent } = await appModule('device.js');
const { setLanguage } = await appModule('i18n.js');

const wire = (over = {}) => ({ id: 'a1b2c3d4e5f6', name: 'iPhone Safari', created: 1_700_000_000_000, last_sync: null, this_device: true, ...over });

test('each device is a row: its name, its last sync or 未同期, この端末; only the others can be signed out', () => {
  setLanguage('ja');
  const rows = deviceRows([
    parseDevice(wire()),
    parseDevice(wire({ id: '0f0e0d0c0b0a', name: null, last_sync: Date.UTC(2024, 4, 3, 3, 4, 5), this_device: false })),
  ]);
  assert.deepEqual(rows, [
    { id: 'a1b2c3d4e5f6', name: 'iPhone Safari', lastSync: '未同期', thisDevice: true, revocable: false },
    { id: '0f0e0d0c0b0a', name: '名前のない端末', lastSync: '前回の同期 2024/05/03 12:04:05 JST', thisDevice: false, revocable: true },
  ]);
  setLanguage('en');
  assert.equal(deviceRows([parseDevice(wire())])[0].lastSync, 'Not synced yet');
  setLanguage('ja');
});

test('a device from the server is checked once, where it arrives', () => {
  assert.deepEqual(parseDevice(wire({ last_sync: 5 })), { id: 'a1b2c3d4e5f6', name: 'iPhone Safari', created: 1_700_000_000_000, lastSync: 5, thisDevice: true });
  for (const bad of [null, [], wire({ id: 'A1B2C3D4E5F6' }), wire({ id: 'a1b2c3' }), wire({ name: 3 }), wire({ created: '1' }),
    wire({ last_sync: -1 }), wire({ this_device: 'yes' })]) {
    assert.throws(() => parseDevice(bad), MalformedAnswer, JSON.stringify(bad));
  }
});

test('a name is trimmed and holds 1 to 255 bytes of UTF-8 before it is sent; the refusal counts characters', () => {
  setLanguage('ja');
  assert.deepEqual(checkDeviceName('  Pixel 8  '), { ok: true, name: 'Pixel 8' });
  assert.deepEqual(checkDeviceName('   '), { ok: false, message: '名前を入力してください。' });
  assert.equal(checkDeviceName('あ'.repeat(85)).ok, true, '255 bytes');
  assert.deepEqual(checkDeviceName('あ'.repeat(86)), { ok: false, message: '名前が長すぎます（日本語で85文字まで、英数字なら255文字まで）。' });
  assert.equal(checkDeviceName('a'.repeat(255)).ok, true);
  assert.equal(checkDeviceName('a'.repeat(256)).ok, false);
});

test('a pairing code is shown grouped and linked without its dash', () => {
  assert.equal(groupCode('WXYZ2345'), 'WXYZ-2345');
  assert.equal(groupCode('wxyz-2345'), 'WXYZ-2345');
  assert.equal(pairingLink('https://sync.example.org', 'WXYZ-2345'), 'https://sync.example.org/app/#pair=WXYZ2345');
});

test('the warning before signing out counts what only this device holds', () => {
  setLanguage('ja');
  assert.equal(unsentWarning(0), null);
  assert.equal(unsentWarning(3), '未送信の記録が3件あります。ログアウトすると、この端末にしかない記録はサーバーに送られません。');
});

test('every failure of a device request is one sentence of the app, never the server\'s English', () => {
  setLanguage('ja');
  const refusal = (status, code = 'x') => new ApiError(status, { error: code, message: 'English words from the server' }, null);
  assert.equal(deviceFailure(refusal(409, 'conflict'), 'rename'), 'ほかの端末がすでにこの名前を使っています。別の名前にしてください。');
  assert.match(deviceFailure(refusal(422, 'invalid'), 'rename'), /^同期サーバーがこの名前を受け付けませんでした。/);
  assert.match(deviceFailure(refusal(404), 'revoke'), /すでにサインアウトしています/);
  assert.match(deviceFailure(refusal(422), 'link'), /ペアリングコードを発行しませんでした/);
  assert.match(deviceFailure(refusal(500), 'list'), /HTTP 500/);
  assert.match(deviceFailure(new NetworkError(new TypeError('Failed to fetch')), 'list'), /接続できない/);
  assert.match(deviceFailure(new NetworkError(new TypeError('Failed to fetch')), 'sign-out'), /ログアウトしませんでした/);
  assert.match(deviceFailure(new MalformedAnswer('x'), 'rename'), /応答が正しくない/);
  for (const action of ['list', 'rename', 'revoke', 'link', 'sign-out']) {
    for (const status of [400, 404, 409, 422, 429, 500, 503]) assert.doesNotMatch(deviceFailure(refusal(status), action), /English/);
  }
});

test('a revoked token is told apart from one the server does not know', () => {
  assert.equal(isRevoked(new ApiError(401, { error: 'revoked' }, null)), true);
  assert.equal(isRevoked(new ApiError(401, { error: 'unauthorized' }, null)), false);
  assert.equal(isRevoked(new ApiError(403, { error: 'revoked' }, null)), false);
});

test('a new device suggests its platform, browser and four random characters', () => {
  const ua = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
  assert.equal(deviceNameFromUserAgent(ua), 'Android Chrome');
  const name = distinctDeviceName(ua, (bytes) => bytes.map((_, i) => i * 7));
  assert.equal(name, 'Android Chrome 29GQ');
  assert.match(distinctDeviceName(ua), /^Android Chrome [2-9A-HJKMNP-TV-Z]{4}$/);
});

test('the pairing form offers this device\'s name, or a distinct one for a name that is only the platform and browser', async () => {
  const { suggestedPairingName } = await appModule('device.js');
  const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
  assert.equal(suggestedPairingName('iPhone Safari', ua, 'iPhone Safari 7KQM'), 'iPhone Safari 7KQM');
  assert.equal(suggestedPairingName('', ua, 'iPhone Safari 7KQM'), 'iPhone Safari 7KQM');
  assert.equal(suggestedPairingName('通勤用', ua, 'iPhone Safari 7KQM'), '通勤用');
});
