// 検索: stations by name or reading, folded as the CLI folds them (search.js), with the
// originals' other filters: prefecture, date group and completed / not completed.

import { PREFECTURES } from '../catalog.js';
import { label, parseDateGroup } from '../dates.js';
import { searchStations } from '../search.js';
import { language, t } from '../i18n.js';
import { byId, h } from './dom.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {{openStation: (id: number) => void}} Nav */

/** Results drawn at once; the count says how many more matched. */
const SHOWN = 200;

export class SearchScreen {
  /** @param {App} app @param {Nav} nav */
  constructor(app, nav) {
    this.app = app;
    this.nav = nav;
    this.input = byId('search-input', HTMLInputElement);
    this.pref = byId('search-pref', HTMLSelectElement);
    this.date = byId('search-date', HTMLInputElement);
    this.completion = byId('search-completion', HTMLSelectElement);
    this.count = byId('search-count');
    this.results = byId('search-results');
    this.input.placeholder = t('search.placeholder');
    this.date.placeholder = t('search.date');
    this.pref.replaceChildren(h('option', { attrs: { value: '' }, text: t('search.allPrefs') }),
      ...PREFECTURES.map((name, i) => h('option', { attrs: { value: String(i + 1) }, text: name })));
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    for (const el of [this.input, this.date]) el.addEventListener('input', () => this.schedule());
    for (const el of [this.pref, this.completion]) el.addEventListener('change', () => this.run());
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
    if (this.input.value || this.date.value || this.completion.value) this.run();
  }

  run() {
    const catalog = this.app.catalog;
    if (!catalog) { this.count.textContent = t('noCatalog'); this.results.replaceChildren(); return; }
    const text = this.input.value, dateText = this.date.value.trim();
    const dateGroup = dateText ? parseDateGroup(dateText) : null;
    if (dateText && !dateGroup) { this.count.textContent = t('search.badDate'); this.results.replaceChildren(); return; }
    if (!text.trim() && !dateText && !this.pref.value && !this.completion.value) {
      this.count.textContent = '';
      this.results.replaceChildren();
      return;
    }
    const completion = this.completion.value === 'completed' || this.completion.value === 'incomplete' ? this.completion.value : null;
    const ids = searchStations(catalog, text, {
      prefectures: this.pref.value ? [Number(this.pref.value)] : null, dateGroup, completion,
    }, (id) => this.app.compDate(id));
    this.count.textContent = t('search.count', ids.length) + (ids.length > SHOWN ? ` — ${t('search.more', ids.length - SHOWN)}` : '');
    this.results.replaceChildren(...ids.slice(0, SHOWN).map((id) => {
      const s = /** @type {import('../catalog.js').Station} */ (catalog.station(id));
      const code = this.app.compDate(id);
      return h('li', { data: { station: String(id) }, on: { click: () => this.nav.openStation(id) } },
        h('span', { class: code > 0 ? 'mark done' : 'mark' }),
        h('span', { class: 'main' },
          h('div', { class: 'name', text: s.name }),
          h('div', { class: 'detail', text: `${s.yomi} · ${catalog.operatorName(s.operator)} · ${PREFECTURES[s.pref - 1] ?? ''} · ${label(code, language())}` })));
    }));
  }
}
