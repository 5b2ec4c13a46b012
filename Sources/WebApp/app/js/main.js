// Starts the app: language, storage, the replica and its screens, the bottom tab bar, pairing
// from #pair=CODE, the service worker (offline use), and when to sync: on open, when the page
// comes back into view, when the network returns, and after each edit (App.scheduleSync); a
// retry after a failure to reach the server also runs on focus. A token found revoked is said
// once, in a banner.

import { App } from './app.js';
import { distinctDeviceName, newDeviceId } from './device.js';
import { DeviceManager } from './deviceManager.js';
import { chooseLanguage, isKey, setLanguage, t } from './i18n.js';
import { IndexedDbStore, MemoryStore, StoreError } from './store.js';
import { byId } from './ui/dom.js';
import { MapScreen } from './ui/mapScreen.js';
import { NearbyScreen } from './ui/nearbyScreen.js';
import { SearchScreen } from './ui/searchScreen.js';
import { StationScreen } from './ui/stationScreen.js';
import { StatsScreen } from './ui/statsScreen.js';
import { SyncScreen } from './ui/syncScreen.js';

/** @typedef {'map' | 'nearby' | 'search' | 'station' | 'stats' | 'sync'} Tab */

const lang = chooseLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
setLanguage(lang);
document.documentElement.lang = lang;
for (const el of document.querySelectorAll('[data-i18n]')) {
  const key = /** @type {HTMLElement} */ (el).dataset.i18n ?? '';
  if (isKey(key)) el.textContent = t(key);
}

const banner = byId('banner');
const bannerText = byId('banner-text');
/** @param {string} message */
function showBanner(message) {
  bannerText.textContent = message;
  banner.hidden = false;
}
byId('banner-close').addEventListener('click', () => { banner.hidden = true; });

const toastEl = byId('toast');
/** @type {ReturnType<typeof setTimeout> | null} */
let toastTimer = null;
/** @param {string} message */
function toast(message) {
  toastEl.textContent = message;
  toastEl.hidden = false;
  if (toastTimer) clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toastEl.hidden = true; }, 2500);
}

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('sw.js', { scope: './' }).catch(() => { /* works online without it */ });
}

/** @returns {Promise<import('./store.js').LedgerStore>} */
async function openStore() {
  try {
    return await IndexedDbStore.open();
  } catch (error) {
    showBanner(error instanceof StoreError ? error.message : String(error));
    return new MemoryStore();
  }
}

/** Opens the replica and builds the screens. */
async function boot() {
  const app = new App({
    store: await openStore(),
    fetch: (input, init) => fetch(input, init),
    newDevice: () => newDeviceId(),
    deviceName: distinctDeviceName(navigator.userAgent),
    online: () => navigator.onLine,
  });
  try {
    await app.start();
  } catch (error) {
    // Unreadable storage: run on memory so that the app still works, and say so.
    showBanner(error instanceof StoreError ? error.message : String(error));
    app.store = new MemoryStore();
    await app.start();
  }

  /** @type {Tab} */
  let current = 'map';
  const nav = {
    /** @param {number} id @param {number[]} [samePoint] */
    openStation(id, samePoint) { station.open(id, samePoint); showTab('station'); },
    /** @param {string} name */
    showTab(name) { showTab(/** @type {Tab} */ (name)); },
    /** @param {number} id */
    showOnMap(id) { map.centerOn(id); showTab('map'); },
    toast,
  };
  const map = new MapScreen(app, nav);
  const nearby = new NearbyScreen(app, nav);
  const search = new SearchScreen(app, nav);
  const station = new StationScreen(app, nav);
  const stats = new StatsScreen(app, nav);
  const sync = new SyncScreen(app, new DeviceManager(app));

  /** @param {Tab} tab */
  function showTab(tab) {
    current = tab;
    for (const section of document.querySelectorAll('.screen')) {
      /** @type {HTMLElement} */ (section).hidden = /** @type {HTMLElement} */ (section).dataset.screen !== tab;
    }
    for (const button of document.querySelectorAll('.tabbar button')) {
      const on = /** @type {HTMLElement} */ (button).dataset.tab === tab;
      button.classList.toggle('on', on);
      if (on) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
    }
    if (tab !== 'stats') stats.hide();
    if (tab === 'map') map.shown();
    if (tab === 'station') station.shown();
    if (tab === 'nearby') nearby.show();
    if (tab === 'search') search.show();
    if (tab === 'stats') stats.show();
    if (tab === 'sync') sync.shown();
  }
  for (const button of document.querySelectorAll('.tabbar button')) {
    button.addEventListener('click', () => showTab(/** @type {Tab} */ (/** @type {HTMLElement} */ (button).dataset.tab)));
  }

  app.on('progress', () => sync.renderProgress());
  app.on('status', () => {
    sync.render();
    station.savedStatesChanged(); // a push may have been acknowledged
  });
  app.on('storage', (message) => showBanner(String(message)));
  app.on('signed-out', (message) => showBanner(String(message)));
  app.on('catalog', () => {
    map.setCatalog();
    nearby.refresh();
    station.refresh(null);
    if (current === 'search') search.show();
    stats.refresh();
  });
  app.on('change', (detail) => {
    const stations = /** @type {number[] | null} */ (detail);
    map.refresh(stations);
    nearby.refresh();
    search.refresh();
    station.refresh(stations);
    stats.refresh();
    sync.render();
  });

  /**
   * #pair=CODE (8 Crockford base32 characters, perhaps grouped ABCD-EFGH): the link `server pair`
   * prints. The code is exchanged at once, as if typed and tapped; when that fails (offline, used,
   * expired) it stays in the field with the one-sentence reason, for a tap later.
   */
  function takePairingCode() {
    const match = /^#pair=([^&]+)/.exec(location.hash);
    if (!match) return false;
    sync.offerCode(decodeURIComponent(match[1]));
    history.replaceState(null, '', location.pathname + location.search);
    showTab('sync');
    void sync.pair();
    return true;
  }
  window.addEventListener('hashchange', takePairingCode);

  map.setCatalog();
  sync.render();
  if (!takePairingCode()) showTab(app.catalog ? 'map' : 'sync');

  // Ask the browser not to evict the replica; say so when it refuses.
  if (navigator.storage?.persist) {
    navigator.storage.persisted()
      .then((already) => already || navigator.storage.persist())
      .then((granted) => { if (!granted) showBanner(t('banner.persist')); })
      .catch(() => {});
  }

  if (app.token) void app.syncNow();
  // Back in view or back online: sync (a retry that waits runs now); focus runs a waiting retry.
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') app.wake(true); });
  window.addEventListener('online', () => app.wake(true));
  window.addEventListener('focus', () => app.wake(false));
}

boot().catch((error) => showBanner(error instanceof Error ? error.message : String(error)));
