// Every refusal the screens show is a sentence of the app's own in its language, chosen by the
// cause (the server's `error` code and status, the ledger's and the browser's reasons), never the
// server's English message; the memo's limit is said in characters. Each test walks one path the
// screens take, in Japanese, feeding the server's refusals through api.js as a real answer would.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { App } = await appModule('app.js');
const { MemoryStore, StoreError } = await appModule('store.js');
const { setLanguage, t } = await appModule('i18n.js');
const { ApiError, MalformedAnswer, NetworkError } = await appModule('api.js');
const { serverRefusalText, syncFailureText, dateRefusalText, refusalText } = await appModule('refusals.js');
const { memoCounterText, memoRoom, memoTooLongText, MAX_MEMO_CHARACTERS } = await appModule('textLimits.js');
const { deviceFailure } = await appModule('devices.js');
const { DeviceManager } = await appModule('deviceManager.js');

setLanguage('ja');
const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const ENGLISH = 'English words from the server';

/** Fails when a sentence carries the server's words or reads as English. */
function assertJapanese(text, what) {
  assert.equal(typeof text, 'string', what);
  assert.ok(!text.includes(ENGLISH) && !/English|server|device|refused/i.test(text), `${what}: ${text}`);
  assert.match(text, /[\u3040-\u30ff\u4e00-\u9fff]/, `${what} is Japanese: ${text}`);
}

function makeApp(server, store = new MemoryStore(), online = () => true) {
  return new App({ store, fetch: server.fetch, now: () => NOW, newDevice: () => '0123456789abcdef', deviceName: 'iPhone Safari', online });
}

/**
 * A paired app with one unsent edit, and a server that answers every push with `answer`.
 * @param {boolean} [online] whether the device says it has a network
 */
async function pairedApp(answer, online = true) {
  const server = new FakeServer({ now: () => NOW });
  const app = makeApp(server, new MemoryStore(), () => online);
  await app.start();
  await app.replica.setMeta({ token: 'secret', user: 'alice' });
  await app.replica.edit(201111, { compDate: 20240503 }, NOW);
  server.intercept = (path) => (path === '/v1/push' ? answer(server) : path === '/v1/catalog' ? server.json(200, smallCatalogDoc()) : undefined);
  return { server, app };
}

test('every error code of the server, and every status without one, reads as a Japanese sentence of the app', () => {
  const codes = ['malformed', 'unauthorized', 'revoked', 'forbidden', 'not_found', 'method_not_allowed', 'conflict', 'fork',
    'payload_too_large', 'invalid', 'unavailable', 'gone', 'too_many_requests', 'internal'];
  for (const code of codes) assertJapanese(serverRefusalText(new ApiError(400, { error: code, message: ENGLISH }, null)), code);
  for (const status of [400, 401, 403, 404, 405, 409, 410, 413, 418, 422, 429, 500, 502, 503]) {
    assertJapanese(serverRefusalText(new ApiError(status, { message: ENGLISH }, null)), `HTTP ${status}`);
  }
  assert.equal(serverRefusalText(new ApiError(422, { error: 'invalid', message: ENGLISH }, null)), t('server.invalid'));
  assert.equal(serverRefusalText(new ApiError(413, { error: 'payload_too_large', message: ENGLISH }, null)), t('server.tooLarge'));
  assert.equal(serverRefusalText(new ApiError(429, { error: 'too_many_requests' }, 30)), '同期サーバーへの要求が多すぎます。30秒後にもう一度試してください。');
  assert.equal(serverRefusalText(new ApiError(502, {}, null)), '同期サーバーで障害が起きました（HTTP 502）。しばらくしてからやり直してください。');
  // The code decides before the status.
  assert.equal(serverRefusalText(new ApiError(409, { error: 'fork', message: ENGLISH }, null)), t('failure.fork'));
});

test('a push refused with 422 and an English message: 同期 shows the Japanese sentence, also after a reload', async () => {
  const { app, server } = await pairedApp((s) => s.error(422, 'invalid', ENGLISH));
  await app.syncNow();
  assert.equal(app.state, 'error');
  assert.equal(app.syncError, '同期サーバーが内容を受け付けませんでした（サーバーの規則に合いません）。記録はこの端末に残っています。');
  assertJapanese(app.syncError, 'the 422');
  assert.equal(app.statusText(), t('status.failed'));
  const reopened = makeApp(server, app.store);
  await reopened.start();
  assert.equal(reopened.syncError, app.syncError, 'the same sentence after a reload, from the saved cause');
});

test('each refusal of a sync has its own sentence, by code and status', async () => {
  /** @type {Array<[string, (s: FakeServer) => Response, string]>} */
  const cases = [
    ['403', (s) => s.error(403, 'forbidden', ENGLISH), t('failure.kept', t('server.forbidden'))],
    ['413', (s) => s.error(413, 'payload_too_large', ENGLISH), t('failure.kept', t('server.tooLarge'))],
    ['400', (s) => s.error(400, 'malformed', ENGLISH), t('failure.kept', t('server.malformed'))],
    ['409 conflict, clock right', (s) => s.error(409, 'conflict', `fix the clock of device x, then run 'oritsubushi reissue'`), t('failure.kept', t('server.conflict'))],
    ['429', (s) => s.json(429, { error: 'too_many_requests', message: ENGLISH }, { 'Retry-After': '12' }), t('failure.kept', t('server.busy', 12))],
    ['500', (s) => s.error(500, 'internal', ENGLISH), t('failure.kept', t('server.internal', 500))],
    ['503', (s) => s.error(503, 'unavailable', ENGLISH), t('failure.damaged')],
    ['not JSON', () => new Response('<html>server error</html>', { status: 500 }), t('failure.kept', t('server.internal', 500))],
  ];
  for (const [what, answer, expected] of cases) {
    const { app } = await pairedApp(answer);
    await app.syncNow();
    assert.equal(app.syncError, expected, what);
    assertJapanese(app.syncError, what);
    app.cancelScheduledSync();
  }
  // A gateway's 502 in the server's place is a server that cannot be reached: the status line says it.
  const { app } = await pairedApp(() => new Response('<html>proxy error</html>', { status: 502 }));
  await app.syncNow();
  assert.equal(app.syncError, null);
  assert.equal(app.statusText(), t('status.unreachable'));
  assertJapanese(app.statusText(), 'a 502 of a gateway');
  app.cancelScheduledSync();
});

test('a fast clock is told from the answer\'s Date, not from the English message', async () => {
  const server = new FakeServer({ now: () => NOW });
  const fast = new App({ store: new MemoryStore(), fetch: server.fetch, now: () => NOW + 3 * 86_400_000, newDevice: () => '0123456789abcdef', deviceName: 'fast' });
  await fast.start();
  await fast.replica.setMeta({ token: 'secret' });
  await fast.replica.edit(201111, { compDate: 1 }, NOW + 3 * 86_400_000);
  await fast.syncNow();
  assert.equal(fast.syncError, t('failure.clock'));
  // The same words without a Date header are a plain conflict: nothing is guessed from the text.
  const { app } = await pairedApp(() => new Response(JSON.stringify({ error: 'conflict', message: 'events dated ahead; run oritsubushi reissue' }), { status: 409 }));
  await app.syncNow();
  assert.equal(app.syncError, t('failure.kept', t('server.conflict')));
});

test('a page the ledger refuses, an answer that is not the API\'s, a network failure', async () => {
  const gap = await pairedApp(() => undefined);
  const good = { kind: 'station_edit', device: '00000000000000aa', seq: 1, hlc: String(BigInt(NOW) << 16n), station: 201111, comp_date: 1 };
  gap.server.intercept = (path) => (path === '/v1/pull'
    ? gap.server.json(200, { records: [good, { ...good, seq: 3 }], more: false, cursor: 2, server_has: {}, server_digests: {} }) : undefined);
  await gap.app.syncNow();
  assert.equal(gap.app.syncError, t('failure.kept', t('merge.gap')));
  const malformed = await pairedApp(() => undefined);
  malformed.server.intercept = (path) => (path === '/v1/pull' ? new Response('{"records": 5}', { status: 200 }) : undefined);
  await malformed.app.syncNow();
  assert.equal(malformed.app.syncError, t('failure.malformed'));
  const offline = await pairedApp(() => undefined, false);
  offline.server.offline = true;
  await offline.app.syncNow();
  assert.equal(offline.app.syncError, t('failure.offline'));
  offline.app.cancelScheduledSync();
  const unreachable = await pairedApp(() => undefined);
  unreachable.server.offline = true;
  await unreachable.app.syncNow();
  assert.equal(unreachable.app.syncError, null, 'said by the status line alone');
  assert.equal(unreachable.app.statusText(), t('status.unreachable'));
  unreachable.app.cancelScheduledSync();
  for (const kind of ['offline', 'unreachable', 'signed-out', 'revoked', 'clock', 'damaged', 'fork', 'malformed', 'storage', 'refused', 'server', 'unknown']) {
    assertJapanese(syncFailureText(kind), kind);
  }
});

test('pairing refusals that are not 401, 410 or 429 are sentences of the app too', async () => {
  const server = new FakeServer({ now: () => NOW });
  const app = makeApp(server);
  await app.start();
  const answers = [
    [server.error(400, 'malformed', ENGLISH), t('server.malformed')],
    [server.error(422, 'invalid', ENGLISH), '同期サーバーがこの名前を受け付けませんでした。空白だけでない、日本語で85文字（英数字なら255文字）までの名前にしてください。'],
    [server.error(500, 'internal', ENGLISH), t('server.internal', 500)],
    [server.json(200, { user: 'alice' }), t('pair.malformed')],
  ];
  for (const [answer, expected] of answers) {
    server.intercept = (path) => (path === '/v1/pair' ? answer.clone() : undefined);
    const said = (await app.pair('ABCD-EFGH')).message;
    assert.equal(said, expected);
    assertJapanese(said, 'pairing');
  }
  server.intercept = null;
  assert.equal((await app.pair('ABCD-EFGH', 'あ'.repeat(86))).message, '名前が長すぎます（日本語で85文字まで、英数字なら255文字まで）。');
  assert.equal(app.token, null);
});

test('a catalogue download that fails says why in the app\'s words', async () => {
  const { app, server } = await pairedApp(() => undefined);
  server.intercept = (path) => (path === '/v1/catalog' ? server.error(500, 'internal', ENGLISH) : undefined);
  await app.refreshCatalog('secret');
  assert.equal(app.catalogError, `駅データを取得できませんでした。${t('server.internal', 500)}`);
  server.intercept = (path) => (path === '/v1/catalog' ? new Response('{"format": 9}', { status: 200 }) : undefined);
  await app.refreshCatalog('secret');
  assert.equal(app.catalogError, '駅データを取得できませんでした。同期サーバーから届いた駅データが正しくありません。');
});

test('an edit refused by the ledger or the browser is said by its cause; the memo\'s limit in characters', async () => {
  const store = new MemoryStore();
  const app = makeApp(new FakeServer({ now: () => NOW }), store);
  await app.start();
  const tooLong = await app.edit(201111, { memo: 'あ'.repeat(MAX_MEMO_CHARACTERS + 1) });
  assert.deepEqual(tooLong, { ok: false, changed: false, message: 'メモが長すぎます（日本語で1,365文字まで、英数字なら4,096文字まで）。保存しませんでした。' });
  assert.equal(tooLong.message, memoTooLongText());
  assert.doesNotMatch(tooLong.message, /バイト|byte/);
  assert.equal((await app.edit(201111, { memo: 'あ'.repeat(MAX_MEMO_CHARACTERS) })).message, '保存しました。');
  assert.equal((await app.edit(201111, { memo: 'a'.repeat(4096) })).message, '保存しました。', 'the rule is the bytes: 4,096 letters fit');
  assert.equal((await app.edit(201111, { compDate: 20130230 })).message, t('edit.badDate'));
  assert.equal((await app.edit(201111, { compDate: 1 }, { compDate: 20130901 })).message, t('edit.stale'));
  const banners = [];
  app.on('storage', (m) => banners.push(m));
  store.failWith = Object.assign(new Error('QuotaExceededError: the quota has been exceeded'), { name: 'QuotaExceededError' });
  const full = await app.edit(201111, { compDate: 1 });
  assert.equal(full.message, t('edit.fullKept'), 'one sentence: the cause, that the edit is kept, and what to do');
  assert.deepEqual(banners, [full.message]);
  assertJapanese(full.message, 'a full storage');
  store.failWith = new Error('UnknownError: internal error opening backing store');
  assert.equal((await app.edit(201111, { compDate: 1 })).message, `${t('storage.refused')} ${t('edit.keptToRetry')}`);
  clearTimeout(app.edits.unsavedTimer ?? undefined);
});

test('the counter under the memo counts Japanese characters that still fit', () => {
  assert.equal(memoCounterText(''), '残り 1,365 文字');
  assert.equal(memoCounterText('あ'), '残り 1,364 文字');
  assert.equal(memoCounterText('abc'), '残り 1,364 文字', 'three letters take the bytes of one Japanese character');
  assert.equal(memoCounterText('あ'.repeat(1365)), '残り 0 文字');
  assert.deepEqual(memoRoom('あ'.repeat(1365) + 'a'), { fits: true, left: 0 }, '4,096 bytes fit');
  assert.equal(memoRoom('あ'.repeat(1366)).fits, false);
  assert.equal(memoCounterText('あ'.repeat(1366)), '上限（日本語で1,365文字）を超えています');
  assert.equal(memoCounterText('😀'.repeat(1024)), '残り 0 文字', 'an emoji takes four bytes');
  setLanguage('en');
  assert.equal(memoCounterText('あ'.repeat(134)), '1,231 characters left');
  setLanguage('ja');
});

test('a date the screen cannot record, device requests and anything unexpected', async () => {
  const now = Date.UTC(2013, 8, 1, 3, 0, 0);
  assert.equal(dateRefusalText(20130902, now), '2013年9月2日は未来の日付なので記録できません（日本の今日は2013年9月1日です）。');
  assert.equal(dateRefusalText(20130230, now), t('edit.badDate'));
  assert.equal(dateRefusalText(20130901, now), null);
  assert.equal(deviceFailure(new Error('Cannot read properties of undefined'), 'list'), t('error.unexpected'));
  assert.equal(refusalText(new StoreError('the app could not read its saved data (x)', null, 'unreadable')), t('storage.unreadable'));
  assert.equal(refusalText(new NetworkError(new TypeError('Failed to fetch'))), t('pair.offline'));
  assert.equal(refusalText(new MalformedAnswer('the sync server sent an answer that is not JSON')), t('failure.malformed'));
  // A device request meeting a refusal the manager has no words of its own for.
  const server = new FakeServer({ now: () => NOW });
  const app = makeApp(server);
  await app.start();
  await app.pair('ABCD-EFGH');
  await app.running;
  server.intercept = (path) => (path === '/v1/devices' ? server.error(500, 'internal', ENGLISH) : undefined);
  const listed = await new DeviceManager(app).list();
  assert.equal(listed.ok, false);
  assertJapanese(listed.message, 'the device list');
});
