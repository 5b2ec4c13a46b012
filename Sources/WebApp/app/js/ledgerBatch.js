// Records one date for several stations in the replica (まとめて記録): the plan of batchPlan.js,
// made in the ledger's exclusive step against its values at that moment, becomes one event of
// this device per station that changes (origin `user`, consecutive seqs, each at the next hlc),
// all in one commit with strict durability, read back (ownCommit.js; Schemas/phone-app.md "Saved
// means on the disk"), as `complete --batch` appends a batch in one append with one fsync.

import { planBatch } from './batchPlan.js';
import { tokyoDay } from './dates.js';
import { nextHlc } from './hlc.js';
import { storedIdentity } from './ledger.js';
import { toStored } from './records.js';
import { commitOwn } from './ownCommit.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./batchPlan.js').BatchPlan} BatchPlan */

/**
 * Plans and commits a batch in one exclusive step; resolves once the store committed it (no
 * commit when nothing changes). Throws BatchError (nothing written) or the store's error.
 * @param {Ledger} ledger
 * @param {number[]} stations
 * @param {number} compDate
 * @param {number} now Unix milliseconds
 * @param {{knows: (station: number) => boolean, seen?: Map<number, number>}} options
 * @returns {Promise<{plan: BatchPlan, events: LedgerEvent[]}>}
 */
export function editMany(ledger, stations, compDate, now, options) {
  return ledger.exclusive(async () => {
    const plan = planBatch(stations, compDate, {
      compDateOf: (s) => ledger.fold.compDate(s), knows: options.knows, today: tokyoDay(now), seen: options.seen,
    });
    if (plan.changes.length === 0) return { plan, events: [] };
    let seq = ledger.identity.nextSeq;
    let lastHlc = ledger.identity.lastHlc;
    /** @type {LedgerEvent[]} */
    const events = plan.changes.map((station) => {
      lastHlc = nextHlc(lastHlc, now);
      return { kind: 'station_edit', device: ledger.device, seq: seq++, hlc: lastHlc, station, compDate, memo: null, origin: 'user' };
    });
    const identity = { ...ledger.identity, nextSeq: seq, lastHlc };
    await commitOwn(ledger.store, { identity: storedIdentity(identity), put: events.map(toStored) });
    ledger.identity = identity;
    for (const e of events) ledger.add(e);
    ledger.changed(plan.changes);
    return { plan, events };
  });
}
