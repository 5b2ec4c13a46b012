import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { EditDraft } = await appModule('editDraft.js');
const { ActivationGuard, SETTLE_MS } = await appModule('ui/activationGuard.js');
const { Ledger, StaleEditError } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');
const { fromWire } = await appModule('records.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const OTHER = '00000000000000aa';

test('a save writes only the fields the person changed, against what the screen showed', () => {
  const draft = new EditDraft({ compDate: 20240501, memo: '新幹線ホーム' });
  assert.deepEqual(draft.changes({ compDate: 20240501, memo: '新幹線ホーム' }), {});
  const changes = draft.changes({ compDate: 20240502, memo: '新幹線ホーム' });
  assert.deepEqual(changes, { compDate: 20240502 });
  assert.deepEqual(draft.seen(changes), { compDate: 20240501 });
  assert.deepEqual(draft.seen({ memo: 'x' }), { memo: '新幹線ホーム' });
});

test('a change underneath: untouched fields take it, touched ones become conflicts until acknowledged', () => {
  const draft = new EditDraft({ compDate: 20240501, memo: '新幹線ホーム' });
  // The person changed only the day; another device changed the memo.
  const clean = draft.rebase({ compDate: 20240501, memo: 'CLI: 新幹線は8番線' }, { compDate: 20240502, memo: '新幹線ホーム' });
  assert.deepEqual(clean, { inputs: { compDate: 20240502, memo: 'CLI: 新幹線は8番線' }, moved: ['memo'], conflicts: [] });
  assert.deepEqual(draft.changes(clean.inputs), { compDate: 20240502 }, 'the other device\'s memo is not written back');

  // The person typed a memo; another device changed the memo too.
  const typed = new EditDraft({ compDate: 0, memo: 'a' });
  const conflict = typed.rebase({ compDate: 0, memo: 'b' }, { compDate: 0, memo: 'mine' });
  assert.deepEqual(conflict, { inputs: { compDate: 0, memo: 'mine' }, moved: ['memo'], conflicts: ['memo'] });
  assert.deepEqual(typed.seen(typed.changes(conflict.inputs)), { memo: 'a' }, 'a save is made against the old value, so it is refused');
  typed.acknowledge({ compDate: 0, memo: 'b' });
  assert.deepEqual(typed.seen(typed.changes(conflict.inputs)), { memo: 'b' });
});

test('the ledger refuses an edit made against values the station no longer has, and writes nothing', async () => {
  const ledger = await Ledger.open(new MemoryStore(), { now: NOW, newDevice: () => '0123456789abcdef', deviceName: 'phone' });
  await ledger.edit(120004, { memo: '新幹線ホーム' }, NOW);
  await ledger.receive([fromWire({ kind: 'station_edit', device: OTHER, seq: 1, hlc: String(BigInt(NOW + 5000) << 16n), station: 120004, memo: 'CLI: 新幹線は8番線' })], NOW);
  assert.equal(ledger.fold.memo(120004), 'CLI: 新幹線は8番線');
  const before = ledger.identity.nextSeq;
  await assert.rejects(ledger.edit(120004, { memo: '上書き' }, NOW + 10_000, { memo: '新幹線ホーム' }), StaleEditError);
  assert.equal(ledger.fold.memo(120004), 'CLI: 新幹線は8番線');
  assert.equal(ledger.identity.nextSeq, before, 'no event was appended');
  // The date was not changed underneath: an edit of the date alone goes through and keeps the memo.
  const event = await ledger.edit(120004, { compDate: 20240502 }, NOW + 10_000, { compDate: 0 });
  assert.equal(event?.memo, null);
  assert.equal(ledger.fold.memo(120004), 'CLI: 新幹線は8番線');
  assert.equal(ledger.fold.compDate(120004), 20240502);
  // Today for a station a sync completed since the screen showed it not completed: refused.
  await assert.rejects(ledger.edit(120004, { compDate: 20240503 }, NOW + 20_000, { compDate: 0 }), StaleEditError);
});

test('buttons rest for a moment after their screen appears; arming again restarts the moment', () => {
  const timers = [];
  const seen = [];
  const guard = new ActivationGuard((settled) => seen.push(settled), (fn, ms) => timers.push({ fn, ms }));
  assert.equal(guard.settled(), true, 'never armed: settled');
  guard.arm();
  assert.equal(guard.settled(), false);
  assert.deepEqual(timers.map((t) => t.ms), [SETTLE_MS]);
  guard.arm();
  timers[0].fn();
  assert.equal(guard.settled(), false, 'the first moment\'s end does not end the second');
  timers[1].fn();
  assert.equal(guard.settled(), true);
  assert.deepEqual(seen, [false, false, true]);
  assert.ok(SETTLE_MS >= 300 && SETTLE_MS <= 1000, 'long enough for a touch\'s click, short for a person');
});
