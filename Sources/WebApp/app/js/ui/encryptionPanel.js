// 同期's 「暗号化を有効にする」 (Schemas/encryption.md §9, docs/phone-app.md): shown while this device is
// paired to a plaintext account (GET /v1/account, asked when 同期 appears), with what it does and
// the warning that losing the kit and every device loses the data. Pressing it runs the conversion
// (accountConversion.js) with the app's own sync, the button disabled meanwhile, saying how far the
// upload has come; then the kit of the new key is due (keyPanel.js shows it with its rehearsal) and
// the app syncs sealed. Any stop is one sentence (refusals.js); pressing again resumes.

import { fetchAccount } from '../accountApi.js';
import { AccountConversion } from '../accountConversion.js';
import { ConversionProblem } from '../conversionProblem.js';
import { conversionFailureText } from '../refusals.js';
import { formatCount, t } from '../i18n.js';
import { elements } from './dom.js';

/** @typedef {import('../app.js').App} App */

export class EncryptionPanel {
  /** @param {App} app @param {() => void} changed after the account was turned encrypted */
  constructor(app, changed) {
    this.app = app;
    this.changed = changed;
    this.el = elements('encrypt-', ['section', 'progress', 'result'], { start: HTMLButtonElement });
    /** Whether the account was plaintext when last asked; null until an answer. */
    this.plaintext = /** @type {boolean | null} */ (null);
    /** The token last asked with: a new pairing asks again. */
    this.askedWith = /** @type {string | null} */ (null);
    this.running = false;
    this.el.start.addEventListener('click', () => void this.enable());
  }

  /** Asks the server whether the account is plaintext (kept as it was when it cannot be asked). */
  async refresh() {
    const token = this.app.token;
    this.askedWith = token;
    if (!token || this.running) return this.render();
    try {
      this.plaintext = !(await fetchAccount(this.app.api, token)).encrypted;
    } catch (error) {
      console.debug('the account was not asked about:', error);
    }
    this.render();
  }

  render() {
    if (this.app.token !== this.askedWith) {
      this.plaintext = null;
      void this.refresh();
      return;
    }
    this.el.section.hidden = this.app.token === null || !(this.plaintext || this.running);
    this.el.start.disabled = this.running || this.app.token === null;
    this.el.progress.hidden = !this.running;
  }

  async enable() {
    const token = this.app.token;
    if (!token || !this.app.ledger || this.running) return;
    this.running = true;
    this.say('', true);
    this.el.progress.textContent = '';
    this.render();
    let round = 0;
    const conversion = new AccountConversion({
      ledger: this.app.ledger, api: this.app.api, token,
      sync: async () => {
        this.el.progress.textContent = t('encrypt.syncing', ++round);
        await this.sync();
      },
      onProgress: ({ sent, total }) => { this.el.progress.textContent = t('encrypt.uploading', formatCount(sent), formatCount(total)); },
    });
    try {
      const { fingerprint, already } = await conversion.run();
      this.plaintext = false;
      this.say(already ? t('encrypt.already') : t('encrypt.done', fingerprint), true);
      // The account is sealed from now on: this sync goes sealed (accountKeys.js asks again).
      void this.app.syncNow();
      this.changed();
    } catch (error) {
      console.debug('turning encryption on stopped:', error);
      this.say(conversionFailureText(error), false);
    } finally {
      this.running = false;
      this.render();
    }
  }

  /** The app's sync, as it runs any other time; a failure (said on 同期 already) stops the conversion. */
  async sync() {
    await this.app.syncNow();
    if (this.app.state !== 'ok') throw new ConversionProblem('sync', `the sync before the upload stopped: ${this.app.syncError ?? this.app.state}`);
  }

  /** @param {string} message @param {boolean} ok */
  say(message, ok) {
    this.el.result.textContent = message;
    this.el.result.classList.toggle('bad', !ok);
  }
}
