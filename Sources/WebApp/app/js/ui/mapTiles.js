// 地図's raster tiles, where the server offers them (Schemas/map.md "Raster tiles"): reads
// config.json once the map has started (tileConfig.js), then draws through tileLayer.js under the
// lines, and shows the server's attribution beside the base map's (`map-tiles-attribution`, plain
// text) while the tiles are on. 設定's 地図タイル turns them off and on (settings.js `tiles`). The
// canvas carries what the last frame drew: data-tiles (on / off), and while on data-tiles-zoom,
// data-tiles-range (z/x0-x1/y0-y1), data-tiles-wanted, data-tiles-drawn, data-tiles-cached
// (tiles that came from the offline cache since the page opened) and data-tiles-fetched.

import { loadTileConfig, servedPolicy } from '../tileConfig.js';
import { TileLayer } from '../tileLayer.js';
import { TileStore, eraseTiles } from '../tileStore.js';
import { byId } from './dom.js';

/** @typedef {import('../tileConfig.js').TileConfig} TileConfig */
/** @typedef {import('../mapCore.js').Viewport} Viewport */

/** The Cache API, absent outside a secure context (plain http on a LAN). */
const cacheStorage = () => (typeof caches === 'undefined' ? undefined : caches);

export class MapTiles {
  /** @param {() => void} redraw asks the map for a frame */
  constructor(redraw) {
    this.redraw = redraw;
    this.attribution = byId('map-tiles-attribution');
    /** @type {TileConfig | null} */
    this.config = null;
    /** @type {TileLayer | null} */
    this.layer = null;
    this.enabled = true;
    window.addEventListener('online', () => this.layer?.reconnected());
    // The tile cache's order of use, written when the page may go (tileStore.js).
    const save = () => void this.layer?.store?.save();
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') save(); });
  }

  /** Whether the server offers tiles (設定 shows 地図タイル only then). */
  get offered() {
    return this.config !== null;
  }

  /**
   * Reads the server's offer and, when there is one, starts the layer. Never rejects: without
   * an offer the map is drawn as before.
   */
  async start() {
    const config = await loadTileConfig({
      policy: () => servedPolicy({
        controlled: !!navigator.serviceWorker?.controller,
        match: async (url) => cacheStorage()?.match(url),
        indexUrl: new URL('index.html', location.href).href,
      }),
      fetchConfig: () => fetch('config.json', { cache: 'no-cache' }),
      pageProtocol: location.protocol,
    });
    if (!config || typeof createImageBitmap !== 'function') return;
    const store = await TileStore.open(cacheStorage(), { base: location.href });
    this.layer = new TileLayer({
      template: config.template,
      // No cookie goes to the tile server; the app's origin (never its path) goes as the Referer
      // that tile servers' usage policies ask of browser apps.
      fetchTile: (url) => fetch(url, { mode: 'cors', credentials: 'omit', referrerPolicy: 'strict-origin' }),
      decode: (blob) => createImageBitmap(blob),
      store,
      online: () => navigator.onLine !== false,
      redraw: this.redraw,
    });
    this.config = config;
    this.render();
    this.redraw();
  }

  /**
   * 設定's 地図タイル.
   * @param {boolean} on
   */
  setEnabled(on) {
    this.enabled = on;
    this.render();
    this.redraw();
  }

  get drawing() {
    return this.enabled && this.layer !== null;
  }

  render() {
    const text = this.config?.attribution ?? '';
    this.attribution.textContent = text;
    this.attribution.hidden = !this.drawing || text === '';
  }

  /**
   * The map's underlay: the tiles of the view, when on.
   * @param {CanvasRenderingContext2D} ctx @param {Viewport} v @param {number} width @param {number} height @param {number} dpr
   */
  draw(ctx, v, width, height, dpr) {
    if (this.drawing) this.layer?.draw(ctx, v, width, height, dpr);
  }

  /**
   * What the last frame drew, on the canvas (the header says which attributes).
   * @param {HTMLElement} canvas
   */
  mark(canvas) {
    const d = canvas.dataset;
    d.tiles = this.drawing ? 'on' : 'off';
    const s = this.layer?.stats;
    if (!this.drawing || !s) return;
    d.tilesZoom = String(s.zoom);
    d.tilesRange = s.range;
    d.tilesWanted = String(s.wanted);
    d.tilesDrawn = String(s.drawn);
    d.tilesCached = String(s.cached);
    d.tilesFetched = String(s.fetched);
  }

  /** The replica was erased: the kept tiles (where the person looked) go with it. */
  async erase() {
    await eraseTiles(cacheStorage());
    if (this.layer) this.layer.store = await TileStore.open(cacheStorage(), { base: location.href });
  }
}
