// Settling a station's conflicts by keeping the current winners, as `oritsubushi conflicts
// resolve STATION --keep both` does (Schemas/merge.md §6.1, ConflictSettlement in Swift): one
// ordinary local station edit that re-states the winning value of each field in conflict, even
// though it changes nothing shown (Ledger.edit would skip it as unchanged, hence this path). It
// takes the next hlc, above every event held, and has seen both sides: the winner and the loser
// are this device's earlier events or were covered by a knowledge mark it wrote after a sync.
// Where no mark of this device covers them yet (a sync stopped between its pages and its mark),
// the owed mark is written first, in the same commit. So the edit wins the registers with
// nothing concurrent to it: no conflict remains at the station, here and, once the edit is
// synced, on every replica. It is the person's own edit, so it is saved as every own edit is:
// strictly, and read back (ownCommit.js; Schemas/phone-app.md "Saved means on the disk").

import { historyOf, knowledgeMark } from './causalHistory.js';
import { isValidCode } from './dates.js';
import { nextHlc } from './hlc.js';
import { EditError, storedIdentity } from './ledger.js';
import { stationConflicts } from './conflicts.js';
import { toStored } from './records.js';
import { commitOwn } from './ownCommit.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./conflicts.js').Conflict} Conflict */

/**
 * Appends the settling edit of `station` (and the knowledge mark it needs, if any) in one strict
 * commit, read back. Refused with EditError, writing nothing, when the station has no conflict.
 * @param {Ledger} ledger
 * @param {number} station
 * @param {number} now
 * @returns {Promise<{event: LedgerEvent, settled: Conflict[]}>}
 */
export function settleConflicts(ledger, station, now) {
  return ledger.exclusive(async () => {
    const settled = stationConflicts(ledger, station);
    if (settled.length === 0) throw new EditError(`station ${station} has no conflict to resolve`, 'no-conflict');
    /** @type {number | null} */
    let compDate = null;
    /** @type {string | null} */
    let memo = null;
    for (const conflict of settled) {
      if (conflict.field === 'date') compDate = conflict.winner.compDate ?? 0;
      else memo = conflict.winner.memo ?? '';
    }
    if (compDate !== null && !isValidCode(compDate)) throw new EditError(`station ${station}'s winning date ${compDate} is not a completion date`, 'date');

    const device = ledger.device;
    let { nextSeq, lastHlc } = ledger.identity;
    /** @type {LedgerEvent[]} */
    const put = [];
    const history = historyOf(ledger);
    const unseen = settled.some((c) => [c.winner, c.loser].some((side) => !history.hasSeen({ device, seq: nextSeq }, side)));
    if (ledger.identity.markOwed || unseen) {
      lastHlc = nextHlc(lastHlc, now);
      put.push(knowledgeMark(ledger, device, nextSeq, lastHlc));
      nextSeq++;
    }
    lastHlc = nextHlc(lastHlc, now);
    /** @type {LedgerEvent} */
    const event = { kind: 'station_edit', device, seq: nextSeq, hlc: lastHlc, station, compDate, memo, origin: 'user' };
    put.push(event);
    const identity = { ...ledger.identity, nextSeq: nextSeq + 1n, lastHlc, markOwed: false };
    await commitOwn(ledger.store, { identity: storedIdentity(identity), put: put.map(toStored) });
    ledger.identity = identity;
    for (const record of put) ledger.add(record);
    ledger.changed([station]);
    return { event, settled };
  });
}
