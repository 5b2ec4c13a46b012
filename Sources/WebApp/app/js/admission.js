// The admission of received records (Schemas/merge.md §2.1): the checks of MergeAdmission in
// Swift, in the same order and with the same reason codes, which Conformance/admission.jsonl
// pins on both sides. The records come decoded by records.fromWire (the rule's first step);
// nothing here writes: Ledger.receive stores what this accepts, in one commit.

import { isInFuture, isValidCode, tokyoDay } from './dates.js';
import { hlcMillis } from './hlc.js';
import { MergeError } from './ledgerErrors.js';
import { eventKey, MAX_MEMO_BYTES, sameContent, utf8Length } from './records.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

/** How far ahead of the receiver's clock a received record may be dated (merge.md §2). */
export const CLOCK_LEAD_MS = 86_400_000;
/** 2000-01-01T00:00:00Z: no device's clock reads an earlier time (the push rules' bound). */
export const EARLIEST_MS = 946_684_800_000;

/**
 * The receiver's rules: `plausibility`, the sync server's checks of a push (no time before 2000,
 * no completion date after the latest day in Japan); `knows`, the stations the catalogue has.
 * @typedef {object} AdmissionRules
 * @property {boolean} plausibility
 * @property {(station: number) => boolean} knows
 */

/** @type {AdmissionRules} A device's rules, the app's: every positive station, no plausibility. */
export const DEVICE_RULES = { plausibility: false, knows: (station) => station > 0 };

/**
 * What the admission reads of the receiver (a Ledger).
 * @typedef {object} Receiver
 * @property {(device: string) => bigint} held the highest seq held of a device
 * @property {(device: string, seq: bigint) => LedgerEvent | undefined} event
 * @property {Map<string, LedgerEvent>} names every device's newest name record held
 */

/**
 * @typedef {object} Admitted
 * @property {LedgerEvent[]} events the new events, by (device, seq)
 * @property {LedgerEvent[]} names the names newer than the receiver's, by device
 * @property {number} duplicates received copies of held events
 */

/**
 * Admits `records` into `receiver`, or throws MergeError with the reason of the first check that
 * fails (merge.md §2.1, steps 2 to 7).
 * @param {Receiver} receiver
 * @param {LedgerEvent[]} records decoded and validated (records.fromWire)
 * @param {number} now the receiver's clock, Unix ms
 * @param {AdmissionRules} [rules]
 * @returns {Admitted}
 */
export function admit(receiver, records, now, rules = DEVICE_RULES) {
  /** @type {Map<string, LedgerEvent>} */
  const received = new Map();
  /** @type {Map<string, LedgerEvent>} */
  const heldCopies = new Map();
  /** @type {LedgerEvent[]} */
  const fresh = [];
  let duplicates = 0;
  for (const r of records) {
    if (r.kind === 'device_name') {
      const other = received.get(r.device);
      if (!other || other.hlc < r.hlc) received.set(r.device, r);
    } else if (r.seq > receiver.held(r.device)) {
      fresh.push(r);
    } else {
      const key = eventKey(r.device, r.seq);
      const other = heldCopies.get(key);
      if (other && !sameContent(other, r)) throw differs(r);
      heldCopies.set(key, r);
      duplicates++;
    }
  }
  for (const r of heldCopies.values()) {
    const stored = receiver.event(r.device, r.seq);
    if (!stored || !sameContent(stored, r)) throw differs(r);
  }
  const label = (/** @type {string} */ device) => {
    const name = received.get(device)?.name ?? receiver.names.get(device)?.name;
    return name ? `'${name}' (${device})` : device;
  };
  fresh.sort(byDeviceAndSeq);
  /** @type {LedgerEvent[]} */
  const events = [];
  for (const r of fresh) {
    const previous = events[events.length - 1];
    if (previous && previous.device === r.device && previous.seq === r.seq) {
      if (!sameContent(previous, r)) {
        throw new MergeError(`event ${r.device}#${r.seq} appears twice in what the server sent, with different content; nothing was saved`, 'differing-duplicate', r);
      }
      continue;
    }
    const expected = (previous && previous.device === r.device ? previous.seq : receiver.held(r.device)) + 1n;
    if (r.seq !== expected) {
      throw new MergeError(`the server sent device ${label(r.device)}'s event #${r.seq} where #${expected} must come next; nothing was saved`, 'seq-gap', r);
    }
    checkClock(r, now, rules, label);
    checkContent(r, now, rules);
    events.push(r);
  }
  /** @type {LedgerEvent[]} */
  const names = [];
  for (const n of [...received.values()].sort(byDeviceAndSeq)) {
    checkClock(n, now, rules, label);
    const held = receiver.names.get(n.device);
    if (!held || held.hlc < n.hlc) names.push(n);
  }
  return { events, names, duplicates };
}

/** @param {LedgerEvent} a @param {LedgerEvent} b */
function byDeviceAndSeq(a, b) {
  return a.device < b.device ? -1 : a.device > b.device ? 1 : a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0;
}

/**
 * The clock checks of an event or name (merge.md §2.1 steps 5.3 and 5.4).
 * @param {LedgerEvent} r @param {number} now @param {AdmissionRules} rules
 * @param {(device: string) => string} label
 */
function checkClock(r, now, rules, label) {
  const ms = hlcMillis(r.hlc);
  if (rules.plausibility && ms < EARLIEST_MS) {
    throw new MergeError(`device ${label(r.device)} sent records dated ${new Date(ms).toISOString()}, before 2000-01-01, which no device's clock reads; nothing was saved`, 'before-2000', r);
  }
  if (ms > now + CLOCK_LEAD_MS) {
    throw new MergeError(`device ${label(r.device)} sent records dated ${new Date(ms).toISOString()}, more than a day ahead of this device's clock; if this device's clock is slow, set it right and sync again; nothing was saved`, 'clock-ahead', r);
  }
}

/**
 * The content checks of a station edit (merge.md §2.1 step 5.5).
 * @param {LedgerEvent} r @param {number} now @param {AdmissionRules} rules
 */
function checkContent(r, now, rules) {
  if (r.kind !== 'station_edit') return;
  const station = r.station ?? 0, compDate = r.compDate ?? null, memo = r.memo ?? null;
  const valid = station > 0 && (compDate !== null || memo !== null) && (compDate === null || isValidCode(compDate))
    && (memo === null || utf8Length(memo) <= MAX_MEMO_BYTES);
  if (!valid) throw new MergeError(`event ${r.device}#${r.seq} is not a valid station edit; nothing was saved`, 'invalid-edit', r);
  if (rules.plausibility && compDate !== null && isInFuture(compDate, tokyoDay(now + CLOCK_LEAD_MS))) {
    throw new MergeError(`event ${r.device}#${r.seq}: the completion date ${compDate} is in the future in Japan; nothing was saved`, 'future-date', r);
  }
  if (!rules.knows(station)) {
    throw new MergeError(`event ${r.device}#${r.seq} is for station ${station}, which the catalogue does not know; nothing was saved`, 'unknown-station', r);
  }
}

/** @param {LedgerEvent} r */
function differs(r) {
  return new MergeError(`event ${r.device}#${r.seq} exists on this device and on the server with different content (a corrupt or forged replica); nothing was saved`, 'differing-copy', r);
}
