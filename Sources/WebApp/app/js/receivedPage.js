// A pulled page stored (Ledger.receive): the admission of Schemas/merge.md §2.1 (admission.js),
// then one relaxed commit of the identity it advances, the page as one chunk, the completions
// snapshot and the sync bookkeeping (Schemas/phone-app.md "The stored form"), and only then the
// ledger's memory.

import { admit } from './admission.js';
import { maxHlc } from './hlc.js';
import { storedIdentity } from './ledger.js';
import { writeFrames } from './recordFrames.js';
import { completionsRows } from './completionsSnapshot.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

/**
 * Checks a received page and stores it in one commit, or throws MergeError and stores nothing.
 * Runs inside the ledger's write queue (Ledger.exclusive).
 * @param {Ledger} ledger
 * @param {LedgerEvent[]} records validated by records.fromWire
 * @param {number} now
 * @param {Record<string, unknown> | undefined} meta settings to commit with the page
 * @param {Uint8Array | null} frames the page's record frames as they came (sync-frames.md)
 * @returns {Promise<{events: LedgerEvent[], names: LedgerEvent[], duplicates: number}>}
 */
export async function storePage(ledger, records, now, meta, frames) {
  const { events, names: newNames, duplicates } = admit(ledger, records, now);
  if (events.length === 0 && newNames.length === 0) {
    if (meta) await ledger.commitMeta(meta, true);
    return { events, names: newNames, duplicates };
  }
  const identity = { ...ledger.identity };
  for (const r of [...events, ...newNames]) identity.lastHlc = maxHlc(identity.lastHlc, r.hlc);
  for (const r of events) {
    if (r.device === identity.device && r.seq >= identity.nextSeq) identity.nextSeq = r.seq + 1n;
    if (r.kind === 'station_edit' && r.device !== identity.device) identity.markOwed = true;
  }
  // One chunk: the frames as they came when every record in them is taken (as a segment
  // appends them, sync-frames.md "Stored as they come"), else the records taken, written again.
  const taken = [...events, ...newNames];
  const bytes = frames && taken.length === records.length ? frames : writeFrames(taken);
  // The completions snapshot goes with the chunk, stamped in its transaction.
  const fold = ledger.fold.copy();
  for (const r of events) fold.apply(r);
  await ledger.store.commit({
    identity: storedIdentity(identity), chunks: [{ bytes, count: taken.length }], completions: completionsRows(fold), meta, relaxed: true,
  });
  ledger.identity = identity;
  ledger.takeMeta(meta ?? {});
  ledger.fold = fold;
  for (const r of taken) ledger.add(r, true);
  ledger.savedRevision = ledger.revision;
  const stations = [...new Set(events.filter((e) => e.kind === 'station_edit').map((e) => /** @type {number} */ (e.station)))];
  if (stations.length) ledger.changed(stations);
  return { events, names: newNames, duplicates };
}
