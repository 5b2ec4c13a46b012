// Compaction of this device's own records (Schemas/phone-app.md "The stored form"): once the
// sync server has acknowledged them, its own events leave their one-per-value form and join the
// chunks, in one strict transaction that adds the chunk, deletes the values and stamps the
// completions snapshot again. The values are chosen inside that transaction, from what the
// `records` store holds then, so that nothing another write left there is lost or moved twice.

import { completionsRows } from './completionsSnapshot.js';
import { storedChunk } from './replicaRecords.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').StoredEvent} StoredEvent */

/** How many acknowledged own events wait before a compaction runs. */
export const COMPACT_AT = 256;

/**
 * The largest seq of this device the sync server acknowledged and this replica holds (0n when
 * none): the server's `server_has` of the device, saved with the sync bookkeeping.
 * @param {Ledger} ledger
 */
export function acknowledgedSeq(ledger) {
  const saved = /** @type {any} */ (ledger.getMeta('sync'));
  const theirs = BigInt(saved?.serverHas?.[ledger.device] ?? '0');
  const held = ledger.held(ledger.device);
  return theirs < held ? theirs : held;
}

/**
 * The largest seq below every event of `device` stored one per value (the seq held when none is):
 * the point from which `compactOwn` counts what waits.
 * @param {StoredEvent[]} values the `records` store's values @param {string} device @param {bigint} held
 */
export function compactedThrough(values, device, held) {
  let floor = held;
  for (const s of values) {
    if (s.kind !== 'device_name' && s.device === device && BigInt(s.seq) - 1n < floor) floor = BigInt(s.seq) - 1n;
  }
  return floor;
}

/**
 * The chunk of `device`'s events up to `through` among the `records` store's values, and their
 * keys, or null when there are none; the chunk is read back in memory first (storedChunk).
 * @param {StoredEvent[]} values @param {string} device @param {bigint} through
 * @returns {{bytes: Uint8Array, count: number, remove: string[]} | null}
 */
export function ownChunk(values, device, through) {
  const taken = values.filter((s) => s.kind !== 'device_name' && s.device === device && BigInt(s.seq) <= through);
  if (taken.length === 0) return null;
  return { ...storedChunk(taken), remove: taken.map((s) => s.key) };
}

/**
 * Moves this device's acknowledged events into a chunk when at least `min` were acknowledged
 * since the last compaction; resolves with how many moved. Runs inside the ledger's write queue
 * (Ledger.exclusive). A refused transaction leaves every value where it was.
 * @param {Ledger} ledger @param {number} min
 */
export async function compactOwn(ledger, min) {
  const device = ledger.device;
  const through = acknowledgedSeq(ledger);
  const since = ledger.compacted.device === device ? ledger.compacted.seq : 0n;
  if (through - since < BigInt(min)) return 0;
  let moved = 0;
  await ledger.store.commit({
    compact: (values) => {
      const chunk = ownChunk(values, device, through);
      moved = chunk?.count ?? 0;
      return chunk;
    },
    completions: completionsRows(ledger.fold),
  });
  ledger.compacted = { device, seq: through };
  if (moved > 0) ledger.savedRevision = ledger.revision;
  return moved;
}
