// The offline tile cache (tileStore.js) over an in-memory Cache API: tiles kept under their URLs up
// to the cap, the least recently used deleted from the cache, the order written to the same cache a
// moment after it changes and read back when the app opens again, tiles the index does not name
// (stored after its last write) taken back as the most recently used, old tiles marked for asking
// again, and a refusing browser leaving tiles unkept quietly.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeCacheStorage } from './support/fakeCaches.mjs';

const { INDEX_KEY, TILE_CACHE, TILE_CACHE_BYTES, TILE_MAX_AGE_MS, TileStore, eraseTiles } = await appModule('tileStore.js');

const BASE = 'http://127.0.0.1:8080/app/';
const INDEX = BASE + INDEX_KEY;
const url = (n) => `https://tiles.example/12/${n}/1600.png`;
const png = (bytes) => new Blob([new Uint8Array(bytes)], { type: 'image/png' });

/** A store over `storage` whose clock the test moves and whose writes the test runs. */
async function open(storage, { cap = 1000, now = 1_700_000_000_000 } = {}) {
  const clock = { now, saves: [] };
  const store = await TileStore.open(storage, { base: BASE, cap, now: () => clock.now, later: (run) => clock.saves.push(run) });
  return { store, clock, flush: async () => { for (const run of clock.saves.splice(0)) run(); await new Promise((r) => setTimeout(r, 0)); } };
}
const cached = async (storage) => [...(await storage.open(TILE_CACHE)).entries.keys()].filter((u) => u !== INDEX).sort();

test('the cap is 50 MB and the cache has its own name', () => {
  assert.equal(TILE_CACHE_BYTES, 50_000_000);
  assert.equal(TILE_CACHE, 'oritsubushi-tiles-v1');
});

test('a tile kept is had again, with its bytes and type', async () => {
  const storage = new FakeCacheStorage();
  const { store } = await open(storage);
  assert.equal(await store.get(url(1)), null);
  await store.put(url(1), png(300));
  const kept = await store.get(url(1));
  assert.equal(kept.blob.size, 300);
  assert.equal(kept.blob.type, 'image/png');
  assert.equal(kept.stale, false);
  assert.equal(store.bytes, 300);
});

test('past the cap the least recently used tile leaves the cache', async () => {
  const storage = new FakeCacheStorage();
  const { store } = await open(storage);
  await store.put(url(1), png(400));
  await store.put(url(2), png(400));
  await store.get(url(1)); // used: 2 is now the least recently used
  await store.put(url(3), png(400));
  assert.deepEqual(await cached(storage), [url(1), url(3)]);
  assert.equal(store.bytes, 800);
  assert.equal(await store.get(url(2)), null);
  await store.put(url(4), png(1001));
  assert.deepEqual(await cached(storage), [url(1), url(3)], 'a tile over the cap is not kept and evicts nothing');
});

test('the order is written a moment later, read back on opening, and the cache made to agree with it', async () => {
  const storage = new FakeCacheStorage();
  const first = await open(storage);
  await first.store.put(url(1), png(300));
  await first.store.put(url(2), png(300));
  await first.store.get(url(1));
  assert.equal(first.clock.saves.length, 1, 'one write for many changes');
  await first.flush();
  // Stored after the index's last write (the page closed before the next), and an index entry
  // whose tile the browser dropped.
  first.clock.now += 5;
  await first.store.put(url(3), png(300));
  const cache = await storage.open(TILE_CACHE);
  cache.entries.delete(url(2));

  const second = await open(storage, { now: first.clock.now + 60_000 });
  assert.deepEqual(second.store.lru.toJSON(), [[url(2), 300, 1_700_000_000_000], [url(1), 300, 1_700_000_000_000], [url(3), 300, 1_700_000_000_005]],
    'the order of use came back, the unnamed tile as the most recent, with its stored time');
  assert.equal(await second.store.get(url(2)), null);
  assert.deepEqual(second.store.lru.toJSON().map((r) => r[0]), [url(1), url(3)], 'a tile gone from the cache leaves the index');
  assert.equal(second.store.bytes, 600);
});

test('tiles taken back are held to the cap too', async () => {
  const storage = new FakeCacheStorage();
  const cache = await storage.open(TILE_CACHE);
  for (const n of [1, 2, 3, 4]) await cache.put(url(n), new Response(png(300)));
  const { store } = await open(storage);
  assert.equal(store.bytes, 900);
  assert.equal((await cached(storage)).length, 3, 'one deleted');
});

test('a damaged index loses the order, never the tiles or the app', async () => {
  const storage = new FakeCacheStorage();
  const cache = await storage.open(TILE_CACHE);
  await cache.put(INDEX, new Response('not json'));
  await cache.put(url(1), new Response(png(10)));
  const { store } = await open(storage);
  assert.equal(store.bytes, 10);
  assert.equal((await store.get(url(1))).blob.size, 10);
});

test('a tile kept longer than its age is drawn and asked for again', async () => {
  const storage = new FakeCacheStorage();
  const { store, clock } = await open(storage);
  await store.put(url(1), png(10));
  clock.now += TILE_MAX_AGE_MS;
  assert.equal((await store.get(url(1))).stale, false);
  clock.now += 1;
  assert.equal((await store.get(url(1))).stale, true);
  await store.put(url(1), png(12));
  assert.equal((await store.get(url(1))).stale, false, 'stored again: fresh');
  assert.equal(store.bytes, 12);
});

test('a browser refusing to keep tiles: nothing kept, nothing thrown, said in console.debug', async () => {
  const storage = new FakeCacheStorage();
  const { store } = await open(storage);
  (await storage.open(TILE_CACHE)).refuse = true;
  const debug = console.debug;
  const said = [];
  console.debug = (...args) => said.push(args.join(' '));
  try {
    await store.put(url(1), png(10));
  } finally {
    console.debug = debug;
  }
  assert.equal(store.bytes, 0);
  assert.equal(said.length, 1);
  assert.equal(await TileStore.open(undefined, { base: BASE }), null, 'no Cache API: no store');
  const broken = { open: async () => { throw new DOMException('denied', 'SecurityError'); } };
  console.debug = () => {};
  try {
    assert.equal(await TileStore.open(broken, { base: BASE }), null);
  } finally {
    console.debug = debug;
  }
});

test('erasing deletes the whole cache', async () => {
  const storage = new FakeCacheStorage();
  const { store } = await open(storage);
  await store.put(url(1), png(10));
  await eraseTiles(storage);
  assert.equal(storage.named.has(TILE_CACHE), false);
  await eraseTiles(undefined);
});
