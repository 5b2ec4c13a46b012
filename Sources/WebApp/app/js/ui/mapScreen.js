// 地図: the catalogue's map on a canvas (map.js) over the base map (baseMap.js), with the pins of
// Schemas/map.md and the app's landmarks for the current view (mapOverlay.js), and where the person
// is (mapPosition.js: it opens there when the location is allowed). Drag to pan, pinch or wheel to
// zoom; tap a pin for its station (and the others at its position, completed first), tap a count
// to zoom in there. The pins depend on the view's span alone, so they never flicker while panning.
// The names written on the map are also a list for screen readers (map-labels), and the canvas
// carries the view's centre (data-center-lat, data-center-lng, degrees) and zoom level (data-zoom).
// A tap acts on the canvas's own `click`, the last event of the gesture: opening the station on
// `pointerup` let the click of the same tap press what the station screen showed under the
// finger (Schemas/phone-app.md "A tap acts once").
// 地図選択 (showSelection): only a selection's stations are drawn and pinned (the 全駅/済/未
// filter on top), the view fits them, and a chip names the selection with a × that clears it;
// the canvas's data-shown-stations says how many stations are drawn. Raster tiles, where the
// server offers them, are drawn between the base map and the lines (mapTiles.js, which marks the
// canvas's data-tiles-*).

import { buildScene, drawGround, drawOverlay, fitView, hitTest, updateCompletion, STYLE } from '../map.js';
import { MapLayer } from '../mapLayer.js';
import { panBy, project, unproject, zoomAt } from '../mapCore.js';
import { MapIndex } from '../mapRule.js';
import { shownBy } from '../mapSelection.js';
import { fitSelection, selectionScene } from '../selectionScene.js';
import { buildOverlay, emptyOverlay } from '../mapOverlay.js';
import { Landmarks } from '../mapLandmarks.js';
import { catalogKey, keepGeometry, keepPinIndex, keptGeometry, keptPinIndex, sceneGeometry } from '../sceneGeometry.js';
import { loadBaseMap } from '../baseMap.js';
import { t } from '../i18n.js';
import { byId, h } from './dom.js';
import { MapGestures } from './mapGestures.js';
import { MapPosition } from './mapPosition.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../map.js').Scene} Scene */
/** @typedef {import('../mapCore.js').Viewport} Viewport */
/** @typedef {import('../mapOverlay.js').Overlay} Overlay */
/** @typedef {import('../baseMap.js').BaseMap} BaseMap */
/** @typedef {import('../positionWatch.js').Fix} Fix */
/** @typedef {{openStation: (id: number, samePoint?: number[]) => void, showTab: (name: string) => void, selectionCleared?: () => void}} Nav */
/** @typedef {{label: string, stations: number[], line?: number | null}} Selection */
/** @typedef {'all' | 'completed' | 'incomplete'} Show */

/** Pins per view: the CLI's default limit (100 = 10 × 10 grid cells, one pin each). */
const PIN_LIMIT = 100;
/**
 * The scale (CSS pixels per map unit) of a view centred on the person: about 44 m a pixel, 17 km
 * across a phone, the zoom level of a city (13), where the landmarks are named.
 */
export const POSITION_SCALE = 2.5;

/** The height of the map's top controls (the chip, 全駅/済/未), kept clear when fitting a selection. */
const SELECTION_INSET_TOP = 60;

/**
 * Runs a task once the page is idle (soon after, where the browser cannot say).
 * @param {() => void} task
 */
function whenIdle(task) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 1000 }); else setTimeout(task, 50);
}

export class MapScreen {
  /**
   * @param {App} app @param {Nav} nav
   * @param {Promise<BaseMap | null>} [base] the base map, when its loading started before the screen
   */
  constructor(app, nav, base = loadBaseMap((url) => fetch(url))) {
    this.app = app;
    this.nav = nav;
    this.canvas = byId('map-canvas', HTMLCanvasElement);
    this.message = byId('map-message');
    const ctx = this.canvas.getContext('2d');
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    this.ctx = ctx;
    /** @type {Scene | null} */
    this.scene = null;
    /**
     * How the pins are chosen: the index of the stations the filter (全駅/済/未) shows and their
     * landmarks, built together; pins per view, 0 for every station (設定's ピンの数); and whether
     * completions changed since the index was built (it is built again at the next drawing).
     * @type {{index: MapIndex | null, landmarks: Landmarks | null, show: Show, limit: number, stale: boolean}}
     */
    this.pins = { index: null, landmarks: null, show: 'all', limit: PIN_LIMIT, stale: false };
    /** @type {Viewport | null} */
    this.view = null;
    /** @type {number | null} */
    this.selected = null;
    /** @type {Overlay} */
    this.overlay = emptyOverlay();
    /** @type {BaseMap | null} */
    this.base = null;
    /** The raster tiles, once main.js has them. */
    /** @type {import('./mapTiles.js').MapTiles | null} */
    this.tiles = null;
    /** The ground (base map, lines, dots) kept between frames: a pan copies it (mapLayer.js). */
    this.ground = new MapLayer(() => document.createElement('canvas'), whenIdle);
    this.labelList = byId('map-labels');
    this.labelsShown = '';
    /** @type {Map<string, number>} */
    this.textWidths = new Map();
    this.visible = false;
    this.marked = { drawn: false, base: false };
    this.position = new MapPosition({ centreOn: (fix, first) => this.centreOnFix(fix, first), redraw: () => this.redraw() });
    this.width = 0;
    this.height = 0;
    this.frame = 0;
    /** The 地図選択 shown, and the whole catalogue's scene while its own scene is drawn. */
    /** @type {Selection | null} */
    this.selection = null;
    /** @type {Set<number> | null} */
    this.selectedIds = null;
    /** @type {Scene | null} */
    this.fullScene = null;
    this.chip = byId('map-chip');
    this.chipLabel = byId('map-chip-label');
    const clear = byId('map-chip-clear');
    clear.setAttribute('aria-label', t('mapSelect.clear'));
    clear.addEventListener('click', () => { this.clearSelection(); this.nav.selectionCleared?.(); });
    new MapGestures(this.canvas, {
      pan: (dx, dy) => {
        if (!this.view) return;
        this.view = panBy(this.view, dx, dy);
        this.position.moved();
        this.redraw();
      },
      zoom: (px, py, factor) => this.zoom(px, py, factor),
      tap: (px, py, touch) => this.tap(px, py, touch),
    });
    for (const button of document.querySelectorAll('.map-show button')) {
      button.addEventListener('click', () => this.setShow(/** @type {Show} */ (/** @type {HTMLElement} */ (button).dataset.show)));
    }
    // A canvas of the size last drawn needs no drawing again (the observer's first notice).
    new ResizeObserver(() => {
      const rect = this.canvas.getBoundingClientRect();
      if (rect.width !== this.width || rect.height !== this.height) this.redraw();
    }).observe(this.canvas);
    document.addEventListener('visibilitychange', () => this.setVisible(this.visible));
    void base.then((loaded) => { this.base = loaded; this.redraw(); });
  }

  /**
   * The map tab was shown or left; the position is watched only while the map is on the screen.
   * Shown, the map is drawn after the frame that shows the tab, so that the tap on the tab answers
   * at once (a drawing took 150–400 ms at 4× CPU throttling: BENCHMARKS.md §14); until then the
   * canvas shows its last drawing. A drawing already due stays as it is.
   * @param {boolean} visible
   */
  setVisible(visible) {
    this.visible = visible;
    if (visible && document.visibilityState !== 'hidden') {
      this.position.show();
      if (!this.frame) requestAnimationFrame(() => setTimeout(() => this.redraw(), 0));
    } else {
      this.position.hide();
      this.ground.release();
    }
  }

  /**
   * Centres the map on a fix: asked by the locate button (the zoom kept when closer), or the first
   * fix of the session (the map opens where the person is).
   * @param {Fix} fix @param {boolean} first
   */
  centreOnFix(fix, first) {
    const p = project(fix.lat * 1e6, fix.lng * 1e6);
    const scale = first || !this.view ? POSITION_SCALE : Math.max(this.view.scale, POSITION_SCALE);
    this.view = { cx: p.x, cy: p.y, scale };
    this.redraw();
  }

  /** The catalogue arrived or changed: new scene, index and (first time) view. */
  setCatalog() {
    const catalog = this.app.catalog;
    this.message.hidden = !!catalog;
    this.message.textContent = catalog ? '' : t('noCatalog');
    if (!catalog) { this.scene = null; this.fullScene = null; this.pins.index = null; this.pins.landmarks = null; this.redraw(); return; }
    const kept = keptGeometry(this.app.replica, catalog);
    const geometry = kept ?? sceneGeometry(catalog, catalogKey(this.app.replica));
    this.scene = buildScene(catalog, (id) => this.app.compDate(id), geometry);
    if (!kept && geometry.catalog !== '') void keepGeometry(this.app.replica, geometry);
    if (kept) performance.mark('oritsubushi:scene-kept'); // Tools/app-bench counts the starts that used it
    this.fullScene = this.scene;
    this.applySelection();
    this.rebuildIndex();
    this.view = null;
    this.redraw();
  }

  /** The pin index of the current filter (completed / incomplete stations are ranked among themselves). */
  rebuildIndex() {
    const catalog = this.app.catalog, scene = this.scene;
    this.pins.stale = false;
    if (!catalog || !scene) return;
    const entries = catalog.enabledStations
      .filter((s) => this.pins.show === 'all' || (this.pins.show === 'completed') === (this.app.compDate(s.id) > 0))
      .filter((s) => !this.selectedIds || this.selectedIds.has(s.id))
      .map((s) => ({ id: s.id, lat: s.lat, lng: s.lng, weight: s.weight }));
    // Every enabled station: the index the map opens with, kept beside the catalogue.
    const every = this.pins.show === 'all' && !this.selectedIds;
    const kept = every ? keptPinIndex(this.app.replica, entries, this.pins.limit) : null;
    this.pins.index = kept ?? new MapIndex(entries, this.pins.limit);
    if (every && !kept) void keepPinIndex(this.app.replica, this.pins.index);
    if (kept) performance.mark('oritsubushi:pins-kept');
    this.pins.landmarks = new Landmarks(entries.map((e) => ({ ...e, lines: scene.hubLines[scene.indexOf.get(e.id) ?? 0] })));
  }

  /**
   * Another pin limit: 0 (every station) or at least 4 (MapIndex).
   * @param {number} limit
   */
  setPinLimit(limit) {
    if (limit === this.pins.limit) return;
    this.pins.limit = limit;
    this.rebuildIndex();
    this.redraw();
  }

  /** @param {Show} show */
  setShow(show) {
    this.pins.show = show;
    for (const b of document.querySelectorAll('.map-show button')) b.classList.toggle('on', /** @type {HTMLElement} */ (b).dataset.show === show);
    this.applySelection();
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
    if (this.selection && this.fullScene) {
      updateCompletion(this.fullScene, (id) => this.app.compDate(id));
      this.applySelection(); // a line's completed sections follow the edit
    }
    // While a sync stores pages, the map is drawn again when it ends (the last notice names every
    // station it changed), when the tab appears or when the person moves it: a drawing held the
    // page for 150–400 ms at 4× CPU throttling (BENCHMARKS.md §14).
    if (this.selection || this.pins.show !== 'all') this.pins.stale = true;
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
    this.position.moved();
    this.redraw();
  }

  /**
   * 地図選択: draws only `selection.stations` (a line's with its completed sections), names it in
   * the chip, and fits the view to them unless `fit` is false (a selection recomputed after an edit).
   * @param {Selection} selection
   * @param {{fit?: boolean}} [options]
   */
  showSelection(selection, options = {}) {
    const fit = options.fit ?? true;
    this.selection = selection;
    this.chipLabel.textContent = selection.label;
    this.chip.hidden = false;
    this.applySelection();
    this.rebuildIndex();
    if (fit && this.scene) {
      const rect = this.canvas.getBoundingClientRect();
      const view = fitSelection(this.scene, rect.width || this.width, rect.height || this.height, this.scaleLimits().max, SELECTION_INSET_TOP);
      if (view) this.view = view;
    }
    this.redraw();
  }

  /** Back to every station. */
  clearSelection() {
    if (!this.selection) return;
    this.selection = null;
    this.chip.hidden = true;
    this.applySelection();
    this.rebuildIndex();
    this.redraw();
  }

  /** Draws the selection's scene (its stations under the 全駅/済/未 filter), or the whole catalogue's. */
  applySelection() {
    const catalog = this.app.catalog;
    if (!this.selection || !catalog || !this.fullScene) {
      this.selectedIds = null;
      if (this.fullScene) this.scene = this.fullScene;
    } else {
      const compDate = (/** @type {number} */ id) => this.app.compDate(id);
      const shown = shownBy(this.selection.stations, this.pins.show, compDate);
      this.selectedIds = new Set(shown);
      this.scene = selectionScene(catalog, shown, compDate, this.selection.line ?? null);
    }
    this.canvas.dataset.shownStations = String(this.scene?.ids.length ?? 0);
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
    if (!this.scene || !this.pins.index || !this.pins.landmarks) {
      this.ctx.clearRect(0, 0, this.width, this.height);
      return;
    }
    if (this.pins.stale) this.rebuildIndex();
    if (!this.view) this.view = fitView(this.scene, this.width, this.height);
    this.ctx.font = STYLE.font;
    this.overlay = buildOverlay({
      index: this.pins.index, landmarks: this.pins.landmarks, scene: this.scene, view: this.view, width: this.width, height: this.height,
      nameOf: (id) => this.app.catalog?.station(id)?.name.trim() ?? '',
      measure: (text) => this.measure(text),
      selected: this.selected,
    });
    const scene = this.scene, base = this.base, tiles = this.tiles, view = this.view, width = this.width, height = this.height;
    if (tiles?.drawing) {
      // Raster tiles arrive one by one and are asked for by the whole view they cover: with them
      // the ground is drawn whole for each frame, not kept in the layer (Schemas/map.md "Raster tiles").
      this.ctx.fillStyle = STYLE.background;
      this.ctx.fillRect(0, 0, width, height);
      drawGround(this.ctx, scene, view, width, height, base, (ctx) => tiles.draw(ctx, view, width, height, dpr));
    } else {
      this.ground.draw(this.ctx, [scene, scene.revision, base, view.scale, dpr], view, width, height, dpr, STYLE.background,
        (ctx, v, w, h) => drawGround(ctx, scene, v, w, h, base));
    }
    drawOverlay(this.ctx, this.overlay, width, height);
    tiles?.mark(this.canvas);
    // Once a page: when the map was first drawn, and first drawn over its base map (the
    // benchmarks read these marks).
    if (!this.marked.drawn) { this.marked.drawn = true; performance.mark('oritsubushi:map-drawn'); }
    if (this.base && !this.marked.base) { this.marked.base = true; performance.mark('oritsubushi:map-drawn-with-base'); }
    this.position.place(this.view, this.width, this.height);
    const centre = unproject(this.view.cx, this.view.cy);
    this.canvas.dataset.centerLat = (centre.lat / 1e6).toFixed(6);
    this.canvas.dataset.centerLng = (centre.lng / 1e6).toFixed(6);
    this.canvas.dataset.zoom = String(this.overlay.zoom);
    this.listLabels();
  }

  /**
   * A text's width in the map's font, measured once.
   * @param {string} text
   */
  measure(text) {
    let w = this.textWidths.get(text);
    if (w === undefined) {
      w = this.ctx.measureText(text).width;
      this.textWidths.set(text, w);
    }
    return w;
  }

  /**
   * The names written on the map, as a list a screen reader reads (and tests): each station with
   * whether it is completed (all, some or none of the stations at its point), and where its pin is.
   */
  listLabels() {
    const shown = this.overlay.labels.filter((l) => l.inView);
    const key = shown.map((l) => `${l.station}:${l.state}:${Math.round(l.px)}:${Math.round(l.py)}`).join(',');
    if (key === this.labelsShown) return;
    this.labelsShown = key;
    this.labelList.replaceChildren(...shown.map((l) => h('li', {
      text: t('map.labelState', l.text, t(l.state === 'all' ? 'map.stateAll' : l.state === 'some' ? 'map.stateSome' : 'map.stateNone')),
      data: { station: String(l.station), state: l.state, x: l.px.toFixed(1), y: l.py.toFixed(1) },
    })));
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
    this.position.moved();
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
    this.position.moved();
    this.zoom(this.width / 2, this.height / 2, 3);
  }
}
