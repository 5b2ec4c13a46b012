// 同期: what is saved on this device and on the server, what waits to be sent, how far a sync
// under way has received (受信中… N件, with the counts, after every stored page), the storage (and
// any edit it refused that waits in memory), the last successful sync and any error (one
// sentence); sync now, the two exports; while paired, 「暗号化を有効にする」 on a plaintext account
// (encryptionPanel.js), the kit (keyPanel.js), the 端末 section (devicesPanel.js) and
// ログアウト (signOutPanel.js); while not, pairing (a code typed here, or one from #pair=CODE,
// which main.js exchanges at once, with the name in the form).

import { deviceEventsJsonl, completionsTsv } from '../exporters.js';
import { pendingCount, serverEventCount } from '../sync.js';
import { formatJst } from '../dates.js';
import { suggestedPairingName } from '../device.js';
import { readStorage, describeStorage } from '../storageInfo.js';
import { formatCount, t } from '../i18n.js';
import { byId, download, elements } from './dom.js';
import { DevicesPanel } from './devicesPanel.js';
import { SignOutPanel } from './signOutPanel.js';
import { KeyPanel } from './keyPanel.js';
import { EncryptionPanel } from './encryptionPanel.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../deviceManager.js').DeviceManager} DeviceManager */

export class SyncScreen {
  /** @param {App} app @param {DeviceManager} devices */
  constructor(app, devices) {
    this.app = app;
    this.el = elements('sync-', ['status', 'progress', 'error', 'user', 'device'], { now: HTMLButtonElement });
    /** What is saved where: the counts on this device and on the server, the last sync, the storage. */
    this.saved = elements('', ['localCount', 'serverCount', 'pendingCount', 'lastSync', 'storageState']);
    this.pairing = elements('pair-', ['section', 'result', 'form'],
      { code: HTMLInputElement, name: HTMLInputElement, submit: HTMLButtonElement });
    this.el.now.addEventListener('click', () => void this.app.syncNow());
    this.pairing.form.addEventListener('submit', (e) => { e.preventDefault(); void this.pair(); });
    byId('export-jsonl').addEventListener('click', () => {
      download(`oritsubushi-${this.app.replica.device}.jsonl`, deviceEventsJsonl(this.app.replica), 'application/x-ndjson');
    });
    byId('export-tsv').addEventListener('click', () => {
      download('oritsubushi-completions.tsv', completionsTsv(this.app.replica), 'text/tab-separated-values');
    });
    this.devices = new DevicesPanel(app, devices);
    this.keys = new KeyPanel(app);
    this.encryption = new EncryptionPanel(app, () => this.render());
    /** The secret of a link's `&key=` (linkKey.js), kept with the code it came with. */
    this.linkSecret = /** @type {string | null} */ (null);
    this.signOut = new SignOutPanel(app, devices, () => { this.pairing.result.textContent = ''; this.render(); });
  }

  /** The 同期 tab appeared: the device list is loaded again. */
  shown() {
    this.render();
    void this.devices.load();
    void this.encryption.refresh();
  }

  /**
   * Fills the pairing field (from #pair=CODE; kept there if the exchange fails), with the link's
   * key secret (#pair=CODE&key=SECRET) on an encrypted account.
   * @param {string} code @param {string | null} [secret]
   */
  offerCode(code, secret = null) {
    this.pairing.code.value = code;
    this.linkSecret = secret;
    this.renderPairing();
  }

  async pair() {
    const code = this.pairing.code.value.trim();
    if (!code) return;
    this.pairing.submit.disabled = true;
    const answer = await this.app.pair(code, this.pairing.name.value, this.linkSecret);
    this.pairing.submit.disabled = false;
    this.pairing.result.textContent = answer.message;
    this.pairing.result.classList.toggle('bad', !answer.ok);
    if (answer.ok) {
      this.linkSecret = null;
      this.pairing.code.value = '';
      this.pairing.name.value = '';
      void this.devices.load();
      void this.encryption.refresh();
    }
    this.render();
  }

  /** Pairing shows while unpaired (or while a code waits in its field), with a name to give. */
  renderPairing() {
    const ledger = this.app.ledger;
    this.pairing.section.hidden = this.app.token !== null && this.pairing.code.value === '';
    if (!ledger || this.pairing.section.hidden || this.pairing.name.value !== '' || document.activeElement === this.pairing.name) return;
    this.pairing.name.value = suggestedPairingName(ledger.deviceName(ledger.device), navigator.userAgent, this.app.deviceName);
  }

  /**
   * How far the sync under way has come (受信中… N件), and the counts that change with each page.
   * Cheap: called after every stored pull page.
   */
  renderProgress() {
    const received = this.app.received;
    this.el.progress.hidden = received === null;
    this.el.progress.textContent = received === null ? '' : t('sync.receiving', formatCount(received));
    const ledger = this.app.ledger;
    if (!ledger) return;
    this.saved.localCount.textContent = t('sync.events', ledger.eventCount());
    this.saved.serverCount.textContent = t('sync.events', serverEventCount(ledger));
    this.saved.pendingCount.textContent = String(pendingCount(ledger));
  }

  render() {
    const ledger = this.app.ledger;
    // Set only when it changes: a retry that fails the same way says nothing new.
    const status = this.app.statusText();
    if (this.el.status.textContent !== status) this.el.status.textContent = status;
    this.renderProgress();
    const error = this.app.syncError ?? this.app.catalogError;
    this.el.error.hidden = !error || this.app.state === 'syncing';
    this.el.error.textContent = error ?? '';
    this.el.now.disabled = this.app.state === 'syncing' || !this.app.token;
    this.renderPairing();
    this.devices.render();
    this.signOut.render();
    this.encryption.render();
    void this.keys.render();
    if (!ledger) return;
    const sync = /** @type {{lastSync?: number | null} | undefined} */ (ledger.getMeta('sync'));
    this.saved.lastSync.textContent = sync?.lastSync ? formatJst(sync.lastSync) : t('sync.never');
    const user = ledger.getMeta('user');
    this.el.user.textContent = this.app.token && typeof user === 'string' ? t('sync.user', user) : '';
    this.el.device.textContent = t('sync.device', ledger.deviceName(ledger.device), ledger.device);
    void readStorage(navigator.storage).then((state) => { this.saved.storageState.textContent = describeStorage(state, this.app.edits.unsaved.count); });
  }
}
