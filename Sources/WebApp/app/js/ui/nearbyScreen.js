// 現在地: the stations nearest the device's position (the apps' 「一覧」, nearby.js), the nearest
// one not yet completed, and 「今日、乗下車しました！」 for a chosen station while it is not
// completed and is within reach of a fresh fix (nearby.js withinReach): at sea or far from every
// station, the screen says how far the nearest one is and offers nothing to record. A result
// sentence belongs to the station it was for. When the fix is too coarse to name one nearest
// station (nearestCandidates.js: iOS's approximate location), the screen says so and offers the
// candidates instead of choosing one. Geolocation needs no network, so this works offline.
// Each row has a checkbox that picks its station for まとめて記録 (batchBar.js), for the stations of
// a trip entered afterwards; a new fix drops the picks.

import { label, todayCode } from '../dates.js';
import { distanceLabel, distanceLabelEn, FIX_MAX_AGE_MS, metresTo, nearest, withinReach } from '../nearby.js';
import { accuracyLabel, nearestCandidates } from '../nearestCandidates.js';
import { language, t } from '../i18n.js';
import { byId, elements, h } from './dom.js';
import { ActivationGuard } from './activationGuard.js';
import { BatchPicking } from './batchPicking.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../catalog.js').Station} Station */
/** @typedef {{openStation: (id: number) => void, toast: (message: string) => void}} Nav */

/** Stations listed: a screenful, as `oritsubushi nearby` lists by default. */
const LIST_LENGTH = 20;

/** Candidates named in the sentence; the others are in the list below it. */
const CANDIDATES_NAMED = 6;

export class NearbyScreen {
  /**
   * @param {App} app @param {Nav} nav
   * @param {import('./batchPicking.js').Bar} bar the まとめて記録 bar
   */
  constructor(app, nav, bar) {
    this.app = app;
    this.nav = nav;
    this.batch = new BatchPicking(bar, () => this.render());
    this.el = elements('nearby-', ['list', 'status', 'incomplete', 'selected', 'result', 'candidates', 'locate']);
    this.todayButton = byId('today-button', HTMLButtonElement);
    /** @type {{lat: number, lng: number, accuracy: number} | null} */
    this.position = null;
    /** @type {number | null} */
    this.selected = null;
    this.located = false;
    this.writing = false;
    this.guard = new ActivationGuard(() => this.enableButton());
    this.el.locate.addEventListener('click', () => this.locate());
    this.todayButton.addEventListener('click', () => void this.recordToday());
  }

  /** Called when the tab opens: the first time, find the position. */
  show() {
    this.guard.arm();
    if (!this.located) this.locate();
    else this.render();
  }

  locate() {
    this.located = true;
    if (!('geolocation' in navigator)) { this.el.status.textContent = t('nearby.unavailable'); return; }
    this.el.status.textContent = t('nearby.locating');
    // Until the new fix arrives nothing may be recorded for the old one's stations.
    this.position = null;
    this.selected = null;
    this.clearResult();
    this.el.list.replaceChildren();
    this.batch.emptied();
    this.el.incomplete.hidden = true;
    this.el.candidates.hidden = true;
    this.renderSelection();
    navigator.geolocation.getCurrentPosition(
      (p) => {
        this.position = { lat: p.coords.latitude, lng: p.coords.longitude, accuracy: p.coords.accuracy };
        this.selected = null;
        this.guard.arm();
        this.render();
      },
      (error) => {
        this.el.status.textContent = t(error.code === error.PERMISSION_DENIED ? 'nearby.denied' : error.code === error.TIMEOUT ? 'nearby.timeout' : 'nearby.noFix');
      },
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: FIX_MAX_AGE_MS },
    );
  }

  /** @param {number} m */
  distance(m) {
    return language() === 'ja' ? distanceLabel(m) : distanceLabelEn(m);
  }

  render() {
    const catalog = this.app.catalog;
    if (!catalog) { this.el.status.textContent = t('noCatalog'); this.el.list.replaceChildren(); return; }
    if (!this.position) return;
    const { lat, lng, accuracy } = this.position;
    this.el.status.textContent = t('nearby.at', Math.round(accuracy));
    const hits = nearest(catalog.enabledStations, lat, lng, LIST_LENGTH);
    const open = nearest(catalog.enabledStations, lat, lng, 1, (s) => this.app.compDate(s.id) === 0)[0];
    // A coarse fix names no nearest station: nothing is chosen for the person, and no nearest
    // station not yet done is named either.
    const { ambiguous, candidates } = nearestCandidates(hits, accuracy);
    this.el.incomplete.hidden = ambiguous;
    this.el.incomplete.replaceChildren(open
      ? h('a', { attrs: { href: '#' }, text: t('nearby.nearestIncomplete', `${open.station.name}（${catalog.operatorName(open.station.operator)}）`, this.distance(open.metres)), on: { click: (e) => { e.preventDefault(); this.nav.openStation(open.station.id); } } })
      : t('nearby.allDone'));
    this.renderCandidates(ambiguous ? candidates : [], accuracy);
    if (this.selected !== null && !hits.some((hit) => hit.station.id === this.selected)) this.selected = null;
    if (this.selected === null && !ambiguous) this.selected = hits[0]?.station.id ?? null;
    this.el.list.replaceChildren(...hits.map(({ station, metres }) => this.item(station, metres)));
    this.batch.listed((id) => (hits.some((hit) => hit.station.id === id) ? this.app.compDate(id) : undefined));
    const first = hits[0];
    if (first && !withinReach(first.metres, accuracy)) {
      this.el.incomplete.replaceChildren(t('nearby.tooFar', first.station.name, this.distance(first.metres)));
      this.el.incomplete.hidden = false;
    }
    this.renderSelection();
  }

  /**
   * The sentence that the fix is approximate, with its candidates as buttons; hidden for none.
   * @param {Array<{station: Station, metres: number}>} candidates @param {number} accuracy
   */
  renderCandidates(candidates, accuracy) {
    this.el.candidates.hidden = candidates.length === 0;
    if (candidates.length === 0) { this.el.candidates.replaceChildren(); return; }
    const catalog = /** @type {import('../catalog.js').Catalog} */ (this.app.catalog);
    const named = candidates.slice(0, CANDIDATES_NAMED).map(({ station, metres }) => h('button', {
      class: 'link', data: { station: String(station.id) }, attrs: { type: 'button' },
      text: `${station.name}（${catalog.operatorName(station.operator)}・${this.distance(metres)}）`,
      on: { click: () => this.select(station.id) },
    }));
    const more = candidates.length - named.length;
    this.el.candidates.replaceChildren(h('span', { text: t('nearby.approximate', accuracyLabel(accuracy, language())) }), ...named);
    if (more > 0) this.el.candidates.append(h('span', { class: 'sub', text: t('nearby.candidatesMore', more) }));
  }

  /** @param {Station} s @param {number} metres */
  item(s, metres) {
    const catalog = /** @type {import('../catalog.js').Catalog} */ (this.app.catalog);
    const code = this.app.compDate(s.id);
    const lines = catalog.enabledLinesOf(s).map((l) => l.name).join('、');
    const li = h('li', { data: { station: String(s.id) }, attrs: { 'aria-selected': String(s.id === this.selected) }, on: { click: () => this.select(s.id) } },
      this.batch.box(s.id, code, s.name),
      h('span', { class: code > 0 ? 'mark done' : 'mark' }),
      h('span', { class: 'distance', text: this.distance(metres) }),
      h('span', { class: 'main' },
        h('div', { class: 'name', text: s.name }),
        h('div', { class: 'detail', text: `${label(code, language())} · ${catalog.operatorName(s.operator)} ${lines}` })),
      h('button', { class: 'go', text: '›', attrs: { type: 'button', 'aria-label': t('open') }, on: { click: (e) => { e.stopPropagation(); this.nav.openStation(s.id); } } }));
    if (s.id === this.selected) li.classList.add('selected');
    return li;
  }

  /** @param {number} id */
  select(id) {
    if (id !== this.selected) this.clearResult();
    this.selected = id;
    this.renderSelection();
  }

  clearResult() {
    this.el.result.textContent = '';
    this.el.result.classList.remove('bad');
  }

  /**
   * Whether a station is not completed, how far it is from the fix (null without one), and
   * whether 「今日、乗下車しました！」 may be offered for it: not completed and within reach.
   * @param {Station} s
   */
  reach(s) {
    const open = this.app.compDate(s.id) === 0;
    const away = this.position ? metresTo(s, this.position.lat, this.position.lng) : null;
    const near = away !== null && this.position !== null && withinReach(away, this.position.accuracy);
    return { open, away, recordable: open && near };
  }

  renderSelection() {
    for (const li of this.el.list.children) {
      const on = /** @type {HTMLElement} */ (li).dataset.station === String(this.selected);
      li.classList.toggle('selected', on);
      li.setAttribute('aria-selected', String(on));
    }
    for (const b of this.el.candidates.querySelectorAll('button')) {
      b.classList.toggle('on', /** @type {HTMLElement} */ (b).dataset.station === String(this.selected));
    }
    const s = this.selected === null ? undefined : this.app.catalog?.station(this.selected);
    this.el.selected.textContent = s ? `${s.name}（${this.app.catalog?.operatorName(s.operator) ?? ''}）` : t('nearby.choose');
    // Offered only while the station is not completed (Schemas/domain-rules.md §23) and only
    // where the person is (Schemas/phone-app.md "Today only where you are").
    const reach = s ? this.reach(s) : null;
    this.todayButton.hidden = !reach?.recordable;
    if (s && reach && reach.open && !reach.recordable && reach.away !== null) {
      this.el.selected.textContent = t('nearby.outOfReach', s.name, this.distance(reach.away));
    }
  }

  enableButton() {
    this.todayButton.disabled = this.writing || !this.guard.settled();
  }

  async recordToday() {
    const s = this.selected === null ? undefined : this.app.catalog?.station(this.selected);
    if (!s || !this.guard.settled() || !this.reach(s).recordable) return;
    const station = s.id;
    this.writing = true;
    this.enableButton();
    // Offered because the screen showed it not completed: refused if a sync completed it since.
    const answer = await this.app.edit(station, { compDate: todayCode(this.app.now()) }, { compDate: 0 });
    this.writing = false;
    this.enableButton();
    if (this.selected !== station) return; // the answer belongs to a station no longer shown
    this.el.result.textContent = answer.message;
    this.el.result.classList.toggle('bad', !answer.ok);
    if (answer.ok) this.nav.toast(answer.message);
  }

  /** Completions changed. */
  refresh() {
    if (this.position) this.render();
  }
}
