// Starts the app: language, storage, the replica and its screens, the bottom tab bar, the address
// (deep links, ui/navigation.js), pairing from #pair=CODE, the service worker (offline use), and
// when to sync: on open, when the page comes back into view, when the network returns, and after
// each edit (App.scheduleSync); a retry after a failure to reach the server also runs on focus. A
// token found revoked is said once, in a banner. The person's settings (settings.js: language, pin
// limit, map tiles, banners dismissed) apply once the replica is open; the server's raster tiles
// (ui/mapTiles.js) are looked for after the map's first frame is asked for, never before it; after
// pairing, 地図 says what to do next; an edit that completes a line, an operator or a prefecture
// is said in a banner. When the map is the first screen, it is drawn before the other screens'
// modules are loaded (ui/otherScreens.js, asked for after the map's first frame): a tap on a tab
// or a station meanwhile is served as soon as they are.

import { App } from './app.js';
import { loadBaseMap } from './baseMap.js';
import { distinctDeviceName, newDeviceId } from './device.js';
import { chooseLanguage, isKey, loadMessages, setLanguage, t } from './i18n.js';
import { refusalText } from './refusals.js';
import { LateValue } from './lateValue.js';
import { opensOnTheWholeMap } from './route.js';
import { IndexedDbStore, MemoryStore } from './store.js';
import { byId } from './ui/dom.js';
import { MapScreen } from './ui/mapScreen.js';
import { isDismissed, loadSettings, RETURN_TO_SETTINGS, saveSettings, withDismissed } from './settings.js';

/** @typedef {import('./route.js').Screen} Tab */
/** @typedef {ReturnType<typeof import('./ui/otherScreens.js').openOtherScreens>} OtherScreens */

const lang = chooseLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
/** @param {'ja' | 'en'} language the page's fixed texts in this language */
function translatePage(language) {
  setLanguage(language);
  document.documentElement.lang = language;
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const key = /** @type {HTMLElement} */ (el).dataset.i18n ?? '';
    if (isKey(key)) el.textContent = t(key);
  }
  for (const el of document.querySelectorAll('[data-i18n-label]')) {
    const key = /** @type {HTMLElement} */ (el).dataset.i18nLabel ?? '';
    if (isKey(key)) el.setAttribute('aria-label', t(key));
  }
}
// The words (messages.json) are fetched while the replica is read (index.html preloads them); the
// page's fixed texts take the language as soon as they are here, and no screen is built before.
const wordsLoaded = loadMessages((url) => fetch(url)).then(() => translatePage(lang));

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

// The base map is fetched and decoded while the replica is read, so that the map's first frame
// has its coast rather than a second frame after it (Schemas/phone-app.md "Drawing the map").
const baseMap = loadBaseMap((url) => fetch(url));

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('sw.js', { scope: './' }).catch(() => { /* works online without it */ });
}

/** @returns {Promise<import('./store.js').LedgerStore>} */
async function openStore() {
  try {
    return await IndexedDbStore.open();
  } catch (error) {
    await wordsLoaded;
    showBanner(refusalText(error));
    return new MemoryStore();
  }
}

/** Opens the replica and builds the screens. */
async function boot() {
  // Where opening the stored replica starts, the page's scripts having run: Tools/app-bench times
  // the replica's open to the map's first frame from here (BENCHMARKS.md §14).
  performance.mark('oritsubushi:replica-open');
  const [store] = await Promise.all([openStore(), wordsLoaded]);
  const app = new App({
    store,
    fetch: (input, init) => fetch(input, init),
    newDevice: () => newDeviceId(),
    deviceName: distinctDeviceName(navigator.userAgent),
    online: () => navigator.onLine,
  });
  /**
   * Unreadable storage: run on memory so that the app still works, and say so.
   * @param {unknown} error
   */
  async function runOnMemory(error) {
    showBanner(refusalText(error));
    app.store = new MemoryStore();
    app.catalog = null;
    await app.start();
  }
  try {
    await app.start();
  } catch (error) {
    await runOnMemory(error);
  }
  // The map first, alone, when the address names it (or nothing) and there is a catalogue to draw;
  // otherwise the other screens are loaded before anything changes on the page, so that the words
  // of the chosen language and the screen the address names (設定 after its language reload)
  // appear together.
  const returnToSettings = takeReturnToSettings();
  const mapFirst = app.catalog !== null && !returnToSettings && opensOnTheWholeMap(location.hash);
  const otherScreensLoaded = mapFirst ? null : await import('./ui/otherScreens.js');
  // The language chosen under 設定, before any screen writes a word.
  const chosen = loadSettings(app.replica).language;
  if (chosen && chosen !== lang) translatePage(chosen);

  /** The banner whose dismissal is remembered (settings.js bannerKey), while it is the one shown. */
  let remembered = { kind: '', message: '' };
  /**
   * A banner that, once dismissed, is not shown again (per kind: settings.js).
   * @param {string} kind @param {string} message
   */
  function showBannerOnce(kind, message) {
    if (isDismissed(loadSettings(app.replica), kind, message)) return;
    showBanner(message);
    remembered = { kind, message };
  }
  byId('banner-close').addEventListener('click', () => {
    const { kind, message } = remembered;
    remembered = { kind: '', message: '' };
    // Another sentence may have taken the banner since: only this one's dismissal is kept.
    if (!kind || bannerText.textContent !== message) return;
    void saveSettings(app.replica, { dismissed: withDismissed(loadSettings(app.replica), kind, message) }).catch(() => {});
  });

  /** @type {Tab} */
  let current = 'map';
  /** The screens besides the map, once loaded: a tap before that is served then. */
  /** @type {LateValue<OtherScreens>} */
  const others = new LateValue();
  const withScreens = others.use.bind(others);
  /** The same screens from when they are built, before the address is followed and `others` given them. */
  /** @type {OtherScreens | null} */
  let built = null;
  const nav = {
    /** @param {number} id @param {number[]} [samePoint] */
    openStation(id, samePoint) { withScreens((s) => s.navigation.openStation(id, samePoint)); },
    /** @param {number} id */
    openLine(id) { withScreens((s) => s.navigation.openLine(id)); },
    /** @param {string} name */
    showTab(name) { withScreens((s) => s.navigation.showTab(/** @type {Tab} */ (name))); },
    /** @param {number} id */
    showOnMap(id) { withScreens((s) => s.navigation.showOnMap(id)); },
    /** @param {import('./route.js').MapFilter} filter */
    showSelection(filter) { withScreens((s) => s.navigation.showSelection(filter)); },
    selectionCleared() { withScreens((s) => s.navigation.selectionCleared()); },
    back() { withScreens((s) => s.navigation.back()); },
    toast,
  };
  const map = new MapScreen(app, nav, baseMap);
  map.setPinLimit(loadSettings(app.replica).pinLimit);
  const nextStep = byId('next-step');
  nextStep.addEventListener('click', () => { nextStep.hidden = true; });
  let mapShown = false;

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
    if (tab !== 'map') nextStep.hidden = true;
    // The map drawn already stays as it is when 地図 is shown again.
    if (mapShown !== (tab === 'map')) map.setVisible(tab === 'map');
    mapShown = tab === 'map';
    built?.shown(tab);
  }
  for (const button of document.querySelectorAll('.tabbar button')) {
    button.addEventListener('click', () => withScreens((s) => s.navigation.showTab(/** @type {Tab} */ (/** @type {HTMLElement} */ (button).dataset.tab))));
  }

  app.on('storage', (message) => showBanner(String(message)));
  app.on('signed-out', (message) => showBanner(String(message)));
  app.on('catalog', () => map.setCatalog());
  app.on('change', (detail) => map.refresh(/** @type {number[] | null} */ (detail)));
  app.on('erased', () => map.setPinLimit(loadSettings(app.replica).pinLimit));

  if (mapFirst) {
    map.setCatalog();
    showTab('map');
    // After the frame that draws it (or a second, where a hidden page draws no frame).
    await new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 1000); });
  }
  // The other screens read every record: they come once the replica has decoded them (a tap
  // meanwhile waits for them, as for their modules). A chunk found damaged only now is said, and
  // the app goes on in memory as when nothing could be read.
  await app.replica.loaded.catch(async (error) => {
    await runOnMemory(error);
    app.emit('catalog');
    app.emit('change', null);
  });
  const { openOtherScreens } = otherScreensLoaded ?? await import('./ui/otherScreens.js');
  const screens = openOtherScreens({ app, map, nav, show: showTab, current: () => current, nextStep, toast });
  built = screens;
  const { navigation, sync, settings, tiles } = screens;

  /**
   * #pair=CODE (8 Crockford base32 characters, perhaps grouped ABCD-EFGH): the link `server pair`
   * prints, with `&key=SECRET` when 「別の端末を追加」 or `device link` made it on an encrypted account. The code is exchanged at once, as if typed and tapped; when that fails (offline, used,
   * expired) it stays in the field with the one-sentence reason, for a tap later.
   */
  function takePairingCode() {
    const match = /^#pair=([^&]+)/.exec(location.hash);
    if (!match) return false;
    // A link of an encrypted account: &key=SECRET unwraps the key its code carries (linkKey.js).
    const key = /&key=([A-Za-z0-9_-]+)/.exec(location.hash);
    sync.offerCode(decodeURIComponent(match[1]), key ? key[1] : null);
    history.replaceState(null, '', location.pathname + location.search);
    navigation.showTab('sync');
    void sync.pair();
    return true;
  }
  window.addEventListener('hashchange', takePairingCode);

  if (!mapFirst) map.setCatalog();
  sync.render();
  if (!takePairingCode() && !navigation.openAddress()) navigation.showTab(app.catalog ? 'map' : 'sync');
  void tiles.start().then(() => settings.render(), (error) => console.debug('the map is drawn without tiles:', error));
  if (returnToSettings) {
    navigation.showTab('sync');
    byId('settings').scrollIntoView({ block: 'start' });
  }
  others.arrive(screens); // the taps that came meanwhile

  // Ask the browser not to evict the replica; say so when it refuses.
  if (navigator.storage?.persist) {
    navigator.storage.persisted()
      .then((already) => already || navigator.storage.persist())
      .then((granted) => { if (!granted) showBannerOnce('persist', t('banner.persist')); })
      .catch(() => {});
  }

  if (app.token) void app.syncNow();
  // Back in view or back online: sync (a retry that waits runs now); focus runs a waiting retry.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') app.wake(true);
    // The next opening draws the map from this snapshot (Schemas/phone-app.md "The completions snapshot").
    else void app.replica.saveCompletions().catch(() => {});
  });
  window.addEventListener('online', () => app.wake(true));
  window.addEventListener('focus', () => app.wake(false));
}

/** Whether the page was reloaded by 設定's language (once). */
function takeReturnToSettings() {
  try {
    const set = sessionStorage.getItem(RETURN_TO_SETTINGS) !== null;
    sessionStorage.removeItem(RETURN_TO_SETTINGS);
    return set;
  } catch {
    return false;
  }
}

boot().catch((error) => {
  console.debug('the app could not start:', error);
  showBanner(t('app.failed'));
});
