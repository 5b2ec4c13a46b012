import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { Fold, foldEvents } = await appModule('completionFold.js');

const A = '000000000000000a', B = '000000000000000b';
const edit = (device, seq, hlc, station, compDate = null, memo = null) =>
  ({ kind: 'station_edit', device, seq: BigInt(seq), hlc: BigInt(hlc), station, compDate, memo, origin: 'user' });

/** Every order of a small list. */
function* permutations(list) {
  if (list.length <= 1) { yield list; return; }
  for (let i = 0; i < list.length; i++) {
    for (const rest of permutations([...list.slice(0, i), ...list.slice(i + 1)])) yield [list[i], ...rest];
  }
}

test('the greatest (hlc, device, seq) wins each register, whatever the order', () => {
  const events = [
    edit(A, 1, 100, 7, 20130901, 'first'),
    edit(B, 1, 100, 7, 20140000),            // same hlc: device b > a wins the date
    edit(A, 2, 99, 7, null, 'older memo'),   // smaller hlc loses
    edit(A, 3, 100, 8, 0),
  ];
  for (const order of permutations(events)) {
    const f = foldEvents(order);
    assert.deepEqual(f.rows(), [{ station: 7, compDate: 20140000, memo: 'first' }, { station: 8, compDate: 0, memo: '' }]);
  }
});

test('ties on hlc and device are broken by seq', () => {
  const f = foldEvents([edit(A, 5, 100, 1, 20130000), edit(A, 4, 100, 1, 20120000)]);
  assert.equal(f.compDate(1), 20130000);
});

test('hlcs beyond 2^53 are compared exactly', () => {
  const big = 2n ** 63n + 1n; // differs from 2^63 only below double precision
  const f = foldEvents([edit(A, 2, big, 1, 20130000, 'later'), edit(B, 1, big - 1n, 1, 20120000, 'earlier')]);
  assert.equal(f.compDate(1), 20130000);
  assert.equal(f.memo(1), 'later');
  const g = foldEvents([edit(B, 1, 2n ** 53n + 1n, 2, 1), edit(A, 1, 2n ** 53n, 2, 19990000)]);
  assert.equal(g.compDate(2), 1);
});

test('only station edits set registers; memo and date are independent', () => {
  const f = new Fold();
  assert.equal(f.apply({ kind: 'knowledge_mark', device: A, seq: 1n, hlc: 5n, knowledge: [] }), false);
  assert.equal(f.apply(edit(A, 2, 10, 3, null, 'memo only')), true);
  assert.equal(f.compDate(3), 0);
  assert.equal(f.apply(edit(A, 3, 11, 3, 20130901)), true);
  assert.equal(f.memo(3), 'memo only');
  assert.equal(f.apply(edit(A, 4, 9, 3, 20000000, '')), false, 'an older event changes nothing');
  assert.equal(f.updateSeconds(3), 0, 'hlc 11 is in the first millisecond');
});

test('100,000 events fold quickly (time printed, not asserted)', () => {
  const events = [];
  let hlc = BigInt(Date.UTC(2024, 0, 1)) << 16n;
  for (let i = 0; i < 100_000; i++) {
    hlc += BigInt(1 + (i % 7));
    events.push(edit(i % 3 === 0 ? A : B, i + 1, hlc, 120000 + (i * 7919) % 9780, 20130901 + (i % 28), i % 5 === 0 ? `m${i}` : null));
  }
  const start = performance.now();
  const f = foldEvents(events);
  const ms = performance.now() - start;
  console.log(`# fold of 100,000 events: ${ms.toFixed(1)} ms, ${f.stations.size} stations`);
  assert.ok(f.stations.size > 9000);
});
