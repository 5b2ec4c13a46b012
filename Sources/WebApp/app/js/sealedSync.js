// What a sync of an end-to-end encrypted account does with records (Schemas/encryption.md §11
// "The client"), as Swift's SyncSealing and SealedForkCheck (Sources/SyncClient/Encryption/): the
// device's own ledger stays plaintext; a push seals each record under the current epoch's key
// (events as kind 5, names as kind 6), a pull opens each with its epoch's key, and the fork
// check of a pull is the device's: it seals its own event at the server's seq under the epoch
// the server names and compares the digests of the stored forms ("Fork detection on pulls").

import { encode } from './records.js';
import { decodeRecord } from './openedRecord.js';
import { openRecord, paddedLength, sealRecord, storedForm } from './crypto/recordSealer.js';
import { SealError } from './crypto/sealError.js';
import { fixedBody, SEALED_EVENT, SEALED_NAME, TAG_BYTES } from './sealedLayout.js';
import { sha256, toHex } from './sha256.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./crypto/recordSealer.js').SealedRecord} SealedRecord */
/** @typedef {import('./crypto/keyRing.js').KeyRing} KeyRing */
/** @typedef {import('./crypto/dataKey.js').DataKey} DataKey */

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
 * The length of `event` sealed, in the raw record stream: what a push page is cut by, since
 * ciphertext does not compress (a memo-less station edit: 116 bytes).
 * @param {LedgerEvent} event
 */
export function sealedLength(event) {
  const kind = event.kind === 'device_name' ? SEALED_NAME : SEALED_EVENT;
  return 4 + fixedBody(kind) + paddedLength(encode(event).length) + TAG_BYTES;
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
 * The events `sealed` holds, each opened with its epoch's key from `ring`.
 * @param {SealedRecord[]} sealed @param {KeyRing} ring
 * @returns {Promise<LedgerEvent[]>}
 */
export async function openRecords(sealed, ring) {
  for (const s of sealed) if (!ring.key(s.epoch)) throw missingKey(s.epoch, ring);
  return inBatches(sealed, async (s) => {
    const key = /** @type {DataKey} */ (ring.key(s.epoch));
    try {
      return decodeRecord(await openRecord(s, key));
    } catch (error) {
      if (!(error instanceof SealError || error instanceof RangeError)) throw error;
      const what = s.kind === SEALED_NAME ? `device ${s.device}'s name` : `device ${s.device}'s event #${s.seq}`;
      throw new SealedRecordError('unopenable', `${what} does not open under this device's key of epoch ${s.epoch}: ${error.message}`, { device: s.device, seq: s.seq, epoch: s.epoch });
    }
  });
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
 * (or this device holds none of them). SealedForkCheck.check.
 * @param {Map<string, {digest: string, epoch: number}>} stored
 * @param {Map<string, bigint>} seqs @param {(device: string, seq: bigint) => LedgerEvent | undefined} eventAt
 * @param {KeyRing} ring
 * @returns {Promise<{device: string, seq: bigint} | null>}
 */
export async function sealedFork(stored, seqs, eventAt, ring) {
  for (const [device, theirs] of stored) {
    const seq = seqs.get(device);
    const own = seq !== undefined && seq > 0n ? eventAt(device, seq) : undefined;
    if (!own || seq === undefined) continue;
    const key = ring.key(theirs.epoch);
    if (!key) throw missingKey(theirs.epoch, ring);
    const [sealed] = await sealEvents([own], key);
    if (sealedDigest(sealed) !== theirs.digest) return { device, seq };
  }
  return null;
}
