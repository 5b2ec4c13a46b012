// 設定 on 同期: the map's pin limit (50 to 500, or 無制限) and the app's language (日本語 /
// English), saved with the replica's settings (settings.js). A new pin limit applies to the map
// at once; a new language reloads the page, so that every screen speaks it from the start, and
// comes back here. While an edit waits to be saved again (unsavedEdits.js: kept in memory only),
// the page is not reloaded; the language applies the next time the app opens.

import { loadSettings, PIN_LIMITS, saveSettings } from '../settings.js';
import { language, t } from '../i18n.js';
import { refusalText } from '../refusals.js';
import { byId, h } from './dom.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../settings.js').Lang} Lang */

/** sessionStorage key: the page was reloaded for a new language; show the settings again. */
export const RETURN_TO_SETTINGS = 'oritsubushi-return-to-settings';

export class SettingsPanel {
  /**
   * @param {App} app
   * @param {(limit: number) => void} applyPinLimit the map's setter
   */
  constructor(app, applyPinLimit) {
    this.app = app;
    this.applyPinLimit = applyPinLimit;
    this.section = byId('settings');
    this.pinLimit = byId('settings-pin-limit', HTMLSelectElement);
    this.result = byId('settings-result');
    this.pinLimit.replaceChildren(...PIN_LIMITS.map((n) => h('option', {
      attrs: { value: String(n) }, text: n === 0 ? t('settings.unlimited') : t('settings.pins', n),
    })));
    this.pinLimit.addEventListener('change', () => void this.setPinLimit(Number(this.pinLimit.value)));
    for (const button of this.languageButtons()) {
      button.addEventListener('click', () => void this.setLanguage(/** @type {Lang} */ (button.dataset.lang)));
    }
    this.render();
  }

  /** @returns {HTMLElement[]} */
  languageButtons() {
    return /** @type {HTMLElement[]} */ ([...this.section.querySelectorAll('button[data-lang]')]);
  }

  render() {
    if (!this.app.ledger) return;
    this.pinLimit.value = String(loadSettings(this.app.replica).pinLimit);
    for (const b of this.languageButtons()) {
      const on = b.dataset.lang === language();
      b.classList.toggle('on', on);
      b.setAttribute('aria-pressed', String(on));
    }
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
