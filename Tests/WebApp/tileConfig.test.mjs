// The server's offer of raster tiles (tileConfig.js, /app/config.json in Schemas/sync-api.yaml):
// read strictly (an http(s) template with {z}, {x} and {y}; plain-text attribution), refused where
// the page's Content-Security-Policy would refuse the tiles (a page opened from the service
// worker's cache keeps the policy it was cached with) or where they would be mixed content, and
// every failure means no tiles, said in console.debug only.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { loadTileConfig, policyAdmits, readTileConfig, servedPolicy } = await appModule('tileConfig.js');

const TEMPLATE = 'https://tiles.example/{z}/{x}/{y}.png';
const offer = (tiles) => ({ tiles });
const SERVER_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https://tiles.example; "
  + "connect-src 'self' https://tiles.example; worker-src 'self'";
const OLD_POLICY = "default-src 'self'; img-src 'self' data:; connect-src 'self'";

test('an offer is an http(s) template with {z}, {x} and {y}, and plain-text attribution', () => {
  assert.deepEqual(readTileConfig(offer({ url_template: TEMPLATE, attribution: ' © OpenStreetMap contributors ' })),
    { template: TEMPLATE, attribution: '© OpenStreetMap contributors', origin: 'https://tiles.example' });
  assert.deepEqual(readTileConfig(offer({ url_template: 'http://127.0.0.1:8080/{z}/{x}/{y}.png', attribution: null })),
    { template: 'http://127.0.0.1:8080/{z}/{x}/{y}.png', attribution: '', origin: 'http://127.0.0.1:8080' });
  assert.equal(readTileConfig(offer({ url_template: 'HTTPS://Tiles.Example:443/{z}/{x}/{y}' })).origin, 'https://tiles.example');
  assert.equal(readTileConfig(offer({ url_template: 'https://t.example/{z}/{y}/{x}@2x.png?key=1' })).origin, 'https://t.example');
  assert.equal(readTileConfig(offer({ url_template: 'https://t.example/{z}/{x}/{y}', attribution: '<b>x</b>' })).attribution, '<b>x</b>', 'kept as text');
});

test('anything else is no offer', () => {
  for (const doc of [null, 'x', {}, { tiles: null }, { tiles: 'x' },
    offer({}), offer({ url_template: 3 }),
    offer({ url_template: 'https://t.example/{z}/{x}.png' }),
    offer({ url_template: '/tiles/{z}/{x}/{y}.png' }),
    offer({ url_template: 'ftp://t.example/{z}/{x}/{y}.png' }),
    offer({ url_template: 'javascript:{z}{x}{y}' }),
    offer({ url_template: 'data:image/png,{z}{x}{y}' })]) {
    assert.equal(readTileConfig(doc), null, JSON.stringify(doc));
  }
});

test('a policy admits an origin by connect-src, else default-src', () => {
  assert.equal(policyAdmits(SERVER_POLICY, 'https://tiles.example'), true);
  assert.equal(policyAdmits(OLD_POLICY, 'https://tiles.example'), false);
  assert.equal(policyAdmits(SERVER_POLICY, 'https://other.example'), false);
  assert.equal(policyAdmits(SERVER_POLICY, 'http://tiles.example'), false, 'another scheme is another origin');
  assert.equal(policyAdmits("connect-src 'self' https://tiles.example/", 'https://tiles.example'), true, 'a trailing slash');
  assert.equal(policyAdmits("connect-src 'self' HTTPS://TILES.EXAMPLE:443", 'https://tiles.example'), true, 'case and default port');
  assert.equal(policyAdmits("connect-src 'self' http://127.0.0.1:8080", 'http://127.0.0.1:8080'), true);
  assert.equal(policyAdmits("connect-src 'self' http://127.0.0.1:8080", 'http://127.0.0.1:8081'), false);
  assert.equal(policyAdmits("connect-src 'self' https:", 'https://tiles.example'), true, 'a scheme source');
  assert.equal(policyAdmits("connect-src *", 'https://tiles.example'), true);
  assert.equal(policyAdmits("default-src 'self' https://tiles.example", 'https://tiles.example'), true, 'default-src stands in');
  assert.equal(policyAdmits("default-src https://tiles.example; connect-src 'self'", 'https://tiles.example'), false, 'connect-src wins');
  assert.equal(policyAdmits("img-src https://tiles.example", 'https://tiles.example'), true, 'nothing restricts fetch');
  assert.equal(policyAdmits('', 'https://tiles.example'), true);
});

test('the policy of a page the service worker opened is the cached index.html\'s', async () => {
  const cached = new Response('<!doctype html>', { headers: { 'Content-Security-Policy': OLD_POLICY } });
  const asked = [];
  const match = async (url) => { asked.push(url); return url.endsWith('/app/index.html') ? cached : undefined; };
  assert.equal(await servedPolicy({ controlled: true, match, indexUrl: 'http://h/app/index.html' }), OLD_POLICY);
  assert.equal(await servedPolicy({ controlled: false, match, indexUrl: 'http://h/app/index.html' }), null, 'from the network: the server\'s');
  assert.equal(await servedPolicy({ controlled: true, match, indexUrl: 'http://h/other/index.html' }), null, 'not cached: from the network');
  assert.deepEqual(asked, ['http://h/app/index.html', 'http://h/other/index.html']);
});

/** Runs loadTileConfig with console.debug caught; returns [config, debug lines]. */
async function load({ policy = null, answer, pageProtocol = 'https:' }) {
  const lines = [];
  const debug = console.debug, error = console.error;
  console.debug = (...args) => lines.push(args.join(' '));
  console.error = () => assert.fail('no console error');
  const order = [];
  try {
    const config = await loadTileConfig({
      policy: async () => {
        order.push('policy');
        if (policy instanceof Error) throw policy;
        return policy;
      },
      fetchConfig: async () => { order.push('config'); return answer(); },
      pageProtocol,
    });
    if (order.length === 2) assert.deepEqual(order, ['policy', 'config'], 'the policy is read before config.json is asked for');
    return [config, lines];
  } finally {
    console.debug = debug;
    console.error = error;
  }
}
const json = (doc, status = 200) => () => new Response(JSON.stringify(doc), { status, headers: { 'Content-Type': 'application/json' } });

test('loading: the offer, when the page may use it', async () => {
  const good = json(offer({ url_template: TEMPLATE, attribution: 'A' }));
  assert.equal((await load({ answer: good }))[0].template, TEMPLATE);
  assert.equal((await load({ answer: good, policy: SERVER_POLICY }))[0].origin, 'https://tiles.example');
  const [none, said] = await load({ answer: json(offer(null)) });
  assert.equal(none, null);
  assert.deepEqual(said, [], 'no offer is not a failure');
});

test('loading: every failure is no tiles, said in console.debug', async () => {
  const good = json(offer({ url_template: TEMPLATE }));
  const cases = [
    ['an old policy', { answer: good, policy: OLD_POLICY }],
    ['http tiles on an https page', { answer: json(offer({ url_template: 'http://t.example/{z}/{x}/{y}' })) }],
    ['a 404', { answer: json({ error: 'not found' }, 404) }],
    ['not JSON', { answer: () => new Response('<html>') }],
    ['offline', { answer: () => { throw new TypeError('Failed to fetch'); } }],
    ['the cache refused', { answer: good, policy: new Error('SecurityError') }],
  ];
  for (const [what, options] of cases) {
    const [config, lines] = await load(options);
    assert.equal(config, null, what);
    assert.equal(lines.length, 1, what);
  }
  const [config, lines] = await load({ answer: json(offer({ url_template: 'http://127.0.0.1:9/{z}/{x}/{y}' })), pageProtocol: 'http:' });
  assert.equal(config.origin, 'http://127.0.0.1:9', 'http tiles on an http page');
  assert.deepEqual(lines, []);
});
