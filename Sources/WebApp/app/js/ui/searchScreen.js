// 検索: stations by name, reading, either, or line (the originals' 駅名 / 読み / 路線), from the
// start of the word (前方一致) or anywhere in it (部分一致), folded as the CLI folds them
// (search.js), with the originals' other filters: prefecture, date group (the originals'
// keywords too: 2013年9月, 2013年 月日不明, 不明) and completed / not completed. 「地図選択」 shows
// the results on the map; each result has a checkbox that picks it for まとめて記録.

import { PREFECTURES } from '../catalog.js';
import { label, parseDateGroup } from '../dates.js';
import { searchStations } from '../search.js';
import { language, t } from '../i18n.js';
import { elements, h } from './dom.js';
import { BatchPicking } from './batchPicking.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../route.js').MapFilter} MapFilter */
/** @typedef {import('../route.js').SearchBy} SearchBy */
/** @typedef {import('../route.js').SearchMatch} SearchMatch */
/** @typedef {{openStation: (id: number) => void, showSelection: (filter: MapFilter) => void}} Nav */

/** Results drawn at once; the count says how many more matched. */
const SHOWN = 200;

export class SearchScreen {
  /**
   * @param {App} app @param {Nav} nav
   * @param {import('./batchPicking.js').Bar} bar the まとめて記録 bar
   */
  constructor(app, nav, bar) {
    this.app = app;
    this.nav = nav;
    this.batch = new BatchPicking(bar, () => this.run());
    this.el = elements('search-', ['count', 'results'], { input: HTMLInputElement, pref: HTMLSelectElement,
      date: HTMLInputElement, completion: HTMLSelectElement, mapSelect: HTMLButtonElement });
    /** @type {SearchBy} */
    this.by = 'any';
    /** @type {SearchMatch} */
    this.match = 'prefix';
    this.el.input.placeholder = t('search.placeholder');
    this.el.date.placeholder = t('search.date');
    this.el.pref.replaceChildren(h('option', { attrs: { value: '' }, text: t('search.allPrefs') }),
      ...PREFECTURES.map((name, i) => h('option', { attrs: { value: String(i + 1) }, text: name })));
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    for (const field of [this.el.input, this.el.date]) field.addEventListener('input', () => this.schedule());
    for (const field of [this.el.pref, this.el.completion]) field.addEventListener('change', () => this.run());
    for (const button of document.querySelectorAll('.search-by button')) {
      button.addEventListener('click', () => this.setHow(/** @type {SearchBy} */ (/** @type {HTMLElement} */ (button).dataset.by), this.match));
    }
    for (const button of document.querySelectorAll('.search-match button')) {
      button.addEventListener('click', () => this.setHow(this.by, /** @type {SearchMatch} */ (/** @type {HTMLElement} */ (button).dataset.match)));
    }
    this.el.mapSelect.addEventListener('click', () => { const filter = this.filter(); if (filter) this.nav.showSelection(filter); });
  }

  /**
   * What the text is matched against, and how.
   * @param {SearchBy} by @param {SearchMatch} match
   */
  setHow(by, match) {
    this.by = by;
    this.match = match;
    for (const b of document.querySelectorAll('.search-by button')) b.classList.toggle('on', /** @type {HTMLElement} */ (b).dataset.by === by);
    for (const b of document.querySelectorAll('.search-match button')) b.classList.toggle('on', /** @type {HTMLElement} */ (b).dataset.match === match);
    this.el.input.placeholder = t(by === 'line' ? 'search.placeholderLine' : 'search.placeholder');
    this.run();
  }

  schedule() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), 150);
  }

  show() {
    this.run();
  }

  /** Completions changed: the filters may select other stations. */
  refresh() {
    if (this.el.input.value || this.el.date.value || this.el.completion.value) this.run();
  }

  /**
   * The search as a map selection (the same stations: mapSelection.js), or null when nothing is
   * searched.
   * @returns {MapFilter | null}
   */
  filter() {
    const text = this.el.input.value.trim(), dateText = this.el.date.value.trim();
    if (!text && !dateText && !this.el.pref.value && !this.el.completion.value) return null;
    /** @type {MapFilter} */
    const filter = {};
    if (this.el.pref.value) filter.pref = Number(this.el.pref.value);
    if (dateText) filter.date = dateText;
    if (this.el.completion.value === 'completed' || this.el.completion.value === 'incomplete') filter.completion = this.el.completion.value;
    if (text) Object.assign(filter, { search: text, by: this.by, match: this.match });
    return filter;
  }

  run() {
    const catalog = this.app.catalog;
    this.el.mapSelect.hidden = true;
    if (!catalog) { this.el.count.textContent = t('noCatalog'); this.drawResults([]); return; }
    const text = this.el.input.value, dateText = this.el.date.value.trim();
    const dateGroup = dateText ? parseDateGroup(dateText) : null;
    if (dateText && !dateGroup) { this.el.count.textContent = t('search.badDate'); this.drawResults([]); return; }
    if (!text.trim() && !dateText && !this.el.pref.value && !this.el.completion.value) {
      this.el.count.textContent = '';
      this.drawResults([]);
      return;
    }
    const completion = this.el.completion.value === 'completed' || this.el.completion.value === 'incomplete' ? this.el.completion.value : null;
    const ids = searchStations(catalog, text, {
      prefectures: this.el.pref.value ? [Number(this.el.pref.value)] : null, dateGroup, completion,
    }, (id) => this.app.compDate(id), { by: this.by, match: this.match });
    this.el.count.textContent = t('search.count', ids.length) + (ids.length > SHOWN ? ` — ${t('search.more', ids.length - SHOWN)}` : '');
    this.el.mapSelect.hidden = ids.length === 0;
    this.drawResults(ids.slice(0, SHOWN));
  }

  /**
   * Draws the results; picks no longer listed are dropped.
   * @param {number[]} ids
   */
  drawResults(ids) {
    const catalog = this.app.catalog;
    const listed = new Set(ids);
    this.el.results.replaceChildren(...(catalog ? ids : []).map((id) => {
      const s = /** @type {import('../catalog.js').Station} */ (catalog?.station(id));
      const code = this.app.compDate(id);
      return h('li', { data: { station: String(id) }, on: { click: () => this.nav.openStation(id) } },
        this.batch.box(id, code, s.name),
        h('span', { class: code > 0 ? 'mark done' : 'mark' }),
        h('span', { class: 'main' },
          h('div', { class: 'name', text: s.name }),
          h('div', { class: 'detail', text: `${s.yomi} · ${catalog?.operatorName(s.operator) ?? ''} · ${PREFECTURES[s.pref - 1] ?? ''} · ${label(code, language())}` })));
    }));
    this.batch.listed((id) => (listed.has(id) ? this.app.compDate(id) : undefined));
  }
}
