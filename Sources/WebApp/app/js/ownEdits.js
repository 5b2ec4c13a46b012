// The person's own edits as the screens ask for them (駅's edits, まとめて記録, the import,
// 競合を解決): each saved strictly and read back by the ledger's step (ownCommit.js), shown at once
// even while a sync holds the replica's change notices (changeBatch.js), sent with the next sync,
// and answered in one sentence of the app's language (refusals.js). An edit or a batch the
// storage refuses is kept in memory and tried again until saved (unsavedEdits.js;
// Schemas/phone-app.md "Saved means on the disk").

import { BatchError } from './batchPlan.js';
import { batchRefusalText, batchResultText } from './batchText.js';
import { settleConflicts } from './conflictSettlement.js';
import { importOptions, recordImport } from './ledgerImport.js';
import { editMany } from './ledgerBatch.js';
import { EditError } from './ledger.js';
import { resultText } from './importReport.js';
import { editRefusalText, keptEditText, refusalText, storageText } from './refusals.js';
import { StoreError } from './store.js';
import { UnsavedEdits } from './unsavedEdits.js';
import { t } from './i18n.js';

/** @typedef {import('./app.js').App} App */

/** How often edits the storage refused are tried again. */
const UNSAVED_RETRY_MS = 5000;

export class OwnEdits {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    /** The person's edits the storage refused, tried again until saved (unsavedEdits.js). */
    this.unsaved = new UnsavedEdits();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.unsavedTimer = null;
  }

  /**
   * Records an edit; the answer says whether it was saved (committed to storage), unchanged, or
   * refused, in one sentence. `seen` holds the values the screen showed for the fields it
   * changes; the edit is refused (`stale`) when the station no longer has them.
   * @param {number} station
   * @param {{compDate?: number | null, memo?: string | null}} fields
   * @param {{compDate?: number, memo?: string}} [seen]
   * @returns {Promise<{ok: boolean, changed: boolean, stale?: boolean, kept?: boolean, message: string}>}
   */
  async edit(station, fields, seen) {
    try {
      const before = this.app.compDate(station);
      const event = await this.app.replica.edit(station, fields, this.app.now(), seen);
      this.app.changes.flush(); // the person's own edit shows at once, even during a sync
      if (event && before === 0 && this.app.compDate(station) > 0) this.app.emit('completed', [station]);
      // The date picker offers the last date given again, for entering many stations in a row.
      if (fields.compDate) await this.app.replica.setMeta({ lastDate: fields.compDate }).catch(() => {});
      if (!event) return { ok: true, changed: false, message: t('unchanged') };
      this.app.scheduleSync();
      return { ok: true, changed: true, message: t('saved') };
    } catch (error) {
      if (error instanceof StoreError) {
        // Never dropped: kept in memory and tried again until the storage takes it.
        this.unsaved.keep(station, fields);
        this.scheduleUnsavedRetry();
        const message = keptEditText(error);
        this.app.emit('storage', message);
        return { ok: false, changed: false, kept: true, message };
      }
      if (error instanceof EditError) {
        return { ok: false, changed: false, ...(error.reason === 'stale' ? { stale: true } : {}), message: editRefusalText(error) };
      }
      throw error;
    }
  }

  /**
   * Settles the station's conflicts by keeping the current values (conflictSettlement.js), as
   * `oritsubushi conflicts resolve STATION` does, in one strict commit read back as every own
   * edit is; the edit goes out with the next sync. A storage failure is said and nothing is kept
   * to retry: the station still shows its conflict, and the button settles it again.
   * @param {number} station
   * @returns {Promise<{ok: boolean, message: string}>}
   */
  async resolveConflicts(station) {
    try {
      await settleConflicts(this.app.replica, station, this.app.now());
      this.app.changes.flush();
      this.app.scheduleSync();
      return { ok: true, message: t('conflict.resolved') };
    } catch (error) {
      if (error instanceof StoreError) {
        const message = storageText(error);
        this.app.emit('storage', message);
        return { ok: false, message };
      }
      if (error instanceof EditError) return { ok: false, message: editRefusalText(error) };
      throw error;
    }
  }

  /**
   * まとめて記録: one date for the stations picked, one event for each that changes, all in one
   * strict commit (ledgerBatch.js, the rules of `complete --batch`); the answer says in one
   * sentence what was recorded, or why nothing was. `seen` holds the date each station's row
   * showed; the batch is refused (`stale`) when one no longer has it. The date is remembered
   * for the date pickers, as an edit's is.
   * @param {number[]} stations
   * @param {number} compDate
   * @param {Map<number, number>} [seen]
   * @returns {Promise<{ok: boolean, recorded: number, stale?: boolean, kept?: boolean, message: string}>}
   */
  async recordMany(stations, compDate, seen) {
    const catalog = this.app.catalog;
    if (!catalog) return { ok: false, recorded: 0, message: t('noCatalog') };
    try {
      const { plan, events } = await editMany(this.app.replica, stations, compDate, this.app.now(),
        { knows: (s) => catalog.station(s) !== undefined, seen });
      this.app.changes.flush(); // shown at once, even during a sync
      if (compDate > 0) await this.app.replica.setMeta({ lastDate: compDate }).catch(() => {});
      if (events.length > 0) this.app.scheduleSync();
      return { ok: true, recorded: events.length, message: batchResultText(plan) };
    } catch (error) {
      if (error instanceof BatchError) {
        return { ok: false, recorded: 0, ...(error.reason === 'stale' ? { stale: true } : {}), message: batchRefusalText(error, compDate, catalog, this.app.now()) };
      }
      if (error instanceof StoreError) {
        // Kept per station, as single edits are, and tried again until the storage takes them.
        for (const s of stations) this.unsaved.keep(s, { compDate });
        this.scheduleUnsavedRetry();
        const message = keptEditText(error);
        this.app.emit('storage', message);
        return { ok: false, recorded: 0, kept: true, message };
      }
      throw error;
    }
  }

  /**
   * Tries the edits the storage refused again, every UNSAVED_RETRY_MS until all are saved; each
   * one saved counts as the person's edit then (their intent, not the values seen then), and the
   * stations saved are told ('retried'), so that 駅 does not take them for another device's change.
   */
  scheduleUnsavedRetry() {
    if (this.unsavedTimer || this.unsaved.count === 0) return;
    this.unsavedTimer = setTimeout(async () => {
      this.unsavedTimer = null;
      const saved = await this.unsaved.retry(async (station, fields) => { await this.app.replica.edit(station, fields, this.app.now()); });
      if (saved.length > 0) {
        this.app.changes.flush();
        this.app.emit('retried', saved);
        this.app.emit('status');
        this.app.scheduleSync();
      }
      if (this.unsaved.count > 0) this.scheduleUnsavedRetry(); else this.app.emit('storage', t('edit.retriedSaved'));
    }, UNSAVED_RETRY_MS);
    // Node's timers keep a process alive (the node tests' App); a browser's have no `unref`.
    /** @type {{unref?: () => void}} */ (/** @type {unknown} */ (this.unsavedTimer)).unref?.();
  }

  /**
   * Records the rows of an oritsubushi-tsv file as this device's import events, planned against
   * the replica at the commit and committed strictly in one step (ledgerImport.js); the answer
   * says how many stations were recorded. Rows the plan refuses are skipped, as the reader's were.
   * @param {import('./tsvImport.js').TsvRow[]} rows
   * @param {number} skipped lines the reader refused
   * @returns {Promise<{ok: boolean, recorded: number, message: string}>}
   */
  async importRows(rows, skipped) {
    if (!this.app.catalog) return { ok: false, recorded: 0, message: t('import.noCatalog') };
    try {
      const { plan, events } = await recordImport(this.app.replica, rows, importOptions(this.app.catalog, this.app.now()));
      this.app.changes.flush();
      if (events.length > 0) this.app.scheduleSync();
      return { ok: true, recorded: events.length, message: resultText(plan, skipped + plan.refused.length) };
    } catch (error) {
      if (error instanceof StoreError) this.app.emit('storage', storageText(error));
      return { ok: false, recorded: 0, message: refusalText(error) };
    }
  }
}
