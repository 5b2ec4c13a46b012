// Which tiles the offline tile cache keeps (Schemas/map.md "Raster tiles"): each tile's
// bytes and when it was stored, in order of use, least recently used first. Adding a tile past the
// cap evicts from the front until the total fits; a tile larger than the whole cap is not kept.
// The same rule holds the decoded tiles in memory (tileLayer.js), counted in pixels' bytes.
//
// Pure: no storage and no clock; tileStore.js keeps the order and the tiles themselves.

/**
 * One tile kept: its bytes and when it was stored (milliseconds since 1970).
 * @typedef {{bytes: number, stored: number}} LruEntry
 */

export class TileLru {
  /** @param {number} capBytes */
  constructor(capBytes) {
    this.cap = capBytes;
    this.total = 0;
    /** Insertion order is use order: the first key is the least recently used. */
    /** @type {Map<string, LruEntry>} */
    this.entries = new Map();
  }

  get size() {
    return this.entries.size;
  }

  /** @param {string} key */
  has(key) {
    return this.entries.has(key);
  }

  /** @param {string} key */
  get(key) {
    return this.entries.get(key);
  }

  /**
   * Marks a kept tile as used now; false when it is not kept.
   * @param {string} key
   */
  touch(key) {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return true;
  }

  /**
   * Keeps a tile as the most recently used (replacing what was kept under its key), then evicts
   * the least recently used until the total fits the cap. Returns the keys to delete from
   * storage, in eviction order: the tile itself when it alone is over the cap.
   * @param {string} key @param {number} bytes @param {number} [stored]
   * @returns {string[]}
   */
  add(key, bytes, stored = 0) {
    this.remove(key);
    if (!(bytes >= 0) || bytes > this.cap) return [key];
    this.entries.set(key, { bytes, stored });
    this.total += bytes;
    /** @type {string[]} */
    const evicted = [];
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.cap) break;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
      evicted.push(oldest);
    }
    return evicted;
  }

  /**
   * Forgets a tile; false when it was not kept.
   * @param {string} key
   */
  remove(key) {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.bytes;
    return true;
  }

  /** Forgets every tile. */
  clear() {
    this.entries.clear();
    this.total = 0;
  }

  /**
   * Key, bytes and when stored, least recently used first.
   * @returns {Array<[string, number, number]>}
   */
  toJSON() {
    return [...this.entries].map(([key, e]) => [key, e.bytes, e.stored]);
  }

  /**
   * The order kept by toJSON, read back; entries that are not [string, bytes, stored] are left
   * out (a damaged index loses those tiles, never the app), and the cap applies again.
   * @param {unknown} value @param {number} capBytes
   */
  static fromJSON(value, capBytes) {
    const lru = new TileLru(capBytes);
    if (!Array.isArray(value)) return lru;
    for (const row of value) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || !Number.isSafeInteger(row[1]) || row[1] < 0) continue;
      lru.add(row[0], row[1], Number.isSafeInteger(row[2]) ? row[2] : 0);
    }
    return lru;
  }
}
