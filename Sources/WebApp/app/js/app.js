// The app's state and actions, without the DOM: the replica (Ledger), the catalogue, the sync
// token, pairing, and when to sync (after opening, on focus, when back online, after each edit;
// one sync at a time). A sync that could not reach the server is tried again with backoff
// (retrySchedule.js), at once when the network returns or the app comes into view, without
// saying the failure again at each try. A token the server refuses (401) is forgotten at once,
// whichever request met it (deviceManager.js's too), and said once. Every refusal reaches the
// screens as a sentence of the app's own, chosen by its cause (refusals.js). Screens read from
// it and listen to its events.

import { Api, ApiError, isUnreachable, MalformedAnswer, NetworkError } from './api.js';
import { Catalog, CatalogError } from './catalog.js';
import { ChangeBatch } from './changeBatch.js';
import { checkDeviceName } from './devices.js';
import { fetchAccount } from './accountApi.js';
import { keepKey } from './keyStore.js';
import { receiveLinkKey } from './linkKey.js';
import { Ledger } from './ledger.js';
import { OwnEdits } from './ownEdits.js';
import { failureCause, refusalText, serverRefusalText, storageText, syncFailureText } from './refusals.js';
import { StoreError } from './store.js';
import { refusedToken, SyncFailure, SyncSession } from './sync.js';
import { nameRefusedText } from './textLimits.js';
import { t } from './i18n.js';
import { RetrySchedule, worthRetrying } from './retrySchedule.js';

/** @typedef {import('./store.js').LedgerStore} LedgerStore */
/** @typedef {'unpaired' | 'idle' | 'syncing' | 'ok' | 'error'} SyncState */
/**
 * 'signed-out': a refused token was forgotten (detail: the sentence, said once); 'erased': the
 * replica was erased and started anew; 'completed': an edit of the person took stations from
 * 未乗下車 to a date (detail: their ids), which may complete a line (milestones.js); 'progress':
 * a sync stored another pull page (`received`); 'retried': edits the storage had refused are
 * saved now (detail: their stations).
 * @typedef {'status' | 'catalog' | 'change' | 'storage' | 'signed-out' | 'erased' | 'completed' | 'progress' | 'retried'} AppEvent
 */

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
   * @param {import('./retrySchedule.js').Timers} [deps.retryTimers] the browser's timers by default
   * @param {() => boolean} [deps.online] navigator.onLine by default
   */
  constructor({ store, fetch, now = () => Date.now(), newDevice, deviceName, retryTimers, online }) {
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
    /** Events the sync under way has received so far; null while none runs. */
    /** @type {number | null} */
    this.received = null;
    this.online = online;
    this.retries = new RetrySchedule(() => void this.syncNow(true), { timers: retryTimers });
    /** The sync under way is a retry that keeps saying the last failure until the server answers. */
    this.quiet = false;
    /** The replica's change notices, held while a sync stores its pages. */
    this.changes = new ChangeBatch((stations) => this.emit('change', stations));
    /** @type {Map<AppEvent, Set<(detail?: unknown) => void>>} */
    this.listeners = new Map();
    /** The person's own edits, and those the storage refused until it takes them. */
    this.edits = new OwnEdits(this);
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

  /**
   * Opens the replica and the stored catalogue. Throws StoreError when nothing can be read. The
   * replica may still be decoding its records when this resolves (Ledger.open `early`): the
   * map reads compDate meanwhile; everything else waits for `replica.loaded`.
   */
  async start() {
    this.ledger = await Ledger.open(this.store, { now: this.now(), newDevice: this.newDevice, deviceName: this.deviceName }, { early: true });
    this.ledger.onChange((stations) => this.changes.notice(stations));
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
    // A server that could not be reached is said by the status line of a sync, not kept.
    this.syncError = sync?.lastError && sync.lastErrorKind !== 'unreachable'
      ? syncFailureText(sync.lastErrorKind ?? '', cause?.kind === sync.lastErrorKind ? cause : {}) : null;
    this.state = this.token ? 'idle' : 'unpaired';
    this.emit('status');
  }

  /** One sentence for the sync screen's status line. */
  statusText() {
    switch (this.state) {
      case 'unpaired': return t('status.unpaired');
      case 'syncing': return t('status.syncing');
      case 'ok': return t('status.ok');
      case 'error':
        if (this.failureKind === 'unreachable') return t('status.unreachable');
        return this.failureKind === 'offline' ? t('status.offline') : t('status.failed');
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

  /**
   * Downloads the catalogue when it changed, then syncs; one run at a time.
   * @param {boolean} [retrying] a retry (its timer, the network back, the app in view): the
   *   screen keeps saying why the last sync failed until the server answers
   */
  syncNow(retrying = false) {
    if (this.leaving) return Promise.resolve();
    this.retries.cancel();
    if (this.running) {
      this.again = true;
      if (!retrying) this.quiet = false;
      return this.running;
    }
    this.quiet = retrying;
    this.changes.hold();
    this.running = (async () => {
      do {
        this.again = false;
        await this.syncOnce();
      } while (this.again);
    })().finally(() => {
      this.running = null;
      this.quiet = false;
      this.changes.release();
    });
    return this.running;
  }

  /**
   * The network returned or the app came into view: a retry that waits runs now; with `always`,
   * a sync runs even when none waits (what opening the app does).
   * @param {boolean} always
   */
  wake(always) {
    if (!this.token || this.retries.now() || !always) return;
    void this.syncNow();
  }

  async syncOnce() {
    const token = this.token;
    if (!token || !this.ledger) {
      this.state = 'unpaired';
      this.emit('status');
      return;
    }
    // A replica whose records cannot be read does not sync: main.js says so and starts anew.
    if (!(await this.ledger.loaded.then(() => true, () => false))) return;
    // A retry (only a failure worth retrying schedules one) says nothing new until the server answers.
    const quiet = this.quiet && this.state === 'error';
    if (!quiet) {
      this.state = 'syncing';
      this.emit('status');
    }
    await this.refreshCatalog(token);
    if (!this.token) return; // the catalogue request found the token revoked
    const session = new SyncSession({
      ledger: this.ledger, api: this.api, now: this.now, newDevice: this.newDevice, online: this.online,
      onProgress: ({ received }) => {
        this.received = received;
        if (this.state !== 'syncing') {
          this.state = 'syncing';
          this.emit('status');
        }
        this.emit('progress');
      },
    });
    let synced = false;
    try {
      await session.run(token);
      synced = true;
      this.syncError = null;
      this.syncStorageSaid = null;
      this.state = 'ok';
      this.retries.succeeded();
    } catch (error) {
      const failure = error instanceof SyncFailure ? error : new SyncFailure('server', String(error), error);
      console.debug('the sync stopped:', failure.message);
      this.syncError = failure.kind === 'unreachable' ? null : describeFailure(failure); // the status line says it
      this.failureKind = failure.kind;
      this.state = 'error';
      if (failure.kind === 'refused' || failure.kind === 'server' || failure.kind === 'key') {
        // Its sentence depends on the cause, kept beside the sync bookkeeping for after a reload.
        await this.replica.setMeta({ syncCause: { kind: failure.kind, ...failureCause(failure) } }).catch(() => {});
      }
      if (failure.kind === 'signed-out' || failure.kind === 'revoked') await this.forgetRefusedToken(failure);
      if (failure.kind !== 'storage') this.syncStorageSaid = null;
      else if (this.syncStorageSaid !== this.syncError) {
        this.syncStorageSaid = this.syncError;
        this.emit('storage', this.syncError);
      }
      if (worthRetrying(failure) && this.token) this.retries.failed(); else this.retries.stop();
    } finally {
      this.received = null;
      // A quiet moment: the events the server acknowledged may leave their one-per-value form.
      if (synced) await this.replica.compactOwn().catch((error) => console.debug("this device's records were not compacted:", error));
      // The map's next opening draws from a snapshot of what this sync and the edits before it left.
      await this.replica.saveCompletions().catch((error) => console.debug('the completions snapshot was not stored:', error));
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
    // The status line says so at once, not after the sync's bookkeeping ends.
    this.emit('status');
  }

  cancelScheduledSync() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.retries.stop();
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
      if (isUnreachable(error)) return; // offline or no server: the stored copy serves, the sync says why
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
   * @param {string | null} [secret] a link's `&key=` secret: the key the code carries is kept
   */
  async pair(code, name = '', secret = null) {
    const asked = name.trim() || this.replica.deviceName(this.replica.device) || this.deviceName;
    const checked = checkDeviceName(asked);
    if (!checked.ok) return { ok: false, message: checked.message };
    try {
      const answer = await this.api.pair(code.trim(), asked);
      const named = answer.deviceName ?? asked;
      await this.replica.setMeta({ token: answer.token, user: answer.user });
      if (checkDeviceName(named).ok) await this.replica.rename(named, this.now());
      // An encrypted account (Schemas/encryption.md §8): the key the link carried, or what to do.
      const key = answer.wrappedKey && secret ? await receiveLinkKey(answer.wrappedKey, secret, answer.epoch) : null;
      if (key) await keepKey(this.replica, key);
      this.syncError = null;
      this.state = 'idle';
      this.emit('status');
      void this.syncNow();
      if (key) return { ok: true, message: t('pair.okKey', answer.user, named, key.fingerprint) };
      if (answer.wrappedKey && secret) return { ok: true, message: t('pair.keyRefused') };
      // Without a key: unless no device has made the account's key yet (this one then will).
      const account = answer.encrypted ? await fetchAccount(this.api, answer.token).catch(() => null) : null;
      if (answer.encrypted && account?.fingerprint !== null) return { ok: true, message: t('pair.encryptedNoKey', answer.user) };
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

  // The person's own edits (ownEdits.js), answered in one sentence each.

  /**
   * Records an edit (OwnEdits.edit): saved, unchanged, refused (`stale` when the station no
   * longer has the values `seen`) or kept to retry.
   * @param {number} station
   * @param {{compDate?: number | null, memo?: string | null}} fields
   * @param {{compDate?: number, memo?: string}} [seen]
   */
  edit(station, fields, seen) { return this.edits.edit(station, fields, seen); }

  /**
   * 競合を解決（現在の値を残す） (OwnEdits.resolveConflicts).
   * @param {number} station
   */
  resolveConflicts(station) { return this.edits.resolveConflicts(station); }

  /**
   * まとめて記録 (OwnEdits.recordMany).
   * @param {number[]} stations @param {number} compDate @param {Map<number, number>} [seen]
   */
  recordMany(stations, compDate, seen) { return this.edits.recordMany(stations, compDate, seen); }

  /**
   * The rows of an oritsubushi-tsv file recorded (OwnEdits.importRows).
   * @param {import('./tsvImport.js').TsvRow[]} rows @param {number} skipped
   */
  importRows(rows, skipped) { return this.edits.importRows(rows, skipped); }

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
    return this.ledger ? this.ledger.compDate(id) : 0;
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
