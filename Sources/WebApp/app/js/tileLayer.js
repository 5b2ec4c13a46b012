// The map's raster tiles (Schemas/map.md "Raster tiles"), drawn over the base map's land and
// sea and under the lines and pins (map.js drawGround's underlay): the tiles of the zoom nearest the
// map's scale that cover the view (tileGrid.js), asked for nearest the middle first, a few at a
// time, each drawn as soon as it is decoded. Nothing drawn is taken away while the view's own
// tiles are on their way: tiles of up to COARSER zooms out and FINER zooms in, still held in
// memory, stand in where the view's own are missing, so a zoom never flashes back to the coast.
//
// A tile comes from the offline cache (tileStore.js) when it is kept there, else from the tile
// server with fetch(), and only while the browser is online: an offline view leaves the base map
// where no tile is kept, and asks again when the network returns. A failure (an error status, a
// refused connection, an image that does not decode) is retried RETRY_MS later at the earliest.
//
// The clock, the network, the decoder and the cache are passed in, so that node tests run it.

import { TileLru } from './tileLru.js';
import { ancestorAt, tileKey, tileRange, tileStrips, tileUrl, tileZoom, tilesOf } from './tileGrid.js';

/** @typedef {import('./tileGrid.js').Tile} Tile */
/** @typedef {import('./mapCore.js').Viewport} Viewport */
/** @typedef {import('./tileStore.js').TileStore} TileStore */
/** @typedef {{width: number, height: number, close?: () => void}} Bitmap an ImageBitmap, or a test's stand-in */
/** @typedef {{drawImage: (image: any, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number) => void}} TileCanvas */

/**
 * What the last frame drew, for the canvas's data attributes (mapTiles.js): the zoom, the range
 * of tiles covering the view, how many those are and how many of them were drawn; and since the
 * page opened, how many tiles came from the offline cache and how many from the tile server.
 * @typedef {{zoom: number, range: string, wanted: number, drawn: number, cached: number, fetched: number}} TileStats
 */

/** Decoded tiles held in memory, in bytes of pixels: about 90 tiles of 256 × 256. */
export const MEMORY_BYTES = 24_000_000;
/** Tiles asked for at once (browsers allow six connections to a server). */
export const CONCURRENT = 4;
/** A tile that failed is not asked for again until this long after. */
export const RETRY_MS = 30_000;
/** How many zooms out, and in, held tiles stand in for missing ones. */
const COARSER = 4, FINER = 2;

export class TileLayer {
  /**
   * @param {object} deps
   * @param {string} deps.template the server's URL template (tileConfig.js)
   * @param {(url: string) => Promise<Response>} deps.fetchTile
   * @param {(blob: Blob) => Promise<Bitmap>} deps.decode
   * @param {TileStore | null} deps.store the offline cache, null where the browser has none
   * @param {() => boolean} deps.online
   * @param {() => void} deps.redraw asks for a frame (coalesced by the map)
   * @param {() => number} [deps.now]
   */
  constructor(deps) {
    this.template = deps.template;
    this.fetchTile = deps.fetchTile;
    this.decode = deps.decode;
    this.store = deps.store;
    this.online = deps.online;
    this.redraw = deps.redraw;
    this.now = deps.now ?? (() => Date.now());
    this.memory = new TileLru(MEMORY_BYTES);
    /** @type {Map<string, {bitmap: Bitmap, tile: Tile}>} */
    this.held = new Map();
    /** Tiles queued or on their way. */
    /** @type {Set<string>} */
    this.pending = new Set();
    /** @type {Tile[]} */
    this.queue = [];
    this.inflight = 0;
    /** The tiles of the last frame's view: only those are asked for. */
    /** @type {Set<string>} */
    this.wanted = new Set();
    /** Key → when it may be asked for again. */
    /** @type {Map<string, number>} */
    this.failed = new Map();
    /** Tiles not kept that the view wanted while offline. */
    /** @type {Set<string>} */
    this.offline = new Set();
    /** @type {TileStats} */
    this.stats = { zoom: 0, range: '', wanted: 0, drawn: 0, cached: 0, fetched: 0 };
  }

  /**
   * Draws the tiles of a width × height view (CSS pixels; the context scaled for dpr) and asks for
   * those it lacks.
   * @param {TileCanvas} ctx @param {Viewport} v @param {number} width @param {number} height @param {number} dpr
   */
  draw(ctx, v, width, height, dpr) {
    const z = tileZoom(v.scale);
    const range = tileRange(v, width, height, z);
    const tiles = range ? tilesOf(range) : [];
    const missing = tiles.filter((t) => !this.held.has(tileKey(t)));
    for (const { bitmap, tile } of this.standIns(z, missing)) this.paint(ctx, v, width, height, dpr, bitmap, tile);
    let drawn = 0;
    for (const tile of tiles) {
      const held = this.held.get(tileKey(tile));
      if (!held) continue;
      this.memory.touch(tileKey(tile));
      this.paint(ctx, v, width, height, dpr, held.bitmap, tile);
      drawn++;
    }
    this.stats = {
      ...this.stats, zoom: z, wanted: tiles.length, drawn,
      range: range ? `${z}/${range.x0}-${range.x1}/${range.y0}-${range.y1}` : '',
    };
    this.wanted = new Set(tiles.map(tileKey));
    this.ask(missing);
  }

  /**
   * Held tiles of other zooms over the missing ones: coarser first, then finer, so the finest
   * detail at hand ends on top.
   * @param {number} z @param {Tile[]} missing
   */
  standIns(z, missing) {
    if (missing.length === 0) return [];
    const keys = new Set(missing.map(tileKey));
    const found = [...this.held.values()].filter(({ tile }) => {
      if (tile.z === z || tile.z < z - COARSER || tile.z > z + FINER) return false;
      if (tile.z > z) return keys.has(tileKey(ancestorAt(tile, z)));
      return missing.some((m) => { const a = ancestorAt(m, tile.z); return a.x === tile.x && a.y === tile.y; });
    });
    const rank = (/** @type {Tile} */ t) => (t.z < z ? t.z - 100 : -t.z);
    return found.sort((a, b) => rank(a.tile) - rank(b.tile));
  }

  /**
   * @param {TileCanvas} ctx @param {Viewport} v @param {number} width @param {number} height @param {number} dpr
   * @param {Bitmap} bitmap @param {Tile} tile
   */
  paint(ctx, v, width, height, dpr, bitmap, tile) {
    for (const s of tileStrips(v, width, height, tile, dpr)) {
      if (s.x + s.w < 0 || s.y + s.h < 0 || s.x > width || s.y > height) continue;
      ctx.drawImage(bitmap, 0, s.top * bitmap.height, bitmap.width, (s.bottom - s.top) * bitmap.height, s.x, s.y, s.w, s.h);
    }
  }

  /**
   * Queues the missing tiles that may be asked for now, and starts what the limit allows.
   * @param {Tile[]} missing
   */
  ask(missing) {
    const now = this.now();
    for (const tile of missing) {
      const key = tileKey(tile);
      if (this.pending.has(key) || (this.failed.get(key) ?? 0) > now || this.offline.has(key)) continue;
      this.pending.add(key);
      this.queue.push(tile);
    }
    this.pump();
  }

  /** Starts queued tiles the view still wants, up to CONCURRENT at once; drops the others. */
  pump() {
    while (this.inflight < CONCURRENT && this.queue.length > 0) {
      const tile = /** @type {Tile} */ (this.queue.shift());
      const key = tileKey(tile);
      if (!this.wanted.has(key)) { this.pending.delete(key); continue; }
      this.inflight++;
      void this.load(tile).finally(() => {
        this.inflight--;
        this.pending.delete(key);
        this.pump();
      });
    }
  }

  /**
   * One tile: from the offline cache, else (and when the kept copy is old) from the server.
   * @param {Tile} tile
   */
  async load(tile) {
    const key = tileKey(tile), url = tileUrl(this.template, tile);
    try {
      let kept = this.store ? await this.store.get(url) : null;
      if (kept) {
        try {
          await this.hold(tile, kept.blob);
          this.stats.cached++;
        } catch {
          kept = null; // a copy that does not decode: asked for again, and kept anew
        }
        if (kept && !kept.stale) return;
      }
      if (!this.online()) {
        if (!kept) this.offline.add(key);
        return;
      }
      const response = await this.fetchTile(url);
      if (!response.ok) throw new Error(`the tile server answered HTTP ${response.status}`);
      const blob = await response.blob();
      await this.hold(tile, blob);
      this.stats.fetched++;
      await this.store?.put(url, blob);
    } catch (error) {
      console.debug(`tile ${key} is not drawn for now:`, error);
      this.failed.set(key, this.now() + RETRY_MS);
    }
  }

  /**
   * Decodes a tile into memory (the least recently drawn released past MEMORY_BYTES), then asks
   * for a frame.
   * @param {Tile} tile @param {Blob} blob
   */
  async hold(tile, blob) {
    const bitmap = await this.decode(blob);
    const key = tileKey(tile);
    this.held.get(key)?.bitmap.close?.();
    this.held.set(key, { bitmap, tile });
    for (const gone of this.memory.add(key, bitmap.width * bitmap.height * 4)) {
      this.held.get(gone)?.bitmap.close?.();
      this.held.delete(gone);
    }
    this.redraw();
  }

  /** The network is back: tiles missed offline, or failed, are asked for at the next frame. */
  reconnected() {
    this.offline.clear();
    this.failed.clear();
    this.redraw();
  }
}
