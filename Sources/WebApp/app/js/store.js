// Where the app keeps its replica: this device's identity, every record it holds, and small
// settings (token, user, catalogue, sync bookkeeping). Records received from the server are kept
// in chunks, a pulled page's record frames as one value (Schemas/phone-app.md "The stored form");
// this device's own records one per value, so that each is committed and read back on its own
// (ownCommit.js), until the server acknowledged them and they join a chunk (ownCompaction.js).
// Everything goes through the two-method LedgerStore interface, so the ledger and the sync state
// machine run on IndexedDB in the browser and on MemoryStore in node tests.
//
// A commit is one IndexedDB transaction over every object store: it resolves only on the
// transaction's `complete` (the data is written), and rejects with a StoreError of one sentence
// when the browser refuses (QuotaExceededError, a closed database…), in which case nothing of it
// was written: a transaction commits or aborts as a whole (Schemas/phone-app.md "A full storage").

import { COMPLETIONS_KEY, replicaState, stampedCompletions } from './completionsSnapshot.js';

/** @typedef {import('./records.js').StoredEvent} StoredEvent */

/**
 * This device: its id, name, next seq and clock (the largest hlc held).
 * @typedef {object} Identity
 * @property {string} device 16 lowercase hex digits
 * @property {string} name
 * @property {string} nextSeq decimal
 * @property {string} lastHlc decimal
 * @property {boolean} markOwed another device's station edit arrived after this device's last knowledge mark
 */

/**
 * One atomic change.
 * @typedef {object} Change
 * @property {Identity} [identity]
 * @property {StoredEvent[]} [put] records to add or replace (by key)
 * @property {string[]} [remove] record keys to delete
 * @property {{bytes: Uint8Array, count: number}[]} [chunks] record frames to keep as chunks, in
 *   order, with how many records they hold (keys assigned ascending by the store;
 *   Schemas/phone-app.md "The stored form")
 * @property {number[]} [dropChunks] keys of chunks to delete (a re-identification's rewrite of the
 *   chunks that held the events it moves; reidentification.js)
 * @property {import('./completionsSnapshot.js').CompletionsRows} [completions] the completions
 *   snapshot after this change, stored stamped with the records the transaction leaves
 *   (Schemas/phone-app.md "The completions snapshot")
 * @property {Record<string, unknown>} [meta] settings to set; undefined deletes the key
 * @property {(values: StoredEvent[]) => ({bytes: Uint8Array, count: number, remove: string[]} | null)} [compact]
 *   given every value of `records` as the transaction holds it, a chunk to add and the record keys
 *   it replaces (ownCompaction.js); null writes nothing more, not even `completions`
 * @property {boolean} [clear] first delete everything held (identity, records, settings): signing
 *   out with 「この端末の記録も消去する」
 * @property {boolean} [relaxed] records another replica already holds (a sync's pulled page),
 *   committed with the browser's relaxed durability; every other change is `strict`: it is on
 *   the disk, not in the OS's buffers, before the commit completes (Schemas/phone-app.md)
 */

/**
 * One chunk: whole record frames (Schemas/segment-format.md §2, §2a) and how many records they hold.
 * @typedef {{key: number, bytes: Uint8Array, count: number}} StoredChunk
 */

/**
 * What a replica holds, as read at open: everything but the chunks' bytes, which `chunks` reads
 * afterwards, so that the map's first frame (drawn from the completions snapshot in `meta`) does
 * not wait for them (Schemas/phone-app.md "The completions snapshot"). `chunkKeys` are the keys the
 * chunks had in the same read as the rest.
 * @typedef {{identity: Identity | null, records: StoredEvent[], chunkKeys: number[], chunks: () => Promise<StoredChunk[]>, meta: Map<string, unknown>}} Snapshot
 */

/**
 * @typedef {object} LedgerStore
 * @property {() => Promise<Snapshot>} load
 * @property {(change: Change) => Promise<void>} commit
 * @property {(keys: string[]) => Promise<ReadBack>} readBack what a commit left: the identity and
 *   the records of `keys` as stored now (undefined where none is), read in a transaction of its own
 */

/** @typedef {{identity: Identity | null, records: (StoredEvent | undefined)[]}} ReadBack */

/**
 * Why the browser refused: 'full' (its quota is used up), 'refused' (any other write failure),
 * 'missing' (no IndexedDB), 'unreadable' (the saved data could not be read).
 * @typedef {'full' | 'refused' | 'missing' | 'unreadable'} StorageRefusal
 */

/**
 * The browser refused to read or write; `reason` is the cause the screens say it by
 * (refusals.js), `message` one English sentence for developers.
 */
export class StoreError extends Error {
  /** @param {string} message @param {unknown} [cause] @param {StorageRefusal} [reason] */
  constructor(message, cause, reason = storageRefusal(cause)) {
    super(message);
    this.name = 'StoreError';
    this.cause = cause;
    this.reason = reason;
  }
}

/**
 * The cause of a browser's storage failure, by its DOMException name.
 * @param {unknown} error
 * @returns {StorageRefusal}
 */
export function storageRefusal(error) {
  const name = error && typeof error === 'object' ? String(/** @type {{name?: unknown}} */ (error).name ?? '') : '';
  return name === 'QuotaExceededError' ? 'full' : 'refused';
}

/**
 * One sentence for a storage failure.
 * @param {unknown} error
 */
export function describeStorageError(error) {
  if (storageRefusal(error) === 'full') {
    return "this device's storage for the app is full, so the change was not saved; free some space (or allow more storage) and try again";
  }
  const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
  return `the browser refused to save the app's data${detail}, so the change was not saved`;
}

/** 2: the `chunks` store (Schemas/phone-app.md "The stored form"). */
const DB_VERSION = 2;
/** How long one slice of a commit's puts may run before the page may handle input. */
const PUT_SLICE_MS = 8;
const STORES = ['identity', 'records', 'chunks', 'meta'];

/**
 * @template T
 * @param {IDBRequest<T>} request
 * @returns {Promise<T>}
 */
function result(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The IndexedDB store. */
export class IndexedDbStore {
  /** @param {IDBDatabase} db */
  constructor(db) {
    this.db = db;
  }

  /**
   * Opens (and on first use creates) the database.
   * @param {IDBFactory} [factory]
   * @param {string} [name]
   */
  static async open(factory = globalThis.indexedDB, name = 'oritsubushi') {
    if (!factory) throw new StoreError('this browser has no IndexedDB (private browsing may disable it), so nothing can be saved on this device', null, 'missing');
    const request = factory.open(name, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains('identity')) db.createObjectStore('identity');
      if (!db.objectStoreNames.contains('records')) db.createObjectStore('records', { keyPath: 'key' });
      if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta');
      if (!db.objectStoreNames.contains('chunks')) db.createObjectStore('chunks', { autoIncrement: true });
    };
    try {
      return new IndexedDbStore(await result(request));
    } catch (error) {
      throw new StoreError(describeStorageError(error), error);
    }
  }

  /** @returns {Promise<Snapshot>} */
  async load() {
    try {
      const tx = this.db.transaction(STORES, 'readonly');
      const [identity, records, chunkKeys, keys, values] = await Promise.all([
        result(tx.objectStore('identity').get('self')),
        result(tx.objectStore('records').getAll()),
        result(tx.objectStore('chunks').getAllKeys()),
        result(tx.objectStore('meta').getAllKeys()),
        result(tx.objectStore('meta').getAll()),
      ]);
      const meta = new Map();
      keys.forEach((k, i) => meta.set(String(k), values[i]));
      const held = chunkKeys.map(Number);
      return { identity: identity ?? null, records, meta, chunkKeys: held, chunks: () => this.readChunks(held) };
    } catch (error) {
      throw unreadable(error);
    }
  }

  /**
   * The chunks of `keys`, in a read of their own. A chunk another tab deleted since the keys were
   * read is not there to read, and is left out.
   * @param {number[]} keys @returns {Promise<StoredChunk[]>}
   */
  async readChunks(keys) {
    try {
      const chunks = this.db.transaction(['chunks'], 'readonly').objectStore('chunks');
      const values = await Promise.all(keys.map((key) => result(chunks.get(key))));
      return keys.flatMap((key, i) => (values[i] ? [{ key, bytes: values[i].bytes, count: values[i].count }] : []));
    } catch (error) {
      throw unreadable(error);
    }
  }

  /**
   * One transaction. Its records are put a slice at a time (PUT_SLICE_MS of puts, then the next
   * slice from the success of the slice's last put, still inside the transaction), so that a
   * page of thousands of pulled records never holds the page's input for long: each put copies
   * its record on the calling thread (about 0.2 ms a record at 4× CPU throttling), and a page of
   * 2,000 blocked every tap for 400 ms (BENCHMARKS.md §14).
   * @param {Change} change @returns {Promise<void>}
   */
  commit(change) {
    return new Promise((resolve, reject) => {
      /** @type {IDBTransaction} */
      let tx;
      /** @type {unknown} */
      let failure = null;
      try {
        tx = this.db.transaction(STORES, 'readwrite', { durability: change.relaxed ? 'relaxed' : 'strict' });
        if (change.clear) for (const name of STORES) tx.objectStore(name).clear();
        if (change.identity) tx.objectStore('identity').put(change.identity, 'self');
        const records = tx.objectStore('records');
        for (const key of change.remove ?? []) records.delete(key);
        const chunks = tx.objectStore('chunks');
        for (const key of change.dropChunks ?? []) chunks.delete(key);
        // A copy of exactly the chunk's bytes: a view into a larger buffer would store all of it.
        for (const { bytes, count } of change.chunks ?? []) chunks.add({ bytes: bytes.slice(), count });
        const meta = tx.objectStore('meta');
        for (const [key, value] of Object.entries(change.meta ?? {})) {
          if (value === undefined) meta.delete(key); else meta.put(value, key);
        }
        const puts = change.put ?? [];
        let next = 0;
        const putSlice = () => {
          try {
            const started = performance.now();
            /** @type {IDBRequest | null} */
            let last = null;
            while (next < puts.length) {
              last = records.put(puts[next++]);
              if (next % 8 === 0 && performance.now() - started > PUT_SLICE_MS) break;
            }
            if (next < puts.length && last) last.onsuccess = putSlice;
            else if (change.compact) compact(change.compact);
            else if (change.completions) stampCompletions(chunks, records, meta, change.completions);
          } catch (error) {
            failure = error;
            tx.abort();
          }
        };
        /** @param {NonNullable<Change['compact']>} choose */
        const compact = (choose) => {
          const values = records.getAll();
          values.onsuccess = () => {
            try {
              const chunk = choose(values.result);
              if (!chunk) return;
              chunks.add({ bytes: chunk.bytes.slice(), count: chunk.count });
              for (const key of chunk.remove) records.delete(key);
              if (change.completions) stampCompletions(chunks, records, meta, change.completions);
            } catch (error) {
              failure = error;
              tx.abort();
            }
          };
        };
        putSlice();
        if (failure) throw failure;
      } catch (error) {
        reject(new StoreError(describeStorageError(error), error));
        return;
      }
      tx.oncomplete = () => resolve();
      // Chromium refuses a full quota when the transaction commits (an abort with
      // QuotaExceededError); another browser may fail the request itself. Its error event is
      // left uncancelled: a cancelled one (preventDefault) keeps the transaction going, which
      // would commit the change without that record (or, its slice's last put failing, without
      // the slices after it). Either way the abort reports it, once.
      tx.onabort = () => reject(new StoreError(describeStorageError(failure ?? tx.error), failure ?? tx.error));
    });
  }

  /** @param {string[]} keys @returns {Promise<ReadBack>} */
  async readBack(keys) {
    try {
      const tx = this.db.transaction(['identity', 'records'], 'readonly');
      const records = tx.objectStore('records');
      const [identity, ...found] = await Promise.all([
        result(tx.objectStore('identity').get('self')),
        ...keys.map((key) => result(records.get(key))),
      ]);
      return { identity: identity ?? null, records: found };
    } catch (error) {
      throw new StoreError(`the app could not read back what it saved (${error instanceof Error ? error.message : String(error)})`, error);
    }
  }
}

/**
 * Puts the completions snapshot stamped with the keys the stores hold once every earlier request
 * of the transaction is done: the records the transaction leaves, whatever wrote them.
 * @param {IDBObjectStore} chunks @param {IDBObjectStore} records @param {IDBObjectStore} meta
 * @param {import('./completionsSnapshot.js').CompletionsRows} rows
 */
function stampCompletions(chunks, records, meta, rows) {
  const chunkKeys = chunks.getAllKeys(), recordKeys = records.getAllKeys();
  recordKeys.onsuccess = () => {
    const state = replicaState(chunkKeys.result.map(Number), recordKeys.result.map(String));
    meta.put(stampedCompletions(rows, state), COMPLETIONS_KEY);
  };
}

/**
 * The refusal of a read of the saved data.
 * @param {unknown} error
 */
function unreadable(error) {
  return new StoreError(`the app could not read its saved data (${error instanceof Error ? error.message : String(error)})`, error, 'unreadable');
}

/** The same interface in memory: node tests, and a fallback that says nothing is kept. */
export class MemoryStore {
  constructor() {
    /** @type {Identity | null} */
    this.identity = null;
    /** @type {Map<string, StoredEvent>} */
    this.records = new Map();
    /** @type {StoredChunk[]} */
    this.chunks = [];
    /** The largest chunk key given so far. */
    this.lastChunkKey = 0;
    /** @type {Map<string, unknown>} */
    this.meta = new Map();
    /** Tests: the next commits throw this error (e.g. a QuotaExceededError) and write nothing. */
    /** @type {unknown} */
    this.failWith = null;
    this.commits = 0;
    /** Tests: this many next commits store every record altered (a write the disk garbled). */
    this.garbleWrites = 0;
    /** Tests: the durability each commit asked for, in order. */
    /** @type {('strict' | 'relaxed')[]} */
    this.durabilities = [];
  }

  /** @returns {Promise<Snapshot>} */
  async load() {
    const held = this.chunks.map((c) => c.key);
    return {
      identity: this.identity ? structuredClone(this.identity) : null,
      records: [...this.records.values()].map((r) => structuredClone(r)),
      chunkKeys: held,
      // As IndexedDbStore's: the chunks of the keys read here, those still there.
      chunks: async () => this.chunks.filter((c) => held.includes(c.key)).map((c) => ({ ...c, bytes: c.bytes.slice() })),
      meta: new Map([...this.meta].map(([k, v]) => [k, structuredClone(v)])),
    };
  }

  /** @param {Change} change */
  async commit(change) {
    if (this.failWith) throw new StoreError(describeStorageError(this.failWith), this.failWith);
    // A compaction is chosen before anything changes: a change carrying one carries nothing else
    // but the completions snapshot, and a refused one (it throws) writes nothing.
    const compacted = change.compact?.([...this.records.values()].map((r) => structuredClone(r))) ?? null;
    this.commits++;
    this.durabilities.push(change.relaxed ? 'relaxed' : 'strict');
    if (change.compact && !compacted) return;
    if (change.clear) {
      this.identity = null;
      this.records.clear();
      this.chunks = [];
      this.meta.clear();
    }
    const dropped = new Set(change.dropChunks ?? []);
    this.chunks = this.chunks.filter((c) => !dropped.has(c.key));
    for (const { bytes, count } of [...change.chunks ?? [], ...compacted ? [compacted] : []]) {
      // As IndexedDB's key generator: above every key given before, a deleted one's included.
      this.lastChunkKey = Math.max(this.lastChunkKey, this.chunks[this.chunks.length - 1]?.key ?? 0) + 1;
      this.chunks.push({ key: this.lastChunkKey, bytes: bytes.slice(), count });
    }
    if (change.identity) this.identity = structuredClone(change.identity);
    for (const key of [...change.remove ?? [], ...compacted?.remove ?? []]) this.records.delete(key);
    const garble = this.garbleWrites > 0;
    if (garble) this.garbleWrites--;
    for (const record of change.put ?? []) this.records.set(record.key, { ...structuredClone(record), ...(garble ? { hlc: '0' } : {}) });
    for (const [key, value] of Object.entries(change.meta ?? {})) {
      if (value === undefined) this.meta.delete(key); else this.meta.set(key, structuredClone(value));
    }
    if (change.completions) {
      const state = replicaState(this.chunks.map((c) => c.key), this.records.keys());
      this.meta.set(COMPLETIONS_KEY, stampedCompletions(structuredClone(change.completions), state));
    }
  }

  /** @param {string[]} keys @returns {Promise<ReadBack>} */
  async readBack(keys) {
    return {
      identity: this.identity ? structuredClone(this.identity) : null,
      records: keys.map((key) => { const r = this.records.get(key); return r && structuredClone(r); }),
    };
  }
}
