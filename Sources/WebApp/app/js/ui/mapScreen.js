// 地図: the catalogue's map on a canvas (map.js) with the pins of Schemas/map.md for the current
// view. Drag to pan, pinch or wheel to zoom; tap a pin for its station (and
// the others at its position, completed first), tap a count to zoom in
// there. The pins depend on the view's span alone, so they never flicker while panning.
// A tap acts on the canvas's own `click`, the last event of the gesture: opening the station on
// `pointerup` let the click of the same tap press what the station screen showed under the
// finger (Schemas/phone-app.md "A tap acts once").

import { buildScene, drawMap, fitView, hitTest, updateCompletion, viewBox } from '../map.js';
import { panBy, project, zoomAt } from '../mapCore.js';
import { MapIndex } from '../mapRule.js';
import { t } from '../i18n.js';
import { byId } from './dom.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../map.js').Scene} Scene */
/** @typedef {import('../mapCore.js').Viewport} Viewport */
/** @typedef {import('../map.js').Overlay} Overlay */
/** @typedef {{openStation: (id: number, samePoint?: number[]) => void, showTab: (name: string) => void}} Nav */
/** @typedef {'all' | 'completed' | 'incomplete'} Show */

/** Pins per view: the CLI's default limit (100 = 10 × 10 grid cells, one pin each). */
const PIN_LIMIT = 100;

export class MapScreen {
  /** @param {App} app @param {Nav} nav */
  constructor(app, nav) {
    this.app = app;
    this.nav = nav;
    this.canvas = byId('map-canvas', HTMLCanvasElement);
    this.message = byId('map-message');
    const ctx = this.canvas.getContext('2d');
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    this.ctx = ctx;
    /** @type {Scene | null} */
    this.scene = null;
    /** @type {MapIndex | null} */
    this.index = null;
    /** @type {Viewport | null} */
    this.view = null;
    /** @type {Show} */
    this.show = 'all';
    /** Completions changed since the filter's index was built: it is built again at the next drawing. */
    this.indexBehind = false;
    /** @type {number | null} */
    this.selected = null;
    /** @type {Overlay} */
    this.overlay = { pins: [], counts: [], nameOf: (id) => this.app.catalog?.station(id)?.name ?? '', selected: null };
    this.width = 0;
    this.height = 0;
    this.frame = 0;
    /** @type {Map<number, {x: number, y: number}>} */
    this.pointers = new Map();
    this.moved = 0;
    /** Where the last gesture's first finger went down. */
    this.downAt = { x: 0, y: 0 };
    /** A tap seen at pointerup, acted on by the click that ends the same gesture. */
    /** @type {{x: number, y: number, touch: boolean} | null} */
    this.pendingTap = null;
    this.bindGestures();
    for (const button of document.querySelectorAll('.map-show button')) {
      button.addEventListener('click', () => this.setShow(/** @type {Show} */ (/** @type {HTMLElement} */ (button).dataset.show)));
    }
    new ResizeObserver(() => this.redraw()).observe(this.canvas);
  }

  /** The catalogue arrived or changed: new scene, index and (first time) view. */
  setCatalog() {
    const catalog = this.app.catalog;
    this.message.hidden = !!catalog;
    this.message.textContent = catalog ? '' : t('noCatalog');
    if (!catalog) { this.scene = null; this.index = null; this.redraw(); return; }
    this.scene = buildScene(catalog, (id) => this.app.compDate(id));
    this.rebuildIndex();
    this.view = null;
    this.redraw();
  }

  /** The pin index of the current filter (completed / incomplete stations are ranked among themselves). */
  rebuildIndex() {
    const catalog = this.app.catalog;
    this.indexBehind = false;
    if (!catalog) return;
    const entries = catalog.enabledStations
      .filter((s) => this.show === 'all' || (this.show === 'completed') === (this.app.compDate(s.id) > 0))
      .map((s) => ({ id: s.id, lat: s.lat, lng: s.lng, weight: s.weight }));
    this.index = new MapIndex(entries, PIN_LIMIT);
  }

  /** @param {Show} show */
  setShow(show) {
    this.show = show;
    for (const b of document.querySelectorAll('.map-show button')) b.classList.toggle('on', /** @type {HTMLElement} */ (b).dataset.show === show);
    this.rebuildIndex();
    this.redraw();
  }

  /**
   * Completions changed.
   * @param {number[] | null} stations
   */
  refresh(stations) {
    if (!this.scene || !this.app.catalog) return;
    if (stations === null) { this.setCatalog(); return; }
    updateCompletion(this.scene, (id) => this.app.compDate(id));
    // While a sync stores pages, the map is drawn again when it ends (the last notice names every
    // station it changed), when the tab appears or when the person moves it: a drawing held the
    // page for 150–400 ms at 4× CPU throttling (BENCHMARKS.md §14).
    if (this.show !== 'all') this.indexBehind = true;
    if (this.app.running) return;
    this.redraw();
  }

  /**
   * Centres the map on a station, close enough to see its neighbours.
   * @param {number} id
   */
  centerOn(id) {
    const s = this.app.catalog?.station(id);
    if (!s) return;
    const p = project(s.lat, s.lng);
    this.selected = id;
    this.view = { cx: p.x, cy: p.y, scale: Math.max(this.view?.scale ?? 0, 2) };
    this.redraw();
  }

  /**
   * The 地図 tab appeared: the map is drawn after the frame that shows the tab, so that the tap
   * on the tab answers at once (a drawing took 150–400 ms at 4× CPU throttling: BENCHMARKS.md
   * §14); until then the canvas shows its last drawing. A drawing already due stays as it is.
   */
  shown() {
    if (this.frame) return;
    requestAnimationFrame(() => setTimeout(() => this.redraw(), 0));
  }

  redraw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  draw() {
    const rect = this.canvas.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return; // hidden
    const dpr = window.devicePixelRatio || 1;
    if (this.width !== rect.width || this.height !== rect.height) {
      this.width = rect.width;
      this.height = rect.height;
      this.canvas.width = Math.round(rect.width * dpr);
      this.canvas.height = Math.round(rect.height * dpr);
    }
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (!this.scene || !this.index) {
      this.ctx.clearRect(0, 0, this.width, this.height);
      return;
    }
    if (this.indexBehind) this.rebuildIndex();
    if (!this.view) this.view = fitView(this.scene, this.width, this.height);
    const box = viewBox(this.view, this.width, this.height);
    this.overlay.pins = this.index.query(box).pins;
    this.overlay.counts = this.index.hidden(box);
    this.overlay.selected = this.selected;
    drawMap(this.ctx, this.scene, this.view, this.width, this.height, this.overlay);
  }

  /** The zoom limits: from half of all Japan to a few metres per pixel. */
  scaleLimits() {
    const fit = this.scene ? fitView(this.scene, this.width || 390, this.height || 700).scale : 0.01;
    return { min: fit / 2, max: 200 };
  }

  /** @param {number} px @param {number} py @param {number} factor */
  zoom(px, py, factor) {
    if (!this.view) return;
    const { min, max } = this.scaleLimits();
    this.view = zoomAt(this.view, this.width, this.height, px, py, factor, min, max);
    this.redraw();
  }

  /** @param {number} px @param {number} py @param {boolean} touch */
  tap(px, py, touch) {
    if (!this.scene || !this.view) return;
    const hit = hitTest(this.scene, this.overlay, this.view, this.width, this.height, px, py, touch ? 22 : 12);
    if (!hit) return;
    if ('stations' in hit) {
      // Stations sharing the pin's position (東京 of several operators): the completed first.
      this.selected = hit.stations[0];
      this.redraw();
      this.nav.openStation(hit.stations[0], hit.stations);
      return;
    }
    // A count: zoom in on it until its stations get pins of their own.
    const p = project(hit.cell.meanLat, hit.cell.meanLng);
    this.view = { ...this.view, cx: p.x, cy: p.y };
    this.zoom(this.width / 2, this.height / 2, 3);
  }

  bindGestures() {
    const c = this.canvas;
    /** @param {PointerEvent} e */
    const local = (e) => {
      const r = c.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    c.addEventListener('pointerdown', (e) => {
      this.pointers.set(e.pointerId, local(e));
      this.downAt = local(e);
      this.moved = 0;
      try { c.setPointerCapture(e.pointerId); } catch { /* not capturable: fine */ }
    });
    c.addEventListener('pointermove', (e) => {
      const previous = this.pointers.get(e.pointerId);
      if (!previous || !this.view) return;
      const now = local(e);
      if (this.pointers.size === 1) {
        this.moved += Math.abs(now.x - previous.x) + Math.abs(now.y - previous.y);
        this.view = panBy(this.view, now.x - previous.x, now.y - previous.y);
        this.redraw();
      } else if (this.pointers.size === 2) {
        this.moved += 100;
        const other = [...this.pointers].find(([id]) => id !== e.pointerId)?.[1];
        if (other) {
          const before = Math.hypot(previous.x - other.x, previous.y - other.y);
          const after = Math.hypot(now.x - other.x, now.y - other.y);
          if (before > 0 && after > 0) this.zoom((now.x + other.x) / 2, (now.y + other.y) / 2, after / before);
        }
      }
      this.pointers.set(e.pointerId, now);
    });
    /** @param {PointerEvent} e */
    const up = (e) => {
      const p = this.pointers.get(e.pointerId);
      // A tap lifts the finger where it went down: moves the browser coalesced or dropped (a
      // busy phone) must not turn a drag into a tap at a stale position.
      const lifted = local(e);
      const still = Math.abs(lifted.x - this.downAt.x) + Math.abs(lifted.y - this.downAt.y) < 8;
      const isTap = p && this.pointers.size === 1 && this.moved < 8 && still && e.type === 'pointerup';
      this.pendingTap = isTap ? { x: p.x, y: p.y, touch: e.pointerType !== 'mouse' } : null;
      this.pointers.delete(e.pointerId);
    };
    c.addEventListener('pointerup', up);
    c.addEventListener('pointercancel', up);
    c.addEventListener('click', (e) => {
      const tap = this.pendingTap;
      this.pendingTap = null;
      if (!tap) return;
      // Nothing after this click belongs to the gesture: the new screen gets no event of it.
      e.preventDefault();
      e.stopPropagation();
      this.tap(tap.x, tap.y, tap.touch);
    });
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      const p = { x: e.offsetX, y: e.offsetY };
      this.zoom(p.x, p.y, Math.pow(1.0015, -e.deltaY));
    }, { passive: false });
    c.addEventListener('dblclick', (e) => this.zoom(e.offsetX, e.offsetY, 2));
  }
}
