// 設定 on 同期: the map's pin limit (50 to 500, or 無制限), 地図タイル (shown only where the server offers
// tiles: mapTiles.js) and the app's language (日本語 / English), saved with the replica's settings
// (settings.js). A new pin limit and 地図タイル apply to the map at once; a new language reloads the
// page, so that every screen speaks it from the start, and comes back here. While an edit waits to
// be saved again (unsavedEdits.js: kept in memory only), the page is not reloaded; the language
// applies the next time the app opens.

import { loadSettings, PIN_LIMITS, RETURN_TO_SETTINGS, saveSettings } from '../settings.js';
import { language, t } from '../i18n.js';
import { refusalText } from '../refusals.js';
import { byId, h } from './dom.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../settings.js').Lang} Lang */
/** @typedef {{offered: boolean, setEnabled: (on: boolean) => void}} TilesControl what 地図タイル needs of ui/mapTiles.js */

export class SettingsPanel {
  /**
   * @param {App} app
   * @param {(limit: number) => void} applyPinLimit the map's setter
   * @param {TilesControl} tiles
   */
  constructor(app, applyPinLimit, tiles) {
    this.app = app;
    this.applyPinLimit = applyPinLimit;
    this.tiles = tiles;
    this.section = byId('settings');
    this.pinLimit = byId('settings-pin-limit', HTMLSelectElement);
    this.tilesRow = byId('settings-tiles');
    this.result = byId('settings-result');
    this.pinLimit.replaceChildren(...PIN_LIMITS.map((n) => h('option', {
      attrs: { value: String(n) }, text: n === 0 ? t('settings.unlimited') : t('settings.pins', n),
    })));
    this.pinLimit.addEventListener('change', () => void this.setPinLimit(Number(this.pinLimit.value)));
    for (const button of this.languageButtons()) {
      button.addEventListener('click', () => void this.setLanguage(/** @type {Lang} */ (button.dataset.lang)));
    }
    for (const button of this.buttons('data-tiles')) {
      button.addEventListener('click', () => void this.setTiles(button.dataset.tiles === 'on'));
    }
    this.render();
  }

  /** @param {string} attribute @returns {HTMLElement[]} */
  buttons(attribute) {
    return /** @type {HTMLElement[]} */ ([...this.section.querySelectorAll(`button[${attribute}]`)]);
  }

  languageButtons() {
    return this.buttons('data-lang');
  }

  render() {
    if (!this.app.ledger) return;
    const settings = loadSettings(this.app.replica);
    this.pinLimit.value = String(settings.pinLimit);
    this.tilesRow.hidden = !this.tiles.offered;
    for (const b of this.buttons('data-tiles')) press(b, (b.dataset.tiles === 'on') === settings.tiles);
    for (const b of this.languageButtons()) press(b, b.dataset.lang === language());
  }

  /** @param {string} message @param {boolean} ok */
  say(message, ok) {
    this.result.textContent = message;
    this.result.classList.toggle('bad', !ok);
  }

  /** @param {number} limit */
  async setPinLimit(limit) {
    try {
      const saved = await saveSettings(this.app.replica, { pinLimit: limit });
      this.applyPinLimit(saved.pinLimit);
      this.say(t('settings.saved'), true);
    } catch (error) {
      this.say(refusalText(error), false);
    }
    this.render();
  }

  /** @param {boolean} on */
  async setTiles(on) {
    try {
      const saved = await saveSettings(this.app.replica, { tiles: on });
      this.tiles.setEnabled(saved.tiles);
      this.say(t('settings.saved'), true);
    } catch (error) {
      this.say(refusalText(error), false);
    }
    this.render();
  }

  /** @param {Lang} lang */
  async setLanguage(lang) {
    if (lang === language()) return;
    try {
      await saveSettings(this.app.replica, { language: lang });
    } catch (error) {
      this.say(refusalText(error), false);
      return;
    }
    if (this.app.edits.unsaved.count > 0) { this.say(t('settings.languageNextTime'), true); return; }
    try { sessionStorage.setItem(RETURN_TO_SETTINGS, '1'); } catch { /* reloads on 地図 */ }
    location.reload();
  }
}

/**
 * A segmented button shown as chosen or not.
 * @param {HTMLElement} button @param {boolean} on
 */
function press(button, on) {
  button.classList.toggle('on', on);
  button.setAttribute('aria-pressed', String(on));
}
