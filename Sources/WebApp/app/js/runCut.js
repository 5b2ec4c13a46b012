// What a sealed push seals as what (Schemas/encryption.md §3.5 "Who makes runs"), as Swift's
// SyncSealing cuts it: each device's events, in seq order, go in runs (kind 7) of consecutive
// seqs; a run ends before its records' raw lengths would together pass 60,000 bytes (so its
// padded block stays within 65,472); an event that would be a run of its own
// is sealed alone (kind 5), and a device name always is (kind 6). The cut is a function of the
// events, so a retried push seals the same records. Each piece's sealed length is known before it
// is sealed (a run's block is made here, once): a push's pages are cut by it (pushPages.js).

import { recordLength } from './blockEncoder.js';
import { runBlock } from './crypto/runSealer.js';
import { fixedBody, MAX_RUN_RECORD_BYTES, PADDING_UNIT, SEALED_EVENT, SEALED_NAME, SEALED_RUN, TAG_BYTES } from './sealedLayout.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

/**
 * What one sealed record of a push will hold: one event (sealed alone) or a run's events.
 * @typedef {object} SealPiece
 * @property {LedgerEvent[]} events one event or name, or a run of two or more events
 * @property {Uint8Array} [block] a run's block (runSealer.runBlock), which it seals
 * @property {number} length the sealed record's length in the raw record stream
 */

/** @param {number} count */
const padded = (count) => Math.ceil(count / PADDING_UNIT) * PADDING_UNIT;

/**
 * The length of `event` sealed alone, in the raw record stream: what a page is cut by, since
 * ciphertext does not compress (a memo-less station edit: 116 bytes).
 * @param {LedgerEvent} event
 */
function sealedLength(event) {
  const kind = event.kind === 'device_name' ? SEALED_NAME : SEALED_EVENT;
  return 4 + fixedBody(kind) + padded(recordLength(event)[0]) + TAG_BYTES;
}

/**
 * `events` (names, and each device's events in rising seqs) cut into what each sealed record of
 * a push holds, in order.
 * @param {LedgerEvent[]} events
 * @returns {SealPiece[]}
 */
export function cutRuns(events) {
  /** @type {SealPiece[]} */
  const pieces = [];
  /** @type {LedgerEvent[]} */
  let run = [];
  let runBytes = 0;
  const close = () => {
    if (run.length === 1) pieces.push({ events: run, length: sealedLength(run[0]) });
    if (run.length > 1) {
      const block = runBlock(run);
      pieces.push({ events: run, block, length: 4 + fixedBody(SEALED_RUN) + padded(block.length) + TAG_BYTES });
    }
    run = [];
    runBytes = 0;
  };
  for (const e of events) {
    if (e.kind === 'device_name') {
      close();
      pieces.push({ events: [e], length: sealedLength(e) });
      continue;
    }
    const [bytes] = recordLength(e);
    const previous = run[run.length - 1];
    if (previous && (e.device !== previous.device || e.seq !== previous.seq + 1n || runBytes + bytes > MAX_RUN_RECORD_BYTES)) close();
    run.push(e);
    runBytes += bytes;
  }
  close();
  return pieces;
}
