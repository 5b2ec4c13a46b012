// 同期: what is saved on this device and on the server, what waits to be sent, how far a sync
// under way has received (受信中… N件, with the counts, after every stored page), the storage (and
// any edit it refused that waits in memory), the last successful sync and any error (one
// sentence); sync now, the two exports; while paired, the 端末 section (devicesPanel.js) and
// ログアウト (signOutPanel.js); while not, pairing (a code typed here, or one from #pair=CODE,
// which main.js exchanges at once, with the name in the form).

import { deviceEventsJsonl, completionsTsv } from '../exporters.js';
import { pendingCount, serverEventCount } from '../sync.js';
import { formatJst } from '../dates.js';
import { suggestedPairingName } from '../device.js';
import { readStorage, describeStorage } from '../storageInfo.js';
import { formatCount, t } from '../i18n.js';
import { byId, download } from './dom.js';
import { DevicesPanel } from './devicesPanel.js';
import { SignOutPanel } from './signOutPanel.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../deviceManager.js').DeviceManager} DeviceManager */

export class SyncScreen {
  /** @param {App} app @param {DeviceManager} devices */
  constructor(app, devices) {
    this.app = app;
    this.status = byId('sync-status');
    this.progress = byId('sync-progress');
    this.error = byId('sync-error');
    this.local = byId('local-count');
    this.server = byId('server-count');
    this.pending = byId('pending-count');
    this.last = byId('last-sync');
    this.user = byId('sync-user');
    this.device = byId('sync-device');
    this.storage = byId('storage-state');
    this.pairSection = byId('pair-section');
    this.code = byId('pair-code', HTMLInputElement);
    this.pairName = byId('pair-name', HTMLInputElement);
    this.pairButton = byId('pair-submit', HTMLButtonElement);
    this.pairResult = byId('pair-result');
    this.syncButton = byId('sync-now', HTMLButtonElement);
    this.syncButton.addEventListener('click', () => void this.app.syncNow());
    byId('pair-form').addEventListener('submit', (e) => { e.preventDefault(); void this.pair(); });
    byId('export-jsonl').addEventListener('click', () => {
      download(`oritsubushi-${this.app.replica.device}.jsonl`, deviceEventsJsonl(this.app.replica), 'application/x-ndjson');
    });
    byId('export-tsv').addEventListener('click', () => {
      download('oritsubushi-completions.tsv', completionsTsv(this.app.replica), 'text/tab-separated-values');
    });
    this.devices = new DevicesPanel(app, devices);
    this.signOut = new SignOutPanel(app, devices, () => { this.pairResult.textContent = ''; this.render(); });
  }

  /** The 同期 tab appeared: the device list is loaded again. */
  shown() {
    this.render();
    void this.devices.load();
  }

  /**
   * Fills the pairing field (from #pair=CODE; kept there if the exchange fails).
   * @param {string} code
   */
  offerCode(code) {
    this.code.value = code;
    this.renderPairing();
  }

  async pair() {
    const code = this.code.value.trim();
    if (!code) return;
    this.pairButton.disabled = true;
    const answer = await this.app.pair(code, this.pairName.value);
    this.pairButton.disabled = false;
    this.pairResult.textContent = answer.message;
    this.pairResult.classList.toggle('bad', !answer.ok);
    if (answer.ok) {
      this.code.value = '';
      this.pairName.value = '';
      void this.devices.load();
    }
    this.render();
  }

  /** Pairing shows while unpaired (or while a code waits in its field), with a name to give. */
  renderPairing() {
    const ledger = this.app.ledger;
    this.pairSection.hidden = this.app.token !== null && this.code.value === '';
    if (!ledger || this.pairSection.hidden || this.pairName.value !== '' || document.activeElement === this.pairName) return;
    this.pairName.value = suggestedPairingName(ledger.deviceName(ledger.device), navigator.userAgent, this.app.deviceName);
  }

  /**
   * How far the sync under way has come (受信中… N件), and the counts that change with each page.
   * Cheap: called after every stored pull page.
   */
  renderProgress() {
    const received = this.app.received;
    this.progress.hidden = received === null;
    this.progress.textContent = received === null ? '' : t('sync.receiving', formatCount(received));
    const ledger = this.app.ledger;
    if (!ledger) return;
    this.local.textContent = t('sync.events', ledger.eventCount());
    this.server.textContent = t('sync.events', serverEventCount(ledger));
    this.pending.textContent = String(pendingCount(ledger));
  }

  render() {
    const ledger = this.app.ledger;
    // Set only when it changes: a retry that fails the same way says nothing new.
    const status = this.app.statusText();
    if (this.status.textContent !== status) this.status.textContent = status;
    this.renderProgress();
    const error = this.app.syncError ?? this.app.catalogError;
    this.error.hidden = !error || this.app.state === 'syncing';
    this.error.textContent = error ?? '';
    this.syncButton.disabled = this.app.state === 'syncing' || !this.app.token;
    this.renderPairing();
    this.devices.render();
    this.signOut.render();
    if (!ledger) return;
    const saved = /** @type {{lastSync?: number | null} | undefined} */ (ledger.getMeta('sync'));
    this.last.textContent = saved?.lastSync ? formatJst(saved.lastSync) : t('sync.never');
    const user = ledger.getMeta('user');
    this.user.textContent = this.app.token && typeof user === 'string' ? t('sync.user', user) : '';
    this.device.textContent = t('sync.device', ledger.deviceName(ledger.device), ledger.device);
    void readStorage(navigator.storage).then((state) => { this.storage.textContent = describeStorage(state, this.app.edits.unsaved.count); });
  }
}
