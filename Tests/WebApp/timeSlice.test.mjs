import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { TimeSlice, SLICE_MS, yieldToPage } = await appModule('timeSlice.js');

test('a slice gives the page back only once it has run SLICE_MS, then starts anew', async () => {
  let now = 100;
  const slice = new TimeSlice(() => now);
  now = 100 + SLICE_MS - 1;
  await slice.pass();
  assert.equal(slice.started, 100, 'not yet: the same slice goes on');
  now = 100 + SLICE_MS;
  await slice.pass();
  assert.equal(slice.started, 100 + SLICE_MS, 'a new slice starts when the page gives it back');
});

test('yieldToPage resumes after the work queued before it', async () => {
  let ran = false;
  queueMicrotask(() => { ran = true; });
  await yieldToPage();
  assert.equal(ran, true);
});
