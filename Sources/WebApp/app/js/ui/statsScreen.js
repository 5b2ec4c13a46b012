// 統計: the four hierarchies (stats.js) with each group's line `N駅中 M駅 R.r% 残りK駅`; tapping
// a group descends a level (an operator's line opens the line's screen), a station opens it.
// Below the top, 「地図選択」 shows the level's stations on the map (mapSelection.js statsFilter).

import { describeEn, describeJa, ratioPermille, StatisticsEngine } from '../stats.js';
import { label } from '../dates.js';
import { statsFilter } from '../mapSelection.js';
import { language, t } from '../i18n.js';
import { byId, h } from './dom.js';
import { ShownView } from './shownView.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../stats.js').Hierarchy} Hierarchy */
/** @typedef {import('../stats.js').Counts} Counts */
/**
 * @typedef {object} Nav
 * @property {(id: number) => void} openStation
 * @property {(id: number) => void} openLine
 * @property {(filter: import('../route.js').MapFilter) => void} showSelection
 */

export class StatsScreen extends ShownView {
  /** @param {App} app @param {Nav} nav */
  constructor(app, nav) {
    super();
    this.app = app;
    this.nav = nav;
    /** @type {Hierarchy} */
    this.hierarchy = 'operators';
    /** @type {string[]} */
    this.path = [];
    this.back = byId('stats-back');
    this.pathLine = byId('stats-path');
    this.header = byId('stats-header');
    this.list = byId('stats-list');
    this.mapSelect = byId('stats-map-select', HTMLButtonElement);
    this.mapSelect.addEventListener('click', () => {
      const filter = statsFilter(this.hierarchy, this.path);
      if (filter) this.nav.showSelection(filter);
    });
    for (const button of document.querySelectorAll('.stats-hierarchies button')) {
      button.addEventListener('click', () => {
        this.hierarchy = /** @type {Hierarchy} */ (/** @type {HTMLElement} */ (button).dataset.hierarchy);
        this.path = [];
        this.render();
      });
    }
    this.back.addEventListener('click', () => { this.path = this.path.slice(0, -1); this.render(); });
  }

  /** @param {Counts} c @param {boolean} dateGroup */
  describe(c, dateGroup) {
    return language() === 'ja' ? describeJa(c, dateGroup) : describeEn(c, dateGroup);
  }

  /** Counts the level again; one that vanished with an edit gives way to its parent (Schemas/domain-rules.md §22). */
  render() {
    for (const b of document.querySelectorAll('.stats-hierarchies button')) {
      b.classList.toggle('on', /** @type {HTMLElement} */ (b).dataset.hierarchy === this.hierarchy);
    }
    const catalog = this.app.catalog;
    if (!catalog) { this.header.textContent = t('noCatalog'); this.list.replaceChildren(); return; }
    const engine = new StatisticsEngine(catalog, (id) => this.app.compDate(id), (id) => this.app.replica.fold.memo(id));
    let level;
    for (;;) {
      try {
        level = engine.report(this.hierarchy, this.path);
        break;
      } catch {
        if (this.path.length === 0) return;
        this.path = this.path.slice(0, -1); // the group vanished with an edit: go up
      }
    }
    const dates = this.hierarchy === 'dates';
    this.back.hidden = this.path.length === 0;
    byId('screen-stats').dataset.depth = String(this.path.length); // the progress shows at the top level only
    this.pathLine.textContent = level.pathNames.join(' › ');
    this.mapSelect.hidden = statsFilter(this.hierarchy, this.path) === null;
    this.header.textContent = this.describe(level.counts, dates && this.path.length > 0);
    if (level.groups) {
      this.list.replaceChildren(...level.groups.map((g) => {
        const permille = Math.max(0, ratioPermille(g.counts));
        const bar = h('span', { class: permille === 1000 ? 'bar full' : 'bar' }, h('span'));
        /** @type {HTMLElement} */ (bar.firstChild).style.width = `${permille / 10}%`;
        const lineLevel = this.hierarchy === 'operators' && this.path.length === 2;
        const open = () => { if (lineLevel) { this.nav.openLine(Number(g.key)); return; } this.path = [...this.path, g.key]; this.render(); };
        return h('li', { data: { key: g.key }, on: { click: open } },
          h('span', { class: 'main' },
            h('div', { class: 'name', text: g.label }),
            h('div', { class: 'detail', text: this.describe(g.counts, dates) }),
            bar));
      }));
    } else {
      this.list.replaceChildren(...(level.stations ?? []).map((s) => h('li', { data: { station: String(s.station) }, on: { click: () => this.nav.openStation(s.station) } },
        h('span', { class: s.compDate > 0 ? 'mark done' : 'mark' }),
        h('span', { class: 'main' },
          h('div', { class: 'name', text: s.name }),
          h('div', { class: 'detail', text: label(s.compDate, language()) + (s.memo ? ` · ${s.memo}` : '') })))));
    }
  }
}
