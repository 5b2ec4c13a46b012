// The fuzzy date picker (Schemas/domain-rules.md §23): year, month and day selects, each of which may be 不明
// (unknown); the year select also offers 未乗下車 (not completed). Its value is a comp_date code
// (dates.compose): year unknown gives 1, month unknown forces the day unknown, and the day list
// follows the month's length.

import { compose, daysInMonth, decode, FIRST_YEAR, label, tokyoDay } from '../dates.js';
import { language, t } from '../i18n.js';
import { h } from './dom.js';

const NOT_COMPLETED = 'none';
const UNKNOWN = '';

export class DatePicker {
  /**
   * @param {HTMLSelectElement} year @param {HTMLSelectElement} month @param {HTMLSelectElement} day
   * @param {() => number} now
   */
  constructor(year, month, day, now) {
    this.year = year;
    this.month = month;
    this.day = day;
    this.now = now;
    year.addEventListener('change', () => this.sync());
    month.addEventListener('change', () => this.sync());
  }

  /**
   * Fills the year list up to this year in Japan, then shows `code`.
   * @param {number} code
   */
  set(code) {
    const today = tokyoDay(this.now());
    const years = [];
    for (let y = today.year; y >= FIRST_YEAR; y--) years.push(h('option', { attrs: { value: String(y) }, text: String(y) }));
    this.year.replaceChildren(
      h('option', { attrs: { value: NOT_COMPLETED }, text: label(0, language()) }),
      h('option', { attrs: { value: UNKNOWN }, text: t('unknown') }), ...years);
    this.month.replaceChildren(h('option', { attrs: { value: UNKNOWN }, text: t('unknown') }),
      ...Array.from({ length: 12 }, (_, i) => h('option', { attrs: { value: String(i + 1) }, text: String(i + 1) })));
    const d = decode(code) ?? decode(0);
    this.year.value = !d || d.kind === 'none' ? NOT_COMPLETED : d.kind === 'unknown' ? UNKNOWN : String(d.year);
    this.month.value = d && d.month ? String(d.month) : UNKNOWN;
    this.sync();
    this.day.value = d && d.day ? String(d.day) : UNKNOWN;
  }

  /** Enables what the year allows and lists the month's days. */
  sync() {
    const completed = this.year.value !== NOT_COMPLETED;
    const yearKnown = completed && this.year.value !== UNKNOWN;
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

  /** The comp_date code shown. */
  value() {
    if (this.year.value === NOT_COMPLETED) return 0;
    const year = this.year.value === UNKNOWN ? null : Number(this.year.value);
    const month = this.month.value === UNKNOWN ? null : Number(this.month.value);
    const day = this.day.value === UNKNOWN ? null : Number(this.day.value);
    return compose(year, month, day);
  }
}
