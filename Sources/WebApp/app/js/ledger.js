// The app's replica of the user's log: every record it holds, indexed, folded, and saved through
// a LedgerStore. Local edits (with no-op suppression), this device's name, received pages (with
// the checks of Schemas/merge.md §2, receivedPage.js) and knowledge marks (§5) all change the
// store first and the memory only once the store has committed; so do the re-identification of a
// copied replica (§10, reidentification.js) and the settling of conflicts (conflictSettlement.js).

import { CLOCK_LEAD_MS } from './admission.js';
import { knowledgeMark } from './causalHistory.js';
import { compareKeys, Fold, orderKey } from './completionFold.js';
import { maxHlc, nextHlc } from './hlc.js';
import { digest, MAX_MEMO_BYTES, MAX_NAME_BYTES, toStored, utf8Length } from './records.js';
import { chunkMigration, orderRecords, snapshotRecords } from './replicaRecords.js';
import { loadRecords } from './ledgerLoading.js';
import { storePage } from './receivedPage.js';
import { COMPACT_AT, compactedThrough, compactOwn } from './ownCompaction.js';
import { COMPLETIONS_KEY, completionsRows, matchingCompletions } from './completionsSnapshot.js';
import { isValidCode } from './dates.js';
import { EditError, MergeError, StaleEditError } from './ledgerErrors.js';
import { commitOwn } from './ownCommit.js';
import { StoreError } from './store.js';

export { CLOCK_LEAD_MS, EditError, MergeError, StaleEditError };

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./store.js').LedgerStore} LedgerStore */
/** @typedef {import('./store.js').Identity} StoredIdentity */
/** @typedef {import('./completionsSnapshot.js').CompletionsView} CompletionsView */


/**
 * @typedef {object} Identity
 * @property {string} device
 * @property {string} name
 * @property {bigint} nextSeq
 * @property {bigint} lastHlc
 * @property {boolean} markOwed
 */

/** @param {Identity} i @returns {StoredIdentity} */
export function storedIdentity(i) {
  return { device: i.device, name: i.name, nextSeq: i.nextSeq.toString(), lastHlc: i.lastHlc.toString(), markOwed: i.markOwed };
}

export class Ledger {
  /**
   * @param {LedgerStore} store
   * @param {Identity} identity
   * @param {Map<string, unknown>} meta
   */
  constructor(store, identity, meta) {
    this.store = store;
    this.identity = identity;
    this.meta = meta;
    /** @type {Map<string, LedgerEvent[]>} device → its events, seq 1 at index 0 */
    this.byDevice = new Map();
    /** @type {Map<string, LedgerEvent>} device → its newest name record */
    this.names = new Map();
    /** @type {Map<number, LedgerEvent[]>} station → its station edits */
    this.byStation = new Map();
    this.fold = new Fold();
    /** @type {WeakMap<LedgerEvent, string>} */
    this.digests = new WeakMap();
    /** @type {Set<(stations: number[] | null) => void>} */
    this.listeners = new Set();
    /**
     * The tail of the write queue (see `exclusive`).
     * @type {Promise<unknown>}
     */
    this.tail = Promise.resolve();
    /** Resolves once every stored record is decoded and indexed (see `open`). */
    this.loaded = Promise.resolve();
    /**
     * The completions snapshot read while the records are decoded, null once they are.
     * @type {CompletionsView | null}
     */
    this.early = null;
    /**
     * Why the stored records could not be read, after which every write is refused.
     * @type {unknown}
     */
    this.unreadable = null;
    /** Counts the records added, so that a snapshot is stored only when they changed. */
    this.revision = 0;
    /** The revision the stored completions snapshot reflects (-1: none known to). */
    this.savedRevision = -1;
    /** Up to which seq the device's events are known to be in chunks (ownCompaction.js). */
    this.compacted = { device: '', seq: 0n };
  }

  /**
   * Runs a write after every earlier one has finished. Each write reads the identity (next seq,
   * clock), commits, then updates memory; two interleaved writes could otherwise take the same seq
   * (an edit made while a sync stores a page, for instance).
   * @template T
   * @param {() => Promise<T>} write
   * @returns {Promise<T>}
   */
  exclusive(write) {
    const guarded = () => {
      if (this.unreadable) throw this.unreadable;
      return write();
    };
    const run = this.tail.then(guarded, guarded);
    this.tail = run.catch(() => {});
    return run;
  }

  /**
   * Loads the replica, creating this device's identity (and its name record) on first use.
   *
   * With `early`, a replica whose completions snapshot matches its stored records
   * (completionsSnapshot.js) is returned before its records are decoded: `compDate` reads the
   * snapshot meanwhile, the records are decoded in slices of the page's time (`loaded`), and every
   * write waits for them (`exclusive`). Anything else reads a ledger only once `loaded` resolves.
   * @param {LedgerStore} store
   * @param {{now: number, newDevice: () => string, deviceName: string}} first
   * @param {{early?: boolean}} [options]
   */
  static async open(store, first, options = {}) {
    const snapshot = await store.load();
    const completions = options.early ? matchingCompletions(snapshot) : null;
    snapshot.meta.delete(COMPLETIONS_KEY); // not a setting
    if (snapshot.identity) {
      const s = snapshot.identity;
      const ledger = new Ledger(store, {
        device: s.device, name: s.name, nextSeq: BigInt(s.nextSeq), lastHlc: BigInt(s.lastHlc), markOwed: !!s.markOwed,
      }, snapshot.meta);
      // A replica from before chunks: other devices' records move into one, once.
      // A refused move leaves them as they were: they load as well from there.
      const migration = await Promise.resolve().then(() => chunkMigration(snapshot, s.device)).catch((error) => {
        if (!(error instanceof StoreError)) throw error;
        return null;
      });
      if (migration) await store.commit(migration).catch((error) => { if (!(error instanceof StoreError)) throw error; });
      ledger.compacted = { device: s.device, seq: compactedThrough(snapshot.records, s.device, BigInt(s.nextSeq) - 1n) };
      ledger.loaded = loadRecords(ledger, snapshot, migration ? null : completions);
      ledger.tail = ledger.loaded.catch(() => {});
      if (!ledger.early) await ledger.loaded;
      return ledger;
    }
    /** @type {Identity} */
    const identity = { device: first.newDevice(), name: first.deviceName, nextSeq: 1n, lastHlc: 0n, markOwed: false };
    const records = await snapshotRecords(snapshot);
    for (const r of records) identity.lastHlc = maxHlc(identity.lastHlc, r.hlc);
    const ledger = new Ledger(store, identity, snapshot.meta);
    ledger.index(records);
    // As `init` does: the device's name is its first record.
    const name = ledger.nameRecord(identity.device, first.now);
    identity.lastHlc = name.hlc;
    await store.commit({ identity: storedIdentity(ledger.identity), put: [toStored(name)] });
    ledger.add(name);
    return ledger;
  }

  /**
   * The station's comp_date (0 when none): the snapshot's while the records are decoded.
   * @param {number} station
   */
  compDate(station) {
    return (this.early ?? this.fold).compDate(station);
  }

  /**
   * Stores the completions snapshot of the records held, when they changed since it was last
   * stored (Schemas/phone-app.md "The completions snapshot"): after a sync, when the page is hidden.
   */
  saveCompletions() {
    return this.exclusive(async () => {
      const revision = this.revision;
      if (revision === this.savedRevision) return;
      await this.store.commit({ completions: completionsRows(this.fold), relaxed: true });
      this.savedRevision = revision;
    });
  }

  /**
   * Moves this device's events the sync server acknowledged into a chunk, when at least `min`
   * were acknowledged since the last time (Schemas/phone-app.md "The stored form"): after a sync.
   * Resolves with how many moved.
   * @param {number} [min]
   */
  compactOwn(min = COMPACT_AT) {
    return this.exclusive(() => compactOwn(this, min));
  }

  /**
   * A name record for `device` at the next local hlc.
   * @param {string} device @param {number} now @param {string} [name] this device's name by default
   * @returns {LedgerEvent}
   */
  nameRecord(device, now, name = this.identity.name) {
    return { kind: 'device_name', device, seq: 0n, hlc: nextHlc(this.identity.lastHlc, now), name };
  }

  /** @param {LedgerEvent[]} records */
  index(records) {
    const { events, names } = orderRecords(records);
    for (const list of events.values()) for (const r of list) this.add(r);
    for (const r of names.values()) this.add(r);
  }

  /**
   * Adds a record to memory (the store already holds it).
   * @param {LedgerEvent} r @param {boolean} [folded] the fold has it already (`receive`)
   */
  add(r, folded = false) {
    this.revision++;
    if (r.kind === 'device_name') {
      const held = this.names.get(r.device);
      if (!held || held.hlc < r.hlc) this.names.set(r.device, r);
      return;
    }
    let list = this.byDevice.get(r.device);
    if (!list) this.byDevice.set(r.device, (list = []));
    list.push(r);
    if (r.kind === 'station_edit' && r.station !== undefined) {
      const edits = this.byStation.get(r.station);
      if (edits) edits.push(r); else this.byStation.set(r.station, [r]);
      if (!folded) this.fold.apply(r);
    }
  }

  /** @param {((stations: number[] | null) => void)} listener called after every change (null: everything) */
  onChange(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @param {number[] | null} stations */
  changed(stations) {
    for (const listener of this.listeners) listener(stations);
  }

  // MARK: - Reading

  get device() { return this.identity.device; }

  /**
   * Highest contiguous seq held of a device.
   * @param {string} device
   */
  held(device) {
    return BigInt(this.byDevice.get(device)?.length ?? 0);
  }

  /**
   * The version vector: every device with at least one event.
   * @returns {Map<string, bigint>}
   */
  versionVector() {
    return new Map([...this.byDevice].map(([d, list]) => [d, BigInt(list.length)]));
  }

  /** @param {string} device @param {bigint} seq */
  event(device, seq) {
    const list = this.byDevice.get(device);
    return list && seq >= 1n && seq <= BigInt(list.length) ? list[Number(seq) - 1] : undefined;
  }

  /**
   * The digest of a record, computed once.
   * @param {LedgerEvent} e
   */
  digestOf(e) {
    let d = this.digests.get(e);
    if (d === undefined) { d = digest(e); this.digests.set(e, d); }
    return d;
  }

  /** Events held (records with a seq). */
  eventCount() {
    let n = 0;
    for (const list of this.byDevice.values()) n += list.length;
    return n;
  }

  /**
   * The name a device goes by ("" when none is known).
   * @param {string} device
   */
  deviceName(device) {
    return this.names.get(device)?.name ?? '';
  }

  /**
   * Every record: events by device and seq, then the device names.
   * @returns {LedgerEvent[]}
   */
  allRecords() {
    return [...[...this.byDevice.values()].flat(), ...this.names.values()];
  }

  /**
   * The station's edits, newest first by (hlc, device, seq).
   * @param {number} station
   */
  history(station) {
    return [...(this.byStation.get(station) ?? [])].sort((a, b) => compareKeys(orderKey(b), orderKey(a)));
  }

  /** @param {string} key */
  getMeta(key) {
    return this.meta.get(key);
  }

  /**
   * Sets settings (undefined deletes) once committed.
   * @param {Record<string, unknown>} values
   */
  setMeta(values) {
    return this.exclusive(() => this.commitMeta(values, false));
  }

  /** @param {Record<string, unknown>} values @param {boolean} relaxed */
  async commitMeta(values, relaxed) {
    await this.store.commit({ meta: values, relaxed });
    this.takeMeta(values);
  }

  /** @param {Record<string, unknown>} values committed settings */
  takeMeta(values) {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) this.meta.delete(k); else this.meta.set(k, v);
    }
  }

  // MARK: - Local edits

  /**
   * Records an edit of this device: only the fields that change enter the event; when none does,
   * nothing is appended (returns null). Resolves once the store committed it.
   *
   * `seen`: the values the screen showed for the fields it changes; when the station's value of
   * such a field differs now, nothing is written (StaleEditError). Checked in the commit's own
   * exclusive step, so no received page lands between (Schemas/phone-app.md).
   * @param {number} station
   * @param {{compDate?: number | null, memo?: string | null}} fields
   * @param {number} now
   * @param {{compDate?: number, memo?: string}} [seen]
   * @returns {Promise<LedgerEvent | null>}
   */
  edit(station, fields, now, seen) {
    return this.exclusive(async () => {
      if (!Number.isInteger(station) || station <= 0 || station > 0xffffffff) throw new EditError(`${station} is not a station id`, 'station');
      const current = this.fold.get(station);
      const stale = (seen?.compDate !== undefined && fields.compDate != null && seen.compDate !== (current?.compDate ?? 0))
        || (seen?.memo !== undefined && fields.memo != null && seen.memo !== (current?.memo ?? ''));
      if (stale) throw new StaleEditError(`station ${station} changed on another device after it was shown; nothing was saved`);
      let compDate = fields.compDate ?? null;
      let memo = fields.memo ?? null;
      if (compDate !== null && !isValidCode(compDate)) throw new EditError(`${compDate} is not a valid completion date`, 'date');
      if (memo !== null && utf8Length(memo) > MAX_MEMO_BYTES) {
        throw new EditError(`the memo is ${utf8Length(memo)} bytes of UTF-8; the limit is ${MAX_MEMO_BYTES}`, 'memo');
      }
      if (compDate !== null && compDate === (current?.compDate ?? 0)) compDate = null;
      if (memo !== null && memo === (current?.memo ?? '')) memo = null;
      if (compDate === null && memo === null) return null;
      const hlc = nextHlc(this.identity.lastHlc, now);
      /** @type {LedgerEvent} */
      const event = { kind: 'station_edit', device: this.device, seq: this.identity.nextSeq, hlc, station, compDate, memo, origin: 'user' };
      const identity = { ...this.identity, nextSeq: this.identity.nextSeq + 1n, lastHlc: hlc };
      await commitOwn(this.store, { identity: storedIdentity(identity), put: [toStored(event)] });
      this.identity = identity;
      this.add(event);
      this.changed([station]);
      return event;
    });
  }

  /**
   * Gives this device another name: a name record at the next hlc (the newest wins everywhere),
   * sent with the next push. Resolves once committed; null when it already has that name.
   * @param {string} name 1 to 255 bytes of UTF-8
   * @param {number} now
   * @returns {Promise<LedgerEvent | null>}
   */
  rename(name, now) {
    return this.exclusive(async () => {
      if (name === '' || utf8Length(name) > MAX_NAME_BYTES) throw new EditError(`a device name has 1 to ${MAX_NAME_BYTES} bytes of UTF-8`, 'name');
      if (name === this.identity.name && this.deviceName(this.device) === name) return null;
      const identity = { ...this.identity, name };
      const record = this.nameRecord(this.device, now, name);
      identity.lastHlc = record.hlc;
      await commitOwn(this.store, { identity: storedIdentity(identity), put: [toStored(record)] });
      this.identity = identity;
      this.add(record);
      this.changed([]);
      return record;
    });
  }

  // MARK: - Received records

  /**
   * Checks a received page and stores it in one commit, or throws MergeError and stores nothing:
   * the admission of Schemas/merge.md §2.1 (admission.js, in MergeAdmission's order), with a
   * device's rules (receivedPage.js).
   * @param {LedgerEvent[]} records validated by records.fromWire
   * @param {number} now
   * @param {Record<string, unknown>} [meta] settings to commit with the page (the sync bookkeeping)
   * @param {Uint8Array | null} [frames] the page's record frames as they came (sync-frames.md)
   * @returns {Promise<{events: LedgerEvent[], names: LedgerEvent[], duplicates: number}>}
   */
  receive(records, now, meta, frames = null) {
    return this.exclusive(() => storePage(this, records, now, meta, frames));
  }

  /**
   * After a sync round's pull (merge.md §5): one knowledge mark when another device's station
   * edit arrived after this device's last mark. Returns the mark, or null when none was owed.
   * @param {number} now
   */
  appendKnowledgeMarkIfOwed(now) {
    return this.exclusive(async () => {
      if (!this.identity.markOwed) return null;
      const hlc = nextHlc(this.identity.lastHlc, now);
      const mark = knowledgeMark(this, this.device, this.identity.nextSeq, hlc);
      const identity = { ...this.identity, nextSeq: this.identity.nextSeq + 1n, lastHlc: hlc, markOwed: false };
      await commitOwn(this.store, { identity: storedIdentity(identity), put: [toStored(mark)] });
      this.identity = identity;
      this.add(mark);
      return mark;
    });
  }

  /**
   * Replaces every index with those of `records` (the store already holds exactly them).
   * @param {LedgerEvent[]} records
   */
  reindex(records) {
    this.byDevice = new Map();
    this.byStation = new Map();
    this.names = new Map();
    this.fold = new Fold();
    this.index(records);
  }
}

