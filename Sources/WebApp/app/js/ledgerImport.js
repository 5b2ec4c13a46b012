// Records the rows of an oritsubushi-tsv file in the replica, as the CLI's `import` appends them
// (Schemas/import-export.md): the plan of importPlan.js, made in the ledger's exclusive step
// against its values at that moment, becomes this device's events of origin `import`, each dated
// by its row's update_date, all in one commit with strict durability, read back (ownCommit.js; the person's own change:
// Schemas/phone-app.md "Saved means on the disk"). Nothing is written when the plan is empty, so
// a file imported twice records nothing the second time.

import { maxHlc } from './hlc.js';
import { EARLIEST_EVENT_MS, planImport } from './importPlan.js';
import { storedIdentity } from './ledger.js';
import { toStored } from './records.js';
import { commitOwn } from './ownCommit.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./tsvImport.js').TsvRow} TsvRow */
/** @typedef {import('./importPlan.js').ImportPlan} ImportPlan */

/**
 * Where and when an import runs: its time, the stations a row may name, the earliest time an
 * event may carry.
 * @typedef {object} ImportOptions
 * @property {number} nowMs
 * @property {((station: number) => boolean) | null} knows whether the catalogue has a station (disabled ones too); null: no catalogue
 * @property {number} [earliestMs] EARLIEST_EVENT_MS by default (the sync server's bound)
 */

/**
 * The options of an import against a catalogue, now.
 * @param {Catalog} catalog
 * @param {number} nowMs
 * @returns {ImportOptions}
 */
export function importOptions(catalog, nowMs) {
  return { nowMs, knows: (station) => catalog.station(station) !== undefined };
}

/**
 * What the rows would record now, without writing (the listing shown before 取り込む).
 * @param {Ledger} ledger
 * @param {TsvRow[]} rows
 * @param {ImportOptions} options
 * @returns {ImportPlan}
 */
export function previewImport(ledger, rows, options) {
  return planImport(rows, context(ledger, options));
}

/**
 * Plans and commits the import in one exclusive step; resolves once the store committed it.
 * @param {Ledger} ledger
 * @param {TsvRow[]} rows
 * @param {ImportOptions} options
 * @returns {Promise<{plan: ImportPlan, events: LedgerEvent[]}>}
 */
export function recordImport(ledger, rows, options) {
  return ledger.exclusive(async () => {
    const plan = planImport(rows, context(ledger, options));
    if (plan.drafts.length === 0) return { plan, events: [] };
    let seq = ledger.identity.nextSeq;
    let lastHlc = ledger.identity.lastHlc;
    /** @type {LedgerEvent[]} */
    const events = plan.drafts.map((d) => {
      const hlc = BigInt(d.ms) << 16n;
      lastHlc = maxHlc(lastHlc, hlc);
      return { kind: 'station_edit', device: ledger.device, seq: seq++, hlc, station: d.station, compDate: d.compDate, memo: d.memo, origin: 'import' };
    });
    const identity = { ...ledger.identity, nextSeq: seq, lastHlc };
    await commitOwn(ledger.store, { identity: storedIdentity(identity), put: events.map(toStored) });
    ledger.identity = identity;
    for (const e of events) ledger.add(e);
    ledger.changed([...new Set(plan.drafts.map((d) => d.station))]);
    return { plan, events };
  });
}

/**
 * @param {Ledger} ledger @param {ImportOptions} options
 * @returns {import('./importPlan.js').ImportContext}
 */
function context(ledger, options) {
  return {
    fold: ledger.fold, device: ledger.device, nextSeq: ledger.identity.nextSeq, nowMs: options.nowMs,
    knows: options.knows, earliestMs: options.earliestMs ?? EARLIEST_EVENT_MS,
  };
}
