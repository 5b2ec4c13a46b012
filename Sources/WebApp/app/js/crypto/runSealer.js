// Seals one device's consecutive events as one sealed run (kind 7) and opens it again
// (Schemas/encryption.md §3.5), as Swift's sealer of runs. The plaintext is the canonical block of
// the events (Schemas/segment-format.md §2a: the block a writer makes of exactly those records, its
// device table holding the one device), so, as for a single sealed record, every device that seals
// the same events under one epoch writes the same bytes and the server compares copies by bytes.

import { SealError } from './sealError.js';
import { equalBytes, isU32 } from './bytes.js';
import { authenticatedPlaintext, paddedLength, sealPadded } from './recordSealer.js';
import { encodeBlocks } from '../blockEncoder.js';
import { BlockError, blockSteps } from '../blockDecoder.js';
import { runSteps } from '../timeSlice.js';
import { MAX_RUN_PLAINTEXT, SEALED_RUN } from '../sealedLayout.js';

/** @typedef {import('./dataKey.js').DataKey} DataKey */
/** @typedef {import('./recordSealer.js').SealedRecord} SealedRecord */
/** @typedef {import('../records.js').LedgerEvent} LedgerEvent */

const MAX_U64 = (1n << 64n) - 1n;
/** A block's header: magic, N, R, D, reserved, the lengths of columns 3 to 9 (§2a). */
const BLOCK_HEADER = 44;

/**
 * The canonical block of a run's events: one block, its device table the one device. Throws
 * SealError `record` unless `events` are events (kinds 1, 2 and 4) of one device whose seqs rise
 * one by one, or when the padded block would pass MAX_RUN_PLAINTEXT bytes (its stored body would
 * not fit the header's u16).
 * @param {LedgerEvent[]} events
 */
export function runBlock(events) {
  if (events.length === 0) throw new SealError('record', 'a run holds no event');
  const [head] = events;
  events.forEach((e, i) => {
    if (e.kind === 'device_name') throw new SealError('record', 'a run holds a device name');
    if (e.device !== head.device) throw new SealError('record', 'a run holds events of two devices');
    if (e.seq !== head.seq + BigInt(i)) throw new SealError('record', `a run's seqs are not consecutive at #${e.seq}`);
  });
  const block = encodeBlocks(events);
  if (paddedLength(block.length) > MAX_RUN_PLAINTEXT) {
    throw new SealError('record', `the run of device ${head.device} seqs ${head.seq}–${events[events.length - 1].seq} is too long to seal (a block of ${block.length} bytes)`);
  }
  return block;
}

/**
 * `events` (one device's `first … last`, in order) sealed as one run under `dataKey`.
 * Throws SealError `record` as runBlock does.
 * @param {LedgerEvent[]} events @param {DataKey} dataKey
 * @returns {Promise<SealedRecord>}
 */
export async function sealRun(events, dataKey) {
  return sealRunBlock(runBlock(events), events, dataKey);
}

/**
 * The run of `events` sealed from `block`, the runBlock of those events (made once by a push
 * that weighs its pages by it, runCut.js).
 * @param {Uint8Array} block @param {LedgerEvent[]} events @param {DataKey} dataKey
 * @returns {Promise<SealedRecord>}
 */
export async function sealRunBlock(block, events, dataKey) {
  const clear = {
    kind: /** @type {7} */ (SEALED_RUN), device: events[0].device,
    first: events[0].seq, seq: events[events.length - 1].seq, epoch: dataKey.epoch,
  };
  return sealPadded(clear, block, dataKey);
}

/**
 * The events the run `sealed` holds, checked as §3.5 says, in Swift's order: `length`,
 * `unauthentic`, `noncanonical`, `padding`, `record`, `kind`, `identity` (SealError). `dataKey`
 * must be the key of its epoch. A clear field of the wrong type or range is a RangeError.
 * @param {SealedRecord} sealed @param {DataKey} dataKey
 * @returns {Promise<LedgerEvent[]>}
 */
export async function openRun(sealed, dataKey) {
  const { kind, device, seq: last, first, epoch } = sealed;
  if (kind !== SEALED_RUN || !/^[0-9a-f]{16}$/.test(device) || typeof first !== 'bigint' || typeof last !== 'bigint'
    || first < 0n || first > MAX_U64 || last < 0n || last > MAX_U64 || !isU32(epoch)) {
    throw new RangeError('a sealed run has a clear field out of range');
  }
  // 1–3 as for one sealed record (§3.3).
  const plaintext = await authenticatedPlaintext(sealed, dataKey);
  // 4. The block's length from its header, then exactly the padding a sealer writes: a longer
  // one would be a second sealed form of the run.
  const length = blockLength(plaintext);
  if (length === null || length > plaintext.length || plaintext.length !== paddedLength(length) || plaintext.subarray(length).some((b) => b !== 0)) {
    throw new SealError('padding');
  }
  // 5. The block as §2a reads it, records as §3 accepts them, and the one layout they have.
  const block = plaintext.subarray(0, length);
  /** @type {LedgerEvent[]} */
  const events = [];
  try {
    runSteps(blockSteps(block, events));
  } catch (error) {
    if (error instanceof BlockError) throw new SealError('record', error.message);
    throw error;
  }
  if (!equalBytes(encodeBlocks(events), block)) throw new SealError('record', "the run's block is not laid out as a writer lays it out");
  // 6, 7.
  if (events.some((e) => e.kind === 'device_name')) throw new SealError('kind');
  if (BigInt(events.length) !== last - first + 1n || events.some((e, i) => e.device !== device || e.seq !== first + BigInt(i))) {
    throw new SealError('identity');
  }
  return events;
}

/**
 * A block's length as its header gives it (44 + 8D + 3N + the lengths of columns 3 to 9), or
 * null when the plaintext cannot hold the header or does not start with ORB2 (as Swift's
 * RunBlockCodec.blockLength: then the padding cannot be told, step 4).
 * @param {Uint8Array} plaintext
 */
function blockLength(plaintext) {
  if (plaintext.length < BLOCK_HEADER || String.fromCharCode(...plaintext.subarray(0, 4)) !== 'ORB2') return null;
  const view = new DataView(plaintext.buffer, plaintext.byteOffset, BLOCK_HEADER);
  let length = BLOCK_HEADER + 3 * view.getUint32(4, true) + 8 * view.getUint16(12, true);
  for (let i = 0; i < 7; i++) length += view.getUint32(16 + 4 * i, true);
  return length;
}
