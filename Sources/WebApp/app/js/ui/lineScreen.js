// 路線: one line as a line (opened from 統計's lines of an operator, from a station's lines, or
// by #/line/L_ID): its name and operator, how far it is done (「12駅中 8駅 乗下車済・残り4駅」),
// 「地図選択」 (the map showing only its stations, its completed sections drawn in the 済
// colour), and its stations in line order, each done or not, each opening its station, each with
// a checkbox that picks it for まとめて記録 (batchBar.js).

import { label } from '../dates.js';
import { lineProgress, progressText } from '../lineSections.js';
import { lineStations } from '../mapSelection.js';
import { language, t } from '../i18n.js';
import { elements, h } from './dom.js';
import { BatchPicking } from './batchPicking.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../route.js').MapFilter} MapFilter */
/**
 * @typedef {object} Nav
 * @property {(id: number) => void} openStation
 * @property {(filter: MapFilter) => void} showSelection
 * @property {() => void} back
 */

export class LineScreen {
  /**
   * @param {App} app @param {Nav} nav
   * @param {import('./batchPicking.js').Bar} bar the まとめて記録 bar
   */
  constructor(app, nav, bar) {
    this.app = app;
    this.nav = nav;
    this.batch = new BatchPicking(bar, () => this.render());
    /** @type {number | null} */
    this.line = null;
    this.el = elements('line-', ['name', 'operator', 'progress', 'empty', 'stations', 'back'], { mapSelect: HTMLButtonElement });
    this.el.mapSelect.addEventListener('click', () => { if (this.line !== null) this.nav.showSelection({ line: this.line }); });
    this.el.back.addEventListener('click', () => this.nav.back());
  }

  /**
   * Shows a line; another line's picks are dropped.
   * @param {number} id
   */
  open(id) {
    if (id !== this.line) this.batch.picks.clear();
    this.line = id;
    this.render();
  }

  render() {
    const catalog = this.app.catalog;
    const line = this.line === null ? undefined : catalog?.lines.get(this.line);
    const stations = catalog && this.line !== null ? lineStations(catalog, this.line) : null;
    this.el.name.textContent = line?.name ?? '';
    this.el.operator.textContent = line && catalog ? catalog.operatorName(line.operator) : '';
    this.el.empty.hidden = !!stations;
    this.el.empty.textContent = catalog ? t('line.unknown') : t('noCatalog');
    this.el.mapSelect.hidden = !stations;
    if (!stations) {
      this.el.progress.textContent = '';
      this.el.stations.replaceChildren();
      this.batch.emptied();
      return;
    }
    const dateOf = (/** @type {number} */ id) => this.app.compDate(id);
    this.el.progress.textContent = progressText(lineProgress(stations.map((s) => s.id), dateOf), language());
    this.el.stations.replaceChildren(...stations.map((s) => {
      const code = dateOf(s.id);
      return h('li', { data: { station: String(s.id), done: String(code > 0) }, on: { click: () => this.nav.openStation(s.id) } },
        this.batch.box(s.id, code, s.name),
        h('span', { class: code > 0 ? 'mark done' : 'mark' }),
        h('span', { class: 'main' },
          h('div', { class: 'name', text: s.name }),
          h('div', { class: 'detail', text: label(code, language()) })));
    }));
    this.batch.listed((id) => (stations.some((s) => s.id === id) ? dateOf(id) : undefined));
  }

  /** Completions or the catalogue changed. */
  refresh() {
    if (this.line !== null) this.render();
  }
}
