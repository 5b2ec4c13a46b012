// 同期: what is saved on this device and on the server, what waits to be sent, the last
// successful sync and any error (one sentence); sync now, the two exports, and pairing (a code
// typed here, or one from #pair=CODE, which main.js exchanges at once).

import { deviceEventsJsonl, completionsTsv } from '../exporters.js';
import { pendingCount, serverEventCount } from '../sync.js';
import { formatJst } from '../dates.js';
import { readStorage, describeStorage } from '../storageInfo.js';
import { t } from '../i18n.js';
import { byId, download } from './dom.js';

/** @typedef {import('../app.js').App} App */

export class SyncScreen {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.status = byId('sync-status');
    this.error = byId('sync-error');
    this.local = byId('local-count');
    this.server = byId('server-count');
    this.pending = byId('pending-count');
    this.last = byId('last-sync');
    this.user = byId('sync-user');
    this.device = byId('sync-device');
    this.storage = byId('storage-state');
    this.code = byId('pair-code', HTMLInputElement);
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
  }

  /**
   * Fills the pairing field (from #pair=CODE; kept there if the exchange fails).
   * @param {string} code
   */
  offerCode(code) {
    this.code.value = code;
  }

  async pair() {
    const code = this.code.value.trim();
    if (!code) return;
    this.pairButton.disabled = true;
    const answer = await this.app.pair(code);
    this.pairButton.disabled = false;
    this.pairResult.textContent = answer.message;
    this.pairResult.classList.toggle('bad', !answer.ok);
    if (answer.ok) this.code.value = '';
    this.render();
  }

  render() {
    const ledger = this.app.ledger;
    this.status.textContent = this.app.statusText();
    const error = this.app.syncError ?? this.app.catalogError;
    this.error.hidden = !error || this.app.state === 'syncing';
    this.error.textContent = error ?? '';
    this.syncButton.disabled = this.app.state === 'syncing' || !this.app.token;
    if (!ledger) return;
    this.local.textContent = t('sync.events', ledger.eventCount());
    this.server.textContent = t('sync.events', serverEventCount(ledger));
    this.pending.textContent = String(pendingCount(ledger));
    const saved = /** @type {{lastSync?: number | null} | undefined} */ (ledger.getMeta('sync'));
    this.last.textContent = saved?.lastSync ? formatJst(saved.lastSync) : t('sync.never');
    const user = ledger.getMeta('user');
    this.user.textContent = this.app.token && typeof user === 'string' ? t('sync.user', user) : '';
    this.device.textContent = t('sync.device', ledger.deviceName(ledger.device), ledger.device);
    void readStorage(navigator.storage).then((state) => { this.storage.textContent = describeStorage(state); });
  }
}
