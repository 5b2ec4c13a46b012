// The "has seen" relation between events, from the event set alone (Schemas/merge.md §5), as
// CausalHistory states it in Swift: event W = (A, k) has seen event E = (D, s) iff D = A and
// s < k, or the latest knowledge mark of A with a seq below k holds D at s or more. Two events
// are concurrent when neither has seen the other. Every replica holding the same events answers
// the same way. Also the knowledge mark a device writes: its version vector at that point.

import { MAX_KNOWLEDGE_ENTRIES } from './records.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {{device: string, seq: bigint}} EventId */

export class CausalHistory {
  constructor() {
    /** @type {Map<string, Array<{seq: bigint, knowledge: Map<string, bigint>}>>} device → its marks by seq */
    this.marks = new Map();
  }

  /**
   * The marks of every device the ledger holds (each device's events are in seq order).
   * @param {Ledger} ledger
   */
  static of(ledger) {
    const history = new CausalHistory();
    for (const [device, events] of ledger.byDevice) {
      const marks = [];
      for (const e of events) {
        if (e.kind === 'knowledge_mark') marks.push({ seq: e.seq, knowledge: new Map(e.knowledge ?? []) });
      }
      if (marks.length) history.marks.set(device, marks);
    }
    return history;
  }

  /**
   * Whether `writer` was written by a device that already held `event`.
   * @param {EventId} writer @param {EventId} event
   */
  hasSeen(writer, event) {
    if (writer.device === event.device) return event.seq < writer.seq;
    const marks = this.marks.get(writer.device);
    if (!marks) return false;
    // The latest mark strictly before the writer.
    let low = 0, high = marks.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (marks[mid].seq < writer.seq) low = mid + 1; else high = mid;
    }
    if (low === 0) return false;
    return (marks[low - 1].knowledge.get(event.device) ?? 0n) >= event.seq;
  }

  /**
   * Neither event was written with knowledge of the other.
   * @param {EventId} a @param {EventId} b
   */
  areConcurrent(a, b) {
    return !this.hasSeen(a, b) && !this.hasSeen(b, a);
  }
}

/** @type {WeakMap<Ledger, {key: string, history: CausalHistory}>} */
const cache = new WeakMap();

/**
 * The ledger's causal history, built again only when its events changed (events are only added,
 * except by a re-identification, which changes the device).
 * @param {Ledger} ledger
 */
export function historyOf(ledger) {
  const key = `${ledger.device}:${ledger.eventCount()}`;
  const held = cache.get(ledger);
  if (held && held.key === key) return held.history;
  const history = CausalHistory.of(ledger);
  cache.set(ledger, { key, history });
  return history;
}

/**
 * The knowledge mark `device` writes at `seq`: the ledger's version vector without the device
 * itself, by device id, at most MAX_KNOWLEDGE_ENTRIES entries (Schemas/merge.md §9).
 * @param {Ledger} ledger @param {string} device @param {bigint} seq @param {bigint} hlc
 * @returns {LedgerEvent}
 */
export function knowledgeMark(ledger, device, seq, hlc) {
  /** @type {Array<[string, bigint]>} */
  const knowledge = [...ledger.versionVector()].filter(([d, s]) => d !== device && s > 0n)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1)).slice(0, MAX_KNOWLEDGE_ENTRIES);
  return { kind: 'knowledge_mark', device, seq, hlc, knowledge };
}
