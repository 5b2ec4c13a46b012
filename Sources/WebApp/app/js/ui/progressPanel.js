// 統計's progress, under the hierarchies: 乗下車駅数の推移 (progress.js, drawn by progressChart.js),
// 制覇した路線・事業者・都道府県 (milestones.js), and 進捗を共有 (shareCard.js). The card is made
// ahead, once the screen has rested, so that a tap shares it at once (Safari shares only while
// the tap is fresh).

import { progressSeries } from '../progress.js';
import { completedGroups } from '../milestones.js';
import { todayCode } from '../dates.js';
import { formatCount, t } from '../i18n.js';
import { byId, elements, h } from './dom.js';
import { ShownView } from './shownView.js';
import { progressChart } from './progressChart.js';
import { progressCardFile, shareCardFile } from './shareCard.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../milestones.js').GroupKind} GroupKind */

/** How long the screen rests before the card is made. */
const CARD_DELAY_MS = 1000;

/** @type {Array<{kind: GroupKind, title: 'completed.lines' | 'completed.operators' | 'completed.prefectures'}>} */
const KINDS = [
  { kind: 'line', title: 'completed.lines' },
  { kind: 'operator', title: 'completed.operators' },
  { kind: 'prefecture', title: 'completed.prefectures' },
];

export class ProgressPanel extends ShownView {
  /** @param {App} app */
  constructor(app) {
    super();
    this.app = app;
    this.el = elements('stats-', ['progress', 'progressChart', 'progressSvg', 'progressNote', 'completed']);
    this.shareButton = byId('share-progress', HTMLButtonElement);
    this.shareResult = byId('share-result');
    /** @type {{key: string, file: Promise<File | null>} | null} */
    this.card = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.cardTimer = null;
    this.shareButton.addEventListener('click', () => void this.share());
  }

  render() {
    const catalog = this.app.catalog;
    this.el.progress.hidden = !catalog;
    if (!catalog) return;
    const compDate = (/** @type {number} */ id) => this.app.compDate(id);
    const series = progressSeries(catalog.enabledStations, compDate, todayCode(this.app.now()));
    this.el.progressChart.dataset.total = String(series.total);
    this.el.progressSvg.replaceChildren(progressChart(series, t('progress.label', formatCount(series.total))));
    this.el.progressNote.textContent = series.years.length === 0 ? t('progress.none')
      : t('progress.total', formatCount(series.total)) + (series.undated > 0 ? t('progress.undated', formatCount(series.undated)) : '');

    const groups = completedGroups(catalog, compDate);
    this.el.completed.replaceChildren(...(groups.length === 0 ? [h('p', { class: 'sub', text: t('completed.none') })]
      : KINDS.flatMap(({ kind, title }) => {
        const of = groups.filter((g) => g.kind === kind);
        return of.length === 0 ? [] : [
          h('h3', { text: t(title, of.length) }),
          h('ul', { class: 'completed-list' }, ...of.map((g) => h('li', { data: { kind: g.kind, id: String(g.id) }, text: g.name }))),
        ];
      })));
    this.scheduleCard();
  }

  /** What the card shows depends on: the catalogue, every record, the day. */
  cardKey() {
    return `${this.app.catalog?.version} ${this.app.replica.eventCount()} ${todayCode(this.app.now())}`;
  }

  scheduleCard() {
    if (this.cardTimer) clearTimeout(this.cardTimer);
    this.cardTimer = setTimeout(() => { this.cardTimer = null; if (this.visible) void this.prepareCard(); }, CARD_DELAY_MS);
  }

  /** The card of the records now, made once per state. */
  prepareCard() {
    const catalog = this.app.catalog;
    if (!catalog) return Promise.resolve(null);
    const key = this.cardKey();
    if (this.card?.key !== key) {
      const file = progressCardFile(catalog, (id) => this.app.compDate(id), this.app.now()).catch(() => null);
      this.card = { key, file };
    }
    return this.card.file;
  }

  async share() {
    this.shareResult.textContent = '';
    this.shareResult.classList.remove('bad');
    this.shareButton.disabled = true;
    try {
      const file = await this.prepareCard();
      const answer = file ? await shareCardFile(file) : { ok: false, message: t('share.failed') };
      this.shareResult.textContent = answer.message;
      this.shareResult.classList.toggle('bad', !answer.ok);
    } finally {
      this.shareButton.disabled = false;
    }
  }
}
