// 同期's end-to-end encryption (Schemas/encryption.md §6, §11): the recovery kit of a key this
// device made (its 16 words, its QR code, the warning that losing the kit and every device loses
// the data, and the rehearsal of two words asked by number, shown until it passes), the key's
// fingerprint, and 「リカバリーキットから復元」 while paired.

import { kitDue, markRehearsed, recoverFromKit, rehearsalNumbers, wordsMatch } from '../kitRehearsal.js';
import { loadKeys } from '../keyStore.js';
import { encodeText } from '../qrCode.js';
import { refusalText } from '../refusals.js';
import { t } from '../i18n.js';
import { elements } from './dom.js';
import { qrSvg } from './qrSvg.js';

/** @typedef {import('../app.js').App} App */

export class KeyPanel {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.el = elements('kit-', ['section', 'intro', 'words', 'qr', 'rehearse', 'labelA', 'labelB', 'result', 'fingerprint', 'form'],
      { wordA: HTMLInputElement, wordB: HTMLInputElement, check: HTMLButtonElement });
    this.recover = elements('recover-', ['section', 'form', 'result'], { kit: HTMLTextAreaElement, submit: HTMLButtonElement });
    /** The word numbers asked for, kept while the same kit is shown. */
    this.numbers = rehearsalNumbers();
    /** @type {string[]} the words of the kit shown */
    this.words = [];
    /** Renders answer in order: an older one is dropped. */
    this.renders = 0;
    this.el.form.addEventListener('submit', (e) => { e.preventDefault(); void this.check(); });
    this.recover.form.addEventListener('submit', (e) => { e.preventDefault(); void this.restore(); });
  }

  async render() {
    const paired = this.app.token !== null;
    this.recover.section.hidden = !paired;
    const ledger = this.app.ledger;
    if (!ledger) return;
    const render = ++this.renders;
    const ring = await loadKeys(ledger).catch(() => null);
    if (render !== this.renders) return;
    this.el.fingerprint.hidden = ring === null;
    this.el.fingerprint.textContent = ring ? t('kit.fingerprint', ring.current.fingerprint) : '';
    const due = kitDue(ring);
    this.el.section.hidden = due === null;
    if (!due) return;
    if (due.text !== this.words.join(' ')) {
      this.words = due.words;
      this.el.intro.textContent = t('kit.intro', due.fingerprint);
      this.el.words.textContent = due.text;
      this.el.qr.replaceChildren(qrSvg(encodeText(due.text), t('kit.qr')));
      const [a, b] = this.numbers;
      this.el.rehearse.textContent = t('kit.rehearse', a, b);
      this.el.labelA.textContent = t('kit.word', a);
      this.el.labelB.textContent = t('kit.word', b);
    }
    if (this.el.result.textContent === '') this.say(t('kit.pending'), false);
  }

  async check() {
    if (!wordsMatch(this.words, this.numbers, [this.el.wordA.value, this.el.wordB.value])) {
      this.say(t('kit.wrong'), false);
      return;
    }
    this.el.check.disabled = true;
    try {
      await markRehearsed(this.app.replica);
      this.el.wordA.value = '';
      this.el.wordB.value = '';
      this.say(t('kit.kept'), true);
    } catch (error) {
      this.say(refusalText(error), false);
    } finally {
      this.el.check.disabled = false;
    }
    await this.render();
  }

  async restore() {
    this.recover.submit.disabled = true;
    const answer = await recoverFromKit(this.app.replica, this.app.api, this.app.token, this.recover.kit.value);
    this.recover.submit.disabled = false;
    this.recover.result.textContent = answer.message;
    this.recover.result.classList.toggle('bad', !answer.ok);
    if (answer.ok) {
      this.recover.kit.value = '';
      void this.app.syncNow();
    }
    await this.render();
  }

  /** @param {string} message @param {boolean} ok */
  say(message, ok) {
    this.el.result.textContent = message;
    this.el.result.classList.toggle('bad', !ok);
  }
}
