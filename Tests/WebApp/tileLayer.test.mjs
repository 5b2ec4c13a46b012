// The map's raster tiles (tileLayer.js) with the network, the decoder, the clock and the Cache API
// played by the test: the tiles covering the view asked for a few at a time, nearest the middle
// first, each once; tiles the view left before their turn never asked for; tiles kept offline
// drawn with no request, missing ones left to the base map until the network returns; a kept copy
// that does not decode asked for again; a failure retried only after RETRY_MS; and while a zoom's
// own tiles are on their way, the tiles of the zoom before stand in.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeCacheStorage } from './support/fakeCaches.mjs';

const { CONCURRENT, RETRY_MS, TileLayer } = await appModule('tileLayer.js');
const { TileStore } = await appModule('tileStore.js');
const { TileLru } = await appModule('tileLru.js');
const { TILE_SIZE, tileKey, tileRange, tileZoom, tilesOf } = await appModule('tileGrid.js');
const { X_SCALE, project } = await appModule('mapCore.js');

const TEMPLATE = 'https://t.example/{z}/{x}/{y}.png';
const W = 390, H = 700;
const scaleOf = (z) => (TILE_SIZE * 2 ** z) / (360000 * X_SCALE);
const at = (lat, lng, z) => { const p = project(lat * 1e6, lng * 1e6); return { cx: p.x, cy: p.y, scale: scaleOf(z) }; };
const TOKYO = at(35.681236, 139.767125, 11);
const urlOf = (t) => `https://t.example/${t.z}/${t.x}/${t.y}.png`;
const settle = async () => { for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r)); };

/** A layer whose tile server answers when the test says (`answer`), or at once with `auto`. */
function harness({ store = null, auto = false, online = true } = {}) {
  const h = {
    asked: [], waiting: new Map(), online, now: 0, frames: 0, closed: 0, fail: new Set(),
    draws: [],
    ctx: { drawImage: (bitmap, ...rest) => h.draws.push({ bitmap, rest }) },
  };
  h.layer = new TileLayer({
    template: TEMPLATE,
    fetchTile: (url) => {
      h.asked.push(url);
      if (h.fail.has(url)) return Promise.reject(new TypeError('Failed to fetch'));
      if (auto) return Promise.resolve(new Response(new Blob([url], { type: 'image/png' })));
      return new Promise((resolve) => h.waiting.set(url, resolve));
    },
    decode: async (blob) => {
      const key = await blob.text();
      if (key === 'damaged') throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
      return { width: 256, height: 256, key, close: () => { h.closed++; } };
    },
    store,
    online: () => h.online,
    redraw: () => { h.frames++; },
    now: () => h.now,
  });
  h.answer = async (url) => { h.waiting.get(url)(new Response(new Blob([url], { type: 'image/png' }))); h.waiting.delete(url); await settle(); };
  h.frame = (v = TOKYO) => { h.draws = []; h.layer.draw(h.ctx, v, W, H, 2); return h.layer.stats; };
  return h;
}
const viewTiles = (v) => tilesOf(tileRange(v, W, H, tileZoom(v.scale)));

test('the view\'s tiles are asked for a few at a time, nearest the middle first, each once', async () => {
  const h = harness();
  const tiles = viewTiles(TOKYO);
  let stats = h.frame();
  assert.equal(stats.zoom, 11);
  assert.equal(stats.wanted, tiles.length);
  assert.equal(stats.drawn, 0);
  assert.deepEqual(h.asked, tiles.slice(0, CONCURRENT).map(urlOf));
  h.frame(); // frames while waiting ask for nothing more
  assert.equal(h.asked.length, CONCURRENT);
  while (h.waiting.size > 0) await h.answer([...h.waiting.keys()][0]);
  assert.deepEqual(h.asked, tiles.map(urlOf));
  assert.ok(h.frames >= tiles.length, 'each tile asks for a frame');
  stats = h.frame();
  assert.equal(stats.drawn, tiles.length);
  assert.equal(stats.fetched, tiles.length);
  assert.equal(stats.cached, 0);
  assert.match(stats.range, /^11\/\d+-\d+\/\d+-\d+$/);
  assert.ok(h.draws.length >= tiles.length);
  h.frame();
  assert.equal(h.asked.length, tiles.length, 'nothing asked for twice');
});

test('tiles the view left before their turn are never asked for', async () => {
  const h = harness();
  h.frame();
  const far = at(43.06, 141.35, 11); // 札幌
  h.frame(far);
  for (const url of [...h.waiting.keys()]) await h.answer(url);
  while (h.waiting.size > 0) await h.answer([...h.waiting.keys()][0]);
  const tokyo = new Set(viewTiles(TOKYO).map(urlOf));
  const asked = h.asked.filter((u) => tokyo.has(u));
  assert.equal(asked.length, CONCURRENT, 'only those already on their way');
  assert.deepEqual(new Set(h.asked.filter((u) => !tokyo.has(u))), new Set(viewTiles(far).map(urlOf)));
});

test('kept tiles are drawn offline with no request; missing ones wait for the network', async () => {
  const storage = new FakeCacheStorage();
  const store = await TileStore.open(storage, { base: 'http://h/app/', later: () => {} });
  const online = harness({ store, auto: true });
  online.frame();
  await settle();
  online.frame();
  await settle();
  const tiles = viewTiles(TOKYO);
  assert.equal(store.lru.size, tiles.length, 'every tile seen is kept');

  const offline = harness({ store, online: false });
  offline.frame();
  await settle();
  let stats = offline.frame();
  assert.deepEqual(offline.asked, [], 'no request offline');
  assert.equal(stats.drawn, tiles.length);
  assert.equal(stats.cached, tiles.length);

  const moved = at(35.681236, 139.767125 + 1.5, 11);
  stats = offline.frame(moved);
  await settle();
  stats = offline.frame(moved);
  assert.deepEqual(offline.asked, []);
  assert.ok(stats.drawn < stats.wanted, 'the base map where no tile is kept');
  offline.online = true;
  offline.frame(moved);
  assert.deepEqual(offline.asked, [], 'a tile missed offline waits for the network\'s return');
  offline.layer.reconnected();
  offline.frame(moved);
  await settle();
  assert.ok(offline.asked.length > 0, 'asked for once the network is back');
});

test('a kept copy that does not decode is asked for again and kept anew', async () => {
  const storage = new FakeCacheStorage();
  const store = await TileStore.open(storage, { base: 'http://h/app/', later: () => {} });
  const tiles = viewTiles(TOKYO);
  for (const t of tiles) await store.put(urlOf(t), new Blob(['damaged'], { type: 'image/png' }));
  const h = harness({ store, auto: true });
  h.frame();
  await settle();
  const stats = h.frame();
  assert.deepEqual(h.asked, tiles.map(urlOf));
  assert.equal(stats.drawn, tiles.length);
  assert.equal(stats.cached, 0);
  assert.equal(await (await store.get(urlOf(tiles[0]))).blob.text(), urlOf(tiles[0]));
});

test('a failed tile is asked for again only RETRY_MS later, said in console.debug', async () => {
  const h = harness({ auto: true });
  for (const t of viewTiles(TOKYO)) h.fail.add(urlOf(t));
  const debug = console.debug, lines = [];
  console.debug = (...args) => lines.push(args.join(' '));
  try {
    h.frame();
    await settle();
    const first = h.asked.length;
    assert.equal(first, viewTiles(TOKYO).length);
    h.now += RETRY_MS - 1;
    h.frame();
    await settle();
    assert.equal(h.asked.length, first, 'not yet');
    h.now += 1;
    h.frame();
    await settle();
    assert.equal(h.asked.length, 2 * first);
    h.fail.clear();
    h.now += RETRY_MS;
    h.frame();
    await settle();
    assert.equal(h.frame().drawn, first, 'drawn once the server answers');
  } finally {
    console.debug = debug;
  }
  assert.ok(lines.length >= 1 && lines.every((l) => l.includes('is not drawn for now')));
});

test('while a zoom\'s own tiles are on their way, the zoom before stands in', async () => {
  const h = harness();
  h.frame();
  while (h.waiting.size > 0) await h.answer([...h.waiting.keys()][0]);
  const closer = { ...TOKYO, scale: scaleOf(12) };
  const stats = h.frame(closer);
  assert.equal(stats.zoom, 12);
  assert.equal(stats.drawn, 0);
  const standIns = h.draws.map((d) => d.bitmap.key);
  assert.ok(standIns.length > 0 && standIns.every((k) => k.includes('/11/')), 'zoom 11 drawn in their place');
  while (h.waiting.size > 0) await h.answer([...h.waiting.keys()][0]);
  const after = h.frame(closer);
  assert.equal(after.drawn, after.wanted);
  assert.ok(h.draws.every((d) => d.bitmap.key.includes('/12/')), 'once they are there, only zoom 12');
  // Back out: zoom 11 is held, drawn at once with no stand-in and no request.
  const asked = h.asked.length;
  const back = h.frame();
  assert.equal(back.drawn, back.wanted);
  assert.equal(h.asked.length, asked);
});

test('decoded tiles past the memory cap are released', async () => {
  const h = harness({ auto: true });
  h.layer.memory = new TileLru(3 * 256 * 256 * 4);
  h.frame();
  await settle();
  const tiles = viewTiles(TOKYO).map(tileKey);
  assert.deepEqual([...h.layer.held.keys()], tiles.slice(-3), 'the three decoded last');
  assert.equal(h.closed, tiles.length - 3, 'the others released');
});
