import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { App } = await appModule('app.js');
const { MemoryStore } = await appModule('store.js');
const { setLanguage, t } = await appModule('i18n.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
setLanguage('en');

function makeApp(server, store = new MemoryStore()) {
  return new App({ store, fetch: server.fetch, now: () => NOW, newDevice: () => '0123456789abcdef', deviceName: 'iPhone Safari' });
}

/** The fake server plus GET /v1/catalog with an ETag. */
function serverWithCatalog() {
  const server = new FakeServer({ now: () => NOW });
  const text = JSON.stringify(smallCatalogDoc());
  server.catalogRequests = [];
  const inner = server.fetch;
  server.fetch = async (url, init = {}) => {
    if (new URL(url, 'http://server.test').pathname === '/v1/catalog') {
      server.catalogRequests.push(init.headers);
      if (init.headers.Authorization !== `Bearer ${server.token}`) return server.error(401, 'unauthorized', 'token');
      if (init.headers['If-None-Match'] === '"176"') return new Response(null, { status: 304, headers: { ETag: '"176"' } });
      return new Response(text, { status: 200, headers: { ETag: '"176"', 'Content-Type': 'application/json' } });
    }
    return inner(url, init);
  };
  return server;
}

test('pairing: a token, then the catalogue and a sync; the stored catalogue is revalidated', async () => {
  const server = serverWithCatalog();
  const app = makeApp(server);
  await app.start();
  assert.equal(app.state, 'unpaired');
  assert.match(app.statusText(), /not paired/);
  const answer = await app.pair(' ABCD-EFGH ');
  assert.deepEqual(answer, { ok: true, message: 'Paired (alice); this device is named “iPhone Safari”.' });
  assert.equal(server.requests.find((r) => r.path === '/v1/pair').body.code, 'ABCD-EFGH');
  assert.equal(server.requests.find((r) => r.path === '/v1/pair').body.device_name, 'iPhone Safari');
  await app.running;
  assert.equal(app.state, 'ok');
  assert.equal(app.catalog.version, 176);
  await app.syncNow();
  assert.equal(server.catalogRequests.at(-1)['If-None-Match'], '"176"', 'the second download is conditional');
  assert.equal(app.catalog.version, 176, '304 keeps the stored copy');
  // Reopened offline, the stored catalogue and token serve.
  const again = makeApp(server, app.store);
  await again.start();
  assert.equal(again.catalog.enabledStations.length, 7);
  assert.equal(again.token, 'secret');
});

test('pairing refusals read as one sentence', async () => {
  const server = new FakeServer({ now: () => NOW });
  const app = makeApp(server);
  await app.start();
  assert.equal((await app.pair('WRONG-CODE')).message, 'This pairing code is not known.');
  server.intercept = (path) => (path === '/v1/pair' ? server.error(410, 'gone', 'used') : undefined);
  assert.match((await app.pair('ABCD-EFGH')).message, /used already or has expired/);
  server.intercept = (path) => (path === '/v1/pair' ? server.json(429, { error: 'rate_limited', message: 'slow down' }, { 'Retry-After': '30' }) : undefined);
  assert.equal((await app.pair('ABCD-EFGH')).message, 'Too many attempts; try again in 30 seconds.');
  server.intercept = null;
  server.offline = true;
  assert.match((await app.pair('ABCD-EFGH')).message, /cannot be reached/);
  assert.equal(app.token, null);
});

test('a revoked token signs the device out and keeps its edits', async () => {
  const server = serverWithCatalog();
  const app = makeApp(server);
  await app.start();
  await app.pair('ABCD-EFGH');
  await app.running;
  const saved = await app.edit(5, { compDate: 20240503 });
  assert.deepEqual(saved, { ok: true, changed: true, message: 'Saved.' });
  assert.equal((await app.edit(5, { compDate: 20240503 })).message, 'Nothing changed, so nothing was recorded.');
  clearTimeout(app.timer);
  server.token = 'another';
  await app.syncNow();
  assert.equal(app.state, 'unpaired');
  assert.equal(app.token, null);
  assert.equal(app.syncError, 'This device was signed out (its token is no longer valid); pair it again. Unsent edits are kept.');
  assert.equal(app.replica.fold.compDate(5), 20240503);
});

test('a storage failure is one sentence and nothing reads as saved', async () => {
  const store = new MemoryStore();
  const app = makeApp(new FakeServer(), store);
  await app.start();
  const banners = [];
  app.on('storage', (m) => banners.push(m));
  store.failWith = Object.assign(new Error('full'), { name: 'QuotaExceededError' });
  const answer = await app.edit(5, { compDate: 1 });
  assert.equal(answer.ok, false);
  assert.equal(answer.kept, true, 'the edit is kept to retry');
  assert.equal(banners.length, 1);
  assert.equal(banners[0], t('edit.fullKept'));
  assert.equal(app.compDate(5), 0);
  assert.equal(app.edits.unsaved.count, 1);
  clearTimeout(app.edits.unsavedTimer ?? undefined);
});
