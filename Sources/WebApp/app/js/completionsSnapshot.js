// The completions snapshot: the fold the map draws from (per station its date, memo and the time
// of its later winning edit), kept beside the replica so that the app draws the map before it
// has decoded every record (Schemas/phone-app.md "The completions snapshot"). It is stamped, in
// the very transaction that writes it, with the state of the stored records it reflects (the
// chunks' count and last key, the per-record values' count and last key); at open it is used only
// when the replica read has exactly that state, and the records are decoded afterwards all the
// same, their fold replacing it.

/** @typedef {import('./completionFold.js').Fold} Fold */
/** @typedef {import('./store.js').Snapshot} Snapshot */

/** The meta key the snapshot is stored under. */
export const COMPLETIONS_KEY = 'completions';
/** The version of the stored form; another is ignored. */
const FORMAT = 1;

/**
 * The stored records a snapshot reflects (Schemas/phone-app.md "The completions snapshot").
 * @typedef {object} ReplicaState
 * @property {number} chunks how many values the `chunks` store holds
 * @property {number} lastChunk the largest key among them, 0 when none
 * @property {number} records how many values the `records` store holds
 * @property {string} lastRecord the largest key among them (string order), "" when none
 */

/**
 * The snapshot as the Ledger hands it to the store, which stamps it with the state (`replica`).
 * @typedef {object} CompletionsRows
 * @property {Uint32Array} stations every station with a completion register set, ascending
 * @property {Uint32Array} dates its comp_date code, 0 when no edit set the date
 * @property {string[]} memos its memo, "" when no edit set the memo
 * @property {Float64Array} updated Unix ms of its later winning edit (the hlc's time)
 */

/** @typedef {CompletionsRows & {format: number, replica: ReplicaState}} StoredCompletions */

/**
 * The rows of a fold, as the store keeps them.
 * @param {Fold} fold
 * @returns {CompletionsRows}
 */
export function completionsRows(fold) {
  const ids = [...fold.stations.keys()].sort((a, b) => a - b);
  const stations = new Uint32Array(ids), dates = new Uint32Array(ids.length), updated = new Float64Array(ids.length);
  /** @type {string[]} */
  const memos = new Array(ids.length);
  ids.forEach((id, i) => {
    const row = /** @type {import('./completionFold.js').Completion} */ (fold.get(id));
    dates[i] = row.compDate;
    memos[i] = row.memo;
    updated[i] = Math.max(row.dateWinner?.ms ?? 0, row.memoWinner?.ms ?? 0);
  });
  return { stations, dates, memos, updated };
}

/**
 * The value stored: the rows stamped with the state of the records they reflect.
 * @param {CompletionsRows} rows @param {ReplicaState} replica
 * @returns {StoredCompletions}
 */
export function stampedCompletions(rows, replica) {
  return { format: FORMAT, replica, ...rows };
}

/**
 * The state of a set of stored keys: how many, and the largest.
 * @param {Iterable<number>} chunkKeys @param {Iterable<string>} recordKeys
 * @returns {ReplicaState}
 */
export function replicaState(chunkKeys, recordKeys) {
  const state = { chunks: 0, lastChunk: 0, records: 0, lastRecord: '' };
  for (const key of chunkKeys) { state.chunks++; if (key > state.lastChunk) state.lastChunk = key; }
  for (const key of recordKeys) { state.records++; if (key > state.lastRecord) state.lastRecord = key; }
  return state;
}

/**
 * The state of a replica as read (store.load).
 * @param {Snapshot} snapshot
 */
export function loadedState(snapshot) {
  return replicaState(snapshot.chunkKeys, snapshot.records.map((r) => r.key));
}

/**
 * The snapshot stored in `snapshot`'s settings, when it reflects exactly the records read with it
 * and is whole; null otherwise (absent, of another format, stale or damaged: never trusted).
 * @param {Snapshot} snapshot
 * @returns {CompletionsView | null}
 */
export function matchingCompletions(snapshot) {
  const value = /** @type {Partial<StoredCompletions> | undefined} */ (snapshot.meta.get(COMPLETIONS_KEY));
  if (!value || value.format !== FORMAT || !value.replica) return null;
  const state = loadedState(snapshot), stamped = value.replica;
  if (stamped.chunks !== state.chunks || stamped.lastChunk !== state.lastChunk
    || stamped.records !== state.records || stamped.lastRecord !== state.lastRecord) return null;
  const { stations, dates, memos, updated } = value;
  if (!(stations instanceof Uint32Array) || !(dates instanceof Uint32Array) || !(updated instanceof Float64Array) || !Array.isArray(memos)) return null;
  const n = stations.length;
  if (dates.length !== n || updated.length !== n || memos.length !== n || !memos.every((m) => typeof m === 'string')) return null;
  return new CompletionsView({ stations, dates, memos, updated });
}

/**
 * The completions of a snapshot, read as the fold is read (Fold's compDate, memo and
 * updateSeconds), while the replica's records are still being decoded.
 */
export class CompletionsView {
  /** @param {CompletionsRows} rows */
  constructor(rows) {
    /** @type {Map<number, number>} station → its row */
    this.rowOf = new Map();
    rows.stations.forEach((id, i) => this.rowOf.set(id, i));
    this.rows = rows;
  }

  /** @param {number} station */
  compDate(station) {
    const i = this.rowOf.get(station);
    return i === undefined ? 0 : this.rows.dates[i];
  }

  /** @param {number} station */
  memo(station) {
    const i = this.rowOf.get(station);
    return i === undefined ? '' : this.rows.memos[i];
  }

  /** @param {number} station */
  updateSeconds(station) {
    const i = this.rowOf.get(station);
    return i === undefined ? 0 : Math.floor(this.rows.updated[i] / 1000);
  }
}
