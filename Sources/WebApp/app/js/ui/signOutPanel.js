// 同期's 「ログアウト」: first the warning when this device holds events the server has not
// acknowledged (「未送信の記録がN件あります。…」), then the question with 「この端末の記録も消去する」
// (unchecked), then the sign-out (DeviceManager.signOut). When the server cannot be reached the
// device stays signed in, and 「この端末だけでログアウト」 is offered.

import { unsentWarning } from '../devices.js';
import { unsentOwnCount } from '../savedState.js';
import { byId } from './dom.js';

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
    this.panel = byId('sign-out-panel');
    this.warning = byId('sign-out-warning');
    this.erase = byId('sign-out-erase', HTMLInputElement);
    this.confirm = byId('sign-out-confirm', HTMLButtonElement);
    this.cancel = byId('sign-out-cancel', HTMLButtonElement);
    this.local = byId('sign-out-local', HTMLButtonElement);
    this.result = byId('sign-out-result');
    this.button.addEventListener('click', () => this.ask());
    this.cancel.addEventListener('click', () => this.close());
    this.confirm.addEventListener('click', () => void this.signOut(false));
    this.local.addEventListener('click', () => void this.signOut(true));
  }

  /** Shows the warning (if any) and the question; nothing is erased unless the box is ticked. */
  ask() {
    const warning = this.app.ledger ? unsentWarning(unsentOwnCount(this.app.ledger)) : null;
    this.warning.hidden = warning === null;
    this.warning.textContent = warning ?? '';
    this.erase.checked = false;
    this.local.hidden = true;
    this.result.textContent = '';
    this.panel.hidden = false;
    this.button.hidden = true;
  }

  close() {
    this.panel.hidden = true;
    this.button.hidden = false;
  }

  /** @param {boolean} localOnly */
  async signOut(localOnly) {
    this.setBusy(true);
    const answer = await this.devices.signOut({ erase: this.erase.checked, localOnly });
    this.setBusy(false);
    this.result.textContent = answer.message;
    this.result.classList.toggle('bad', !answer.ok);
    if (answer.ok) {
      this.close();
      this.done();
    } else if (answer.offline) {
      this.local.hidden = false;
    }
  }

  /** @param {boolean} busy */
  setBusy(busy) {
    for (const b of [this.confirm, this.cancel, this.local]) b.disabled = busy;
  }

  /** Paired: the button shows (unless the question is open); unpaired: neither. */
  render() {
    const paired = this.app.token !== null;
    if (!paired) this.panel.hidden = true;
    this.button.hidden = !paired || !this.panel.hidden;
  }
}
