// The app when the server cannot be reached: the sentence it says (unreachable while the device
// is online, offline only without a network), said once across retries, the retries themselves
// (backoff on the test's clock, at once when the network returns), and the refusals it never
// retries.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';
import { FakeClock } from './support/fakeClock.mjs';

const { App } = await appModule('app.js');
const { MemoryStore } = await appModule('store.js');
const { setLanguage } = await appModule('i18n.js');
const { pendingCount } = await appModule('sync.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const UNREACHABLE_JA = 'サーバーに接続できません。しばらくしてから自動で再試行します。';

/** A paired app on the test's clock, with what its status line said, in order. */
async function pairedApp({ online = () => true } = {}) {
  const server = new FakeServer({ now: () => NOW });
  const clock = new FakeClock();
  const app = new App({
    store: new MemoryStore(), fetch: server.fetch, now: () => NOW, newDevice: () => '0123456789abcdef',
    deviceName: 'phone', retryTimers: clock.timers(), online,
  });
  await app.start();
  await app.pair('ABCD-EFGH');
  await app.running;
  const said = [];
  app.on('status', () => said.push(app.statusText()));
  return { server, clock, app, said };
}

/** An edit whose own delayed sync is left out: the test decides when syncs run. */
async function edit(app, station) {
  await app.edit(station, { compDate: 20240503 });
  app.cancelScheduledSync();
}

/** Runs the clock to the next retry and waits for the sync it starts. */
async function nextRetry(clock, app) {
  const wait = clock.nextWait();
  assert.notEqual(wait, null, 'a retry waits');
  clock.advance(wait);
  await app.running;
  return wait;
}

test('a server that cannot be reached is said once, retried with backoff, and the edit goes up when it answers', async () => {
  setLanguage('ja');
  const { server, clock, app, said } = await pairedApp();
  await edit(app, 202919);
  server.offline = true;
  await app.syncNow();
  assert.equal(app.statusText(), UNREACHABLE_JA);
  assert.equal(app.syncError, null, 'the status line says it; no second sentence below');
  assert.notEqual(app.statusText(), 'オフラインです。記録はこの端末に保存され、次の同期で送信されます。');
  const waits = [];
  for (let i = 0; i < 4; i++) waits.push(await nextRetry(clock, app));
  assert.ok(waits[0] >= 2_500 && waits[0] <= 5_000, `${waits}`);
  for (let i = 1; i < waits.length; i++) assert.ok(waits[i] >= 2_500 * 2 ** i && waits[i] <= 5_000 * 2 ** i, `${waits}`);
  assert.deepEqual([...new Set(said)], ['同期しています…', UNREACHABLE_JA], 'the retries say nothing new');
  assert.equal(said.filter((s) => s === '同期しています…').length, 1);
  assert.equal(pendingCount(app.replica) > 0, true);

  server.offline = false;
  await nextRetry(clock, app);
  assert.equal(app.state, 'ok');
  assert.equal(app.statusText(), '同期しました。');
  assert.equal(pendingCount(app.replica), 0, 'the edit went up without 今すぐ同期');
  assert.equal(server.held(app.replica.device) > 0n, true);
  assert.equal(clock.nextWait(), null, 'a success ends the retries');
});

test('without a network the app says it is offline; the network coming back runs the waiting retry at once', async () => {
  setLanguage('ja');
  let online = false;
  const { server, clock, app } = await pairedApp({ online: () => online });
  await edit(app, 202919);
  server.offline = true;
  await app.syncNow();
  assert.match(app.statusText(), /^オフラインです/);
  assert.ok(clock.nextWait() !== null);
  online = true;
  server.offline = false;
  app.wake(false); // the `online` event
  await app.running;
  assert.equal(app.state, 'ok');
  assert.equal(clock.nextWait(), null);
  assert.equal(pendingCount(app.replica), 0);
});

test('focus runs a waiting retry and nothing else; coming into view syncs anyway', async () => {
  setLanguage('en');
  const { server, clock, app } = await pairedApp();
  const pulls = () => server.requests.filter((r) => r.path === '/v1/pull').length;
  const before = pulls();
  app.wake(false);
  await app.running;
  assert.equal(pulls(), before, 'focus with nothing waiting does not sync');
  app.wake(true);
  await app.running;
  assert.ok(pulls() > before, 'coming into view syncs');
  server.offline = true;
  await app.syncNow();
  assert.equal(app.statusText(), 'Cannot reach the server; retrying automatically.');
  server.offline = false;
  app.wake(false);
  await app.running;
  assert.equal(app.state, 'ok');
  assert.equal(clock.nextWait(), null);
});

test('a gateway answering 502, 503 or 504 for the server is unreachable too, and retried', async () => {
  setLanguage('en');
  const { server, clock, app } = await pairedApp();
  for (const status of [502, 503, 504]) {
    server.intercept = (path) => (path === '/v1/pull' ? new Response('Bad Gateway', { status }) : undefined);
    await app.syncNow();
    assert.equal(app.failureKind, 'unreachable', `${status}`);
    assert.ok(clock.nextWait() !== null, `${status} is retried`);
  }
  server.intercept = null;
  await nextRetry(clock, app);
  assert.equal(app.state, 'ok');
});

test('refusals are never retried: a revoked token, a fork, a clock ahead, a refused record', async () => {
  setLanguage('en');
  const refusals = [
    (server) => server.error(401, 'revoked', 'this token was revoked'),
    (server) => server.error(409, 'fork', 'differs', { device: '00000000000000aa', seq: 1 }),
    (server) => server.error(409, 'conflict', 'device X sent events dated ahead; fix the clock'),
    (server) => server.error(413, 'payload_too_large', 'too large'),
    (server) => server.error(422, 'invalid', 'bad record'),
  ];
  for (const refusal of refusals) {
    const { server, clock, app } = await pairedApp();
    await edit(app, 202919);
    server.intercept = (path) => (path === '/v1/push' || path === '/v1/pull' ? refusal(server) : undefined);
    await app.syncNow();
    assert.equal(app.state === 'error' || app.state === 'unpaired', true);
    assert.equal(clock.nextWait(), null, `${app.failureKind} is not retried`);
  }
});

test('a server that failed (500) or was busy (429) is retried; its sentence stays through the retries', async () => {
  setLanguage('en');
  for (const status of [500, 429]) {
    const { server, clock, app, said } = await pairedApp();
    server.intercept = (path) => (path === '/v1/pull' ? server.error(status, 'internal', 'boom') : undefined);
    await app.syncNow();
    assert.equal(app.failureKind, 'server');
    const sentence = app.syncError;
    await nextRetry(clock, app);
    assert.equal(app.syncError, sentence);
    assert.deepEqual([...new Set(said)], ['Syncing…', 'The sync did not finish; the reason is below.'], `${status}: said once`);
    server.intercept = null;
    await nextRetry(clock, app);
    assert.equal(app.state, 'ok');
  }
});
