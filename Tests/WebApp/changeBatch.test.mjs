import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeClock } from './support/fakeClock.mjs';

const { ChangeBatch, CHANGE_BATCH_MS } = await appModule('changeBatch.js');

test('outside a sync a notice passes at once', () => {
  const passed = [];
  const batch = new ChangeBatch((s) => passed.push(s), new FakeClock().timers());
  batch.notice([1]);
  batch.notice(null);
  assert.deepEqual(passed, [[1], null]);
});

test('during a sync notices are held, passed together every interval and at the end', () => {
  const clock = new FakeClock();
  const passed = [];
  const batch = new ChangeBatch((s) => passed.push(s), clock.timers());
  batch.hold();
  batch.notice([1, 2]);
  batch.notice([2, 3]);
  assert.deepEqual(passed, []);
  clock.advance(CHANGE_BATCH_MS);
  assert.deepEqual(passed, [[1, 2, 3]]);
  batch.notice([4]);
  batch.release();
  assert.deepEqual(passed, [[1, 2, 3], [1, 2, 3, 4]], 'at the end, every station of the sync once more');
  passed.length = 0;
  batch.hold();
  batch.notice([4]);
  batch.notice(null);
  batch.notice([5]);
  batch.release();
  assert.deepEqual(passed, [null], 'everything, once');
  clock.advance(CHANGE_BATCH_MS * 3);
  assert.equal(passed.length, 1, 'nothing is left to pass');
  batch.hold();
  batch.release();
  assert.equal(passed.length, 1, 'a sync that changed nothing passes nothing');
});

test('flush passes what is held at once (the person\'s own edit during a sync)', () => {
  const clock = new FakeClock();
  const passed = [];
  const batch = new ChangeBatch((s) => passed.push(s), clock.timers());
  batch.hold();
  batch.notice([7]);
  batch.flush();
  assert.deepEqual(passed, [[7]]);
  assert.equal(clock.nextWait(), null, 'its timer is gone');
  batch.release();
  assert.deepEqual(passed, [[7], [7]]);
});
