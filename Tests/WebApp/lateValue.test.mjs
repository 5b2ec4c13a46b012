// LateValue (lateValue.js): what main.js's taps ask of the screens loaded after the map's first
// frame runs once they come, in order, and at once afterwards.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { LateValue } = await appModule('lateValue.js');

test('what asks before the value comes runs when it comes, in the order it asked', () => {
  const screens = new LateValue();
  const served = [];
  screens.use((s) => served.push(`tab ${s.name}`));
  screens.use((s) => served.push(`station ${s.name}`));
  assert.deepEqual(served, [], 'nothing runs before the value comes');
  screens.arrive({ name: 'loaded' });
  assert.deepEqual(served, ['tab loaded', 'station loaded']);
  let later = null;
  screens.use((s) => { later = s; });
  assert.deepEqual(later, { name: 'loaded' }, 'a use after it came gets the same value');
});

test('after the value came, a use runs at once, and a second value is refused', () => {
  const screens = new LateValue();
  screens.arrive(7);
  let seen = null;
  screens.use((v) => { seen = v; });
  assert.equal(seen, 7, 'synchronously, as a tap on a loaded screen');
  assert.throws(() => screens.arrive(8));
  screens.use((v) => { seen = v; });
  assert.equal(seen, 7);
});

test('a use that asks again while the value arrives runs too, after those before it', () => {
  const screens = new LateValue();
  const served = [];
  screens.use(() => { served.push(1); screens.use(() => served.push(3)); });
  screens.use(() => served.push(2));
  screens.arrive('s');
  assert.deepEqual(served, [1, 3, 2]);
});
