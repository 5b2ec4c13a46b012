// The order of the offline tile cache (tileLru.js): bytes counted exactly, the least recently used
// evicted first once the total passes the cap, a use moving a tile to the back, a tile larger than
// the cap never kept, and the order read back from its JSON (damaged rows left out).
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { TileLru } = await appModule('tileLru.js');

const keys = (lru) => [...lru.entries.keys()];

test('bytes are counted as tiles come and go', () => {
  const lru = new TileLru(1000);
  assert.deepEqual(lru.add('a', 100), []);
  assert.deepEqual(lru.add('b', 250), []);
  assert.equal(lru.total, 350);
  assert.equal(lru.size, 2);
  assert.deepEqual(lru.add('a', 40), [], 'the same key again replaces its bytes');
  assert.equal(lru.total, 290);
  assert.equal(lru.remove('b'), true);
  assert.equal(lru.remove('b'), false);
  assert.equal(lru.total, 40);
  lru.clear();
  assert.equal(lru.total, 0);
  assert.equal(lru.size, 0);
});

test('past the cap the least recently used go first, until the total fits', () => {
  const lru = new TileLru(1000);
  lru.add('a', 300); lru.add('b', 300); lru.add('c', 300);
  assert.deepEqual(lru.add('d', 300), ['a'], 'exactly one over: the oldest goes');
  assert.equal(lru.total, 900);
  assert.deepEqual(lru.add('e', 650), ['b', 'c'], 'as many as it takes, oldest first');
  assert.deepEqual(keys(lru), ['d', 'e']);
  assert.equal(lru.total, 950);
  assert.deepEqual(lru.add('f', 50), [], 'exactly the cap fits');
  assert.equal(lru.total, 1000);
});

test('a use moves a tile to the back of the queue', () => {
  const lru = new TileLru(1000);
  lru.add('a', 400); lru.add('b', 400);
  assert.equal(lru.touch('a'), true);
  assert.equal(lru.touch('missing'), false);
  assert.deepEqual(keys(lru), ['b', 'a']);
  assert.deepEqual(lru.add('c', 400), ['b'], 'the tile used least recently, not the one stored first');
  lru.add('a', 100); // re-stored: the most recent again
  assert.deepEqual(keys(lru), ['c', 'a']);
});

test('a tile larger than the cap is not kept and evicts nothing', () => {
  const lru = new TileLru(1000);
  lru.add('a', 600);
  assert.deepEqual(lru.add('huge', 1001), ['huge']);
  assert.deepEqual(keys(lru), ['a']);
  assert.equal(lru.total, 600);
  lru.add('a', 100);
  assert.deepEqual(lru.add('a', 5000), ['a'], 'a tile replaced by one over the cap is gone');
  assert.equal(lru.total, 0);
});

test('the stored time goes with each tile', () => {
  const lru = new TileLru(1000);
  lru.add('a', 1, 1_700_000_000_000);
  assert.deepEqual(lru.get('a'), { bytes: 1, stored: 1_700_000_000_000 });
  lru.touch('a');
  assert.equal(lru.get('a').stored, 1_700_000_000_000, 'a use is not a store');
});

test('the order is read back from its JSON; damaged rows are left out and the cap applies', () => {
  const lru = new TileLru(1000);
  lru.add('a', 100, 1); lru.add('b', 200, 2); lru.add('c', 300, 3);
  lru.touch('a');
  const json = JSON.parse(JSON.stringify(lru));
  assert.deepEqual(json, [['b', 200, 2], ['c', 300, 3], ['a', 100, 1]]);
  const back = TileLru.fromJSON(json, 1000);
  assert.deepEqual(keys(back), ['b', 'c', 'a']);
  assert.equal(back.total, 600);
  const smaller = TileLru.fromJSON(json, 450);
  assert.deepEqual(keys(smaller), ['c', 'a'], 'a smaller cap evicts the oldest');
  const damaged = TileLru.fromJSON([['a', 10, 1], 'x', [3, 4, 5], ['b', -1, 0], ['c', 1.5, 0], ['d', 20]], 1000);
  assert.deepEqual(damaged.toJSON(), [['a', 10, 1], ['d', 20, 0]]);
  for (const bad of [null, 'x', { a: 1 }, 42]) assert.equal(TileLru.fromJSON(bad, 1000).size, 0);
});
