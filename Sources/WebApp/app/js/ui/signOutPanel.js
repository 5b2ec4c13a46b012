// 同期's 「ログアウト」: first the warning when this device holds events the server has not
// acknowledged (「未送信の記録がN件あります。…」), then the question with 「この端末の記録も消去する」
// (unchecked), then the sign-out (DeviceManager.signOut). When the server cannot be reached the
// device stays signed in, and 「この端末だけでログアウト」 is offered.

import { unsentWarning } from '../devices.js';
import { unsentOwnCount } from '../savedState.js';
import { byId, elements } from './dom.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../deviceManager.js').DeviceManager} DeviceManager */

export class SignOutPanel {
  /**
   * @param {App} app @param {DeviceManager} devices
   * @param {() => void} done called after a sign-out (the screen shows pairing again)
   */
  constructor(app, devices, done) {
    this.app = app;
    this.devices = devices;
    this.done = done;
    this.button = byId('sign-out', HTMLButtonElement);
    this.el = elements('sign-out-', ['panel', 'warning', 'result'], { erase: HTMLInputElement,
      confirm: HTMLButtonElement, cancel: HTMLButtonElement, local: HTMLButtonElement });
    this.button.addEventListener('click', () => this.ask());
    this.el.cancel.addEventListener('click', () => this.close());
    this.el.confirm.addEventListener('click', () => void this.signOut(false));
    this.el.local.addEventListener('click', () => void this.signOut(true));
  }

  /** Shows the warning (if any) and the question; nothing is erased unless the box is ticked. */
  ask() {
    const warning = this.app.ledger ? unsentWarning(unsentOwnCount(this.app.ledger)) : null;
    this.el.warning.hidden = warning === null;
    this.el.warning.textContent = warning ?? '';
    this.el.erase.checked = false;
    this.el.local.hidden = true;
    this.el.result.textContent = '';
    this.el.panel.hidden = false;
    this.button.hidden = true;
  }

  close() {
    this.el.panel.hidden = true;
    this.button.hidden = false;
  }

  /** @param {boolean} localOnly */
  async signOut(localOnly) {
    this.setBusy(true);
    const answer = await this.devices.signOut({ erase: this.el.erase.checked, localOnly });
    this.setBusy(false);
    this.el.result.textContent = answer.message;
    this.el.result.classList.toggle('bad', !answer.ok);
    if (answer.ok) {
      this.close();
      this.done();
    } else if (answer.offline) {
      this.el.local.hidden = false;
    }
  }

  /** @param {boolean} busy */
  setBusy(busy) {
    for (const b of [this.el.confirm, this.el.cancel, this.el.local]) b.disabled = busy;
  }

  /** Paired: the button shows (unless the question is open); unpaired: neither. */
  render() {
    const paired = this.app.token !== null;
    if (!paired) this.el.panel.hidden = true;
    this.button.hidden = !paired || !this.el.panel.hidden;
  }
}
