// The fold (Schemas/merge.md §4): per station, the completion date and the memo are two
// last-writer-wins registers ordered by (hlc, device, seq) as unsigned integers; the greatest
// station_edit that sets a field wins it (CompletionRegister in LedgerCore). Other record kinds
// set nothing. The result depends only on the set of events, never on their arrival order.

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

/**
 * An event's position in the order. The hlc is split into its millisecond and counter parts,
 * both exact Numbers, so that comparing two keys needs no BigInt arithmetic.
 * @typedef {object} OrderKey
 * @property {number} ms
 * @property {number} counter
 * @property {string} device fixed-width lowercase hex: string order is numeric order
 * @property {bigint} seq
 * @property {LedgerEvent} event
 */

/**
 * One station's current completion.
 * @typedef {object} Completion
 * @property {number} compDate 0 while no event set the date
 * @property {string} memo "" while no event set the memo
 * @property {OrderKey | null} dateWinner
 * @property {OrderKey | null} memoWinner
 */

/** @param {LedgerEvent} e @returns {OrderKey} */
export function orderKey(e) {
  return { ms: Number(e.hlc >> 16n), counter: Number(e.hlc & 0xffffn), device: e.device, seq: e.seq, event: e };
}

/**
 * Negative, zero or positive as a sorts before, with or after b.
 * @param {OrderKey} a @param {OrderKey} b
 */
export function compareKeys(a, b) {
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  if (a.counter !== b.counter) return a.counter < b.counter ? -1 : 1;
  if (a.device !== b.device) return a.device < b.device ? -1 : 1;
  if (a.seq !== b.seq) return a.seq < b.seq ? -1 : 1;
  return 0;
}

/** The registers of every station that has at least one station edit. */
export class Fold {
  constructor() {
    /** @type {Map<number, Completion>} */
    this.stations = new Map();
  }

  /**
   * Applies one record; returns whether a register changed winner.
   * @param {LedgerEvent} e
   */
  apply(e) {
    if (e.kind !== 'station_edit' || e.station === undefined) return false;
    const setsDate = e.compDate !== null && e.compDate !== undefined;
    const setsMemo = e.memo !== null && e.memo !== undefined;
    if (!setsDate && !setsMemo) return false;
    let row = this.stations.get(e.station);
    if (!row) {
      row = { compDate: 0, memo: '', dateWinner: null, memoWinner: null };
      this.stations.set(e.station, row);
    }
    const key = orderKey(e);
    let changed = false;
    if (setsDate && (row.dateWinner === null || compareKeys(key, row.dateWinner) > 0)) {
      row.compDate = /** @type {number} */ (e.compDate);
      row.dateWinner = key;
      changed = true;
    }
    if (setsMemo && (row.memoWinner === null || compareKeys(key, row.memoWinner) > 0)) {
      row.memo = /** @type {string} */ (e.memo);
      row.memoWinner = key;
      changed = true;
    }
    return changed;
  }

  /** A fold of its own with the same registers, for a change not committed yet. */
  copy() {
    const fold = new Fold();
    for (const [station, row] of this.stations) fold.stations.set(station, { ...row });
    return fold;
  }

  /** @param {number} station @returns {Completion | undefined} */
  get(station) {
    return this.stations.get(station);
  }

  /**
   * The station's comp_date, 0 when it has none.
   * @param {number} station
   */
  compDate(station) {
    const row = this.stations.get(station);
    return row ? row.compDate : 0;
  }

  /**
   * The station's memo, "" when it has none.
   * @param {number} station
   */
  memo(station) {
    const row = this.stations.get(station);
    return row ? row.memo : '';
  }

  /**
   * update_date of the original schema: Unix seconds of the later winning event, 0 if none.
   * @param {number} station
   */
  updateSeconds(station) {
    const row = this.stations.get(station);
    if (!row) return 0;
    const ms = Math.max(row.dateWinner ? row.dateWinner.ms : 0, row.memoWinner ? row.memoWinner.ms : 0);
    return Math.floor(ms / 1000);
  }

  /**
   * Every folded station in s_id order.
   * @returns {Array<{station: number, compDate: number, memo: string}>}
   */
  rows() {
    return [...this.stations.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([station, row]) => ({ station, compDate: row.compDate, memo: row.memo }));
  }
}

/**
 * Folds a set of events.
 * @param {Iterable<LedgerEvent>} events
 */
export function foldEvents(events) {
  const fold = new Fold();
  for (const e of events) fold.apply(e);
  return fold;
}
