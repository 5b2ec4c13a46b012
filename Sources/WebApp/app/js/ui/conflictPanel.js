// 駅's conflicts: which edits of the station's history lost a conflict (「競合で負けた編集」), and,
// while the station has any, 「競合を解決（現在の値を残す）」, which settles them as
// `oritsubushi conflicts resolve STATION` does (conflictSettlement.js): the values shown stay,
// and the marks go away.

import { lostEdits, stationConflicts } from '../conflicts.js';
import { eventKey } from '../records.js';
import { t } from '../i18n.js';
import { byId, h } from './dom.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('../conflicts.js').ConflictField} ConflictField */

export class ConflictPanel {
  /**
   * @param {App} app
   * @param {() => void} resolve what a tap on the button does (the station screen settles the
   *   station shown, once its buttons take taps)
   */
  constructor(app, resolve) {
    this.app = app;
    this.panel = byId('station-conflict');
    this.button = byId('conflict-resolve', HTMLButtonElement);
    /** @type {Map<string, ConflictField[]>} */
    this.lost = new Map();
    this.button.addEventListener('click', () => resolve());
  }

  /**
   * Finds the station's conflicts: the panel shows while it has any.
   * @param {number} station
   */
  render(station) {
    const conflicts = stationConflicts(this.app.replica, station);
    this.lost = lostEdits(conflicts);
    this.panel.hidden = conflicts.length === 0;
  }

  /**
   * The mark of an edit that lost a conflict (of the station last rendered), or null.
   * @param {LedgerEvent} e
   */
  mark(e) {
    const fields = this.lost.get(eventKey(e.device, e.seq));
    if (!fields) return null;
    const which = fields.map((f) => t(f === 'date' ? 'history.lostField.date' : 'history.lostField.memo')).join('・');
    return h('span', { class: 'lost', text: t('history.lost'), data: { testid: 'event-lost', fields: fields.join(' ') }, attrs: { title: which } });
  }
}
