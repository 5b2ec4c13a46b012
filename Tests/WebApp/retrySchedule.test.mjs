import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeClock } from './support/fakeClock.mjs';

const { RetrySchedule, backoffStep, retryDelay, FIRST_RETRY_MS, MAX_RETRY_MS } = await appModule('retrySchedule.js');

test('the steps double from 5 s and stop at 5 min', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 100].map(backoffStep), [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
  assert.equal(FIRST_RETRY_MS, 5_000);
  assert.equal(MAX_RETRY_MS, 300_000);
});

test('each wait is between half and all of its step', () => {
  for (let attempt = 0; attempt < 10; attempt++) {
    assert.equal(retryDelay(attempt, () => 0), backoffStep(attempt) / 2);
    assert.equal(retryDelay(attempt, () => 0.999999), backoffStep(attempt));
    const d = retryDelay(attempt, Math.random);
    assert.ok(d >= backoffStep(attempt) / 2 && d <= backoffStep(attempt), `${d}`);
  }
});

test('failures in a row wait longer and longer; the retry runs when its wait is over', () => {
  const clock = new FakeClock();
  const runs = [];
  const schedule = new RetrySchedule(() => runs.push(clock.now), { timers: clock.timers(), random: () => 0.5 });
  const waits = [];
  for (let i = 0; i < 8; i++) {
    waits.push(schedule.failed());
    assert.ok(schedule.waiting);
    clock.advance(waits[i] - 1);
    assert.equal(runs.length, i, 'not before its time');
    clock.advance(1);
    assert.equal(runs.length, i + 1);
    assert.equal(schedule.waiting, false);
  }
  assert.deepEqual(waits, [3_750, 7_500, 15_000, 30_000, 60_000, 120_000, 225_000, 225_000]);
});

test('a success ends the backoff: the next failure waits the first step again', () => {
  const clock = new FakeClock();
  let runs = 0;
  const schedule = new RetrySchedule(() => runs++, { timers: clock.timers(), random: () => 0 });
  schedule.failed();
  clock.advance(2_500);
  schedule.failed();
  schedule.failed();
  assert.equal(clock.pending.size, 1, 'one retry waits at a time');
  schedule.succeeded();
  assert.equal(schedule.waiting, false);
  clock.advance(MAX_RETRY_MS);
  assert.equal(runs, 1, 'nothing runs after a success');
  assert.equal(schedule.failed(), 2_500);
});

test('the network returning or the app coming into view runs a waiting retry at once, and only one', () => {
  const clock = new FakeClock();
  let runs = 0;
  const schedule = new RetrySchedule(() => runs++, { timers: clock.timers(), random: () => 0 });
  assert.equal(schedule.now(), false, 'nothing waits: nothing runs');
  assert.equal(runs, 0);
  schedule.failed();
  schedule.failed();
  assert.equal(schedule.now(), true);
  assert.equal(runs, 1);
  clock.advance(MAX_RETRY_MS);
  assert.equal(runs, 1, 'the timer it replaced does not run as well');
  assert.equal(schedule.failed(), 10_000, 'the count goes on: the server was still not reached');
});

test('a failure that retrying cannot fix stops the retries', () => {
  const clock = new FakeClock();
  let runs = 0;
  const schedule = new RetrySchedule(() => runs++, { timers: clock.timers(), random: () => 0 });
  schedule.failed();
  schedule.stop();
  clock.advance(MAX_RETRY_MS * 2);
  assert.equal(runs, 0);
  assert.equal(schedule.waiting, false);
});
