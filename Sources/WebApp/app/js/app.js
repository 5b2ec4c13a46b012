// The app's state and actions, without the DOM: the replica (Ledger), the catalogue, the sync
// token, pairing, and when to sync (after opening, on focus, when back online, after each edit;
// one sync at a time). A token the server refuses (401) is forgotten at once, whichever request
// met it (deviceManager.js's too), and said once. Every refusal reaches the screens as a sentence
// of the app's own, chosen by its cause (refusals.js). Screens read from it and listen to its events.

import { Api, ApiError, MalformedAnswer, NetworkError } from './api.js';
import { Catalog, CatalogError } from './catalog.js';
import { checkDeviceName } from './devices.js';
import { EditError, Ledger } from './ledger.js';
import { importOptions, recordImport } from './ledgerImport.js';
import { editMany } from './ledgerBatch.js';
import { BatchError } from './batchPlan.js';
import { batchRefusalText, batchResultText } from './batchText.js';
import { resultText } from './importReport.js';
import { editRefusalText, failureCause, keptEditText, refusalText, serverRefusalText, storageText, syncFailureText } from './refusals.js';
import { StoreError } from './store.js';
import { UnsavedEdits } from './unsavedEdits.js';
import { refusedToken, SyncFailure, SyncSession } from './sync.js';
import { nameRefusedText } from './textLimits.js';
import { t } from './i18n.js';

/** @typedef {import('./store.js').LedgerStore} LedgerStore */
/** @typedef {'unpaired' | 'idle' | 'syncing' | 'ok' | 'error'} SyncState */
/**
 * 'signed-out': a refused token was forgotten (detail: the sentence, said once); 'erased': the
 * replica was erased and started anew; 'completed': an edit of the person took stations from
 * 未乗下車 to a date (detail: their ids), which may complete a line (milestones.js); 'retried':
 * edits the storage had refused are saved now (detail: their stations).
 * @typedef {'status' | 'catalog' | 'change' | 'storage' | 'signed-out' | 'erased' | 'completed' | 'retried'} AppEvent
 */

/** How often edits the storage refused are tried again. */
const UNSAVED_RETRY_MS = 5000;

/** Wait after an edit before syncing, so that a run of edits goes out together. */
const EDIT_SYNC_DELAY_MS = 1500;

export class App {
  /**
   * @param {object} deps
   * @param {LedgerStore} deps.store
   * @param {typeof fetch} deps.fetch
   * @param {() => number} [deps.now]
   * @param {() => string} deps.newDevice
   * @param {string} deps.deviceName
   */
  constructor({ store, fetch, now = () => Date.now(), newDevice, deviceName }) {
    this.store = store;
    this.api = new Api(fetch);
    this.now = now;
    this.newDevice = newDevice;
    this.deviceName = deviceName;
    /** @type {Ledger | null} */
    this.ledger = null;
    /** @type {Catalog | null} */
    this.catalog = null;
    /** @type {SyncState} */
    this.state = 'idle';
    /** One sentence about the last sync, or null. */
    /** @type {string | null} */
    this.syncError = null;
    /** @type {string | null} */
    this.catalogError = null;
    /** SyncFailure.kind of the last failed sync. */
    this.failureKind = '';
    /** @type {Promise<void> | null} */
    this.running = null;
    this.again = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** A sign-out is under way: no sync starts meanwhile. */
    this.leaving = false;
    /** @type {Map<AppEvent, Set<(detail?: unknown) => void>>} */
    this.listeners = new Map();
    /** The person's edits the storage refused, tried again until saved (unsavedEdits.js). */
    this.unsaved = new UnsavedEdits();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.unsavedTimer = null;
    /**
     * The storage sentence a failed sync last said, so that a storage that stays full is said
     * once, not after every sync it stops; a sync that succeeds or stops otherwise forgets it.
     * @type {string | null}
     */
    this.syncStorageSaid = null;
  }

  /**
   * @param {AppEvent} event @param {(detail?: unknown) => void} fn
   */
  on(event, fn) {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn);
  }

  /**
   * @param {AppEvent} event @param {unknown} [detail]
   */
  emit(event, detail) {
    for (const fn of this.listeners.get(event) ?? []) fn(detail);
  }

  /** The replica, once started. */
  get replica() {
    if (!this.ledger) throw new Error('the app has not started');
    return this.ledger;
  }

  /** @returns {string | null} */
  get token() {
    const token = this.ledger?.getMeta('token');
    return typeof token === 'string' && token !== '' ? token : null;
  }

  /** Opens the replica and the stored catalogue. Throws StoreError when nothing can be read. */
  async start() {
    this.ledger = await Ledger.open(this.store, { now: this.now(), newDevice: this.newDevice, deviceName: this.deviceName });
    this.ledger.onChange((stations) => this.emit('change', stations));
    const saved = /** @type {{text?: string} | undefined} */ (this.ledger.getMeta('catalog'));
    if (saved?.text) {
      try {
        this.catalog = new Catalog(JSON.parse(saved.text));
      } catch {
        this.catalog = null; // a damaged copy: the next download replaces it
      }
    }
    const sync = /** @type {{lastError?: string | null, lastErrorKind?: string} | undefined} */ (this.ledger.getMeta('sync'));
    const cause = /** @type {({kind?: string} & import('./refusals.js').FailureCause) | undefined} */ (this.ledger.getMeta('syncCause'));
    this.syncError = sync?.lastError ? syncFailureText(sync.lastErrorKind ?? '', cause?.kind === sync.lastErrorKind ? cause : {}) : null;
    this.state = this.token ? 'idle' : 'unpaired';
    this.emit('status');
  }

  /** One sentence for the sync screen's status line. */
  statusText() {
    switch (this.state) {
      case 'unpaired': return t('status.unpaired');
      case 'syncing': return t('status.syncing');
      case 'ok': return t('status.ok');
      case 'error': return this.failureKind === 'offline' ? t('status.offline') : t('status.failed');
      default: return t('status.idle');
    }
  }

  /**
   * Syncs soon (after edits), coalescing requests.
   * @param {number} [delay]
   */
  scheduleSync(delay = EDIT_SYNC_DELAY_MS) {
    if (!this.token) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; void this.syncNow(); }, delay);
  }

  /** Downloads the catalogue when it changed, then syncs; one run at a time. */
  syncNow() {
    if (this.leaving) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.syncOnce();
      } while (this.again);
    })().finally(() => { this.running = null; });
    return this.running;
  }

  async syncOnce() {
    const token = this.token;
    if (!token || !this.ledger) {
      this.state = 'unpaired';
      this.emit('status');
      return;
    }
    this.state = 'syncing';
    this.emit('status');
    await this.refreshCatalog(token);
    if (!this.token) return; // the catalogue request found the token revoked
    const session = new SyncSession({ ledger: this.ledger, api: this.api, now: this.now, newDevice: this.newDevice });
    try {
      await session.run(token);
      this.syncError = null;
      this.syncStorageSaid = null;
      this.state = 'ok';
    } catch (error) {
      const failure = error instanceof SyncFailure ? error : new SyncFailure('server', String(error), error);
      console.debug('the sync stopped:', failure.message);
      this.syncError = describeFailure(failure);
      this.failureKind = failure.kind;
      this.state = 'error';
      if (failure.kind === 'refused' || failure.kind === 'server') {
        // Its sentence depends on the cause, kept beside the sync bookkeeping for after a reload.
        await this.replica.setMeta({ syncCause: { kind: failure.kind, ...failureCause(failure) } }).catch(() => {});
      }
      if (failure.kind === 'signed-out' || failure.kind === 'revoked') await this.forgetRefusedToken(failure);
      if (failure.kind !== 'storage') this.syncStorageSaid = null;
      else if (this.syncStorageSaid !== this.syncError) {
        this.syncStorageSaid = this.syncError;
        this.emit('storage', this.syncError);
      }
    }
    this.emit('status');
  }

  /**
   * Forgets a token the server refused (revoked, or unknown to it), so that the app shows pairing
   * and nothing retries; the records stay. Said once: a second refusal finds no token.
   * @param {SyncFailure} failure
   */
  async forgetRefusedToken(failure) {
    this.cancelScheduledSync();
    this.state = 'unpaired';
    if (!this.token) return;
    this.syncError = describeFailure(failure);
    this.failureKind = failure.kind;
    // The reason is kept with the sync bookkeeping, so that 同期 still says it after a reload.
    const sync = /** @type {Record<string, unknown> | undefined} */ (this.replica.getMeta('sync')) ?? {};
    try {
      await this.replica.setMeta({ token: undefined, sync: { ...sync, lastError: failure.message, lastErrorKind: failure.kind } });
    } catch (error) {
      this.emit('storage', refusalText(error));
    }
    this.emit('signed-out', this.syncError);
  }

  cancelScheduledSync() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * GET /v1/catalog with the stored ETag; keeps the stored copy on 304 or on any failure.
   * @param {string} token
   */
  async refreshCatalog(token) {
    const saved = /** @type {{etag?: string | null} | undefined} */ (this.replica.getMeta('catalog'));
    try {
      const answer = await this.api.catalog(token, this.catalog ? saved?.etag ?? null : null);
      if (answer) {
        const catalog = new Catalog(JSON.parse(answer.text));
        await this.replica.setMeta({ catalog: { text: answer.text, etag: answer.etag, version: catalog.version } });
        this.catalog = catalog;
        this.emit('catalog');
      }
      this.catalogError = null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        await this.forgetRefusedToken(refusedToken(error));
        this.emit('status');
        return;
      }
      if (error instanceof NetworkError) return; // offline: the stored copy serves
      const why = error instanceof CatalogError || error instanceof SyntaxError ? t('catalog.damaged') : refusalText(error);
      this.catalogError = t('catalog.failed', why);
      if (error instanceof StoreError) this.emit('storage', storageText(error));
    }
  }

  /**
   * Pairs this device with a code (from the server's operator or another device); returns one
   * sentence. The server may give another name than the one asked for (a link made with a name,
   * " (2)" to keep the user's devices apart): this device takes the name it answered.
   * @param {string} code as typed (the server normalises it)
   * @param {string} [name] the name to ask for; this device's name by default
   */
  async pair(code, name = '') {
    const asked = name.trim() || this.replica.deviceName(this.replica.device) || this.deviceName;
    const checked = checkDeviceName(asked);
    if (!checked.ok) return { ok: false, message: checked.message };
    try {
      const answer = await this.api.pair(code.trim(), asked);
      const named = answer.deviceName ?? asked;
      await this.replica.setMeta({ token: answer.token, user: answer.user });
      if (checkDeviceName(named).ok) await this.replica.rename(named, this.now());
      this.syncError = null;
      this.state = 'idle';
      this.emit('status');
      void this.syncNow();
      return { ok: true, message: t('pair.okNamed', answer.user, named) };
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.status === 401) return { ok: false, message: t('pair.unknown') };
        if (error.status === 410) return { ok: false, message: t('pair.used') };
        if (error.status === 429) return { ok: false, message: t('pair.rate', error.retryAfter ?? 60) };
        if (error.status === 422) return { ok: false, message: nameRefusedText() };
        return { ok: false, message: serverRefusalText(error) };
      }
      if (error instanceof NetworkError) return { ok: false, message: t('pair.offline') };
      if (error instanceof MalformedAnswer) return { ok: false, message: t('pair.malformed') };
      if (error instanceof StoreError) this.emit('storage', storageText(error));
      return { ok: false, message: refusalText(error) };
    }
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
      const before = this.compDate(station);
      const event = await this.replica.edit(station, fields, this.now(), seen);
      if (event && before === 0 && this.compDate(station) > 0) this.emit('completed', [station]);
      // The date picker offers the last date given again, for entering many stations in a row.
      if (fields.compDate) await this.replica.setMeta({ lastDate: fields.compDate }).catch(() => {});
      if (!event) return { ok: true, changed: false, message: t('unchanged') };
      this.scheduleSync();
      return { ok: true, changed: true, message: t('saved') };
    } catch (error) {
      if (error instanceof StoreError) {
        // Never dropped: kept in memory and tried again until the storage takes it.
        this.unsaved.keep(station, fields);
        this.scheduleUnsavedRetry();
        const message = keptEditText(error);
        this.emit('storage', message);
        return { ok: false, changed: false, kept: true, message };
      }
      if (error instanceof EditError) {
        return { ok: false, changed: false, ...(error.reason === 'stale' ? { stale: true } : {}), message: editRefusalText(error) };
      }
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
    const catalog = this.catalog;
    if (!catalog) return { ok: false, recorded: 0, message: t('noCatalog') };
    try {
      const { plan, events } = await editMany(this.replica, stations, compDate, this.now(),
        { knows: (s) => catalog.station(s) !== undefined, seen });
      if (compDate > 0) await this.replica.setMeta({ lastDate: compDate }).catch(() => {});
      if (events.length > 0) this.scheduleSync();
      return { ok: true, recorded: events.length, message: batchResultText(plan) };
    } catch (error) {
      if (error instanceof BatchError) {
        return { ok: false, recorded: 0, ...(error.reason === 'stale' ? { stale: true } : {}), message: batchRefusalText(error, compDate, catalog, this.now()) };
      }
      if (error instanceof StoreError) {
        // Kept per station, as single edits are, and tried again until the storage takes them.
        for (const s of stations) this.unsaved.keep(s, { compDate });
        this.scheduleUnsavedRetry();
        const message = keptEditText(error);
        this.emit('storage', message);
        return { ok: false, recorded: 0, kept: true, message };
      }
      throw error;
    }
  }

  /**
   * Tries the edits the storage refused again, every UNSAVED_RETRY_MS until all are saved; each
   * one saved counts as the person's edit then (their intent, not the values seen then).
   */
  scheduleUnsavedRetry() {
    if (this.unsavedTimer || this.unsaved.count === 0) return;
    this.unsavedTimer = setTimeout(async () => {
      this.unsavedTimer = null;
      const saved = await this.unsaved.retry(async (station, fields) => { await this.replica.edit(station, fields, this.now()); });
      if (saved.length > 0) {
        this.emit('retried', saved);
        this.emit('status');
        this.scheduleSync();
      }
      if (this.unsaved.count > 0) this.scheduleUnsavedRetry(); else this.emit('storage', t('edit.retriedSaved'));
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
    if (!this.catalog) return { ok: false, recorded: 0, message: t('import.noCatalog') };
    try {
      const { plan, events } = await recordImport(this.replica, rows, importOptions(this.catalog, this.now()));
      if (events.length > 0) this.scheduleSync();
      return { ok: true, recorded: events.length, message: resultText(plan, skipped + plan.refused.length) };
    } catch (error) {
      if (error instanceof StoreError) this.emit('storage', storageText(error));
      return { ok: false, recorded: 0, message: refusalText(error) };
    }
  }

  /** Forgets the token and the user (a sign-out); the records stay. */
  async forgetToken() {
    this.cancelScheduledSync();
    await this.replica.setMeta({ token: undefined, user: undefined });
    this.syncError = null;
    this.state = 'unpaired';
  }

  /** Deletes everything this device holds (one commit) and starts a new replica. */
  async eraseReplica() {
    await this.store.commit({ clear: true });
    this.catalog = null;
    this.catalogError = null;
    await this.start();
    this.emit('erased');
    this.emit('catalog');
    this.emit('change', null);
  }

  /**
   * The station's comp_date (0 when none).
   * @param {number} id
   */
  compDate(id) {
    return this.ledger ? this.ledger.fold.compDate(id) : 0;
  }
}

/**
 * A sync failure as the screens say it: by its kind and cause, in the app's language (its
 * `message`, English for developers, is never shown).
 * @param {SyncFailure} failure
 */
export function describeFailure(failure) {
  return syncFailureText(failure.kind, failureCause(failure));
}
