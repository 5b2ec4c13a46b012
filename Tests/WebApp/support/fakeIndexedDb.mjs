// An IndexedDB in memory, as much of it as store.js uses, with the behaviour the app's
// safekeeping relies on: a transaction's writes land together when it commits, or none of them
// when it aborts; a request that fails fires an error event that bubbles to its transaction and,
// unless cancelled (preventDefault), aborts it; a full quota is refused as Chromium refuses it,
// by aborting the transaction at its commit with a QuotaExceededError (`quotaBytes`), or as
// another browser may, by failing the put itself (`failPutsWith`). Every read-write transaction's
// durability is recorded (`durabilities`). Its events run on setImmediate, so that tests may mock
// setTimeout (the app's retry timer) without stopping it.

/** @param {string} name */
const domError = (name) => new DOMException(`the fake IndexedDB refused: ${name}`, name);

/** The size a value takes, as the fake counts it against `quotaBytes`. */
const sizeOf = (/** @type {unknown} */ value) => (value === undefined ? 0
  : JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? 'x'.repeat(v.length) : v)).length);

class FakeRequest {
  constructor() {
    /** @type {unknown} */
    this.result = undefined;
    /** @type {DOMException | null} */
    this.error = null;
    /** @type {((event: unknown) => void) | null} */
    this.onsuccess = null;
    /** @type {((event: unknown) => void) | null} */
    this.onerror = null;
    /** @type {((event: unknown) => void) | null} */
    this.onupgradeneeded = null;
  }
}

class FakeObjectStore {
  /** @param {FakeTransaction} tx @param {string} name */
  constructor(tx, name) {
    this.tx = tx;
    this.name = name;
  }

  /** @param {unknown} value @param {unknown} [key] */
  put(value, key) {
    const store = this.tx.db.factory.stores.get(this.name);
    const k = key ?? /** @type {Record<string, unknown>} */ (value)[store.keyPath];
    if (k === undefined) throw domError('DataError');
    return this.tx.queue((staged) => {
      const failure = this.tx.db.factory.failPutsWith;
      if (failure) throw domError(failure);
      staged.get(this.name).set(String(k), structuredClone(value));
    });
  }

  /**
   * A value under the next key of an autoIncrement store: above every key it held, a deleted
   * one's included, as IndexedDB's key generator gives them.
   * @param {unknown} value
   */
  add(value) {
    return this.tx.queue((staged) => {
      const factory = this.tx.db.factory;
      if (factory.failPutsWith) throw domError(factory.failPutsWith);
      const data = staged.get(this.name);
      const key = Math.max(factory.lastKeys.get(this.name) ?? 0, ...[...data.keys()].map(Number)) + 1;
      factory.lastKeys.set(this.name, key);
      data.set(String(key), structuredClone(value));
      return key;
    });
  }

  /** @param {unknown} key */
  delete(key) { return this.tx.queue((staged) => { staged.get(this.name).delete(String(key)); }); }

  clear() { return this.tx.queue((staged) => { staged.get(this.name).clear(); }); }

  /** @param {unknown} key */
  get(key) { return this.tx.queue((staged) => structuredClone(staged.get(this.name).get(String(key)))); }

  getAll() { return this.tx.queue((staged) => [...staged.get(this.name).values()].map((v) => structuredClone(v))); }

  getAllKeys() { return this.tx.queue((staged) => [...staged.get(this.name).keys()]); }
}

class FakeTransaction {
  /** @param {FakeDatabase} db @param {string[]} names @param {string} mode @param {{durability?: string}} [options] */
  constructor(db, names, mode, options) {
    this.db = db;
    this.names = names;
    this.mode = mode;
    this.durability = options?.durability ?? 'default';
    /** @type {DOMException | null} */
    this.error = null;
    /** @type {(() => void) | null} */
    this.oncomplete = null;
    /** @type {(() => void) | null} */
    this.onabort = null;
    /** @type {((event: unknown) => void) | null} */
    this.onerror = null;
    /** @type {Array<{request: FakeRequest, run: (staged: Map<string, Map<string, unknown>>) => unknown}>} */
    this.requests = [];
    // Writes go to a copy of the stores, which replaces them only when the transaction commits.
    this.staged = new Map(names.map((n) => [n, new Map(db.factory.stores.get(n).data)]));
    if (mode === 'readwrite') db.factory.durabilities.push(this.durability);
    setImmediate(() => this.run());
  }

  /** @param {string} name */
  objectStore(name) {
    if (!this.names.includes(name)) throw domError('NotFoundError');
    return new FakeObjectStore(this, name);
  }

  /** @param {(staged: Map<string, Map<string, unknown>>) => unknown} run */
  queue(run) {
    const request = new FakeRequest();
    this.requests.push({ request, run });
    return request;
  }

  /** Runs the requests in order, then commits, as a browser does once none is left. */
  run() {
    for (const { request, run } of this.requests) {
      try {
        request.result = run(this.staged);
        request.onsuccess?.({ target: request });
      } catch (error) {
        request.error = /** @type {DOMException} */ (error);
        const event = { type: 'error', target: request, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
        request.onerror?.(event);
        this.onerror?.(event);
        if (!event.defaultPrevented) return this.abort(request.error);
      }
    }
    const factory = this.db.factory;
    if (this.mode === 'readwrite' && factory.quotaBytes !== null && factory.usage(this.staged) > factory.quotaBytes) {
      return this.abort(domError('QuotaExceededError'));
    }
    for (const [name, data] of this.staged) factory.stores.get(name).data = data;
    this.oncomplete?.();
  }

  /** @param {DOMException} error */
  abort(error) {
    this.error = error;
    this.onabort?.();
  }
}

class FakeDatabase {
  /** @param {FakeIndexedDb} factory */
  constructor(factory) {
    this.factory = factory;
    this.objectStoreNames = { contains: (/** @type {string} */ name) => factory.stores.has(name) };
    this.version = factory.version;
  }

  /** @param {string} name @param {{keyPath?: string}} [options] */
  createObjectStore(name, options) {
    this.factory.stores.set(name, { keyPath: options?.keyPath ?? null, data: new Map() });
  }

  /** @param {string[]} names @param {string} mode @param {{durability?: string}} [options] */
  transaction(names, mode, options) {
    return new FakeTransaction(this, names, mode, options);
  }
}

/** One origin's IndexedDB with one database. */
export class FakeIndexedDb {
  constructor() {
    /** @type {Map<string, {keyPath: string | null, data: Map<string, unknown>}>} */
    this.stores = new Map();
    /** Bytes the stores may hold (null: no limit); a commit that would hold more aborts. */
    /** @type {number | null} */
    this.quotaBytes = null;
    /** A DOMException name every put fails with (null: none). */
    /** @type {string | null} */
    this.failPutsWith = null;
    /** @type {string[]} */
    this.durabilities = [];
    /** Each autoIncrement store's largest key given so far. */
    /** @type {Map<string, number>} */
    this.lastKeys = new Map();
    /** The database's version: 0 before its first open. */
    this.version = 0;
  }

  /** @param {Map<string, Map<string, unknown>>} [staged] what a transaction would leave */
  usage(staged = new Map()) {
    let bytes = 0;
    for (const [name, store] of this.stores) {
      for (const [key, value] of staged.get(name) ?? store.data) bytes += key.length + sizeOf(value);
    }
    return bytes;
  }

  /**
   * Every value of a store, as stored now.
   * @param {string} name
   */
  all(name) {
    return [...(this.stores.get(name)?.data.values() ?? [])];
  }

  /** @param {string} _name @param {number} version */
  open(_name, version) {
    const request = new FakeRequest();
    setImmediate(() => {
      const db = new FakeDatabase(this);
      request.result = db;
      if (version > this.version) {
        const oldVersion = this.version;
        this.version = version;
        request.onupgradeneeded?.({ target: request, oldVersion });
      }
      request.onsuccess?.({ target: request });
    });
    return request;
  }
}
