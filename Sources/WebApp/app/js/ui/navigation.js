// Where the app is, kept in the URL's hash (route.js), so that a link or a reload opens the same
// view and the phone's back button goes back: opening a station, a line or a map selection adds
// a history entry; switching tabs replaces the current one (the tabs do not pile up). A route
// read from the address (a link, a reload, back and forward) opens what it names; one that needs
// the station data waits for it. The map's selection (地図選択) lives here: it is shown again when
// the 地図 tab is chosen, recomputed after edits when it depends on dates, and forgotten by its ×.

import { formatFilter, formatRoute, parseRoute } from '../route.js';
import { dependsOnDates, filterLabel, selectStations } from '../mapSelection.js';
import { t } from '../i18n.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../route.js').Route} Route */
/** @typedef {import('../route.js').Screen} Screen */
/** @typedef {import('../route.js').MapFilter} MapFilter */
/**
 * The screens a route opens.
 * @typedef {object} Screens
 * @property {(screen: Screen) => void} show shows a screen (main.js)
 * @property {{station: number | null, open: (id: number, samePoint?: number[]) => void}} station
 * @property {{line: number | null, open: (id: number) => void}} line
 * @property {{showSelection: (selection: {label: string, stations: number[], line?: number | null}, options?: {fit?: boolean}) => void,
 *   clearSelection: () => void, centerOn: (id: number) => void}} map
 * @property {(message: string) => void} toast
 */

export class Navigation {
  /** @param {App} app @param {Screens} screens */
  constructor(app, screens) {
    this.app = app;
    this.screens = screens;
    /** @type {MapFilter | null} */
    this.mapFilter = null;
    /** A route read before the station data arrived. */
    /** @type {Route | null} */
    this.pending = null;
    /** The hash this object last wrote or followed. */
    this.hash = location.hash;
    const follow = () => this.followAddress();
    window.addEventListener('popstate', follow);
    window.addEventListener('hashchange', follow);
  }

  /**
   * Opens what the address names, if it is a route; false when it is none.
   * @returns {boolean}
   */
  openAddress() {
    this.hash = location.hash;
    const route = parseRoute(location.hash);
    if (!route) return false;
    this.apply(route);
    return true;
  }

  /** Back and forward, an edited address. */
  followAddress() {
    if (location.hash === this.hash) return;
    this.openAddress();
  }

  /**
   * Writes a route into the address: a new history entry, or in place.
   * @param {Route} route @param {boolean} replace
   */
  write(route, replace) {
    const hash = formatRoute(route);
    if (hash !== location.hash) {
      // Each entry counts the app's own entries before it, so that 戻る never leaves the app.
      const depth = Navigation.depth();
      if (replace) history.replaceState({ depth }, '', hash); else history.pushState({ depth: depth + 1 }, '', hash);
    }
    this.hash = location.hash;
  }

  /** How many entries of the app's own lie before the current one. */
  static depth() {
    const state = /** @type {{depth?: unknown} | null} */ (history.state);
    return typeof state?.depth === 'number' ? state.depth : 0;
  }

  /**
   * Opens a route read from the address. The station and line screens keep what they show when
   * the route names the same station or line (typed values stay).
   * @param {Route} route
   */
  apply(route) {
    if (!this.app.catalog && route.screen !== 'sync') {
      this.pending = route;
      this.screens.show('sync');
      return;
    }
    this.pending = null;
    if (route.screen === 'station' && route.station !== undefined && route.station !== this.screens.station.station) {
      this.screens.station.open(route.station);
    }
    if (route.screen === 'line' && route.line !== undefined && route.line !== this.screens.line.line) this.screens.line.open(route.line);
    this.screens.show(route.screen);
    if (route.screen === 'map') this.setMapFilter(route.filter ?? null, true);
  }

  /** The station data arrived or changed: a waiting route opens, the selection is recomputed. */
  catalogChanged() {
    if (this.pending) { this.apply(this.pending); return; }
    this.refreshSelection();
  }

  /** Completions changed: a selection by date or completion is recomputed (the view stays). */
  completionsChanged() {
    if (this.mapFilter && dependsOnDates(this.mapFilter)) this.refreshSelection();
  }

  /**
   * A tab of the tab bar: the map keeps its selection, the station screen its station.
   * @param {Screen} tab
   */
  showTab(tab) {
    const station = this.screens.station.station;
    this.write(tab === 'map' ? { screen: 'map', filter: this.mapFilter }
      : tab === 'station' && station !== null ? { screen: 'station', station } : { screen: tab }, true);
    this.screens.show(tab);
  }

  /** @param {number} id @param {number[]} [samePoint] */
  openStation(id, samePoint) {
    this.write({ screen: 'station', station: id }, false);
    this.screens.station.open(id, samePoint);
    this.screens.show('station');
  }

  /** @param {number} id */
  openLine(id) {
    this.write({ screen: 'line', line: id }, false);
    this.screens.line.open(id);
    this.screens.show('line');
  }

  /**
   * 地図選択: the map showing only a selection.
   * @param {MapFilter} filter
   */
  showSelection(filter) {
    this.write({ screen: 'map', filter }, false);
    this.screens.show('map');
    this.setMapFilter(filter, true);
  }

  /** The chip's ×: the map shows everything again. */
  selectionCleared() {
    this.mapFilter = null;
    this.write({ screen: 'map' }, true);
  }

  /** @param {number} id */
  showOnMap(id) {
    this.write({ screen: 'map', filter: this.mapFilter }, true);
    this.screens.map.centerOn(id); // first: the drawing it asks for is the one the tab shows
    this.screens.show('map');
  }

  /** Back where the person came from in the app (the line screen's 戻る), else 統計. */
  back() {
    if (Navigation.depth() > 0) history.back(); else this.showTab('stats');
  }

  /**
   * Shows a selection on the map (the view fits it when it is a new one), or every station.
   * @param {MapFilter | null} filter
   * @param {boolean} fit
   */
  setMapFilter(filter, fit) {
    const same = filter !== null && this.mapFilter !== null && formatFilter(filter) === formatFilter(this.mapFilter);
    this.mapFilter = filter;
    if (!filter) { this.screens.map.clearSelection(); return; }
    if (!same) this.refreshSelection(fit);
  }

  /** Resolves the selection against the station data and completions now. */
  refreshSelection(fit = false) {
    const catalog = this.app.catalog;
    if (!this.mapFilter || !catalog) return;
    const stations = selectStations(catalog, this.mapFilter, (id) => this.app.compDate(id));
    this.screens.map.showSelection({ label: filterLabel(catalog, this.mapFilter), stations, line: this.mapFilter.line ?? null }, { fit });
    if (fit && stations.length === 0) this.screens.toast(t('mapSelect.none'));
  }
}
