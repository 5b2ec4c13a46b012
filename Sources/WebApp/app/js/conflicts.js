// A station's conflicts (Schemas/merge.md §6), as ConflictDetector finds them in Swift: for each
// field (date, then memo), W is the edit that wins it (the fold's order, completionFold.js); every other
// edit that sets the field to a different value and is concurrent with W (causalHistory.js) is
// a conflict (station, field, W, loser). Equal values are no conflict; memos are compared as
// Swift compares strings, by canonical equivalence (NFC and NFD forms of one text are equal).
// The edits that lost stay in the log; an edit that has seen both sides settles the conflict
// (conflictSettlement.js).

import { historyOf } from './causalHistory.js';
import { compareKeys, orderKey } from './completionFold.js';
import { eventKey } from './records.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./causalHistory.js').CausalHistory} CausalHistory */
/** @typedef {'date' | 'memo'} ConflictField */

/**
 * @typedef {object} Conflict
 * @property {number} station
 * @property {ConflictField} field
 * @property {LedgerEvent} winner
 * @property {LedgerEvent} loser
 */

/** @type {ConflictField[]} */
const FIELDS = ['date', 'memo'];

/** @param {LedgerEvent} e @param {ConflictField} field */
function sets(e, field) {
  return field === 'date' ? e.compDate !== null && e.compDate !== undefined : e.memo !== null && e.memo !== undefined;
}

/** @param {LedgerEvent} a @param {LedgerEvent} b @param {ConflictField} field */
function sameValue(a, b, field) {
  if (field === 'date') return a.compDate === b.compDate;
  return a.memo === b.memo || String(a.memo).normalize('NFD') === String(b.memo).normalize('NFD');
}

/**
 * The conflicts of one station's edits, by field (date before memo), then by the loser's order.
 * @param {LedgerEvent[]} edits the station's station edits, any order
 * @param {CausalHistory} history
 * @returns {Conflict[]}
 */
export function conflictsAmong(edits, history) {
  /** @type {Conflict[]} */
  const out = [];
  for (const field of FIELDS) {
    const setting = edits.filter((e) => sets(e, field)).map(orderKey).sort(compareKeys);
    const winner = setting.pop();
    if (!winner) continue;
    for (const { event: loser } of setting) {
      if (sameValue(loser, winner.event, field) || !history.areConcurrent(winner.event, loser)) continue;
      out.push({ station: /** @type {number} */ (winner.event.station), field, winner: winner.event, loser });
    }
  }
  return out;
}

/**
 * The station's conflicts in this replica.
 * @param {Ledger} ledger @param {number} station
 */
export function stationConflicts(ledger, station) {
  const edits = ledger.byStation.get(station);
  return edits ? conflictsAmong(edits, historyOf(ledger)) : [];
}

/**
 * The edits that lost a conflict: event key (records.eventKey) → the fields it lost.
 * @param {Conflict[]} conflicts
 * @returns {Map<string, ConflictField[]>}
 */
export function lostEdits(conflicts) {
  /** @type {Map<string, ConflictField[]>} */
  const out = new Map();
  for (const c of conflicts) {
    const key = eventKey(c.loser.device, c.loser.seq);
    const fields = out.get(key);
    if (fields) { if (!fields.includes(c.field)) fields.push(c.field); } else out.set(key, [c.field]);
  }
  return out;
}
