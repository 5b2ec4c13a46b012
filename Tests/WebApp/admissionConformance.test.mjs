// Conformance/admission.jsonl (Schemas/merge.md §2.1, Schemas/conformance.md): the app admits
// every case's incoming records into a replica holding the case's `held` records exactly as the
// corpus says, accepted (the events and names appended, the duplicates) or refused with the
// reason code of the first check that fails. Device rules run the whole Ledger.receive (and a
// refusal stores nothing); push rules, which only the sync server applies, run admission.js's
// `admit` with the case's catalogue. AdmissionConformanceTests checks MergeAdmission likewise.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, conformanceDir } from './support/paths.mjs';

const { parse } = await appModule('bigjson.js');
const { fromWire, RecordError, toStored } = await appModule('records.js');
const { Ledger, MergeError } = await appModule('ledger.js');
const { admit } = await appModule('admission.js');
const { MemoryStore } = await appModule('store.js');

/** A device of the receiver that no case names. */
const RECEIVER = '00000000000000ff';

function cases() {
  const file = path.join(conformanceDir, 'admission.jsonl');
  assert.ok(existsSync(file), 'conformance file missing: Conformance/admission.jsonl');
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => parse(line));
}

/** A replica holding exactly `held` (stored as they are, not admitted: a held state is given). */
async function replica(held, now) {
  const store = new MemoryStore();
  await store.commit({ put: held.map((r) => toStored(fromWire(r))) });
  return Ledger.open(store, { now, newDevice: () => RECEIVER, deviceName: 'receiver' });
}

/** The case's outcome in the corpus's terms. */
async function outcome(c, ledger) {
  const now = Number(c.now);
  let records;
  try {
    records = c.incoming.map(fromWire);
  } catch (error) {
    if (error instanceof RecordError) return { refused: { reason: 'malformed-record' } };
    throw error;
  }
  let admitted;
  try {
    if (c.rules === 'device') {
      admitted = await ledger.receive(records, now);
    } else {
      const known = new Set(c.catalog.map(Number));
      admitted = admit(ledger, records, now, { plausibility: true, knows: (station) => known.has(station) });
    }
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    const refusal = { reason: error.reason, device: error.device, seq: error.seq };
    if (c.refused?.seq === undefined) delete refusal.seq;
    if (c.refused?.device === undefined) delete refusal.device;
    return { refused: refusal };
  }
  return {
    accepted: {
      events: admitted.events.map((e) => ({ device: e.device, seq: e.seq })),
      names: admitted.names.map((n) => ({ device: n.device, hlc: n.hlc.toString(), name: n.name })),
      duplicates: admitted.duplicates,
    },
  };
}

/** The corpus's expectation, with its integers as the app holds them. */
function expected(c) {
  if (c.refused) {
    const { reason, device, seq } = c.refused;
    return { refused: { reason, ...(device !== undefined ? { device } : {}), ...(seq !== undefined ? { seq: BigInt(seq) } : {}) } };
  }
  return {
    accepted: {
      events: c.accepted.events.map((e) => ({ device: e.device, seq: BigInt(e.seq) })),
      names: c.accepted.names,
      duplicates: Number(c.accepted.duplicates),
    },
  };
}

test('admission.jsonl: every case is accepted or refused as the corpus says', async () => {
  const all = cases();
  assert.ok(all.length >= 20, `Conformance/admission.jsonl has ${all.length} cases`);
  for (const [index, c] of all.entries()) {
    const where = `admission.jsonl line ${index + 1} (${c.case})`;
    const ledger = await replica(c.held, Number(c.now));
    const before = { events: ledger.eventCount(), names: [...ledger.names.values()] };
    assert.deepEqual(await outcome(c, ledger), expected(c), where);
    if (c.rules !== 'device') continue;
    // What was accepted is stored; a refusal stored nothing.
    assert.equal(ledger.eventCount(), before.events + (c.accepted?.events.length ?? 0), `${where}: events stored`);
    if (c.refused) assert.deepEqual([...ledger.names.values()], before.names, `${where}: names stored`);
    for (const n of c.accepted?.names ?? []) assert.equal(ledger.names.get(n.device)?.hlc.toString(), n.hlc, `${where}: name stored`);
  }
});

test('admission.jsonl covers every reason code and both rules', () => {
  const reasons = new Set(cases().filter((c) => c.refused).map((c) => c.refused.reason));
  for (const reason of ['malformed-record', 'differing-copy', 'differing-duplicate', 'seq-gap', 'before-2000', 'clock-ahead', 'future-date', 'unknown-station']) {
    assert.ok(reasons.has(reason), `no case is refused with ${reason}`);
  }
  assert.deepEqual(new Set(cases().map((c) => c.rules)), new Set(['device', 'push']));
});
