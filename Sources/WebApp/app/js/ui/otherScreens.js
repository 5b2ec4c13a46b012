// The screens besides 地図 (近く, 検索, 駅, 路線, 統計, 同期 with its panels), the tiles, the
// milestone banner and the address (navigation.js), wired to the app's events. main.js loads this
// module, and every module it imports, after the map's first frame is asked for, so that the
// first frame waits only for what the map needs (Schemas/phone-app.md "Drawing the map").

import { t } from '../i18n.js';
import { DeviceManager } from '../deviceManager.js';
import { loadSettings } from '../settings.js';
import { BatchBar } from './batchBar.js';
import { ImportPanel } from './importPanel.js';
import { LineScreen } from './lineScreen.js';
import { MapTiles } from './mapTiles.js';
import { MilestoneBanner } from './milestoneBanner.js';
import { Navigation } from './navigation.js';
import { NearbyScreen } from './nearbyScreen.js';
import { ProgressPanel } from './progressPanel.js';
import { SearchScreen } from './searchScreen.js';
import { SettingsPanel } from './settingsPanel.js';
import { StationScreen } from './stationScreen.js';
import { StatsScreen } from './statsScreen.js';
import { SyncScreen } from './syncScreen.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../route.js').Screen} Tab */
/**
 * What main.js gives the screens.
 * @typedef {object} Shell
 * @property {App} app
 * @property {import('./mapScreen.js').MapScreen} map
 * @property {import('./mapScreen.js').Nav & {openLine: (id: number) => void, showOnMap: (id: number) => void,
 *   showSelection: (filter: import('../route.js').MapFilter) => void, back: () => void, toast: (message: string) => void}} nav
 *   the screens' way to each other, through the navigation
 * @property {(tab: Tab) => void} show shows a tab (main.js), then calls `shown`
 * @property {() => Tab} current the tab on the screen
 * @property {HTMLElement} nextStep what to do after pairing, on 地図
 * @property {(message: string) => void} toast
 */

/**
 * Builds the screens besides the map and wires them to the app's events.
 * @param {Shell} shell
 */
export function openOtherScreens({ app, map, nav, show, current, nextStep, toast }) {
  const batch = new BatchBar(app, nav);
  const nearby = new NearbyScreen(app, nav, batch);
  const search = new SearchScreen(app, nav, batch);
  const station = new StationScreen(app, nav);
  const line = new LineScreen(app, nav, batch);
  const stats = new StatsScreen(app, nav);
  const sync = new SyncScreen(app, new DeviceManager(app));
  new ImportPanel(app); // on 同期, under the exports
  const progress = new ProgressPanel(app); // on 統計, under the hierarchies
  const tiles = new MapTiles(() => map.redraw());
  map.tiles = tiles;
  const settings = new SettingsPanel(app, (limit) => map.setPinLimit(limit), tiles); // on 同期
  const milestone = new MilestoneBanner(app);
  tiles.setEnabled(loadSettings(app.replica).tiles);
  const navigation = new Navigation(app, { show, station, line, map, toast });

  app.on('progress', () => sync.renderProgress());
  app.on('status', () => {
    sync.render();
    station.savedStatesChanged(); // a push may have been acknowledged
  });
  app.on('catalog', () => {
    nearby.refresh();
    station.refresh(null);
    if (current() === 'search') search.show();
    stats.refresh();
    progress.refresh();
    line.refresh();
    navigation.catalogChanged();
  });
  app.on('change', (detail) => {
    const stations = /** @type {number[] | null} */ (detail);
    nearby.refresh();
    search.refresh();
    station.refresh(stations);
    stats.refresh();
    progress.refresh();
    line.refresh();
    navigation.completionsChanged();
    sync.render();
  });
  app.on('completed', (detail) => milestone.completed(/** @type {number[]} */ (detail)));
  app.on('retried', (detail) => station.retried(/** @type {number[]} */ (detail)));
  app.on('erased', () => {
    tiles.setEnabled(loadSettings(app.replica).tiles);
    void tiles.erase();
    settings.render();
  });

  // After pairing (a code typed or a link opened), 地図, with what to do there.
  let paired = app.token !== null;
  app.on('status', () => {
    if (!paired && app.token !== null) {
      navigation.showTab('map');
      nextStep.textContent = t('pair.nextStep');
      nextStep.hidden = false;
    }
    paired = app.token !== null;
  });

  return {
    navigation, sync, settings, tiles,
    /**
     * What a tab needs of the screens besides the map once main.js has shown it.
     * @param {Tab} tab
     */
    shown(tab) {
      if (tab !== 'stats') { stats.hide(); progress.hide(); }
      if (tab === 'station') station.shown();
      if (tab === 'nearby') nearby.show();
      if (tab === 'search') search.show();
      if (tab === 'stats') { stats.show(); progress.show(); }
      if (tab === 'sync') sync.shown();
      // まとめて記録 follows the list on screen.
      batch.attach(tab === 'line' ? line.batch.source : tab === 'search' ? search.batch.source : tab === 'nearby' ? nearby.batch.source : null);
    },
  };
}
