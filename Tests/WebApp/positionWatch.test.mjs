// The position watch of 地図 (positionWatch.js) with a fake geolocation and permissions: it runs
// only while the map is visible, starts by itself only when the location is allowed, otherwise at
// the locate button, and says which problem a failure is.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { PositionWatch, WATCH_OPTIONS, problemOf } = await appModule('positionWatch.js');

/** A geolocation whose watches the test feeds. */
function fakeGeolocation() {
  const watches = new Map();
  let next = 1;
  return {
    watches,
    watchPosition(success, failure, options) { const id = next++; watches.set(id, { success, failure, options }); return id; },
    clearWatch(id) { watches.delete(id); },
    fix(lat, lng, accuracy = 20) { for (const w of [...watches.values()]) w.success({ coords: { latitude: lat, longitude: lng, accuracy } }); },
    fail(code) { for (const w of [...watches.values()]) w.failure({ code }); },
  };
}
const permissions = (state) => ({ status: { state, onchange: null }, async query() { return this.status; } });

function make(state = 'granted', geolocation = fakeGeolocation()) {
  const fixes = [], problems = [];
  const perms = state === null ? null : permissions(state);
  const watch = new PositionWatch({ geolocation, permissions: perms, onFix: (f) => fixes.push(f), onProblem: (p) => problems.push(p), now: () => 1000 });
  return { watch, geolocation, perms, fixes, problems };
}

test('allowed: watching while the map is visible, cleared when it is not, the fix forgotten', async () => {
  const { watch, geolocation, fixes } = make('granted');
  await watch.show();
  assert.equal(geolocation.watches.size, 1);
  assert.deepEqual([...geolocation.watches.values()][0].options, WATCH_OPTIONS);
  geolocation.fix(35.681236, 139.767125, 12);
  assert.deepEqual(fixes, [{ lat: 35.681236, lng: 139.767125, accuracy: 12, at: 1000 }]);
  assert.equal(watch.locate(), 'centre');
  watch.hide();
  assert.equal(geolocation.watches.size, 0, 'clearWatch');
  assert.equal(watch.fix, null);
  assert.equal(fixes.at(-1), null, 'the marker is told to go');
  await watch.show();
  assert.equal(geolocation.watches.size, 1, 'watching again');
  watch.hide();
  watch.hide();
  assert.equal(geolocation.watches.size, 0);
});

test('not yet allowed: nothing until the locate button, which starts the watch and waits', async () => {
  const { watch, geolocation, fixes } = make('prompt');
  await watch.show();
  assert.equal(geolocation.watches.size, 0, 'no prompt on opening the map');
  assert.equal(watch.locate(), 'waiting');
  assert.equal(geolocation.watches.size, 1);
  assert.equal(watch.locate(), 'waiting', 'a second tap does not start a second watch');
  assert.equal(geolocation.watches.size, 1);
  geolocation.fix(35, 139);
  assert.equal(fixes.length, 1);
  watch.hide();
  await watch.show();
  assert.equal(geolocation.watches.size, 1, 'asked once: watched whenever the map is shown');
});

test('refused: the button says so and nothing watches', async () => {
  const { watch, geolocation, problems } = make('denied');
  await watch.show();
  assert.equal(geolocation.watches.size, 0);
  assert.equal(watch.locate(), 'denied');
  assert.equal(geolocation.watches.size, 0);

  const asked = make('prompt');
  await asked.watch.show();
  asked.watch.locate();
  asked.geolocation.fail(1);
  assert.deepEqual(asked.problems, ['denied']);
  assert.equal(asked.geolocation.watches.size, 0, 'a refusal ends the watch');
  assert.equal(problems.length, 0);
});

test('no fix yet: unavailable and timeout are said, and the watch goes on', async () => {
  const { watch, geolocation, problems } = make('granted');
  await watch.show();
  geolocation.fail(2);
  geolocation.fail(3);
  assert.deepEqual(problems, ['unavailable', 'timeout']);
  assert.equal(geolocation.watches.size, 1);
  assert.equal(watch.locate(), 'timeout');
  geolocation.fix(35, 139);
  assert.equal(watch.locate(), 'centre');
  assert.deepEqual([1, 2, 3, 9].map(problemOf), ['denied', 'unavailable', 'timeout', 'unavailable']);
});

test('no geolocation, or no way to ask: the button says so, or only a tap starts the watch', async () => {
  const none = make('granted', null);
  await none.watch.show();
  assert.equal(none.watch.locate(), 'unsupported');

  const unknown = make(null);
  await unknown.watch.show();
  assert.equal(unknown.geolocation.watches.size, 0);
  assert.equal(unknown.watch.locate(), 'waiting');
  assert.equal(unknown.geolocation.watches.size, 1);

  const geolocation = fakeGeolocation();
  const failing = { query: async () => { throw new TypeError('not supported'); } };
  const broken = new PositionWatch({ geolocation, permissions: failing, onFix() {}, onProblem() {} });
  await broken.show();
  assert.equal(geolocation.watches.size, 0, 'a query that fails counts as not allowed');
});

test('hidden before the permission answered: no watch starts', async () => {
  const { watch, geolocation } = make('granted');
  const shown = watch.show();
  watch.hide();
  await shown;
  assert.equal(geolocation.watches.size, 0);
});

test('a fix after the watch ended, or refused in the settings meanwhile, changes nothing', async () => {
  const { watch, geolocation, fixes, perms } = make('granted');
  await watch.show();
  const stale = [...geolocation.watches.values()][0];
  watch.hide();
  stale.success({ coords: { latitude: 1, longitude: 2, accuracy: 3 } });
  assert.equal(fixes.length, 0);
  await watch.show();
  geolocation.fix(35, 139);
  perms.status.state = 'denied';
  perms.status.onchange();
  assert.equal(geolocation.watches.size, 0, 'refused in the settings: stopped');
  assert.equal(watch.fix, null);
  assert.equal(watch.locate(), 'denied');
});
