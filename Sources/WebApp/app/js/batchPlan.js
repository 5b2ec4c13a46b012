// まとめて記録: one date for several stations, with the rules of the CLI's `complete --batch`
// (BatchLines.swift, StationEditing.commit; docs/ledger-cli.md "Many stations at once"):
// everything is checked before anything is written, and one refusal refuses the whole batch
// naming every station it concerns:
//
// 1. at least one station ('empty');
// 2. the date is a valid code (§2) and not after today in Japan ('invalid', 'future');
// 3. every station is a positive id the catalogue has, disabled ones included ('station');
// 4. no station twice ('duplicate');
// 5. the app's own rule (Schemas/phone-app.md "Edits write only what the person changed"): each
//    station still has the date the screen showed when it was picked ('stale').
//
// Then a station already at that date is left as it is (no event: its update time must not
// move) and every other one gets one event, all in one commit (ledgerBatch.js).

import { isInFuture, isValidCode } from './dates.js';

/** @typedef {import('./dates.js').CalendarDay} CalendarDay */
/** @typedef {'empty' | 'invalid' | 'future' | 'station' | 'duplicate' | 'stale'} BatchProblem */

/**
 * What a batch records: the stations whose date changes, and those already at that date.
 * @typedef {object} BatchPlan
 * @property {number} compDate
 * @property {number[]} changes
 * @property {number[]} unchanged
 */

/**
 * What the plan is made against.
 * @typedef {object} BatchContext
 * @property {(station: number) => number} compDateOf the station's date now
 * @property {(station: number) => boolean} knows whether the catalogue has the station
 * @property {CalendarDay} today in Japan
 * @property {Map<number, number>} [seen] the date the screen showed for each station
 */

/** A batch the rules refuse; nothing of it is written. */
export class BatchError extends Error {
  /**
   * @param {string} message for developers
   * @param {BatchProblem} reason
   * @param {number[]} [stations] the stations it concerns, in the order given
   */
  constructor(message, reason, stations = []) {
    super(message);
    this.name = 'BatchError';
    this.reason = reason;
    this.stations = stations;
  }
}

/**
 * Checks a batch and plans it, or throws BatchError.
 * @param {number[]} stations in the order picked
 * @param {number} compDate
 * @param {BatchContext} context
 * @returns {BatchPlan}
 */
export function planBatch(stations, compDate, context) {
  if (stations.length === 0) throw new BatchError('the batch lists no stations', 'empty');
  if (!isValidCode(compDate)) throw new BatchError(`${compDate} is not a valid completion date`, 'invalid');
  if (isInFuture(compDate, context.today)) throw new BatchError(`${compDate} is after today in Japan`, 'future');
  const unknown = stations.filter((s) => !Number.isInteger(s) || s <= 0 || s > 0xffffffff || !context.knows(s));
  if (unknown.length > 0) throw new BatchError(`stations not in the catalogue: ${unknown.join(', ')}`, 'station', unknown);
  /** @type {Set<number>} */
  const once = new Set();
  const twice = stations.filter((s) => (once.has(s) ? true : (once.add(s), false)));
  if (twice.length > 0) throw new BatchError(`stations given twice: ${twice.join(', ')}`, 'duplicate', twice);
  const seen = context.seen;
  const stale = seen ? stations.filter((s) => seen.has(s) && seen.get(s) !== context.compDateOf(s)) : [];
  if (stale.length > 0) throw new BatchError(`stations changed after they were shown: ${stale.join(', ')}`, 'stale', stale);
  /** @type {BatchPlan} */
  const plan = { compDate, changes: [], unchanged: [] };
  for (const s of stations) (context.compDateOf(s) === compDate ? plan.unchanged : plan.changes).push(s);
  return plan;
}
