// The offline tile cache (Schemas/map.md "Raster tiles"): every tile the map fetched is kept
// in the Cache API cache TILE_CACHE under its URL, up to TILE_CACHE_BYTES of tile bytes, the least
// recently used evicted first (tileLru.js). The order of use is kept in the same cache under
// INDEX_KEY, written a moment after it changes and when the page is hidden, so that deleting the
// cache forgets both. Tiles the index does not name (stored after its last write, which the page
// did not live to make) are taken back as the most recently used when the store opens.
//
// Every failure of the browser's storage (quota, a private mode) leaves a tile unkept, never the map
// without it: get answers null and put does nothing.

import { TileLru } from './tileLru.js';

/** The Cache API cache of tiles; a new format gets a new name. */
export const TILE_CACHE = 'oritsubushi-tiles-v1';
/** 50 MB (powers of 1,000, as 同期's storage line counts): a few thousand tiles, a few cities at street level. */
export const TILE_CACHE_BYTES = 50_000_000;
/** Tiles kept longer than this are asked for again when the network is there (their copy is drawn meanwhile). */
export const TILE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** Where the index is kept in the cache: a path of the app's own that nothing serves. */
export const INDEX_KEY = 'tile-index.json';
/** How long after a change the index is written. */
const SAVE_DELAY_MS = 2000;
/** The header a kept tile carries: when it was stored (milliseconds since 1970). */
const STORED_HEADER = 'X-Oritsubushi-Stored';

/** @typedef {{blob: Blob, stale: boolean}} KeptTile */

export class TileStore {
  /**
   * @param {Cache} cache @param {TileLru} lru @param {string} indexUrl
   * @param {{now: () => number, later: (run: () => void, ms: number) => unknown}} clock
   */
  constructor(cache, lru, indexUrl, clock) {
    this.cache = cache;
    this.lru = lru;
    this.indexUrl = indexUrl;
    this.clock = clock;
    this.saving = false;
  }

  /**
   * Opens the cache and its index, taking back the tiles the index does not name; null where the
   * browser has no Cache API (plain http) or refuses it.
   * @param {CacheStorage | undefined} storage
   * @param {object} options
   * @param {string} options.base the app's URL (INDEX_KEY is resolved against it)
   * @param {number} [options.cap]
   * @param {() => number} [options.now]
   * @param {(run: () => void, ms: number) => unknown} [options.later]
   * @returns {Promise<TileStore | null>}
   */
  static async open(storage, options) {
    if (!storage) return null;
    try {
      const cache = await storage.open(TILE_CACHE);
      const indexUrl = new URL(INDEX_KEY, options.base).href;
      const kept = await cache.match(indexUrl);
      const lru = TileLru.fromJSON(kept ? await kept.json().catch(() => null) : null, options.cap ?? TILE_CACHE_BYTES);
      const store = new TileStore(cache, lru, indexUrl, {
        now: options.now ?? (() => Date.now()),
        later: options.later ?? ((run, ms) => setTimeout(run, ms)),
      });
      for (const request of await cache.keys()) {
        if (request.url === indexUrl || lru.has(request.url)) continue;
        const response = await cache.match(request);
        const stored = Number(response?.headers.get(STORED_HEADER));
        const bytes = response ? (await response.blob()).size : 0;
        for (const gone of lru.add(request.url, bytes, Number.isSafeInteger(stored) ? stored : 0)) await cache.delete(gone);
      }
      return store;
    } catch (error) {
      console.debug('tiles are not kept for offline use:', error);
      return null;
    }
  }

  /**
   * A kept tile (now the most recently used), and whether it is old enough to ask for again.
   * @param {string} url
   * @returns {Promise<KeptTile | null>}
   */
  async get(url) {
    const entry = this.lru.get(url);
    if (!entry) return null;
    try {
      const response = await this.cache.match(url);
      if (!response) {
        this.lru.remove(url);
        this.changed();
        return null;
      }
      const blob = await response.blob();
      this.lru.touch(url);
      this.changed();
      return { blob, stale: this.clock.now() - entry.stored > TILE_MAX_AGE_MS };
    } catch {
      return null;
    }
  }

  /**
   * Keeps a tile just fetched, evicting the least recently used past the cap.
   * @param {string} url @param {Blob} blob
   */
  async put(url, blob) {
    try {
      if (blob.size > this.lru.cap) return;
      const stored = this.clock.now();
      const headers = { 'Content-Type': blob.type || 'application/octet-stream', [STORED_HEADER]: String(stored) };
      await this.cache.put(url, new Response(blob, { headers }));
      for (const evicted of this.lru.add(url, blob.size, stored)) await this.cache.delete(evicted);
      this.changed();
    } catch (error) {
      console.debug('a tile was not kept:', error);
    }
  }

  /** Bytes of tiles kept. */
  get bytes() {
    return this.lru.total;
  }

  /** The order changed: written once, a moment later. */
  changed() {
    if (this.saving) return;
    this.saving = true;
    this.clock.later(() => { this.saving = false; void this.save(); }, SAVE_DELAY_MS);
  }

  /** Writes the index now. */
  async save() {
    try {
      await this.cache.put(this.indexUrl, new Response(JSON.stringify(this.lru.toJSON()), { headers: { 'Content-Type': 'application/json' } }));
    } catch (error) {
      console.debug('the tile index was not written:', error);
    }
  }
}

/**
 * Deletes every kept tile and the index (the replica was erased: where the person looked goes
 * with it).
 * @param {CacheStorage | undefined} storage
 */
export async function eraseTiles(storage) {
  try {
    await storage?.delete(TILE_CACHE);
  } catch {
    // Nothing to delete, or storage refused: nothing more to do.
  }
}
