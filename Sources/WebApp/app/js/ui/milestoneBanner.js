// The sentence that an edit completed a line, an operator or a prefecture
// (「近畿日本鉄道 名古屋線を制覇しました！」, milestones.js), at the top of every screen. Edits that
// arrive together (several stations recorded in a row) are said in one banner; it goes after
// SHOWN_MS, or at a tap.

import { milestonesOf } from '../milestones.js';
import { t } from '../i18n.js';
import { byId } from './dom.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../milestones.js').CompletedGroup} CompletedGroup */

/** How long the banner stays. */
const SHOWN_MS = 8000;

/** How long edits are gathered into one banner. */
const GATHER_MS = 300;

export class MilestoneBanner {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.el = byId('milestone');
    /** @type {number[]} */
    this.pending = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.gatherTimer = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.hideTimer = null;
    this.el.addEventListener('click', () => this.hide());
  }

  /**
   * Stations an edit of this device took from 未乗下車 to a date.
   * @param {number[]} stations
   */
  completed(stations) {
    this.pending.push(...stations);
    if (this.gatherTimer) return;
    this.gatherTimer = setTimeout(() => {
      this.gatherTimer = null;
      const stations = this.pending;
      this.pending = [];
      const catalog = this.app.catalog;
      if (catalog) this.say(milestonesOf(catalog, (id) => this.app.compDate(id), stations));
    }, GATHER_MS);
  }

  /** @param {CompletedGroup[]} groups */
  say(groups) {
    if (groups.length === 0) return;
    this.el.textContent = groups.map((g) => t('milestone.completed', g.name)).join(' ');
    this.el.hidden = false;
    if (this.hideTimer) clearTimeout(this.hideTimer);
    this.hideTimer = setTimeout(() => this.hide(), SHOWN_MS);
  }

  hide() {
    this.el.hidden = true;
  }
}
