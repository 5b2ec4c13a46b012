// What a sync of an end-to-end encrypted account does with records (Schemas/encryption.md §11
// "The client"), as Swift's SyncSealing and SealedForkCheck (Sources/SyncClient/Encryption/): the
// device's own ledger stays plaintext; a push seals what it sends under the current epoch's key
// (each device's events in runs, kind 7, cut as runCut.js says; a lone event as kind 5, names as
// kind 6), a pull opens each record with its epoch's key, and the fork check of a pull is the
// device's: it seals its own event at the server's seq (or the run the server stored it in) under
// the epoch the server names and compares the digests of the stored forms ("Fork detection on
// pulls").

import { encode } from './records.js';
import { decodeRecord } from './openedRecord.js';
import { openRecord, sealRecord, storedForm } from './crypto/recordSealer.js';
import { openRun, sealRun, sealRunBlock } from './crypto/runSealer.js';
import { SealError } from './crypto/sealError.js';
import { MalformedAnswer } from './apiErrors.js';
import { SEALED_NAME, SEALED_RUN } from './sealedLayout.js';
import { sha256, toHex } from './sha256.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./crypto/recordSealer.js').SealedRecord} SealedRecord */
/** @typedef {import('./crypto/keyRing.js').KeyRing} KeyRing */
/** @typedef {import('./crypto/dataKey.js').DataKey} DataKey */
/** @typedef {import('./runCut.js').SealPiece} SealPiece */
/** @typedef {import('./api.js').StoredDigests} StoredDigests */

/**
 * A pulled sealed record this device cannot open (`missing`: it lacks the key of its epoch;
 * `unopenable`: it does not open under that key, SealError `reason`), or one of its own it cannot
 * seal (`unsealable`).
 */
export class SealedRecordError extends Error {
  /**
   * @param {'missing' | 'unopenable' | 'unsealable'} reason @param {string} message
   * @param {{device?: string, seq?: bigint, epoch?: number}} [where]
   */
  constructor(reason, message, where = {}) {
    super(message);
    this.name = 'SealedRecordError';
    this.reason = reason;
    this.device = where.device ?? null;
    this.seq = where.seq ?? null;
    this.epoch = where.epoch ?? null;
  }
}

/**
 * `events` sealed under `key`, in order.
 * @param {LedgerEvent[]} events @param {DataKey} key
 * @returns {Promise<SealedRecord[]>}
 */
export function sealEvents(events, key) {
  return inBatches(events, async (e) => {
    try {
      return await sealRecord(encode(e), key);
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      throw new SealedRecordError('unsealable', `device ${e.device}'s event #${e.seq} cannot be sealed: ${error.message}`, { device: e.device, seq: e.seq });
    }
  });
}

/**
 * What a push sends, cut by runCut.cutRuns, sealed under `key`, in order: a piece of one event
 * alone (kind 5, a name kind 6), of more a run (kind 7).
 * @param {SealPiece[]} pieces @param {DataKey} key
 * @returns {Promise<SealedRecord[]>}
 */
export function sealPieces(pieces, key) {
  return inBatches(pieces, async ({ events, block }) => {
    if (!block) return (await sealEvents(events, key))[0];
    try {
      return await sealRunBlock(block, events, key);
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      const { device, seq } = events[0];
      throw new SealedRecordError('unsealable', `device ${device}'s events #${seq}–#${events[events.length - 1].seq} cannot be sealed as a run: ${error.message}`, { device, seq });
    }
  });
}

/** Records sealed or opened at once: WebCrypto works on them in parallel, the page keeps its order. */
const BATCH = 256;

/**
 * `work` of every item, in order, BATCH at a time.
 * @template T, R
 * @param {T[]} items @param {(item: T) => Promise<R>} work
 * @returns {Promise<R[]>}
 */
async function inBatches(items, work) {
  /** @type {R[]} */
  const out = [];
  for (let at = 0; at < items.length; at += BATCH) out.push(...await Promise.all(items.slice(at, at + BATCH).map(work)));
  return out;
}

/**
 * The events `sealed` holds, in order, each record opened with its epoch's key from `ring`: a
 * run's events in seq order (runSealer.openRun).
 * @param {SealedRecord[]} sealed @param {KeyRing} ring
 * @returns {Promise<LedgerEvent[]>}
 */
export async function openRecords(sealed, ring) {
  for (const s of sealed) if (!ring.key(s.epoch)) throw missingKey(s.epoch, ring);
  const opened = await inBatches(sealed, async (s) => {
    const key = /** @type {DataKey} */ (ring.key(s.epoch));
    try {
      return s.kind === SEALED_RUN ? await openRun(s, key) : [decodeRecord(await openRecord(s, key))];
    } catch (error) {
      if (!(error instanceof SealError || error instanceof RangeError)) throw error;
      const what = s.kind === SEALED_NAME ? `device ${s.device}'s name`
        : s.kind === SEALED_RUN ? `device ${s.device}'s events #${s.first}–#${s.seq}` : `device ${s.device}'s event #${s.seq}`;
      throw new SealedRecordError('unopenable', `${what} does not open under this device's key of epoch ${s.epoch}: ${error.message}`, { device: s.device, seq: s.first ?? s.seq, epoch: s.epoch });
    }
  });
  return opened.flat();
}

/**
 * The refusal of a record or a digest of an epoch this device lacks.
 * @param {number} epoch @param {KeyRing} ring
 */
export function missingKey(epoch, ring) {
  return new SealedRecordError('missing', `the account holds records sealed under key epoch ${epoch}, which this device does not have (it holds epoch ${ring.current.epoch}): get the key with a link from one of your devices or with the recovery kit`, { epoch });
}

/**
 * The EventDigest of a sealed record's stored form: the first 16 bytes of SHA-256, 32 hex digits.
 * @param {SealedRecord} sealed
 */
export function sealedDigest(sealed) {
  return toHex(sha256(storedForm(sealed)).subarray(0, 16));
}

/**
 * The first (device, seq) of `stored` (the server's digests of its sealed copies, at `seqs`) whose
 * digest differs from this device's own event there sealed under that epoch; null when none does
 * (or this device holds none of them). Where the server's copy is a run (`first`, `last`), this
 * device seals its own events `first … last` as one run and compares that; holding only some of
 * them, it makes no comparison there: the pull sends the run, and the admission of its opened
 * events compares them (encryption.md §11 "Fork detection on pulls"). SealedForkCheck.check.
 * @param {StoredDigests} stored
 * @param {Map<string, bigint>} seqs @param {(device: string, seq: bigint) => LedgerEvent | undefined} eventAt
 * @param {KeyRing} ring
 * @returns {Promise<{device: string, seq: bigint} | null>}
 */
export async function sealedFork(stored, seqs, eventAt, ring) {
  for (const [device, theirs] of stored) {
    const seq = seqs.get(device);
    if (seq === undefined || seq === 0n) continue;
    const { first = seq, last = seq } = theirs;
    if (seq < first || seq > last) throw new MalformedAnswer(`the sync server's digest of device ${device}'s event #${seq} is of a run (#${first}–#${last}) that does not hold it`);
    const own = heldRun(device, first, last, eventAt);
    if (!own) continue;
    const key = ring.key(theirs.epoch);
    if (!key) throw missingKey(theirs.epoch, ring);
    const digest = theirs.first === undefined ? sealedDigest((await sealEvents(own, key))[0]) : await runDigest(own, key);
    if (digest !== theirs.digest) return { device, seq };
  }
  return null;
}

/**
 * This device's events `first … last` of `device`, or null when it lacks any of them.
 * @param {string} device @param {bigint} first @param {bigint} last
 * @param {(device: string, seq: bigint) => LedgerEvent | undefined} eventAt
 */
function heldRun(device, first, last, eventAt) {
  const events = [];
  for (let s = first; s <= last; s++) {
    const e = eventAt(device, s);
    if (!e) return null;
    events.push(e);
  }
  return events;
}

/**
 * The digest of `events` sealed as one run; null when they cannot be (a block past the run's
 * bound): the server's run of the same seqs could be, so they differ from it.
 * @param {LedgerEvent[]} events @param {DataKey} key
 */
async function runDigest(events, key) {
  try {
    return sealedDigest(await sealRun(events, key));
  } catch (error) {
    if (error instanceof SealError) return null;
    throw error;
  }
}
