// 駅: one station (with the stations that share its position when the map opened it, completed
// first, each a button that opens it): name, operator, lines, the Wikipedia link, its completion with the fuzzy date
// picker and 「今日、乗下車しました！」 (offered only while not completed), the memo,
// 未乗下車に戻す (comp_date 0, the memo stays) and every event of the station, newest first,
// with the device's name and the time in JST, and for this device's own events where they are
// (この端末に保存済み until a push was acknowledged, then サーバーに保存済み: savedState.js), and
// the edits that lost a conflict with 「競合を解決（現在の値を残す）」 (ConflictPanel).
// Its lines open the line's screen. For a station not yet completed the picker opens unticked on
// the date given last on this device (dates.rememberedDate), as the original apps' editor does.
// Nothing is shown as saved before the store committed it; an edit the storage refused is said
// so, and once the app saved it later (unsavedEdits.js) the screen says that. A save writes only
// the fields the person changed, against the values the screen showed (EditDraft): another device's edit that
// arrives while the screen is open is shown, never overwritten unseen. Its buttons ignore a tap in the moment after the screen appears
// (ActivationGuard), so the tap that opened it presses nothing here.

import { formatJst, label, rememberedDate, todayCode } from '../dates.js';
import { hlcMillis } from '../hlc.js';
import { prefectureName, stationAddress, wikipediaUrl } from '../catalog.js';
import { language, t } from '../i18n.js';
import { byId, elements, h } from './dom.js';
import { DatePicker } from './datePicker.js';
import { ActivationGuard } from './activationGuard.js';
import { EditDraft } from '../editDraft.js';
import { savedState } from '../savedState.js';
import { ConflictPanel } from './conflictPanel.js';
import { dateRefusalText } from '../refusals.js';
import { memoCounterText, memoRoom } from '../textLimits.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../records.js').LedgerEvent} LedgerEvent */
/** @typedef {{showOnMap: (id: number) => void, openLine: (id: number) => void, toast: (message: string) => void}} Nav */

export class StationScreen {
  /** @param {App} app @param {Nav} nav */
  constructor(app, nav) {
    this.app = app;
    this.nav = nav;
    /** @type {number | null} */
    this.station = null;
    this.el = elements('station-', ['empty', 'detail', 'name', 'yomi', 'address', 'operator', 'lines', 'date',
      'memoCount', 'result', 'updated', 'history', 'samePoint', 'onMap'], { wiki: HTMLAnchorElement,
      memo: HTMLTextAreaElement, today: HTMLButtonElement, save: HTMLButtonElement, uncomplete: HTMLButtonElement });
    this.el.memo.addEventListener('input', () => this.countMemo());
    /** @type {number[]} */
    this.samePointIds = [];
    this.picker = new DatePicker(byId('date-year', HTMLSelectElement), byId('date-month', HTMLSelectElement),
      byId('date-day', HTMLSelectElement), () => this.app.now(), byId('date-completed', HTMLInputElement));
    /** @type {EditDraft | null} */
    this.draft = null;
    /** What the picker showed when this screen last set it: a picker left so is untouched. */
    this.pickerShown = 0;
    this.writing = false;
    /** The station whose edit the storage refused and the app keeps, while its sentence shows. */
    /** @type {number | null} */
    this.kept = null;
    this.guard = new ActivationGuard(() => this.enableButtons());
    this.conflicts = new ConflictPanel(app, () => void this.resolveConflicts());
    this.el.today.addEventListener('click', () => void this.write({ compDate: todayCode(this.app.now()) }));
    this.el.uncomplete.addEventListener('click', () => void this.write({ compDate: 0 }));
    this.el.save.addEventListener('click', () => void this.saveChanges());
    this.el.onMap.addEventListener('click', () => { if (this.station !== null) this.nav.showOnMap(this.station); });
  }

  /**
   * Shows a station (its picker and memo start from its current values).
   * @param {number} id
   * @param {number[]} [samePoint] every station at its position, when several share it
   */
  open(id, samePoint) {
    if (samePoint) this.samePointIds = samePoint.length > 1 ? samePoint : [];
    else if (!this.samePointIds.includes(id)) this.samePointIds = [];
    this.station = id;
    this.kept = null;
    this.el.result.textContent = '';
    this.guard.arm();
    this.render(true);
  }

  /** The 駅 tab appeared. */
  shown() {
    this.guard.arm();
  }

  /**
   * The station's values now.
   * @param {number} id
   */
  values(id) {
    return { compDate: this.app.compDate(id), memo: this.app.replica.fold.memo(id) };
  }

  /**
   * What the picker and the memo box hold now. A picker the person has not touched counts as the
   * station's own date even where it cannot show it exactly, so that a save never writes a date
   * the person did not pick.
   */
  inputs() {
    const picked = this.picker.value();
    const compDate = picked === this.pickerShown && this.draft ? this.draft.base.compDate : picked;
    return { compDate, memo: this.el.memo.value };
  }

  /**
   * Sets the picker to a date for the person to see (not a date they picked); a station not
   * completed shows the remembered date, unticked.
   * @param {number} code
   */
  showDate(code) {
    this.picker.set(code, rememberedDate(this.app.replica.getMeta('lastDate'), this.app.now()));
    this.pickerShown = this.picker.value();
  }

  /** @param {boolean} resetInputs replace the picker's and the memo's values with the station's */
  render(resetInputs) {
    const catalog = this.app.catalog;
    const s = this.station === null ? undefined : catalog?.station(this.station);
    this.el.empty.hidden = !!s;
    this.el.detail.hidden = !s;
    if (!s || !catalog || this.station === null) return;
    const ledger = this.app.replica;
    const code = this.app.compDate(s.id);
    this.el.name.textContent = s.name + (s.enabled ? '' : ` ${t('station.disabled')}`);
    this.el.yomi.textContent = `${s.yomi} · ${prefectureName(s.pref)}`;
    this.el.address.textContent = stationAddress(s);
    this.el.address.hidden = this.el.address.textContent === '';
    this.el.operator.textContent = catalog.operatorName(s.operator);
    this.el.lines.replaceChildren(...catalog.enabledLinesOf(s).map((l) => h('button', { class: 'link', text: l.name,
      data: { line: String(l.id) }, attrs: { type: 'button' }, on: { click: () => this.nav.openLine(l.id) } })));
    this.el.wiki.href = wikipediaUrl(s);
    this.el.date.textContent = label(code, language());
    this.el.samePoint.hidden = this.samePointIds.length === 0;
    this.el.samePoint.replaceChildren(...this.samePointIds.map((other) => {
      const o = catalog.station(other);
      const text = o ? `${o.name} ${catalog.operatorName(o.operator)}${this.app.compDate(other) > 0 ? ' ✓' : ''}` : String(other);
      return h('button', { class: other === s.id ? 'link on' : 'link', text, data: { station: String(other) },
        attrs: { type: 'button' }, on: { click: () => this.open(other) } });
    }));
    this.el.today.hidden = code > 0;
    this.el.uncomplete.hidden = code === 0;
    if (resetInputs) {
      this.showDate(code);
      this.el.memo.value = ledger.fold.memo(s.id);
      this.draft = new EditDraft(this.values(s.id));
    }
    this.countMemo();
    const seconds = ledger.fold.updateSeconds(s.id);
    this.el.updated.textContent = seconds > 0 ? t('station.updated', formatJst(seconds * 1000)) : '';
    this.conflicts.render(s.id);
    const events = ledger.history(s.id);
    this.el.history.replaceChildren(...(events.length ? events.map((e) => this.historyItem(e)) : [h('li', { text: t('station.noHistory') })]));
  }

  /** @param {LedgerEvent} e */
  historyItem(e) {
    const ledger = this.app.replica;
    const parts = [];
    if (e.compDate !== null && e.compDate !== undefined) parts.push(t('history.date', label(e.compDate, language())));
    if (e.memo !== null && e.memo !== undefined) parts.push(e.memo === '' ? t('history.memoCleared') : t('history.memo', e.memo));
    const device = ledger.deviceName(e.device) || e.device;
    const where = savedState(ledger, e);
    return h('li', { data: { device: e.device, seq: String(e.seq) } },
      h('div', { class: 'when', text: `${formatJst(hlcMillis(e.hlc))} · ${device}${e.origin && e.origin !== 'user' ? ` (${t(e.origin === 'import' ? 'origin.import' : 'origin.catalog')})` : ''}` }),
      h('div', { text: parts.join(' · ') }),
      where && h('div', { class: `saved-state ${where}`, data: { testid: 'event-saved-state', saved: where },
        text: t(where === 'server' ? 'history.onServer' : 'history.onDevice') }),
      this.conflicts.mark(e));
  }

  /** What the server acknowledged may have changed: the history's labels are drawn again. */
  savedStatesChanged() {
    if (this.station !== null && !this.el.detail.hidden) this.render(false);
  }

  /** The buttons that change data take taps unless a write runs or the screen has just appeared. */
  enableButtons() {
    const resting = this.writing || !this.guard.settled();
    for (const b of [this.el.save, this.el.today, this.el.uncomplete, this.conflicts.button]) b.disabled = resting;
  }

  /** 競合を解決（現在の値を残す）: the station's conflicts settled, the values shown kept. */
  async resolveConflicts() {
    if (this.station === null || this.writing || !this.guard.settled()) return;
    const station = this.station;
    this.writing = true;
    this.enableButtons();
    try {
      const answer = await this.app.resolveConflicts(station);
      if (this.station === station) this.show(answer.message, answer.ok);
    } finally {
      this.writing = false;
      this.enableButtons();
    }
    this.render(false);
  }

  /** 保存: the fields the person changed, and nothing else. */
  async saveChanges() {
    if (!this.draft) return;
    const changes = this.draft.changes(this.inputs());
    if (changes.compDate === undefined && changes.memo === undefined) {
      if (this.guard.settled()) this.show(t('unchanged'), true);
      return;
    }
    await this.write(changes);
  }

  /**
   * Writes an edit against the values the screen showed and says what happened in one sentence.
   * @param {{compDate?: number, memo?: string}} fields
   */
  async write(fields) {
    if (this.station === null || !this.draft || this.writing || !this.guard.settled()) return;
    const why = fields.compDate === undefined ? null : dateRefusalText(fields.compDate, this.app.now());
    if (why) { this.show(why, false); return; }
    const station = this.station;
    this.writing = true;
    this.enableButtons();
    try {
      const answer = await this.app.edit(station, fields, this.draft.seen(fields));
      if (answer.stale && this.station === station) {
        // The person is told now: their typed values stay, the rest shows the new record, and
        // the next save is a change against what is shown.
        this.takeChanges(station);
        this.draft.acknowledge(this.values(station));
      }
      this.show(answer.message, answer.ok);
      this.kept = answer.kept ? station : null;
      if (answer.ok && this.station === station) this.render(true);
    } finally {
      this.writing = false;
      this.enableButtons();
    }
  }

  /**
   * Edits the storage had refused are saved now: the sentence of this station's says so.
   * @param {number[]} stations
   */
  retried(stations) {
    if (this.kept === null || this.kept !== this.station || !stations.includes(this.kept)) return;
    this.kept = null;
    this.show(t('edit.retriedSaved'), true, false);
  }

  /**
   * Takes the station's current values into the fields the person has not touched.
   * @param {number} station
   * @returns {{moved: string[], conflicts: string[]}}
   */
  takeChanges(station) {
    if (!this.draft) return { moved: [], conflicts: [] };
    const { inputs, moved, conflicts } = this.draft.rebase(this.values(station), this.inputs());
    if (moved.includes('compDate') && !conflicts.includes('compDate')) this.showDate(inputs.compDate);
    if (moved.includes('memo') && !conflicts.includes('memo')) this.el.memo.value = inputs.memo;
    return { moved, conflicts };
  }

  /** The counter under the memo: how many more Japanese characters fit (textLimits.js). */
  countMemo() {
    this.el.memoCount.textContent = memoCounterText(this.el.memo.value);
    this.el.memoCount.classList.toggle('bad', !memoRoom(this.el.memo.value).fits);
  }

  /** @param {string} message @param {boolean} ok @param {boolean} [toast] also as a toast (an answer to a tap) */
  show(message, ok, toast = ok) {
    this.el.result.textContent = message;
    this.el.result.classList.toggle('bad', !ok);
    if (toast) this.nav.toast(message);
  }

  /**
   * Completions changed (a sync, another screen).
   * @param {number[] | null} stations
   */
  refresh(stations) {
    if (this.station === null) return;
    if (stations !== null && !stations.includes(this.station)) return;
    // This screen's own edit is taken in by write() once committed.
    if (!this.writing && this.app.catalog?.station(this.station)) {
      const { moved, conflicts } = this.takeChanges(this.station);
      if (conflicts.length > 0) this.show(t('station.changedWhileEditing'), false);
      else if (moved.length > 0) this.show(t('station.changedElsewhere'), true, false);
    }
    this.render(false);
  }
}
