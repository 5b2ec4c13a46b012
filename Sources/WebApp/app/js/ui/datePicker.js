// The fuzzy date picker (Schemas/domain-rules.md §23): year, month and day selects, each of which may be 不明
// (unknown), and, on 駅, a 「乗下車済」 checkbox, the switch of iOS (the checkbox of Android):
// unchecked, the picker's value is 0 (not completed) whatever the selects show. Its value is a
// comp_date code (dates.compose): year unknown gives 1, month unknown forces the day unknown,
// and the day list follows the month's length. A not-completed station opens with the box
// unchecked and the selects on the date proposed (the remembered date), so that ticking the box
// records it: entering the stations of one trip needs no wheel moved. Changing a select ticks the
// box (a person picking a date means a completed station). Without a checkbox (まとめて記録) the
// value is always a completed date.

import { compose, daysInMonth, decode, FIRST_YEAR, tokyoDay } from '../dates.js';
import { t } from '../i18n.js';
import { h } from './dom.js';

const UNKNOWN = '';

export class DatePicker {
  /**
   * @param {HTMLSelectElement} year @param {HTMLSelectElement} month @param {HTMLSelectElement} day
   * @param {() => number} now
   * @param {HTMLInputElement | null} [completed] the 乗下車済 checkbox; none: always completed
   */
  constructor(year, month, day, now, completed = null) {
    this.year = year;
    this.month = month;
    this.day = day;
    this.now = now;
    this.completed = completed;
    year.addEventListener('change', () => { this.sync(); this.tick(); });
    month.addEventListener('change', () => { this.sync(); this.tick(); });
    day.addEventListener('change', () => this.tick());
    completed?.addEventListener('change', () => this.showState());
  }

  /**
   * Fills the year list up to this year in Japan, then shows `code`; for 0 (not completed) the box
   * is unticked and the selects show `proposal`, or with none this year, month and day unknown.
   * @param {number} code
   * @param {number} [proposal] a completed date to show while not completed
   */
  set(code, proposal = 0) {
    const today = tokyoDay(this.now());
    const years = [];
    for (let y = today.year; y >= FIRST_YEAR; y--) years.push(h('option', { attrs: { value: String(y) }, text: String(y) }));
    this.year.replaceChildren(h('option', { attrs: { value: UNKNOWN }, text: t('unknown') }), ...years);
    this.month.replaceChildren(h('option', { attrs: { value: UNKNOWN }, text: t('unknown') }),
      ...Array.from({ length: 12 }, (_, i) => h('option', { attrs: { value: String(i + 1) }, text: String(i + 1) })));
    if (this.completed) this.completed.checked = code > 0;
    const shown = decode(code > 0 ? code : proposal > 0 ? proposal : today.year * 10000);
    this.year.value = !shown || shown.kind === 'none' ? String(today.year) : shown.kind === 'unknown' ? UNKNOWN : String(shown.year);
    this.month.value = shown && shown.month ? String(shown.month) : UNKNOWN;
    this.sync();
    this.day.value = shown && shown.day ? String(shown.day) : UNKNOWN;
    this.showState();
  }

  /** Enables what the year allows and lists the month's days. */
  sync() {
    const yearKnown = this.year.value !== UNKNOWN;
    if (!yearKnown) this.month.value = UNKNOWN;
    this.month.disabled = !yearKnown;
    const monthKnown = yearKnown && this.month.value !== UNKNOWN;
    const keep = this.day.value;
    const days = monthKnown ? daysInMonth(Number(this.year.value), Number(this.month.value)) : 0;
    this.day.replaceChildren(h('option', { attrs: { value: UNKNOWN }, text: t('unknown') }),
      ...Array.from({ length: days }, (_, i) => h('option', { attrs: { value: String(i + 1) }, text: String(i + 1) })));
    this.day.value = keep && Number(keep) <= days ? keep : UNKNOWN;
    this.day.disabled = !monthKnown;
  }

  /** A select was changed by the person: the station is completed on that date. */
  tick() {
    if (this.completed && !this.completed.checked) {
      this.completed.checked = true;
      this.showState();
    }
  }

  /** Greys the selects while the box is unticked (their date is only proposed). */
  showState() {
    this.year.closest('.date-picker')?.classList.toggle('off', !!this.completed && !this.completed.checked);
  }

  /** The comp_date code shown. */
  value() {
    if (this.completed && !this.completed.checked) return 0;
    const year = this.year.value === UNKNOWN ? null : Number(this.year.value);
    const month = this.month.value === UNKNOWN ? null : Number(this.month.value);
    const day = this.day.value === UNKNOWN ? null : Number(this.day.value);
    return compose(year, month, day);
  }
}
