// The second step of opening a replica (Ledger.open with `early`): its stored records decoded and
// indexed a slice of the page's time at a time, while the map draws from the completions
// snapshot (Schemas/phone-app.md "The completions snapshot"), which the records' own fold then
// replaces.

import { addInSlices, snapshotRecords } from './replicaRecords.js';
import { TimeSlice } from './timeSlice.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./completionsSnapshot.js').CompletionsView} CompletionsView */

/**
 * Decodes and indexes `snapshot`'s records into `ledger`; `completions` (a snapshot matching
 * them, or null) is what the ledger's compDate reads meanwhile. A chunk that cannot be read
 * leaves the ledger refusing every write (`unreadable`), and the promise rejects with it.
 * @param {Ledger} ledger @param {import('./store.js').Snapshot} snapshot
 * @param {CompletionsView | null} completions
 */
export async function loadRecords(ledger, snapshot, completions) {
  ledger.early = completions;
  try {
    const slice = new TimeSlice();
    await addInSlices(await snapshotRecords(snapshot, slice), (r) => ledger.add(r), slice);
  } catch (error) {
    ledger.unreadable = error;
    throw error;
  }
  if (!completions) return;
  ledger.early = null;
  // The snapshot stands as stored only when the records fold to it exactly; else the next
  // saveCompletions writes it again.
  if (sameCompletions(ledger.fold, completions)) ledger.savedRevision = ledger.revision;
  ledger.changed(null);
}

/**
 * Whether a fold and a snapshot say the same date and memo of every station.
 * @param {import('./completionFold.js').Fold} fold @param {CompletionsView} completions
 */
function sameCompletions(fold, completions) {
  if (completions.rowOf.size !== fold.stations.size) return false;
  for (const [station, row] of fold.stations) {
    if (row.compDate !== completions.compDate(station) || row.memo !== completions.memo(station)) return false;
  }
  return true;
}
